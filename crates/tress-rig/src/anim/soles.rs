//! The soles of an avatar's feet at rest, for the retargeter's ground pass
//! and the foot-contact check.

use alloc::collections::BTreeSet;

use glam::Mat4;
use tress_vrm::model::Avatar;

use crate::skin::{SkinnedVertex, skinned_vertices};

/// The soles of an avatar's feet at rest: per side, the vertices skinned
/// mostly to that side's foot or toes whose rest height is within 3 cm of
/// the lowest of them all (the ground). What touches the floor, for the
/// retargeter's ground pass and the foot-contact check alike.
#[derive(Debug, Clone)]
pub struct Soles {
    /// Per side with a skinned foot: the foot node and its sole vertices.
    pub feet: Vec<(usize, Vec<SkinnedVertex>)>,
    /// Sides whose foot has no skinned mesh (`left`, `right`).
    pub bare: Vec<&'static str>,
    /// Height of the lowest sole vertex at rest.
    pub ground: f32,
}

impl Soles {
    /// The soles of `target` (`rest`: its rest world matrices); `None`
    /// without a humanoid.
    pub fn new(target: &Avatar, rest: &[Mat4]) -> Option<Self> {
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
