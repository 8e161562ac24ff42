//! The crowd's helper threads: started once, parked between frames, fed
//! from one queue of jobs that each hair then claims in its own update.
//!
//! Jobs own their data (each hair's solver is moved out of its node for
//! the step and back when claimed), so the helpers outlive any borrow
//! without `unsafe`. Helpers take jobs front first, in the order the hairs
//! will claim them; a hair that finds its job not started runs it itself,
//! and one whose job a helper is running runs other jobs from the back of
//! the queue while it waits. So the main thread never waits for a helper
//! to wake, and on a loaded host, where a helper may not run for
//! milliseconds, the frame costs about what one thread would.

use alloc::collections::VecDeque;
use alloc::sync::Arc;
use core::mem;
use core::panic::AssertUnwindSafe;
use core::sync::atomic::{AtomicUsize, Ordering};
use core::time::Duration;
use std::panic::catch_unwind;
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::Instant;

use tress_core::spring::JointOutput;
use tress_rig::spring_rig::SpringRig;

use super::{BoneWrite, FrameInputs, StepJob};

/// One hair's step with its data moved in.
pub(super) struct OwnedJob {
    /// Where the result goes back (the hair's index in the frame's list).
    pub(super) slot: usize,
    pub(super) rig: SpringRig,
    pub(super) chain_bones: Vec<Vec<i32>>,
    pub(super) fold_bones: Vec<i32>,
    pub(super) inputs: FrameInputs,
    pub(super) out: Vec<JointOutput>,
    pub(super) writes: Vec<BoneWrite>,
    pub(super) substeps: u32,
    pub(super) dt: f32,
    /// Microseconds the step took, on whichever thread ran it.
    pub(super) micros: f64,
}

impl OwnedJob {
    pub(super) fn run(&mut self) {
        let t = Instant::now();
        StepJob {
            rig: &mut self.rig,
            chain_bones: &self.chain_bones,
            fold_bones: &self.fold_bones,
            inputs: &mut self.inputs,
            out: &mut self.out,
            writes: &mut self.writes,
            substeps: &mut self.substeps,
            dt: self.dt,
        }
        .run();
        self.micros = super::micros_since(t);
    }
}

/// Where one slot's job is.
enum Slot {
    /// Claimed, or never submitted.
    Empty,
    Pending(OwnedJob),
    /// A thread is stepping it.
    Running,
    /// Stepped; `None` when its step panicked (its data is gone).
    Done(Option<OwnedJob>),
}

/// What [`Pool::claim`] hands back.
// Moved once per claim (a copy of a couple of hundred bytes); boxing would
// add an allocation per hair per frame.
#[allow(clippy::large_enum_variant)]
pub(super) enum Claimed {
    /// The job, stepped.
    Stepped(OwnedJob),
    /// Its step panicked; the data is gone.
    Panicked,
    /// No job in that slot.
    Absent,
}

struct Queue {
    slots: Vec<Slot>,
    /// Slots submitted and maybe still pending, in claim order. Entries
    /// whose slot is no longer pending are skipped when popped.
    order: VecDeque<usize>,
    quit: bool,
    /// Since the last [`Pool::take_counts`]: jobs the claiming thread
    /// stepped itself (its own or others while waiting), and microseconds
    /// it waited for a helper.
    caller_jobs: usize,
    caller_wait_us: f64,
    /// Helpers parked on `work` (a submit wakes them only then).
    sleeping: usize,
    /// Claims parked on `done` (a finished job wakes them only then: a
    /// wake is a system call, per job it would cost the helper more than
    /// some steps).
    waiting: usize,
}

struct Shared {
    queue: Mutex<Queue>,
    /// `queue.order`'s length, readable without the lock (spinning helpers).
    queued: AtomicUsize,
    work: Condvar,
    done: Condvar,
}

fn lock(m: &Mutex<Queue>) -> MutexGuard<'_, Queue> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Takes the next pending job, front first (helpers) or back first (a
/// caller waiting for its own), and marks it running.
fn take(shared: &Shared, q: &mut Queue, back: bool) -> Option<OwnedJob> {
    let job = take_from(q, back);
    shared.queued.store(q.order.len(), Ordering::Relaxed);
    job
}

fn take_from(q: &mut Queue, back: bool) -> Option<OwnedJob> {
    loop {
        let slot = if back {
            q.order.pop_back()?
        } else {
            q.order.pop_front()?
        };
        if let Slot::Pending(_) = q.slots[slot] {
            let Slot::Pending(job) = mem::replace(&mut q.slots[slot], Slot::Running) else {
                unreachable!("matched as pending above");
            };
            return Some(job);
        }
    }
}

