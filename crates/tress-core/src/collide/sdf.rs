//! Signed distance fields on a grid: the body as the hair meets it, built
//! from a triangle mesh, for collision beside the analytic shapes.
//!
//! [`SdfGrid`] samples a caller-owned grid of signed distances (negative
//! inside) with trilinear interpolation and its gradient. [`build_sdf`]
//! fills one from a closed triangle mesh: exact point–triangle distances
//! within a band of cells around the surface, the sign from ray parity
//! along x per grid row (so the mesh needs no consistent winding), and
//! ±band beyond. No allocation; the caller sizes the buffers.

use crate::math::{Real, Vec3, ops};

/// A grid of signed distances, node `(i, j, k)` at
/// `origin + cell · (i, j, k)`, stored x fastest.
#[derive(Debug, Clone, Copy)]
pub struct SdfGrid<'a> {
    /// Position of node (0, 0, 0).
    pub origin: Vec3,
    /// Node spacing.
    pub cell: Real,
    /// Nodes per axis (each at least 2).
    pub dims: [usize; 3],
    /// Signed distance per node, negative inside.
    pub values: &'a [Real],
}

/// Why a field could not be built.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SdfError {
    /// Fewer than two nodes on an axis, or a cell that is not positive.
    BadGrid,
    /// `values` is not `dims[0] · dims[1] · dims[2]` long.
    BufferLength {
        /// Nodes the grid has.
        expected: usize,
        /// Values given.
        found: usize,
    },
    /// A triangle names a vertex past the list (its index).
    BadTriangle(usize),
    /// A vertex is not finite (its index).
    NonFinite(usize),
}

impl core::fmt::Display for SdfError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::BadGrid => write!(
                f,
                "a distance field needs 2+ nodes per axis and a positive cell"
            ),
            Self::BufferLength { expected, found } => {
                write!(
                    f,
                    "distance field buffer has {found} values, the grid {expected} nodes"
                )
            }
            Self::BadTriangle(t) => write!(f, "triangle {t} names a vertex past the list"),
            Self::NonFinite(v) => write!(f, "vertex {v} is not finite"),
        }
    }
}

impl SdfGrid<'_> {
    fn node(&self, i: usize, j: usize, k: usize) -> usize {
        (k * self.dims[1] + j) * self.dims[0] + i
    }

    /// The value at the node nearest `p`, or `None` outside the grid. A
    /// distance field changes by at most the distance moved, so the field at
    /// `p` is within half a cell diagonal of this: a cheap test for points
    /// far from the surface.
    #[must_use]
    pub fn nearest(&self, p: Vec3) -> Option<Real> {
        let g = (p - self.origin) * (1.0 / self.cell) + Vec3::splat(0.5);
        let mut at = [0usize; 3];
        for (a, (&v, &n)) in [g.x, g.y, g.z].iter().zip(&self.dims).enumerate() {
            if !(v >= 0.0 && v < n as Real) {
                return None;
            }
            at[a] = v as usize;
        }
        Some(self.values[self.node(at[0], at[1], at[2])])
    }

    /// Signed distance at `p` and its gradient (unnormalised, per metre),
    /// or `None` outside the grid or for a non-finite `p`.
    #[must_use]
    pub fn sample(&self, p: Vec3) -> Option<(Real, Vec3)> {
        let g = (p - self.origin) * (1.0 / self.cell);
        let mut at = [0usize; 3];
        let mut f = [0.0 as Real; 3];
        for (a, (&v, &n)) in [g.x, g.y, g.z].iter().zip(&self.dims).enumerate() {
            if !(v >= 0.0 && v <= (n - 1) as Real) {
                return None;
            }
            let c = ops::floor(v).min((n - 2) as Real);
            at[a] = c as usize;
            f[a] = v - c;
        }
        let [i, j, k] = at;
        let [x, y, z] = f;
        let v = |a: usize, b: usize, c: usize| self.values[self.node(i + a, j + b, k + c)];
        let (x0, y0, z0) = (1.0 - x, 1.0 - y, 1.0 - z);
        let (c000, c100, c010, c110) = (v(0, 0, 0), v(1, 0, 0), v(0, 1, 0), v(1, 1, 0));
        let (c001, c101, c011, c111) = (v(0, 0, 1), v(1, 0, 1), v(0, 1, 1), v(1, 1, 1));
        let d = ((c000 * x0 + c100 * x) * y0 + (c010 * x0 + c110 * x) * y) * z0
            + ((c001 * x0 + c101 * x) * y0 + (c011 * x0 + c111 * x) * y) * z;
        let gx = ((c100 - c000) * y0 + (c110 - c010) * y) * z0
            + ((c101 - c001) * y0 + (c111 - c011) * y) * z;
        let gy = ((c010 - c000) * x0 + (c110 - c100) * x) * z0
            + ((c011 - c001) * x0 + (c111 - c101) * x) * z;
        let gz = ((c001 - c000) * x0 + (c101 - c100) * x) * y0
            + ((c011 - c010) * x0 + (c111 - c110) * x) * y;
        Some((d, Vec3::new(gx, gy, gz) * (1.0 / self.cell)))
    }
}

