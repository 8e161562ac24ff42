//! Every `TressSpringHair` of the game stepping together, on several threads.
//!
//! Godot calls `process_modification` per node, one skeleton after another,
//! so a crowd's hair would step on one core. With
//! `TressSpringHair.set_crowd_threads(n)` above 1, the first hair whose
//! skeleton updates in a frame prepares every joined hair (reads its
//! animated pose into its world, on the main thread, as its own update
//! would) and queues their steps for `n - 1` helper threads (pure Rust
//! data: the solver never touches a Godot object, so gdext's thread rules
//! are kept without its `experimental-threads` feature). It does not wait:
//! each hair claims its own step in its own `process_modification` (done
//! by a helper, or stepped there and then if no helper has started it) and
//! writes its bones, so the helpers step while the main thread writes
//! bones and Godot updates the poses. Anything else that needs a solver
//! whose step is out claims it first (`settle`).
//!
//! The same frame, the same inputs: skeletons update from Godot's deferred
//! queue after every node's process (animation players included), and each
//! update restores the unmodified pose afterwards, so a skeleton read before
//! its own update shows the pose its hair would read inside it, as long as
//! no modifier before the hair moves those bones (`step_with_crowd` off for
//! those). Each hair's step is the serial one on the same data, so the
//! result is bit for bit the serial one (`tests/test_crowd_threads.gd`).
//!
//! Joined: hairs in the tree of a running game (not the editor) whose
//! skeleton updates in the idle process (the default). Everything else, and
//! any call the shared step did not prepare (a second update in a frame, a
//! hair held while disabled), runs the serial update.

use core::cell::RefCell;
use std::time::Instant;

use super::crowd_pool::{Claimed, OwnedJob, Pool};
use super::{FrameInputs, TressSpringHair, micros_since};
use godot::classes::Engine;
use godot::classes::skeleton_3d::ModifierCallbackModeProcess;
use godot::prelude::*;

/// The most threads a crowd steps on (more than any phone or desktop has
/// cores to give it).
const MAX_THREADS: i32 = 64;

/// The joined hairs and the shared step's state. Main thread only: every
/// node callback runs there.
struct Crowd {
    threads: usize,
    members: Vec<Gd<TressSpringHair>>,
    /// Counts changes to `members`.
    generation: u64,
    /// The helper threads, while `threads` > 1.
    pool: Option<Pool>,
    /// Engine process frame of the last shared step.
    stepped_frame: Option<u64>,
    /// The hairs whose steps are out on the pool, by job slot.
    flying: Vec<Option<Gd<TressSpringHair>>>,
    last: CrowdTiming,
}

/// The last shared step, for `get_crowd_timing`.
#[derive(Clone, Copy, Default)]
struct CrowdTiming {
    frame: u64,
    /// Hairs stepped together.
    stepped: usize,
    /// Threads they ran on.
    threads: usize,
    /// Microseconds: every hair's pose reads (main thread).
    reads: f64,
    /// Microseconds: every hair's step, on whichever thread ran it (CPU
    /// work, not wall clock: the steps overlap the main thread's writes).
    step: f64,
    /// Steps the main thread ran itself (the rest ran on helpers), and the
    /// microseconds it waited for a helper's, over the frame's claims.
    main_jobs: usize,
    main_wait: f64,
}

thread_local! {
    /// The engine singleton, fetched once: every joined hair asks it for
    /// the frame each frame.
    static ENGINE: Gd<Engine> = Engine::singleton();
    static CROWD: RefCell<Crowd> = const {
        RefCell::new(Crowd {
            threads: 1,
            members: Vec::new(),
            generation: 0,
            pool: None,
            stepped_frame: None,
            flying: Vec::new(),
            last: CrowdTiming {
                frame: 0,
                stepped: 0,
                threads: 0,
                reads: 0.0,
                step: 0.0,
                main_jobs: 0,
                main_wait: 0.0,
            },
        })
    };
}

/// Adds a hair entering the tree.
pub(super) fn join(hair: Gd<TressSpringHair>) {
    CROWD.with_borrow_mut(|c| {
        // Ids without the engine's validity lookup: Godot never reuses an
        // id, so a stale member cannot match a live hair (and a lookup per
        // member made 1,000 joins half a million engine calls).
        let id = hair.instance_id();
        if !c.members.iter().any(|m| m.instance_id_unchecked() == id) {
            c.members.push(hair);
            c.generation += 1;
        }
    });
}

/// Removes a hair leaving the tree (before it can be freed), its solver
/// back in it first.
pub(super) fn leave(hair: &mut TressSpringHair) {
    settle(hair);
    let id = hair.base().instance_id();
    CROWD.with_borrow_mut(|c| {
        c.members.retain(|m| m.instance_id_unchecked() != id);
        c.generation += 1;
    });
}

