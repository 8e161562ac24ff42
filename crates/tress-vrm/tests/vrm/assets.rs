//! Acceptance 1 (real files): every VRM / glTF / VRMA file in `../shared/assets`
//! loads with the documented counts and warnings.
//!
//! Where the expected numbers come from: `python3 crates/tress-vrm/tests/asset_counts.py`
//! (reads each file's JSON with Python's `json`, no Tress code), run on
//! 2026-11-29; its output columns are nodes, humanoid bones, springs,
//! joints, colliders by shape, constraints, animations. Springs/joints for
//! VRM 0.x count one chain per bone-group root (plus one per extra child at a
//! branch) and every descendant as a joint. The figures agree with
//! `../shared/assets/README.md` (Godette: 45 bones, 8 roots / 16 chain
//! nodes, 4 spheres; node-constraint sample: 11 constraints; debug_robot: 53 bones).

use crate::common;

use alloc::collections::BTreeMap;

use tress_vrm::{ColliderShape, ConstraintKind, Format, load_path};

struct Expect {
    file: &'static str,
    format: Format,
    nodes: usize,
    humanoid: usize,
    springs: usize,
    joints: usize,
    colliders: &'static [(&'static str, usize)],
    constraints: usize,
    animations: usize,
    /// Substrings that must each appear in some warning.
    warnings: &'static [&'static str],
}

#[rustfmt::skip]
const EXPECT: &[Expect] = &[
    Expect { file: "blender-vrm-addon/debug_robot.vrm", format: Format::Vrm1, nodes: 77, humanoid: 53, springs: 0, joints: 0, colliders: &[], constraints: 0, animations: 0, warnings: &[] },
    Expect { file: "blender-vrm-addon/hips_spine_twisting.vrma", format: Format::Vrma, nodes: 18, humanoid: 17, springs: 0, joints: 0, colliders: &[], constraints: 0, animations: 1, warnings: &[] },
    Expect { file: "blender-vrm-addon/sphere.vrm", format: Format::Vrm0, nodes: 31, humanoid: 22, springs: 0, joints: 0, colliders: &[], constraints: 0, animations: 0, warnings: &[] },
    Expect { file: "godette-vrm0/Godette_vrm_v4.vrm", format: Format::Vrm0, nodes: 71, humanoid: 45, springs: 8, joints: 16, colliders: &[("sphere", 4)], constraints: 0, animations: 0, warnings: &[] },
    Expect { file: "quaternius-ual1/AnimationLibrary_Godot_Standard.gltf", format: Format::Gltf, nodes: 55, humanoid: 0, springs: 0, joints: 0, colliders: &[], constraints: 0, animations: 46, warnings: &[] },
    Expect { file: "three-vrm-springbone/cubes.gltf", format: Format::Gltf, nodes: 6, humanoid: 0, springs: 1, joints: 4, colliders: &[("sphere", 1)], constraints: 0, animations: 0, warnings: &[] },
    Expect { file: "three-vrm-springbone/inside-collider.gltf", format: Format::Gltf, nodes: 6, humanoid: 0, springs: 1, joints: 5, colliders: &[("insideSphere", 1)], constraints: 0, animations: 0, warnings: &[] },
    Expect { file: "three-vrm-springbone/plane-collider.gltf", format: Format::Gltf, nodes: 6, humanoid: 0, springs: 1, joints: 5, colliders: &[("plane", 1)], constraints: 0, animations: 0, warnings: &[] },
    Expect { file: "three-vrm-springbone/sphere-collider.gltf", format: Format::Gltf, nodes: 6, humanoid: 0, springs: 1, joints: 5, colliders: &[("sphere", 1)], constraints: 0, animations: 0, warnings: &[] },
    Expect { file: "three-vrm-vrma/idle_loop.vrma", format: Format::Vrma, nodes: 33, humanoid: 22, springs: 0, joints: 0, colliders: &[], constraints: 0, animations: 1, warnings: &["`head` maps to node 0 named `ENDSITE`"] },
    Expect { file: "three-vrm-vrma/test.vrma", format: Format::Vrma, nodes: 53, humanoid: 51, springs: 0, joints: 0, colliders: &[], constraints: 0, animations: 1, warnings: &[] },
    Expect { file: "vrm-spec-samples/VRMC_materials_mtoon_UV_Animation_Test.vrm", format: Format::Vrm1, nodes: 58, humanoid: 53, springs: 0, joints: 0, colliders: &[], constraints: 0, animations: 0, warnings: &[] },
    Expect { file: "vrm-spec-samples/VRMC_vrm_expressions_isBinary_Overridden.vrm", format: Format::Vrm1, nodes: 27, humanoid: 22, springs: 0, joints: 0, colliders: &[], constraints: 0, animations: 0, warnings: &[] },
    Expect { file: "vrm-spec-samples/VRMC_vrm_expressions_isBinary_Overrides.vrm", format: Format::Vrm1, nodes: 27, humanoid: 22, springs: 0, joints: 0, colliders: &[], constraints: 0, animations: 0, warnings: &[] },
    Expect { file: "vrm-spec-samples/vrm_node_constraint_examples.glb", format: Format::Gltf, nodes: 47, humanoid: 0, springs: 0, joints: 0, colliders: &[], constraints: 11, animations: 2, warnings: &[] },
    Expect { file: "vrm1-springbone/smoke_spring.vrm", format: Format::Vrm1, nodes: 25, humanoid: 19, springs: 1, joints: 4, colliders: &[], constraints: 0, animations: 0, warnings: &[] },
    Expect { file: "vrm1-springbone/springbone_collider_capsule_x0p02_r0p05.vrm", format: Format::Vrm1, nodes: 25, humanoid: 19, springs: 1, joints: 4, colliders: &[("capsule", 1)], constraints: 0, animations: 0, warnings: &[] },
    Expect { file: "vrm1-springbone/springbone_collider_sphere_x0p02_r0p05.vrm", format: Format::Vrm1, nodes: 25, humanoid: 19, springs: 1, joints: 4, colliders: &[("sphere", 1)], constraints: 0, animations: 0, warnings: &[] },
    // The README: "no base shape, no specVersion in the extension" — both warned.
    Expect { file: "vrm1-springbone/springbone_extended_isphere_pmed.vrm", format: Format::Vrm1, nodes: 25, humanoid: 19, springs: 1, joints: 4, colliders: &[("insideSphere", 1)], constraints: 0, animations: 0, warnings: &["VRMC_springBone_extended_collider.specVersion: missing specVersion", "colliders[0].shape: missing base shape"] },
    Expect { file: "vrm1-springbone/springbone_extended_plane_with_base_sphere.vrm", format: Format::Vrm1, nodes: 25, humanoid: 19, springs: 1, joints: 4, colliders: &[("plane", 1)], constraints: 0, animations: 0, warnings: &["VRMC_springBone_extended_collider.specVersion: missing specVersion"] },
    Expect { file: "vrm1-springbone/swing_springbone_stiffness_0p2.vrm", format: Format::Vrm1, nodes: 25, humanoid: 19, springs: 1, joints: 4, colliders: &[], constraints: 0, animations: 0, warnings: &[] },
];

