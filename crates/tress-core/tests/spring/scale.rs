//! Scale, teleport, authored motion and runtime parameter changes.

use crate::common::*;
use alloc::vec::Vec;
use tress_core::collide::Collider;
use tress_core::math::{Quat, Real, Vec3, ops};
use tress_core::spring::{ContactMode, JointParams, Mode, Pose};

fn head(t: Real, s: Real) -> Pose {
    Pose::new(
        Vec3::new(0.1 * ops::sin(2.0 * t), 0.0, 0.0) * s,
        yaw(50.0 * ops::sin(3.0 * t)),
    )
}

#[test]
fn avatar_scaled_by_ten_behaves_scaled_by_ten() {
    for mode in [Mode::Improved, Mode::Earlier, Mode::VrmCompatible] {
        let mut worlds = [1.0, 10.0].map(|s| {
            let mut w = world_with(mode, ContactMode::Segment, 6, 0.05, stiff_params());
            w.set_chain_params(
                0,
                JointParams {
                    stiffness: 400.0,
                    damping: 20.0,
                    ..stiff_params()
                },
            )
            .unwrap();
            w.add_collider(0, Collider::sphere(Vec3::new(0.0, -0.05, -0.15), 0.06))
                .unwrap();
            w.set_scale(s);
            w.reset();
            w
        });
        let mut worst: Real = 0.0;
        for f in 1..=240 {
            let t = f as Real / 60.0;
            for (w, s) in worlds.iter_mut().zip([1.0, 10.0]) {
                w.set_frame_pose(0, head(t, s));
                w.advance(1.0 / 60.0);
            }
            let (a, b) = (tails(&worlds[0]), tails(&worlds[1]));
            for (p, q) in a.iter().zip(&b) {
                worst = worst.max((*p * 10.0 - *q).length() / 10.0);
            }
        }
        println!("scale {mode:?}: largest |10·x₁ − x₁₀|/10 = {worst:e} m");
        assert!(worst < 1e-4, "{mode:?}: scaled avatar differs by {worst} m");
    }
}

#[test]
fn teleport_carries_hair_rigidly() {
    let mut w = world_with(Mode::Improved, ContactMode::Tail, 6, 0.05, stiff_params());
    for f in 1..=30 {
        w.set_frame_pose(0, head(f as Real / 60.0, 1.0));
        w.advance(1.0 / 60.0);
    }
    let before = head(0.5, 1.0);
    let local: Vec<Vec3> = tails(&w)
        .iter()
        .map(|p| before.inverse_transform_point(*p))
        .collect();
    let after = Pose::new(
        before.pos + Vec3::new(50.0, 2.0, -30.0),
        before.rot * Quat::from_rotation_y(2.0),
    );
    w.set_frame_pose(0, after);
    w.advance(1.0 / 60.0);
    let moved: Vec<Vec3> = tails(&w)
        .iter()
        .map(|p| after.inverse_transform_point(*p))
        .collect();
    let dev = max_dev(&local, &moved);
    println!(
        "teleport: hair shape change over the jump frame {:.3} mm",
        dev * 1e3
    );
    // The hair keeps its shape up to one frame of ordinary motion.
    assert!(dev < 0.02, "teleport disturbed the hair by {dev} m");
    for j in 0..w.chain_len(0) {
        assert!(
            w.joint_state(0, j).unwrap().1.length() < 5.0,
            "velocity exploded"
        );
    }
}

#[test]
fn authored_chain_follows_animation_and_picks_up_smoothly() {
    let mut w = world_with(Mode::Improved, ContactMode::Tail, 4, 0.05, stiff_params());
    let n = w.chain_len(0);
    let mut prev = tails(&w);
    let mut worst_jump: Real = 0.0;
    for f in 1..=240 {
        let t = f as Real / 60.0;
        // Animated: the first joint swings 40° forward and back for 2 s.
        if t <= 2.0 {
            let mut rots = alloc::vec![Quat::from_rotation_x(-10.0_f32.to_radians()); n];
            rots[0] = Quat::from_rotation_x(
                (40.0 - 40.0 * ops::sin(core::f32::consts::PI * t)).to_radians(),
            );
            w.set_authored(0, Some(&rots)).unwrap();
        } else {
            w.set_authored(0, None).unwrap();
        }
        w.advance(1.0 / 60.0);
        let now = tails(&w);
        if t <= 2.0 {
            // Follows the animated pose exactly: the first tail lies on the animated direction.
            let out = outputs(&w, 0);
            let dir = (out[0].tail - out[0].origin).normalize();
            let expect = (Quat::from_rotation_x(
                (40.0 - 40.0 * ops::sin(core::f32::consts::PI * t)).to_radians(),
            ) * Vec3::NEG_Y)
                .normalize();
            assert!((dir - expect).length() < 1e-5);
        }
        worst_jump = worst_jump.max(max_dev(&now, &prev));
        prev = now;
    }
    println!(
        "authored: largest per-frame move across the hand-over {:.2} mm",
        worst_jump * 1e3
    );
    // The animation moves the tip about 1.3 cm/frame at most; the hand-over
    // adds no jump beyond that.
    assert!(worst_jump < 0.02, "jumped {worst_jump} m");
}

#[test]
fn parameter_changes_apply_without_reset() {
    let mut w = world_with(Mode::Improved, ContactMode::Tail, 4, 0.05, stiff_params());
    for _ in 0..480 {
        w.advance(1.0 / 60.0);
    }
    let before = tails(&w);
    w.set_chain_params(
        0,
        JointParams {
            stiffness: 10.0,
            ..stiff_params()
        },
    )
    .unwrap();
    w.advance(1.0 / 60.0);
    let after = tails(&w);
    // Continuous (no reset to the rest arc), yet the softer hair starts to sag.
    assert!(max_dev(&before, &after) < 5e-3);
    for _ in 0..60 {
        w.advance(1.0 / 60.0);
    }
    assert!(
        max_dev(&before, &tails(&w)) > 1e-2,
        "new stiffness had no effect"
    );
}
