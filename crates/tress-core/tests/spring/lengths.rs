//! Acceptance 1: roots stay fixed and bone lengths hold to 1e-5 relative in
//! every mode, through head motion, contact and a teleport.

use crate::common::*;
use tress_core::collide::Collider;
use tress_core::math::{Quat, Vec3, ops};
use tress_core::spring::{ChainDesc, ContactMode, JointParams, Mode, Pose};

#[test]
fn roots_fixed_and_lengths_kept_in_every_mode() {
    let modes = [
        (Mode::Improved, ContactMode::Tail, false),
        (Mode::Improved, ContactMode::Segment, false),
        (Mode::Earlier, ContactMode::Segment, false),
        (Mode::VrmCompatible, ContactMode::Tail, false),
        (Mode::VrmCompatible, ContactMode::Tail, true),
    ];
    for (mode, contact, quirk) in modes {
        let params = JointParams {
            stiffness: 200.0,
            damping: 15.0,
            drag: 0.3,
            ..JointParams::default()
        };
        let mut w = world_with(mode, contact, 6, 0.05, params);
        let mut d = w.chain_desc(0).unwrap();
        d.vrm_length_quirk = quirk;
        w.set_chain_desc(0, d).unwrap();
        w.add_collider(0, Collider::sphere(Vec3::new(0.0, 0.0, 0.0), 0.1))
            .unwrap();
        w.add_collider(
            0,
            Collider::capsule(
                Vec3::new(-0.2, -0.15, -0.1),
                Vec3::new(0.2, -0.15, -0.1),
                0.04,
            ),
        )
        .unwrap();
        let mut worst: f32 = 0.0;
        for f in 0..600 {
            let t = f as f32 / 60.0;
            // Turn, nod and translate; a 5 m teleport at 5 s.
            let jump = if t > 5.0 { 5.0 } else { 0.0 };
            let head = Pose::new(
                Vec3::new(0.3 * ops::sin(t * 2.0) + jump, 0.1 * ops::sin(t * 5.0), 0.0),
                yaw(70.0 * ops::sin(t * 3.0)) * Quat::from_rotation_x(0.4 * ops::sin(t * 4.0)),
            );
            w.set_frame_pose(0, head);
            w.advance(1.0 / 60.0);
            let out = outputs(&w, 0);
            let root = head.transform_point(Vec3::new(0.0, 0.05, -0.09));
            assert!(
                (out[0].origin - root).length() < 1e-6,
                "{mode:?}: root moved"
            );
            for o in &out {
                let rel = ((o.tail - o.origin).length() - 0.05).abs() / 0.05;
                worst = worst.max(rel);
            }
        }
        println!(
            "lengths {mode:?} {contact:?} quirk={quirk}: worst relative length error {worst:e}"
        );
        assert!(worst < 1e-5, "{mode:?}: relative length error {worst}");
    }
    let _ = ChainDesc::default();
}
