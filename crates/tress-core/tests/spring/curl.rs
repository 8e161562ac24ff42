//! Acceptance 2 and 3: no curl after a head turn, and settling.
//!
//! The improved chain is compared against its own static equilibrium (the
//! same chain settled 12 s under gravity with the head still): that is the
//! rest arc carried by the head plus exactly the static sag its stiffness
//! allows. The sag itself is printed. The earlier mode runs the same motion;
//! its tip is compared against the same references.

use crate::common::*;
use alloc::vec::Vec;
use tress_core::math::{Real, Vec3, ops};
use tress_core::spring::{ContactMode, Mode, Pose};

const N: usize = 6;
const LEN: Real = 0.04;

/// Head turn yaw 60° sin(2π·0.5 t) for 4 s, then 8 s still; 60 fps frames.
/// Returns the final tails and the largest tip move between 30 Hz samples
/// in the last 2 s.
fn run(mode: Mode, turn: bool) -> (Vec<Vec3>, Real) {
    let mut w = world_with(mode, ContactMode::Tail, N, LEN, stiff_params());
    let mut last_tip: Option<Vec3> = None;
    let mut max_move: Real = 0.0;
    for f in 1..=720 {
        let t = f as Real / 60.0;
        let deg = if turn && t <= 4.0 {
            60.0 * ops::sin(core::f32::consts::PI * t)
        } else {
            0.0
        };
        w.set_frame_pose(0, Pose::new(Vec3::ZERO, yaw(deg)));
        w.advance(1.0 / 60.0);
        if t > 10.0 && f % 2 == 0 {
            let tip = *tails(&w).last().unwrap();
            if let Some(prev) = last_tip {
                max_move = max_move.max((tip - prev).length());
            }
            last_tip = Some(tip);
        }
    }
    (tails(&w), max_move)
}

#[test]
fn improved_chain_returns_to_its_arc_and_earlier_curls() {
    let rest = rest_arc(&Pose::IDENTITY, N, LEN, 1.0);
    let (eq_improved, _) = run(Mode::Improved, false);
    let (improved, settle_improved) = run(Mode::Improved, true);
    let (eq_earlier, _) = run(Mode::Earlier, false);
    let (earlier, settle_earlier) = run(Mode::Earlier, true);
    let dev_improved = max_dev(&improved, &eq_improved);
    let sag_improved = max_dev(&eq_improved, &rest);
    let tip_earlier_vs_rest = (earlier[N - 1] - rest[N - 1]).length();
    let tip_earlier_vs_improved = (earlier[N - 1] - eq_improved[N - 1]).length();
    let tip_improved_vs_rest = (improved[N - 1] - rest[N - 1]).length();
    println!(
        "curl: improved max deviation from its static equilibrium after the turn: {:.6} mm",
        dev_improved * 1e3
    );
    println!(
        "curl: improved static sag from the rest arc (stiffness 3000/s², 6×4 cm): {:.3} mm",
        sag_improved * 1e3
    );
    println!(
        "curl: improved tip vs rest arc: {:.3} mm",
        tip_improved_vs_rest * 1e3
    );
    println!(
        "curl: earlier tip vs rest arc: {:.3} mm",
        tip_earlier_vs_rest * 1e3
    );
    println!(
        "curl: earlier tip vs improved equilibrium: {:.3} mm",
        tip_earlier_vs_improved * 1e3
    );
    println!(
        "curl: earlier deviation from its own equilibrium: {:.6} mm",
        max_dev(&earlier, &eq_earlier) * 1e3
    );
    println!(
        "settle: max tip move between 30 Hz samples, last 2 s: improved {:.2e} mm, earlier {:.2e} mm",
        settle_improved * 1e3,
        settle_earlier * 1e3
    );
    assert!(
        dev_improved < 1e-3,
        "improved strays {dev_improved} m from its arc"
    );
    assert!(
        tip_earlier_vs_rest > 5e-3,
        "earlier tip only {tip_earlier_vs_rest} m from the rest arc"
    );
    assert!(
        tip_earlier_vs_rest > 2.0 * tip_improved_vs_rest,
        "earlier does not curl more than improved sags"
    );
    assert!(
        settle_improved < 1e-6 && settle_earlier < 1e-6,
        "not settled: {settle_improved} {settle_earlier}"
    );
}
