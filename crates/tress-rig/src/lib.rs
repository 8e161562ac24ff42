//! Tress rig: loaders and tools around [`tress_core`].
//!
//! - [`load_path`] / [`load_bytes`]: VRM 0.x and 1.0 (`.vrm`), glTF
//!   (`.glb`, `.gltf` with external buffers) and VRM Animation (`.vrma`)
//!   into the typed [`Avatar`]: nodes, meshes, skins, humanoid, meta,
//!   spring chains and colliders, node constraints, animations.
//! - [`fit`]: rigs a hair mesh as a spring chain; [`fit_colliders`]: fits
//!   spring colliders to the body and picks each chain's contact mode.
//! - [`anim`]: humanoid clips retargeted onto any VRM avatar; [`measure`]:
//!   hair quality on a standard run.
//! - [`Error`] names the JSON path and the fact; [`Warning`]s list what was
//!   tolerated.

extern crate alloc;

pub mod anim;
pub mod avatar;
pub mod bake;
pub mod cli;
pub mod error;
pub mod fit;
pub mod fit_colliders;
pub mod flat_locks;
pub mod glb_edit;
pub mod gltf_write;
pub mod groom;
mod json;
pub mod load;
pub mod measure;
pub mod model;

pub use error::{Error, ErrorKind, Warning};
pub use load::{load_bytes, load_path};
pub use model::*;
pub mod spring_rig;
