//! Volume: hair that keeps its volume instead of collapsing into clumps.
//!
//! Strands do not see each other in the step. This pass, run after each
//! fixed step over all strands, finds the free particles of other strands
//! within a spacing of each free particle (through a hashed grid of cells
//! of twice that spacing), takes the overlap as a density above the target one
//! (a particle alone in its neighbourhood), and moves each particle down
//! that density's gradient: away from its neighbours by a share of the
//! overlap per step, bounded. The move is applied to the previous position
//! too, so it adds no velocity (nothing to bounce back), and each strand's
//! lengths are then restored from its root the same way.
//!
//! Why not a dense grid splat: the clumps that matter are a fraction of a
//! millimetre across, on hair that spans 0.4 m; a dense grid that fine would
//! be gigabytes, and a coarser one only pushes on densities averaged over
//! many strands (`docs/log/2026-12-04-strand-volume-grid.md`). The hashed
//! grid holds only occupied cells, at the spacing itself.
//!
//! Three phases: [`sort`] puts the particles in the grid (serial, a
//! counting sort); [`moves`] sums each particle's push from its neighbours
//! (any split of the sorted particles over threads: each sum reads the
//! positions before the pass, in a fixed order, so who computes it does
//! not change its bits); [`apply`] moves them and restores lengths. The
//! pass runs once per fixed step, so thread counts, instruction sets and
//! frame rates give the same bits. [`volume_pass`] runs all three on one
//! thread, [`volume_pass_with`] with the sums done by the caller (split
//! over its threads).
//!
//! Caller-owned buffers ([`VolumeScratch`]), no allocation.

use super::buffers::{StrandRest, StrandState};
use super::layout::StrandLayout;
use super::params::per_application;
use crate::math::{Real, Vec3, ops};

/// How the volume pass pushes.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct VolumeParams {
    /// Spacing kept between particles of different strands, m: closer
    /// pairs are pushed apart. About the groom's strand spacing (the mean
    /// distance from a root to the nearest other root) or a little less.
    pub spacing: Real,
    /// Fraction of the overlap removed per 1/60 s, as the shape
    /// stiffnesses ([`per_application`]): the same per second at any step.
    pub stiffness: Real,
    /// Largest move of a particle per pass, as a fraction of `spacing`.
    pub max_push: Real,
    /// Steps of the sim between passes (1: after every step). The pass
    /// follows the steps whose clock index is a multiple, so the same
    /// simulated times at any frame rate; its stiffness is per second.
    pub every: u32,
}

impl VolumeParams {
    /// Steps between passes as the sim runs them: `every`, at least 1.
    #[must_use]
    pub fn period(&self) -> u32 {
        self.every.max(1)
    }

    /// The pass for a groom whose strands are `strand_spacing` apart (the
    /// mean distance from a root to the nearest other root,
    /// `StrandSim::root_spacing`): particles of different strands kept
    /// 0.6 of it apart, all of an overlap removed each pass, at most half
    /// the spacing per pass, a pass after every second step (60 per
    /// second: `docs/STRANDS.md` "Volume" has the figures behind these).
    #[must_use]
    pub fn for_spacing(strand_spacing: Real) -> Self {
        Self {
            spacing: SPACING_SHARE * strand_spacing,
            stiffness: 1.0,
            max_push: 0.5,
            every: 2,
        }
    }
}

/// The share of the strand spacing kept between particles.
pub const SPACING_SHARE: Real = 0.6;

impl Default for VolumeParams {
    /// For strands 1.5 mm apart.
    fn default() -> Self {
        Self::for_spacing(0.0015)
    }
}

/// Cells per axis of the tile the hash folds space onto: neighbouring
/// cells land in neighbouring buckets (Morton order within the tile), so a
/// particle's eight lookups stay in cache.
const TILE_BITS: u32 = 6;
/// Buckets of the hashed grid: one per cell of a tile.
pub const BUCKETS: usize = 1 << (3 * TILE_BITS);

/// One free particle in the hashed grid.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct GridEntry {
    /// Position.
    pub p: Vec3,
    /// Its strand.
    pub strand: u32,
    /// Its buffer index.
    pub index: u32,
}

