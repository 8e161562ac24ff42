//! `TressSpringHair`'s wind, pause and resume, teleport and anchor: the
//! node's properties handed to the solver (`tress_core::spring::wind`,
//! `teleport`, `SpringWorld::hold`, `resume` and `set_anchor`).
//!
//! A SkeletonModifier3D is called by its skeleton whatever its own
//! `process_mode`, so pausing is done here: a node that cannot process
//! holds the hair (carried with its bones and kept out of the colliders,
//! no time passing); when it can again, the solver carries the hair to
//! where the avatar is now and continues from there.

use godot::classes::Node3D;
use godot::prelude::*;
use tress_core::spring::{TeleportMode, TeleportPolicy, Wind};

use super::{FrameSource, TressSpringHair, crowd};
use crate::convert::{pose_and_scale, vec3};

/// Runtime state behind the properties.
#[derive(Default)]
pub(super) struct MotionState {
    /// The last update held the pose (the node could not process).
    held: bool,
    /// The solver frame the anchor node drives, once added.
    anchor_frame: Option<usize>,
}

impl TressSpringHair {
    /// The wind the properties describe.
    fn wind_settings(&self) -> Wind {
        Wind {
            direction: vec3(self.wind_direction),
            strength: self.wind_strength,
            gust: self.wind_gust,
            gust_seconds: self.wind_gust_seconds,
            turbulence: self.wind_turbulence,
            occlusion: self.wind_occlusion,
            seed: self.wind_seed as u32,
        }
    }

    /// Hands the wind to the running solver (no reset).
    pub(super) fn push_wind(&mut self) {
        crowd::settle(self);
        let wind = self.wind_settings();
        if !wind.direction.is_finite() || !wind.strength.is_finite() {
            godot_warn!(
                "TressSpringHair '{}': wind direction {} / strength {} is not finite; the wind is calm",
                self.base().get_name(),
                self.wind_direction,
                self.wind_strength
            );
        }
        if let Some(rig) = self.rig.as_mut() {
            rig.world.set_wind(wind);
        }
    }

    /// Hands the teleport angle and mode to the running solver.
    pub(super) fn push_teleport(&mut self) {
        crowd::settle(self);
        let policy = TeleportPolicy {
            angle: if self.teleport_angle > 0.0 {
                self.teleport_angle.to_radians()
            } else {
                f32::INFINITY
            },
            mode: if self.teleport_mode == 1 {
                TeleportMode::Reset
            } else {
                TeleportMode::KeepShape
            },
        };
        if let Some(rig) = self.rig.as_mut() {
            rig.world.set_teleport_policy(policy);
        }
    }

    /// Points the solver's anchor frame at the `anchor` node (adding the
    /// frame the first time), or turns the anchor off.
    pub(super) fn push_anchor(&mut self) {
        crowd::settle(self);
        let node = if self.anchor.is_empty() || !self.base().is_inside_tree() {
            None
        } else {
            let n = self.base().try_get_node_as::<Node3D>(&self.anchor);
            if n.is_none() {
                godot_warn!(
                    "TressSpringHair '{}': anchor '{}' is not a Node3D; the hair has no anchor",
                    self.base().get_name(),
                    self.anchor
                );
            }
            n
        };
        let Some(rig) = self.rig.as_mut() else {
            return;
        };
        let Some(node) = node else {
            let _ = rig.world.set_anchor(None);
            return;
        };
        let pose = pose_and_scale(&node.get_global_transform()).0;
        let index = match self.motion.anchor_frame {
            Some(i) => i,
            None => match rig.world.add_frame(pose) {
                Ok(i) => i,
                Err(e) => {
                    godot_error!("TressSpringHair: cannot add the anchor frame: {e}");
                    return;
                }
            },
        };
        self.motion.anchor_frame = Some(index);
        // The anchor's frame is the one after the rig's own.
        self.frame_sources.truncate(index);
        self.frame_sources.push(FrameSource::Node(node));
        rig.world.set_frame_pose(index, pose);
        let _ = rig.world.set_anchor(Some(index));
    }

    /// Everything the properties set, into a freshly built solver.
    pub(super) fn apply_motion_settings(&mut self) {
        self.motion.anchor_frame = None;
        self.push_wind();
        self.push_teleport();
        if !self.anchor.is_empty() {
            self.push_anchor();
        }
    }

    /// Whether the node cannot process (`process_mode` disabled, or a paused
    /// tree for a pausable node): then this update holds the hair
    /// (`SpringWorld::hold`: carried with its bones, kept out of the
    /// colliders, no time passing) instead of stepping it.
    pub(super) fn held_now(&mut self) -> bool {
        crowd::settle(self);
        if self.base().can_process() {
            return false;
        }
        self.motion.held = true;
        true
    }

    /// Whether this update continues after a pause: the last one held the
    /// pose, or engine frames passed without an update (a paused tree or
    /// skeleton). Clears the hold.
    pub(super) fn take_resume(&mut self, frame: u64) -> bool {
        let held = core::mem::take(&mut self.motion.held);
        let gap = self.last_frame.is_some_and(|last| frame > last + 1);
        held || gap
    }
}

#[godot_api(secondary)]
impl TressSpringHair {
    /// The share of the wind chain `chain` receives (its depth into the
    /// hairstyle and the occlusion), or -1 for a bad index.
    #[func]
    pub fn get_chain_wind_exposure(&mut self, chain: i32) -> f32 {
        crowd::settle(self);
        let (Some(rig), Ok(c)) = (self.rig.as_ref(), usize::try_from(chain)) else {
            return -1.0;
        };
        rig.chains
            .get(c)
            .and_then(|rc| rig.world.chain_wind_exposure(rc.index).ok())
            .unwrap_or(-1.0)
    }
}
