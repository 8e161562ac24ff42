//! Building an interpolation plan at load (feature `std`): which guides
//! each render strand follows, with what weights and offsets.
//!
//! A render strand follows the [`GUIDES_PER_STRAND`] guides whose roots are
//! nearest its root, weighted by inverse distance (a strand rooted exactly
//! on a guide follows that guide alone), found through a uniform grid over
//! the guide roots. [`FollowPlanBuf::scattered`] makes the render roots
//! itself: each guide keeps its own strand and gains `per_guide − 1` roots
//! spread over a disc around it in the local scalp plane (the plane through
//! its neighbours' roots), seeded, like TressFX's follow hairs.

// The crate links `std` (not a separate `alloc`) under this feature.
#![allow(clippy::std_instead_of_alloc)]

use std::{vec, vec::Vec};

use super::buffers::fill_rest;
use super::follow::{
    FRAME_COMPONENTS, FollowCoefs, FollowError, FollowPlan, GUIDES_PER_STRAND, guide_frames,
    interpolate_on,
};
use super::follow_copy;
use super::layout::{MAX_PARTICLES, StrandLayout};
use super::sim::StrandSim;
use crate::math::{Mat3, Pose, Real, Vec3, ops};
use crate::simd::Isa;

/// An owned interpolation plan and its per-frame guide frame buffer.
#[derive(Debug, Clone)]
pub struct FollowPlanBuf {
    particles: usize,
    guides: usize,
    guide_index: Vec<[u32; GUIDES_PER_STRAND]>,
    coefs: Vec<FollowCoefs>,
    rest_len: Vec<Real>,
    root_normal: Vec<Vec3>,
    frames: Vec<Real>,
    /// Per render strand, its nearest guide and its root offset in that
    /// guide's root frame: the shader-side copy ([`super::follow_copy`]).
    copy_guide: Vec<u32>,
    copy_offset: Vec<[Real; 3]>,
    /// Per guide particle, how far its copies spread ([`follow_copy::spread`]).
    spread: Vec<Real>,
    isa: Isa,
}

impl FollowPlanBuf {
    /// A plan for render strands rooted at `render_roots` (head frame)
    /// following the guides `guide_points` (strand-major, `particles` per
    /// guide, head frame: the groom the sim was made from).
    ///
    /// # Errors
    /// [`FollowError`] for no guides or roots, a particle count outside
    /// `4..=64`, a point list that is not whole strands, or a non-finite
    /// point.
    pub fn from_roots(
        particles: usize,
        guide_points: &[Vec3],
        render_roots: &[Vec3],
    ) -> Result<Self, FollowError> {
        let rest = GuideRest::new(particles, guide_points)?;
        if render_roots.is_empty() {
            return Err(FollowError::Empty);
        }
        if !render_roots.iter().all(|r| r.is_finite()) {
            return Err(FollowError::NotFinite("render_roots"));
        }
        let grid = RootGrid::new(&rest.roots);
        let mut plan = Self {
            particles,
            guides: rest.guides,
            guide_index: Vec::with_capacity(render_roots.len()),
            coefs: Vec::with_capacity(render_roots.len()),
            rest_len: vec![0.0; render_roots.len() * particles],
            root_normal: rest.root_normal.clone(),
            frames: rest.frames.clone(),
            copy_guide: Vec::with_capacity(render_roots.len()),
            copy_offset: Vec::with_capacity(render_roots.len()),
            spread: vec![0.0; rest.guides * particles],
            isa: Isa::detect(),
        };
        for &root in render_roots {
            let near = grid.nearest(&rest.roots, root, usize::MAX);
            let (index, coefs) = rest.blend(root, &near);
            plan.guide_index.push(index);
            plan.coefs.push(coefs);
            plan.copy_guide.push(index[0]);
            plan.copy_offset
                .push(rest.copy_offset(index[0] as usize, root));
        }
        let neighbours: Vec<[u32; GUIDES_PER_STRAND]> = (0..rest.guides)
            .map(|g| grid.nearest(&rest.roots, rest.roots[g], g).map(|(_, k)| k))
            .collect();
        let mut reach = vec![0.0; rest.guides];
        for (&g, o) in plan.copy_guide.iter().zip(&plan.copy_offset) {
            let r = &mut reach[g as usize];
            *r = Vec3::from_array(*o).length().max(*r);
        }
        follow_copy::spread(
            guide_points,
            particles,
            &neighbours,
            &reach,
            &mut plan.spread,
        );
        plan.measure_rest_lengths();
        Ok(plan)
    }

