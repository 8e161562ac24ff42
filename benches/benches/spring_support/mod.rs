//! The spring-chain bench avatar and a straightforward baseline solver.
//!
//! Shared by the criterion bench (`benches/spring.rs`) and the
//! `spring-bench` binary so both measure the same workload: 12 chains of 5
//! joints (60 joints), 10 colliders on 4 moving frames, whole-segment
//! contact on 4 chains, one 60 Hz frame (two 1/120 s substeps) at a time.

#![allow(dead_code)] // each includer uses a different subset

pub mod baseline;

use tress_core::collide::Collider;
use tress_core::math::{Quat, Real, Vec3, ops};
use tress_core::spring::{
    ChainDesc, ContactMode, FlatLock, JointDesc, JointParams, Pose, SpringWorld,
};

/// The avatar's world type: capacity for exactly this avatar, with headroom.
pub type Avatar = SpringWorld<64, 16, 16, 4>;

/// Chains, joints per chain, colliders.
pub const CHAINS: usize = 12;
pub const JOINTS_PER_CHAIN: usize = 5;
pub const JOINTS: usize = CHAINS * JOINTS_PER_CHAIN;

/// Frame indices: head, chest, left arm, right arm.
pub const HEAD: usize = 0;

/// Colliders as (frame, shape).
pub fn colliders() -> [(usize, Collider); 10] {
    [
        (0, Collider::sphere(Vec3::new(0.0, 0.0, 0.0), 0.09)),
        (0, Collider::sphere(Vec3::new(0.0, -0.08, 0.02), 0.07)),
        (
            1,
            Collider::capsule(Vec3::new(-0.1, 0.0, 0.0), Vec3::new(0.1, 0.0, 0.0), 0.1),
        ),
        (
            1,
            Collider::capsule(Vec3::new(0.0, -0.1, 0.0), Vec3::new(0.0, -0.3, 0.0), 0.12),
        ),
        (1, Collider::sphere(Vec3::new(-0.18, 0.05, 0.0), 0.06)),
        (1, Collider::sphere(Vec3::new(0.18, 0.05, 0.0), 0.06)),
        (
            2,
            Collider::capsule(Vec3::ZERO, Vec3::new(-0.25, 0.0, 0.0), 0.04),
        ),
        (
            2,
            Collider::capsule(Vec3::new(-0.25, 0.0, 0.0), Vec3::new(-0.5, 0.0, 0.0), 0.035),
        ),
        (
            3,
            Collider::capsule(Vec3::ZERO, Vec3::new(0.25, 0.0, 0.0), 0.04),
        ),
        (
            3,
            Collider::capsule(Vec3::new(0.25, 0.0, 0.0), Vec3::new(0.5, 0.0, 0.0), 0.035),
        ),
    ]
}

/// Chain `c`: root around the back and sides of the head, hanging down.
pub fn chain(c: usize) -> (ChainDesc, [JointDesc; JOINTS_PER_CHAIN]) {
    let angle = (c as Real / CHAINS as Real) * core::f32::consts::TAU;
    let root = Vec3::new(0.1 * ops::sin(angle), 0.05, 0.1 * ops::cos(angle));
    let params = JointParams {
        stiffness: 800.0,
        damping: 30.0,
        hit_radius: 0.01,
        ..JointParams::default()
    };
    // Tilted outward from the scalp, then curving back towards vertical.
    let tilt = Quat::from_rotation_y(angle) * Quat::from_rotation_x(-0.5);
    let mut joints = [JointDesc {
        local_rot: Quat::from_rotation_x(0.1),
        offset: Vec3::new(0.0, -0.05, 0.0),
        params,
        flat: FlatLock::default(),
    }; JOINTS_PER_CHAIN];
    joints[0].local_rot = tilt;
    let contact = if c.is_multiple_of(3) {
        ContactMode::Segment
    } else {
        ContactMode::Tail
    };
    (
        ChainDesc {
            frame: HEAD,
            root_offset: root,
            contact,
            ..ChainDesc::default()
        },
        joints,
    )
}

/// A new avatar at rest.
#[must_use]
pub fn avatar() -> Avatar {
    avatar_with(true)
}

/// A new avatar at rest, optionally without colliders.
#[must_use]
pub fn avatar_with(with_colliders: bool) -> Avatar {
    let mut w = Avatar::default();
    for p in poses(0) {
        w.add_frame(p).unwrap();
    }
    if with_colliders {
        for (f, c) in colliders() {
            w.add_collider(f, c).unwrap();
        }
    }
    for c in 0..CHAINS {
        let (desc, joints) = chain(c);
        w.add_chain(desc, &joints).unwrap();
    }
    w
}

/// Frame poses at 60 Hz frame `n`: head turning and nodding, arms swinging
/// through the hair.
#[must_use]
pub fn poses(n: u64) -> [Pose; 4] {
    let t = n as Real / 60.0;
    let head = Pose::new(
        Vec3::new(0.0, 1.5, 0.0),
        Quat::from_rotation_y(1.0 * ops::sin(t)) * Quat::from_rotation_x(0.3 * ops::sin(1.7 * t)),
    );
    let chest = Pose::new(
        Vec3::new(0.0, 1.3, 0.0),
        Quat::from_rotation_y(0.3 * ops::sin(t)),
    );
    let swing = 1.2 * ops::sin(2.0 * t);
    let left = Pose::new(
        Vec3::new(-0.18, 1.35, 0.0),
        Quat::from_rotation_z(swing) * Quat::from_rotation_y(0.8),
    );
    let right = Pose::new(
        Vec3::new(0.18, 1.35, 0.0),
        Quat::from_rotation_z(-swing) * Quat::from_rotation_y(-0.8),
    );
    [head, chest, left, right]
}

/// One 60 Hz frame of the avatar.
pub fn frame(w: &mut Avatar, n: u64) {
    for (i, p) in poses(n).into_iter().enumerate() {
        w.set_frame_pose(i, p);
    }
    w.advance(1.0 / 60.0);
}

/// The avatar with every chain in the VRM-compatible mode (VRMC-like
/// stiffness 1, drag 0.4, gravity power 1 down; the length quirk on), with
/// the lane kernels on or off (off: the scalar kernel).
#[must_use]
pub fn avatar_vrm(lanes: bool) -> Avatar {
    use tress_core::spring::{Mode, StepConfig};
    let mut w = avatar();
    w.set_config(StepConfig {
        lanes,
        ..w.config()
    });
    let params = JointParams {
        stiffness: 1.0,
        drag: 0.4,
        gravity: Vec3::new(0.0, -1.0, 0.0),
        hit_radius: 0.01,
        ..JointParams::default()
    };
    for c in 0..w.chain_count() {
        let desc = w.chain_desc(c).unwrap();
        w.set_chain_desc(
            c,
            ChainDesc {
                mode: Mode::VrmCompatible,
                vrm_length_quirk: true,
                ..desc
            },
        )
        .unwrap();
        w.set_chain_params(c, params).unwrap();
    }
    w.reset();
    w
}
