//! Render strands interpolated from simulated guides: many strands drawn,
//! few simulated.
//!
//! A [`FollowPlan`] (built once at load, e.g. by `FollowPlanBuf` with
//! feature `std`) gives every render strand up to [`GUIDES_PER_STRAND`]
//! guides, their weights, and its root offset from each guide expressed in
//! that guide's root frame (normal, binormal, tangent). Each frame,
//! [`guide_frames`] builds a frame per guide particle from the simulated
//! positions (tangent along the strand, normal carried from the root by
//! projection, so no trig), and [`interpolate`] places render particle `i`
//! at `Σ w_k (G_k[i] + a_k N_k[i] + b_k B_k[i] + c_k T_k[i])`. The offset
//! turns with each guide's frame, so a render strand is a copy of its
//! guides moved sideways in their own frames: curls and clumps bend with
//! them instead of being flattened by a straight-line blend. An optional
//! length fix then rescales each render segment to its rest length and
//! re-chains the strand from the root.
//!
//! Buffers are strand-major (`strand * particles + particle`) so the
//! per-particle loops run along a strand and vectorise; nothing here
//! allocates.

// Fixed-width index loops over several arrays are what the vectoriser widens.
#![allow(clippy::needless_range_loop)]

use super::lanes::rsqrt;
use super::layout::{MAX_PARTICLES, StrandLayout};
use crate::math::{Mat3, Real, Vec3};
use crate::simd::{Isa, target_build};

/// Most guides one render strand blends.
pub const GUIDES_PER_STRAND: usize = 3;

/// Floats per guide particle in [`guide_frames`]' output: position,
/// normal, binormal and tangent, three components each.
pub const FRAME_COMPONENTS: usize = 12;

/// Squared lengths below this count as zero when normalising.
const TINY2: Real = 1e-18;

/// The per-strand blend of one render strand: for each guide its weight
/// and its weighted root offset in that guide's root frame
/// (`[w, w·a, w·b, w·c]`, offset `a N + b B + c T`). Weights of unused
/// slots are 0.
pub type FollowCoefs = [[Real; 4]; GUIDES_PER_STRAND];

/// A built interpolation plan, borrowed: what [`interpolate`] reads.
#[derive(Debug, Clone, Copy)]
pub struct FollowPlan<'a> {
    /// Particles per strand (guides and render strands alike).
    pub particles: usize,
    /// Simulated guide strands.
    pub guides: usize,
    /// Per render strand, its guides' indices (`< guides`).
    pub guide_index: &'a [[u32; GUIDES_PER_STRAND]],
    /// Per render strand, weights and weighted offsets ([`FollowCoefs`]).
    pub coefs: &'a [FollowCoefs],
    /// Rest length of the segment ending at each render particle (0 at
    /// the root), strand-major; what the length fix restores.
    pub rest_len: &'a [Real],
    /// Per guide, the root normal at rest in the head frame (unit, normal
    /// to the first segment): where [`guide_frames`] starts each frame.
    pub root_normal: &'a [Vec3],
}

/// Why a plan cannot be used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FollowError {
    /// No guides, or no render strands.
    Empty,
    /// Particles per strand outside `4..=64`.
    Particles(usize),
    /// An array is not as long as the counts say (which array).
    Length(&'static str),
    /// A guide index past the guide count.
    GuideIndex,
    /// A non-finite position, weight or offset (which input).
    NotFinite(&'static str),
}

impl core::fmt::Display for FollowError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::Empty => write!(f, "an interpolation plan needs guides and render strands"),
            Self::Particles(m) => write!(f, "{m} particles per strand; supported 4..=64"),
            Self::Length(what) => write!(f, "interpolation plan: `{what}` has the wrong length"),
            Self::GuideIndex => write!(f, "interpolation plan: a guide index is out of range"),
            Self::NotFinite(what) => write!(f, "interpolation plan: non-finite `{what}`"),
        }
    }
}

impl core::error::Error for FollowError {}

