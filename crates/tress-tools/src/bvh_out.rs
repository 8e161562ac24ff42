//! A body clip written as BVH motion capture, to make BVH test data from
//! clips we have (the Universal Animation Library) and to hand clips to
//! tools that read BVH.
//!
//! The BVH skeleton is the source's humanoid body (no fingers) in its rest
//! *positions* with identity rest rotations (BVH's rest pose), so each
//! joint's BVH rotation is its world rotation change from rest, taken
//! relative to its BVH parent's: `L_b = D_p⁻¹ · D_b`, `D_b = W_b(τ) · W_b⁰⁻¹`.
//! A retarget of the BVH therefore sees the same world rotation changes as
//! a retarget of the source. Angles are written to 1e-4°, positions to
//! 1e-4 file units; the text is the same bytes on every run.

use core::fmt::Write as _;

use glam::{Mat4, Quat, Vec3};
use tress_core::math::{ops, quat};
use tress_rig::anim::BoneMap;
use tress_rig::anim::bone_map::humanoid_parent;
use tress_rig::anim::bvh::euler::{self, Axis};
use tress_rig::anim::sample::{Local, key_interval, local_pose, world_from_local};
use tress_vrm::model::{Animation, Avatar};

/// The body bones written (VRM names, parents first) with CMU-style names.
pub const CMU_NAMES: [(&str, &str); 22] = [
    ("hips", "Hips"),
    ("leftUpperLeg", "LeftUpLeg"),
    ("leftLowerLeg", "LeftLeg"),
    ("leftFoot", "LeftFoot"),
    ("leftToes", "LeftToeBase"),
    ("rightUpperLeg", "RightUpLeg"),
    ("rightLowerLeg", "RightLeg"),
    ("rightFoot", "RightFoot"),
    ("rightToes", "RightToeBase"),
    ("spine", "Spine"),
    ("chest", "Spine1"),
    ("upperChest", "Spine2"),
    ("neck", "Neck"),
    ("head", "Head"),
    ("leftShoulder", "LeftShoulder"),
    ("leftUpperArm", "LeftArm"),
    ("leftLowerArm", "LeftForeArm"),
    ("leftHand", "LeftHand"),
    ("rightShoulder", "RightShoulder"),
    ("rightUpperArm", "RightArm"),
    ("rightLowerArm", "RightForeArm"),
    ("rightHand", "RightHand"),
];

/// Which joint names to write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JointNames {
    /// CMU-style (`Hips`, `LeftUpLeg`, `Spine1`, …): [`CMU_NAMES`].
    Cmu,
    /// The source's own node names.
    Source,
}

/// How to write.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BvhOptions {
    /// Rotation channel order of every joint.
    pub order: [Axis; 3],
    /// Joint names.
    pub names: JointNames,
    /// File units per metre (100: centimetres).
    pub units_per_metre: f32,
}

impl Default for BvhOptions {
    /// CMU's: `Zrotation Xrotation Yrotation`, CMU names, centimetres.
    fn default() -> Self {
        Self {
            order: [Axis::Z, Axis::X, Axis::Y],
            names: JointNames::Cmu,
            units_per_metre: 100.0,
        }
    }
}

struct Out {
    bone: &'static str,
    node: usize,
    parent: Option<usize>,
    name: String,
}

/// `v` to 1e-4, with `-0.0000` written `0.0000` (one spelling keeps files
/// comparable).
fn num(v: f32) -> String {
    let t = format!("{v:.4}");
    if t.trim_start_matches('-')
        .bytes()
        .all(|c| c == b'0' || c == b'.')
    {
        t.trim_start_matches('-').to_owned()
    } else {
        t
    }
}

fn rotation(m: &Mat4) -> Quat {
    quat::normalize(tress_core::math::affine::decompose(m).1)
}