    /// A plan with `per_guide` render strands per guide: the guide's own
    /// strand, then `per_guide − 1` roots scattered (seeded by `seed`) over
    /// a disc of half the distance to the nearest other guide root, in the
    /// plane of the neighbouring roots. Render strand `g · per_guide + q`
    /// belongs to guide `g`; `q = 0` is the guide itself.
    ///
    /// # Errors
    /// As [`Self::from_roots`]; `per_guide` 0 is [`FollowError::Empty`].
    pub fn scattered(
        particles: usize,
        guide_points: &[Vec3],
        per_guide: usize,
        seed: u64,
    ) -> Result<Self, FollowError> {
        let rest = GuideRest::new(particles, guide_points)?;
        if per_guide == 0 {
            return Err(FollowError::Empty);
        }
        let grid = RootGrid::new(&rest.roots);
        let mut roots = Vec::with_capacity(rest.guides * per_guide);
        for (g, &r0) in rest.roots.iter().enumerate() {
            let near = grid.nearest(&rest.roots, r0, g);
            let (radius, u, v) = disc(&rest, g, &near);
            let mut rng = seed ^ (g as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            roots.push(r0);
            for _ in 1..per_guide {
                let rho = radius * ops::sqrt(unit(&mut rng));
                let (s, c) = ops::sin_cos(core::f32::consts::TAU * unit(&mut rng));
                roots.push(r0 + (u * c + v * s) * rho);
            }
        }
        Self::from_roots(particles, guide_points, &roots)
    }

    /// [`Self::scattered`] for every strand of `sim` as a guide, read from
    /// its rest (groom) arrays.
    ///
    /// # Errors
    /// As [`Self::scattered`].
    pub fn for_sim(sim: &StrandSim, per_guide: usize, seed: u64) -> Result<Self, FollowError> {
        Self::scattered(sim.layout().particles(), &rest_points(sim), per_guide, seed)
    }

    /// The plan as [`super::follow::interpolate`] reads it.
    #[must_use]
    pub fn view(&self) -> FollowPlan<'_> {
        FollowPlan {
            particles: self.particles,
            guides: self.guides,
            guide_index: &self.guide_index,
            coefs: &self.coefs,
            rest_len: &self.rest_len,
            root_normal: &self.root_normal,
        }
    }

    /// Per render strand, the guide it copies (its nearest) and its root
    /// offset `(a, b, c)` in that guide's root frame, for
    /// [`follow_copy::copy_points`] and the hair shader.
    #[must_use]
    pub fn copies(&self) -> (&[u32], &[[Real; 3]]) {
        (&self.copy_guide, &self.copy_offset)
    }

    /// Floats of the guide texture: `guides × texels_per_guide × 4`.
    #[must_use]
    pub fn texels_len(&self) -> usize {
        self.guides * follow_copy::texels_per_guide(self.particles) * follow_copy::TEXEL_FLOATS
    }

    /// Writes the guide texture ([`follow_copy`]) from `sim` (whose first
    /// [`Self::guides`] strands are the guides) with the head at `pose`.
    ///
    /// # Panics
    /// When the sim has fewer strands or other particles than the plan, or
    /// `out` is shorter than [`Self::texels_len`].
    pub fn guide_texels(&self, sim: &StrandSim, pose: &Pose, out: &mut [Real]) {
        assert_eq!(sim.layout().particles(), self.particles, "particle count");
        follow_copy::write_guide_texels(
            sim.layout(),
            sim.positions(),
            Mat3::from_quat(pose.rot),
            &self.root_normal,
            &self.spread,
            out,
        );
    }

    /// [`Self::guide_texels`] for the guides in `range` only, handing each
    /// texel (its index in the whole texture, RGBA) to `put`, from positions
    /// given directly (e.g. inside [`StrandSim::run_split`], so the texture
    /// packs in parts on the sim's threads).
    ///
    /// # Panics
    /// When `layout` has other particles than the plan, or as
    /// [`follow_copy::for_each_guide_texel_in`].
    pub fn for_each_guide_texel_in(
        &self,
        layout: &StrandLayout,
        pos: (&[Real], &[Real], &[Real]),
        pose: &Pose,
        range: core::ops::Range<usize>,
        put: impl FnMut(usize, [Real; follow_copy::TEXEL_FLOATS]),
    ) {
        assert_eq!(layout.particles(), self.particles, "particle count");
        follow_copy::for_each_guide_texel_in(
            layout,
            pos,
            Mat3::from_quat(pose.rot),
            &self.root_normal,
            &self.spread,
            range,
            put,
        );
    }

