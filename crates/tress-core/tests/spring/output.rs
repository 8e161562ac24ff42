//! Output: the bone rotation points the bone at its simulated end with no
//! twist about the bone, and local rotations compose back to world ones.

use crate::common::*;
use tress_core::math::{Quat, Real, Vec3, ops};
use tress_core::spring::{ContactMode, Mode, Pose};

#[test]
fn rotations_aim_bones_without_twist() {
    for mode in [Mode::Improved, Mode::Earlier, Mode::VrmCompatible] {
        let mut w = world_with(mode, ContactMode::Tail, 5, 0.05, stiff_params());
        // Stop mid-swing at 50 fps so the state is off the frame time too.
        for f in 1..=37 {
            let t = f as Real / 50.0;
            w.set_frame_pose(0, Pose::new(Vec3::ZERO, yaw(80.0 * ops::sin(4.0 * t))));
            w.advance(1.0 / 50.0);
        }
        let head = Pose::new(Vec3::ZERO, yaw(80.0 * ops::sin(4.0 * 37.0 / 50.0)));
        let out = outputs(&w, 0);
        let mut rest = Quat::IDENTITY;
        let mut parent = head.rot;
        for (i, o) in out.iter().enumerate() {
            let axis = Vec3::new(0.0, -0.05, 0.0);
            // Aims: the rotated rest offset is the simulated segment.
            let aimed = o.world_rot * axis;
            assert!(
                (o.origin + aimed - o.tail).length() < 1e-5,
                "{mode:?} joint {i}"
            );
            // Local rotations compose to world rotations.
            assert!((parent * o.local_rot).dot(o.world_rot).abs() > 1.0 - 1e-5);
            parent = o.world_rot;
            // Improved: the swing from the head-carried rest rotation has no
            // twist, i.e. its axis is perpendicular to the rest direction.
            rest *= arc_local_rot(i);
            if mode == Mode::Improved {
                let rest_world = head.rot * rest;
                let swing = o.world_rot * rest_world.inverse();
                let (swing_axis, angle) = swing.to_axis_angle();
                let rest_dir = (rest_world * axis).normalize();
                assert!(
                    angle < 1e-4 || swing_axis.dot(rest_dir).abs() < 1e-3,
                    "twist at joint {i}"
                );
            }
        }
        // Roots sit on the current head pose even between substeps.
        assert!(
            (out[0].origin - head.transform_point(Vec3::new(0.0, 0.05, -0.09))).length() < 1e-6
        );
    }
}

fn arc_local_rot(i: usize) -> Quat {
    arc(i + 1, 0.05, stiff_params())[i].local_rot
}
