//! The Improved and Earlier substep kernels and the shared contact resolver.
//!
//! One substep of `H`: `f = k (r − x) + s g`, `u = e^(−c h) (v + h f)`,
//! `y = x + h u`, project `y` onto the sphere of radius `L` around the
//! updated parent end `o`, then resolve contacts. Velocity is always
//! reconstructed from positions, `v = (x̂ − x)/h`, so it stays bounded by
//! `2L/h` whatever the inputs.

use super::chain::{Chain, Joint};
use super::params::{ContactMode, Mode};
use crate::collide::{
    PreparedRound, ShapeKind, WorldCollider, prepared::beyond_root_levered, push_out_segment_moving,
};
use crate::math::quat::{self, rotate};
use crate::math::{Pose, Real, Vec3, Vec4, ops};

/// 1 / H.
pub(crate) const INV_H: Real = crate::clock::STEP_HZ as Real;

/// Collider push-out (unscaled model units, summed over a substep's
/// corrections) at which a flat lock's width constraint is fully released.
const FLAT_CONTACT_FADE: Real = 0.0005;

/// The bend hold a rig gives a flat lock (`FlatLock::bend`), 1/s: each
/// substep a segment keeps `e^(−FLAT_BEND·h)` (8 %) of the difference
/// between its sideways lean and its parent's. The flat-lock stiffness
/// holds each segment to its carried rest arc, which also holds back the
/// whole lock's sideways swing, so it stays soft (5/s) for short locks to
/// swing; this holds only the bends between segments, which linear blend
/// skinning turns into edge stretch. Issue #6's set (the fitted ponytail
/// and four bangs), p99 edge stretch at 30 fps: 4.07 % without, 2.71 %
/// with, the bangs swinging 4.1–4.4 cm against 4.0–4.2
/// (docs/log/2026-12-06-bend-hold-default.md).
pub const FLAT_BEND: Real = 300.0;

/// Contact onset band, unscaled model units (3 mm for a metre model): a
/// push of depth `d` removes the share `min(1, d / band)` of the velocity
/// into the collider (and along the segment). Removing all of it on any
/// nonzero push made the step jump at first touch, so that rounding-sized
/// differences between runs (30 against 120 fps in an engine that passes
/// poses through f32) grew into visible ones wherever hair grazes a
/// collider. Pushes deeper than the band, which is every resting or
/// arriving contact at hair speeds, are answered bit for bit as before.
pub(crate) const CONTACT_ONSET: Real = 3e-3;

/// The share of the inward velocity a push of `depth` removes.
#[inline(always)]
pub(crate) fn onset(depth: Real, inv_band: Real) -> Real {
    (depth * inv_band).min(1.0)
}

/// Drape over contact: share of a pushed segment's turn off its carried rest
/// direction that its parent takes in the next substep. The parent's turn
/// moves the child's root, which changes the child's push, which feeds back
/// into the parent: at 1 that loop has no damping left (the layered
/// avatar's locks then swing to 77 % stretch and the 30/120 fps runs part by
/// 0.2 m); 0.3 removes most of the kink at the joint above the contact
/// while keeping the frame-rate agreement close to what it was without it.
const DRAPE_UP: Real = 0.3;

/// `r` turned by the shortest rotation that takes the unit vector `from` to
/// the unit vector `to`, and the share of it to use: the rotation is
/// undefined for opposite vectors, so the share fades to zero over the last
/// ~25° before that instead of switching off, keeping the step continuous.
#[inline]
fn turn_by_arc(from: Vec3, to: Vec3, r: Vec3) -> (Vec3, Real) {
    // R r = r c + k × r + k (k·r) / (1 + c), k = from × to, c = from·to.
    let c1 = 1.0 + from.dot(to);
    let share = (c1 * 10.0).min(1.0);
    if share <= 0.0 {
        return (r, 0.0);
    }
    let k = from.cross(to);
    (r * (c1 - 1.0) + k.cross(r) + k * (k.dot(r) / c1), share)
}

/// A collider's world pose at the previous and the current substep, and a
/// bounding ball of its sweep for cheap rejection.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ColliderState {
    pub prev: WorldCollider,
    /// The current pose with its axis terms cached for the narrow phase
    /// (`cur()` is its shape).
    pub prep: PreparedRound,
    /// How far the axis moved during the substep.
    pub moved: Real,
    /// Centre of the bounding ball (current pose).
    pub center: Vec3,
    /// Radius of the ball holding the swept shape; infinite for planes and
    /// inside shapes, which act everywhere.
    pub bound: Real,
    pub valid: bool,
}

