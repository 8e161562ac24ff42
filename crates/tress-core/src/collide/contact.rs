//! Contact queries: clearance, push-out of points and of whole segments, and
//! swept contact against a collider that moves within one substep.
//!
//! Clearance is `C = d - (r_b + r_h)` for outside shapes (negative means
//! overlap) and `C = r_b - r_h - d` for inside shapes. Push-out only ever
//! returns a corrected position and the unit direction it moved along;
//! turning that into velocity (or not) is the solver's business.

use super::geom::{closest_point_on_segment, closest_points_segments};
use super::shape::{ShapeKind, WorldCollider};
use crate::math::{Real, Vec3};

/// Contact points closer to the fixed root than this fraction of the segment
/// are corrected as if they sat here, so the tail never gets an unbounded lever.
pub const MIN_LEVER: Real = 0.2;

/// [`MIN_LEVER`] for a segment whose root is another segment's end, as the
/// spring solver uses it: a contact nearer that root than half the segment
/// moves the free end by at most twice its depth, and what is left is the
/// parent's, whose own end lies in the contact (its next pass or substep
/// pushes it there with a lever of about 1). Flicking the free end by up to
/// five times the depth instead turned a lock sweeping onto a shoulder
/// capsule 13 mm in one 1/120 s substep, its bends from 4° to 30°
/// (docs/log/2026-12-06-contact-lever.md). A chain's first segment keeps
/// [`MIN_LEVER`]: its root is the attachment, which nothing pushes; so do
/// the chains of a band (`SpringWorld::add_band_link`), whose neighbours
/// hold each joint beside its parent.
pub const JOINED_ROOT_LEVER: Real = 0.5;

/// `correction`, a hit at `s` on the segment `p0..p1` levered with the
/// [`MIN_LEVER`] floor, re-levered with the floor `lever` (unchanged for a
/// zero-length segment, whose correction has no lever).
#[inline]
#[must_use]
pub fn relever(correction: Vec3, s: Real, p0: Vec3, p1: Vec3, lever: Real) -> Vec3 {
    if lever <= MIN_LEVER || (p1 - p0).length_squared() <= TINY * TINY {
        correction
    } else {
        correction * (s.max(MIN_LEVER) / s.max(lever))
    }
}

/// Upper bound of collider poses sampled by a swept test in one substep.
pub const MAX_SWEEP_SAMPLES: u32 = 32;

/// Distances below this are treated as zero when normalising.
const TINY: Real = 1e-9;

/// Lever from the contact point to the free end: `1/s` with `s` floored at
/// [`MIN_LEVER`], or 1 for a zero-length segment (a point contact).
#[inline]
fn lever_scale(s: Real, p0: Vec3, p1: Vec3) -> Real {
    if (p1 - p0).length_squared() <= TINY * TINY {
        1.0
    } else {
        1.0 / s.max(MIN_LEVER)
    }
}

/// A whole-segment contact: how the free end of a segment must move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SegmentHit {
    /// Displacement to add to the segment's free end `p1`.
    pub correction: Vec3,
    /// Unit direction the contact point is pushed along.
    pub normal: Vec3,
    /// Parameter of the contact point on the segment, `p0 + s (p1 - p0)`.
    pub s: Real,
    /// Clearance before correction (negative).
    pub clearance: Real,
}

/// Unit vector of `d` or, when `d` vanishes, a stable direction away from the axis.
#[inline]
fn dir_or(d: Vec3, dist: Real, axis: Vec3) -> Vec3 {
    if dist > TINY {
        d * (1.0 / dist)
    } else {
        // Point on the axis: any fixed direction away from it will do. The
        // strand solver's SIMD lanes reproduce this exact expression, so the
        // two must change together.
        axis.any_orthonormal_vector().normalize_or(Vec3::Y)
    }
}

