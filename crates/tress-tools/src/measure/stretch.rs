//! Per-edge stretch of the skinned hair mesh.
//!
//! For each unique edge `e = (a, b)` of the hair triangles with at least
//! one hair vertex among its ends,
//! `ρ_e(t) = ‖z_a(t) − z_b(t)‖ / ℓ_e⁰` with `ℓ_e⁰` the edge's length in the
//! rest pose; `m_e = max_t ρ_e(t)`. Only lengthening is reported (linear-blend
//! skinning of a bent chain shortens the inside of the bend; that is the
//! familiar "candy wrapper" loss, not the stretch issue #6 is about).

use glam::Vec3;
use serde::Serialize;

use tress_rig::skin::MeshSet;

/// Edges shorter than this at rest (metres) are welded seams; a ratio
/// against them means nothing.
const MIN_REST: f32 = 1e-6;

/// How many of the most stretched edges a report lists.
pub const WORST_LISTED: usize = 10;

/// Upper bin edges of the stretch histogram, percent of rest length.
pub const BINS_PERCENT: [f32; 10] = [0.1, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0, 15.0, 25.0, 50.0];

/// Unique hair edges and their running maximum ratio.
#[derive(Debug, Clone)]
pub struct Stretch {
    edges: Vec<(u32, u32)>,
    rest: Vec<f32>,
    max_ratio: Vec<f32>,
    /// Largest ratio of the first sample (the rest pose at t = 0 in a run).
    first_max: Option<f32>,
}

/// One edge, for reports.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EdgeRef {
    /// Mesh name.
    pub mesh: String,
    /// Primitive index.
    pub primitive: usize,
    /// Vertex indices within the primitive.
    pub vertices: [usize; 2],
    /// Rest length, metres.
    pub rest_m: f32,
    /// `m_e − 1`, percent.
    pub percent: f32,
    /// For each end, the nodes that skin it with their weights, largest
    /// first, e.g. `FrontHair_Center_R 0.50 + backpack_Armature 0.50`.
    pub owners: [String; 2],
}

/// One histogram bin: edges with `from < m_e − 1 ≤ to` (percent).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Bin {
    /// Lower bound, percent (exclusive; the first bin starts at −∞).
    pub from: Option<f32>,
    /// Upper bound, percent (inclusive; the last bin has none).
    pub to: Option<f32>,
    /// Edge count.
    pub edges: usize,
}

/// The stretch summary of a run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StretchReport {
    /// Unique hair edges measured.
    pub edges: usize,
    /// 99th percentile (nearest rank) of `m_e − 1`, percent.
    pub p99_percent: f32,
    /// Median of `m_e − 1`, percent.
    pub p50_percent: f32,
    /// Whether every ratio was finite.
    pub finite: bool,
    /// The edge with the largest `m_e`.
    pub worst: Option<EdgeRef>,
    /// The [`WORST_LISTED`] edges with the largest `m_e`, largest first.
    pub worst_edges: Vec<EdgeRef>,
    /// Largest `ρ_e − 1` of the first sample, percent: at t = 0, before
    /// any step, the rig at rest should give 0 (anything else is a pose
    /// that differs from the one rest lengths were taken in).
    pub at_start_percent: f32,
    /// Distribution of `m_e − 1`.
    pub histogram: Vec<Bin>,
}

impl Stretch {
    /// The unique edges of `mesh`'s hair triangles with rest positions `rest`.
    #[must_use]
    pub fn new(mesh: &MeshSet, rest: &[Vec3]) -> Self {
        Self::new_in(mesh, rest, &[])
    }

