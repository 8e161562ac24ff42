//! Acceptance 2: tress-core's VRM-compatible spring mode, fed from this
//! loader, against pixiv three-vrm 3.5.5 (three 0.180.0) run headless in Node
//! by `tests/parity/dump.mjs`. Per chain: max and RMS distance between the
//! joints' tail positions over 4 s at dt = 1/120.
//!
//! Reference dumps are made by `bash tests/parity/run.sh` (npm ci + node);
//! this test runs that script when `tests/parity/out/` is empty and node is
//! installed. Without node or `../shared/assets` it says so loudly (and fails
//! when `CI` is set).

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use glam::{Mat4, Quat, Vec3};
use tress_core::spring::{JointOutput, Mode};
use tress_rig::spring_rig::{RigOptions, SpringRig, pose_of};
use tress_vrm::Avatar;

/// Acceptance 2's bound.
const TOLERANCE_M: f32 = 0.001;

fn parity_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/parity")
}

fn ensure_reference(dir: &Path) -> bool {
    let out = dir.join("out");
    let has = out
        .read_dir()
        .map(|mut d| d.next().is_some())
        .unwrap_or(false);
    if has {
        return true;
    }
    let node_ok = Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !node_ok {
        assert!(
            std::env::var_os("CI").is_none(),
            "node not found and CI is set: parity cannot run"
        );
        eprintln!("\n!!!!!!!! SKIPPED: node not found; three-vrm parity did NOT run !!!!!!!!\n");
        return false;
    }
    let st = Command::new("bash")
        .arg(dir.join("run.sh"))
        .status()
        .expect("run tests/parity/run.sh");
    assert!(st.success(), "tests/parity/run.sh failed");
    true
}

#[derive(serde::Deserialize)]
struct Dump {
    case: String,
    dt: f32,
    steps: usize,
    joints: Vec<DumpJoint>,
    tails: Vec<Vec<f32>>,
}

#[derive(serde::Deserialize)]
struct DumpJoint {
    node: usize,
}

/// World matrices with the case's drive applied at time `t`.
fn world(a: &Avatar, case: &str, t: f32, head: Option<usize>) -> Vec<Mat4> {
    let root = if case == "move" {
        Mat4::from_translation(Vec3::new(
            tress_core::math::ops::sin(core::f32::consts::PI * t),
            0.0,
            0.0,
        ))
    } else {
        Mat4::IDENTITY
    };
    let mut w = vec![Mat4::IDENTITY; a.nodes.len()];
    let mut stack: Vec<(usize, Mat4)> = (0..a.nodes.len())
        .filter(|&i| a.nodes[i].parent.is_none())
        .map(|i| (i, root))
        .collect();
    while let Some((i, p)) = stack.pop() {
        let n = &a.nodes[i];
        let mut rot = n.rotation;
        if case == "head" && Some(i) == head {
            let yaw = core::f32::consts::FRAC_PI_3
                * tress_core::math::ops::sin(core::f32::consts::PI * t);
            rot *= Quat::from_rotation_y(yaw);
        }
        let m = p * Mat4::from_scale_rotation_translation(n.scale, rot, n.translation);
        w[i] = m;
        stack.extend(n.children.iter().map(|&c| (c, m)));
    }
    w
}

struct Stat {
    label: String,
    max: f32,
    rms: f32,
}

