//! Angle limits per joint (`VRMC_springBone_limit`, draft of vrm-c PR #496):
//! a cone, a hinge or a spherical (pitch/yaw) region that the direction from
//! a segment's start to its end must stay in.
//!
//! - [`JointLimit`] / [`LimitShape`]: what a loader or an editor supplies;
//! - `LimitSlot`: the same, prepared once (the limit's rest orientation
//!   relative to the bone, angles clamped as the draft says), stored beside
//!   the joints so a joint without a limit carries nothing;
//! - `clamp_end`: the draft's reference steps, run after the inertia
//!   update and after each collider push, in every solver mode.
//!
//! The limit's space is the draft's `parent.worldRotation ·
//! localSpaceInitialRotation · axisRotation · rotation`: the parent bone's
//! *current* rotation, the bone's rest local rotation, the shortest turn
//! from +y onto the bone axis (a half turn about x when the axis is −y) and
//! the authored rotation. In that space the rest direction is +y.

use crate::math::{Quat, Real, Vec3, ops, quat};

/// The region a limited segment's direction stays in, in the limit's space
/// (rest direction +y). Angles in radians; out-of-range values are clamped
/// as the draft says (negative or NaN to 0, cone and hinge angles and the
/// pitch to π, the yaw to π/2).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum LimitShape {
    /// At most `angle` from +y in any direction.
    Cone {
        /// Half-angle of the cone, radians.
        angle: Real,
    },
    /// In the y–z plane (turning about x only), at most `angle` from +y.
    Hinge {
        /// Largest turn about x, radians.
        angle: Real,
    },
    /// `pitch` (about x, from +y towards +z) and `yaw` (towards ±x), each
    /// bounded separately.
    Spherical {
        /// Largest pitch, radians (≤ π).
        pitch: Real,
        /// Largest yaw, radians (≤ π/2).
        yaw: Real,
    },
}

impl LimitShape {
    /// The draft's name of the shape (`cone`, `hinge`, `spherical`).
    #[must_use]
    pub const fn name(&self) -> &'static str {
        match self {
            Self::Cone { .. } => "cone",
            Self::Hinge { .. } => "hinge",
            Self::Spherical { .. } => "spherical",
        }
    }

    /// The shape with its angles clamped into the draft's ranges.
    #[must_use]
    pub fn sanitized(self) -> Self {
        use core::f32::consts::{FRAC_PI_2, PI};
        // `max` first: NaN becomes 0 (no freedom) rather than no limit.
        let clamp = |a: Real, hi: Real| a.max(0.0).min(hi);
        match self {
            Self::Cone { angle } => Self::Cone {
                angle: clamp(angle, PI),
            },
            Self::Hinge { angle } => Self::Hinge {
                angle: clamp(angle, PI),
            },
            Self::Spherical { pitch, yaw } => Self::Spherical {
                pitch: clamp(pitch, PI),
                yaw: clamp(yaw, FRAC_PI_2),
            },
        }
    }
}

/// One joint's angle limit as authored.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct JointLimit {
    /// The allowed region.
    pub shape: LimitShape,
    /// The limit's turn away from its default orientation (the bone axis),
    /// applied in the limit's space; identity when not authored.
    pub rotation: Quat,
}

impl JointLimit {
    /// A cone of half-angle `angle` radians around the bone axis.
    #[must_use]
    pub fn cone(angle: Real) -> Self {
        Self {
            shape: LimitShape::Cone { angle },
            rotation: Quat::IDENTITY,
        }
    }

    /// A hinge about the limit's x axis, at most `angle` radians each way.
    #[must_use]
    pub fn hinge(angle: Real) -> Self {
        Self {
            shape: LimitShape::Hinge { angle },
            rotation: Quat::IDENTITY,
        }
    }

    /// A spherical limit of `pitch` and `yaw` radians.
    #[must_use]
    pub fn spherical(pitch: Real, yaw: Real) -> Self {
        Self {
            shape: LimitShape::Spherical { pitch, yaw },
            rotation: Quat::IDENTITY,
        }
    }

