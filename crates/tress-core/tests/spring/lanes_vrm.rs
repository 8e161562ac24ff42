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

use super::lane_check::{World, first_output_difference, matches_scalar, sane_collider, use_lanes};
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

/// What the lane kernel leaves for `outputs` on a frame's last substep is
/// dropped by every call that moves chains between frames: after each
/// such call the laned worlds' bone outputs are still the scalar world's.
#[test]
fn vrm_lane_outputs_follow_every_change_between_frames() {
    let joints: Vec<JointDesc> = (0..4)
        .map(|i| {
            let mut d = JointDesc {
                offset: Vec3::new(0.01 * i as Real, -0.05, 0.01),
                ..JointDesc::default()
            };
            d.params.stiffness = 1.0;
            d.params.drag = 0.4;
            d.params.gravity = Vec3::new(0.0, -1.0, 0.0);
            d.params.hit_radius = 0.01;
            d
        })
        .collect();
    let c = Case {
        chains: (0..6)
            .map(|k| {
                (
                    joints.clone(),
                    k % 2 == 0,
                    k % 3 == 0,
                    false,
                    u64::MAX,
                    0,
                    false,
                )
            })
            .collect(),
        colliders: alloc::vec![(0, Collider::sphere(Vec3::new(0.0, -0.1, 0.05), 0.04))],
        frames: Vec::new(),
        wind: 0.0,
    };
    let bent = [Quat::from_rotation_z(0.4); 4];
    type Change<'a> = (&'a str, &'a dyn Fn(&mut World));
    let changes: [Change; 10] = [
        ("nothing", &|_| {}),
        ("a frame without substeps", &|w| {
            w.advance(0.001);
        }),
        ("reset_chain", &|w| w.reset_chain(1)),
        ("reset", &|w| w.reset()),
        ("set_authored", &|w| w.set_authored(2, Some(&bent)).unwrap()),
        ("set_authored back", &|w| w.set_authored(2, None).unwrap()),
        ("resume after a move", &|w| {
            w.set_frame_pose(0, Pose::new(Vec3::X, Quat::from_rotation_y(2.0)));
            w.resume();
        }),
        ("hold after a move", &|w| {
            w.set_frame_pose(0, Pose::new(Vec3::Y, Quat::from_rotation_x(0.7)));
            w.hold();
        }),
        ("set_scale", &|w| w.set_scale(1.3)),
        ("set_anchor", &|w| w.set_anchor(Some(1)).unwrap()),
    ];
    let mut worlds = [build(&c, 0), build(&c, 4), build(&c, 8)];
    for (k, (name, change)) in changes.into_iter().enumerate() {
        for w in &mut worlds {
            for f in 5 * k..5 * k + 5 {
                let t = f as Real / 60.0;
                let q = Quat::from_rotation_y(1.2 * tress_core::math::ops::sin(3.0 * t));
                w.set_frame_pose(0, Pose::new(Vec3::new(0.1 * t, 0.0, 0.0), q));
                w.advance(1.0 / 60.0);
                let mut out = [tress_core::spring::JointOutput::default(); 4];
                // Read, so that the next frame's last substep fills the cache.
                w.outputs(0, &mut out);
            }
            change(w);
        }
        let [scalar, laned @ ..] = &worlds;
        for w in laned {
            let s = super::lane_check::first_difference(w, scalar);
            assert!(s.is_none(), "after {name}, state: {s:?}");
            let d = first_output_difference(w, scalar);
            assert!(d.is_none(), "after {name}: {d:?}");
        }
    }
}
