//! Branch-free per-lane math for the chunked kernel: a vectorisable inverse
//! square root and the sphere/capsule push-out the lane loops inline.
//!
//! libm's `sqrtf` is a single instruction behind inline assembly, which the
//! loop vectoriser cannot widen; [`rsqrt`] is plain IEEE arithmetic (a bit
//! trick and two Newton steps) so a row of strands becomes SIMD, and it
//! is the same on every platform. Its relative error is below 1e-5
//! (see the tests), far under the solver's tolerances.

// Index loops over lanes and particles are the point here: fixed-width
// indexed loops over several arrays are what the vectoriser widens.
#![allow(clippy::needless_range_loop)]

use super::layout::LANES;
use crate::collide::WorldCollider;
use crate::math::{Real, Vec3, ops};

/// Lengths below this are treated as zero when normalising.
pub const TINY: Real = 1e-9;
const TINY2: Real = TINY * TINY;

/// `1 / sqrt(x)` for `x > 0` (finite garbage for `x <= 0`: guard before use).
#[inline(always)]
#[must_use]
pub fn rsqrt(x: Real) -> Real {
    // Initial guess within 3.5% (Lomont's constant), then two Newton steps:
    // 3.5e-2 → 1.8e-3 → 4.6e-6, a length error far below the 1% budget.
    let mut y = Real::from_bits(0x5f37_5a86_u32.wrapping_sub(x.to_bits() >> 1));
    let h = 0.5 * x;
    // y (1.5 − h y²) written as 1.5 y − (h y)(y y): the three products of y
    // are independent, so a step is three operations deep instead of four
    // (the length sweep is a chain of these from root to tip).
    y = 1.5 * y - (h * y) * (y * y);
    y = 1.5 * y - (h * y) * (y * y);
    y
}

/// `v.normalize_or(Vec3::Y)` with the same bits, its root through
/// [`ops::sqrt`] (glam's goes to libm's legacy-encoded `sqrtss`, which
/// stalls inside the wide builds on Intel).
#[inline(always)]
fn unit_or_y(v: Vec3) -> Vec3 {
    let rcp = 1.0 / ops::sqrt(v.dot(v));
    if rcp.is_finite() && rcp > 0.0 {
        v * rcp
    } else {
        Vec3::Y
    }
}

/// 1.0 where `b`, else 0.0.
#[inline(always)]
fn mask(b: bool) -> Real {
    Real::from(u8::from(b))
}

/// A sphere or capsule prepared for the lane loops.
#[derive(Debug, Clone, Copy)]
pub struct Capsule {
    a: Vec3,
    ab: Vec3,
    inv_ab2: Real,
    radius: Real,
    margin: Real,
    /// Push direction for a point exactly on the axis, as `push_out_point` picks it.
    fallback: Vec3,
}

impl Capsule {
    /// Prepares `c` (a sphere or capsule) for particles of radius `margin`.
    #[must_use]
    pub fn new(c: &WorldCollider, margin: Real) -> Self {
        let ab = c.b - c.a;
        let ab2 = ab.length_squared();
        Self {
            a: c.a,
            ab,
            // Matches the degenerate-segment threshold of `closest_point_on_segment`.
            inv_ab2: if ab2 > 1e-12 { 1.0 / ab2 } else { 0.0 },
            radius: c.radius,
            margin,
            fallback: unit_or_y(ab.any_orthonormal_vector()),
        }
    }

    /// Distance from `p` to the capsule's surface grown by the margin
    /// (negative inside): what a whole chunk is tested against for culling.
    #[must_use]
    pub fn clearance(&self, p: Vec3) -> Real {
        let ap = p - self.a;
        let t = (ap.dot(self.ab) * self.inv_ab2).clamp(0.0, 1.0);
        ops::sqrt((ap - self.ab * t).length_squared()) - self.radius - self.margin
    }

    /// Push-out of one point, for tests and odd lanes: returns whether it
    /// was inside, the corrected point, and the previous position moved so
    /// the implicit velocity loses only its into-collider part. `slide =
    /// Some((parent, len))` also slides the point on the tangent plane back to
    /// `len` from `parent`.
    #[must_use]
    pub fn push(
        &self,
        p: [Real; 3],
        q: [Real; 3],
        slide: Option<([Real; 3], Real)>,
    ) -> (bool, [Real; 3], [Real; 3]) {
        let mut x = Rows::<LANES>::splat(p);
        let mut pq = Rows::<LANES>::splat(q);
        let (par, len) = slide.unwrap_or(([0.0; 3], 0.0));
        let hit = if slide.is_some() {
            self.push_rows::<true, LANES>(&mut x, &mut pq, &Rows::splat(par), &[len; LANES])
        } else {
            self.push_rows::<false, LANES>(&mut x, &mut pq, &Rows::splat(par), &[len; LANES])
        };
        (hit, [x.x[0], x.y[0], x.z[0]], [pq.x[0], pq.y[0], pq.z[0]])
    }

    /// Pushes a row of particles `x` (previous positions `q`) out of the
    /// capsule; with `SLIDE`, each pushed particle then slides on the tangent
    /// plane back to `len` from its parent in `par`. Returns whether any lane
    /// was inside. One flat, branch-free loop so it vectorises.
    #[inline(always)]
    pub fn push_rows<const SLIDE: bool, const L: usize>(
        &self,
        x: &mut Rows<L>,
        q: &mut Rows<L>,
        par: &Rows<L>,
        len: &Row<L>,
    ) -> bool {
        if self.inv_ab2 == 0.0 {
            self.push_rows_impl::<SLIDE, true, L>(x, q, par, len)
        } else {
            self.push_rows_impl::<SLIDE, false, L>(x, q, par, len)
        }
    }

