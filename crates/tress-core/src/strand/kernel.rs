//! The chunked SIMD-friendly step: `L` strands in lockstep, root to tip, `L`
//! being the layout's lane count ([`LANES`] or [`super::layout::WIDE_LANES`]).
//!
//! Every pass walks the rows of one chunk (particle `i` of every lane) with
//! fixed-width, branch-free lane loops the compiler turns into SIMD. It
//! computes what the per-strand [`reference`](super::reference) path computes,
//! with two differences in rounding only: inverse square roots come from
//! [`lanes::rsqrt`] (libm's `sqrtf` is inline assembly the vectoriser cannot
//! widen) and sphere/capsule push-out from [`lanes::Capsule`] instead of
//! `collide::push_out_point`. A test bounds the difference.

// Index loops over lanes and particles are the point here: fixed-width
// indexed loops over several arrays are what the vectoriser widens.
#![allow(clippy::needless_range_loop)]

use super::frame::StepFrame;
use super::lanes::{self, Capsule, rsqrt};
use super::layout::LANES;
use super::params::StepCoefs;
use crate::collide::{ShapeKind, WorldCollider, push_out_point};
use crate::math::{Mat3, Real, Vec3, ops};

use super::lanes::{Row, Rows};

pub(crate) use lanes::TINY;
/// Below this `1 + cos` the segment is folded back on its parent: the
/// minimal rotation is ill-defined, so the rest segment is used unrotated.
pub(crate) const FOLDED: Real = 1e-4;

/// One chunk of rest data (`particles × lanes` floats per array): the same
/// view as the whole groom's, over a chunk's sub-slices.
pub type ChunkRest<'a> = super::buffers::StrandRest<'a>;

/// One chunk of live state: the same view as the whole state's, over a
/// chunk's sub-slices.
pub type ChunkState<'a> = super::buffers::StrandState<'a>;

#[inline(always)]
fn ld<const L: usize>(s: &[Real], i: usize) -> Row<L> {
    let mut r = [0.0; L];
    r.copy_from_slice(&s[i * L..(i + 1) * L]);
    r
}

#[inline(always)]
fn st<const L: usize>(s: &mut [Real], i: usize, r: &Row<L>) {
    s[i * L..(i + 1) * L].copy_from_slice(r);
}

#[inline(always)]
fn ld3<const L: usize>(x: &[Real], y: &[Real], z: &[Real], i: usize) -> Rows<L> {
    Rows {
        x: ld::<L>(x, i),
        y: ld::<L>(y, i),
        z: ld::<L>(z, i),
    }
}

#[inline(always)]
fn st3<const L: usize>(x: &mut [Real], y: &mut [Real], z: &mut [Real], i: usize, v: &Rows<L>) {
    st::<L>(x, i, &v.x);
    st::<L>(y, i, &v.y);
    st::<L>(z, i, &v.z);
}

/// `m * v` per lane, in glam's `Mat3 * Vec3` order.
#[inline(always)]
fn rot<const L: usize>(m: &Mat3, v: &Rows<L>) -> Rows<L> {
    let mut o = *v;
    for l in 0..L {
        o.x[l] = m.x_axis.x * v.x[l] + m.y_axis.x * v.y[l] + m.z_axis.x * v.z[l];
        o.y[l] = m.x_axis.y * v.x[l] + m.y_axis.y * v.y[l] + m.z_axis.y * v.z[l];
        o.z[l] = m.x_axis.z * v.x[l] + m.y_axis.z * v.y[l] + m.z_axis.z * v.z[l];
    }
    o
}

#[inline(always)]
fn sub<const L: usize>(a: &Rows<L>, b: &Rows<L>) -> Rows<L> {
    let mut o = *a;
    for l in 0..L {
        o.x[l] = a.x[l] - b.x[l];
        o.y[l] = a.y[l] - b.y[l];
        o.z[l] = a.z[l] - b.z[l];
    }
    o
}

/// Per-thread working rows of [`step_chunk`], reused across chunks.
#[derive(Debug, Clone)]
pub struct Scratch<const L: usize = LANES> {
    /// Rest segment `i → i+1` carried by the head.
    segs: [Rows<L>; super::layout::MAX_PARTICLES],
    /// The same divided by its rest length (unit, or zero).
    units: [Rows<L>; super::layout::MAX_PARTICLES],
}

