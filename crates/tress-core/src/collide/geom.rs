//! Closest-point queries between segments, the kernel of capsule contact.
//!
//! A sphere is a zero-length capsule, so every shape reduces to "distance from
//! a point or segment to a segment"; degenerate (zero-length) inputs are
//! handled explicitly so no query divides by zero.

use crate::math::{Real, Vec3};

/// Squared lengths below this count as a zero-length segment.
const DEGENERATE_SQ: Real = 1e-12;

/// Parameter `t` in [0, 1] of the point on segment `a..b` closest to `p`.
#[inline]
#[must_use]
pub fn closest_point_on_segment(a: Vec3, b: Vec3, p: Vec3) -> Real {
    let ab = b - a;
    let len_sq = ab.length_squared();
    if len_sq <= DEGENERATE_SQ {
        return 0.0;
    }
    ((p - a).dot(ab) / len_sq).clamp(0.0, 1.0)
}

/// Parameters `(s, t)` in [0, 1] of the closest points `p0 + s (p1 - p0)` and
/// `q0 + t (q1 - q0)` between two segments, clamped to both.
///
/// Follows the standard clamped solve (Ericson, *Real-Time Collision
/// Detection* §5.1.9); parallel segments pick `s = 0` then clamp `t`, which is
/// one valid closest pair.
#[inline]
#[must_use]
pub fn closest_points_segments(p0: Vec3, p1: Vec3, q0: Vec3, q1: Vec3) -> (Real, Real) {
    let d1 = p1 - p0;
    let d2 = q1 - q0;
    let r = p0 - q0;
    let a = d1.length_squared();
    let e = d2.length_squared();
    let f = d2.dot(r);
    if a <= DEGENERATE_SQ && e <= DEGENERATE_SQ {
        return (0.0, 0.0);
    }
    if a <= DEGENERATE_SQ {
        return (0.0, (f / e).clamp(0.0, 1.0));
    }
    let c = d1.dot(r);
    if e <= DEGENERATE_SQ {
        return ((-c / a).clamp(0.0, 1.0), 0.0);
    }
    let b = d1.dot(d2);
    let denom = a * e - b * b;
    // Near-parallel segments: any s works; 0 keeps the choice deterministic.
    let mut s = if denom > DEGENERATE_SQ * a * e {
        ((b * f - c * e) / denom).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let mut t = (b * s + f) / e;
    if t < 0.0 {
        t = 0.0;
        s = (-c / a).clamp(0.0, 1.0);
    } else if t > 1.0 {
        t = 1.0;
        s = ((b - c) / a).clamp(0.0, 1.0);
    }
    (s, t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crossing_segments_meet_at_midpoints() {
        // Two perpendicular unit segments crossing at (0.5, 0, 0) and 1 apart in z.
        let (s, t) = closest_points_segments(
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(0.5, -0.5, 1.0),
            Vec3::new(0.5, 0.5, 1.0),
        );
        assert!((s - 0.5).abs() < 1e-6 && (t - 0.5).abs() < 1e-6);
    }

    #[test]
    fn degenerate_inputs_stay_in_range() {
        let z = Vec3::ZERO;
        assert_eq!(closest_points_segments(z, z, z, z), (0.0, 0.0));
        let (s, t) = closest_points_segments(
            z,
            Vec3::X,
            Vec3::new(2.0, 1.0, 0.0),
            Vec3::new(2.0, 1.0, 0.0),
        );
        assert_eq!((s, t), (1.0, 0.0));
        // Parallel, overlapping segments.
        let (s, t) = closest_points_segments(z, Vec3::X, Vec3::Y, Vec3::new(1.0, 1.0, 0.0));
        assert!((0.0..=1.0).contains(&s) && (0.0..=1.0).contains(&t));
        assert_eq!(closest_point_on_segment(z, z, Vec3::X), 0.0);
    }
}
