//! The lane kernel (up to four, or eight, Improved or Earlier chains stepped
//! together in vector lanes, `StepConfig::lanes`) against the scalar kernel: the same
//! states bit for bit at both widths and on every build of the eight-lane
//! kernel this CPU runs, for random chains, colliders and motions, hostile
//! values included.

use alloc::vec::Vec;
use proptest::prelude::*;
use tress_core::collide::Collider;
use tress_core::math::{Quat, Real, Vec3, ops};
use tress_core::spring::{ChainDesc, ContactMode, JointDesc, Mode, Pose, SpringWorld};

use super::lane_check::{World, first_difference, matches_scalar, sane_collider, use_lanes};
use super::props::{collider, joint, quat, seeded_runner, vec3, wild};

#[derive(Debug, Clone)]
struct Case {
    /// Per chain: its joints, whole-segment contact, collider mask, frame,
    /// Earlier mode (else Improved).
    chains: Vec<(Vec<JointDesc>, bool, u64, usize, bool)>,
    colliders: Vec<(usize, Collider)>,
    frames: Vec<(Real, Vec3, Quat)>,
}

/// Mostly sane chains (so that contact happens) with hostile values mixed in.
fn sane_joint() -> impl Strategy<Value = JointDesc> {
    (
        -1.0f32..1.0,
        -1.0f32..1.0,
        0.02f32..0.12,
        50.0f32..900.0,
        5.0f32..60.0,
        0.0f32..0.03,
    )
        .prop_map(|(a, b, l, k, c, r)| {
            let mut d = JointDesc {
                offset: Vec3::new(a * 0.3, -1.0, b * 0.3).normalize() * l,
                ..JointDesc::default()
            };
            d.params.stiffness = k;
            d.params.damping = c;
            d.params.hit_radius = r;
            d
        })
}

fn case() -> impl Strategy<Value = Case> {
    let chain = (
        prop::collection::vec(prop_oneof![6 => sane_joint(), 1 => joint()], 1..7),
        any::<bool>(),
        prop_oneof![4 => Just(u64::MAX), 1 => any::<u64>()],
        prop_oneof![5 => Just(0usize), 1 => Just(1usize)],
        prop_oneof![3 => Just(false), 1 => Just(true)],
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
    )
        .prop_map(|(chains, colliders, frames)| Case {
            chains,
            colliders,
            frames,
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
    for (joints, segment, mask, frame, earlier) in &c.chains {
        let desc = ChainDesc {
            frame: *frame,
            root_offset: Vec3::new(0.0, 0.05, -0.09),
            mode: if *earlier {
                Mode::Earlier
            } else {
                Mode::Improved
            },
            contact: if *segment {
                ContactMode::Segment
            } else {
                ContactMode::Tail
            },
            collider_mask: *mask,
            ..ChainDesc::default()
        };
        w.add_chain(desc, joints).unwrap();
    }
    w
}

fn run(c: &Case) -> Result<(), TestCaseError> {
    matches_scalar(&c.frames, |lanes| build(c, lanes))
}

#[test]
fn lanes_match_the_scalar_kernel_bit_for_bit() {
    seeded_runner(11).run(&case(), |c| run(&c)).unwrap();
}

/// Colliders past the sixteen the broad phase tests as vectors are visited
/// in collider order too: a world of 24 overlapping spheres around the
/// chains, stepped by the lane and the scalar kernels, gives the same bits.
#[test]
fn colliders_past_the_vector_broad_phase_keep_their_order() {
    type Wide = SpringWorld<64, 12, 32, 1>;
    let build = |lanes: usize| {
        let mut w = Wide::default();
        use_lanes(&mut w, lanes);
        w.add_frame(Pose::IDENTITY).unwrap();
        for i in 0..24 {
            let a = i as Real * 0.7;
            let at = Vec3::new(
                0.06 * ops::cos(a),
                -0.08 - 0.01 * (i % 5) as Real,
                0.06 * ops::sin(a),
            );
            w.add_collider(0, Collider::sphere(at, 0.03 + 0.002 * (i % 3) as Real))
                .unwrap();
        }
        // Twelve chains: two groups of six, so the eight-lane kernel runs.
        for c in 0..12 {
            let a = c as Real * 0.52;
            let desc = ChainDesc {
                root_offset: Vec3::new(0.03 * ops::cos(a), 0.0, 0.03 * ops::sin(a)),
                contact: if c % 2 == 0 {
                    ContactMode::Segment
                } else {
                    ContactMode::Tail
                },
                ..ChainDesc::default()
            };
            let joints: Vec<JointDesc> = (0..5)
                .map(|_| JointDesc {
                    offset: Vec3::new(0.0, -0.04, 0.0),
                    ..JointDesc::default()
                })
                .collect();
            w.add_chain(desc, &joints).unwrap();
        }
        w
    };
    let mut worlds = [build(0), build(4), build(8)];
    for f in 0..120 {
        let q = Quat::from_rotation_y(ops::sin(f as Real * 0.1));
        for w in &mut worlds {
            w.set_frame_pose(0, Pose::new(Vec3::ZERO, q));
            w.advance(1.0 / 60.0);
        }
        let [scalar, laned @ ..] = &worlds;
        for (w, width) in laned.iter().zip([4, 8]) {
            let d = first_difference(w, scalar);
            assert!(
                d.is_none(),
                "{width} lanes vs scalar, frame {f} (chain, joint, x v, x v): {d:?}"
            );
        }
    }
}
