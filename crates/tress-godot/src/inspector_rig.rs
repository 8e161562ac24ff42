//! Spring chains set up by hand in the inspector: the Skeleton3D's bones, the
//! chains (root/end bone pairs sharing one set of joint values, then the
//! **Chains** resources with their own, read by [`crate::spring_hand`]) and
//! the `TressCollider3D` nodes read into plain data for tress-rig's
//! `hand_rig` builder, so the same `SpringRig` serves both VRM files and
//! hand-made rigs.

use godot::classes::Skeleton3D;
use godot::prelude::*;
use tress_core::math::Quat;
use tress_rig::hand_rig::{
    self, HandBone, HandChainSpec, HandCollider, HandColliders, HandSkeleton,
};
use tress_vrm::Avatar;

pub use tress_rig::hand_rig::HandParams;

use crate::collider::TressCollider3D;
use crate::convert::vec3;
use crate::spring_config::TressSpringChain;

/// The avatar and, for colliders that follow a node rather than a bone,
/// which node stands behind each pseudo-node of the avatar.
pub struct HandRig {
    /// Bones as nodes, then one pseudo-node per node-following collider.
    pub avatar: Avatar,
    /// (pseudo-node index, collider node).
    pub collider_nodes: Vec<(usize, Gd<Node3D>)>,
    /// Chains with tail-point contact (bit i: chain i).
    pub tail_chains: u128,
}

/// Builds the avatar on `skel`: first the `roots[i] … ends[i]` chains, all
/// with `p` and every collider, then one chain per entry of `chains`.
///
/// # Errors
/// Names the chain (as `root_bones[i]` or `chains[i]`) and the bone or
/// collider when a name is missing or an end bone does not descend from its
/// root.
pub fn build(
    skel: &Gd<Skeleton3D>,
    roots: &PackedStringArray,
    ends: &PackedStringArray,
    p: HandParams,
    chains: &[Gd<TressSpringChain>],
    colliders: &[Gd<TressCollider3D>],
) -> Result<HandRig, String> {
    let names = |list: &PackedStringArray| -> Vec<String> {
        list.as_slice().iter().map(GString::to_string).collect()
    };
    let pairs = hand_rig::chains(&names(roots), &names(ends)).map_err(|e| e.to_string())?;
    let mut specs: Vec<HandChainSpec> = pairs
        .into_iter()
        .enumerate()
        .map(|(i, c)| HandChainSpec {
            name: None,
            source: format!("root_bones[{i}]"),
            root: c.root,
            end: c.end,
            joints: vec![p],
            tail: None,
            colliders: HandColliders::AllExcept(Vec::new()),
            tail_contact: false,
            center: None,
        })
        .collect();
    for (i, c) in chains.iter().enumerate() {
        specs.push(crate::spring_hand::spec(i, c)?);
    }
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
    let rig = hand_rig::build_specs(&skeleton, &specs, &plain).map_err(|e| {
        // The error counts chains across both lists: name the property
        // entry instead of that count.
        let text = e.to_string();
        match e.chain().and_then(|c| specs.get(c)) {
            Some(s) => {
                let what = text.split_once(": ").map_or(text.as_str(), |(_, t)| t);
                format!("{} ('{}'…'{}'): {what}", s.source, s.root, s.end)
            }
            None => text,
        }
    })?;
    Ok(HandRig {
        tail_chains: rig.tail_chains,
        collider_nodes: rig
            .free_colliders
            .iter()
            .map(|&(node, ci)| (node, colliders[ci].clone().upcast::<Node3D>()))
            .collect(),
        avatar: rig.avatar,
    })
}
