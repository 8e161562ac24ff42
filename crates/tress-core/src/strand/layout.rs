//! Where each particle of each strand lives in the structure-of-arrays buffers.
//!
//! Strands are grouped in chunks of [`LANES`]; inside a chunk the particles
//! are stored row by row (particle `i` of all lanes, then particle `i + 1`),
//! so the root-to-tip passes walk sixteen strands in lockstep and the
//! compiler turns the lane loops into SIMD. Sixteen rather than four or
//! eight because Follow-The-Leader is a dependency chain along the strand:
//! four SSE vectors per row hide its latency, and a 16-particle chunk (11
//! arrays, 11 KiB) still sits in L1. The strand count is padded up to a
//! whole chunk; padding strands copy the last real strand, are simulated,
//! and are never reported.

use core::fmt;

/// Strands per chunk by default: the width of the lockstep lane loops.
pub const LANES: usize = 16;
/// Strands per chunk of a wide layout ([`StrandLayout::with_lanes`]), for
/// CPUs with AVX-512, where a row of 32 lanes is two registers
/// (`strand::wide_lanes_fit` says whether this one is).
pub const WIDE_LANES: usize = 32;
/// Fewest particles a strand may have (root, two free, tip).
pub const MIN_PARTICLES: usize = 4;
/// Most particles a strand may have.
pub const MAX_PARTICLES: usize = 64;

/// Why a layout could not be made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LayoutError {
    /// No strands.
    NoStrands,
    /// Particles per strand outside `MIN_PARTICLES..=MAX_PARTICLES`.
    ParticlesOutOfRange(usize),
    /// The padded buffer length does not fit in `usize`.
    TooLarge,
    /// A lane count other than [`LANES`] or [`WIDE_LANES`].
    Lanes(usize),
}

impl fmt::Display for LayoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoStrands => write!(f, "a strand layout needs at least one strand"),
            Self::ParticlesOutOfRange(m) => write!(
                f,
                "{m} particles per strand; supported range is {MIN_PARTICLES}..={MAX_PARTICLES}"
            ),
            Self::TooLarge => write!(f, "strand buffers would not fit in memory"),
            Self::Lanes(n) => write!(f, "{n} lanes per chunk; use {LANES} or {WIDE_LANES}"),
        }
    }
}

impl core::error::Error for LayoutError {}

/// Shape of the strand buffers: `strands` strands of `particles` particles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StrandLayout {
    strands: usize,
    particles: usize,
    lanes: usize,
}

impl StrandLayout {
    /// A layout for `strands` strands of `particles` particles each.
    ///
    /// # Errors
    /// [`LayoutError`] when either count is out of range.
    pub fn new(strands: usize, particles: usize) -> Result<Self, LayoutError> {
        Self::with_lanes(strands, particles, LANES)
    }

    /// A layout with `lanes` strands per chunk ([`LANES`] or [`WIDE_LANES`]).
    /// The simulation gives every strand the same bits with either; the
    /// wide one is faster where `strand::wide_lanes_fit` holds.
    ///
    /// # Errors
    /// [`LayoutError`] when a count is out of range.
    pub fn with_lanes(strands: usize, particles: usize, lanes: usize) -> Result<Self, LayoutError> {
        if lanes != LANES && lanes != WIDE_LANES {
            return Err(LayoutError::Lanes(lanes));
        }
        if strands == 0 {
            return Err(LayoutError::NoStrands);
        }
        if !(MIN_PARTICLES..=MAX_PARTICLES).contains(&particles) {
            return Err(LayoutError::ParticlesOutOfRange(particles));
        }
        strands
            .div_ceil(lanes)
            .checked_mul(lanes * particles)
            .ok_or(LayoutError::TooLarge)?;
        Ok(Self {
            strands,
            particles,
            lanes,
        })
    }

    /// Real (unpadded) strand count.
    #[must_use]
    pub fn strands(&self) -> usize {
        self.strands
    }

    /// Particles per strand, root included.
    #[must_use]
    pub fn particles(&self) -> usize {
        self.particles
    }

    /// Strands per chunk ([`LANES`] or [`WIDE_LANES`]).
    #[must_use]
    pub fn lanes(&self) -> usize {
        self.lanes
    }

    /// Number of chunks of [`Self::lanes`] strands.
    #[must_use]
    pub fn chunks(&self) -> usize {
        self.strands.div_ceil(self.lanes)
    }

    /// Floats in one chunk of one array.
    #[must_use]
    pub fn chunk_len(&self) -> usize {
        self.particles * self.lanes
    }

    /// Length every per-particle array must have (padding included).
    #[must_use]
    pub fn len(&self) -> usize {
        self.chunks() * self.chunk_len()
    }

    /// Always false: a layout has at least one chunk.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Index of particle `particle` of strand `strand` (padding strands allowed).
    #[inline]
    #[must_use]
    pub fn index(&self, strand: usize, particle: usize) -> usize {
        (strand / self.lanes) * self.chunk_len() + particle * self.lanes + strand % self.lanes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_is_a_bijection_onto_the_padded_buffer() {
        for lanes in [LANES, WIDE_LANES] {
            let l = StrandLayout::with_lanes(lanes + 5, 5, lanes).unwrap();
            assert_eq!(l.chunks(), 2);
            assert_eq!(l.len(), 2 * 5 * lanes);
            let mut seen = [false; 2 * 5 * WIDE_LANES];
            for s in 0..l.chunks() * lanes {
                for p in 0..5 {
                    let i = l.index(s, p);
                    assert!(!seen[i], "index {i} used twice");
                    seen[i] = true;
                }
            }
            assert!(seen[..l.len()].iter().all(|&b| b));
        }
    }

    #[test]
    fn rejects_bad_counts() {
        assert_eq!(StrandLayout::new(0, 16), Err(LayoutError::NoStrands));
        assert_eq!(
            StrandLayout::new(4, 3),
            Err(LayoutError::ParticlesOutOfRange(3))
        );
        assert_eq!(
            StrandLayout::new(4, 65),
            Err(LayoutError::ParticlesOutOfRange(65))
        );
        assert_eq!(
            StrandLayout::new(usize::MAX, 64),
            Err(LayoutError::TooLarge)
        );
        assert_eq!(
            StrandLayout::with_lanes(4, 16, 8),
            Err(LayoutError::Lanes(8))
        );
    }
}
