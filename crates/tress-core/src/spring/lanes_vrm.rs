//! Up to four (or, with AVX2, eight) VRM-compatible chains stepped together,
//! one per vector lane: [`step_vrm_group4`] and [`step_vrm_group8`], the
//! lane form of [`super::vrm::step_vrm`] for chains without angle limits.
//!
//! A VRM joint is a long chain of dependent work (the parent's rotation,
//! the rest axis turned by it, the Verlet step, the projection, every
//! collider, the shortest arc back onto the bone): one chain keeps a core
//! waiting on latencies, four or eight side by side fill them. Each lane
//! performs exactly the operations of the scalar kernel in the same order
//! (no fused multiply-add, the same square roots and divisions, glam's
//! scalar order for dots and crosses), so the bits are the scalar kernel's
//! on every platform; `vrm_lanes_match_the_scalar_kernel_bit_for_bit`
//! holds them to it, bone outputs included: on a frame's last substep the
//! kernel can also leave every joint's output rotations (`OutRot`) for
//! `SpringWorld::outputs`. Rare cases (planes and inside shapes, a point on a
//! collider's axis, a half-turn arc, degenerate projections) go to the
//! scalar functions lane by lane.

use super::chain::{Chain, Joint};
#[cfg(target_arch = "x86_64")]
use super::lane_math::F8;
use super::lane_math::Lanes;
#[cfg(target_arch = "x86_64")]
use super::lanes::LANES8;
use super::lanes::{DEGENERATE_SQ, LANES4, Rotor, TINY, V3, clamp01, project_lanes};
use super::output::{OutRot, segment_rotation};
use super::params::H;
use super::step::{ColliderState, INV_H, project};
use super::vrm::external_force;
use crate::collide::{ShapeKind, clearance_point};
use crate::math::{Pose, Quat, Real, Vec3, Vec4};
use crate::simd::{Isa, target_build};

/// One VRM-compatible chain in a lane group.
#[derive(Clone, Copy, Debug)]
pub(crate) struct VrmLane {
    /// Index of the chain in the world.
    pub chain: usize,
    /// Colliders it may touch this substep (the scalar kernel's candidates).
    pub colliders: u64,
    /// The wind's force on this chain (`StepCtx::external`).
    pub external: Vec3,
}

/// What a group's step reads besides its chains.
pub(crate) struct VrmLaneCtx<'a> {
    /// The instruction set the world detected when it was made.
    pub isa: Isa,
    pub scale: Real,
    pub colliders: &'a [ColliderState],
    /// Every frame's pose this substep (each lane reads its chain's).
    pub frames: &'a [Pose],
    /// The group's center frame pose (identity for none).
    pub center: Pose,
}

/// `W` quaternions, one per lane.
#[derive(Clone, Copy, Debug)]
pub(super) struct Q<S> {
    x: S,
    y: S,
    z: S,
    w: S,
}

impl<S> Q<S> {
    #[inline(always)]
    pub(super) fn splat<const W: usize>(isa: S::Isa, q: Quat) -> Self
    where
        S: Lanes<W>,
    {
        Self {
            x: S::splat(isa, q.x),
            y: S::splat(isa, q.y),
            z: S::splat(isa, q.z),
            w: S::splat(isa, q.w),
        }
    }

    #[inline(always)]
    pub(super) fn from_lanes<const W: usize>(isa: S::Isa, q: &[Quat; W]) -> Self
    where
        S: Lanes<W>,
    {
        let [x, y, z, w] = S::transpose_in4(isa, &core::array::from_fn(|i| Vec4::from(q[i])));
        Self { x, y, z, w }
    }

    /// The `W` quaternions back out of the lanes.
    #[inline(always)]
    fn to_lanes<const W: usize>(self) -> [Quat; W]
    where
        S: Lanes<W>,
    {
        S::transpose_out4(self.x, self.y, self.z, self.w).map(Quat::from_vec4)
    }

    #[inline(always)]
    fn lane<const W: usize>(&self, i: usize) -> Quat
    where
        S: Lanes<W>,
    {
        Quat::from_xyzw(
            self.x.lane(i),
            self.y.lane(i),
            self.z.lane(i),
            self.w.lane(i),
        )
    }

