//! The chunked strand kernel against the scalar reference, and the physics
//! each pass promises: exact lengths, push-out without rebound, momentum.

use tress_core::collide::{Collider, WorldCollider};
use tress_core::math::{Quat, Real, Vec3};
use tress_core::strand::kernel::push_without_rebound;
use tress_core::strand::metrics::{length_error, penetrations};
use tress_core::strand::reference::step_reference;
use tress_core::strand::{
    Pose, StepCoefs, StepFrame, StrandLayout, StrandParams, StrandRest, StrandState, fill_rest,
    step,
};

/// Owned arrays for a test groom: `strands` strands of `m` particles that
/// leave a sphere of radius 0.1 at the origin and hang sideways (seeded).
struct Bufs {
    layout: StrandLayout,
    rest: [Vec<Real>; 5],
    state: [Vec<Real>; 6],
}

fn groom(strands: usize, m: usize) -> Bufs {
    let layout = StrandLayout::new(strands, m).unwrap();
    let n = layout.len();
    let mut rest: [Vec<Real>; 5] = core::array::from_fn(|_| vec![0.0; n]);
    let [x, y, z, len, inv] = &mut rest;
    let point = |s: usize, p: usize| {
        // Golden-angle spiral over the upper hemisphere; strands curl a little.
        let a = s as Real * 2.399_963;
        let h = 0.2 + 0.8 * (s as Real + 0.5) / strands as Real;
        let ring = tress_core::math::ops::sqrt(1.0 - h * h);
        let n = Vec3::new(
            ring * tress_core::math::ops::cos(a),
            h,
            ring * tress_core::math::ops::sin(a),
        );
        let t = p as Real * 0.012;
        n * (0.1 + t) + Vec3::new(0.0, 0.0, 0.3 * t * tress_core::math::ops::sin(p as Real))
    };
    fill_rest(&layout, point, x, y, z, len, inv).unwrap();
    let mut state: [Vec<Real>; 6] = core::array::from_fn(|_| vec![0.0; n]);
    {
        let [x, y, z, px, py, pz] = &mut state;
        let mut st = StrandState {
            x,
            y,
            z,
            px,
            py,
            pz,
        };
        let [rx, ry, rz, rl, ri] = &rest;
        let r = StrandRest {
            x: rx,
            y: ry,
            z: rz,
            len: rl,
            inv_len: ri,
        };
        st.reset_to_rest(&r, tress_core::math::Mat3::IDENTITY, Vec3::ZERO);
    }
    Bufs {
        layout,
        rest,
        state,
    }
}

impl Bufs {
    fn views(&mut self) -> (StrandRest<'_>, StrandState<'_>) {
        let [rx, ry, rz, rl, ri] = &self.rest;
        let [x, y, z, px, py, pz] = &mut self.state;
        (
            StrandRest {
                x: rx,
                y: ry,
                z: rz,
                len: rl,
                inv_len: ri,
            },
            StrandState {
                x,
                y,
                z,
                px,
                py,
                pz,
            },
        )
    }
}

fn colliders() -> [Collider; 3] {
    [
        Collider::sphere(Vec3::ZERO, 0.1),
        Collider::capsule(
            Vec3::new(-0.1, -0.15, 0.0),
            Vec3::new(0.1, -0.15, 0.0),
            0.05,
        ),
        Collider::plane(Vec3::new(0.0, -0.2, 0.0), Vec3::Y),
    ]
}

/// The head swings yaw ±1 rad with a 1 s period and bobs, so every pass
/// (shape, collision, length) does real work.
fn pose(t: Real) -> Pose {
    let yaw = tress_core::math::ops::sin(core::f32::consts::TAU * t);
    Pose::new(
        Vec3::new(0.0, 0.02 * tress_core::math::ops::sin(9.0 * t), 0.0),
        Quat::from_rotation_y(yaw),
    )
}

/// Largest coordinate difference one step of the chunked kernel may show
/// against one step of the scalar reference from the same state. They differ
/// only in rounding (Newton inverse square root, good to 5e-6 relative, vs
/// libm `sqrtf`; lane push-out vs `collide::push_out_point`), but a particle
/// sitting exactly on a decision edge (touching a collider to within 1e-7 m,
/// or a tangent-plane slide at its limit) can go either way: this run's
/// worst lane moves 1.7e-4 m. Comparing whole trajectories instead would
/// measure chaos, not the kernel: pressed into colliders, 1e-7 differences
/// grow ×2–3 per step.
const KERNEL_TOLERANCE: Real = 1e-3;
/// Mean coordinate difference per step (a flipped particle drags the rest
/// of its strand along, so this is 20 times the typical rounding).
const KERNEL_MEAN_TOLERANCE: f64 = 1e-5;

