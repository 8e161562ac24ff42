//! The fixed-step driver of [`SpringWorld`]: frames through the shared
//! [`StepClock`](crate::clock::StepClock), deterministic pose
//! interpolation, teleport handling, collider posing and culling, and
//! dispatch to the step kernels.

use heapless::Vec;

use super::super::band::{BAND_ROUNDS, link_contacts, pull_link, settle_chain};
use super::super::chain::Chain;
use super::super::lanes::{LANES4, LANES8, Lane, LaneCtx, step_group4, step_group8};
use super::super::params::ContactMode;
use super::super::params::Mode;
use super::super::step::{
    ColliderState, NEAR_LANES, NearSet, StepCtx, rest_chain, step_authored, step_chain,
    step_chain_draped,
};
use super::super::step_limited::step_chain_limited;
use super::super::vrm::{step_vrm, sync_tails};
use super::SpringWorld;
use crate::collide::{ShapeKind, closest_point_on_segment};
use crate::math::{Pose, Real, Vec3};

impl<const J: usize, const C: usize, const K: usize, const F: usize> SpringWorld<J, C, K, F> {
    /// Advances by a frame of `dt` seconds, interpolating every frame from its
    /// previous pose to the one set with [`set_frame_pose`](Self::set_frame_pose).
    /// Returns the number of substeps run.
    pub fn advance(&mut self, dt: Real) -> u32 {
        if !self.started {
            self.started = true;
            self.reset();
        }
        // A jump beyond the teleport thresholds is not interpolated: the
        // first substep sees it whole and handles it (`continuity`).
        for i in 0..self.frames.len() {
            if self.frame_jumped(i) {
                self.frames[i].prev = self.frames[i].cur;
            }
        }
        let plan = self.clock.advance(dt);
        let outputs = self.out_read.take();
        let mut poses = [Pose::IDENTITY; F];
        for j in 0..plan.count {
            // Integer numerator and denominator: exact, so every frame rate
            // computes the same parameter for the same instant.
            let t = plan.fraction(j);
            for (p, f) in poses.iter_mut().zip(&self.frames) {
                *p = f.prev.interpolate(&f.cur, t);
            }
            self.substep(&poses, plan.index(j), outputs && j + 1 == plan.count);
        }
        for f in &mut self.frames {
            f.prev = f.cur;
        }
        plan.count
    }

    /// Advances by a frame of `dt` seconds, asking `pose_at(frame, substep)`
    /// for each frame's pose at the end of each substep (substep `n` ends at
    /// `n / 120` s). With an analytic motion this is exact at any frame rate.
    pub fn advance_sampled(
        &mut self,
        dt: Real,
        mut pose_at: impl FnMut(usize, u64) -> Pose,
    ) -> u32 {
        if !self.started {
            self.started = true;
            for i in 0..self.frames.len() {
                let p = pose_at(i, 0).sanitized(&self.frames[i].cur);
                self.frames[i].cur = p;
            }
            self.reset();
        }
        let plan = self.clock.advance(dt);
        let outputs = self.out_read.take();
        let mut poses = [Pose::IDENTITY; F];
        for j in 0..plan.count {
            let index = plan.index(j);
            for (i, (p, f)) in poses.iter_mut().zip(&self.frames).enumerate() {
                *p = pose_at(i, index).sanitized(&f.sub);
            }
            self.substep(&poses, index, outputs && j + 1 == plan.count);
        }
        for f in &mut self.frames {
            f.cur = f.sub;
            f.prev = f.sub;
        }
        plan.count
    }

    pub(super) fn pose_colliders(&mut self, teleported: Option<&[bool; F]>) {
        for (i, c) in self.colliders.iter().enumerate() {
            let p = self.frames[c.frame].sub;
            let st = &mut self.collider_states[i];
            let w = c.shape.posed(p.pos, p.rot, self.scale);
            let prev = if teleported.is_some_and(|t| t[c.frame]) {
                w
            } else {
                *st.cur()
            };
            *st = ColliderState::new(prev, w);
        }
    }