/// Puts `hair`'s solver back if its step is out on the pool (waiting for
/// it, or stepping it here); a no-op otherwise. Everything that touches a
/// hair's solver or its outputs calls this first.
pub(super) fn settle(hair: &mut TressSpringHair) {
    let Some(slot) = hair.crowd_flight.take() else {
        return;
    };
    let claimed = CROWD.with_borrow(|c| c.pool.as_ref().map(|p| p.claim(slot)));
    let micros = match claimed {
        Some(Claimed::Stepped(j)) => {
            hair.rig = Some(j.rig);
            hair.chain_bones = j.chain_bones;
            hair.fold_bones = j.fold_bones;
            hair.scratch_out = j.out;
            hair.scratch_writes = j.writes;
            hair.frame_inputs = j.inputs;
            hair.last_substeps = j.substeps;
            if let Some(s) = &mut hair.crowd_stepped {
                s.2 = j.micros;
            }
            j.micros
        }
        claimed => {
            hair.crowd_stepped = None;
            let why = if matches!(claimed, Some(Claimed::Panicked)) {
                "its step panicked on a crowd thread"
            } else {
                "its step was lost by the crowd pool"
            };
            godot_error!(
                "TressSpringHair '{}': {why}; the hair stops (configure it again to restart)",
                hair.base().get_name()
            );
            0.0
        }
    };
    CROWD.with_borrow_mut(|c| {
        if let Some(f) = c.flying.get_mut(slot) {
            *f = None;
        }
        c.last.step += micros;
    });
}

/// Settles every hair whose step is out, but `me` (bound by the caller,
/// which has settled it).
fn settle_all(me: Option<InstanceId>) {
    let flying: Vec<Gd<TressSpringHair>> =
        CROWD.with_borrow(|c| c.flying.iter().flatten().cloned().collect());
    for mut h in flying {
        if Some(h.instance_id_unchecked()) != me && h.is_instance_valid() {
            settle(&mut h.bind_mut());
        }
    }
    // Hairs freed with a step out: their jobs are dropped here.
    CROWD.with_borrow_mut(|c| {
        if let Some(pool) = &c.pool {
            for slot in pool.unclaimed() {
                if c.flying
                    .get(slot)
                    .is_none_or(|f| f.as_ref().is_none_or(|h| !h.is_instance_valid()))
                {
                    let _ = pool.claim(slot);
                }
            }
        }
    });
}

/// In a joined hair's update: runs the frame's shared step if none ran yet,
/// then writes this hair's result. False when the shared step did not
/// cover this call (the caller runs the serial update).
pub(super) fn write_if_stepped(me: &mut TressSpringHair, start: Instant) -> bool {
    settle(me);
    let threads = CROWD.with_borrow(|c| c.threads);
    if threads <= 1 || !me.step_with_crowd {
        return false;
    }
    let Some(skel) = me.skeleton_in_tree.clone() else {
        return false;
    };
    let frame = ENGINE.with(|e| e.get_process_frames());
    if CROWD.with_borrow(|c| c.stepped_frame != Some(frame)) {
        // A physics-process skeleton updates before the idle animation
        // players have run: never the one that starts the idle frame's
        // step. (Asked of the first hair only: the step prepares no such
        // hair, so the others find nothing stepped and update alone.)
        if skel.get_modifier_callback_mode_process() != ModifierCallbackModeProcess::IDLE {
            return false;
        }
        CROWD.with_borrow_mut(|c| c.stepped_frame = Some(frame));
        step_all(me, frame);
    }
    settle(me);
    match me.crowd_stepped.take() {
        Some((f, reads, solver)) if f == frame => {
            me.write_bones(skel, false, start, reads, solver);
            // This hair's own share: the reads, its part of the step, the
            // writes; not the others' preparation it may have run.
            let t = &mut me.last_timing;
            t.total = t.reads + t.solver + t.writes;
            true
        }
        _ => false,
    }
}

/// Whether `hair` takes part in this frame's shared step; if so its pose is
/// read into its world and the time to simulate is returned (with the
/// reads' microseconds).
fn prepare_member(hair: &mut TressSpringHair, clock: (u64, f64)) -> Option<(f32, f64)> {
    hair.crowd_stepped = None;
    // Cases the serial update handles with side effects of its own (a
    // rebuild, the hold while disabled) stay with it.
    if !hair.step_with_crowd || hair.rig.is_none() || hair.rebuild_pending {
        return None;
    }
    let base = hair.base();
    if !base.is_active() || !base.can_process() {
        return None;
    }
    drop(base);
    let skel = hair.skeleton_in_tree.clone()?;
    if skel.get_modifier_callback_mode_process() != ModifierCallbackModeProcess::IDLE {
        return None;
    }
    let p = hair.prepare_on(false, skel, Some(clock))?;
    Some((p.dt, p.reads))
}