    /// The limit turned by `rotation` in its own space.
    #[must_use]
    pub fn with_rotation(self, rotation: Quat) -> Self {
        Self { rotation, ..self }
    }

    /// Angles clamped, rotation unit (identity when unusable).
    #[must_use]
    pub fn sanitized(self) -> Self {
        Self {
            shape: self.shape.sanitized(),
            rotation: quat::normalize_or(self.rotation, Quat::IDENTITY),
        }
    }
}

/// The draft's `axisRotation`: the shortest turn from +y onto the unit bone
/// axis `a`, `normalize(cross(+y, a), 1 + a·y)`; a half turn about x when
/// `a` is (within 1e-8 of) −y, where the shortest turn is not unique.
#[must_use]
pub(crate) fn axis_rotation(a: Vec3) -> Quat {
    let dot1 = a.y + 1.0;
    if dot1 < 1e-8 {
        return Quat::from_xyzw(1.0, 0.0, 0.0, 0.0);
    }
    quat::normalize_or(Quat::from_xyzw(a.z, 0.0, -a.x, dot1), Quat::IDENTITY)
}

/// A joint's limit prepared for the step; `None` for a joint without one.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct LimitSlot {
    pub limit: Option<JointLimit>,
    /// `localSpaceInitialRotation · axisRotation · rotation`: the limit's
    /// space relative to the parent bone's current rotation.
    pub local: Quat,
}

impl LimitSlot {
    /// `limit` (sanitized) for a bone of rest local rotation `local_rot` and
    /// unit axis `axis_unit` (zero for a zero-length bone, which has no
    /// direction to limit).
    pub(crate) fn new(limit: Option<JointLimit>, local_rot: Quat, axis_unit: Vec3) -> Self {
        let limit = limit.filter(|_| axis_unit != Vec3::ZERO);
        let Some(l) = limit.map(JointLimit::sanitized) else {
            return Self::default();
        };
        let local = quat::normalize(quat::mul(
            quat::mul(local_rot, axis_rotation(axis_unit)),
            l.rotation,
        ));
        Self {
            limit: Some(l),
            local,
        }
    }
}

/// `d` (unit, the limit's space) moved into `shape`'s region by the
/// draft's reference steps; `None` when it is already inside, so a
/// direction the limit allows keeps its bits.
#[must_use]
pub(crate) fn clamp_dir(shape: &LimitShape, d: Vec3) -> Option<Vec3> {
    match *shape {
        LimitShape::Cone { angle } => cone(angle, d),
        LimitShape::Hinge { angle } => hinge(angle, d),
        LimitShape::Spherical { pitch, yaw } => spherical(pitch, yaw, d),
    }
}

/// Below this a squared length counts as zero: the singular directions of
/// the draft's table, met with a tolerance as its notes advise.
const SINGULAR_SQ: Real = 1e-12;

fn cone(angle: Real, d: Vec3) -> Option<Vec3> {
    let (sin_a, cos_a) = ops::sin_cos(angle);
    if d.y >= cos_a {
        return None;
    }
    let horizontal_sq = 1.0 - d.y * d.y;
    let (x, z) = if horizontal_sq <= SINGULAR_SQ {
        // Straight back along −y: the boundary on the +z side.
        (0.0, sin_a.max(0.0))
    } else {
        let scale = sin_a.max(0.0) / ops::sqrt(horizontal_sq);
        (d.x * scale, d.z * scale)
    };
    Some(Vec3::new(x, cos_a, z))
}

fn hinge(angle: Real, d: Vec3) -> Option<Vec3> {
    let projected_sq = d.y * d.y + d.z * d.z;
    if projected_sq <= SINGULAR_SQ {
        // Along ±x, the hinge axis: +y.
        return Some(Vec3::Y);
    }
    let (sin_a, cos_a) = ops::sin_cos(angle);
    let inv = 1.0 / ops::sqrt(projected_sq);
    let (y, z) = (d.y * inv, d.z * inv);
    if y < cos_a {
        // Straight back along −y goes to the +z side.
        let z_sign = if z < 0.0 { -1.0 } else { 1.0 };
        return Some(Vec3::new(0.0, cos_a, sin_a.max(0.0) * z_sign));
    }
    // In the plane already only when x was zero: otherwise the projection
    // is the limit's answer.
    if d.x == 0.0 {
        None
    } else {
        Some(Vec3::new(0.0, y, z))
    }
}