    #[inline(always)]
    fn set_lane<const W: usize>(&mut self, i: usize, q: Quat)
    where
        S: Lanes<W>,
    {
        self.x.set_lane(i, q.x);
        self.y.set_lane(i, q.y);
        self.z.set_lane(i, q.z);
        self.w.set_lane(i, q.w);
    }

    #[inline(always)]
    fn select<const W: usize>(m: S::Mask, a: Self, b: Self) -> Self
    where
        S: Lanes<W>,
    {
        Self {
            x: S::select(m, a.x, b.x),
            y: S::select(m, a.y, b.y),
            z: S::select(m, a.z, b.z),
            w: S::select(m, a.w, b.w),
        }
    }
}

/// [`crate::math::quat::mul`] per lane: its four products per component
/// added left to right (its negated products are these subtractions).
#[inline(always)]
pub(super) fn mul_lanes<const W: usize, S: Lanes<W>>(a: Q<S>, b: Q<S>) -> Q<S> {
    Q {
        x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
        y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
        z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
        w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
    }
}

/// [`crate::math::quat::rotate`] by a quaternion per lane.
#[inline(always)]
pub(super) fn rotate_q<const W: usize, S: Lanes<W>>(isa: S::Isa, q: &Q<S>, v: V3<S>) -> V3<S> {
    let b = V3 {
        x: q.x,
        y: q.y,
        z: q.z,
    };
    let two = S::splat(isa, 2.0);
    let b2 = b.x * b.x + b.y * b.y + b.z * b.z;
    let k_v = q.w * q.w - b2;
    let k_b = v.dot(b) * two;
    let k_c = q.w * two;
    let c = V3 {
        x: b.y * v.z - v.y * b.z,
        y: b.z * v.x - v.z * b.x,
        z: b.x * v.y - v.x * b.y,
    };
    v * k_v + b * k_b + c * k_c
}

/// glam's `Vec3::cross` per lane.
#[inline(always)]
fn cross<const W: usize, S: Lanes<W>>(a: V3<S>, b: V3<S>) -> V3<S> {
    V3 {
        x: a.y * b.z - b.y * a.z,
        y: a.z * b.x - b.z * a.x,
        z: a.x * b.y - b.x * a.y,
    }
}

/// glam's `Vec3::normalize_or` per lane: times the reciprocal length where
/// that is finite and positive, else `fallback`.
#[inline(always)]
fn normalize_or<const W: usize, S: Lanes<W>>(isa: S::Isa, v: V3<S>, fallback: V3<S>) -> V3<S> {
    let rcp = S::splat(isa, 1.0) / v.dot(v).sqrt();
    let ok = rcp.cmpgt(S::splat(isa, 0.0)) & rcp.cmplt(S::splat(isa, Real::INFINITY));
    V3::select(ok, v * rcp, fallback)
}

/// Lanes where all three components are zero (`v == Vec3::ZERO`).
#[inline(always)]
fn is_zero<const W: usize, S: Lanes<W>>(isa: S::Isa, v: V3<S>) -> S::Mask {
    let zero = S::splat(isa, 0.0);
    v.x.cmpeq(zero) & v.y.cmpeq(zero) & v.z.cmpeq(zero)
}

/// [`segment_rotation`] per lane for the lanes in `live`; the half-turn arc
/// (opposite directions) is left to the scalar function.
#[inline(always)]
pub(super) fn segment_rotation_lanes<const W: usize, S: Lanes<W>>(
    isa: S::Isa,
    base: Q<S>,
    axis_unit: V3<S>,
    dir: V3<S>,
    live: u32,
) -> Q<S> {
    // `quat::from_rotation_arc`'s threshold.
    const ONE_MINUS_EPS: Real = 1.0 - 2.0 * Real::EPSILON;
    let zero = V3::splat(isa, Vec3::ZERO);
    let to = normalize_or(isa, dir, zero);
    let from = rotate_q(isa, &base, axis_unit);
    let d = from.dot(to);
    let c = cross(from, to);
    let q = Q {
        x: c.x,
        y: c.y,
        z: c.z,
        w: S::splat(isa, 1.0) + d,
    };
    let len = (q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w).sqrt();
    let arc = Q {
        x: q.x / len,
        y: q.y / len,
        z: q.z / len,
        w: q.w / len,
    };
    let arc = Q::select(
        d.cmpgt(S::splat(isa, ONE_MINUS_EPS)),
        Q::splat(isa, Quat::IDENTITY),
        arc,
    );
    let keep = is_zero(isa, axis_unit) | is_zero(isa, to);
    let mut w = Q::select(keep, base, mul_lanes(arc, base));
    let flip = S::bits(d.cmplt(S::splat(isa, -ONE_MINUS_EPS))) & !S::bits(keep) & live;
    if flip != 0 {
        for i in 0..W {
            if flip >> i & 1 == 1 {
                w.set_lane(
                    i,
                    segment_rotation(base.lane(i), axis_unit.lane(i), dir.lane(i)),
                );
            }
        }
    }
    w
}

