//! VRM 1.0: `VRMC_vrm` (humanoid, meta) and `VRMC_springBone` (+ extended colliders).

use glam::Vec3;

use super::ctx::Ctx;
use crate::error::{ErrorKind, Result};
use crate::json::J;
use crate::model::{
    Avatar, Collider, ColliderGroup, ColliderShape, Humanoid, Meta, SpringChain, SpringJoint,
};

/// The 55 VRM 1.0 humanoid bone names.
pub(crate) const HUMAN_BONES: [&str; 55] = [
    "hips",
    "spine",
    "chest",
    "upperChest",
    "neck",
    "head",
    "leftEye",
    "rightEye",
    "jaw",
    "leftUpperLeg",
    "leftLowerLeg",
    "leftFoot",
    "leftToes",
    "rightUpperLeg",
    "rightLowerLeg",
    "rightFoot",
    "rightToes",
    "leftShoulder",
    "leftUpperArm",
    "leftLowerArm",
    "leftHand",
    "rightShoulder",
    "rightUpperArm",
    "rightLowerArm",
    "rightHand",
    "leftThumbMetacarpal",
    "leftThumbProximal",
    "leftThumbDistal",
    "leftIndexProximal",
    "leftIndexIntermediate",
    "leftIndexDistal",
    "leftMiddleProximal",
    "leftMiddleIntermediate",
    "leftMiddleDistal",
    "leftRingProximal",
    "leftRingIntermediate",
    "leftRingDistal",
    "leftLittleProximal",
    "leftLittleIntermediate",
    "leftLittleDistal",
    "rightThumbMetacarpal",
    "rightThumbProximal",
    "rightThumbDistal",
    "rightIndexProximal",
    "rightIndexIntermediate",
    "rightIndexDistal",
    "rightMiddleProximal",
    "rightMiddleIntermediate",
    "rightMiddleDistal",
    "rightRingProximal",
    "rightRingIntermediate",
    "rightRingDistal",
    "rightLittleProximal",
    "rightLittleIntermediate",
    "rightLittleDistal",
];

/// Spec versions of `VRMC_springBone` that three-vrm accepts.
const SPRING_VERSIONS: [&str; 2] = ["1.0", "1.0-beta"];

pub(crate) fn spec_version(j: &J<'_>, ctx: &mut Ctx, known: &[&str]) -> Result<()> {
    match j.get("specVersion")? {
        None => ctx.warn(
            &j.key_path("specVersion"),
            "missing specVersion; read as 1.0",
        ),
        Some(v) => {
            let s = v.str()?;
            if !known.contains(&s) {
                ctx.warn(&v.path, &format!("unknown specVersion `{s}`; read as 1.0"));
            }
        }
    }
    Ok(())
}

/// `humanBones` as a VRM 1.0 / VRMA object `{ "hips": { "node": 3 }, ... }`.
pub(crate) fn humanoid_object(bones: &J<'_>, node_count: usize, ctx: &mut Ctx) -> Result<Humanoid> {
    let mut h = Humanoid::default();
    for (name, v) in bones.obj()? {
        let b = J::at(v, bones.key_path(name));
        let node = b.req("node")?.index(node_count, "node")?;
        if !HUMAN_BONES.contains(&name.as_str()) {
            ctx.warn(
                &b.path,
                &format!("`{name}` is not a VRM 1.0 humanoid bone; ignored"),
            );
            continue;
        }
        h.bones.insert(name.clone(), node);
    }
    Ok(h)
}