impl ColliderState {
    /// State for a collider that moved from `prev` to `cur`.
    #[inline(always)]
    pub(crate) fn new(prev: WorldCollider, cur: WorldCollider) -> Self {
        let moved = cur.displacement_from(&prev);
        let center = (cur.a + cur.b) * 0.5;
        let bound = match cur.kind {
            ShapeKind::Sphere | ShapeKind::Capsule => {
                (cur.b - cur.a).length() * 0.5 + cur.radius + moved
            }
            _ => Real::INFINITY,
        };
        let valid = cur.is_finite() && prev.is_finite() && moved.is_finite();
        Self {
            prev,
            prep: PreparedRound::new(cur),
            moved,
            center,
            bound,
            valid,
        }
    }

    /// The collider at the current substep.
    #[inline(always)]
    pub(crate) fn cur(&self) -> &WorldCollider {
        &self.prep.shape
    }

    /// Whether the ball at `c` of radius `r` can touch the (swept) collider.
    #[inline]
    pub(crate) fn near(&self, c: Vec3, r: Real) -> bool {
        let reach = self.bound + r;
        reach == Real::INFINITY || (c - self.center).length_squared() <= reach * reach
    }
}

/// Bounding balls of the first [`NEAR_LANES`] colliders, four per vector,
/// built once per substep, so that a joint's broad phase is a few vector
/// compares and a bit mask instead of one unpredictable branch per collider
/// (the mispredictions cost more than the tests).
#[derive(Clone, Copy, Debug)]
pub(crate) struct NearSet {
    cx: [Vec4; NEAR_GROUPS],
    cy: [Vec4; NEAR_GROUPS],
    cz: [Vec4; NEAR_GROUPS],
    bound: [Vec4; NEAR_GROUPS],
    /// Groups that hold at least one collider.
    groups: usize,
    /// Valid spheres and capsules among the first [`NEAR_LANES`]: their
    /// balls decide alone.
    pub round: u32,
}

/// Groups of four in a [`NearSet`]; colliders past them are tested one by one.
const NEAR_GROUPS: usize = 4;

/// Colliders a [`NearSet`] holds.
pub(crate) const NEAR_LANES: usize = NEAR_GROUPS * 4;

impl NearSet {
    /// The balls of `colliders[..NEAR_LANES]`.
    pub(crate) fn new(colliders: &[ColliderState]) -> Self {
        let mut lanes = [[0.0 as Real; NEAR_LANES]; 4];
        let n = colliders.len().min(NEAR_LANES);
        let mut round = 0u32;
        for (i, c) in colliders[..n].iter().enumerate() {
            if c.valid && c.prep.is_round() {
                round |= 1 << i;
            }
            lanes[0][i] = c.center.x;
            lanes[1][i] = c.center.y;
            lanes[2][i] = c.center.z;
            lanes[3][i] = c.bound;
        }
        let group = |k: usize, g: usize| Vec4::from_slice(&lanes[k][4 * g..4 * g + 4]);
        Self {
            cx: core::array::from_fn(|g| group(0, g)),
            cy: core::array::from_fn(|g| group(1, g)),
            cz: core::array::from_fn(|g| group(2, g)),
            bound: core::array::from_fn(|g| group(3, g)),
            groups: n.div_ceil(4),
            round,
        }
    }

    /// Bit `i` set when collider `i` can touch the ball at `c` of radius `r`
    /// ([`ColliderState::near`] for each of the first [`NEAR_LANES`]).
    #[inline(always)]
    pub(crate) fn mask(&self, c: Vec3, r: Real) -> u32 {
        let (x, y, z, r) = (
            Vec4::splat(c.x),
            Vec4::splat(c.y),
            Vec4::splat(c.z),
            Vec4::splat(r),
        );
        let mut m = 0u32;
        for g in 0..self.groups {
            let (dx, dy, dz) = (self.cx[g] - x, self.cy[g] - y, self.cz[g] - z);
            let reach = self.bound[g] + r;
            let d2 = dx * dx + dy * dy + dz * dz;
            // An infinite reach (planes, inside shapes) is always near.
            let near = d2.cmple(reach * reach) | reach.cmpeq(Vec4::INFINITY);
            m |= near.bitmask() << (4 * g);
        }
        m
    }
}

