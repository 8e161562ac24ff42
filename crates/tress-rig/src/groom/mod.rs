//! Hair grooms: strands as polylines, read from TressFX `.tfx` and OBJ
//! polyline files or generated on a head sphere, and resampled to the fixed
//! particle count the strand solver simulates.
//!
//! - [`tfx`]: TressFX 3 and 4 binary reader.
//! - [`obj`]: OBJ `l` polyline reader.
//! - [`procedural`]: seeded strands draped over a head sphere.
//! - [`resample`]: arc-length resampling.
//! - [`scene`]: the turning-head test scene (groom, colliders, motion).
//! - [`error`]: typed errors ([`GroomError`]).

pub mod error;
pub mod obj;
pub mod procedural;
pub mod resample;
pub mod scene;
pub mod tfx;

pub use error::GroomError;
pub use procedural::ProceduralGroom;

use glam::{Quat, Vec3};

/// Strands as polylines, root first. Strands may have different point counts.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Groom {
    points: Vec<Vec3>,
    /// `starts[i]..starts[i + 1]` are strand `i`'s points; `starts[0] == 0`.
    starts: Vec<usize>,
}

impl Groom {
    /// An empty groom.
    #[must_use]
    pub fn new() -> Self {
        Self {
            points: Vec::new(),
            starts: vec![0],
        }
    }

    /// Appends one strand (root first).
    pub fn push_strand(&mut self, strand: &[Vec3]) {
        if self.starts.is_empty() {
            self.starts.push(0);
        }
        self.points.extend_from_slice(strand);
        self.starts.push(self.points.len());
    }

    /// Number of strands.
    #[must_use]
    pub fn strand_count(&self) -> usize {
        self.starts.len().saturating_sub(1)
    }

    /// Points of strand `i`, root first.
    #[must_use]
    pub fn strand(&self, i: usize) -> &[Vec3] {
        &self.points[self.starts[i]..self.starts[i + 1]]
    }

    /// Every strand in order.
    pub fn strands(&self) -> impl Iterator<Item = &[Vec3]> {
        (0..self.strand_count()).map(|i| self.strand(i))
    }

    /// All points, strand after strand.
    #[must_use]
    pub fn points(&self) -> &[Vec3] {
        &self.points
    }

    /// The common point count when every strand has the same, else `None`.
    #[must_use]
    pub fn uniform_count(&self) -> Option<usize> {
        if self.strand_count() == 0 {
            return None;
        }
        let n = self.strand(0).len();
        self.strands().all(|s| s.len() == n).then_some(n)
    }

    /// Axis-aligned bounds `(min, max)`; `None` when empty.
    #[must_use]
    pub fn bounds(&self) -> Option<(Vec3, Vec3)> {
        let first = *self.points.first()?;
        Some(
            self.points
                .iter()
                .fold((first, first), |(lo, hi), &p| (lo.min(p), hi.max(p))),
        )
    }

    /// Every point mapped through `p ↦ rotation · (p · scale) + translation`
    /// (to bring a file's units and axes into the head frame).
    #[must_use]
    pub fn transformed(&self, scale: f32, rotation: Quat, translation: Vec3) -> Self {
        Self {
            points: self
                .points
                .iter()
                .map(|&p| rotation * (p * scale) + translation)
                .collect(),
            starts: self.starts.clone(),
        }
    }

    /// Every strand resampled by arc length to `particles` points.
    ///
    /// # Errors
    /// [`GroomError::BadParticleCount`] outside 4..=64,
    /// [`GroomError::DegenerateStrand`] for a zero-length strand,
    /// [`GroomError::Empty`] with no strands.
    pub fn resampled(&self, particles: usize) -> Result<Self, GroomError> {
        if !(4..=64).contains(&particles) {
            return Err(GroomError::BadParticleCount(particles));
        }
        if self.strand_count() == 0 {
            return Err(GroomError::Empty);
        }
        let mut out = Self::new();
        let mut buf = vec![Vec3::ZERO; particles];
        for (i, s) in self.strands().enumerate() {
            resample::resample_into(s, &mut buf).ok_or(GroomError::DegenerateStrand(i))?;
            out.push_strand(&buf);
        }
        Ok(out)
    }
}