pub(crate) fn vrm(v: &J<'_>, avatar: &mut Avatar, ctx: &mut Ctx) -> Result<()> {
    spec_version(v, ctx, &["1.0", "1.0-beta"])?;
    let bones = v.req("humanoid")?.req("humanBones")?;
    avatar.humanoid = Some(humanoid_object(&bones, avatar.nodes.len(), ctx)?);
    if let Some(m) = v.get("meta")? {
        let strings = |key: &str| -> Result<Vec<String>> {
            m.list(key)?
                .iter()
                .map(|s| s.str().map(str::to_owned))
                .collect()
        };
        avatar.meta = Some(Meta {
            name: m.opt_str("name")?,
            version: m.opt_str("version")?,
            authors: strings("authors")?,
            copyright_information: m.opt_str("copyrightInformation")?,
            contact_information: m.opt_str("contactInformation")?,
            references: strings("references")?,
            license_url: m.opt_str("licenseUrl")?,
            license_name: None,
            avatar_permission: m.opt_str("avatarPermission")?,
            commercial_usage: m.opt_str("commercialUsage")?,
            credit_notation: m.opt_str("creditNotation")?,
            modification: m.opt_str("modification")?,
            allow_redistribution: m.opt_bool("allowRedistribution")?,
            allow_excessively_violent_usage: m.opt_bool("allowExcessivelyViolentUsage")?,
            allow_excessively_sexual_usage: m.opt_bool("allowExcessivelySexualUsage")?,
            allow_political_or_religious_usage: m.opt_bool("allowPoliticalOrReligiousUsage")?,
            allow_antisocial_or_hate_usage: m.opt_bool("allowAntisocialOrHateUsage")?,
            other_license_url: m.opt_str("otherLicenseUrl")?,
            third_party_licenses: m.opt_str("thirdPartyLicenses")?,
        });
    } else {
        ctx.warn(&v.key_path("meta"), "missing meta (required by VRMC_vrm)");
    }
    Ok(())
}

fn shape_from(s: &J<'_>, extended: bool) -> Result<Option<ColliderShape>> {
    if let Some(sp) = s.get("sphere")? {
        let offset = sp.vec3_or("offset", Vec3::ZERO)?;
        let radius = sp.f32_or("radius", 0.0)?;
        let inside = extended && sp.opt_bool("inside")?.unwrap_or(false);
        return Ok(Some(if inside {
            ColliderShape::InsideSphere { offset, radius }
        } else {
            ColliderShape::Sphere { offset, radius }
        }));
    }
    if let Some(c) = s.get("capsule")? {
        let offset = c.vec3_or("offset", Vec3::ZERO)?;
        let tail = c.vec3_or("tail", Vec3::ZERO)?;
        let radius = c.f32_or("radius", 0.0)?;
        let inside = extended && c.opt_bool("inside")?.unwrap_or(false);
        return Ok(Some(if inside {
            ColliderShape::InsideCapsule {
                offset,
                tail,
                radius,
            }
        } else {
            ColliderShape::Capsule {
                offset,
                tail,
                radius,
            }
        }));
    }
    if extended && let Some(p) = s.get("plane")? {
        return Ok(Some(ColliderShape::Plane {
            offset: p.vec3_or("offset", Vec3::ZERO)?,
            normal: p.vec3_or("normal", Vec3::Z)?,
        }));
    }
    Ok(None)
}

const JOINT_KEYS: [&str; 8] = [
    "node",
    "hitRadius",
    "stiffness",
    "gravityPower",
    "gravityDir",
    "dragForce",
    "extensions",
    "extras",
];

