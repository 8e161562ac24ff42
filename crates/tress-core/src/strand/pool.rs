//! Persistent worker threads for [`super::StrandSim`] (feature `std`).
//!
//! A frame's threaded step used to spawn its helpers with
//! `std::thread::scope`: measured on the 2-vCPU VM (`wake-bench`), a scoped
//! spawn and join costs ~40–50 µs median, while waking a parked thread and
//! hearing back costs ~8–10 µs (`docs/PERFORMANCE.md`, "Parked helpers and
//! cache affinity"). These threads are
//! started once and parked between frames; each frame hands them a borrowed
//! job and waits until every one has finished with it.

// The crate links `std` (not a separate `alloc`) under this feature.
#![allow(clippy::std_instead_of_alloc)]

use core::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::vec::Vec;

/// A job as the workers see it: the caller's closure with its lifetime
/// erased. Only [`Pool::run`] makes one, and it does not return before every
/// worker is done with it.
#[derive(Clone, Copy)]
struct JobRef(*const (dyn Fn(usize) + Sync + 'static));

// SAFETY: the pointee is `Sync` (shared calls from several threads are
// allowed) and outlives every use (see `Pool::run`), so sending the pointer
// to another thread is sound.
#[allow(unsafe_code)]
unsafe impl Send for JobRef {}

#[derive(Default)]
struct Orders {
    /// The current job; set with a new `generation`.
    job: Option<JobRef>,
    generation: u64,
    quit: bool,
}

struct Slot {
    orders: Mutex<Orders>,
    wake: Condvar,
    /// Last generation this worker finished (also on a panic).
    finished: AtomicU64,
    /// Whether the job of `finished` panicked on this worker (written before
    /// `finished`, read after it: `finished`'s release/acquire orders it).
    panicked: AtomicBool,
    done_lock: Mutex<()>,
    done: Condvar,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

struct Worker {
    slot: Arc<Slot>,
    thread: Option<JoinHandle<()>>,
}

/// Parked helper threads that each run the caller's job once per
/// [`Pool::run`].
pub(crate) struct Pool {
    workers: Vec<Worker>,
    generation: u64,
}

impl core::fmt::Debug for Pool {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Pool")
            .field("workers", &self.workers.len())
            .finish_non_exhaustive()
    }
}

fn worker_loop(slot: &Slot, index: usize) {
    let mut seen = 0;
    loop {
        let job = {
            let mut o = lock(&slot.orders);
            while o.generation == seen && !o.quit {
                o = slot.wake.wait(o).unwrap_or_else(PoisonError::into_inner);
            }
            if o.quit {
                return;
            }
            seen = o.generation;
            o.job
        };
        let ok = job.is_none_or(|j| {
            // SAFETY: `Pool::run` published `j` with generation `seen` and
            // does not return or unwind before `finished` reaches `seen`,
            // which happens below, after the last use of `j`.
            #[allow(unsafe_code)]
            let f = unsafe { &*j.0 };
            std::panic::catch_unwind(core::panic::AssertUnwindSafe(|| f(index))).is_ok()
        });
        slot.panicked.store(!ok, Ordering::Relaxed);
        {
            let _g = lock(&slot.done_lock);
            slot.finished.store(seen, Ordering::Release);
        }
        slot.done.notify_all();
    }
}

/// Waits for the workers on drop, so a panic in the caller's share of a job
/// cannot unwind past borrows the workers still use.
struct WaitAll<'a> {
    pool: &'a Pool,
}

impl Drop for WaitAll<'_> {
    fn drop(&mut self) {
        for w in &self.pool.workers {
            let slot = &*w.slot;
            // A short spin first: the caller usually finishes its share at
            // about the same time as the workers, and sleeping on the
            // condition variable costs a wake-up of several microseconds.
            let mut spins = 0u32;
            while slot.finished.load(Ordering::Acquire) != self.pool.generation && spins < 4096 {
                core::hint::spin_loop();
                spins += 1;
            }
            let mut g = lock(&slot.done_lock);
            while slot.finished.load(Ordering::Acquire) != self.pool.generation {
                g = slot.done.wait(g).unwrap_or_else(PoisonError::into_inner);
            }
        }
    }
}

