//! Putting a [`HairFit`] into an [`Avatar`], and taking it back out.
//!
//! [`apply`] only appends (nodes after the last node, a skin after the last
//! skin, a chain after the last chain) and records what it replaced (the
//! mesh node's skin, the primitives' old weights), so [`undo`] can restore
//! the original exactly and every existing index stays valid in between.

use alloc::collections::BTreeSet;

use super::{FittedJoint, HairFit};
use tress_vrm::model::{Avatar, Node, Skin, SpringChain, SpringJoint};

/// A primitive's skin attributes before the fit: `(JOINTS_0, WEIGHTS_0)`.
pub type OldWeights = (Vec<[u16; 4]>, Vec<glam::Vec4>);

/// What [`apply`] changed, for [`undo`].
#[derive(Debug, Clone, PartialEq)]
pub struct Applied {
    /// Index of the first new node (joints, then the tail).
    pub first_node: usize,
    /// Index of the new skin.
    pub skin: usize,
    /// Index of the new spring chain.
    pub chain: usize,
    /// The attachment node the chain hangs from.
    pub attachment: usize,
    /// The skinned mesh node and the skin it had.
    pub mesh_node: (usize, Option<usize>),
    /// The mesh and its primitives' previous `(joints, weights)`.
    pub previous: (usize, Vec<OldWeights>),
}

/// Collider groups the fitted chain collides with: every group with a
/// collider on a node that no spring moves (head and body colliders, not
/// colliders that ride on other hair).
#[must_use]
pub fn body_collider_groups(avatar: &Avatar) -> Vec<usize> {
    let spring_nodes: BTreeSet<usize> = avatar
        .springs
        .chains
        .iter()
        .flat_map(|c| c.joints.iter().map(|j| j.node))
        .collect();
    avatar
        .springs
        .collider_groups
        .iter()
        .enumerate()
        .filter(|(_, g)| {
            g.colliders.iter().any(|&c| {
                avatar
                    .springs
                    .colliders
                    .get(c)
                    .is_some_and(|c| !spring_nodes.contains(&c.node))
            })
        })
        .map(|(i, _)| i)
        .collect()
}

fn spring_joint(node: usize, j: &FittedJoint) -> SpringJoint {
    SpringJoint {
        node,
        hit_radius: j.spring.hit_radius,
        stiffness: j.spring.stiffness,
        gravity_power: j.spring.gravity_power,
        gravity_dir: j.spring.gravity_dir,
        drag_force: j.spring.drag_force,
        limit: None,
    }
}

/// The chain as it will appear in `avatar` once the joints start at node
/// `first_node` (shared with the GLB writer so file and model agree).
#[must_use]
pub fn fitted_chain(avatar: &Avatar, fit: &HairFit, first_node: usize) -> SpringChain {
    let joints: Vec<SpringJoint> = fit
        .joints
        .iter()
        .chain(core::iter::once(&fit.tail))
        .enumerate()
        .map(|(k, j)| spring_joint(first_node + k, j))
        .collect();
    SpringChain {
        name: Some(fit.mesh_name.clone()),
        // The path the loader gives this spring once written as VRM 1.0.
        source_path: format!(
            "extensions.VRMC_springBone.springs[{}]",
            avatar.springs.chains.len()
        ),
        joints,
        virtual_tail: None,
        center: None,
        collider_groups: body_collider_groups(avatar),
        under_head: false,
        named_hair: false,
    }
}

/// A copy of `avatar` with `fit` applied: joint nodes under the attachment,
/// the mesh node skinned to a new skin (attachment first, then the joints),
/// the mesh's weights replaced, and a VRM 1.0 spring chain.
#[must_use]
pub fn apply(avatar: &Avatar, fit: &HairFit) -> (Avatar, Applied) {
    let mut out = avatar.clone();
    let first_node = out.nodes.len();
    let all: Vec<&FittedJoint> = fit
        .joints
        .iter()
        .chain(core::iter::once(&fit.tail))
        .collect();
    for (k, j) in all.iter().enumerate() {
        let parent = j.parent.map_or(fit.attachment, |p| first_node + p);
        out.nodes.push(Node {
            name: j.name.clone(),
            parent: Some(parent),
            children: if k + 1 < all.len() {
                vec![first_node + k + 1]
            } else {
                Vec::new()
            },
            translation: j.translation,
            rotation: j.rotation,
            scale: j.scale,
            mesh: None,
            skin: None,
        });
    }
    out.nodes[fit.attachment].children.push(first_node);

    let skin = out.skins.len();
    let mut joints = vec![fit.attachment];
    let mut inverse_binds = vec![fit.attachment_inverse_bind];
    for (k, j) in fit.joints.iter().enumerate() {
        joints.push(first_node + k);
        inverse_binds.push(j.inverse_bind);
    }
    out.skins.push(Skin {
        name: format!("{}_fit", fit.mesh_name),
        joints,
        inverse_binds,
        skeleton: Some(fit.attachment),
    });
    let old_skin = out.nodes[fit.mesh_node].skin;
    out.nodes[fit.mesh_node].skin = Some(skin);

    let mut previous = Vec::new();
    if let Some(mesh) = out.meshes.get_mut(fit.mesh) {
        for (p, w) in mesh.primitives.iter_mut().zip(&fit.weights) {
            let joints = core::mem::replace(&mut p.joints, w.joints.clone());
            let weights = core::mem::replace(
                &mut p.weights,
                w.weights
                    .iter()
                    .map(|x| glam::Vec4::from_array(*x))
                    .collect(),
            );
            previous.push((joints, weights));
        }
    }

    let mut chain = fitted_chain(avatar, fit, first_node);
    let chain_index = out.springs.chains.len();
    (chain.under_head, chain.named_hair) = tress_vrm::load::hair_flags(&out, &chain);
    out.springs.chains.push(chain);

    let applied = Applied {
        first_node,
        skin,
        chain: chain_index,
        attachment: fit.attachment,
        mesh_node: (fit.mesh_node, old_skin),
        previous: (fit.mesh, previous),
    };
    (out, applied)
}

/// Takes an applied fit back out of `avatar`.
#[must_use]
pub fn undo(avatar: &Avatar, applied: &Applied) -> Avatar {
    let mut out = avatar.clone();
    out.nodes.truncate(applied.first_node);
    if let Some(a) = out.nodes.get_mut(applied.attachment) {
        a.children.retain(|&c| c < applied.first_node);
    }
    out.skins.truncate(applied.skin);
    let (node, skin) = applied.mesh_node;
    if let Some(n) = out.nodes.get_mut(node) {
        n.skin = skin;
    }
    let (mesh, previous) = &applied.previous;
    if let Some(m) = out.meshes.get_mut(*mesh) {
        for (p, (j, w)) in m.primitives.iter_mut().zip(previous) {
            p.joints.clone_from(j);
            p.weights.clone_from(w);
        }
    }
    out.springs.chains.truncate(applied.chain);
    out
}
