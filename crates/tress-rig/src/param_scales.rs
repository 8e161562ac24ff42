//! Live multipliers on a rig's spring settings (stiffness, drag, gravity).
//!
//! An editor slider or a demo wants "stiffer" or "less gravity" for the
//! whole avatar without rebuilding the rig, which would drop the hair's
//! motion back to rest. [`SpringRig::set_param_scales`] recomputes every
//! joint's solver parameters from the avatar's own VRM values times
//! [`ParamScales`] and hands them to the running world, which keeps each
//! joint's position and velocity.

use tress_vrm::model::{Avatar, SpringJoint};

use crate::spring_rig::{RigError, SpringRig};

/// Multipliers on every joint's configured VRM values; 1 leaves them as
/// authored.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ParamScales {
    /// Times each joint's `stiffness`.
    pub stiffness: f32,
    /// Times each joint's `dragForce` (the product is clamped to 0..1).
    pub drag: f32,
    /// Times each joint's `gravityPower`.
    pub gravity: f32,
}

impl Default for ParamScales {
    fn default() -> Self {
        Self::ONE
    }
}

impl ParamScales {
    /// No change.
    pub const ONE: Self = Self {
        stiffness: 1.0,
        drag: 1.0,
        gravity: 1.0,
    };

    /// The scales with non-finite or negative factors replaced: NaN and
    /// infinities by 1 (no change), negatives by 0. A negative stiffness
    /// or drag would push the hair away from its shape, and a negative
    /// gravity factor is better said with the direction.
    #[must_use]
    pub fn sanitized(self) -> Self {
        let fix = |x: f32| if x.is_finite() { x.max(0.0) } else { 1.0 };
        Self {
            stiffness: fix(self.stiffness),
            drag: fix(self.drag),
            gravity: fix(self.gravity),
        }
    }

    /// `joint` with the scales applied (drag kept within 0..1).
    #[must_use]
    pub fn apply(self, joint: &SpringJoint) -> SpringJoint {
        let s = self.sanitized();
        SpringJoint {
            stiffness: joint.stiffness * s.stiffness,
            drag_force: (joint.drag_force * s.drag).clamp(0.0, 1.0),
            gravity_power: joint.gravity_power * s.gravity,
            ..*joint
        }
    }
}

