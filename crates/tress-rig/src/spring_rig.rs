//! From a loaded avatar's springs to a ready-to-step tress-core spring world.
//!
//! [`SpringRig::build`] turns each [`SpringChain`] of an [`Avatar`] into a
//! `tress_core::spring` chain hanging from the parent node of its first joint
//! (usually the head), and each collider into a collider attached to its
//! node. Every node that carries an attachment, a collider or a VRM center
//! becomes a *frame*; the caller feeds those frames' world poses each frame
//! (from Godot's skeleton, an animation, or [`SpringRig::rest_poses`]) and
//! reads back per-joint rotations keyed by node.
//!
//! VRM parameters map onto the improved solver as documented on
//! [`improved_params`].

use glam::{Mat4, Vec3};
use tress_core::collide::Collider as CoreCollider;
use tress_core::math::{affine, ops, quat};
use tress_core::spring::{
    BandLink, ChainDesc, ContactMode, FlatLock, JointDesc, JointOutput, JointParams, Mode, Pose,
    SetupError, SpringWorld, StepConfig,
};

use tress_vrm::model::{Avatar, ColliderShape, SpringChain, SpringJoint};

/// The world type every avatar uses: up to 1,024 joints, 96 chains,
/// 64 colliders and 32 attachment frames (boxed: it is large).
pub type AvatarWorld = SpringWorld<1024, 96, 64, 32>;

/// Flat-lock stiffness that halves a ribbon's bend across its width every
/// 1/120 s step (1/s): the least stretch, but it holds short locks nearly
/// still (the built-in bangs swing 0.8 cm instead of 5.7).
pub const RECOMMENDED_FLAT_LOCK_STIFFNESS: f32 = 83.0;

/// The default flat-lock stiffness, 1/s: with the lock twist and drape
/// (also on by default) the built-in avatar's locks stretch 5.6 % at p99
/// instead of 19.0 % while every lock keeps at least 60 % of its swing
/// (docs/QUALITY.md; 6/s takes the layered avatar's back locks, 7/s the
/// side locks, under 60 %).
pub const SOFT_FLAT_LOCK_STIFFNESS: f32 = 5.0;

/// How to build the rig.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RigOptions {
    /// Solver mode for every chain.
    pub mode: Mode,
    /// Contact mode for every chain (VRM-compatible chains always use the
    /// tail point, as the reference does).
    pub contact: ContactMode,
    /// Chains that use the tail point whatever `contact` says: bit `i` is
    /// `avatar.springs.chains[i]` (chains from 128 on cannot be named). The
    /// collider fitter's per-chain choice
    /// ([`ColliderFit::tail_chains`](crate::fit_colliders::ColliderFit::tail_chains)).
    pub tail_chains: u128,
    /// VRM-compatible: reproduce three-vrm's bone-length quirk.
    pub vrm_length_quirk: bool,
    /// Improved mode: how fast a flat lock's bend across its width relaxes,
    /// 1/s, for bones whose skinned lock is flat ([`crate::flat_locks`]);
    /// 0 is off. The default, [`SOFT_FLAT_LOCK_STIFFNESS`], with the lock
    /// twist and drape keeps the swing; [`RECOMMENDED_FLAT_LOCK_STIFFNESS`]
    /// halves that bend every 1/120 s step: the least stretch, and the least
    /// swing (`docs/SOLVER.md`, "Flat locks").
    pub flat_lock_stiffness: f32,
    /// Improved mode: drape over contact ([`ChainDesc::drape`]); on by
    /// default.
    pub drape: bool,
    /// Improved mode: twist each flat lock's bone outputs so its bends go
    /// through its face ([`ChainDesc::twist`]; the width axes from
    /// [`crate::flat_locks`]); on by default. Moves no joint.
    pub lock_twist: bool,
    /// Hold the file's bands (`TRESS_springBone_band`: neighbouring chains
    /// kept to their rest spacing, `tress_core::spring::band`); on by
    /// default. Improved and Earlier modes only.
    pub bands: bool,
    /// Stepping policy.
    pub config: StepConfig,
}

