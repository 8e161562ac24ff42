//! VRM node constraints (`VRMC_node_constraint`) applied in Godot, after body
//! animation and before the hair.
//!
//! [`ConstraintRunner`] evaluates tress-core's constraint solver over the
//! avatar's nodes as our loader numbered them; each node resolves to a
//! skeleton bone (its pose is read and written through the Skeleton3D), a
//! plain Node3D of the loaded scene (files without a skin), or nothing
//! (it keeps its file rest). [`TressNodeConstraints`] hosts it as a
//! SkeletonModifier3D placed before the hair, so it sees the animated pose
//! and the hair sees its result.

use godot::classes::{ISkeletonModifier3D, Node, Node3D, Skeleton3D, SkeletonModifier3D};
use godot::prelude::*;
use tress_core::constraint::{self, CycleError, LocalPose, NodeConstraint};
use tress_core::math::Quat;

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
    constraints: Vec<NodeConstraint>,
    order: Vec<usize>,
    parents: Vec<Option<usize>>,
    rest: Vec<Quat>,
    rest_pose: Vec<LocalPose>,
    targets: Vec<Target>,
    pose: Vec<LocalPose>,
    /// The nodes the solver reads: every constraint's source and destination
    /// and their ancestors (aim reads world positions). Only these are read
    /// back from the scene each frame; the rest keep their file rest.
    read: Vec<usize>,
}

impl core::fmt::Debug for ConstraintRunner {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ConstraintRunner")
            .field("constraints", &self.constraints.len())
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
        vrm: &tress_rig::Avatar,
        constraints: Vec<NodeConstraint>,
        skeleton: Option<&Gd<Skeleton3D>>,
        scene: Option<&Gd<Node>>,
    ) -> Result<Self, CycleError> {
        let parents: Vec<Option<usize>> = vrm.nodes.iter().map(|n| n.parent).collect();
        let mut order = vec![0; constraints.len()];
        let mut placed = vec![false; constraints.len()];
        constraint::evaluation_order(&constraints, &parents, &mut order, &mut placed)?;
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
        let rest_pose: Vec<LocalPose> = vrm
            .nodes
            .iter()
            .map(|n| LocalPose {
                translation: n.translation,
                rotation: n.rotation,
                scale: n.scale,
            })
            .collect();
        let mut wanted = vec![false; parents.len()];
        for c in &constraints {
            for start in [c.source, c.destination] {
                let mut cur = Some(start);
                while let Some(n) = cur.filter(|&n| n < wanted.len() && !wanted[n]) {
                    wanted[n] = true;
                    cur = parents[n];
                }
            }
        }
        let read = (0..wanted.len()).filter(|&n| wanted[n]).collect();
        Ok(Self {
            read,
            rest: vrm.nodes.iter().map(|n| n.rotation).collect(),
            pose: rest_pose.clone(),
            rest_pose,
            constraints,
            order,
            parents,
            targets,
        })
    }

    /// How many constraints run.
    #[must_use]
    pub fn len(&self) -> usize {
        self.constraints.len()
    }

    /// No constraints.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.constraints.is_empty()
    }

    /// Whether any constrained node is a skeleton bone.
    #[must_use]
    pub fn uses_bones(&self) -> bool {
        self.constraints.iter().any(|c| {
            [c.source, c.destination]
                .iter()
                .any(|&n| matches!(self.targets.get(n), Some(Target::Bone(_))))
        })
    }

    /// Reads the current local poses, evaluates every constraint in order and
    /// writes the destinations' rotations back.
    pub fn evaluate(&mut self, skeleton: Option<&mut Gd<Skeleton3D>>) {
        let mut skeleton = skeleton;
        for &i in &self.read {
            self.pose[i] = match &self.targets[i] {
                Target::Bone(b) => match skeleton.as_deref() {
                    Some(s) => {
                        let q = s.get_bone_pose_rotation(*b);
                        LocalPose {
                            translation: vec3(s.get_bone_pose_position(*b)),
                            rotation: Quat::from_xyzw(q.x, q.y, q.z, q.w).normalize(),
                            scale: vec3(s.get_bone_pose_scale(*b)),
                        }
                    }
                    None => self.rest_pose[i],
                },
                Target::Node(n) => {
                    let q = n.get_quaternion();
                    LocalPose {
                        translation: vec3(n.get_position()),
                        rotation: Quat::from_xyzw(q.x, q.y, q.z, q.w).normalize(),
                        scale: vec3(n.get_scale()),
                    }
                }
                Target::Rest => self.rest_pose[i],
            };
            if !self.pose[i].rotation.is_finite() || !self.pose[i].translation.is_finite() {
                self.pose[i] = self.rest_pose[i];
            }
        }
        constraint::apply(
            &self.constraints,
            &self.order,
            &self.parents,
            &self.rest,
            &mut self.pose,
        );
        for c in &self.constraints {
            let q = self.pose[c.destination].rotation;
            if !q.is_finite() {
                continue;
            }
            match &mut self.targets[c.destination] {
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

/// A constraint from names and words, for `TressAvatar.add_node_constraint`.
pub fn parse(
    vrm: &tress_rig::Avatar,
    destination: &str,
    source: &str,
    kind: &str,
    axis: &str,
    weight: f32,
) -> Result<NodeConstraint, String> {
    use tress_core::constraint::{AimAxis, ConstraintKind, RollAxis};
    let node = |name: &str| {
        vrm.node_by_name(name)
            .or_else(|| vrm.humanoid.as_ref().and_then(|h| h.bone(name)))
            .ok_or_else(|| format!("no node or humanoid bone named '{name}'"))
    };
    let kind = match kind {
        "rotation" => ConstraintKind::Rotation,
        "roll" => ConstraintKind::Roll(
            RollAxis::from_name(axis)
                .ok_or_else(|| format!("roll axis '{axis}' is not X, Y or Z"))?,
        ),
        "aim" => ConstraintKind::Aim(
            AimAxis::from_name(axis)
                .ok_or_else(|| format!("aim axis '{axis}' is not PositiveX … NegativeZ"))?,
        ),
        _ => {
            return Err(format!(
                "constraint kind '{kind}' is not rotation, roll or aim"
            ));
        }
    };
    if !weight.is_finite() {
        return Err("weight is not a number".to_owned());
    }
    Ok(NodeConstraint {
        destination: node(destination)?,
        source: node(source)?,
        kind,
        weight: weight.clamp(0.0, 1.0),
    })
}
