//! Measures the volume pass on the turning-head scene (issue #22,
//! acceptance 3): particle pairs on different strands closer than half the
//! strand spacing when the head stops turning and a second later, with
//! volume off and on, beside the length error and the particles inside
//! the colliders with it on. Two threads; the pass's cost is criterion's
//! `strand/volume_frame_*` against `strand/lod_frame_6000x16_divisor1`.
//!
//! `cargo run --release -p tress-benches --bin strand-volume [-- SHARE STIFFNESS MAXPUSH EVERY]`
//! (defaults: `VolumeParams::for_spacing`; SHARE is the kept spacing as a
//! share of the strand spacing). Then the same run with volume on at 30
//! and 120 fps frames (poses per step), compared bit for bit. Exits
//! non-zero when the pairs do not drop by half a second after the turn,
//! the quality limits are missed or the two rates differ.

use tress_core::strand::{Schedule, StrandParams, StrandSim, VolumeParams};
use tress_rig::groom::ProceduralGroom;
use tress_rig::groom::scene::{TURN_SECONDS, standard_sim, turning_pose};

fn main() {
    let a: Vec<f32> = std::env::args()
        .skip(1)
        .filter_map(|s| s.parse().ok())
        .collect();
    let groom = ProceduralGroom::default();
    let mut results = Vec::new();
    for on in [false, true] {
        let mut sim = standard_sim(&groom, StrandParams::default(), Schedule::FIXED_120);
        sim.set_threads(2);
        let spacing = sim.root_spacing();
        let radius = 0.5 * spacing;
        if on {
            let d = VolumeParams::for_spacing(spacing);
            let vp = VolumeParams {
                spacing: a.first().map_or(d.spacing, |f| spacing * f),
                stiffness: *a.get(1).unwrap_or(&d.stiffness),
                max_push: *a.get(2).unwrap_or(&d.max_push),
                every: a.get(3).map_or(d.every, |e| *e as u32),
            };
            println!(
                "volume: kept spacing {:.3} mm, stiffness {}, max push {} of it, a pass every {} steps",
                vp.spacing * 1e3,
                vp.stiffness,
                vp.max_push,
                vp.every
            );
            sim.set_volume(Some(vp));
        } else {
            println!(
                "strand spacing (mean nearest root distance) {:.3} mm; pairs counted closer than {:.3} mm; at rest {}",
                spacing * 1e3,
                radius * 1e3,
                sim.close_pairs(radius)
            );
        }
        let (mut worst_mean, mut worst_max, mut inside) = (0.0f32, 0.0f32, 0usize);
        let mut at_stop = 0;
        let frames = ((TURN_SECONDS + 1.0) * 60.0) as u32;
        for f in 1..=frames {
            sim.advance(1.0 / 60.0, |t, _| turning_pose(groom.head_centre, t));
            let e = sim.length_error();
            worst_mean = worst_mean.max(e.mean);
            worst_max = worst_max.max(e.max);
            inside = inside.max(sim.penetrations(0.002));
            if f == (TURN_SECONDS * 60.0) as u32 {
                at_stop = sim.close_pairs(radius);
            }
        }
        let pairs = sim.close_pairs(radius);
        println!(
            "volume {}: close pairs {at_stop} when the head stops, {pairs} a second later; \
             worst-frame length error mean {:.4} %, max {:.4} %; most free particles > 2 mm inside {inside}",
            if on { "on " } else { "off" },
            worst_mean * 100.0,
            worst_max * 100.0,
        );
        results.push((at_stop, pairs, inside, worst_mean, worst_max));
    }
    let (off, on) = (results[0], results[1]);
    let change = |a: u64, b: u64| 100.0 * (b as f64 - a as f64) / a.max(1) as f64;
    println!(
        "change with volume: {:+.0} % when the head stops, {:+.0} % a second later (target -50 %)",
        change(off.0, on.0),
        change(off.1, on.1)
    );
    let bits = |fps: u32| -> Vec<u32> {
        let mut sim: StrandSim = standard_sim(&groom, StrandParams::default(), Schedule::FIXED_120);
        sim.set_threads(2);
        sim.set_volume(Some(VolumeParams::for_spacing(sim.root_spacing())));
        for _ in 0..((TURN_SECONDS + 1.0) * fps as f32) as u32 {
            sim.advance(1.0 / fps as f32, |t, _| turning_pose(groom.head_centre, t));
        }
        let (x, y, z) = sim.positions();
        x.iter().chain(y).chain(z).map(|v| v.to_bits()).collect()
    };
    let same = bits(30) == bits(120);
    println!(
        "volume on, 30 against 120 fps frames: {}",
        if same { "the same bits" } else { "DIFFERENT" }
    );
    let ok = on.1 * 2 <= off.1 && on.2 == 0 && on.3 <= 0.01 && on.4 <= 0.03 && same;
    println!("{}", if ok { "PASS" } else { "FAIL" });
    if !ok {
        std::process::exit(1);
    }
}
