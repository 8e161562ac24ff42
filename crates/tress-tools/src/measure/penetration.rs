//! Hair vertices inside the skinned body.
//!
//! The body mesh is treated as a closed-ish surface: a point's signed
//! distance is its distance to the nearest body triangle, negative when it
//! lies behind that triangle's face (winding order, counter-clockwise front
//! as in glTF). Where several triangles are equally near (an edge or a
//! corner is closest), the one that faces the point most squarely decides,
//! which keeps the sign right on smooth convex and concave regions alike.
//!
//! Speed: body triangles go into a uniform grid, rebuilt per sample around
//! the hair that needs a query; the search grows ring by ring and stops once
//! nothing unvisited can be nearer, or at [`SEARCH_RADIUS`]. A vertex whose
//! last query found it outside at distance `d` is not queried again until
//! its own motion plus the body's largest vertex motion since then adds up
//! to `d`: it cannot have crossed the surface before that. A sample's
//! queries run in parallel on rayon's pool and are taken in order, so the
//! report does not depend on the thread count.

use glam::Vec3;
use rayon::prelude::*;
use serde::Serialize;
use tress_core::math::ops;

use tress_rig::skin::MeshSet;

/// Deepest penetration the search resolves, metres: a hair vertex with no
/// body triangle this near reads as outside (hair this deep inside the body
/// would show everywhere else first).
pub const SEARCH_RADIUS: f32 = 0.05;

/// Depth below which contact is not counted (issue #6: "beyond 1 mm").
pub const THRESHOLD: f32 = tress_rig::skin::CONTACT_THRESHOLD;

/// Grid cells are at most this many (the cell grows to fit).
const MAX_CELLS: usize = 1 << 21;

/// Binned (triangle, cell) pairs are at most this many (64 MiB of
/// indices): a body scaled up a thousandfold would otherwise put every
/// triangle in every cell.
const MAX_ITEMS: u64 = 1 << 24;

/// The grid's box is clamped to this far from the origin, metres: any
/// avatar fits ten kilometres, and a vertex beyond it (a broken pose) is
/// outside every body triangle's reach anyway.
const MAX_REACH: f32 = 1e4;

/// Fewest queries a parallel job takes: each job starts a scratch whose
/// marks span every body triangle, so a job should do enough queries to
/// pay for it (the hand-made split this replaced also took at least 256).
const QUERIES_PER_JOB: usize = 256;

/// Closest point to `p` on triangle `abc`.
fn closest_on_triangle(p: Vec3, a: Vec3, b: Vec3, c: Vec3) -> Vec3 {
    let n = (b - a).cross(c - a);
    let n2 = n.length_squared();
    if n2 > 0.0 {
        // The projection onto the plane is the answer when it falls inside:
        // on the inner side of all three edges.
        let q = p - n * ((p - a).dot(n) / n2);
        let inside = n.dot((b - a).cross(q - a)) >= 0.0
            && n.dot((c - b).cross(q - b)) >= 0.0
            && n.dot((a - c).cross(q - c)) >= 0.0;
        if inside {
            return q;
        }
    }
    // Otherwise the nearest point lies on an edge.
    let on_segment = |s: Vec3, e: Vec3| {
        let d = e - s;
        let l2 = d.length_squared();
        let t = if l2 > 0.0 {
            ((p - s).dot(d) / l2).clamp(0.0, 1.0)
        } else {
            0.0
        };
        s + d * t
    };
    let mut best = on_segment(a, b);
    for q in [on_segment(b, c), on_segment(c, a)] {
        if q.distance_squared(p) < best.distance_squared(p) {
            best = q;
        }
    }
    best
}

/// Slack on the triangle-ball reject, metres (distances here are rounded
/// at about 1e-7 m).
const BALL_MARGIN: f32 = 1e-5;

/// Body triangles in a uniform grid.
#[derive(Debug, Clone, Default)]
pub struct Grid {
    origin: Vec3,
    cell: f32,
    dims: [usize; 3],
    /// Cell `i`'s triangles are `items[starts[i]..starts[i + 1]]`.
    starts: Vec<u32>,
    items: Vec<u32>,
    /// Unit face normals of the binned triangles (by triangle index).
    normals: Vec<Vec3>,
    /// Bounding ball of each triangle (centroid, largest corner distance),
    /// so that a triangle that cannot beat the nearest one found so far is
    /// dropped before its closest point is computed.
    balls: Vec<(Vec3, f32)>,
    /// Each triangle's cell range (`None`: outside the grid), by index.
    ranges: Vec<Option<([usize; 3], [usize; 3])>>,
}

