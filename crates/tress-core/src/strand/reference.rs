//! The scalar reference step: one strand at a time, plain `Vec3` code.
//!
//! It exists to pin down what the chunked kernel must compute; a test runs
//! both on the same groom and requires identical bits. It is also the easiest
//! place to read the algorithm.

// Index loops over lanes and particles are the point here: fixed-width
// indexed loops over several arrays are what the vectoriser widens.
#![allow(clippy::needless_range_loop)]

use super::buffers::{StrandRest, StrandState};
use super::frame::StepFrame;
use super::kernel::{FOLDED, TINY, push_and_slide, push_without_rebound};
use super::layout::StrandLayout;
use super::params::StepCoefs;
use crate::math::{Real, Vec3};

/// Runs one step on every strand (padding included), one strand at a time.
pub fn step_reference(
    layout: &StrandLayout,
    k: &StepCoefs,
    f: &StepFrame,
    rest: &StrandRest<'_>,
    s: &mut StrandState<'_>,
) {
    let m = layout.particles();
    for strand in 0..layout.chunks() * layout.lanes() {
        let idx = |p: usize| layout.index(strand, p);
        let r = |p: usize| Vec3::new(rest.x[idx(p)], rest.y[idx(p)], rest.z[idx(p)]);
        let mut x = [Vec3::ZERO; super::layout::MAX_PARTICLES];
        let mut q = [Vec3::ZERO; super::layout::MAX_PARTICLES];
        for p in 0..m {
            let i = idx(p);
            x[p] = Vec3::new(s.x[i], s.y[i], s.z[i]);
            q[p] = Vec3::new(s.px[i], s.py[i], s.pz[i]);
        }

        // Integrate with momentum; the root rides the head.
        x[0] = f.rot * r(0) + f.trans;
        q[0] = x[0];
        for p in 1..m {
            let v = x[p] - q[p];
            q[p] = x[p];
            x[p] = x[p] + v * k.momentum + k.gravity_h2;
        }

        for _ in 0..k.passes.global {
            for p in 1..=k.global_count {
                let target = f.rot * r(p) + f.trans;
                x[p] = x[p] + (target - x[p]) * k.global;
            }
        }

        for _ in 0..k.passes.local {
            let mut w = f.rot * (r(1) - r(0));
            x[1] = x[1] + (w - (x[1] - x[0])) * k.local;
            let half = 0.5 * k.local;
            for p in 1..m - 1 {
                let a = w * rest.inv_len[idx(p)];
                let b_raw = x[p] - x[p - 1];
                let bl = b_raw.length();
                let b = if bl > TINY { b_raw / bl } else { a };
                let c = a.dot(b);
                let v = f.rot * (r(p + 1) - r(p));
                let den = 1.0 + c;
                // The minimal rotation from a to b applied to v, as two
                // reflections: in the plane normal to a, then to a + b.
                let t = if den > FOLDED {
                    let av = a.dot(v);
                    let s = (av + b.dot(v)) / den;
                    v - a * s + b * (2.0 * av - s)
                } else {
                    v
                };
                let d = (t - (x[p + 1] - x[p])) * half;
                x[p] -= d;
                x[p + 1] += d;
                w = v;
            }
        }

        let (sweeps, fused) = k.collision_sweeps();
        for _ in 0..sweeps {
            for c in &f.colliders {
                for p in 1..m {
                    if let Some((np, nq)) = push_without_rebound(c, x[p], q[p], k.margin) {
                        x[p] = np;
                        q[p] = nq;
                    }
                }
            }
        }

        for it in 0..k.passes.length {
            let collide = it + 1 == k.passes.length && fused;
            for p in 1..m {
                let lr: Real = rest.len[idx(p)];
                let d = x[p] - x[p - 1];
                let len = d.length();
                let n = if len > TINY {
                    x[p - 1] + d * (lr / len)
                } else {
                    Vec3::new(x[p - 1].x, x[p - 1].y - lr, x[p - 1].z)
                };
                q[p - 1] += (n - x[p]) * k.ftl;
                x[p] = n;
                if collide {
                    for c in &f.colliders {
                        if let Some((np, nq)) =
                            push_and_slide(c, x[p], q[p], x[p - 1], lr, k.margin)
                        {
                            x[p] = np;
                            q[p] = nq;
                        }
                    }
                }
            }
        }

        for p in 0..m {
            let i = idx(p);
            (s.x[i], s.y[i], s.z[i]) = (x[p].x, x[p].y, x[p].z);
            (s.px[i], s.py[i], s.pz[i]) = (q[p].x, q[p].y, q[p].z);
        }
    }
}
