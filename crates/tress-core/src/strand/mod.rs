//! TressFX-style particle strands: momentum, shape constraints, colliders and
//! exact inextensibility, for thousands of strands on one CPU core.
//!
//! Each step runs, in order: Verlet integration with momentum
//! `x' = x + e^(−c h)(x − x_prev) + g h²`; global shape (the first particles
//! pulled toward the groom carried by the head); local shape (each segment
//! pulled toward its groomed direction in the frame of the segment before
//! it); collision (push-out without rebound); and Follow-The-Leader length
//! projection with its velocity correction. Data is caller-owned
//! structure-of-arrays ([`StrandRest`], [`StrandState`]) in chunks of
//! [`LANES`] strands; a step never allocates.
//!
//! - [`layout`]: buffer shape and particle indexing.
//! - [`buffers`]: borrowed rest and state arrays.
//! - [`params`]: per-second parameters and per-step factors.
//! - [`frame`]: the head pose ([`Pose`]) and posed colliders for one step.
//! - [`kernel`]: the chunked step; [`reference`](mod@reference): the scalar one;
//!   [`lanes`]: the branch-free lane math the kernel inlines.
//! - [`metrics`]: length error and penetration counts.
//! - [`follow`]: render strands interpolated from the simulated guides;
//!   `follow_build` (feature `std`): choosing their guides at load;
//!   [`follow_copy`]: the guide texture a vertex shader draws render
//!   strands from (each a copy of its nearest guide).
//! - [`skin`]: roots carried by up to four bones (linear blend skinning)
//!   instead of the head pose, opt-in per sim.
//! - [`body`]: collision with body parts given as distance fields
//!   (`collide::sdf`), a pass after each step, opt-in per sim.
//! - [`volume`]: a density grid between steps that pushes clumped particles
//!   apart without adding velocity, opt-in per sim.
//! - `sim` (feature `std`): owned buffers and the multi-threaded driver;
//!   `pool`: its parked helper threads.

pub mod body;
pub mod buffers;
pub mod follow;
#[cfg(feature = "std")]
pub mod follow_build;
pub mod follow_copy;
pub mod frame;
pub mod kernel;
pub mod lanes;
pub mod layout;
#[cfg(feature = "std")]
mod line_buf;
pub mod metrics;
pub mod params;
#[cfg(feature = "std")]
mod pool;
pub mod reference;
#[cfg(feature = "std")]
pub mod sim;
pub mod skin;
pub mod volume;

/// The clock and schedules (one clock for every solver: [`crate::clock`]).
pub use crate::clock::{Schedule, StepClock, StepPlan};
/// The head pose type (one rigid pose type for every solver).
pub use crate::math::Pose;
pub use body::{BodyPart, BodyStats, MAX_BODY_PARTS, PartFrame};
pub use buffers::{BufferLenError, StrandRest, StrandState, fill_rest};
pub use follow::{FollowError, FollowPlan, GUIDES_PER_STRAND};
#[cfg(feature = "std")]
pub use follow_build::FollowPlanBuf;
pub use frame::{MAX_COLLIDERS, StepFrame};
pub use layout::{LANES, LayoutError, MAX_PARTICLES, MIN_PARTICLES, StrandLayout, WIDE_LANES};
pub use params::{PassCounts, StepCoefs, StrandParams};
#[cfg(feature = "std")]
pub use sim::{BodyError, BodyField, StrandSim};
pub use skin::{BoneWeights, MAX_INFLUENCES, SkinError};
pub use volume::{VolumeParams, VolumeStats};

use crate::simd::{Isa, target_build};
use kernel::{ChunkRest, ChunkState, Scratch, step_chunk};

/// Runs the steps `frames` (in order) on every chunk of `state`, which may
/// be a sub-range of chunks starting at chunk `first` of the full `rest`
/// buffers. Strands never interact, so each chunk takes all its steps while
/// its rows are in L1 before the next chunk is loaded; the result is the
/// same as stepping every chunk once per frame.
///
/// Detects the CPU's instruction set on each call; a caller that steps
/// every frame can detect once ([`Isa::detect`]) and call
/// [`step_chunks_on`], as `StrandSim` (feature `std`) does.
///
/// # Panics
/// When the buffers are not whole chunks of `layout` or `rest` is shorter
/// than `state`'s range; [`StrandRest::check`] and [`StrandState::check`]
/// catch that up front.
pub fn step_chunks(
    layout: &StrandLayout,
    k: &StepCoefs,
    frames: &[StepFrame],
    rest: &StrandRest<'_>,
    first: usize,
    state: &mut StrandState<'_>,
) {
    step_chunks_on(Isa::detect(), layout, k, frames, rest, first, state);
}

