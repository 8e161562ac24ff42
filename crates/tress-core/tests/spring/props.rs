//! Acceptance 6: random chains, parameters, colliders and motions, including
//! NaN and infinite inputs, zero-length bones and 1-second frames, always
//! give finite output within reach of the root.

use alloc::vec::Vec;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use tress_core::collide::{Collider, ShapeKind};
use tress_core::math::{Quat, Real, Vec3};
use tress_core::spring::{
    ChainDesc, ContactMode, FlatLock, JointDesc, JointOutput, JointParams, Mode, Pose, SpringWorld,
};

/// Floats that are usually sane and sometimes hostile.
pub(crate) fn wild() -> impl Strategy<Value = Real> {
    prop_oneof![
        8 => -2.0f32..2.0,
        1 => Just(Real::NAN),
        1 => Just(Real::INFINITY),
        1 => Just(Real::NEG_INFINITY),
        1 => Just(0.0f32),
        1 => -1e6f32..1e6,
    ]
}

pub(crate) fn vec3() -> impl Strategy<Value = Vec3> {
    (wild(), wild(), wild()).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

pub(crate) fn quat() -> impl Strategy<Value = Quat> {
    (wild(), wild(), wild(), wild()).prop_map(|(x, y, z, w)| Quat::from_xyzw(x, y, z, w))
}

pub(crate) fn params() -> impl Strategy<Value = JointParams> {
    (wild(), wild(), wild(), vec3(), wild()).prop_map(|(k, c, d, g, r)| JointParams {
        stiffness: k * 5000.0,
        damping: c * 10.0,
        drag: d,
        gravity: g * 10.0,
        hit_radius: r * 0.1,
    })
}

pub(crate) fn joint() -> impl Strategy<Value = JointDesc> {
    (
        quat(),
        prop_oneof![3 => vec3(), 1 => Just(Vec3::ZERO)],
        params(),
    )
        .prop_map(|(local_rot, offset, params)| JointDesc {
            local_rot,
            offset: offset * 0.1,
            params,
            flat: FlatLock::default(),
        })
}

pub(crate) fn collider() -> impl Strategy<Value = Collider> {
    (0usize..5, vec3(), vec3(), vec3(), wild()).prop_map(|(k, a, b, n, r)| Collider {
        kind: [
            ShapeKind::Sphere,
            ShapeKind::Capsule,
            ShapeKind::Plane,
            ShapeKind::InsideSphere,
            ShapeKind::InsideCapsule,
        ][k],
        offset: a * 0.2,
        tail: b * 0.2,
        normal: n,
        radius: r * 0.1,
    })
}

#[derive(Debug, Clone)]
struct Case {
    mode: usize,
    segment: bool,
    joints: Vec<JointDesc>,
    colliders: Vec<Collider>,
    frames: Vec<(Real, Vec3, Quat)>,
    scale: Real,
}

fn case() -> impl Strategy<Value = Case> {
    (
        0usize..3,
        any::<bool>(),
        prop::collection::vec(joint(), 1..8),
        prop::collection::vec(collider(), 0..4),
        prop::collection::vec(
            (
                prop_oneof![4 => 0.0f32..0.05, 1 => Just(1.0f32), 1 => wild()],
                vec3(),
                quat(),
            ),
            1..40,
        ),
        prop_oneof![3 => Just(1.0f32), 1 => wild()],
    )
        .prop_map(|(mode, segment, joints, colliders, frames, scale)| Case {
            mode,
            segment,
            joints,
            colliders,
            frames,
            scale,
        })
}

fn run(c: &Case) -> Result<(), TestCaseError> {
    let mut w: SpringWorld<16, 2, 8, 2> = SpringWorld::default();
    w.add_frame(Pose::IDENTITY).unwrap();
    w.add_frame(Pose::IDENTITY).unwrap();
    for col in &c.colliders {
        w.add_collider(1, *col).unwrap();
    }
    let mode = [Mode::Improved, Mode::Earlier, Mode::VrmCompatible][c.mode];
    let contact = if c.segment {
        ContactMode::Segment
    } else {
        ContactMode::Tail
    };
    let desc = ChainDesc {
        mode,
        contact,
        vrm_length_quirk: c.mode == 2 && c.segment,
        ..ChainDesc::default()
    };
    w.add_chain(desc, &c.joints).unwrap();
    w.set_scale(c.scale);
    let reach: Real = c
        .joints
        .iter()
        .map(|j| {
            if j.offset.is_finite() {
                j.offset.length()
            } else {
                0.0
            }
        })
        .sum::<Real>()
        * w.scale();
    let mut out = [JointOutput::default(); 16];
    // Float rounding scales with the largest coordinate seen so far.
    let mut far: Real = 0.0;
    for (k, (dt, p, q)) in c.frames.iter().enumerate() {
        if p.is_finite() {
            far = far.max(p.abs().max_element());
        }
        w.set_frame_pose(0, Pose::new(*p, *q));
        w.set_frame_pose(1, Pose::new(*p * 0.5, q.conjugate()));
        // Every fourth frame held (a paused owner) instead of stepped.
        if k % 4 == 3 {
            w.hold();
        } else {
            w.advance(*dt);
        }
        let n = w.outputs(0, &mut out);
        prop_assert_eq!(n, c.joints.len());
        let root = out[0].origin;
        prop_assert!(root.is_finite());
        for o in &out[..n] {
            prop_assert!(
                o.tail.is_finite() && o.world_rot.is_finite() && o.local_rot.is_finite(),
                "{o:?}"
            );
            // Within the chain's reach of the root (plus rounding).
            prop_assert!(
                (o.tail - root).length() <= reach * 1.0001 + 1e-4 + far * 1e-6,
                "{o:?} reach {reach}"
            );
        }
        for j in 0..n {
            prop_assert!(w.joint_state(0, j).unwrap().1.is_finite());
        }
    }
    Ok(())
}

/// A runner of 256 cases from a fixed seed: the same cases every run, no
/// failure files.
pub(crate) fn seeded_runner(seed: u8) -> TestRunner {
    let config = Config {
        cases: 256,
        failure_persistence: None,
        ..Config::default()
    };
    TestRunner::new_with_rng(
        config,
        TestRng::from_seed(RngAlgorithm::ChaCha, &[seed; 32]),
    )
}

#[test]
fn random_inputs_give_finite_bounded_output() {
    seeded_runner(7).run(&case(), |c| run(&c)).unwrap();
}
