//! `tress inspect FILE`: what a VRM / glTF / VRMA file holds, as Tress reads it.

use core::fmt::Write as _;

use tress_vrm::model::{Avatar, Format};

/// A human-readable report of `avatar` (humanoid, springs, colliders,
/// meshes, constraints, animations, warnings).
#[must_use]
pub fn report(avatar: &Avatar) -> String {
    let mut out = String::new();
    let fmt = match avatar.format {
        Format::Vrm0 => "VRM 0.x",
        Format::Vrm1 => "VRM 1.0",
        Format::Vrma => "VRM Animation",
        Format::Gltf => "glTF 2.0",
    };
    let _ = writeln!(out, "format: {fmt}");
    if let Some(meta) = &avatar.meta {
        let _ = writeln!(
            out,
            "meta: {} by {} (license {})",
            meta.name.as_deref().unwrap_or("(unnamed)"),
            if meta.authors.is_empty() {
                "(no author)".to_owned()
            } else {
                meta.authors.join(", ")
            },
            meta.license_url
                .as_deref()
                .or(meta.license_name.as_deref())
                .unwrap_or("(none)")
        );
    }
    let _ = writeln!(out, "nodes: {}", avatar.nodes.len());
    match &avatar.humanoid {
        Some(h) => {
            let _ = writeln!(out, "humanoid: {} bones", h.bones.len());
            for (bone, &node) in &h.bones {
                let name = avatar.nodes.get(node).map_or("?", |n| n.name.as_str());
                let _ = writeln!(out, "  {bone:<24} -> node {node} `{name}`");
            }
        }
        None => {
            let _ = writeln!(out, "humanoid: none");
        }
    }
    let springs = &avatar.springs;
    let _ = writeln!(
        out,
        "springs: {} chains, {} joints ({} simulated)",
        springs.chains.len(),
        springs.joint_count(),
        springs
            .chains
            .iter()
            .map(tress_vrm::model::SpringChain::simulated_len)
            .sum::<usize>()
    );
    // Which bones are flat locks, and which chains hold their bends, as a
    // rig built from this file has them (`tress_rig`).
    let shapes = tress_rig::flat_locks::lock_shapes(avatar);
    let rest = avatar.rest_world();
    for c in &springs.chains {
        let first = c.joints.first().map_or(0, |j| j.node);
        let mut tags = Vec::new();
        if c.virtual_tail.is_some() {
            tags.push("virtual tail".to_owned());
        }
        if c.is_head_hair() {
            tags.push("head hair".to_owned());
        }
        tags.push(format!("collider groups {:?}", c.collider_groups));
        let simulated = &c.joints[..c.simulated_len().min(c.joints.len())];
        let flat = simulated
            .iter()
            .filter(|j| shapes.get(&j.node).is_some_and(|s| s.is_flat()))
            .count();
        if flat > 0 {
            tags.push(format!("flat lock ({flat} of {} bones)", simulated.len()));
            if tress_rig::bend_hold::takes_bend_hold(avatar, c, &rest) {
                tags.push("holds its bends".to_owned());
            }
        }
        let _ = writeln!(
            out,
            "  {:<28} {} joints from `{}`: {}",
            c.name.as_deref().unwrap_or(&c.source_path),
            c.joints.len(),
            avatar.nodes.get(first).map_or("?", |n| n.name.as_str()),
            tags.join(", ")
        );
        for (k, j) in c.joints.iter().enumerate() {
            if let Some(l) = &j.limit {
                let name = avatar.nodes.get(j.node).map_or("?", |n| n.name.as_str());
                let _ = writeln!(out, "    limit on joint {k} `{name}`: {}", limit_text(l));
            }
        }
    }
    for b in &springs.bands {
        let names: Vec<&str> = b
            .chains
            .iter()
            .map(|&c| {
                springs
                    .chains
                    .get(c)
                    .map_or("?", |c| c.name.as_deref().unwrap_or(&c.source_path))
            })
            .collect();
        let _ = writeln!(
            out,
            "band {}: {} chains{}, stretch at most {:.1} %{}: {}",
            b.name.as_deref().unwrap_or(&b.source_path),
            b.chains.len(),
            if b.closed { " in a ring" } else { "" },
            b.stretch * 100.0,
            b.shear.map_or_else(
                || ", shear free".to_owned(),
                |s| format!(", shear at most {:.1} %", s * 100.0)
            ),
            names.join(", ")
        );
        if let Some(first) = b.folds.first() {
            let flat = if b.fold_flat_angle > 0.0 {
                format!(
                    "pressed flat at a {:.1}° bend",
                    b.fold_flat_angle.to_degrees()
                )
            } else {
                "never pressed flat".to_owned()
            };
            let _ = writeln!(
                out,
                "  folds: {} (one per neighbouring pair), {} joints each, {flat}",
                b.folds.len(),
                first.len()
            );
        }
    }
    let counts = avatar.collider_counts();
    let by_shape: Vec<String> = counts.iter().map(|(k, v)| format!("{v} {k}")).collect();
    let _ = writeln!(
        out,
        "colliders: {} ({}) in {} groups",
        springs.colliders.len(),
        if by_shape.is_empty() {
            "none".to_owned()
        } else {
            by_shape.join(", ")
        },
        springs.collider_groups.len()
    );
    let _ = writeln!(out, "meshes: {}", avatar.meshes.len());
    for m in &avatar.meshes {
        let verts: usize = m.primitives.iter().map(|p| p.positions.len()).sum();
        let _ = writeln!(
            out,
            "  {:<28} {} primitives, {} vertices",
            m.name,
            m.primitives.len(),
            verts
        );
    }
    let _ = writeln!(out, "skins: {}", avatar.skins.len());
    let _ = writeln!(out, "node constraints: {}", avatar.constraints.len());
    let _ = writeln!(out, "animations: {}", avatar.animations.len());
    for a in &avatar.animations {
        let _ = writeln!(
            out,
            "  {:<28} {:.2} s, {} channels",
            a.name,
            a.duration,
            a.channels.len()
        );
    }
    let _ = writeln!(out, "warnings: {}", avatar.warnings.len());
    for w in &avatar.warnings {
        let _ = writeln!(out, "  {w}");
    }
    out
}

