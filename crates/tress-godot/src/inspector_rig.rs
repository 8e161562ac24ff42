//! Spring chains set up by hand in the inspector: the Skeleton3D's bones, the
//! chains named by root and end bone and the `TressCollider3D` nodes read into
//! plain data for tress-rig's `hand_rig` builder, so the
//! same `SpringRig` serves both VRM files and hand-made rigs.

use godot::classes::Skeleton3D;
use godot::prelude::*;
use tress_core::math::Quat;
use tress_rig::hand_rig::{self, HandBone, HandCollider, HandRigError, HandSkeleton};
use tress_vrm::Avatar;

pub use tress_rig::hand_rig::HandParams;

use crate::collider::TressCollider3D;
use crate::convert::vec3;

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
/// Names the chain and the bone when a name is missing or an end bone does
/// not descend from its root.
pub fn build(
    skel: &Gd<Skeleton3D>,
    roots: &PackedStringArray,
    ends: &PackedStringArray,
    p: HandParams,
    colliders: &[Gd<TressCollider3D>],
) -> Result<HandRig, HandRigError> {
    let names = |list: &PackedStringArray| -> Vec<String> {
        list.as_slice().iter().map(GString::to_string).collect()
    };
    let chains = hand_rig::chains(&names(roots), &names(ends))?;
    let skeleton = HandSkeleton {
        name: skel.get_name().to_string(),
        bones: (0..skel.get_bone_count())
            .map(|b| {
                let rest = skel.get_bone_rest(b);
                let q = rest.basis.orthonormalized().get_quaternion();
                HandBone {
                    name: skel.get_bone_name(b).to_string(),
                    parent: usize::try_from(skel.get_bone_parent(b)).ok(),
                    translation: vec3(rest.origin),
                    rotation: Quat::from_xyzw(q.x, q.y, q.z, q.w).normalize(),
                    scale: vec3(rest.basis.get_scale()),
                }
            })
            .collect(),
    };
    let plain: Vec<HandCollider> = colliders
        .iter()
        .map(|c| {
            let b = c.bind();
            HandCollider {
                name: c.get_name().to_string(),
                bone: (!b.bone_name.is_empty()).then(|| b.bone_name.to_string()),
                shape: b.shape_in_frame(),
            }
        })
        .collect();
    let rig = hand_rig::build(&skeleton, &chains, p, &plain)?;
    Ok(HandRig {
        collider_nodes: rig
            .free_colliders
            .iter()
            .map(|&(node, ci)| (node, colliders[ci].clone().upcast::<Node3D>()))
            .collect(),
        avatar: rig.avatar,
    })
}