fn spherical(limit_pitch: Real, limit_yaw: Real, d: Vec3) -> Option<Vec3> {
    let pitch = if d.y < 0.0 && d.x * d.x + d.z * d.z <= SINGULAR_SQ {
        // Straight back along −y: pitch π, the +z side.
        core::f32::consts::PI
    } else if d.y * d.y + d.z * d.z <= SINGULAR_SQ {
        // Along ±x: pitch 0, the boundary on the +y side.
        0.0
    } else {
        ops::atan2(d.z, d.y)
    };
    let yaw = ops::asin_clamped(d.x);
    let mut limited = false;
    let mut clamp = |a: Real, lim: Real| {
        if ops::abs(a) > lim {
            limited = true;
            lim.copysign(a)
        } else {
            a
        }
    };
    let (pitch, yaw) = (clamp(pitch, limit_pitch), clamp(yaw, limit_yaw));
    if !limited {
        return None;
    }
    let (sy, cy) = ops::sin_cos(yaw);
    let (sp, cp) = ops::sin_cos(pitch);
    Some(Vec3::new(sy, cy * cp, cy * sp))
}

/// The segment end `x` (from `o`, length `len`) moved so that its direction
/// lies in `slot`'s region, with the limit space `parent_rot · slot.local`;
/// `None` when it already does (or the direction is undefined).
#[must_use]
pub(crate) fn clamp_end(
    slot: &LimitSlot,
    parent_rot: Quat,
    o: Vec3,
    x: Vec3,
    len: Real,
) -> Option<Vec3> {
    let limit = slot.limit.as_ref()?;
    let d = x - o;
    let l2 = d.length_squared();
    if !(l2 > Real::MIN_POSITIVE && l2.is_finite()) {
        return None;
    }
    let space = quat::mul(parent_rot, slot.local);
    let local = quat::rotate(space.inverse(), d * (1.0 / ops::sqrt(l2)));
    let clamped = clamp_dir(&limit.shape, local)?;
    Some(o + quat::rotate(space, clamped) * len)
}

