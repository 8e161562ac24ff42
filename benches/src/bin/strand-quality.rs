//! Measures strand quality on the turning-head scene and prints the figures
//! `docs/STRANDS.md` records: segment length error, particles inside
//! colliders, tip swing past the follow position at head reversals, settling
//! after the head stops, and the "gravity and length only" baseline.
//!
//! `cargo run --release -p tress-benches --bin strand-quality [-- SECONDS] [--volume]`
//!
//! With `--volume` the shape-and-colliders run has the volume pass on
//! (`VolumeParams::for_spacing` of the groom's `root_spacing`, issue #22
//! item 3).
//!
//! Exits non-zero when an acceptance figure is missed.

use glam::Vec3;
use tress_core::strand::{Schedule, StrandParams, StrandSim, VolumeParams};
use tress_rig::groom::ProceduralGroom;
use tress_rig::groom::scene::{TURN_SECONDS, posed_colliders, standard_sim, turning_pose};

/// Penetration depth that counts as "inside" (2 mm).
const DEPTH: f32 = 0.002;
/// Mean tip distance from its final position below which tips are settled.
const SETTLED: f32 = 0.005;

/// Per-frame measurements of one run.
struct Run {
    worst_mean_len: f32,
    worst_max_len: f32,
    worst_inside: usize,
    frames_with_inside: usize,
    final_inside: usize,
    /// (time, mean signed tip angle relative to its follow position, rad).
    swing: Vec<(f64, f32)>,
    /// Tip positions per frame after the head stops.
    tips_after: Vec<(f64, Vec<Vec3>)>,
    frames: usize,
}

fn tips(sim: &StrandSim) -> Vec<Vec3> {
    let m = sim.layout().particles();
    (0..sim.layout().strands())
        .map(|s| sim.point(s, m - 1))
        .collect()
}

/// Mean over strands of the signed yaw (about +Y through the head centre)
/// from the tip's follow position (its groomed position carried by the head)
/// to where it is.
fn mean_tip_yaw(sim: &StrandSim, centre: Vec3, yaw: f32) -> f32 {
    let m = sim.layout().particles();
    let rest = sim.rest();
    let rot = glam::Quat::from_rotation_y(yaw);
    let mut sum = 0.0f64;
    let n = sim.layout().strands();
    for s in 0..n {
        let follow = rot * rest.point(sim.layout(), s, m - 1);
        let now = sim.point(s, m - 1) - centre;
        let (a, b) = (
            glam::Vec2::new(follow.x, follow.z),
            glam::Vec2::new(now.x, now.z),
        );
        // Yaw about +Y turns +X toward −Z, hence the sign.
        let ang = -tress_core::math::ops::atan2(a.perp_dot(b), a.dot(b));
        sum += f64::from(ang);
    }
    (sum / n as f64) as f32
}

fn run(params: StrandParams, seconds: f64, volume: bool) -> Run {
    let groom = ProceduralGroom::default();
    let centre = groom.head_centre;
    let mut sim = standard_sim(&groom, params, Schedule::FIXED_120);
    sim.set_threads(2);
    if volume {
        sim.set_volume(Some(VolumeParams::for_spacing(sim.root_spacing())));
    }
    let dt = 1.0f32 / 60.0;
    let frames = (seconds * 60.0).round() as usize;
    let mut r = Run {
        worst_mean_len: 0.0,
        worst_max_len: 0.0,
        worst_inside: 0,
        frames_with_inside: 0,
        final_inside: 0,
        swing: Vec::new(),
        tips_after: Vec::new(),
        frames,
    };
    for f in 1..=frames {
        sim.advance(dt, |t, _| turning_pose(centre, t));
        let t = sim.clock().time();
        let pose = turning_pose(centre, t);
        let e = sim.length_error();
        r.worst_mean_len = r.worst_mean_len.max(e.mean);
        r.worst_max_len = r.worst_max_len.max(e.max);
        let colliders = posed_colliders(&pose, groom.head_radius);
        let layout = *sim.layout();
        let inside =
            tress_core::strand::metrics::penetrations(&layout, &sim.state_mut(), &colliders, DEPTH);
        r.worst_inside = r.worst_inside.max(inside);
        r.frames_with_inside += usize::from(inside > 0);
        if f == frames {
            r.final_inside = inside;
        }
        let yaw = tress_rig::groom::scene::turning_yaw(t);
        r.swing.push((t, mean_tip_yaw(&sim, centre, yaw)));
        if t >= f64::from(TURN_SECONDS) {
            r.tips_after.push((t, tips(&sim)));
        }
    }
    r
}

