//! The lock's centre line: centroids of bands of equal geodesic distance
//! from the root, and joints at equal arc length along it.
//!
//! On a tube, the vertices at one geodesic distance from the root form a
//! ring around the axis, so their centroid lies on the axis even where the
//! lock bends; the arc length of the polyline through those centroids is the
//! lock's length. Geodesic distance only orders the bands: a vertex's place
//! along the lock is the centre line's arc length at its distance
//! ([`Centreline::arc_at`]), so the metric error of edge paths (see
//! [`super::geodesic`]) does not stretch the joint spacing.

use glam::Vec3;

/// The centre line, root first.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Centreline {
    /// Band centroids.
    pub points: Vec<Vec3>,
    /// Mean geodesic distance of each band (increasing).
    pub distance: Vec<f32>,
    /// Arc length along the centroids (starts at 0).
    pub arc: Vec<f32>,
    /// Mean distance of each band's vertices from the centre line, across it.
    pub radius: Vec<f32>,
}

impl Centreline {
    /// Builds the centre line from welded positions and their distances
    /// (`INFINITY` for unreached vertices, which are left out), in `bands`
    /// equal distance slices between the root (distance 0) and the farthest
    /// vertex. The first point is the centroid of the root band, the last the
    /// centroid of the vertices within a quarter band of the farthest.
    #[must_use]
    pub fn build(positions: &[Vec3], distance: &[f32], bands: usize) -> Self {
        let bands = bands.max(1);
        let max = distance
            .iter()
            .copied()
            .filter(|d| d.is_finite())
            .fold(0.0f32, f32::max);
        let width = if max > 0.0 { max / bands as f32 } else { 1.0 };
        // Slot 0: the root band; 1..=bands: the slices; bands + 1: the end.
        let slots = bands + 2;
        let mut sum = vec![Vec3::ZERO; slots];
        let mut dsum = vec![0.0f32; slots];
        let mut count = vec![0u32; slots];
        let mut add = |slot: usize, p: Vec3, d: f32| {
            sum[slot] += p;
            dsum[slot] += d;
            count[slot] += 1;
        };
        let slot_of = |d: f32| -> usize {
            // Slices are half-open above: (k·w, (k+1)·w] is slot k + 1.
            let k = ops_ceil(d / width).max(1.0) as usize;
            k.min(bands)
        };
        for (&p, &d) in positions.iter().zip(distance) {
            if !d.is_finite() {
                continue;
            }
            if d <= 0.0 {
                add(0, p, d);
            } else {
                add(slot_of(d), p, d);
            }
            if d >= max - 0.25 * width && max > 0.0 {
                add(bands + 1, p, d);
            }
        }
        let mut line = Centreline::default();
        for s in 0..slots {
            if count[s] == 0 {
                continue;
            }
            let c = sum[s] / count[s] as f32;
            let d = dsum[s] / count[s] as f32;
            if let Some(&last) = line.distance.last()
                && d < last
            {
                // The end slot repeats the last slice's vertices; never let
                // distance run backwards.
                continue;
            }
            let arc = line
                .points
                .last()
                .zip(line.arc.last())
                .map_or(0.0, |(&q, &a)| a + q.distance(c));
            line.points.push(c);
            line.distance.push(d);
            line.arc.push(arc);
            line.radius.push(0.0);
        }
        // Band radius: mean distance of each slot's vertices from its centroid,
        // accumulated in a second pass now that centroids are known.
        let mut rsum = vec![0.0f32; line.points.len()];
        let mut rcount = vec![0u32; line.points.len()];
        for (&p, &d) in positions.iter().zip(distance) {
            if !d.is_finite() {
                continue;
            }
            let i = line.index_at(d);
            // Across the lock only: a band spans some length along the axis,
            // which is not thickness.
            let t = line.tangent(i);
            let off = p - line.points[i];
            rsum[i] += (off - t * off.dot(t)).length();
            rcount[i] += 1;
        }
        for (i, r) in line.radius.iter_mut().enumerate() {
            if rcount[i] > 0 {
                *r = rsum[i] / rcount[i] as f32;
            }
        }
        line
    }

    /// Total arc length.
    #[must_use]
    pub fn length(&self) -> f32 {
        self.arc.last().copied().unwrap_or(0.0)
    }

    /// Unit direction of the centre line at point `i` (through its neighbours).
    fn tangent(&self, i: usize) -> Vec3 {
        let n = self.points.len();
        if n < 2 {
            return Vec3::ZERO;
        }
        let a = self.points[i.saturating_sub(1)];
        let b = self.points[(i + 1).min(n - 1)];
        (b - a).normalize_or_zero()
    }

