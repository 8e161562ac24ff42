//! Render strands placed by the GPU: each render strand is its nearest
//! guide moved sideways by its root offset, the offset held in the guide's
//! root frame. The CPU packs the simulated guides into a float texture
//! ([`write_guide_texels`]: one texel per particle and the root frame),
//! and a vertex shader places every render particle from it; per frame the
//! CPU touches the guides only, never the render strands.
//!
//! Why a copy and not the three-guide blend of [`super::follow`]: a blend of
//! positions shortens segments where guides part (up to half on the
//! standard scene), and restoring lengths re-chains each strand from the
//! root, a scan a vertex shader would repeat for every vertex. A copy
//! moved as a whole keeps its guide's segment lengths, curls and all, and
//! needs six texel reads per vertex. It is TressFX's follow hair, its tip
//! spread measured from the groom: the offset grows along the strand as
//! the guide's neighbours part from it at rest ([`spread`]), so the copies
//! fill the space between guides down to the tips instead of clumping; the
//! spread changes a copy's segment lengths by at most 1 %.
//!
//! Texture layout: guide `g` owns texels `g · T .. (g + 1) · T` with
//! `T = particles + ROOT_TEXELS` ([`texels_per_guide`]): its particles
//! `(x, y, z, s)` root first (`s` the spread), then its root frame's
//! normal, binormal and tangent `(·, ·, ·, 0)`. A render strand's offset
//! `(a, b, c)` places its particle `i` at `G[i] + s_i (a N + b B + c T)`.

use super::follow::GUIDES_PER_STRAND;
use super::layout::StrandLayout;
use crate::math::{Mat3, Real, Vec3};

/// Floats per texel (RGBA).
pub const TEXEL_FLOATS: usize = 4;

/// Texels after a guide's particles: its root normal, binormal, tangent.
pub const ROOT_TEXELS: usize = 3;

/// Texels one guide takes: its particles and its root frame.
#[must_use]
pub const fn texels_per_guide(particles: usize) -> usize {
    particles + ROOT_TEXELS
}

/// Squared lengths below this count as zero when normalising.
const TINY2: Real = 1e-18;

/// The root frame of a guide from its first two particles and its rest
/// root normal already turned by the head: tangent along the first
/// segment, normal projected off it, binormal `T × N` (as
/// [`super::follow::guide_frames`] builds its root row, so offsets
/// measured at rest in either agree). Degenerate input gives zero vectors,
/// never NaN.
#[must_use]
pub fn root_frame(p0: Vec3, p1: Vec3, normal: Vec3) -> [Vec3; 3] {
    let t = unit_or_zero(p1 - p0);
    let n = unit_or_zero(normal - t * normal.dot(t));
    [n, t.cross(n), t]
}

fn unit_or_zero(v: Vec3) -> Vec3 {
    let l2 = v.length_squared();
    if l2 > TINY2 {
        v * (1.0 / crate::math::ops::sqrt(l2))
    } else {
        Vec3::ZERO
    }
}

/// Largest change of a segment's length the spread may cause, as a share
/// of the segment (the copies' lengths stay within this of their guide's).
pub const SPREAD_STRETCH: Real = 0.01;

/// How far the copies of each guide spread along it, from the groom
/// (`points`, strand-major, `particles` per guide), each guide's nearest
/// guides by root (`neighbours`, `u32::MAX` for none) and the largest
/// offset of its copies (`reach`): at particle `i`, the guide's distance
/// to its nearest of those neighbours there over the same at the root
/// (the nearest, so a guide beside a parting does not spread into it),
/// clamped to `[0.25, 4]`, and changing from one particle to the next by
/// no more than lets a copy's segment change length by
/// [`SPREAD_STRETCH`]. 1 at the root, and everywhere for a guide without
/// neighbours. Writes `guides × particles` values strand-major into `out`.
///
/// # Panics
/// When `out`, `points` or `reach` is shorter than the guides in
/// `neighbours` need.
pub fn spread(
    points: &[Vec3],
    particles: usize,
    neighbours: &[[u32; GUIDES_PER_STRAND]],
    reach: &[Real],
    out: &mut [Real],
) {
    let m = particles;
    for (g, near) in neighbours.iter().enumerate() {
        let apart = |i: usize| {
            near.iter()
                .filter(|&&k| k != u32::MAX)
                .map(|&k| (points[k as usize * m + i] - points[g * m + i]).length())
                .fold(Real::INFINITY, Real::min)
        };
        let root = apart(0);
        let mut s = 1.0;
        out[g * m] = 1.0;
        for i in 1..m {
            if root.is_finite() && root > 0.0 && reach[g] > 0.0 {
                let step = SPREAD_STRETCH * (points[g * m + i] - points[g * m + i - 1]).length()
                    / reach[g];
                let want = (apart(i) / root).clamp(0.25, 4.0);
                s = want.clamp(s - step, s + step);
            }
            out[g * m + i] = s;
        }
    }
}