/// Per-job query scratch: per triangle, the query that last tested it
/// (a triangle spanning several cells is tested once per query).
#[derive(Debug, Clone, Default)]
pub struct Scratch {
    seen: Vec<u32>,
    query: u32,
}

impl Grid {
    /// Bins `tris` (vertex positions `pos`) overlapping the box `lo..hi`.
    ///
    /// A broken pose or file can throw vertices kilometres away or to
    /// infinity: the box is clamped to `MAX_REACH`, and the cell grows
    /// until both the cells and the triangles' cell spans fit
    /// (`MAX_CELLS`, `MAX_ITEMS`), so the grid stays bounded whatever
    /// the positions.
    pub fn build(&mut self, tris: &[[u32; 3]], pos: &[Vec3], lo: Vec3, hi: Vec3, cell: f32) {
        let reach = Vec3::splat(MAX_REACH);
        // `max` before `min`: a NaN bound becomes −reach, then stays there.
        let lo = lo.max(-reach).min(reach);
        let hi = hi.max(-reach).min(reach);
        let extent = (hi - lo).max(Vec3::splat(1e-6));
        let mut cell = if cell.is_finite() {
            cell.max(1e-4)
        } else {
            1e-4
        };
        self.origin = lo;
        loop {
            let d = (extent / cell).ceil().max(Vec3::ONE);
            let d = [d.x as usize, d.y as usize, d.z as usize];
            let cells = d[0].checked_mul(d[1]).and_then(|n| n.checked_mul(d[2]));
            if cells.is_some_and(|n| n <= MAX_CELLS) {
                self.cell = cell;
                self.dims = d;
                // Each triangle's cells, kept for the two passes below.
                self.ranges.clear();
                let mut items = 0u64;
                for t in tris {
                    let [a, b, c] = t.map(|v| pos[v as usize]);
                    let r = self.cell_range(a.min(b).min(c), a.max(b).max(c));
                    if let Some((l, h)) = r {
                        items += (0..3).map(|k| (h[k] - l[k] + 1) as u64).product::<u64>();
                    }
                    self.ranges.push(r);
                }
                if items <= MAX_ITEMS {
                    break;
                }
            }
            cell *= 1.5;
        }
        let dims = self.dims;
        self.normals.clear();
        self.normals.extend(tris.iter().map(|t| {
            let [a, b, c] = t.map(|v| pos[v as usize]);
            (b - a).cross(c - a).normalize_or_zero()
        }));
        self.balls.clear();
        self.balls.extend(tris.iter().map(|t| {
            let [a, b, c] = t.map(|v| pos[v as usize]);
            let m = (a + b + c) / 3.0;
            (m, m.distance(a).max(m.distance(b)).max(m.distance(c)))
        }));

        let cells = dims[0] * dims[1] * dims[2];
        self.starts.clear();
        self.starts.resize(cells + 1, 0);
        // Two passes (count, then fill) give a compact layout with no
        // per-cell allocation.
        for pass in 0..2 {
            if pass == 1 {
                let mut sum = 0u32;
                for s in &mut self.starts {
                    let c = *s;
                    *s = sum;
                    sum += c;
                }
                self.items.clear();
                self.items.resize(sum as usize, 0);
            }
            for (ti, r) in self.ranges.iter().enumerate() {
                let Some((l, h)) = *r else {
                    continue;
                };
                for z in l[2]..=h[2] {
                    for y in l[1]..=h[1] {
                        for x in l[0]..=h[0] {
                            let i = self.index(x, y, z);
                            if pass == 0 {
                                self.starts[i] += 1;
                            } else {
                                let slot = self.starts[i] as usize;
                                self.items[slot] = u32::try_from(ti).unwrap_or(u32::MAX);
                                self.starts[i] += 1;
                            }
                        }
                    }
                }
            }
        }
        // The fill pass advanced every start to the next cell's start.
        for i in (1..=cells).rev() {
            self.starts[i] = self.starts[i - 1];
        }
        self.starts[0] = 0;
    }

    fn index(&self, x: usize, y: usize, z: usize) -> usize {
        (z * self.dims[1] + y) * self.dims[0] + x
    }

