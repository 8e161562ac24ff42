//! Golden digests: fixed scenes stepped for a fixed number of frames, every
//! output bit hashed to one FNV-1a digest, and the committed values.
//!
//! `no_std` and allocation-free, so the same scenes run in the host tests
//! (`crates/tress-core/tests/golden.rs`), on aarch64 under qemu, in wasm32
//! (`tools/golden-wasm`) and on bare metal: every platform must compute
//! [`SPRING_DIGEST`] and [`STRAND_DIGEST`].
//!
//! - [`spring`]: the spring-chain scene.
//! - [`strand`]: the strand scene, stepped through the no_std strand API.
//! - [`Fnv`]: the hash.
//!
//! A digest that changes means the solver computes different bits: a
//! behaviour change that its commit must explain (and then update the
//! constant). `cargo test -p tress-core --test golden -- --nocapture` prints
//! the digests the current code computes.
#![no_std]
#![forbid(unsafe_code)]

mod fnv;
pub mod spring;
pub mod strand;

pub use fnv::Fnv;

/// The spring scene's digest, printed by the golden test itself on its
/// first run with `GOLDEN_PRINT=1 cargo test -p tress-core --test golden --
/// --nocapture`: on commit 684bc5e (before the pose, clock and SIMD
/// restructure) and again on 28af4fe (after it, the parent of the commit
/// adding the test), the same value both times. A different digest means
/// the spring solver's bits changed: a behaviour change its commit must
/// explain before updating this constant.
pub const SPRING_DIGEST: u64 = 0x4660_a297_31b9_25f0;

/// The strand scene's digest, printed by the golden test itself on its
/// first run with `GOLDEN_PRINT=1 cargo test -p tress-core --test golden --
/// --nocapture` on commit 28af4fe (the parent of the commit adding the
/// test; the strand clock and pose interpolation had just changed, so
/// there is no earlier value). As for [`SPRING_DIGEST`], a different
/// digest is a behaviour change its commit must explain.
pub const STRAND_DIGEST: u64 = 0x5c8d_4f73_7cf2_75be;

/// The spring scene's digest on aarch64, printed by the golden test under
/// `qemu-aarch64` (`tools/dev.sh golden`) on commit cc7b9ea. It differs
/// from [`SPRING_DIGEST`] (x86-64) because glam 0.34's NEON quaternion
/// products fuse multiply-adds where its SSE2 build rounds every product:
/// `vfmaq_f32` in `Quat * Quat`, and `Quat * Vec3` goes through
/// `Vec3A::cross`, a `vfmsq_f32` (glam `src/f32/neon/`). The strand scene
/// matches everywhere.
/// Pinned so aarch64's bits cannot drift unnoticed until the spring solver
/// stops relying on glam's per-ISA quaternion product.
pub const SPRING_DIGEST_AARCH64: u64 = 0x5a04_2a2f_ef0f_e1ca;

/// The spring scene's digest in wasm32 (no `simd128`, so glam's scalar
/// build), printed by `node tools/golden-wasm/run.mjs` on commit cc7b9ea.
/// glam's scalar `Quat * Quat` adds its four products left to right where
/// SSE2 adds them in pairs, so it differs from [`SPRING_DIGEST`]; pinned
/// for the same reason as [`SPRING_DIGEST_AARCH64`].
pub const SPRING_DIGEST_WASM32: u64 = 0xffc5_41b4_0dd2_8c50;

/// What [`spring_digest`] computes on this target: [`SPRING_DIGEST_AARCH64`]
/// on aarch64, [`SPRING_DIGEST_WASM32`] on wasm32, else [`SPRING_DIGEST`]
/// (checked on x86-64 only).
pub const SPRING_DIGEST_HERE: u64 = if cfg!(target_arch = "aarch64") {
    SPRING_DIGEST_AARCH64
} else if cfg!(target_arch = "wasm32") {
    SPRING_DIGEST_WASM32
} else {
    SPRING_DIGEST
};

/// The spring scene's digest with the default step configuration and the
/// lane width this CPU picks; equals [`SPRING_DIGEST_HERE`].
///
/// # Panics
///
/// If a chain did not move or a state went non-finite.
#[must_use]
pub fn spring_digest() -> u64 {
    spring::digest(tress_core::spring::StepConfig::default(), None)
}

/// The strand scene's digest from the portable build at
/// [`LANES`](tress_core::strand::LANES) strands per chunk; equals
/// [`STRAND_DIGEST`] on every platform.
///
/// # Panics
///
/// If a position went non-finite.
#[must_use]
pub fn strand_digest() -> u64 {
    strand::digest(tress_core::simd::Isa::Portable, tress_core::strand::LANES)
}
