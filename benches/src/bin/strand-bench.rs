//! Times the strand solver on the standard scene and prints ns per
//! particle-step: 6,000 strands × 16 particles, two 1/60 s steps per frame
//! with the reference passes (global ×2, local ×2, collision ×1, length ×2),
//! head turning, single-threaded and split over threads.
//!
//! `cargo run --release -p tress-benches --bin strand-bench [-- FRAMES [THREADS [PASSES [STRANDS]]]]`
//!
//! With THREADS > 1 it also times 1 and THREADS threads in alternating
//! blocks (the same host load for both) and measures the host's own
//! ceiling: THREADS independent single-threaded sims at once against one
//! alone (see `docs/PERFORMANCE.md`, "Strands").
//!
//! PASSES (for profiling) is four digits, global/local/collision/length
//! iterations, optionally followed by `s` to skip collision inside the
//! length sweep: `2212` is the reference, `0002s` length only.
//!
//! STRANDS (for profiling) replaces the 6,000 strands of the standard groom:
//! 600 fit the L2 cache of most CPUs, 6,000 do not.

use std::time::Instant;

use tress_core::strand::{PassCounts, Schedule, StrandParams, StrandSim};
use tress_rig::groom::ProceduralGroom;
use tress_rig::groom::scene::{standard_sim, turning_pose};

/// CPU seconds this process has run (user + system, all threads), from
/// `/proc/self/stat`; 0 where that is unavailable. On a shared machine the
/// wall clock includes time other processes held the core; CPU time does not.
fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // Fields after the parenthesised command name; utime and stime are 14 and 15.
    let after = stat.rsplit(')').next().unwrap_or("");
    let f: Vec<&str> = after.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|s| s.parse::<f64>().ok()).unwrap_or(0.0);
    // Field 14 is index 11 after the state field at index 0; USER_HZ is 100 on Linux.
    (ticks(11) + ticks(12)) / 100.0
}

/// Median and best wall frame time and mean CPU time per frame (ms) over
/// `frames` frames after a warm-up.
fn time_frames(sim: &mut StrandSim, centre: glam::Vec3, frames: usize) -> (f64, f64, f64) {
    let mut t = 0.0f64;
    let mut ms = Vec::with_capacity(frames.max(WARM_UP));
    run_block(sim, centre, &mut t, WARM_UP, &mut ms);
    ms.clear();
    let cpu0 = cpu_seconds();
    run_block(sim, centre, &mut t, frames, &mut ms);
    let cpu = (cpu_seconds() - cpu0) * 1e3 / frames as f64;
    let median = median(&mut ms);
    (median, ms[0], cpu)
}

/// Frames run before timing starts.
const WARM_UP: usize = 30;

/// Advances `sim` by `n` frames from time `*t`, pushing each frame's wall
/// time (ms) to `out`.
fn run_block(sim: &mut StrandSim, centre: glam::Vec3, t: &mut f64, n: usize, out: &mut Vec<f64>) {
    let dt = 1.0 / 60.0;
    for _ in 0..n {
        *t += f64::from(dt);
        let pose = turning_pose(centre, *t);
        let start = Instant::now();
        sim.advance(dt, |_, _| pose);
        out.push(start.elapsed().as_secs_f64() * 1e3);
    }
}

