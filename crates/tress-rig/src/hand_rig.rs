//! Spring chains set up by hand (in an engine's inspector) rather than read
//! from a VRM file: a skeleton's bones, chains named by root and end bone,
//! their joint values and colliders, turned into an [`Avatar`] so the same
//! [`SpringRig`](crate::spring_rig::SpringRig) serves VRM files and
//! hand-made rigs.
//!
//! - [`HandSkeleton`] / [`HandBone`]: the bones, their parents and rest
//!   transforms, as plain data read from the engine's skeleton.
//! - [`HandChain`] (paired by [`chains`]), [`HandParams`], [`HandCollider`]:
//!   what the inspector sets.
//! - [`HandChainSpec`] (with [`HandTail`], [`HandColliders`]): one chain with
//!   its own joint values (per joint where given), a simulated tip past its
//!   end bone, its colliders and contact kind, as Godot's
//!   SpringBoneSimulator3D sets a chain up.
//! - [`build`] (one set of values, every collider) and [`build_specs`]: the
//!   avatar ([`HandRig`]), or a [`HandRigError`] naming the chain or
//!   collider and the bone that is wrong.

use core::fmt;

use glam::{Quat, Vec3};
use tress_vrm::{
    Avatar, Collider, ColliderGroup, ColliderShape, Node, SpringChain, SpringJoint, SpringSystem,
};

/// A skeleton as plain data: its name (for messages) and its bones.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct HandSkeleton {
    /// Name of the skeleton, used in error messages.
    pub name: String,
    /// Bones, indexed as the engine numbers them.
    pub bones: Vec<HandBone>,
}

/// One bone: its name, parent and rest transform relative to the parent.
#[derive(Debug, Clone, PartialEq)]
pub struct HandBone {
    /// Bone name (unique in the skeleton).
    pub name: String,
    /// Index of the parent bone; `None` for a root.
    pub parent: Option<usize>,
    /// Rest translation.
    pub translation: Vec3,
    /// Rest rotation (unit quaternion).
    pub rotation: Quat,
    /// Rest scale.
    pub scale: Vec3,
}

/// A chain from `root` down to `end` (bone names; `end` descends from `root`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HandChain {
    /// First bone of the chain.
    pub root: String,
    /// Last bone of the chain.
    pub end: String,
}

/// Joint values every hand-made chain uses (VRMC_springBone meaning).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HandParams {
    /// Return force toward the rest direction.
    pub stiffness: f32,
    /// Velocity damping, 0..1.
    pub drag: f32,
    /// Gravity strength.
    pub gravity_power: f32,
    /// Gravity direction.
    pub gravity_dir: Vec3,
    /// Collision radius of each joint.
    pub hit_radius: f32,
}

/// A collider: on a bone (its shape in the bone's frame), or free (it
/// follows something the engine poses itself, e.g. a scene node; its shape
/// is in that frame).
#[derive(Debug, Clone, PartialEq)]
pub struct HandCollider {
    /// Name, used in error messages.
    pub name: String,
    /// Bone the collider follows; `None`: a free collider.
    pub bone: Option<String>,
    /// The shape in the frame it follows.
    pub shape: ColliderShape,
}

/// Where a chain's last bone swings toward when it is simulated too (it
/// has no child bone to swing toward): a tip `length` past it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum HandTail {
    /// The tip's offset in the end bone's own frame (metres, before the
    /// skeleton's scale).
    Offset(Vec3),
    /// `length` metres along the end bone's own direction from its parent
    /// (its rest translation turned into its own frame), as Godot's
    /// `BONE_DIRECTION_FROM_PARENT`.
    FromParent(f32),
}

/// Which colliders a chain meets, by [`HandCollider::name`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HandColliders {
    /// Every collider but these.
    AllExcept(Vec<String>),
    /// Only these.
    Only(Vec<String>),
}

/// One hand-made chain with its own settings.
#[derive(Debug, Clone, PartialEq)]
pub struct HandChainSpec {
    /// Name for messages and the rig; `None`: `{root}…{end}`.
    pub name: Option<String>,
    /// Where the chain was set (e.g. `chains[2]`), for messages.
    pub source: String,
    /// First bone of the chain.
    pub root: String,
    /// Last bone of the chain (the root itself is allowed with a `tail`).
    pub end: String,
    /// Joint values, root first; a list shorter than the chain repeats its
    /// last entry (one entry: the whole chain).
    pub joints: Vec<HandParams>,
    /// `Some`: the end bone is simulated too, toward this tip; `None`: it is
    /// only the tail of the bone before it.
    pub tail: Option<HandTail>,
    /// The colliders this chain meets.
    pub colliders: HandColliders,
    /// Contact at the tail points only (VRM's and Godot's rule) rather than
    /// along whole segments.
    pub tail_contact: bool,
    /// Bone whose space the VRM-compatible solver runs the chain in.
    pub center: Option<String>,
}