    /// Cells overlapped by the box `lo..hi`, or `None` when it misses the grid.
    fn cell_range(&self, lo: Vec3, hi: Vec3) -> Option<([usize; 3], [usize; 3])> {
        let l = ((lo - self.origin) / self.cell).floor();
        let h = ((hi - self.origin) / self.cell).floor();
        let mut a = [0usize; 3];
        let mut b = [0usize; 3];
        for k in 0..3 {
            let max = self.dims[k] as f32 - 1.0;
            if h[k] < 0.0 || l[k] > max || !l[k].is_finite() || !h[k].is_finite() {
                return None;
            }
            a[k] = l[k].clamp(0.0, max) as usize;
            b[k] = h[k].clamp(0.0, max) as usize;
        }
        Some((a, b))
    }

    /// Signed distance of `p` to the nearest of `tris` within `radius`
    /// (negative inside) with that triangle's index, or `None` when no
    /// triangle is that near.
    #[must_use]
    pub fn signed_distance(
        &self,
        p: Vec3,
        tris: &[[u32; 3]],
        pos: &[Vec3],
        radius: f32,
        scratch: &mut Scratch,
    ) -> Option<(f32, u32)> {
        if scratch.seen.len() != tris.len() {
            scratch.seen.clear();
            scratch.seen.resize(tris.len(), u32::MAX);
        }
        let rel = (p - self.origin) / self.cell;
        let home = rel.floor();
        let rings = (radius / self.cell).ceil() as i64 + 1;
        // A point farther outside the grid than the search reaches (or not
        // a number: a broken pose) has no binned triangle near it.
        let reach = rings as f32;
        if !home.is_finite()
            || (0..3).any(|k| home[k] < -reach - 1.0 || home[k] > self.dims[k] as f32 + reach)
        {
            return None;
        }
        scratch.query = scratch.query.wrapping_add(1);
        if scratch.query == u32::MAX {
            scratch.seen.fill(u32::MAX);
            scratch.query = 0;
        }
        // (distance, how squarely the face looks at p, signed distance, triangle)
        let mut best: Option<(f32, f32, f32, u32)> = None;
        for r in 0..=rings {
            for dz in -r..=r {
                for dy in -r..=r {
                    for dx in -r..=r {
                        if dx.abs().max(dy.abs()).max(dz.abs()) != r {
                            continue;
                        }
                        let c = [home.x as i64 + dx, home.y as i64 + dy, home.z as i64 + dz];
                        if (0..3).any(|k| c[k] < 0 || c[k] >= self.dims[k] as i64) {
                            continue;
                        }
                        let i = self.index(c[0] as usize, c[1] as usize, c[2] as usize);
                        let span = self.starts[i] as usize..self.starts[i + 1] as usize;
                        for &ti in &self.items[span] {
                            let Some(seen) = scratch.seen.get_mut(ti as usize) else {
                                continue;
                            };
                            if *seen == scratch.query {
                                continue;
                            }
                            *seen = scratch.query;
                            // No point of the triangle is nearer than its
                            // ball; with a margin well above the rounding of
                            // these distances, skipping it cannot change
                            // the nearest triangle or a tie.
                            let (m, br) = self.balls[ti as usize];
                            let bound = best.map_or(radius, |(bd, _, _, _)| bd.min(radius));
                            let reach = bound + br + BALL_MARGIN;
                            if p.distance_squared(m) > reach * reach {
                                continue;
                            }
                            let [a, b, cc] = tris[ti as usize].map(|v| pos[v as usize]);
                            let q = closest_on_triangle(p, a, b, cc);
                            let d2 = p.distance_squared(q);
                            // Farther than the best by more than the tie
                            // margin: it cannot win.
                            if let Some((bd, _, _, _)) = best
                                && d2 > (bd + 1e-7) * (bd + 1e-7)
                            {
                                continue;
                            }
                            let d = ops::sqrt(d2);
                            let n = self.normals[ti as usize];
                            let side = (p - q).dot(n);
                            let square = if d > 0.0 { side.abs() / d } else { 1.0 };
                            let signed = if side < 0.0 { -d } else { d };
                            // Ties (an edge or corner nearest, shared by
                            // several faces) go to the face looking at p.
                            let better = match best {
                                None => true,
                                Some((bd, bs, _, _)) => {
                                    d < bd - 1e-7 || (d <= bd + 1e-7 && square > bs)
                                }
                            };
                            if better {
                                best = Some((d, square, signed, ti));
                            }
                        }
                    }
                }
            }
            // Every unvisited cell is at least r cells away from p's own cell.
            if let Some((d, _, _, _)) = best
                && d <= r as f32 * self.cell
            {
                break;
            }
        }
        best.and_then(|(d, _, s, ti)| (d <= radius).then_some((s, ti)))
    }
}