#[test]
fn real_assets_load_with_documented_counts_or_skip_loudly() {
    let Some(dir) = common::assets_dir() else {
        return;
    };
    // Every loadable file in the folder is in the table (nothing new slips by).
    let mut on_disk = Vec::new();
    for sub in std::fs::read_dir(&dir).unwrap() {
        let sub = sub.unwrap().path();
        if !sub.is_dir() {
            continue;
        }
        for f in std::fs::read_dir(&sub).unwrap() {
            let f = f.unwrap().path();
            let ext = f.extension().and_then(|e| e.to_str()).unwrap_or("");
            if ["vrm", "glb", "gltf", "vrma"].contains(&ext) {
                on_disk.push(f.strip_prefix(&dir).unwrap().to_string_lossy().into_owned());
            }
        }
    }
    on_disk.sort();
    let mut listed: Vec<String> = EXPECT.iter().map(|e| e.file.to_owned()).collect();
    listed.sort();
    assert_eq!(on_disk, listed, "asset table out of date");

    for e in EXPECT {
        let a = load_path(dir.join(e.file)).unwrap_or_else(|err| panic!("{}: {err}", e.file));
        let shapes: BTreeMap<&str, usize> = a.collider_counts();
        let want_shapes: BTreeMap<&str, usize> = e.colliders.iter().copied().collect();
        let got = (
            a.format,
            a.nodes.len(),
            a.humanoid.as_ref().map_or(0, |h| h.bones.len()),
            a.springs.chains.len(),
            a.springs.joint_count(),
            shapes,
            a.constraints.len(),
            a.animations.len(),
        );
        let want = (
            e.format,
            e.nodes,
            e.humanoid,
            e.springs,
            e.joints,
            want_shapes,
            e.constraints,
            e.animations,
        );
        assert_eq!(got, want, "{}", e.file);
        for w in e.warnings {
            assert!(
                a.warnings.iter().any(|x| x.to_string().contains(w)),
                "{}: no warning containing {w:?}; got {:#?}",
                e.file,
                a.warnings
            );
        }
        // No unexpected warnings beyond the known benign ones.
        for w in &a.warnings {
            let s = w.to_string();
            let known = e.warnings.iter().any(|x| s.contains(x))
                || s.contains("morph targets are not loaded");
            assert!(known, "{}: unexpected warning {s}", e.file);
        }
    }
}

