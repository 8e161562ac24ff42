//! Tress for Godot 4: GDExtension node classes over tress-core and tress-rig.
//!
//! This crate stays thin: conversions between glam and Godot types, and the
//! node classes. The motion and loading logic lives in the other crates,
//! where plain `cargo test` covers it.
//!
//! - [`avatar::TressAvatar`]: loads a `.vrm` at runtime, exposes its skeleton
//!   and plays humanoid clips retargeted onto it ([`animation`]).
//! - [`spring_hair::TressSpringHair`]: spring-chain hair, a SkeletonModifier3D,
//!   configured from a VRM file or by hand in the inspector.
//!   Hand-made chains come from [`inspector_rig`] and [`spring_hand`] (per
//!   chain settings); [`sim_convert`] builds them from Godot's
//!   SpringBoneSimulator3D.
//! - [`collider::TressCollider3D`]: a collision shape for hand-made rigs.
//! - [`constraints::TressNodeConstraints`]: VRM node constraints after
//!   animation, before the hair.
//! - [`strand_hair::TressStrandHair`]: strand hair drawn as camera-facing ribbons.
//! - [`editor_import::TressVrmImporter`]: `.vrm` files imported as scenes in
//!   the editor ([`vrm_import`] builds them), their springs kept in
//!   [`spring_config::TressSpringConfig`] resources.
//! - [`editor_gizmos`]: the editor plugin drawing collider and chain gizmos.
//!
//! The hair and collider nodes are tool classes: they run in the editor too.
//!
//! Built with gdext's `api-4-3` feature: runs on Godot 4.3 and newer
//! (tested with 4.6.3).

// gdext generates helper types for every class that cannot derive Debug.
#![allow(missing_debug_implementations)]

extern crate alloc;

pub mod animation;
pub mod avatar;
mod body_mesh;
pub mod collider;
pub mod constraints;
pub mod convert;
pub mod editor_gizmos;
pub mod editor_import;
mod files;
pub mod inspector_rig;
mod live;
mod model_scene;
pub mod sim_convert;
pub mod spring_config;
pub mod spring_hair;
pub mod spring_hand;
mod strand_follow;
pub mod strand_hair;
mod strand_lod;
mod strand_shading;
mod strand_skin;
pub mod vrm_import;

mod entry {
    // The one unsafe item of the crate; allowed here only.
    #![allow(unsafe_code)]
    use godot::prelude::*;

    struct TressExtension;

    // SAFETY: gdext requires `unsafe impl` for the entry point Godot calls when
    // it loads the library; it promises only that classes are registered
    // through gdext's macros, which is all this crate does.
    #[gdextension]
    unsafe impl ExtensionLibrary for TressExtension {}
}
