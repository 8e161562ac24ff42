//! `tress_strands_follow*`: render strands that follow the simulated ones
//! (TressFX follow hairs, `tress_core::strand::follow_copy`). Each render
//! strand is a copy of its nearest simulated strand (its guide) moved by
//! its root offset in the guide's root frame; per frame the engine uploads
//! only the guides, packed as an RGBA float texture
//! (`tress_strands_guide_texels`), and its vertex shader places every
//! render particle from it. `tress_strands_follow_points` does the same on
//! the CPU, for engines without such a shader and for checking one.

use tress_core::math::Vec3;
use tress_core::strand::follow_copy::{self, TEXEL_FLOATS, texels_per_guide};
use tress_core::strand::{FollowPlanBuf, MAX_PARTICLES};

use crate::ptr;
use crate::status::{Error, Result, TressStatus, guard};
use crate::strands::{StrandsObj, TressStrands, with};
use crate::types::{TressVec3, index_out, too_small};

/// Most render strands per simulated strand.
pub const TRESS_MAX_FOLLOW_PER_GUIDE: u32 = 64;

/// A groom's render strands: the plan and the guide texture it packs.
pub(crate) struct Follow {
    plan: FollowPlanBuf,
    texels: Vec<f32>,
}

fn follow_of(follow: &mut Option<Follow>) -> Result<&mut Follow> {
    follow.as_mut().ok_or_else(|| {
        Error::invalid("these strands have no render strands: call tress_strands_follow first")
    })
}

/// Makes `per_guide` render strands per simulated strand (1..=64): the
/// strand itself, then `per_guide − 1` roots scattered over a disc of half
/// the distance to the nearest other root, in the plane of the neighbouring
/// roots, seeded by `seed` (the same seed gives the same roots). Replaces
/// earlier render strands. The count goes to `out_render_strands` (may be
/// null); render strand `g · per_guide + q` follows strand `g`.
#[unsafe(no_mangle)]
pub extern "C" fn tress_strands_follow(
    strands: TressStrands,
    per_guide: u32,
    seed: u64,
    out_render_strands: Option<&mut u32>,
) -> TressStatus {
    guard("tress_strands_follow", || {
        if !(1..=TRESS_MAX_FOLLOW_PER_GUIDE).contains(&per_guide) {
            return Err(Error::invalid(format!(
                "per_guide {per_guide} is outside 1..={TRESS_MAX_FOLLOW_PER_GUIDE}"
            )));
        }
        with(strands, |s| {
            let plan = FollowPlanBuf::for_sim(&s.sim, per_guide as usize, seed)
                .map_err(|e| Error::invalid(format!("no render strands: {e}")))?;
            let renders = plan.renders();
            let texels = vec![0.0; plan.texels_len()];
            s.follow = Some(Follow { plan, texels });
            if let Some(out) = out_render_strands {
                *out = index_out(renders);
            }
            Ok(())
        })
    })
}

/// The guide texture's shape: texels per guide (particles + 3: the
/// particles' `(x, y, z, spread)`, then the root frame's normal, binormal
/// and tangent) into `out_texels_per_guide`, guides into `out_guides`
/// (either may be null). The texture holds `guides × texels_per_guide`
/// RGBA float texels, guide after guide.
#[unsafe(no_mangle)]
pub extern "C" fn tress_strands_guide_texture_size(
    strands: TressStrands,
    out_texels_per_guide: Option<&mut u32>,
    out_guides: Option<&mut u32>,
) -> TressStatus {
    guard("tress_strands_guide_texture_size", || {
        with(strands, |s| {
            let f = follow_of(&mut s.follow)?;
            if let Some(o) = out_texels_per_guide {
                *o = index_out(texels_per_guide(f.plan.particles()));
            }
            if let Some(o) = out_guides {
                *o = index_out(f.plan.guides());
            }
            Ok(())
        })
    })
}