#[test]
fn godette_vrm0_details() {
    let Some(dir) = common::assets_dir() else {
        return;
    };
    let a = load_path(dir.join("godette-vrm0/Godette_vrm_v4.vrm")).unwrap();
    let meta = a.meta.as_ref().unwrap();
    // From the file's extensions.VRM.meta (python3 inspection): licenseName CC_BY, author SirRichard94.
    assert_eq!(meta.license_name.as_deref(), Some("CC_BY"));
    assert_eq!(meta.authors, ["SirRichard94"]);
    assert_eq!(meta.allow_excessively_violent_usage, Some(true));
    // Chains: 8 roots each with one child → 2 joints and a virtual 7 cm tail.
    for c in &a.springs.chains {
        assert_eq!(c.joints.len(), 2);
        let t = c.virtual_tail.unwrap();
        assert!((t.length() - 0.07).abs() < 1e-5);
        assert_eq!(c.simulated_len(), 2);
    }
    // boneGroups[0]: stiffiness 2.5, dragForce 0.4, hitRadius 0.02, bones [22,16,20,18].
    let c0 = &a.springs.chains[0];
    assert_eq!(c0.joints[0].node, 22);
    assert_eq!(c0.joints[0].stiffness, 2.5);
    assert_eq!(c0.joints[0].drag_force, 0.4);
    assert_eq!(c0.collider_groups, [1]);
    assert_eq!(c0.center, None); // center: -1
    // colliderGroups[0].colliders[0].offset.z = -0.039999956 in the file (left-handed) → +z here.
    match a.springs.colliders[0].shape {
        ColliderShape::Sphere { offset, radius } => {
            assert!((offset.z - 0.039_999_956).abs() < 1e-6, "{offset}");
            assert!((radius - 0.1).abs() < 1e-6);
        }
        s => panic!("{s:?}"),
    }
    assert_eq!(a.springs.colliders[0].node, 3);
    // Head hair: 7 of the 8 roots lie under the head; boneGroups[1] (node 58, the ribbon) does not.
    let head = a.humanoid.as_ref().unwrap().bone("head").unwrap();
    for c in &a.springs.chains {
        assert_eq!(
            c.under_head,
            a.is_self_or_ancestor(head, c.joints[0].node) && c.joints[0].node != head
        );
    }
    assert_eq!(a.springs.chains.iter().filter(|c| c.under_head).count(), 7);
    // Mesh data: 8,067 vertices over Face + Body (README), one skin of 68 joints.
    let verts: usize = a
        .meshes
        .iter()
        .flat_map(|m| &m.primitives)
        .map(|p| p.positions.len())
        .sum();
    assert_eq!(verts, 8067);
    assert_eq!(a.skins.len(), 1);
    assert_eq!(a.skins[0].joints.len(), 68);
    assert_eq!(a.skins[0].inverse_binds.len(), 68);
    for p in a.meshes.iter().flat_map(|m| &m.primitives) {
        assert_eq!(p.joints.len(), p.positions.len());
        assert_eq!(p.weights.len(), p.positions.len());
        assert!(p.indices.iter().all(|&i| (i as usize) < p.positions.len()));
    }
}