/// The collider pushes of one joint row, in collider order per lane, as
/// the scalar kernel's loop over its candidates.
#[allow(clippy::too_many_arguments)] // hot path: plain values beat a struct here
#[inline(always)]
fn push_out<const W: usize, S: Lanes<W>>(
    isa: S::Isa,
    colliders: &[ColliderState],
    union: u64,
    lanes_of: &[u8; 64],
    stored: u32,
    o: V3<S>,
    len: S,
    axis: V3<S>,
    hit_radius: S,
    mut next: V3<S>,
) -> V3<S> {
    let zero = S::splat(isa, 0.0);
    let mut rest = union;
    while rest != 0 {
        let ci = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        let want = u32::from(lanes_of[ci]) & stored;
        if want == 0 {
            continue;
        }
        let c = colliders[ci].cur();
        let mut odd = if matches!(c.kind, ShapeKind::Sphere | ShapeKind::Capsule) {
            // `clearance_point` for a round shape, operation for operation.
            let a = V3::splat(isa, c.a);
            let ab = c.b - c.a;
            let len_sq = ab.length_squared();
            let abv = V3::splat(isa, ab);
            let t = if len_sq <= DEGENERATE_SQ {
                zero
            } else {
                clamp01(isa, (next - a).dot(abv) / S::splat(isa, len_sq))
            };
            let d = next - (a + abv * t);
            let dist = d.dot(d).sqrt();
            let clear = (dist - S::splat(isa, c.radius)) - hit_radius;
            let hit = S::bits(clear.cmplt(zero)) & want;
            if hit == 0 {
                continue;
            }
            // A point on the axis takes `dir_or`'s fallback direction.
            let odd = hit & !S::bits(dist.cmpgt(S::splat(isa, TINY)));
            let n = d * (S::splat(isa, 1.0) / dist);
            let pushed = project_lanes(isa, o, next - n * clear, len, axis);
            next = V3::select(S::mask_of(isa, hit & !odd), pushed, next);
            odd
        } else {
            want
        };
        while odd != 0 {
            let i = odd.trailing_zeros() as usize;
            odd &= odd - 1;
            let p = next.lane(i);
            let (clear, n) = clearance_point(c, p, hit_radius.lane(i));
            if clear < 0.0 {
                let q = project(o.lane(i), p - n * clear, len.lane(i), axis.lane(i));
                next.set_lane(i, q);
            }
        }
    }
    next
}

/// One VRM-compatible substep of the chains `lanes` (1 to [`LANES4`], none
/// authored or limited, the same center, longest first), each hanging from
/// its frame in `ctx.frames`, four lanes wide (`Vec4`, the build's baseline).
#[inline(never)]
pub(crate) fn step_vrm_group4(
    chains: &mut [Chain],
    joints: &mut [Joint],
    lanes: &[VrmLane],
    ctx: &VrmLaneCtx<'_>,
    out: Option<&mut [OutRot]>,
) {
    step_on::<LANES4, Vec4>((), chains, joints, lanes, ctx, out);
}

/// [`step_vrm_group4`] for 1 to [`super::lanes::LANES8`] chains, eight lanes wide where
/// `ctx.isa` has AVX2; elsewhere as two four-lane groups. The same bits
/// either way.
pub(crate) fn step_vrm_group8(
    chains: &mut [Chain],
    joints: &mut [Joint],
    lanes: &[VrmLane],
    ctx: &VrmLaneCtx<'_>,
    mut out: Option<&mut [OutRot]>,
) {
    match ctx.isa {
        Isa::Avx512(t) => {
            step_vrm_group8_avx512(t, chains, joints, lanes, ctx, out);
        }
        Isa::Avx2(t) => step_vrm_group8_avx2(t, chains, joints, lanes, ctx, out),
        Isa::Portable => {
            let (a, b) = lanes.split_at(lanes.len().min(LANES4));
            step_vrm_group4(chains, joints, a, ctx, out.as_deref_mut());
            if !b.is_empty() {
                step_vrm_group4(chains, joints, b, ctx, out);
            }
        }
    }
}

