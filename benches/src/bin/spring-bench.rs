//! Prints the spring-chain solver's cost per joint-substep for the bench
//! avatar (see `benches/benches/spring_support`), next to the baseline.
//!
//! `cargo run --release -p tress-benches --bin spring-bench`
//! Reports this thread's CPU time (Linux `/proc/thread-self/schedstat`) per
//! frame, which stays meaningful on a shared, loaded machine; wall-clock
//! time is printed alongside. The criterion bench `spring` is the reference.
//! `--tress-only` / `--builtin-only` run one row (for `perf record`).

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
    if std::env::args().any(|a| a == "--builtin-only") {
        if let Some((joints, (cpu, _))) = builtin_rig() {
            println!("built-in avatar rig cpu ns/frame {cpu:.0} ({joints} joints)");
        }
        return;
    }
    let mut w = avatar();
    for n in 0..600 {
        frame(&mut w, n);
    }
    let tress = measure(FRAMES, |n| frame(&mut w, 600 + n));
    black_box(&w);
    if std::env::args().any(|a| a == "--tress-only") {
        let more = measure(FRAMES * 4, |n| frame(&mut w, 600 + FRAMES + n));
        println!(
            "tress cpu ns/frame {:.0} (first window {:.0})",
            more.0, tress.0
        );
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

    let builtin = builtin_rig();

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
    if let Some((joints, (cpu, wall))) = builtin {
        println!(
            "{:<22} {cpu:>12.0} {:>16.1} {wall:>12.0}",
            "built-in avatar rig",
            cpu / (joints * 2) as f64
        );
        println!(
            "  (assets/tress_avatar.vrm as TressAvatar builds it: fitted colliders, {joints} joints; frame = set frame poses, advance 1/60 s, read every bone output)"
        );
    }
}

/// The built-in avatar's rig as the Godot node `TressAvatar` builds it
/// (colliders fitted, tail/segment contact per chain from the fit), driven
/// by the standard head turn; (joints, (CPU ns, wall ns) per frame). `None`
/// when the asset is missing (run from the repository root).
fn builtin_rig() -> Option<(usize, (f64, f64))> {
    use tress_rig::fit_colliders::{ColliderFitOptions, fitted};
    use tress_rig::spring_rig::{RigOptions, SpringRig};
    use tress_tools::measure::motion::{Motion, Skeleton};
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../assets/tress_avatar.vrm");
    let Ok(avatar) = tress_vrm::load_path(path) else {
        eprintln!("built-in avatar rig: {path} not found, row skipped");
        return None;
    };
    let (avatar, fit) = fitted(&avatar, &ColliderFitOptions::default());
    let opts = RigOptions {
        tail_chains: fit.tail_chains(),
        ..RigOptions::default()
    };
    let mut rig = SpringRig::build(&avatar, &opts).ok()?;
    let humanoid = avatar.humanoid.as_ref()?;
    let head = humanoid.bone("head")?;
    let sway = humanoid.bone("hips").unwrap_or(head);
    let mut skel = Skeleton::new(&avatar, head, sway);
    // Two seconds of the turn at 60 Hz, posed up front so only the hair is timed.
    let motion = Motion::default();
    let worlds: alloc::vec::Vec<_> = (0..120)
        .map(|i| {
            skel.pose_at(&motion, f64::from(i) / 60.0);
            let mut w = alloc::vec::Vec::new();
            skel.world_into(&mut w);
            w
        })
        .collect();
    let joints = rig.joint_count();
    let mut out = alloc::vec![tress_core::spring::JointOutput::default(); 16];
    let mut step = |n: u64| {
        rig.set_frame_poses_from_world(&worlds[(n % 120) as usize]);
        rig.advance(1.0 / 60.0);
        for c in 0..rig.chains.len() {
            black_box(rig.outputs_into(c, &mut out));
        }
    };
    for n in 0..600 {
        step(n);
    }
    Some((joints, measure(FRAMES, |n| step(600 + n))))
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