#[test]
fn vrm1_spring_settings_and_constraint_kinds() {
    let Some(dir) = common::assets_dir() else {
        return;
    };
    // swing_springbone_stiffness_0p2: every joint stiffness 0.2, gravityPower 0.5, nodes 19..=22.
    let a = load_path(dir.join("vrm1-springbone/swing_springbone_stiffness_0p2.vrm")).unwrap();
    let c = &a.springs.chains[0];
    assert_eq!(
        c.joints.iter().map(|j| j.node).collect::<Vec<_>>(),
        [19, 20, 21, 22]
    );
    assert!(
        c.joints
            .iter()
            .all(|j| (j.stiffness - 0.2).abs() < 1e-6 && j.gravity_power == 0.5)
    );
    assert_eq!(c.simulated_len(), 3);
    assert!(c.under_head && c.is_head_hair());
    // Capsule: offset [0.02,-0.1,0], tail [0,-0.05,0], radius 0.05 on node 4 (head).
    let a =
        load_path(dir.join("vrm1-springbone/springbone_collider_capsule_x0p02_r0p05.vrm")).unwrap();
    assert_eq!(a.springs.colliders[0].node, 4);
    match a.springs.colliders[0].shape {
        ColliderShape::Capsule {
            offset,
            tail,
            radius,
        } => {
            assert!((offset - glam::Vec3::new(0.02, -0.1, 0.0)).length() < 1e-6);
            assert!((tail - glam::Vec3::new(0.0, -0.05, 0.0)).length() < 1e-6);
            assert!((radius - 0.05).abs() < 1e-6);
        }
        s => panic!("{s:?}"),
    }
    // Extended plane preferred over its fallback sphere: normal [0,1,0], offset [0,-0.08,0].
    let a = load_path(dir.join("vrm1-springbone/springbone_extended_plane_with_base_sphere.vrm"))
        .unwrap();
    match a.springs.colliders[0].shape {
        ColliderShape::Plane { offset, normal } => {
            assert_eq!(normal, glam::Vec3::Y);
            assert!((offset.y + 0.08).abs() < 1e-6);
        }
        s => panic!("{s:?}"),
    }
    // three-vrm inside-collider: extended sphere radius 1.25, offset defaulted to 0.
    let a = load_path(dir.join("three-vrm-springbone/inside-collider.gltf")).unwrap();
    assert_eq!(
        a.springs.colliders[0].shape,
        ColliderShape::InsideSphere {
            offset: glam::Vec3::ZERO,
            radius: 1.25
        }
    );
    // cubes.gltf: the last joint {"node": 4} has no settings → three-vrm defaults.
    let a = load_path(dir.join("three-vrm-springbone/cubes.gltf")).unwrap();
    let last = a.springs.chains[0].joints[3];
    assert_eq!(
        (last.node, last.stiffness, last.drag_force, last.hit_radius),
        (4, 1.0, 0.4, 0.0)
    );
    // Node constraints: 4 aim, 4 roll, 3 rotation (nodes 4/8/12/16 aim, 23/24/25/28 roll, 33/38/41 rotation).
    let a = load_path(dir.join("vrm-spec-samples/vrm_node_constraint_examples.glb")).unwrap();
    let count =
        |f: fn(&ConstraintKind) -> bool| a.constraints.iter().filter(|c| f(&c.kind)).count();
    assert_eq!(count(|k| matches!(k, ConstraintKind::Aim(_))), 4);
    assert_eq!(count(|k| matches!(k, ConstraintKind::Roll(_))), 4);
    assert_eq!(count(|k| matches!(k, ConstraintKind::Rotation)), 3);
    let aim0 = a.constraints.iter().find(|c| c.destination == 4).unwrap();
    assert_eq!(
        (aim0.source, aim0.kind),
        (3, ConstraintKind::Aim(tress_vrm::AimAxis::PositiveX))
    );
    assert_eq!(a.constraint_order.len(), 11);
}

#[test]
fn node_constraint_sample_drives_through_the_core_solver() {
    use tress_core::constraint::{LocalPose, apply};
    let Some(dir) = common::assets_dir() else {
        return;
    };
    let a = load_path(dir.join("vrm-spec-samples/vrm_node_constraint_examples.glb")).unwrap();
    let parents: Vec<Option<usize>> = a.nodes.iter().map(|n| n.parent).collect();
    let rest: Vec<glam::Quat> = a.nodes.iter().map(|n| n.rotation).collect();
    let mut pose: Vec<LocalPose> = a.nodes.iter().map(|n| n.local_pose()).collect();
    // At rest, roll and rotation constraints reproduce the rest rotation.
    apply(
        &a.constraints,
        &a.constraint_order,
        &parents,
        &rest,
        &mut pose,
    );
    for c in &a.constraints {
        if !matches!(c.kind, ConstraintKind::Aim(_)) {
            let d = pose[c.destination].rotation.dot(rest[c.destination]).abs();
            assert!(d > 1.0 - 1e-5, "node {} moved at rest", c.destination);
        }
    }
    // Turning the source of `TargetRTNNSS` (node 33, rotation constraint, source 32,
    // weight 1 by default) by 30° about its local Y turns node 33 by the same local change.
    let c = a.constraints.iter().find(|c| c.destination == 33).unwrap();
    assert_eq!(
        (c.source, c.kind, c.weight),
        (32, ConstraintKind::Rotation, 1.0)
    );
    let delta = glam::Quat::from_rotation_y(30f32.to_radians());
    pose[32].rotation = rest[32] * delta;
    apply(
        &a.constraints,
        &a.constraint_order,
        &parents,
        &rest,
        &mut pose,
    );
    let want = rest[33] * delta;
    assert!(pose[33].rotation.dot(want).abs() > 1.0 - 1e-5);
}