/// The avatar of a hand-made rig.
#[derive(Debug, Clone)]
pub struct HandRig {
    /// The bones as nodes (same indices), then one pseudo-node per free
    /// collider, named `__tress_collider_{k}`; every chain uses the one
    /// collider group holding every collider.
    pub avatar: Avatar,
    /// `(pseudo-node, index into the colliders given to [`build`])` for each
    /// free collider: the engine poses that node from its own object.
    pub free_colliders: Vec<(usize, usize)>,
    /// Chains with tail-point contact (bit i: chain i), for
    /// [`RigOptions::tail_chains`](crate::spring_rig::RigOptions::tail_chains).
    pub tail_chains: u128,
}

/// Why a hand-made rig could not be built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HandRigError {
    /// Root and end bone lists of different lengths.
    ChainCount {
        /// Root bones given.
        roots: usize,
        /// End bones given.
        ends: usize,
    },
    /// A chain names a bone the skeleton lacks (the root when both are missing).
    UnknownChainBone {
        /// Chain index.
        chain: usize,
        /// The missing bone.
        bone: String,
        /// Skeleton name.
        skeleton: String,
    },
    /// A chain's end bone does not descend from its root bone.
    NotDescendant {
        /// Chain index.
        chain: usize,
        /// Root bone.
        root: String,
        /// End bone.
        end: String,
    },
    /// A chain's root and end are the same bone.
    SameBone {
        /// Chain index.
        chain: usize,
        /// The bone.
        bone: String,
    },
    /// A collider follows a bone the skeleton lacks.
    UnknownColliderBone {
        /// Collider name.
        collider: String,
        /// The missing bone.
        bone: String,
        /// Skeleton name.
        skeleton: String,
    },
    /// A bone's parent index is outside the skeleton, or its parents loop.
    BadParent {
        /// The bone.
        bone: String,
    },
    /// A chain names a collider that is not in the list.
    UnknownChainCollider {
        /// Chain index.
        chain: usize,
        /// The collider name.
        collider: String,
    },
    /// A chain's simulated tip has no direction or no length.
    ZeroTail {
        /// Chain index.
        chain: usize,
        /// The end bone.
        bone: String,
    },
    /// A chain has no joint values at all.
    NoJointValues {
        /// Chain index.
        chain: usize,
    },
    /// A chain's centre bone is not in the skeleton.
    UnknownCenterBone {
        /// Chain index.
        chain: usize,
        /// The missing bone.
        bone: String,
        /// Skeleton name.
        skeleton: String,
    },
}

impl fmt::Display for HandRigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::ChainCount { roots, ends } => write!(
                f,
                "{roots} root bones but {ends} end bones: give one end per root"
            ),
            Self::UnknownChainBone {
                chain,
                bone,
                skeleton,
            } => write!(f, "chain {chain}: bone '{bone}' is not in {skeleton}"),
            Self::NotDescendant { chain, root, end } => write!(
                f,
                "chain {chain}: end bone '{end}' does not descend from root bone '{root}'"
            ),
            Self::SameBone { chain, bone } => write!(
                f,
                "chain {chain}: root and end are the same bone '{bone}'; a chain needs a child to swing toward"
            ),
            Self::UnknownColliderBone {
                collider,
                bone,
                skeleton,
            } => write!(
                f,
                "collider '{collider}': bone '{bone}' is not in {skeleton}"
            ),
            Self::BadParent { bone } => write!(
                f,
                "bone '{bone}' has a parent outside the skeleton or its parents form a loop"
            ),
            Self::UnknownChainCollider { chain, collider } => write!(
                f,
                "chain {chain}: collider '{collider}' is not one of the colliders"
            ),
            Self::ZeroTail { chain, bone } => write!(
                f,
                "chain {chain}: the tip past end bone '{bone}' has zero length or no direction (give a length > 0, or a bone with an offset from its parent)"
            ),
            Self::NoJointValues { chain } => write!(f, "chain {chain}: no joint values"),
            Self::UnknownCenterBone {
                chain,
                bone,
                skeleton,
            } => write!(
                f,
                "chain {chain}: centre bone '{bone}' is not in {skeleton}"
            ),
        }
    }
}