/// The pass's scratch: `start`, [`BUCKETS`] + 1 entries; `entries`,
/// `bucket_of` and `moves`, one per buffer index (the layout's length);
/// `touched`, one per strand.
#[derive(Debug)]
pub struct VolumeScratch<'a> {
    /// Where each bucket's entries begin in `entries` (then its end).
    pub start: &'a mut [u32],
    /// Free particles sorted by bucket, in buffer order within one.
    pub entries: &'a mut [GridEntry],
    /// Each particle's bucket, by buffer index (while sorting).
    pub bucket_of: &'a mut [u32],
    /// Each sorted particle's move, in `entries`' order.
    pub moves: &'a mut [Vec3],
    /// Strands with a moved particle.
    pub touched: &'a mut [bool],
}

impl VolumeScratch<'_> {
    /// Whether the buffers are long enough for `layout`.
    #[must_use]
    pub fn fits(&self, layout: &StrandLayout) -> bool {
        let n = layout.len();
        self.start.len() > BUCKETS
            && self.entries.len() >= n
            && self.bucket_of.len() >= n
            && self.moves.len() >= n
            && self.touched.len() >= layout.strands()
    }
}

/// What one pass did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct VolumeStats {
    /// Pairs of particles closer than the spacing before the pass.
    pub pairs: usize,
    /// Particles moved.
    pub moved: usize,
}

/// Free particles of real strands, by buffer index, with their strand.
fn free_particles(layout: &StrandLayout) -> impl Iterator<Item = (usize, usize)> + '_ {
    (0..layout.strands())
        .flat_map(move |s| (1..layout.particles()).map(move |p| (s, layout.index(s, p))))
}

/// Cell coordinates of `p` for cells of edge `1 / inv`, each clamped to
/// 21 bits (a million cells either way: a kilometre at a millimetre).
/// The floor by a cast (exact on the clamped range, and the same on every
/// platform), as this runs per particle per step.
fn cell_of(p: Vec3, inv: Real) -> [i64; 3] {
    const LIMIT: Real = (1 << 20) as Real - 1.0;
    [p.x, p.y, p.z].map(|v| {
        let c = (v * inv).clamp(-LIMIT, LIMIT);
        let t = c as i64;
        t - i64::from((t as Real) > c)
    })
}

/// A tile coordinate's bits spread to every third bit.
const SPREAD: [u32; 1 << TILE_BITS] = {
    let mut t = [0u32; 1 << TILE_BITS];
    let mut v = 0;
    while v < t.len() {
        let mut bit = 0;
        while bit < TILE_BITS {
            t[v] |= ((v as u32 >> bit) & 1) << (3 * bit);
            bit += 1;
        }
        v += 1;
    }
    t
};

/// Bucket bits of coordinate `v` on `axis`.
fn spread(v: i64, axis: u32) -> usize {
    (SPREAD[(v as usize) & ((1 << TILE_BITS) - 1)] << axis) as usize
}

/// The bucket of cell `c`: its place in its tile, bits interleaved.
fn bucket(c: [i64; 3]) -> usize {
    spread(c[0], 0) | spread(c[1], 1) | spread(c[2], 2)
}

/// Sorts every finite free particle into the grid (counting sort by
/// bucket, stable, so buffer order within a bucket); returns how many.
fn fill(layout: &StrandLayout, s: &StrandState<'_>, inv: Real, g: &mut VolumeScratch<'_>) -> usize {
    let start = &mut g.start[..=BUCKETS];
    start.fill(0);
    for (_, i) in free_particles(layout) {
        let p = s.at(i);
        g.bucket_of[i] = if p.is_finite() {
            let b = bucket(cell_of(p, inv));
            start[b] += 1;
            b as u32
        } else {
            u32::MAX
        };
    }
    // Each bucket's end, then filled from the back down to its start, in
    // reverse buffer order: buffer order within a bucket.
    for b in 1..BUCKETS {
        start[b] += start[b - 1];
    }
    let total = start[BUCKETS - 1] as usize;
    start[BUCKETS] = total as u32;
    let strands = (0..layout.strands()).rev();
    for (strand, i) in strands.flat_map(|st| {
        (1..layout.particles())
            .rev()
            .map(move |q| (st, layout.index(st, q)))
    }) {
        let b = g.bucket_of[i];
        if b != u32::MAX {
            let b = b as usize;
            start[b] -= 1;
            g.entries[start[b] as usize] = GridEntry {
                p: s.at(i),
                strand: strand as u32,
                index: i as u32,
            };
        }
    }
    total
}

