//! VRM node constraints (`VRMC_node_constraint`) over an avatar's nodes, ready
//! to evaluate every frame: everything about running them in an engine except
//! reading and writing the engine's poses.
//!
//! - [`ConstraintRig`]: the evaluation order, parents and rest poses. Each
//!   frame the engine feeds the local poses of
//!   [`nodes_to_read`](ConstraintRig::nodes_to_read) with
//!   [`set_pose`](ConstraintRig::set_pose) (non-finite poses fall back to
//!   rest), calls [`evaluate`](ConstraintRig::evaluate) and writes back
//!   [`destinations`](ConstraintRig::destinations).
//! - [`parse`]: a constraint from node names and words (a scripting call such
//!   as Godot's `TressAvatar.add_node_constraint`), or a [`ParseError`].

use core::fmt;

use glam::Quat;
use tress_core::constraint::{
    self, AimAxis, ConstraintKind, CycleError, LocalPose, NodeConstraint, RollAxis,
};
use tress_vrm::Avatar;
use tress_vrm::model::Node;

/// Constraints over an avatar's nodes, ready to evaluate every frame.
#[derive(Debug, Clone)]
pub struct ConstraintRig {
    constraints: Vec<NodeConstraint>,
    order: Vec<usize>,
    parents: Vec<Option<usize>>,
    rest: Vec<Quat>,
    rest_pose: Vec<LocalPose>,
    pose: Vec<LocalPose>,
    /// Every constraint's source and destination and their ancestors (aim
    /// reads world positions), ascending.
    read: Vec<usize>,
}

impl ConstraintRig {
    /// Orders `constraints` over the nodes of `avatar` (indices into
    /// `avatar.nodes`); every pose starts at the file's rest.
    ///
    /// # Errors
    /// When the constraints form a cycle (no valid evaluation order).
    pub fn new(avatar: &Avatar, constraints: Vec<NodeConstraint>) -> Result<Self, CycleError> {
        let parents: Vec<Option<usize>> = avatar.nodes.iter().map(|n| n.parent).collect();
        let mut order = vec![0; constraints.len()];
        let mut placed = vec![false; constraints.len()];
        constraint::evaluation_order(&constraints, &parents, &mut order, &mut placed)?;
        let rest_pose: Vec<LocalPose> = avatar.nodes.iter().map(Node::local_pose).collect();
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
            rest: avatar.nodes.iter().map(|n| n.rotation).collect(),
            pose: rest_pose.clone(),
            rest_pose,
            constraints,
            order,
            parents,
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

    /// The constraints, in the order given to [`new`](Self::new).
    #[must_use]
    pub fn constraints(&self) -> &[NodeConstraint] {
        &self.constraints
    }

    /// The nodes whose local pose the solver reads (ascending): every
    /// constraint's source and destination and their ancestors. The others
    /// keep their file rest.
    #[must_use]
    pub fn nodes_to_read(&self) -> &[usize] {
        &self.read
    }

    /// Sets a node's current local pose (the rotation is expected unit
    /// length); a non-finite rotation or translation puts the node at its
    /// rest pose instead. Out-of-range nodes are ignored.
    pub fn set_pose(&mut self, node: usize, pose: LocalPose) {
        let (Some(p), Some(rest)) = (self.pose.get_mut(node), self.rest_pose.get(node)) else {
            return;
        };
        *p = if pose.rotation.is_finite() && pose.translation.is_finite() {
            pose
        } else {
            *rest
        };
    }

    /// Puts a node at its rest pose (for nodes the engine cannot read).
    pub fn reset_pose(&mut self, node: usize) {
        if let (Some(p), Some(rest)) = (self.pose.get_mut(node), self.rest_pose.get(node)) {
            *p = *rest;
        }
    }

    /// A node's current local pose (`None` out of range).
    #[must_use]
    pub fn pose(&self, node: usize) -> Option<LocalPose> {
        self.pose.get(node).copied()
    }

    /// Evaluates every constraint in dependency order, writing the
    /// destinations' rotations into the current poses.
    pub fn evaluate(&mut self) {
        constraint::apply(
            &self.constraints,
            &self.order,
            &self.parents,
            &self.rest,
            &mut self.pose,
        );
    }

    /// `(destination node, local rotation)` of every constraint, in the order
    /// given to [`new`](Self::new) (a node driven by several constraints
    /// appears once per constraint, with its final rotation); non-finite
    /// rotations are left out, so the engine keeps its pose there.
    pub fn destinations(&self) -> impl Iterator<Item = (usize, Quat)> + '_ {
        self.constraints.iter().filter_map(|c| {
            let q = self.pose.get(c.destination)?.rotation;
            q.is_finite().then_some((c.destination, q))
        })
    }
}

