//! [`SpringWorld`]: fixed-capacity storage for an avatar's frames, colliders
//! and chains, and the fixed-step driver.
//!
//! Frame times go to the integer-tick [`StepClock`] shared with the strand
//! solver; each substep of [`H`](super::H) interpolates the attachment and
//! collider poses with a parameter formed from its integers. The same frame
//! poses at the same simulated times therefore give bit-identical states at
//! any frame rate.

use heapless::Vec;

mod continuity;
mod drive;
mod vrm_groups;
mod wind;

use super::band::BandLink;
use super::chain::{Chain, ChainDesc, Joint, JointDesc, sanitize_rot};
use super::limit::{JointLimit, LimitSlot};
use super::output::{JointOutput, OutRot, chain_output, chain_output_cached};
use super::params::{JointParams, Mode, StepConfig};
use super::step::{ColliderState, rest_chain};
use super::teleport::TeleportPolicy;
use super::vrm::sync_tails;
use crate::clock::{Schedule, StepClock};
use crate::collide::Collider;
use crate::math::{Pose, Quat, Real, Vec3, quat};
use crate::simd::Isa;

/// Why a setup call was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// A fixed-capacity store is full.
    Capacity,
    /// An index does not name an existing frame, chain, joint or collider.
    BadIndex,
    /// A slice has the wrong length.
    BadLength,
}

impl core::fmt::Display for SetupError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Self::Capacity => "a fixed-capacity store of the spring world is full",
            Self::BadIndex => "no such frame, chain, joint or collider in the spring world",
            Self::BadLength => "slice length does not match the chain",
        })
    }
}

impl core::error::Error for SetupError {}

#[derive(Clone, Copy, Debug)]
struct FrameSlot {
    prev: Pose,
    cur: Pose,
    /// Pose used by the last substep.
    sub: Pose,
}

#[derive(Clone, Copy, Debug)]
struct ColliderSlot {
    shape: Collider,
    frame: usize,
}

/// An avatar's spring chains with fixed capacity: `J` joints, `C` chains,
/// `K` colliders (at most 64, one mask bit each) and `F` attachment frames.
///
/// Per frame: [`set_frame_pose`](Self::set_frame_pose) for each frame, then
/// [`advance`](Self::advance) with the frame time, then
/// [`outputs`](Self::outputs) per chain.
#[derive(Clone, Debug)]
pub struct SpringWorld<
    const J: usize = 256,
    const C: usize = 32,
    const K: usize = 32,
    const F: usize = 8,
> {
    config: StepConfig,
    scale: Real,
    frames: Vec<FrameSlot, F>,
    colliders: Vec<ColliderSlot, K>,
    collider_states: [ColliderState; K],
    chains: Vec<Chain, C>,
    reach: [Real; C],
    joints: Vec<Joint, J>,
    /// Angle limits, one slot per joint (index as `joints`), apart from the
    /// joints so an unlimited joint's step reads nothing more.
    limits: [LimitSlot; J],
    /// Fixed steps of `config.max_substeps` at most per frame.
    clock: StepClock,
    started: bool,
    /// The vector instructions this CPU runs, detected when the world is made.
    isa: Isa,
    /// Most chains the lane kernel steps together (4 or 8).
    lane_width: usize,
    /// The wind and each chain's share of it (`wind`).
    wind: wind::WindState<C>,
    /// Teleport rotation threshold and mode (`continuity`).
    teleport: TeleportPolicy,
    /// The frame whose motion the hair does not feel (`continuity`).
    anchor: Option<usize>,
    /// Output rotations the VRM lane kernel left on the last substep, one
    /// per joint, valid for the chains marked in `out_fresh`.
    out_rots: [OutRot; J],
    out_fresh: [bool; C],
    /// Whether [`outputs`](Self::outputs) was called since the last
    /// substep: only then does the lane kernel compute them.
    out_read: ReadMark,
    /// Links between neighbouring chains (`band`), applied in this order.
    bands: Vec<BandLink, C>,
}