/// `clip` of `source` (bones from `map`) as BVH text, sampled at the
/// clip's key interval (30 Hz when it has none).
#[must_use]
pub fn write_bvh(source: &Avatar, map: &BoneMap, clip: &Animation, opts: &BvhOptions) -> String {
    let mut joints: Vec<Out> = Vec::new();
    for (bone, cmu) in CMU_NAMES {
        let Some(node) = map.node(bone).filter(|&n| n < source.nodes.len()) else {
            continue;
        };
        let mut p = humanoid_parent(bone);
        let parent = loop {
            match p {
                None => break None,
                Some(b) => {
                    if let Some(i) = joints.iter().position(|j| j.bone == b) {
                        break Some(i);
                    }
                    p = humanoid_parent(b);
                }
            }
        };
        if parent.is_none() && bone != "hips" {
            continue;
        }
        let name = match opts.names {
            JointNames::Cmu => cmu.to_owned(),
            JointNames::Source => source.nodes[node].name.replace(char::is_whitespace, "_"),
        };
        joints.push(Out {
            bone,
            node,
            parent,
            name,
        });
    }
    let rest = source.rest_world();
    let k = opts.units_per_metre;
    let pos = |n: usize| rest[n].w_axis.truncate();
    let offset = |j: &Out| match j.parent {
        Some(p) => pos(j.node) - pos(joints[p].node),
        None => pos(j.node),
    };
    let order_names: Vec<String> = opts
        .order
        .iter()
        .map(|a| format!("{}rotation", a.letter()))
        .collect();

    let mut s = String::from("HIERARCHY\n");
    // Depth-first from the hips, children in table order.
    fn emit(
        s: &mut String,
        joints: &[Out],
        i: usize,
        depth: usize,
        offset: &dyn Fn(&Out) -> Vec3,
        k: f32,
        rot: &[String],
    ) {
        let pad = "  ".repeat(depth);
        let j = &joints[i];
        let kw = if j.parent.is_none() { "ROOT" } else { "JOINT" };
        let o = offset(j) * k;
        let _ = writeln!(s, "{pad}{kw} {}\n{pad}{{", j.name);
        let _ = writeln!(s, "{pad}  OFFSET {} {} {}", num(o.x), num(o.y), num(o.z));
        if j.parent.is_none() {
            let _ = writeln!(
                s,
                "{pad}  CHANNELS 6 Xposition Yposition Zposition {}",
                rot.join(" ")
            );
        } else {
            let _ = writeln!(s, "{pad}  CHANNELS 3 {}", rot.join(" "));
        }
        let kids: Vec<usize> = (0..joints.len())
            .filter(|&c| joints[c].parent == Some(i))
            .collect();
        if kids.is_empty() {
            // The bone continued by half its length, so a leaf has a tip.
            let e = o * 0.5;
            let _ = writeln!(
                s,
                "{pad}  End Site\n{pad}  {{\n{pad}    OFFSET {} {} {}\n{pad}  }}",
                num(e.x),
                num(e.y),
                num(e.z)
            );
        }
        for c in kids {
            emit(s, joints, c, depth + 1, offset, k, rot);
        }
        let _ = writeln!(s, "{pad}}}");
    }
    // Column order is the depth-first order the hierarchy is written in.
    let mut order = Vec::new();
    let mut stack = vec![0usize];
    while let Some(i) = stack.pop() {
        order.push(i);
        let kids: Vec<usize> = (0..joints.len())
            .filter(|&c| joints[c].parent == Some(i))
            .collect();
        stack.extend(kids.into_iter().rev());
    }
    if !joints.is_empty() {
        emit(&mut s, &joints, 0, 0, &offset, k, &order_names);
    }

    let dt = key_interval(clip)
        .filter(|d| d.is_finite() && *d > 0.0)
        .unwrap_or(1.0 / 30.0);
    let duration = if clip.duration.is_finite() {
        clip.duration.max(0.0)
    } else {
        0.0
    };
    let frames = ops::round(duration / dt) as usize + 1;
    let _ = writeln!(s, "MOTION\nFrames: {frames}\nFrame Time: {dt:.7}");
    let rest_rot: Vec<Quat> = rest.iter().map(rotation).collect();
    let mut local: Vec<Local> = Vec::new();
    let mut world: Vec<Mat4> = Vec::new();
    let mut change = vec![Quat::IDENTITY; joints.len()];
    for f in 0..frames {
        let t = (f as f32 * dt).min(duration);
        local_pose(source, clip, t, &mut local);
        world_from_local(source, &local, &mut world);
        for (c, j) in change.iter_mut().zip(&joints) {
            *c = quat::normalize(quat::mul(
                rotation(&world[j.node]),
                rest_rot[j.node].inverse(),
            ));
        }
        let mut row: Vec<String> = Vec::new();
        for &i in &order {
            let j = &joints[i];
            let l = match j.parent {
                Some(p) => quat::normalize(quat::mul(change[p].inverse(), change[i])),
                None => {
                    let h = world[j.node].w_axis.truncate() * k;
                    row.extend([h.x, h.y, h.z].map(num));
                    change[i]
                }
            };
            let a = euler::decompose(l, opts.order);
            row.extend(a.map(num));
        }
        // `-0.0000` and `0.0000` mean the same; one spelling keeps files
        // comparable.
        for v in &mut row {
            if v.trim_start_matches('-')
                .chars()
                .all(|c| c == '0' || c == '.')
            {
                *v = v.trim_start_matches('-').to_owned();
            }
        }
        let _ = writeln!(s, "{}", row.join(" "));
    }
    s
}
