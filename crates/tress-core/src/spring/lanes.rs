//! Up to four (or, with AVX2, eight) Improved or Earlier chains stepped
//! together, one per vector lane: [`step_group4`] (`Vec4`) and [`step_group8`] (`F8`,
//! built for AVX2 and AVX-512 with `simd::target_build!`).
//!
//! One chain is a chain of dependent operations from its root to its tip,
//! and its contact tests branch on every collider; stepping four chains side
//! by side does the same arithmetic four lanes at a time and turns the
//! per-collider branches into masks. Each lane performs exactly the
//! operations of [`super::step::step_chain`] in the same order (no fused
//! multiply-add, the same square roots and divisions), so the result is the
//! scalar kernel's bit for bit; the test `lanes_match_the_scalar_kernel_bit_for_bit`
//! holds them to it. Rare cases (a fast collider's swept test, planes and
//! inside shapes, degenerate geometry) are handed to the scalar queries lane
//! by lane.

use core::ops::{Add, Mul, Sub};

use super::chain::{Chain, Joint};
#[cfg(target_arch = "x86_64")]
use super::lane_math::F8;
use super::lane_math::Lanes;
use super::lanes_vrm::{Q, mul_lanes, rotate_q, segment_rotation_lanes};
use super::params::ContactMode;
use super::step::{CONTACT_ONSET, ColliderState, INV_H, collider_hit, project};
use crate::collide::prepared::{ROOT_BAND, ROOT_HELD};
use crate::math::{Pose, Quat, Real, Vec3, Vec4};
use crate::simd::{Isa, target_build};

/// Lanes per group of the four-lane kernel.
pub(crate) const LANES4: usize = 4;
/// Lanes per group of the eight-lane kernel.
pub(crate) const LANES8: usize = 8;

/// `W` 3-vectors, one per lane.
#[derive(Clone, Copy, Debug)]
pub(super) struct V3<S> {
    pub(super) x: S,
    pub(super) y: S,
    pub(super) z: S,
}

impl<S: Add<Output = S>> Add for V3<S> {
    type Output = Self;
    #[inline(always)]
    fn add(self, o: Self) -> Self {
        Self {
            x: self.x + o.x,
            y: self.y + o.y,
            z: self.z + o.z,
        }
    }
}

impl<S: Sub<Output = S>> Sub for V3<S> {
    type Output = Self;
    #[inline(always)]
    fn sub(self, o: Self) -> Self {
        Self {
            x: self.x - o.x,
            y: self.y - o.y,
            z: self.z - o.z,
        }
    }
}

impl<S: Mul<Output = S> + Copy> Mul<S> for V3<S> {
    type Output = Self;
    #[inline(always)]
    fn mul(self, k: S) -> Self {
        Self {
            x: self.x * k,
            y: self.y * k,
            z: self.z * k,
        }
    }
}

impl<S> V3<S> {
    #[inline(always)]
    pub(super) fn splat<const W: usize>(isa: S::Isa, v: Vec3) -> Self
    where
        S: Lanes<W>,
    {
        Self {
            x: S::splat(isa, v.x),
            y: S::splat(isa, v.y),
            z: S::splat(isa, v.z),
        }
    }

    /// Transposes `W` vectors into lanes.
    #[inline(always)]
    pub(super) fn from_lanes<const W: usize>(isa: S::Isa, v: &[Vec3; W]) -> Self
    where
        S: Lanes<W>,
    {
        let [x, y, z] = S::transpose_in(isa, v);
        Self { x, y, z }
    }

    /// The lanes as vectors.
    #[inline(always)]
    pub(super) fn to_lanes<const W: usize>(self) -> [Vec3; W]
    where
        S: Lanes<W>,
    {
        S::transpose_out(self.x, self.y, self.z)
    }

    #[inline(always)]
    pub(super) fn lane<const W: usize>(&self, i: usize) -> Vec3
    where
        S: Lanes<W>,
    {
        Vec3::new(self.x.lane(i), self.y.lane(i), self.z.lane(i))
    }

    #[inline(always)]
    pub(super) fn set_lane<const W: usize>(&mut self, i: usize, v: Vec3)
    where
        S: Lanes<W>,
    {
        self.x.set_lane(i, v.x);
        self.y.set_lane(i, v.y);
        self.z.set_lane(i, v.z);
    }

    /// `(x x' + y y') + z z'`, glam's `Vec3::dot` order.
    #[inline(always)]
    pub(super) fn dot<const W: usize>(self, o: Self) -> S
    where
        S: Lanes<W>,
    {
        self.x * o.x + self.y * o.y + self.z * o.z
    }