/// Calls `f(other, d, d²)` for every entry of another strand within
/// `radius` of entry `e` (`d` from it to `e`), each once, in a fixed order.
/// Cells are twice the radius, so the neighbours lie in the 2 × 2 × 2
/// cells on the side of `e`'s cell that `e` is nearest: eight lookups.
/// At most `cap` particles of the block are looked at (in that fixed order):
/// a spacing far larger than the hair's would otherwise make every particle
/// look at every other.
fn for_neighbours(
    start: &[u32],
    entries: &[GridEntry],
    e: &GridEntry,
    radius: Real,
    cap: usize,
    mut f: impl FnMut(&GridEntry, Vec3, Real),
) {
    let mut left = cap;
    let inv = 0.5 / radius;
    let c = cell_of(e.p, inv);
    let r_sq = radius * radius;
    // Per axis, the two cells' bucket bits. The eight cells of the block
    // fall in eight different buckets (neighbouring coordinates differ in
    // their low bits), and a particle of another tile that shares a bucket
    // is at least 63 cells away, so the distance test alone keeps each
    // neighbour once and nothing else.
    let axis = |a: usize| {
        let v = [e.p.x, e.p.y, e.p.z][a] * inv;
        let lo = if v - (c[a] as Real) < 0.5 {
            c[a] - 1
        } else {
            c[a]
        };
        [spread(lo, a as u32), spread(lo + 1, a as u32)]
    };
    let (xs, ys, zs) = (axis(0), axis(1), axis(2));
    for zb in zs {
        for yb in ys {
            for xb in xs {
                let b = xb | yb | zb;
                let (from, to) = (start[b] as usize, start[b + 1] as usize);
                let n = (to - from).min(left);
                left -= n;
                for o in &entries[from..from + n] {
                    if o.strand != e.strand {
                        let d = e.p - o.p;
                        let d_sq = d.length_squared();
                        if d_sq < r_sq {
                            f(o, d, d_sq);
                        }
                    }
                }
                if left == 0 {
                    return;
                }
            }
        }
    }
}

/// Particles one particle's push looks at, at most (in the fixed order of its block):
/// about eight times the most any particle of the standard groom looks at
/// through the head-turn run (30), so only a spacing far beyond the groom's
/// own (a unit mistake) reaches it, and the pass then stays bounded instead
/// of looking at every pair.
pub const MAX_CANDIDATES: usize = 256;

/// Sorts the free particles of `s` into the grid for `spacing`; returns
/// how many there are (the first that many of `g.entries`), 0 when `g`
/// does not fit the layout or the spacing is not positive.
pub fn sort(
    layout: &StrandLayout,
    s: &StrandState<'_>,
    spacing: Real,
    g: &mut VolumeScratch<'_>,
) -> usize {
    if !spacing.is_finite() || spacing <= 0.0 || !g.fits(layout) {
        return 0;
    }
    fill(layout, s, 0.5 / spacing, g)
}

/// The pushes of the sorted particles `entries[from..from + out.len()]`
/// (a Jacobi sum over each one's neighbours within `spacing`: half of
/// each overlap, away from the other), into `out`; returns the
/// neighbours counted (each pair is counted from both sides).
pub fn moves(
    start: &[u32],
    entries: &[GridEntry],
    from: usize,
    spacing: Real,
    out: &mut [Vec3],
) -> usize {
    let mut pairs = 0usize;
    for (e, mv) in entries[from..].iter().zip(out.iter_mut()) {
        let mut m = Vec3::ZERO;
        for_neighbours(start, entries, e, spacing, MAX_CANDIDATES, |_, d, d_sq| {
            pairs += 1;
            if d_sq > 0.0 {
                let dist = ops::sqrt(d_sq);
                m += d * (0.5 * (spacing - dist) / dist);
            }
        });
        *mv = m;
    }
    pairs
}

