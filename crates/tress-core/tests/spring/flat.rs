//! Flat locks (`FlatLock`): a ribbon resists bending across its width, bends
//! through its face as before, yields to colliders, and keeps frame-rate
//! invariance.

use crate::common::*;
use alloc::vec::Vec;
use tress_core::collide::Collider;
use tress_core::math::{Quat, Real, Vec3, ops};
use tress_core::spring::{FlatLock, Pose};

const N: usize = 6;
const LEN: Real = 0.04;

/// A straight lock of `N` segments hanging down from the origin, wide
/// along X when `flat`.
fn lock(flat: bool) -> World {
    let flat = if flat {
        FlatLock {
            width_axis: Vec3::X,
            stiffness: 83.0,
            half_width: 0.0,
            bend: 0.0,
        }
    } else {
        FlatLock::default()
    };
    straight_lock(N, LEN, flat, false)
}

/// Largest bend between consecutive segments along `axis` (the change of
/// the unit direction's `axis` component) over a 1.5 s shake along `shake`.
fn worst_bend(flat: bool, shake: Vec3, axis: Vec3) -> Real {
    shake_run(&mut lock(flat), shake, axis).0
}

/// Over a 1 s shake along `shake` (±6 cm at 2 Hz) then 0.5 s still: the
/// largest bend between consecutive segments along `axis` (the change of
/// the unit direction's `axis` component), and the tip's largest distance
/// from its rest place carried by the frame.
fn shake_run(w: &mut World, shake: Vec3, axis: Vec3) -> (Real, Real) {
    let rest_tip = tails(w)[N - 1];
    let (mut bend, mut swing): (Real, Real) = (0.0, 0.0);
    for f in 1..=180 {
        let t = f as Real / 120.0;
        let d = if t < 1.0 {
            ops::sin(2.0 * core::f32::consts::PI * 2.0 * t) * 0.06
        } else {
            0.0
        };
        w.set_frame_pose(0, Pose::new(shake * d, Quat::IDENTITY));
        w.advance(1.0 / 120.0);
        let out = outputs(w, 0);
        for pair in out.windows(2) {
            let a = (pair[0].tail - pair[0].origin).normalize();
            let b = (pair[1].tail - pair[1].origin).normalize();
            bend = bend.max((b - a).dot(axis).abs());
        }
        swing = swing.max(out[N - 1].tail.distance(rest_tip + shake * d));
    }
    (bend, swing)
}

#[test]
fn a_flat_lock_bends_through_its_face_not_across_its_width() {
    // Shaken across its width (X), the flat lock bends far less than a
    // round one; shaken through its face (Z), it bends just the same.
    let across_round = worst_bend(false, Vec3::X, Vec3::X);
    let across_flat = worst_bend(true, Vec3::X, Vec3::X);
    let face_round = worst_bend(false, Vec3::Z, Vec3::Z);
    let face_flat = worst_bend(true, Vec3::Z, Vec3::Z);
    println!(
        "flat lock: bend across the width {across_flat:.4} vs round {across_round:.4}; through the face {face_flat:.4} vs {face_round:.4}"
    );
    assert!(
        across_round > 0.05,
        "the shake must bend a round lock ({across_round})"
    );
    assert!(
        across_flat < 0.2 * across_round,
        "{across_flat} vs {across_round}"
    );
    assert!(
        (face_flat - face_round).abs() <= 0.01 * face_round,
        "{face_flat} vs {face_round}"
    );
}

#[test]
fn a_flat_lock_is_pushed_aside_by_a_collider() {
    // A sphere sweeping sideways (across the width) into the lock's middle:
    // the lock is pushed aside there (the collider wins), and stays clear.
    let mut w = lock(true);
    let ball = w.add_frame(Pose::IDENTITY).unwrap();
    w.add_collider(ball, Collider::sphere(Vec3::ZERO, 0.03))
        .unwrap();
    let mut pushed: Real = 0.0;
    for f in 1..=120 {
        let t = f as Real / 120.0;
        let x = -0.15 + 0.2 * t.min(0.8);
        w.set_frame_pose(ball, Pose::new(Vec3::new(x, -0.12, 0.0), Quat::IDENTITY));
        w.advance(1.0 / 120.0);
        let out = outputs(&w, 0);
        pushed = pushed.max(out[2].tail.x.abs());
        for o in &out {
            let c = Vec3::new(x, -0.12, 0.0);
            // Segment clearance from the ball (hit radius 5 mm).
            let ab = o.tail - o.origin;
            let s = ((c - o.origin).dot(ab) / ab.length_squared()).clamp(0.0, 1.0);
            let d = (o.origin + ab * s).distance(c);
            assert!(
                d > 0.03 + 0.005 - 0.003,
                "segment inside the ball by {} m at frame {f}",
                0.035 - d
            );
        }
    }
    assert!(pushed > 0.01, "the ball never moved the lock ({pushed} m)");
}