impl Default for RigOptions {
    fn default() -> Self {
        Self {
            mode: Mode::Improved,
            contact: ContactMode::Segment,
            tail_chains: 0,
            vrm_length_quirk: false,
            flat_lock_stiffness: SOFT_FLAT_LOCK_STIFFNESS,
            drape: true,
            lock_twist: true,
            bands: true,
            config: StepConfig::default(),
        }
    }
}

/// Why a rig could not be built.
#[derive(Debug, Clone, PartialEq)]
pub enum RigError {
    /// The avatar has more chains, joints, colliders or frames than
    /// [`AvatarWorld`] holds.
    Capacity(String),
    /// A spring refers to something the solver cannot accept.
    Invalid(String),
}

impl core::fmt::Display for RigError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            RigError::Capacity(s) => write!(f, "too large for the spring solver: {s}"),
            RigError::Invalid(s) => write!(f, "invalid spring setup: {s}"),
        }
    }
}

impl core::error::Error for RigError {}

/// One simulated chain and the nodes it drives.
#[derive(Debug, Clone)]
pub struct RigChain {
    /// Spring name (or the JSON path it came from).
    pub name: String,
    /// Index of the chain in `avatar.springs.chains`.
    pub spring: usize,
    /// Node the chain hangs from (`None`: the scene root).
    pub attachment: Option<usize>,
    /// Nodes whose rotation the solver writes, root first.
    pub nodes: Vec<usize>,
    /// Index of the chain in the world.
    pub index: usize,
    /// Head hair, by position under the head bone or by name.
    pub head_hair: bool,
}

/// An avatar's springs, ready to step.
#[derive(Debug, Clone)]
pub struct SpringRig {
    /// The solver.
    pub world: Box<AvatarWorld>,
    /// Node of each frame, by frame index (`None`: the scene root, for
    /// chains whose first joint has no parent).
    pub frame_nodes: Vec<Option<usize>>,
    /// The chains.
    pub chains: Vec<RigChain>,
    /// What was skipped and why.
    pub notes: Vec<String>,
    /// The live multipliers every joint's values carry
    /// ([`crate::param_scales`]); one when built.
    pub(crate) scales: crate::param_scales::ParamScales,
    /// Whether the build read the locks' shapes (their width axes), which
    /// flat locks and the lock twist need.
    pub(crate) lock_shapes: bool,
    /// The bands' fold joints, placed from the chains after a step
    /// ([`SpringRig::fold_locals`]).
    pub folds: crate::folds::RigFolds,
}

/// Whether `opts` asks for what needs the locks' shapes (their width axes):
/// flat locks or the lock twist.
#[must_use]
pub fn needs_lock_shapes(opts: &RigOptions) -> bool {
    opts.flat_lock_stiffness > 0.0 || opts.lock_twist
}

/// `opts`' flat-lock stiffness, drape and lock twist on every rig chain of
/// `world`, state kept. Returns `false`, changing nothing, where they need
/// the locks' shapes and the build did not read them (`shapes_read`, see
/// [`SpringRig::lock_shapes_read`]): build again with `opts` then. For a
/// world taken out of its [`SpringRig`] (the C ABI's avatar);
/// [`SpringRig::set_lock_options`] calls it with its own.
pub fn apply_lock_options(
    world: &mut AvatarWorld,
    chains: &[RigChain],
    shapes_read: bool,
    opts: &RigOptions,
) -> bool {
    if needs_lock_shapes(opts) && !shapes_read {
        return false;
    }
    for c in chains {
        let Ok(mut desc) = world.chain_desc(c.index) else {
            continue;
        };
        desc.drape = opts.drape;
        desc.twist = opts.lock_twist;
        let _ = world.set_chain_desc(c.index, desc);
        let _ = world.set_flat_lock_stiffness(c.index, opts.flat_lock_stiffness);
    }
    true
}

