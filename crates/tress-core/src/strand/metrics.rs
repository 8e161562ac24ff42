//! Measurements of a simulated groom: length error and collider penetration.
//!
//! Only real strands count (padding strands are ignored); these back the
//! quality command and tests, and are cheap enough to call per frame.

use super::buffers::{StrandRest, StrandState};
use super::layout::StrandLayout;
use crate::collide::{WorldCollider, clearance_point};
use crate::math::Real;

/// Rest lengths below this (0.1 mm) are measured against it instead: f32
/// positions a metre from the origin are only good to ~6e-8 m, so a
/// degenerate groom strand (some real grooms hold strands 8 µm long) would
/// otherwise report rounding as a large relative error.
pub const LENGTH_FLOOR: Real = 1e-4;

/// Relative segment length error over all real segments.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct LengthError {
    /// Mean of `|len − rest| / max(rest, LENGTH_FLOOR)`.
    pub mean: Real,
    /// Largest `|len − rest| / max(rest, LENGTH_FLOOR)`.
    pub max: Real,
}

/// Segment length error of the current state against the rest lengths.
#[must_use]
pub fn length_error(
    layout: &StrandLayout,
    rest: &StrandRest<'_>,
    s: &StrandState<'_>,
) -> LengthError {
    let (mut sum, mut max, mut n) = (0.0f64, 0.0 as Real, 0u64);
    for strand in 0..layout.strands() {
        for p in 1..layout.particles() {
            let i = layout.index(strand, p);
            if rest.len[i] <= 0.0 {
                continue;
            }
            let d = s.point(layout, strand, p) - s.point(layout, strand, p - 1);
            let e = crate::math::ops::abs(d.length() - rest.len[i]) / rest.len[i].max(LENGTH_FLOOR);
            sum += f64::from(e);
            max = max.max(e);
            n += 1;
        }
    }
    LengthError {
        mean: if n == 0 {
            0.0
        } else {
            (sum / n as f64) as Real
        },
        max,
    }
}

/// Free particles of real strands more than `depth` inside any collider.
#[must_use]
pub fn penetrations(
    layout: &StrandLayout,
    s: &StrandState<'_>,
    colliders: &[WorldCollider],
    depth: Real,
) -> usize {
    let mut count = 0;
    for strand in 0..layout.strands() {
        for p in 1..layout.particles() {
            let x = s.point(layout, strand, p);
            if colliders
                .iter()
                .any(|c| clearance_point(c, x, 0.0).0 < -depth)
            {
                count += 1;
            }
        }
    }
    count
}