impl HandRigError {
    /// The index of the chain the error is about, if it is about one.
    #[must_use]
    pub fn chain(&self) -> Option<usize> {
        match self {
            Self::UnknownChainBone { chain, .. }
            | Self::NotDescendant { chain, .. }
            | Self::SameBone { chain, .. }
            | Self::UnknownChainCollider { chain, .. }
            | Self::ZeroTail { chain, .. }
            | Self::NoJointValues { chain }
            | Self::UnknownCenterBone { chain, .. } => Some(*chain),
            Self::ChainCount { .. } | Self::UnknownColliderBone { .. } | Self::BadParent { .. } => {
                None
            }
        }
    }
}

impl core::error::Error for HandRigError {}

/// Pairs `roots[i]` with `ends[i]`.
///
/// # Errors
/// [`HandRigError::ChainCount`] when the lists differ in length.
pub fn chains(roots: &[String], ends: &[String]) -> Result<Vec<HandChain>, HandRigError> {
    if roots.len() != ends.len() {
        return Err(HandRigError::ChainCount {
            roots: roots.len(),
            ends: ends.len(),
        });
    }
    Ok(roots
        .iter()
        .zip(ends)
        .map(|(root, end)| HandChain {
            root: root.clone(),
            end: end.clone(),
        })
        .collect())
}

/// Builds the avatar for `chains` on `skeleton`, every joint with `params`,
/// every chain colliding with every collider.
///
/// Chain `i` is named `{root}…{end}` with source path `root_bones[i]`.
///
/// # Errors
/// The first problem found, in this order: a bone's bad parent, then per
/// chain a missing bone, an end that does not descend from its root, or
/// root equal to end, then per collider a missing bone.
pub fn build(
    skeleton: &HandSkeleton,
    chains: &[HandChain],
    params: HandParams,
    colliders: &[HandCollider],
) -> Result<HandRig, HandRigError> {
    let specs: Vec<HandChainSpec> = chains
        .iter()
        .enumerate()
        .map(|(i, c)| HandChainSpec {
            name: None,
            source: format!("root_bones[{i}]"),
            root: c.root.clone(),
            end: c.end.clone(),
            joints: vec![params],
            tail: None,
            colliders: HandColliders::AllExcept(Vec::new()),
            tail_contact: false,
            center: None,
        })
        .collect();
    build_specs(skeleton, &specs, colliders)
}

