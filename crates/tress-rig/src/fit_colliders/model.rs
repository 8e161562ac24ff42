//! What the fitter takes and gives ([`ColliderFitOptions`], [`ColliderFit`]
//! and its parts) and what its steps share (`Ctx`).

use glam::Mat4;

use tress_vrm::model::{Avatar, ColliderShape};

use super::body::Body;

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

/// What [`fit_colliders`](crate::fit_colliders::fit_colliders) found.
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
    pub body: Body,
    /// Hips-to-head rest distance.
    pub size: f32,
    pub hips: usize,
    pub head: usize,
}

/// The most colliders a rig holds ([`crate::spring_rig::AvatarWorld`]).
pub(crate) const MAX_COLLIDERS: usize = 64;
