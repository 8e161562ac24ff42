//! Hair grooms: strands as polylines, read from TressFX `.tfx` and OBJ
//! polyline files or generated on a head sphere, and resampled to the fixed
//! particle count the strand solver simulates.
//!
//! - [`load_any`] / [`read_any`]: either file format, chosen by the bytes
//!   and then the file name, from disk or from bytes the caller read
//!   (`*_with_warnings` also list the degenerate strands skipped).
//! - [`tfx`]: TressFX 3 and 4 binary reader.
//! - [`tfxsim`]: TressFX `.tfxsim` settings and `.tfxproj` projects.
//! - [`tfxbone`]: TressFX `.tfxbone` bone names and root weights.
//! - [`tfxmesh`]: TressFX `.tfxmesh` skinned collision meshes (read only).
//! - [`obj`]: OBJ `l` polyline reader.
//! - [`procedural`]: seeded strands draped over a head sphere.
//! - [`resample`]: arc-length resampling.
//! - [`scene`]: the turning-head test scene (groom, colliders, motion).
//! - [`error`]: typed errors ([`GroomError`]) and the strands a reader
//!   skipped ([`GroomWarning`]: degenerate ones, the rest loads).
//!
//! [`Groom::subset`] picks the strands a level of detail simulates.

pub mod body;
pub mod error;
mod load;
pub mod obj;
pub mod procedural;
pub mod resample;
pub mod scene;
pub mod tfx;
pub mod tfxbone;
pub mod tfxmesh;
pub mod tfxsim;

pub use error::{GroomError, GroomWarning};
pub use load::{load_any, load_any_with_warnings, read_any, read_any_with_warnings};
pub use procedural::ProceduralGroom;
pub use tfxsim::{TfxProject, TfxSim};