/// The pose of a frame's node in `world` (all nodes' world matrices); the
/// scene root (`None`) and a node `world` lacks are at the origin.
#[must_use]
pub fn frame_pose(world: &[Mat4], node: Option<usize>) -> Pose {
    node.and_then(|n| world.get(n))
        .map_or(Pose::IDENTITY, pose_of)
}

/// Maps VRM joint settings onto the improved (and earlier) solver.
///
/// - stiffness `s` → spring constant `k = 1000 s` 1/s² (s = 1: a 5 Hz swing);
/// - drag `d` (the velocity kept per 60 Hz frame is `1 − d`) → damping
///   `c = −60 ln(1 − d)` 1/s, raised to at least `√k` so the chain is never
///   under-damped (each segment would otherwise resonate with its parent);
/// - gravity: `gravityDir · gravityPower · 9.81` m/s² (power 1 = real gravity);
/// - hit radius as given.
#[must_use]
pub fn improved_params(j: &SpringJoint) -> JointParams {
    let k = (1000.0 * j.stiffness.max(0.0)).min(tress_core::spring::MAX_STIFFNESS);
    let d = j.drag_force.clamp(0.0, 0.99);
    let c = (-60.0 * ops::ln(1.0 - d)).max(ops::sqrt(k));
    JointParams {
        stiffness: k,
        damping: c,
        drag: d,
        gravity: j.gravity_dir.normalize_or_zero() * j.gravity_power * 9.81,
        hit_radius: j.hit_radius,
    }
}

/// VRM joint settings as the VRM-compatible mode takes them.
#[must_use]
pub fn vrm_params(j: &SpringJoint) -> JointParams {
    JointParams {
        stiffness: j.stiffness,
        damping: 0.0,
        drag: j.drag_force,
        gravity: j.gravity_dir.normalize_or_zero() * j.gravity_power,
        hit_radius: j.hit_radius,
    }
}

/// Uniform scale of a node's rest world matrix (1 for the scene root).
pub(crate) fn scale_of(rest: &[Mat4], node: Option<usize>) -> f32 {
    node.and_then(|n| rest.get(n))
        .map_or(1.0, |m| m.x_axis.truncate().length())
}

/// A collider with its offsets scaled by `k` (radii stay in world units).
pub(crate) fn core_collider(shape: &ColliderShape, k: f32) -> CoreCollider {
    match *shape {
        ColliderShape::Sphere { offset, radius } => CoreCollider::sphere(offset * k, radius),
        ColliderShape::Capsule {
            offset,
            tail,
            radius,
        } => CoreCollider::capsule(offset * k, tail * k, radius),
        ColliderShape::Plane { offset, normal } => CoreCollider::plane(offset * k, normal),
        ColliderShape::InsideSphere { offset, radius } => {
            CoreCollider::inside_sphere(offset * k, radius)
        }
        ColliderShape::InsideCapsule {
            offset,
            tail,
            radius,
        } => CoreCollider::inside_capsule(offset * k, tail * k, radius),
    }
}

/// World pose (position, rotation) of a world matrix, scale dropped.
#[must_use]
pub fn pose_of(m: &Mat4) -> Pose {
    let (_, rot, pos) = affine::decompose(m);
    Pose::new(pos, quat::normalize(rot))
}

/// What [`SpringRig::set_chain_limit`] puts on a chain's joints.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ChainLimit {
    /// The limits the file gave each joint (`VRMC_springBone_limit`).
    File,
    /// The same limit on every joint (`None`: no limit at all).
    Every(Option<tress_core::spring::JointLimit>),
}

