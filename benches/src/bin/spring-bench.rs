//! Prints the spring-chain solver's cost per joint-substep for the bench
//! avatar (see `benches/benches/spring_support`), next to the baseline.
//!
//! `cargo run --release -p tress-benches --bin spring-bench`
//! Reports this thread's CPU time (Linux `/proc/thread-self/schedstat`) per
//! frame, which stays meaningful on a shared, loaded machine; wall-clock
//! time is printed alongside. The criterion bench `spring` is the reference.
//! `--tress-only` / `--builtin-only` run one row (for `perf record`);
//! The built-in avatar's rig has the rig's defaults (flat locks at 5/s,
//! drape and the lock twist); `--lock-options=off` builds it with all three
//! off, `--lock-options=no-twist` without the twist.
//! `--vrm` times the VRM-compatible mode on Godette, the built-in avatar and
//! the bench avatar with the scalar kernel and with the lane kernels, in
//! turns, and prints the medians and the ratio (see [`vrm_lanes`]);
//! `--vrm --godette-lanes-only` runs only Godette with the lane kernels.
//! `--skirt` times the skirt avatar's rig with its band and without, in
//! turns, and prints the medians and the ratio (see [`skirt_bands`]).

extern crate alloc;

#[path = "../../benches/spring_support/mod.rs"]
mod spring_support;

use core::hint::black_box;
use spring_support::{JOINTS, avatar, avatar_vrm, avatar_with, baseline::Baseline, frame};
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
    if std::env::args().any(|a| a == "--vrm") {
        vrm_lanes();
        return;
    }
    if std::env::args().any(|a| a == "--skirt") {
        skirt_bands();
        return;
    }
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
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../assets/tress_avatar.vrm");
    let Ok(avatar) = tress_vrm::load_path(path) else {
        eprintln!("built-in avatar rig: {path} not found, row skipped");
        return None;
    };
    let (avatar, fit) = fitted(&avatar, &ColliderFitOptions::default());
    let mut opts = RigOptions {
        tail_chains: fit.tail_chains(),
        ..RigOptions::default()
    };
    for a in std::env::args() {
        match a.as_str() {
            "--lock-options=off" => {
                opts.flat_lock_stiffness = 0.0;
                opts.drape = false;
                opts.lock_twist = false;
            }
            "--lock-options=no-twist" => opts.lock_twist = false,
            _ => {}
        }
    }
    let mut rig = SpringRig::build(&avatar, &opts).ok()?;
    let humanoid = avatar.humanoid.as_ref()?;
    let head = humanoid.bone("head")?;
    let sway = humanoid.bone("hips").unwrap_or(head);
    let worlds = turn_worlds(&avatar, head, sway);
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

/// Repetitions of each scalar / lanes pair in `--vrm`.
const VRM_PAIRS: usize = 7;

/// Frames in one `--vrm` window: `/proc/thread-self/schedstat` of a running
/// thread lags by up to a scheduler tick (4 ms on some hosts), so a window
/// must run for a good part of a second to resolve a few percent.
const VRM_FRAMES: u64 = 5 * FRAMES;