/// [`clamp_end`] that also takes the velocity's component out of the
/// region off `v`, the way a contact normal does (`resolve_contacts`): the
/// limit stops motion, it never throws the segment back.
#[inline]
pub(crate) fn limit_end(
    slot: &LimitSlot,
    parent_rot: Quat,
    o: Vec3,
    x: Vec3,
    len: Real,
    v: &mut Vec3,
) -> Vec3 {
    let Some(y) = clamp_end(slot, parent_rot, o, x, len) else {
        return x;
    };
    let n = (y - x).normalize_or_zero();
    let vn = v.dot(n);
    if vn < 0.0 {
        *v -= n * vn;
    }
    y
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::f32::consts::{FRAC_PI_2, FRAC_PI_4, PI};

    fn close(a: Vec3, b: Vec3) -> bool {
        (a - b).length() < 1e-6
    }

    // Hand values: a direction 60° from +y towards +x in a 45° cone lands on
    // (sin 45°, cos 45°, 0); inside, nothing moves.
    #[test]
    fn cone_scales_onto_its_boundary() {
        let d = Vec3::new(ops::sin(PI / 3.0), 0.5, 0.0);
        let c = clamp_dir(&LimitShape::Cone { angle: FRAC_PI_4 }, d).unwrap();
        let h = core::f32::consts::FRAC_1_SQRT_2;
        assert!(close(c, Vec3::new(h, h, 0.0)), "{c}");
        let inside = Vec3::new(0.5, 0.8, 0.0).normalize();
        assert_eq!(clamp_dir(&LimitShape::Cone { angle: 1.0 }, inside), None);
        // −y: the +z side.
        let back = clamp_dir(&LimitShape::Cone { angle: FRAC_PI_4 }, Vec3::NEG_Y).unwrap();
        assert!(close(back, Vec3::new(0.0, h, h)), "{back}");
    }

    #[test]
    fn hinge_projects_then_bounds() {
        let h = core::f32::consts::FRAC_1_SQRT_2;
        // (0.6, 0.8·cos 30°, 0.8·sin 30°) → its y–z part is 30° off +y.
        let d = Vec3::new(0.6, 0.8 * 0.866_025_4, 0.4);
        let c = clamp_dir(&LimitShape::Hinge { angle: FRAC_PI_4 }, d).unwrap();
        assert!(close(c, Vec3::new(0.0, 0.866_025_4, 0.5)), "{c}");
        // 60° about x in a 45° hinge, towards −z: the −z boundary.
        let d = Vec3::new(0.0, 0.5, -0.866_025_4);
        let c = clamp_dir(&LimitShape::Hinge { angle: FRAC_PI_4 }, d).unwrap();
        assert!(close(c, Vec3::new(0.0, h, -h)), "{c}");
        assert_eq!(
            clamp_dir(&LimitShape::Hinge { angle: 1.0 }, Vec3::X),
            Some(Vec3::Y)
        );
    }

    #[test]
    fn spherical_bounds_pitch_and_yaw_apart() {
        let shape = LimitShape::Spherical {
            pitch: FRAC_PI_4,
            yaw: PI / 6.0,
        };
        // pitch 60°, yaw 0 → pitch 45°.
        let d = Vec3::new(0.0, 0.5, 0.866_025_4);
        let h = core::f32::consts::FRAC_1_SQRT_2;
        assert!(close(clamp_dir(&shape, d).unwrap(), Vec3::new(0.0, h, h)));
        // yaw 60° (asin x), pitch 0 → yaw 30°.
        let d = Vec3::new(0.866_025_4, 0.5, 0.0);
        assert!(close(
            clamp_dir(&shape, d).unwrap(),
            Vec3::new(0.5, 0.866_025_4, 0.0)
        ));
        // ±x: pitch 0 on the +y side, yaw at its bound.
        assert!(close(
            clamp_dir(&shape, Vec3::NEG_X).unwrap(),
            Vec3::new(-0.5, 0.866_025_4, 0.0)
        ));
        // −y: pitch π, clamped to 45° on the +z side.
        assert!(close(
            clamp_dir(&shape, Vec3::NEG_Y).unwrap(),
            Vec3::new(0.0, h, h)
        ));
        let full = LimitShape::Spherical {
            pitch: PI,
            yaw: FRAC_PI_2,
        };
        assert_eq!(
            clamp_dir(&full, Vec3::new(0.3, -0.5, 0.2).normalize()),
            None
        );
    }

    #[test]
    fn axis_rotation_takes_y_onto_the_axis() {
        for a in [
            Vec3::X,
            Vec3::Z,
            Vec3::new(0.3, -0.9, 0.1).normalize(),
            Vec3::Y,
        ] {
            assert!(close(quat::rotate(axis_rotation(a), Vec3::Y), a), "{a}");
        }
        // −y: the half turn about x, as the draft requires.
        assert_eq!(
            axis_rotation(Vec3::NEG_Y),
            Quat::from_xyzw(1.0, 0.0, 0.0, 0.0)
        );
    }

    #[test]
    fn bad_angles_are_clamped() {
        let s = JointLimit::spherical(Real::NAN, 9.0).sanitized().shape;
        assert_eq!(
            s,
            LimitShape::Spherical {
                pitch: 0.0,
                yaw: FRAC_PI_2
            }
        );
        assert_eq!(
            JointLimit::cone(-1.0).sanitized().shape,
            LimitShape::Cone { angle: 0.0 }
        );
        let r = JointLimit::cone(1.0)
            .with_rotation(Quat::from_xyzw(Real::NAN, 0.0, 0.0, 1.0))
            .sanitized()
            .rotation;
        assert_eq!(r, Quat::IDENTITY);
    }
}
