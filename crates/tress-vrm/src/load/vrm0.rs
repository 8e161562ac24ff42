//! VRM 0.x: `extensions.VRM` (humanoid, meta, secondaryAnimation).

use glam::Vec3;

use super::ctx::Ctx;
use super::vrm1::HUMAN_BONES;
use crate::error::Result;
use crate::json::J;
use crate::model::{
    Avatar, Collider, ColliderGroup, ColliderShape, Humanoid, Meta, SpringChain, SpringJoint,
};

/// VRM 0.x humanoid names whose VRM 1.0 name differs (the thumb was renumbered).
fn map_bone_name(name: &str) -> &str {
    match name {
        "leftThumbProximal" => "leftThumbMetacarpal",
        "leftThumbIntermediate" => "leftThumbProximal",
        "rightThumbProximal" => "rightThumbMetacarpal",
        "rightThumbIntermediate" => "rightThumbProximal",
        other => other,
    }
}

/// Length of the implicit tail of a childless VRM 0.x joint (three-vrm: 7 cm).
pub const VIRTUAL_TAIL_LENGTH: f32 = 0.07;

pub(crate) fn vrm(v: &J<'_>, avatar: &mut Avatar, ctx: &mut Ctx) -> Result<()> {
    let n = avatar.nodes.len();
    if let Some(h) = v.get("humanoid")? {
        let mut hum = Humanoid::default();
        for b in h.list("humanBones")? {
            let name_j = b.req("bone")?;
            let name = name_j.str()?;
            let node = b.req("node")?.index(n, "node")?;
            let mapped = map_bone_name(name);
            if !HUMAN_BONES.contains(&mapped) {
                ctx.warn(
                    &name_j.path,
                    &format!("`{name}` is not a VRM humanoid bone; ignored"),
                );
                continue;
            }
            if hum.bones.insert(mapped.to_owned(), node).is_some() {
                ctx.warn(
                    &name_j.path,
                    &format!("bone `{name}` listed twice; the last wins"),
                );
            }
        }
        avatar.humanoid = Some(hum);
    } else {
        ctx.warn(&v.key_path("humanoid"), "missing humanoid");
    }
    if let Some(m) = v.get("meta")? {
        let allow =
            |key: &str| -> Result<Option<bool>> { Ok(m.opt_str(key)?.map(|s| s == "Allow")) };
        avatar.meta = Some(Meta {
            name: m.opt_str("title")?,
            version: m.opt_str("version")?,
            authors: m.opt_str("author")?.into_iter().collect(),
            contact_information: m.opt_str("contactInformation")?,
            references: m
                .opt_str("reference")?
                .into_iter()
                .filter(|s| !s.is_empty())
                .collect(),
            license_name: m.opt_str("licenseName")?,
            license_url: m.opt_str("otherLicenseUrl")?.filter(|s| !s.is_empty()),
            avatar_permission: m.opt_str("allowedUserName")?,
            commercial_usage: m.opt_str("commercialUssageName")?,
            allow_excessively_violent_usage: allow("violentUssageName")?,
            allow_excessively_sexual_usage: allow("sexualUssageName")?,
            other_license_url: m.opt_str("otherPermissionUrl")?.filter(|s| !s.is_empty()),
            ..Meta::default()
        });
    }
    if let Some(sa) = v.get("secondaryAnimation")? {
        secondary(&sa, avatar, ctx)?;
    }
    Ok(())
}

fn secondary(sa: &J<'_>, avatar: &mut Avatar, ctx: &mut Ctx) -> Result<()> {
    let n = avatar.nodes.len();
    let base_collider = avatar.springs.colliders.len();
    let base_group = avatar.springs.collider_groups.len();
    let groups_j = sa.list("colliderGroups")?;
    for g in &groups_j {
        let node = g.req("node")?.index(n, "node")?;
        let mut idx = Vec::new();
        for c in g.list("colliders")? {
            // VRM 0.x offsets are left-handed: negate z (as three-vrm does).
            let o = c.get("offset")?.map_or(Ok(Vec3::ZERO), |o| o.xyz())?;
            let radius = c.f32_or("radius", 0.0)?;
            idx.push(avatar.springs.colliders.len());
            avatar.springs.colliders.push(Collider {
                node,
                shape: ColliderShape::Sphere {
                    offset: Vec3::new(o.x, o.y, -o.z),
                    radius,
                },
            });
        }
        avatar.springs.collider_groups.push(ColliderGroup {
            name: None,
            colliders: idx,
        });
    }
    let _ = base_collider;
    for bg in sa.list("boneGroups")? {
        let stiffness = match (bg.get("stiffiness")?, bg.get("stiffness")?) {
            (Some(s), _) => s.f32()?,
            (None, Some(s)) => {
                ctx.warn(
                    &s.path,
                    "`stiffness` read; the VRM 0.x schema spells it `stiffiness`",
                );
                s.f32()?
            }
            (None, None) => 1.0,
        };
        let joint = |node: usize| -> Result<SpringJoint> {
            Ok(SpringJoint {
                node,
                hit_radius: bg.f32_or("hitRadius", 0.0)?,
                stiffness,
                gravity_power: bg.f32_or("gravityPower", 0.0)?,
                // three-vrm keeps 0.x gravityDir as given (no handedness flip).
                gravity_dir: bg.get("gravityDir")?.map_or(Ok(Vec3::NEG_Y), |g| g.xyz())?,
                drag_force: bg.f32_or("dragForce", 0.4)?,
                limit: None,
            })
        };
        let center = match bg.get("center")? {
            None => None,
            Some(c) => match c.v.as_i64() {
                Some(i) if i < 0 => None,
                _ => Some(c.index(n, "node")?),
            },
        };
        let mut cg = Vec::new();
        for g in bg.list("colliderGroups")? {
            cg.push(g.index(groups_j.len(), "colliderGroup")? + base_group);
        }
        let name = bg.opt_str("comment")?.filter(|s| !s.is_empty());
        for root in bg.list("bones")? {
            let r = root.index(n, "node")?;
            // Every descendant of the root is a joint; each chain follows the
            // first child, other children start chains of their own.
            let mut starts = vec![r];
            let mut guard = 0usize;
            while let Some(start) = starts.pop() {
                let mut joints = Vec::new();
                let mut cur = start;
                loop {
                    guard += 1;
                    if guard > n {
                        return Err(
                            root.err(crate::ErrorKind::Cycle, "bone group walks a node cycle")
                        );
                    }
                    joints.push(joint(cur)?);
                    let kids = &avatar.nodes[cur].children;
                    starts.extend(kids.iter().skip(1).rev().copied());
                    match kids.first() {
                        Some(&c) => cur = c,
                        None => break,
                    }
                }
                let t = avatar.nodes[cur].translation;
                let len = tress_core::math::ops::sqrt(t.length_squared());
                let tail = if len > 0.0 {
                    t * (VIRTUAL_TAIL_LENGTH / len)
                } else {
                    Vec3::ZERO
                };
                avatar.springs.chains.push(SpringChain {
                    name: name.clone(),
                    source_path: root.path.clone(),
                    joints,
                    virtual_tail: Some(tail),
                    center,
                    collider_groups: cg.clone(),
                    under_head: false,
                    named_hair: false,
                });
            }
        }
    }
    Ok(())
}