impl Pool {
    /// A pool of `helpers` parked threads. Threads that fail to start are
    /// left out (the caller then does more of the work itself).
    pub(crate) fn new(helpers: usize) -> Self {
        let mut workers = Vec::with_capacity(helpers);
        for i in 0..helpers {
            let slot = Arc::new(Slot {
                orders: Mutex::new(Orders::default()),
                wake: Condvar::new(),
                finished: AtomicU64::new(0),
                panicked: AtomicBool::new(false),
                done_lock: Mutex::new(()),
                done: Condvar::new(),
            });
            let theirs = Arc::clone(&slot);
            let spawned = std::thread::Builder::new()
                .name(std::format!("tress-strand-{}", i + 1))
                .spawn(move || worker_loop(&theirs, i + 1));
            if let Ok(thread) = spawned {
                workers.push(Worker {
                    slot,
                    thread: Some(thread),
                });
            }
        }
        Self {
            workers,
            generation: 0,
        }
    }

    /// Helper threads running.
    pub(crate) fn helpers(&self) -> usize {
        self.workers.len()
    }

    /// Runs `job` once on every helper (`job(1)`, `job(2)`, …) and once on
    /// the caller's thread (`job(0)`), and returns when all have finished.
    ///
    /// # Panics
    /// When `job` panicked on a helper (after every helper has finished).
    pub(crate) fn run(&mut self, job: &(dyn Fn(usize) + Sync)) {
        self.generation += 1;
        let raw: *const (dyn Fn(usize) + Sync + '_) = job;
        // SAFETY: only the lifetime changes (same fat-pointer layout). The
        // workers dereference the pointer only for this generation, and the
        // `WaitAll` guard below blocks this function (on return and on
        // unwind) until every worker has reported this generation finished,
        // so `job` outlives every use of the pointer.
        #[allow(unsafe_code)]
        let erased = JobRef(unsafe {
            core::mem::transmute::<
                *const (dyn Fn(usize) + Sync + '_),
                *const (dyn Fn(usize) + Sync + 'static),
            >(raw)
        });
        for w in &self.workers {
            let mut o = lock(&w.slot.orders);
            o.job = Some(erased);
            o.generation = self.generation;
            drop(o);
            w.slot.wake.notify_one();
        }
        {
            let _wait = WaitAll { pool: self };
            job(0);
        }
        for w in &self.workers {
            let mut o = lock(&w.slot.orders);
            o.job = None;
        }
        let panicked = self
            .workers
            .iter()
            .any(|w| w.slot.panicked.load(Ordering::Relaxed));
        assert!(!panicked, "a strand worker thread panicked");
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        for w in &self.workers {
            lock(&w.slot.orders).quit = true;
            w.slot.wake.notify_one();
        }
        for w in &mut self.workers {
            if let Some(t) = w.thread.take() {
                // A worker's panics are caught in its loop; nothing to report.
                let _ = t.join();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::sync::atomic::AtomicUsize;

    #[test]
    fn every_helper_and_the_caller_run_each_job_once() {
        let mut pool = Pool::new(3);
        assert_eq!(pool.helpers(), 3);
        for round in 1..=50 {
            // One bit per thread index: each of 0..=3 runs exactly once.
            let seen = AtomicUsize::new(0);
            pool.run(&|who| {
                seen.fetch_add(1 << (8 * who), Ordering::Relaxed);
            });
            assert_eq!(seen.load(Ordering::Relaxed), 0x0101_0101, "round {round}");
        }
    }

    #[test]
    fn a_helper_panic_reaches_the_caller_and_the_pool_still_works() {
        let mut pool = Pool::new(1);
        let caller = std::thread::current().id();
        let r = std::panic::catch_unwind(core::panic::AssertUnwindSafe(|| {
            pool.run(&|_| {
                assert!(std::thread::current().id() == caller, "helper fails");
            });
        }));
        assert!(r.is_err());
        let count = AtomicUsize::new(0);
        pool.run(&|_| {
            count.fetch_add(1, Ordering::Relaxed);
        });
        assert_eq!(count.load(Ordering::Relaxed), 2);
    }
}
