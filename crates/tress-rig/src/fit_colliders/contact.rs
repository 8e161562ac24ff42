//! Per-chain contact: whole-segment checks where a tail-point check would
//! let the hair visibly cut through a collider, tail points elsewhere.
//!
//! Rules, evaluated on the rest pose with the fitted colliders (the chain's
//! own groups plus what the fitter gives it):
//!
//! 1. **Ownership**: when no hair vertex is skinned mostly to the chain's
//!    joints, nothing drawn follows its segments, so a segment cutting a
//!    collider cannot be seen: tail. Otherwise the width of what it owns
//!    sets the allowance of rule 3: a lock whose vertices reach farther
//!    from its bones (at the chosen percentile) than its hit radius already
//!    brings its edges within reach of anything its centre line nears, so
//!    no sag is allowed (0 mm); a narrow one gets the measurement's 1 mm.
//! 2. **Reach**: a collider that does not move with the chain's root (its
//!    node is not the root's parent or below it) lies closer to the root
//!    than the chain's length: the body can swing into the middle of a
//!    segment, which a tail check does not see: segments.
//! 3. **Chord**: for a collider that moves with the root (a head sphere
//!    under head hair) and lies within reach, a segment of length `L` whose
//!    two ends are held `h` (the hit radius) outside a radius `r` still
//!    sinks `r − √((r + h)² − L²/4)` into it at its middle; segments when
//!    that exceeds the allowance.
//! 4. **In front of the shoulders**: the chain's tip rests below the
//!    shoulders and in front of the line through the humanoid upper arms
//!    (forward = left-to-right-arm direction × up): such hair drapes over
//!    the shoulder and chest, across colliders: segments.
//! 5. **Embedded root**: a collider that moves with the root contains the
//!    root itself (a tie or hairline inside the head sphere). A tail check
//!    lets the segment dip deeper than its root on the way out; segment
//!    contact resolves exactly what the segment adds to the root's depth
//!    (`docs/SOLVER.md`): segments.
//!
//! A chain without simulated segments keeps the rig's default.

use glam::Vec3;
use tress_core::math::ops;

use super::geom::{
    Round, chain_colliders, chain_points, node_name, percentile, point_segment_distance, reach,
};
use super::model::{ChainContact, ColliderFit, ContactChoice, Ctx};
use crate::skin::CONTACT_THRESHOLD as THRESHOLD;