/// `--vrm`: the VRM-compatible mode's CPU time per substep with the scalar
/// kernel (`StepConfig::lanes` off, the only path before the VRM lane
/// kernel) and with the lane kernels, measured in turns (scalar, lanes,
/// scalar, …) so that both see the same machine; prints each workload's
/// medians and the median of the pairwise ratios.
fn vrm_lanes() {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .map(|l| l.split(':').nth(1).unwrap_or("").trim().to_owned())
        })
        .unwrap_or_else(|| "unknown".into());
    println!("VRM-compatible mode, scalar kernel vs lane kernels; CPU: {cpu}");
    println!("{VRM_PAIRS} pairs, each {VRM_FRAMES} frames of 1/60 s (2 substeps); medians");
    println!(
        "{:<34} {:>7} {:>16} {:>16} {:>8}",
        "", "joints", "scalar ns/subst", "lanes ns/subst", "speed-up"
    );
    let godette = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../shared/assets/godette-vrm0/Godette_vrm_v4.vrm"
    );
    let builtin = concat!(env!("CARGO_MANIFEST_DIR"), "/../assets/tress_avatar.vrm");
    if std::env::args().any(|a| a == "--godette-lanes-only") {
        if let Some((_, mut lanes)) = vrm_rig(godette, false, true, true) {
            let t: alloc::vec::Vec<f64> = (0..20).map(|_| lanes()).collect();
            println!("Godette, lane kernels, cpu ns/substep per window: {t:.0?}");
        }
        return;
    }
    for (name, path, fit, outputs) in [
        ("Godette (as authored)", godette, false, true),
        ("Godette, no bone outputs read", godette, false, false),
        ("built-in avatar (fitted colliders)", builtin, true, true),
    ] {
        let Some((joints, mut scalar)) = vrm_rig(path, fit, false, outputs) else {
            eprintln!("{name}: {path} not found, row skipped");
            continue;
        };
        let Some((_, mut lanes)) = vrm_rig(path, fit, true, outputs) else {
            continue;
        };
        report(name, joints, &mut *scalar, &mut *lanes);
    }
    let (mut a, mut b) = (avatar_vrm(false), avatar_vrm(true));
    for n in 0..600 {
        frame(&mut a, n);
        frame(&mut b, n);
    }
    let (mut na, mut nb) = (600, 600);
    report(
        "bench avatar (12 chains, 10 colliders)",
        JOINTS,
        &mut || {
            na += VRM_FRAMES;
            measure(VRM_FRAMES, |i| frame(&mut a, na + i)).0 / 2.0
        },
        &mut || {
            nb += VRM_FRAMES;
            measure(VRM_FRAMES, |i| frame(&mut b, nb + i)).0 / 2.0
        },
    );
}

/// Median of `v` (sorted in place).
fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Runs `scalar` and `lanes` (each: CPU ns per substep over one window) in
/// turns and prints the row.
fn report(
    name: &str,
    joints: usize,
    scalar: &mut dyn FnMut() -> f64,
    lanes: &mut dyn FnMut() -> f64,
) {
    let (mut s, mut l, mut r) = (
        alloc::vec::Vec::new(),
        alloc::vec::Vec::new(),
        alloc::vec::Vec::new(),
    );
    for _ in 0..VRM_PAIRS {
        let a = scalar();
        let b = lanes();
        s.push(a);
        l.push(b);
        r.push(a / b);
    }
    let (ms, ml, mr) = (median(&mut s), median(&mut l), median(&mut r));
    let (lo, hi) = (r[0], r[r.len() - 1]);
    println!("{name:<34} {joints:>7} {ms:>16.0} {ml:>16.0} {mr:>7.2}x  (pairs {lo:.2}-{hi:.2}x)");
}

/// The avatar at `path` as a VRM-compatible rig (length quirk on, as the
/// three-vrm parity test builds it; `fit`: colliders fitted as `TressAvatar`
/// does), the lane kernels on or off, driven by the standard head turn
/// posed up front: (joints, a closure timing one window in CPU ns per
/// substep, reading every bone output each frame where `outputs`). `None`
/// when the file is missing.
fn vrm_rig(
    path: &str,
    fit: bool,
    lanes: bool,
    outputs: bool,
) -> Option<(usize, Box<dyn FnMut() -> f64>)> {
    use tress_core::spring::{Mode, StepConfig};
    use tress_rig::fit_colliders::{ColliderFitOptions, fitted};
    use tress_rig::spring_rig::{RigOptions, SpringRig};
    let avatar = tress_vrm::load_path(path).ok()?;
    let (avatar, tail_chains) = if fit {
        let (a, f) = fitted(&avatar, &ColliderFitOptions::default());
        let t = f.tail_chains();
        (a, t)
    } else {
        (avatar, 0)
    };
    let opts = RigOptions {
        mode: Mode::VrmCompatible,
        vrm_length_quirk: true,
        tail_chains,
        config: StepConfig {
            lanes,
            ..StepConfig::default()
        },
        ..RigOptions::default()
    };
    let mut rig = SpringRig::build(&avatar, &opts).ok()?;
    let humanoid = avatar.humanoid.as_ref()?;
    let head = humanoid.bone("head")?;
    let sway = humanoid.bone("hips").unwrap_or(head);
    let worlds = turn_worlds(&avatar, head, sway);
    let joints = rig.joint_count();
    let mut out = vec![tress_core::spring::JointOutput::default(); 32];
    let mut n = 0u64;
    let mut step = move || {
        rig.set_frame_poses_from_world(&worlds[(n % 120) as usize]);
        rig.advance(1.0 / 60.0);
        if outputs {
            for c in 0..rig.chains.len() {
                black_box(rig.outputs_into(c, &mut out));
            }
        }
        black_box(&rig);
        n += 1;
    };
    for _ in 0..600 {
        step();
    }
    Some((
        joints,
        Box::new(move || measure(VRM_FRAMES, |_| step()).0 / 2.0),
    ))
}