/// `cone 30.0°`, `hinge 45.0°`, `spherical pitch 30.0° yaw 20.0°`, and the
/// limit's rotation when it is not the identity.
fn limit_text(l: &tress_vrm::model::JointLimit) -> String {
    use tress_vrm::model::LimitShape;
    let mut t = match l.shape {
        LimitShape::Cone { angle } => format!("cone {:.1}°", angle.to_degrees()),
        LimitShape::Hinge { angle } => format!("hinge {:.1}°", angle.to_degrees()),
        LimitShape::Spherical { pitch, yaw } => format!(
            "spherical pitch {:.1}° yaw {:.1}°",
            pitch.to_degrees(),
            yaw.to_degrees()
        ),
    };
    if l.rotation != glam::Quat::IDENTITY {
        let r = l.rotation;
        let _ = write!(
            t,
            ", rotation ({:.4}, {:.4}, {:.4}, {:.4})",
            r.x, r.y, r.z, r.w
        );
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use tress_tools::avatar::{self, Variant};

    #[test]
    fn report_lists_the_built_in_avatars_rig() {
        let a = tress_vrm::load_bytes(&avatar::build(Variant::Standard).0, None).expect("loads");
        let r = report(&a);
        assert!(r.contains("format: VRM 1.0"), "{r}");
        assert!(r.contains("humanoid: 17 bones"), "{r}");
        assert!(r.contains("springs: 8 chains"), "{r}");
        assert!(
            r.contains("colliders: 5 (4 capsule, 1 sphere) in 2 groups"),
            "{r}"
        );
        assert!(r.contains("Ponytail"), "{r}");
        assert!(r.contains("warnings: 0"), "{r}");
    }
}
