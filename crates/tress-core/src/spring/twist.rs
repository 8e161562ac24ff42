//! Lock twist: each bone's output turned about its own segment so the bends
//! at its joints pass through its flat lock's face.
//!
//! Linear blend skinning of a wide ribbon across a joint stretches its outer
//! edge to first order in the part of the bend that lies *in* the ribbon's
//! plane (about half-width × bend / blend length); a bend through the face,
//! or a twist, stretches it only to second order. Which part of a bend is
//! in-plane depends on each bone's twist about its own segment, which moves
//! no joint and which the shortest-arc outputs leave at whatever the arc
//! gives. This chooses it.
//!
//! The cost is a skinned probe at every joint, as the skinned mesh sees it:
//! six points a half-width either side of the width axis at the middle of
//! the segment above (rigid to the upper bone), at the joint (half and
//! half) and at the middle of the segment below (rigid to the lower bone),
//! and the squared strain of the nine edges between them that two bones
//! share (rails, diagonals, the rung at the joint). Each bone's twist moves
//! the two probes it takes part in, so the Gauss–Newton system over the
//! chain's twists is tridiagonal: a fixed number of damped steps from no
//! twist, each one solve. The result is a smooth function of the joint positions (no search, no
//! branch between minima, no state), so frame-rate invariance and contact
//! are untouched. The first bone turns the ribbon's root row against the
//! scalp, so its twist is capped at [`ROOT_CAP`], and lower where the lock is
//! wide ([`ROOT_SHIFT`]).
//!
//! Measured in `docs/log/2026-12-04-lock-twist-outputs.md` (a grid search
//! on the same probe) and `docs/log/2026-12-04-lock-twist-built.md` (this).

use super::chain::Joint;
use super::output::JointOutput;
use crate::math::{Quat, Real, Vec3, Vec4, ops, quat};

/// Gauss–Newton steps (each one tridiagonal solve over the chain).
const STEPS: usize = 3;
/// Levenberg damping added to each step's curvature (strain² per rad²).
/// It bounds how much the steps amplify a change of the joints: a bend
/// exactly in the lock's plane has two mirror-image best twists and no
/// gradient between them, and with little damping the steps pick one or
/// the other from rounding (`tests/spring/twist.rs`, the in-plane shake).
const DAMPING: Real = 0.1;
/// The probe's half-width, in units of the two segments' summed length.
const PROBE_WIDTH: Real = 0.25;
/// Largest single step, rad.
const MAX_STEP: Real = 0.5;
/// Largest twist of a chain's first bone, rad (9°).
pub const ROOT_CAP: Real = 0.157;
/// How far the first bone's twist may move the corners of a lock's root
/// row, unscaled, m, where the lock's half-width is known: the root row
/// lies on the scalp, and turning it moves one corner into it (9° on the
/// built-in avatar's widest bang, 2.8 cm either side).
pub const ROOT_SHIFT: Real = 0.0044;
/// Longest chain twisted (the solve's scratch, about 4 KB, lives on the
/// stack: no allocation); the bones past it keep the shortest arc.
pub const MAX_BONES: usize = 32;

/// One joint's probe, prepared once per output. With the joint at the
/// origin, `U` and `L` reach the middles of the segments above and below;
/// the upper bone's half-width axis as the upper bone carries it is
/// `α = c·α0 + s·α1` for a twist with cosine `c` and sine `s`, as the lower
/// one does `β = βp + c·β0 + s·β1`. Every edge is `X ± (y1·α + y2·β)` with
/// `X` one of `U`, `L`, 0, so the probe needs only the dot products of
/// these vectors, taken here once.
#[derive(Clone, Copy, Default)]
struct Probe {
    /// `|U|²`, `|L|²`, `|α|² = |β|²`.
    uu: Real,
    ll: Real,
    ww: Real,
    /// `U·α0, U·α1, L·α0, L·α1`.
    xa: [Real; 4],
    /// `U·βp, U·β0, U·β1, L·βp, L·β0, L·β1`.
    xb: [Real; 6],
    /// `α0·βp, α0·β0, α0·β1, α1·βp, α1·β0, α1·β1`.
    ab: [Real; 6],
    /// `1 / r²` of the nine edges at rest (0: a degenerate edge, left out).
    inv_r2: [Real; 9],
}