/// What every chain kernel reads besides its own state.
#[derive(Debug)]
pub(crate) struct StepCtx<'a> {
    pub scale: Real,
    pub iterations: u32,
    pub colliders: &'a [ColliderState],
    /// Indices into `colliders` that can reach this chain this substep, ascending.
    pub candidates: &'a [u8],
    /// The same as bits (of the first [`NEAR_LANES`] colliders).
    pub candidate_bits: u32,
    /// Every collider's ball, for this substep.
    pub near: &'a NearSet,
    /// VRM-compatible chains: the wind's external force this substep
    /// (VRM units, added to `gravityDir · gravityPower`); zero otherwise.
    pub external: Vec3,
}

impl StepCtx<'_> {
    /// Calls `f` with each candidate collider that can touch the ball at
    /// `c` of radius `r`, in collider order.
    #[inline(always)]
    fn for_each_near(&self, c: Vec3, r: Real, mut f: impl FnMut(&ColliderState)) {
        let mut m = self.near.mask(c, r) & self.candidate_bits;
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            f(&self.colliders[i]);
        }
        // Candidates are ascending: those past the vector lanes come last,
        // in order, as the lane kernel visits them.
        let past = self
            .candidates
            .partition_point(|&ci| usize::from(ci) < NEAR_LANES);
        for &ci in &self.candidates[past..] {
            let st = &self.colliders[usize::from(ci)];
            if st.near(c, r) {
                f(st);
            }
        }
    }
}

/// Contact of the segment `o..xh` (length `len`; `segment`: whole-segment
/// contact) with collider `c`: how `xh` must move and the unit push
/// direction. Planes and inside shapes are worst at an end point and the
/// root is fixed, so only the free end is tested against them; a fast
/// sphere or capsule takes the swept query. `lever` floors the contact's
/// lever (`Joint::lever`).
#[inline(always)]
pub(crate) fn collider_hit(
    c: &ColliderState,
    segment: bool,
    o: Vec3,
    xh: Vec3,
    len: Real,
    hit_radius: Real,
    lever: Real,
) -> Option<(Vec3, Vec3)> {
    let round = c.prep.is_round();
    let whole = segment && round;
    if round && c.moved > 0.5 * (c.cur().radius + hit_radius) {
        swept_hit(c, whole, o, xh, hit_radius, lever)
    } else if whole {
        c.prep.segment_hit_levered(o, xh, len, hit_radius, lever)
    } else {
        c.prep.point_hit(xh, hit_radius)
    }
}

/// Contact of the segment `o..xh` (`whole`) or of its end with a collider
/// that moves fast this substep: the swept query, with the root-depth rule
/// (`prepared::beyond_root`).
#[inline(never)]
pub(crate) fn swept_hit(
    c: &ColliderState,
    whole: bool,
    o: Vec3,
    xh: Vec3,
    hit_radius: Real,
    lever: Real,
) -> Option<(Vec3, Vec3)> {
    let p0 = if whole { o } else { xh };
    let h = push_out_segment_moving(&c.prev, c.cur(), c.moved, p0, xh, hit_radius)?;
    if !whole {
        return Some((h.correction, h.normal));
    }
    beyond_root_levered(c.cur(), o, xh, hit_radius, &h, lever)
}

/// `y` moved onto the sphere of radius `len` around `o`; `fallback` (any
/// length, normalised only when used) gives the direction when `y − o`
/// vanishes or is not finite.
#[inline]
#[must_use]
pub(crate) fn project(o: Vec3, y: Vec3, len: Real, fallback: Vec3) -> Vec3 {
    let d = y - o;
    let l2 = d.length_squared();
    if l2 > Real::MIN_POSITIVE && l2.is_finite() {
        o + d * (len / ops::sqrt(l2))
    } else {
        o + fallback.normalize_or(Vec3::NEG_Y) * len
    }
}