    /// Render strands.
    #[must_use]
    pub fn renders(&self) -> usize {
        self.coefs.len()
    }

    /// Guides.
    #[must_use]
    pub fn guides(&self) -> usize {
        self.guides
    }

    /// Particles per strand.
    #[must_use]
    pub fn particles(&self) -> usize {
        self.particles
    }

    /// Chooses the builds, as [`StrandSim::set_isa`]; for tests and benches.
    #[doc(hidden)]
    pub fn set_isa(&mut self, isa: Isa) {
        self.isa = isa;
    }

    /// Interpolates the render strands from `sim` (whose first
    /// [`Self::guides`] strands are the guides, with the head at `pose`)
    /// into `x`, `y`, `z` (strand-major, `renders × particles`).
    ///
    /// # Panics
    /// When the sim has fewer strands or other particles than the plan,
    /// or an output is shorter than `renders × particles`.
    pub fn interpolate(
        &mut self,
        sim: &StrandSim,
        pose: &Pose,
        fix_lengths: bool,
        x: &mut [Real],
        y: &mut [Real],
        z: &mut [Real],
    ) {
        let (sx, sy, sz) = sim.positions();
        assert_eq!(sim.layout().particles(), self.particles, "particle count");
        self.interpolate_from(
            sim.layout(),
            (sx, sy, sz),
            Mat3::from_quat(pose.rot),
            fix_lengths,
            [x, y, z],
        );
    }

    fn interpolate_from(
        &mut self,
        layout: &StrandLayout,
        (sx, sy, sz): (&[Real], &[Real], &[Real]),
        rot: Mat3,
        fix_lengths: bool,
        [x, y, z]: [&mut [Real]; 3],
    ) {
        guide_frames(layout, sx, sy, sz, rot, &self.root_normal, &mut self.frames);
        let plan = FollowPlan {
            particles: self.particles,
            guides: self.guides,
            guide_index: &self.guide_index,
            coefs: &self.coefs,
            rest_len: &self.rest_len,
            root_normal: &self.root_normal,
        };
        interpolate_on(self.isa, &plan, &self.frames, fix_lengths, x, y, z);
    }

    /// Interpolates at rest (frames already hold the rest guides) and keeps
    /// each render segment's length as its rest length.
    fn measure_rest_lengths(&mut self) {
        let m = self.particles;
        let n = self.renders() * m;
        let (mut x, mut y, mut z) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
        interpolate_on(
            self.isa,
            &self.view(),
            &self.frames,
            false,
            &mut x,
            &mut y,
            &mut z,
        );
        for j in 0..n {
            self.rest_len[j] = if j % m == 0 {
                0.0
            } else {
                Vec3::new(x[j] - x[j - 1], y[j] - y[j - 1], z[j] - z[j - 1]).length()
            };
        }
    }
}

/// `sim`'s groom, strand-major, real strands only.
#[must_use]
pub fn rest_points(sim: &StrandSim) -> Vec<Vec3> {
    let (layout, rest) = (sim.layout(), sim.rest());
    let m = layout.particles();
    (0..layout.strands() * m)
        .map(|j| rest.point(layout, j / m, j % m))
        .collect()
}

/// The guides at rest: roots, root normals and rest frames.
struct GuideRest {
    guides: usize,
    particles: usize,
    roots: Vec<Vec3>,
    root_normal: Vec<Vec3>,
    frames: Vec<Real>,
}

impl GuideRest {
    fn new(particles: usize, points: &[Vec3]) -> Result<Self, FollowError> {
        if !(4..=MAX_PARTICLES).contains(&particles) {
            return Err(FollowError::Particles(particles));
        }
        if points.is_empty() {
            return Err(FollowError::Empty);
        }
        if !points.len().is_multiple_of(particles) {
            return Err(FollowError::Length("guide_points"));
        }
        if !points.iter().all(|p| p.is_finite()) {
            return Err(FollowError::NotFinite("guide_points"));
        }
        let guides = points.len() / particles;
        let layout = StrandLayout::new(guides, particles)
            .map_err(|_| FollowError::Length("guide_points"))?;
        let n = layout.len();
        let mut a: [Vec<Real>; 5] = core::array::from_fn(|_| vec![0.0; n]);
        {
            let [x, y, z, len, inv] = &mut a;
            fill_rest(&layout, |s, p| points[s * particles + p], x, y, z, len, inv)
                .map_err(|_| FollowError::Length("guide_points"))?;
        }
        let roots: Vec<Vec3> = (0..guides).map(|g| points[g * particles]).collect();
        let root_normal: Vec<Vec3> = (0..guides)
            .map(|g| {
                let t = (points[g * particles + 1] - points[g * particles]).normalize_or(Vec3::Y);
                let a = if t.x.abs() < 0.9 { Vec3::X } else { Vec3::Y };
                (a - t * a.dot(t)).normalize_or(Vec3::Z)
            })
            .collect();
        let mut frames = vec![0.0; FRAME_COMPONENTS * guides * particles];
        guide_frames(
            &layout,
            &a[0],
            &a[1],
            &a[2],
            Mat3::IDENTITY,
            &root_normal,
            &mut frames,
        );
        Ok(Self {
            guides,
            particles,
            roots,
            root_normal,
            frames,
        })
    }

