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
use tress_core::constraint::{ConstraintKind, CycleError, LocalPose, NodeConstraint};
use tress_core::math::Quat;
use tress_rig::constraint_rig::ConstraintRig;

use crate::convert::{quaternion, vec3};
use crate::spring_config::TressSpringConfig;

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
                // Freed nodes read as rest and are not written: release
                // builds skip gdext's liveness checks (Cargo.toml).
                Target::Node(n) if !n.is_instance_valid() => None,
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
                Target::Node(n) if n.is_instance_valid() => n.set_quaternion(quaternion(q)),
                Target::Node(_) => {}
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
    /// Stored constraints (an imported `.vrm` sets these; TressAvatar hands
    /// its runner over directly): the node list they refer to, the same
    /// resource as the hair's.
    #[export]
    rest: Option<Gd<TressSpringConfig>>,
    /// Constrained node of each stored constraint (a node name of `rest`).
    #[export]
    destinations: PackedStringArray,
    /// Driving node of each.
    #[export]
    sources: PackedStringArray,
    /// `rotation`, `roll` or `aim`, each.
    #[export]
    kinds: PackedStringArray,
    /// Axis of each: `X`/`Y`/`Z` for roll, `PositiveX` … `NegativeZ` for
    /// aim, "" for rotation.
    #[export]
    axes: PackedStringArray,
    /// Weight of each, 0..1.
    #[export]
    weights: PackedFloat32Array,
    base: Base<SkeletonModifier3D>,
}

#[godot_api]
impl ISkeletonModifier3D for TressNodeConstraints {
    fn ready(&mut self) {
        if self.runner.is_none() && !self.destinations.is_empty() {
            self.build_stored();
        }
    }

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

    /// Stores `constraints` (over `avatar`'s nodes) as properties, with
    /// `rest` the node list they refer to, for a scene to save.
    pub fn store(
        &mut self,
        rest: Gd<TressSpringConfig>,
        avatar: &tress_vrm::Avatar,
        constraints: &[NodeConstraint],
    ) {
        let name = |n: usize| avatar.nodes.get(n).map_or("", |x| x.name.as_str());
        for c in constraints {
            let (kind, axis) = match c.kind {
                ConstraintKind::Rotation => ("rotation", String::new()),
                ConstraintKind::Roll(a) => ("roll", format!("{a:?}")),
                ConstraintKind::Aim(a) => ("aim", format!("{a:?}")),
            };
            self.destinations.push(name(c.destination));
            self.sources.push(name(c.source));
            self.kinds.push(kind);
            self.axes.push(axis.as_str());
            self.weights.push(c.weight);
        }
        self.rest = Some(rest);
    }

    /// Builds the runner from the stored constraints; logs what is wrong
    /// and runs none when they do not fit the scene.
    fn build_stored(&mut self) {
        let who = format!("TressNodeConstraints '{}'", self.base().get_name());
        let Some(rest) = self.rest.clone() else {
            godot_error!(
                "{who}: constraints stored without their node list (`rest`); none applied"
            );
            return;
        };
        let avatar = match crate::spring_config::rest_avatar(&rest.bind()) {
            Ok(a) => a,
            Err(e) => {
                godot_error!("{who}: {e}; none applied");
                return;
            }
        };
        let n = self.destinations.len();
        if [
            self.sources.len(),
            self.kinds.len(),
            self.axes.len(),
            self.weights.len(),
        ]
        .iter()
        .any(|&l| l != n)
        {
            godot_error!("{who}: the constraint arrays differ in length; none applied");
            return;
        }
        let mut list = Vec::with_capacity(n);
        for i in 0..n {
            match tress_rig::constraint_rig::parse(
                &avatar,
                &self.destinations.as_slice()[i].to_string(),
                &self.sources.as_slice()[i].to_string(),
                &self.kinds.as_slice()[i].to_string(),
                &self.axes.as_slice()[i].to_string(),
                self.weights.as_slice()[i],
            ) {
                Ok(c) => list.push(c),
                Err(e) => {
                    godot_error!("{who}: constraint {i}: {e}; none applied");
                    return;
                }
            }
        }
        let skel = self
            .base()
            .get_parent()
            .and_then(|p| p.try_cast::<Skeleton3D>().ok());
        let scene = self.base().get_owner();
        match ConstraintRunner::new(&avatar, list, skel.as_ref(), scene.as_ref()) {
            Ok(r) => self.runner = Some(r),
            Err(e) => godot_error!("{who}: {e}; none applied"),
        }
    }
}