target_build! {
    /// The eight-lane kernel for AVX-512 CPUs (32 vector registers).
    fn step_vrm_group8_avx512(
        token: Avx512,
        chains: &mut [Chain],
        joints: &mut [Joint],
        lanes: &[VrmLane],
        ctx: &VrmLaneCtx<'_>,
        out: Option<&mut [OutRot]>,
    ) {
        step_on::<LANES8, F8>(token.avx2(), chains, joints, lanes, ctx, out);
    }
}

target_build! {
    /// The eight-lane kernel for AVX2 CPUs.
    fn step_vrm_group8_avx2(
        token: Avx2,
        chains: &mut [Chain],
        joints: &mut [Joint],
        lanes: &[VrmLane],
        ctx: &VrmLaneCtx<'_>,
        out: Option<&mut [OutRot]>,
    ) {
        step_on::<LANES8, F8>(token, chains, joints, lanes, ctx, out);
    }
}

/// The lane kernel at width `W`; with `out` (one slot per joint of the
/// world) it also leaves each stepped joint's output rotations there, as
/// `chain_output` computes them from the new state.
#[inline(always)]
fn step_on<const W: usize, S: Lanes<W>>(
    isa: S::Isa,
    chains: &mut [Chain],
    joints: &mut [Joint],
    lanes: &[VrmLane],
    ctx: &VrmLaneCtx<'_>,
    mut out: Option<&mut [OutRot]>,
) {
    let n = lanes.len();
    debug_assert!((1..=W).contains(&n));
    let (frames, center) = (ctx.frames, &ctx.center);
    let s = ctx.scale;
    let sv = S::splat(isa, s);
    // Padding lanes repeat lane 0 (the longest chain) and are never stored.
    let pick = |i: usize| lanes[if i < n { i } else { 0 }];
    let mut o = [Vec3::ZERO; W];
    let mut rot = [Quat::IDENTITY; W];
    let mut start = [0usize; W];
    let mut len = [0usize; W];
    let mut quirk = [false; W];
    let mut virtual_tail = [false; W];
    for i in 0..W {
        let c = &chains[pick(i).chain];
        let frame = &frames[c.desc.frame];
        o[i] = frame.transform_point(c.desc.root_offset * s);
        rot[i] = frame.rot;
        start[i] = c.start;
        len[i] = c.len;
        quirk[i] = c.desc.vrm_length_quirk;
        virtual_tail[i] = c.desc.virtual_tail;
    }
    for (l, &root) in lanes.iter().zip(&o) {
        chains[l.chain].root_prev = root;
    }
    let any_collider = lanes.iter().fold(0, |m, l| m | l.colliders);
    // Per collider, the lanes that may touch it.
    let mut lanes_of = [0u8; 64];
    let mut rest = any_collider;
    while rest != 0 {
        let ci = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        lanes_of[ci] = (0..n).fold(0u8, |m, i| m | ((lanes[i].colliders >> ci & 1) as u8) << i);
    }
    let mut o = V3::<S>::from_lanes(isa, &o);
    let mut parent_w = Q::<S>::from_lanes(isa, &rot);
    // `chain_output`'s parent rotation: it turns each bone onto the stored
    // child position, not onto the projected tail as the step does.
    let mut out_parent = parent_w;
    let to_center = Rotor::<S>::new(isa, center.rot);
    let from_center = Rotor::<S>::new(isa, center.rot.inverse());
    let center_pos = V3::<S>::splat(isa, center.pos);
    let h = S::splat(isa, H);
    let hs = S::splat(isa, H * s);
    let one = S::splat(isa, 1.0);
    let external: [Vec3; W] = core::array::from_fn(|i| pick(i).external);
    for k in 0..len[0] {
        // Lanes whose chain has a joint `k` (padding and ended chains
        // compute on lane 0's joint and are not stored).
        let stored = (0..n).filter(|&i| len[i] > k).fold(0u32, |m, i| m | 1 << i);
        let at = |i: usize| {
            if stored >> i & 1 == 1 {
                start[i] + k
            } else {
                start[0] + k
            }
        };
        let js: [&Joint; W] = core::array::from_fn(|i| &joints[at(i)]);
        let local_rot = Q::from_lanes(isa, &core::array::from_fn(|i| js[i].local_rot));
        let base = mul_lanes(parent_w, local_rot);
        let rest_len = S::from_array(isa, core::array::from_fn(|i| js[i].len0)) * sv;
        // The length quirk reads the child bone where the last step left
        // it, except at a virtual tail (see `step_vrm`).
        let stale = (0..W).fold(0u32, |m, i| {
            let tail = k + 1 == len[i] && virtual_tail[i];
            m | u32::from(quirk[i] && !tail) << i
        });
        let len_k = if stale == 0 {
            rest_len
        } else {
            let child_prev = V3::from_lanes(isa, &core::array::from_fn(|i| js[i].child_prev));
            let d = child_prev - o;
            S::select(S::mask_of(isa, stale), d.dot(d).sqrt(), rest_len)
        };
        let j_axis = V3::from_lanes(isa, &core::array::from_fn(|i| js[i].axis));
        let axis = normalize_or(
            isa,
            rotate_q(isa, &base, j_axis),
            V3::splat(isa, Vec3::NEG_Y),
        );
        let cur_tail = V3::from_lanes(isa, &core::array::from_fn(|i| js[i].cur_tail));
        let prev_tail = V3::from_lanes(isa, &core::array::from_fn(|i| js[i].prev_tail));
        let keep = one - S::from_array(isa, core::array::from_fn(|i| js[i].params.drag));
        let stiffness = S::from_array(isa, core::array::from_fn(|i| js[i].params.stiffness));
        let force = V3::from_lanes(
            isa,
            &core::array::from_fn(|i| external_force(js[i].params.gravity, external[i])),
        );
        let inertia = (cur_tail - prev_tail) * keep;
        let pull = axis * (stiffness * h * sv) + force * hs;
        let next_c = cur_tail + inertia + super::lanes::rotate_lanes(isa, &from_center, pull);
        let goal = center_pos + super::lanes::rotate_lanes(isa, &to_center, next_c);
        let mut next = project_lanes(isa, o, goal, len_k, axis);
        if any_collider != 0 {
            let hit_radius =
                S::from_array(isa, core::array::from_fn(|i| js[i].params.hit_radius)) * sv;
            next = push_out(
                isa,
                ctx.colliders,
                any_collider,
                &lanes_of,
                stored,
                o,
                len_k,
                axis,
                hit_radius,
                next,
            );
        }
        let new_tail = super::lanes::rotate_lanes(isa, &from_center, next - center_pos);
        let axis_unit = V3::from_lanes(isa, &core::array::from_fn(|i| js[i].axis_unit));
        let w = segment_rotation_lanes(isa, base, axis_unit, next - o, stored);
        let x = V3::from_lanes(isa, &core::array::from_fn(|i| js[i].x));
        // The child bone sits at the rest length along the new direction.
        let child = o + rotate_q(isa, &w, j_axis * sv);
        let v = (child - x) * S::splat(isa, INV_H);
        if let Some(out) = out.as_deref_mut() {
            let w_out = segment_rotation_lanes(
                isa,
                mul_lanes(out_parent, local_rot),
                axis_unit,
                child - o,
                stored,
            );
            // `parent.inverse()` of a unit quaternion is its conjugate.
            let conj = Q {
                x: -out_parent.x,
                y: -out_parent.y,
                z: -out_parent.z,
                w: out_parent.w,
            };
            let (world, local) = (w_out.to_lanes(), mul_lanes(conj, w_out).to_lanes());
            for i in 0..n {
                if stored >> i & 1 == 1 {
                    out[start[i] + k] = OutRot {
                        world: world[i],
                        local: local[i],
                    };
                }
            }
            out_parent = w_out;
        }
        let (prev_s, tail_s) = (cur_tail.to_lanes(), new_tail.to_lanes());
        let (child_s, v_s) = (child.to_lanes(), v.to_lanes());
        for i in 0..n {
            if stored >> i & 1 == 1 {
                let j = &mut joints[start[i] + k];
                j.prev_tail = prev_s[i];
                j.cur_tail = tail_s[i];
                j.x = child_s[i];
                j.v = v_s[i];
                j.child_prev = child_s[i];
            }
        }
        parent_w = w;
        o = child;
    }
}