/// A flag [`SpringWorld::outputs`] sets through `&self`.
#[derive(Debug, Default)]
struct ReadMark(core::sync::atomic::AtomicBool);

impl ReadMark {
    fn set(&self) {
        self.0.store(true, core::sync::atomic::Ordering::Relaxed);
    }

    fn take(&self) -> bool {
        let was = self.0.load(core::sync::atomic::Ordering::Relaxed);
        self.0.store(false, core::sync::atomic::Ordering::Relaxed);
        was
    }
}

impl Clone for ReadMark {
    fn clone(&self) -> Self {
        Self(core::sync::atomic::AtomicBool::new(
            self.0.load(core::sync::atomic::Ordering::Relaxed),
        ))
    }
}

impl<const J: usize, const C: usize, const K: usize, const F: usize> Default
    for SpringWorld<J, C, K, F>
{
    fn default() -> Self {
        Self::new(StepConfig::default())
    }
}

impl<const J: usize, const C: usize, const K: usize, const F: usize> SpringWorld<J, C, K, F> {
    /// An empty world.
    #[must_use]
    pub fn new(config: StepConfig) -> Self {
        let config = config.sanitized();
        let isa = Isa::detect();
        Self {
            config,
            scale: 1.0,
            frames: Vec::new(),
            colliders: Vec::new(),
            collider_states: [ColliderState::default(); K],
            chains: Vec::new(),
            reach: [0.0; C],
            joints: Vec::new(),
            limits: [LimitSlot::default(); J],
            clock: StepClock::new(clock_schedule(&config)),
            started: false,
            isa,
            lane_width: super::lanes::preferred_width(isa),
            wind: wind::WindState::default(),
            teleport: TeleportPolicy::default(),
            anchor: None,
            out_rots: [OutRot::default(); J],
            out_fresh: [false; C],
            out_read: ReadMark::default(),
            bands: Vec::new(),
        }
    }

    /// Forgets the lane kernel's outputs: called by everything that moves
    /// joints or frames outside a substep.
    fn stale_outputs(&mut self) {
        self.out_fresh = [false; C];
    }

    /// The vector instruction set the lane kernel's builds are chosen for
    /// (detected when the world was made).
    #[must_use]
    pub fn isa(&self) -> Isa {
        self.isa
    }

    /// Chooses the lane kernel's builds, e.g. [`Isa::Portable`] or
    /// `isa().at_most(…)` (an [`Isa`] beyond portable exists only where
    /// detection found it). The lane width is kept (eight lanes on a level without AVX2 run as
    /// two groups of four). Every choice gives the same bits. For tests and
    /// benchmarks.
    #[doc(hidden)]
    pub fn set_isa(&mut self, isa: Isa) {
        self.stale_outputs();
        self.isa = isa;
    }

    /// Sets the most chains the lane kernel steps together: 8 or 4 (other
    /// values are rounded to one of them). The default is 8 where the CPU
    /// runs the eight-lane kernel in one register per vector (AVX2), else 4;
    /// every width gives the same bits. For tests and benchmarks.
    #[doc(hidden)]
    pub fn set_lane_width(&mut self, lanes: usize) {
        self.stale_outputs();
        self.lane_width = if lanes > super::lanes::LANES4 {
            super::lanes::LANES8
        } else {
            super::lanes::LANES4
        };
    }

    /// Adds an attachment frame at `pose`; returns its index.
    pub fn add_frame(&mut self, pose: Pose) -> Result<usize, SetupError> {
        let pose = pose.sanitized(&Pose::IDENTITY);
        self.frames
            .push(FrameSlot {
                prev: pose,
                cur: pose,
                sub: pose,
            })
            .map_err(|_| SetupError::Capacity)?;
        Ok(self.frames.len() - 1)
    }