/// Median of `v`, which it leaves sorted.
fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Three ways of running, timed in alternating blocks of a few frames so
/// that all see the same periods of a shared host's load (back-to-back
/// runs can catch different ones): one sim on 1 thread, one sim on
/// `threads` threads, and `threads` independent 1-thread sims at once (no
/// shared work or data: what the host itself gives `threads` busy cores).
/// Returns the median frame time (ms) of each; for the last, the mean of the
/// copies' medians.
fn time_interleaved(
    make: &dyn Fn(usize) -> StrandSim,
    threads: usize,
    centre: glam::Vec3,
    frames: usize,
) -> [f64; 3] {
    const BLOCK: usize = 5;
    let mut one = make(1);
    let mut many = make(threads);
    let mut copies: Vec<StrandSim> = (0..threads).map(|_| make(1)).collect();
    let mut t = [0.0f64; 2];
    let mut tc = vec![0.0f64; threads];
    let (mut ms_one, mut ms_many) = (Vec::new(), Vec::new());
    let mut ms_copies: Vec<Vec<f64>> = vec![Vec::new(); threads];
    let mut sink = Vec::new();
    run_block(&mut one, centre, &mut t[0], WARM_UP, &mut sink);
    run_block(&mut many, centre, &mut t[1], WARM_UP, &mut sink);
    while ms_one.len() < frames {
        run_block(&mut one, centre, &mut t[0], BLOCK, &mut ms_one);
        run_block(&mut many, centre, &mut t[1], BLOCK, &mut ms_many);
        std::thread::scope(|scope| {
            for ((sim, t), out) in copies.iter_mut().zip(&mut tc).zip(&mut ms_copies) {
                scope.spawn(move || run_block(sim, centre, t, BLOCK, out));
            }
        });
    }
    let copies = ms_copies.iter_mut().map(|v| median(v)).sum::<f64>() / threads as f64;
    [median(&mut ms_one), median(&mut ms_many), copies]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let frames: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(120);
    let max_threads: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(2);
    let mut params = StrandParams::default();
    if let Some(p) = args.get(3) {
        let d: Vec<u8> = p.bytes().take(4).map(|b| b.wrapping_sub(b'0')).collect();
        if d.len() == 4 {
            params.passes.global = d[0];
            params.passes.local = d[1];
            params.passes.collision = d[2];
            params.passes.length = d[3];
        }
        params.collide_in_length = !p.ends_with('s');
        println!(
            "passes {:?}, collide in length: {}",
            params.passes, params.collide_in_length
        );
    }
    let mut groom = ProceduralGroom::default();
    if let Some(n) = args.get(4).and_then(|s| s.parse::<usize>().ok()) {
        groom.strands = n.max(1);
    }
    let particle_steps = (groom.strands * groom.particles * 2) as f64;
    println!(
        "strand-bench: {} strands x {} particles, 2 x 1/60 s steps per frame, {} passes, {frames} frames",
        groom.strands,
        groom.particles,
        if params.passes == PassCounts::REFERENCE && params.collide_in_length {
            "reference"
        } else {
            "chosen"
        }
    );
    let mut base = 0.0;
    for threads in 1..=max_threads.max(1) {
        let mut sim = standard_sim(&groom, params, Schedule::REFERENCE);
        sim.set_threads(threads);
        let (median, best, cpu) = time_frames(&mut sim, groom.head_centre, frames);
        if threads == 1 {
            base = median;
        }
        println!(
            "threads {threads}: wall median {median:.3} ms/frame (best {best:.3}), cpu {cpu:.3} ms/frame, \
             {:.2} ns per particle-step (wall median; best {:.2}), speed-up {:.2}x (wall median)",
            median * 1e6 / particle_steps,
            best * 1e6 / particle_steps,
            base / median
        );
    }
    if max_threads > 1 {
        let make = |threads: usize| {
            let mut sim = standard_sim(&groom, params, Schedule::REFERENCE);
            sim.set_threads(threads);
            sim
        };
        let [one, many, copies] = time_interleaved(&make, max_threads, groom.head_centre, frames);
        // No threading of one sim can beat `threads × one / copies`: the
        // host's own limit at this moment (vCPUs that share a physical core
        // or are contended run slower when all are busy).
        let ceiling = max_threads as f64 * one / copies;
        println!(
            "interleaved (blocks of 5 frames): threads 1 wall median {one:.3} ms, threads {max_threads} \
             {many:.3} ms: speed-up {:.2}x; {max_threads} independent 1-thread sims at once {copies:.3} ms \
             each: host ceiling {ceiling:.2}x, the speed-up is {:.0} % of it",
            one / many,
            100.0 * (one / many) / ceiling
        );
    }
}
