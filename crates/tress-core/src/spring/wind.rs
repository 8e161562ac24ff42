//! Wind: a deterministic acceleration field on the spring chains.
//!
//! [`Wind`] is a direction, a strength (an acceleration, unscaled model
//! units/s², times the model scale like gravity), gusts and a sideways
//! flutter from seeded value noise, and how much a chain deep inside the
//! hairstyle is sheltered. The noise is a function of the seed, the chain
//! and the substep index alone (integer arithmetic up to one division), so
//! the same wind at the same simulated time gives the same bits at any
//! frame rate and on every platform, and changing the wind between frames
//! changes only the force from the next substep on: nothing is reset.
//!
//! How a world applies it lives in `world/wind.rs`.

use crate::math::{Real, Vec3};

/// A wind field. The default is calm (strength 0), which leaves every
/// state bit for bit as without wind.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Wind {
    /// Where the wind blows to, world space (any length; zero or
    /// non-finite: calm).
    pub direction: Vec3,
    /// Mean acceleration along `direction`, unscaled model units/s²
    /// (9.81 pushes as hard as gravity pulls). In the VRM-compatible mode it
    /// is divided by 9.81 and added to `gravityDir · gravityPower`, which is
    /// how UniVRM adds an external force.
    pub strength: Real,
    /// Gust amplitude relative to `strength`: the strength varies within
    /// `strength · (1 ± gust)` (never below zero).
    pub gust: Real,
    /// Typical time between gust peaks, seconds (the noise's cell).
    pub gust_seconds: Real,
    /// Sideways and vertical flutter relative to `strength`.
    pub turbulence: Real,
    /// 0..1: share of the wind a chain at the very centre of its hairstyle
    /// loses (see [`chain depth`](crate::spring::SpringWorld::chain_wind_exposure)).
    pub occlusion: Real,
    /// Seed of the gust and flutter noise.
    pub seed: u32,
}

impl Default for Wind {
    fn default() -> Self {
        Self {
            direction: Vec3::X,
            strength: 0.0,
            gust: 0.5,
            gust_seconds: 1.5,
            turbulence: 0.3,
            occlusion: 0.5,
            seed: 0,
        }
    }
}

/// Most substeps in one noise cell (about 2.4 h at 120 Hz): keeps every
/// integer below 2²⁴, where `f32` is exact.
const MAX_CELL: u64 = 1 << 20;

impl Wind {
    /// The wind with every field usable: a unit direction (calm when it
    /// has none), finite non-negative amounts, `occlusion` in 0..1.
    #[must_use]
    pub fn sanitized(self) -> Self {
        let d = Self::default();
        let amount = |x: Real, fallback: Real| if x.is_finite() { x.max(0.0) } else { fallback };
        let direction = if self.direction.is_finite() {
            self.direction.normalize_or_zero()
        } else {
            Vec3::ZERO
        };
        Self {
            direction,
            strength: if direction == Vec3::ZERO {
                0.0
            } else {
                amount(self.strength, 0.0)
            },
            gust: amount(self.gust, d.gust),
            gust_seconds: amount(self.gust_seconds, d.gust_seconds),
            turbulence: amount(self.turbulence, d.turbulence),
            occlusion: amount(self.occlusion, d.occlusion).min(1.0),
            seed: self.seed,
        }
    }

    /// Whether this (sanitized) wind exerts no force at all.
    #[must_use]
    pub fn is_calm(&self) -> bool {
        self.strength == 0.0 || self.direction == Vec3::ZERO
    }

    /// Substeps per noise cell.
    fn cell(&self) -> u64 {
        let steps = (self.gust_seconds * crate::clock::STEP_HZ as Real) as u64;
        steps.clamp(1, MAX_CELL)
    }

    /// The acceleration (unscaled model units/s², before exposure and
    /// scale) on chain `chain` during substep `step` (1-based, as the clock
    /// counts). Sanitized winds only.
    #[must_use]
    pub fn acceleration(&self, chain: usize, step: u64) -> Vec3 {
        if self.is_calm() {
            return Vec3::ZERO;
        }
        let cell = self.cell();
        // Chains do not gust in lockstep: each reads the noise a fixed,
        // seeded share of a cell later.
        let phase = mix(u64::from(self.seed) << 32 | chain as u64) % cell;
        let t = step.wrapping_add(phase);
        let fine = (cell / 3).max(1);
        let gust = 0.7 * noise(self.seed, 0, t, cell) + 0.3 * noise(self.seed, 1, t, fine);
        let side_n = noise(self.seed, 2, t, fine);
        let lift_n = noise(self.seed, 3, t, fine);
        let d = self.direction;
        // Two directions across the wind; a vertical wind takes X for the first.
        let side = d.cross(Vec3::Y).try_normalize().unwrap_or(Vec3::X);
        let lift = side.cross(d);
        let along = (1.0 + self.gust * gust).max(0.0);
        (d * along + (side * side_n + lift * (0.5 * lift_n)) * self.turbulence) * self.strength
    }
}

