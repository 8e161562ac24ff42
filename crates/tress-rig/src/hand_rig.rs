//! Spring chains set up by hand (in an engine's inspector) rather than read
//! from a VRM file: a skeleton's bones, chains named by root and end bone,
//! one set of joint values and colliders, turned into an [`Avatar`] so the
//! same [`SpringRig`](crate::spring_rig::SpringRig) serves VRM files and
//! hand-made rigs.
//!
//! - [`HandSkeleton`] / [`HandBone`]: the bones, their parents and rest
//!   transforms, as plain data read from the engine's skeleton.
//! - [`HandChain`] (paired by [`chains`]), [`HandParams`], [`HandCollider`]:
//!   what the inspector sets.
//! - [`build`]: the avatar ([`HandRig`]), or a [`HandRigError`] naming the
//!   chain or collider and the bone that is wrong.

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
    let joint = |node: usize| SpringJoint {
        node,
        hit_radius: params.hit_radius,
        stiffness: params.stiffness,
        gravity_power: params.gravity_power,
        gravity_dir: params.gravity_dir,
        drag_force: params.drag,
        limit: None,
    };
    let mut springs = Vec::with_capacity(chains.len());
    for (i, c) in chains.iter().enumerate() {
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
        if path.len() < 2 {
            return Err(HandRigError::SameBone {
                chain: i,
                bone: c.root.clone(),
            });
        }
        path.reverse();
        springs.push(SpringChain {
            name: Some(format!("{}…{}", c.root, c.end)),
            source_path: format!("root_bones[{i}]"),
            joints: path.into_iter().map(joint).collect(),
            virtual_tail: None,
            center: None,
            collider_groups: vec![0],
            under_head: false,
            named_hair: false,
        });
    }
    let mut spring_colliders = Vec::with_capacity(colliders.len());
    let mut free_colliders = Vec::new();
    for (ci, c) in colliders.iter().enumerate() {
        let node = match &c.bone {
            None => {
                nodes.push(Node {
                    name: format!("__tress_collider_{}", free_colliders.len()),
                    parent: None,
                    children: Vec::new(),
                    translation: Vec3::ZERO,
                    rotation: Quat::IDENTITY,
                    scale: Vec3::ONE,
                    mesh: None,
                    skin: None,
                });
                free_colliders.push((nodes.len() - 1, ci));
                nodes.len() - 1
            }
            Some(bone) => find(bone).ok_or_else(|| HandRigError::UnknownColliderBone {
                collider: c.name.clone(),
                bone: bone.clone(),
                skeleton: skeleton.name.clone(),
            })?,
        };
        spring_colliders.push(Collider {
            node,
            shape: c.shape,
        });
    }
    let roots = (0..nodes.len())
        .filter(|&n| nodes[n].parent.is_none())
        .collect();
    let avatar = Avatar {
        springs: SpringSystem {
            chains: springs,
            collider_groups: vec![ColliderGroup {
                name: Some("inspector".into()),
                colliders: (0..spring_colliders.len()).collect(),
            }],
            colliders: spring_colliders,
        },
        ..Avatar::skeleton_only(nodes, roots)
    };
    Ok(HandRig {
        avatar,
        free_colliders,
    })
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
}