/// One hair vertex, for reports.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VertexRef {
    /// Mesh name.
    pub mesh: String,
    /// Primitive index.
    pub primitive: usize,
    /// Vertex index within the primitive.
    pub vertex: usize,
    /// Depth inside the body, metres.
    pub depth_m: f32,
    /// When, seconds into the run.
    pub time_s: f64,
}

/// The penetration summary of a run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PenetrationReport {
    /// Depth that counts, metres.
    pub threshold_m: f32,
    /// Body triangles tested against.
    pub body_triangles: usize,
    /// Hair vertices tested.
    pub hair_vertices: usize,
    /// Hair vertices deeper than the threshold at some sample.
    pub vertices_inside: usize,
    /// Of those, deeper than the threshold already in the rest pose.
    pub inside_at_rest: usize,
    /// The deepest sample.
    pub deepest: Option<VertexRef>,
    /// The vertices inside, by the body part they were deepest in (the
    /// node carrying the most weight of that body triangle's first
    /// vertex), most first: whether hair is inside the legs or only in a
    /// hand resting on them.
    pub by_part: Vec<InsidePart>,
}

/// Hair vertices inside one body part.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct InsidePart {
    /// The body part's node (its index in the file).
    pub node: usize,
    /// The node's name.
    pub name: String,
    /// Hair vertices deeper than the threshold, deepest in this part.
    pub vertices: usize,
}

/// Running penetration measurement over the samples of one run.
#[derive(Debug, Clone)]
pub struct Penetration {
    cell: f32,
    /// Skip queries the slack argument proves unnecessary (off: query every
    /// vertex every sample, for checking the shortcut).
    pub use_slack: bool,
    slack: Vec<f32>,
    last_hair: Vec<Vec3>,
    last_body: Vec<Vec3>,
    depth: Vec<f32>,
    /// The body triangle each hair vertex was deepest inside.
    depth_tri: Vec<u32>,
    at_rest: Vec<bool>,
    deepest: Option<(f32, u32, f64)>,
    samples: usize,
    grid: Grid,
    queue: Vec<usize>,
    results: Vec<Option<(f32, u32)>>,
}

impl Penetration {
    /// A measurement of `mesh`'s hair against its body; the grid cell is
    /// the body's median edge length at `rest`, kept within 5 mm..5 cm.
    #[must_use]
    pub fn new(mesh: &MeshSet, rest: &[Vec3]) -> Self {
        let mut lengths: Vec<f32> = mesh
            .body_tris
            .iter()
            .map(|t| rest[t[0] as usize].distance(rest[t[1] as usize]))
            .collect();
        lengths.sort_unstable_by(f32::total_cmp);
        let cell = lengths
            .get(lengths.len() / 2)
            .copied()
            .unwrap_or(0.01)
            .clamp(0.005, 0.05);
        let n = mesh.hair.len();
        Self {
            cell,
            use_slack: true,
            slack: vec![0.0; n],
            last_hair: Vec::new(),
            last_body: Vec::new(),
            depth: vec![0.0; n],
            depth_tri: vec![u32::MAX; n],
            at_rest: vec![false; n],
            deepest: None,
            samples: 0,
            grid: Grid::default(),
            queue: Vec::new(),
            results: Vec::new(),
        }
    }

