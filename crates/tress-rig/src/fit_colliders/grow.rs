//! Growing spheres and capsules over the body vertices of their bone.
//!
//! For each node carrying spheres or capsules, its body vertices (skinned
//! mostly to it) are shared out to the nearest of its colliders by surface
//! distance, so two spheres on one head each cover their own side instead
//! of both growing over the whole head. A collider whose vertices reach
//! past its radius at the chosen percentile grows to that distance, within:
//!
//! - `max_growth × size` more than the authored radius;
//! - `max_radius × size` in all;
//! - the rest clearance of every chain that collides with it (segment
//!   distance minus the joint's hit radius), so no hair starts in contact.
//!
//! Radii only grow; centres and axes stay where they were authored.

use alloc::collections::BTreeMap;

use super::geom::{Round, chain_colliders, chain_points, node_name, percentile, rest_clearance};
use super::model::{ColliderFit, Ctx, Grown};
use tress_vrm::model::ColliderShape;

/// Growth below this is rounding, not worth reporting (0.1 mm).
const MIN_GROWTH: f32 = 1e-4;

/// The shape with radius `r`.
pub(crate) fn with_radius(shape: ColliderShape, r: f32) -> ColliderShape {
    match shape {
        ColliderShape::Sphere { offset, .. } => ColliderShape::Sphere { offset, radius: r },
        ColliderShape::Capsule { offset, tail, .. } => ColliderShape::Capsule {
            offset,
            tail,
            radius: r,
        },
        other => other,
    }
}

/// Grows every sphere and capsule (see the module documentation).
pub(crate) fn grow(ctx: &Ctx<'_>, fit: &mut ColliderFit) {
    let avatar = ctx.avatar;
    let colliders = &avatar.springs.colliders;
    let rounds: Vec<Option<Round>> = colliders.iter().map(|c| Round::of(&ctx.world, c)).collect();
    // Vertices of each collider-carrying node, shared out to its colliders.
    let mut by_node: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (i, (c, r)) in colliders.iter().zip(&rounds).enumerate() {
        if r.is_some() {
            by_node.entry(c.node).or_default().push(i);
        }
    }
    let mut dists: BTreeMap<usize, Vec<f32>> = BTreeMap::new();
    for &(p, node) in &ctx.body.body {
        let Some(list) = by_node.get(&node) else {
            continue;
        };
        let nearest = list
            .iter()
            .filter_map(|&i| rounds[i].map(|r| (i, r)))
            .min_by(|a, b| a.1.surface_distance(p).total_cmp(&b.1.surface_distance(p)));
        if let Some((i, r)) = nearest {
            dists.entry(i).or_default().push(r.core_distance(p));
        }
    }
    // Chains per collider, with their rest polylines.
    let chain_pts: Vec<_> = avatar
        .springs
        .chains
        .iter()
        .map(|c| chain_points(&ctx.world, c))
        .collect();
    let users: Vec<_> = avatar
        .springs
        .chains
        .iter()
        .map(|c| chain_colliders(avatar, c))
        .collect();
    let max_radius = ctx.opts.max_radius * ctx.size;
    for (i, round) in rounds.iter().enumerate() {
        let Some(round) = round else { continue };
        let label = format!(
            "collider {i} ({} on {})",
            colliders[i].shape.name(),
            node_name(avatar, colliders[i].node)
        );
        let Some(d) = dists.get_mut(&i) else {
            fit.notes.push(format!(
                "{label}: no body vertex is skinned mostly to its node; kept as authored"
            ));
            continue;
        };
        let owned = d.len();
        let need = percentile(d, ctx.opts.percentile).unwrap_or(0.0);
        if need <= round.r + MIN_GROWTH {
            fit.notes.push(format!(
                "{label}: already covers {:.0} % of its {owned} body vertices (r = {:.1} mm)",
                ctx.opts.percentile * 100.0,
                round.r * 1000.0
            ));
            continue;
        }
        let mut limits = vec![
            (
                round.r + ctx.opts.max_growth * ctx.size,
                format!(
                    "growth limit {:.0} % of body size",
                    ctx.opts.max_growth * 100.0
                ),
            ),
            (
                max_radius,
                format!(
                    "radius limit {:.0} % of body size",
                    ctx.opts.max_radius * 100.0
                ),
            ),
        ];
        for (ci, chain) in avatar.springs.chains.iter().enumerate() {
            if users[ci].contains(&i) {
                let clear = rest_clearance(round, chain, &chain_pts[ci]);
                if clear.is_finite() {
                    limits.push((clear, format!("rest clearance of chain {ci}")));
                }
            }
        }
        let mut new_r = need;
        let mut limited_by = None;
        for (limit, why) in limits {
            if limit < new_r {
                new_r = limit;
                limited_by = Some(why);
            }
        }
        if new_r <= round.r + MIN_GROWTH {
            fit.notes.push(format!(
                "{label}: {:.0} % of its {owned} body vertices lie within {:.1} mm, but the {} ({:.1} mm) allows no growth from {:.1} mm; kept",
                ctx.opts.percentile * 100.0,
                need * 1000.0,
                limited_by.as_deref().unwrap_or("limit"),
                new_r * 1000.0,
                round.r * 1000.0
            ));
            continue;
        }
        let covered = d.iter().filter(|&&x| x <= new_r).count();
        fit.grown.push(Grown {
            collider: i,
            old: colliders[i].shape,
            new: with_radius(colliders[i].shape, new_r),
            owned,
            covered,
            limited_by,
        });
    }
}
