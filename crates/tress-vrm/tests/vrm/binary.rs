//! Acceptance 4 (readers that say what and where), glTF side: each bad
//! file is built in code from the committed `assets/tress_avatar.vrm`
//! (bytes patched through the accessor that holds them, or the file cut
//! short) or from a small document, and the error names its kind and where:
//! the JSON path and accessor element, or the byte offset and lengths.

use serde_json::{Value, json};
use tress_vrm::{ErrorKind, load_bytes};

use crate::common;

fn avatar_bytes() -> Vec<u8> {
    std::fs::read(tress_testkit::repo_root().join("assets/tress_avatar.vrm")).unwrap()
}

/// The JSON of a GLB and the byte offset of its BIN chunk's data.
fn split(glb: &[u8]) -> (Value, usize) {
    let n = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    let json = serde_json::from_slice(&glb[20..20 + n]).unwrap();
    (json, 20 + n + 8)
}

/// File offset of component `comp` of element `elem` of accessor `acc`
/// (float components, tightly packed views as the generator writes them).
fn float_at(glb: &[u8], acc: usize, elem: usize, comp: usize) -> usize {
    let (j, bin) = split(glb);
    let a = &j["accessors"][acc];
    let view = &j["bufferViews"][a["bufferView"].as_u64().unwrap() as usize];
    let ncomp = match a["type"].as_str().unwrap() {
        "SCALAR" => 1,
        "VEC3" => 3,
        "VEC4" => 4,
        "MAT4" => 16,
        t => panic!("type {t}"),
    };
    let off = |v: &Value| v.as_u64().unwrap_or(0) as usize;
    bin + off(&view["byteOffset"]) + off(&a["byteOffset"]) + (elem * ncomp + comp) * 4
}

/// The accessor index `pointer` (a JSON pointer into the avatar) holds.
fn accessor(glb: &[u8], pointer: &str) -> usize {
    split(glb).0.pointer(pointer).unwrap().as_u64().unwrap() as usize
}

fn patch_f32(glb: &mut [u8], at: usize, x: f32) {
    glb[at..at + 4].copy_from_slice(&x.to_le_bytes());
}

type Patch = fn(&mut Vec<u8>);

struct Case {
    name: &'static str,
    patch: Patch,
    kind: ErrorKind,
    path: &'static str,
    message: &'static str,
}

/// Expected paths and accessor numbers read off the avatar's JSON
/// (`meshes[0]` is Body: POSITION accessor 1, JOINTS_0 3, WEIGHTS_0 4;
/// `skins[0]` has 61 joints and inverseBindMatrices accessor 0; node 62
/// puts mesh 0 on skin 0). The generated avatar is byte-reproducible, so
/// these stay put until the generator changes.
#[rustfmt::skip]
const AVATAR_CASES: &[Case] = &[
    Case { name: "NaN vertex position", patch: |b| {
            let at = float_at(b, accessor(b, "/meshes/0/primitives/0/attributes/POSITION"), 12, 1);
            patch_f32(b, at, f32::NAN);
        },
        kind: ErrorKind::Invalid, path: "meshes[0].primitives[0].attributes.POSITION",
        message: "accessors[1] element 12 component 1 is NaN" },
    Case { name: "infinite vertex position", patch: |b| {
            let at = float_at(b, accessor(b, "/meshes/1/primitives/1/attributes/POSITION"), 0, 2);
            patch_f32(b, at, f32::NEG_INFINITY);
        },
        kind: ErrorKind::Invalid, path: "meshes[1].primitives[1].attributes.POSITION",
        message: "accessors[16] element 0 component 2 is -inf" },
    Case { name: "NaN inverse bind matrix", patch: |b| {
            let at = float_at(b, accessor(b, "/skins/0/inverseBindMatrices"), 5, 15);
            patch_f32(b, at, f32::NAN);
        },
        kind: ErrorKind::Invalid, path: "skins[0].inverseBindMatrices",
        message: "accessors[0] element 5 component 15 is NaN" },
    Case { name: "NaN skin weight", patch: |b| {
            let at = float_at(b, accessor(b, "/meshes/0/primitives/0/attributes/WEIGHTS_0"), 3, 0);
            patch_f32(b, at, f32::INFINITY);
        },
        kind: ErrorKind::Invalid, path: "meshes[0].primitives[0].attributes.WEIGHTS_0",
        message: "accessors[4] element 3 component 0 is inf" },
    Case { name: "truncated in the BIN chunk", patch: |b| b.truncate(500_000),
        kind: ErrorKind::Container, path: "",
        message: "file truncated: the GLB header (byte 8) declares 546204 bytes, found 500000" },
    Case { name: "BIN chunk longer than the file", patch: |b| {
            // BIN chunk header at 20 + 29368 (the JSON chunk's length); its data is 516808 bytes.
            let at = 20 + 29_368;
            b[at..at + 4].copy_from_slice(&600_000u32.to_le_bytes());
        },
        kind: ErrorKind::Container, path: "",
        message: "chunk 1 (BIN\\0) at byte 29388 declares 600000 bytes of data from byte 29396, found 516808" },
];

