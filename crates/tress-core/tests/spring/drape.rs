//! Drape over contact (`ChainDesc::drape`): a lock whose rest arc runs into
//! a collider bends over it at several joints instead of kinking at one,
//! and the rule is a continuous function of the collider's push.

use crate::common::*;
use alloc::vec::Vec;
use tress_core::collide::Collider;
use tress_core::math::{Quat, Real, Vec3, ops};
use tress_core::spring::{FlatLock, JointLimit, Pose};

const N: usize = 6;
const LEN: Real = 0.04;

/// A straight lock of `N` segments hanging down from the origin, and a
/// sphere of `radius` whose centre sits `offset` to the side of the lock at
/// the height of its fourth joint: the rest line runs into it.
fn lock_by_ball(drape: bool, offset: Real, radius: Real) -> World {
    let mut w = straight_lock(N, LEN, FlatLock::default(), drape);
    let ball = w
        .add_frame(Pose::new(
            Vec3::new(offset, -3.0 * LEN, 0.0),
            Quat::IDENTITY,
        ))
        .unwrap();
    w.add_collider(ball, Collider::sphere(Vec3::ZERO, radius))
        .unwrap();
    w
}

/// Bend angles (radians) at each joint: frame axis → first segment, then
/// between consecutive segments.
fn bends(w: &World) -> Vec<Real> {
    let mut prev = Vec3::NEG_Y;
    outputs(w, 0)
        .iter()
        .map(|o| {
            let d = (o.tail - o.origin).normalize();
            let a = ops::acos_clamped(prev.dot(d));
            prev = d;
            a
        })
        .collect()
}

/// The lock settled against the ball, with the frame still.
fn settled(drape: bool) -> World {
    let mut w = lock_by_ball(drape, 0.02, 0.03);
    for _ in 0..360 {
        w.advance(1.0 / 120.0);
    }
    w
}

#[test]
fn a_contact_bend_is_spread_over_neighbouring_joints() {
    let kinked = bends(&settled(false));
    let draped = bends(&settled(true));
    let top = |b: &[Real]| b.iter().copied().fold(0.0, Real::max);
    let deg = |b: &[Real]| b.iter().map(|a| a.to_degrees()).collect::<Vec<_>>();
    println!(
        "bends (°) without drape {:.1?}, with drape {:.1?}",
        deg(&kinked),
        deg(&draped)
    );
    assert!(
        top(&kinked) > 10f32.to_radians(),
        "the ball must kink the plain lock"
    );
    assert!(
        top(&draped) < 0.7 * top(&kinked),
        "largest bend {:.1}° with drape vs {:.1}° without",
        top(&draped).to_degrees(),
        top(&kinked).to_degrees()
    );
    // Draped, the lock still clears the ball (hit radius 5 mm, 1 mm slack).
    let w = settled(true);
    let c = Vec3::new(0.02, -3.0 * LEN, 0.0);
    for o in outputs(&w, 0) {
        let ab = o.tail - o.origin;
        let s = ((c - o.origin).dot(ab) / ab.length_squared()).clamp(0.0, 1.0);
        let d = (o.origin + ab * s).distance(c);
        assert!(
            d > 0.035 - 0.001,
            "segment inside the ball by {} m",
            0.035 - d
        );
    }
}

#[test]
fn a_limited_chain_drapes_like_an_unlimited_one_while_its_limits_hold() {
    // Limits take their own step; it used to leave the drape out, so a lock
    // given a limit kinked over contact again. With a cone no bend of this
    // run reaches (80°, against bends of at most ~40°), the limited chain
    // must take the very same path as the unlimited one, bit for bit, and
    // differ from the limited chain without the drape.
    let run = |drape: bool, limit: Option<JointLimit>| {
        let mut w = lock_by_ball(drape, 0.02, 0.03);
        w.set_chain_limit(0, limit).unwrap();
        let mut path = Vec::new();
        for _ in 0..360 {
            w.advance(1.0 / 120.0);
            path.extend(tails(&w));
        }
        (path, bends(&w))
    };
    let wide = Some(JointLimit::cone(80f32.to_radians()));
    let (free, free_bends) = run(true, None);
    let (limited, _) = run(true, wide);
    let (undraped, _) = run(false, wide);
    assert!(
        free_bends.iter().all(|b| *b < 60f32.to_radians()),
        "the cone must not bind: bends {free_bends:?}"
    );
    assert_eq!(limited, free, "a limit that never binds changed the drape");
    assert!(
        max_dev(&undraped, &free) > 1e-3,
        "the run must depend on the drape"
    );
}

#[test]
fn the_drape_is_a_continuous_function_of_the_push() {
    // The lock is shaken sideways without contact, so its segments trail
    // off their rest directions; then, from that one state, the ball grows
    // in 1 µm steps through first contact and the world takes two substeps
    // (the second one also carries the push up to the parent). The state
    // must change by a bounded multiple of the step, with no jump where the
    // push turns on. (Over many substeps contact itself is not Lipschitz:
    // the same sweep over a whole run jumps by ~0.7 mm with or without the
    // drape, so only the rule's own step is tested here.)
    let shake = |w: &mut World, f: u32| {
        let t = f as Real / 120.0;
        w.set_frame_pose(
            0,
            Pose::new(
                Vec3::new(0.02 * ops::sin(8.0 * t), 0.0, 0.0),
                Quat::IDENTITY,
            ),
        );
        w.advance(1.0 / 120.0);
    };
    let mut start = lock_by_ball(true, 0.045, 0.001);
    for f in 1..=20 {
        shake(&mut start, f);
    }
    let run = |radius: Real| {
        let mut w = start.clone();
        w.set_collider(0, Collider::sphere(Vec3::ZERO, radius))
            .unwrap();
        shake(&mut w, 21);
        shake(&mut w, 22);
        tails(&w)
    };
    let free = run(0.001);
    let step = 1e-6;
    let (lo, n) = (0.025, 12_000);
    let mut prev = run(lo);
    assert!(max_dev(&prev, &free) == 0.0, "the smallest ball must miss");
    let mut touched = false;
    let mut worst: Real = 0.0;
    for i in 1..=n {
        let cur = run(lo + step * i as Real);
        touched |= max_dev(&cur, &free) > 1e-3;
        worst = worst.max(max_dev(&cur, &prev));
        prev = cur;
    }
    println!("largest change per 1 µm of radius: {:.2} µm", worst * 1e6);
    assert!(touched, "the ball never pushed the lock by 1 mm");
    // Contact alone (drape off) moves the tips by 24 µm per µm here, with
    // the drape 24 µm; switching the drape on at the first touch instead of
    // fading it in gives 260 µm.
    assert!(
        worst < 50.0 * step,
        "a 1 µm change moved the tips by {worst} m"
    );
}