fn main() {
    let seconds: f64 = std::env::args()
        .skip(1)
        .find_map(|s| s.parse().ok())
        .unwrap_or(10.0);
    let volume = std::env::args().any(|a| a == "--volume");
    let groom = ProceduralGroom::default();
    let free = groom.strands * (groom.particles - 1);
    println!(
        "strand-quality: {} strands x {} particles ({free} free), head yaw +/-60 deg, 2 s period, \
         {TURN_SECONDS} s then still; 1/120 s steps, 60 fps frames, {seconds} s",
        groom.strands, groom.particles
    );
    let mut ok = true;

    let full = run(StrandParams::default(), seconds, volume);
    println!(
        "\n[shape + colliders] (StrandParams::default(){})",
        if volume { ", volume on" } else { "" }
    );
    println!(
        "  segment length error: worst-frame mean {:.4}%, max {:.4}%   (limits 1%, 3%)",
        full.worst_mean_len * 100.0,
        full.worst_max_len * 100.0
    );
    ok &= full.worst_mean_len <= 0.01 && full.worst_max_len <= 0.03;
    println!(
        "  free particles > 2 mm inside a collider: worst frame {} of {free}, frames with any {} of {}",
        full.worst_inside, full.frames_with_inside, full.frames
    );
    ok &= full.worst_inside == 0;

    // Momentum: after each reversal (head at +/-60 deg at t = 0.5, 1.5, 2.5,
    // 3.5 s) tips keep going the way the head was turning, past their follow
    // position. The head turned +yaw before t = 0.5 and 2.5, -yaw before 1.5, 3.5.
    println!(
        "  tip swing past the follow position after each head reversal (mean tip yaw - follow yaw):"
    );
    for (k, rev) in [0.5f64, 1.5, 2.5, 3.5].iter().enumerate() {
        let dir = if k % 2 == 0 { 1.0 } else { -1.0 };
        let past = full
            .swing
            .iter()
            .filter(|(t, _)| *t > *rev && *t < rev + 0.5)
            .map(|(_, a)| a * dir)
            .fold(f32::MIN, f32::max);
        println!(
            "    reversal at {rev:.1} s: swings {:.2} deg past",
            past.to_degrees()
        );
        ok &= past > 0.0;
    }
    // Settling: time after the head stops until the mean tip distance from
    // the final tip position stays under 5 mm.
    if let Some((_, last)) = full.tips_after.last() {
        let mut settled_at = None;
        for (t, tp) in &full.tips_after {
            let d = tp
                .iter()
                .zip(last)
                .map(|(a, b)| (*a - *b).length())
                .sum::<f32>()
                / tp.len() as f32;
            if d > SETTLED {
                settled_at = None;
            } else if settled_at.is_none() {
                settled_at = Some(*t);
            }
        }
        match settled_at {
            Some(t) => {
                let after = t - f64::from(TURN_SECONDS);
                println!(
                    "  settles (mean tip within 5 mm of rest) {after:.2} s after the head stops   (limit 3 s)"
                );
                ok &= after <= 3.0;
            }
            None => {
                println!("  never settles");
                ok = false;
            }
        }
    }

    let base = run(StrandParams::baseline(), seconds.min(6.0), false);
    println!(
        "\n[baseline: gravity and length only] (StrandParams::baseline(), no colliders in the solver)"
    );
    println!(
        "  segment length error: worst-frame mean {:.4}%, max {:.4}%",
        base.worst_mean_len * 100.0,
        base.worst_max_len * 100.0
    );
    println!(
        "  free particles > 2 mm inside a collider: worst frame {} of {free}, last frame {}, frames with any {} of {}",
        base.worst_inside, base.final_inside, base.frames_with_inside, base.frames
    );
    ok &= base.worst_inside > 0;
    println!("\n{}", if ok { "PASS" } else { "FAIL" });
    if !ok {
        std::process::exit(1);
    }
}