/// Distance from `p` to the triangle `a b c`.
#[must_use]
pub fn point_triangle_distance(p: Vec3, a: Vec3, b: Vec3, c: Vec3) -> Real {
    // Ericson, Real-Time Collision Detection §5.1.5: the closest point by
    // Voronoi region.
    let (ab, ac, ap) = (b - a, c - a, p - a);
    let (d1, d2) = (ab.dot(ap), ac.dot(ap));
    let q = if d1 <= 0.0 && d2 <= 0.0 {
        a
    } else {
        let bp = p - b;
        let (d3, d4) = (ab.dot(bp), ac.dot(bp));
        let cp = p - c;
        let (d5, d6) = (ab.dot(cp), ac.dot(cp));
        let vc = d1 * d4 - d3 * d2;
        let vb = d5 * d2 - d1 * d6;
        let va = d3 * d6 - d5 * d4;
        if d3 >= 0.0 && d4 <= d3 {
            b
        } else if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
            a + ab * (d1 / (d1 - d3))
        } else if d6 >= 0.0 && d5 <= d6 {
            c
        } else if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
            a + ac * (d2 / (d2 - d6))
        } else if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
            b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)))
        } else {
            let denom = 1.0 / (va + vb + vc);
            a + ab * (vb * denom) + ac * (vc * denom)
        }
    };
    (p - q).length()
}

/// What a build did.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct SdfBuild {
    /// Point–triangle distances evaluated.
    pub distance_tests: u64,
    /// Ray–triangle tests for the sign.
    pub sign_tests: u64,
}

