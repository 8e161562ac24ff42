//! Collider fitter (issue #6 item 2): fits an avatar's spring colliders to
//! its body and picks each chain's contact mode.
//!
//! [`fit_colliders`] reads the rest pose only:
//!
//! - [`grow`]: each sphere and capsule grows until it covers
//!   [`percentile`](ColliderFitOptions::percentile) of the visible body and
//!   clothing vertices skinned mostly to its node (`body`), within limits
//!   scaled by the body's size (the rest distance from the humanoid `hips`
//!   to `head`), and never into the rest position of the hair that collides
//!   with it;
//! - [`trunk`]: when no collider sits on the trunk (the bones between
//!   `hips` and `neck`: `spine`, `chest`, `upperChest` and anything unmapped
//!   in between) or the colliders cover too little of the trunk's vertices,
//!   a capsule fitted to those vertices is added; chains hanging from the
//!   head that can reach the trunk but whose groups hold no trunk collider
//!   get the trunk colliders found anywhere in the avatar;
//! - [`contact`]: per chain, whole-segment or tail-point contact, from its
//!   reach, its position relative to the shoulders and the width of the
//!   mesh it owns.
//!
//! Bones are found by humanoid role and by hierarchy, never by name. When
//! the roles or the geometry a step needs are missing, that step keeps the
//! authored settings and [`ColliderFit::notes`] says why. [`apply`] writes
//! the result into an [`Avatar`]; [`ColliderFit::tail_chains`] is the
//! per-chain contact for [`RigOptions`](crate::spring_rig::RigOptions).

mod body;
pub mod contact;
pub(crate) mod geom;
pub mod grow;
mod model;
pub mod report;
pub mod trunk;

use alloc::collections::{BTreeMap, BTreeSet};

use tress_vrm::model::{Avatar, Collider, ColliderGroup};

pub use model::{
    Added, ChainContact, ColliderFit, ColliderFitOptions, ContactChoice, Grown, Linked,
};
use model::{Ctx, MAX_COLLIDERS};

/// Fits `avatar`'s colliders; see the [module documentation](self).
#[must_use]
pub fn fit_colliders(avatar: &Avatar, opts: &ColliderFitOptions) -> ColliderFit {
    let mut fit = ColliderFit::default();
    let Some(h) = avatar.humanoid.as_ref() else {
        fit.notes.push(
            "no humanoid map: body roles unknown, colliders and contact kept as authored"
                .to_owned(),
        );
        return fit;
    };
    let valid = |n: Option<usize>| n.filter(|&n| n < avatar.nodes.len());
    let (Some(hips), Some(head)) = (valid(h.bone("hips")), valid(h.bone("head"))) else {
        fit.notes.push(
            "humanoid `hips` or `head` missing: no body size to scale limits by, colliders and contact kept as authored"
                .to_owned(),
        );
        return fit;
    };
    let world = avatar.rest_world();
    let size = world[hips]
        .w_axis
        .truncate()
        .distance(world[head].w_axis.truncate());
    if !size.is_finite() || size < 1e-3 {
        fit.notes.push(format!(
            "hips and head are {size} m apart at rest: no usable body size, colliders and contact kept as authored"
        ));
        return fit;
    }
    fit.body_size = Some(size);
    let body = body::Body::new(avatar, opts.owner_weight);
    fit.notes
        .extend(body.notes.iter().map(|n| format!("mesh: {n}")));
    let ctx = Ctx {
        avatar,
        opts,
        world,
        body,
        size,
        hips,
        head,
    };
    if ctx.body.body.is_empty() {
        fit.notes.push(
            "no skinned body vertex: colliders kept as authored (contact still chosen)".to_owned(),
        );
    } else {
        grow::grow(&ctx, &mut fit);
        trunk::trunk(&ctx, &mut fit);
    }
    contact::choose(&ctx, &mut fit);
    fit
}

/// Writes `fit` into `avatar`: grown shapes, added colliders, and one new
/// collider group per distinct set of colliders a chain gains (named
/// `tress fit`). Contact choices are not part of the avatar; pass
/// [`ColliderFit::tail_chains`] to the rig.
pub fn apply(avatar: &mut Avatar, fit: &ColliderFit) {
    for g in &fit.grown {
        if let Some(c) = avatar.springs.colliders.get_mut(g.collider) {
            c.shape = g.new;
        }
    }
    let mut gains: BTreeMap<usize, BTreeSet<usize>> = BTreeMap::new();
    for a in &fit.added {
        if avatar.springs.colliders.len() >= MAX_COLLIDERS {
            break;
        }
        let idx = avatar.springs.colliders.len();
        avatar.springs.colliders.push(Collider {
            node: a.node,
            shape: a.shape,
        });
        for &c in &a.chains {
            gains.entry(c).or_default().insert(idx);
        }
    }
    for l in &fit.linked {
        gains.entry(l.chain).or_default().extend(&l.colliders);
    }
    let mut groups: BTreeMap<Vec<usize>, usize> = BTreeMap::new();
    for (chain, set) in gains {
        let Some(ch) = avatar.springs.chains.get_mut(chain) else {
            continue;
        };
        let key: Vec<usize> = set.into_iter().collect();
        let g = *groups.entry(key.clone()).or_insert_with(|| {
            avatar.springs.collider_groups.push(ColliderGroup {
                name: Some("tress fit".to_owned()),
                colliders: key,
            });
            avatar.springs.collider_groups.len() - 1
        });
        ch.collider_groups.push(g);
    }
}

/// A copy of `avatar` with its colliders fitted, and the fit.
#[must_use]
pub fn fitted(avatar: &Avatar, opts: &ColliderFitOptions) -> (Avatar, ColliderFit) {
    let fit = fit_colliders(avatar, opts);
    let mut out = avatar.clone();
    apply(&mut out, &fit);
    (out, fit)
}