/// The nine edges as `(X, Y, σ)` indices: `X` 0 = `U`, 1 = `L`, 2 = none;
/// `Y` 0 = `m = (β − α)/2`, 1 = `p = 1.5α + β/2`, 2 = `q = α/2 + 1.5β`,
/// 3 = the rung `α + β`. Rails above and below, diagonals above and below,
/// the rung.
const EDGES: [(usize, usize, Real); 9] = [
    (0, 0, 1.0),
    (0, 0, -1.0),
    (1, 0, 1.0),
    (1, 0, -1.0),
    (0, 1, -1.0),
    (0, 1, 1.0),
    (1, 2, -1.0),
    (1, 2, 1.0),
    (2, 3, 1.0),
];
/// Per-lane constants of the rails (`LANES[0]`: edges 0–3) and diagonals
/// (`LANES[1]`: edges 4–7): `y1`, `y2`, `y1² + y2²`, `2·y1·y2`, `y1·y2`,
/// `2σ`, `σ·y1`, `σ·y2`, each formed from [`EDGES`] and [`Y`] as the scalar
/// edge expression forms it; every one is exact in `Real`, so each lane
/// rounds as that expression did.
struct EdgeLanes {
    y1: Vec4,
    y2: Vec4,
    y11: Vec4,
    y12x2: Vec4,
    y12: Vec4,
    sigma2: Vec4,
    sy1: Vec4,
    sy2: Vec4,
}

/// Edges `4g .. 4g + 4` as lanes. `Probe::terms` feeds the lanes `U, U, L,
/// L` as `X`, which the assertion holds the table to.
const fn edge_lanes(g: usize) -> EdgeLanes {
    let mut c = [[0.0 as Real; 4]; 8];
    let mut i = 0;
    while i < 4 {
        let (x, y, sigma) = EDGES[4 * g + i];
        assert!(x == [0, 0, 1, 1][i]);
        let (y1, y2) = Y[y];
        let lane = [
            y1,
            y2,
            y1 * y1 + y2 * y2,
            2.0 * y1 * y2,
            y1 * y2,
            2.0 * sigma,
            sigma * y1,
            sigma * y2,
        ];
        let mut k = 0;
        while k < 8 {
            c[k][i] = lane[k];
            k += 1;
        }
        i += 1;
    }
    EdgeLanes {
        y1: Vec4::from_array(c[0]),
        y2: Vec4::from_array(c[1]),
        y11: Vec4::from_array(c[2]),
        y12x2: Vec4::from_array(c[3]),
        y12: Vec4::from_array(c[4]),
        sigma2: Vec4::from_array(c[5]),
        sy1: Vec4::from_array(c[6]),
        sy2: Vec4::from_array(c[7]),
    }
}

const LANES: [EdgeLanes; 2] = [edge_lanes(0), edge_lanes(1)];

/// A probe's dot products once the two bones are turned: `X·α`, `X·dα/dψa`,
/// `X·β`, `X·dβ/dψb` for `X` = `U`, `L`; `α·β`, `β·dα`, `α·dβ`.
struct Turned {
    xa: [Real; 2],
    xda: [Real; 2],
    xb: [Real; 2],
    xdb: [Real; 2],
    ab: Real,
    b_da: Real,
    a_db: Real,
}

/// `(y1, y2)` of each `Y`.
const Y: [(Real, Real); 4] = [(-0.5, 0.5), (1.5, 0.5), (0.5, 1.5), (1.0, 1.0)];

