//! Random call sequences through the spring and strand C ABI, with the arguments a
//! careless or hostile caller passes (NaN, infinities, zero-length bones,
//! unnormalised rotations, indices past the end, one-second and negative
//! frames), never panic and never leave an output unbounded.
//!
//! Geometry stays within 1 km and the world scale within 100, so a joint
//! can legitimately lie at most a few hundred kilometres out; anything past
//! 1e7 m, any non-finite value, or a rotation that is not unit is a
//! blow-up. Seeded and deterministic: a failure names its seed and step.

// The test calls the C ABI as C would.
#![allow(unsafe_code)]

use tress_core::math::ops;
use tress_ffi::*;

/// Seeds run; each builds one world and makes [`CALLS`] calls on it.
const SEEDS: u64 = 2000;
const CALLS: usize = 60;

/// The seeded generator with the argument kinds a careless caller passes.
struct Rng(tress_testkit::Xorshift);

impl Rng {
    fn new(seed: u64) -> Self {
        Self(tress_testkit::Xorshift::new(seed))
    }
    fn next(&mut self) -> u64 {
        self.0.next_u64()
    }
    fn below(&mut self, n: u64) -> u64 {
        self.0.below(n)
    }
    fn unit(&mut self) -> f32 {
        self.0.unit()
    }
    /// A value a careless caller passes: mostly ordinary, sometimes zero,
    /// huge, tiny, negative or not a number.
    fn wild(&mut self) -> f32 {
        match self.below(12) {
            0 => 0.0,
            1 => 1e30,
            2 => -1e30,
            3 => 1e-30,
            4 => f32::MAX,
            5 => -1.0,
            6 => f32::NAN,
            7 => f32::INFINITY,
            8 => f32::NEG_INFINITY,
            _ => (self.unit() - 0.5) * 2.0,
        }
    }
    /// A coordinate: mostly within 20 cm, sometimes wild but never past
    /// 1 km while finite.
    fn coord(&mut self) -> f32 {
        if self.below(6) == 0 {
            let x = self.wild();
            if x.is_finite() { x.clamp(-1e3, 1e3) } else { x }
        } else {
            (self.unit() - 0.5) * 0.4
        }
    }
    /// [`Self::coord`] with the non-finite values moved to 1 km.
    fn finite(&mut self) -> f32 {
        let x = self.coord();
        if x.is_finite() { x } else { 1e3 }
    }
    fn vec(&mut self) -> TressVec3 {
        TressVec3 {
            x: self.coord(),
            y: self.coord(),
            z: self.coord(),
        }
    }
    fn quat(&mut self) -> TressQuat {
        if self.below(8) == 0 {
            return TressQuat {
                x: self.wild(),
                y: self.wild(),
                z: self.wild(),
                w: self.wild(),
            };
        }
        let q = [0; 4].map(|_| self.unit() - 0.5);
        let n = q.iter().map(|c| c * c).sum::<f32>();
        let n = ops::sqrt(n).max(1e-6);
        TressQuat {
            x: q[0] / n,
            y: q[1] / n,
            z: q[2] / n,
            w: q[3] / n,
        }
    }
    fn pose(&mut self) -> TressPose {
        TressPose {
            position: self.vec(),
            rotation: self.quat(),
        }
    }
    fn dt(&mut self) -> f32 {
        match self.below(6) {
            0 => 1.0,
            1 => self.wild(),
            2 => 0.0,
            _ => 1.0 / (10.0 + self.below(230) as f32),
        }
    }
}

fn last_error() -> String {
    // SAFETY: tress_last_error returns a NUL-terminated thread-local string.
    unsafe { core::ffi::CStr::from_ptr(tress_last_error()) }
        .to_string_lossy()
        .into_owned()
}

/// Fails the test on a panic the ABI caught; any other status is the
/// ABI refusing bad input, which is what it should do.
fn no_panic(s: TressStatus, seed: u64, step: usize, what: &str) -> TressStatus {
    assert_ne!(
        s,
        TressStatus::Panic,
        "seed {seed}, call {step} ({what}): {}",
        last_error()
    );
    s
}