    /// Adds a collider attached to `frame`; returns its index (its mask bit).
    pub fn add_collider(&mut self, frame: usize, shape: Collider) -> Result<usize, SetupError> {
        if frame >= self.frames.len() {
            return Err(SetupError::BadIndex);
        }
        if self.colliders.len() >= K.min(64) {
            return Err(SetupError::Capacity);
        }
        self.colliders
            .push(ColliderSlot { shape, frame })
            .map_err(|_| SetupError::Capacity)?;
        let i = self.colliders.len() - 1;
        let w = shape.posed(
            self.frames[frame].sub.pos,
            self.frames[frame].sub.rot,
            self.scale,
        );
        self.collider_states[i] = ColliderState::new(w, w);
        Ok(i)
    }

    /// Replaces collider `index`'s shape (takes effect next substep).
    pub fn set_collider(&mut self, index: usize, shape: Collider) -> Result<(), SetupError> {
        self.colliders
            .get_mut(index)
            .ok_or(SetupError::BadIndex)?
            .shape = shape;
        Ok(())
    }

    /// Adds a chain of `joints` (root to tip); returns its index. The chain
    /// starts at rest under its frame's current pose.
    pub fn add_chain(
        &mut self,
        desc: ChainDesc,
        joints: &[JointDesc],
    ) -> Result<usize, SetupError> {
        let frame_ok =
            desc.frame < self.frames.len() && desc.center.is_none_or(|c| c < self.frames.len());
        if !frame_ok {
            return Err(SetupError::BadIndex);
        }
        if self.chains.len() >= C || self.joints.len() + joints.len() > J {
            return Err(SetupError::Capacity);
        }
        let start = self.joints.len();
        let mut parent = Quat::IDENTITY;
        for d in joints {
            let j = Joint::new(d, parent);
            parent = j.rest_rot;
            self.joints.push(j).map_err(|_| SetupError::Capacity)?;
        }
        let mut desc = desc;
        if !desc.root_offset.is_finite() {
            desc.root_offset = Vec3::ZERO;
        }
        let chain = Chain {
            desc,
            start,
            len: joints.len(),
            authored: false,
            root_prev: Vec3::ZERO,
            flat: self.joints[start..].iter().any(|j| j.lateral_keep < 1.0),
            holds: self.joints[start..].iter().any(|j| j.bend_keep < 1.0),
            limited: false,
            banded: false,
            band_prev: self.chains.len(),
            band_next: self.chains.len(),
        };
        self.limits[start..start + joints.len()].fill(LimitSlot::default());
        self.chains.push(chain).map_err(|_| SetupError::Capacity)?;
        let i = self.chains.len() - 1;
        self.reach[i] = Chain::reach(&self.joints[start..]);
        self.set_levers(i);
        self.wind.exposure[i] = 1.0;
        self.refresh_wind_depth();
        self.reset_chain(i);
        Ok(i)
    }

    /// Sets the pose of attachment frame `frame` for the frame about to be
    /// advanced. Non-finite parts keep their previous value.
    pub fn set_frame_pose(&mut self, frame: usize, pose: Pose) {
        if let Some(slot) = self.frames.get_mut(frame) {
            slot.cur = pose.sanitized(&slot.cur);
        }
    }

    /// The model scale `s` (lengths, offsets, radii, gravity).
    #[must_use]
    pub fn scale(&self) -> Real {
        self.scale
    }

    /// Changes the model scale; non-positive or non-finite values are ignored.
    pub fn set_scale(&mut self, scale: Real) {
        self.stale_outputs();
        if scale.is_finite() && scale > 0.0 {
            self.scale = scale;
        }
    }

    /// The stepping configuration.
    #[must_use]
    pub fn config(&self) -> StepConfig {
        self.config
    }

    /// Changes the stepping configuration without a reset.
    pub fn set_config(&mut self, config: StepConfig) {
        self.stale_outputs();
        self.config = config.sanitized();
        self.clock.set_schedule(clock_schedule(&self.config));
    }

    /// Number of chains.
    #[must_use]
    pub fn chain_count(&self) -> usize {
        self.chains.len()
    }