impl<const L: usize> Default for Scratch<L> {
    fn default() -> Self {
        let zero = Rows::splat([0.0; 3]);
        Self {
            segs: [zero; super::layout::MAX_PARTICLES],
            units: [zero; super::layout::MAX_PARTICLES],
        }
    }
}

/// Runs one step on one chunk: integrate, global shape, local shape,
/// collision, length — each as many times as `k.passes` says.
#[inline(always)]
pub fn step_chunk<const L: usize>(
    m: usize,
    k: &StepCoefs,
    f: &StepFrame,
    rest: &ChunkRest<'_>,
    s: &mut ChunkState<'_>,
    scratch: &mut Scratch<L>,
) {
    let Scratch { segs, units } = scratch;
    let n = m * L;
    assert!(
        rest.x.len() == n
            && rest.y.len() == n
            && rest.z.len() == n
            && rest.len.len() == n
            && rest.inv_len.len() == n
            && s.x.len() == n
            && s.y.len() == n
            && s.z.len() == n
            && s.px.len() == n
            && s.py.len() == n
            && s.pz.len() == n,
        "chunk buffers must hold particles × lanes floats"
    );
    integrate::<L>(m, k, f, rest, s);
    for _ in 0..k.passes.global {
        global_shape::<L>(k, f, rest, s);
    }
    if k.passes.local > 0 {
        // The groomed segments carried by the head, once per step for all
        // local passes.
        for i in 0..m - 1 {
            let d = sub::<L>(
                &ld3::<L>(rest.x, rest.y, rest.z, i + 1),
                &ld3::<L>(rest.x, rest.y, rest.z, i),
            );
            segs[i] = rot::<L>(&f.rot, &d);
            let inv = ld::<L>(rest.inv_len, i + 1);
            for l in 0..L {
                units[i].x[l] = segs[i].x[l] * inv[l];
                units[i].y[l] = segs[i].y[l] * inv[l];
                units[i].z[l] = segs[i].z[l] * inv[l];
            }
        }
        for _ in 0..k.passes.local {
            local_shape::<L>(m, k, &segs[..m - 1], &units[..m - 1], s);
        }
    }
    let (sweeps, fused) = k.collision_sweeps();
    for _ in 0..sweeps {
        collide::<L>(m, k, f, s);
    }
    for it in 0..k.passes.length {
        let last = it + 1 == k.passes.length;
        length::<L>(m, k, f, rest, s, last && fused);
    }
}

#[inline(always)]
fn integrate<const L: usize>(
    m: usize,
    k: &StepCoefs,
    f: &StepFrame,
    rest: &ChunkRest<'_>,
    s: &mut ChunkState<'_>,
) {
    // The root is carried rigidly by the head; it has no momentum of its own.
    let mut root = rot::<L>(&f.rot, &ld3::<L>(rest.x, rest.y, rest.z, 0));
    for l in 0..L {
        root.x[l] += f.trans.x;
        root.y[l] += f.trans.y;
        root.z[l] += f.trans.z;
    }
    st3::<L>(s.x, s.y, s.z, 0, &root);
    st3::<L>(s.px, s.py, s.pz, 0, &root);
    let (c, g) = (k.momentum, k.gravity_h2);
    for i in 1..m {
        let mut x = ld3::<L>(s.x, s.y, s.z, i);
        let mut q = ld3::<L>(s.px, s.py, s.pz, i);
        for l in 0..L {
            let (vx, vy, vz) = (x.x[l] - q.x[l], x.y[l] - q.y[l], x.z[l] - q.z[l]);
            q.x[l] = x.x[l];
            q.y[l] = x.y[l];
            q.z[l] = x.z[l];
            x.x[l] = x.x[l] + vx * c + g.x;
            x.y[l] = x.y[l] + vy * c + g.y;
            x.z[l] = x.z[l] + vz * c + g.z;
        }
        st3::<L>(s.x, s.y, s.z, i, &x);
        st3::<L>(s.px, s.py, s.pz, i, &q);
    }
}

