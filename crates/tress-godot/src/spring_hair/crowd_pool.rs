//! The crowd's helper threads: started once, parked between frames, fed
//! from one queue the calling thread works on too.
//!
//! Jobs own their data (each hair's solver is moved out of its node for
//! the step and back after), so the helpers outlive any borrow without
//! `unsafe`. The caller never waits for a helper to wake: it takes jobs
//! from the same queue, and waits only for jobs a helper has already
//! started. On a loaded host, where a helper may not run for milliseconds
//! (measured: two copies at once slower than one alone on the shared
//! 2-vCPU VM), the frame then costs about what one thread would.

use alloc::sync::Arc;
use core::mem;
use core::panic::AssertUnwindSafe;
use std::panic::catch_unwind;
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;

use tress_core::spring::JointOutput;
use tress_rig::spring_rig::SpringRig;

use super::StepJob;

/// One hair's step with its data moved in.
pub(super) struct OwnedJob {
    /// Where the result goes back (an index into the caller's list).
    pub(super) slot: usize,
    pub(super) rig: SpringRig,
    pub(super) chain_bones: Vec<Vec<i32>>,
    pub(super) out: Vec<JointOutput>,
    pub(super) counts: Vec<usize>,
    pub(super) substeps: u32,
    pub(super) dt: f32,
}

impl OwnedJob {
    pub(super) fn run(&mut self) {
        StepJob {
            rig: &mut self.rig,
            chain_bones: &self.chain_bones,
            out: &mut self.out,
            counts: &mut self.counts,
            substeps: &mut self.substeps,
            dt: self.dt,
        }
        .run();
    }
}

#[derive(Default)]
struct Queue {
    pending: Vec<OwnedJob>,
    /// Finished jobs; `None` for one whose step panicked (its data is gone).
    finished: Vec<(usize, Option<OwnedJob>)>,
    quit: bool,
}

#[derive(Default)]
struct Shared {
    queue: Mutex<Queue>,
    work: Condvar,
    done: Condvar,
}

fn lock(m: &Mutex<Queue>) -> MutexGuard<'_, Queue> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Takes and runs jobs until the queue is empty.
fn drain(shared: &Shared) {
    loop {
        let Some(mut job) = lock(&shared.queue).pending.pop() else {
            return;
        };
        let slot = job.slot;
        let ok = catch_unwind(AssertUnwindSafe(|| job.run())).is_ok();
        let mut q = lock(&shared.queue);
        q.finished.push((slot, ok.then_some(job)));
        if q.pending.is_empty() {
            shared.done.notify_all();
        }
    }
}

fn helper(shared: &Shared) {
    loop {
        {
            let mut q = lock(&shared.queue);
            while q.pending.is_empty() && !q.quit {
                q = shared.work.wait(q).unwrap_or_else(PoisonError::into_inner);
            }
            if q.quit {
                return;
            }
        }
        drain(shared);
    }
}

/// Parked helper threads.
pub(super) struct Pool {
    shared: Arc<Shared>,
    helpers: Vec<JoinHandle<()>>,
}

impl Pool {
    /// A pool whose [`Pool::run`] uses `threads` threads, the caller's
    /// included. Helpers that cannot start are left out (fewer threads).
    pub(super) fn new(threads: usize) -> Self {
        let shared = Arc::new(Shared::default());
        let helpers = (1..threads)
            .filter_map(|i| {
                let s = Arc::clone(&shared);
                std::thread::Builder::new()
                    .name(format!("tress-crowd-{i}"))
                    .spawn(move || helper(&s))
                    .ok()
            })
            .collect();
        Self { shared, helpers }
    }

    /// Threads a run uses, the caller's included.
    pub(super) fn threads(&self) -> usize {
        self.helpers.len() + 1
    }

    /// Runs every job, on the helpers and this thread; returns them, in
    /// no particular order, `None` where a step panicked.
    pub(super) fn run(&self, jobs: Vec<OwnedJob>) -> Vec<(usize, Option<OwnedJob>)> {
        let total = jobs.len();
        {
            let mut q = lock(&self.shared.queue);
            q.pending = jobs;
            q.finished.clear();
            q.finished.reserve(total);
        }
        self.shared.work.notify_all();
        drain(&self.shared);
        let mut q = lock(&self.shared.queue);
        while q.finished.len() < total {
            q = self
                .shared
                .done
                .wait(q)
                .unwrap_or_else(PoisonError::into_inner);
        }
        mem::take(&mut q.finished)
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        lock(&self.shared.queue).quit = true;
        self.shared.work.notify_all();
        for h in self.helpers.drain(..) {
            let _ = h.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tress_rig::spring_rig::RigOptions;

    /// Jobs over the built-in avatar's rig (`assets/tress_avatar.vrm`, 8
    /// chains), each with its own frame time so their results differ.
    fn jobs() -> Vec<OwnedJob> {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/tress_avatar.vrm");
        let avatar = tress_vrm::load_path(path).expect("the built-in avatar loads");
        let rig = SpringRig::build(&avatar, &RigOptions::default()).expect("its rig builds");
        let chain_bones: Vec<Vec<i32>> =
            rig.chains.iter().map(|c| vec![0; c.nodes.len()]).collect();
        (0..40)
            .map(|i| OwnedJob {
                slot: i,
                rig: rig.clone(),
                chain_bones: chain_bones.clone(),
                out: Vec::new(),
                counts: Vec::new(),
                substeps: 0,
                dt: (i + 1) as f32 / 240.0,
            })
            .collect()
    }

    /// Every job's outputs, in slot order, printed exactly (`{:?}` of an
    /// f32 round-trips its bits).
    fn outputs(mut jobs: Vec<OwnedJob>) -> Vec<String> {
        jobs.sort_by_key(|j| j.slot);
        jobs.iter()
            .map(|j| format!("{:?} {:?}", j.out, j.substeps))
            .collect()
    }

    #[test]
    fn the_pool_steps_as_one_thread_does() {
        let mut serial = jobs();
        for _ in 0..3 {
            serial.iter_mut().for_each(OwnedJob::run);
        }
        let pool = Pool::new(3);
        assert_eq!(pool.threads(), 3);
        let mut pooled = jobs();
        // Three runs: the queue and the parked helpers are reused.
        for _ in 0..3 {
            pooled = pool
                .run(pooled)
                .into_iter()
                .map(|(_, j)| j.expect("no step panics"))
                .collect();
        }
        let (a, b) = (outputs(serial), outputs(pooled));
        assert_eq!(a.len(), 40);
        assert_eq!(a, b);
        // Different frame times moved the hair differently: equal lists
        // are not a list of identical rest poses.
        assert_ne!(a[0], a[39]);
    }
}
