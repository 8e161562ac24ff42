//! Continuity of a [`SpringWorld`] across what is not motion: teleports
//! (carried or reset, by distance and rotation), a resume after a pause,
//! and an anchor frame (a platform or vehicle) whose motion the hair does
//! not feel.
//!
//! The anchor works by moving the whole state with it: at every substep,
//! the anchor's rigid motion since the last substep is applied to every
//! joint (positions and velocities), to every frame's last pose and to
//! every collider's last pose before anything else runs. The kernels then
//! see only motion relative to the anchor, which is what a rider's hair
//! feels.

use super::super::band::settle_chain;
use super::super::chain::{Chain, Joint};
use super::super::params::Mode;
use super::super::step::{ColliderState, NearSet, StepCtx, rest_chain};
use super::super::teleport::{TeleportMode, TeleportPolicy};
use super::super::vrm::{settle_vrm, sync_tails};
use super::{SetupError, SpringWorld};
use crate::collide::WorldCollider;
use crate::math::{Pose, Quat, Vec3, quat};

/// Walks from the root per [`SpringWorld::hold`]: a push followed by the
/// length projection leaves part of a deep contact in, about half of it
/// per walk (a lock dragged sideways through a sphere, deepest end into
/// its 5 mm hit radius after 2 / 3 / 4 walks: 0.37 / 0.18 / 0.10 mm, and
/// 2.1 / 0.94 / 0.40 mm with three-vrm's push; `tests/spring/continuity.rs`).
const HOLD_WALKS: usize = 4;

/// A rigid motion from one pose to another, applied to points and vectors.
#[derive(Clone, Copy, Debug)]
pub(super) struct Carry {
    from: Pose,
    to: Pose,
    turn: Quat,
}

impl Carry {
    pub(super) fn new(from: &Pose, to: &Pose) -> Self {
        Self {
            from: *from,
            to: *to,
            turn: quat::normalize(quat::mul(to.rot, from.rot.inverse())),
        }
    }

    fn point(&self, p: Vec3) -> Vec3 {
        self.to.pos + quat::rotate(self.turn, p - self.from.pos)
    }

    fn vector(&self, v: Vec3) -> Vec3 {
        quat::rotate(self.turn, v)
    }

    fn pose(&self, p: &Pose) -> Pose {
        Pose::new(
            self.point(p.pos),
            quat::normalize(quat::mul(self.turn, p.rot)),
        )
    }

    fn collider(&self, c: &WorldCollider) -> WorldCollider {
        WorldCollider {
            a: self.point(c.a),
            b: self.point(c.b),
            normal: self.vector(c.normal),
            ..*c
        }
    }

    /// Carries a chain's state (the caller re-derives VRM tails, or maps
    /// world-space ones with [`Self::tails`]).
    pub(super) fn chain(&self, c: &mut Chain, joints: &mut [Joint]) {
        c.root_prev = self.point(c.root_prev);
        for j in joints.iter_mut() {
            j.x = self.point(j.x);
            j.v = self.vector(j.v);
        }
    }

    /// Carries world-space VRM tails and the measured child positions.
    fn tails(&self, joints: &mut [Joint], world_space: bool) {
        for j in joints.iter_mut() {
            j.child_prev = self.point(j.child_prev);
            if world_space {
                j.cur_tail = self.point(j.cur_tail);
                j.prev_tail = self.point(j.prev_tail);
            }
        }
    }
}

impl<const J: usize, const C: usize, const K: usize, const F: usize> SpringWorld<J, C, K, F> {
    /// Sets the rotation threshold and the mode of teleport handling (the
    /// distance threshold is [`StepConfig::teleport_distance`](crate::spring::StepConfig)).
    /// Takes effect at the next frame; nothing is reset.
    pub fn set_teleport_policy(&mut self, policy: TeleportPolicy) {
        self.teleport = policy.sanitized();
    }

    /// The teleport policy (sanitized).
    #[must_use]
    pub fn teleport_policy(&self) -> TeleportPolicy {
        self.teleport
    }

    /// Makes frame `frame` the anchor (a moving platform or vehicle the
    /// avatar stands in): from the next substep on the hair does not feel
    /// its motion as inertia, only motion relative to it. `None` turns the
    /// anchor off. Nothing is reset.
    pub fn set_anchor(&mut self, frame: Option<usize>) -> Result<(), SetupError> {
        self.stale_outputs();
        if frame.is_some_and(|f| f >= self.frames.len()) {
            return Err(SetupError::BadIndex);
        }
        self.anchor = frame;
        Ok(())
    }

