//! Collider shapes: authored in an attachment frame, posed into world space.
//!
//! [`WorldCollider`] is deliberately plain `Copy` data (two axis points, a
//! normal, a radius) so structure-of-arrays solvers can keep a small array of
//! them per substep and test against it in tight loops.

use crate::math::{Quat, Real, Vec3, quat};

/// The five collider shapes of VRMC_springBone (plus its extended inside shapes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum ShapeKind {
    /// Keeps points outside a ball; a zero-length capsule.
    #[default]
    Sphere,
    /// Keeps points outside the set of points within `radius` of segment `offset..tail`.
    Capsule,
    /// Keeps points on the side of the plane its normal points to.
    Plane,
    /// Keeps points inside a ball.
    InsideSphere,
    /// Keeps points inside a capsule.
    InsideCapsule,
}

impl ShapeKind {
    /// Whether points are kept inside the shape rather than outside it.
    #[inline]
    #[must_use]
    pub fn is_inside(self) -> bool {
        matches!(self, Self::InsideSphere | Self::InsideCapsule)
    }
}

/// A collider as authored: local to an attachment frame, unscaled.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Collider {
    /// Shape kind.
    pub kind: ShapeKind,
    /// Centre (sphere), axis head (capsule) or a point on the plane, in the frame.
    pub offset: Vec3,
    /// Axis tail for capsules; ignored otherwise.
    pub tail: Vec3,
    /// Plane normal in the frame; ignored otherwise. Need not be unit length.
    pub normal: Vec3,
    /// Radius (sphere, capsule) or extra thickness (plane), unscaled.
    pub radius: Real,
}

impl Default for Collider {
    fn default() -> Self {
        Self {
            kind: ShapeKind::Sphere,
            offset: Vec3::ZERO,
            tail: Vec3::ZERO,
            normal: Vec3::Y,
            radius: 0.0,
        }
    }
}

impl Collider {
    /// A sphere of `radius` centred at `offset`.
    #[must_use]
    pub fn sphere(offset: Vec3, radius: Real) -> Self {
        Self {
            kind: ShapeKind::Sphere,
            offset,
            tail: offset,
            radius,
            ..Self::default()
        }
    }

    /// A capsule of `radius` around the segment `offset..tail`.
    #[must_use]
    pub fn capsule(offset: Vec3, tail: Vec3, radius: Real) -> Self {
        Self {
            kind: ShapeKind::Capsule,
            offset,
            tail,
            radius,
            ..Self::default()
        }
    }

    /// A plane through `offset` with `normal` pointing to the free side.
    #[must_use]
    pub fn plane(offset: Vec3, normal: Vec3) -> Self {
        Self {
            kind: ShapeKind::Plane,
            offset,
            tail: offset,
            normal,
            ..Self::default()
        }
    }

    /// A ball of `radius` that points must stay inside.
    #[must_use]
    pub fn inside_sphere(offset: Vec3, radius: Real) -> Self {
        Self {
            kind: ShapeKind::InsideSphere,
            ..Self::sphere(offset, radius)
        }
    }

    /// A capsule that points must stay inside.
    #[must_use]
    pub fn inside_capsule(offset: Vec3, tail: Vec3, radius: Real) -> Self {
        Self {
            kind: ShapeKind::InsideCapsule,
            ..Self::capsule(offset, tail, radius)
        }
    }

    /// Poses the collider with its frame at `frame_pos`/`frame_rot` and the
    /// model scale `scale` (which scales offsets and radius alike).
    #[must_use]
    pub fn posed(&self, frame_pos: Vec3, frame_rot: Quat, scale: Real) -> WorldCollider {
        let a = frame_pos + quat::rotate(frame_rot, self.offset * scale);
        let b = match self.kind {
            ShapeKind::Capsule | ShapeKind::InsideCapsule => {
                frame_pos + quat::rotate(frame_rot, self.tail * scale)
            }
            _ => a,
        };
        // Only planes read the normal; skip the normalisation for the rest.
        let normal = match self.kind {
            ShapeKind::Plane => quat::rotate(frame_rot, self.normal).normalize_or(Vec3::Y),
            _ => Vec3::Y,
        };
        // `max` drops NaN, so a bad radius degrades to a point, never to NaN.
        let radius = (self.radius * scale).max(0.0);
        WorldCollider {
            kind: self.kind,
            a,
            b,
            normal,
            radius,
        }
    }
}

/// A collider posed in world space for one substep. Spheres have `a == b`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorldCollider {
    /// Shape kind.
    pub kind: ShapeKind,
    /// Centre / axis head / plane point.
    pub a: Vec3,
    /// Axis tail (equals `a` for spheres and planes).
    pub b: Vec3,
    /// Unit plane normal (planes only).
    pub normal: Vec3,
    /// Scaled radius (plane: thickness).
    pub radius: Real,
}

impl Default for WorldCollider {
    fn default() -> Self {
        Collider::default().posed(Vec3::ZERO, Quat::IDENTITY, 1.0)
    }
}

impl WorldCollider {
    /// Whether every field is finite; solvers skip colliders that are not.
    #[inline]
    #[must_use]
    pub fn is_finite(&self) -> bool {
        self.a.is_finite()
            && self.b.is_finite()
            && self.normal.is_finite()
            && self.radius.is_finite()
    }

    /// The pose a fraction `t` of the way from `self` to `next`.
    ///
    /// Uses `a (1 - t) + b t` so `t = 0` and `t = 1` reproduce the end poses
    /// bit for bit, which fixed-step determinism relies on.
    #[inline]
    #[must_use]
    pub fn lerp(&self, next: &Self, t: Real) -> Self {
        // Exact end poses: renormalising the normal would otherwise perturb bits.
        if t >= 1.0 {
            return *next;
        }
        if t <= 0.0 {
            return Self {
                kind: next.kind,
                ..*self
            };
        }
        let u = 1.0 - t;
        Self {
            kind: next.kind,
            a: self.a * u + next.a * t,
            b: self.b * u + next.b * t,
            normal: (self.normal * u + next.normal * t).normalize_or(next.normal),
            radius: self.radius * u + next.radius * t,
        }
    }

    /// Largest distance an axis point moved from `prev` to `self`.
    #[inline]
    #[must_use]
    pub fn displacement_from(&self, prev: &Self) -> Real {
        (self.a - prev.a).length().max((self.b - prev.b).length())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn posing_scales_offsets_and_radius() {
        let c = Collider::capsule(Vec3::X, Vec3::Y, 0.5);
        let w = c.posed(Vec3::Z, Quat::IDENTITY, 10.0);
        assert_eq!(w.a, Vec3::new(10.0, 0.0, 1.0));
        assert_eq!(w.b, Vec3::new(0.0, 10.0, 1.0));
        assert_eq!(w.radius, 5.0);
        let s = Collider::sphere(Vec3::X, f32::NAN).posed(Vec3::ZERO, Quat::IDENTITY, 1.0);
        assert_eq!(s.a, s.b);
        assert_eq!(s.radius, 0.0);
    }

    #[test]
    fn lerp_endpoints_are_exact() {
        let p =
            Collider::sphere(Vec3::new(0.1, 0.2, 0.3), 0.7).posed(Vec3::ZERO, Quat::IDENTITY, 1.0);
        let q =
            Collider::sphere(Vec3::new(-0.3, 0.9, 0.1), 0.3).posed(Vec3::ZERO, Quat::IDENTITY, 1.0);
        assert_eq!(p.lerp(&q, 1.0), q);
        assert_eq!(p.lerp(&q, 0.0).a, p.a);
    }
}
