//! Spring-chain hair: chains of bones that follow an attachment frame (the
//! head) a moment late, swing and settle in their authored arc.
//!
//! - [`params`]: per-joint physics, solver modes, stepping policy.
//! - [`chain`]: chain and joint descriptions.
//! - [`world`]: [`SpringWorld`], storage and the fixed-step driver.
//! - [`output`]: per-joint world position and minimal-twist rotation.
//! - [`wind`]: the deterministic wind field.
//! - [`teleport`]: teleport thresholds and what teleported chains do.
//! - [`limit`]: per-joint angle limits (`VRMC_springBone_limit`).
//! - [`band`]: neighbouring chains held to their rest spacing (skirts).
//! - [`fold`]: the cloth between two chains of a band hung in a flute,
//!   its joint placed from the chains.
//! - [`twist`]: flat locks' output rotations turned so bends go through the
//!   face.
//!
//! The step kernels live in `step` (Improved, Earlier, authored), `lanes`
//! (up to eight Improved or Earlier chains at once in vector lanes, the same bits as
//! `step`; its vector types in `lane_math`), `vrm` (VRM-compatible) and
//! `lanes_vrm` (up to eight VRM-compatible chains at once, the same bits
//! as `vrm`).

pub mod band;
mod band_twist;
pub mod chain;
pub mod fold;
mod lane_math;
mod lanes;
mod lanes_vrm;
pub mod limit;
pub mod output;
pub mod params;
mod step;
mod step_limited;
pub mod teleport;
pub mod twist;
mod vrm;
pub mod wind;
pub mod world;

/// The attachment frames' pose type (one type for every solver).
pub use crate::math::Pose;
pub use band::BandLink;
pub use chain::{ChainDesc, FlatLock, JointDesc};
pub use limit::{JointLimit, LimitShape};
pub use output::JointOutput;
pub use params::{ContactMode, H, JointParams, MAX_STIFFNESS, Mode, StepConfig};
pub use step::FLAT_BEND;
pub use teleport::{TeleportMode, TeleportPolicy};
pub use wind::Wind;
pub use world::{SetupError, SpringWorld};
