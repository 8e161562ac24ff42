//! The VRM-compatible substep: the VRMC_springBone reference update as
//! implemented by pixiv three-vrm 3.x (`VRMSpringBoneJoint.update`).
//!
//! Per joint, root to tip, with `h` the step:
//! 1. `next = cur + (cur − prev)(1 − drag) + axis·stiffness·h + gravity·h`
//!    in center space, where `axis` is the rest axis rotated by the parent's
//!    *current* rotation and `gravity = gravityDir·gravityPower`;
//! 2. back to world, then `next = o + L (next − o)/‖next − o‖`;
//! 3. for each collider: if the tail overlaps, push it out along the contact
//!    normal and re-normalise the length;
//! 4. `prev = cur`, `cur = next` (center space); the bone turns by the
//!    shortest arc from its rest axis onto `next − o`.
//!
//! A joint with an angle limit (`limit`, `VRMC_springBone_limit`) has
//! `next` moved into its region after step 2 and after each collider push
//! of step 3, in the limit space hung from the parent's current rotation,
//! as the draft's pseudocode does.
//!
//! `L` is the rest length, or (with the quirk flag) the distance from `o` to
//! the child bone's position after the previous step, which is what
//! three-vrm's `_calcWorldSpaceBoneLength` reads; a virtual tail (no child
//! bone) is measured from the bone's own current matrix there, which is the
//! rest length. Deviation: stiffness and
//! gravity displacements are multiplied by the model scale like everything
//! else (identical at scale 1).

use super::chain::{Chain, Joint};
use super::limit::{LimitSlot, clamp_end};
use super::output::segment_rotation;
use super::params::H;
use super::step::{StepCtx, project};
use crate::collide::clearance_point;
use crate::math::{Pose, Vec3, quat};

/// One VRM-compatible substep of a chain; `limits` holds one slot per
/// joint, or is empty for a chain without limits.
pub(crate) fn step_vrm(
    chain: &mut Chain,
    joints: &mut [Joint],
    limits: &[LimitSlot],
    frame: &Pose,
    center: &Pose,
    ctx: &StepCtx<'_>,
) {
    let s = ctx.scale;
    let inv_center = center.rot.inverse();
    let mut o = frame.transform_point(chain.desc.root_offset * s);
    chain.root_prev = o;
    let mut parent_w = frame.rot;
    let last = joints.len().saturating_sub(1);
    for (i, j) in joints.iter_mut().enumerate() {
        let base = quat::mul(parent_w, j.local_rot);
        let rest_len = j.len0 * s;
        let stale_child = !(i == last && chain.desc.virtual_tail);
        let len = if chain.desc.vrm_length_quirk && stale_child {
            (j.child_prev - o).length()
        } else {
            rest_len
        };
        let axis = quat::rotate(base, j.axis).normalize_or(Vec3::NEG_Y);
        let p = &j.params;
        let inertia = (j.cur_tail - j.prev_tail) * (1.0 - p.drag);
        let next_c = j.cur_tail
            + inertia
            + quat::rotate(
                inv_center,
                axis * (p.stiffness * H * s) + external_force(p.gravity, ctx.external) * (H * s),
            );
        let mut next = project(o, center.transform_point(next_c), len, axis);
        let limit = limits.get(i);
        // The draft's `parent.worldRotation`: the limit space follows the
        // parent bone as this step has turned it.
        let limited = |x| {
            limit
                .and_then(|l| clamp_end(l, parent_w, o, x, len))
                .unwrap_or(x)
        };
        next = limited(next);
        let hit_radius = p.hit_radius * s;
        for &ci in ctx.candidates {
            let (clear, n) =
                clearance_point(ctx.colliders[usize::from(ci)].cur(), next, hit_radius);
            if clear < 0.0 {
                next = limited(project(o, next - n * clear, len, axis));
            }
        }
        j.prev_tail = j.cur_tail;
        j.cur_tail = center.inverse_transform_point(next);
        let w = segment_rotation(base, j.axis_unit, next - o);
        // The child bone sits at the rest length along the new direction.
        let child = o + quat::rotate(w, j.axis * s);
        j.v = (child - j.x) * super::step::INV_H;
        j.x = child;
        j.child_prev = child;
        parent_w = w;
        o = child;
    }
}

/// Walks a VRM-compatible chain from its root without stepping it (a hold,
/// `SpringWorld::hold`): each end back on its bone length, into its angle
/// limit and out of the colliders as [`step_vrm`]'s step 3 pushes it, the
/// bones turned by the shortest arc as there. Velocities are kept; the
/// caller re-derives the tails from the moved ends ([`sync_tails`]).
pub(crate) fn settle_vrm(
    chain: &Chain,
    joints: &mut [Joint],
    limits: &[LimitSlot],
    frame: &Pose,
    ctx: &StepCtx<'_>,
) {
    let s = ctx.scale;
    let mut o = frame.transform_point(chain.desc.root_offset * s);
    let mut parent_w = frame.rot;
    for (i, j) in joints.iter_mut().enumerate() {
        let base = quat::mul(parent_w, j.local_rot);
        let len = j.len0 * s;
        let axis = quat::rotate(base, j.axis).normalize_or(Vec3::NEG_Y);
        let limited = |x| {
            limits
                .get(i)
                .and_then(|l| clamp_end(l, parent_w, o, x, len))
                .unwrap_or(x)
        };
        let mut next = limited(project(o, j.x, len, axis));
        let hit_radius = j.params.hit_radius * s;
        for &ci in ctx.candidates {
            let (clear, n) =
                clearance_point(ctx.colliders[usize::from(ci)].cur(), next, hit_radius);
            if clear < 0.0 {
                next = limited(project(o, next - n * clear, len, axis));
            }
        }
        let w = segment_rotation(base, j.axis_unit, next - o);
        j.x = o + quat::rotate(w, j.axis * s);
        parent_w = w;
        o = j.x;
    }
}

/// Gravity plus the external force (UniVRM adds its `ExternalForce` to
/// `gravityDir · gravityPower` before scaling by the step). Without one the
/// gravity is used as is, so a calm world keeps its bits (even the sign of
/// a zero).
#[inline]
pub(super) fn external_force(gravity: Vec3, external: Vec3) -> Vec3 {
    if external == Vec3::ZERO {
        gravity
    } else {
        gravity + external
    }
}

/// Re-derives the center-space tails from positions and velocities (after a
/// reset, a teleport or an authored stretch) so inertia continues smoothly.
pub(crate) fn sync_tails(joints: &mut [Joint], center: &Pose) {
    for j in joints.iter_mut() {
        j.cur_tail = center.inverse_transform_point(j.x);
        j.prev_tail = center.inverse_transform_point(j.x - j.v * H);
        j.child_prev = j.x;
    }
}