/// Runs `job` (taken from the queue) and leaves it done in its slot.
fn run_taken(shared: &Shared, mut job: OwnedJob) {
    let slot = job.slot;
    let ok = catch_unwind(AssertUnwindSafe(|| job.run())).is_ok();
    let wake = {
        let mut q = lock(&shared.queue);
        q.slots[slot] = Slot::Done(ok.then_some(job));
        q.waiting > 0
    };
    if wake {
        shared.done.notify_all();
    }
}

/// How long a helper with nothing to do watches the queue before it
/// parks: longer than the gap between two hairs' updates, so a frame's
/// steps never wait for a wake-up (a futex wake per hair cost more than
/// the threads saved), short enough to leave the core soon after a frame.
const SPIN: Duration = Duration::from_micros(50);

fn helper(shared: &Shared) {
    loop {
        let job = {
            let mut q = lock(&shared.queue);
            loop {
                if q.quit {
                    return;
                }
                if let Some(job) = take(shared, &mut q, false) {
                    break job;
                }
                drop(q);
                let t = Instant::now();
                while shared.queued.load(Ordering::Relaxed) == 0 && t.elapsed() < SPIN {
                    core::hint::spin_loop();
                }
                q = lock(&shared.queue);
                if q.order.is_empty() && !q.quit {
                    q.sleeping += 1;
                    q = shared.work.wait(q).unwrap_or_else(PoisonError::into_inner);
                    q.sleeping -= 1;
                }
            }
        };
        run_taken(shared, job);
    }
}

/// Parked helper threads.
pub(super) struct Pool {
    shared: Arc<Shared>,
    helpers: Vec<JoinHandle<()>>,
}

