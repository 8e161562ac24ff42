//! Edits to a built [`SpringRig`] that keep its motion going: joint values,
//! the solver mode and collider shapes, as an editor's inspector changes
//! them while the hair swings.
//!
//! Each edit reads the new values from the [`Avatar`] the rig was built
//! from (the caller updates the avatar first), so a later
//! [`SpringRig::build`] from the same avatar gives the same rig.
//! Edits that need frames or chains the rig does not have are refused with
//! [`RigError::Invalid`]; the caller rebuilds then.

use tress_core::spring::{ContactMode, JointParams, Mode};
use tress_vrm::model::{Avatar, ColliderShape, SpringJoint};

use crate::spring_rig::{
    RigError, RigOptions, SpringRig, core_collider, improved_params, scale_of, vrm_params,
};

fn params_for(mode: Mode, j: &SpringJoint) -> JointParams {
    match mode {
        Mode::VrmCompatible => vrm_params(j),
        Mode::Improved | Mode::Earlier => improved_params(j),
    }
}

impl SpringRig {
    /// Re-reads every simulated joint's VRM values (stiffness, drag,
    /// gravity, hit radius) from `avatar`, times the rig's live parameter
    /// scales, under each chain's own mode; positions and velocities are
    /// kept.
    ///
    /// # Errors
    /// [`RigError::Invalid`] when `avatar` is not the one the rig was built
    /// from (a chain or joint is missing); chains before the bad one are
    /// already updated.
    pub fn refresh_joint_params(&mut self, avatar: &Avatar) -> Result<(), RigError> {
        for c in &self.chains {
            let spring = avatar.springs.chains.get(c.spring).ok_or_else(|| {
                RigError::Invalid(format!("{}: spring {} is gone", c.name, c.spring))
            })?;
            let mode = self
                .world
                .chain_desc(c.index)
                .map_err(|e| RigError::Invalid(format!("{}: {e}", c.name)))?
                .mode;
            for k in 0..c.nodes.len() {
                let j = spring
                    .joints
                    .get(k)
                    .ok_or_else(|| RigError::Invalid(format!("{}: joint {k} is gone", c.name)))?;
                self.world
                    .set_joint_params(c.index, k, params_for(mode, &self.scales.apply(j)))
                    .map_err(|e| RigError::Invalid(format!("{}: joint {k}: {e}", c.name)))?;
            }
        }
        Ok(())
    }

    /// Switches every chain to `opts.mode` (with that mode's contact and
    /// joint values) without a reset.
    ///
    /// # Errors
    /// [`RigError::Invalid`], leaving the rig as it was, when the switch
    /// changes what the rig is made of: a chain with a VRM center entering
    /// or leaving the VRM-compatible mode (it needs a center frame). Rebuild
    /// then. Flat locks are built in every mode and act in the improved one.
    pub fn set_mode(&mut self, avatar: &Avatar, opts: &RigOptions) -> Result<(), RigError> {
        let mode = opts.mode;
        for c in &self.chains {
            let old = self
                .world
                .chain_desc(c.index)
                .map_err(|e| RigError::Invalid(format!("{}: {e}", c.name)))?
                .mode;
            let vrm_flip = (old == Mode::VrmCompatible) != (mode == Mode::VrmCompatible);
            let has_center = avatar
                .springs
                .chains
                .get(c.spring)
                .is_some_and(|s| s.center.is_some());
            if vrm_flip && has_center {
                return Err(RigError::Invalid(format!(
                    "{}: a chain with a VRM center changes its frames with the mode",
                    c.name
                )));
            }
        }
        for c in &self.chains {
            let Ok(mut desc) = self.world.chain_desc(c.index) else {
                continue;
            };
            let tail_bit = c.spring < 128 && (opts.tail_chains >> c.spring) & 1 == 1;
            desc.mode = mode;
            desc.contact = if mode == Mode::VrmCompatible || tail_bit {
                ContactMode::Tail
            } else {
                opts.contact
            };
            desc.drape = opts.drape;
            desc.twist = opts.lock_twist;
            self.world
                .set_chain_desc(c.index, desc)
                .map_err(|e| RigError::Invalid(format!("{}: {e}", c.name)))?;
        }
        self.refresh_joint_params(avatar)
    }

    /// Replaces collider `index` (of `avatar.springs.colliders`, which must
    /// already hold `shape`'s node) with `shape`, from the next substep on.
    ///
    /// # Errors
    /// [`RigError::Invalid`] when there is no such collider.
    pub fn set_collider_shape(
        &mut self,
        avatar: &Avatar,
        index: usize,
        shape: &ColliderShape,
    ) -> Result<(), RigError> {
        let c = avatar
            .springs
            .colliders
            .get(index)
            .ok_or_else(|| RigError::Invalid(format!("collider {index} does not exist")))?;
        // Offsets follow the node's rest scale, as when the rig was built.
        let k = scale_of(&avatar.rest_world(), Some(c.node));
        self.world
            .set_collider(index, core_collider(shape, k))
            .map_err(|e| RigError::Invalid(format!("collider {index}: {e}")))
    }
}

