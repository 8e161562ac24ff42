//! Prints the spring-chain solver's cost per joint-substep for the bench
//! avatar (see `benches/benches/spring_support`), next to the baseline.
//!
//! `cargo run --release -p tress-benches --bin spring-bench`
//! Reports this thread's CPU time (Linux `/proc/thread-self/schedstat`) per
//! frame, which stays meaningful on a shared, loaded machine; wall-clock
//! time is printed alongside. The criterion bench `spring` is the reference.

extern crate alloc;

#[path = "../../benches/spring_support/mod.rs"]
mod spring_support;

use core::hint::black_box;
use spring_support::{JOINTS, avatar, avatar_with, baseline::Baseline, frame};
use std::time::Instant;

/// Nanoseconds this thread has run on a CPU (0 where unavailable).
fn cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next().and_then(|v| v.parse().ok()))
        .unwrap_or(0)
}

/// (CPU ns, wall ns) per call of `f` over `n` calls.
fn measure(n: u64, mut f: impl FnMut(u64)) -> (f64, f64) {
    let (c0, t0) = (cpu_ns(), Instant::now());
    for i in 0..n {
        f(i);
    }
    (
        (cpu_ns() - c0) as f64 / n as f64,
        t0.elapsed().as_nanos() as f64 / n as f64,
    )
}

const FRAMES: u64 = 20_000;

fn main() {
    let mut w = avatar();
    for n in 0..600 {
        frame(&mut w, n);
    }
    let tress = measure(FRAMES, |n| frame(&mut w, 600 + n));
    black_box(&w);
    if std::env::args().any(|a| a == "--tress-only") {
        let more = measure(FRAMES * 4, |n| frame(&mut w, 600 + FRAMES + n));
        println!("tress cpu ns/frame {:.0}", more.0);
        return;
    }
    let mut bare = avatar_with(false);
    let no_colliders = measure(FRAMES, |n| frame(&mut bare, n));
    black_box(&bare);
    let mut base = Baseline::new();
    for n in 0..600 {
        base.frame(n);
    }
    let baseline = measure(FRAMES / 4, |n| base.frame(600 + n));
    black_box(base.tip(0));
    let mut crowd: alloc::vec::Vec<_> = (0..100).map(|_| avatar()).collect();
    let hundred = measure(200, |n| {
        for (i, a) in crowd.iter_mut().enumerate() {
            frame(a, n + i as u64);
        }
    });
    black_box(&crowd);

    let per = (JOINTS * 2) as f64;
    println!(
        "spring avatar: {JOINTS} joints, 12 chains, 10 colliders, segment contact on 4 chains, 60 Hz frames (2 substeps)"
    );
    println!("joint-collider pairs within 1 mm at 5 s: {}", contacts());
    println!(
        "{:<22} {:>12} {:>16} {:>12}",
        "", "cpu ns/frame", "ns/joint-substep", "wall ns/frame"
    );
    for (name, (cpu, wall)) in [
        ("tress", tress),
        ("tress, no colliders", no_colliders),
        ("baseline", baseline),
    ] {
        println!("{name:<22} {cpu:>12.0} {:>16.1} {wall:>12.0}", cpu / per);
    }
    println!(
        "{:<22} {:>12.0} {:>16.1} {:>12.0}",
        "tress, 100 avatars",
        hundred.0,
        hundred.0 / (100.0 * per),
        hundred.1
    );
}

/// Diagnostic: joints within 1 mm of a collider after a few seconds.
#[allow(dead_code)]
fn contacts() -> usize {
    use tress_core::collide::clearance_segment;
    use tress_core::spring::JointOutput;
    let mut w = avatar();
    for n in 0..300 {
        frame(&mut w, n);
    }
    let p = spring_support::poses(299);
    let world: alloc::vec::Vec<_> = spring_support::colliders()
        .iter()
        .map(|(f, c)| c.posed(p[*f].pos, p[*f].rot, 1.0))
        .collect();
    let mut out = [JointOutput::default(); 8];
    let mut n = 0;
    for ch in 0..w.chain_count() {
        let k = w.outputs(ch, &mut out);
        for o in &out[..k] {
            n += world
                .iter()
                .filter(|c| clearance_segment(c, o.origin, o.tail, 0.01).0 < 1e-3)
                .count();
        }
    }
    n
}
