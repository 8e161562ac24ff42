//! Up to four Improved chains stepped together, one per vector lane.
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
use super::params::ContactMode;
use super::pose::Pose;
use super::step::{ColliderState, INV_H, collider_hit, project};
use crate::collide::contact::MIN_LEVER;
use crate::math::{Mat4, Quat, Real, Vec3, Vec4, ops};
use glam::BVec4A;

/// Lanes per group.
pub(crate) const WIDTH: usize = 4;

/// Four 3-vectors, one per lane.
#[derive(Clone, Copy, Debug)]
struct V3 {
    x: Vec4,
    y: Vec4,
    z: Vec4,
}

impl Add for V3 {
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

impl Sub for V3 {
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

impl Mul<Vec4> for V3 {
    type Output = Self;
    #[inline(always)]
    fn mul(self, k: Vec4) -> Self {
        Self {
            x: self.x * k,
            y: self.y * k,
            z: self.z * k,
        }
    }
}

impl V3 {
    #[inline(always)]
    fn splat(v: Vec3) -> Self {
        Self {
            x: Vec4::splat(v.x),
            y: Vec4::splat(v.y),
            z: Vec4::splat(v.z),
        }
    }

    /// Transposes four vectors into lanes (one 4×4 shuffle transpose
    /// instead of twelve scalar inserts).
    #[inline(always)]
    fn from_lanes(v: &[Vec3; WIDTH]) -> Self {
        let m = Mat4::from_cols(
            v[0].extend(0.0),
            v[1].extend(0.0),
            v[2].extend(0.0),
            v[3].extend(0.0),
        )
        .transpose();
        Self {
            x: m.x_axis,
            y: m.y_axis,
            z: m.z_axis,
        }
    }

    /// The four lanes as vectors.
    #[inline(always)]
    fn to_lanes(self) -> [Vec3; WIDTH] {
        let m = Mat4::from_cols(self.x, self.y, self.z, Vec4::ZERO).transpose();
        [
            m.x_axis.truncate(),
            m.y_axis.truncate(),
            m.z_axis.truncate(),
            m.w_axis.truncate(),
        ]
    }

    #[inline(always)]
    fn lane(&self, i: usize) -> Vec3 {
        Vec3::new(self.x[i], self.y[i], self.z[i])
    }

    #[inline(always)]
    fn set_lane(&mut self, i: usize, v: Vec3) {
        self.x[i] = v.x;
        self.y[i] = v.y;
        self.z[i] = v.z;
    }

    /// `(x x' + y y') + z z'`, glam's `Vec3::dot` order.
    #[inline(always)]
    fn dot(self, o: Self) -> Vec4 {
        self.x * o.x + self.y * o.y + self.z * o.z
    }