/// Puts the file's per-joint limits of `chain` on world chain `index`
/// (joint `k` of the file limits the bone from joint `k` to `k + 1`; the
/// loader already dropped any on the tail-only last joint).
fn set_file_limits(world: &mut AvatarWorld, index: usize, chain: &SpringChain) {
    for (k, j) in chain.joints.iter().enumerate().take(chain.simulated_len()) {
        if let Some(l) = j.limit {
            let _ = world.set_joint_limit(index, k, Some(l));
        }
    }
}

impl SpringRig {
    /// Builds the rig for every spring chain of `avatar`, at its rest pose.
    ///
    /// # Errors
    /// [`RigError::Capacity`] when the avatar exceeds [`AvatarWorld`];
    /// [`RigError::Invalid`] when a chain's joints are not parented in order.
    pub fn build(avatar: &Avatar, opts: &RigOptions) -> Result<Self, RigError> {
        let rest = avatar.rest_world();
        let mut rig = SpringRig {
            world: Box::new(AvatarWorld::new(opts.config)),
            frame_nodes: Vec::new(),
            chains: Vec::new(),
            notes: Vec::new(),
            scales: crate::param_scales::ParamScales::ONE,
            lock_shapes: needs_lock_shapes(opts),
            folds: crate::folds::RigFolds::default(),
        };
        let cap = |e: SetupError, what: &str| match e {
            SetupError::Capacity => RigError::Capacity(what.to_owned()),
            other => RigError::Invalid(format!("{what}: {other:?}")),
        };
        // Read in every mode (Earlier and VRM-compatible chains ignore
        // them), so a live switch into Improved gives what a build would.
        let flat = if needs_lock_shapes(opts) {
            crate::flat_locks::lock_shapes(avatar)
                .into_iter()
                .filter(|(_, s)| s.is_flat())
                .map(|(n, s)| (n, (s.width_axis, s.half_width)))
                .collect()
        } else {
            alloc::collections::BTreeMap::new()
        };
        let mut collider_index = Vec::with_capacity(avatar.springs.colliders.len());
        for (i, c) in avatar.springs.colliders.iter().enumerate() {
            let frame = rig.frame_for(Some(c.node), &rest)?;
            // Offsets follow the node's scale; radii are world units, as in
            // three-vrm.
            let shape = core_collider(&c.shape, scale_of(&rest, Some(c.node)));
            let idx = rig
                .world
                .add_collider(frame, shape)
                .map_err(|e| cap(e, &format!("collider {i}")))?;
            collider_index.push(idx);
        }
        for (ci, chain) in avatar.springs.chains.iter().enumerate() {
            let name = chain
                .name
                .clone()
                .unwrap_or_else(|| chain.source_path.clone());
            let Some(built) = rig.chain_joints(avatar, chain, opts, &flat, &name, &rest)? else {
                continue;
            };
            let (attachment, root_offset, joints, nodes) = built;
            let frame = rig.frame_for(attachment, &rest)?;
            let center = match chain.center {
                Some(c) if opts.mode == Mode::VrmCompatible => Some(rig.frame_for(Some(c), &rest)?),
                _ => None,
            };
            let mut mask = 0u64;
            for &g in &chain.collider_groups {
                if let Some(group) = avatar.springs.collider_groups.get(g) {
                    for &c in &group.colliders {
                        if let Some(&bit) = collider_index.get(c) {
                            mask |= 1u64 << bit;
                        }
                    }
                }
            }
            let desc = ChainDesc {
                frame,
                root_offset,
                mode: opts.mode,
                contact: if opts.mode == Mode::VrmCompatible
                    || (ci < 128 && (opts.tail_chains >> ci) & 1 == 1)
                {
                    ContactMode::Tail
                } else {
                    opts.contact
                },
                collider_mask: mask,
                center,
                vrm_length_quirk: opts.vrm_length_quirk,
                virtual_tail: chain.virtual_tail.is_some(),
                drape: opts.drape,
                twist: opts.lock_twist,
            };
            let index = rig
                .world
                .add_chain(desc, &joints)
                .map_err(|e| cap(e, &format!("chain {ci} ({name})")))?;
            set_file_limits(&mut rig.world, index, chain);
            rig.chains.push(RigChain {
                name,
                spring: ci,
                attachment,
                nodes,
                index,
                head_hair: chain.is_head_hair(),
            });
        }
        if opts.bands {
            rig.link_bands(avatar, opts);
        }
        // Folds in every mode: they place cloth, they do not simulate.
        rig.folds = crate::folds::RigFolds::build(avatar, &rig.chains, &mut rig.notes);
        // Start every chain at rest under the rest poses (a zero-length
        // frame runs no substep), as three-vrm's setInitState does.
        rig.world.advance(0.0);
        Ok(rig)
    }

