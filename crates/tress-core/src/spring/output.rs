//! Per-joint output: world position and the minimal-twist bone rotation.
//!
//! The rotation is the shortest arc from the bone's rest (or animated, or
//! parent-carried) direction to the simulated one, composed onto that base
//! rotation, so a bone swings without picking up twist.

use super::chain::{Chain, Joint};
use super::params::Mode;
use super::pose::Pose;
use crate::math::{Quat, Real, Vec3};

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
    Quat::from_rotation_arc(base * axis_unit, to) * base
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
            (frame.rot * j.anim_rot).normalize()
        } else {
            match chain.desc.mode {
                Mode::Improved => segment_rotation(frame.rot * j.rest_rot, j.axis_unit, j.x - o),
                Mode::Earlier | Mode::VrmCompatible => {
                    segment_rotation(parent_w * j.local_rot, j.axis_unit, j.x - o)
                }
            }
        };
        *slot = JointOutput {
            origin: o,
            tail: j.x,
            world_rot: w,
            local_rot: parent_w.inverse() * w,
        };
        parent_w = w;
        o = j.x;
        n += 1;
    }
    n
}