    #[inline(always)]
    pub(super) fn select<const W: usize>(m: S::Mask, a: Self, b: Self) -> Self
    where
        S: Lanes<W>,
    {
        Self {
            x: S::select(m, a.x, b.x),
            y: S::select(m, a.y, b.y),
            z: S::select(m, a.z, b.z),
        }
    }
}

/// `f32::clamp(x, 0, 1)` per lane, with its exact results (a NaN stays NaN,
/// −0 stays −0), which `min`/`max` instructions do not all keep.
#[inline(always)]
pub(super) fn clamp01<const W: usize, S: Lanes<W>>(isa: S::Isa, x: S) -> S {
    let x = S::select(x.cmplt(S::splat(isa, 0.0)), S::splat(isa, 0.0), x);
    S::select(x.cmpgt(S::splat(isa, 1.0)), S::splat(isa, 1.0), x)
}

/// [`onset`](super::step::onset) per lane: `f32::min(x, 1)` keeps 1 for a NaN `x`, as here.
#[inline(always)]
fn onset_lanes<const W: usize, S: Lanes<W>>(isa: S::Isa, depth: S, inv_band: S) -> S {
    let x = depth * inv_band;
    S::select(x.cmplt(S::splat(isa, 1.0)), x, S::splat(isa, 1.0))
}

/// Lanes of `W` set in a bit set.
#[inline(always)]
pub(super) fn all_lanes<const W: usize>() -> u32 {
    (1u32 << W) - 1
}

/// [`project`] per lane.
#[inline(always)]
pub(super) fn project_lanes<const W: usize, S: Lanes<W>>(
    isa: S::Isa,
    o: V3<S>,
    y: V3<S>,
    len: S,
    fallback: V3<S>,
) -> V3<S> {
    let d = y - o;
    let l2 = d.dot(d);
    let ok = l2.cmpgt(S::splat(isa, Real::MIN_POSITIVE)) & l2.cmplt(S::splat(isa, Real::INFINITY));
    let mut out = o + d * (len / l2.sqrt());
    let bad = !S::bits(ok) & all_lanes::<W>();
    if bad != 0 {
        for i in 0..W {
            if bad >> i & 1 == 1 {
                out.set_lane(
                    i,
                    project(o.lane(i), y.lane(i), len.lane(i), fallback.lane(i)),
                );
            }
        }
    }
    out
}

/// A unit quaternion's terms for [`rotate_lanes`], splat once per substep.
pub(super) struct Rotor<S> {
    b: V3<S>,
    k_v: S,
    k_c: S,
}

impl<S> Rotor<S> {
    #[inline(always)]
    pub(super) fn new<const W: usize>(isa: S::Isa, q: Quat) -> Self
    where
        S: Lanes<W>,
    {
        let b = Vec3::new(q.x, q.y, q.z);
        let b2 = b.x * b.x + b.y * b.y + b.z * b.z;
        Self {
            b: V3::splat(isa, b),
            k_v: S::splat(isa, q.w * q.w - b2),
            k_c: S::splat(isa, q.w * 2.0),
        }
    }
}

/// [`crate::math::quat::rotate`] per lane, operation for operation.
#[inline(always)]
pub(super) fn rotate_lanes<const W: usize, S: Lanes<W>>(
    isa: S::Isa,
    r: &Rotor<S>,
    v: V3<S>,
) -> V3<S> {
    let b = r.b;
    let k_b = v.dot(b) * S::splat(isa, 2.0);
    let c = V3 {
        x: b.y * v.z - v.y * b.z,
        y: b.z * v.x - v.z * b.x,
        z: b.x * v.y - v.x * b.y,
    };
    v * r.k_v + b * k_b + c * r.k_c
}

/// One collider's answer for the lanes: displacement of the free end, push
/// direction, and which lanes it hits.
struct Hits<S> {
    correction: V3<S>,
    normal: V3<S>,
    hit: u32,
}

impl<S> Hits<S> {
    #[inline(always)]
    fn none<const W: usize>(isa: S::Isa) -> Self
    where
        S: Lanes<W>,
    {
        Self {
            correction: V3::splat(isa, Vec3::ZERO),
            normal: V3::splat(isa, Vec3::ZERO),
            hit: 0,
        }
    }
}

/// What the lanes of one joint row share with the contact passes.
struct Row<S> {
    o: V3<S>,
    len: S,
    hit_radius: S,
    /// Each lane's `Joint::lever`.
    lever: S,
    fallback: V3<S>,
}