fn bits(w: &World) -> Vec<u32> {
    (0..w.chain_len(0))
        .flat_map(|j| {
            let (x, v) = w.joint_state(0, j).unwrap();
            [x.to_array(), v.to_array()].concat()
        })
        .map(Real::to_bits)
        .collect()
}

/// Two seconds of a swaying, turning frame delivered at `fps` with poses
/// per substep: the states at each 1/30 s, as bits.
fn sampled_run(fps: u32, w: &mut World) -> Vec<Vec<u32>> {
    let mut samples = Vec::new();
    for f in 1..=(2 * fps) {
        w.advance_sampled(1.0 / fps as Real, |_, i| {
            let t = i as Real / 120.0;
            Pose::new(
                Vec3::new(0.05 * ops::sin(7.0 * t), 0.0, 0.0),
                yaw(40.0 * ops::sin(3.0 * t)),
            )
        });
        if f % (fps / 30) == 0 {
            samples.push(bits(w));
        }
    }
    samples
}

#[test]
fn a_flat_lock_is_bit_identical_across_frame_rates() {
    let first = sampled_run(30, &mut lock(true));
    for fps in [60u32, 120, 240] {
        assert_eq!(sampled_run(fps, &mut lock(true)), first, "{fps} fps");
    }
}

#[test]
fn the_stiffness_changes_live_as_if_built_with_it() {
    // A lock built with width axes but no stiffness, shaken across its
    // width, then given 83/s mid-run without a reset: from that substep on it
    // must step exactly as a lock built at 83/s from the same state, and the
    // change itself must move nothing. Back to 0 it must step as a round
    // lock again. A lock built without width axes stays round.
    let flat_at = |stiffness: Real| {
        straight_lock(
            N,
            LEN,
            FlatLock {
                width_axis: Vec3::X,
                stiffness,
                half_width: 0.0,
                bend: 0.0,
            },
            false,
        )
    };
    let shake = |w: &mut World, f: u32| {
        let t = f as Real / 120.0;
        w.set_frame_pose(
            0,
            Pose::new(Vec3::X * (0.06 * ops::sin(12.0 * t)), Quat::IDENTITY),
        );
        w.advance(1.0 / 120.0);
    };
    let mut live = flat_at(0.0);
    for f in 1..=40 {
        shake(&mut live, f);
    }
    let before = tails(&live);
    live.set_flat_lock_stiffness(0, 83.0).unwrap();
    assert_eq!(tails(&live), before, "setting the stiffness moved the lock");
    let mut off_again = live.clone();
    off_again.set_flat_lock_stiffness(0, 0.0).unwrap();
    let mut round = flat_at(0.0);
    for f in 1..=40 {
        shake(&mut round, f);
    }
    for f in 41..=120 {
        shake(&mut live, f);
        shake(&mut off_again, f);
        shake(&mut round, f);
    }
    assert_eq!(tails(&off_again), tails(&round), "0 again must be round");
    assert!(
        max_dev(&tails(&live), &tails(&round)) > 1e-3,
        "83/s set live changed nothing"
    );
    // Built at 83/s from the start and switched live at 0 → 83 on the very
    // first substep: the same path.
    let mut built = flat_at(83.0);
    let mut switched = flat_at(0.0);
    switched.set_flat_lock_stiffness(0, 83.0).unwrap();
    for f in 1..=120 {
        shake(&mut built, f);
        shake(&mut switched, f);
        assert_eq!(tails(&switched), tails(&built), "substep {f}");
    }
    // No width axes: nothing to make flat.
    let mut plain = straight_lock(N, LEN, FlatLock::default(), false);
    let mut plain_set = plain.clone();
    plain_set.set_flat_lock_stiffness(0, 83.0).unwrap();
    for f in 1..=60 {
        shake(&mut plain, f);
        shake(&mut plain_set, f);
    }
    assert_eq!(tails(&plain_set), tails(&plain));
    assert!(live.set_flat_lock_stiffness(7, 1.0).is_err());
}

/// A soft flat lock (5/s, the rig's default) wide along X, with the bend
/// hold at `bend` per second.
fn soft(bend: Real) -> FlatLock {
    FlatLock {
        width_axis: Vec3::X,
        stiffness: 5.0,
        half_width: 0.0,
        bend,
    }
}

/// One segment as `straight_lock` makes them, with the lock `flat`.
fn segment(flat: FlatLock) -> tress_core::spring::JointDesc {
    tress_core::spring::JointDesc {
        local_rot: Quat::IDENTITY,
        offset: Vec3::new(0.0, -LEN, 0.0),
        params: tress_core::spring::JointParams {
            stiffness: 400.0,
            damping: 20.0,
            ..stiff_params()
        },
        flat,
    }
}

/// [`soft`] as a straight lock hanging from the origin along −Y.
fn held(bend: Real) -> World {
    straight_lock(N, LEN, soft(bend), false)
}