    /// Fixed step number `step` (1-based) with the attachment poses `poses`;
    /// `outputs`: the last substep of a frame whose outputs will be read.
    fn substep(&mut self, poses: &[Pose; F], step: u64, outputs: bool) {
        self.stale_outputs();
        self.follow_anchor(poses);
        let teleported = self.take_poses(poses);
        self.pose_colliders(Some(&teleported));
        self.blow(step);
        let near = NearSet::new(&self.collider_states[..self.colliders.len()]);
        let ctx_iters = self.config.contact_iterations;
        // Chains the lane kernel takes, grouped by frame, mode and contact
        // mode, longest first within a group, up to eight to a group; the
        // rest step one by one.
        // Sort keys: frame, Earlier mode, contact mode, longest first, then
        // chain index.
        let key = |c: &Chain, ci: usize| {
            let segment = u64::from(c.desc.contact == ContactMode::Segment);
            let earlier = u64::from(c.desc.mode == Mode::Earlier);
            let frame = c.desc.frame as u64;
            (frame << 49)
                | (earlier << 48)
                | (segment << 47)
                | ((0x7fff - c.len as u64) << 32)
                | ci as u64
        };
        let mut laned: Vec<u64, C> = Vec::new();
        for (ci, c) in self.chains.iter().enumerate() {
            if self.lane_ready(c) {
                let _ = laned.push(key(c, ci));
            }
        }
        laned.sort_unstable();
        let mut is_laned = [false; C];
        let mut i = 0;
        while i < laned.len() {
            let group_key = laned[i] >> 47;
            let from = i;
            while i < laned.len() && laned[i] >> 47 == group_key && i - from < self.lane_width {
                i += 1;
            }
            // A chain alone takes the scalar kernel (below), candidates and all.
            if i - from < 2 {
                continue;
            }
            let group: Vec<Lane, LANES8> = laned[from..i]
                .iter()
                .map(|&key| {
                    let ci = (key & 0xffff_ffff) as usize;
                    let c = &self.chains[ci];
                    Lane {
                        chain: ci,
                        colliders: self.candidate_mask(
                            c,
                            &poses[c.desc.frame],
                            self.reach[ci],
                            &near,
                        ),
                    }
                })
                .collect();
            let f = self.chains[group[0].chain].desc.frame;
            let m = self.chains[group[0].chain].desc.contact;
            let ctx = LaneCtx {
                isa: self.isa,
                scale: self.scale,
                iterations: ctx_iters,
                contact: m,
                earlier: self.chains[group[0].chain].desc.mode == Mode::Earlier,
                colliders: &self.collider_states[..self.colliders.len()],
            };
            // Four chains or fewer take the four-lane kernel: eight lanes
            // would gather and compute padding.
            if group.len() > LANES4 {
                step_group8(&mut self.chains, &mut self.joints, &group, &poses[f], &ctx);
            } else {
                step_group4(&mut self.chains, &mut self.joints, &group, &poses[f], &ctx);
            }
            for l in &group {
                is_laned[l.chain] = true;
                self.check_finite(l.chain, poses);
            }
        }
        self.step_vrm_groups(poses, &near, &mut is_laned, outputs);
        for (ci, &laned) in is_laned.iter().enumerate().take(self.chains.len()) {
            if laned {
                continue;
            }
            let c = self.chains[ci];
            let frame = poses[c.desc.frame];
            let (candidates, candidate_bits) = self.candidates(&c, &frame, self.reach[ci], &near);
            let ctx = StepCtx {
                scale: self.scale,
                iterations: ctx_iters,
                colliders: &self.collider_states[..self.colliders.len()],
                candidates: &candidates,
                candidate_bits,
                near: &near,
                external: self.wind.vrm_force[ci],
            };
            let chain = &mut self.chains[ci];
            let joints = &mut self.joints[c.start..c.start + c.len];
            let center = c.desc.center.map_or(Pose::IDENTITY, |f| poses[f]);
            if c.authored {
                step_authored(chain, joints, &frame, self.scale);
                sync_tails(joints, &center);
            } else if c.desc.mode == Mode::VrmCompatible {
                let limits = if c.limited {
                    &self.limits[c.start..c.start + c.len]
                } else {
                    &[]
                };
                step_vrm(chain, joints, limits, &frame, &center, &ctx);
            } else if c.limited {
                let limits = &self.limits[c.start..c.start + c.len];
                step_chain_limited(chain, joints, limits, &frame, &ctx);
            } else if c.desc.drape && c.desc.mode == Mode::Improved {
                step_chain_draped(chain, joints, &frame, &ctx);
            } else {
                step_chain(chain, joints, &frame, &ctx);
            }
            self.check_finite(ci, poses);
        }
        if !self.bands.is_empty() {
            self.hold_bands(poses, &near);
        }
    }

