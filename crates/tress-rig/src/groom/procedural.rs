//! Our own procedural groom: seeded strands rooted on a head sphere and
//! draped over it, the test load for the strand solver (6,000 × 16 by default).
//!
//! Roots cover the scalp (the upper cap, reaching lower at the back, never the
//! face, which looks along +Z). Each strand grows out along the scalp normal
//! and bends toward −Y segment by segment, lifted a few millimetres above the
//! sphere so the rest pose itself is clear of the head collider.

use glam::Vec3;
use tress_core::math::ops;

use super::Groom;

/// Parameters of the generated groom.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ProceduralGroom {
    /// Strand count.
    pub strands: usize,
    /// Points per strand.
    pub particles: usize,
    /// Head sphere centre (the groom is generated in this sphere's space).
    pub head_centre: Vec3,
    /// Head sphere radius, m.
    pub head_radius: f32,
    /// Mean strand length, m.
    pub length: f32,
    /// Fraction of the bend toward −Y per segment (0 = straight out).
    pub droop: f32,
    /// Seed of the pseudo-random generator.
    pub seed: u64,
}

impl Default for ProceduralGroom {
    /// 6,000 strands × 16 particles, 18 cm long, on a 0.1 m head at 1.55 m.
    fn default() -> Self {
        Self {
            strands: 6000,
            particles: 16,
            head_centre: Vec3::new(0.0, 1.55, 0.0),
            head_radius: 0.1,
            length: 0.18,
            droop: 0.3,
            seed: 0x7e55_5eed,
        }
    }
}

/// SplitMix64: small, seeded, and the same on every platform.
#[derive(Debug, Clone)]
pub struct SplitMix(u64);

impl SplitMix {
    /// A generator from a seed.
    #[must_use]
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// Next value in [0, 1).
    pub fn next_f32(&mut self) -> f32 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        (z >> 40) as f32 / (1u64 << 24) as f32
    }
}

impl ProceduralGroom {
    /// Whether a unit direction from the head centre lies on the scalp.
    fn on_scalp(n: Vec3) -> bool {
        let face = n.z > 0.35 && n.y < 0.55;
        !face && (n.y > 0.15 || (n.z < -0.2 && n.y > -0.35))
    }

    /// Generates the strands (`particles ≥ 2` points each).
    #[must_use]
    pub fn generate(&self) -> Groom {
        let mut rng = SplitMix::new(self.seed);
        let m = self.particles.max(2);
        let (c, r) = (self.head_centre, self.head_radius);
        let mut groom = Groom::new();
        let mut pts = Vec::with_capacity(m);
        let mut made = 0;
        while made < self.strands {
            // Uniform direction on the sphere, kept if it is scalp.
            let z = 2.0 * rng.next_f32() - 1.0;
            let phi = core::f32::consts::TAU * rng.next_f32();
            let s = ops::sqrt((1.0 - z * z).max(0.0));
            let (sp, cp) = ops::sin_cos(phi);
            let n = Vec3::new(s * cp, z, s * sp);
            if !Self::on_scalp(n) {
                continue;
            }
            let len = self.length * (0.85 + 0.3 * rng.next_f32());
            let seg = len / (m - 1) as f32;
            let lift0 = 0.003 + 0.003 * rng.next_f32();
            pts.clear();
            let mut p = c + n * r;
            let mut d = n;
            pts.push(p);
            for j in 1..m {
                d = (d * (1.0 - self.droop) + Vec3::NEG_Y * self.droop).normalize_or(Vec3::NEG_Y);
                let mut q = p + d * seg;
                // Keep the rest pose outside the head, layered a little higher toward the tip.
                let floor = r + lift0 + 0.004 * j as f32 / (m - 1) as f32;
                let off = q - c;
                if off.length() < floor {
                    q = c + off.normalize_or(n) * floor;
                    q = p + (q - p).normalize_or(d) * seg;
                    d = (q - p).normalize_or(d);
                }
                pts.push(q);
                p = q;
            }
            groom.push_strand(&pts);
            made += 1;
        }
        groom
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_groom_is_6000_by_16_on_the_scalp_and_outside_the_head() {
        let g = ProceduralGroom::default();
        let groom = g.generate();
        assert_eq!(groom.strand_count(), 6000);
        assert_eq!(groom.uniform_count(), Some(16));
        for s in groom.strands() {
            let root = (s[0] - g.head_centre).length();
            assert!((root - g.head_radius).abs() < 1e-5);
            for p in &s[1..] {
                // Re-projection keeps every free point at least ~3 mm out
                // (less a sliver from restoring the segment length).
                assert!((*p - g.head_centre).length() > g.head_radius + 0.002);
            }
        }
        // Seeded: the same parameters give the same groom.
        assert_eq!(groom, g.generate());
    }

    /// Largest distance of a root from its chunk's root centroid, mean over
    /// chunks of 16 strands (the solver's `LANES`).
    fn mean_chunk_spread(g: &Groom) -> f32 {
        let roots: Vec<Vec3> = g.strands().map(|s| s[0]).collect();
        let chunks: Vec<&[Vec3]> = roots.chunks(16).collect();
        let total: f32 = chunks
            .iter()
            .map(|c| {
                let mid = c.iter().copied().sum::<Vec3>() / c.len() as f32;
                c.iter().map(|p| (*p - mid).length()).fold(0.0, f32::max)
            })
            .sum();
        total / chunks.len() as f32
    }

    #[test]
    fn ordering_by_root_keeps_every_strand_and_makes_chunks_compact() {
        let g = ProceduralGroom::default();
        let groom = g.generate();
        let ordered = groom.ordered_by_root();
        assert_eq!(ordered.strand_count(), groom.strand_count());
        // The same strands, only permuted.
        let key = |s: &[Vec3]| {
            s.iter()
                .flat_map(|p| p.to_array())
                .map(f32::to_bits)
                .collect::<Vec<_>>()
        };
        let mut a: Vec<_> = groom.strands().map(key).collect();
        let mut b: Vec<_> = ordered.strands().map(key).collect();
        a.sort();
        b.sort();
        assert!(a == b);
        // Generated order scatters a chunk over the scalp (~10 cm spread on
        // a 10 cm head); along the curve a chunk is a patch.
        let (before, after) = (mean_chunk_spread(&groom), mean_chunk_spread(&ordered));
        assert!(after < 0.3 * before, "chunk spread {before} m -> {after} m");
    }

    #[test]
    fn morton_order_interleaves_the_axes() {
        assert_eq!(super::super::morton3(1, 0, 0), 1);
        assert_eq!(super::super::morton3(0, 1, 0), 2);
        assert_eq!(super::super::morton3(0, 0, 1), 4);
        assert_eq!(super::super::morton3(3, 0, 0), 0b1001);
        assert_eq!(super::super::morton3(1023, 1023, 1023), (1 << 30) - 1);
    }
}
