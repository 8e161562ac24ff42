//! Spring chains set up by hand in the inspector: a `tress_rig::Avatar` built
//! from the Skeleton3D's bones, the chains named by root and end bone, and
//! the `TressCollider3D` nodes, so the same `SpringRig` serves both VRM files
//! and hand-made rigs.

use godot::classes::Skeleton3D;
use godot::prelude::*;
use tress_core::math::{Quat, Vec3};
use tress_rig::{
    Avatar, Collider, ColliderGroup, Format, Node as RigNode, SpringChain, SpringJoint,
    SpringSystem,
};

use crate::collider::TressCollider3D;
use crate::convert::vec3;

/// Joint values every hand-made chain uses (VRMC_springBone meaning).
#[derive(Debug, Clone, Copy)]
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

/// The avatar and, for colliders that follow a node rather than a bone,
/// which node stands behind each pseudo-node of the avatar.
pub struct HandRig {
    /// Bones as nodes, then one pseudo-node per node-following collider.
    pub avatar: Avatar,
    /// (pseudo-node index, collider node).
    pub collider_nodes: Vec<(usize, Gd<Node3D>)>,
}

/// Builds the avatar for `roots[i] … ends[i]` chains on `skel`.
///
/// # Errors
/// A message naming the chain and the bone when a name is missing or an end
/// bone does not descend from its root.
pub fn build(
    skel: &Gd<Skeleton3D>,
    roots: &PackedStringArray,
    ends: &PackedStringArray,
    p: HandParams,
    colliders: &[Gd<TressCollider3D>],
) -> Result<HandRig, String> {
    if roots.len() != ends.len() {
        return Err(format!(
            "{} root bones but {} end bones: give one end per root",
            roots.len(),
            ends.len()
        ));
    }
    let count = skel.get_bone_count();
    let mut nodes: Vec<RigNode> = (0..count)
        .map(|b| {
            let rest = skel.get_bone_rest(b);
            let q = rest.basis.orthonormalized().get_quaternion();
            let s = rest.basis.get_scale();
            RigNode {
                name: skel.get_bone_name(b).to_string(),
                parent: usize::try_from(skel.get_bone_parent(b)).ok(),
                children: Vec::new(),
                translation: vec3(rest.origin),
                rotation: Quat::from_xyzw(q.x, q.y, q.z, q.w).normalize(),
                scale: vec3(s),
                mesh: None,
                skin: None,
            }
        })
        .collect();
    for i in 0..nodes.len() {
        if let Some(parent) = nodes[i].parent {
            nodes[parent].children.push(i);
        }
    }
    let joint = |node: usize| SpringJoint {
        node,
        hit_radius: p.hit_radius,
        stiffness: p.stiffness,
        gravity_power: p.gravity_power,
        gravity_dir: p.gravity_dir,
        drag_force: p.drag,
    };
    let mut chains = Vec::new();
    for i in 0..roots.len() {
        let (root, end) = (
            roots.get(i).unwrap_or_default(),
            ends.get(i).unwrap_or_default(),
        );
        let rb = skel.find_bone(&root);
        let eb = skel.find_bone(&end);
        if rb < 0 || eb < 0 {
            return Err(format!(
                "chain {i}: bone '{}' is not in {}",
                if rb < 0 { &root } else { &end },
                skel.get_name()
            ));
        }
        let mut path = vec![eb as usize];
        let mut cur = eb;
        while cur != rb {
            cur = skel.get_bone_parent(cur);
            if cur < 0 {
                return Err(format!(
                    "chain {i}: end bone '{end}' does not descend from root bone '{root}'"
                ));
            }
            path.push(cur as usize);
        }
        if path.len() < 2 {
            return Err(format!(
                "chain {i}: root and end are the same bone '{root}'; a chain needs a child to swing toward"
            ));
        }
        path.reverse();
        chains.push(SpringChain {
            name: Some(format!("{root}…{end}")),
            source_path: format!("root_bones[{i}]"),
            joints: path.into_iter().map(joint).collect(),
            virtual_tail: None,
            center: None,
            collider_groups: vec![0],
            under_head: false,
            named_hair: false,
        });
    }
    let mut springs_colliders = Vec::new();
    let mut collider_nodes = Vec::new();
    for c in colliders {
        let b = c.bind();
        let node = if b.bone_name.is_empty() {
            nodes.push(RigNode {
                name: format!("__tress_collider_{}", collider_nodes.len()),
                parent: None,
                children: Vec::new(),
                translation: Vec3::ZERO,
                rotation: Quat::IDENTITY,
                scale: Vec3::ONE,
                mesh: None,
                skin: None,
            });
            collider_nodes.push((nodes.len() - 1, c.clone().upcast::<Node3D>()));
            nodes.len() - 1
        } else {
            let bone = skel.find_bone(&b.bone_name);
            if bone < 0 {
                return Err(format!(
                    "collider '{}': bone '{}' is not in {}",
                    c.get_name(),
                    b.bone_name,
                    skel.get_name()
                ));
            }
            bone as usize
        };
        springs_colliders.push(Collider {
            node,
            shape: b.shape_in_frame(),
        });
    }
    let roots_list = (0..nodes.len())
        .filter(|&n| nodes[n].parent.is_none())
        .collect();
    let avatar = Avatar {
        format: Format::Gltf,
        nodes,
        roots: roots_list,
        meshes: Vec::new(),
        skins: Vec::new(),
        materials: Vec::new(),
        humanoid: None,
        meta: None,
        springs: SpringSystem {
            chains,
            collider_groups: vec![ColliderGroup {
                name: Some("inspector".into()),
                colliders: (0..springs_colliders.len()).collect(),
            }],
            colliders: springs_colliders,
        },
        constraints: Vec::new(),
        constraint_order: Vec::new(),
        animations: Vec::new(),
        warnings: Vec::new(),
    };
    Ok(HandRig {
        avatar,
        collider_nodes,
    })
}