    /// Takes one sample of skinned positions (hair and body vertices set)
    /// at time `t`.
    pub fn sample(&mut self, mesh: &MeshSet, pos: &[Vec3], t: f64) {
        if mesh.body_tris.is_empty() {
            return;
        }
        let body_step = if self.last_body.is_empty() {
            f32::INFINITY
        } else {
            mesh.body_verts
                .iter()
                .zip(&self.last_body)
                .map(|(&v, l)| pos[v as usize].distance(*l))
                .fold(0.0, f32::max)
        };
        self.last_body.clear();
        self.last_body
            .extend(mesh.body_verts.iter().map(|&v| pos[v as usize]));
        let first = self.last_hair.is_empty();
        if first {
            self.last_hair
                .extend(mesh.hair.iter().map(|&v| pos[v as usize]));
        }
        self.queue.clear();
        let (mut lo, mut hi) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
        for (k, &v) in mesh.hair.iter().enumerate() {
            let p = pos[v as usize];
            self.slack[k] -= p.distance(self.last_hair[k]) + body_step;
            self.last_hair[k] = p;
            // NaN slack (a broken pose) must be queried too.
            let safe = self.slack[k].partial_cmp(&0.0) == Some(core::cmp::Ordering::Greater);
            if !self.use_slack || first || !safe {
                self.queue.push(k);
                lo = lo.min(p);
                hi = hi.max(p);
            }
        }
        if !self.queue.is_empty() {
            let r = Vec3::splat(SEARCH_RADIUS + self.cell);
            self.grid
                .build(&mesh.body_tris, pos, lo - r, hi + r, self.cell);
            // The queries are independent: rayon spreads them over the
            // cores, each job with its own scratch, and `collect_into_vec`
            // keeps them in queue order (the outcome does not depend on the
            // thread count or on how the work was split).
            let grid = &self.grid;
            self.queue
                .par_iter()
                .with_min_len(QUERIES_PER_JOB)
                .map_init(Scratch::default, |scratch, &k| {
                    let v = mesh.hair[k];
                    grid.signed_distance(
                        pos[v as usize],
                        &mesh.body_tris,
                        pos,
                        SEARCH_RADIUS,
                        scratch,
                    )
                })
                .collect_into_vec(&mut self.results);
            for (i, &k) in self.queue.iter().enumerate() {
                let v = mesh.hair[k];
                let (d, tri) = self.results[i].map_or((None, u32::MAX), |(d, t)| (Some(d), t));
                self.slack[k] = match d {
                    None => SEARCH_RADIUS,
                    // Inside: it can go deeper without crossing, so look again next time.
                    Some(d) if d <= 0.0 => 0.0,
                    Some(d) => d,
                };
                let depth = d.map_or(0.0, |d| (-d).max(0.0));
                if depth > THRESHOLD {
                    if first {
                        self.at_rest[k] = true;
                    }
                    if self.deepest.is_none_or(|(dd, _, _)| depth > dd) {
                        self.deepest = Some((depth, v, t));
                    }
                }
                if depth > self.depth[k] {
                    self.depth[k] = depth;
                    self.depth_tri[k] = tri;
                }
            }
        }
        self.samples += 1;
    }