    /// Number of joints of chain `chain` (0 if it does not exist).
    #[must_use]
    pub fn chain_len(&self, chain: usize) -> usize {
        self.chains.get(chain).map_or(0, |c| c.len)
    }

    /// Substeps run since creation.
    #[must_use]
    pub fn substep_count(&self) -> u64 {
        self.clock.steps()
    }

    fn joint_index(&self, chain: usize, joint: usize) -> Result<usize, SetupError> {
        let c = self.chains.get(chain).ok_or(SetupError::BadIndex)?;
        if joint < c.len {
            Ok(c.start + joint)
        } else {
            Err(SetupError::BadIndex)
        }
    }

    /// Simulated end point and velocity of one joint.
    pub fn joint_state(&self, chain: usize, joint: usize) -> Result<(Vec3, Vec3), SetupError> {
        let j = &self.joints[self.joint_index(chain, joint)?];
        Ok((j.x, j.v))
    }

    /// Changes one joint's parameters; the state is kept (no reset).
    pub fn set_joint_params(
        &mut self,
        chain: usize,
        joint: usize,
        params: JointParams,
    ) -> Result<(), SetupError> {
        self.stale_outputs();
        let i = self.joint_index(chain, joint)?;
        self.joints[i].set_params(params);
        self.refresh_reach(chain);
        Ok(())
    }

    /// Sets (`Some`) or removes (`None`) one joint's angle limit
    /// (`VRMC_springBone_limit`); the state is kept. The limit acts in every
    /// mode from the next substep; angles out of the draft's ranges are
    /// clamped, and a zero-length bone ignores it (it has no direction).
    pub fn set_joint_limit(
        &mut self,
        chain: usize,
        joint: usize,
        limit: Option<JointLimit>,
    ) -> Result<(), SetupError> {
        self.stale_outputs();
        let i = self.joint_index(chain, joint)?;
        let j = &self.joints[i];
        self.limits[i] = LimitSlot::new(limit, j.local_rot, j.axis_unit);
        self.refresh_limited(chain);
        Ok(())
    }

    /// Sets or removes the same angle limit on every joint of a chain.
    pub fn set_chain_limit(
        &mut self,
        chain: usize,
        limit: Option<JointLimit>,
    ) -> Result<(), SetupError> {
        self.stale_outputs();
        let c = *self.chains.get(chain).ok_or(SetupError::BadIndex)?;
        for i in c.start..c.start + c.len {
            let j = &self.joints[i];
            self.limits[i] = LimitSlot::new(limit, j.local_rot, j.axis_unit);
        }
        self.refresh_limited(chain);
        Ok(())
    }

    /// One joint's angle limit as the solver uses it (sanitized), if any.
    pub fn joint_limit(
        &self,
        chain: usize,
        joint: usize,
    ) -> Result<Option<JointLimit>, SetupError> {
        Ok(self.limits[self.joint_index(chain, joint)?].limit)
    }

    fn refresh_limited(&mut self, chain: usize) {
        let c = &mut self.chains[chain];
        c.limited = self.limits[c.start..c.start + c.len]
            .iter()
            .any(|l| l.limit.is_some());
    }

    /// Changes every joint's parameters in a chain; the state is kept.
    pub fn set_chain_params(
        &mut self,
        chain: usize,
        params: JointParams,
    ) -> Result<(), SetupError> {
        let c = *self.chains.get(chain).ok_or(SetupError::BadIndex)?;
        for j in &mut self.joints[c.start..c.start + c.len] {
            j.set_params(params);
        }
        self.refresh_reach(chain);
        Ok(())
    }

