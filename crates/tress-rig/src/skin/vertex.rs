//! Selected skinned vertices with their own influences, for checks that
//! look at a few vertices of the mesh rather than the joints (feet on the
//! ground, hands outside the torso, a lock's shape).

use alloc::collections::BTreeSet;

use glam::{Mat4, Vec3, Vec4};

use tress_vrm::model::Avatar;

/// A skinned vertex: its bind-space position and up to four (joint node,
/// inverse bind, weight) influences.
#[derive(Debug, Clone)]
pub struct SkinnedVertex {
    /// Bind-space position.
    pub position: Vec3,
    /// (joint node, inverse bind matrix, weight), weights as authored.
    pub influences: Vec<(usize, Mat4, f32)>,
    /// The joint node with the largest weight.
    pub owner: usize,
}

impl SkinnedVertex {
    /// Linear-blend skinning against world matrices `world`.
    #[must_use]
    pub fn skin(&self, world: &[Mat4]) -> Vec3 {
        super::blend(
            self.position,
            self.influences
                .iter()
                .map(|(j, ib, w)| (world[*j] * *ib, *w)),
        )
    }
}

#[must_use]
/// Skinned vertices whose strongest joint is one of `bones`.
pub fn skinned_vertices(target: &Avatar, bones: &BTreeSet<usize>) -> Vec<SkinnedVertex> {
    let mut out = Vec::new();
    for node in &target.nodes {
        let (Some(mi), Some(si)) = (node.mesh, node.skin) else {
            continue;
        };
        let (Some(mesh), Some(skin)) = (target.meshes.get(mi), target.skins.get(si)) else {
            continue;
        };
        for p in &mesh.primitives {
            for (k, pos) in p.positions.iter().enumerate() {
                let (Some(j), Some(wt)) = (p.joints.get(k), p.weights.get(k)) else {
                    continue;
                };
                let ws: [f32; 4] = Vec4::to_array(wt);
                let mut influences = Vec::with_capacity(4);
                for x in 0..4 {
                    let slot = usize::from(j[x]);
                    if ws[x] <= 0.0 {
                        continue;
                    }
                    if let (Some(&jn), Some(ib)) =
                        (skin.joints.get(slot), skin.inverse_binds.get(slot))
                        && jn < target.nodes.len()
                    {
                        influences.push((jn, *ib, ws[x]));
                    }
                }
                let Some(owner) = influences
                    .iter()
                    .max_by(|a, b| a.2.total_cmp(&b.2))
                    .map(|i| i.0)
                else {
                    continue;
                };
                if bones.contains(&owner) {
                    out.push(SkinnedVertex {
                        position: *pos,
                        influences,
                        owner,
                    });
                }
            }
        }
    }
    out
}