/// Chooses each chain's contact mode (module documentation).
pub(crate) fn choose(ctx: &Ctx<'_>, fit: &mut ColliderFit) {
    let avatar = ctx.avatar;
    // Colliders as fitted: grown shapes, then the added ones.
    let mut shapes = avatar.springs.colliders.clone();
    for g in &fit.grown {
        shapes[g.collider].shape = g.new;
    }
    let first_added = shapes.len();
    shapes.extend(fit.added.iter().map(|a| tress_vrm::model::Collider {
        node: a.node,
        shape: a.shape,
    }));
    let rounds: Vec<Option<Round>> = shapes.iter().map(|c| Round::of(&ctx.world, c)).collect();
    let shoulders = shoulder_frame(ctx);
    if shoulders.is_none() {
        fit.notes.push(
            "contact: humanoid `leftUpperArm`/`rightUpperArm` missing or coincident: the in-front-of-the-shoulders rule is skipped".to_owned(),
        );
    }
    for (ci, chain) in avatar.springs.chains.iter().enumerate() {
        if chain.simulated_len() == 0 {
            continue;
        }
        let pts = chain_points(&ctx.world, chain);
        if pts.len() < 2 {
            continue;
        }
        let length = reach(&pts);
        let longest = pts
            .windows(2)
            .map(|w| w[0].distance(w[1]))
            .fold(0.0, f32::max);
        let hit = chain
            .joints
            .iter()
            .take(chain.simulated_len())
            .map(|j| j.hit_radius)
            .fold(0.0, f32::max);
        let mut set = chain_colliders(avatar, chain);
        for (k, a) in fit.added.iter().enumerate() {
            if a.chains.contains(&ci) {
                set.insert(first_added + k);
            }
        }
        for l in fit.linked.iter().filter(|l| l.chain == ci) {
            set.extend(&l.colliders);
        }
        let root_parent = avatar.nodes[chain.joints[0].node].parent;
        let mut segment = Vec::new();
        let mut tail = Vec::new();

        // Rule 1.
        let joints: Vec<usize> = chain.joints.iter().map(|j| j.node).collect();
        let mut widths: Vec<f32> = ctx
            .body
            .hair
            .iter()
            .filter(|(_, n)| joints.contains(n))
            .map(|&(p, _)| {
                pts.windows(2)
                    .map(|w| point_segment_distance(p, w[0], w[1]))
                    .fold(f32::INFINITY, f32::min)
            })
            .collect();
        let owned = widths.len();
        let allowance = match percentile(&mut widths, ctx.opts.percentile) {
            Some(w) if w > hit => {
                tail.push(format!(
                    "its mesh reaches {:.1} mm from its bones ({:.0} % of {owned} vertices), past its hit radius {:.1} mm: no sag allowed",
                    w * 1000.0,
                    ctx.opts.percentile * 100.0,
                    hit * 1000.0
                ));
                Some(0.0)
            }
            Some(w) => {
                tail.push(format!(
                    "its mesh stays within {:.1} mm of its bones, inside its hit radius {:.1} mm: 1 mm sag allowed",
                    w * 1000.0,
                    hit * 1000.0
                ));
                Some(THRESHOLD)
            }
            None => None,
        };

        // Rules 2 and 3.
        let mut nearest_body: Option<(f32, usize)> = None;
        let mut worst_chord: Option<(f32, usize)> = None;
        let mut embedded: Option<(f32, usize)> = None;
        for &c in &set {
            let Some(r) = rounds[c] else { continue };
            let d = r.surface_distance(pts[0]);
            if d >= length {
                continue;
            }
            let moves_with_root =
                root_parent.is_some_and(|p| avatar.is_self_or_ancestor(p, shapes[c].node));
            if moves_with_root && d < 0.0 && embedded.is_none_or(|(w, _)| d < w) {
                embedded = Some((d, c));
            }
            if moves_with_root {
                let chord = r.r
                    - ops::sqrt(((r.r + hit) * (r.r + hit) - 0.25 * longest * longest).max(0.0));
                if worst_chord.is_none_or(|(w, _)| chord > w) {
                    worst_chord = Some((chord, c));
                }
            } else if nearest_body.is_none_or(|(w, _)| d < w) {
                nearest_body = Some((d, c));
            }
        }
        let label = |c: usize| format!("collider {c} ({})", node_name(avatar, shapes[c].node));
        match nearest_body {
            Some((d, c)) => segment.push(format!(
                "reach {:.0} mm exceeds the {:.0} mm from its root to {}, which moves apart from the root",
                length * 1000.0,
                d.max(0.0) * 1000.0,
                label(c)
            )),
            None => tail.push(format!(
                "no collider moving apart from its root lies within its reach of {:.0} mm",
                length * 1000.0
            )),
        }
        match worst_chord {
            Some((chord, c)) if chord > allowance.unwrap_or(THRESHOLD) => segment.push(format!(
                "a {:.0} mm segment with both ends clear of {} sinks {:.1} mm into it at the middle",
                longest * 1000.0,
                label(c),
                chord * 1000.0
            )),
            Some((chord, c)) => tail.push(format!(
                "segments of {:.0} mm sink at most {:.2} mm into {} between checked tails",
                longest * 1000.0,
                chord.max(0.0) * 1000.0,
                label(c)
            )),
            None => {}
        }

        // Rule 5.
        if let Some((d, c)) = embedded {
            segment.push(format!(
                "its root lies {:.1} mm inside {}, so a tail check would let its first segment dip deeper",
                -d * 1000.0,
                label(c)
            ));
        }

        // Rule 4.
        if let Some((mid, forward, up)) = shoulders {
            let tip = pts[pts.len() - 1];
            let ahead = (tip - mid).dot(forward);
            let below = (mid - tip).dot(up);
            if ahead > 0.0 && below > 0.0 {
                segment.push(format!(
                    "its tip hangs {:.0} mm in front of the shoulder line, {:.0} mm below it",
                    ahead * 1000.0,
                    below * 1000.0
                ));
            } else {
                tail.push("its tip rests behind or above the shoulder line".to_owned());
            }
        }

        let choice = if allowance.is_none() {
            segment.insert(
                0,
                "no skinned hair vertex follows it, so its segments are not seen".to_owned(),
            );
            ContactChoice::Tail
        } else if segment.is_empty() {
            ContactChoice::Tail
        } else {
            ContactChoice::Segment
        };
        segment.extend(tail);
        fit.chain_contact.push(ChainContact {
            chain: ci,
            choice,
            reasons: segment,
        });
    }
}

/// Midpoint of the upper arms, forward and up directions at rest.
fn shoulder_frame(ctx: &Ctx<'_>) -> Option<(Vec3, Vec3, Vec3)> {
    let h = ctx.avatar.humanoid.as_ref()?;
    let at = |role: &str| {
        h.bone(role)
            .and_then(|n| ctx.world.get(n))
            .map(|m| m.w_axis.truncate())
    };
    let (l, r) = (at("leftUpperArm")?, at("rightUpperArm")?);
    let up = (ctx.world[ctx.head].w_axis - ctx.world[ctx.hips].w_axis)
        .truncate()
        .normalize_or_zero();
    // Left arm to the right of the viewer: (left − right) × up points the
    // way the avatar faces (VRM 1.0: +X × +Y = +Z, its forward).
    let forward = (l - r).cross(up).normalize_or_zero();
    (forward != Vec3::ZERO && up != Vec3::ZERO).then_some(((l + r) * 0.5, forward, up))
}