/// Resolves contacts of the segment `o..xh` (or its end alone) without
/// rebound: each correction removes only the velocity component into the
/// collider, never adds the push-out to velocity; after the bounded passes,
/// the velocity relative to the parent loses its radial part.
#[allow(clippy::too_many_arguments)] // hot path: plain values beat a struct here
pub(crate) fn resolve_contacts(
    ctx: &StepCtx<'_>,
    mode: ContactMode,
    o: Vec3,
    xh: Vec3,
    len: Real,
    fallback: Vec3,
    hit_radius: Real,
    lever: Real,
    v: &mut Vec3,
    v_parent: Vec3,
    pushed: &mut Real,
) -> Vec3 {
    resolve_contacts_then(
        ctx,
        mode,
        o,
        xh,
        len,
        fallback,
        hit_radius,
        lever,
        v,
        v_parent,
        pushed,
        |x, _| x,
    )
}

/// [`resolve_contacts`] with `after_hit(end, velocity)` run on the end
/// after each collider's push: an angle limit re-applied after every
/// collision, as `VRMC_springBone_limit` asks (`limit::limit_end`).
#[allow(clippy::too_many_arguments)] // hot path: plain values beat a struct here
#[inline(always)]
pub(crate) fn resolve_contacts_then(
    ctx: &StepCtx<'_>,
    mode: ContactMode,
    o: Vec3,
    mut xh: Vec3,
    len: Real,
    fallback: Vec3,
    hit_radius: Real,
    lever: Real,
    v: &mut Vec3,
    v_parent: Vec3,
    pushed: &mut Real,
    mut after_hit: impl FnMut(Vec3, &mut Vec3) -> Vec3,
) -> Vec3 {
    let mut touched = false;
    let mut total = 0.0;
    let segment = mode == ContactMode::Segment;
    // Corrections below this are rounding: stop iterating on resting contact.
    let settled_sq = (len * 1e-5) * (len * 1e-5);
    // Beyond this the length projection's error is no longer negligible.
    let large_sq = (len * 0.05) * (len * 0.05);
    let inv_band = 1.0 / (ctx.scale * CONTACT_ONSET).max(Real::MIN_POSITIVE);
    for _ in 0..ctx.iterations {
        let mut moved = false;
        let mut hits = 0u32;
        let mut large = false;
        // Bounding ball of what is tested this pass.
        let (mid, ball) = if segment {
            ((o + xh) * 0.5, 0.5 * len + hit_radius)
        } else {
            (xh, hit_radius)
        };
        ctx.for_each_near(mid, ball, |c| {
            // Planes and inside shapes are worst at an end point and the root
            // is fixed, so only the free end matters for them.
            let hit = collider_hit(c, segment, o, xh, len, hit_radius, lever);
            let Some((correction, normal)) = hit else {
                return;
            };
            xh = project(o, xh + correction, len, fallback);
            xh = c.prep.rooted_end(o, xh, len, hit_radius, inv_band);
            let corr_sq = correction.length_squared();
            let corr = ops::sqrt(corr_sq);
            let vn = v.dot(normal);
            if vn < 0.0 {
                *v -= normal * (vn * onset(corr, inv_band));
            }
            xh = after_hit(xh, v);
            touched = true;
            hits += 1;
            total += corr;
            moved |= corr_sq > settled_sq;
            large |= corr_sq > large_sq;
        });
        // A single small correction is resolved in one pass up to the
        // second-order error of the length projection (and anything it
        // pushed into is caught next substep); competing contacts or large
        // corrections need another pass.
        if !moved || (hits < 2 && !large) {
            break;
        }
    }
    if touched && len > 0.0 {
        let d = (xh - o) * (1.0 / len);
        *v -= d * ((*v - v_parent).dot(d) * onset(total, inv_band));
    }
    *pushed = total;
    xh
}