/// A collider's axis terms splat to the lanes, and each lane's reach.
struct Shape<S> {
    a: V3<S>,
    axis: V3<S>,
    axis_sq: Real,
    inv_axis_sq: S,
    reach: S,
}

impl<S> Shape<S> {
    #[inline(always)]
    fn new<const W: usize>(isa: S::Isa, c: &ColliderState, row: &Row<S>) -> Self
    where
        S: Lanes<W>,
    {
        let p = &c.prep;
        Self {
            a: V3::splat(isa, p.shape.a),
            axis: V3::splat(isa, p.axis()),
            axis_sq: p.axis_sq(),
            inv_axis_sq: S::splat(isa, p.inv_axis_sq()),
            reach: S::splat(isa, p.shape.radius) + row.hit_radius,
        }
    }
}

/// Offset of `rel` (relative to the axis head) from the nearest point of
/// the axis. A function, not a closure: closures are not always inlined,
/// and one compiled on its own lacks the kernel's target features.
#[inline(always)]
fn off_axis<const W: usize, S: Lanes<W>>(
    isa: S::Isa,
    axis: V3<S>,
    inv_axis_sq: S,
    rel: V3<S>,
) -> V3<S> {
    let t = clamp01(isa, axis.dot(rel) * inv_axis_sq);
    rel - axis * t
}

/// [`crate::collide::PreparedRound::segment_hit`] per lane for the lanes in
/// `want`; `odd` collects lanes the scalar query must answer.
#[inline(always)]
fn segment_hits<const W: usize, S: Lanes<W>>(
    isa: S::Isa,
    c: &ColliderState,
    row: &Row<S>,
    xh: V3<S>,
    want: u32,
    odd: &mut u32,
) -> Hits<S> {
    let Shape {
        a,
        axis,
        axis_sq,
        inv_axis_sq,
        reach,
    } = Shape::new(isa, c, row);
    let half = S::splat(isa, 0.5);
    let zero = S::splat(isa, 0.0);
    let one = S::splat(isa, 1.0);
    let rel0 = row.o - a;
    let d1 = xh - row.o;
    let mid = off_axis(isa, axis, inv_axis_sq, rel0 + d1 * half);
    let far = reach + half * row.len;
    let mut live = want & !S::bits(mid.dot(mid).cmpgt(far * far));
    // Most near pairs end here; the rest of the query is not cheap.
    if live == 0 {
        return Hits::none(isa);
    }
    let a2 = d1.dot(d1);
    let degenerate = S::bits(a2.cmple(S::splat(isa, DEGENERATE_SQ))) & live;
    *odd |= degenerate;
    live &= !degenerate;
    let f = axis.dot(rel0);
    let cc = d1.dot(rel0);
    let inv_a = one / a2;
    let (s, t) = if axis_sq <= DEGENERATE_SQ {
        (clamp01(isa, -cc * inv_a), zero)
    } else {
        let b = d1.dot(axis);
        let e = S::splat(isa, axis_sq);
        let denom = a2 * e - b * b;
        let s = S::select(
            denom.cmpgt(S::splat(isa, DEGENERATE_SQ) * a2 * e),
            clamp01(isa, (b * f - cc * e) / denom),
            zero,
        );
        let t = (b * s + f) * inv_axis_sq;
        let below = t.cmplt(zero);
        let above = t.cmpgt(one);
        let s = S::select(
            below,
            clamp01(isa, -cc * inv_a),
            S::select(above, clamp01(isa, (b - cc) * inv_a), s),
        );
        let t = S::select(below, zero, S::select(above, one, t));
        (s, t)
    };
    let d = rel0 + d1 * s - axis * t;
    let Some((live, dist, n)) = touch(isa, d, reach, live, odd) else {
        return Hits::none(isa);
    };
    let depth = reach - dist;
    let r0 = off_axis(isa, axis, inv_axis_sq, rel0);
    let root = r0.dot(r0);
    let outside = root.cmpge(reach * reach);
    let root_depth = reach - root.sqrt();
    let own = S::select(outside, depth, depth - root_depth);
    let seg_hit = live & S::bits(own.cmpgt(zero));
    let correction = n * (own / s.max(row.lever));
    // `with_tail` for the lanes whose root is inside: `seg` is zero where
    // the segment adds no depth, as in the scalar query.
    let inside = live & !S::bits(outside);
    let wr = root_depth / (S::splat(isa, ROOT_BAND) * reach);
    let w = S::select(wr.cmpgt(one), one, wr);
    let tailed = inside & S::bits(w.cmpgt(zero));
    if tailed == 0 {
        return Hits {
            correction,
            normal: n,
            hit: seg_hit,
        };
    }
    let seg = V3::select(
        S::mask_of(isa, seg_hit),
        correction,
        V3::splat(isa, Vec3::ZERO),
    );
    let q = off_axis(isa, axis, inv_axis_sq, (xh + seg) - a);
    let mut tail_odd = 0u32;
    let Some((tail, qd, nt)) = touch(isa, q, reach, tailed, &mut tail_odd) else {
        // No lane's free end is inside; those on the axis ask the scalar query.
        *odd |= tail_odd;
        return Hits {
            correction,
            normal: n,
            hit: seg_hit & !tail_odd,
        };
    };
    let c = seg + (nt * (reach - qd)) * w;
    let l2 = c.dot(c);
    // A sum too short to have a direction: the scalar query decides.
    tail_odd |= tail & !S::bits(l2.cmpgt(S::splat(isa, TINY * TINY)));
    *odd |= tail_odd;
    let tail = tail & !tail_odd;
    let m = S::mask_of(isa, tail);
    Hits {
        correction: V3::select(m, c, correction),
        normal: V3::select(m, c * (one / l2.sqrt()), n),
        hit: (seg_hit | tail) & !tail_odd,
    }
}