/// Moves the first `sorted` particles of `g.entries` by their `g.moves`
/// scaled to a step of `h` seconds (bounded by `max_push`), positions and
/// previous positions alike, then restores the lengths of every strand it
/// moved from the root out. Returns the particles moved.
pub fn apply(
    layout: &StrandLayout,
    rest: &StrandRest<'_>,
    s: &mut StrandState<'_>,
    params: &VolumeParams,
    h: Real,
    sorted: usize,
    g: &mut VolumeScratch<'_>,
) -> usize {
    let k = per_application(params.stiffness, h, 1);
    if k <= 0.0 || !g.fits(layout) {
        return 0;
    }
    let limit = params.max_push.max(0.0) * params.spacing;
    g.touched[..layout.strands()].fill(false);
    let mut moved = 0;
    for (e, m) in g.entries[..sorted].iter().zip(g.moves.iter()) {
        let mut d = *m * k;
        let len_sq = d.length_squared();
        if len_sq == 0.0 || !len_sq.is_finite() {
            continue;
        }
        if len_sq > limit * limit {
            d *= limit / ops::sqrt(len_sq);
        }
        s.shift(e.index as usize, d);
        g.touched[e.strand as usize] = true;
        moved += 1;
    }
    for strand in 0..layout.strands() {
        if g.touched[strand] {
            restore_lengths(layout, rest, s, strand);
        }
    }
    moved
}

/// One volume pass after a step of `h` seconds on one thread: [`sort`],
/// [`moves`], [`apply`]. Every free particle closer than
/// `params.spacing` to free particles of other strands moves away from
/// them; roots never move. Does nothing when the scratch does not fit the
/// layout or the parameters are not positive.
pub fn volume_pass(
    layout: &StrandLayout,
    rest: &StrandRest<'_>,
    s: &mut StrandState<'_>,
    params: &VolumeParams,
    h: Real,
    g: &mut VolumeScratch<'_>,
) -> VolumeStats {
    volume_pass_with(layout, rest, s, params, h, g, |start, entries, out| {
        moves(start, entries, 0, params.spacing, out)
    })
}

/// [`volume_pass`] with the pushes summed by `sums(start, entries, out)`:
/// [`moves`] of every sorted particle into `out` (its length), in any split
/// (each sum has the same bits whoever computes it), returning the
/// neighbours counted.
pub fn volume_pass_with(
    layout: &StrandLayout,
    rest: &StrandRest<'_>,
    s: &mut StrandState<'_>,
    params: &VolumeParams,
    h: Real,
    g: &mut VolumeScratch<'_>,
    sums: impl FnOnce(&[u32], &[GridEntry], &mut [Vec3]) -> usize,
) -> VolumeStats {
    let sorted = sort(layout, s, params.spacing, g);
    if sorted == 0 {
        return VolumeStats::default();
    }
    let pairs = sums(g.start, g.entries, &mut g.moves[..sorted]);
    VolumeStats {
        pairs: pairs / 2,
        moved: apply(layout, rest, s, params, h, sorted, g),
    }
}

/// Puts each segment of `strand` back to its rest length from the root
/// out, moving previous positions by the same amount.
fn restore_lengths(
    layout: &StrandLayout,
    rest: &StrandRest<'_>,
    s: &mut StrandState<'_>,
    strand: usize,
) {
    let mut parent = s.at(layout.index(strand, 0));
    for q in 1..layout.particles() {
        let i = layout.index(strand, q);
        let p = s.at(i);
        let d = p - parent;
        let l_sq = d.length_squared();
        if l_sq > 0.0 && l_sq.is_finite() && rest.len[i] > 0.0 {
            let fixed = parent + d * (rest.len[i] / ops::sqrt(l_sq));
            s.shift(i, fixed - p);
            parent = fixed;
        } else {
            parent = p;
        }
    }
}

/// Pairs of free particles on different strands closer than `radius`
/// (each pair once), for judging volume, through the same hashed grid
/// (its moves are left as they were). 0 when `g` does not
/// fit the layout.
pub fn close_pairs(
    layout: &StrandLayout,
    s: &StrandState<'_>,
    radius: Real,
    g: &mut VolumeScratch<'_>,
) -> u64 {
    let m = sort(layout, s, radius, g);
    let mut pairs = 0u64;
    for e in &g.entries[..m] {
        for_neighbours(g.start, g.entries, e, radius, usize::MAX, |o, _, _| {
            if o.index > e.index {
                pairs += 1;
            }
        });
    }
    pairs
}