/// Where joint `j`'s end goes this substep before length projection and
/// contact: the spring toward the target `o + s·rest` with gravity and
/// damping, and (`flat`: Improved mode) a flat lock's relaxation across its
/// width, then its bend hold as the walk `bend` carries it.
#[inline(always)]
pub(crate) fn predicted_end(
    j: &Joint,
    o: Vec3,
    rest: Vec3,
    s: Real,
    frame: &Pose,
    flat: bool,
    bend: &mut Bend,
) -> Vec3 {
    // f = k (r − x) + s g, u = e^(−c h) (v + h f), y = x + h u with the
    // target r = o + R: expanded as y = [x + c_v v + c_k (R − x) + s c_g]
    // + c_k o, the bracket needs nothing from the parent, so the chain's
    // critical path (parent end → this end) is two operations here
    // instead of eight.
    let rest_s = rest * s;
    let free = j.x + j.v * j.c_v + (rest_s - j.x) * j.c_k + j.c_g * s;
    let mut y = free + o * j.c_k;
    if flat && j.lateral_keep < 1.0 {
        let target = o + rest_s;
        // Flat lock: the bend across its width relaxes towards the arc.
        // Where a collider pushed the segment last substep, that bend is
        // left to the collider (holding it against the push kinks the
        // lock), fading out with the push's size so that the step stays
        // a continuous function of the state: a contact that rounding
        // turns on or off changes it by rounding only.
        let yield_to_contact = (1.0 - j.pushed * (1.0 / FLAT_CONTACT_FADE)).max(0.0);
        let w = rotate(frame.rot, j.lateral);
        y -= w * ((y - target).dot(w) * ((1.0 - j.lateral_keep) * yield_to_contact));
        // A joint that holds its bends is a flat lock: the same width axis.
        y = bend.hold(j, o, rest_s, j.len0 * s, w, y);
    }
    y
}

/// A flat lock's bend hold (`FlatLock::bend`), as the walk down a chain
/// carries it: the parent segment's sideways lean (its end's offset from
/// its rest end along its width axis, as a share of its length) and how far
/// colliders pushed it this substep. Each segment is pulled towards its
/// parent's lean, not towards its rest arc: a lock leaning as a whole is
/// left alone, a bend across its width straightens. Where a collider
/// pushed this segment or its parent, the hold lets go as the flat lock
/// does (`FLAT_CONTACT_FADE`, continuous in the push). Chains in a band
/// keep their cloth by the band instead (the hold took the skirt's crouch
/// from 30.5 % to 40.9 % stretch).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Bend {
    on: bool,
    /// The segment just walked holds its bends: the next one is held to
    /// its lean.
    parent: bool,
    lean: Real,
    pushed: Real,
    /// The width axis `hold` carried for the segment just walked.
    w: Vec3,
}

impl Bend {
    /// The hold for a walk down `chain` (Improved mode).
    #[inline(always)]
    pub(crate) fn for_chain(chain: &Chain) -> Self {
        Self {
            on: chain.holds && !chain.banded && chain.desc.mode == Mode::Improved,
            ..Self::default()
        }
    }

    /// `y`, the predicted end of joint `j`'s segment from `o` (rest vector
    /// `rest_s` and length `len`, scaled; `w` its width axis carried by the
    /// frame), with its bend towards the parent's lean relaxed.
    #[inline(always)]
    fn hold(&mut self, j: &Joint, o: Vec3, rest_s: Vec3, len: Real, w: Vec3, y: Vec3) -> Vec3 {
        if !self.on || j.bend_keep >= 1.0 {
            return y;
        }
        // Kept for `pass_on`, which reads this segment's lean along it.
        self.w = w;
        if !self.parent {
            return y;
        }
        let pushed = j.pushed.max(self.pushed);
        let share = (1.0 - pushed * (1.0 / FLAT_CONTACT_FADE)).max(0.0);
        let target = o + rest_s + w * (self.lean * len);
        y - w * ((y - target).dot(w) * ((1.0 - j.bend_keep) * share))
    }

    /// Takes in joint `j`'s segment `o → xh` (after contact; `j.pushed`
    /// already this substep's) as the parent of the next.
    #[inline(always)]
    pub(crate) fn pass_on(&mut self, j: &Joint, o: Vec3, xh: Vec3, rest_s: Vec3, len: Real) {
        if !self.on {
            return;
        }
        // Only a holding segment passes a lean on: below a round bone (no
        // width axis to lean along) the next flat one starts afresh, as a
        // chain's first does, rather than being held to the rest arc.
        self.parent = j.bend_keep < 1.0 && len > 0.0;
        if self.parent {
            self.lean = (xh - o - rest_s).dot(self.w) * (1.0 / len);
            self.pushed = j.pushed;
        }
    }
}

/// What the walk down a chain carries from one joint to the next.
struct Walk {
    /// The updated end of the segment above (the root for the first).
    o: Vec3,
    /// The same before this substep.
    o_prev: Vec3,
    drape: Drape,
    bend: Bend,
}