/// Fills `values` (a grid of `dims` nodes from `origin`, spacing `cell`)
/// with the signed distance to the closed mesh `vertices` / `triangles`:
/// exact within `band` cells of the surface, ±`band · cell` beyond.
///
/// # Errors
/// [`SdfError`] for a bad grid, buffer, index or vertex; `values` is left
/// as it was.
pub fn build_sdf(
    vertices: &[Vec3],
    triangles: &[[u32; 3]],
    origin: Vec3,
    cell: Real,
    dims: [usize; 3],
    band: usize,
    values: &mut [Real],
) -> Result<SdfBuild, SdfError> {
    if dims.iter().any(|&n| n < 2) || cell.is_nan() || cell <= 0.0 || !origin.is_finite() {
        return Err(SdfError::BadGrid);
    }
    let expected = dims[0] * dims[1] * dims[2];
    if values.len() != expected {
        return Err(SdfError::BufferLength {
            expected,
            found: values.len(),
        });
    }
    if let Some(v) = vertices.iter().position(|v| !v.is_finite()) {
        return Err(SdfError::NonFinite(v));
    }
    if let Some(t) = triangles
        .iter()
        .position(|t| t.iter().any(|&i| i as usize >= vertices.len()))
    {
        return Err(SdfError::BadTriangle(t));
    }
    let mut stats = SdfBuild::default();
    let far = band.max(1) as Real * cell;
    values.fill(far);
    let inv = 1.0 / cell;
    let node = |i: usize, j: usize, k: usize| (k * dims[1] + j) * dims[0] + i;
    let pos =
        |i: usize, j: usize, k: usize| origin + Vec3::new(i as Real, j as Real, k as Real) * cell;
    // Unsigned distances within the band of each triangle's box.
    for t in triangles {
        let [a, b, c] = t.map(|i| vertices[i as usize]);
        let lo = (a.min(b).min(c) - origin) * inv - Vec3::splat(band as Real);
        let hi = (a.max(b).max(c) - origin) * inv + Vec3::splat(band as Real);
        let range = |l: Real, h: Real, n: usize| {
            let l = ops::floor(l).max(0.0) as usize;
            let h = (ops::floor(h) + 1.0).min((n - 1) as Real).max(0.0) as usize;
            l..=h.max(l).min(n - 1)
        };
        for k in range(lo.z, hi.z, dims[2]) {
            for j in range(lo.y, hi.y, dims[1]) {
                for i in range(lo.x, hi.x, dims[0]) {
                    let d = point_triangle_distance(pos(i, j, k), a, b, c);
                    stats.distance_tests += 1;
                    let n = node(i, j, k);
                    if d < values[n] {
                        values[n] = d;
                    }
                }
            }
        }
    }
    // Sign by ray parity along +x per row: a crossing at x flips every node
    // past it. The ray is nudged off the grid rows by a fixed fraction of a
    // cell so it does not run through vertices and edges of meshes built on
    // the same grid.
    let nudge = Vec3::new(0.0, 0.000_173, 0.000_311) * cell;
    for k in 0..dims[2] {
        for j in 0..dims[1] {
            let ray = pos(0, j, k) + nudge;
            let row = node(0, j, k);
            for t in triangles {
                let [a, b, c] = t.map(|i| vertices[i as usize]);
                stats.sign_tests += 1;
                if let Some(x) = row_crossing(ray, a, b, c) {
                    // Every node past the crossing flips: odd counts end inside.
                    let first = ops::floor((x - origin.x) * inv) + 1.0;
                    if first < dims[0] as Real {
                        let first = first.max(0.0) as usize;
                        for v in &mut values[row + first..row + dims[0]] {
                            *v = -*v;
                        }
                    }
                }
            }
        }
    }
    Ok(stats)
}

