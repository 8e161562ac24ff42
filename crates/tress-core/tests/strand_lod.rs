//! Level of detail on the owned simulator (feature `std`): a divided step
//! rate that stays frame-rate invariant and keeps velocities, and carrying
//! the strands across a pause.
#![cfg(feature = "std")]

use tress_core::collide::Collider;
use tress_core::math::{Quat, Real, Vec3, ops};
use tress_core::strand::{Pose, Schedule, StrandParams, StrandSim};

/// 24 strands of 12 particles over the top of a 0.1 m head sphere at the
/// origin, spread by the golden angle and groomed sideways (so gravity
/// swings them).
fn head_sim() -> StrandSim {
    let mut pts = Vec::new();
    for s in 0..24 {
        let a = s as Real * 2.399_963;
        let n = Vec3::new(0.6 * ops::cos(a), 0.8, 0.6 * ops::sin(a));
        let out = Vec3::new(n.x, 0.0, n.z).normalize();
        for p in 0..12 {
            pts.push(n * 0.1 + out * (0.012 * p as Real));
        }
    }
    let mut sim = StrandSim::from_points(
        12,
        &pts,
        StrandParams::default(),
        Schedule::FIXED_120,
        Pose::IDENTITY,
    )
    .unwrap();
    sim.set_head_colliders(&[Collider::sphere(Vec3::ZERO, 0.1)]);
    sim
}

fn turning(t: f64) -> Pose {
    let t = t as Real;
    Pose::new(
        Vec3::new(0.05 * ops::sin(2.0 * t), 0.0, 0.0),
        Quat::from_rotation_y(1.0 * ops::sin(3.0 * t)),
    )
}

/// The largest distance between matching points of `a` and `b`.
fn largest_move(a: &[Vec3], b: &[Vec3]) -> Real {
    a.iter()
        .zip(b)
        .map(|(p, q)| (*p - *q).length())
        .fold(0.0, Real::max)
}

fn bits(sim: &StrandSim) -> Vec<u32> {
    let (x, y, z) = sim.positions();
    x.iter().chain(y).chain(z).map(|v| v.to_bits()).collect()
}

/// At divisors 2 and 4, 30, 60, 120 and 240 fps frames give the same bits
/// at every common instant, as the full rate does: which steps run is a
/// function of the step index, not of how frames fall. And a divided sim
/// runs that fraction of the steps, and differs from the full rate.
#[test]
fn a_divided_rate_is_frame_rate_invariant_and_runs_fewer_steps() {
    let mut full = head_sim();
    for _ in 0..60 {
        full.advance(1.0 / 30.0, |t, _| turning(t));
    }
    for divisor in [2u32, 4] {
        let mut want: Option<Vec<Vec<u32>>> = None;
        for fps in [30u32, 60, 120, 240] {
            let mut s = head_sim();
            s.set_rate_divisor(divisor);
            let mut ran = 0;
            let mut samples = Vec::new();
            for f in 1..=(2 * fps) {
                ran += s.advance(1.0 / fps as Real, |t, _| turning(t));
                if f % (fps / 30) == 0 {
                    samples.push(bits(&s));
                }
            }
            assert_eq!(ran, 240 / divisor, "divisor {divisor}, {fps} fps");
            assert_eq!(s.clock().steps(), 240);
            let want = want.get_or_insert_with(|| samples.clone());
            assert!(
                samples == *want,
                "divisor {divisor}: {fps} fps differs from 30 fps"
            );
        }
        let last = want.unwrap().pop().unwrap();
        assert!(
            last != bits(&full),
            "divisor {divisor} gave the full rate's bits"
        );
    }
}

/// A coarser rate keeps the hair's look: through the turning run the tips
/// sit, on average over the strands, within a quarter of their swing (the
/// mean distance from the groomed pose) of the full rate's. Measured when
/// written: swing 14.6 cm; half rate 1.7 cm off, quarter rate 2.9 cm.
#[test]
fn a_divided_rate_stays_near_the_full_rate() {
    let mut full = head_sim();
    let mut quarter = head_sim();
    quarter.set_rate_divisor(4);
    let mut worst_mean: Real = 0.0;
    let mut swing: Real = 0.0;
    for f in 1..=120 {
        full.advance(1.0 / 60.0, |t, _| turning(t));
        quarter.advance(1.0 / 60.0, |t, _| turning(t));
        if f % 4 == 0 {
            let (mut d, mut s) = (0.0, 0.0);
            for strand in 0..24 {
                let tip = full.point(strand, 11);
                d += (tip - quarter.point(strand, 11)).length();
                let groomed = turning(f64::from(f) / 60.0);
                let rest = full.rest();
                let i = full.layout().index(strand, 11);
                let g = groomed.pos + groomed.rot * Vec3::new(rest.x[i], rest.y[i], rest.z[i]);
                s += (tip - g).length();
            }
            worst_mean = worst_mean.max(d / 24.0);
            swing = swing.max(s / 24.0);
        }
    }
    assert!(swing > 0.02, "the run must swing the tips (mean {swing} m)");
    assert!(
        worst_mean < 0.25 * swing,
        "quarter rate strays {worst_mean} m from the full rate (swing {swing} m)"
    );
}