    /// The anchor frame, if any.
    #[must_use]
    pub fn anchor(&self) -> Option<usize> {
        self.anchor
    }

    /// Continues after a pause: the frame poses set since the last
    /// [`advance`](Self::advance) are where the avatar is now, however far
    /// it moved meanwhile. Every chain is carried rigidly from its frame's
    /// last simulated pose to that one, keeping its shape and its swing, so
    /// the next advance neither replays the pause's motion as one violent
    /// frame nor resets anything.
    pub fn resume(&mut self) {
        self.stale_outputs();
        if !self.started {
            // The first advance puts the chains at rest under these poses.
            return;
        }
        self.carry_to_frames();
    }

    /// Holds the hair while its owner is paused but the avatar still moves
    /// (a disabled node whose skeleton plays on): every chain is carried
    /// rigidly from its frame's last pose to the one set now, as
    /// [`resume`](Self::resume) carries it, and then walked from its root
    /// (`band::settle_chain`, four times: `HOLD_WALKS`) so that each end stays
    /// on its bone length, inside its angle limit and out of the colliders
    /// where they are now. No time passes and no spring acts: hair held
    /// through a turn of the head slides over the shoulder it would
    /// otherwise pass through (and stays where the shoulder left it), where
    /// a rigid hold would leave it inside for the pause and push it out in
    /// one frame when the owner resumes. Velocities are zeroed: held, the
    /// hair does not move in its frame, so the next
    /// [`advance`](Self::advance) starts it from rest there (a swing kept
    /// from when the hold began and let go at another phase of the motion
    /// popped). A [`resume`](Self::resume) with no hold before it keeps the
    /// swing. Call it once per held frame,
    /// after the frame poses. VRM-compatible chains are walked with their
    /// own contact (three-vrm's tail push, `vrm::settle_vrm`); chains
    /// following an authored animation are carried only; band links are
    /// not pulled (a held skirt's chains are each kept out of the legs).
    pub fn hold(&mut self) {
        self.stale_outputs();
        if !self.started {
            return;
        }
        self.carry_to_frames();
        let mut poses = [Pose::IDENTITY; F];
        for (p, f) in poses.iter_mut().zip(&self.frames) {
            *p = f.cur;
        }
        let near = NearSet::new(&self.collider_states[..self.colliders.len()]);
        for ci in 0..self.chains.len() {
            let c = self.chains[ci];
            if c.authored {
                continue;
            }
            let frame = self.frames[c.desc.frame].cur;
            let (candidates, candidate_bits) = self.candidates(&c, &frame, self.reach[ci], &near);
            let ctx = StepCtx {
                scale: self.scale,
                iterations: self.config.contact_iterations,
                colliders: &self.collider_states[..self.colliders.len()],
                candidates: &candidates,
                candidate_bits,
                near: &near,
                external: Vec3::ZERO,
            };
            let limits = if c.limited {
                &self.limits[c.start..c.start + c.len]
            } else {
                &[]
            };
            let center = self.center_pose(&c);
            let joints = &mut self.joints[c.start..c.start + c.len];
            // Held, the hair does not move in its frame: it resumes from
            // rest there. A velocity kept from the frame the pause began
            // (mid-swing, say) and let go at another phase of the motion
            // popped flat front locks 2.6 mm beyond the largest ordinary
            // frame (docs/SOLVER.md, "Hold").
            for j in joints.iter_mut() {
                j.v = Vec3::ZERO;
            }
            for _ in 0..HOLD_WALKS {
                if c.desc.mode == Mode::VrmCompatible {
                    settle_vrm(&c, joints, limits, &frame, &ctx);
                } else {
                    settle_chain(&mut self.chains[ci], joints, limits, &frame, &ctx, false);
                }
            }
            sync_tails(joints, &center);
            // A state that was not finite goes back to rest, as a step's.
            self.check_finite(ci, &poses);
        }
    }