    #[inline(always)]
    fn select(m: BVec4A, a: Self, b: Self) -> Self {
        Self {
            x: Vec4::select(m, a.x, b.x),
            y: Vec4::select(m, a.y, b.y),
            z: Vec4::select(m, a.z, b.z),
        }
    }
}

/// `f32::clamp(x, 0, 1)` per lane, with its exact results (a NaN stays NaN,
/// −0 stays −0), which `min`/`max` instructions do not all keep.
#[inline(always)]
fn clamp01(x: Vec4) -> Vec4 {
    let x = Vec4::select(x.cmplt(Vec4::ZERO), Vec4::ZERO, x);
    Vec4::select(x.cmpgt(Vec4::ONE), Vec4::ONE, x)
}

/// Lanes set in `m` as bits.
#[inline(always)]
fn bits(m: BVec4A) -> u32 {
    m.bitmask()
}

/// The mask with the lanes of bit set `b`.
#[inline(always)]
fn mask_of(b: u32) -> BVec4A {
    BVec4A::new(b & 1 != 0, b & 2 != 0, b & 4 != 0, b & 8 != 0)
}

/// [`project`] per lane.
#[inline(always)]
fn project4(o: V3, y: V3, len: Vec4, fallback: V3) -> V3 {
    let d = y - o;
    let l2 = d.dot(d);
    let ok = l2.cmpgt(Vec4::splat(Real::MIN_POSITIVE)) & l2.cmplt(Vec4::INFINITY);
    let mut out = o + d * (len / ops::sqrt4(l2));
    let bad = !bits(ok) & 0xf;
    if bad != 0 {
        for i in 0..WIDTH {
            if bad >> i & 1 == 1 {
                out.set_lane(i, project(o.lane(i), y.lane(i), len[i], fallback.lane(i)));
            }
        }
    }
    out
}

/// A unit quaternion's terms for [`rotate4`], splat once per substep.
struct Rotor {
    b: V3,
    k_v: Vec4,
    k_c: Vec4,
}

impl Rotor {
    fn new(q: Quat) -> Self {
        let b = Vec3::new(q.x, q.y, q.z);
        let b2 = b.x * b.x + b.y * b.y + b.z * b.z;
        Self {
            b: V3::splat(b),
            k_v: Vec4::splat(q.w * q.w - b2),
            k_c: Vec4::splat(q.w * 2.0),
        }
    }
}

/// [`super::step::rotate`] per lane, operation for operation.
#[inline(always)]
fn rotate4(r: &Rotor, v: V3) -> V3 {
    let b = r.b;
    let k_b = v.dot(b) * Vec4::splat(2.0);
    let c = V3 {
        x: b.y * v.z - v.y * b.z,
        y: b.z * v.x - v.z * b.x,
        z: b.x * v.y - v.x * b.y,
    };
    v * r.k_v + b * k_b + c * r.k_c
}

/// One collider's answer for the four lanes: displacement of the free end,
/// push direction, and which lanes it hits.
struct Hits {
    correction: V3,
    normal: V3,
    hit: u32,
}

impl Hits {
    const NONE: Self = Self {
        correction: V3 {
            x: Vec4::ZERO,
            y: Vec4::ZERO,
            z: Vec4::ZERO,
        },
        normal: V3 {
            x: Vec4::ZERO,
            y: Vec4::ZERO,
            z: Vec4::ZERO,
        },
        hit: 0,
    };
}

/// What the lanes of one joint row share with the contact passes.
struct Row {
    o: V3,
    len: Vec4,
    hit_radius: Vec4,
    fallback: V3,
}

/// A collider's axis terms splat to the lanes, and each lane's reach.
struct Shape {
    a: V3,
    axis: V3,
    axis_sq: Real,
    inv_axis_sq: Vec4,
    reach: Vec4,
}

impl Shape {
    #[inline(always)]
    fn new(c: &ColliderState, row: &Row) -> Self {
        let p = &c.prep;
        Self {
            a: V3::splat(p.shape.a),
            axis: V3::splat(p.axis()),
            axis_sq: p.axis_sq(),
            inv_axis_sq: Vec4::splat(p.inv_axis_sq()),
            reach: Vec4::splat(p.shape.radius) + row.hit_radius,
        }
    }
}

/// [`crate::collide::PreparedRound::segment_hit`] per lane for the lanes in
/// `want`; `odd` collects lanes the scalar query must answer.
#[inline(always)]
fn segment_hits(c: &ColliderState, row: &Row, xh: V3, want: u32, odd: &mut u32) -> Hits {
    let Shape {
        a,
        axis,
        axis_sq,
        inv_axis_sq,
        reach,
    } = Shape::new(c, row);
    let rel0 = row.o - a;
    let d1 = xh - row.o;
    let off = |rel: V3| {
        let t = clamp01(axis.dot(rel) * inv_axis_sq);
        rel - axis * t
    };
    let mid = off(rel0 + d1 * Vec4::splat(0.5));
    let far = reach + Vec4::splat(0.5) * row.len;
    let mut live = want & !bits(mid.dot(mid).cmpgt(far * far));
    // Most near pairs end here; the rest of the query is not cheap.
    if live == 0 {
        return Hits::NONE;
    }
    let a2 = d1.dot(d1);
    let degenerate = bits(a2.cmple(Vec4::splat(DEGENERATE_SQ))) & live;
    *odd |= degenerate;
    live &= !degenerate;
    let f = axis.dot(rel0);
    let cc = d1.dot(rel0);
    let inv_a = Vec4::ONE / a2;
    let (s, t) = if axis_sq <= DEGENERATE_SQ {
        (clamp01(-cc * inv_a), Vec4::ZERO)
    } else {
        let b = d1.dot(axis);
        let e = Vec4::splat(axis_sq);
        let denom = a2 * e - b * b;
        let s = Vec4::select(
            denom.cmpgt(Vec4::splat(DEGENERATE_SQ) * a2 * e),
            clamp01((b * f - cc * e) / denom),
            Vec4::ZERO,
        );
        let t = (b * s + f) * inv_axis_sq;
        let below = t.cmplt(Vec4::ZERO);
        let above = t.cmpgt(Vec4::ONE);
        let s = Vec4::select(
            below,
            clamp01(-cc * inv_a),
            Vec4::select(above, clamp01((b - cc) * inv_a), s),
        );
        let t = Vec4::select(below, Vec4::ZERO, Vec4::select(above, Vec4::ONE, t));
        (s, t)
    };
    let d = rel0 + d1 * s - axis * t;
    let Some((mut live, dist, n)) = touch(d, reach, live, odd) else {
        return Hits::NONE;
    };
    let depth = reach - dist;
    let r0 = off(rel0);
    let root = r0.dot(r0);
    let own = Vec4::select(
        root.cmpge(reach * reach),
        depth,
        depth - (reach - ops::sqrt4(root)),
    );
    live &= bits(own.cmpgt(Vec4::ZERO));
    Hits {
        correction: n * (own / s.max(Vec4::splat(MIN_LEVER))),
        normal: n,
        hit: live,
    }
}

/// Of the lanes in `live`, those whose offset `d` from the axis is shorter
/// than `reach`, with its length and direction; lanes too close to the
/// axis to have a direction go to `odd` (the scalar query's fallback).
/// `None` when no lane touches.
#[inline(always)]
fn touch(d: V3, reach: Vec4, live: u32, odd: &mut u32) -> Option<(u32, Vec4, V3)> {
    let dist_sq = d.dot(d);
    let live = live & bits(dist_sq.cmplt(reach * reach));
    if live == 0 {
        return None;
    }
    let dist = ops::sqrt4(dist_sq);
    let on_axis = bits(dist.cmple(Vec4::splat(TINY))) & live;
    *odd |= on_axis;
    Some((live & !on_axis, dist, d * (Vec4::ONE / dist)))
}

/// [`crate::collide::PreparedRound::point_hit`] per lane.
#[inline(always)]
fn point_hits(c: &ColliderState, row: &Row, xh: V3, want: u32, odd: &mut u32) -> Hits {
    let Shape {
        a,
        axis,
        inv_axis_sq,
        reach,
        ..
    } = Shape::new(c, row);
    let rel = xh - a;
    let t = clamp01(axis.dot(rel) * inv_axis_sq);
    let d = rel - axis * t;
    let Some((live, dist, n)) = touch(d, reach, want, odd) else {
        return Hits::NONE;
    };
    Hits {
        correction: n * (reach - dist),
        normal: n,
        hit: live,
    }
}

/// Squared lengths below this count as zero (as in `collide::prepared`).
const DEGENERATE_SQ: Real = 1e-12;
/// Distances below this are treated as zero when normalising.
const TINY: Real = 1e-9;

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
    pub scale: Real,
    pub iterations: u32,
    pub contact: ContactMode,
    pub colliders: &'a [ColliderState],
}

/// One substep of the chains `lanes` (1 to 4, all Improved without drape or
/// flat locks, the same frame and contact mode, longest first) hanging from
/// `frame`.
pub(crate) fn step_group(
    chains: &mut [Chain],
    joints: &mut [Joint],
    lanes: &[Lane],
    frame: &Pose,
    ctx: &LaneCtx<'_>,
) {
    let n = lanes.len();
    debug_assert!((1..=WIDTH).contains(&n));
    let s = ctx.scale;
    let sv = Vec4::splat(s);
    // Padding lanes repeat lane 0 (the longest chain) and are never stored.
    let pick = |i: usize| lanes[if i < n { i } else { 0 }];
    let mut o = [Vec3::ZERO; WIDTH];
    let mut o_prev = [Vec3::ZERO; WIDTH];
    let mut start = [0usize; WIDTH];
    let mut len = [0usize; WIDTH];
    let mut allowed = [0u64; WIDTH];
    for i in 0..WIDTH {
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
        lanes_of[ci] = (0..WIDTH).fold(0u8, |m, i| m | ((allowed[i] >> ci & 1) as u8) << i);
    }
    let mut o = V3::from_lanes(&o);
    let mut o_prev = V3::from_lanes(&o_prev);
    let rot = Rotor::new(frame.rot);
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
        let (j0, j1, j2, j3) = (
            &joints[at(0)],
            &joints[at(1)],
            &joints[at(2)],
            &joints[at(3)],
        );
        let x = V3::from_lanes(&[j0.x, j1.x, j2.x, j3.x]);
        let v0 = V3::from_lanes(&[j0.v, j1.v, j2.v, j3.v]);
        let rest = rotate4(
            &rot,
            V3::from_lanes(&[j0.rest_vec, j1.rest_vec, j2.rest_vec, j3.rest_vec]),
        );
        let c_v = Vec4::new(j0.c_v, j1.c_v, j2.c_v, j3.c_v);
        let c_k = Vec4::new(j0.c_k, j1.c_k, j2.c_k, j3.c_k);
        let c_g = V3::from_lanes(&[j0.c_g, j1.c_g, j2.c_g, j3.c_g]);
        let seg_len = Vec4::new(j0.len0, j1.len0, j2.len0, j3.len0) * sv;
        let hit_radius = Vec4::new(
            j0.params.hit_radius,
            j1.params.hit_radius,
            j2.params.hit_radius,
            j3.params.hit_radius,
        ) * sv;
        // `predicted_end` without the flat-lock term, operation for operation.
        let rest_s = rest * sv;
        let free = x + v0 * c_v + (rest_s - x) * c_k + c_g * sv;
        let y = free + o * c_k;
        let xh = project4(o, y, seg_len, rest);
        let mut v = (xh - x) * Vec4::splat(INV_H);
        let xh = if any_collider == 0 {
            xh
        } else {
            let v_parent = (o - o_prev) * Vec4::splat(INV_H);
            let row = Row {
                o,
                len: seg_len,
                hit_radius,
                fallback: rest,
            };
            resolve(
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

/// `resolve_contacts` for the four lanes of one joint row.
#[inline(always)]
#[allow(clippy::too_many_arguments)] // hot path: plain values beat a struct here
fn resolve(
    ctx: &LaneCtx<'_>,
    row: &Row,
    union: u64,
    lanes_of: &[u8; 64],
    stored: u32,
    mut xh: V3,
    v: &mut V3,
    v_parent: V3,
) -> V3 {
    let segment = ctx.contact == ContactMode::Segment;
    let settled_sq = (row.len * Vec4::splat(1e-5)) * (row.len * Vec4::splat(1e-5));
    let large_sq = (row.len * Vec4::splat(0.05)) * (row.len * Vec4::splat(0.05));
    let mut touched = 0u32;
    let mut active = stored;
    for _ in 0..ctx.iterations {
        let mut moved = 0u32;
        let mut large = 0u32;
        let mut hits = [0u32; WIDTH];
        let (mid, ball) = if segment {
            (
                (row.o + xh) * Vec4::splat(0.5),
                Vec4::splat(0.5) * row.len + row.hit_radius,
            )
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
            let reach = Vec4::splat(c.bound) + ball;
            let d = mid - V3::splat(c.center);
            let near = d.dot(d).cmple(reach * reach) | reach.cmpeq(Vec4::INFINITY);
            let want = bits(near) & u32::from(lanes_of[ci]) & active;
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
                bits(
                    Vec4::splat(c.moved)
                        .cmpgt(Vec4::splat(0.5) * (Vec4::splat(c.cur().radius) + row.hit_radius)),
                ) & want
            } else {
                want
            };
            let regular = want & !odd;
            let mut h = if regular == 0 {
                Hits::NONE
            } else if segment && round {
                segment_hits(c, row, xh, regular, &mut odd)
            } else {
                point_hits(c, row, xh, regular, &mut odd)
            };
            if odd != 0 {
                for i in 0..WIDTH {
                    if odd >> i & 1 == 0 {
                        continue;
                    }
                    let (o, p) = (row.o.lane(i), xh.lane(i));
                    let one = collider_hit(c, segment, o, p, row.len[i], row.hit_radius[i]);
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
            let m = mask_of(h.hit);
            let pushed = project4(row.o, xh + h.correction, row.len, row.fallback);
            xh = V3::select(m, pushed, xh);
            let vn = v.dot(h.normal);
            let slide = *v - h.normal * vn;
            *v = V3::select(m & vn.cmplt(Vec4::ZERO), slide, *v);
            touched |= h.hit;
            for (i, n) in hits.iter_mut().enumerate() {
                *n += h.hit >> i & 1;
            }
            let corr_sq = h.correction.dot(h.correction);
            moved |= bits(corr_sq.cmpgt(settled_sq)) & h.hit;
            large |= bits(corr_sq.cmpgt(large_sq)) & h.hit;
        }
        // As the scalar kernel: a lane stops after a pass without a real
        // correction, or with one small correction.
        let single = (0..WIDTH).fold(0u32, |m, i| m | u32::from(hits[i] < 2) << i);
        active &= moved & !(single & !large);
        if active == 0 {
            break;
        }
    }
    let t = bits(row.len.cmpgt(Vec4::ZERO)) & touched;
    if t != 0 {
        let d = (xh - row.o) * (Vec4::ONE / row.len);
        let rel = *v - v_parent;
        let radial = *v - d * rel.dot(d);
        *v = V3::select(mask_of(t), radial, *v);
    }
    xh
}
