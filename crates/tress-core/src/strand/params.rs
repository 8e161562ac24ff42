//! Solver parameters, defined per second so they survive a change of step size.
//!
//! Shape stiffnesses are "fraction of the error removed per reference step of
//! 1/60 s"; [`StepCoefs`] turns them into per-application factors
//! `1 − (1 − s)^(h / (h_ref · n))` for step `h` and `n` iterations, so the
//! same value gives the same decay per second at 1/60, 1/120 or 1/240 s.

use crate::math::{Real, Vec3, ops};

/// Step length the stiffness values are quoted at (TressFX's 1/60 s).
pub const REFERENCE_STEP: Real = 1.0 / 60.0;

/// How many times each pass runs inside one step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PassCounts {
    /// Global shape iterations.
    pub global: u8,
    /// Local shape iterations.
    pub local: u8,
    /// Collision iterations.
    pub collision: u8,
    /// Length (Follow-The-Leader) iterations.
    pub length: u8,
}

impl PassCounts {
    /// TressFX's reference schedule: global ×2, local ×2, collision ×1, length ×2.
    pub const REFERENCE: Self = Self {
        global: 2,
        local: 2,
        collision: 1,
        length: 2,
    };
}

/// Everything that tunes the strand solver.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct StrandParams {
    /// Acceleration of gravity, m/s², world space.
    pub gravity: Vec3,
    /// Velocity decay rate `c` in `e^(−c h)`, 1/s.
    pub damping: Real,
    /// Global shape stiffness: fraction of the distance to the groomed
    /// position removed per 1/60 s (0 disables).
    pub global_stiffness: Real,
    /// Fraction of the free particles (from the root) under global shape.
    pub global_range: Real,
    /// Local shape stiffness: fraction of the segment error removed per 1/60 s.
    pub local_stiffness: Real,
    /// Follow-The-Leader velocity correction `s_damp` (0 = plain FTL, 1 = full).
    pub length_velocity_correction: Real,
    /// Particle radius added to every collider, metres.
    pub collision_margin: Real,
    /// Iterations of each pass per step.
    pub passes: PassCounts,
    /// Run one of the `passes.collision` sweeps inside the last length sweep:
    /// each particle is pushed out (and slid back to its rest distance on the
    /// collider's tangent plane) right after Follow-The-Leader places it, so
    /// the length pass cannot drag it back inside. `false` keeps TressFX's
    /// order (all collision sweeps before length).
    pub collide_in_length: bool,
}

impl Default for StrandParams {
    /// Shape constraints, colliders and momentum: the configuration the
    /// quality command measures.
    fn default() -> Self {
        Self {
            gravity: Vec3::new(0.0, -9.81, 0.0),
            damping: 1.5,
            global_stiffness: 0.1,
            global_range: 0.35,
            local_stiffness: 0.6,
            length_velocity_correction: 0.9,
            collision_margin: 0.002,
            passes: PassCounts::REFERENCE,
            collide_in_length: true,
        }
    }
}

impl StrandParams {
    /// "Gravity and length only": no shape, no colliders. The baseline that
    /// shows what the shape and collision passes buy.
    #[must_use]
    pub fn baseline() -> Self {
        Self {
            global_stiffness: 0.0,
            local_stiffness: 0.0,
            passes: PassCounts {
                global: 0,
                local: 0,
                collision: 0,
                length: 2,
            },
            ..Self::default()
        }
    }
}

/// Per-step factors derived from [`StrandParams`] for one step length.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StepCoefs {
    /// Step length, s.
    pub h: Real,
    /// `e^(−c h)`.
    pub momentum: Real,
    /// `g h²`.
    pub gravity_h2: Vec3,
    /// Global shape factor per iteration.
    pub global: Real,
    /// Local shape factor per iteration.
    pub local: Real,
    /// Free particles (after the root) under global shape.
    pub global_count: usize,
    /// FTL velocity correction.
    pub ftl: Real,
    /// Collider margin.
    pub margin: Real,
    /// Iterations.
    pub passes: PassCounts,
    /// Collision inside the last length sweep.
    pub collide_in_length: bool,
}

/// Per-application factor for a per-reference-step stiffness `s`, applied
/// `n` times in a step of `h` seconds.
#[must_use]
pub fn per_application(s: Real, h: Real, n: u8) -> Real {
    if n == 0 || s <= 0.0 {
        return 0.0;
    }
    if s >= 1.0 {
        return 1.0;
    }
    1.0 - ops::powf(1.0 - s, h / (REFERENCE_STEP * Real::from(n)))
}

impl StepCoefs {
    /// Standalone collision sweeps before the length pass, and whether one
    /// more runs fused into the last length sweep.
    #[must_use]
    pub fn collision_sweeps(&self) -> (u8, bool) {
        let n = self.passes.collision;
        if self.collide_in_length && n > 0 && self.passes.length > 0 {
            (n - 1, true)
        } else {
            (n, false)
        }
    }

    /// Factors for step `h` with `particles` particles per strand.
    #[must_use]
    pub fn new(p: &StrandParams, h: Real, particles: usize) -> Self {
        let free = particles.saturating_sub(1) as Real;
        let k = ops::round(p.global_range.clamp(0.0, 1.0) * free) as usize;
        Self {
            h,
            momentum: ops::exp(-p.damping.max(0.0) * h),
            gravity_h2: p.gravity * (h * h),
            global: per_application(p.global_stiffness, h, p.passes.global),
            local: per_application(p.local_stiffness, h, p.passes.local),
            global_count: k.min(particles.saturating_sub(1)),
            ftl: p.length_velocity_correction.clamp(0.0, 1.0),
            margin: p.collision_margin.max(0.0),
            passes: p.passes,
            collide_in_length: p.collide_in_length,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stiffness_per_second_does_not_depend_on_substeps() {
        // Removing fraction s per 1/60 s: after 1/60 s of any schedule the
        // remaining error must be (1 − s).
        let s = 0.3;
        for (h, n) in [(1.0 / 60.0, 2u8), (1.0 / 120.0, 2), (1.0 / 240.0, 1)] {
            let f = per_application(s, h, n);
            let apps = (REFERENCE_STEP / h) as i32 * i32::from(n);
            let mut rem: Real = 1.0;
            for _ in 0..apps {
                rem *= 1.0 - f;
            }
            assert!((rem - (1.0 - s)).abs() < 1e-5, "h={h} n={n} rem={rem}");
        }
    }

    #[test]
    fn zero_iterations_or_stiffness_disable_a_pass() {
        assert_eq!(per_application(0.5, 0.01, 0), 0.0);
        assert_eq!(per_application(0.0, 0.01, 2), 0.0);
        assert_eq!(per_application(1.0, 0.01, 2), 1.0);
    }
}
