//! Lock twist (`ChainDesc::twist`): a flat lock's bone outputs turn about
//! their own segments so bends go through the face; positions, frame-rate
//! invariance and continuity stay; the first bone's turn is capped; chains
//! with limits or in a band are left alone.

use crate::common::*;
use alloc::vec::Vec;
use tress_core::math::{Quat, Real, Vec3, ops};
use tress_core::spring::{BandLink, ChainDesc, FlatLock, JointLimit, JointOutput, Pose};

const N: usize = 6;
const LEN: Real = 0.04;
/// Half the ribbon's width in the skinned probe below (the built-in bangs
/// are 2.8 cm either side at the root).
const HALF: Real = 0.02;

/// A straight lock wide along X (no flat-lock stiffness: only the twist
/// differs), with the lock twist `on`.
fn lock(on: bool, half_width: Real) -> World {
    let flat = FlatLock {
        width_axis: Vec3::X,
        stiffness: 0.0,
        half_width,
        bend: 0.0,
    };
    let mut w = straight_lock(N, LEN, flat, false);
    let desc = ChainDesc {
        twist: on,
        ..w.chain_desc(0).unwrap()
    };
    w.set_chain_desc(0, desc).unwrap();
    w
}

/// The frame's pose at `t` s: a shake across the lock's width and through
/// its face at once, and a head turn, then still.
fn motion(t: Real) -> Pose {
    shake(t, 0.06)
}

/// [`motion`] with `through` m of shake through the face (0: only across
/// the width, the lock bends in its own plane).
fn shake(t: Real, through: Real) -> Pose {
    let s = if t < 1.0 { ops::sin(9.0 * t) } else { 0.0 };
    Pose::new(Vec3::new(0.06 * s, 0.0, through * s), yaw(35.0 * s))
}

/// Largest strain of the rails of a ribbon `HALF` either side of the rest
/// width axis, skinned as the built-in locks are (rigid to a bone at its
/// segment's middle, half and half at a joint), over every joint.
fn ribbon_strain(out: &[JointOutput]) -> Real {
    let down = ops::abs(LEN);
    let mut worst: Real = 0.0;
    for j in 1..out.len() {
        let (a, b) = (&out[j - 1], &out[j]);
        // Maps a rest offset from joint j (bone-local at rest) to its posed
        // place through bone a or bone b.
        // Rest offsets from the joint in the frame's space: a bone's output
        // rotation carries them (the rest bones carry no rotation of their
        // own, the lock hangs straight).
        let joint = b.origin;
        for side in [-1.0, 1.0] {
            let x = Vec3::X * (HALF * side);
            let up = Vec3::new(0.0, 0.5 * down, 0.0);
            let p_up = joint + a.world_rot * (up + x);
            let p_mid = joint + 0.5 * (a.world_rot * x + b.world_rot * x);
            let p_down = joint + b.world_rot * (x - up);
            let rest = 0.5 * down;
            for l in [p_up.distance(p_mid), p_mid.distance(p_down)] {
                worst = worst.max(ops::abs(l / rest - 1.0));
            }
        }
    }
    worst
}

/// Runs the motion at 120 Hz; the outputs of every step.
fn run(on: bool, half_width: Real) -> Vec<Vec<JointOutput>> {
    let mut w = lock(on, half_width);
    let mut all = Vec::new();
    for f in 1..=240 {
        w.set_frame_pose(0, motion(f as Real / 120.0));
        w.advance(1.0 / 120.0);
        all.push(outputs(&w, 0));
    }
    all
}

/// Angle of the turn taking `from` onto `to`, rad (from the turn's
/// vector part: an arc cosine near 1 would round identical rotations to
/// 1e-3 rad in f32).
fn angle(from: Quat, to: Quat) -> Real {
    let d = to * from.inverse();
    2.0 * ops::atan2(d.xyz().length(), ops::abs(d.w))
}

#[test]
fn the_twist_moves_no_joint_and_cuts_the_ribbon_stretch() {
    let (plain, twisted) = (run(false, 0.0), run(true, 0.0));
    let (mut worst_plain, mut worst_twisted): (Real, Real) = (0.0, 0.0);
    for (f, (p, t)) in plain.iter().zip(&twisted).enumerate() {
        for (a, b) in p.iter().zip(t) {
            // Same simulation: the same joints to the bit, and each bone
            // still points along its segment.
            assert_eq!(a.origin, b.origin);
            assert_eq!(a.tail, b.tail);
            let seg = b.tail - b.origin;
            assert!((b.world_rot * Vec3::new(0.0, -LEN, 0.0) - seg).length() < 1e-6);
        }
        // While the head moves. Afterwards the lock swings in its own plane
        // alone: a bend exactly in-plane has two mirror-image best twists,
        // and a rule continuous in the state leaves that case untwisted.
        if f < 120 {
            worst_plain = worst_plain.max(ribbon_strain(p));
            worst_twisted = worst_twisted.max(ribbon_strain(t));
        }
    }
    println!(
        "ribbon rail strain: shortest arc {:.2} %, twisted {:.2} %",
        worst_plain * 100.0,
        worst_twisted * 100.0
    );
    assert!(worst_plain > 0.05, "the shake bends the lock in its plane");
    assert!(
        worst_twisted < 0.6 * worst_plain,
        "twist {worst_twisted} against {worst_plain}"
    );
}

