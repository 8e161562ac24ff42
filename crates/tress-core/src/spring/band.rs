//! Bands: neighbouring chains held to their rest spacing, so the cloth
//! skinned between them (a skirt, a cape, a wide lock cut into strips)
//! cannot stretch when a collider pushes one chain and not its neighbour.
//!
//! A band is a list of links between two chains hanging from the same
//! frame. After every chain has taken its substep, joint `k` of the one and
//! joint `k` of the other may be at most `(1 + stretch)` times their rest
//! distance apart; a longer pair moves towards each other, half each
//! (`pull_link`). The straight line between them, where the cloth runs,
//! is pushed out of round colliders (`link_contacts`). Then each chain
//! that moved is walked from its root again: bone lengths, angle limits and
//! contacts, as its own step applies them (`settle_chain`), so contact
//! has the last word and nothing is left inside a collider. A few such
//! rounds (Gauss-Seidel over the links in the order given) bring a pushed
//! chain's neighbours along with it.
//!
//! A link may also hold the cloth's shear (`BandLink::shear`): the
//! diagonals of each quad between the two chains, joint `k − 1` of one to
//! joint `k` of the other and the reverse, kept within their rest length
//! times the shear allowance, as a cloth's shear springs are. Structural
//! pairs alone let a quad lean into a parallelogram whose sides keep their
//! lengths; the cloth skinned across it then stretches along the
//! diagonal that grew (the skirt's walk and jump, docs/QUALITY.md).
//!
//! Pulling a pair together is never added to their velocities (no spring
//! back once the push ends), as a contact's push is not. Links only stop
//! stretching: neighbours may come closer (cloth folds) freely.

use super::chain::{Chain, Joint};
use super::limit::{LimitSlot, clamp_end, limit_end};
use super::params::{H, Mode};
use super::step::{ColliderState, INV_H, StepCtx, project, resolve_contacts_then};
use super::step_limited::{bone_rotation, rest_and_base};
use crate::collide::clearance_segment;
use crate::math::{Pose, Real, ops};

/// Most rounds of link corrections and chain walks per substep: a push
/// spreads one link per round, and a band that has converged stops early.
/// The skirt avatar's 24-chain band (with a 31 × 28.5 cm hem, before it
/// was widened), p99 skirt stretch at 8 / 16 / 32 / 64 rounds:
/// Sitting_Idle_Loop 40.8 / 25.8 / 16.7 / 16.1 %, Crouch_Idle_Loop 76.8 /
/// 53.7 / 39.0 / 34.7 %, Jump_Loop 14.5 / 8.5 / 6.5 / 7.1 %; its rig costs
/// 1.30× the same rig without the band at 32 (`spring-bench --skirt`).
pub const BAND_ROUNDS: u32 = 32;

/// Largest stretch a link may allow (a link that allows more is no link).
pub const MAX_BAND_STRETCH: Real = 1.0;

/// Corrections below this share of a pair's rest distance (links) or of a
/// micrometre times the world's scale (cloth lines) are left alone, so a
/// band at rest, or one that has converged, stops its rounds early.
const SETTLED: Real = 1e-5;

/// One link of a band: chain `b` held to chain `a`, joint by joint.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BandLink {
    /// The first chain (world index).
    pub a: usize,
    /// The second chain (world index).
    pub b: usize,
    /// How far past their rest distance two joints may move apart, as a
    /// share of it (0.05: five per cent).
    pub stretch: Real,
    /// Shear held too: how far past `1 + stretch` times its rest length
    /// each diagonal of a quad between the chains may grow, as a share
    /// (0.02: two per cent more). `None`: diagonals free (shear allowed).
    pub shear: Option<Real>,
}

impl BandLink {
    /// A link holding joint spacing only (no shear).
    #[must_use]
    pub fn new(a: usize, b: usize, stretch: Real) -> Self {
        Self {
            a,
            b,
            stretch,
            shear: None,
        }
    }
}

/// Moves joint ends of the linked chains `a` and `b` (joint slices of
/// the world) so that no pair is farther apart than the link allows;
/// whether it moved any. `scale` is the world's length scale.
pub(crate) fn pull_link(
    link: &BandLink,
    ca: &Chain,
    cb: &Chain,
    joints: &mut [Joint],
    scale: Real,
) -> bool {
    let mut moved = false;
    let allow = 1.0 + link.stretch;
    let n = ca.len.min(cb.len);
    let mut rest_a = ca.desc.root_offset;
    let mut rest_b = cb.desc.root_offset;
    for k in 0..n {
        let (ia, ib) = (ca.start + k, cb.start + k);
        rest_a += joints[ia].rest_vec;
        rest_b += joints[ib].rest_vec;
        let most = rest_a.distance(rest_b) * scale * allow;
        moved |= pull_pair(joints, ia, ib, most);
    }
    let Some(shear) = link.shear else {
        return moved;
    };
    // The diagonals, after every structural pair. The roots are fixed, so
    // the first quad's diagonals (root to joint 0) would only pull one end:
    // they are left out, and quads start at joints 0 and 1.
    let diagonal = allow * (1.0 + shear) * scale;
    let (mut rest_a, mut rest_b) = (ca.desc.root_offset, cb.desc.root_offset);
    for k in 0..n {
        let (ia, ib) = (ca.start + k, cb.start + k);
        let (prev_a, prev_b) = (rest_a, rest_b);
        rest_a += joints[ia].rest_vec;
        rest_b += joints[ib].rest_vec;
        if k > 0 {
            moved |= pull_pair(joints, ia - 1, ib, prev_a.distance(rest_b) * diagonal);
            moved |= pull_pair(joints, ia, ib - 1, rest_a.distance(prev_b) * diagonal);
        }
    }
    moved
}