/// Starts a frame's shared step in `me`'s update: every step still out
/// goes back into its hair, then every joined hair (`me` included) is read
/// and its step queued on the pool, a few at a time so the helpers start
/// during the reads. Nothing waits for the steps: each hair claims its own.
fn step_all(me: &mut TressSpringHair, frame: u64) {
    let my_id = me.base().instance_id();
    // `me` was settled on entry to its update (`write_if_stepped`).
    settle_all(Some(my_id));
    let (mut members, generation) = CROWD.with_borrow_mut(|c| {
        c.flying.clear();
        // Counts `get_crowd_timing` did not read last frame are dropped:
        // they belong to that frame's timing, not to this one's.
        if let Some(pool) = &c.pool {
            let _ = pool.take_counts();
        }
        c.last = CrowdTiming {
            frame,
            threads: c.pool.as_ref().map_or(1, Pool::threads),
            ..CrowdTiming::default()
        };
        (c.members.clone(), c.generation)
    });
    // What every hair's own update would ask the engine: one frame, one
    // idle delta for all.
    let clock = (frame, me.base().get_process_delta_time());
    let reads_start = Instant::now();
    let mut batch = Vec::with_capacity(SUBMIT_BATCH);
    for gd in &mut members {
        let handle = gd.clone();
        let queue = |hair: &mut TressSpringHair| {
            let (dt, reads) = prepare_member(hair, clock)?;
            let slot = CROWD.with_borrow(|c| c.flying.len());
            let job = take_job(hair, slot, dt)?;
            hair.crowd_stepped = Some((frame, reads, 0.0));
            hair.crowd_flight = Some(slot);
            CROWD.with_borrow_mut(|c| {
                c.flying.push(Some(handle));
                c.last.stepped += 1;
            });
            Some(job)
        };
        // The id as the handle knows it: `instance_id()` would ask the
        // engine whether it is alive, which the next line does anyway.
        let job = if gd.instance_id_unchecked() == my_id {
            queue(me)
        } else if gd.is_instance_valid() {
            queue(&mut gd.bind_mut())
        } else {
            None
        };
        batch.extend(job);
        if batch.len() == SUBMIT_BATCH {
            submit(&mut batch);
        }
    }
    submit(&mut batch);
    // The handles bound above now know their instance storage: keeping
    // them saves each hair an engine lookup (a mutex) every frame.
    CROWD.with_borrow_mut(|c| {
        if c.generation == generation {
            c.members = members;
        }
    });
    let reads = micros_since(reads_start);
    CROWD.with_borrow_mut(|c| {
        c.last.reads = reads;
        c.last.threads = c.last.threads.min(c.last.stepped.max(1));
    });
}

/// Steps queued at a time while the shared step reads the hairs' poses.
const SUBMIT_BATCH: usize = 16;

/// Queues `batch` on the pool (always there while `threads` > 1).
fn submit(batch: &mut Vec<OwnedJob>) {
    if !batch.is_empty() {
        CROWD.with_borrow(|c| {
            if let Some(pool) = &c.pool {
                pool.submit(core::mem::take(batch));
            }
        });
    }
}

/// Moves `hair`'s solver and scratch out into a job (put back after the
/// step); `None` without a rig.
fn take_job(hair: &mut TressSpringHair, slot: usize, dt: f32) -> Option<OwnedJob> {
    Some(OwnedJob {
        slot,
        rig: hair.rig.take()?,
        chain_bones: core::mem::take(&mut hair.chain_bones),
        fold_bones: core::mem::take(&mut hair.fold_bones),
        inputs: core::mem::take(&mut hair.frame_inputs),
        out: core::mem::take(&mut hair.scratch_out),
        writes: core::mem::take(&mut hair.scratch_writes),
        substeps: 0,
        dt,
        micros: 0.0,
    })
}

/// Microseconds for one thread to step `set` for `frames` 60 Hz frames.
fn time_set(set: &mut [OwnedJob], frames: u32) -> f64 {
    let t = Instant::now();
    for _ in 0..frames {
        for c in set.iter_mut() {
            c.run();
        }
    }
    micros_since(t)
}

#[godot_api(secondary)]
impl TressSpringHair {
    /// How many threads the game's hairs step on together (1, the default:
    /// each hair steps in its own update, one after another). Hairs join
    /// when they enter the tree; see `step_with_crowd`. Values outside
    /// 1..64 are clamped, with a warning.
    #[func]
    pub fn set_crowd_threads(threads: i32) {
        let n = threads.clamp(1, MAX_THREADS);
        if n != threads {
            godot_warn!(
                "TressSpringHair.set_crowd_threads: {threads} is outside 1..{MAX_THREADS}; using {n}"
            );
        }
        // Every step out goes back first: the pool may be replaced.
        settle_all(None);
        CROWD.with_borrow_mut(|c| {
            c.threads = n as usize;
            let fits = c.pool.as_ref().is_some_and(|p| p.threads() == c.threads);
            if n == 1 {
                c.pool = None;
            } else if !fits {
                c.pool = Some(Pool::new(c.threads));
            }
        });
    }