/// Clearance of a point with hit radius `r` and the unit direction that
/// increases it.
#[must_use]
pub fn clearance_point(c: &WorldCollider, p: Vec3, r: Real) -> (Real, Vec3) {
    match c.kind {
        ShapeKind::Plane => ((p - c.a).dot(c.normal) - c.radius - r, c.normal),
        kind => {
            let t = closest_point_on_segment(c.a, c.b, p);
            let d = p - (c.a + (c.b - c.a) * t);
            let dist = d.length();
            let n = dir_or(d, dist, c.b - c.a);
            if kind.is_inside() {
                (c.radius - r - dist, -n)
            } else {
                (dist - c.radius - r, n)
            }
        }
    }
}

/// Pushes point `p` with hit radius `r` out of the collider (or back inside an
/// inside shape). Returns the corrected point and the unit push direction, or
/// `None` when there is no overlap.
#[inline]
#[must_use]
pub fn push_out_point(c: &WorldCollider, p: Vec3, r: Real) -> Option<(Vec3, Vec3)> {
    if matches!(c.kind, ShapeKind::Sphere | ShapeKind::Capsule) {
        // Most queries miss: decide on the squared distance, no square root;
        // a hit reuses the same closest point (same result as
        // `clearance_point`).
        let t = closest_point_on_segment(c.a, c.b, p);
        let reach = c.radius + r;
        let d = p - (c.a + (c.b - c.a) * t);
        let dist_sq = d.length_squared();
        if dist_sq >= reach * reach {
            return None;
        }
        let dist = crate::math::ops::sqrt(dist_sq);
        let n = dir_or(d, dist, c.b - c.a);
        let clear = dist - reach;
        return (clear < 0.0).then(|| (p - n * clear, n));
    }
    let (clear, n) = clearance_point(c, p, r);
    (clear < 0.0).then(|| (p - n * clear, n))
}

/// Worst clearance over the segment `p0..p1` with hit radius `r`: returns
/// `(C, n, s)` with `s` the parameter of the deepest point.
#[must_use]
pub fn clearance_segment(c: &WorldCollider, p0: Vec3, p1: Vec3, r: Real) -> (Real, Vec3, Real) {
    match c.kind {
        ShapeKind::Sphere | ShapeKind::Capsule => {
            let (s, t) = closest_points_segments(p0, p1, c.a, c.b);
            let p = p0 + (p1 - p0) * s;
            let d = p - (c.a + (c.b - c.a) * t);
            let dist = d.length();
            let n = if dist > TINY {
                d * (1.0 / dist)
            } else {
                // Segment through the axis: push across the hair.
                (p1 - p0).normalize_or(Vec3::X).any_orthonormal_vector()
            };
            (dist - c.radius - r, n, s)
        }
        // Plane distance and inside-shape depth are convex along the segment,
        // so the worst point is an endpoint; the free end wins ties.
        _ => {
            let (c0, n0) = clearance_point(c, p0, r);
            let (c1, n1) = clearance_point(c, p1, r);
            if c0 < c1 {
                (c0, n0, 0.0)
            } else {
                (c1, n1, 1.0)
            }
        }
    }
}

/// Segment contact for a segment whose root `p0` is fixed: the displacement
/// of `p1` that moves the deepest point clear, scaled by the lever `1/s`
/// (with `s` floored at [`MIN_LEVER`]). The caller re-projects the length.
#[must_use]
pub fn push_out_segment(c: &WorldCollider, p0: Vec3, p1: Vec3, r: Real) -> Option<SegmentHit> {
    let (clear, n, s) = clearance_segment(c, p0, p1, r);
    (clear < 0.0).then(|| SegmentHit {
        correction: n * (-clear * lever_scale(s, p0, p1)),
        normal: n,
        s,
        clearance: clear,
    })
}