/// Of the lanes in `live`, those whose offset `d` from the axis is shorter
/// than `reach`, with its length and direction; lanes too close to the
/// axis to have a direction go to `odd` (the scalar query's fallback).
/// `None` when no lane touches.
#[inline(always)]
fn touch<const W: usize, S: Lanes<W>>(
    isa: S::Isa,
    d: V3<S>,
    reach: S,
    live: u32,
    odd: &mut u32,
) -> Option<(u32, S, V3<S>)> {
    let dist_sq = d.dot(d);
    let live = live & S::bits(dist_sq.cmplt(reach * reach));
    if live == 0 {
        return None;
    }
    let dist = dist_sq.sqrt();
    let on_axis = S::bits(dist.cmple(S::splat(isa, TINY))) & live;
    *odd |= on_axis;
    Some((live & !on_axis, dist, d * (S::splat(isa, 1.0) / dist)))
}

/// [`crate::collide::PreparedRound::point_hit`] per lane.
#[inline(always)]
fn point_hits<const W: usize, S: Lanes<W>>(
    isa: S::Isa,
    c: &ColliderState,
    row: &Row<S>,
    xh: V3<S>,
    want: u32,
    odd: &mut u32,
) -> Hits<S> {
    let Shape {
        a,
        axis,
        inv_axis_sq,
        reach,
        ..
    } = Shape::new(isa, c, row);
    let d = off_axis(isa, axis, inv_axis_sq, xh - a);
    let Some((live, dist, n)) = touch(isa, d, reach, want, odd) else {
        return Hits::none(isa);
    };
    Hits {
        correction: n * (reach - dist),
        normal: n,
        hit: live,
    }
}

/// Squared lengths below this count as zero (as in `collide::prepared`).
pub(super) const DEGENERATE_SQ: Real = 1e-12;
/// Distances below this are treated as zero when normalising.
pub(super) const TINY: Real = 1e-9;

/// One chain in a lane group.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Lane {
    /// Index of the chain in the world.
    pub chain: usize,
    /// Colliders it may touch this substep (the scalar kernel's candidates).
    pub colliders: u64,
}

/// What the group's contact passes read.
pub(crate) struct LaneCtx<'a> {
    /// The instruction set the world detected when it was made.
    pub isa: Isa,
    pub scale: Real,
    pub iterations: u32,
    pub contact: ContactMode,
    /// The group's chains are in the Earlier mode: each joint's rest
    /// direction hangs from its parent's simulated rotation.
    pub earlier: bool,
    pub colliders: &'a [ColliderState],
}

/// The group width to use with `isa`: [`LANES8`] where the eight-lane
/// builds run, else [`LANES4`].
pub(crate) fn preferred_width(isa: Isa) -> usize {
    if isa.avx2().is_some() { LANES8 } else { LANES4 }
}

/// One substep of the chains `lanes` (1 to [`LANES4`], Improved without
/// drape or Earlier, none with flat locks, the same frame, mode and contact
/// mode, longest first) hanging from `frame`, four lanes wide (`Vec4`, the build's baseline).
#[inline(never)]
pub(crate) fn step_group4(
    chains: &mut [Chain],
    joints: &mut [Joint],
    lanes: &[Lane],
    frame: &Pose,
    ctx: &LaneCtx<'_>,
) {
    step_group_on::<LANES4, Vec4>((), chains, joints, lanes, frame, ctx);
}