impl FollowPlan<'_> {
    /// Render strands in the plan.
    #[must_use]
    pub fn renders(&self) -> usize {
        self.coefs.len()
    }

    /// Floats [`guide_frames`] writes: `FRAME_COMPONENTS × guides × particles`.
    #[must_use]
    pub fn frames_len(&self) -> usize {
        FRAME_COMPONENTS * self.guides * self.particles
    }

    /// Floats per output array of [`interpolate`]: `renders × particles`.
    #[must_use]
    pub fn output_len(&self) -> usize {
        self.renders() * self.particles
    }

    /// Checks counts, lengths, indices and finiteness, so [`interpolate`]
    /// cannot panic or produce NaN from the plan itself.
    ///
    /// # Errors
    /// The first [`FollowError`] found.
    pub fn check(&self) -> Result<(), FollowError> {
        let m = self.particles;
        if self.guides == 0 || self.coefs.is_empty() {
            return Err(FollowError::Empty);
        }
        if !(4..=MAX_PARTICLES).contains(&m) {
            return Err(FollowError::Particles(m));
        }
        let r = self.coefs.len();
        if self.guide_index.len() != r {
            return Err(FollowError::Length("guide_index"));
        }
        if self.rest_len.len() != r * m {
            return Err(FollowError::Length("rest_len"));
        }
        if self.root_normal.len() != self.guides {
            return Err(FollowError::Length("root_normal"));
        }
        if self
            .guide_index
            .iter()
            .flatten()
            .any(|&g| g as usize >= self.guides)
        {
            return Err(FollowError::GuideIndex);
        }
        if !self.coefs.iter().flatten().flatten().all(|v| v.is_finite()) {
            return Err(FollowError::NotFinite("coefs"));
        }
        if !self.rest_len.iter().all(|v| v.is_finite()) {
            return Err(FollowError::NotFinite("rest_len"));
        }
        if !self.root_normal.iter().all(|v| v.is_finite()) {
            return Err(FollowError::NotFinite("root_normal"));
        }
        Ok(())
    }
}

/// Builds the frame of every guide particle from the positions `x`, `y`,
/// `z` in the sim's chunked `layout` (the first `root_normal.len()` strands
/// are the guides), with the head rotated by `rot`. Writes
/// [`FRAME_COMPONENTS`] strand-major arrays of `guides × particles` into
/// `out`, one after another: position x, y, z, normal, binormal, tangent.
///
/// The tangent at particle `i` is the direction to particle `i + 1` (the
/// tip repeats the last one); the root normal is `rot · root_normal`
/// projected off the tangent, and each next normal is the one before it
/// projected off the next tangent: a discrete parallel transport with one
/// reciprocal square root per particle and no trig.
///
/// # Panics
/// When `out` is shorter than `FRAME_COMPONENTS × guides × particles`, the
/// position arrays do not fit `layout`, or there are more guides than
/// strands.
pub fn guide_frames(
    layout: &StrandLayout,
    x: &[Real],
    y: &[Real],
    z: &[Real],
    rot: Mat3,
    root_normal: &[Vec3],
    out: &mut [Real],
) {
    let guides = root_normal.len();
    assert!(guides <= layout.strands(), "more guides than strands");
    assert!(
        out.len() >= FRAME_COMPONENTS * guides * layout.particles(),
        "frame buffer too short"
    );
    assert!(
        x.len() >= layout.len() && y.len() >= layout.len() && z.len() >= layout.len(),
        "positions do not fit the layout"
    );
    // A chunk's rows hold one particle of all its strands, so the frames
    // are built a row at a time across the lanes (SIMD), and each row is
    // then scattered to the strand-major output.
    match Isa::detect().avx512() {
        Some(t) => frames_avx512(t, layout, (x, y, z), rot, root_normal, out),
        None => frames_inline(layout, x, y, z, rot, root_normal, out),
    }
}

target_build! {
    /// [`guide_frames`] compiled for AVX-512 (no FMA: the portable bits).
    fn frames_avx512(
        _token: Avx512,
        layout: &StrandLayout,
        pos: (&[Real], &[Real], &[Real]),
        rot: Mat3,
        root_normal: &[Vec3],
        out: &mut [Real],
    ) {
        frames_inline(layout, pos.0, pos.1, pos.2, rot, root_normal, out);
    }
}

#[inline(always)]
fn frames_inline(
    layout: &StrandLayout,
    x: &[Real],
    y: &[Real],
    z: &[Real],
    rot: Mat3,
    root_normal: &[Vec3],
    out: &mut [Real],
) {
    if layout.lanes() == super::layout::WIDE_LANES {
        chunk_frames::<{ super::layout::WIDE_LANES }>(layout, x, y, z, rot, root_normal, out);
    } else {
        chunk_frames::<{ super::layout::LANES }>(layout, x, y, z, rot, root_normal, out);
    }
}