/// The skirt avatar's rig (`assets/tress_avatar_skirt.vrm`: the eight locks,
/// the ponytail and 24 skirt chains in one band) driven by the standard
/// head turn and hips sway, with its band held and with it left out
/// (`RigOptions::bands`), five alternating windows each; prints the median
/// CPU ns per 60 Hz frame (set frame poses, advance, read every output) and
/// their ratio.
fn skirt_bands() {
    use tress_rig::spring_rig::{RigOptions, SpringRig};
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../assets/tress_avatar_skirt.vrm"
    );
    let Ok(avatar) = tress_vrm::load_path(path) else {
        eprintln!("skirt avatar: {path} not found");
        return;
    };
    let Some(humanoid) = avatar.humanoid.as_ref() else {
        return;
    };
    let (Some(head), Some(hips)) = (humanoid.bone("head"), humanoid.bone("hips")) else {
        return;
    };
    let worlds = turn_worlds(&avatar, head, hips);
    let mut rigs: alloc::vec::Vec<SpringRig> = [true, false]
        .iter()
        .filter_map(|&bands| {
            let opts = RigOptions {
                bands,
                ..RigOptions::default()
            };
            SpringRig::build(&avatar, &opts).ok()
        })
        .collect();
    if rigs.len() != 2 {
        eprintln!("skirt avatar: the rig does not build");
        return;
    }
    let links = rigs[0].world.band_links().len();
    let mut out = alloc::vec![tress_core::spring::JointOutput::default(); 16];
    let mut times = [alloc::vec::Vec::new(), alloc::vec::Vec::new()];
    for round in 0..5u64 {
        for (r, rig) in rigs.iter_mut().enumerate() {
            let t = measure(FRAMES / 4, |n| {
                rig.set_frame_poses_from_world(&worlds[(n % 120) as usize]);
                rig.advance(1.0 / 60.0);
                for c in 0..rig.chains.len() {
                    black_box(rig.outputs_into(c, &mut out));
                }
            });
            if round > 0 {
                times[r].push(t.0);
            }
        }
    }
    let median = |v: &mut alloc::vec::Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let (with, without) = (median(&mut times[0]), median(&mut times[1]));
    println!(
        "skirt avatar rig ({} chains, {links} band links), cpu ns per 60 Hz frame: band {with:.0}, no band {without:.0}, ratio {:.2}",
        rigs[0].chains.len(),
        with / without
    );
}

/// Two seconds of the standard head turn and hips sway at 60 Hz (`head`
/// turns, `sway` moves), every node's world matrix per frame, posed up
/// front so only the hair is timed.
fn turn_worlds(
    avatar: &tress_vrm::model::Avatar,
    head: usize,
    sway: usize,
) -> alloc::vec::Vec<alloc::vec::Vec<glam::Mat4>> {
    use tress_tools::measure::motion::{Motion, Skeleton};
    let mut skel = Skeleton::new(avatar, head, sway);
    let motion = Motion::default();
    (0..120)
        .map(|i| {
            skel.pose_at(&motion, f64::from(i) / 60.0);
            let mut w = alloc::vec::Vec::new();
            skel.world_into(&mut w);
            w
        })
        .collect()
}
