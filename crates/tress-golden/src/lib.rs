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

/// The spring scene's digest on every platform, printed by
/// `GOLDEN_PRINT=1 cargo test -p tress-core --test golden -- --nocapture`
/// on x86-64 and by `tools/dev.sh golden` under qemu-aarch64 and in
/// wasm32 (Node), the same value on all three, once the solvers did their
/// quaternion arithmetic in `tress_core::math::quat` (one order of
/// operations, no fused multiply-adds, normalisation by division). Before
/// that, x86-64 gave 0x4660a29731b925f0 (SSE2 adds a dot product's terms in
/// pairs), aarch64 0x5a042a2fef0fe1ca (NEON fuses multiply-adds) and wasm32
/// 0xffc541b40dd28c50 (glam's scalar build). A different digest means the
/// spring solver's bits changed: a behaviour change its commit must explain
/// before updating this constant.
///
/// Changed from 0xd96d1a170a85aa5c when contact onset was banded
/// (`spring::step::CONTACT_ONSET`): a push shallower than 3 mm removes only
/// its share of the velocity into the collider, so the scene's grazing
/// contacts keep part of theirs. Printed on x86-64 as below; the same value
/// under qemu-aarch64 and in wasm32 by `tools/dev.sh golden`.
///
/// Changed from 0x6e799a870c3d3130 when a segment whose root is inside a
/// sphere or capsule gained the tail term (`collide::prepared::with_tail`):
/// the scene's head-hung roots sit 9.4 mm inside its head sphere, so their
/// tails are now pushed out. Printed on x86-64 by
/// `GOLDEN_PRINT=1 cargo test -p tress-core --test golden -- --nocapture`,
/// and the same value under qemu-aarch64 and in wasm32 by
/// `tools/dev.sh golden` (92 passed, 0 failed).
///
/// Changed from 0x7b4dae7a8110ec83 when a collider holding a segment's root
/// began turning the end onto its surface about the root
/// (`collide::PreparedRound::rooted_end`) instead of leaving it where the
/// length projection pulled it back in: those head-hung tails rest on the
/// sphere now. Printed on x86-64 by the command above; the same value under
/// qemu-aarch64 and in wasm32 by `tools/dev.sh golden`.
///
/// Changed from 0x6cb358287c923829 when the scene's flat lock took the lock
/// twist (`spring::twist`, 4 cm wide; 0x270afc025f726479 with the twist
/// off) and its interpolated part a five-frame pause held with
/// `SpringWorld::hold` (0xaa698e651bf425d6 with those frames skipped
/// instead), so that both are checked on every platform; and from
/// 0x0528de2a8d0500cb when the hold took four walks instead of two and
/// walked VRM-compatible chains too; and from 0xc5ff5a3fec99f3cb when
/// the hold left the held hair at rest in its frame (velocities zeroed).
/// Printed on x86-64 by `GOLDEN_PRINT=1 cargo test -p tress-core --features
/// std --test golden -- --nocapture`; the same value under qemu-aarch64 and
/// in wasm32 by `tools/dev.sh golden`.
///
/// Changed from 0x17cc8c1b9fa833ae when the scene's flat lock took the bend
/// hold (`FlatLock::bend` at `spring::FLAT_BEND`, 300/s), so that the hold
/// is checked on every platform. Printed on x86-64 by the command above;
/// the same value under qemu-aarch64 and in wasm32 by `tools/dev.sh golden`.
///
/// Changed from 0x7df5d0bc01c0c132 when a segment whose root is another
/// segment's end took the contact lever floor `JOINED_ROOT_LEVER` (0.5)
/// instead of `MIN_LEVER` (0.2) (docs/log/2026-12-06-contact-lever.md).
/// Printed and checked as above.
pub const SPRING_DIGEST: u64 = 0x0a2d_9bfa_5010_9a0b;

/// The strand scene's digest, printed by the golden test itself with
/// `GOLDEN_PRINT=1 cargo test -p tress-core --features std --test golden --
/// --nocapture` on x86-64 (the same value under qemu-aarch64 and in wasm32 by
/// `tools/dev.sh golden`) when the local shape's rotation became two
/// reflections (2026-12-05: the same rotation, other roundings; first
/// recorded on commit 28af4fe as 0x5c8d4f737cf275be). As for
/// [`SPRING_DIGEST`], a different digest is a behaviour change its commit
/// must explain.
pub const STRAND_DIGEST: u64 = 0xdbfe_cd32_f1d6_2dea;

/// The spring scene's digest with the default step configuration and the
/// lane width this CPU picks; equals [`SPRING_DIGEST`] on every platform.
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