/// Builds the avatar for `specs` on `skeleton`: each chain with its own
/// joint values, tip and colliders; each chain's source path is its
/// [`HandChainSpec::source`].
///
/// # Errors
/// The first problem found, in this order: a bone's bad parent, then per
/// chain a missing bone, an end that does not descend from its root, root
/// equal to end without a tip, a tip of zero length, no joint values, a
/// missing centre bone or an unknown collider, then per collider a missing
/// bone.
pub fn build_specs(
    skeleton: &HandSkeleton,
    specs: &[HandChainSpec],
    colliders: &[HandCollider],
) -> Result<HandRig, HandRigError> {
    let bones = &skeleton.bones;
    for b in bones {
        let mut cur = b.parent;
        let mut steps = 0;
        while let Some(p) = cur {
            if p >= bones.len() || steps >= bones.len() {
                return Err(HandRigError::BadParent {
                    bone: b.name.clone(),
                });
            }
            cur = bones[p].parent;
            steps += 1;
        }
    }
    let mut nodes: Vec<Node> = bones
        .iter()
        .map(|b| Node {
            name: b.name.clone(),
            parent: b.parent,
            children: Vec::new(),
            translation: b.translation,
            rotation: b.rotation,
            scale: b.scale,
            mesh: None,
            skin: None,
        })
        .collect();
    for i in 0..nodes.len() {
        if let Some(parent) = nodes[i].parent {
            nodes[parent].children.push(i);
        }
    }
    let find = |name: &str| bones.iter().position(|b| b.name == name);
    let mut springs = Vec::with_capacity(specs.len());
    let mut groups = Vec::with_capacity(specs.len());
    let mut tail_chains = 0u128;
    for (i, c) in specs.iter().enumerate() {
        let (Some(rb), Some(eb)) = (find(&c.root), find(&c.end)) else {
            let missing = if find(&c.root).is_none() {
                &c.root
            } else {
                &c.end
            };
            return Err(HandRigError::UnknownChainBone {
                chain: i,
                bone: missing.clone(),
                skeleton: skeleton.name.clone(),
            });
        };
        let mut path = vec![eb];
        let mut cur = eb;
        while cur != rb {
            let Some(parent) = bones[cur].parent else {
                return Err(HandRigError::NotDescendant {
                    chain: i,
                    root: c.root.clone(),
                    end: c.end.clone(),
                });
            };
            cur = parent;
            path.push(cur);
        }
        if path.len() < 2 && c.tail.is_none() {
            return Err(HandRigError::SameBone {
                chain: i,
                bone: c.root.clone(),
            });
        }
        path.reverse();
        let virtual_tail = match c.tail {
            None => None,
            Some(tail) => {
                Some(
                    tail_offset(&bones[eb], tail).ok_or_else(|| HandRigError::ZeroTail {
                        chain: i,
                        bone: c.end.clone(),
                    })?,
                )
            }
        };
        let Some(&last) = c.joints.last() else {
            return Err(HandRigError::NoJointValues { chain: i });
        };
        let center = match &c.center {
            None => None,
            Some(name) => Some(find(name).ok_or_else(|| HandRigError::UnknownCenterBone {
                chain: i,
                bone: name.clone(),
                skeleton: skeleton.name.clone(),
            })?),
        };
        groups.push(ColliderGroup {
            name: Some(c.source.clone()),
            colliders: chain_colliders(i, &c.colliders, colliders)?,
        });
        if c.tail_contact && i < 128 {
            tail_chains |= 1 << i;
        }
        springs.push(SpringChain {
            name: Some(
                c.name
                    .clone()
                    .unwrap_or_else(|| format!("{}…{}", c.root, c.end)),
            ),
            source_path: c.source.clone(),
            joints: path
                .into_iter()
                .enumerate()
                .map(|(k, node)| {
                    let p = c.joints.get(k).copied().unwrap_or(last);
                    SpringJoint {
                        node,
                        hit_radius: p.hit_radius,
                        stiffness: p.stiffness,
                        gravity_power: p.gravity_power,
                        gravity_dir: p.gravity_dir,
                        drag_force: p.drag,
                        limit: None,
                    }
                })
                .collect(),
            virtual_tail,
            center,
            collider_groups: vec![i],
            under_head: false,
            named_hair: false,
        });
    }
    let (spring_colliders, free_colliders) = place_colliders(skeleton, colliders, &mut nodes)?;
    let roots = (0..nodes.len())
        .filter(|&n| nodes[n].parent.is_none())
        .collect();
    let avatar = Avatar {
        springs: SpringSystem {
            chains: springs,
            collider_groups: groups,
            colliders: spring_colliders,
            bands: Vec::new(),
            locks: Vec::new(),
        },
        ..Avatar::skeleton_only(nodes, roots)
    };
    Ok(HandRig {
        avatar,
        free_colliders,
        tail_chains,
    })
}

/// The avatar's colliders, and `(pseudo-node, collider index)` per free one.
type Placed = (Vec<Collider>, Vec<(usize, usize)>);

/// The colliders as avatar colliders: on their bone, or on a new root
/// pseudo-node per free collider (returned with the collider's index).
fn place_colliders(
    skeleton: &HandSkeleton,
    colliders: &[HandCollider],
    nodes: &mut Vec<Node>,
) -> Result<Placed, HandRigError> {
    let mut placed = Vec::with_capacity(colliders.len());
    let mut free = Vec::new();
    for (ci, c) in colliders.iter().enumerate() {
        let node = match &c.bone {
            None => {
                nodes.push(Node {
                    name: format!("__tress_collider_{}", free.len()),
                    parent: None,
                    children: Vec::new(),
                    translation: Vec3::ZERO,
                    rotation: Quat::IDENTITY,
                    scale: Vec3::ONE,
                    mesh: None,
                    skin: None,
                });
                free.push((nodes.len() - 1, ci));
                nodes.len() - 1
            }
            Some(bone) => skeleton
                .bones
                .iter()
                .position(|b| b.name == *bone)
                .ok_or_else(|| HandRigError::UnknownColliderBone {
                    collider: c.name.clone(),
                    bone: bone.clone(),
                    skeleton: skeleton.name.clone(),
                })?,
        };
        placed.push(Collider {
            node,
            shape: c.shape,
        });
    }
    Ok((placed, free))
}

