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
//! - [`frame`]: head pose and posed colliders for one step.
//! - [`schedule`]: fixed-step accumulator or per-frame steps.
//! - [`kernel`]: the chunked step; [`reference`]: the scalar one;
//!   [`lanes`]: the branch-free lane math the kernel inlines.
//! - [`metrics`]: length error and penetration counts.
//! - `sim` (feature `std`): owned buffers and the multi-threaded driver;
//!   `pool`: its parked helper threads.

pub mod buffers;
pub mod frame;
pub mod kernel;
pub mod lanes;
pub mod layout;
pub mod metrics;
pub mod params;
#[cfg(feature = "std")]
mod pool;
pub mod reference;
pub mod schedule;
#[cfg(feature = "std")]
pub mod sim;

pub use buffers::{BufferLenError, StrandRest, StrandState, fill_rest};
pub use frame::{HeadPose, MAX_COLLIDERS, StepFrame};
pub use layout::{LANES, LayoutError, MAX_PARTICLES, MIN_PARTICLES, StrandLayout, WIDE_LANES};
pub use params::{PassCounts, StepCoefs, StrandParams};
pub use schedule::{Schedule, StepClock, StepPlan};
#[cfg(feature = "std")]
pub use sim::StrandSim;

use kernel::{ChunkRest, ChunkState, Scratch, step_chunk};

/// Runs the steps `frames` (in order) on every chunk of `state`, which may
/// be a sub-range of chunks starting at chunk `first` of the full `rest`
/// buffers. Strands never interact, so each chunk takes all its steps while
/// its rows are in L1 before the next chunk is loaded; the result is the
/// same as stepping every chunk once per frame.
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
    step_chunks_on(CodePath::Fastest, layout, k, frames, rest, first, state);
}

/// Which build of the step [`step_chunks_on`] runs.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CodePath {
    /// AVX2 where the CPU has it (x86-64, feature `std`), else portable.
    Fastest,
    /// What the build's target features give (SSE2 on default x86-64).
    Portable,
}

/// [`step_chunks`] on a chosen code path (for the test that both agree).
#[doc(hidden)]
pub fn step_chunks_on(
    path: CodePath,
    layout: &StrandLayout,
    k: &StepCoefs,
    frames: &[StepFrame],
    rest: &StrandRest<'_>,
    first: usize,
    state: &mut StrandState<'_>,
) {
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    if path == CodePath::Fastest {
        if layout.lanes() == WIDE_LANES && wide_lanes_fit() {
            #[allow(unsafe_code)]
            // SAFETY: `step_chunks_avx512` only needs the CPU features it
            // enables, which `wide_lanes_fit` just detected at run time.
            // (32 lanes in two zmm registers per row: about 20 % less per
            // frame than AVX2 in `strand-bench`, docs/PERFORMANCE.md.)
            unsafe {
                step_chunks_avx512(layout, k, frames, rest, first, state);
            }
            return;
        }
        if layout.lanes() == LANES && std::is_x86_feature_detected!("avx2") {
            #[allow(unsafe_code)]
            // SAFETY: `step_chunks_avx2` only needs the CPU to support AVX2,
            // which was just detected at run time. (8-wide lanes: 4.3 → 2.5 ms
            // per frame in `strand-bench`, docs/PERFORMANCE.md.)
            unsafe {
                step_chunks_avx2(layout, k, frames, rest, first, state);
            }
            return;
        }
    }
    let _ = path;
    if layout.lanes() == WIDE_LANES {
        step_chunks_inline::<WIDE_LANES>(layout, k, frames, rest, first, state);
    } else {
        step_chunks_inline::<LANES>(layout, k, frames, rest, first, state);
    }
}

/// Whether this CPU runs the [`WIDE_LANES`] build (AVX-512 F, VL, DQ, BW):
/// the lane count a layout should use for the fastest step here.
#[cfg(feature = "std")]
#[must_use]
pub fn wide_lanes_fit() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512vl")
            && std::is_x86_feature_detected!("avx512dq")
            && std::is_x86_feature_detected!("avx512bw")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// A build of [`step_chunks_inline`] for `$lanes`-lane layouts with the CPU
/// features `$features`, entered only after run-time detection.
macro_rules! simd_build {
    ($(#[$doc:meta])* $name:ident, $features:literal, $lanes:expr) => {
        $(#[$doc])*
        #[cfg(all(feature = "std", target_arch = "x86_64"))]
        #[target_feature(enable = $features)]
        fn $name(
            layout: &StrandLayout,
            k: &StepCoefs,
            frames: &[StepFrame],
            rest: &StrandRest<'_>,
            first: usize,
            state: &mut StrandState<'_>,
        ) {
            step_chunks_inline::<{ $lanes }>(layout, k, frames, rest, first, state);
        }
    };
}

simd_build!(
    /// [`step_chunks`] compiled for AVX2. Without FMA the compiler never
    /// fuses a multiply and an add, so every lane computes the same bits as
    /// on SSE2 (test `simd_and_portable_paths_agree_bit_for_bit`).
    step_chunks_avx2,
    "avx2",
    LANES
);

simd_build!(
    /// [`step_chunks`] for [`WIDE_LANES`] layouts compiled for AVX-512: a
    /// row of 32 lanes is two zmm registers, so the root-to-tip dependency
    /// chains of the local-shape and length sweeps carry twice the strands.
    /// Still no FMA, so the bits are the portable path's.
    step_chunks_avx512,
    "avx2,avx512f,avx512vl,avx512dq,avx512bw",
    WIDE_LANES
);

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