impl Probe {
    /// Joint `j`'s probe (between bones `j − 1` and `j`); `None` where the
    /// upper bone has no width axis.
    fn new(joints: &[Joint], scale: Real, out: &[JointOutput], j: usize) -> Option<Self> {
        let (ja, jb) = (&joints[j - 1], &joints[j]);
        if ja.face == Vec3::ZERO {
            return None;
        }
        let half = PROBE_WIDTH * (ja.len0 + jb.len0) * scale;
        let w0 = ja.face * half;
        // Rest: α = β = w0 and the rest segments.
        let (u0, l0) = (ja.rest_vec * (-0.5 * scale), jb.rest_vec * (0.5 * scale));
        let inv_r2 = rest_inverses(u0, l0, w0, half);
        let up = out[j - 1].tail - out[j - 1].origin;
        let down = out[j].tail - out[j].origin;
        let (u, l) = (-0.5 * up, 0.5 * down);
        let (da, db) = (up.normalize_or_zero(), down.normalize_or_zero());
        let a0 = quat::rotate(
            out[j - 1].world_rot,
            quat::rotate(ja.rest_rot.inverse(), w0),
        );
        let a1 = da.cross(a0);
        let beta = quat::rotate(out[j].world_rot, quat::rotate(jb.rest_rot.inverse(), w0));
        let bp = db * beta.dot(db);
        let (b0, b1) = (beta - bp, db.cross(beta));
        Some(Self {
            uu: u.length_squared(),
            ll: l.length_squared(),
            ww: w0.length_squared(),
            xa: [u.dot(a0), u.dot(a1), l.dot(a0), l.dot(a1)],
            xb: [
                u.dot(bp),
                u.dot(b0),
                u.dot(b1),
                l.dot(bp),
                l.dot(b0),
                l.dot(b1),
            ],
            ab: [
                a0.dot(bp),
                a0.dot(b0),
                a0.dot(b1),
                a1.dot(bp),
                a1.dot(b0),
                a1.dot(b1),
            ],
            inv_r2,
        })
    }

    /// The probe's dot products for the upper bone's twist `(ca, sa)` and
    /// the lower one's `(cb, sb)` (cosine, sine).
    #[inline]
    fn turned(&self, ca: Real, sa: Real, cb: Real, sb: Real) -> Turned {
        let [ua0, ua1, la0, la1] = self.xa;
        let [ubp, ub0, ub1, lbp, lb0, lb1] = self.xb;
        let [a0bp, a0b0, a0b1, a1bp, a1b0, a1b1] = self.ab;
        // X·α, X·dα/dψa, X·β, X·dβ/dψb for X = U, L, 0; dα/dψ = c·α1 − s·α0
        // (α0 ⟂ the bone), dβ/dψ = c·β1 − s·β0.
        let xa = [ca * ua0 + sa * ua1, ca * la0 + sa * la1];
        let xda = [ca * ua1 - sa * ua0, ca * la1 - sa * la0];
        let xb = [ubp + cb * ub0 + sb * ub1, lbp + cb * lb0 + sb * lb1];
        let xdb = [cb * ub1 - sb * ub0, cb * lb1 - sb * lb0];
        // α·β, β·dα, α·dβ (α·dα = β·dβ = 0).
        let p0 = a0bp + cb * a0b0 + sb * a0b1;
        let p1 = a1bp + cb * a1b0 + sb * a1b1;
        let ab = ca * p0 + sa * p1;
        let b_da = ca * p1 - sa * p0;
        let a_db = ca * (cb * a0b1 - sb * a0b0) + sa * (cb * a1b1 - sb * a1b0);
        Turned {
            xa,
            xda,
            xb,
            xdb,
            ab,
            b_da,
            a_db,
        }
    }

    /// Gradient and Gauss–Newton curvature of the probe's cost for the
    /// upper bone's twist `(ca, sa)` and the lower one's `(cb, sb)`
    /// (cosine, sine): `(g_upper, g_lower, h_upper, h_lower, h_cross)`.
    #[inline]
    fn terms(&self, ca: Real, sa: Real, cb: Real, sb: Real) -> [Real; 5] {
        let Turned {
            xa,
            xda,
            xb,
            xdb,
            ab,
            b_da,
            a_db,
        } = self.turned(ca, sa, cb, sb);
        // The eight rail and diagonal edges, four to a vector (lanes: U σ+,
        // U σ−, L σ+, L σ− for the rails, then the diagonals), each lane the
        // scalar expression's operations in its order, so the bits are the
        // same as one edge at a time; the rung is the ninth, alone. The
        // products are then summed edge by edge in the table's order, as
        // the scalar loop summed them.
        let inv = &self.inv_r2;
        let pick = |u: Real, l: Real| Vec4::new(u, u, l, l);
        let xx = pick(self.uu, self.ll);
        let (x_a, x_da) = (pick(xa[0], xa[1]), pick(xda[0], xda[1]));
        let (x_b, x_db) = (pick(xb[0], xb[1]), pick(xdb[0], xdb[1]));
        let (ww, abv) = (Vec4::splat(self.ww), Vec4::splat(ab));
        let (b_dav, a_dbv) = (Vec4::splat(b_da), Vec4::splat(a_db));
        let mut t = [0.0; 5];
        for (g, lanes) in LANES.iter().enumerate() {
            let inv4 = Vec4::new(inv[4 * g], inv[4 * g + 1], inv[4 * g + 2], inv[4 * g + 3]);
            let yy = lanes.y11 * ww + lanes.y12x2 * abv;
            let len2 = xx + yy + lanes.sigma2 * (lanes.y1 * x_a + lanes.y2 * x_b);
            let ja = (lanes.sy1 * x_da + lanes.y12 * b_dav) * inv4;
            let jb = (lanes.sy2 * x_db + lanes.y12 * a_dbv) * inv4;
            let strain = 0.5 * (len2 * inv4 - Vec4::ONE);
            let p = [strain * ja, strain * jb, ja * ja, jb * jb, ja * jb];
            for lane in 0..4 {
                for (acc, v) in t.iter_mut().zip(&p) {
                    *acc += v[lane];
                }
            }
        }
        // The rung `α + β`, X = none: y1 = y2 = σ = 1. Its length is `yy`
        // (never −0, so the scalar form's `0 + yy + 2·(0 + 0)` is `yy`); the
        // slopes keep the scalar form's `0 + …`, which turns a −0 into +0.
        let yy = 2.0 * self.ww + 2.0 * ab;
        let ja = (0.0 + b_da) * inv[8];
        let jb = (0.0 + a_db) * inv[8];
        let strain = 0.5 * (yy * inv[8] - 1.0);
        for (acc, v) in t
            .iter_mut()
            .zip([strain * ja, strain * jb, ja * ja, jb * jb, ja * jb])
        {
            *acc += v;
        }
        t
    }