    /// The summary so far; `names` are the file's node names, by index, for
    /// [`PenetrationReport::by_part`] (empty: parts go unnamed).
    #[must_use]
    pub fn report(&self, mesh: &MeshSet, names: &[String]) -> PenetrationReport {
        let mut parts: Vec<(usize, usize)> = Vec::new();
        for (&d, &ti) in self.depth.iter().zip(&self.depth_tri) {
            if d <= THRESHOLD {
                continue;
            }
            let Some(node) = mesh
                .body_tris
                .get(ti as usize)
                .and_then(|t| mesh.owner(t[0]))
                .map(|(node, _)| node)
            else {
                continue;
            };
            match parts.iter_mut().find(|(n, _)| *n == node) {
                Some((_, count)) => *count += 1,
                None => parts.push((node, 1)),
            }
        }
        parts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        PenetrationReport {
            by_part: parts
                .into_iter()
                .map(|(node, vertices)| InsidePart {
                    node,
                    name: names.get(node).cloned().unwrap_or_default(),
                    vertices,
                })
                .collect(),
            threshold_m: THRESHOLD,
            body_triangles: mesh.body_tris.len(),
            hair_vertices: mesh.hair.len(),
            vertices_inside: self.depth.iter().filter(|&&d| d > THRESHOLD).count(),
            inside_at_rest: self.at_rest.iter().filter(|&&a| a).count(),
            deepest: self.deepest.and_then(|(depth_m, v, time_s)| {
                let (part, vertex) = mesh.locate(v)?;
                Some(VertexRef {
                    mesh: part.mesh.clone(),
                    primitive: part.primitive,
                    vertex,
                    depth_m,
                    time_s,
                })
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The grid query (cells, ring early-out, triangle-ball reject) against
    /// every triangle tested in turn, on a random triangle soup.
    #[test]
    fn grid_query_finds_the_nearest_triangle() {
        let mut seed = 0x1234_5678_u32;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            (seed >> 8) as f32 / (1u32 << 24) as f32
        };
        let mut pos = Vec::new();
        let mut tris = Vec::new();
        for t in 0..400u32 {
            let c = Vec3::new(next(), next(), next()) * 0.3;
            for _ in 0..3 {
                pos.push(c + (Vec3::new(next(), next(), next()) - 0.5) * 0.04);
            }
            tris.push([3 * t, 3 * t + 1, 3 * t + 2]);
        }
        let mut grid = Grid::default();
        let r = Vec3::splat(SEARCH_RADIUS + 0.01);
        grid.build(&tris, &pos, Vec3::ZERO - r, Vec3::splat(0.3) + r, 0.01);
        let mut scratch = Scratch::default();
        let mut found = 0;
        for _ in 0..2000 {
            let p = Vec3::new(next(), next(), next()) * 0.34 - 0.02;
            let fast = grid.signed_distance(p, &tris, &pos, SEARCH_RADIUS, &mut scratch);
            let nearest = tris
                .iter()
                .map(|t| {
                    let [a, b, c] = t.map(|v| pos[v as usize]);
                    p.distance(closest_on_triangle(p, a, b, c))
                })
                .fold(f32::INFINITY, f32::min);
            match fast {
                Some((d, ti)) => {
                    found += 1;
                    assert!((d.abs() - nearest).abs() < 1e-6, "{d} vs {nearest}");
                    // The triangle it names is one at that distance.
                    let [a, b, c] = tris[ti as usize].map(|v| pos[v as usize]);
                    let to_it = p.distance(closest_on_triangle(p, a, b, c));
                    assert!((to_it - nearest).abs() < 1e-6, "{to_it} vs {nearest}");
                }
                None => assert!(nearest > SEARCH_RADIUS - 1e-6, "missed {nearest}"),
            }
        }
        assert!(found > 1000, "only {found} points near the soup");
    }

    #[test]
    fn far_and_broken_positions_keep_the_grid_bounded() {
        // Two triangles near the origin, one thrown a thousand kilometres,
        // one with a NaN corner and one with an infinite one: the grid
        // over a box reaching past all of them stays within its limits
        // and still finds the near triangles.
        let pos = vec![
            Vec3::ZERO,
            Vec3::new(0.1, 0.0, 0.0),
            Vec3::new(0.0, 0.1, 0.0),
            Vec3::new(1e6, 1e6, 1e6),
            Vec3::new(f32::NAN, 0.0, 0.0),
            Vec3::splat(f32::INFINITY),
            Vec3::new(0.0, 0.0, 0.1),
        ];
        let tris = vec![[0, 1, 2], [0, 2, 6], [0, 1, 3], [0, 1, 4], [0, 2, 5]];
        for (lo, hi) in [
            (Vec3::splat(-1e6), Vec3::splat(1e6)),
            (Vec3::splat(f32::NEG_INFINITY), Vec3::splat(f32::INFINITY)),
            (Vec3::splat(f32::NAN), Vec3::splat(f32::NAN)),
            (Vec3::splat(-0.1), Vec3::splat(0.2)),
        ] {
            let mut grid = Grid::default();
            grid.build(&tris, &pos, lo, hi, 0.01);
            assert!(
                grid.dims.iter().product::<usize>() <= MAX_CELLS,
                "{:?}",
                grid.dims
            );
            assert!(grid.items.len() as u64 <= MAX_ITEMS, "{}", grid.items.len());
            let mut scratch = Scratch::default();
            let near = grid.signed_distance(
                Vec3::new(0.02, 0.02, 0.01),
                &tris,
                &pos,
                SEARCH_RADIUS,
                &mut scratch,
            );
            if lo.is_finite() && hi.x < 1.0 {
                let (d, _) = near.expect("the near triangles are binned");
                assert!(d.abs() <= 0.01 + 1e-6, "{d}");
            }
            for far in [
                Vec3::splat(f32::NAN),
                Vec3::splat(f32::INFINITY),
                Vec3::splat(1e7),
            ] {
                let _ = grid.signed_distance(far, &tris, &pos, SEARCH_RADIUS, &mut scratch);
            }
        }
    }

    #[test]
    fn closest_point_regions() {
        let (a, b, c) = (Vec3::ZERO, Vec3::X, Vec3::Y);
        // Above the face: the projection.
        let q = closest_on_triangle(Vec3::new(0.25, 0.25, 1.0), a, b, c);
        assert!(q.distance(Vec3::new(0.25, 0.25, 0.0)) < 1e-6);
        // Beyond the hypotenuse: its midpoint.
        let q = closest_on_triangle(Vec3::new(1.0, 1.0, 0.0), a, b, c);
        assert!(q.distance(Vec3::new(0.5, 0.5, 0.0)) < 1e-6);
        // Beyond a corner: the corner.
        let q = closest_on_triangle(Vec3::new(-1.0, -1.0, 0.5), a, b, c);
        assert!(q.distance(a) < 1e-6);
    }
}