/// Segment contact against a collider that moved from `prev` to `cur` during
/// the substep. Samples the sweep (at most [`MAX_SWEEP_SAMPLES`] poses, spaced
/// at half the combined radius) and, at the first pose that touches the
/// segment, remembers which side the segment was on; the segment is then
/// kept on that side of the final pose, so a fast collider pushes the strand
/// along instead of tunnelling through it.
#[must_use]
pub fn push_out_segment_swept(
    prev: &WorldCollider,
    cur: &WorldCollider,
    p0: Vec3,
    p1: Vec3,
    r: Real,
) -> Option<SegmentHit> {
    push_out_segment_moving(prev, cur, cur.displacement_from(prev), p0, p1, r)
}

/// [`push_out_segment_swept`] with the collider's displacement `moved`
/// (see [`WorldCollider::displacement_from`]) computed once by the caller,
/// which solvers do per substep rather than per joint.
#[inline]
#[must_use]
pub fn push_out_segment_moving(
    prev: &WorldCollider,
    cur: &WorldCollider,
    moved: Real,
    p0: Vec3,
    p1: Vec3,
    r: Real,
) -> Option<SegmentHit> {
    let reach = cur.radius + r;
    // Half-spaces and inside shapes cannot be crossed unseen, and slow
    // colliders cannot skip a segment: the end pose alone decides.
    let round = matches!(cur.kind, ShapeKind::Sphere | ShapeKind::Capsule);
    // Half-spaces and inside shapes cannot be crossed unseen, and slow
    // colliders cannot skip a segment: the end pose alone decides.
    if !round {
        return push_out_segment(cur, p0, p1, r);
    }
    if moved.is_nan() || moved <= 0.5 * reach {
        // The common case, inlined: reject on squared distance before any
        // square root, and build the hit from the same closest points.
        let (s, t) = closest_points_segments(p0, p1, cur.a, cur.b);
        let d = (p0 + (p1 - p0) * s) - (cur.a + (cur.b - cur.a) * t);
        let dist_sq = d.length_squared();
        if dist_sq >= reach * reach {
            return None;
        }
        let dist = crate::math::ops::sqrt(dist_sq);
        let n = if dist > TINY {
            d * (1.0 / dist)
        } else {
            (p1 - p0).normalize_or(Vec3::X).any_orthonormal_vector()
        };
        let clear = dist - reach;
        return Some(SegmentHit {
            correction: n * (-clear * lever_scale(s, p0, p1)),
            normal: n,
            s,
            clearance: clear,
        });
    }
    let spacing = (0.5 * reach).max(TINY);
    let wanted = crate::math::ops::floor(moved / spacing) + 1.0;
    let samples = if wanted < MAX_SWEEP_SAMPLES as Real {
        wanted as u32
    } else {
        MAX_SWEEP_SAMPLES
    };
    for k in 1..=samples {
        let pose = prev.lerp(cur, k as Real / samples as Real);
        let (clear, n, s) = clearance_segment(&pose, p0, p1, r);
        if clear >= 0.0 {
            continue;
        }
        // First touch: hold the contact point on the side `n` of the end pose.
        let p = p0 + (p1 - p0) * s;
        let q = cur.a + (cur.b - cur.a) * closest_point_on_segment(cur.a, cur.b, p);
        let along = (p - q).dot(n);
        let lateral = (p - q) - n * along;
        // Depth still needed along n so the point clears the final capsule.
        let need = crate::math::ops::sqrt((reach * reach - lateral.length_squared()).max(0.0));
        let depth = need - along;
        if depth <= 0.0 {
            return None;
        }
        return Some(SegmentHit {
            correction: n * (depth * lever_scale(s, p0, p1)),
            normal: n,
            s,
            clearance: -depth,
        });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collide::Collider;
    use crate::math::Quat;

    fn posed(c: Collider) -> WorldCollider {
        c.posed(Vec3::ZERO, Quat::IDENTITY, 1.0)
    }

    #[test]
    fn point_push_out_per_shape() {
        // Sphere r=1 at origin, point at x=0.5 with r_h=0.1: C = 0.5-1.1 = -0.6, out to x=1.1.
        let (p, n) = push_out_point(
            &posed(Collider::sphere(Vec3::ZERO, 1.0)),
            Vec3::new(0.5, 0.0, 0.0),
            0.1,
        )
        .unwrap();
        assert!((p - Vec3::new(1.1, 0.0, 0.0)).length() < 1e-6 && n == Vec3::X);
        // Plane y=0 up: point at y=-0.2 goes to y=r_h=0.05.
        let (p, _) = push_out_point(
            &posed(Collider::plane(Vec3::ZERO, Vec3::Y)),
            Vec3::new(3.0, -0.2, 0.0),
            0.05,
        )
        .unwrap();
        assert!((p.y - 0.05).abs() < 1e-6);
        // Inside sphere r=1: point at x=2 with r_h=0.1 comes back to x=0.9.
        let (p, n) = push_out_point(
            &posed(Collider::inside_sphere(Vec3::ZERO, 1.0)),
            Vec3::new(2.0, 0.0, 0.0),
            0.1,
        )
        .unwrap();
        assert!((p.x - 0.9).abs() < 1e-6 && n == -Vec3::X);
        // Capsule along x: point above the middle pushed straight up.
        let cap = posed(Collider::capsule(Vec3::ZERO, Vec3::new(2.0, 0.0, 0.0), 0.5));
        let (p, n) = push_out_point(&cap, Vec3::new(1.0, 0.25, 0.0), 0.0).unwrap();
        assert!((p - Vec3::new(1.0, 0.5, 0.0)).length() < 1e-6 && n == Vec3::Y);
        assert!(push_out_point(&cap, Vec3::new(1.0, 0.6, 0.0), 0.0).is_none());
        // Inside capsule keeps points inside.
        let inside = posed(Collider::inside_capsule(
            Vec3::ZERO,
            Vec3::new(2.0, 0.0, 0.0),
            0.5,
        ));
        let (p, _) = push_out_point(&inside, Vec3::new(1.0, 0.9, 0.0), 0.0).unwrap();
        assert!((p.y - 0.5).abs() < 1e-6);
    }

    #[test]
    fn segment_contact_sees_the_middle() {
        // Segment from (0,0,0) to (2,0,0) passes 0.05 under a sphere r=0.1 at (1,0.05,0):
        // both endpoints are clear, the middle is not.
        let sph = posed(Collider::sphere(Vec3::new(1.0, 0.05, 0.0), 0.1));
        let p1 = Vec3::new(2.0, 0.0, 0.0);
        assert!(push_out_point(&sph, p1, 0.0).is_none());
        let hit = push_out_segment(&sph, Vec3::ZERO, p1, 0.0).unwrap();
        assert!((hit.s - 0.5).abs() < 1e-6);
        assert!((hit.clearance + 0.05).abs() < 1e-6);
        // Lever 1/s = 2: the tail moves 0.1 so the midpoint moves 0.05.
        assert!((hit.correction - Vec3::new(0.0, -0.1, 0.0)).length() < 1e-6);
    }

    #[test]
    fn swept_capsule_does_not_tunnel() {
        // Strand from (0,0,0) down to (0,-1,0); a capsule along z (r 0.05)
        // jumps from x=-0.25 to x=+0.25 at y=-0.5 in one substep.
        let c = |x: Real| {
            posed(Collider::capsule(
                Vec3::new(x, -0.5, -1.0),
                Vec3::new(x, -0.5, 1.0),
                0.05,
            ))
        };
        let (prev, cur) = (c(-0.25), c(0.25));
        let p1 = Vec3::new(0.0, -1.0, 0.0);
        assert!(
            push_out_segment(&cur, Vec3::ZERO, p1, 0.01).is_none(),
            "end pose alone misses"
        );
        let hit = push_out_segment_swept(&prev, &cur, Vec3::ZERO, p1, 0.01).unwrap();
        assert!(hit.normal.x > 0.9, "pushed ahead of the capsule");
        // The midpoint ends at x >= 0.25 + 0.06: tail moves twice that.
        assert!(hit.correction.x * hit.s >= 0.31 - 1e-5);
    }
}
