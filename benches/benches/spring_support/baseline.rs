//! A straightforward implementation of the same Improved update, written the
//! obvious way: heap-allocated nested vectors, every collider tested against
//! every joint every iteration, `exp` and posing recomputed in the inner
//! loop, no culling. It is the yardstick the bench compares against.

use super::{CHAINS, JOINTS_PER_CHAIN, chain, colliders, poses};
use alloc::vec::Vec;
use tress_core::collide::{Collider, WorldCollider, push_out_segment_swept};
use tress_core::math::{Real, Vec3, ops};
use tress_core::spring::{ContactMode, H, Pose};

struct Joint {
    rest: Vec3,
    len: Real,
    k: Real,
    c: Real,
    g: Vec3,
    r: Real,
    x: Vec3,
    v: Vec3,
}

struct Chain {
    root: Vec3,
    segment: bool,
    joints: Vec<Joint>,
}

/// The baseline avatar.
pub struct Baseline {
    chains: Vec<Chain>,
    colliders: Vec<(usize, Collider)>,
    prev_world: Vec<WorldCollider>,
    prev_poses: [Pose; 4],
}

impl Baseline {
    /// The same avatar as [`super::avatar`], at rest.
    #[must_use]
    pub fn new() -> Self {
        let p0 = poses(0);
        let mut chains = Vec::new();
        for c in 0..CHAINS {
            let (desc, joints) = chain(c);
            let mut rot = tress_core::math::Quat::IDENTITY;
            let mut o = p0[0].transform_point(desc.root_offset);
            let mut js = Vec::new();
            for d in joints.iter().take(JOINTS_PER_CHAIN) {
                rot *= d.local_rot;
                let rest = rot * d.offset;
                let x = o + p0[0].rot * rest;
                js.push(Joint {
                    rest,
                    len: d.offset.length(),
                    k: d.params.stiffness,
                    c: d.params.damping,
                    g: d.params.gravity,
                    r: d.params.hit_radius,
                    x,
                    v: Vec3::ZERO,
                });
                o = x;
            }
            chains.push(Chain {
                root: desc.root_offset,
                segment: desc.contact == ContactMode::Segment,
                joints: js,
            });
        }
        let colliders: Vec<_> = colliders().to_vec();
        let prev_world = colliders
            .iter()
            .map(|(f, c)| c.posed(p0[*f].pos, p0[*f].rot, 1.0))
            .collect();
        Self {
            chains,
            colliders,
            prev_world,
            prev_poses: p0,
        }
    }

    /// One 60 Hz frame: two substeps with interpolated poses.
    pub fn frame(&mut self, n: u64) {
        let next = poses(n);
        for k in 1..=2 {
            let t = k as Real / 2.0;
            let p: Vec<Pose> = self
                .prev_poses
                .iter()
                .zip(&next)
                .map(|(a, b)| a.interpolate(b, t))
                .collect();
            self.substep(&p);
        }
        self.prev_poses = next;
    }

    fn substep(&mut self, p: &[Pose]) {
        let world: Vec<WorldCollider> = self
            .colliders
            .iter()
            .map(|(f, c)| c.posed(p[*f].pos, p[*f].rot, 1.0))
            .collect();
        for ch in &mut self.chains {
            let mut o = p[0].transform_point(ch.root);
            for j in &mut ch.joints {
                let target = o + p[0].rot * j.rest;
                let f = (target - j.x) * j.k + j.g;
                let u = (j.v + f * H) * ops::exp(-j.c * H);
                let y = j.x + u * H;
                let mut xh = o + (y - o).normalize() * j.len;
                let mut v = (xh - j.x) / H;
                for _ in 0..4 {
                    for (prev, cur) in self.prev_world.iter().zip(&world) {
                        let p0 = if ch.segment { o } else { xh };
                        if let Some(hit) = push_out_segment_swept(prev, cur, p0, xh, j.r) {
                            xh = o + (xh + hit.correction - o).normalize() * j.len;
                            let vn = v.dot(hit.normal);
                            if vn < 0.0 {
                                v -= hit.normal * vn;
                            }
                        }
                    }
                }
                j.x = xh;
                j.v = v;
                o = xh;
            }
        }
        self.prev_world = world;
    }

    /// Tip of chain `c` (keeps the work observable).
    #[must_use]
    pub fn tip(&self, c: usize) -> Vec3 {
        self.chains[c].joints[JOINTS_PER_CHAIN - 1].x
    }
}

impl Default for Baseline {
    fn default() -> Self {
        Self::new()
    }
}
