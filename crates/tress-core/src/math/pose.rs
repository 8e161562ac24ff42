//! [`Pose`], the rigid pose every solver uses (spring attachment frames,
//! the strand head), and its deterministic interpolation.
//!
//! Substep poses are interpolated with a parameter formed from integer tick
//! counts ([`crate::clock`]), and the formulas reproduce both end poses bit
//! for bit, which is what makes states independent of the frame rate.

use super::{Quat, Real, Vec3, ops, quat};

/// A rigid pose: position and unit rotation (for the strand solver, the
/// head frame that carries the groom: head frame to world).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Pose {
    /// World position.
    pub pos: Vec3,
    /// World rotation.
    pub rot: Quat,
}

impl Default for Pose {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl Pose {
    /// The identity pose.
    pub const IDENTITY: Self = Self {
        pos: Vec3::ZERO,
        rot: Quat::IDENTITY,
    };

    /// A pose from a position and a rotation.
    #[must_use]
    pub fn new(pos: Vec3, rot: Quat) -> Self {
        Self { pos, rot }
    }

    /// `self` with non-finite parts replaced by `fallback`'s and the rotation normalised.
    #[must_use]
    pub fn sanitized(self, fallback: &Self) -> Self {
        let pos = if self.pos.is_finite() {
            self.pos
        } else {
            fallback.pos
        };
        let rot = quat::normalize_or(self.rot, fallback.rot);
        Self { pos, rot }
    }

    /// `self` untouched when it is finite with a rotation within 1e-4 of
    /// unit length (so a valid pose keeps its bits), else
    /// [`Self::sanitized`] against `fallback`: how a solver that does not
    /// normalise every pose it is given keeps a NaN, infinite or
    /// degenerate one out of its state.
    #[must_use]
    pub fn or_sanitized(self, fallback: &Self) -> Self {
        let len2 = quat::length_squared(self.rot);
        if self.pos.is_finite() && self.rot.is_finite() && ops::abs(len2 - 1.0) <= 1e-4 {
            self
        } else {
            self.sanitized(fallback)
        }
    }

    /// Interpolates a fraction `t` of the way to `next`: lerp for the
    /// position, shortest-path nlerp for the rotation. `t <= 0` and `t >= 1`
    /// return the end poses exactly.
    #[must_use]
    pub fn interpolate(&self, next: &Self, t: Real) -> Self {
        if t >= 1.0 {
            return *next;
        }
        if t <= 0.0 {
            return *self;
        }
        let u = 1.0 - t;
        let b = if quat::dot(self.rot, next.rot) < 0.0 {
            -next.rot
        } else {
            next.rot
        };
        let rot = quat::normalize(self.rot * u + b * t);
        Self {
            pos: self.pos * u + next.pos * t,
            rot,
        }
    }

    /// Maps a point from this frame's local space to world space.
    #[inline]
    #[must_use]
    pub fn transform_point(&self, p: Vec3) -> Vec3 {
        self.pos + quat::rotate(self.rot, p)
    }

    /// Maps a world point into this frame's local space.
    #[inline]
    #[must_use]
    pub fn inverse_transform_point(&self, p: Vec3) -> Vec3 {
        quat::rotate(self.rot.inverse(), p - self.pos)
    }
}
