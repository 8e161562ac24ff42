//! Linear-blend skinning of selected vertices, for checks that look at the
//! mesh rather than the joints.

use alloc::collections::BTreeSet;

use glam::{Mat4, Vec3, Vec4};

use crate::model::Avatar;

/// A skinned vertex: its bind-space position and up to four (joint node,
/// inverse bind, weight) influences.
#[derive(Debug, Clone)]
pub(crate) struct SkinnedVertex {
    pub(crate) position: Vec3,
    pub(crate) influences: Vec<(usize, Mat4, f32)>,
    /// The joint node with the largest weight.
    pub(crate) owner: usize,
}

impl SkinnedVertex {
    /// Linear-blend skinning against world matrices `world`.
    pub(crate) fn skin(&self, world: &[Mat4]) -> Vec3 {
        self.influences
            .iter()
            .map(|(j, ib, w)| (world[*j] * *ib).transform_point3(self.position) * *w)
            .sum()
    }
}

/// Skinned vertices whose strongest joint is one of `bones`.
pub(crate) fn skinned_vertices(target: &Avatar, bones: &BTreeSet<usize>) -> Vec<SkinnedVertex> {
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

/// The soles of an avatar's feet at rest: per side, the vertices skinned
/// mostly to that side's foot or toes whose rest height is within 3 cm of
/// the lowest of them all (the ground). What touches the floor, for the
/// retargeter's ground pass and the foot-contact check alike.
#[derive(Debug, Clone)]
pub(crate) struct Soles {
    /// Per side with a skinned foot: the foot node and its sole vertices.
    pub(crate) feet: Vec<(usize, Vec<SkinnedVertex>)>,
    /// Sides whose foot has no skinned mesh (`left`, `right`).
    pub(crate) bare: Vec<&'static str>,
    /// Height of the lowest sole vertex at rest.
    pub(crate) ground: f32,
}

impl Soles {
    /// The soles of `target` (`rest`: its rest world matrices); `None`
    /// without a humanoid.
    pub(crate) fn new(target: &Avatar, rest: &[Mat4]) -> Option<Self> {
        let h = target.humanoid.as_ref()?;
        let mut feet = Vec::new();
        let mut bare = Vec::new();
        for side in ["left", "right"] {
            let Some(foot) = h.bone(&format!("{side}Foot")) else {
                continue;
            };
            let bones: BTreeSet<usize> = [Some(foot), h.bone(&format!("{side}Toes"))]
                .into_iter()
                .flatten()
                .collect();
            let verts = skinned_vertices(target, &bones);
            if verts.is_empty() {
                bare.push(side);
            } else {
                feet.push((foot, verts));
            }
        }
        let ground = feet
            .iter()
            .flat_map(|(_, v)| v.iter().map(|v| v.skin(rest).y))
            .fold(f32::INFINITY, f32::min);
        // Only the bottom 3 cm can touch the floor: the sole, not the instep.
        for (_, verts) in &mut feet {
            verts.retain(|v| v.skin(rest).y <= ground + 0.03);
        }
        Some(Self {
            feet,
            bare,
            ground: if ground.is_finite() { ground } else { 0.0 },
        })
    }
}
