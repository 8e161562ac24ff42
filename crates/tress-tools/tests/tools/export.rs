//! `tress export --bake` (issue 6): a retargeted body clip with the spring
//! hair simulated and recorded as tracks, written into the avatar's own GLB,
//! loads back with every hair bone animated; a looping bake ends close to
//! where it starts. Writes `target/test-out/baked_walk.glb` for the Godot
//! test that loads it (test_baked_export.gd).

use crate::common;

use std::path::PathBuf;

use tress_rig::anim::clip::angle_between;
use tress_rig::anim::{BoneMap, RetargetOptions, Retargeter};
use tress_tools::bake::{BakeOptions, bake};
use tress_vrm::{ChannelValues, load_bytes};

fn repo(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(rel)
}

#[test]
fn baked_hair_tracks_round_trip_and_loop() {
    let Some(dir) = common::assets_dir() else {
        return;
    };
    let bytes = std::fs::read(repo("assets/tress_avatar.vrm")).unwrap();
    let avatar = load_bytes(&bytes, None).unwrap();
    let lib =
        tress_vrm::load_path(dir.join("quaternius-ual1/AnimationLibrary_Godot_Standard.gltf"))
            .unwrap();
    let r = Retargeter::new(&lib, &BoneMap::detect(&lib).unwrap(), &avatar).unwrap();
    let clip = r
        .retarget_named("Walk_Loop", &RetargetOptions::default())
        .unwrap();
    let mut anim = bake(&avatar, &clip, &BakeOptions::default()).unwrap();
    anim.name = "Walk_Loop (baked hair)".into();
    let hair: alloc::collections::BTreeSet<usize> = avatar
        .springs
        .chains
        .iter()
        .flat_map(|c| c.joints[..c.simulated_len()].iter().map(|j| j.node))
        .collect();
    assert_eq!(hair.len(), 36);

    let out = tress_vrm::gltf_out::append_animation(&bytes, &anim).unwrap();
    let back = load_bytes(&out, None).expect("the written file loads");
    assert_eq!(back.nodes.len(), avatar.nodes.len());
    assert_eq!(back.meshes, avatar.meshes, "meshes untouched");
    assert_eq!(back.springs, avatar.springs, "springs untouched");
    let baked = back
        .animations
        .iter()
        .find(|a| a.name == "Walk_Loop (baked hair)")
        .expect("animation");
    let mut hair_tracks = 0;
    let mut widest: f32 = 0.0;
    for c in &baked.channels {
        let ChannelValues::Rotation(q) = &c.values else {
            continue;
        };
        assert!(
            q.iter()
                .all(|q| q.is_finite() && (q.length() - 1.0).abs() < 1e-3)
        );
        if hair.contains(&c.node) {
            hair_tracks += 1;
            let rest = back.nodes[c.node].rotation;
            widest = widest.max(
                q.iter()
                    .map(|q| angle_between(*q, rest))
                    .fold(0.0, f32::max),
            );
            // Looping: the last frame and the first are the same instant of
            // the loop, so the hair must match there (no jump at the seam).
            let wrap = angle_between(q[0], *q.last().unwrap());
            assert!(
                wrap < 0.05f32.to_radians(),
                "node {} jumps {:.2}° at the loop",
                c.node,
                wrap.to_degrees()
            );
        }
    }
    assert_eq!(hair_tracks, 36, "every simulated hair bone has a track");
    assert!(
        widest > 2f32.to_radians(),
        "the hair never moved ({:.2}°)",
        widest.to_degrees()
    );
    let dir = repo("target/test-out");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("baked_walk.glb"), &out).unwrap();
    println!(
        "baked Walk_Loop: {} channels, hair swings up to {:.1}° from rest",
        baked.channels.len(),
        widest.to_degrees()
    );
}