    /// Links the world's chains as the file's bands say; a pair the world
    /// refuses (chains on different frames, or a chain not simulated) is
    /// left out with a note.
    fn link_bands(&mut self, avatar: &Avatar, opts: &RigOptions) {
        for band in &avatar.springs.bands {
            if opts.mode == Mode::VrmCompatible {
                self.notes.push(format!(
                    "band {}: not held in the VRM-compatible mode (three-vrm has no bands)",
                    band.source_path
                ));
                continue;
            }
            let world_index = |spring: usize| {
                self.chains
                    .iter()
                    .find(|c| c.spring == spring)
                    .map(|c| c.index)
            };
            for (a, b) in band.pairs() {
                let (Some(wa), Some(wb)) = (world_index(a), world_index(b)) else {
                    self.notes.push(format!(
                        "band {}: springs {a} and {b} not linked (one is not simulated)",
                        band.source_path
                    ));
                    continue;
                };
                let link = BandLink {
                    shear: band.shear,
                    ..BandLink::new(wa, wb, band.stretch)
                };
                if let Err(e) = self.world.add_band_link(link) {
                    let why = match e {
                        SetupError::Capacity => "one link per chain at most",
                        _ => "they must hang from the same node",
                    };
                    self.notes.push(format!(
                        "band {}: springs {a} and {b} not linked ({why})",
                        band.source_path
                    ));
                }
            }
        }
    }

    fn frame_for(&mut self, node: Option<usize>, rest: &[Mat4]) -> Result<usize, RigError> {
        if let Some(i) = self.frame_nodes.iter().position(|&n| n == node) {
            return Ok(i);
        }
        let pose = match node {
            None => Pose::IDENTITY,
            Some(n) => pose_of(
                rest.get(n)
                    .ok_or_else(|| RigError::Invalid(format!("node {n} does not exist")))?,
            ),
        };
        let i = self
            .world
            .add_frame(pose)
            .map_err(|_| RigError::Capacity(format!("more than 32 frames (node {node:?})")))?;
        self.frame_nodes.push(node);
        Ok(i)
    }

