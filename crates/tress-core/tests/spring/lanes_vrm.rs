//! The VRM-compatible lane kernel (up to four, or eight, VRM-compatible
//! chains stepped together in vector lanes, `StepConfig::lanes`) against
//! the scalar kernel `step_vrm`: the same states bit for bit at both widths
//! and on every build of the eight-lane kernel this CPU runs, for random
//! chains (length quirk, virtual tails, a center frame, wind, a chain with
//! an angle limit left to the scalar kernel), colliders of every kind and
//! motions, hostile values included.

use alloc::vec::Vec;
use proptest::prelude::*;
use tress_core::collide::Collider;
use tress_core::math::{Quat, Real, Vec3};
use tress_core::spring::{ChainDesc, JointDesc, JointLimit, Mode, Pose, Wind};

use super::lane_check::{World, matches_scalar, sane_collider, use_lanes};
use super::props::{collider, joint, quat, seeded_runner, vec3, wild};

/// One chain: joints, length quirk, virtual tail, center frame, collider
/// mask, frame, a cone limit on every joint.
type ChainCase = (Vec<JointDesc>, bool, bool, bool, u64, usize, bool);

#[derive(Debug, Clone)]
struct Case {
    chains: Vec<ChainCase>,
    colliders: Vec<(usize, Collider)>,
    frames: Vec<(Real, Vec3, Quat)>,
    wind: Real,
}

/// VRMC-like joints (stiffness, drag, gravity power as authored files
/// have them), so that contact and the length quirk matter.
fn sane_joint() -> impl Strategy<Value = JointDesc> {
    (
        -1.0f32..1.0,
        -1.0f32..1.0,
        0.02f32..0.12,
        0.0f32..4.0,
        0.0f32..1.0,
        0.0f32..2.0,
        0.0f32..0.03,
    )
        .prop_map(|(a, b, l, k, drag, g, r)| {
            let mut d = JointDesc {
                offset: Vec3::new(a * 0.3, -1.0, b * 0.3).normalize() * l,
                local_rot: Quat::from_rotation_x(a * 0.3),
                ..JointDesc::default()
            };
            d.params.stiffness = k;
            d.params.drag = drag;
            d.params.gravity = Vec3::new(0.0, -g, 0.0);
            d.params.hit_radius = r;
            d
        })
}

fn case() -> impl Strategy<Value = Case> {
    let chain = (
        prop::collection::vec(prop_oneof![6 => sane_joint(), 1 => joint()], 1..7),
        any::<bool>(),
        any::<bool>(),
        prop_oneof![3 => Just(false), 1 => Just(true)],
        prop_oneof![4 => Just(u64::MAX), 1 => any::<u64>()],
        prop_oneof![5 => Just(0usize), 1 => Just(1usize)],
        prop_oneof![8 => Just(false), 1 => Just(true)],
    );
    (
        // Up to 14 chains, so that groups of five to eight (the eight-lane
        // kernel) are common.
        prop::collection::vec(chain, 2..15),
        prop::collection::vec(
            prop_oneof![6 => sane_collider(), 1 => (0usize..2, collider())],
            0..7,
        ),
        prop::collection::vec(
            (
                prop_oneof![6 => 0.0f32..0.05, 1 => Just(1.0f32), 1 => wild()],
                prop_oneof![4 => (-0.3f32..0.3).prop_map(|x| Vec3::new(x, 0.0, 0.0)), 1 => vec3()],
                prop_oneof![
                    4 => (-1.5f32..1.5).prop_map(Quat::from_rotation_y),
                    1 => quat()
                ],
            ),
            1..60,
        ),
        prop_oneof![3 => Just(0.0f32), 1 => 0.0f32..20.0],
    )
        .prop_map(|(chains, colliders, frames, wind)| Case {
            chains,
            colliders,
            frames,
            wind,
        })
}

/// `lanes`: 0 for the scalar kernel, else the lane width.
fn build(c: &Case, lanes: usize) -> World {
    let mut w = World::default();
    use_lanes(&mut w, lanes);
    w.add_frame(Pose::IDENTITY).unwrap();
    w.add_frame(Pose::IDENTITY).unwrap();
    for (f, col) in &c.colliders {
        w.add_collider(*f, *col).unwrap();
    }
    for (joints, quirk, virtual_tail, centered, mask, frame, limited) in &c.chains {
        let desc = ChainDesc {
            frame: *frame,
            root_offset: Vec3::new(0.0, 0.05, -0.09),
            mode: Mode::VrmCompatible,
            collider_mask: *mask,
            center: centered.then_some(1),
            vrm_length_quirk: *quirk,
            virtual_tail: *virtual_tail,
            ..ChainDesc::default()
        };
        let ch = w.add_chain(desc, joints).unwrap();
        if *limited {
            w.set_chain_limit(ch, Some(JointLimit::cone(0.5))).unwrap();
        }
    }
    if c.wind > 0.0 {
        w.set_wind(Wind {
            strength: c.wind,
            ..Wind::default()
        });
    }
    w
}

fn run(c: &Case) -> Result<(), TestCaseError> {
    matches_scalar(&c.frames, |lanes| build(c, lanes))
}

#[test]
fn vrm_lanes_match_the_scalar_kernel_bit_for_bit() {
    seeded_runner(12).run(&case(), |c| run(&c)).unwrap();
}