    /// Applies the band links, then walks every linked chain from its root
    /// again, [`BAND_ROUNDS`] times (`band`).
    fn hold_bands(&mut self, poses: &[Pose; F], near: &NearSet) {
        let banded = |c: &Chain| !c.authored && c.desc.mode != Mode::VrmCompatible;
        let mut linked = [false; C];
        for l in &self.bands {
            let (a, b) = (&self.chains[l.a], &self.chains[l.b]);
            // `set_chain_desc` may have moved one to another frame since.
            if banded(a) && banded(b) && a.desc.frame == b.desc.frame {
                linked[l.a] = true;
                linked[l.b] = true;
            }
        }
        // Colliders do not move between rounds: each chain's candidates are
        // found once, when it first needs a walk.
        let mut candidates: [Option<(Vec<u8, K>, u32)>; C] = core::array::from_fn(|_| None);
        for _ in 0..BAND_ROUNDS {
            let mut moved = [false; C];
            for l in &self.bands {
                let (ca, cb) = (&self.chains[l.a], &self.chains[l.b]);
                if linked[l.a] && linked[l.b] && pull_link(l, ca, cb, &mut self.joints, self.scale)
                {
                    moved[l.a] = true;
                    moved[l.b] = true;
                }
            }
            let colliders = &self.collider_states[..self.colliders.len()];
            for l in &self.bands {
                let (ca, cb) = (&self.chains[l.a], &self.chains[l.b]);
                let mask = ca.desc.collider_mask | cb.desc.collider_mask;
                if linked[l.a]
                    && linked[l.b]
                    && link_contacts(ca, cb, &mut self.joints, colliders, mask, self.scale)
                {
                    moved[l.a] = true;
                    moved[l.b] = true;
                }
            }
            // A band that holds (at rest, or converged) ends its rounds.
            if !moved.contains(&true) {
                break;
            }
            for (ci, _) in moved.iter().enumerate().filter(|(_, m)| **m) {
                let c = self.chains[ci];
                let frame = poses[c.desc.frame];
                let found = candidates[ci]
                    .get_or_insert_with(|| self.candidates(&c, &frame, self.reach[ci], near));
                let ctx = StepCtx {
                    scale: self.scale,
                    iterations: self.config.contact_iterations,
                    colliders: &self.collider_states[..self.colliders.len()],
                    candidates: &found.0,
                    candidate_bits: found.1,
                    near,
                    external: Vec3::ZERO,
                };
                let limits = if c.limited {
                    &self.limits[c.start..c.start + c.len]
                } else {
                    &[]
                };
                settle_chain(
                    &mut self.chains[ci],
                    &mut self.joints[c.start..c.start + c.len],
                    limits,
                    &frame,
                    &ctx,
                    true,
                );
                self.out_fresh[ci] = false;
                self.check_finite(ci, poses);
            }
        }
    }

    /// Whether the lane kernel steps chain `c` (`lanes::step_group4`/`8`).
    fn lane_ready(&self, c: &Chain) -> bool {
        self.config.lanes
            && !c.authored
            && (c.desc.mode == Mode::Earlier || (c.desc.mode == Mode::Improved && !c.desc.drape))
            && !c.limited
            && c.len > 0
            && !c.flat
            // The group sort key holds the frame and the length in 15 bits.
            && c.desc.frame < 0x8000
            && c.len < 0x7fff
    }

    /// Puts chain `ci` back to rest when its state is no longer finite.
    pub(super) fn check_finite(&mut self, ci: usize, poses: &[Pose; F]) {
        let c = &mut self.chains[ci];
        let joints = &mut self.joints[c.start..c.start + c.len];
        // `x · 0` is 0 for finite x and NaN otherwise: one test per
        // chain instead of six unpredictable branches per joint.
        let probe: Real = joints
            .iter()
            .map(|j| (j.x * 0.0 + j.v * 0.0).element_sum())
            .sum();
        if probe != 0.0 {
            self.out_fresh[ci] = false;
            let center = c.desc.center.map_or(Pose::IDENTITY, |f| poses[f]);
            rest_chain(c, joints, &poses[c.desc.frame], self.scale);
            sync_tails(joints, &center);
        }
    }

    /// Colliders in the chain's mask whose (swept) shape can reach the
    /// chain's bounding ball this substep, ascending, and the same as bits
    /// of the first [`NEAR_LANES`].
    pub(super) fn candidates(
        &self,
        c: &Chain,
        frame: &Pose,
        reach0: Real,
        near: &NearSet,
    ) -> (Vec<u8, K>, u32) {
        let mut hit = self.candidate_mask(c, frame, reach0, near);
        let bits = (hit & ((1u64 << NEAR_LANES) - 1)) as u32;
        let mut out = Vec::new();
        while hit != 0 {
            // `i < K <= 64` (the mask has 64 bits), so the index fits in a u8.
            let _ = out.push(hit.trailing_zeros() as u8);
            hit &= hit - 1;
        }
        (out, bits)
    }

    /// [`Self::candidates`] as a bit set.
    pub(super) fn candidate_mask(
        &self,
        c: &Chain,
        frame: &Pose,
        reach0: Real,
        near: &NearSet,
    ) -> u64 {
        let root = frame.transform_point(c.desc.root_offset * self.scale);
        let reach = reach0 * self.scale;
        // Spheres and capsules among the first lanes: one vector test.
        let round = u64::from(near.round);
        let mut hit = round & u64::from(near.mask(root, reach)) & c.desc.collider_mask;
        // The rest (planes, inside shapes, colliders past the lanes) one by one.
        let all = if self.colliders.len() >= 64 {
            u64::MAX
        } else {
            (1u64 << self.colliders.len()) - 1
        };
        let mut rest = c.desc.collider_mask & all & !round;
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let st = &self.collider_states[i];
            let w = &st.cur();
            let near = st.valid
                && match w.kind {
                    ShapeKind::Plane => (root - w.a).dot(w.normal) - w.radius < reach,
                    ShapeKind::InsideSphere | ShapeKind::InsideCapsule => {
                        let on_axis = w.a + (w.b - w.a) * closest_point_on_segment(w.a, w.b, root);
                        (root - on_axis).length() + reach > w.radius
                    }
                    ShapeKind::Sphere | ShapeKind::Capsule => st.near(root, reach),
                };
            if near {
                hit |= 1 << i;
            }
        }
        hit
    }
}