impl SpringRig {
    /// Sets the live multipliers and re-derives every joint's parameters
    /// from `avatar` (the one the rig was built from) with them, keeping the
    /// simulated state: the hair carries on from where it is, only its
    /// physics change. Later joint edits
    /// ([`SpringRig::refresh_joint_params`]) and mode switches keep them.
    ///
    /// # Errors
    /// [`RigError::Invalid`] when `avatar` is not the rig's avatar (a chain
    /// or joint it names is missing); chains before the bad one are already
    /// updated.
    pub fn set_param_scales(
        &mut self,
        avatar: &Avatar,
        scales: ParamScales,
    ) -> Result<(), RigError> {
        self.scales = scales;
        self.refresh_joint_params(avatar)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spring_rig::RigOptions;
    use tress_core::math::quat;
    use tress_core::spring::{Mode, Pose};

    fn built_in() -> Avatar {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/tress_avatar.vrm");
        tress_vrm::load_path(path).expect("built-in avatar loads")
    }

    /// Every joint's (position, velocity), bit for bit.
    fn state(rig: &SpringRig) -> Vec<[u32; 6]> {
        let mut out = Vec::new();
        for rc in &rig.chains {
            for k in 0..rc.nodes.len() {
                let (x, v) = rig.world.joint_state(rc.index, k).expect("joint");
                out.push([x.x, x.y, x.z, v.x, v.y, v.z].map(f32::to_bits));
            }
        }
        out
    }

    /// Steps `frames` frames of a 60° head yaw that starts at once, so the
    /// hair is mid-swing (non-zero velocities) afterwards.
    fn swing(rig: &mut SpringRig, avatar: &Avatar, frames: usize) {
        let rest = rig.rest_poses(avatar);
        let head = avatar.node_by_name("Head").expect("Head");
        let turned: Vec<Pose> = rest
            .iter()
            .zip(&rig.frame_nodes)
            .map(|(p, n)| {
                if *n == Some(head) {
                    let q = glam::Quat::from_rotation_y(1.05);
                    Pose::new(p.pos, quat::mul(q, p.rot))
                } else {
                    *p
                }
            })
            .collect();
        for _ in 0..frames {
            rig.set_frame_poses(&turned);
            rig.advance(1.0 / 60.0);
        }
    }

    #[test]
    fn scale_of_one_leaves_the_state_bit_identical() {
        let a = built_in();
        for mode in [Mode::Improved, Mode::Earlier, Mode::VrmCompatible] {
            let opts = RigOptions {
                mode,
                ..RigOptions::default()
            };
            let mut plain = SpringRig::build(&a, &opts).expect("rig");
            let mut scaled = plain.clone();
            swing(&mut plain, &a, 6);
            swing(&mut scaled, &a, 6);
            scaled
                .set_param_scales(&a, ParamScales::ONE)
                .expect("scales");
            assert_eq!(state(&plain), state(&scaled), "{mode:?}: state changed");
            swing(&mut plain, &a, 30);
            swing(&mut scaled, &a, 30);
            assert_eq!(state(&plain), state(&scaled), "{mode:?}: motion changed");
        }
    }

    #[test]
    fn changing_scales_keeps_velocities_and_changes_the_motion() {
        let a = built_in();
        let mut plain = SpringRig::build(&a, &RigOptions::default()).expect("rig");
        swing(&mut plain, &a, 6);
        let before = state(&plain);
        assert!(
            before.iter().any(|s| f32::from_bits(s[3]) != 0.0),
            "the swing should leave the hair moving"
        );
        let mut scaled = plain.clone();
        let scales = ParamScales {
            stiffness: 0.3,
            drag: 0.5,
            gravity: 2.0,
        };
        scaled.set_param_scales(&a, scales).expect("scales");
        assert_eq!(
            before,
            state(&scaled),
            "the setter must not touch the state"
        );
        swing(&mut plain, &a, 20);
        swing(&mut scaled, &a, 20);
        assert_ne!(state(&plain), state(&scaled), "the scales had no effect");
    }

    #[test]
    fn joint_edits_and_mode_switches_keep_the_scales() {
        // A rig whose scales were set and then had its joint values
        // refreshed and its mode switched moves exactly like one given the
        // scales again afterwards: neither edit drops them.
        let a = built_in();
        let scales = ParamScales {
            stiffness: 2.5,
            drag: 0.5,
            gravity: 1.5,
        };
        let mut kept = SpringRig::build(&a, &RigOptions::default()).expect("rig");
        kept.set_param_scales(&a, scales).expect("scales");
        kept.refresh_joint_params(&a).expect("refresh");
        let earlier = RigOptions {
            mode: Mode::Earlier,
            ..RigOptions::default()
        };
        kept.set_mode(&a, &earlier).expect("mode");
        let mut again = kept.clone();
        again.set_param_scales(&a, scales).expect("scales again");
        swing(&mut kept, &a, 30);
        swing(&mut again, &a, 30);
        assert_eq!(state(&kept), state(&again), "an edit dropped the scales");
        let mut unscaled = SpringRig::build(&a, &earlier).expect("rig");
        swing(&mut unscaled, &a, 30);
        assert_ne!(state(&kept), state(&unscaled), "the scales had no effect");
    }

    #[test]
    fn scales_apply_to_vrm_values_with_drag_clamped() {
        let j = SpringJoint {
            node: 0,
            hit_radius: 0.02,
            stiffness: 1.5,
            gravity_power: 0.2,
            gravity_dir: glam::Vec3::NEG_Y,
            drag_force: 0.6,
            limit: None,
        };
        let s = ParamScales {
            stiffness: 2.0,
            drag: 3.0,
            gravity: 0.5,
        }
        .apply(&j);
        assert_eq!(
            (s.stiffness, s.drag_force, s.gravity_power),
            (3.0, 1.0, 0.1)
        );
        assert_eq!(s.hit_radius, j.hit_radius);
        let bad = ParamScales {
            stiffness: f32::NAN,
            drag: -1.0,
            gravity: f32::INFINITY,
        }
        .apply(&j);
        assert_eq!(
            (bad.stiffness, bad.drag_force, bad.gravity_power),
            (1.5, 0.0, 0.2)
        );
    }
}