    /// Attachment node, root offset, joint descriptions and driven nodes.
    #[allow(clippy::type_complexity)]
    fn chain_joints(
        &mut self,
        avatar: &Avatar,
        chain: &SpringChain,
        opts: &RigOptions,
        flat: &alloc::collections::BTreeMap<usize, (Vec3, f32)>,
        name: &str,
        rest: &[Mat4],
    ) -> Result<Option<(Option<usize>, Vec3, Vec<JointDesc>, Vec<usize>)>, RigError> {
        let n = chain.simulated_len();
        if n == 0 {
            self.notes.push(format!(
                "{name}: no segment to simulate (one joint, no tail)"
            ));
            return Ok(None);
        }
        let first = &avatar.nodes[chain.joints[0].node];
        let attachment = first.parent;
        let bend = if crate::bend_hold::takes_bend_hold(avatar, chain, rest) {
            tress_core::spring::FLAT_BEND
        } else {
            0.0
        };
        let mut joints = Vec::with_capacity(n);
        let mut nodes = Vec::with_capacity(n);
        for i in 0..n {
            let j = &chain.joints[i];
            let node = &avatar.nodes[j.node];
            let offset = match chain.joints.get(i + 1) {
                Some(next) => {
                    let child = &avatar.nodes[next.node];
                    if child.parent != Some(j.node) {
                        return Err(RigError::Invalid(format!(
                            "{name}: joint {} ({}) is not a child of joint {i} ({})",
                            i + 1,
                            child.name,
                            node.name
                        )));
                    }
                    child.translation
                }
                None => chain.virtual_tail.unwrap_or(Vec3::new(0.0, -0.07, 0.0)),
            } * scale_of(rest, Some(j.node));
            let params = match opts.mode {
                Mode::VrmCompatible => vrm_params(j),
                Mode::Improved | Mode::Earlier => improved_params(j),
            };
            joints.push(JointDesc {
                local_rot: quat::normalize(node.rotation),
                offset,
                params,
                flat: flat
                    .get(&j.node)
                    .map_or(FlatLock::default(), |&(width_axis, half_width)| FlatLock {
                        width_axis,
                        stiffness: opts.flat_lock_stiffness,
                        half_width,
                        bend,
                    }),
            });
            nodes.push(j.node);
        }
        let root_offset = first.translation * scale_of(rest, attachment);
        Ok(Some((attachment, root_offset, joints, nodes)))
    }

    /// Applies `opts`' flat-lock stiffness, drape and lock twist to every
    /// chain of the running world, keeping the hair's motion (no reset).
    /// Returns `false`, changing nothing, where they need the locks' shapes
    /// and the rig was built without them (flat locks and the twist both
    /// off): build it again with `opts` then.
    pub fn set_lock_options(&mut self, opts: &RigOptions) -> bool {
        apply_lock_options(&mut self.world, &self.chains, self.lock_shapes, opts)
    }

    /// Whether the build read the locks' shapes, which flat locks and the
    /// lock twist need ([`Self::set_lock_options`]).
    #[must_use]
    pub fn lock_shapes_read(&self) -> bool {
        self.lock_shapes
    }

    /// Replaces the angle limits of rig chain `chain` (index into
    /// [`chains`](Self::chains)) with `limit`: one limit on every joint, none,
    /// or the file's own (`VRMC_springBone_limit`). The state is kept.
    ///
    /// # Errors
    /// [`RigError::Invalid`] for a chain index out of range.
    pub fn set_chain_limit(
        &mut self,
        avatar: &Avatar,
        chain: usize,
        limit: ChainLimit,
    ) -> Result<(), RigError> {
        let c = self
            .chains
            .get(chain)
            .ok_or_else(|| RigError::Invalid(format!("no rig chain {chain}")))?;
        let (index, spring) = (c.index, c.spring);
        match limit {
            ChainLimit::File => {
                let Some(sc) = avatar.springs.chains.get(spring) else {
                    return Err(RigError::Invalid(format!(
                        "no spring {spring} in the avatar"
                    )));
                };
                let _ = self.world.set_chain_limit(index, None);
                set_file_limits(&mut self.world, index, sc);
            }
            ChainLimit::Every(l) => {
                let _ = self.world.set_chain_limit(index, l);
            }
        }
        Ok(())
    }

    /// Rest world poses of the frames (for tests and tools without a skeleton).
    #[must_use]
    pub fn rest_poses(&self, avatar: &Avatar) -> Vec<Pose> {
        let rest = avatar.rest_world();
        self.frame_nodes
            .iter()
            .map(|&n| frame_pose(&rest, n))
            .collect()
    }

    /// Sets every frame's pose from the world matrices of all nodes (for
    /// tools that pose the whole avatar: baking, measuring).
    pub fn set_frame_poses_from_world(&mut self, world: &[Mat4]) {
        for (i, &n) in self.frame_nodes.iter().enumerate() {
            self.world.set_frame_pose(i, frame_pose(world, n));
        }
    }

