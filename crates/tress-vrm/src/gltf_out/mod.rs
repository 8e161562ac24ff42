//! glTF output: one module for everything Tress writes.
//!
//! - [`builder`]: a small deterministic GLB writer for documents made from
//!   scratch (the built-in avatars, retargeted clips).
//! - [`edit`]: appends to a file's own document, everything else kept
//!   (an exported animation).
//! - [`glb`]: the container and the editing primitives both use (open,
//!   append an accessor, seal, pack).
//! - [`channel`]: one animation channel as glTF accessors want it.

pub mod builder;
pub mod channel;
pub mod edit;
pub mod glb;

pub use builder::{GltfBuilder, Primitive};
pub use edit::append_animation;