    /// As [`Stretch::new`], counting only the hair triangles of the meshes
    /// named in `only` (all of them when it is empty).
    ///
    /// An edge counts when it belongs to a hair triangle and at least one
    /// of its ends is a hair vertex.
    #[must_use]
    pub fn new_in(mesh: &MeshSet, rest: &[Vec3], only: &[String]) -> Self {
        let mut hair = mesh.hair.clone();
        hair.sort_unstable();
        let is_hair = |v: u32| hair.binary_search(&v).is_ok();
        let mut edges: Vec<(u32, u32)> = mesh
            .hair_tris
            .iter()
            .filter(|t| {
                only.is_empty()
                    || mesh
                        .locate(t[0])
                        .is_some_and(|(part, _)| only.contains(&part.mesh))
            })
            .flat_map(|t| [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])])
            .map(|(a, b)| (a.min(b), a.max(b)))
            // A hair triangle's third edge can join two vertices that are
            // not hair (e.g. both on the head): nothing the solver moves
            // owns either end, so its stretch is the body's skinning.
            .filter(|&(a, b)| a != b && (is_hair(a) || is_hair(b)))
            .collect();
        edges.sort_unstable();
        edges.dedup();
        let lengths: Vec<f32> = edges
            .iter()
            .map(|&(a, b)| rest[a as usize].distance(rest[b as usize]))
            .collect();
        let (edges, rest): (Vec<_>, Vec<_>) = edges
            .into_iter()
            .zip(lengths)
            .filter(|&(_, l)| l >= MIN_REST)
            .unzip();
        let max_ratio = vec![1.0; edges.len()];
        Self {
            edges,
            rest,
            max_ratio,
            first_max: None,
        }
    }

    /// Every vertex an edge touches (what must be skinned per sample).
    #[must_use]
    pub fn vertices(&self) -> Vec<u32> {
        let mut v: Vec<u32> = self.edges.iter().flat_map(|&(a, b)| [a, b]).collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// Takes one sample of skinned positions.
    pub fn sample(&mut self, pos: &[Vec3]) {
        let first = self.first_max.is_none();
        let mut sample_max = 1.0f32;
        for ((&(a, b), &l0), m) in self.edges.iter().zip(&self.rest).zip(&mut self.max_ratio) {
            let r = pos[a as usize].distance(pos[b as usize]) / l0;
            // NaN must win, so a broken run cannot hide behind `max`.
            if r > *m || r.is_nan() {
                *m = r;
            }
            if first && (r > sample_max || r.is_nan()) {
                sample_max = r;
            }
        }
        if first {
            self.first_max = Some(sample_max);
        }
    }

    /// The summary so far, owners named `node N`.
    #[must_use]
    pub fn report(&self, mesh: &MeshSet) -> StretchReport {
        self.report_named(mesh, &[])
    }

    /// The summary so far, with edge owners named from `node_names` (by
    /// node index; `node N` where it has none).
    #[must_use]
    pub fn report_named(&self, mesh: &MeshSet, node_names: &[String]) -> StretchReport {
        let finite = self.max_ratio.iter().all(|r| r.is_finite());
        let mut pct: Vec<f32> = self.max_ratio.iter().map(|r| (r - 1.0) * 100.0).collect();
        pct.sort_unstable_by(f32::total_cmp);
        let rank = |q: f32| -> f32 {
            if pct.is_empty() {
                return 0.0;
            }
            // Nearest rank: the smallest value with at least q of the edges at or below it.
            let k = ((q * pct.len() as f32).ceil() as usize).clamp(1, pct.len());
            pct[k - 1]
        };
        let owner = |v: u32| {
            let mut w = mesh.weights(v);
            // Largest first; equal weights keep the file's order.
            w.sort_by(|a, b| b.1.total_cmp(&a.1));
            let named: Vec<String> = w
                .iter()
                .map(|&(n, w)| {
                    let name = node_names
                        .get(n)
                        .cloned()
                        .unwrap_or_else(|| format!("node {n}"));
                    format!("{name} {w:.2}")
                })
                .collect();
            named.join(" + ")
        };
        let edge = |i: usize| -> Option<EdgeRef> {
            let (a, b) = self.edges[i];
            let (part, la) = mesh.locate(a)?;
            let (_, lb) = mesh.locate(b)?;
            Some(EdgeRef {
                mesh: part.mesh.clone(),
                primitive: part.primitive,
                vertices: [la, lb],
                rest_m: self.rest[i],
                percent: (self.max_ratio[i] - 1.0) * 100.0,
                owners: [owner(a), owner(b)],
            })
        };
        let mut order: Vec<usize> = (0..self.edges.len()).collect();
        // Largest first; ties (and the first of equal maxima) by edge order.
        order.sort_by(|&a, &b| {
            self.max_ratio[b]
                .total_cmp(&self.max_ratio[a])
                .then(a.cmp(&b))
        });
        let worst_edges: Vec<EdgeRef> = order
            .iter()
            .take(WORST_LISTED)
            .filter_map(|&i| edge(i))
            .collect();
        let worst = self
            .max_ratio
            .iter()
            .enumerate()
            .max_by(|a, b| a.1.total_cmp(b.1))
            .and_then(|(i, _)| edge(i));
        let mut histogram: Vec<Bin> = Vec::with_capacity(BINS_PERCENT.len() + 1);
        let mut from = None;
        for &to in &BINS_PERCENT {
            histogram.push(Bin {
                from,
                to: Some(to),
                edges: 0,
            });
            from = Some(to);
        }
        histogram.push(Bin {
            from,
            to: None,
            edges: 0,
        });
        for &p in &pct {
            let i = BINS_PERCENT
                .iter()
                .position(|&to| p <= to)
                .unwrap_or(BINS_PERCENT.len());
            histogram[i].edges += 1;
        }
        StretchReport {
            edges: self.edges.len(),
            p99_percent: rank(0.99),
            p50_percent: rank(0.5),
            finite,
            worst,
            worst_edges,
            at_start_percent: self.first_max.map_or(0.0, |r| (r - 1.0) * 100.0),
            histogram,
        }
    }
}
