//! What the lane-kernel property tests share (`lanes.rs` for Improved and
//! Earlier, `lanes_vrm.rs` for VRM-compatible chains): worlds built for the
//! scalar kernel and each lane width and build, stepped through the same
//! frames, compared bit for bit after every frame.

use proptest::prelude::*;
use tress_core::collide::Collider;
use tress_core::math::{Quat, Real, Vec3};
use tress_core::simd::IsaLevel;
use tress_core::spring::{JointOutput, Pose, SpringWorld, StepConfig};

pub type World = SpringWorld<96, 16, 8, 2>;

/// A sphere or capsule on frame 0 or 1, placed where the chains hang.
pub fn sane_collider() -> impl Strategy<Value = (usize, Collider)> {
    (
        0usize..2,
        -0.2f32..0.2,
        -0.4f32..0.1,
        -0.2f32..0.2,
        0.02f32..0.12,
        any::<bool>(),
    )
        .prop_map(|(f, x, y, z, r, cap)| {
            let a = Vec3::new(x, y, z);
            let c = if cap {
                Collider::capsule(a, a + Vec3::new(0.2, -0.05, 0.0), r)
            } else {
                Collider::sphere(a, r)
            };
            (f, c)
        })
}

/// Steps `w` with the scalar kernel (`lanes` 0) or lanes of that width.
pub fn use_lanes<const J: usize, const C: usize, const K: usize, const F: usize>(
    w: &mut SpringWorld<J, C, K, F>,
    lanes: usize,
) {
    w.set_lane_width(lanes);
    w.set_config(StepConfig {
        lanes: lanes > 0,
        ..StepConfig::default()
    });
}

/// A joint's position and velocity in `a` and in `b`.
pub type Mismatch = (usize, usize, [Vec3; 2], [Vec3; 2]);

/// The first joint (chain, joint, `a`'s and `b`'s position and velocity)
/// whose state is not the same bits in both worlds.
pub fn first_difference<const J: usize, const C: usize, const K: usize, const F: usize>(
    a: &SpringWorld<J, C, K, F>,
    b: &SpringWorld<J, C, K, F>,
) -> Option<Mismatch> {
    let bits = |v: Vec3| v.to_array().map(Real::to_bits);
    (0..a.chain_count()).find_map(|ch| {
        (0..a.chain_len(ch)).find_map(|j| {
            let (xa, va) = a.joint_state(ch, j).unwrap();
            let (xb, vb) = b.joint_state(ch, j).unwrap();
            (bits(xa) != bits(xb) || bits(va) != bits(vb)).then_some((ch, j, [xa, va], [xb, vb]))
        })
    })
}

/// The first chain whose bone outputs (origin, tail, world and local
/// rotation) are not the same bits in both worlds, with both outputs.
pub fn first_output_difference<const J: usize, const C: usize, const K: usize, const F: usize>(
    a: &SpringWorld<J, C, K, F>,
    b: &SpringWorld<J, C, K, F>,
) -> Option<(usize, [Vec<JointOutput>; 2])> {
    let bits = |o: &JointOutput| {
        let v = |v: Vec3| v.to_array().map(Real::to_bits);
        let q = |q: Quat| q.to_array().map(Real::to_bits);
        (v(o.origin), v(o.tail), q(o.world_rot), q(o.local_rot))
    };
    (0..a.chain_count()).find_map(|ch| {
        let mut oa = vec![JointOutput::default(); a.chain_len(ch)];
        let mut ob = vec![JointOutput::default(); b.chain_len(ch)];
        a.outputs(ch, &mut oa);
        b.outputs(ch, &mut ob);
        let same = oa.len() == ob.len() && oa.iter().zip(&ob).all(|(x, y)| bits(x) == bits(y));
        (!same).then_some((ch, [oa, ob]))
    })
}

/// `w` on the builds of `level` or lower (the lane kernel's AVX-512, AVX2
/// or portable builds).
fn at_most(mut w: World, level: IsaLevel) -> World {
    w.set_isa(w.isa().at_most(level));
    w
}

/// The widths and builds [`matches_scalar`] compares with the scalar kernel.
const LANED: [&str; 4] = ["4", "8", "8 (AVX2 at most)", "8 (portable)"];

/// Builds the world with `build(lanes)` (0: the scalar kernel) for every
/// width and build, drives frame 0 by `frames` (frame time, position,
/// rotation) and frame 1 by a second motion derived from it, and fails at
/// the first frame after which a laned world's state or bone outputs
/// differ from the scalar one. Outputs are read every frame, so from the
/// second frame on the VRM lane kernel serves them from what it computed
/// on the frame's last substep.
pub fn matches_scalar(
    frames: &[(Real, Vec3, Quat)],
    build: impl Fn(usize) -> World,
) -> Result<(), TestCaseError> {
    let mut worlds = [
        build(0),
        build(4),
        build(8),
        at_most(build(8), IsaLevel::Avx2),
        at_most(build(8), IsaLevel::Portable),
    ];
    for (dt, p, q) in frames {
        for w in &mut worlds {
            w.set_frame_pose(0, Pose::new(*p, *q));
            w.set_frame_pose(1, Pose::new(*p * 0.5 + Vec3::Y * -0.2, q.conjugate()));
            w.advance(*dt);
        }
        let [scalar, laned @ ..] = &worlds;
        for (w, width) in laned.iter().zip(LANED) {
            let d = first_difference(w, scalar);
            prop_assert!(
                d.is_none(),
                "{width} lanes vs scalar (chain, joint, x v, x v): {d:?}"
            );
            let d = first_output_difference(w, scalar);
            prop_assert!(
                d.is_none(),
                "{width} lanes vs scalar, bone outputs (chain, outputs): {d:?}"
            );
        }
    }
    Ok(())
}
