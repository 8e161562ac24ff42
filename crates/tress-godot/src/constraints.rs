//! VRM node constraints (`VRMC_node_constraint`) applied in Godot, after body
//! animation and before the hair.
//!
//! [`ConstraintRunner`] feeds tress-rig's [`ConstraintRig`] (evaluation
//! order, rest poses, what to read and write) from the scene: each of the
//! avatar's nodes, as our loader numbered them, resolves to a skeleton bone
//! (its pose is read and written through the Skeleton3D), a plain Node3D of
//! the loaded scene (files without a skin), or nothing (it keeps its file
//! rest). [`TressNodeConstraints`] hosts it as a SkeletonModifier3D placed
//! before the hair, so it sees the animated pose and the hair sees its
//! result.

use godot::classes::{ISkeletonModifier3D, Node, Node3D, Skeleton3D, SkeletonModifier3D};
use godot::prelude::*;
use tress_core::constraint::{CycleError, LocalPose, NodeConstraint};
use tress_core::math::Quat;
use tress_rig::constraint_rig::ConstraintRig;

use crate::convert::{quaternion, vec3};

/// Where a constrained (or ancestor) node lives in the Godot scene.
#[derive(Debug, Clone)]
enum Target {
    Bone(i32),
    Node(Gd<Node3D>),
    Rest,
}

/// Constraints over an avatar's nodes, ready to evaluate every frame.
pub struct ConstraintRunner {
    rig: ConstraintRig,
    /// Where each of the avatar's nodes lives in the scene.
    targets: Vec<Target>,
}

impl core::fmt::Debug for ConstraintRunner {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ConstraintRunner")
            .field("constraints", &self.rig.len())
            .finish_non_exhaustive()
    }
}

impl ConstraintRunner {
    /// Resolves every node of `vrm` to a bone of `skeleton` (by name) or a
    /// Node3D under `scene` (by name).
    ///
    /// # Errors
    /// When the constraints form a cycle (no valid evaluation order).
    pub fn new(
        vrm: &tress_vrm::Avatar,
        constraints: Vec<NodeConstraint>,
        skeleton: Option<&Gd<Skeleton3D>>,
        scene: Option<&Gd<Node>>,
    ) -> Result<Self, CycleError> {
        let rig = ConstraintRig::new(vrm, constraints)?;
        let targets = vrm
            .nodes
            .iter()
            .map(|n| {
                if let Some(s) = skeleton {
                    let b = s.find_bone(n.name.as_str());
                    if b >= 0 {
                        return Target::Bone(b);
                    }
                }
                scene
                    .and_then(|root| {
                        root.find_child_ex(n.name.as_str())
                            .recursive(true)
                            .owned(false)
                            .done()
                    })
                    .and_then(|c| c.try_cast::<Node3D>().ok())
                    .map_or(Target::Rest, Target::Node)
            })
            .collect();
        Ok(Self { rig, targets })
    }

    /// How many constraints run.
    #[must_use]
    pub fn len(&self) -> usize {
        self.rig.len()
    }

    /// No constraints.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.rig.is_empty()
    }

    /// Whether any constrained node is a skeleton bone.
    #[must_use]
    pub fn uses_bones(&self) -> bool {
        self.rig.constraints().iter().any(|c| {
            [c.source, c.destination]
                .iter()
                .any(|&n| matches!(self.targets.get(n), Some(Target::Bone(_))))
        })
    }

    /// Reads the current local poses, evaluates every constraint in order and
    /// writes the destinations' rotations back.
    pub fn evaluate(&mut self, skeleton: Option<&mut Gd<Skeleton3D>>) {
        let mut skeleton = skeleton;
        for k in 0..self.rig.nodes_to_read().len() {
            let i = self.rig.nodes_to_read()[k];
            let pose = match &self.targets[i] {
                Target::Bone(b) => skeleton.as_deref().map(|s| {
                    let q = s.get_bone_pose_rotation(*b);
                    LocalPose {
                        translation: vec3(s.get_bone_pose_position(*b)),
                        rotation: Quat::from_xyzw(q.x, q.y, q.z, q.w).normalize(),
                        scale: vec3(s.get_bone_pose_scale(*b)),
                    }
                }),
                Target::Node(n) => {
                    let q = n.get_quaternion();
                    Some(LocalPose {
                        translation: vec3(n.get_position()),
                        rotation: Quat::from_xyzw(q.x, q.y, q.z, q.w).normalize(),
                        scale: vec3(n.get_scale()),
                    })
                }
                Target::Rest => None,
            };
            match pose {
                Some(p) => self.rig.set_pose(i, p),
                None => self.rig.reset_pose(i),
            }
        }
        self.rig.evaluate();
        for (node, q) in self.rig.destinations() {
            match &mut self.targets[node] {
                Target::Bone(b) => {
                    if let Some(s) = skeleton.as_deref_mut() {
                        s.set_bone_pose_rotation(*b, quaternion(q));
                    }
                }
                Target::Node(n) => n.set_quaternion(quaternion(q)),
                Target::Rest => {}
            }
        }
    }
}

/// Applies an avatar's VRM node constraints to its skeleton after animation
/// and before the hair (TressAvatar adds it as the skeleton's first
/// modifier; it has nothing to configure).
#[derive(GodotClass)]
#[class(base = SkeletonModifier3D, init)]
pub struct TressNodeConstraints {
    runner: Option<ConstraintRunner>,
    base: Base<SkeletonModifier3D>,
}

#[godot_api]
impl ISkeletonModifier3D for TressNodeConstraints {
    fn process_modification(&mut self) {
        let Some(mut skel) = self
            .base()
            .get_parent()
            .and_then(|p| p.try_cast::<Skeleton3D>().ok())
        else {
            return;
        };
        if let Some(runner) = self.runner.as_mut() {
            runner.evaluate(Some(&mut skel));
        }
    }
}

#[godot_api]
impl TressNodeConstraints {
    /// Number of constraints evaluated each frame.
    #[func]
    pub fn constraint_count(&self) -> i32 {
        self.runner
            .as_ref()
            .map_or(0, |r| i32::try_from(r.len()).unwrap_or(i32::MAX))
    }
}

impl TressNodeConstraints {
    /// Installs the constraints to evaluate.
    pub fn set_runner(&mut self, runner: ConstraintRunner) {
        self.runner = Some(runner);
    }
}