#[test]
fn chunked_kernel_matches_scalar_reference() {
    // 13 strands: one full chunk and a padded one; 2 s of violent motion
    // with contacts, comparing one step at a time along the trajectory.
    let mut a = groom(13, 16);
    let mut b = groom(13, 16);
    let layout = a.layout;
    let k = StepCoefs::new(&StrandParams::default(), 1.0 / 120.0, 16);
    let cs = colliders();
    let mut worst: Real = 0.0;
    for i in 0..240 {
        b.state.clone_from(&a.state);
        let f = StepFrame::new(&pose(i as Real / 120.0), &cs, &[]);
        let (ra, mut sa) = a.views();
        step(&layout, &k, &f, &ra, &mut sa);
        let (rb, mut sb) = b.views();
        step_reference(&layout, &k, &f, &rb, &mut sb);
        let mut here: Real = 0.0;
        let (mut sum, mut n) = (0.0f64, 0usize);
        for (va, vb) in a.state.iter().zip(&b.state) {
            for (x, y) in va.iter().zip(vb) {
                here = here.max((x - y).abs());
                sum += f64::from((x - y).abs());
                n += 1;
            }
        }
        let mean = sum / n as f64;
        assert!(
            mean < KERNEL_MEAN_TOLERANCE,
            "step {i}: mean difference {mean:e}"
        );
        if std::env::var("STRAND_DEBUG").is_ok() && here > 1e-5 {
            let j = (0..a.state[0].len())
                .max_by(|&u, &v| {
                    let du = (a.state[0][u] - b.state[0][u]).abs()
                        + (a.state[1][u] - b.state[1][u]).abs();
                    let dv = (a.state[0][v] - b.state[0][v]).abs()
                        + (a.state[1][v] - b.state[1][v]).abs();
                    du.total_cmp(&dv)
                })
                .unwrap();
            println!(
                "step {i}: {here:e} at index {j} (particle {})",
                (j % (16 * 16)) / 16
            );
        }
        worst = worst.max(here);
    }
    println!("kernel vs reference, one step: max |difference| {worst:e} m");
    assert!(
        worst < KERNEL_TOLERANCE,
        "kernel and reference differ by {worst}"
    );
    // And the run did something: the strands moved away from rest.
    let moved = a.state[0]
        .iter()
        .zip(&a.rest[0])
        .any(|(x, r)| (x - r).abs() > 0.01);
    assert!(moved);
}

#[test]
fn lengths_are_exact_and_nothing_stays_inside_the_colliders() {
    let mut g = groom(32, 16);
    let layout = g.layout;
    let k = StepCoefs::new(&StrandParams::default(), 1.0 / 120.0, 16);
    let cs = colliders();
    for i in 0..600 {
        let f = StepFrame::new(&pose(i as Real / 120.0), &cs, &[]);
        let (r, mut s) = g.views();
        step(&layout, &k, &f, &r, &mut s);
        let e = length_error(&layout, &r, &s);
        // FTL is exact; only the push-out inside the last sweep (which wins
        // over length) stretches a segment, and only while it is pressed
        // into a collider — this test's head bobs at 9 rad/s into a plane.
        assert!(e.mean < 0.01 && e.max < 0.1, "step {i}: length error {e:?}");
        let posed: Vec<WorldCollider> = f.colliders.iter().copied().collect();
        assert_eq!(penetrations(&layout, &s, &posed, 0.002), 0, "step {i}");
    }
}

#[test]
fn without_colliders_lengths_are_exact() {
    let mut g = groom(16, 16);
    let layout = g.layout;
    let k = StepCoefs::new(&StrandParams::default(), 1.0 / 120.0, 16);
    for i in 0..240 {
        let f = StepFrame::new(&pose(i as Real / 120.0), &[], &[]);
        let (r, mut s) = g.views();
        step(&layout, &k, &f, &r, &mut s);
        let e = length_error(&layout, &r, &s);
        // Follow-The-Leader is exact up to float rounding.
        assert!(e.max < 1e-5, "step {i}: length error {e:?}");
    }
}