    /// Sets how fast every flat lock of a chain relaxes its bend across its
    /// width, 1/s (`FlatLock::stiffness`; 0 turns them off), without a
    /// reset. Only joints given a width axis when the chain was added
    /// (`FlatLock::width_axis`) can be flat locks; the others stay round.
    pub fn set_flat_lock_stiffness(
        &mut self,
        chain: usize,
        per_second: Real,
    ) -> Result<(), SetupError> {
        self.stale_outputs();
        let c = *self.chains.get(chain).ok_or(SetupError::BadIndex)?;
        let joints = &mut self.joints[c.start..c.start + c.len];
        for j in joints.iter_mut() {
            j.set_flat_stiffness(per_second);
        }
        self.chains[chain].flat = joints.iter().any(|j| j.lateral_keep < 1.0);
        self.chains[chain].holds = joints.iter().any(|j| j.bend_keep < 1.0);
        Ok(())
    }

    /// Changes a chain's description (mode, contact, mask, …) without a
    /// reset. The frame, root offset and center keep their old values when
    /// the new ones are invalid.
    pub fn set_chain_desc(&mut self, chain: usize, desc: ChainDesc) -> Result<(), SetupError> {
        self.stale_outputs();
        let nframes = self.frames.len();
        let c = self.chains.get_mut(chain).ok_or(SetupError::BadIndex)?;
        let old = c.desc;
        c.desc = ChainDesc {
            frame: if desc.frame < nframes {
                desc.frame
            } else {
                old.frame
            },
            root_offset: if desc.root_offset.is_finite() {
                desc.root_offset
            } else {
                old.root_offset
            },
            center: if desc.center.is_none_or(|f| f < nframes) {
                desc.center
            } else {
                old.center
            },
            ..desc
        };
        let c = *c;
        if old.mode != c.desc.mode || old.center != c.desc.center {
            let center = self.center_pose(&c);
            sync_tails(&mut self.joints[c.start..c.start + c.len], &center);
        }
        if old.frame != c.desc.frame || old.root_offset != c.desc.root_offset {
            self.refresh_wind_depth();
        }
        Ok(())
    }

    /// Holds chain `link.b` to chain `link.a` joint by joint (`band`): after
    /// every substep no pair of their joint ends is farther apart than
    /// `1 + link.stretch` times its rest distance, and with `link.shear`
    /// no diagonal of a quad between them longer than `(1 + stretch)(1 +
    /// shear)` times its own. Both chains must hang from the same frame;
    /// `stretch` and `shear` are clamped to `0..=MAX_BAND_STRETCH` (not
    /// finite: a stretch of 0, no shear held). Links act on Improved and
    /// Earlier chains; a VRM-compatible or authored chain ignores them
    /// (three-vrm has no such constraint), as does a link whose chains
    /// `set_chain_desc` has since put on different frames.
    ///
    /// # Errors
    /// [`SetupError::BadIndex`] for a chain that does not exist, a chain
    /// linked to itself or chains on different frames;
    /// [`SetupError::Capacity`] past `C` links.
    pub fn add_band_link(&mut self, link: BandLink) -> Result<(), SetupError> {
        let (Some(a), Some(b)) = (self.chains.get(link.a), self.chains.get(link.b)) else {
            return Err(SetupError::BadIndex);
        };
        if link.a == link.b || a.desc.frame != b.desc.frame {
            return Err(SetupError::BadIndex);
        }
        let stretch = if link.stretch.is_finite() {
            link.stretch.clamp(0.0, super::band::MAX_BAND_STRETCH)
        } else {
            0.0
        };
        let shear = link
            .shear
            .filter(|s| s.is_finite())
            .map(|s| s.clamp(0.0, super::band::MAX_BAND_STRETCH));
        self.bands
            .push(BandLink {
                stretch,
                shear,
                ..link
            })
            .map_err(|_| SetupError::Capacity)?;
        self.chains[link.a].banded = true;
        self.chains[link.b].banded = true;
        if self.chains[link.a].band_next == link.a {
            self.chains[link.a].band_next = link.b;
        }
        if self.chains[link.b].band_prev == link.b {
            self.chains[link.b].band_prev = link.a;
        }
        self.set_levers(link.a);
        self.set_levers(link.b);
        Ok(())
    }