/// Drape over contact (`ChainDesc::drape`), as the walk down a chain
/// carries it: how far this segment aims along its parent's actual
/// direction turned by their rest angle (`bend_from` → `bend_to`: the
/// parent's carried rest direction → its actual direction) instead of along
/// the carried rest arc. Whole-segment contact pushes a segment out of a
/// collider the carried arc runs into; if its child kept aiming at the arc
/// it would be pushed out again on its own, and the lock would bend sharply
/// at single joints, which linear blend skinning turns into edge stretch.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Drape {
    share: Real,
    bend_from: Vec3,
    bend_to: Vec3,
}

/// The turn joint `i`'s child passes up to it: where a collider pushed the
/// child off its carried rest direction in the last substep, this segment
/// takes `DRAPE_UP` of that turn, so the bend at the top of a contact is
/// shared with the joint above. The child's `pushed` fades the share in.
#[inline(always)]
pub(crate) fn drape_up(
    joints: &[Joint],
    i: usize,
    frame: &Pose,
    s: Real,
) -> Option<(Vec3, Vec3, Real)> {
    match joints.get(i + 1) {
        Some(c) if c.pushed > 0.0 && c.len0 > 0.0 => {
            let w = (c.pushed * (1.0 / FLAT_CONTACT_FADE)).min(1.0) * DRAPE_UP;
            let from = rotate(frame.rot, c.rest_vec) * (1.0 / c.len0);
            let to = (c.x - joints[i].x) * (1.0 / (c.len0 * s).max(Real::MIN_POSITIVE));
            Some((from, to, w))
        }
        _ => None,
    }
}

impl Drape {
    /// Where a segment whose carried rest vector is `carried` aims: turned
    /// by the drape from above and by `up`, the share from below.
    #[inline(always)]
    pub(crate) fn aim(&self, carried: Vec3, up: Option<(Vec3, Vec3, Real)>) -> Vec3 {
        let mut rest = carried;
        if self.share > 0.0 {
            let (along, share) = turn_by_arc(self.bend_from, self.bend_to, rest);
            rest += (along - rest) * (self.share * share);
        }
        if let Some((from, to, w)) = up {
            let (along, share) = turn_by_arc(from, to, rest);
            rest += (along - rest) * (w * share);
        }
        rest
    }

    /// Takes in a segment `o → xh` (`len` long, carried rest vector
    /// `carried`) that colliders pushed by `pushed` (scaled by `s`) this
    /// substep. The drape fades in with the push's size, like the
    /// flat-lock release, so a contact that rounding toggles changes the
    /// step by rounding only; a draped segment passes its drape on whole:
    /// the rest of the lock keeps its shape below the contact.
    #[inline(always)]
    pub(crate) fn pass_on(
        &mut self,
        carried: Vec3,
        o: Vec3,
        xh: Vec3,
        len: Real,
        pushed: Real,
        s: Real,
    ) {
        if len > 0.0 {
            let contact = (pushed / (s * FLAT_CONTACT_FADE).max(Real::MIN_POSITIVE)).min(1.0);
            self.share = contact.max(self.share);
            self.bend_from = carried.normalize_or_zero();
            self.bend_to = (xh - o) * (1.0 / len);
        }
    }
}

/// One Improved or Earlier substep of a chain hanging from `frame`.
pub(crate) fn step_chain(chain: &mut Chain, joints: &mut [Joint], frame: &Pose, ctx: &StepCtx<'_>) {
    let s = ctx.scale;
    let earlier = chain.desc.mode == Mode::Earlier;
    let mut o = frame.transform_point(chain.desc.root_offset * s);
    let mut o_prev = chain.root_prev;
    chain.root_prev = o;
    let mut parent_w = frame.rot;
    let mut bend = Bend::for_chain(chain);
    for j in joints.iter_mut() {
        let len = j.len0 * s;
        let (rest, base) = if earlier {
            let base = quat::mul(parent_w, j.local_rot);
            (rotate(base, j.axis), base)
        } else {
            (rotate(frame.rot, j.rest_vec), parent_w)
        };
        let p = &j.params;
        let y = predicted_end(j, o, rest, s, frame, !earlier, &mut bend);
        let fallback = rest;
        let xh = project(o, y, len, fallback);
        let mut v = (xh - j.x) * INV_H;
        let mut pushed = 0.0;
        let xh = if ctx.candidates.is_empty() {
            xh
        } else {
            let v_parent = (o - o_prev) * INV_H;
            resolve_contacts(
                ctx,
                chain.desc.contact,
                o,
                xh,
                len,
                fallback,
                p.hit_radius * s,
                j.lever,
                &mut v,
                v_parent,
                &mut pushed,
            )
        };
        if j.lateral_keep < 1.0 {
            // Only flat locks read it.
            j.pushed = pushed / s.max(Real::MIN_POSITIVE);
        }
        bend.pass_on(j, o, xh, rest * s, len);
        o_prev = j.x;
        j.x = xh;
        j.v = v;
        if earlier {
            parent_w = super::output::segment_rotation(base, j.axis_unit, xh - o);
        }
        o = xh;
    }
}

