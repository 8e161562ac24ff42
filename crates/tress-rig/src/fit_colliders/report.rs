//! The readable summary and the JSON document of a [`ColliderFit`].

use core::fmt::Write as _;

use serde_json::{Value, json};

use super::model::{ColliderFit, ContactChoice};
use tress_vrm::model::{Avatar, ColliderShape};

fn mm(m: f32) -> String {
    format!("{:.1} mm", m * 1000.0)
}

fn radius(s: &ColliderShape) -> Option<f32> {
    match *s {
        ColliderShape::Sphere { radius, .. }
        | ColliderShape::Capsule { radius, .. }
        | ColliderShape::InsideSphere { radius, .. }
        | ColliderShape::InsideCapsule { radius, .. } => Some(radius),
        ColliderShape::Plane { .. } => None,
    }
}

fn shape_json(s: &ColliderShape) -> Value {
    let v = |x: glam::Vec3| json!([x.x, x.y, x.z]);
    match *s {
        ColliderShape::Sphere { offset, radius }
        | ColliderShape::InsideSphere { offset, radius } => {
            json!({ "kind": s.name(), "offset": v(offset), "radius": radius })
        }
        ColliderShape::Capsule {
            offset,
            tail,
            radius,
        }
        | ColliderShape::InsideCapsule {
            offset,
            tail,
            radius,
        } => json!({ "kind": s.name(), "offset": v(offset), "tail": v(tail), "radius": radius }),
        ColliderShape::Plane { offset, normal } => {
            json!({ "kind": s.name(), "offset": v(offset), "normal": v(normal) })
        }
    }
}

fn chain_name(avatar: &Avatar, ci: usize) -> String {
    avatar.springs.chains.get(ci).map_or_else(
        || format!("chain {ci}"),
        |c| c.name.clone().unwrap_or_else(|| c.source_path.clone()),
    )
}

/// A human-readable summary of `fit` on `avatar` (the avatar as loaded).
#[must_use]
pub fn summary(fit: &ColliderFit, avatar: &Avatar) -> String {
    let mut out = String::new();
    let node = |n: usize| super::geom::node_name(avatar, n);
    match fit.body_size {
        Some(s) => {
            let _ = writeln!(out, "body size (hips to head at rest): {}", mm(s));
        }
        None => {
            let _ = writeln!(out, "body size: unknown");
        }
    }
    let _ = writeln!(out, "grown: {}", fit.grown.len());
    for g in &fit.grown {
        let c = &avatar.springs.colliders[g.collider];
        let _ = writeln!(
            out,
            "  collider {} ({} on {}): r {} → {}, covers {} of {} body vertices{}",
            g.collider,
            c.shape.name(),
            node(c.node),
            radius(&g.old).map_or_else(String::new, mm),
            radius(&g.new).map_or_else(String::new, mm),
            g.covered,
            g.owned,
            g.limited_by
                .as_ref()
                .map_or_else(String::new, |l| format!(" (held by the {l})"))
        );
    }
    let _ = writeln!(out, "added: {}", fit.added.len());
    for a in &fit.added {
        let chains: Vec<String> = a.chains.iter().map(|&c| chain_name(avatar, c)).collect();
        let _ = writeln!(
            out,
            "  {} on {}, r {}: {}; for {} chains: {}",
            a.shape.name(),
            node(a.node),
            radius(&a.shape).map_or_else(String::new, mm),
            a.why,
            a.chains.len(),
            chains.join(", ")
        );
    }
    let _ = writeln!(out, "linked: {}", fit.linked.len());
    for l in &fit.linked {
        let _ = writeln!(out, "  {}: {}", chain_name(avatar, l.chain), l.why);
    }
    let segs = fit
        .chain_contact
        .iter()
        .filter(|c| c.choice == ContactChoice::Segment)
        .count();
    let _ = writeln!(
        out,
        "contact: {} chains, {segs} segment, {} tail",
        fit.chain_contact.len(),
        fit.chain_contact.len() - segs
    );
    for c in &fit.chain_contact {
        let _ = writeln!(
            out,
            "  {}: {} ({})",
            chain_name(avatar, c.chain),
            c.choice.name(),
            c.reasons.join("; ")
        );
    }
    for n in &fit.notes {
        let _ = writeln!(out, "note: {n}");
    }
    out
}

/// Every finding as JSON, collider and chain indices as in the loaded file.
#[must_use]
pub fn json(fit: &ColliderFit, avatar: &Avatar) -> Value {
    json!({
        "body_size_m": fit.body_size,
        "grown": fit.grown.iter().map(|g| json!({
            "collider": g.collider,
            "node": avatar.springs.colliders.get(g.collider).map(|c| super::geom::node_name(avatar, c.node)),
            "old": shape_json(&g.old),
            "new": shape_json(&g.new),
            "owned_vertices": g.owned,
            "covered_vertices": g.covered,
            "limited_by": g.limited_by,
        })).collect::<Vec<_>>(),
        "added": fit.added.iter().map(|a| json!({
            "node": a.node,
            "node_name": super::geom::node_name(avatar, a.node),
            "shape": shape_json(&a.shape),
            "why": a.why,
            "chains": a.chains,
        })).collect::<Vec<_>>(),
        "linked": fit.linked.iter().map(|l| json!({
            "chain": l.chain,
            "colliders": l.colliders,
            "why": l.why,
        })).collect::<Vec<_>>(),
        "chain_contact": fit.chain_contact.iter().map(|c| json!({
            "chain": c.chain,
            "name": chain_name(avatar, c.chain),
            "choice": c.choice.name(),
            "reasons": c.reasons,
        })).collect::<Vec<_>>(),
        "notes": fit.notes,
    })
}