/// Indices into `colliders` that chain `chain` meets.
fn chain_colliders(
    chain: usize,
    choice: &HandColliders,
    colliders: &[HandCollider],
) -> Result<Vec<usize>, HandRigError> {
    let index = |name: &String| {
        colliders
            .iter()
            .position(|c| c.name == *name)
            .ok_or_else(|| HandRigError::UnknownChainCollider {
                chain,
                collider: name.clone(),
            })
    };
    match choice {
        HandColliders::Only(names) => {
            let mut out = Vec::with_capacity(names.len());
            for n in names {
                let k = index(n)?;
                if !out.contains(&k) {
                    out.push(k);
                }
            }
            out.sort_unstable();
            Ok(out)
        }
        HandColliders::AllExcept(names) => {
            let mut skip = Vec::with_capacity(names.len());
            for n in names {
                skip.push(index(n)?);
            }
            Ok((0..colliders.len()).filter(|k| !skip.contains(k)).collect())
        }
    }
}

/// The tip's offset in `end`'s frame, or `None` when it has no length or
/// no direction.
fn tail_offset(end: &HandBone, tail: HandTail) -> Option<Vec3> {
    let offset = match tail {
        HandTail::Offset(v) => v,
        HandTail::FromParent(length) => {
            (end.rotation.inverse() * end.translation).normalize_or_zero() * length
        }
    };
    (offset.is_finite() && offset.length_squared() > 1e-12).then_some(offset)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `names[i]` with parent `parents[i]`, each 0.1 m along +Y of its parent.
    fn skeleton(names: &[&str], parents: &[Option<usize>]) -> HandSkeleton {
        HandSkeleton {
            name: "Skeleton3D".into(),
            bones: names
                .iter()
                .zip(parents)
                .map(|(n, &parent)| HandBone {
                    name: (*n).into(),
                    parent,
                    translation: Vec3::new(0.0, 0.1, 0.0),
                    rotation: Quat::IDENTITY,
                    scale: Vec3::ONE,
                })
                .collect(),
        }
    }

    fn chain(root: &str, end: &str) -> HandChain {
        HandChain {
            root: root.into(),
            end: end.into(),
        }
    }

    const PARAMS: HandParams = HandParams {
        stiffness: 1.5,
        drag: 0.4,
        gravity_power: 0.2,
        gravity_dir: Vec3::NEG_Y,
        hit_radius: 0.02,
    };

    fn sphere() -> ColliderShape {
        ColliderShape::Sphere {
            offset: Vec3::new(0.0, 0.05, 0.0),
            radius: 0.08,
        }
    }

    /// head → a → b → c, plus a side bone under head.
    fn strand() -> HandSkeleton {
        skeleton(
            &["head", "a", "b", "c", "side"],
            &[None, Some(0), Some(1), Some(2), Some(0)],
        )
    }

    #[test]
    fn three_bone_chain_has_three_joints_with_the_params() {
        let rig = build(&strand(), &[chain("a", "c")], PARAMS, &[]).unwrap();
        let springs = &rig.avatar.springs;
        assert_eq!(springs.chains.len(), 1);
        let c = &springs.chains[0];
        assert_eq!(c.name.as_deref(), Some("a…c"));
        assert_eq!(c.source_path, "root_bones[0]");
        assert_eq!(c.collider_groups, [0]);
        let nodes: Vec<usize> = c.joints.iter().map(|j| j.node).collect();
        assert_eq!(nodes, [1, 2, 3]);
        for j in &c.joints {
            assert_eq!(j.stiffness, PARAMS.stiffness);
            assert_eq!(j.drag_force, PARAMS.drag);
            assert_eq!(j.gravity_power, PARAMS.gravity_power);
            assert_eq!(j.gravity_dir, PARAMS.gravity_dir);
            assert_eq!(j.hit_radius, PARAMS.hit_radius);
        }
        let a = &rig.avatar;
        assert_eq!(a.nodes.len(), 5);
        assert_eq!(a.roots, [0]);
        assert_eq!(a.nodes[0].children, [1, 4]);
        assert_eq!(a.nodes[2].parent, Some(1));
        assert_eq!(a.nodes[3].translation, Vec3::new(0.0, 0.1, 0.0));
        assert!(rig.free_colliders.is_empty());
    }

    #[test]
    fn hand_rig_builds_a_spring_rig() {
        let rig = build(&strand(), &[chain("a", "c")], PARAMS, &[]).unwrap();
        let spring = crate::spring_rig::SpringRig::build(
            &rig.avatar,
            &crate::spring_rig::RigOptions::default(),
        )
        .unwrap();
        assert_eq!(spring.chains.len(), 1);
        // The end bone is the tip: the bones above it are the ones turned.
        assert_eq!(spring.chains[0].nodes, [1, 2]);
    }

    #[test]
    fn unknown_bone_is_named() {
        let e = build(
            &strand(),
            &[chain("a", "c"), chain("a", "nope")],
            PARAMS,
            &[],
        )
        .unwrap_err();
        assert_eq!(
            e,
            HandRigError::UnknownChainBone {
                chain: 1,
                bone: "nope".into(),
                skeleton: "Skeleton3D".into(),
            }
        );
        assert_eq!(e.to_string(), "chain 1: bone 'nope' is not in Skeleton3D");
        // Both missing: the root is named.
        let e = build(&strand(), &[chain("x", "y")], PARAMS, &[]).unwrap_err();
        assert_eq!(e.to_string(), "chain 0: bone 'x' is not in Skeleton3D");
    }

    #[test]
    fn end_outside_the_root_is_refused() {
        let e = build(&strand(), &[chain("a", "side")], PARAMS, &[]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "chain 0: end bone 'side' does not descend from root bone 'a'"
        );
        let e = build(&strand(), &[chain("b", "b")], PARAMS, &[]).unwrap_err();
        assert!(matches!(e, HandRigError::SameBone { chain: 0, ref bone } if bone == "b"));
    }

    #[test]
    fn root_and_end_lists_must_pair() {
        let s = |v: &[&str]| v.iter().map(|&x| x.to_owned()).collect::<Vec<_>>();
        assert_eq!(
            chains(&s(&["a", "b"]), &s(&["c", "d"])).unwrap(),
            [chain("a", "c"), chain("b", "d")]
        );
        let e = chains(&s(&["a", "b"]), &s(&["c"])).unwrap_err();
        assert_eq!(
            e.to_string(),
            "2 root bones but 1 end bones: give one end per root"
        );
    }

    #[test]
    fn collider_on_a_bone_attaches_to_it() {
        let colliders = [
            HandCollider {
                name: "Skull".into(),
                bone: Some("head".into()),
                shape: sphere(),
            },
            HandCollider {
                name: "Free".into(),
                bone: None,
                shape: sphere(),
            },
        ];
        let rig = build(&strand(), &[chain("a", "c")], PARAMS, &colliders).unwrap();
        let s = &rig.avatar.springs;
        assert_eq!(s.colliders.len(), 2);
        assert_eq!(s.colliders[0].node, 0);
        assert_eq!(s.colliders[0].shape, sphere());
        // The free collider gets a pseudo-node after the bones.
        assert_eq!(s.colliders[1].node, 5);
        assert_eq!(rig.avatar.nodes[5].name, "__tress_collider_0");
        assert_eq!(rig.avatar.roots, [0, 5]);
        assert_eq!(rig.free_colliders, [(5, 1)]);
        assert_eq!(s.collider_groups.len(), 1);
        assert_eq!(s.collider_groups[0].colliders, [0, 1]);

        let bad = [HandCollider {
            name: "Chin".into(),
            bone: Some("jaw".into()),
            shape: sphere(),
        }];
        let e = build(&strand(), &[], PARAMS, &bad).unwrap_err();
        assert_eq!(
            e.to_string(),
            "collider 'Chin': bone 'jaw' is not in Skeleton3D"
        );
    }

    #[test]
    fn bad_parents_are_refused() {
        let out_of_range = skeleton(&["a", "b"], &[None, Some(7)]);
        let e = build(&out_of_range, &[], PARAMS, &[]).unwrap_err();
        assert_eq!(e, HandRigError::BadParent { bone: "b".into() });
        let looped = skeleton(&["a", "b"], &[Some(1), Some(0)]);
        assert!(matches!(
            build(&looped, &[], PARAMS, &[]),
            Err(HandRigError::BadParent { .. })
        ));
    }

    fn spec(root: &str, end: &str) -> HandChainSpec {
        HandChainSpec {
            name: None,
            source: "chains[0]".into(),
            root: root.into(),
            end: end.into(),
            joints: vec![PARAMS],
            tail: None,
            colliders: HandColliders::AllExcept(Vec::new()),
            tail_contact: false,
            center: None,
        }
    }

    fn named(name: &str, bone: Option<&str>) -> HandCollider {
        HandCollider {
            name: name.into(),
            bone: bone.map(Into::into),
            shape: sphere(),
        }
    }

    #[test]
    fn per_joint_values_repeat_the_last_entry() {
        let stiff = HandParams {
            stiffness: 4.0,
            ..PARAMS
        };
        let mut s = spec("a", "c");
        s.joints = vec![stiff, PARAMS];
        let rig = build_specs(&strand(), &[s], &[]).unwrap();
        let c = &rig.avatar.springs.chains[0];
        let got: Vec<f32> = c.joints.iter().map(|j| j.stiffness).collect();
        assert_eq!(got, [4.0, 1.5, 1.5]);
        assert_eq!(c.source_path, "chains[0]");
        let mut empty = spec("a", "c");
        empty.joints.clear();
        let e = build_specs(&strand(), &[empty], &[]).unwrap_err();
        assert_eq!(e, HandRigError::NoJointValues { chain: 0 });
    }

    #[test]
    fn a_tip_past_the_end_bone_simulates_it() {
        // `c` sits 0.1 m along +Y of `b`: from its parent, the tip
        // continues 0.05 m along +Y of `c`.
        let mut s = spec("a", "c");
        s.tail = Some(HandTail::FromParent(0.05));
        let rig = build_specs(&strand(), &[s.clone()], &[]).unwrap();
        let c = &rig.avatar.springs.chains[0];
        assert_eq!(c.virtual_tail, Some(Vec3::new(0.0, 0.05, 0.0)));
        let spring = crate::spring_rig::SpringRig::build(
            &rig.avatar,
            &crate::spring_rig::RigOptions::default(),
        )
        .unwrap();
        // The end bone turns too.
        assert_eq!(spring.chains[0].nodes, [1, 2, 3]);
        // One bone with a tip is a chain; without one it is refused.
        let mut one = spec("c", "c");
        one.tail = Some(HandTail::Offset(Vec3::new(0.0, 0.0, 0.1)));
        assert!(build_specs(&strand(), &[one], &[]).is_ok());
        let mut zero = spec("a", "c");
        zero.tail = Some(HandTail::FromParent(0.0));
        assert_eq!(
            build_specs(&strand(), &[zero], &[])
                .unwrap_err()
                .to_string(),
            "chain 0: the tip past end bone 'c' has zero length or no direction (give a length > 0, or a bone with an offset from its parent)"
        );
    }

    #[test]
    fn each_chain_meets_its_own_colliders() {
        let colliders = [named("Skull", Some("head")), named("Free", None)];
        let mut only = spec("a", "c");
        only.colliders = HandColliders::Only(vec!["Free".into()]);
        only.tail_contact = true;
        let mut except = spec("side", "side");
        except.tail = Some(HandTail::FromParent(0.1));
        except.colliders = HandColliders::AllExcept(vec!["Free".into()]);
        let all = spec("a", "b");
        let rig = build_specs(&strand(), &[only, except, all], &colliders).unwrap();
        let s = &rig.avatar.springs;
        let met: Vec<&[usize]> = s
            .chains
            .iter()
            .map(|c| &s.collider_groups[c.collider_groups[0]].colliders[..])
            .collect();
        assert_eq!(met, [&[1][..], &[0][..], &[0, 1][..]]);
        assert_eq!(rig.tail_chains, 0b001);
        let mut bad = spec("a", "c");
        bad.colliders = HandColliders::Only(vec!["Nope".into()]);
        assert_eq!(
            build_specs(&strand(), &[bad], &colliders)
                .unwrap_err()
                .to_string(),
            "chain 0: collider 'Nope' is not one of the colliders"
        );
    }

    #[test]
    fn centre_bone_must_exist() {
        let mut s = spec("a", "c");
        s.center = Some("head".into());
        let rig = build_specs(&strand(), &[s.clone()], &[]).unwrap();
        assert_eq!(rig.avatar.springs.chains[0].center, Some(0));
        s.center = Some("hips".into());
        assert_eq!(
            build_specs(&strand(), &[s], &[]).unwrap_err().to_string(),
            "chain 0: centre bone 'hips' is not in Skeleton3D"
        );
    }
}