#[cfg(test)]
mod tests {
    use glam::{Quat, Vec3};
    use tress_core::math::Pose;
    use tress_core::spring::Mode;
    use tress_vrm::model::ColliderShape;

    use crate::hand_rig::{self, HandBone, HandChain, HandCollider, HandParams, HandSkeleton};
    use crate::spring_rig::{RigOptions, SpringRig};

    /// A head and a four-bone lock hanging 0.1 m per bone, with one sphere
    /// on the head bone.
    fn lock() -> tress_vrm::Avatar {
        let bone = |name: &str, parent: Option<usize>, y: f32| HandBone {
            name: name.into(),
            parent,
            translation: Vec3::new(0.0, y, 0.0),
            rotation: Quat::IDENTITY,
            scale: Vec3::ONE,
        };
        let skeleton = HandSkeleton {
            name: "Skeleton".into(),
            bones: vec![
                bone("Head", None, 1.6),
                bone("L0", Some(0), 0.0),
                bone("L1", Some(1), -0.1),
                bone("L2", Some(2), -0.1),
                bone("L3", Some(3), -0.1),
            ],
        };
        let chains = [HandChain {
            root: "L0".into(),
            end: "L3".into(),
        }];
        let params = HandParams {
            stiffness: 1.0,
            drag: 0.4,
            gravity_power: 0.0,
            gravity_dir: Vec3::NEG_Y,
            hit_radius: 0.01,
        };
        let colliders = [HandCollider {
            name: "Ball".into(),
            bone: Some("Head".into()),
            shape: ColliderShape::Sphere {
                offset: Vec3::new(0.0, 0.0, 0.5),
                radius: 0.05,
            },
        }];
        hand_rig::build(&skeleton, &chains, params, &colliders)
            .expect("hand rig")
            .avatar
    }

    /// Tilts the head 57° about Z over `frames` 60 Hz frames; returns the
    /// lock's tip.
    fn swing(rig: &mut SpringRig, frames: usize) -> Vec3 {
        for f in 0..frames {
            let q = Quat::from_rotation_z(1.0 * f as f32 / frames as f32);
            rig.set_frame_poses(&[Pose::new(Vec3::new(0.0, 1.6, 0.0), q)]);
            rig.advance(1.0 / 60.0);
        }
        rig.outputs(0).last().expect("joints").tail
    }

    #[test]
    fn joint_edit_keeps_the_motion_and_changes_the_next_steps() {
        let mut avatar = lock();
        let mut a = SpringRig::build(&avatar, &RigOptions::default()).expect("rig");
        let mut b = a.clone();
        swing(&mut a, 20);
        swing(&mut b, 20);
        let before = a.world.joint_state(0, 2).expect("joint");
        for j in &mut avatar.springs.chains[0].joints {
            j.stiffness = 4.0;
        }
        b.refresh_joint_params(&avatar).expect("edit");
        // Same state right after the edit: nothing was reset.
        assert_eq!(b.world.joint_state(0, 2).expect("joint"), before);
        let (ta, tb) = (swing(&mut a, 10), swing(&mut b, 10));
        assert!(
            (ta - tb).length() > 1e-4,
            "a stiffer lock moves differently: {ta} vs {tb}"
        );
    }

    #[test]
    fn mode_switch_keeps_the_motion() {
        let avatar = lock();
        let mut rig = SpringRig::build(&avatar, &RigOptions::default()).expect("rig");
        swing(&mut rig, 20);
        let (x, v) = rig.world.joint_state(0, 2).expect("joint");
        assert!(v.length() > 1e-3, "the lock is swinging ({v})");
        let opts = RigOptions {
            mode: Mode::VrmCompatible,
            ..RigOptions::default()
        };
        rig.set_mode(&avatar, &opts).expect("switch");
        let desc = rig.world.chain_desc(0).expect("chain");
        assert_eq!(desc.mode, Mode::VrmCompatible);
        assert_eq!(desc.contact, tress_core::spring::ContactMode::Tail);
        let (x2, _) = rig.world.joint_state(0, 2).expect("joint");
        assert!(
            (x2 - x).length() < 0.02,
            "the joint stays where it was ({x} -> {x2}), not back at rest"
        );
    }

    #[test]
    fn collider_edit_moves_the_contact() {
        let mut avatar = lock();
        let mut rig = SpringRig::build(&avatar, &RigOptions::default()).expect("rig");
        let still = [Pose::new(Vec3::new(0.0, 1.6, 0.0), Quat::IDENTITY)];
        // A ball right on the lock's middle pushes it aside.
        let shape = ColliderShape::Sphere {
            offset: Vec3::new(0.02, -0.2, 0.0),
            radius: 0.05,
        };
        avatar.springs.colliders[0].shape = shape;
        rig.set_collider_shape(&avatar, 0, &shape).expect("edit");
        for _ in 0..60 {
            rig.set_frame_poses(&still);
            rig.advance(1.0 / 60.0);
        }
        let (x, _) = rig.world.joint_state(0, 1).expect("joint");
        let d = (x - Vec3::new(0.02, 1.4, 0.0)).length();
        assert!(d >= 0.05, "joint 1 is {d} m from the moved ball's centre");
        assert!(rig.set_collider_shape(&avatar, 5, &shape).is_err());
    }
}
