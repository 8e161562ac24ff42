//! Humanoid animation: sampling clips, bone maps, world-space retargeting
//! onto any VRM humanoid, and checks of the result.
//!
//! - [`BoneMap::detect`]: a source's humanoid map (VRM / VRMA), the built-in
//!   Universal Animation Library `DEF-` names, or node names matched by
//!   convention ([`bone_names`]: Mixamo, UE mannequin, snake_case, `.L`/`.R`).
//! - [`Retargeter`]: source skeleton + map → target avatar; retargets clips
//!   into [`Clip`]s (our clip type; [`Clip::to_animation`] gives glTF
//!   channels, [`clip_glb`] a `.glb`).
//! - [`bvh`]: BVH motion capture read as a source skeleton and clip;
//!   [`source`]: any clip file (glTF, VRM, VRMA, BVH) read by its kind.
//! - [`checks`]: validation (bones, finite values, unit quaternions, no hair
//!   tracks) and measurements (feet on the ground, hands outside the torso).

pub mod bone_map;
pub mod bone_names;
pub mod bvh;
pub mod checks;
pub mod clip;
pub mod retarget;
pub mod sample;
pub mod soles;
pub mod source;

pub use bone_map::{BoneMap, MapSource};
pub use clip::{Clip, Track};
pub use retarget::{RetargetError, RetargetOptions, Retargeter};

use tress_vrm::model::Avatar;

/// The target's skeleton (node names and rest transforms, no meshes) with
/// `clips` as glTF animations, as a `.glb`.
#[must_use]
pub fn clip_glb(target: &Avatar, clips: &[Clip]) -> Vec<u8> {
    let mut b = tress_vrm::gltf_out::GltfBuilder::new();
    for n in &target.nodes {
        let i = b.add_node(&n.name, n.translation, n.rotation);
        b.set_node_scale(i, n.scale);
    }
    for (i, n) in target.nodes.iter().enumerate() {
        for &c in &n.children {
            b.add_child(i, c);
        }
    }
    for &r in &target.roots {
        b.add_scene_root(r);
    }
    for c in clips {
        b.add_animation(&c.to_animation());
    }
    b.to_glb("Tress retarget", serde_json::Map::new())
}