    /// The centre-line point nearest in distance to `d`.
    fn index_at(&self, d: f32) -> usize {
        let i = self.distance.partition_point(|&x| x < d);
        if i == 0 {
            return 0;
        }
        if i >= self.distance.len() {
            return self.distance.len() - 1;
        }
        if d - self.distance[i - 1] < self.distance[i] - d {
            i - 1
        } else {
            i
        }
    }

    /// Arc length at geodesic distance `d`, interpolated between bands
    /// (clamped to the ends).
    #[must_use]
    pub fn arc_at(&self, d: f32) -> f32 {
        interpolate(&self.distance, &self.arc, d)
    }

    /// The point at arc length `a` (clamped to the ends).
    #[must_use]
    pub fn point_at(&self, a: f32) -> Vec3 {
        let n = self.arc.len();
        if n == 0 {
            return Vec3::ZERO;
        }
        let i = self.arc.partition_point(|&x| x < a);
        if i == 0 {
            return self.points[0];
        }
        if i >= n {
            return self.points[n - 1];
        }
        let (a0, a1) = (self.arc[i - 1], self.arc[i]);
        let t = if a1 > a0 { (a - a0) / (a1 - a0) } else { 0.0 };
        self.points[i - 1].lerp(self.points[i], t)
    }

    /// Band radius at arc length `a`.
    #[must_use]
    pub fn radius_at(&self, a: f32) -> f32 {
        interpolate(&self.arc, &self.radius, a)
    }

    /// Arc length of the point of the centre line nearest to `p` (for
    /// vertices the geodesic pass did not reach).
    #[must_use]
    pub fn project(&self, p: Vec3) -> f32 {
        let mut best = (f32::INFINITY, 0.0);
        for (i, w) in self.points.windows(2).enumerate() {
            let ab = w[1] - w[0];
            let len2 = ab.length_squared();
            let t = if len2 > 0.0 {
                ((p - w[0]).dot(ab) / len2).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let d = p.distance_squared(w[0] + ab * t);
            if d < best.0 {
                best = (d, self.arc[i] + t * (self.arc[i + 1] - self.arc[i]));
            }
        }
        best.1
    }

    /// `count` points at equal arc length from the root (`k·L/(count−1)`).
    #[must_use]
    pub fn equal_arc_points(&self, count: usize) -> Vec<Vec3> {
        let len = self.length();
        let div = count.saturating_sub(1).max(1) as f32;
        (0..count)
            .map(|k| self.point_at(len * k as f32 / div))
            .collect()
    }
}

/// `ys` at `x` by linear interpolation over increasing `xs`, clamped.
fn interpolate(xs: &[f32], ys: &[f32], x: f32) -> f32 {
    let n = xs.len().min(ys.len());
    if n == 0 {
        return 0.0;
    }
    let i = xs[..n].partition_point(|&v| v < x);
    if i == 0 {
        return ys[0];
    }
    if i >= n {
        return ys[n - 1];
    }
    let (x0, x1) = (xs[i - 1], xs[i]);
    let t = if x1 > x0 { (x - x0) / (x1 - x0) } else { 0.0 };
    ys[i - 1] + t * (ys[i] - ys[i - 1])
}

/// Ceiling through `ops::floor` (the only rounding functions the math layer has).
fn ops_ceil(x: f32) -> f32 {
    -tress_core::math::ops::floor(-x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rings_along_a_line_give_their_axis_and_radius() {
        // Rings of four points of radius 0.1 at y = 0, -0.1, ..., -1.0, with
        // distance |y| (as Dijkstra gives on a straight tube from ring 0).
        let mut pos = Vec::new();
        let mut dist = Vec::new();
        for i in 0..=10 {
            let y = -0.1 * i as f32;
            for k in 0..4 {
                let a = core::f32::consts::FRAC_PI_2 * k as f32;
                let (s, c) = tress_core::math::ops::sin_cos(a);
                pos.push(Vec3::new(0.1 * c, y, 0.1 * s));
                dist.push(-y);
            }
        }
        let line = Centreline::build(&pos, &dist, 5);
        assert!((line.length() - 1.0).abs() < 1e-5, "{line:?}");
        assert!(
            line.points
                .iter()
                .all(|p| p.x.abs() < 1e-6 && p.z.abs() < 1e-6)
        );
        assert!((line.radius_at(0.5) - 0.1).abs() < 1e-5);
        let j = line.equal_arc_points(3);
        assert!((j[1].y + 0.5).abs() < 1e-5 && (j[2].y + 1.0).abs() < 1e-5);
        assert!((line.project(Vec3::new(0.3, -0.25, 0.0)) - 0.25).abs() < 1e-5);
    }
}
