//! Acceptance 1 (malformed input): table-driven; each broken variant of a small
//! valid VRM 1.0 document fails with the right kind, JSON path and fact, and
//! tolerated oddities load with warnings.

use crate::common;

use serde_json::{Value, json};
use tress_vrm::{ErrorKind, load_bytes};

/// Five nodes (hips → head → hair0 → hair1 → hair2), one triangle, a VRM 1.0
/// humanoid, one spring with a sphere collider, one rotation constraint.
pub(crate) fn base() -> (Value, Vec<u8>) {
    let mut bin = Vec::new();
    for v in [[0.0f32, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]] {
        for c in v {
            bin.extend_from_slice(&c.to_le_bytes());
        }
    }
    for i in [0u16, 1, 2] {
        bin.extend_from_slice(&i.to_le_bytes());
    }
    bin.extend_from_slice(&[0, 0]);
    let json = json!({
        "asset": { "version": "2.0" },
        "extensionsUsed": ["VRMC_vrm", "VRMC_springBone", "VRMC_node_constraint"],
        "scene": 0,
        "scenes": [{ "nodes": [0, 5] }],
        "nodes": [
            { "name": "hips", "children": [1], "translation": [0.0, 1.0, 0.0] },
            { "name": "head", "children": [2], "translation": [0.0, 0.5, 0.0] },
            { "name": "hair0", "children": [3], "translation": [0.0, 0.1, 0.1] },
            { "name": "hair1", "children": [4], "translation": [0.0, -0.1, 0.0] },
            { "name": "hair2", "translation": [0.0, -0.1, 0.0] },
            { "name": "mesh", "mesh": 0,
              "extensions": { "VRMC_node_constraint": { "specVersion": "1.0",
                  "constraint": { "rotation": { "source": 1, "weight": 0.5 } } } } }
        ],
        "meshes": [{ "primitives": [{ "attributes": { "POSITION": 0 }, "indices": 1 }] }],
        "accessors": [
            { "bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
              "min": [0.0, 0.0, 0.0], "max": [1.0, 1.0, 0.0] },
            { "bufferView": 1, "componentType": 5123, "count": 3, "type": "SCALAR" }
        ],
        "bufferViews": [
            { "buffer": 0, "byteOffset": 0, "byteLength": 36 },
            { "buffer": 0, "byteOffset": 36, "byteLength": 6 }
        ],
        "buffers": [{ "byteLength": 44 }],
        "extensions": {
            "VRMC_vrm": {
                "specVersion": "1.0",
                "meta": { "name": "t", "authors": ["a"], "licenseUrl": "https://vrm.dev/licenses/1.0/" },
                "humanoid": { "humanBones": { "hips": { "node": 0 }, "head": { "node": 1 } } }
            },
            "VRMC_springBone": {
                "specVersion": "1.0",
                "colliders": [{ "node": 1, "shape": { "sphere": { "offset": [0.0, 0.0, 0.0], "radius": 0.1 } } }],
                "colliderGroups": [{ "colliders": [0] }],
                "springs": [{ "name": "bangs", "colliderGroups": [0],
                    "joints": [ { "node": 2, "stiffness": 1.0 }, { "node": 3 }, { "node": 4 } ] }]
            }
        }
    });
    (json, bin)
}

/// Sets (or inserts into an object) the value at a JSON pointer.
pub(crate) fn set(v: &mut Value, pointer: &str, x: Value) {
    if let Some(slot) = v.pointer_mut(pointer) {
        *slot = x;
        return;
    }
    let (parent, key) = pointer.rsplit_once('/').unwrap();
    let obj = v.pointer_mut(parent).and_then(Value::as_object_mut);
    obj.unwrap_or_else(|| panic!("no {parent}"))
        .insert(key.to_owned(), x);
}