    /// [`Probe::terms`] one edge at a time, as it was written before the
    /// edges went four to a vector: the reference its bits are held to.
    /// Gradient and Gauss–Newton curvature of the probe's cost for the
    /// upper bone's twist `(ca, sa)` and the lower one's `(cb, sb)`
    /// (cosine, sine): `(g_upper, g_lower, h_upper, h_lower, h_cross)`.
    #[cfg(test)]
    fn terms_reference(&self, ca: Real, sa: Real, cb: Real, sb: Real) -> [Real; 5] {
        let Turned {
            xa,
            xda,
            xb,
            xdb,
            ab,
            b_da,
            a_db,
        } = self.turned(ca, sa, cb, sb);
        let mut t = [0.0; 5];
        let inv = &self.inv_r2;
        // One edge `X + σ(y1·α + y2·β)`: its strain and its slopes in the two
        // twists (de/dψa = σ·y1·dα, de/dψb = σ·y2·dβ), written out per edge
        // below so every coefficient is a constant.
        let mut edge = |x: [Real; 5], y1: Real, y2: Real, sigma: Real, inv: Real| {
            let [xx, x_a, x_da, x_b, x_db] = x;
            let yy = (y1 * y1 + y2 * y2) * self.ww + 2.0 * y1 * y2 * ab;
            let len2 = xx + yy + 2.0 * sigma * (y1 * x_a + y2 * x_b);
            let ja = (sigma * y1 * x_da + y1 * y2 * b_da) * inv;
            let jb = (sigma * y2 * x_db + y1 * y2 * a_db) * inv;
            let strain = 0.5 * (len2 * inv - 1.0);
            t[0] += strain * ja;
            t[1] += strain * jb;
            t[2] += ja * ja;
            t[3] += jb * jb;
            t[4] += ja * jb;
        };
        let u = [self.uu, xa[0], xda[0], xb[0], xdb[0]];
        let l = [self.ll, xa[1], xda[1], xb[1], xdb[1]];
        edge(u, -0.5, 0.5, 1.0, inv[0]);
        edge(u, -0.5, 0.5, -1.0, inv[1]);
        edge(l, -0.5, 0.5, 1.0, inv[2]);
        edge(l, -0.5, 0.5, -1.0, inv[3]);
        edge(u, 1.5, 0.5, -1.0, inv[4]);
        edge(u, 1.5, 0.5, 1.0, inv[5]);
        edge(l, 0.5, 1.5, -1.0, inv[6]);
        edge(l, 0.5, 1.5, 1.0, inv[7]);
        edge([0.0; 5], 1.0, 1.0, 1.0, inv[8]);
        t
    }
}

