//! A plain glTF humanoid in the style of Godot's spring-bone test rig: the
//! built-in avatar's body under snake_case names (`hips`, `upper_arm_l`,
//! `shin_r`, …), four 5-bone chains hanging under `head` with a skinned
//! tube each, and no VRM extension: what `plain_rig` and the
//! `--chain` / `--chains-under-head` options are tested on.

use glam::{Mat4, Quat, Vec3};
use serde_json::Map;

use super::geometry::{Section, blend, rigid, sphere, tube};
use super::skeleton::{self, BONES, HEAD_CENTRE, HEAD_RADIUS, b, by_height, j};
use tress_vrm::gltf_out::GltfBuilder;

/// Node names of [`BONES`] in Godot's test rig style, same order.
pub const NAMES: [&str; 17] = [
    "hips",
    "spine",
    "chest",
    "neck",
    "head",
    "upper_arm_l",
    "forearm_l",
    "hand_l",
    "upper_arm_r",
    "forearm_r",
    "hand_r",
    "thigh_l",
    "shin_l",
    "foot_l",
    "thigh_r",
    "shin_r",
    "foot_r",
];

/// File name under `assets/`.
pub const FILE: &str = "tress_plain_rig.glb";

/// Chains under the head.
pub const CHAINS: usize = 4;
/// Bones per chain.
pub const CHAIN_BONES: usize = 5;

/// The name of bone `i` of chain `c` (`ponytail_{c}_{i}`).
#[must_use]
pub fn chain_bone(c: usize, i: usize) -> String {
    format!("ponytail_{c}_{i}")
}

/// Joint positions of chain `c`: from the back of the head, down and out.
fn chain_path(c: usize) -> Vec<Vec3> {
    let x = -0.06 + 0.04 * c as f32;
    let start = HEAD_CENTRE + Vec3::new(x, 0.0, -0.12);
    let step = Vec3::new(x * 0.3, -0.065, -0.02);
    (0..CHAIN_BONES).map(|i| start + step * i as f32).collect()
}

/// The rig as GLB bytes (deterministic).
#[must_use]
pub fn build() -> Vec<u8> {
    let mut g = GltfBuilder::new();
    let root = g.add_node("PlainRig", Vec3::ZERO, Quat::IDENTITY);
    g.add_scene_root(root);
    let mut nodes = Vec::new();
    for (bone, name) in BONES.iter().zip(NAMES) {
        let pos = Vec3::from_array(bone.pos);
        let parent_pos = bone
            .parent
            .map_or(Vec3::ZERO, |p| Vec3::from_array(BONES[p].pos));
        let n = g.add_node(name, pos - parent_pos, Quat::IDENTITY);
        g.add_child(bone.parent.map_or(root, |p| nodes[p]), n);
        nodes.push(n);
    }
    let mut skin_nodes = nodes.clone();
    let mut skin_pos: Vec<Vec3> = BONES.iter().map(|b| Vec3::from_array(b.pos)).collect();
    let mut firsts = Vec::new();
    for c in 0..CHAINS {
        let mut parent = nodes[b::HEAD];
        let mut parent_pos = Vec3::from_array(BONES[b::HEAD].pos);
        firsts.push(skin_nodes.len());
        for (i, p) in chain_path(c).into_iter().enumerate() {
            let n = g.add_node(&chain_bone(c, i), p - parent_pos, Quat::IDENTITY);
            g.add_child(parent, n);
            skin_nodes.push(n);
            skin_pos.push(p);
            parent = n;
            parent_pos = p;
        }
    }
    let ibms: Vec<Mat4> = skin_pos
        .iter()
        .map(|p| Mat4::from_translation(-*p))
        .collect();
    let skin = g.add_skin("Skin", nodes[b::HIPS], &skin_nodes, &ibms);
    let skin_mat = g.add_material("Skin", [0.93, 0.78, 0.68, 1.0], 0.7);
    let hair_mat = g.add_material("Hair", [0.25, 0.15, 0.08, 1.0], 0.5);

    // The built-in avatar's limbs, with a coarser trunk and head than its
    // own so the committed file stays small.
    let mut body = skeleton::limbs(super::geometry::tube, false);
    body.material = Some(skin_mat);
    let mut torso = tube(
        &[Vec3::new(0.0, 0.86, 0.0), Vec3::new(0.0, 1.44, 0.0)],
        8,
        12,
        Vec3::X,
        &|s| Section {
            rx: 0.13 + 0.05 * s * s,
            rz: 0.095,
        },
        &|_, p| by_height(p.y, &[b::HIPS, b::SPINE, b::CHEST], 0.05),
    );
    torso.material = Some(skin_mat);
    let mut head = sphere(HEAD_CENTRE, HEAD_RADIUS, Vec3::ONE, 10, 16, &|_| {
        rigid(j(b::HEAD))
    });
    head.material = Some(skin_mat);
    let mesh = g.add_mesh(
        "Body",
        &[("body", &body), ("torso", &torso), ("head", &head)],
    );
    let body_node = g.add_node("Body", Vec3::ZERO, Quat::IDENTITY);
    g.set_node_mesh(body_node, mesh, Some(skin));
    g.add_child(root, body_node);

    let segs = (CHAIN_BONES - 1) as f32;
    for (c, &first) in firsts.iter().enumerate() {
        let path = chain_path(c);
        let mut prim = tube(
            &path,
            12,
            6,
            Vec3::X,
            &|s| Section {
                rx: 0.012 * (1.0 - 0.5 * s),
                rz: 0.008,
            },
            &|s, _| {
                // Segment i rides on bone i, blended around each inner joint.
                let f = (s * segs).clamp(0.0, segs);
                let i = (f as usize).min(CHAIN_BONES - 2);
                let u = f - i as f32;
                let j = |k: usize| u16::try_from(first + k).expect("joint index fits u16");
                if u < 0.5 && i > 0 {
                    blend(j(i - 1), j(i), 0.5 + u)
                } else if u >= 0.5 && i + 2 < CHAIN_BONES {
                    blend(j(i), j(i + 1), u - 0.5)
                } else {
                    blend(j(i), j(i), 0.0)
                }
            },
        );
        prim.material = Some(hair_mat);
        let m = g.add_mesh(&format!("Ponytail{c}"), &[("hair", &prim)]);
        let n = g.add_node(&format!("Ponytail{c}Mesh"), Vec3::ZERO, Quat::IDENTITY);
        g.set_node_mesh(n, m, Some(skin));
        g.add_child(root, n);
    }
    g.to_glb("Tress plain rig generator", Map::new())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rig_is_plain_and_deterministic() {
        let bytes = build();
        assert_eq!(bytes, build());
        assert!(
            bytes.len() < 200_000,
            "{} bytes: keep the committed file small",
            bytes.len()
        );
        let a = tress_vrm::load_bytes(&bytes, None).unwrap();
        assert!(a.humanoid.is_none(), "no VRM humanoid");
        assert!(a.springs.chains.is_empty(), "no VRM springs");
        assert!(a.node_by_name(&chain_bone(3, 4)).is_some());
    }
}