#[test]
fn base_document_loads() {
    let (j, b) = base();
    let a = load_bytes(&common::glb(&j, &b), None).unwrap();
    assert!(a.warnings.is_empty(), "{:?}", a.warnings);
    assert_eq!(a.springs.chains[0].joints.len(), 3);
    assert!(a.springs.chains[0].under_head && a.springs.chains[0].named_hair);
    assert_eq!(a.meshes[0].primitives[0].indices, [0, 1, 2]);
    assert_eq!(a.constraints.len(), 1);
}

type Mutate = fn(&mut Value, &mut Vec<u8>);

struct Case {
    name: &'static str,
    mutate: Mutate,
    kind: ErrorKind,
    path: &'static str,
    message: &'static str,
}

#[rustfmt::skip]
const CASES: &[Case] = &[
    Case { name: "spring joint node out of range", mutate: |j, _| set(j, "/extensions/VRMC_springBone/springs/0/joints/1/node", json!(93)),
        kind: ErrorKind::Index, path: "extensions.VRMC_springBone.springs[0].joints[1].node", message: "node 93 does not exist (6 nodes)" },
    Case { name: "stiffness of the wrong type", mutate: |j, _| set(j, "/extensions/VRMC_springBone/springs/0/joints/0/stiffness", json!("stiff")),
        kind: ErrorKind::Type, path: "extensions.VRMC_springBone.springs[0].joints[0].stiffness", message: "expected a number, found a string" },
    Case { name: "joints not an array", mutate: |j, _| set(j, "/extensions/VRMC_springBone/springs/0/joints", json!({})),
        kind: ErrorKind::Type, path: "extensions.VRMC_springBone.springs[0].joints", message: "expected an array" },
    Case { name: "collider group index", mutate: |j, _| set(j, "/extensions/VRMC_springBone/springs/0/colliderGroups/0", json!(4)),
        kind: ErrorKind::Index, path: "extensions.VRMC_springBone.springs[0].colliderGroups[0]", message: "colliderGroup 4 does not exist (1 colliderGroups)" },
    Case { name: "group names a missing collider", mutate: |j, _| set(j, "/extensions/VRMC_springBone/colliderGroups/0/colliders/0", json!(7)),
        kind: ErrorKind::Index, path: "extensions.VRMC_springBone.colliderGroups[0].colliders[0]", message: "collider 7 does not exist (1 colliders)" },
    Case { name: "collider without any shape", mutate: |j, _| { j.pointer_mut("/extensions/VRMC_springBone/colliders/0").unwrap().as_object_mut().unwrap().remove("shape"); },
        kind: ErrorKind::Missing, path: "extensions.VRMC_springBone.colliders[0]", message: "no shape" },
    Case { name: "center node out of range", mutate: |j, _| set(j, "/extensions/VRMC_springBone/springs/0/center", json!(-1)),
        kind: ErrorKind::Type, path: "extensions.VRMC_springBone.springs[0].center", message: "non-negative integer" },
    Case { name: "humanoid missing", mutate: |j, _| { j.pointer_mut("/extensions/VRMC_vrm").unwrap().as_object_mut().unwrap().remove("humanoid"); },
        kind: ErrorKind::Missing, path: "extensions.VRMC_vrm.humanoid", message: "required property is missing" },
    Case { name: "human bone node out of range", mutate: |j, _| set(j, "/extensions/VRMC_vrm/humanoid/humanBones/head/node", json!(71)),
        kind: ErrorKind::Index, path: "extensions.VRMC_vrm.humanoid.humanBones.head.node", message: "node 71 does not exist (6 nodes)" },
    Case { name: "node hierarchy cycle", mutate: |j, _| { set(j, "/nodes/4/children", json!([0])); set(j, "/scenes/0/nodes", json!([5])); },
        kind: ErrorKind::Cycle, path: "nodes[4].children[0]", message: "node 0 is on a parent cycle" },
    Case { name: "node with two parents", mutate: |j, _| set(j, "/nodes/4/children", json!([3])),
        kind: ErrorKind::Cycle, path: "nodes[4].children[0]", message: "already has parent 2" },
    Case { name: "child index out of range", mutate: |j, _| set(j, "/nodes/0/children/0", json!(6)),
        kind: ErrorKind::Index, path: "nodes[0].children[0]", message: "node 6 does not exist (6 nodes)" },
    Case { name: "translation of the wrong length", mutate: |j, _| set(j, "/nodes/2/translation", json!([1.0, 2.0])),
        kind: ErrorKind::Type, path: "nodes[2].translation", message: "expected an array of 3 numbers" },
    Case { name: "constraint cycle", mutate: |j, _| set(j, "/nodes/1/extensions", json!({ "VRMC_node_constraint": { "specVersion": "1.0", "constraint": { "rotation": { "source": 5 } } } })),
        kind: ErrorKind::Cycle, path: "nodes[1].extensions.VRMC_node_constraint.constraint", message: "dependency cycle" },
    Case { name: "constraint on itself", mutate: |j, _| set(j, "/nodes/5/extensions/VRMC_node_constraint/constraint/rotation/source", json!(5)),
        kind: ErrorKind::Cycle, path: "nodes[5].extensions.VRMC_node_constraint.constraint", message: "dependency cycle" },
    Case { name: "bad roll axis", mutate: |j, _| set(j, "/nodes/5/extensions/VRMC_node_constraint/constraint", json!({ "roll": { "source": 1, "rollAxis": "W" } })),
        kind: ErrorKind::Invalid, path: "nodes[5].extensions.VRMC_node_constraint.constraint.roll.rollAxis", message: "rollAxis `W`" },
    Case { name: "two constraint kinds at once", mutate: |j, _| set(j, "/nodes/5/extensions/VRMC_node_constraint/constraint/aim", json!({ "source": 1, "aimAxis": "PositiveX" })),
        kind: ErrorKind::Invalid, path: "nodes[5].extensions.VRMC_node_constraint.constraint", message: "exactly one" },
    Case { name: "huge accessor count", mutate: |j, _| set(j, "/accessors/0/count", json!(4_000_000_000u64)),
        kind: ErrorKind::Bounds, path: "accessors[0]", message: "does not fit bufferView 0" },
    Case { name: "huge count without a buffer view", mutate: |j, _| { j.pointer_mut("/accessors/0").unwrap().as_object_mut().unwrap().remove("bufferView"); set(j, "/accessors/0/count", json!(1u64 << 40)); },
        kind: ErrorKind::Bounds, path: "accessors[0]", message: "exceeds the limit" },
    Case { name: "one big accessor referenced by many primitives", mutate: |j, _| {
            // A view-less VEC3 accessor of 1,398,101 elements (4,194,303 components, just under
            // the per-accessor cap); the budget for a 44-byte buffer is 16 × 44 + 2^24
            // components, so four decodes fit and the fifth primitive must fail.
            j.pointer_mut("/accessors/0").unwrap().as_object_mut().unwrap().remove("bufferView");
            set(j, "/accessors/0/count", json!(1_398_101));
            let prim = json!({ "attributes": { "POSITION": 0 } });
            set(j, "/meshes/0/primitives", json!([prim.clone(), prim.clone(), prim.clone(), prim.clone(), prim]));
        },
        kind: ErrorKind::Bounds, path: "accessors[0]", message: "memory budget" },
    Case { name: "buffer view past the buffer", mutate: |j, _| set(j, "/bufferViews/1/byteLength", json!(1000)),
        kind: ErrorKind::Bounds, path: "bufferViews[1]", message: "exceeds buffer 0 (44 bytes)" },
    Case { name: "buffer claims more than the BIN chunk", mutate: |j, _| set(j, "/buffers/0/byteLength", json!(1 << 30)),
        kind: ErrorKind::Bounds, path: "buffers[0].byteLength", message: "only 44 are present" },
    Case { name: "index past the vertices", mutate: |_, b| { b[36] = 9; },
        kind: ErrorKind::Index, path: "meshes[0].primitives[0].indices", message: "vertex 9 but there are 3 vertices" },
    Case { name: "accessor of the wrong type", mutate: |j, _| set(j, "/accessors/0/type", json!("VEC2")),
        kind: ErrorKind::Invalid, path: "meshes[0].primitives[0].attributes.POSITION", message: "expected [3]" },
    Case { name: "component type unknown", mutate: |j, _| set(j, "/accessors/0/componentType", json!(1234)),
        kind: ErrorKind::Invalid, path: "accessors[0].componentType", message: "not a glTF component type" },
    Case { name: "nodes not an array", mutate: |j, _| set(j, "/nodes", json!(5)),
        kind: ErrorKind::Type, path: "nodes", message: "expected an array, found a number" },
    Case { name: "external buffer without a base dir", mutate: |j, _| set(j, "/buffers/0/uri", json!("x.bin")),
        kind: ErrorKind::Io, path: "buffers[0].uri", message: "no base directory" },
];