/// Where the line through `o` along +x crosses the triangle `a b c` (its
/// x), if it does; counted by the triangle's y–z projection.
fn row_crossing(o: Vec3, a: Vec3, b: Vec3, c: Vec3) -> Option<Real> {
    let (py, pz) = (o.y, o.z);
    let e = |p: Vec3, q: Vec3| (q.y - p.y) * (pz - p.z) - (q.z - p.z) * (py - p.y);
    let (w0, w1, w2) = (e(b, c), e(c, a), e(a, b));
    let inside = (w0 >= 0.0 && w1 >= 0.0 && w2 >= 0.0) || (w0 <= 0.0 && w1 <= 0.0 && w2 <= 0.0);
    let sum = w0 + w1 + w2;
    if !inside || sum == 0.0 {
        return None;
    }
    Some((a.x * w0 + b.x * w1 + c.x * w2) / sum)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A UV sphere of `radius` at `centre`: `rings` × `segments`.
    fn sphere(
        centre: Vec3,
        radius: Real,
        rings: u32,
        segments: u32,
    ) -> (alloc_free::Verts, alloc_free::Tris) {
        let mut v = alloc_free::Verts::new();
        let mut t = alloc_free::Tris::new();
        pv(&mut v, centre + Vec3::Y * radius);
        for r in 1..rings {
            let th = core::f32::consts::PI * r as Real / rings as Real;
            for s in 0..segments {
                let ph = 2.0 * core::f32::consts::PI * s as Real / segments as Real;
                pv(
                    &mut v,
                    centre
                        + Vec3::new(
                            ops::sin(th) * ops::cos(ph),
                            ops::cos(th),
                            ops::sin(th) * ops::sin(ph),
                        ) * radius,
                );
            }
        }
        pv(&mut v, centre - Vec3::Y * radius);
        let bottom = v.len() as u32 - 1;
        let at = |r: u32, s: u32| 1 + (r - 1) * segments + s % segments;
        for s in 0..segments {
            pt(&mut t, [0, at(1, s + 1), at(1, s)]);
            pt(&mut t, [bottom, at(rings - 1, s), at(rings - 1, s + 1)]);
        }
        for r in 1..rings - 1 {
            for s in 0..segments {
                pt(&mut t, [at(r, s), at(r, s + 1), at(r + 1, s)]);
                pt(&mut t, [at(r, s + 1), at(r + 1, s + 1), at(r + 1, s)]);
            }
        }
        (v, t)
    }

    fn pv(v: &mut alloc_free::Verts, p: Vec3) {
        v.push(p).expect("test mesh fits");
    }

    fn pt(t: &mut alloc_free::Tris, tri: [u32; 3]) {
        t.push(tri).expect("test mesh fits");
    }

    /// Fixed-capacity lists for the no_std tests.
    mod alloc_free {
        use crate::math::Vec3;
        pub type Verts = heapless::Vec<Vec3, 2048>;
        pub type Tris = heapless::Vec<[u32; 3], 4096>;
    }

    #[test]
    fn a_sphere_field_matches_the_sphere() {
        let (v, t) = sphere(Vec3::ZERO, 0.1, 24, 48);
        let dims = [20usize; 3];
        let cell = 0.015;
        let origin = Vec3::splat(-0.1425);
        let mut values = [0.0 as Real; 8000];
        let stats = build_sdf(&v, &t, origin, cell, dims, 3, &mut values).unwrap();
        assert!(stats.distance_tests > 0);
        let g = SdfGrid {
            origin,
            cell,
            dims,
            values: &values,
        };
        // Near the surface the field is the sphere's distance to within the
        // tessellation (1 mm) and trilinear error; the sign is right
        // everywhere, and the gradient points out.
        for k in 0..200 {
            let a = k as Real * 0.731;
            let dir = Vec3::new(
                ops::cos(a) * ops::sin(a * 1.3),
                ops::cos(a * 1.3),
                ops::sin(a) * ops::sin(a * 1.3),
            )
            .normalize();
            for r in [0.07, 0.09, 0.1, 0.11, 0.13] {
                let p = dir * r;
                let (d, grad) = g.sample(p).unwrap();
                let want = r - 0.1;
                assert!((d - want).abs() < 0.004, "at r {r}: {d} vs {want}");
                if want.abs() > 0.005 {
                    assert_eq!(d < 0.0, want < 0.0, "sign at r {r}");
                }
                if want.abs() < 0.02 {
                    assert!(grad.normalize().dot(dir) > 0.9, "gradient at r {r}");
                }
            }
        }
        assert!(g.sample(Vec3::splat(1.0)).is_none());
        assert!(g.sample(Vec3::NAN).is_none());
    }

    #[test]
    fn bad_input_is_refused_and_leaves_the_buffer() {
        let (v, t) = sphere(Vec3::ZERO, 0.1, 4, 8);
        let mut values = [7.0 as Real; 8];
        assert_eq!(
            build_sdf(&v, &t, Vec3::ZERO, 0.0, [2, 2, 2], 1, &mut values),
            Err(SdfError::BadGrid)
        );
        assert_eq!(
            build_sdf(&v, &t, Vec3::ZERO, 0.1, [2, 2, 3], 1, &mut values),
            Err(SdfError::BufferLength {
                expected: 12,
                found: 8
            })
        );
        assert_eq!(
            build_sdf(
                &v,
                &[[0, 1, 999]],
                Vec3::ZERO,
                0.1,
                [2, 2, 2],
                1,
                &mut values
            ),
            Err(SdfError::BadTriangle(0))
        );
        let mut bad = v.clone();
        bad[2] = Vec3::NAN;
        assert_eq!(
            build_sdf(&bad, &t, Vec3::ZERO, 0.1, [2, 2, 2], 1, &mut values),
            Err(SdfError::NonFinite(2))
        );
        assert!(values.iter().all(|&x| x == 7.0));
    }
}