#[test]
fn push_out_keeps_tangential_velocity_and_removes_only_the_inward_part() {
    let c = Collider::sphere(Vec3::ZERO, 1.0).posed(Vec3::ZERO, Quat::IDENTITY, 1.0);
    // Moving down and sideways into the top of the sphere.
    let p = Vec3::new(0.0, 0.95, 0.0);
    let prev = Vec3::new(-0.1, 1.05, 0.0);
    let (np, nq) = push_without_rebound(&c, p, prev, 0.0).unwrap();
    assert!((np - Vec3::new(0.0, 1.0, 0.0)).length() < 1e-6);
    let v = np - nq;
    assert!(v.y.abs() < 1e-6, "no rebound, no inward speed: {v}");
    assert!((v.x - 0.1).abs() < 1e-6, "tangential speed kept: {v}");
    // Moving outward already: velocity untouched.
    let (np, nq) = push_without_rebound(&c, p, Vec3::new(0.0, 0.9, 0.0), 0.0).unwrap();
    assert!(((np - nq) - Vec3::new(0.0, 0.05, 0.0)).length() < 1e-6);
}

#[test]
fn a_free_strand_keeps_swinging_with_momentum() {
    // One strand, no shape, no colliders, no damping: displaced sideways it
    // must swing through the vertical and out the other side.
    let mut g = groom(1, 8);
    let layout = g.layout;
    let p = StrandParams {
        damping: 0.0,
        ..StrandParams::baseline()
    };
    let k = StepCoefs::new(&p, 1.0 / 120.0, 8);
    // Start horizontal along +x from a root at the origin.
    {
        let (_, s) = g.views();
        for strand in 0..8 {
            for q in 0..8 {
                let i = layout.index(strand, q);
                (s.x[i], s.y[i], s.z[i]) = (q as Real * 0.02, 0.0, 0.0);
                (s.px[i], s.py[i], s.pz[i]) = (q as Real * 0.02, 0.0, 0.0);
            }
        }
    }
    let mut rest_x = g.rest[0].clone();
    for v in rest_x.iter_mut() {
        *v = 0.0;
    }
    let mut min_x: Real = 1.0;
    for _ in 0..120 {
        let f = StepFrame::new(&Pose::IDENTITY, &[], &[]);
        let [_, ry, rz, rl, ri] = &g.rest;
        let [x, y, z, px, py, pz] = &mut g.state;
        let r = StrandRest {
            x: &rest_x,
            y: ry,
            z: rz,
            len: rl,
            inv_len: ri,
        };
        let mut s = StrandState {
            x,
            y,
            z,
            px,
            py,
            pz,
        };
        step(&layout, &k, &f, &r, &mut s);
        min_x = min_x.min(s.point(&layout, 0, 7).x);
    }
    // The tip passes under the root to the other side (x < 0).
    assert!(min_x < -0.03, "tip x never went past the root: {min_x}");
}

#[test]
fn shape_stiffness_is_per_second_not_per_step() {
    // Only global shape (over the whole strand), no momentum, gravity or
    // length: every free particle starts 5 cm off its groomed position and
    // after 1/60 s must have kept exactly (1 - s) of that offset, whether the
    // 1/60 s was one step, two or four.
    let s_global = 0.3;
    let p = StrandParams {
        gravity: Vec3::ZERO,
        damping: 1e9,
        global_stiffness: s_global,
        global_range: 1.0,
        local_stiffness: 0.0,
        passes: tress_core::strand::PassCounts {
            global: 2,
            local: 0,
            collision: 0,
            length: 0,
        },
        ..StrandParams::default()
    };
    for steps in [1u32, 2, 4] {
        let h = 1.0 / (60.0 * steps as Real);
        let mut g = groom(16, 8);
        let layout = g.layout;
        let k = StepCoefs::new(&p, h, 8);
        for a in [0, 3] {
            for v in g.state[a].iter_mut() {
                *v += 0.05;
            }
        }
        for _ in 0..steps {
            let f = StepFrame::new(&Pose::IDENTITY, &[], &[]);
            let (r, mut s) = g.views();
            step(&layout, &k, &f, &r, &mut s);
        }
        let (r, s) = g.views();
        let off = s.point(&layout, 3, 5).x - r.point(&layout, 3, 5).x;
        assert!(
            (off / 0.05 - (1.0 - s_global)).abs() < 1e-4,
            "{steps} steps: kept {}",
            off / 0.05
        );
    }
}