    /// `SPHERE` skips the projection onto the axis (a zero-length one).
    #[inline(always)]
    fn push_rows_impl<const SLIDE: bool, const SPHERE: bool, const L: usize>(
        &self,
        x: &mut Rows<L>,
        q: &mut Rows<L>,
        par: &Rows<L>,
        len: &Row<L>,
    ) -> bool {
        // Cheap pass first: most rows touch nothing (tips hang clear of the
        // head, roots clear of the neck), and then the full push is skipped.
        // The bound is conservative, so skipping never changes a result.
        let reach = (self.radius + self.margin) * (1.0 + 1e-4) + 1e-6;
        let reach2 = reach * reach;
        let mut near = false;
        for l in 0..L {
            let (ax, ay, az) = (x.x[l] - self.a.x, x.y[l] - self.a.y, x.z[l] - self.a.z);
            let t = if SPHERE {
                0.0
            } else {
                ((ax * self.ab.x + ay * self.ab.y + az * self.ab.z) * self.inv_ab2).clamp(0.0, 1.0)
            };
            let (dx, dy, dz) = (ax - self.ab.x * t, ay - self.ab.y * t, az - self.ab.z * t);
            near |= dx * dx + dy * dy + dz * dz < reach2;
        }
        if !near {
            return false;
        }
        let mut any = false;
        for l in 0..L {
            let (px, py, pz) = (x.x[l], x.y[l], x.z[l]);
            let (ax, ay, az) = (px - self.a.x, py - self.a.y, pz - self.a.z);
            let t = if SPHERE {
                0.0
            } else {
                ((ax * self.ab.x + ay * self.ab.y + az * self.ab.z) * self.inv_ab2).clamp(0.0, 1.0)
            };
            let (dx, dy, dz) = (ax - self.ab.x * t, ay - self.ab.y * t, az - self.ab.z * t);
            let d2 = dx * dx + dy * dy + dz * dz;
            // Masks as 0.0/1.0 floats: `if hit { o } else { p }` stored back
            // over `p` becomes a conditional store, which plain SSE2 cannot
            // vectorise; a multiply-add blend always stores.
            let ok = mask(d2 > TINY2);
            let inv = rsqrt(d2.max(TINY2));
            let clear = d2 * inv - self.radius - self.margin;
            let inside = clear < 0.0;
            let hit = mask(inside);
            let nx = self.fallback.x + (dx * inv - self.fallback.x) * ok;
            let ny = self.fallback.y + (dy * inv - self.fallback.y) * ok;
            let nz = self.fallback.z + (dz * inv - self.fallback.z) * ok;
            let mut ox = px - nx * clear;
            let mut oy = py - ny * clear;
            let mut oz = pz - nz * clear;
            let (vx, vy, vz) = (px - q.x[l], py - q.y[l], pz - q.z[l]);
            let vn = (vx * nx + vy * ny + vz * nz).min(0.0);
            let (vx, vy, vz) = (vx - nx * vn, vy - ny * vn, vz - nz * vn);
            if SLIDE {
                let (ex, ey, ez) = (ox - par.x[l], oy - par.y[l], oz - par.z[l]);
                let dn = ex * nx + ey * ny + ez * nz;
                let (tx, ty, tz) = (ex - nx * dn, ey - ny * dn, ez - nz * dn);
                let tl2 = tx * tx + ty * ty + tz * tz;
                let s2 = len[l] * len[l] - dn * dn;
                let can = mask(tl2 > TINY2) * mask(s2 > 0.0);
                let s2c = s2.max(TINY2);
                let sc = s2c * rsqrt(s2c) * rsqrt(tl2.max(TINY2));
                ox += (par.x[l] + nx * dn + tx * sc - ox) * can;
                oy += (par.y[l] + ny * dn + ty * sc - oy) * can;
                oz += (par.z[l] + nz * dn + tz * sc - oz) * can;
            }
            x.x[l] = px + (ox - px) * hit;
            x.y[l] = py + (oy - py) * hit;
            x.z[l] = pz + (oz - pz) * hit;
            q.x[l] += (ox - vx - q.x[l]) * hit;
            q.y[l] += (oy - vy - q.y[l]) * hit;
            q.z[l] += (oz - vz - q.z[l]) * hit;
            any |= inside;
        }
        any
    }
}

/// One row (particle `i` of `L` strands, [`LANES`] by default) of x, y, z.
///
/// Aligned to a cache line so a copy of a row on the stack (the kernel keeps
/// several) loads and stores whole lines: with 4-byte alignment its stores
/// straddled lines and stalled the next row's loads (9 % of a frame).
#[derive(Debug, Clone, Copy)]
#[repr(C, align(64))]
pub struct Rows<const L: usize = LANES> {
    /// x of each lane.
    pub x: Row<L>,
    /// y of each lane.
    pub y: Row<L>,
    /// z of each lane.
    pub z: Row<L>,
}

impl<const L: usize> Rows<L> {
    /// Every lane set to `p`.
    #[must_use]
    pub fn splat(p: [Real; 3]) -> Self {
        Self {
            x: [p[0]; L],
            y: [p[1]; L],
            z: [p[2]; L],
        }
    }
}

/// One float per lane.
pub type Row<const L: usize = LANES> = [Real; L];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::ops;

    #[test]
    fn rsqrt_is_accurate_across_the_range() {
        let mut x: Real = 1e-12;
        while x < 1e6 {
            let e = (rsqrt(x) * ops::sqrt(x) - 1.0).abs();
            assert!(e < 1e-5, "x={x} rel err {e}");
            x *= 1.37;
        }
    }
}
