//! Solver parameters: per-joint physics, per-chain mode, per-world stepping.
//!
//! Every setter path goes through [`JointParams::sanitized`], so NaN or
//! infinite inputs from a loader or an editor slider can never reach a step.

use crate::math::{Real, Vec3};

/// The fixed simulation step, seconds (the shared clock's step).
pub use crate::clock::STEP_SECONDS as H;

/// How a chain's target direction is formed and integrated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Mode {
    /// Target from the hairstyle's rest arc held in the attachment frame:
    /// `r_i = o_i + R_H R_i^0 (s a_i)`. No curl.
    #[default]
    Improved,
    /// Target from the rest direction relative to the parent's current, bent
    /// rotation (how VRM spring bones aim). Kept for A/B comparison: ends curl.
    Earlier,
    /// The VRMC_springBone reference update (three-vrm 3.x), one update per
    /// fixed substep: inertia × (1 − drag), stiffness·h along the
    /// parent-rotated rest axis, gravity·h, length normalisation, tail-point
    /// collider push-out with re-normalisation, optional center space.
    VrmCompatible,
}

/// Which part of each segment is tested against colliders.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum ContactMode {
    /// Only the segment's end point (what VRM implementations do).
    #[default]
    Tail,
    /// The closest point of the whole segment to the collider axis.
    Segment,
}

/// Physical parameters of one joint (one segment).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct JointParams {
    /// Improved/Earlier: spring constant `k`, 1/s² (pull towards the target).
    /// VrmCompatible: VRMC `stiffness`.
    pub stiffness: Real,
    /// Improved/Earlier: damping rate `c`, 1/s (velocity decays as e^(−c h)).
    ///
    /// Every segment is driven by its parent's motion and resonates at
    /// `√k`; keep `c ≳ √k` (quality factor `√k / c ≲ 1`) or swings grow by
    /// that factor per segment down a long chain.
    pub damping: Real,
    /// VrmCompatible only: VRMC `dragForce` in [0, 1].
    pub drag: Real,
    /// Gravity acceleration in world space, unscaled model units/s²
    /// (VrmCompatible: `gravityDir * gravityPower`). Scaled by the model scale.
    pub gravity: Vec3,
    /// Hit radius of the segment, unscaled model units.
    pub hit_radius: Real,
}

impl Default for JointParams {
    fn default() -> Self {
        Self {
            stiffness: 1000.0,
            damping: 40.0,
            drag: 0.4,
            gravity: Vec3::new(0.0, -9.81, 0.0),
            hit_radius: 0.01,
        }
    }
}

/// Largest `k` accepted: beyond `k h² = 1` the explicit spring overshoots
/// its target in one step, which only adds jitter.
pub const MAX_STIFFNESS: Real = 1.0 / (H * H);

/// `x` when finite, otherwise `fallback`.
#[inline]
fn finite(x: Real, fallback: Real) -> Real {
    if x.is_finite() { x } else { fallback }
}

impl JointParams {
    /// The parameters with every field finite and in range.
    #[must_use]
    pub fn sanitized(self) -> Self {
        let d = Self::default();
        Self {
            stiffness: finite(self.stiffness, d.stiffness).clamp(0.0, MAX_STIFFNESS),
            damping: finite(self.damping, d.damping).max(0.0),
            drag: finite(self.drag, d.drag).clamp(0.0, 1.0),
            gravity: if self.gravity.is_finite() {
                self.gravity
            } else {
                Vec3::ZERO
            },
            hit_radius: finite(self.hit_radius, 0.0).max(0.0),
        }
    }

    /// Velocity decay per step, e^(−c h).
    #[inline]
    #[must_use]
    pub fn decay(&self) -> Real {
        crate::math::ops::exp(-self.damping * H)
    }
}

/// World-wide stepping policy.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct StepConfig {
    /// Most substeps one frame may run. A longer frame runs exactly this many,
    /// spread evenly over the frame's pose change, and drops the rest of its
    /// time (the hair lags in simulated time instead of spiralling).
    pub max_substeps: u32,
    /// Contact projection passes per joint and substep.
    pub contact_iterations: u32,
    /// An attachment that jumps farther than this (unscaled model units,
    /// multiplied by the model scale) in one substep is a teleport: its
    /// chains are carried along rigidly.
    pub teleport_distance: Real,
    /// Step up to four chains at a time in vector lanes, eight where the CPU
    /// has AVX2 (Improved chains without drape or flat locks, on the same
    /// frame and contact mode).
    /// The result is the same bit for bit; off runs the scalar reference
    /// kernel alone.
    #[cfg_attr(feature = "serde", serde(default = "lanes_default"))]
    pub lanes: bool,
}

#[cfg(feature = "serde")]
fn lanes_default() -> bool {
    true
}

impl Default for StepConfig {
    fn default() -> Self {
        Self {
            max_substeps: 8,
            contact_iterations: 4,
            teleport_distance: 1.0,
            lanes: true,
        }
    }
}

impl StepConfig {
    /// The configuration with every field in range.
    #[must_use]
    pub fn sanitized(self) -> Self {
        Self {
            max_substeps: self.max_substeps.clamp(1, 120),
            contact_iterations: self.contact_iterations.clamp(1, 16),
            teleport_distance: if self.teleport_distance > 0.0 {
                self.teleport_distance
            } else {
                Real::INFINITY
            },
            lanes: self.lanes,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sanitize_removes_non_finite() {
        let p = JointParams {
            stiffness: Real::NAN,
            damping: Real::INFINITY,
            drag: -3.0,
            gravity: Vec3::new(Real::NAN, 0.0, 0.0),
            hit_radius: Real::NEG_INFINITY,
        }
        .sanitized();
        assert!(p.stiffness.is_finite() && p.damping.is_finite() && p.drag == 0.0);
        assert_eq!(p.gravity, Vec3::ZERO);
        assert_eq!(p.hit_radius, 0.0);
        assert!(p.decay() > 0.0 && p.decay() <= 1.0);
    }
}