    /// Sets every frame's pose for the coming [`advance`](Self::advance).
    pub fn set_frame_poses(&mut self, poses: &[Pose]) {
        for (i, p) in poses.iter().enumerate() {
            self.world.set_frame_pose(i, *p);
        }
    }

    /// Advances by one frame of `dt` seconds; returns the substeps run.
    pub fn advance(&mut self, dt: f32) -> u32 {
        self.world.advance(dt)
    }

    /// Per-joint output of chain `chain` (index into [`chains`](Self::chains)).
    #[must_use]
    pub fn outputs(&self, chain: usize) -> Vec<JointOutput> {
        let mut out = vec![JointOutput::default(); self.chains[chain].nodes.len()];
        let n = self.outputs_into(chain, &mut out);
        out.truncate(n);
        out
    }

    /// [`outputs`](Self::outputs) into a caller's buffer (no allocation, for
    /// per-frame use); returns how many joints were written.
    pub fn outputs_into(&self, chain: usize, out: &mut [JointOutput]) -> usize {
        self.world.outputs(self.chains[chain].index, out)
    }

    /// Every fold joint's local pose under its parent for the chains'
    /// current outputs, in `self.folds.nodes()` order (empty without
    /// folds): write them to the nodes with the chains' rotations.
    pub fn fold_locals(&mut self) -> &[crate::folds::FoldLocal] {
        self.folds.place(&self.world, &self.chains)
    }