use glam::{Quat, Vec3};
use tress_core::math::quat;

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

    /// The particle count a groom simulates at by default: its own point
    /// count when every strand has the same (fur authored with 4 points
    /// stays at 4), else its longest strand's, clamped to the solver's
    /// 4..=64. `None` when empty.
    #[must_use]
    pub fn own_particles(&self) -> Option<usize> {
        let n = self
            .uniform_count()
            .or_else(|| self.strands().map(<[Vec3]>::len).max())?;
        Some(n.clamp(4, 64))
    }

    /// The factor that brings this groom's coordinates to metres, guessed
    /// from its size: a groom is hair on one head or body, so its largest
    /// extent is under 5 units in metres; 5..=500 reads as centimetres
    /// (TressFX's samples, Maya's default) and more as millimetres.
    /// [`UnitGuess::Metres`] when empty.
    #[must_use]
    pub fn guess_units(&self) -> UnitGuess {
        let Some((lo, hi)) = self.bounds() else {
            return UnitGuess::Metres;
        };
        let extent = (hi - lo).max_element();
        if extent > 500.0 {
            UnitGuess::Millimetres
        } else if extent > 5.0 {
            UnitGuess::Centimetres
        } else {
            UnitGuess::Metres
        }
    }

    /// [`REFERENCE_SEGMENT`] over this groom's mean segment length when
    /// resampled to `particles`, and 1 for segments as long or longer (or
    /// an empty groom): the factor
    /// [`stiffened_for_short_segments`](Self::stiffened_for_short_segments)
    /// multiplies the stiffnesses by.
    #[must_use]
    pub fn short_segment_factor(&self, particles: usize) -> f32 {
        let strands = self.strand_count().max(1) as f64;
        let total: f64 = self
            .strands()
            .map(|s| f64::from(s.windows(2).map(|w| (w[1] - w[0]).length()).sum::<f32>()))
            .sum();
        let seg = (total / strands) as f32 / (particles.max(2) - 1) as f32;
        if seg.is_nan() || seg <= 0.0 || seg >= REFERENCE_SEGMENT {
            1.0
        } else {
            REFERENCE_SEGMENT / seg
        }
    }

    /// `params` with the shape stiffnesses raised for a groom whose
    /// segments (at `particles` per strand) are shorter than
    /// [`REFERENCE_SEGMENT`], so short fur stands as long hair holds its
    /// shape. Gravity moves every free particle by the same `g h²` a step
    /// whatever the segment length, and a stiffness removes a fraction of
    /// that offset, so the angle a segment sags is `g h² / (s L)`: shorter
    /// segments sag more by `L_ref / L`. Multiplying the stiffnesses by
    /// that ratio (capped at 1) keeps the sag angle of the tuned long hair;
    /// longer segments are left as they are. On the built-in 4-point fur
    /// (1.5 cm, 5 mm segments) the tips end 4.6 % of their length from the
    /// groom instead of 111 % (`tress groom measure procedural-fur`).
    #[must_use]
    pub fn stiffened_for_short_segments(
        &self,
        params: tress_core::strand::StrandParams,
        particles: usize,
    ) -> tress_core::strand::StrandParams {
        let k = self.short_segment_factor(particles);
        if k <= 1.0 {
            return params;
        }
        tress_core::strand::StrandParams {
            local_stiffness: (params.local_stiffness * k).min(1.0),
            global_stiffness: (params.global_stiffness * k).min(1.0),
            ..params
        }
    }

    /// Every point mapped through `p ↦ rotation · (p · scale) + translation`
    /// (to bring a file's units and axes into the head frame).
    #[must_use]
    pub fn transformed(&self, scale: f32, rotation: Quat, translation: Vec3) -> Self {
        Self {
            points: self
                .points
                .iter()
                .map(|&p| quat::rotate(rotation, p * scale) + translation)
                .collect(),
            starts: self.starts.clone(),
        }
    }

    /// The same strands in the order of a space-filling (Morton) curve
    /// through their roots. The strand solver steps strands in chunks of
    /// `StrandLayout::lanes` (16 or 32) and skips a collider for a whole chunk
    /// when no strand of it can reach; neighbours in this order are
    /// neighbours on the scalp, so chunks are compact and skip more. A
    /// stride through this order (level of detail) still covers the scalp
    /// evenly.
    #[must_use]
    pub fn ordered_by_root(&self) -> Self {
        self.picked(&self.root_order())
    }

    /// The strand indices in [`ordered_by_root`](Self::ordered_by_root)'s
    /// order, for data kept per strand beside the groom (bone weights).
    #[must_use]
    pub fn root_order(&self) -> Vec<usize> {
        let roots: Vec<Vec3> = self
            .strands()
            .map(|s| s.first().copied().unwrap_or(Vec3::ZERO))
            .collect();
        let Some(first) = roots.first().copied() else {
            return Vec::new();
        };
        let (lo, hi) = roots
            .iter()
            .fold((first, first), |(lo, hi), &p| (lo.min(p), hi.max(p)));
        let span = (hi - lo).max(Vec3::splat(f32::MIN_POSITIVE));
        let key = |p: Vec3| {
            let q = ((p - lo) / span * 1023.0).clamp(Vec3::ZERO, Vec3::splat(1023.0));
            morton3(q.x as u32, q.y as u32, q.z as u32)
        };
        let mut order: Vec<usize> = (0..roots.len()).collect();
        // Stable: strands with one key keep their file order.
        order.sort_by_key(|&i| key(roots[i]));
        order
    }

    /// The strands at `indices`, in that order (indices past the groom
    /// are skipped).
    #[must_use]
    pub fn picked(&self, indices: &[usize]) -> Self {
        let mut out = Self::new();
        for &i in indices.iter().filter(|&&i| i < self.strand_count()) {
            out.push_strand(self.strand(i));
        }
        out
    }

    /// An even share of the strands (level of detail): `fraction`, clamped
    /// to 0.01..=1, of the strands (at least one; rounded down), strand `i`
    /// of the `keep` kept being strand `i · total / keep`. After
    /// [`ordered_by_root`](Self::ordered_by_root) the kept strands spread
    /// over the whole scalp. A NaN `fraction` keeps one strand; an empty
    /// groom stays empty.
    #[must_use]
    pub fn subset(&self, fraction: f32) -> Self {
        self.picked(&subset_indices(self.strand_count(), fraction))
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

/// The segment length the default shape stiffnesses are tuned at: the
/// procedural groom's 18 cm strands of 16 particles (12 mm segments), the
/// quality scene of `docs/STRANDS.md`.
pub const REFERENCE_SEGMENT: f32 = 0.012;

/// A groom's units as [`Groom::guess_units`] reads them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnitGuess {
    /// Largest extent under 5 units: metres (scale 1).
    Metres,
    /// 5..=500 units: centimetres (scale 0.01).
    Centimetres,
    /// Over 500 units: millimetres (scale 0.001).
    Millimetres,
}

impl UnitGuess {
    /// Metres per file unit.
    #[must_use]
    pub fn scale(self) -> f32 {
        match self {
            Self::Metres => 1.0,
            Self::Centimetres => 0.01,
            Self::Millimetres => 0.001,
        }
    }

    /// The unit's name (`centimetres`).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Metres => "metres",
            Self::Centimetres => "centimetres",
            Self::Millimetres => "millimetres",
        }
    }
}

/// The strands [`Groom::subset`] keeps of `total` for `fraction`, in order.
#[must_use]
pub fn subset_indices(total: usize, fraction: f32) -> Vec<usize> {
    if total == 0 {
        return Vec::new();
    }
    let keep = ((total as f32 * fraction.clamp(0.01, 1.0)) as usize).max(1);
    (0..keep).map(|i| i * total / keep).collect()
}

