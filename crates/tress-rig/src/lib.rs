//! Tress rig: what an engine needs at run time to put Tress on a VRM avatar.
//!
//! - [`spring_rig`]: an [`Avatar`](tress_vrm::Avatar)'s springs and colliders
//!   as a ready [`tress_core::spring::SpringWorld`], frames keyed by node.
//! - [`param_scales`]: live multipliers on every joint's stiffness, drag
//!   and gravity, applied without a reset.
//! - [`hand_rig`]: spring chains set up by hand (bone names, joint values,
//!   colliders on bones) as an avatar the same spring rig takes.
//! - [`plain_rig`]: plain glTF humanoids: a bone map by name or JSON, chains
//!   declared by root and end bone or found dangling under the head.
//! - [`folds`]: the bands' fold joints placed from their chains after a
//!   step, as local poses to write.
//! - [`live_edit`]: joint values, solver mode and collider shapes changed
//!   on a running spring rig without resetting its motion.
//! - [`constraint_rig`]: VRM node constraints evaluated over an engine's
//!   poses each frame, and parsed from names and words.
//! - [`flat_locks`]: each spring bone's lock shape read from the skinned mesh.
//! - [`skin`]: which vertices are hair and which are body, and the one
//!   linear-blend skinning every measurement and check uses.
//! - [`fit_colliders`]: spring colliders fitted to the body, contact per chain.
//! - [`anim`]: humanoid clips sampled and retargeted onto any VRM avatar,
//!   with their checks.
//! - [`groom`]: strand grooms (TressFX `.tfx`, OBJ polylines, procedural).

extern crate alloc;

pub mod anim;
pub mod bend_hold;
pub mod constraint_rig;
pub mod fit_colliders;
pub mod flat_locks;
pub mod folds;
pub mod groom;
pub mod hand_rig;
pub mod live_edit;
pub mod param_scales;
pub mod plain_rig;
pub mod skin;
pub mod spring_rig;