#[inline(always)]
fn global_shape<const L: usize>(
    k: &StepCoefs,
    f: &StepFrame,
    rest: &ChunkRest<'_>,
    s: &mut ChunkState<'_>,
) {
    let g = k.global;
    for i in 1..=k.global_count {
        let t = rot::<L>(&f.rot, &ld3::<L>(rest.x, rest.y, rest.z, i));
        let mut x = ld3::<L>(s.x, s.y, s.z, i);
        for l in 0..L {
            x.x[l] = x.x[l] + (t.x[l] + f.trans.x - x.x[l]) * g;
            x.y[l] = x.y[l] + (t.y[l] + f.trans.y - x.y[l]) * g;
            x.z[l] = x.z[l] + (t.z[l] + f.trans.z - x.z[l]) * g;
        }
        st3::<L>(s.x, s.y, s.z, i, &x);
    }
}

/// Local shape for segment `i → i+1` of one row: `a` is the world rest
/// direction (unit) of segment `i−1 → i`, `w_next` the world rest vector of
/// `i → i+1`.
///
/// The target is `v = w_next` turned by the minimal rotation taking `a` onto
/// the current direction `b`, written as two reflections (in the plane
/// normal to `a`, then in the one normal to `a + b`):
/// `v − a s + b (2 a·v − s)` with `s = (a·v + b·v) / (1 + a·b)`. The sweep is
/// a chain from root to tip that also keeps the vector units busy, so the
/// form with the fewest operations wins: no cross products, and the dot
/// products taken with the raw segment while its inverse length is being
/// computed (12 % off the two local sweeps against the Rodrigues form,
/// docs/log/2026-12-05-strand-operations-and-lines.md).
#[inline(always)]
fn local_row<const L: usize>(
    x_prev: &Rows<L>,
    x_cur: &mut Rows<L>,
    x_next: &mut Rows<L>,
    a: &Rows<L>,
    w_next: &Rows<L>,
    half: Real,
) {
    let b_raw = sub::<L>(x_cur, x_prev);
    let mut d2 = [0.0; L];
    for l in 0..L {
        d2[l] = b_raw.x[l] * b_raw.x[l] + b_raw.y[l] * b_raw.y[l] + b_raw.z[l] * b_raw.z[l];
    }
    let mut binv = [0.0; L];
    for l in 0..L {
        binv[l] = rsqrt(if d2[l] > TINY * TINY { d2[l] } else { 1.0 });
    }
    for l in 0..L {
        let (ax, ay, az) = (a.x[l], a.y[l], a.z[l]);
        let (vx, vy, vz) = (w_next.x[l], w_next.y[l], w_next.z[l]);
        let (rx, ry, rz) = (b_raw.x[l], b_raw.y[l], b_raw.z[l]);
        let av = ax * vx + ay * vy + az * vz;
        let ar = ax * rx + ay * ry + az * rz;
        let rv = rx * vx + ry * vy + rz * vz;
        let ok = d2[l] > TINY * TINY;
        let (bx, by, bz) = if ok {
            (rx * binv[l], ry * binv[l], rz * binv[l])
        } else {
            (ax, ay, az)
        };
        let c = if ok {
            ar * binv[l]
        } else {
            ax * ax + ay * ay + az * az
        };
        let bv = if ok { rv * binv[l] } else { av };
        let den = 1.0 + c;
        let (tx, ty, tz) = if den > FOLDED {
            let s = (av + bv) / den;
            let g = 2.0 * av - s;
            (
                vx - ax * s + bx * g,
                vy - ay * s + by * g,
                vz - az * s + bz * g,
            )
        } else {
            (vx, vy, vz)
        };
        let dx = (tx - (x_next.x[l] - x_cur.x[l])) * half;
        let dy = (ty - (x_next.y[l] - x_cur.y[l])) * half;
        let dz = (tz - (x_next.z[l] - x_cur.z[l])) * half;
        x_cur.x[l] -= dx;
        x_cur.y[l] -= dy;
        x_cur.z[l] -= dz;
        x_next.x[l] += dx;
        x_next.y[l] += dy;
        x_next.z[l] += dz;
    }
}