/// [`step_group4`] for 1 to [`LANES8`] chains, eight lanes wide (`F8`)
/// where `ctx.isa` has AVX2; elsewhere as two four-lane groups. The same
/// bits either way.
pub(crate) fn step_group8(
    chains: &mut [Chain],
    joints: &mut [Joint],
    lanes: &[Lane],
    frame: &Pose,
    ctx: &LaneCtx<'_>,
) {
    match ctx.isa {
        // The eight-lane kernel: 6.1 → 5.45 µs per frame in `spring-bench`;
        // AVX-512's 32 registers save another 2 % over the AVX2 build
        // (docs/PERFORMANCE.md, "Fifth pass").
        Isa::Avx512(t) => step_group8_avx512(t, chains, joints, lanes, frame, ctx),
        Isa::Avx2(t) => step_group8_avx2(t, chains, joints, lanes, frame, ctx),
        Isa::Portable => {
            let (a, b) = lanes.split_at(lanes.len().min(LANES4));
            step_group4(chains, joints, a, frame, ctx);
            if !b.is_empty() {
                step_group4(chains, joints, b, frame, ctx);
            }
        }
    }
}

target_build! {
    /// The eight-lane kernel for AVX-512 CPUs (32 vector registers).
    fn step_group8_avx512(
        token: Avx512,
        chains: &mut [Chain],
        joints: &mut [Joint],
        lanes: &[Lane],
        frame: &Pose,
        ctx: &LaneCtx<'_>,
    ) {
        step_group_on::<LANES8, F8>(token.avx2(), chains, joints, lanes, frame, ctx);
    }
}

target_build! {
    /// The eight-lane kernel for AVX2 CPUs.
    fn step_group8_avx2(
        token: Avx2,
        chains: &mut [Chain],
        joints: &mut [Joint],
        lanes: &[Lane],
        frame: &Pose,
        ctx: &LaneCtx<'_>,
    ) {
        step_group_on::<LANES8, F8>(token, chains, joints, lanes, frame, ctx);
    }
}

/// The lane kernel at width `W`, compiled once per mode: a run-time test
/// of the mode in every joint row cost the Improved mode 3 % in
/// `spring-bench --tress-only`.
#[inline(always)]
fn step_group_on<const W: usize, S: Lanes<W>>(
    isa: S::Isa,
    chains: &mut [Chain],
    joints: &mut [Joint],
    lanes: &[Lane],
    frame: &Pose,
    ctx: &LaneCtx<'_>,
) {
    if ctx.earlier {
        step_group_mode::<W, S, true>(isa, chains, joints, lanes, frame, ctx);
    } else {
        step_group_mode::<W, S, false>(isa, chains, joints, lanes, frame, ctx);
    }
}

