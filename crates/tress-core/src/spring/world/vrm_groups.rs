//! Grouping of VRM-compatible chains for the lane kernel
//! (`lanes_vrm::step_vrm_group4`/`8`): chains with the same center step
//! together whatever frame they hang from, longest first, up to the lane
//! width to a group; a chain alone is left to the scalar kernel.

use heapless::Vec;

use super::super::chain::Chain;
use super::super::lanes::{LANES4, LANES8};
use super::super::lanes_vrm::{VrmLane, VrmLaneCtx, step_vrm_group4, step_vrm_group8};
use super::super::params::Mode;
use super::super::step::NearSet;
use super::SpringWorld;
use crate::math::Pose;

impl<const J: usize, const C: usize, const K: usize, const F: usize> SpringWorld<J, C, K, F> {
    /// Steps the VRM-compatible chains the lane kernel takes and marks them
    /// in `laned`; with `outputs` the kernel also leaves their output
    /// rotations in `out_rots` and marks them fresh.
    pub(super) fn step_vrm_groups(
        &mut self,
        poses: &[Pose; F],
        near: &NearSet,
        laned: &mut [bool; C],
        outputs: bool,
    ) {
        // Sort keys: center (0 for none), longest first, chain index. Each
        // lane reads its own frame (Godette's eight chains hang from two
        // bones: grouped by frame, one of them would step alone).
        let mut order: Vec<(usize, usize, usize), C> = Vec::new();
        for (ci, c) in self.chains.iter().enumerate() {
            if self.vrm_lane_ready(c) {
                let center = c.desc.center.map_or(0, |f| f + 1);
                let _ = order.push((center, usize::MAX - c.len, ci));
            }
        }
        if order.len() < 2 {
            return;
        }
        order.sort_unstable();
        let mut i = 0;
        while i < order.len() {
            let center = order[i].0;
            let from = i;
            while i < order.len() && order[i].0 == center && i - from < self.lane_width {
                i += 1;
            }
            if i - from < 2 {
                continue;
            }
            let group: Vec<VrmLane, LANES8> = order[from..i]
                .iter()
                .map(|&(.., ci)| {
                    let c = &self.chains[ci];
                    VrmLane {
                        chain: ci,
                        colliders: self.candidate_mask(
                            c,
                            &poses[c.desc.frame],
                            self.reach[ci],
                            near,
                        ),
                        external: self.wind.vrm_force[ci],
                    }
                })
                .collect();
            let center_pose = center.checked_sub(1).map_or(Pose::IDENTITY, |f| poses[f]);
            let ctx = VrmLaneCtx {
                isa: self.isa,
                scale: self.scale,
                colliders: &self.collider_states[..self.colliders.len()],
                frames: &poses[..],
                center: center_pose,
            };
            let step = if group.len() > LANES4 {
                step_vrm_group8
            } else {
                step_vrm_group4
            };
            step(
                &mut self.chains,
                &mut self.joints,
                &group,
                &ctx,
                outputs.then_some(&mut self.out_rots[..]),
            );
            for l in &group {
                laned[l.chain] = true;
                self.out_fresh[l.chain] = outputs;
                self.check_finite(l.chain, poses);
            }
        }
    }

    /// Whether the VRM lane kernel steps chain `c`: what `step_vrm` does
    /// without angle limits (limited chains keep the scalar kernel, which
    /// clamps after every push).
    fn vrm_lane_ready(&self, c: &Chain) -> bool {
        self.config.lanes
            && !c.authored
            && c.desc.mode == Mode::VrmCompatible
            && !c.limited
            && c.len > 0
    }
}