/// Local shape over one chunk; `segs[i]` is rest segment `i → i+1` rotated
/// by the head.
#[inline(always)]
fn local_shape<const L: usize>(
    m: usize,
    k: &StepCoefs,
    segs: &[Rows<L>],
    units: &[Rows<L>],
    s: &mut ChunkState<'_>,
) {
    let kl = k.local;
    let half = 0.5 * kl;
    // Segment 0 hangs off the pinned root: its frame is the head's, and only
    // its far end moves.
    let w = segs[0];
    let x_prev0 = ld3::<L>(s.x, s.y, s.z, 0);
    let mut x_cur = ld3::<L>(s.x, s.y, s.z, 1);
    for l in 0..L {
        x_cur.x[l] = x_cur.x[l] + (w.x[l] - (x_cur.x[l] - x_prev0.x[l])) * kl;
        x_cur.y[l] = x_cur.y[l] + (w.y[l] - (x_cur.y[l] - x_prev0.y[l])) * kl;
        x_cur.z[l] = x_cur.z[l] + (w.z[l] - (x_cur.z[l] - x_prev0.z[l])) * kl;
    }
    let mut x_prev = x_prev0;
    for i in 1..m - 1 {
        // Frame of segment i-1: the minimal rotation taking its rest
        // direction `a` onto its current direction `b`.
        let mut x_next = ld3::<L>(s.x, s.y, s.z, i + 1);
        local_row::<L>(
            &x_prev,
            &mut x_cur,
            &mut x_next,
            &units[i - 1],
            &segs[i],
            half,
        );
        st3::<L>(s.x, s.y, s.z, i, &x_cur);
        x_prev = x_cur;
        x_cur = x_next;
    }
    st3::<L>(s.x, s.y, s.z, m - 1, &x_cur);
}

#[inline(always)]
fn collide<const L: usize>(m: usize, k: &StepCoefs, f: &StepFrame, s: &mut ChunkState<'_>) {
    for i in 1..m {
        let mut x = ld3::<L>(s.x, s.y, s.z, i);
        let mut q = ld3::<L>(s.px, s.py, s.pz, i);
        if collide_row::<L>(k, f, &mut x, &mut q, None) {
            st3::<L>(s.x, s.y, s.z, i, &x);
            st3::<L>(s.px, s.py, s.pz, i, &q);
        }
    }
}

/// Pushes one row out of every collider in order; returns whether any lane
/// moved (so the caller only stores rows that changed). With
/// `slide = Some((parent row, rest lengths))` each pushed particle also
/// slides on the collider's tangent plane back to its rest distance from the
/// parent (see [`push_and_slide`]).
#[inline(always)]
fn collide_row<const L: usize>(
    k: &StepCoefs,
    f: &StepFrame,
    x: &mut Rows<L>,
    q: &mut Rows<L>,
    slide: Option<(&Rows<L>, &Row<L>)>,
) -> bool {
    let r = k.margin;
    let mut touched = false;
    for c in &f.colliders {
        if matches!(c.kind, ShapeKind::Sphere | ShapeKind::Capsule) {
            let cap = Capsule::new(c, r);
            touched |= match slide {
                Some((par, len)) => cap.push_rows::<true, L>(x, q, par, len),
                None => cap.push_rows::<false, L>(x, q, &Rows::splat([0.0; 3]), &[0.0; L]),
            };
            continue;
        }
        // Planes and inside shapes: the shared scalar query, lane by lane.
        touched |= push_lanes::<L>(x, q, |l, p, prev| match slide {
            None => push_without_rebound(c, p, prev, r),
            Some((par, len)) => {
                let parent = Vec3::new(par.x[l], par.y[l], par.z[l]);
                push_and_slide(c, p, prev, parent, len[l], r)
            }
        });
    }
    touched
}

/// [`push_without_rebound`], then slides the pushed point within the
/// collider's tangent plane until it is `len` from `parent` again. The
/// tangent plane of a convex shape lies outside it, so the slide restores the
/// segment length without re-entering; when no point of the plane is at
/// `len` (the parent is farther from it than `len`), the push-out stands.
#[inline]
#[must_use]
pub fn push_and_slide(
    c: &WorldCollider,
    p: Vec3,
    prev: Vec3,
    parent: Vec3,
    len: Real,
    r: Real,
) -> Option<(Vec3, Vec3)> {
    let (np, n, v) = push_keeping_tangent_velocity(c, p, prev, r)?;
    let d = np - parent;
    let dn = d.dot(n);
    let dt = d - n * dn;
    let tl = dt.length();
    let s2 = len * len - dn * dn;
    let out = if tl > TINY && s2 > 0.0 {
        parent + n * dn + dt * (ops::sqrt(s2) / tl)
    } else {
        np
    };
    Some((out, out - v))
}