impl Pool {
    /// A pool of `threads` threads, the caller's included. Helpers that
    /// cannot start are left out (fewer threads).
    pub(super) fn new(threads: usize) -> Self {
        let shared = Arc::new(Shared {
            queue: Mutex::new(Queue {
                slots: Vec::new(),
                order: VecDeque::new(),
                quit: false,
                caller_jobs: 0,
                caller_wait_us: 0.0,
                sleeping: 0,
                waiting: 0,
            }),
            queued: AtomicUsize::new(0),
            work: Condvar::new(),
            done: Condvar::new(),
        });
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

    /// Queues `jobs` (their slots must be free: claim everything of the
    /// last batch first) for the helpers, in this order.
    pub(super) fn submit(&self, jobs: Vec<OwnedJob>) {
        {
            let mut q = lock(&self.shared.queue);
            for job in jobs {
                let slot = job.slot;
                if q.slots.len() <= slot {
                    q.slots.resize_with(slot + 1, || Slot::Empty);
                }
                q.slots[slot] = Slot::Pending(job);
                q.order.push_back(slot);
            }
            self.shared.queued.store(q.order.len(), Ordering::Relaxed);
            if q.sleeping == 0 {
                return;
            }
        }
        self.shared.work.notify_all();
    }

    /// Slot `slot`'s job, stepped: at once when done, stepped on this
    /// thread when no one has started it, else after the helper running
    /// it finishes (meanwhile this thread steps jobs from the back).
    pub(super) fn claim(&self, slot: usize) -> Claimed {
        let mut q = lock(&self.shared.queue);
        loop {
            match q.slots.get_mut(slot) {
                None | Some(Slot::Empty) => return Claimed::Absent,
                Some(Slot::Done(_)) => {
                    let Slot::Done(job) = mem::replace(&mut q.slots[slot], Slot::Empty) else {
                        unreachable!("matched as done above");
                    };
                    return job.map_or(Claimed::Panicked, Claimed::Stepped);
                }
                Some(Slot::Pending(_)) => {
                    let Slot::Pending(mut job) = mem::replace(&mut q.slots[slot], Slot::Empty)
                    else {
                        unreachable!("matched as pending above");
                    };
                    q.caller_jobs += 1;
                    drop(q);
                    let ok = catch_unwind(AssertUnwindSafe(|| job.run())).is_ok();
                    return if ok {
                        Claimed::Stepped(job)
                    } else {
                        Claimed::Panicked
                    };
                }
                Some(Slot::Running) => {
                    if let Some(other) = take(&self.shared, &mut q, true) {
                        q.caller_jobs += 1;
                        drop(q);
                        run_taken(&self.shared, other);
                        q = lock(&self.shared.queue);
                    } else {
                        let t = Instant::now();
                        q.waiting += 1;
                        q = self
                            .shared
                            .done
                            .wait(q)
                            .unwrap_or_else(PoisonError::into_inner);
                        q.waiting -= 1;
                        q.caller_wait_us += super::micros_since(t);
                    }
                }
            }
        }
    }

    /// Jobs the claiming thread stepped itself and microseconds it waited
    /// for helpers, since the last call.
    pub(super) fn take_counts(&self) -> (usize, f64) {
        let mut q = lock(&self.shared.queue);
        let c = (q.caller_jobs, q.caller_wait_us);
        q.caller_jobs = 0;
        q.caller_wait_us = 0.0;
        c
    }

    /// Slots holding a job not yet claimed.
    pub(super) fn unclaimed(&self) -> Vec<usize> {
        let q = lock(&self.shared.queue);
        (0..q.slots.len())
            .filter(|&i| !matches!(q.slots[i], Slot::Empty))
            .collect()
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
                fold_bones: Vec::new(),
                inputs: FrameInputs::default(),
                out: Vec::new(),
                writes: Vec::new(),
                substeps: 0,
                dt: (i + 1) as f32 / 240.0,
                micros: 0.0,
            })
            .collect()
    }

    /// Every job submitted, then claimed in slot order (each claim steps
    /// it here if no helper has started it).
    fn run(pool: &Pool, jobs: Vec<OwnedJob>) -> Vec<OwnedJob> {
        let mut slots: Vec<usize> = jobs.iter().map(|j| j.slot).collect();
        slots.sort_unstable();
        pool.submit(jobs);
        slots
            .into_iter()
            .map(|s| match pool.claim(s) {
                Claimed::Stepped(j) => j,
                Claimed::Panicked | Claimed::Absent => panic!("slot {s} has no stepped job"),
            })
            .collect()
    }

    /// Every job's outputs, in slot order, printed exactly (`{:?}` of an
    /// f32 round-trips its bits).
    fn outputs(mut jobs: Vec<OwnedJob>) -> Vec<String> {
        jobs.sort_by_key(|j| j.slot);
        jobs.iter()
            .map(|j| format!("{:?} {:?}", j.writes, j.substeps))
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
            pooled = run(&pool, pooled);
        }
        let (a, b) = (outputs(serial), outputs(pooled));
        assert_eq!(a.len(), 40);
        assert_eq!(a, b);
        // Different frame times moved the hair differently: equal lists
        // are not a list of identical rest poses.
        assert_ne!(a[0], a[39]);
    }

    /// The transforms an update read go into the solver inside the step,
    /// on whichever thread runs it, exactly as if the update had put them
    /// in itself (frame poses, then the scale, then a resume), and once.
    #[test]
    fn read_transforms_reach_the_solver_inside_the_step() {
        use crate::convert::{largest_scale, pose_and_scale};
        use godot::builtin::{Basis, EulerOrder, Transform3D, Vector3};
        let basis = Basis::from_euler(EulerOrder::YXZ, Vector3::new(0.1, 0.6, -0.05));
        let moved = Transform3D::new(
            basis.scaled(Vector3::splat(1.5)),
            Vector3::new(0.3, 0.1, -0.2),
        );
        let frames = jobs()[0].rig.frame_nodes.len();
        assert!(frames > 1);
        // Put in by hand, as the update did before the step took it over.
        let mut direct = jobs();
        for j in &mut direct {
            for fi in 0..frames {
                j.rig.world.set_frame_pose(fi, pose_and_scale(&moved).0);
            }
            j.rig.world.set_scale(largest_scale(&moved));
            j.rig.world.resume();
            j.run();
            j.run();
        }
        let mut pooled = jobs();
        for j in &mut pooled {
            j.inputs = FrameInputs {
                frames: (0..frames).map(|fi| (fi, moved)).collect(),
                scale: largest_scale(&moved),
                resumed: true,
                held: false,
                pending: true,
            };
        }
        let pool = Pool::new(2);
        // The second run must not put them in again (a resume would).
        pooled = run(&pool, run(&pool, pooled));
        let mut still = jobs();
        still.iter_mut().for_each(|j| {
            j.run();
            j.run();
        });
        let (a, b) = (outputs(direct), outputs(pooled));
        assert_eq!(a, b);
        assert_ne!(a, outputs(still), "the moved frames changed nothing");
    }

    /// Claimed in another order than queued (the main thread steps jobs no
    /// helper has started, and others while it waits): the same results,
    /// every job handed back once, and nothing left queued.
    #[test]
    fn claims_in_any_order_give_the_serial_results() {
        let mut serial = jobs();
        serial.iter_mut().for_each(OwnedJob::run);
        let pool = Pool::new(2);
        pool.submit(jobs());
        let mut claimed: Vec<OwnedJob> = (0..40)
            .rev()
            .map(|s| match pool.claim(s) {
                Claimed::Stepped(j) => j,
                Claimed::Panicked | Claimed::Absent => panic!("slot {s} has no stepped job"),
            })
            .collect();
        assert!(matches!(pool.claim(7), Claimed::Absent));
        assert!(pool.unclaimed().is_empty());
        claimed.sort_by_key(|j| j.slot);
        assert_eq!(outputs(serial), outputs(claimed));
    }
}
