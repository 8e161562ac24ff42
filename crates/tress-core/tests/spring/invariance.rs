//! Acceptance 4: states at the same simulated times are bit-identical for
//! frames at 30, 60, 120 and 240 fps.

use crate::common::*;
use alloc::vec::Vec;
use tress_core::collide::Collider;
use tress_core::math::{Quat, Real, Vec3, ops};
use tress_core::spring::{ContactMode, JointParams, Mode, Pose};

/// Bits of every joint's position and velocity.
fn bits(w: &World) -> Vec<u32> {
    let mut out = Vec::new();
    for j in 0..w.chain_len(0) {
        let (x, v) = w.joint_state(0, j).unwrap();
        out.extend(
            x.to_array()
                .iter()
                .chain(v.to_array().iter())
                .map(|f| f.to_bits()),
        );
    }
    out
}

fn setup(mode: Mode) -> World {
    let mut w = world_with(mode, ContactMode::Segment, 6, 0.05, stiff_params());
    w.set_chain_params(
        0,
        JointParams {
            stiffness: 300.0,
            damping: 10.0,
            ..stiff_params()
        },
    )
    .unwrap();
    let arm = w.add_frame(Pose::IDENTITY).unwrap();
    w.add_collider(
        arm,
        Collider::capsule(Vec3::new(0.0, 0.0, -0.1), Vec3::new(0.0, 0.0, 0.1), 0.03),
    )
    .unwrap();
    w
}

/// Head and arm motion as functions of the substep index (`i / 120` s).
fn pose_at(frame: usize, i: u64) -> Pose {
    let t = i as Real / 120.0;
    if frame == 0 {
        Pose::new(
            Vec3::new(0.05 * ops::sin(3.0 * t), 0.0, 0.0),
            yaw(60.0 * ops::sin(core::f32::consts::PI * t)),
        )
    } else {
        // An arm sweeping through the hair.
        Pose::new(
            Vec3::new(0.3 * ops::sin(2.0 * t), -0.15, -0.12),
            Quat::from_rotation_y(t),
        )
    }
}

#[test]
fn sampled_motion_is_bit_identical_across_frame_rates() {
    for mode in [Mode::Improved, Mode::Earlier, Mode::VrmCompatible] {
        let mut runs = Vec::new();
        for fps in [30u32, 60, 120, 240] {
            let mut w = setup(mode);
            let mut samples = Vec::new();
            for f in 1..=(3 * fps) {
                w.advance_sampled(1.0 / fps as Real, pose_at);
                if f % (fps / 30) == 0 {
                    samples.push(bits(&w));
                }
            }
            runs.push(samples);
        }
        for r in &runs[1..] {
            assert_eq!(r, &runs[0], "{mode:?}: states differ between frame rates");
        }
        println!("invariance {mode:?}: 90 samples bit-identical at 30/60/120/240 fps");
    }
}

#[test]
fn interpolated_frames_are_bit_identical_across_frame_rates() {
    // Frame poses that agree at every substep time (here: still poses and a
    // runtime gravity change) give identical states whatever the frame rate.
    let mut runs = Vec::new();
    for fps in [30u32, 60, 120, 240] {
        let mut w = setup(Mode::Improved);
        w.set_frame_pose(0, Pose::new(Vec3::ZERO, yaw(30.0)));
        w.set_chain_params(
            0,
            JointParams {
                gravity: Vec3::new(4.0, -9.81, 2.0),
                ..stiff_params()
            },
        )
        .unwrap();
        let mut samples = Vec::new();
        for f in 1..=(2 * fps) {
            w.advance(1.0 / fps as Real);
            if f % (fps / 30) == 0 {
                samples.push(bits(&w));
            }
        }
        runs.push(samples);
    }
    for r in &runs[1..] {
        assert_eq!(r, &runs[0]);
    }
}

#[test]
fn long_frames_run_bounded_substeps() {
    let mut w = setup(Mode::Improved);
    assert_eq!(w.advance(1.0), w.config().max_substeps);
    assert_eq!(w.advance(f32::NAN), 0);
    assert_eq!(w.advance(-1.0), 0);
    // 1/240 s frames alternate between 0 and 1 substeps.
    let n: u32 = (0..8).map(|_| w.advance(1.0 / 240.0)).sum();
    assert_eq!(n, 4);
}