#[inline(always)]
fn chunk_frames<const L: usize>(
    layout: &StrandLayout,
    x: &[Real],
    y: &[Real],
    z: &[Real],
    rot: Mat3,
    root_normal: &[Vec3],
    out: &mut [Real],
) {
    let guides = root_normal.len();
    let m = layout.particles();
    let gm = guides * m;
    for c in 0..guides.div_ceil(L) {
        let (base, g0) = (c * m * L, c * L);
        let real = (guides - g0).min(L);
        let mut n = [[0.0 as Real; L]; 3];
        for l in 0..real {
            let r = rot * root_normal[g0 + l];
            (n[0][l], n[1][l], n[2][l]) = (r.x, r.y, r.z);
        }
        for i in 0..m {
            // The tangent at particle i points to particle i + 1; the tip
            // repeats the last segment's.
            let (a, b) = if i + 1 < m {
                (base + i * L, base + (i + 1) * L)
            } else {
                (base + (i - 1) * L, base + i * L)
            };
            let row = base + i * L;
            let mut t = [[0.0 as Real; L]; 3];
            let mut bn = [[0.0 as Real; L]; 3];
            for l in 0..L {
                let (tx, ty, tz) = (
                    x[b + l] - x[a + l],
                    y[b + l] - y[a + l],
                    z[b + l] - z[a + l],
                );
                let k = inv_len(tx * tx + ty * ty + tz * tz);
                let (tx, ty, tz) = (tx * k, ty * k, tz * k);
                // Projecting the previous normal off this tangent carries
                // it down the strand without twisting; a normal that falls
                // along the tangent (a 90° kink) comes out zero, which only
                // drops that particle's offset, never a NaN.
                let d = n[0][l] * tx + n[1][l] * ty + n[2][l] * tz;
                let (nx, ny, nz) = (n[0][l] - tx * d, n[1][l] - ty * d, n[2][l] - tz * d);
                let k = inv_len(nx * nx + ny * ny + nz * nz);
                let (nx, ny, nz) = (nx * k, ny * k, nz * k);
                (n[0][l], n[1][l], n[2][l]) = (nx, ny, nz);
                (t[0][l], t[1][l], t[2][l]) = (tx, ty, tz);
                bn[0][l] = ty * nz - tz * ny;
                bn[1][l] = tz * nx - tx * nz;
                bn[2][l] = tx * ny - ty * nx;
            }
            let pos = [&x[row..row + L], &y[row..row + L], &z[row..row + L]];
            for l in 0..real {
                let at = (g0 + l) * m + i;
                for k in 0..3 {
                    out[k * gm + at] = pos[k][l];
                    out[(3 + k) * gm + at] = n[k][l];
                    out[(6 + k) * gm + at] = bn[k][l];
                    out[(9 + k) * gm + at] = t[k][l];
                }
            }
        }
    }
}

/// `1 / sqrt(l2)`, or 0 for a (near-)zero `l2`: branch-free, so lanes vectorise.
#[inline(always)]
fn inv_len(l2: Real) -> Real {
    let k = rsqrt(l2.max(TINY2));
    if l2 > TINY2 { k } else { 0.0 }
}

/// Writes every render strand's particles into `x`, `y`, `z`
/// (strand-major, `renders × particles` each) from the guide frames
/// `frames` ([`guide_frames`]' output for this plan). With `fix_lengths`
/// each segment is then scaled to its rest length and the strand chained
/// again from its root (one Follow-The-Leader pass that keeps directions).
///
/// Detects the CPU's instruction set on each call; [`interpolate_on`]
/// takes one detected once. Every instruction set gives the same bits.
///
/// # Panics
/// When a buffer is shorter than the plan needs, or the plan fails
/// [`FollowPlan::check`].
pub fn interpolate(
    plan: &FollowPlan<'_>,
    frames: &[Real],
    fix_lengths: bool,
    x: &mut [Real],
    y: &mut [Real],
    z: &mut [Real],
) {
    interpolate_on(Isa::detect(), plan, frames, fix_lengths, x, y, z);
}

