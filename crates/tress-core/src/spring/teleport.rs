//! Teleports: when an attachment's jump is not motion, and what the hair
//! does then.
//!
//! A frame that moves farther than
//! [`StepConfig::teleport_distance`](super::StepConfig::teleport_distance)
//! or turns by more than [`TeleportPolicy::angle`] between two substeps (or
//! within one frame) is a teleport: its chains are carried rigidly with it
//! ([`TeleportMode::KeepShape`], the default) or put at rest under the new
//! pose ([`TeleportMode::Reset`]). Either way no inertia from the jump
//! reaches the hair. How a world applies it lives in `world/continuity.rs`.

use crate::math::{Pose, Real, ops, quat};

/// What a teleported chain does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum TeleportMode {
    /// Carried rigidly from the old attachment pose to the new one, with
    /// its velocity turned along: the hair keeps its shape and its swing.
    #[default]
    KeepShape,
    /// Put at rest on its arc under the new pose, velocity zero.
    Reset,
}

/// The rotation threshold and the mode of teleport handling (the distance
/// threshold is [`StepConfig::teleport_distance`](super::StepConfig)).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TeleportPolicy {
    /// A frame turning by more than this many radians between substeps (or
    /// within one frame) teleports. π or more, NaN or non-positive: never
    /// (the default, so worlds that do not ask keep their bits).
    pub angle: Real,
    /// What teleported chains do.
    pub mode: TeleportMode,
}

impl Default for TeleportPolicy {
    fn default() -> Self {
        Self {
            angle: Real::INFINITY,
            mode: TeleportMode::KeepShape,
        }
    }
}

impl TeleportPolicy {
    /// The policy with a usable angle (off when it cannot trigger).
    #[must_use]
    pub fn sanitized(self) -> Self {
        let on = self.angle > 0.0 && self.angle < core::f32::consts::PI;
        Self {
            angle: if on { self.angle } else { Real::INFINITY },
            mode: self.mode,
        }
    }

    /// Whether going from `from` to `to` is a teleport: farther than
    /// `distance` (scaled units) or turned by more than `angle`.
    #[must_use]
    pub(crate) fn jumped(&self, distance: Real, from: &Pose, to: &Pose) -> bool {
        (to.pos - from.pos).length() > distance || self.turned(from, to)
    }

    /// Whether the rotation from `from` to `to` exceeds `angle`.
    fn turned(&self, from: &Pose, to: &Pose) -> bool {
        if self.angle == Real::INFINITY {
            return false;
        }
        // The angle between unit quaternions is 2·acos|a·b|.
        quat::dot(from.rot, to.rot).abs() < ops::cos(0.5 * self.angle)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Quat, Vec3};

    #[test]
    fn thresholds() {
        let p = TeleportPolicy {
            angle: 60f32.to_radians(),
            mode: TeleportMode::Reset,
        }
        .sanitized();
        let a = Pose::IDENTITY;
        let turn = |deg: f32| Pose::new(Vec3::ZERO, Quat::from_rotation_y(deg.to_radians()));
        assert!(!p.jumped(1.0, &a, &turn(59.0)));
        assert!(p.jumped(1.0, &a, &turn(61.0)));
        // Either sign of the quaternion is the same rotation.
        let neg = Pose::new(Vec3::ZERO, -Quat::from_rotation_y(0.1));
        assert!(!p.jumped(1.0, &a, &neg));
        assert!(p.jumped(1.0, &a, &Pose::new(Vec3::new(0.0, 1.5, 0.0), a.rot)));
        assert!(!p.jumped(1.0, &a, &Pose::new(Vec3::new(0.0, 0.5, 0.0), a.rot)));
        for off in [0.0, -1.0, Real::NAN, 4.0] {
            let q = TeleportPolicy {
                angle: off,
                ..TeleportPolicy::default()
            }
            .sanitized();
            assert!(!q.jumped(1.0, &a, &turn(179.0)), "{off}");
        }
    }
}