/// Which node argument of [`parse`] named nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeArgument {
    /// The constrained node.
    Destination,
    /// The node it follows.
    Source,
}

/// Why [`parse`] refused its arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseError {
    /// `destination` or `source` is neither a node name nor a humanoid bone.
    UnknownNode {
        /// Which argument.
        argument: NodeArgument,
        /// The name given.
        name: String,
    },
    /// `kind` is not `rotation`, `roll` or `aim`.
    Kind(String),
    /// A roll constraint's `axis` is not `X`, `Y` or `Z`.
    RollAxis(String),
    /// An aim constraint's `axis` is not `PositiveX` … `NegativeZ`.
    AimAxis(String),
    /// `weight` is NaN or infinite.
    Weight,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnknownNode { name, .. } => write!(f, "no node or humanoid bone named '{name}'"),
            Self::Kind(kind) => write!(f, "constraint kind '{kind}' is not rotation, roll or aim"),
            Self::RollAxis(axis) => write!(f, "roll axis '{axis}' is not X, Y or Z"),
            Self::AimAxis(axis) => write!(f, "aim axis '{axis}' is not PositiveX … NegativeZ"),
            Self::Weight => write!(f, "weight is not a number"),
        }
    }
}

impl core::error::Error for ParseError {}

/// A constraint from names and words.
///
/// `destination` and `source` are node names or VRM humanoid bone names
/// (node names first); `kind` is `rotation` (`axis` ignored), `roll` (`axis`
/// `X`, `Y` or `Z`) or `aim` (`axis` `PositiveX` … `NegativeZ`); `weight` is
/// clamped to 0..=1.
///
/// # Errors
/// The first bad argument, checked in this order: `kind` (with its `axis`),
/// `weight`, `destination`, `source`.
pub fn parse(
    avatar: &Avatar,
    destination: &str,
    source: &str,
    kind: &str,
    axis: &str,
    weight: f32,
) -> Result<NodeConstraint, ParseError> {
    let node = |name: &str, argument| {
        avatar
            .node_by_name(name)
            .or_else(|| avatar.humanoid.as_ref().and_then(|h| h.bone(name)))
            .ok_or_else(|| ParseError::UnknownNode {
                argument,
                name: name.to_owned(),
            })
    };
    let kind = match kind {
        "rotation" => ConstraintKind::Rotation,
        "roll" => ConstraintKind::Roll(
            RollAxis::from_name(axis).ok_or_else(|| ParseError::RollAxis(axis.to_owned()))?,
        ),
        "aim" => ConstraintKind::Aim(
            AimAxis::from_name(axis).ok_or_else(|| ParseError::AimAxis(axis.to_owned()))?,
        ),
        _ => return Err(ParseError::Kind(kind.to_owned())),
    };
    if !weight.is_finite() {
        return Err(ParseError::Weight);
    }
    Ok(NodeConstraint {
        destination: node(destination, NodeArgument::Destination)?,
        source: node(source, NodeArgument::Source)?,
        kind,
        weight: weight.clamp(0.0, 1.0),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hand_rig::{self, HandBone, HandParams, HandSkeleton};
    use glam::Vec3;

    /// root ─┬─ src (at +X 1 m)
    ///       ├─ dst (at the origin, rest turned 0.3 rad about X)
    ///       └─ other
    /// with humanoid `leftHand` = src.
    fn avatar() -> Avatar {
        let bone = |name: &str, parent, translation, rotation| HandBone {
            name: name.into(),
            parent,
            translation,
            rotation,
            scale: Vec3::ONE,
        };
        let skeleton = HandSkeleton {
            name: "test".into(),
            bones: vec![
                bone("root", None, Vec3::ZERO, Quat::IDENTITY),
                bone("src", Some(0), Vec3::X, Quat::IDENTITY),
                bone("dst", Some(0), Vec3::ZERO, Quat::from_rotation_x(0.3)),
                bone("other", Some(0), Vec3::Y, Quat::IDENTITY),
            ],
        };
        let params = HandParams {
            stiffness: 1.0,
            drag: 0.5,
            gravity_power: 0.0,
            gravity_dir: Vec3::NEG_Y,
            hit_radius: 0.0,
        };
        let mut a = hand_rig::build(&skeleton, &[], params, &[]).unwrap().avatar;
        a.humanoid = Some(tress_vrm::Humanoid {
            bones: [("leftHand".to_owned(), 1)].into_iter().collect(),
        });
        a
    }

    const SRC: usize = 1;
    const DST: usize = 2;

    fn rotation(weight: f32) -> NodeConstraint {
        NodeConstraint {
            destination: DST,
            source: SRC,
            kind: ConstraintKind::Rotation,
            weight,
        }
    }

    fn posed(rig: &ConstraintRig, node: usize, rotation: Quat) -> LocalPose {
        LocalPose {
            rotation,
            ..rig.pose(node).unwrap()
        }
    }

    fn only_destination(rig: &ConstraintRig) -> Quat {
        let out: Vec<(usize, Quat)> = rig.destinations().collect();
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].0, DST);
        out[0].1
    }

    fn assert_near(a: Quat, b: Quat) {
        assert!(a.angle_between(b) < 1e-4, "{a:?} vs {b:?}");
    }

    #[test]
    fn rotation_at_half_weight_copies_half_the_source_turn() {
        let a = avatar();
        let mut rig = ConstraintRig::new(&a, vec![rotation(0.5)]).unwrap();
        assert_eq!(rig.len(), 1);
        assert_eq!(rig.nodes_to_read(), [0, SRC, DST]);
        let turn = Quat::from_rotation_y(1.0);
        let p = posed(&rig, SRC, turn);
        rig.set_pose(SRC, p);
        rig.evaluate();
        // The source's change since rest, half of it, on the destination's rest.
        assert_near(
            only_destination(&rig),
            a.nodes[DST].rotation * Quat::from_rotation_y(0.5),
        );
    }

    #[test]
    fn aim_turns_the_axis_toward_the_source() {
        let a = avatar();
        let aim = NodeConstraint {
            destination: DST,
            source: SRC,
            kind: ConstraintKind::Aim(AimAxis::PositiveZ),
            weight: 1.0,
        };
        let mut rig = ConstraintRig::new(&a, vec![aim]).unwrap();
        rig.evaluate();
        let towards = only_destination(&rig) * Vec3::Z;
        assert!((towards - Vec3::X).length() < 1e-4, "{towards}");
        // The source moves: the aim follows what was read.
        let moved = LocalPose {
            translation: Vec3::Y,
            ..rig.pose(SRC).unwrap()
        };
        rig.set_pose(SRC, moved);
        rig.evaluate();
        let towards = only_destination(&rig) * Vec3::Z;
        assert!((towards - Vec3::Y).length() < 1e-4, "{towards}");
    }

    #[test]
    fn a_cycle_is_refused() {
        let a = avatar();
        let back = NodeConstraint {
            destination: SRC,
            source: DST,
            ..rotation(1.0)
        };
        assert!(ConstraintRig::new(&a, vec![rotation(1.0), back]).is_err());
        let own = NodeConstraint {
            source: DST,
            ..rotation(1.0)
        };
        assert!(ConstraintRig::new(&a, vec![own]).is_err());
    }

    #[test]
    fn non_finite_poses_fall_back_to_rest() {
        let a = avatar();
        let mut rig = ConstraintRig::new(&a, vec![rotation(1.0)]).unwrap();
        let p = posed(&rig, SRC, Quat::from_rotation_y(1.0));
        rig.set_pose(SRC, p);
        rig.evaluate();
        assert!(only_destination(&rig).angle_between(a.nodes[DST].rotation) > 0.5);
        let nan = posed(&rig, SRC, Quat::from_xyzw(f32::NAN, 0.0, 0.0, 1.0));
        rig.set_pose(SRC, nan);
        assert_eq!(rig.pose(SRC).unwrap().rotation, a.nodes[SRC].rotation);
        rig.evaluate();
        assert_near(only_destination(&rig), a.nodes[DST].rotation);
        let far = LocalPose {
            translation: Vec3::new(f32::INFINITY, 0.0, 0.0),
            ..posed(&rig, SRC, Quat::from_rotation_y(1.0))
        };
        rig.set_pose(SRC, far);
        assert_eq!(rig.pose(SRC).unwrap().translation, a.nodes[SRC].translation);
        rig.set_pose(SRC, posed(&rig, SRC, Quat::from_rotation_y(1.0)));
        rig.reset_pose(SRC);
        assert_eq!(rig.pose(SRC).unwrap().rotation, a.nodes[SRC].rotation);
    }

    #[test]
    fn parse_reads_names_and_words() {
        let a = avatar();
        let c = parse(&a, "dst", "leftHand", "roll", "Y", 2.0).unwrap();
        assert_eq!(c.destination, DST);
        assert_eq!(c.source, SRC);
        assert_eq!(c.kind, ConstraintKind::Roll(RollAxis::Y));
        assert_eq!(c.weight, 1.0);
        let c = parse(&a, "dst", "src", "aim", "NegativeX", -1.0).unwrap();
        assert_eq!(c.kind, ConstraintKind::Aim(AimAxis::NegativeX));
        assert_eq!(c.weight, 0.0);
        let c = parse(&a, "dst", "src", "rotation", "whatever", 0.25).unwrap();
        assert_eq!(c.kind, ConstraintKind::Rotation);
        assert_eq!(c.weight, 0.25);
    }

    #[test]
    fn parse_errors_name_the_bad_argument() {
        let a = avatar();
        let e = parse(&a, "NoSuchBone", "src", "rotation", "", 1.0).unwrap_err();
        assert_eq!(
            e,
            ParseError::UnknownNode {
                argument: NodeArgument::Destination,
                name: "NoSuchBone".into(),
            }
        );
        assert_eq!(e.to_string(), "no node or humanoid bone named 'NoSuchBone'");
        let e = parse(&a, "dst", "rightHand", "rotation", "", 1.0).unwrap_err();
        assert!(matches!(
            e,
            ParseError::UnknownNode { argument: NodeArgument::Source, ref name } if name == "rightHand"
        ));
        let e = parse(&a, "dst", "src", "twist", "", 1.0).unwrap_err();
        assert_eq!(
            e.to_string(),
            "constraint kind 'twist' is not rotation, roll or aim"
        );
        let e = parse(&a, "dst", "src", "roll", "W", 1.0).unwrap_err();
        assert_eq!(e.to_string(), "roll axis 'W' is not X, Y or Z");
        let e = parse(&a, "dst", "src", "aim", "X", 1.0).unwrap_err();
        assert_eq!(e.to_string(), "aim axis 'X' is not PositiveX … NegativeZ");
        let e = parse(&a, "dst", "src", "rotation", "", f32::NAN).unwrap_err();
        assert_eq!(e, ParseError::Weight);
        assert_eq!(e.to_string(), "weight is not a number");
        // The kind is checked before the names.
        let e = parse(&a, "nope", "nope", "twist", "", 1.0).unwrap_err();
        assert!(matches!(e, ParseError::Kind(_)));
    }
}