    /// Carries every chain rigidly from its frame's last simulated pose to
    /// the pose set now, and makes that pose the start of the next advance
    /// (the colliders too, without a sweep across the gap).
    fn carry_to_frames(&mut self) {
        for ci in 0..self.chains.len() {
            let c = self.chains[ci];
            let slot = self.frames[c.desc.frame];
            if slot.sub != slot.cur {
                let carry = Carry::new(&slot.sub, &slot.cur);
                carry.chain(
                    &mut self.chains[ci],
                    &mut self.joints[c.start..c.start + c.len],
                );
            }
        }
        for f in &mut self.frames {
            f.prev = f.cur;
            f.sub = f.cur;
        }
        for ci in 0..self.chains.len() {
            let c = self.chains[ci];
            let center = self.center_pose(&c);
            sync_tails(&mut self.joints[c.start..c.start + c.len], &center);
        }
        // Colliders start again where they are, without a sweep across the pause.
        self.pose_colliders(None);
        for st in &mut self.collider_states[..self.colliders.len()] {
            *st = ColliderState::new(*st.cur(), *st.cur());
        }
    }

    /// Moves the whole state with the anchor's motion since the last
    /// substep (see the module docs).
    pub(super) fn follow_anchor(&mut self, poses: &[Pose; F]) {
        let Some(a) = self.anchor else {
            return;
        };
        let from = self.frames[a].sub;
        if from == poses[a] {
            return;
        }
        let carry = Carry::new(&from, &poses[a]);
        for ci in 0..self.chains.len() {
            let c = self.chains[ci];
            let joints = &mut self.joints[c.start..c.start + c.len];
            carry.chain(&mut self.chains[ci], joints);
            // Center-space tails move with their center frame, which is carried below.
            carry.tails(joints, c.desc.center.is_none());
        }
        for f in &mut self.frames {
            f.sub = carry.pose(&f.sub);
        }
        for st in &mut self.collider_states[..self.colliders.len()] {
            let w = carry.collider(st.cur());
            *st = ColliderState::new(w, w);
        }
    }

    /// Handles the frames that jumped since the last substep (distance or
    /// rotation past the thresholds) and records `poses` as the last
    /// substep's; returns which frames jumped.
    pub(super) fn take_poses(&mut self, poses: &[Pose; F]) -> [bool; F] {
        let limit = self.config.teleport_distance * self.scale;
        let mut teleported = [false; F];
        for i in 0..self.frames.len() {
            let from = self.frames[i].sub;
            teleported[i] = self.teleport.jumped(limit, &from, &poses[i]);
            if teleported[i] {
                let carry = Carry::new(&from, &poses[i]);
                for ci in 0..self.chains.len() {
                    let c = self.chains[ci];
                    if c.desc.frame != i {
                        continue;
                    }
                    let joints = &mut self.joints[c.start..c.start + c.len];
                    match self.teleport.mode {
                        TeleportMode::KeepShape => carry.chain(&mut self.chains[ci], joints),
                        TeleportMode::Reset => {
                            rest_chain(&mut self.chains[ci], joints, &poses[i], self.scale);
                        }
                    }
                    sync_tails(joints, &c.desc.center.map_or(Pose::IDENTITY, |f| poses[f]));
                }
            }
            self.frames[i].sub = poses[i];
        }
        teleported
    }

    /// Whether frame `i`'s move over the coming frame is a teleport (then
    /// it is not interpolated: the first substep sees it whole). With an
    /// anchor the move is measured relative to it, as the substeps see it,
    /// and the anchor itself never teleports: its motion is carried whole.
    pub(super) fn frame_jumped(&self, i: usize) -> bool {
        let f = &self.frames[i];
        let limit = self.config.teleport_distance * self.scale;
        match self.anchor {
            None => self.teleport.jumped(limit, &f.prev, &f.cur),
            Some(a) if a == i => false,
            Some(a) => {
                let (ap, ac) = (&self.frames[a].prev, &self.frames[a].cur);
                // The frame's previous pose carried by the anchor's motion.
                let carried = Carry::new(ap, ac).pose(&f.prev);
                self.teleport.jumped(limit, &carried, &f.cur)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn carry_is_rigid() {
        let from = Pose::new(Vec3::new(1.0, 2.0, 3.0), Quat::from_rotation_y(0.3));
        let to = Pose::new(Vec3::new(-4.0, 0.5, 9.0), Quat::from_rotation_x(1.1));
        let c = Carry::new(&from, &to);
        let p = Vec3::new(0.2, -0.3, 0.4);
        let q = c.point(from.transform_point(p));
        assert!((q - to.transform_point(p)).length() < 1e-5);
        assert!((c.pose(&from).rot.dot(to.rot).abs() - 1.0).abs() < 1e-6);
    }
}
