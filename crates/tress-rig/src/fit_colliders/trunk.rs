//! Trunk coverage: a torso capsule where the trunk is bare, and trunk
//! colliders for head-hung chains whose groups lack them.
//!
//! The trunk is the chain of bones strictly between the humanoid `hips` and
//! `neck` (`head` when there is no neck): `spine`, `chest`, `upperChest`
//! and any unmapped bone between them, found by walking parents. Its
//! vertices are the body vertices skinned mostly to those bones.
//!
//! A capsule is added when no sphere or capsule sits on a trunk bone, or
//! when all the avatar's colliders (after growth) cover less than
//! `trunk_coverage` of the trunk's vertices. Its axis runs from the lowest
//! trunk bone to the neck, its top end pulled down by the radius so the cap
//! ends at the base of the neck instead of swallowing the neck and the hair
//! roots behind it; its radius is the chosen percentile of the trunk
//! vertices' distances from that axis, within `max_radius × size` and the
//! rest clearance of the chains that will collide with it. It follows the
//! topmost trunk bone (the one under the neck), which carries the chest.
//!
//! Chains that hang from the head (their first joint's parent is the head
//! or below it) receive trunk colliders when their reach (the length of
//! their rest polyline) exceeds the distance from their root to the
//! collider's surface, and none of their rest segments (widened by the hit
//! radius) touches it, so no hair starts in contact.

use alloc::collections::BTreeSet;

use glam::Vec3;

use super::geom::{
    Round, chain_colliders, chain_points, node_name, percentile, point_segment_distance, reach,
    rest_clearance,
};
use super::model::{Added, ColliderFit, Ctx, Linked, MAX_COLLIDERS};
use tress_vrm::model::ColliderShape;

/// A capsule squeezed below this fraction of the radius the trunk needs
/// would not cover it; it is left out with a note instead.
const MIN_RADIUS_FRACTION: f32 = 0.5;

/// The trunk bones, lowest first, and the neck (or head) node above them;
/// `None` with the reason when the hierarchy does not connect hips to neck.
pub(crate) fn trunk_bones(ctx: &Ctx<'_>) -> Result<(Vec<usize>, usize), String> {
    let h = ctx.avatar.humanoid.as_ref().ok_or("no humanoid map")?;
    let top = h
        .bone("neck")
        .filter(|&n| n < ctx.avatar.nodes.len())
        .unwrap_or(ctx.head);
    let mut bones = Vec::new();
    let mut cur = ctx.avatar.nodes[top].parent;
    while let Some(n) = cur {
        if n == ctx.hips {
            bones.reverse();
            return if bones.is_empty() {
                Err("the neck hangs directly from the hips: no trunk bone".to_owned())
            } else {
                Ok((bones, top))
            };
        }
        if bones.len() > ctx.avatar.nodes.len() {
            break;
        }
        bones.push(n);
        cur = ctx.avatar.nodes[n].parent;
    }
    Err("the neck is not below the hips in the hierarchy".to_owned())
}

/// Chains hanging from the head: (index, rest polyline, reach).
fn head_chains(ctx: &Ctx<'_>) -> Vec<(usize, Vec<Vec3>, f32)> {
    let avatar = ctx.avatar;
    avatar
        .springs
        .chains
        .iter()
        .enumerate()
        .filter(|(_, c)| {
            c.simulated_len() > 0
                && c.joints
                    .first()
                    .and_then(|j| avatar.nodes.get(j.node))
                    .and_then(|n| n.parent)
                    .is_some_and(|p| avatar.is_self_or_ancestor(ctx.head, p))
        })
        .map(|(i, c)| {
            let pts = chain_points(&ctx.world, c);
            let r = reach(&pts);
            (i, pts, r)
        })
        .filter(|(_, pts, _)| pts.len() >= 2)
        .collect()
}