#[test]
fn bad_binary_data_in_the_avatar_names_accessor_and_element() {
    let good = avatar_bytes();
    assert!(load_bytes(&good, None).is_ok());
    let mut failures = Vec::new();
    for case in AVATAR_CASES {
        let mut b = good.clone();
        (case.patch)(&mut b);
        match load_bytes(&b, None) {
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

/// A NaN normal is dropped with a warning that says where; the rest loads.
#[test]
fn a_nan_normal_is_a_warning() {
    let mut b = avatar_bytes();
    let acc = accessor(&b, "/meshes/0/primitives/0/attributes/NORMAL");
    let at = float_at(&b, acc, 7, 0);
    patch_f32(&mut b, at, f32::NAN);
    let a = load_bytes(&b, None).unwrap();
    assert!(a.meshes[0].primitives[0].normals.is_empty());
    let w: Vec<String> = a.warnings.iter().map(ToString::to_string).collect();
    assert_eq!(
        w,
        [format!(
            "meshes[0].primitives[0].attributes.NORMAL: accessors[{acc}] element 7 component 0 is NaN (values must be finite); normals dropped"
        )]
    );
}

/// A small skinned, animated document: nodes 0 (root joint) and 1 (joint)
/// in `skins[0]`, node 2 puts the triangle of mesh 0 on that skin; one
/// animation rotates node 1. BIN: positions (36 bytes at 0), joints
/// (4 × u8 per vertex, 12 at 36), weights (48 at 48), inverse binds
/// (2 × 64 at 96), key times (2 × 4 at 224), rotations (2 × 16 at 232).
fn skinned() -> (Value, Vec<u8>) {
    fn floats(bin: &mut Vec<u8>, v: &[f32]) {
        v.iter()
            .for_each(|c| bin.extend_from_slice(&c.to_le_bytes()));
    }
    let mut bin = Vec::new();
    floats(&mut bin, &[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0]);
    bin.extend_from_slice(&[0, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0, 0]);
    floats(
        &mut bin,
        &[0.5, 0.5, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0],
    );
    let id = glam::Mat4::IDENTITY.to_cols_array();
    floats(&mut bin, &id);
    floats(&mut bin, &id);
    floats(&mut bin, &[0.0, 1.0]);
    floats(&mut bin, &[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]);
    let json = json!({
        "asset": { "version": "2.0" },
        "scenes": [{ "nodes": [0, 2] }],
        "nodes": [
            { "name": "root", "children": [1] },
            { "name": "bone", "translation": [0.0, 1.0, 0.0] },
            { "name": "skinned", "mesh": 0, "skin": 0 }
        ],
        "meshes": [{ "primitives": [{ "attributes": { "POSITION": 0, "JOINTS_0": 1, "WEIGHTS_0": 2 } }] }],
        "skins": [{ "joints": [0, 1], "inverseBindMatrices": 3 }],
        "animations": [{
            "samplers": [{ "input": 4, "output": 5 }],
            "channels": [{ "sampler": 0, "target": { "node": 1, "path": "rotation" } }]
        }],
        "accessors": [
            { "bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
              "min": [0.0, 0.0, 0.0], "max": [1.0, 1.0, 0.0] },
            { "bufferView": 1, "componentType": 5121, "count": 3, "type": "VEC4" },
            { "bufferView": 2, "componentType": 5126, "count": 3, "type": "VEC4" },
            { "bufferView": 3, "componentType": 5126, "count": 2, "type": "MAT4" },
            { "bufferView": 4, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0.0], "max": [1.0] },
            { "bufferView": 5, "componentType": 5126, "count": 2, "type": "VEC4" }
        ],
        "bufferViews": [
            { "buffer": 0, "byteOffset": 0, "byteLength": 36 },
            { "buffer": 0, "byteOffset": 36, "byteLength": 12 },
            { "buffer": 0, "byteOffset": 48, "byteLength": 48 },
            { "buffer": 0, "byteOffset": 96, "byteLength": 128 },
            { "buffer": 0, "byteOffset": 224, "byteLength": 8 },
            { "buffer": 0, "byteOffset": 232, "byteLength": 32 }
        ],
        "buffers": [{ "byteLength": 264 }]
    });
    (json, bin)
}

type Mutate = fn(&mut Value, &mut Vec<u8>);

#[rustfmt::skip]
const SKINNED_CASES: &[(&str, Mutate, ErrorKind, &str, &str)] = &[
    ("joint index past the skin's joints", |_, b| b[36 + 4 * 2] = 2, ErrorKind::Index,
        "meshes[0].primitives[0].attributes.JOINTS_0",
        "accessors[1] element 2 component 0 is joint 2, but skins[0] (used with meshes[0] by nodes[2]) has 2 joints"),
    ("NaN key time", |_, b| b[228..232].copy_from_slice(&f32::NAN.to_le_bytes()), ErrorKind::Invalid,
        "animations[0].samplers[0].input", "accessors[4] element 1 component 0 is NaN"),
    ("infinite key rotation", |_, b| b[236..240].copy_from_slice(&f32::INFINITY.to_le_bytes()), ErrorKind::Invalid,
        "animations[0].samplers[0].output", "accessors[5] element 0 component 1 is inf"),
];

#[test]
fn bad_skin_and_animation_data_names_accessor_and_element() {
    let (j, b) = skinned();
    let a = load_bytes(&common::glb(&j, &b), None).unwrap();
    assert!(a.warnings.is_empty(), "{:?}", a.warnings);
    let mut failures = Vec::new();
    for (name, mutate, kind, path, message) in SKINNED_CASES {
        let (mut j, mut b) = skinned();
        mutate(&mut j, &mut b);
        match load_bytes(&common::glb(&j, &b), None) {
            Ok(_) => failures.push(format!("{name}: loaded")),
            Err(e) if e.kind == *kind && e.path == *path && e.message.contains(message) => {}
            Err(e) => failures.push(format!("{name}: got {:?} `{e}`", e.kind)),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Regression (issue #18): a joint index out of range whose weight is 0
/// moves nothing; it is said, not fatal.
#[test]
fn an_out_of_range_joint_with_zero_weight_is_a_warning() {
    let (j, mut b) = skinned();
    // Vertex 0 has weights (0.5, 0.5, 0, 0): its third joint slot weighs nothing.
    b[36 + 2] = 9;
    let a = load_bytes(&common::glb(&j, &b), None).unwrap();
    let w: Vec<String> = a.warnings.iter().map(ToString::to_string).collect();
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0].starts_with("meshes[0].primitives[0].attributes.JOINTS_0: accessors[1] element 0 component 2 is joint 9"),
        "{w:?}"
    );
}

/// Regression (issue #18): a second scene without `nodes` is schema-valid
/// (glTF 2.0 `scene.schema.json` requires nothing) and loads without a warning.
#[test]
fn a_scene_without_nodes_loads_without_warnings() {
    let (mut j, b) = skinned();
    j["scenes"] = json!([{ "nodes": [0, 2] }, { "name": "empty" }]);
    let a = load_bytes(&common::glb(&j, &b), None).unwrap();
    assert!(a.warnings.is_empty(), "{:?}", a.warnings);
    assert_eq!(a.roots, [0, 2]);
    // The empty one chosen as the default scene: no roots, still no warning.
    j["scene"] = json!(1);
    let a = load_bytes(&common::glb(&j, &b), None).unwrap();
    assert!(a.warnings.is_empty(), "{:?}", a.warnings);
    assert!(a.roots.is_empty());
}

/// Regression (issue #18): unnamed clips are `clip0`, `clip1`, … by their
/// index among the file's animations; named ones keep their names.
#[test]
fn unnamed_clips_are_named_by_index() {
    let (mut j, b) = skinned();
    let anim = j["animations"][0].clone();
    let mut named = anim.clone();
    named["name"] = json!("Wave");
    let mut empty = anim.clone();
    empty["name"] = json!("");
    j["animations"] = json!([anim, named, empty]);
    let a = load_bytes(&common::glb(&j, &b), None).unwrap();
    let names: Vec<&str> = a.animations.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["clip0", "Wave", "clip2"]);
}

/// Files of another kind are named, with what to do instead, rather than
/// reported as JSON syntax errors (issue #18: `tress retarget` on a `.bvh`
/// said "invalid JSON at line 1 column 1").
#[test]
fn other_formats_are_named_not_parsed() {
    let mut tfx = 4.0f32.to_le_bytes().to_vec();
    tfx.resize(160, 0);
    #[rustfmt::skip]
    let cases: &[(&[u8], &str)] = &[
        (b"HIERARCHY\nROOT Hips\n{\n\tOFFSET 0 0 0\n", "this is a BVH motion capture file (.bvh), not a glTF / VRM file: BVH is read as an animation (tress retarget, tress validate-anim --clips, TressAvatar.load_animations), not as an avatar or a groom"),
        (b"[gd_scene load_steps=2 format=3]\n", "this is a Godot scene (.tscn), not a glTF / VRM file: Godot's own text files are not read; export the scene as .glb from Godot"),
        (b"[gd_resource type=\"Animation\" format=3]\n", "this is a Godot resource (.tres), not a glTF / VRM file"),
        (&tfx, "this is a TressFX groom (.tfx), not a glTF / VRM file"),
        (b"Kaydara FBX Binary  \0", "this is an FBX file (.fbx), not a glTF / VRM file: convert it to .glb"),
        (b"\x89PNG\r\n\x1a\n", "this is a PNG image, not a glTF / VRM file"),
        (b"v 0 0 0\nv 0 1 0\nl 1 2\n", "this is an OBJ file (.obj), not a glTF / VRM file"),
    ];
    for (bytes, want) in cases {
        let e = load_bytes(bytes, None).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Unsupported, "{want}");
        assert!(e.message.starts_with(want), "{e}");
    }
    // By name too, where the bytes say nothing (`load_path`).
    let dir = std::env::temp_dir().join(format!("tress-vrm-sniff-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("walk.bvh");
    std::fs::write(&p, b"MOTION\nFrames: 1\n").unwrap();
    let e = tress_vrm::load_path(&p).unwrap_err();
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(
        e.message.starts_with("this is a BVH motion capture file"),
        "{e}"
    );
    // Text that is nothing known still gets the JSON position, and a hint.
    let e = load_bytes(b"hello", None).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Syntax);
    assert!(e.message.contains("line 1 column 1"), "{e}");
    assert!(e.message.contains("does not start like a glTF"), "{e}");
}

/// Random single-byte changes anywhere in the avatar (seeded, so a failure
/// reproduces) load or fail with an error; none panics. The container and
/// accessor checks above run on every one of them.
#[test]
fn random_byte_changes_never_panic() {
    let good = avatar_bytes();
    // 64-bit LCG (Knuth's MMIX constants), seed fixed.
    let mut state = 0x7265_6164_6572_7321u64;
    let mut next = || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) as usize
    };
    let (mut loaded, mut failed) = (0, 0);
    for _ in 0..300 {
        let mut b = good.clone();
        // Half the changes hit the headers and JSON, where structure lives.
        let at = if next() % 2 == 0 {
            next() % 29_400
        } else {
            next() % b.len()
        };
        b[at] ^= 1 << (next() % 8);
        match load_bytes(&b, None) {
            Ok(_) => loaded += 1,
            Err(_) => failed += 1,
        }
    }
    assert_eq!(loaded + failed, 300);
    assert!(failed > 0, "no change was caught");
}