fn compare(assets: &Path, model: &str, dump: &Dump) -> Vec<Stat> {
    let a = tress_vrm::load_path(assets.join(model)).unwrap();
    let head = a.humanoid.as_ref().and_then(|h| h.bone("head"));
    let opts = RigOptions {
        mode: Mode::VrmCompatible,
        vrm_length_quirk: true,
        ..RigOptions::default()
    };
    let mut b = SpringRig::build(&a, &opts).unwrap();
    // Reference joint k ↔ (avatar chain, joint index) by node.
    let map: Vec<(usize, usize)> = dump
        .joints
        .iter()
        .map(|j| {
            let (pos, ci) = b
                .chains
                .iter()
                .enumerate()
                .find_map(|(pos, rc)| {
                    let ci = rc.spring;
                    a.springs.chains[ci].joints[..a.springs.chains[ci].simulated_len()]
                        .iter()
                        .position(|x| x.node == j.node)
                        .map(|ji| ((pos, ji), ci))
                })
                .unwrap_or_else(|| {
                    panic!("{model}: reference joint node {} not in any chain", j.node)
                });
            let _ = ci;
            pos
        })
        .collect();
    let n_chains = b.chains.len();
    let mut max = vec![0.0f32; n_chains];
    let mut sum2 = vec![0.0f64; n_chains];
    let mut cnt = vec![0usize; n_chains];
    let mut out = [JointOutput::default(); 64];
    for k in 1..=dump.steps {
        let t = k as f32 * dump.dt;
        let w = world(&a, &dump.case, t, head);
        let root = if dump.case == "move" {
            Mat4::from_translation(Vec3::new(
                tress_core::math::ops::sin(core::f32::consts::PI * t),
                0.0,
                0.0,
            ))
        } else {
            Mat4::IDENTITY
        };
        for (f, node) in b.frame_nodes.iter().enumerate() {
            let m = node.map_or(root, |n| w[n]);
            b.world.set_frame_pose(f, pose_of(&m));
        }
        b.world.advance(dump.dt);
        let row = &dump.tails[k - 1];
        let mut outs: Vec<Vec<JointOutput>> = Vec::with_capacity(n_chains);
        for rc in &b.chains {
            let n = b.world.outputs(rc.index, &mut out);
            outs.push(out[..n].to_vec());
        }
        for (r, &(pos, ji)) in map.iter().enumerate() {
            let want = Vec3::new(row[3 * r], row[3 * r + 1], row[3 * r + 2]);
            let d = (outs[pos][ji].tail - want).length();
            max[pos] = max[pos].max(d);
            sum2[pos] += f64::from(d) * f64::from(d);
            cnt[pos] += 1;
        }
    }
    b.chains
        .iter()
        .enumerate()
        .map(|(pos, rc)| {
            let ci = rc.spring;
            let c = &a.springs.chains[ci];
            #[allow(clippy::cast_possible_truncation)]
            let rms = if cnt[pos] == 0 {
                0.0
            } else {
                tress_core::math::ops::sqrt((sum2[pos] / cnt[pos] as f64) as f32)
            };
            Stat {
                label: format!(
                    "{} chain {ci} (root node {} `{}`)",
                    model, c.joints[0].node, a.nodes[c.joints[0].node].name
                ),
                max: max[pos],
                rms,
            }
        })
        .collect()
}

// Not compared: the two vrm1-springbone extended-collider files. Their
// extended collider has no specVersion, so three-vrm 3.5.5 ignores it (falls
// back to the base shape: a far-away zero sphere for the plane file, nothing
// at all for the inside-sphere file, which it then refuses to load), while
// Tress uses the extended shape as the issue asks.
const CASES: &[(&str, &str)] = &[
    ("godette-vrm0/Godette_vrm_v4.vrm", "head"),
    ("godette-vrm0/Godette_vrm_v4.vrm", "move"),
    ("godette-vrm0/Godette_vrm_v4.vrm", "still"),
    ("three-vrm-springbone/sphere-collider.gltf", "move"),
    ("three-vrm-springbone/sphere-collider.gltf", "still"),
    ("three-vrm-springbone/plane-collider.gltf", "move"),
    ("three-vrm-springbone/plane-collider.gltf", "still"),
    ("three-vrm-springbone/inside-collider.gltf", "move"),
    ("three-vrm-springbone/inside-collider.gltf", "still"),
    ("three-vrm-springbone/cubes.gltf", "move"),
    ("three-vrm-springbone/cubes.gltf", "still"),
    (
        "vrm1-springbone/springbone_collider_capsule_x0p02_r0p05.vrm",
        "head",
    ),
    (
        "vrm1-springbone/springbone_collider_sphere_x0p02_r0p05.vrm",
        "head",
    ),
    ("vrm1-springbone/swing_springbone_stiffness_0p2.vrm", "head"),
];

#[test]
fn vrm_compatible_mode_matches_three_vrm_within_1mm() {
    let Some(assets) = common::assets_dir() else {
        return;
    };
    let dir = parity_dir();
    if !ensure_reference(&dir) {
        return;
    }
    let mut worst = Vec::new();
    println!("{:<100} {:>10} {:>10}", "case / chain", "max mm", "rms mm");
    for (model, case) in CASES {
        let stem = Path::new(model)
            .file_stem()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let path = dir.join("out").join(format!("{stem}__{case}.json"));
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{}: {e} (run tests/parity/run.sh)", path.display()));
        let dump: Dump = serde_json::from_str(&text).unwrap();
        assert_eq!(&dump.case, case);
        for s in compare(&assets, model, &dump) {
            println!(
                "{:<100} {:>10.4} {:>10.4}",
                format!("{case}: {}", s.label),
                s.max * 1000.0,
                s.rms * 1000.0
            );
            if s.max > TOLERANCE_M {
                worst.push(format!("{case}: {} max {:.3} mm", s.label, s.max * 1000.0));
            }
        }
    }
    assert!(
        worst.is_empty(),
        "over {} mm:\n{}",
        TOLERANCE_M * 1000.0,
        worst.join("\n")
    );
}