/// [`interpolate`] compiled for `isa` (AVX-512, AVX2 or portable).
///
/// # Panics
/// As [`interpolate`].
pub fn interpolate_on(
    isa: Isa,
    plan: &FollowPlan<'_>,
    frames: &[Real],
    fix_lengths: bool,
    x: &mut [Real],
    y: &mut [Real],
    z: &mut [Real],
) {
    assert!(frames.len() >= plan.frames_len(), "frame buffer too short");
    let n = plan.output_len();
    assert!(
        x.len() >= n && y.len() >= n && z.len() >= n,
        "output too short"
    );
    assert!(
        plan.guide_index.len() == plan.renders() && plan.rest_len.len() >= n,
        "plan arrays do not match"
    );
    match (isa.avx512(), isa.avx2()) {
        (Some(t), _) => interpolate_avx512(t, plan, frames, fix_lengths, x, y, z),
        (None, Some(t)) => interpolate_avx2(t, plan, frames, fix_lengths, x, y, z),
        _ => interpolate_inline(plan, frames, fix_lengths, x, y, z),
    }
}

target_build! {
    /// [`interpolate`] compiled for AVX-512: a 16-particle strand is one
    /// register per component. No FMA, so the bits are the portable ones.
    fn interpolate_avx512(
        _token: Avx512,
        plan: &FollowPlan<'_>,
        frames: &[Real],
        fix_lengths: bool,
        x: &mut [Real],
        y: &mut [Real],
        z: &mut [Real],
    ) {
        interpolate_inline(plan, frames, fix_lengths, x, y, z);
    }
}

target_build! {
    /// [`interpolate`] compiled for AVX2 (no FMA: the portable bits).
    fn interpolate_avx2(
        _token: Avx2,
        plan: &FollowPlan<'_>,
        frames: &[Real],
        fix_lengths: bool,
        x: &mut [Real],
        y: &mut [Real],
        z: &mut [Real],
    ) {
        interpolate_inline(plan, frames, fix_lengths, x, y, z);
    }
}

#[inline(always)]
fn interpolate_inline(
    plan: &FollowPlan<'_>,
    frames: &[Real],
    fix_lengths: bool,
    x: &mut [Real],
    y: &mut [Real],
    z: &mut [Real],
) {
    // A strand length known at compile time lets every loop along the
    // strand become whole vector registers (16 particles: one zmm per
    // component); the other counts take the same code with a run-time
    // length, which the fix's loops do not vectorise.
    match plan.particles {
        16 => strands::<16, 16>(plan, frames, fix_lengths, x, y, z),
        32 => strands::<32, 32>(plan, frames, fix_lengths, x, y, z),
        _ => strands::<0, MAX_PARTICLES>(plan, frames, fix_lengths, x, y, z),
    }
}

/// Every render strand, `N` particles each (0: `plan.particles`), with
/// the length fix's rows `A` long (`N`, or [`MAX_PARTICLES`] for 0): rows
/// exactly one strand long stay in registers.
#[inline(always)]
fn strands<const N: usize, const A: usize>(
    plan: &FollowPlan<'_>,
    frames: &[Real],
    fix_lengths: bool,
    x: &mut [Real],
    y: &mut [Real],
    z: &mut [Real],
) {
    let m = if N > 0 { N } else { plan.particles };
    let gm = plan.guides * m;
    for (r, (gi, co)) in plan.guide_index.iter().zip(plan.coefs).enumerate() {
        let span = r * m..(r + 1) * m;
        let base = gi.map(|g| g as usize * m);
        // Blended into local rows and stored once: the fix reads each
        // row shifted by one particle, and reading that back from the
        // output just stored stalls on store forwarding (perf annotate:
        // most of the fix's time sat on those loads).
        let mut p = [[0.0 as Real; A]; 3];
        for (c, row) in p.iter_mut().enumerate() {
            blend::<N>(&mut row[..m], co, frames, gm, base, c);
        }
        let [px, py, pz] = &mut p;
        if fix_lengths {
            fix_strand::<N, A>(
                &mut px[..m],
                &mut py[..m],
                &mut pz[..m],
                &plan.rest_len[span.clone()],
            );
        }
        x[span.clone()].copy_from_slice(&px[..m]);
        y[span.clone()].copy_from_slice(&py[..m]);
        z[span].copy_from_slice(&pz[..m]);
    }
}

