//! Geodesic distance over a welded triangle mesh: Dijkstra on its edge graph.
//!
//! Distances along mesh edges overestimate the true surface distance where
//! the shortest path cuts across triangles, but a hair mesh's edges run
//! along and around the lock, so the error stays within a fraction of an
//! edge and only the ordering of vertices along the lock matters downstream.

use alloc::collections::BinaryHeap;
use core::cmp::Reverse;

use glam::Vec3;

/// Undirected edge graph in compressed rows (`targets[offsets[v]..offsets[v + 1]]`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Graph {
    offsets: Vec<u32>,
    targets: Vec<u32>,
    lengths: Vec<f32>,
}

impl Graph {
    /// Builds the graph of the triangles' edges over welded ids.
    #[must_use]
    pub fn from_triangles(positions: &[Vec3], triangles: &[[u32; 3]]) -> Self {
        let n = positions.len();
        let mut edges: Vec<(u32, u32)> = Vec::with_capacity(triangles.len() * 3);
        for t in triangles {
            for (a, b) in [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])] {
                // Welding can collapse a sliver triangle's edge to a point.
                if a != b && (a as usize) < n && (b as usize) < n {
                    edges.push((a.min(b), a.max(b)));
                }
            }
        }
        edges.sort_unstable();
        edges.dedup();
        let mut degree = vec![0u32; n + 1];
        for &(a, b) in &edges {
            degree[a as usize + 1] += 1;
            degree[b as usize + 1] += 1;
        }
        for i in 0..n {
            degree[i + 1] += degree[i];
        }
        let offsets = degree;
        let mut fill: Vec<u32> = offsets[..n].to_vec();
        let mut targets = vec![0u32; edges.len() * 2];
        let mut lengths = vec![0f32; edges.len() * 2];
        for &(a, b) in &edges {
            let len = positions[a as usize].distance(positions[b as usize]);
            for (from, to) in [(a, b), (b, a)] {
                let slot = fill[from as usize] as usize;
                targets[slot] = to;
                lengths[slot] = len;
                fill[from as usize] += 1;
            }
        }
        Self {
            offsets,
            targets,
            lengths,
        }
    }

    /// Number of vertices.
    #[must_use]
    pub fn vertex_count(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }

    /// Number of undirected edges.
    #[must_use]
    pub fn edge_count(&self) -> usize {
        self.targets.len() / 2
    }

    /// Every edge length, each undirected edge once.
    #[must_use]
    pub fn edge_lengths(&self) -> Vec<f32> {
        let mut out = Vec::with_capacity(self.edge_count());
        for v in 0..self.vertex_count() {
            for k in self.offsets[v] as usize..self.offsets[v + 1] as usize {
                if (self.targets[k] as usize) > v {
                    out.push(self.lengths[k]);
                }
            }
        }
        out
    }

    /// Shortest edge-path distance from the nearest seed to every vertex;
    /// `f32::INFINITY` where no seed is connected. Seeds start at distance 0.
    #[must_use]
    pub fn distances(&self, seeds: &[u32]) -> Vec<f32> {
        let n = self.vertex_count();
        let mut dist = vec![f32::INFINITY; n];
        // Non-negative f32 values order like their bit patterns, which gives
        // the heap a total order without a float wrapper.
        let mut heap = BinaryHeap::new();
        for &s in seeds {
            if let Some(d) = dist.get_mut(s as usize) {
                *d = 0.0;
                heap.push(Reverse((0f32.to_bits(), s)));
            }
        }
        while let Some(Reverse((bits, v))) = heap.pop() {
            let d = f32::from_bits(bits);
            let vi = v as usize;
            if d > dist[vi] {
                continue;
            }
            for k in self.offsets[vi] as usize..self.offsets[vi + 1] as usize {
                let t = self.targets[k] as usize;
                let nd = d + self.lengths[k];
                if nd < dist[t] {
                    dist[t] = nd;
                    heap.push(Reverse((nd.to_bits(), self.targets[k])));
                }
            }
        }
        dist
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_square_strip_measures_along_its_edges() {
        // Two unit squares side by side, split into triangles:
        // 0-1-2 along x at y = 0, 3-4-5 at y = 1.
        let p: Vec<Vec3> = [0.0, 1.0, 2.0]
            .iter()
            .map(|&x| Vec3::new(x, 0.0, 0.0))
            .chain([0.0, 1.0, 2.0].iter().map(|&x| Vec3::new(x, 1.0, 0.0)))
            .collect();
        let tris = [[0, 1, 4], [0, 4, 3], [1, 2, 5], [1, 5, 4]];
        let g = Graph::from_triangles(&p, &tris);
        assert_eq!(g.edge_count(), 9);
        let d = g.distances(&[0, 3]);
        assert_eq!(d, vec![0.0, 1.0, 2.0, 0.0, 1.0, 2.0]);
        // A vertex that no triangle reaches stays at infinity.
        let mut p2 = p.clone();
        p2.push(Vec3::splat(9.0));
        let d2 = Graph::from_triangles(&p2, &tris).distances(&[0]);
        assert!(d2[6].is_infinite());
        assert!((d2[5] - (1.0 + core::f32::consts::SQRT_2)).abs() < 1e-6);
    }
}