/// [`step_chain`] with drape over contact (`ChainDesc::drape`, Improved
/// mode). A separate function so that the default step keeps its own code:
/// sharing one body (a const-generic switch) cost the plain step 7–16 % in
/// `spring-bench`, through inlining and layout, with the drape compiled out.
pub(crate) fn step_chain_draped(
    chain: &mut Chain,
    joints: &mut [Joint],
    frame: &Pose,
    ctx: &StepCtx<'_>,
) {
    let s = ctx.scale;
    let o = frame.transform_point(chain.desc.root_offset * s);
    let mut walk = Walk {
        o,
        o_prev: chain.root_prev,
        drape: Drape::default(),
        bend: Bend::for_chain(chain),
    };
    chain.root_prev = o;
    for i in 0..joints.len() {
        let up = drape_up(joints, i, frame, s);
        step_draped_joint(&mut joints[i], up, &mut walk, &chain.desc, frame, ctx);
    }
}

/// One segment of [`step_chain_draped`]: the Improved step of
/// [`step_chain`] with the target turned as the drape says; `up` is the
/// share the child passes up.
#[inline(always)]
fn step_draped_joint(
    j: &mut Joint,
    up: Option<(Vec3, Vec3, Real)>,
    walk: &mut Walk,
    desc: &super::chain::ChainDesc,
    frame: &Pose,
    ctx: &StepCtx<'_>,
) {
    let s = ctx.scale;
    let o = walk.o;
    let len = j.len0 * s;
    let carried = rotate(frame.rot, j.rest_vec);
    let rest = walk.drape.aim(carried, up);
    let y = predicted_end(j, o, rest, s, frame, true, &mut walk.bend);
    let xh = project(o, y, len, rest);
    let mut v = (xh - j.x) * INV_H;
    let mut pushed = 0.0;
    let xh = if ctx.candidates.is_empty() {
        xh
    } else {
        let v_parent = (o - walk.o_prev) * INV_H;
        let hit_radius = j.params.hit_radius * s;
        resolve_contacts(
            ctx,
            desc.contact,
            o,
            xh,
            len,
            rest,
            hit_radius,
            j.lever,
            &mut v,
            v_parent,
            &mut pushed,
        )
    };
    j.pushed = pushed / s.max(Real::MIN_POSITIVE);
    walk.bend.pass_on(j, o, xh, rest * s, len);
    walk.drape.pass_on(carried, o, xh, len, pushed, s);
    walk.o_prev = j.x;
    j.x = xh;
    j.v = v;
    walk.o = xh;
}

/// One substep of an authored chain: joints follow the animated pose carried
/// by the attachment, and velocity is kept from that motion so the solver
/// picks up without a jolt when the track ends.
pub(crate) fn step_authored(chain: &mut Chain, joints: &mut [Joint], frame: &Pose, scale: Real) {
    let mut o = frame.transform_point(chain.desc.root_offset * scale);
    chain.root_prev = o;
    for j in joints.iter_mut() {
        let x = o + rotate(frame.rot, rotate(j.anim_rot, j.axis)) * scale;
        j.v = (x - j.x) * INV_H;
        j.x = x;
        o = x;
    }
}

/// Places the chain on its rest (or authored) arc under `frame`, at rest.
pub(crate) fn rest_chain(chain: &mut Chain, joints: &mut [Joint], frame: &Pose, scale: Real) {
    let mut o = frame.transform_point(chain.desc.root_offset * scale);
    chain.root_prev = o;
    for j in joints.iter_mut() {
        let rot = if chain.authored {
            j.anim_rot
        } else {
            j.rest_rot
        };
        j.x = o + rotate(frame.rot, rotate(rot, j.axis)) * scale;
        j.v = Vec3::ZERO;
        j.child_prev = j.x;
        o = j.x;
    }
}