#[test]
fn the_first_bone_turns_no_more_than_its_cap() {
    // 5 cm either side: the root row's corners may move 4.4 mm, so the
    // first bone turns at most 0.088 rad (under the 9° cap).
    let half = 0.05;
    let cap = tress_core::spring::twist::ROOT_SHIFT / half;
    let (plain, twisted) = (run(false, half), run(true, half));
    let mut most: Real = 0.0;
    for (p, t) in plain.iter().zip(&twisted) {
        most = most.max(angle(p[0].world_rot, t[0].world_rot));
    }
    assert!(
        most <= cap + 1e-4,
        "first bone turned {most} rad, cap {cap}"
    );
    assert!(
        most > 0.5 * cap,
        "the cap is reached in this shake ({most})"
    );
}

#[test]
fn twisted_outputs_are_bit_identical_across_frame_rates() {
    let mut runs = Vec::new();
    for fps in [30u32, 60, 120, 240] {
        let mut w = lock(true, 0.0);
        let mut samples = Vec::new();
        for f in 1..=(2 * fps) {
            w.advance_sampled(1.0 / fps as Real, |_, i| motion(i as Real / 120.0));
            if f % (fps / 30) == 0 {
                let bits: Vec<u32> = outputs(&w, 0)
                    .iter()
                    .flat_map(|o| {
                        o.world_rot
                            .to_array()
                            .into_iter()
                            .chain(o.local_rot.to_array())
                    })
                    .map(Real::to_bits)
                    .collect();
                samples.push(bits);
            }
        }
        runs.push(samples);
    }
    for r in &runs[1..] {
        assert_eq!(r, &runs[0]);
    }
}

#[test]
fn a_rounding_sized_nudge_turns_the_bones_by_a_rounding_sized_angle() {
    // The twist is a fixed number of damped steps from no twist: a smooth
    // function of the joints, no jump between minima.
    // Also across the width only: a lock bent in its own plane has two
    // mirror-image best twists, the case a jump would come from.
    for through in [0.06, 0.0] {
        let run_nudged = |eps: Real| {
            let mut w = lock(true, 0.0);
            let mut all = Vec::new();
            for f in 1..=240 {
                let p = shake(f as Real / 120.0, through);
                w.set_frame_pose(0, Pose::new(p.pos, yaw(eps.to_degrees()) * p.rot));
                w.advance(1.0 / 120.0);
                all.push(outputs(&w, 0));
            }
            all
        };
        let a = run_nudged(0.0);
        let mut most: Real = 0.0;
        for eps in [1e-6, -1e-6] {
            let b = run_nudged(eps);
            for (x, y) in a.iter().zip(&b) {
                for (p, q) in x.iter().zip(y) {
                    most = most.max(angle(p.world_rot, q.world_rot));
                }
            }
        }
        println!(
            "shake through the face {through} m: a 1e-6 rad nudge turns a twisted bone by up to {most:e} rad"
        );
        assert!(most < 1e-3, "{most} rad");
    }
}

/// [`lock`] with angle limits on one joint (`limited`) or in a band with a
/// second chain beside it.
fn constrained(on: bool, limited: bool) -> World {
    let mut w = lock(on, 0.0);
    if limited {
        w.set_joint_limit(0, 3, Some(JointLimit::cone(0.05)))
            .unwrap();
    } else {
        let beside = ChainDesc {
            root_offset: Vec3::new(0.03, 0.0, 0.0),
            ..w.chain_desc(0).unwrap()
        };
        let joints: Vec<_> = (0..N)
            .map(|_| tress_core::spring::JointDesc {
                offset: Vec3::new(0.0, -LEN, 0.0),
                flat: FlatLock {
                    width_axis: Vec3::X,
                    ..FlatLock::default()
                },
                ..Default::default()
            })
            .collect();
        let b = w.add_chain(beside, &joints).unwrap();
        w.add_band_link(BandLink::new(0, b, 0.5)).unwrap();
    }
    w
}

#[test]
fn limited_and_banded_chains_keep_the_shortest_arc() {
    // A limit reads its parent's frame as the shortest arc gives it; a band's
    // cloth is skinned across two chains. Either way the outputs stay
    // untwisted: the same bits as with the twist off.
    for limited in [true, false] {
        let (mut on, mut off) = (constrained(true, limited), constrained(false, limited));
        let mut apart: Real = 0.0;
        for f in 1..=120 {
            for w in [&mut on, &mut off] {
                w.set_frame_pose(0, motion(f as Real / 120.0));
                w.advance(1.0 / 120.0);
            }
            for c in 0..on.chain_count() {
                assert_eq!(outputs(&on, c), outputs(&off, c), "limited {limited}");
            }
            // The same lock alone would twist: the motion does bend it.
            let free = outputs(&on, 0);
            apart = apart.max(free[1].tail.distance(free[0].origin));
        }
        assert!(apart > 0.0);
    }
}