    /// Vector `comp` (0..12, as [`guide_frames`] writes: position, normal,
    /// binormal, tangent) of particle `i` of guide `g` at rest.
    fn frame_vec(&self, g: usize, i: usize, comp: usize) -> Vec3 {
        let gm = self.guides * self.particles;
        let at = |c: usize| self.frames[c * gm + g * self.particles + i];
        Vec3::new(at(comp), at(comp + 1), at(comp + 2))
    }

    /// `root`'s offset from guide `g`'s root in the guide's rest root frame
    /// as [`follow_copy::root_frame`] builds it.
    fn copy_offset(&self, g: usize, root: Vec3) -> [Real; 3] {
        let [n, b, t] = follow_copy::root_frame(
            self.frame_vec(g, 0, 0),
            self.frame_vec(g, 1, 0),
            self.root_normal[g],
        );
        let o = root - self.roots[g];
        [o.dot(n), o.dot(b), o.dot(t)]
    }

    /// Guide indices and coefficients for a render root given its nearest
    /// guides (nearest first): inverse-distance weights summing to 1, and
    /// the root's offset from each guide root in that guide's root frame.
    fn blend(
        &self,
        root: Vec3,
        near: &[(Real, u32); GUIDES_PER_STRAND],
    ) -> ([u32; GUIDES_PER_STRAND], FollowCoefs) {
        let mut w = [0.0 as Real; GUIDES_PER_STRAND];
        let found = near.iter().filter(|(d, _)| d.is_finite()).count();
        if near[0].0 <= 0.0 || found == 1 {
            w[0] = 1.0;
        } else {
            for k in 0..found {
                w[k] = 1.0 / ops::sqrt(near[k].0);
            }
            let sum: Real = w.iter().sum();
            w.iter_mut().for_each(|v| *v /= sum);
        }
        let mut index = [near[0].1; GUIDES_PER_STRAND];
        let mut coefs = [[0.0; 4]; GUIDES_PER_STRAND];
        for k in 0..found {
            let g = near[k].1 as usize;
            index[k] = near[k].1;
            let o = root - self.roots[g];
            let (n, b, t) = (
                self.frame_vec(g, 0, 3),
                self.frame_vec(g, 0, 6),
                self.frame_vec(g, 0, 9),
            );
            coefs[k] = [w[k], w[k] * o.dot(n), w[k] * o.dot(b), w[k] * o.dot(t)];
        }
        (index, coefs)
    }
}

/// The scatter disc of guide `g`: radius and two unit axes spanning the
/// plane of its nearest neighbours' roots (the guide's normal plane when
/// they are in a line or missing).
fn disc(rest: &GuideRest, g: usize, near: &[(Real, u32); GUIDES_PER_STRAND]) -> (Real, Vec3, Vec3) {
    let r0 = rest.roots[g];
    let (d0, i0) = near[0];
    if !d0.is_finite() {
        return (0.0, Vec3::X, Vec3::Y);
    }
    let radius = 0.5 * ops::sqrt(d0);
    let a = rest.roots[i0 as usize] - r0;
    let normal = match near[1] {
        (d1, i1) if d1.is_finite() => a.cross(rest.roots[i1 as usize] - r0),
        _ => Vec3::ZERO,
    };
    let normal = if normal.length_squared() > 1e-6 * a.length_squared() * a.length_squared() {
        normal.normalize()
    } else {
        rest.frame_vec(g, 0, 9)
    };
    let u = normal.any_orthonormal_vector();
    (radius, u, normal.cross(u))
}

/// SplitMix64 step mapped to [0, 1).
fn unit(state: &mut u64) -> Real {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    (z >> 40) as Real / (1u64 << 24) as Real
}