fn joint(r: &mut Rng) -> TressJointDesc {
    // SAFETY: TressJointDesc is plain floats and integers; all zeros is a
    // valid value, overwritten by the default next.
    let mut j: TressJointDesc = unsafe { core::mem::zeroed() };
    assert_eq!(tress_joint_desc_default(Some(&mut j)), TressStatus::Ok);
    j.local_rotation = r.quat();
    j.offset = if r.below(6) == 0 {
        TressVec3 {
            x: 0.0,
            y: 0.0,
            z: 0.0,
        }
    } else {
        r.vec()
    };
    j.params.stiffness = if r.below(4) == 0 {
        r.wild()
    } else {
        r.unit() * 4.0
    };
    j.params.drag = r.unit();
    j.params.gravity = r.vec();
    j.params.hit_radius = r.coord().abs();
    if r.below(3) == 0 {
        j.flat_width_axis = r.vec();
        j.flat_stiffness = r.unit() * 300.0;
        j.flat_half_width = r.coord().abs();
        j.flat_bend = r.unit() * 300.0;
    }
    j
}

/// A world of up to three frames, four colliders and four chains, each
/// piece from random and often invalid descriptions (the invalid ones are
/// refused and left out).
fn build(r: &mut Rng, seed: u64) -> (TressSpringWorld, u32) {
    let mut w = TressSpringWorld { bits: 0 };
    no_panic(
        tress_spring_create(None, None, Some(&mut w)),
        seed,
        0,
        "create",
    );
    let frames = 1 + r.below(3) as u32;
    for _ in 0..frames {
        let p = r.pose();
        no_panic(tress_spring_add_frame(w, Some(&p), None), seed, 0, "frame");
    }
    for _ in 0..r.below(5) {
        let c = TressCollider {
            shape: r.below(5) as u32,
            offset: r.vec(),
            tail: r.vec(),
            normal: r.vec(),
            radius: r.coord().abs(),
        };
        let frame = r.below(u64::from(frames) + 1) as u32;
        no_panic(
            tress_spring_add_collider(w, frame, Some(&c), None),
            seed,
            0,
            "collider",
        );
    }
    for _ in 0..1 + r.below(4) {
        let mut d = TressChainDesc::default();
        assert_eq!(tress_chain_desc_default(Some(&mut d)), TressStatus::Ok);
        d.frame = r.below(u64::from(frames)) as u32;
        d.root_offset = r.vec();
        d.mode = r.below(4) as u32;
        d.contact = r.below(3) as u32;
        d.collider_mask = r.next();
        d.drape = r.below(2) == 0;
        d.twist = r.below(2) == 0;
        d.virtual_tail = r.below(3) == 0;
        d.vrm_length_quirk = r.below(3) == 0;
        let joints: Vec<TressJointDesc> = (0..1 + r.below(7)).map(|_| joint(r)).collect();
        // SAFETY: `joints` holds `joints.len()` descriptions.
        let s = unsafe { tress_spring_add_chain(w, Some(&d), joints.as_ptr(), joints.len(), None) };
        no_panic(s, seed, 0, "chain");
    }
    (w, frames)
}

/// One random call on `w`.
fn call(r: &mut Rng, w: TressSpringWorld, frames: u32, chains: u32) -> (TressStatus, &'static str) {
    let chain = |r: &mut Rng| r.below(u64::from(chains) + 1) as u32;
    match r.below(14) {
        0 => {
            let p = r.pose();
            let f = r.below(u64::from(frames) + 1) as u32;
            (
                tress_spring_set_frame_pose(w, f, Some(&p)),
                "set_frame_pose",
            )
        }
        1 => {
            let wind = TressWind {
                direction: r.vec(),
                strength: r.coord() * 10.0,
                gust: r.unit(),
                gust_seconds: r.coord(),
                turbulence: r.unit(),
                occlusion: r.unit(),
                seed: r.next() as u32,
            };
            (tress_spring_set_wind(w, Some(&wind)), "set_wind")
        }
        2 => {
            let (a, b) = (chain(r), chain(r));
            let stretch = r.coord().abs();
            (
                tress_spring_add_band_link(w, a, b, stretch),
                "add_band_link",
            )
        }
        3 => {
            let l = TressJointLimit {
                shape: r.below(4) as u32,
                angle: r.coord() * 8.0,
                pitch: r.coord() * 8.0,
                yaw: r.coord() * 8.0,
                rotation: r.quat(),
            };
            (
                tress_spring_set_chain_limit(w, chain(r), Some(&l)),
                "set_chain_limit",
            )
        }
        4 => {
            let (angle, mode) = (r.coord() * 4.0, r.below(3) as u32);
            (
                tress_spring_set_teleport_policy(w, angle, mode),
                "set_teleport_policy",
            )
        }
        5 => {
            let f = r.below(u64::from(frames) + 2) as u32;
            (tress_spring_set_anchor(w, f), "set_anchor")
        }
        6 => (tress_spring_hold(w), "hold"),
        7 => (tress_spring_resume(w), "resume"),
        8 => (tress_spring_reset(w), "reset"),
        9 => {
            let d = r.coord() * 10.0;
            (
                tress_spring_set_teleport_distance(w, d),
                "set_teleport_distance",
            )
        }
        10 => {
            let (c, mode, contact) = (chain(r), r.below(4) as u32, r.below(3) as u32);
            (
                tress_spring_set_chain_mode(w, c, mode, contact),
                "set_chain_mode",
            )
        }
        11 => {
            let mut p = TressJointParams::default();
            assert_eq!(tress_joint_params_default(Some(&mut p)), TressStatus::Ok);
            p.stiffness = r.unit() * 4.0;
            p.drag = r.unit();
            p.hit_radius = r.coord().abs();
            (
                tress_spring_set_chain_params(w, chain(r), Some(&p)),
                "set_chain_params",
            )
        }
        12 => {
            let scale = (r.coord().abs() * 5.0).min(100.0);
            (tress_spring_set_scale(w, scale), "set_scale")
        }
        _ => {
            let dt = r.dt();
            (tress_spring_advance(w, dt, None), "advance")
        }
    }
}