/// Follow-The-Leader for one row: places `x` at its rest distance `lr` from
/// the parent row `x_prev` and hands a fraction `sd` of each correction back
/// to the parent's velocity (`q_prev`). Every kernel function is
/// `#[inline(always)]` so that the AVX2 entry (`step_chunks_on`) compiles all
/// of it for AVX2; `perf annotate` shows this loop as 8-wide `vmulps`/`vaddps`.
#[inline(always)]
fn ftl_row<const L: usize>(
    x: &mut Rows<L>,
    x_prev: &Rows<L>,
    q_prev: &mut Rows<L>,
    lr: &Row<L>,
    sd: Real,
) {
    let d = sub::<L>(x, x_prev);
    let mut d2 = [0.0; L];
    for l in 0..L {
        d2[l] = d.x[l] * d.x[l] + d.y[l] * d.y[l] + d.z[l] * d.z[l];
    }
    for l in 0..L {
        // Coincident particles: hang the segment straight down.
        let ok = d2[l] > TINY * TINY;
        let inv = rsqrt(if ok { d2[l] } else { 1.0 });
        let (nx, ny, nz) = if ok {
            let sc = lr[l] * inv;
            (
                x_prev.x[l] + d.x[l] * sc,
                x_prev.y[l] + d.y[l] * sc,
                x_prev.z[l] + d.z[l] * sc,
            )
        } else {
            (x_prev.x[l], x_prev.y[l] - lr[l], x_prev.z[l])
        };
        // Follow-The-Leader moves only the child; handing part of its
        // correction back to the parent's velocity (Müller et al. 2012)
        // restores the momentum the root-first sweep would otherwise eat.
        q_prev.x[l] += (nx - x.x[l]) * sd;
        q_prev.y[l] += (ny - x.y[l]) * sd;
        q_prev.z[l] += (nz - x.z[l]) * sd;
        (x.x[l], x.y[l], x.z[l]) = (nx, ny, nz);
    }
}

/// A capsule push with the slide back to the rest length (see [`ftl_row`]
/// for why it is inlined).
#[inline(always)]
fn push_slide_row<const L: usize>(
    cap: &Capsule,
    x: &mut Rows<L>,
    q: &mut Rows<L>,
    par: &Rows<L>,
    len: &Row<L>,
) -> bool {
    cap.push_rows::<true, L>(x, q, par, len)
}

/// Colliders prepared for one chunk's fused length sweep, with what it takes
/// to skip a collider for a whole row. After Follow-The-Leader, particle `i`
/// of a strand lies within its arc length from the root; so row `i` of the
/// chunk lies within `reach[i]` (root spread plus the longest arc, with
/// slack for the rare push that stretches a segment) of the roots' centroid,
/// and a sphere or capsule whose clearance from that centroid exceeds it
/// cannot touch the row.
struct Cull {
    fast: heapless::Vec<(Capsule, Real), { super::frame::MAX_COLLIDERS }>,
    reach: [Real; super::layout::MAX_PARTICLES],
}

impl Default for Cull {
    fn default() -> Self {
        Self {
            fast: heapless::Vec::new(),
            reach: [0.0; super::layout::MAX_PARTICLES],
        }
    }
}