#[test]
fn malformed_documents_name_path_and_fact() {
    let mut failures = Vec::new();
    for case in CASES {
        let (mut j, mut b) = base();
        (case.mutate)(&mut j, &mut b);
        match load_bytes(&common::glb(&j, &b), None) {
            Ok(_) => failures.push(format!("{}: loaded", case.name)),
            Err(e) => {
                if e.kind != case.kind || e.path != case.path || !e.message.contains(case.message) {
                    failures.push(format!(
                        "{}: got {:?} `{e}`, want {:?} `{}: …{}…`",
                        case.name, e.kind, case.kind, case.path, case.message
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn truncated_and_garbage_files_fail_cleanly() {
    let (j, b) = base();
    let full = common::glb(&j, &b);
    // Every truncation of the GLB fails (container or JSON), never panics.
    for n in 0..full.len() {
        let e = load_bytes(&full[..n], None).expect_err("truncated file loaded");
        assert!(
            matches!(
                e.kind,
                ErrorKind::Container | ErrorKind::Syntax | ErrorKind::Missing | ErrorKind::Bounds
            ),
            "cut at {n}: {e}"
        );
    }
    // The GLB header claims a 4 GiB JSON chunk.
    let mut lie = full.clone();
    lie[12..16].copy_from_slice(&u32::MAX.to_le_bytes());
    assert_eq!(
        load_bytes(&lie, None).unwrap_err().kind,
        ErrorKind::Container
    );
    // Truncated JSON text.
    let text = serde_json::to_vec(&j).unwrap();
    let e = load_bytes(&text[..text.len() / 2], None).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Syntax);
    assert!(e.message.contains("line 1"), "{e}");
}

#[test]
fn oddities_load_with_warnings() {
    let (mut j, b) = base();
    // Non-standard joint property, missing specVersion, extended collider without a base shape.
    set(
        &mut j,
        "/extensions/VRMC_springBone/springs/0/joints/0/angleLimit",
        json!(30.0),
    );
    j.pointer_mut("/extensions/VRMC_springBone")
        .unwrap()
        .as_object_mut()
        .unwrap()
        .remove("specVersion");
    set(
        &mut j,
        "/extensions/VRMC_springBone/colliders/0",
        json!({ "node": 1, "extensions": { "VRMC_springBone_extended_collider": {
            "specVersion": "1.0", "shape": { "capsule": { "radius": 0.2, "tail": [0.0, 0.1, 0.0], "inside": true } } } } }),
    );
    let a = load_bytes(&common::glb(&j, &b), None).unwrap();
    let w: Vec<String> = a.warnings.iter().map(ToString::to_string).collect();
    let has = |s: &str| w.iter().any(|x| x.contains(s));
    assert!(
        has(
            "extensions.VRMC_springBone.springs[0].joints[0].angleLimit: non-standard joint-level `angleLimit` ignored"
        ),
        "{w:#?}"
    );
    assert!(
        has("extensions.VRMC_springBone.specVersion: missing specVersion"),
        "{w:#?}"
    );
    assert!(
        has("extensions.VRMC_springBone.colliders[0].shape: missing base shape"),
        "{w:#?}"
    );
    assert_eq!(w.len(), 3, "{w:#?}");
    assert_eq!(
        a.springs.colliders[0].shape,
        tress_vrm::ColliderShape::InsideCapsule {
            offset: glam::Vec3::ZERO,
            tail: glam::Vec3::new(0.0, 0.1, 0.0),
            radius: 0.2
        }
    );
}

#[test]
fn vrm0_document_converts_to_vrm1_conventions() {
    let (mut j, b) = base();
    let ext = j
        .pointer_mut("/extensions")
        .unwrap()
        .as_object_mut()
        .unwrap();
    ext.clear();
    ext.insert(
        "VRM".into(),
        json!({
            "humanoid": { "humanBones": [
                { "bone": "hips", "node": 0 }, { "bone": "head", "node": 1 },
                { "bone": "leftThumbProximal", "node": 5 } ] },
            "meta": { "title": "t", "licenseName": "CC0", "violentUssageName": "Disallow" },
            "secondaryAnimation": {
                "boneGroups": [{ "comment": "", "stiffiness": 0.7, "gravityPower": 0.1,
                    "gravityDir": { "x": 0, "y": -1, "z": 0 }, "dragForce": 0.3, "center": -1,
                    "hitRadius": 0.05, "bones": [2], "colliderGroups": [0] }],
                "colliderGroups": [{ "node": 1, "colliders": [{ "offset": { "x": 0.1, "y": 0.2, "z": 0.3 }, "radius": 0.4 }] }]
            }
        }),
    );
    let a = load_bytes(&common::glb(&j, &b), None).unwrap();
    assert_eq!(a.format, tress_vrm::Format::Vrm0);
    let h = a.humanoid.as_ref().unwrap();
    assert_eq!(
        h.bone("leftThumbMetacarpal"),
        Some(5),
        "0.x thumb proximal → 1.0 metacarpal"
    );
    assert_eq!(
        a.meta.as_ref().unwrap().allow_excessively_violent_usage,
        Some(false)
    );
    let c = &a.springs.chains[0];
    // Root hair0 (2) → hair1 (3) → hair2 (4, childless): three joints plus a virtual tail
    // 7 cm along hair2's local translation (0,-0.1,0) → (0,-0.07,0).
    assert_eq!(
        c.joints.iter().map(|j| j.node).collect::<Vec<_>>(),
        [2, 3, 4]
    );
    assert!((c.virtual_tail.unwrap() - glam::Vec3::new(0.0, -0.07, 0.0)).length() < 1e-6);
    assert_eq!(c.simulated_len(), 3);
    assert_eq!(
        (
            c.joints[0].stiffness,
            c.joints[0].drag_force,
            c.joints[0].hit_radius
        ),
        (0.7, 0.3, 0.05)
    );
    assert_eq!(c.center, None);
    // Left-handed offset: z negated.
    assert_eq!(
        a.springs.colliders[0].shape,
        tress_vrm::ColliderShape::Sphere {
            offset: glam::Vec3::new(0.1, 0.2, -0.3),
            radius: 0.4
        }
    );
    // VRM 0.x bone-group root out of range names its path.
    set(
        &mut j,
        "/extensions/VRM/secondaryAnimation/boneGroups/0/bones/0",
        json!(93),
    );
    let e = load_bytes(&common::glb(&j, &b), None).unwrap_err();
    assert_eq!(
        e.to_string(),
        "extensions.VRM.secondaryAnimation.boneGroups[0].bones[0]: node 93 does not exist (6 nodes)"
    );
}