/// A uniform grid over the guide roots for nearest-root queries.
struct RootGrid {
    min: Vec3,
    cell: Real,
    dims: [usize; 3],
    /// Start of each cell's guides in `order` (cells + 1 entries).
    start: Vec<u32>,
    order: Vec<u32>,
}

impl RootGrid {
    fn new(roots: &[Vec3]) -> Self {
        let (min, max) = roots
            .iter()
            .fold((roots[0], roots[0]), |(lo, hi), &r| (lo.min(r), hi.max(r)));
        let extent = (max - min).max_element().max(1e-6);
        // About two roots per occupied cell for roots on a surface.
        let per_axis = (ops::sqrt(roots.len() as Real) * 0.7).clamp(1.0, 128.0);
        let cell = extent / per_axis;
        let dims = ((max - min) / cell)
            .to_array()
            .map(|v| (v as usize + 1).min(256));
        let cells = dims[0] * dims[1] * dims[2];
        let mut count = vec![0u32; cells + 1];
        let key: Vec<usize> = roots
            .iter()
            .map(|&r| {
                let c = Self::coord(min, cell, dims, r);
                (c[2] * dims[1] + c[1]) * dims[0] + c[0]
            })
            .collect();
        for &k in &key {
            count[k + 1] += 1;
        }
        for i in 0..cells {
            count[i + 1] += count[i];
        }
        let mut fill = count.clone();
        let mut order = vec![0u32; roots.len()];
        for (g, &k) in key.iter().enumerate() {
            order[fill[k] as usize] = g as u32;
            fill[k] += 1;
        }
        Self {
            min,
            cell,
            dims,
            start: count,
            order,
        }
    }

    fn coord(min: Vec3, cell: Real, dims: [usize; 3], p: Vec3) -> [usize; 3] {
        let c = ((p - min) / cell).to_array();
        core::array::from_fn(|a| (c[a].max(0.0) as usize).min(dims[a] - 1))
    }

    /// The [`GUIDES_PER_STRAND`] roots nearest `p` other than `skip`, as
    /// (squared distance, index), nearest first; missing ones have an
    /// infinite distance. Ties go to the lower index.
    fn nearest(&self, roots: &[Vec3], p: Vec3, skip: usize) -> [(Real, u32); GUIDES_PER_STRAND] {
        let mut best = [(Real::INFINITY, u32::MAX); GUIDES_PER_STRAND];
        let c = Self::coord(self.min, self.cell, self.dims, p);
        let most = self.dims.iter().copied().max().unwrap_or(1);
        for ring in 0..=most {
            // Every root within `ring` cells of p's cell has been seen, so
            // any unseen root is at least `ring · cell` away (minus p's
            // position inside its cell, hence ring − 1).
            for z in c[2].saturating_sub(ring)..=(c[2] + ring).min(self.dims[2] - 1) {
                for y in c[1].saturating_sub(ring)..=(c[1] + ring).min(self.dims[1] - 1) {
                    for x in c[0].saturating_sub(ring)..=(c[0] + ring).min(self.dims[0] - 1) {
                        let on_shell = [x, y, z]
                            .iter()
                            .zip(c)
                            .any(|(&v, cv)| v.abs_diff(cv) == ring);
                        if !on_shell {
                            continue;
                        }
                        let k = (z * self.dims[1] + y) * self.dims[0] + x;
                        for &g in &self.order[self.start[k] as usize..self.start[k + 1] as usize] {
                            if g as usize == skip {
                                continue;
                            }
                            let d = (roots[g as usize] - p).length_squared();
                            insert(&mut best, (d, g));
                        }
                    }
                }
            }
            let reach = ring as Real * self.cell;
            if best[GUIDES_PER_STRAND - 1].0 <= reach * reach {
                break;
            }
        }
        best
    }
}

/// Keeps `best` sorted by (distance, index) with the new candidate in it.
fn insert(best: &mut [(Real, u32); GUIDES_PER_STRAND], cand: (Real, u32)) {
    let better = |a: (Real, u32), b: (Real, u32)| a.0 < b.0 || (a.0 == b.0 && a.1 < b.1);
    if !better(cand, best[GUIDES_PER_STRAND - 1]) {
        return;
    }
    let mut i = GUIDES_PER_STRAND - 1;
    best[i] = cand;
    while i > 0 && better(best[i], best[i - 1]) {
        best.swap(i, i - 1);
        i -= 1;
    }
}