/// Changing the divisor keeps each particle's velocity: the previous
/// positions are rescaled to the new step, and changing back restores them
/// to rounding.
#[test]
fn changing_the_divisor_keeps_velocities() {
    let mut s = head_sim();
    for _ in 0..20 {
        s.advance(1.0 / 60.0, |t, _| turning(t));
    }
    let v = |s: &mut StrandSim, h: Real| {
        let i = s.layout().index(5, 11);
        let st = s.state_mut();
        (st.x[i] - st.px[i]) / h
    };
    let v1 = v(&mut s, 1.0 / 120.0);
    assert!(v1.abs() > 1e-3, "the tip must be moving ({v1} m/s)");
    s.set_rate_divisor(4);
    assert_eq!(s.rate_divisor(), 4);
    let v4 = v(&mut s, 4.0 / 120.0);
    assert!(
        (v4 - v1).abs() < 1e-4 * v1.abs().max(1.0),
        "{v1} m/s became {v4}"
    );
    s.set_rate_divisor(1);
    let back = v(&mut s, 1.0 / 120.0);
    assert!(
        (back - v1).abs() < 1e-4 * v1.abs().max(1.0),
        "{v1} m/s came back as {back}"
    );
    s.set_rate_divisor(0);
    assert_eq!(s.rate_divisor(), 1, "0 clamps to every step");
    s.set_rate_divisor(1000);
    assert_eq!(s.rate_divisor(), tress_core::strand::sim::MAX_RATE_DIVISOR);
}

/// A pause: the head moves 30 cm and turns 90° while the sim is not
/// stepped; `carry` puts every particle where it was relative to the head
/// (within float rounding), and the next frame moves no particle more than
/// the hair's own motion (under 1 mm here, the hair had settled). Without
/// the carry, the first frame after the pause tears the strands along.
#[test]
fn carrying_across_a_pause_resumes_without_a_pop() {
    let start = Pose::IDENTITY;
    let moved = Pose::new(
        Vec3::new(0.3, 0.05, -0.1),
        Quat::from_rotation_y(core::f32::consts::FRAC_PI_2),
    );
    let local = |s: &StrandSim, pose: &Pose| -> Vec<Vec3> {
        let inv = pose.rot.conjugate();
        (0..24)
            .flat_map(|k| (0..12).map(move |p| (k, p)))
            .map(|(k, p)| inv * (s.point(k, p) - pose.pos))
            .collect()
    };
    let mut settled = head_sim();
    for _ in 0..240 {
        settled.advance(1.0 / 60.0, |_, _| start);
    }
    let before = local(&settled, &start);

    let mut carried = head_sim();
    for _ in 0..240 {
        carried.advance(1.0 / 60.0, |_, _| start);
    }
    carried.carry(start, moved);
    let at_resume = local(&carried, &moved);
    let worst = largest_move(&before, &at_resume);
    assert!(
        worst < 1e-5,
        "carry moved a particle {worst} m relative to the head"
    );
    carried.advance(1.0 / 60.0, |_, _| moved);
    let after = local(&carried, &moved);
    let jump = largest_move(&before, &after);
    assert!(
        jump < 0.001,
        "the first frame after the pause moved a particle {jump} m"
    );

    // Not carried: the roots jump with the head and the strands drag.
    let mut dragged = head_sim();
    for _ in 0..240 {
        dragged.advance(1.0 / 60.0, |_, _| start);
    }
    dragged.advance(1.0 / 60.0, |_, t| start.interpolate(&moved, t));
    let torn = local(&dragged, &moved);
    let pop = largest_move(&before, &torn);
    assert!(
        pop > 0.01,
        "without the carry the hair should pop ({pop} m)"
    );
}