/// Writes the guide texture: the first `root_normal.len()` strands of the
/// sim positions `x`, `y`, `z` (chunked `layout`) with the head rotated by
/// `rot`, and their [`spread`] (`guides × particles`), as described in the
/// module docs, into `out` (`guides × texels_per_guide × 4` floats; the
/// rest is left alone).
///
/// # Panics
/// When `out` or `spread` is shorter than that, the positions do not fit
/// `layout`, or there are more guides than strands.
pub fn write_guide_texels(
    layout: &StrandLayout,
    pos: (&[Real], &[Real], &[Real]),
    rot: Mat3,
    root_normal: &[Vec3],
    spread: &[Real],
    out: &mut [Real],
) {
    let texels = root_normal.len() * texels_per_guide(layout.particles());
    assert!(out.len() >= texels * TEXEL_FLOATS, "texel buffer too short");
    for_each_guide_texel(layout, pos, rot, root_normal, spread, |k, v| {
        out[k * TEXEL_FLOATS..(k + 1) * TEXEL_FLOATS].copy_from_slice(&v);
    });
}

/// [`write_guide_texels`] handing each texel (index, value) to `put`, in
/// an order that reads the sim's buffers chunk by chunk; for a caller whose
/// texture memory is not a float slice (e.g. bytes).
///
/// # Panics
/// When `spread` is shorter than `guides × particles`, the positions do
/// not fit `layout`, or there are more guides than strands.
pub fn for_each_guide_texel(
    layout: &StrandLayout,
    pos: (&[Real], &[Real], &[Real]),
    rot: Mat3,
    root_normal: &[Vec3],
    spread: &[Real],
    put: impl FnMut(usize, [Real; TEXEL_FLOATS]),
) {
    let all = 0..root_normal.len();
    for_each_guide_texel_in(layout, pos, rot, root_normal, spread, all, put);
}

/// [`for_each_guide_texel`] for the guides in `range` only (their texels
/// keep their indices in the whole texture), so the texture can be packed
/// in parts on several threads.
///
/// # Panics
/// As [`for_each_guide_texel`]; also when `range` ends past the guides.
pub fn for_each_guide_texel_in(
    layout: &StrandLayout,
    (x, y, z): (&[Real], &[Real], &[Real]),
    rot: Mat3,
    root_normal: &[Vec3],
    spread: &[Real],
    range: core::ops::Range<usize>,
    mut put: impl FnMut(usize, [Real; TEXEL_FLOATS]),
) {
    let guides = root_normal.len();
    let m = layout.particles();
    let per = texels_per_guide(m);
    assert!(range.end <= guides, "guide range past the guides");
    assert!(guides <= layout.strands(), "more guides than strands");
    assert!(spread.len() >= guides * m, "spread too short");
    let n = layout.len();
    assert!(
        x.len() >= n && y.len() >= n && z.len() >= n,
        "positions do not fit the layout"
    );
    let lanes = layout.lanes();
    for g in range {
        // Guides in order are chunk by chunk, lane by lane, so each chunk's
        // rows (one particle of all its strands) are read while in cache.
        let base = (g / lanes) * layout.chunk_len() + g % lanes;
        let at = |i: usize| {
            let j = base + i * lanes;
            Vec3::new(x[j], y[j], z[j])
        };
        for i in 0..m {
            let j = base + i * lanes;
            put(g * per + i, [x[j], y[j], z[j], spread[g * m + i]]);
        }
        let frame = root_frame(at(0), at(1), rot * root_normal[g]);
        for (k, v) in frame.iter().enumerate() {
            put(g * per + m + k, [v.x, v.y, v.z, 0.0]);
        }
    }
}

/// What the shader computes, on the CPU: render strand `r` (guide
/// `guide[r]`, offset `offset[r]`) written strand-major into `out`
/// (`guide.len() × particles` points; fewer if `out` is shorter). For
/// tests, measurements, and drawing without the shader.
///
/// # Panics
/// When `offset` is shorter than `guide`, or a guide's texels are past
/// the end of `texels`.
pub fn copy_points(
    texels: &[Real],
    particles: usize,
    guide: &[u32],
    offset: &[[Real; 3]],
    out: &mut [Vec3],
) {
    let per = texels_per_guide(particles) * TEXEL_FLOATS;
    let texel = |t: &[Real], k: usize| {
        let o = k * TEXEL_FLOATS;
        Vec3::new(t[o], t[o + 1], t[o + 2])
    };
    for ((&g, o), dst) in guide.iter().zip(offset).zip(out.chunks_mut(particles)) {
        let t = &texels[g as usize * per..(g as usize + 1) * per];
        let shift = texel(t, particles) * o[0]
            + texel(t, particles + 1) * o[1]
            + texel(t, particles + 2) * o[2];
        for (i, p) in dst.iter_mut().enumerate() {
            *p = texel(t, i) + shift * t[i * TEXEL_FLOATS + 3];
        }
    }
}