impl Cull {
    #[inline(always)]
    fn new<const L: usize>(
        m: usize,
        k: &StepCoefs,
        f: &StepFrame,
        rest: &ChunkRest<'_>,
        roots: &Rows<L>,
    ) -> Self {
        // Any point serves as the centre (the spread is measured from it),
        // so the roots' mean is summed in the order that vectorises.
        let c = Vec3::new(
            lane_sum::<L>(roots.x),
            lane_sum::<L>(roots.y),
            lane_sum::<L>(roots.z),
        ) / L as Real;
        // The largest squared distance, then one root: the same bits as the
        // largest root (a square root is monotonic), and no scalar root per
        // lane inside the wide build (see `ops::sqrt`).
        let mut d2 = [0.0; L];
        for l in 0..L {
            d2[l] = (Vec3::new(roots.x[l], roots.y[l], roots.z[l]) - c).length_squared();
        }
        let spread = ops::sqrt(lane_max::<L>(d2));
        let mut reach = [0.0; super::layout::MAX_PARTICLES];
        let mut arc = [0.0; L];
        for (i, r) in reach.iter_mut().enumerate().take(m).skip(1) {
            let lr = ld::<L>(rest.len, i);
            for l in 0..L {
                arc[l] += lr[l];
            }
            *r = (spread + lane_max::<L>(arc)) * 1.05 + 0.01;
        }
        let mut fast = heapless::Vec::new();
        for col in &f.colliders {
            if matches!(col.kind, ShapeKind::Sphere | ShapeKind::Capsule) {
                let cap = Capsule::new(col, k.margin);
                // Capacity equals MAX_COLLIDERS, the most a frame holds.
                let _ = fast.push((cap, cap.clearance(c)));
            }
        }
        Self { fast, reach }
    }

    /// Pushes row `i` out of every collider that can reach it, sliding back
    /// to the rest length from the parent row; returns whether anything moved.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn collide_row<const L: usize>(
        &self,
        i: usize,
        k: &StepCoefs,
        f: &StepFrame,
        x: &mut Rows<L>,
        q: &mut Rows<L>,
        par: &Rows<L>,
        len: &Row<L>,
    ) -> bool {
        let mut touched = false;
        for (cap, clear) in &self.fast {
            if *clear <= self.reach[i] {
                touched |= push_slide_row::<L>(cap, x, q, par, len);
            }
        }
        for c in &f.colliders {
            if matches!(c.kind, ShapeKind::Sphere | ShapeKind::Capsule) {
                continue;
            }
            touched |= push_lanes::<L>(x, q, |l, p, prev| {
                let parent = Vec3::new(par.x[l], par.y[l], par.z[l]);
                push_and_slide(c, p, prev, parent, len[l], k.margin)
            });
        }
        touched
    }
}

/// The largest lane of `v`, or 0 if none is larger (NaN lanes are passed
/// over), folded in halves so it stays in vector registers: `f32::max` one
/// lane after another made a chain of scalar steps that took 9 % of a frame.
/// The largest of exact values is exact, so the order changes no bit.
#[inline(always)]
fn lane_max<const L: usize>(mut v: Row<L>) -> Real {
    for l in 0..L {
        v[l] = if v[l] > 0.0 { v[l] } else { 0.0 };
    }
    let mut w = L / 2;
    while w > 0 {
        for l in 0..w {
            v[l] = if v[l + w] > v[l] { v[l + w] } else { v[l] };
        }
        w /= 2;
    }
    v[0]
}

/// The sum of `v`'s lanes, added in halves (pairwise) for the same reason.
#[inline(always)]
fn lane_sum<const L: usize>(mut v: Row<L>) -> Real {
    let mut w = L / 2;
    while w > 0 {
        for l in 0..w {
            v[l] += v[l + w];
        }
        w /= 2;
    }
    v[0]
}

/// Pushes `p` out of `c` and moves `prev` so the implicit velocity `p − prev`
/// loses only its into-collider component: the push-out never becomes speed.
#[inline]
#[must_use]
pub fn push_without_rebound(
    c: &WorldCollider,
    p: Vec3,
    prev: Vec3,
    r: Real,
) -> Option<(Vec3, Vec3)> {
    let (np, _, v) = push_keeping_tangent_velocity(c, p, prev, r)?;
    Some((np, np - v))
}

/// The push-out of `p` with its normal, and the implicit velocity `p − prev`
/// without its into-collider component.
#[inline(always)]
fn push_keeping_tangent_velocity(
    c: &WorldCollider,
    p: Vec3,
    prev: Vec3,
    r: Real,
) -> Option<(Vec3, Vec3, Vec3)> {
    let (np, n) = push_out_point(c, p, r)?;
    let mut v = p - prev;
    let vn = v.dot(n);
    if vn < 0.0 {
        v -= n * vn;
    }
    Some((np, n, v))
}

