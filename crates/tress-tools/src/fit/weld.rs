//! Welding: vertices at the same place become one graph node.
//!
//! Exporters split a vertex wherever its normal or texture coordinate is
//! discontinuous (a tube's UV seam, a hard edge), so the index buffer alone
//! describes a surface cut open along those seams. Geodesic distance must
//! cross them, so vertices closer than a tolerance share one welded id.

use std::collections::HashMap;

use glam::Vec3;
use tress_core::math::ops;

/// The welded surface: a welded id per input vertex and one position per id.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Welded {
    /// Welded id of each input vertex.
    pub id: Vec<u32>,
    /// Position of each welded id (the first input vertex that founded it).
    pub positions: Vec<Vec3>,
}

/// Welds `points` that lie within `tolerance` of an earlier representative.
///
/// A uniform grid of cell size `tolerance` is searched in the 27 cells
/// around each point, so two points within the tolerance always meet, even
/// when float noise puts them on either side of a cell boundary.
#[must_use]
pub fn weld(points: &[Vec3], tolerance: f32) -> Welded {
    let tol = tolerance.max(f32::MIN_POSITIVE);
    let cell = |p: Vec3| {
        let c = p / tol;
        // Far beyond any avatar's size the cast saturates; such points then
        // share a cell and are still compared by distance below.
        [
            ops::floor(c.x) as i64,
            ops::floor(c.y) as i64,
            ops::floor(c.z) as i64,
        ]
    };
    let mut grid: HashMap<[i64; 3], Vec<u32>> = HashMap::with_capacity(points.len());
    let mut out = Welded {
        id: Vec::with_capacity(points.len()),
        positions: Vec::new(),
    };
    for &p in points {
        let c = cell(p);
        let mut found = None;
        'search: for dx in -1..=1 {
            for dy in -1..=1 {
                for dz in -1..=1 {
                    let key = [c[0] + dx, c[1] + dy, c[2] + dz];
                    if let Some(ids) = grid.get(&key) {
                        for &r in ids {
                            if out.positions[r as usize].distance_squared(p) <= tol * tol {
                                found = Some(r);
                                break 'search;
                            }
                        }
                    }
                }
            }
        }
        let id = found.unwrap_or_else(|| {
            let r = u32::try_from(out.positions.len()).unwrap_or(u32::MAX);
            out.positions.push(p);
            grid.entry(c).or_default().push(r);
            r
        });
        out.id.push(id);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duplicates_and_near_duplicates_weld_across_cell_boundaries() {
        let t = 1e-5;
        // 0.99999e-5 and 1.00001e-5 fall in different cells but are 2e-10 apart.
        let pts = [
            Vec3::new(0.999_99e-5, 0.0, 0.0),
            Vec3::new(1.000_01e-5, 0.0, 0.0),
            Vec3::X,
            Vec3::X,
            Vec3::new(1.0 + 3e-5, 0.0, 0.0),
        ];
        let w = weld(&pts, t);
        assert_eq!(w.id, vec![0, 0, 1, 1, 2]);
        assert_eq!(w.positions.len(), 3);
    }
}
