//! The owned simulator (feature `std`): determinism across frame splits and
//! thread counts.
#![cfg(feature = "std")]

use tress_core::collide::Collider;
use tress_core::math::{Quat, Real, Vec3, ops};
use tress_core::strand::{HeadPose, Schedule, StrandParams, StrandSim};

/// 40 strands of 16 particles hanging from the top of a 0.1 m sphere (seeded).
fn sim(schedule: Schedule) -> StrandSim {
    let mut pts = Vec::new();
    for s in 0..40 {
        let a = s as Real * 2.399_963;
        let n = Vec3::new(0.6 * ops::cos(a), 0.8, 0.6 * ops::sin(a));
        for p in 0..16 {
            pts.push(n * (0.1 + 0.011 * p as Real));
        }
    }
    let mut sim = StrandSim::from_points(
        16,
        &pts,
        StrandParams::default(),
        schedule,
        HeadPose::IDENTITY,
    )
    .unwrap();
    sim.set_head_colliders(&[Collider::sphere(Vec3::ZERO, 0.1)]);
    sim
}

/// Head pose as a function of time only, so frame splits cannot change it.
fn pose(t: f64) -> HeadPose {
    HeadPose::new(Quat::from_rotation_y(ops::sin(3.0 * t as Real)), Vec3::ZERO)
}

fn bits(sim: &StrandSim) -> Vec<u32> {
    let (x, y, z) = sim.positions();
    x.iter().chain(y).chain(z).map(|v| v.to_bits()).collect()
}

#[test]
fn any_frame_time_sequence_gives_the_same_bits() {
    let mut a = sim(Schedule::FIXED_120);
    let mut b = sim(Schedule::FIXED_120);
    for _ in 0..120 {
        a.advance(1.0 / 60.0, |t, _| pose(t));
    }
    // Uneven frames (seeded pattern) that add up to the same 2 s.
    let pattern = [0.007f32, 0.031, 0.0125, 0.0166, 0.0219];
    let mut i = 0;
    while b.clock().steps() < a.clock().steps() {
        let left = (a.clock().steps() - b.clock().steps()) as f32 / 120.0;
        b.advance(pattern[i % pattern.len()].min(left), |t, _| pose(t));
        i += 1;
    }
    assert_eq!(a.clock().steps(), 240);
    assert_eq!(b.clock().steps(), 240);
    assert!(bits(&a) == bits(&b), "frame split changed the result");
}

#[test]
fn threads_give_the_same_bits_as_one() {
    let mut one = sim(Schedule::REFERENCE);
    let mut two = sim(Schedule::REFERENCE);
    let mut three = sim(Schedule::REFERENCE);
    two.set_threads(2);
    three.set_threads(3);
    for f in 0..60 {
        let p = pose(f64::from(f) / 60.0);
        one.advance(1.0 / 60.0, |_, _| p);
        two.advance(1.0 / 60.0, |_, _| p);
        three.advance(1.0 / 60.0, |_, _| p);
    }
    assert!(bits(&one) == bits(&two));
    assert!(bits(&one) == bits(&three));
    // Sanity: the strands are finite and outside the head (2 mm tolerance).
    assert_eq!(one.penetrations(0.002), 0);
    assert!(bits(&one).iter().all(|b| f32::from_bits(*b).is_finite()));
}

/// The AVX2 build of the step (picked at run time where the CPU has it) and
/// the portable one compute the same bits: no fused multiply-adds, same
/// operation order per lane.
#[cfg(target_arch = "x86_64")]
#[test]
fn avx2_and_portable_paths_agree_bit_for_bit() {
    use tress_core::strand::{CodePath, StepCoefs, StepFrame, step_chunks, step_chunks_on};
    if !std::is_x86_feature_detected!("avx2") {
        eprintln!("SKIPPED: this CPU has no AVX2, so there is only the portable path");
        return;
    }
    let mut a = sim(Schedule::REFERENCE);
    let mut b = sim(Schedule::REFERENCE);
    let layout = *a.layout();
    let k = StepCoefs::new(a.params(), 1.0 / 60.0, layout.particles());
    let head = [Collider::sphere(Vec3::ZERO, 0.1)];
    for f in 0..90 {
        let frames = [
            StepFrame::new(&pose(f64::from(f) / 60.0), &head, &[]),
            StepFrame::new(&pose((f64::from(f) + 0.5) / 60.0), &head, &[]),
        ];
        let rest_a: Vec<Vec<Real>> = {
            let r = a.rest();
            vec![
                r.x.to_vec(),
                r.y.to_vec(),
                r.z.to_vec(),
                r.len.to_vec(),
                r.inv_len.to_vec(),
            ]
        };
        let rest = tress_core::strand::StrandRest {
            x: &rest_a[0],
            y: &rest_a[1],
            z: &rest_a[2],
            len: &rest_a[3],
            inv_len: &rest_a[4],
        };
        step_chunks(&layout, &k, &frames, &rest, 0, &mut a.state_mut());
        step_chunks_on(
            CodePath::Portable,
            &layout,
            &k,
            &frames,
            &rest,
            0,
            &mut b.state_mut(),
        );
    }
    let moved = bits(&a) != bits(&sim(Schedule::REFERENCE));
    assert!(
        moved,
        "the strands must have moved for the comparison to mean anything"
    );
    assert!(bits(&a) == bits(&b), "AVX2 and portable steps differ");
}