/// Adds a torso capsule and links trunk colliders (module documentation).
pub(crate) fn trunk(ctx: &Ctx<'_>, fit: &mut ColliderFit) {
    let avatar = ctx.avatar;
    let (bones, neck) = match trunk_bones(ctx) {
        Ok(b) => b,
        Err(why) => {
            fit.notes.push(format!(
                "trunk: {why}; no torso capsule, no trunk colliders linked"
            ));
            return;
        }
    };
    let trunk: BTreeSet<usize> = bones.iter().copied().collect();
    // Colliders as grown.
    let mut shapes: Vec<_> = avatar.springs.colliders.clone();
    for g in &fit.grown {
        shapes[g.collider].shape = g.new;
    }
    let rounds: Vec<Option<Round>> = shapes.iter().map(|c| Round::of(&ctx.world, c)).collect();
    let trunk_colliders: Vec<usize> = (0..shapes.len())
        .filter(|&i| rounds[i].is_some() && trunk.contains(&shapes[i].node))
        .collect();
    let verts: Vec<Vec3> = ctx
        .body
        .body
        .iter()
        .filter(|(_, n)| trunk.contains(n))
        .map(|(p, _)| *p)
        .collect();
    let chains = head_chains(ctx);

    // Existing trunk colliders for head-hung chains that lack them.
    for (ci, pts, length) in &chains {
        let chain = &avatar.springs.chains[*ci];
        let own = chain_colliders(avatar, chain);
        if trunk_colliders.iter().any(|c| own.contains(c)) {
            continue;
        }
        let gain: Vec<usize> = trunk_colliders
            .iter()
            .copied()
            .filter(|&c| {
                let r = rounds[c].expect("trunk colliders are round");
                r.surface_distance(pts[0]) < *length && rest_clearance(&r, chain, pts) > r.r
            })
            .collect();
        if !gain.is_empty() {
            let names: Vec<String> = gain
                .iter()
                .map(|&c| format!("{c} ({})", node_name(avatar, shapes[c].node)))
                .collect();
            fit.linked.push(Linked {
                chain: *ci,
                colliders: gain,
                why: format!(
                    "hangs from the head, reaches {:.0} mm, and its groups hold no trunk collider; found in the hierarchy: {}",
                    length * 1000.0,
                    names.join(", ")
                ),
            });
        }
    }

    if verts.is_empty() {
        fit.notes.push(
            "trunk: no body vertex is skinned mostly to a trunk bone; no torso capsule".to_owned(),
        );
        return;
    }
    let inside = verts
        .iter()
        .filter(|&&p| {
            rounds
                .iter()
                .flatten()
                .any(|r| r.surface_distance(p) <= 0.0)
        })
        .count();
    let coverage = inside as f32 / verts.len() as f32;
    let why = if trunk_colliders.is_empty() {
        "no collider sits on the trunk".to_owned()
    } else if coverage < ctx.opts.trunk_coverage {
        format!(
            "colliders cover {:.0} % of the {} trunk vertices (< {:.0} %)",
            coverage * 100.0,
            verts.len(),
            ctx.opts.trunk_coverage * 100.0
        )
    } else {
        fit.notes.push(format!(
            "trunk: colliders cover {:.0} % of its {} vertices; no torso capsule needed",
            coverage * 100.0,
            verts.len()
        ));
        return;
    };
    if avatar.springs.colliders.len() >= MAX_COLLIDERS {
        fit.notes.push(format!(
            "trunk: {why}, but the rig already holds {MAX_COLLIDERS} colliders; no torso capsule"
        ));
        return;
    }
    let bottom = ctx.world[bones[0]].w_axis.truncate();
    let top = ctx.world[neck].w_axis.truncate();
    let len = bottom.distance(top);
    if len < 1e-4 {
        fit.notes.push(format!(
            "trunk: {why}, but the trunk has no length; no torso capsule"
        ));
        return;
    }
    let mut d: Vec<f32> = verts
        .iter()
        .map(|&p| point_segment_distance(p, bottom, top))
        .collect();
    let need = percentile(&mut d, ctx.opts.percentile).unwrap_or(0.0);
    let r0 = need.min(ctx.opts.max_radius * ctx.size);
    let dir = (top - bottom) / len;
    let capsule = Round {
        a: bottom,
        b: top - dir * r0.min(len),
        r: r0,
    };
    let receivers: Vec<&(usize, Vec<Vec3>, f32)> = chains
        .iter()
        .filter(|(_, pts, length)| capsule.surface_distance(pts[0]) < *length)
        .collect();
    let mut r = r0;
    let mut squeezed = None;
    for (ci, pts, _) in &receivers {
        let clear = rest_clearance(&capsule, &avatar.springs.chains[*ci], pts);
        if clear < r {
            r = clear;
            squeezed = Some(*ci);
        }
    }
    if r < MIN_RADIUS_FRACTION * need {
        fit.notes.push(format!(
            "trunk: {why}, but chain {} rests {:.1} mm from the trunk axis, too close for a capsule of the {:.1} mm the trunk needs; no torso capsule",
            squeezed.unwrap_or(0),
            (r.max(0.0)) * 1000.0,
            need * 1000.0
        ));
        return;
    }
    let node = *bones.last().expect("trunk has bones");
    let inv = tress_core::math::affine::inverse(&ctx.world[node]);
    let shape = ColliderShape::Capsule {
        offset: inv.transform_point3(capsule.a),
        tail: inv.transform_point3(capsule.b),
        radius: r,
    };
    let covered = verts
        .iter()
        .filter(|&&p| point_segment_distance(p, capsule.a, capsule.b) <= r)
        .count();
    let mut text = format!(
        "{why}; fitted to {} trunk vertices, covers {covered} ({:.0} % wanted within {:.1} mm of the axis)",
        verts.len(),
        ctx.opts.percentile * 100.0,
        need * 1000.0
    );
    if let Some(ci) = squeezed {
        text.push_str(&format!(
            "; radius held to {:.1} mm by chain {ci}'s rest position",
            r * 1000.0
        ));
    } else if r0 < need {
        text.push_str(&format!(
            "; radius held to {:.1} mm by the radius limit",
            r * 1000.0
        ));
    }
    if receivers.is_empty() {
        fit.notes.push(format!(
            "trunk: {why}, but no chain hanging from the head reaches it; no torso capsule"
        ));
        return;
    }
    fit.added.push(Added {
        node,
        shape,
        why: text,
        chains: receivers.iter().map(|(ci, _, _)| *ci).collect(),
    });
}