    /// Sets chain `chain`'s contact levers (`Joint::lever`): the first
    /// segment's root is the attachment, so it keeps `MIN_LEVER`; so do
    /// the segments of a chain in a band, whose joints the band's links
    /// and cloth-line contact hold beside their parents' (with the joined
    /// root's lever a crouching skirt's cloth went 1.5 mm into a thigh,
    /// docs/log/2026-12-06-contact-lever.md); the others take
    /// `JOINED_ROOT_LEVER`.
    fn set_levers(&mut self, chain: usize) {
        use crate::collide::contact::{JOINED_ROOT_LEVER, MIN_LEVER};
        let Some(c) = self.chains.get(chain) else {
            return;
        };
        let joined = if c.banded {
            MIN_LEVER
        } else {
            JOINED_ROOT_LEVER
        };
        for (i, j) in self.joints[c.start..c.start + c.len].iter_mut().enumerate() {
            j.lever = if i == 0 { MIN_LEVER } else { joined };
        }
    }

    /// The band links, in the order they are applied.
    pub fn band_links(&self) -> &[BandLink] {
        &self.bands
    }

    /// Removes every band link.
    pub fn clear_band_links(&mut self) {
        self.bands.clear();
        for (i, c) in self.chains.iter_mut().enumerate() {
            c.banded = false;
            c.band_prev = i;
            c.band_next = i;
        }
        for chain in 0..self.chains.len() {
            self.set_levers(chain);
        }
    }

    /// The chain's description.
    pub fn chain_desc(&self, chain: usize) -> Result<ChainDesc, SetupError> {
        Ok(self.chains.get(chain).ok_or(SetupError::BadIndex)?.desc)
    }

    /// Marks a chain as driven by animation (`Some`: each joint's animated
    /// local rotation, replacing its rest `local_rot`) or hands it back to
    /// the solver (`None`), which continues from the animated motion.
    pub fn set_authored(
        &mut self,
        chain: usize,
        local_rots: Option<&[Quat]>,
    ) -> Result<(), SetupError> {
        self.stale_outputs();
        let c = *self.chains.get(chain).ok_or(SetupError::BadIndex)?;
        match local_rots {
            Some(rots) => {
                if rots.len() != c.len {
                    return Err(SetupError::BadLength);
                }
                let mut acc = Quat::IDENTITY;
                for (j, q) in self.joints[c.start..c.start + c.len].iter_mut().zip(rots) {
                    acc = quat::normalize(quat::mul(acc, sanitize_rot(*q)));
                    j.anim_rot = acc;
                }
                self.chains[chain].authored = true;
            }
            None => {
                if c.authored {
                    self.chains[chain].authored = false;
                    let center = self.center_pose(&c);
                    sync_tails(&mut self.joints[c.start..c.start + c.len], &center);
                }
            }
        }
        Ok(())
    }

    /// Writes chain `chain`'s joint outputs into `out`; returns the count.
    ///
    /// The state is at the last substep, up to 1/120 s before the frame; the
    /// output is carried rigidly from that attachment pose to the frame's
    /// current one, so roots sit exactly on the animated attachment.
    ///
    /// Calling it also asks the VRM lane kernel to compute the next frame's
    /// rotations on its last substep; they are the bits this function would
    /// compute, served from there while nothing has moved the chain since.
    pub fn outputs(&self, chain: usize, out: &mut [JointOutput]) -> usize {
        let Some(c) = self.chains.get(chain) else {
            return 0;
        };
        let slot = &self.frames[c.desc.frame];
        let joints = &self.joints[c.start..c.start + c.len];
        self.out_read.set();
        let n = if self.out_fresh[chain] {
            let rots = &self.out_rots[c.start..c.start + c.len];
            chain_output_cached(c, joints, rots, &slot.sub, self.scale, out)
        } else {
            let n = chain_output(c, joints, &slot.sub, self.scale, out);
            if self.twists(chain) {
                super::twist::twist_outputs(joints, slot.sub.rot, self.scale, &mut out[..n]);
            }
            n
        };
        if c.banded && c.desc.mode == Mode::Improved && !c.authored {
            self.band_twist(chain, &slot.sub, &mut out[..n]);
        }
        if slot.sub != slot.cur {
            let turn = quat::normalize(quat::mul(slot.cur.rot, slot.sub.rot.inverse()));
            let map = |p: Vec3| slot.cur.pos + quat::rotate(turn, p - slot.sub.pos);
            for o in &mut out[..n] {
                o.origin = map(o.origin);
                o.tail = map(o.tail);
                o.world_rot = quat::normalize(quat::mul(turn, o.world_rot));
            }
        }
        n
    }