/// One component (`c`: 0 x, 1 y, 2 z) of one render strand:
/// `Σ_k w_k P_k + (w a)_k N_k + (w b)_k B_k + (w c)_k T_k` along the strand.
#[inline(always)]
fn blend<const N: usize>(
    dst: &mut [Real],
    co: &FollowCoefs,
    frames: &[Real],
    gm: usize,
    base: [usize; GUIDES_PER_STRAND],
    c: usize,
) {
    let m = if N > 0 { N } else { dst.len() };
    let dst = &mut dst[..m];
    let s = |comp: usize, k: usize| {
        let a = comp * gm + base[k];
        &frames[a..a + m]
    };
    let (p0, n0, b0, t0) = (s(c, 0), s(3 + c, 0), s(6 + c, 0), s(9 + c, 0));
    let (p1, n1, b1, t1) = (s(c, 1), s(3 + c, 1), s(6 + c, 1), s(9 + c, 1));
    let (p2, n2, b2, t2) = (s(c, 2), s(3 + c, 2), s(6 + c, 2), s(9 + c, 2));
    let [k0, k1, k2] = *co;
    for i in 0..m {
        // One fixed order of sums, so every build gives the same bits.
        let g0 = k0[0] * p0[i] + k0[1] * n0[i] + k0[2] * b0[i] + k0[3] * t0[i];
        let g1 = k1[0] * p1[i] + k1[1] * n1[i] + k1[2] * b1[i] + k1[3] * t1[i];
        let g2 = k2[0] * p2[i] + k2[1] * n2[i] + k2[2] * b2[i] + k2[3] * t2[i];
        dst[i] = g0 + g1 + g2;
    }
}

/// Scales each segment of one strand to `rest_len` (keeping its
/// direction) and chains the particles again from the root: a blend of
/// guides is shorter than they are where they diverge, and this puts the
/// length back. The segment scaling vectorises along the strand; the
/// re-chaining is three running sums from the root.
#[inline(always)]
fn fix_strand<const N: usize, const A: usize>(
    x: &mut [Real],
    y: &mut [Real],
    z: &mut [Real],
    rest_len: &[Real],
) {
    let m = if N > 0 { N } else { x.len() };
    let (x, y, z, rest_len) = (&mut x[..m], &mut y[..m], &mut z[..m], &rest_len[..m]);
    let mut d = [[0.0 as Real; A]; 3];
    for i in 1..m {
        let (dx, dy, dz) = (x[i] - x[i - 1], y[i] - y[i - 1], z[i] - z[i - 1]);
        let l2 = (dx * dx + dy * dy + dz * dz).max(TINY2);
        let k = rest_len[i] * rsqrt(l2);
        d[0][i] = dx * k;
        d[1][i] = dy * k;
        d[2][i] = dz * k;
    }
    // Three independent root-to-tip sums; consecutive strands' sums
    // overlap in the out-of-order window, which measured faster here than
    // a log-step scan through memory rows.
    for i in 1..m {
        x[i] = x[i - 1] + d[0][i];
        y[i] = y[i - 1] + d[1][i];
        z[i] = z[i - 1] + d[2][i];
    }
}

/// Relative segment length error of interpolated strands (`x`, `y`, `z`
/// as [`interpolate`] wrote them) against the plan's rest lengths, with
/// [`LENGTH_FLOOR`](super::metrics::LENGTH_FLOOR) as in the sim's metric.
#[must_use]
pub fn length_error(
    plan: &FollowPlan<'_>,
    x: &[Real],
    y: &[Real],
    z: &[Real],
) -> super::metrics::LengthError {
    let (mut sum, mut max, mut n) = (0.0f64, 0.0 as Real, 0u64);
    let m = plan.particles;
    for r in 0..plan.renders() {
        for i in 1..m {
            let j = r * m + i;
            let rest = plan.rest_len[j];
            if rest <= 0.0 {
                continue;
            }
            let d = Vec3::new(x[j] - x[j - 1], y[j] - y[j - 1], z[j] - z[j - 1]);
            let e =
                crate::math::ops::abs(d.length() - rest) / rest.max(super::metrics::LENGTH_FLOOR);
            sum += f64::from(e);
            max = max.max(e);
            n += 1;
        }
    }
    super::metrics::LengthError {
        mean: if n == 0 {
            0.0
        } else {
            (sum / n as f64) as Real
        },
        max,
    }
}
