//! Tress rig: loaders and tools around tress-core.

pub mod avatar;
pub mod gltf_write;
