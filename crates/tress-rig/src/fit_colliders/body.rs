//! The body and hair vertices the fitter covers, at the rest pose.
//!
//! The classification is the measurement's ([`crate::skin::mesh`]): body
//! vertices belong to body triangles (skinned, no hair vertex, material not
//! named like hair), hair vertices carry their largest weight on a spring
//! joint. Each vertex is owned by the node with its largest skin weight; a
//! body vertex counts for a bone only when that weight is at least
//! [`ColliderFitOptions::owner_weight`](super::ColliderFitOptions::owner_weight)
//! ("skinned mostly to the bone"), so blended vertices around a joint do
//! not drag a collider toward the neighbouring bone.

use glam::Vec3;

use crate::skin::{MeshSet, spring_nodes};
use tress_vrm::model::Avatar;

/// Rest-pose vertices with their owning node.
#[derive(Debug, Clone, Default)]
pub(crate) struct Body {
    /// Body vertices mostly skinned to one node: (position, node).
    pub body: Vec<(Vec3, usize)>,
    /// Hair vertices: (position, node carrying the largest weight).
    pub hair: Vec<(Vec3, usize)>,
    /// What the mesh classification left out.
    pub notes: Vec<String>,
}

impl Body {
    /// Skins `avatar`'s meshes at rest and sorts the vertices.
    pub fn new(avatar: &Avatar, owner_weight: f32) -> Self {
        let mesh = MeshSet::new(avatar, &spring_nodes(avatar));
        let mut joints = Vec::new();
        mesh.joint_matrices_into(&avatar.rest_world(), &mut joints);
        let all: Vec<u32> = (0..u32::try_from(mesh.vertex_count()).unwrap_or(u32::MAX)).collect();
        let mut pos = Vec::new();
        mesh.skin(&joints, &all, &mut pos);
        let body = mesh
            .body_verts
            .iter()
            .filter_map(|&v| {
                let (node, w) = mesh.owner(v)?;
                (w >= owner_weight).then(|| (pos[v as usize], node))
            })
            .collect();
        let hair = mesh
            .hair
            .iter()
            .filter_map(|&v| Some((pos[v as usize], mesh.owner(v)?.0)))
            .collect();
        Self {
            body,
            hair,
            notes: mesh.notes,
        }
    }
}