    /// Turns chain `chain`'s outputs about their segments so the band's
    /// ring crosses them as at rest (`band_twist`); its neighbours in the
    /// band are the chains linked before and after it (itself where the
    /// band is open there).
    fn band_twist(&self, chain: usize, frame: &Pose, out: &mut [JointOutput]) {
        let me = &self.chains[chain];
        // A neighbour `set_chain_desc` has since moved to another frame
        // has no row in this one: the chain stands in for it.
        let beside = |i: usize| match self.chains.get(i) {
            Some(c) if c.desc.frame == me.desc.frame => i,
            _ => chain,
        };
        let (prev, next) = (beside(me.band_prev), beside(me.band_next));
        if prev == chain && next == chain {
            return;
        }
        let side = |i: usize| {
            let c = &self.chains[i];
            super::band_twist::Side {
                chain: c,
                joints: &self.joints[c.start..c.start + c.len],
            }
        };
        super::band_twist::band_twist_outputs(
            side(chain).joints,
            side(prev),
            side(next),
            frame,
            self.scale,
            out,
        );
    }

    /// Whether chain `chain`'s outputs take the lock twist
    /// ([`ChainDesc::twist`]): asked for, Improved, simulated, with a width
    /// axis somewhere, and neither limited nor in a band (a band's cloth is
    /// skinned across two chains: twisting one alone tears it from the
    /// other, `docs/log/2026-12-04-lock-twist-outputs.md`).
    fn twists(&self, chain: usize) -> bool {
        let c = &self.chains[chain];
        c.desc.twist
            && c.desc.mode == Mode::Improved
            && !c.authored
            && !c.limited
            && self.joints[c.start..c.start + c.len]
                .iter()
                .any(|j| j.face != Vec3::ZERO)
            && !c.banded
    }

    /// Puts every chain at rest on its arc under the current frame poses and
    /// restarts the clock phase.
    pub fn reset(&mut self) {
        self.stale_outputs();
        for f in &mut self.frames {
            f.prev = f.cur;
            f.sub = f.cur;
        }
        self.pose_colliders(None);
        for st in &mut self.collider_states[..self.colliders.len()] {
            *st = ColliderState::new(*st.cur(), *st.cur());
        }
        for i in 0..self.chains.len() {
            self.reset_chain(i);
        }
        self.clock.restart_phase();
    }

    /// Puts one chain at rest on its arc under its frame's last substep pose.
    pub fn reset_chain(&mut self, chain: usize) {
        self.stale_outputs();
        let Some(c) = self.chains.get(chain).copied() else {
            return;
        };
        let frame = self.frames[c.desc.frame].sub;
        let center = self.center_pose(&c);
        let joints = &mut self.joints[c.start..c.start + c.len];
        rest_chain(&mut self.chains[chain], joints, &frame, self.scale);
        sync_tails(joints, &center);
    }

    fn center_pose(&self, c: &Chain) -> Pose {
        c.desc.center.map_or(Pose::IDENTITY, |f| self.frames[f].sub)
    }

    fn refresh_reach(&mut self, chain: usize) {
        let c = self.chains[chain];
        self.reach[chain] = Chain::reach(&self.joints[c.start..c.start + c.len]);
    }
}

/// The clock schedule of `config` (sanitized): fixed steps, at most
/// `max_substeps` per frame.
fn clock_schedule(config: &StepConfig) -> Schedule {
    Schedule::Fixed {
        max_steps: config.max_substeps,
    }
}