/// Every output of every chain finite, within 1e7 m, with unit rotations.
fn check_outputs(w: TressSpringWorld, chains: u32, seed: u64, step: usize) {
    for c in 0..chains {
        let mut len = 0;
        assert_eq!(
            tress_spring_chain_length(w, c, Some(&mut len)),
            TressStatus::Ok
        );
        // SAFETY: TressJointOutput is plain floats; all zeros is valid.
        let mut out = vec![unsafe { core::mem::zeroed::<TressJointOutput>() }; len as usize];
        let mut written = 0;
        // SAFETY: `out` holds `out.len()` writable outputs.
        let s =
            unsafe { tress_spring_outputs(w, c, out.as_mut_ptr(), out.len(), Some(&mut written)) };
        no_panic(s, seed, step, "outputs");
        for (j, o) in out[..written].iter().enumerate() {
            let coords = [o.origin, o.tail].map(|p| [p.x, p.y, p.z]);
            let bounded = coords
                .iter()
                .flatten()
                .all(|v| v.is_finite() && v.abs() <= 1e7);
            let unit = |q: TressQuat| {
                (ops::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w) - 1.0).abs() <= 1e-3
            };
            assert!(
                bounded && unit(o.world_rotation) && unit(o.local_rotation),
                "seed {seed}, after call {step}: chain {c} joint {j} output {o:?}"
            );
        }
    }
}

#[test]
fn random_calls_with_bad_arguments_never_panic_and_stay_bounded() {
    let mut statuses = [0usize; 16];
    for seed in 1..=SEEDS {
        let mut r = Rng::new(seed);
        let (w, frames) = build(&mut r, seed);
        let mut chains = 0;
        assert_eq!(
            tress_spring_chain_count(w, Some(&mut chains)),
            TressStatus::Ok
        );
        for step in 1..=CALLS {
            let (s, what) = call(&mut r, w, frames, chains);
            statuses[no_panic(s, seed, step, what) as usize] += 1;
            check_outputs(w, chains, seed, step);
        }
        assert_eq!(tress_spring_destroy(w), TressStatus::Ok);
    }
    // The sequences reach both the solver and the refusals: a generator
    // that only ever produced refused calls would prove nothing.
    let (done, refused) = (
        statuses[TressStatus::Ok as usize],
        statuses[TressStatus::InvalidArgument as usize],
    );
    assert!(done > 10_000 && refused > 1_000, "{statuses:?}");
}

/// Strand seeds run; each makes [`STRAND_CALLS`] calls.
const STRAND_SEEDS: u64 = 400;
const STRAND_CALLS: usize = 30;

fn wild_params(r: &mut Rng, p: &mut TressStrandParams) {
    p.gravity = r.vec();
    p.damping = r.coord();
    p.global_stiffness = r.coord() * 3.0;
    p.global_range = r.coord() * 3.0;
    p.local_stiffness = r.coord() * 3.0;
    p.length_velocity_correction = r.coord() * 3.0;
    p.collision_margin = r.coord().abs();
    p.global_passes = r.below(40) as u32;
    p.local_passes = r.below(40) as u32;
    p.collision_passes = r.below(40) as u32;
    p.length_passes = r.below(40) as u32;
    p.collide_in_length = r.below(2) == 0;
}

