//! Per-joint output: world position and the minimal-twist bone rotation.
//!
//! The rotation is the shortest arc from the bone's rest (or animated, or
//! parent-carried) direction to the simulated one, composed onto that base
//! rotation, so a bone swings without picking up twist.

use super::chain::{Chain, Joint};
use super::params::Mode;
use crate::math::{Pose, Quat, Real, Vec3, quat};

/// What a caller writes back to one bone.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct JointOutput {
    /// World position of the bone (the segment's start).
    pub origin: Vec3,
    /// World position of the segment's end (the child bone or tail).
    pub tail: Vec3,
    /// World rotation of the bone.
    pub world_rot: Quat,
    /// Rotation relative to the previous joint's bone (the first joint:
    /// relative to the attachment frame), i.e. a local bone pose when the
    /// chain's bones are parented in order under the attachment.
    pub local_rot: Quat,
}

/// A joint's output rotations as the VRM lane kernel computes them on the
/// last substep of an advance (`lanes_vrm`), the same bits as
/// [`chain_output`] would give for that state.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub(crate) struct OutRot {
    pub world: Quat,
    pub local: Quat,
}

/// [`chain_output`] from rotations the lane kernel left in `rots` (one per
/// joint): positions from the joints, nothing recomputed.
pub(crate) fn chain_output_cached(
    chain: &Chain,
    joints: &[Joint],
    rots: &[OutRot],
    frame: &Pose,
    scale: Real,
    out: &mut [JointOutput],
) -> usize {
    let mut o = frame.transform_point(chain.desc.root_offset * scale);
    let mut n = 0;
    for ((j, r), slot) in joints.iter().zip(rots).zip(out.iter_mut()) {
        *slot = JointOutput {
            origin: o,
            tail: j.x,
            world_rot: r.world,
            local_rot: r.local,
        };
        o = j.x;
        n += 1;
    }
    n
}

/// `base` turned by the shortest arc that carries `base * axis_unit` onto
/// `dir`. `axis_unit` is unit length or zero; degenerate directions leave
/// `base` unchanged. No final renormalisation: the product of two unit
/// quaternions is unit to rounding, and nothing accumulates across steps
/// (every step rebuilds the chain from the attachment's rotation).
#[inline]
#[must_use]
pub(crate) fn segment_rotation(base: Quat, axis_unit: Vec3, dir: Vec3) -> Quat {
    let to = dir.normalize_or_zero();
    if axis_unit == Vec3::ZERO || to == Vec3::ZERO {
        return base;
    }
    quat::mul(
        quat::from_rotation_arc(quat::rotate(base, axis_unit), to),
        base,
    )
}

/// [`segment_rotation`] for a `dir` whose length is known to be `len` (the
/// solver projects every end point onto its bone length): the shortest arc
/// from the unit `a` to `dir` is the normalised `(a × dir, len + a · dir)`,
/// one square root instead of two (normalising `dir`, then the arc).
/// Falls back to [`segment_rotation`] near a half turn or for degenerate
/// input.
#[inline]
#[must_use]
pub(crate) fn segment_rotation_known_length(
    base: Quat,
    axis_unit: Vec3,
    dir: Vec3,
    len: Real,
) -> Quat {
    let a = quat::rotate(base, axis_unit);
    let c = a.cross(dir);
    let q = Quat::from_xyzw(c.x, c.y, c.z, len + a.dot(dir));
    let n2 = quat::length_squared(q);
    let usable = axis_unit != Vec3::ZERO && q.w > 1e-3 * len && n2.is_finite() && n2 > 0.0;
    if !usable {
        return segment_rotation(base, axis_unit, dir);
    }
    quat::mul(q * (1.0 / crate::math::ops::sqrt(n2)), base)
}

/// Fills `out` with the chain's joints; returns how many were written.
pub(crate) fn chain_output(
    chain: &Chain,
    joints: &[Joint],
    frame: &Pose,
    scale: Real,
    out: &mut [JointOutput],
) -> usize {
    let mut o = frame.transform_point(chain.desc.root_offset * scale);
    let mut parent_w = frame.rot;
    let mut n = 0;
    for (j, slot) in joints.iter().zip(out.iter_mut()) {
        let w = if chain.authored {
            quat::normalize(quat::mul(frame.rot, j.anim_rot))
        } else {
            match chain.desc.mode {
                Mode::Improved => segment_rotation_known_length(
                    quat::mul(frame.rot, j.rest_rot),
                    j.axis_unit,
                    j.x - o,
                    j.len0 * scale,
                ),
                Mode::Earlier | Mode::VrmCompatible => {
                    segment_rotation(quat::mul(parent_w, j.local_rot), j.axis_unit, j.x - o)
                }
            }
        };
        *slot = JointOutput {
            origin: o,
            tail: j.x,
            world_rot: w,
            local_rot: quat::mul(parent_w.inverse(), w),
        };
        parent_w = w;
        o = j.x;
        n += 1;
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_length_arc_matches_the_general_one() {
        let base = Quat::from_euler(glam::EulerRot::YXZ, 0.3, -0.7, 0.2);
        let axis = Vec3::new(0.2, -1.0, 0.1).normalize();
        let len = 0.07;
        // Directions from a few degrees to almost a half turn from the rest one.
        let rest = base * axis;
        for k in 0..40 {
            let angle = 0.08 * k as Real;
            let turn = Quat::from_axis_angle(rest.any_orthonormal_vector(), angle);
            let dir = turn * rest * len;
            let general = segment_rotation(base, axis, dir);
            let fast = segment_rotation_known_length(base, axis, dir, len);
            // Same rotation (up to sign), and it carries the rest axis onto dir.
            assert!(general.dot(fast).abs() > 1.0 - 1e-6, "angle {angle}");
            assert!((fast * axis * len - dir).length() < 1e-6 * len.max(1.0));
        }
        // A half turn takes the general path; degenerate input keeps the base.
        let back = segment_rotation_known_length(base, axis, -rest * len, len);
        assert!((back * axis + rest).length() < 1e-5);
        assert_eq!(
            segment_rotation_known_length(base, Vec3::ZERO, rest, len),
            base
        );
    }
}