    /// Total simulated joints.
    #[must_use]
    pub fn joint_count(&self) -> usize {
        self.chains.iter().map(|c| c.nodes.len()).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The committed built-in avatar (`assets/`, which `tress-tests` holds
    /// equal to a fresh generation by `tress-tools`).
    fn built_in() -> Avatar {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/tress_avatar.vrm");
        tress_vrm::load_path(path).expect("built-in avatar loads")
    }

    #[test]
    fn file_limits_reach_the_world_and_chains_can_replace_them() {
        use tress_core::spring::JointLimit;
        let mut a = built_in();
        a.springs.chains[0].joints[1].limit = Some(JointLimit::cone(0.4));
        let mut rig = SpringRig::build(&a, &RigOptions::default()).unwrap();
        let c = rig.chains[0].index;
        assert_eq!(rig.world.joint_limit(c, 0).unwrap(), None);
        assert_eq!(
            rig.world.joint_limit(c, 1).unwrap(),
            Some(JointLimit::cone(0.4))
        );
        let hinge = JointLimit::hinge(0.2);
        rig.set_chain_limit(&a, 0, ChainLimit::Every(Some(hinge)))
            .unwrap();
        for k in 0..rig.chains[0].nodes.len() {
            assert_eq!(rig.world.joint_limit(c, k).unwrap(), Some(hinge));
        }
        rig.set_chain_limit(&a, 0, ChainLimit::File).unwrap();
        assert_eq!(rig.world.joint_limit(c, 0).unwrap(), None);
        assert_eq!(
            rig.world.joint_limit(c, 1).unwrap(),
            Some(JointLimit::cone(0.4))
        );
        assert!(rig.set_chain_limit(&a, 99, ChainLimit::File).is_err());
    }

    #[test]
    fn built_in_avatar_rigs_every_lock() {
        let a = built_in();
        let rig = SpringRig::build(&a, &RigOptions::default()).expect("rig");
        assert_eq!(rig.chains.len(), 8);
        // 4 bangs × 4 + 2 sides × 4 + 2 long × 6 simulated segments.
        assert_eq!(rig.joint_count(), 4 * 4 + 2 * 4 + 2 * 6);
        let head = a.node_by_name("Head").expect("Head");
        assert!(
            rig.chains
                .iter()
                .all(|c| c.attachment == Some(head) && c.head_hair)
        );
    }

    #[test]
    fn still_avatar_keeps_bone_lengths_and_stays_near_rest() {
        let a = built_in();
        let mut rig = SpringRig::build(&a, &RigOptions::default()).expect("rig");
        let poses = rig.rest_poses(&a);
        let rest = a.rest_world();
        for _ in 0..240 {
            rig.set_frame_poses(&poses);
            rig.advance(1.0 / 60.0);
        }
        for c in 0..rig.chains.len() {
            let out = rig.outputs(c);
            for (k, o) in out.iter().enumerate() {
                let node = rig.chains[c].nodes[k];
                let rest_origin = rest[node].w_axis.truncate();
                assert!(
                    (o.origin - rest_origin).length() < 0.02,
                    "{}: joint {k} sagged {} m",
                    rig.chains[c].name,
                    (o.origin - rest_origin).length()
                );
                let len = (o.tail - o.origin).length();
                let rest_len = match rig.chains[c].nodes.get(k + 1) {
                    Some(&n) => (rest[n].w_axis - rest[node].w_axis).truncate().length(),
                    None => continue,
                };
                assert!((len - rest_len).abs() <= 1e-5 * rest_len.max(1.0) + 1e-6);
            }
        }
    }

    #[test]
    fn lock_options_change_live_as_if_built_with_them() {
        // Built with the lock shapes read but every lock option off, then
        // given the defaults live before the first step: the very outputs
        // of a rig built with the defaults, every frame of a turn. Then off
        // again live, mid-turn, from the same state as a default rig turned
        // off at that frame: the two agree again. A rig built without the
        // shapes refuses (it must be rebuilt).
        let a = built_in();
        let off = RigOptions {
            flat_lock_stiffness: 0.0,
            drape: false,
            lock_twist: false,
            ..RigOptions::default()
        };
        let shapes_only = RigOptions {
            lock_twist: true,
            ..off
        };
        let mut plain = SpringRig::build(&a, &off).expect("rig");
        assert!(!plain.set_lock_options(&RigOptions::default()));
        assert!(plain.set_lock_options(&off), "nothing to read for all off");
        let mut built = SpringRig::build(&a, &RigOptions::default()).expect("rig");
        let mut live = SpringRig::build(&a, &shapes_only).expect("rig");
        assert!(live.set_lock_options(&RigOptions::default()));
        let rest = built.rest_poses(&a);
        let turn = |f: usize| -> Vec<Pose> {
            let yaw = 1.0 * ops::sin(f as f32 * 0.1);
            let q = tress_core::math::Quat::from_rotation_y(yaw);
            rest.iter()
                .map(|p| Pose::new(quat::rotate(q, p.pos), quat::mul(q, p.rot)))
                .collect()
        };
        let outputs = |rig: &SpringRig| -> Vec<JointOutput> {
            (0..rig.chains.len()).flat_map(|c| rig.outputs(c)).collect()
        };
        let mut moved = 0.0f32;
        for f in 0..120 {
            let poses = turn(f);
            for rig in [&mut built, &mut live] {
                rig.set_frame_poses(&poses);
                rig.advance(1.0 / 60.0);
            }
            let (b, l) = (outputs(&built), outputs(&live));
            assert_eq!(b, l, "frame {f}");
            moved = moved.max((b[0].tail - outputs(&plain)[0].tail).length());
            plain.set_frame_poses(&poses);
            plain.advance(1.0 / 60.0);
        }
        assert!(moved > 1e-3, "the options changed nothing: {moved} m");
        // Off again mid-turn: the hair stays where it is (no reset); only
        // the bone rolls the twist chose go back to the shortest arc.
        let tails =
            |rig: &SpringRig| -> Vec<Vec3> { outputs(rig).iter().map(|o| o.tail).collect() };
        let before = tails(&live);
        assert!(live.set_lock_options(&off));
        assert_eq!(tails(&live), before);
    }
}