/// [`step_group_on`] for the Earlier mode (`EARLIER`) or the Improved one.
#[inline(always)]
fn step_group_mode<const W: usize, S: Lanes<W>, const EARLIER: bool>(
    isa: S::Isa,
    chains: &mut [Chain],
    joints: &mut [Joint],
    lanes: &[Lane],
    frame: &Pose,
    ctx: &LaneCtx<'_>,
) {
    let n = lanes.len();
    debug_assert!((1..=W).contains(&n));
    let s = ctx.scale;
    let sv = S::splat(isa, s);
    // Padding lanes repeat lane 0 (the longest chain) and are never stored.
    let pick = |i: usize| lanes[if i < n { i } else { 0 }];
    let mut o = [Vec3::ZERO; W];
    let mut o_prev = [Vec3::ZERO; W];
    let mut start = [0usize; W];
    let mut len = [0usize; W];
    let mut allowed = [0u64; W];
    for i in 0..W {
        let c = &chains[pick(i).chain];
        o[i] = frame.transform_point(c.desc.root_offset * s);
        o_prev[i] = c.root_prev;
        start[i] = c.start;
        len[i] = c.len;
        allowed[i] = pick(i).colliders;
    }
    for l in lanes {
        let c = &mut chains[l.chain];
        c.root_prev = frame.transform_point(c.desc.root_offset * s);
    }
    let any_collider = allowed.iter().fold(0, |m, a| m | a);
    // Per collider, the lanes that may touch it.
    let mut lanes_of = [0u8; 64];
    let mut rest = any_collider;
    while rest != 0 {
        let ci = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        lanes_of[ci] = (0..W).fold(0u8, |m, i| m | ((allowed[i] >> ci & 1) as u8) << i);
    }
    let mut o = V3::<S>::from_lanes(isa, &o);
    let mut o_prev = V3::<S>::from_lanes(isa, &o_prev);
    let rot = Rotor::<S>::new(isa, frame.rot);
    let mut parent_w = Q::<S>::splat(isa, frame.rot);
    let rows = len[0];
    for k in 0..rows {
        // Lanes whose chain has a joint `k` (padding and ended chains
        // compute on lane 0's joint and are not stored).
        let stored = (0..n).filter(|&i| len[i] > k).fold(0u32, |m, i| m | 1 << i);
        let at = |i: usize| {
            if stored >> i & 1 == 1 {
                start[i] + k
            } else {
                start[0] + k
            }
        };
        let js: [&Joint; W] = core::array::from_fn(|i| &joints[at(i)]);
        let x = V3::<S>::from_lanes(isa, &core::array::from_fn(|i| js[i].x));
        let v0 = V3::<S>::from_lanes(isa, &core::array::from_fn(|i| js[i].v));
        // `step_chain`'s two modes: Improved carries the rest direction
        // rigidly with the frame, Earlier turns the bone's axis by its
        // parent's simulated rotation.
        let (rest, base) = if EARLIER {
            let local = Q::from_lanes(isa, &core::array::from_fn(|i| js[i].local_rot));
            let base = mul_lanes(parent_w, local);
            let axis = V3::<S>::from_lanes(isa, &core::array::from_fn(|i| js[i].axis));
            (rotate_q(isa, &base, axis), base)
        } else {
            let rest_vec = V3::<S>::from_lanes(isa, &core::array::from_fn(|i| js[i].rest_vec));
            (rotate_lanes(isa, &rot, rest_vec), parent_w)
        };
        let c_v = S::from_array(isa, core::array::from_fn(|i| js[i].c_v));
        let c_k = S::from_array(isa, core::array::from_fn(|i| js[i].c_k));
        let c_g = V3::<S>::from_lanes(isa, &core::array::from_fn(|i| js[i].c_g));
        let seg_len = S::from_array(isa, core::array::from_fn(|i| js[i].len0)) * sv;
        let hit_radius = S::from_array(isa, core::array::from_fn(|i| js[i].params.hit_radius)) * sv;
        // `predicted_end` without the flat-lock term, operation for operation.
        let rest_s = rest * sv;
        let free = x + v0 * c_v + (rest_s - x) * c_k + c_g * sv;
        let y = free + o * c_k;
        let xh = project_lanes(isa, o, y, seg_len, rest);
        let mut v = (xh - x) * S::splat(isa, INV_H);
        let xh = if any_collider == 0 {
            xh
        } else {
            let v_parent = (o - o_prev) * S::splat(isa, INV_H);
            let row = Row {
                o,
                len: seg_len,
                hit_radius,
                lever: S::from_array(isa, core::array::from_fn(|i| js[i].lever)),
                fallback: rest,
            };
            resolve(
                isa,
                ctx,
                &row,
                any_collider,
                &lanes_of,
                stored,
                xh,
                &mut v,
                v_parent,
            )
        };
        if EARLIER {
            let axis_unit = V3::<S>::from_lanes(isa, &core::array::from_fn(|i| js[i].axis_unit));
            parent_w = segment_rotation_lanes(isa, base, axis_unit, xh - o, stored);
        }
        let (xs, vs) = (xh.to_lanes(), v.to_lanes());
        for i in 0..n {
            if stored >> i & 1 == 1 {
                let j = &mut joints[start[i] + k];
                j.x = xs[i];
                j.v = vs[i];
            }
        }
        o_prev = x;
        o = xh;
    }
}

/// The reach `rooted_end` keeps the end at (`target`) and the one a root
/// must be inside to be held (`held_at`), per lane.
#[inline(always)]
fn rooted_reach<const W: usize, S: Lanes<W>>(
    isa: S::Isa,
    c: &ColliderState,
    row: &Row<S>,
) -> (S, S) {
    let p = &c.prep;
    let radius = S::splat(isa, p.shape.radius);
    let (target, held_at) = if p.shape.kind.is_inside() {
        let target = radius - row.hit_radius;
        (target, target + target * S::splat(isa, ROOT_HELD))
    } else {
        let target = radius + row.hit_radius;
        (target, target - target * S::splat(isa, ROOT_HELD))
    };
    (target, held_at)
}

/// The root's squared distance from the collider's axis, per lane.
#[inline(always)]
fn root_off_axis_sq<const W: usize, S: Lanes<W>>(
    isa: S::Isa,
    c: &ColliderState,
    row: &Row<S>,
) -> S {
    let p = &c.prep;
    let a = V3::splat(isa, p.shape.a);
    let ro = off_axis(
        isa,
        V3::splat(isa, p.axis()),
        S::splat(isa, p.inv_axis_sq()),
        row.o - a,
    );
    ro.dot(ro)
}