/// Moves joint ends `i` and `j` towards each other, half each, until they
/// are at most `most` apart; whether they moved.
fn pull_pair(joints: &mut [Joint], i: usize, j: usize, most: Real) -> bool {
    let d = joints[j].x - joints[i].x;
    let l2 = d.length_squared();
    let near = most * (1.0 + SETTLED);
    if l2 <= near * near || !l2.is_finite() {
        return false;
    }
    let l = ops::sqrt(l2);
    let half = d * (0.5 * (l - most) / l);
    joints[i].x += half;
    joints[j].x -= half;
    true
}

/// Walks `chain` from its root again after links moved its ends: each end
/// back on its bone length, into its angle limit and out of colliders, as
/// the chain's own substep orders them. Velocities keep what the substep
/// gave them, less what a contact or a limit removes (`touch_velocity`;
/// otherwise they are left as they are).
pub(crate) fn settle_chain(
    chain: &mut Chain,
    joints: &mut [Joint],
    limits: &[LimitSlot],
    frame: &Pose,
    ctx: &StepCtx<'_>,
    touch_velocity: bool,
) {
    let s = ctx.scale;
    let earlier = chain.desc.mode == Mode::Earlier;
    let mut o = frame.transform_point(chain.desc.root_offset * s);
    let mut o_prev = chain.root_prev;
    let mut parent_w = frame.rot;
    for (i, j) in joints.iter_mut().enumerate() {
        let len = j.len0 * s;
        let (rest, base) = rest_and_base(earlier, frame, parent_w, j);
        let mut xh = project(o, j.x, len, rest);
        let slot = limits.get(i).copied().unwrap_or_default();
        if let Some(limited) = clamp_end(&slot, parent_w, o, xh, len) {
            xh = limited;
        }
        let mut v = j.v;
        if !ctx.candidates.is_empty() {
            let v_parent = (o - o_prev) * INV_H;
            let mut pushed = 0.0;
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
                |x, v| limit_end(&slot, parent_w, o, x, len, v),
            );
        }
        // The parent end's position before this substep, for the contact's
        // radial velocity fix: the step does not keep it, but it left the
        // end's velocity as (end − previous) / h, less what contacts took.
        o_prev = j.x - j.v * H;
        j.x = xh;
        if touch_velocity {
            j.v = v;
        }
        parent_w = bone_rotation(earlier, base, j, xh - o, len);
        o = xh;
    }
}

/// Keeps the cloth between two linked chains out of the round colliders in
/// `mask`: the straight line from joint `k` of one to joint `k` of the other
/// (where the skinned cloth runs) is pushed clear at its deepest point, its
/// two ends sharing the push by their distance from it; whether it moved
/// any. Without this a thigh can pass between two chains, each clear of
/// it, with the cloth between them through it.
pub(crate) fn link_contacts(
    ca: &Chain,
    cb: &Chain,
    joints: &mut [Joint],
    colliders: &[ColliderState],
    mask: u64,
    scale: Real,
) -> bool {
    let mut moved = false;
    let settled = SETTLED * 0.1 * scale;
    let n = ca.len.min(cb.len);
    for k in 0..n {
        let (ia, ib) = (ca.start + k, cb.start + k);
        let r = joints[ia]
            .params
            .hit_radius
            .min(joints[ib].params.hit_radius)
            * scale;
        let mut m = mask;
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            let Some(c) = colliders.get(i) else { break };
            if !c.valid || !c.prep.is_round() {
                continue;
            }
            let (pa, pb) = (joints[ia].x, joints[ib].x);
            let mid = (pa + pb) * 0.5;
            if !c.near(mid, 0.5 * pa.distance(pb) + r) {
                continue;
            }
            let (clear, normal, s) = clearance_segment(c.cur(), pa, pb, r);
            if clear >= -settled || clear.is_nan() {
                continue;
            }
            // Moving the ends by (1 − s)·λ and s·λ moves the point at s by
            // ((1 − s)² + s²)·λ: exactly clear.
            let lambda = -clear / ((1.0 - s) * (1.0 - s) + s * s);
            joints[ia].x += normal * ((1.0 - s) * lambda);
            joints[ib].x += normal * (s * lambda);
            moved = true;
        }
    }
    moved
}