/// SplitMix64's finalizer: every input bit reaches every output bit.
#[must_use]
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The noise value at lattice point `k` of channel `channel`, in [−1, 1).
fn lattice(seed: u32, channel: u32, k: u64) -> Real {
    let h = mix(k ^ mix(u64::from(seed) << 8 | u64::from(channel)));
    // 24 bits: exact in f32.
    (h >> 40) as Real / (1u32 << 23) as Real - 1.0
}

/// Smooth value noise at substep `t` with lattice points every `cell`
/// substeps: continuous, with a continuous slope, in [−1, 1].
fn noise(seed: u32, channel: u32, t: u64, cell: u64) -> Real {
    let (k, r) = (t / cell, t % cell);
    // Both below 2²⁴ (`MAX_CELL`), so the ratio is the same bits everywhere.
    let f = r as Real / cell as Real;
    let s = f * f * (3.0 - 2.0 * f);
    let (a, b) = (
        lattice(seed, channel, k),
        lattice(seed, channel, k.wrapping_add(1)),
    );
    a + (b - a) * s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn breeze() -> Wind {
        Wind {
            direction: Vec3::new(0.0, 0.0, 2.0),
            strength: 3.0,
            ..Wind::default()
        }
        .sanitized()
    }

    #[test]
    fn calm_is_zero() {
        let w = Wind::default().sanitized();
        assert!(w.is_calm());
        assert_eq!(w.acceleration(3, 1000), Vec3::ZERO);
        let bad = Wind {
            direction: Vec3::new(Real::NAN, 0.0, 0.0),
            strength: 5.0,
            ..Wind::default()
        }
        .sanitized();
        assert!(bad.is_calm(), "a wind without a direction is calm");
    }

    #[test]
    fn sanitize_removes_non_finite() {
        let w = Wind {
            direction: Vec3::Y,
            strength: Real::INFINITY,
            gust: Real::NAN,
            gust_seconds: -1.0,
            turbulence: Real::NEG_INFINITY,
            occlusion: 7.0,
            seed: 1,
        }
        .sanitized();
        assert_eq!(w.strength, 0.0);
        assert_eq!(w.gust, Wind::default().gust);
        assert_eq!(w.gust_seconds, 0.0);
        assert_eq!(w.turbulence, Wind::default().turbulence);
        assert_eq!(w.occlusion, 1.0);
        // A zero gust time still gives a cell of one substep.
        assert_eq!(w.cell(), 1);
    }

    #[test]
    fn mean_follows_direction_and_gusts_stay_in_range() {
        let w = breeze();
        let mut sum = Vec3::ZERO;
        let n = 120 * 600;
        for step in 1..=n {
            let a = w.acceleration(0, step);
            assert!(a.is_finite());
            let along = a.z;
            // strength · (1 ± gust) along the wind, flutter across it.
            assert!((0.0..=3.0 * 1.5 + 1e-4).contains(&along), "{along}");
            sum += a;
        }
        let mean = sum / n as Real;
        // Ten minutes of noise average near the strength.
        assert!((mean.z - 3.0).abs() < 0.3, "mean {mean}");
        assert!(mean.x.abs() < 0.3 && mean.y.abs() < 0.3, "mean {mean}");
    }

    #[test]
    fn noise_is_continuous_and_seeded() {
        let w = breeze();
        let mut worst: Real = 0.0;
        for step in 1..2000 {
            let d = (w.acceleration(1, step + 1) - w.acceleration(1, step)).length();
            worst = worst.max(d);
        }
        // Smooth noise: no jump between substeps beyond a small slope.
        assert!(worst < 0.1, "substep-to-substep change {worst}");
        let other = Wind { seed: 9, ..w };
        assert_ne!(w.acceleration(0, 500), other.acceleration(0, 500));
        assert_ne!(w.acceleration(0, 500), w.acceleration(1, 500));
        assert_eq!(w.acceleration(2, 777), breeze().acceleration(2, 777));
    }
}