/// [`step_chunks`] with the builds for `isa`: `step_chunks16_avx2` for
/// [`LANES`]-lane layouts where `isa` has AVX2, `step_chunks32_avx512`
/// for [`WIDE_LANES`]-lane layouts where it has AVX-512, the portable
/// build otherwise. Every choice gives the same bits.
///
/// # Panics
/// As [`step_chunks`].
pub fn step_chunks_on(
    isa: Isa,
    layout: &StrandLayout,
    k: &StepCoefs,
    frames: &[StepFrame],
    rest: &StrandRest<'_>,
    first: usize,
    state: &mut StrandState<'_>,
) {
    let wide = layout.lanes() == WIDE_LANES;
    match (wide, isa.avx512(), isa.avx2()) {
        // 32 lanes in two zmm registers per row: about 20 % less per frame
        // than AVX2 in `strand-bench` (docs/PERFORMANCE.md).
        (true, Some(t), _) => step_chunks32_avx512(t, layout, k, frames, rest, first, state),
        // 16 lanes in two ymm registers: 4.3 → 2.5 ms per frame in
        // `strand-bench` (docs/PERFORMANCE.md).
        (false, _, Some(t)) => step_chunks16_avx2(t, layout, k, frames, rest, first, state),
        (true, ..) => step_chunks_inline::<WIDE_LANES>(layout, k, frames, rest, first, state),
        (false, ..) => step_chunks_inline::<LANES>(layout, k, frames, rest, first, state),
    }
}

/// The lane count a layout should use for the fastest step with `isa`:
/// [`WIDE_LANES`] where it has AVX-512, else [`LANES`].
#[must_use]
pub fn lanes_for(isa: Isa) -> usize {
    if isa.avx512().is_some() {
        WIDE_LANES
    } else {
        LANES
    }
}

/// Whether this CPU runs the [`WIDE_LANES`] build (AVX-512 F, VL, DQ, BW):
/// `lanes_for(Isa::detect()) == WIDE_LANES`.
#[must_use]
pub fn wide_lanes_fit() -> bool {
    Isa::detect().avx512().is_some()
}

target_build! {
    /// [`step_chunks`] for [`LANES`]-lane layouts compiled for AVX2.
    /// Without FMA the compiler never fuses a multiply and an add, so every
    /// lane computes the same bits as on SSE2 (test
    /// `simd_and_portable_paths_agree_bit_for_bit`).
    fn step_chunks16_avx2(
        _token: Avx2,
        layout: &StrandLayout,
        k: &StepCoefs,
        frames: &[StepFrame],
        rest: &StrandRest<'_>,
        first: usize,
        state: &mut StrandState<'_>,
    ) {
        step_chunks_inline::<LANES>(layout, k, frames, rest, first, state);
    }
}

target_build! {
    /// [`step_chunks`] for [`WIDE_LANES`]-lane layouts compiled for
    /// AVX-512: a row of 32 lanes is two zmm registers, so the root-to-tip
    /// dependency chains of the local-shape and length sweeps carry twice
    /// the strands. Still no FMA, so the bits are the portable path's.
    fn step_chunks32_avx512(
        _token: Avx512,
        layout: &StrandLayout,
        k: &StepCoefs,
        frames: &[StepFrame],
        rest: &StrandRest<'_>,
        first: usize,
        state: &mut StrandState<'_>,
    ) {
        step_chunks_inline::<WIDE_LANES>(layout, k, frames, rest, first, state);
    }
}

#[inline(always)]
fn step_chunks_inline<const L: usize>(
    layout: &StrandLayout,
    k: &StepCoefs,
    frames: &[StepFrame],
    rest: &StrandRest<'_>,
    first: usize,
    state: &mut StrandState<'_>,
) {
    let n = layout.chunk_len();
    let chunks = state.x.len() / n;
    let mut scratch = Scratch::<L>::default();
    for c in 0..chunks {
        let (a, b) = (c * n, (c + 1) * n);
        let (ra, rb) = ((first + c) * n, (first + c + 1) * n);
        let r = ChunkRest {
            x: &rest.x[ra..rb],
            y: &rest.y[ra..rb],
            z: &rest.z[ra..rb],
            len: &rest.len[ra..rb],
            inv_len: &rest.inv_len[ra..rb],
        };
        let mut s = ChunkState {
            x: &mut state.x[a..b],
            y: &mut state.y[a..b],
            z: &mut state.z[a..b],
            px: &mut state.px[a..b],
            py: &mut state.py[a..b],
            pz: &mut state.pz[a..b],
        };
        for f in frames {
            step_chunk::<L>(layout.particles(), k, f, &r, &mut s, &mut scratch);
        }
    }
}

/// Runs one step on all strands, single-threaded.
pub fn step(
    layout: &StrandLayout,
    k: &StepCoefs,
    f: &StepFrame,
    rest: &StrandRest<'_>,
    state: &mut StrandState<'_>,
) {
    step_chunks(layout, k, core::slice::from_ref(f), rest, 0, state);
}