/// `1 / r²` of the nine probe edges at rest (0 for an edge shorter than the
/// probe's rounding floor), the rest segments `u0`, `l0` and width `w0`
/// given; the first eight four to a vector, each lane the operations of
/// the one-edge form ([`rest_inverses_reference`]) in its order.
fn rest_inverses(u0: Vec3, l0: Vec3, w0: Vec3, half: Real) -> [Real; 9] {
    let floor = Real::EPSILON * half * half;
    let mut out = [0.0; 9];
    for (g, chunk) in out.chunks_exact_mut(4).enumerate() {
        let (mut x, mut c) = ([Vec3::ZERO; 4], [0.0; 4]);
        for lane in 0..4 {
            let (xi, y, sigma) = EDGES[4 * g + lane];
            x[lane] = [u0, l0, Vec3::ZERO][xi];
            c[lane] = sigma * (Y[y].0 + Y[y].1);
        }
        let c = Vec4::from(c);
        let ex = Vec4::new(x[0].x, x[1].x, x[2].x, x[3].x) + Vec4::splat(w0.x) * c;
        let ey = Vec4::new(x[0].y, x[1].y, x[2].y, x[3].y) + Vec4::splat(w0.y) * c;
        let ez = Vec4::new(x[0].z, x[1].z, x[2].z, x[3].z) + Vec4::splat(w0.z) * c;
        // `Vec3::length_squared`'s order: (x² + y²) + z².
        let r2 = ex * ex + ey * ey + ez * ez;
        let inv = Vec4::select(r2.cmpgt(Vec4::splat(floor)), Vec4::ONE / r2, Vec4::ZERO);
        chunk.copy_from_slice(&inv.to_array());
    }
    let (x, y, sigma) = EDGES[8];
    let e = [u0, l0, Vec3::ZERO][x] + w0 * (sigma * (Y[y].0 + Y[y].1));
    let r2 = e.length_squared();
    if r2 > floor {
        out[8] = 1.0 / r2;
    }
    out
}

/// [`rest_inverses`] one edge at a time: the form its bits are held to.
#[cfg(test)]
fn rest_inverses_reference(u0: Vec3, l0: Vec3, w0: Vec3, half: Real) -> [Real; 9] {
    let mut inv_r2 = [0.0; 9];
    for (slot, (x, y, sigma)) in inv_r2.iter_mut().zip(EDGES) {
        let xv = [u0, l0, Vec3::ZERO][x];
        let e = xv + w0 * (sigma * (Y[y].0 + Y[y].1));
        let r2 = e.length_squared();
        if r2 > Real::EPSILON * half * half {
            *slot = 1.0 / r2;
        }
    }
    inv_r2
}