/// Per render strand, the simulated strand it copies (into `guides`) and
/// its root offset `(a, b, c)` in that strand's root frame (into
/// `offsets`), both of `capacity` entries; the count goes to `out_written`
/// (may be null). Particle `i` of the copy lies at `G[i] + s_i · (a N +
/// b B + c T)`, with `G[i]` and `s_i` texel `i` of its guide and `N`, `B`,
/// `T` the guide's last three texels: what a vertex shader computes. These
/// do not change while the render strands last: build the mesh once.
///
/// # Safety
/// `guides` and `offsets` point to `capacity` writable values each.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tress_strands_follow_copies(
    strands: TressStrands,
    guides: *mut u32,
    offsets: *mut TressVec3,
    capacity: usize,
    out_written: Option<&mut usize>,
) -> TressStatus {
    guard("tress_strands_follow_copies", || {
        // SAFETY: the caller gives `capacity` writable values at each.
        let guides = unsafe { ptr::slice_mut(guides, capacity, "guides") }?;
        // SAFETY: as above.
        let offsets = unsafe { ptr::slice_mut(offsets, capacity, "offsets") }?;
        with(strands, |s| {
            let f = follow_of(&mut s.follow)?;
            let (g, o) = f.plan.copies();
            if capacity < g.len() {
                return Err(too_small("the copy buffers", capacity, g.len()));
            }
            guides[..g.len()].copy_from_slice(g);
            for (dst, src) in offsets.iter_mut().zip(o) {
                *dst = Vec3::from_array(*src).into();
            }
            if let Some(w) = out_written {
                *w = g.len();
            }
            Ok(())
        })
    })
}

/// Packs the guide texture for the strands' current state (after the last
/// advance, at its head pose) into `out`, `capacity` floats; the count
/// (`guides × texels_per_guide × 4`) goes to `out_written` (may be null).
/// The CPU's whole per-frame share of drawing the render strands.
///
/// # Safety
/// `out` points to `capacity` writable floats.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tress_strands_guide_texels(
    strands: TressStrands,
    out: *mut f32,
    capacity: usize,
    out_written: Option<&mut usize>,
) -> TressStatus {
    guard("tress_strands_guide_texels", || {
        // SAFETY: the caller gives `capacity` writable floats at `out`.
        let out = unsafe { ptr::slice_mut(out, capacity, "out") }?;
        with(strands, |s| {
            let pose = s.last;
            let StrandsObj { sim, follow, .. } = s;
            let f = follow_of(follow)?;
            let n = f.plan.texels_len();
            if out.len() < n {
                return Err(too_small("the texel buffer", out.len(), n));
            }
            f.plan.guide_texels(sim, &pose, &mut out[..n]);
            if let Some(w) = out_written {
                *w = n;
            }
            Ok(())
        })
    })
}

/// Every render strand's points (render strand after render strand, root
/// first), placed on the CPU exactly as the shader places them, into `out`
/// of `capacity` entries; the count (`render strands × particles`) goes to
/// `out_written` (may be null).
///
/// # Safety
/// `out` points to `capacity` writable `TressVec3` values.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tress_strands_follow_points(
    strands: TressStrands,
    out: *mut TressVec3,
    capacity: usize,
    out_written: Option<&mut usize>,
) -> TressStatus {
    guard("tress_strands_follow_points", || {
        // SAFETY: the caller gives `capacity` writable values at `out`.
        let out = unsafe { ptr::slice_mut(out, capacity, "out") }?;
        with(strands, |s| {
            let pose = s.last;
            let StrandsObj { sim, follow, .. } = s;
            let f = follow_of(follow)?;
            let m = f.plan.particles();
            let n = f.plan.renders() * m;
            if out.len() < n {
                return Err(too_small("the point buffer", out.len(), n));
            }
            f.plan.guide_texels(sim, &pose, &mut f.texels);
            let (guides, offsets) = f.plan.copies();
            let mut one = [Vec3::ZERO; MAX_PARTICLES];
            for (r, dst) in out[..n].chunks_mut(m).enumerate() {
                follow_copy::copy_points(
                    &f.texels,
                    m,
                    &guides[r..=r],
                    &offsets[r..=r],
                    &mut one[..m],
                );
                for (d, p) in dst.iter_mut().zip(&one[..m]) {
                    *d = (*p).into();
                }
            }
            if let Some(w) = out_written {
                *w = n;
            }
            Ok(())
        })
    })
}

// The texel layout the header documents.
const _: () = assert!(TEXEL_FLOATS == 4);
