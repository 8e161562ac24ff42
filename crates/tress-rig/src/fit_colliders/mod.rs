//! Collider fitter (issue #6 item 2): fits an avatar's spring colliders to
//! its body and picks each chain's contact mode.
//!
//! [`fit_colliders`] reads the rest pose only:
//!
//! - [`grow`]: each sphere and capsule grows until it covers
//!   [`percentile`](ColliderFitOptions::percentile) of the visible body and
//!   clothing vertices skinned mostly to its node ([`body`]), within limits
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
mod geom;
pub mod grow;
pub mod report;
pub mod trunk;

use alloc::collections::{BTreeMap, BTreeSet};

use glam::Mat4;

use crate::model::{Avatar, Collider, ColliderGroup, ColliderShape};

/// Fitting choices. The defaults are documented on each field and in
/// `docs/QUALITY.md` ("Fitted colliders").
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ColliderFitOptions {
    /// Fraction of a bone's body vertices a grown collider covers: 0.9. Not
    /// 1: the farthest tenth of a bone's vertices are protrusions (a collar
    /// tip, a breast, the shoulder end of a chest-weighted strip) that a
    /// sphere or capsule could only reach by bulging far past the rest of
    /// the surface, which would hold hair off the body visibly.
    pub percentile: f32,
    /// A body vertex belongs to a bone when its largest skin weight, on that
    /// bone, is at least this: 0.5 ("skinned mostly to the bone").
    pub owner_weight: f32,
    /// A collider's radius grows by at most this fraction of the body size
    /// (hips-to-head rest distance): 0.1, about 5–6 cm on an adult whose
    /// hips-to-head distance is 0.5–0.6 m. Authored colliders are a
    /// statement of intent; a fit that wants more is more likely covering
    /// mis-weighted vertices than body.
    pub max_growth: f32,
    /// No fitted radius exceeds this fraction of the body size: 0.3, about
    /// 15–18 cm on an adult — half a torso's width, more than a head's
    /// radius.
    pub max_radius: f32,
    /// A torso capsule is added when the colliders cover less than this
    /// fraction of the trunk's vertices: 0.5.
    pub trunk_coverage: f32,
}

impl Default for ColliderFitOptions {
    fn default() -> Self {
        Self {
            percentile: 0.9,
            owner_weight: 0.5,
            max_growth: 0.1,
            max_radius: 0.3,
            trunk_coverage: 0.5,
        }
    }
}

/// One collider grown.
#[derive(Debug, Clone, PartialEq)]
pub struct Grown {
    /// Index into `avatar.springs.colliders`.
    pub collider: usize,
    /// The authored shape.
    pub old: ColliderShape,
    /// The fitted shape (same centre and axis, larger radius).
    pub new: ColliderShape,
    /// Body vertices owned by its node and assigned to it.
    pub owned: usize,
    /// Of those, how many the fitted shape covers.
    pub covered: usize,
    /// What stopped the growth short of the percentile, if anything.
    pub limited_by: Option<String>,
}

/// A collider the fitter adds.
#[derive(Debug, Clone, PartialEq)]
pub struct Added {
    /// Node it follows.
    pub node: usize,
    /// Shape in the node's local space.
    pub shape: ColliderShape,
    /// Why it was added.
    pub why: String,
    /// Chains (indices into `avatar.springs.chains`) that collide with it.
    pub chains: Vec<usize>,
}

/// Existing colliders added to a chain's groups.
#[derive(Debug, Clone, PartialEq)]
pub struct Linked {
    /// Index into `avatar.springs.chains`.
    pub chain: usize,
    /// Indices into `avatar.springs.colliders`.
    pub colliders: Vec<usize>,
    /// Why.
    pub why: String,
}

/// Contact mode chosen for a chain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContactChoice {
    /// The whole segment stays out of colliders.
    Segment,
    /// Only the tail point does (cheaper).
    Tail,
}

impl ContactChoice {
    /// `segment` or `tail`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Segment => "segment",
            Self::Tail => "tail",
        }
    }
}

/// The contact choice for one chain.
#[derive(Debug, Clone, PartialEq)]
pub struct ChainContact {
    /// Index into `avatar.springs.chains`.
    pub chain: usize,
    /// The choice.
    pub choice: ContactChoice,
    /// Why (every rule's finding, deciding ones first).
    pub reasons: Vec<String>,
}

/// What [`fit_colliders`] found.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ColliderFit {
    /// Body size used for the limits: rest distance from `hips` to `head`,
    /// metres (`None` when either role is missing).
    pub body_size: Option<f32>,
    /// Colliders grown.
    pub grown: Vec<Grown>,
    /// Colliders added.
    pub added: Vec<Added>,
    /// Existing colliders added to chains' groups.
    pub linked: Vec<Linked>,
    /// Per-chain contact choice (empty when kept as authored).
    pub chain_contact: Vec<ChainContact>,
    /// Everything kept as authored, and why.
    pub notes: Vec<String>,
}

impl ColliderFit {
    /// Chains that chose tail-point contact, as
    /// [`RigOptions::tail_chains`](crate::spring_rig::RigOptions::tail_chains)
    /// takes them.
    #[must_use]
    pub fn tail_chains(&self) -> u128 {
        self.chain_contact
            .iter()
            .filter(|c| c.choice == ContactChoice::Tail && c.chain < 128)
            .fold(0, |m, c| m | (1u128 << c.chain))
    }
}

/// What the steps share: the avatar at rest and its body.
pub(crate) struct Ctx<'a> {
    pub avatar: &'a Avatar,
    pub opts: &'a ColliderFitOptions,
    pub world: Vec<Mat4>,
    pub body: body::Body,
    /// Hips-to-head rest distance.
    pub size: f32,
    pub hips: usize,
    pub head: usize,
}

/// The most colliders a rig holds ([`crate::spring_rig::AvatarWorld`]).
const MAX_COLLIDERS: usize = 64;

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
    let size = world[hips].w_axis.distance(world[head].w_axis);
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