fn colliders(r: &mut Rng) -> Vec<TressCollider> {
    (0..r.below(4))
        .map(|_| TressCollider {
            shape: r.below(5) as u32,
            offset: r.vec(),
            tail: r.vec(),
            normal: r.vec(),
            radius: r.coord().abs(),
        })
        .collect()
}

/// Up to 12 strands of up to 20 points, some with a point thrown far or
/// repeated (a zero-length segment).
fn strand_points(r: &mut Rng) -> (Vec<TressVec3>, usize, usize) {
    let (strands, points) = (1 + r.below(12) as usize, 1 + r.below(20) as usize);
    let mut pts = Vec::with_capacity(strands * points);
    for _ in 0..strands {
        let root = TressVec3 {
            x: r.finite(),
            y: r.finite(),
            z: r.finite(),
        };
        for k in 0..points {
            let mut p = TressVec3 {
                x: root.x + r.finite() * 0.1,
                y: root.y - k as f32 * 0.01 * r.unit(),
                z: root.z,
            };
            if r.below(200) == 0 {
                p.x = r.wild();
            }
            if k > 0 && r.below(30) == 0 {
                p = root;
            }
            pts.push(p);
        }
    }
    (pts, strands, points)
}

#[test]
fn random_strand_calls_never_panic_and_stay_bounded() {
    let mut made = 0;
    for seed in 1..=STRAND_SEEDS {
        let mut r = Rng::new(seed ^ 0x5757);
        let (pts, strands, points) = strand_points(&mut r);
        let mut o = TressStrandOptions::default();
        assert_eq!(tress_strand_options_default(Some(&mut o)), TressStatus::Ok);
        o.particles = r.below(70) as u32;
        o.threads = r.below(3) as u32;
        o.origin = r.vec();
        o.head_pose = r.pose();
        if r.below(2) == 0 {
            wild_params(&mut r, &mut o.params);
        }
        let mut h = TressStrands { bits: 0 };
        // SAFETY: `pts` holds `strands * points` points.
        let s =
            unsafe { tress_strands_create(pts.as_ptr(), strands, points, Some(&o), Some(&mut h)) };
        if no_panic(s, seed, 0, "strands_create") != TressStatus::Ok {
            continue;
        }
        made += 1;
        let (mut count, mut particles) = (0, 0);
        assert_eq!(
            tress_strands_counts(h, Some(&mut count), Some(&mut particles)),
            TressStatus::Ok
        );
        let mut pos = vec![TressVec3::default(); count as usize * particles as usize];
        let mut tan = pos.clone();
        for step in 1..=STRAND_CALLS {
            let (s, what) = match r.below(7) {
                0 => {
                    let p = r.pose();
                    (tress_strands_set_head_pose(h, Some(&p)), "set_head_pose")
                }
                1 => {
                    let c = colliders(&mut r);
                    // SAFETY: `c` holds `c.len()` colliders.
                    (
                        unsafe { tress_strands_set_head_colliders(h, c.as_ptr(), c.len()) },
                        "set_head_colliders",
                    )
                }
                2 => {
                    let c = colliders(&mut r);
                    // SAFETY: `c` holds `c.len()` colliders.
                    (
                        unsafe { tress_strands_set_world_colliders(h, c.as_ptr(), c.len()) },
                        "set_world_colliders",
                    )
                }
                3 => {
                    let mut p = o.params;
                    wild_params(&mut r, &mut p);
                    (tress_strands_set_params(h, Some(&p)), "set_params")
                }
                4 => {
                    let p = r.pose();
                    (tress_strands_reset(h, Some(&p)), "reset")
                }
                _ => {
                    let dt = r.dt();
                    (tress_strands_advance(h, dt, None), "advance")
                }
            };
            no_panic(s, seed, step, what);
            // SAFETY: `pos` and `tan` hold `particles` writable points each.
            let read = unsafe {
                [
                    tress_strands_positions(h, pos.as_mut_ptr(), pos.len(), None),
                    tress_strands_tangents(h, tan.as_mut_ptr(), tan.len(), None),
                ]
            };
            assert_eq!(read, [TressStatus::Ok; 2], "seed {seed}, call {step}");
            let bad = pos.iter().chain(&tan).find(|p| {
                ![p.x, p.y, p.z]
                    .iter()
                    .all(|v| v.is_finite() && v.abs() <= 1e7)
            });
            assert!(
                bad.is_none(),
                "seed {seed}, after call {step} ({what}): {bad:?}"
            );
        }
        assert_eq!(tress_strands_destroy(h), TressStatus::Ok);
    }
    assert!(
        made > STRAND_SEEDS / 4,
        "only {made} of {STRAND_SEEDS} strand sets were made"
    );
}
