//! The Improved and Earlier substep of a chain with angle limits
//! (`limit`): the step of `step::step_chain`, with each limited joint's end
//! moved into its region after the inertia update and after every collider
//! push, as `VRMC_springBone_limit` orders it.
//!
//! A separate kernel, so chains without limits keep their own code, bit for
//! bit and cycle for cycle (the lane kernel still takes them). The limit's
//! space hangs from the parent bone's current rotation, which Improved
//! chains do not otherwise track: here it is the rotation
//! `output::chain_output` writes for the parent (the shortest arc from its
//! carried rest direction), so a limit bounds the angle the user sees
//! between two bones.

use super::chain::{Chain, Joint};
use super::limit::{LimitSlot, clamp_end, limit_end};
use super::output::{segment_rotation, segment_rotation_known_length};
use super::params::Mode;
use super::step::{
    Bend, Drape, INV_H, StepCtx, drape_up, predicted_end, project, resolve_contacts_then,
};
use crate::math::quat::{self, rotate};
use crate::math::{Pose, Quat, Real, Vec3};

/// One Improved or Earlier substep of a chain whose joints carry `limits`
/// (one slot per joint), with drape over contact where the chain asks for
/// it (Improved): the drape turns where a segment aims, the limit then
/// bounds where it ends.
pub(crate) fn step_chain_limited(
    chain: &mut Chain,
    joints: &mut [Joint],
    limits: &[LimitSlot],
    frame: &Pose,
    ctx: &StepCtx<'_>,
) {
    let s = ctx.scale;
    let earlier = chain.desc.mode == Mode::Earlier;
    let mut o = frame.transform_point(chain.desc.root_offset * s);
    let mut o_prev = chain.root_prev;
    chain.root_prev = o;
    let mut parent_w = frame.rot;
    let draped = !earlier && chain.desc.drape;
    let mut drape = Drape::default();
    let mut bend = Bend::for_chain(chain);
    for (i, slot) in limits.iter().enumerate().take(joints.len()) {
        let up = if draped {
            drape_up(joints, i, frame, s)
        } else {
            None
        };
        let j = &mut joints[i];
        let len = j.len0 * s;
        let (carried, base) = rest_and_base(earlier, frame, parent_w, j);
        let rest = if draped {
            drape.aim(carried, up)
        } else {
            carried
        };
        let y = predicted_end(j, o, rest, s, frame, !earlier, &mut bend);
        let mut xh = project(o, y, len, rest);
        // After the inertia update; the velocity is rebuilt from the
        // limited end, so the limit's stop is not undone next substep.
        if let Some(limited) = clamp_end(slot, parent_w, o, xh, len) {
            xh = limited;
        }
        let mut v = (xh - j.x) * INV_H;
        let mut pushed = 0.0;
        if !ctx.candidates.is_empty() {
            let v_parent = (o - o_prev) * INV_H;
            xh = resolve_contacts_then(
                ctx,
                chain.desc.contact,
                o,
                xh,
                len,
                rest,
                j.params.hit_radius * s,
                j.lever,
                &mut v,
                v_parent,
                &mut pushed,
                |x, v| limit_end(slot, parent_w, o, x, len, v),
            );
        }
        if draped || j.lateral_keep < 1.0 {
            j.pushed = pushed / s.max(Real::MIN_POSITIVE);
        }
        bend.pass_on(j, o, xh, rest * s, len);
        if draped {
            drape.pass_on(carried, o, xh, len, pushed, s);
        }
        o_prev = j.x;
        j.x = xh;
        j.v = v;
        // The rotation `output::chain_output` gives this bone, so the
        // child's limit hangs from the bone the user sees.
        parent_w = bone_rotation(earlier, base, j, xh - o, len);
        o = xh;
    }
}

/// A limited (or banded) joint's rest vector in world axes (unscaled: the
/// direction its end aims at) and the rotation its bone turns from:
/// Improved, the rest arc carried by the frame; Earlier, the parent bone's
/// current rotation `parent_w` times the joint's rest local one.
#[inline(always)]
pub(crate) fn rest_and_base(
    earlier: bool,
    frame: &Pose,
    parent_w: Quat,
    j: &Joint,
) -> (Vec3, Quat) {
    if earlier {
        let base = quat::mul(parent_w, j.local_rot);
        (rotate(base, j.axis), base)
    } else {
        (
            rotate(frame.rot, j.rest_vec),
            quat::mul(frame.rot, j.rest_rot),
        )
    }
}

/// The rotation `output::chain_output` gives a bone from `base` whose
/// segment is now `d` (`len` long in Improved, where it is projected).
#[inline(always)]
pub(crate) fn bone_rotation(earlier: bool, base: Quat, j: &Joint, d: Vec3, len: Real) -> Quat {
    if earlier {
        segment_rotation(base, j.axis_unit, d)
    } else {
        segment_rotation_known_length(base, j.axis_unit, d, len)
    }
}