    /// The thread count set by `set_crowd_threads`.
    #[func]
    pub fn get_crowd_threads() -> i32 {
        CROWD.with_borrow(|c| c.threads as i32)
    }

    /// Hairs that joined the shared step (in the tree of a running game).
    #[func]
    pub fn get_crowd_size() -> i32 {
        CROWD.with_borrow(|c| c.members.len() as i32)
    }

    /// The last shared step: `frame` (engine process frame), `stepped`
    /// (hairs), `threads`, `reads` (microseconds reading every hair's pose,
    /// main thread) and `step` (microseconds of every hair's step claimed
    /// so far, summed over the threads that ran them: CPU work, not wall
    /// clock), `main_jobs` (of those, the steps the main thread ran itself;
    /// helpers ran the rest) and `main_wait` (microseconds the main thread
    /// waited for a helper's step). Zeros before the first one.
    #[func]
    pub fn get_crowd_timing() -> VarDictionary {
        // Counted by the pool as the hairs claim (read here, not per claim:
        // its lock is the one the helpers take per job).
        let t = CROWD.with_borrow_mut(|c| {
            if let Some(pool) = &c.pool {
                let (jobs, wait) = pool.take_counts();
                c.last.main_jobs += jobs;
                c.last.main_wait += wait;
            }
            c.last
        });
        let mut d = VarDictionary::new();
        d.set("frame", t.frame as i64);
        d.set("stepped", t.stepped as i64);
        d.set("threads", t.threads as i64);
        d.set("reads", t.reads);
        d.set("step", t.step);
        d.set("main_jobs", t.main_jobs as i64);
        d.set("main_wait", t.main_wait);
        d
    }

    /// The host's parallel ceiling for the hair step, as `strand-bench`
    /// defines it: copies of up to 64 joined hairs' solvers step `frames`
    /// frames on one thread alone, then `threads` such sets at once, each
    /// on its own thread, in alternating blocks (five of each); the ceiling
    /// is `threads × alone / together` (medians), what no split of one
    /// crowd's step over `threads` threads can beat on this host now (a
    /// shared core or a busy neighbour lowers it). Returns `ceiling`,
    /// `alone_us`, `together_us` and `hairs`; ceiling 0 with no hair joined.
    #[func]
    pub fn measure_crowd_ceiling(threads: i32, frames: i32) -> VarDictionary {
        let threads = threads.clamp(1, MAX_THREADS) as usize;
        let frames = frames.clamp(1, 10_000) as u32;
        let members = CROWD.with_borrow(|c| c.members.clone());
        let copy_set = || -> Vec<OwnedJob> {
            members
                .iter()
                .filter(|h| h.is_instance_valid())
                .filter_map(|h| {
                    let h = h.bind();
                    Some(OwnedJob {
                        slot: 0,
                        rig: h.rig.clone()?,
                        chain_bones: h.chain_bones.clone(),
                        fold_bones: h.fold_bones.clone(),
                        inputs: FrameInputs::default(),
                        out: Vec::new(),
                        writes: Vec::new(),
                        substeps: 0,
                        dt: 1.0 / 60.0,
                        micros: 0.0,
                    })
                })
                .take(64)
                .collect()
        };
        let mut d = VarDictionary::new();
        let mut sets: Vec<Vec<OwnedJob>> = (0..threads).map(|_| copy_set()).collect();
        let hairs = sets.first().map_or(0, Vec::len);
        d.set("hairs", hairs as i64);
        if hairs == 0 {
            d.set("ceiling", 0.0);
            return d;
        }
        let (mut alone, mut together) = (Vec::new(), Vec::new());
        for _ in 0..5 {
            alone.push(time_set(&mut sets[0], frames));
            let t = Instant::now();
            std::thread::scope(|s| {
                let mut it = sets.iter_mut();
                let first = it.next();
                for set in it {
                    s.spawn(move || time_set(set, frames));
                }
                if let Some(set) = first {
                    time_set(set, frames);
                }
            });
            together.push(micros_since(t));
        }
        let median = |v: &mut Vec<f64>| {
            v.sort_by(f64::total_cmp);
            v[v.len() / 2]
        };
        let (a, t) = (median(&mut alone), median(&mut together));
        d.set("alone_us", a);
        d.set("together_us", t);
        d.set("ceiling", threads as f64 * a / t);
        d
    }
}