/// Runs a scalar push (`hit(lane, position, previous)` → new position and
/// previous) on every lane of a row, writing back the lanes it moves;
/// whether any moved. For the shapes with no lane-wide query.
#[inline(always)]
fn push_lanes<const L: usize>(
    x: &mut Rows<L>,
    q: &mut Rows<L>,
    mut hit: impl FnMut(usize, Vec3, Vec3) -> Option<(Vec3, Vec3)>,
) -> bool {
    let mut touched = false;
    for l in 0..L {
        let p = Vec3::new(x.x[l], x.y[l], x.z[l]);
        let prev = Vec3::new(q.x[l], q.y[l], q.z[l]);
        if let Some((np, nq)) = hit(l, p, prev) {
            touched = true;
            (x.x[l], x.y[l], x.z[l]) = (np.x, np.y, np.z);
            (q.x[l], q.y[l], q.z[l]) = (nq.x, nq.y, nq.z);
        }
    }
    touched
}

/// Follow-The-Leader, root to tip. With `collide`, each particle is also
/// pushed out of the colliders right after it is placed, so the sweep never
/// drags a particle back inside the head; the next particle then follows the
/// corrected one.
#[inline(always)]
fn length<const L: usize>(
    m: usize,
    k: &StepCoefs,
    f: &StepFrame,
    rest: &ChunkRest<'_>,
    s: &mut ChunkState<'_>,
    collide: bool,
) {
    let sd = k.ftl;
    let mut x_prev = ld3::<L>(s.x, s.y, s.z, 0);
    let mut q_prev = ld3::<L>(s.px, s.py, s.pz, 0);
    let cull = if collide {
        Cull::new::<L>(m, k, f, rest, &x_prev)
    } else {
        Cull::default()
    };
    for i in 1..m {
        let lr = ld::<L>(rest.len, i);
        let mut x = ld3::<L>(s.x, s.y, s.z, i);
        ftl_row::<L>(&mut x, &x_prev, &mut q_prev, &lr, sd);
        st3::<L>(s.px, s.py, s.pz, i - 1, &q_prev);
        q_prev = ld3::<L>(s.px, s.py, s.pz, i);
        if collide && cull.collide_row(i, k, f, &mut x, &mut q_prev, &x_prev, &lr) {
            st3::<L>(s.px, s.py, s.pz, i, &q_prev);
        }
        st3::<L>(s.x, s.y, s.z, i, &x);
        x_prev = x;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collide::Collider;
    use crate::math::Quat;

    #[test]
    fn lane_push_out_agrees_with_the_shared_push_out_point() {
        // Seeded grid of points around a sphere and a capsule, some inside,
        // some outside, some on the axis: same hit decision and the same
        // corrected point within 1e-6 m, and the same no-rebound velocity.
        let cs = [
            Collider::sphere(Vec3::new(0.1, 1.5, 0.0), 0.1),
            Collider::capsule(Vec3::new(-0.2, 1.2, 0.0), Vec3::new(0.2, 1.25, 0.05), 0.06),
        ];
        let margin = 0.002;
        let mut seed = 12345u32;
        let mut rnd = || {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (seed >> 8) as Real / (1u32 << 24) as Real - 0.5
        };
        for c in cs {
            let w = c.posed(Vec3::ZERO, Quat::IDENTITY, 1.0);
            let lane = Capsule::new(&w, margin);
            let mut hits = 0;
            for i in 0..4000 {
                let p = if i == 0 {
                    w.a
                } else {
                    w.a + Vec3::new(rnd(), rnd(), rnd()) * 0.4
                };
                let q = p + Vec3::new(rnd(), rnd(), rnd()) * 0.01;
                let shared = push_without_rebound(&w, p, q, margin);
                let (hit, o, nq) = lane.push(p.to_array(), q.to_array(), None);
                // Points within float noise of the surface may go either way.
                let near = push_out_point(&w, p, margin + 1e-5).is_some()
                    != push_out_point(&w, p, margin - 1e-5).is_some();
                if near {
                    continue;
                }
                assert_eq!(hit, shared.is_some(), "point {p}");
                if let Some((sp, sq)) = shared {
                    hits += 1;
                    assert!((Vec3::from(o) - sp).length() < 1e-6, "{p}: {o:?} vs {sp}");
                    assert!((Vec3::from(nq) - sq).length() < 1e-6);
                }
            }
            assert!(hits > 100, "test exercised too few contacts: {hits}");
        }
    }
}