/// Twists `out`'s bone rotations (world and local) for a chain whose joints
/// are `joints`, hanging from a frame turned by `frame_rot`. Positions are
/// not touched.
pub(crate) fn twist_outputs(
    joints: &[Joint],
    frame_rot: Quat,
    scale: Real,
    out: &mut [JointOutput],
) {
    let n = out.len().min(joints.len()).min(MAX_BONES);
    if n < 2 {
        return;
    }
    let mut probes = [None; MAX_BONES];
    for (j, p) in probes.iter_mut().enumerate().take(n).skip(1) {
        *p = Probe::new(joints, scale, out, j);
    }
    // Each bone's twist as the half-angle cosine and sine (ψ/2), turned by
    // `2·atan(δ/2)` for a step δ: no trigonometric call.
    let (mut ch, mut sh) = ([1.0 as Real; MAX_BONES], [0.0 as Real; MAX_BONES]);
    let root_cap = if joints[0].half_width > 0.0 {
        ROOT_CAP.min(ROOT_SHIFT / joints[0].half_width)
    } else {
        ROOT_CAP
    };
    // sin(cap/2) by its series (cap ≤ 0.157: the next term is below 1e-8).
    let half_cap = 0.5 * root_cap;
    let root_sh = half_cap - half_cap * half_cap * half_cap / 6.0;
    let (mut g, mut diag, mut off) = ([0.0; MAX_BONES], [0.0; MAX_BONES], [0.0; MAX_BONES]);
    for _ in 0..STEPS {
        g[..n].fill(0.0);
        diag[..n].fill(DAMPING);
        off[..n].fill(0.0);
        for j in 1..n {
            let Some(p) = &probes[j] else { continue };
            let cs = |i: usize| (ch[i] * ch[i] - sh[i] * sh[i], 2.0 * ch[i] * sh[i]);
            let ((ca, sa), (cb, sb)) = (cs(j - 1), cs(j));
            let [ga, gb, ha, hb, hab] = p.terms(ca, sa, cb, sb);
            g[j - 1] += ga;
            g[j] += gb;
            diag[j - 1] += ha;
            diag[j] += hb;
            off[j] += hab;
        }
        // (H + λI) δ = −g, H tridiagonal with `off[j]` between j − 1 and j:
        // forward elimination, back substitution (positive definite, so
        // no pivoting).
        for j in 1..n {
            let f = off[j] / diag[j - 1];
            diag[j] -= f * off[j];
            g[j] -= f * g[j - 1];
        }
        let mut next: Real = 0.0;
        for j in (0..n).rev() {
            let rhs = if j + 1 < n {
                g[j] - off[j + 1] * next
            } else {
                g[j]
            };
            next = rhs / diag[j];
            let step = (-next).clamp(-MAX_STEP, MAX_STEP);
            if !step.is_finite() {
                continue;
            }
            let t = 0.5 * step;
            let r = 1.0 / ops::sqrt(1.0 + t * t);
            let (c, s) = ((ch[j] - sh[j] * t) * r, (sh[j] + ch[j] * t) * r);
            ch[j] = c;
            sh[j] = s;
        }
        // The root row stays near the scalp.
        if ops::abs(sh[0]) > root_sh {
            sh[0] = root_sh.copysign(sh[0]);
            ch[0] = ops::sqrt(1.0 - root_sh * root_sh);
        }
    }
    let mut parent = frame_rot;
    for (i, o) in out[..n].iter_mut().enumerate() {
        let axis = (o.tail - o.origin).normalize_or_zero();
        if axis != Vec3::ZERO {
            let q = Quat::from_xyzw(axis.x * sh[i], axis.y * sh[i], axis.z * sh[i], ch[i]);
            o.world_rot = quat::mul(q, o.world_rot);
        }
        o.local_rot = quat::mul(parent.inverse(), o.world_rot);
        parent = o.world_rot;
    }
    // Bones past `MAX_BONES` keep their shortest-arc world rotation; the
    // first of them now hangs from a twisted parent.
    if let Some(o) = out.get_mut(n) {
        o.local_rot = quat::mul(parent.inverse(), o.world_rot);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A few exact values where rounding and signed zeros decide (0, −0,
    /// halves), otherwise uniform in ±1 from a seeded xorshift.
    fn draw(state: &mut u32) -> Real {
        *state ^= *state << 13;
        *state ^= *state >> 17;
        *state ^= *state << 5;
        match *state % 16 {
            0 => 0.0,
            1 => -0.0,
            2 => 0.5,
            _ => (*state >> 8) as Real / (1u32 << 23) as Real - 1.0,
        }
    }

    #[test]
    fn rest_inverses_four_to_a_vector_give_the_one_at_a_time_bits() {
        let mut st = 0x2545_f491;
        for _ in 0..20_000 {
            let mut d = || draw(&mut st);
            let mut v = || Vec3::new(d(), d(), d());
            let (u0, l0, w0) = (v(), v(), v());
            let half = draw(&mut st).abs();
            let got = rest_inverses(u0, l0, w0, half).map(Real::to_bits);
            let want = rest_inverses_reference(u0, l0, w0, half).map(Real::to_bits);
            assert_eq!(got, want, "{u0} {l0} {w0} {half}");
        }
    }

    #[test]
    fn four_edges_to_a_vector_give_the_one_at_a_time_bits() {
        let mut st = 0x9e37_79b9;
        for _ in 0..20_000 {
            let mut d = || draw(&mut st);
            let p = Probe {
                uu: d().abs(),
                ll: d().abs(),
                ww: d().abs(),
                xa: [d(), d(), d(), d()],
                xb: [d(), d(), d(), d(), d(), d()],
                ab: [d(), d(), d(), d(), d(), d()],
                inv_r2: core::array::from_fn(|_| d().abs() * 4.0),
            };
            let (ca, sa, cb, sb) = (d(), d(), d(), d());
            let got = p.terms(ca, sa, cb, sb).map(Real::to_bits);
            let want = p.terms_reference(ca, sa, cb, sb).map(Real::to_bits);
            assert_eq!(got, want, "probe {:?}", (p.uu, p.ll, p.ww, ca, sa, cb, sb));
        }
    }
}