/// Lanes whose root `c` holds, as `PreparedRound::rooted_end` decides it
/// (roots do not move while a row's contacts resolve, so once per row).
#[inline(always)]
fn rooted_lanes<const W: usize, S: Lanes<W>>(isa: S::Isa, c: &ColliderState, row: &Row<S>) -> u32 {
    let p = &c.prep;
    let inside = p.shape.kind.is_inside();
    if !p.is_round() && !inside {
        return 0;
    }
    let zero = S::splat(isa, 0.0);
    let (target, held_at) = rooted_reach(isa, c, row);
    let ro_sq = root_off_axis_sq(isa, c, row);
    let held = if inside {
        ro_sq.cmpgt(held_at * held_at)
    } else {
        ro_sq.cmplt(held_at * held_at)
    };
    S::bits(held & target.cmpgt(zero) & row.len.cmpgt(zero))
}

/// [`crate::collide::PreparedRound::rooted_end`] per lane, operation for
/// operation, for the lanes in `held` ([`rooted_lanes`]), with the scalar
/// early returns as a lane mask.
#[inline(always)]
fn rooted_end_lanes<const W: usize, S: Lanes<W>>(
    isa: S::Isa,
    c: &ColliderState,
    row: &Row<S>,
    x: V3<S>,
    inv_band: S,
    held: u32,
) -> V3<S> {
    let p = &c.prep;
    let inside = p.shape.kind.is_inside();
    let zero = S::splat(isa, 0.0);
    let one = S::splat(isa, 1.0);
    let (target, held_at) = rooted_reach(isa, c, row);
    let target_sq = target * target;
    let a = V3::splat(isa, p.shape.a);
    let xo = off_axis(
        isa,
        V3::splat(isa, p.axis()),
        S::splat(isa, p.inv_axis_sq()),
        x - a,
    );
    let dx_sq = xo.dot(xo);
    let wrong_side = if inside {
        dx_sq.cmpgt(target_sq)
    } else {
        dx_sq.cmplt(target_sq)
    };
    let ok = S::mask_of(isa, held) & wrong_side;
    if S::bits(ok) == 0 {
        return x;
    }
    let dist_o = root_off_axis_sq(isa, c, row).sqrt();
    let depth = if inside {
        dist_o - held_at
    } else {
        held_at - dist_o
    };
    let w = onset_lanes(isa, depth, inv_band).max(zero);
    let u = row.o - (x - xo);
    let d_sq = u.dot(u);
    let d = d_sq.sqrt();
    let uh = u * (one / d);
    let e = (x - row.o) * (one / row.len);
    let along = e.dot(uh);
    let perp = e - uh * along;
    let p_sq = perp.dot(perp);
    let tiny = S::splat(isa, TINY);
    let ok = ok & d.cmpgt(tiny) & p_sq.cmpgt(tiny * tiny);
    if S::bits(ok) == 0 {
        return x;
    }
    let side = perp * (one / p_sq.sqrt());
    let k = (target_sq - d_sq - row.len * row.len) / (S::splat(isa, 2.0) * row.len * d);
    let k = S::select(k.cmplt(S::splat(isa, -1.0)), S::splat(isa, -1.0), k);
    let kappa = S::select(k.cmpgt(one), one, k);
    let kappa = along + (kappa - along) * w;
    let across = (one - kappa * kappa).max(zero).sqrt();
    let placed = row.o + (uh * kappa + side * across) * row.len;
    V3::select(ok, placed, x)
}