#[test]
fn the_bend_hold_straightens_bends_and_keeps_the_swing() {
    // The flat-lock rate alone (5/s) lets the lock bend across its width as
    // it is shaken; the hold takes most of those bends out while the lock
    // still swings as a whole: less than the whipping soft lock (first
    // run: 0.81 → 0.07 bend, 146 → 110 mm), far more than a lock held to
    // its rest arc at 83/s (15 mm), which is what the hold is for.
    let (bend_off, swing_off) = shake_run(&mut held(0.0), Vec3::X, Vec3::X);
    let (bend_on, swing_on) = shake_run(&mut held(tress_core::spring::FLAT_BEND), Vec3::X, Vec3::X);
    let (bend_stiff, swing_stiff) = shake_run(&mut lock(true), Vec3::X, Vec3::X);
    println!(
        "bend across the width / tip swing: no hold {bend_off:.4} / {:.1} mm, hold {bend_on:.4} / {:.1} mm, 83/s {bend_stiff:.4} / {:.1} mm",
        swing_off * 1e3,
        swing_on * 1e3,
        swing_stiff * 1e3
    );
    assert!(
        bend_off > 0.05,
        "the shake must bend the soft lock ({bend_off})"
    );
    assert!(bend_on < 0.2 * bend_off, "{bend_on} vs {bend_off}");
    assert!(swing_on >= 0.6 * swing_off, "{swing_on} vs {swing_off}");
    assert!(swing_stiff < 0.25 * swing_on, "{swing_stiff} vs {swing_on}");
}

#[test]
fn the_bend_hold_is_bit_identical_across_frame_rates_and_live_rates() {
    let first = sampled_run(30, &mut held(300.0));
    for fps in [60u32, 120, 240] {
        assert_eq!(sampled_run(fps, &mut held(300.0)), first, "{fps} fps");
    }
    assert_ne!(
        sampled_run(30, &mut held(0.0)),
        first,
        "the hold changed nothing"
    );
    // The hold rides on the flat lock: off with it, back with it, as if
    // built so, without a reset.
    let mut live = held(300.0);
    live.set_flat_lock_stiffness(0, 0.0).unwrap();
    live.set_flat_lock_stiffness(0, 5.0).unwrap();
    assert_eq!(sampled_run(30, &mut live), first, "set live");
}

#[test]
fn a_chain_in_a_band_is_left_to_the_band() {
    // Two flat locks side by side, linked into a band: the band holds their
    // cloth, so the bend hold must not act on either (bit for bit the same
    // as with no hold); unlinked, it acts.
    let pair = |bend: Real, linked: bool| {
        let mut w = held(bend);
        let joints: Vec<_> = (0..N).map(|_| segment(soft(bend))).collect();
        let desc = tress_core::spring::ChainDesc {
            root_offset: Vec3::new(0.03, 0.0, 0.0),
            ..w.chain_desc(0).unwrap()
        };
        w.add_chain(desc, &joints).unwrap();
        if linked {
            w.add_band_link(tress_core::spring::BandLink::new(0, 1, 0.1))
                .unwrap();
        }
        let mut out = Vec::new();
        for f in 1..=120 {
            let t = f as Real / 120.0;
            w.set_frame_pose(
                0,
                Pose::new(Vec3::X * (0.06 * ops::sin(12.0 * t)), Quat::IDENTITY),
            );
            w.advance(1.0 / 120.0);
            let both = [outputs(&w, 0), outputs(&w, 1)];
            out.extend(
                both.iter()
                    .flatten()
                    .map(|o| o.tail.to_array().map(Real::to_bits)),
            );
        }
        out
    };
    assert_eq!(
        pair(300.0, true),
        pair(0.0, true),
        "the hold acted in a band"
    );
    assert_ne!(pair(300.0, false), pair(0.0, false), "the hold never acted");
}

#[test]
fn a_flat_segment_below_a_round_one_starts_afresh() {
    // The hold pulls a segment to its parent's lean along the parent's
    // width: a round parent has none, so the flat segment under it is held
    // no more than a chain's first (bit for bit as with no hold), and not
    // pulled back to the rest arc.
    let two = |first_flat: bool, bend: Real| {
        let first = if first_flat {
            soft(bend)
        } else {
            FlatLock::default()
        };
        let joints = [segment(first), segment(soft(bend))];
        let mut w = World::default();
        let head = w.add_frame(Pose::IDENTITY).unwrap();
        w.add_chain(
            tress_core::spring::ChainDesc {
                frame: head,
                ..tress_core::spring::ChainDesc::default()
            },
            &joints,
        )
        .unwrap();
        sampled_run(30, &mut w)
    };
    assert_eq!(
        two(false, 300.0),
        two(false, 0.0),
        "held below a round bone"
    );
    assert_ne!(
        two(true, 300.0),
        two(true, 0.0),
        "two flat segments: no hold"
    );
}
