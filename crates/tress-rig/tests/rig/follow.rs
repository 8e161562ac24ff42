//! Render strands on the standard scene (acceptance 1 of issue 22): 60,000
//! interpolated from the 6,000 simulated strands of the procedural groom,
//! through the whole head turn.

use tress_core::strand::follow::length_error;
use tress_core::strand::{FollowPlanBuf, Schedule, StrandParams};
use tress_rig::groom::ProceduralGroom;
use tress_rig::groom::scene::{TURN_SECONDS, standard_sim, turning_pose};

#[test]
fn render_strands_keep_segment_lengths_within_3_percent_through_the_head_turn() {
    let groom = ProceduralGroom::default();
    let mut sim = standard_sim(&groom, StrandParams::default(), Schedule::FIXED_120);
    sim.set_threads(2);
    let mut plan = FollowPlanBuf::for_sim(&sim, 10, 0x7e55).unwrap();
    assert_eq!((plan.renders(), plan.guides()), (60_000, 6000));
    let n = plan.renders() * plan.particles();
    let (mut x, mut y, mut z) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
    let (mut worst, mut worst_raw, mut mean) = (0.0f32, 0.0f32, 0.0f32);
    // The turn and one second of settling after it, sampled every 10th frame.
    let frames = ((TURN_SECONDS + 1.0) * 60.0) as usize;
    for f in 1..=frames {
        sim.advance(1.0 / 60.0, |t, _| turning_pose(groom.head_centre, t));
        if f % 10 != 0 {
            continue;
        }
        let pose = turning_pose(groom.head_centre, f as f64 / 60.0);
        plan.interpolate(&sim, &pose, false, &mut x, &mut y, &mut z);
        worst_raw = worst_raw.max(length_error(&plan.view(), &x, &y, &z).max);
        plan.interpolate(&sim, &pose, true, &mut x, &mut y, &mut z);
        let e = length_error(&plan.view(), &x, &y, &z);
        worst = worst.max(e.max);
        mean = mean.max(e.mean);
        assert!(
            x.iter().chain(&y).chain(&z).all(|v| v.is_finite()),
            "frame {f}: non-finite"
        );
    }
    println!(
        "60,000 render strands from 6,000: worst segment error {worst:.2e} with the fix \
         (worst mean {mean:.2e}), {worst_raw:.3} without"
    );
    assert!(worst < 0.03, "render segment error {worst}");
    // Without the fix the blend drifts: the fix is doing the work.
    assert!(worst_raw > worst, "raw {worst_raw} vs fixed {worst}");
}

/// The shader-side render strands (`follow_copy`, what `TressStrandHair`
/// draws): each a copy of its nearest guide, so its segments keep the
/// guide's lengths; checked against the groom's rest lengths through the
/// turn, and its roots against the three-guide blend's (which puts each
/// render root exactly on its scattered root at rest).
#[test]
fn shader_render_strands_keep_the_groom_lengths_through_the_head_turn() {
    use tress_core::math::Vec3;
    use tress_core::strand::Pose;
    use tress_core::strand::follow_copy::copy_points;
    let groom = ProceduralGroom::default();
    let mut sim = standard_sim(&groom, StrandParams::default(), Schedule::FIXED_120);
    sim.set_threads(2);
    let mut plan = FollowPlanBuf::for_sim(&sim, 10, 0x7e55).unwrap();
    let m = plan.particles();
    let n = plan.renders() * m;
    let mut texels = vec![0.0; plan.texels_len()];
    let mut pts = vec![Vec3::ZERO; n];
    let (guide, offset) = plan.copies();
    let (guide, offset) = (guide.to_vec(), offset.to_vec());
    // At rest: roots where the blend puts them (the scattered roots).
    let rest_pose = turning_pose(groom.head_centre, 0.0);
    plan.guide_texels(&sim, &rest_pose, &mut texels);
    copy_points(&texels, m, &guide, &offset, &mut pts);
    let (mut x, mut y, mut z) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
    plan.interpolate(&sim, &rest_pose, false, &mut x, &mut y, &mut z);
    let root_gap = (0..plan.renders())
        .map(|r| (pts[r * m] - Vec3::new(x[r * m], y[r * m], z[r * m])).length())
        .fold(0.0f32, f32::max);
    assert!(
        root_gap < 1e-6,
        "render roots {root_gap} m from the scattered roots"
    );
    let at_rest = pts.clone();
    // The groom's segment lengths, per guide.
    let rest = tress_core::strand::follow_build::rest_points(&sim);
    let groom_len = |g: usize, i: usize| (rest[g * m + i] - rest[g * m + i - 1]).length();
    let mut worst = 0.0f32;
    let frames = ((TURN_SECONDS + 1.0) * 60.0) as usize;
    let mut moved = 0.0f32;
    for f in 1..=frames {
        sim.advance(1.0 / 60.0, |t, _| turning_pose(groom.head_centre, t));
        if f % 10 != 0 {
            continue;
        }
        let pose: Pose = turning_pose(groom.head_centre, f as f64 / 60.0);
        plan.guide_texels(&sim, &pose, &mut texels);
        copy_points(&texels, m, &guide, &offset, &mut pts);
        for (r, &g) in guide.iter().enumerate() {
            for i in 1..m {
                let l = (pts[r * m + i] - pts[r * m + i - 1]).length();
                let l0 = groom_len(g as usize, i);
                worst = worst.max((l - l0).abs() / l0);
            }
            moved = moved.max((pts[r * m + m - 1] - at_rest[r * m + m - 1]).length());
        }
    }
    println!(
        "shader render strands: worst segment error {worst:.2e} against the groom's; \
         tips moved up to {moved:.3} m"
    );
    assert!(worst < 0.03, "render segment error {worst}");
    assert!(
        moved > 0.05,
        "the strands hardly moved ({moved} m): the check saw nothing"
    );
}