/// `resolve_contacts` for the lanes of one joint row.
#[inline(always)]
#[allow(clippy::too_many_arguments)] // hot path: plain values beat a struct here
fn resolve<const W: usize, S: Lanes<W>>(
    isa: S::Isa,
    ctx: &LaneCtx<'_>,
    row: &Row<S>,
    union: u64,
    lanes_of: &[u8; 64],
    stored: u32,
    mut xh: V3<S>,
    v: &mut V3<S>,
    v_parent: V3<S>,
) -> V3<S> {
    let segment = ctx.contact == ContactMode::Segment;
    let half = S::splat(isa, 0.5);
    let settled_sq = (row.len * S::splat(isa, 1e-5)) * (row.len * S::splat(isa, 1e-5));
    let large_sq = (row.len * S::splat(isa, 0.05)) * (row.len * S::splat(isa, 0.05));
    let inv_band = S::splat(
        isa,
        1.0 / (ctx.scale * CONTACT_ONSET).max(Real::MIN_POSITIVE),
    );
    let mut total = S::splat(isa, 0.0);
    let mut touched = 0u32;
    let mut active = stored;
    let mut held_known = 0u64;
    let mut held_of = [0u32; 64];
    for _ in 0..ctx.iterations {
        let mut moved = 0u32;
        let mut large = 0u32;
        let mut hits = [0u32; W];
        let (mid, ball) = if segment {
            ((row.o + xh) * half, half * row.len + row.hit_radius)
        } else {
            (xh, row.hit_radius)
        };
        // Broad phase for every candidate first, without branches: which
        // lanes each collider may touch this pass.
        let mut want_of = [0u8; 64];
        let mut wanted = 0u64;
        let mut rest = union;
        while rest != 0 {
            let ci = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let c = &ctx.colliders[ci];
            // `ColliderState::near` per lane.
            let reach = S::splat(isa, c.bound) + ball;
            let d = mid - V3::splat(isa, c.center);
            let near = d.dot(d).cmple(reach * reach) | reach.cmpeq(S::splat(isa, Real::INFINITY));
            let want = S::bits(near) & u32::from(lanes_of[ci]) & active;
            want_of[ci] = want as u8;
            wanted |= u64::from(want != 0) << ci;
        }
        while wanted != 0 {
            let ci = wanted.trailing_zeros() as usize;
            wanted &= wanted - 1;
            let c = &ctx.colliders[ci];
            let want = u32::from(want_of[ci]);
            let round = c.prep.is_round();
            // Lanes the scalar query answers: fast colliders (swept test),
            // other shapes, degenerate geometry.
            let mut odd = if round {
                S::bits(
                    S::splat(isa, c.moved)
                        .cmpgt(half * (S::splat(isa, c.cur().radius) + row.hit_radius)),
                ) & want
            } else {
                want
            };
            let regular = want & !odd;
            let mut h = if regular == 0 {
                Hits::none(isa)
            } else if segment && round {
                segment_hits(isa, c, row, xh, regular, &mut odd)
            } else {
                point_hits(isa, c, row, xh, regular, &mut odd)
            };
            if odd != 0 {
                for i in 0..W {
                    if odd >> i & 1 == 0 {
                        continue;
                    }
                    let (o, p) = (row.o.lane(i), xh.lane(i));
                    let (len, r) = (row.len.lane(i), row.hit_radius.lane(i));
                    let one = collider_hit(c, segment, o, p, len, r, row.lever.lane(i));
                    if let Some((corr, n)) = one {
                        h.correction.set_lane(i, corr);
                        h.normal.set_lane(i, n);
                        h.hit |= 1 << i;
                    }
                }
            }
            if h.hit == 0 {
                continue;
            }
            let m = S::mask_of(isa, h.hit);
            let pushed = project_lanes(isa, row.o, xh + h.correction, row.len, row.fallback);
            // Roots held by this collider, asked once per row and collider.
            if held_known >> ci & 1 == 0 {
                held_known |= 1 << ci;
                held_of[ci] = rooted_lanes(isa, c, row);
            }
            let held = held_of[ci] & h.hit;
            let pushed = if held == 0 {
                pushed
            } else {
                rooted_end_lanes(isa, c, row, pushed, inv_band, held)
            };
            xh = V3::select(m, pushed, xh);
            let corr_sq = h.correction.dot(h.correction);
            let corr = corr_sq.sqrt();
            let vn = v.dot(h.normal);
            let slide = *v - h.normal * (vn * onset_lanes(isa, corr, inv_band));
            *v = V3::select(m & vn.cmplt(S::splat(isa, 0.0)), slide, *v);
            touched |= h.hit;
            total = S::select(m, total + corr, total);
            for (i, n) in hits.iter_mut().enumerate() {
                *n += h.hit >> i & 1;
            }
            moved |= S::bits(corr_sq.cmpgt(settled_sq)) & h.hit;
            large |= S::bits(corr_sq.cmpgt(large_sq)) & h.hit;
        }
        // As the scalar kernel: a lane stops after a pass without a real
        // correction, or with one small correction.
        let single = (0..W).fold(0u32, |m, i| m | u32::from(hits[i] < 2) << i);
        active &= moved & !(single & !large);
        if active == 0 {
            break;
        }
    }
    let t = S::bits(row.len.cmpgt(S::splat(isa, 0.0))) & touched;
    if t != 0 {
        let d = (xh - row.o) * (S::splat(isa, 1.0) / row.len);
        let rel = *v - v_parent;
        let radial = *v - d * (rel.dot(d) * onset_lanes(isa, total, inv_band));
        *v = V3::select(S::mask_of(isa, t), radial, *v);
    }
    xh
}
