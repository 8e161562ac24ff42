//! Tress VRM: reading and writing glTF, VRM 0.x / 1.0 and VRM Animation.
//!
//! - [`load_path`] / [`load_bytes`]: VRM 0.x and 1.0 (`.vrm`), glTF
//!   (`.glb`, `.gltf` with external buffers) and VRM Animation (`.vrma`)
//!   into the typed [`Avatar`]: nodes, meshes, skins, humanoid, meta,
//!   spring chains and colliders, node constraints, animations;
//!   [`load_bytes_with`] reads external buffers through a closure (a game
//!   engine's virtual files) instead of the disk.
//! - [`gltf_out`]: every glTF Tress writes: a deterministic GLB builder and
//!   in-place edits of a file's own document.
//! - [`sniff::detect_format`]: what kind of file a byte string is (glTF,
//!   BVH, TressFX, a Godot scene, …), for readers handed the wrong one.
//! - [`Error`] names the JSON path and the fact; [`Warning`]s list what was
//!   tolerated.

extern crate alloc;

pub mod error;
pub mod gltf_out;
mod json;
pub mod load;
pub mod model;
pub mod sniff;

pub use error::{Error, ErrorKind, Warning};
pub use load::{load_bytes, load_bytes_with, load_path};
pub use model::*;