pub(crate) fn spring_bone(v: &J<'_>, avatar: &mut Avatar, ctx: &mut Ctx) -> Result<()> {
    spec_version(v, ctx, &SPRING_VERSIONS)?;
    let n = avatar.nodes.len();
    let mut colliders = Vec::new();
    for c in v.list("colliders")? {
        let node = c.req("node")?.index(n, "node")?;
        let base = c.get("shape")?;
        let base_shape = base
            .as_ref()
            .map(|s| shape_from(s, false))
            .transpose()?
            .flatten();
        let ext = match c.get("extensions")? {
            Some(e) => e.get("VRMC_springBone_extended_collider")?,
            None => None,
        };
        let ext_shape = match &ext {
            Some(e) => {
                spec_version(e, ctx, &["1.0"])?;
                let s = e.req("shape")?;
                let shape = shape_from(&s, true)?;
                if shape.is_none() {
                    ctx.warn(
                        &s.path,
                        "extended collider has no sphere, capsule or plane; using the base shape",
                    );
                }
                shape
            }
            None => None,
        };
        let shape = match (ext_shape, base_shape) {
            (Some(e), b) => {
                if b.is_none() {
                    ctx.warn(
                        &c.key_path("shape"),
                        "missing base shape (required by VRMC_springBone); using the extended collider",
                    );
                }
                e
            }
            (None, Some(b)) => b,
            (None, None) => {
                return Err(c.err(
                    ErrorKind::Missing,
                    "collider has no shape (sphere or capsule)",
                ));
            }
        };
        colliders.push(Collider { node, shape });
    }
    let mut groups = Vec::new();
    for g in v.list("colliderGroups")? {
        let mut idx = Vec::new();
        for c in g.list("colliders")? {
            idx.push(c.index(colliders.len(), "collider")?);
        }
        groups.push(ColliderGroup {
            name: g.opt_str("name")?,
            colliders: idx,
        });
    }
    let base_chain = avatar.springs.chains.len();
    let base_collider = avatar.springs.colliders.len();
    let base_group = avatar.springs.collider_groups.len();
    for g in &mut groups {
        for c in &mut g.colliders {
            *c += base_collider;
        }
    }
    for s in v.list("springs")? {
        let mut joints = Vec::new();
        let jl = s.req("joints")?;
        let count = jl.arr()?.len();
        for (k, j) in jl.items()?.enumerate() {
            for key in j.obj()?.keys() {
                // `angleLimit` has its own warning (`limits::joint_limit`).
                if !JOINT_KEYS.contains(&key.as_str()) && key != "angleLimit" {
                    ctx.warn(
                        &j.key_path(key),
                        &format!("non-standard joint property `{key}` ignored"),
                    );
                }
            }
            joints.push(SpringJoint {
                node: j.req("node")?.index(n, "node")?,
                hit_radius: j.f32_or("hitRadius", 0.0)?,
                stiffness: j.f32_or("stiffness", 1.0)?,
                gravity_power: j.f32_or("gravityPower", 0.0)?,
                gravity_dir: j.vec3_or("gravityDir", Vec3::NEG_Y)?,
                drag_force: j.f32_or("dragForce", 0.4)?,
                limit: super::limits::joint_limit(&j, k + 1 == count, ctx)?,
            });
        }
        for (k, w) in joints.windows(2).enumerate() {
            if avatar.nodes[w[1].node].parent != Some(w[0].node) {
                ctx.warn(
                    &format!("{}[{}].node", jl.path, k + 1),
                    &format!(
                        "node {} is not a child of the previous joint's node {}",
                        w[1].node, w[0].node
                    ),
                );
            }
        }
        if joints.len() < 2 {
            ctx.warn(
                &jl.path,
                "a spring needs at least two joints (a bone and its tail); nothing simulates",
            );
        }
        let mut cg = Vec::new();
        for g in s.list("colliderGroups")? {
            cg.push(g.index(groups.len(), "colliderGroup")? + base_group);
        }
        let center = s.get("center")?.map(|c| c.index(n, "node")).transpose()?;
        avatar.springs.chains.push(SpringChain {
            name: s.opt_str("name")?,
            source_path: s.path.clone(),
            joints,
            virtual_tail: None,
            center,
            collider_groups: cg,
            under_head: false,
            named_hair: false,
        });
    }
    avatar.springs.colliders.extend(colliders);
    avatar.springs.collider_groups.extend(groups);
    let count = avatar.springs.chains.len() - base_chain;
    let bands = super::bands::bands(v, base_chain, count, avatar.nodes.len(), ctx)?;
    avatar.springs.bands.extend(bands);
    Ok(())
}

const HAIR_WORDS: [&str; 10] = [
    "hair", "bang", "fringe", "ponytail", "braid", "twintail", "ahoge", "kami", "髪", "前髪",
];

/// Head-hair flags of one chain: (first joint under the humanoid head,
/// named like hair). Shared with the hair fitter, so a fitted chain carries
/// the flags a reload would give it.
pub fn hair_flags(avatar: &Avatar, c: &SpringChain) -> (bool, bool) {
    let head = avatar.humanoid.as_ref().and_then(|h| h.bone("head"));
    let first = c.joints.first().map(|j| j.node);
    let under_head = match (head, first) {
        (Some(h), Some(f)) => f != h && avatar.is_self_or_ancestor(h, f),
        _ => false,
    };
    let names = [
        c.name.as_deref().unwrap_or(""),
        first.map_or("", |f| avatar.nodes[f].name.as_str()),
    ];
    let named_hair = names.iter().any(|n| {
        let l = n.to_lowercase();
        HAIR_WORDS.iter().any(|w| l.contains(w))
    });
    (under_head, named_hair)
}

/// Flags head-hair chains: first joint under the humanoid head, or a hair-like name.
pub(crate) fn classify_hair(avatar: &mut Avatar) {
    let flags: Vec<(bool, bool)> = avatar
        .springs
        .chains
        .iter()
        .map(|c| hair_flags(avatar, c))
        .collect();
    for (c, (u, h)) in avatar.springs.chains.iter_mut().zip(flags) {
        c.under_head = u;
        c.named_hair = h;
    }
}