/// Interleaves the low 10 bits of `x`, `y`, `z` (x lowest).
fn morton3(x: u32, y: u32, z: u32) -> u32 {
    fn spread(v: u32) -> u32 {
        let mut v = v & 0x3ff;
        v = (v | (v << 16)) & 0x0300_00ff;
        v = (v | (v << 8)) & 0x0300_f00f;
        v = (v | (v << 4)) & 0x030c_30c3;
        (v | (v << 2)) & 0x0924_9249
    }
    spread(x) | (spread(y) << 1) | (spread(z) << 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `n` two-point strands, strand `i` rooted at `x = i`.
    fn row(n: usize) -> Groom {
        let mut g = Groom::new();
        for i in 0..n {
            let root = Vec3::new(i as f32, 0.0, 0.0);
            g.push_strand(&[root, root - Vec3::Y]);
        }
        g
    }

    fn roots(g: &Groom) -> Vec<f32> {
        g.strands().map(|s| s[0].x).collect()
    }

    #[test]
    fn subset_of_all_keeps_every_strand() {
        let g = row(10);
        assert_eq!(g.subset(1.0), g);
        // Above 1 is clamped.
        assert_eq!(g.subset(3.0), g);
    }

    #[test]
    fn a_quarter_is_spread_evenly_over_the_groom() {
        let g = row(100);
        let q = g.subset(0.25);
        assert_eq!(q.strand_count(), 25);
        // Strand i of 25 is strand 4i: first to last, evenly.
        let want: Vec<f32> = (0..25).map(|i| (4 * i) as f32).collect();
        assert_eq!(roots(&q), want);
        assert_eq!(q.strand(3), g.strand(12));
        // Rounded down, at least one, clamped to 1 %.
        assert_eq!(row(10).subset(0.25).strand_count(), 2);
        assert_eq!(roots(&row(10).subset(0.25)), [0.0, 5.0]);
        assert_eq!(row(10).subset(0.0).strand_count(), 1);
        assert_eq!(row(1000).subset(0.0).strand_count(), 10);
        assert_eq!(row(10).subset(f32::NAN).strand_count(), 1);
        assert_eq!(Groom::new().subset(0.5).strand_count(), 0);
    }

    #[test]
    fn own_particles_and_units_come_from_the_groom() {
        // Four-point fur keeps four; mixed counts take the longest; 2-point
        // strands rise to the solver's minimum, 100 fall to its maximum.
        let strand = |n: usize, step: f32| -> Vec<Vec3> {
            (0..n)
                .map(|i| Vec3::new(0.0, -step * i as f32, 0.0))
                .collect()
        };
        let mut fur = Groom::new();
        fur.push_strand(&strand(4, 0.003));
        fur.push_strand(&strand(4, 0.003));
        assert_eq!(fur.own_particles(), Some(4));
        let mut mixed = fur.clone();
        mixed.push_strand(&strand(9, 0.003));
        assert_eq!(mixed.own_particles(), Some(9));
        let mut two = Groom::new();
        two.push_strand(&strand(2, 0.01));
        assert_eq!(two.own_particles(), Some(4));
        let mut long = Groom::new();
        long.push_strand(&strand(100, 0.001));
        assert_eq!(long.own_particles(), Some(64));
        assert_eq!(Groom::new().own_particles(), None);
        // 9 mm of fur is metres; 30 cm of hair in cm is 30 units; 300 mm
        // of hair in mm is 600 units long at 2 mm a step.
        assert_eq!(fur.guess_units(), UnitGuess::Metres);
        assert_eq!(strand_groom(16, 2.0).guess_units(), UnitGuess::Centimetres);
        assert_eq!(strand_groom(301, 2.0).guess_units(), UnitGuess::Millimetres);
        assert_eq!(Groom::new().guess_units().scale(), 1.0);
    }

    fn strand_groom(n: usize, step: f32) -> Groom {
        let mut g = Groom::new();
        g.push_strand(
            &(0..n)
                .map(|i| Vec3::new(0.0, -step * i as f32, 0.0))
                .collect::<Vec<_>>(),
        );
        g
    }

    #[test]
    fn short_segments_get_stiffer_shape_and_long_ones_keep_theirs() {
        use tress_core::strand::StrandParams;
        let d = StrandParams::default();
        // 1.5 cm at 4 points: 5 mm segments, 2.4 x the stiffness (local capped at 1).
        let fur = strand_groom(4, 0.005);
        let p = fur.stiffened_for_short_segments(d, 4);
        assert_eq!(p.local_stiffness, 1.0);
        assert!(
            (p.global_stiffness - 0.24).abs() < 1e-5,
            "{}",
            p.global_stiffness
        );
        // The same fur resampled to 16 has 1 mm segments: capped both.
        assert_eq!(
            fur.stiffened_for_short_segments(d, 16).global_stiffness,
            1.0
        );
        // 18 cm at 16 points is the reference (12 mm): unchanged, bit for bit.
        assert_eq!(
            strand_groom(16, 0.012).stiffened_for_short_segments(d, 16),
            d
        );
        assert_eq!(strand_groom(8, 0.036).stiffened_for_short_segments(d, 8), d);
        assert_eq!(Groom::new().stiffened_for_short_segments(d, 4), d);
    }
}
