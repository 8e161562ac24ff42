//! Render strands interpolated from guides (feature `std`): rest shape,
//! exact guides, weights, determinism and bad input.
#![cfg(feature = "std")]

use tress_core::collide::Collider;
use tress_core::math::{Quat, Real, Vec3, ops};
use tress_core::simd::Isa;
use tress_core::strand::follow::{FollowError, guide_frames, length_error};
use tress_core::strand::follow_build::rest_points;
use tress_core::strand::{FollowPlanBuf, Pose, Schedule, StrandParams, StrandSim};

const M: usize = 16;

/// `strands` gently curved strands of 16 particles over the top of a 0.1 m
/// sphere (golden-angle roots), strand-major.
fn cap(strands: usize) -> Vec<Vec3> {
    let mut pts = Vec::new();
    for s in 0..strands {
        let a = s as Real * 2.399_963;
        let r = 0.6 * ops::sqrt((s as Real + 0.5) / strands as Real);
        let n = Vec3::new(r * ops::cos(a), 1.0, r * ops::sin(a)).normalize();
        let mut p = n * 0.1;
        let mut d = n;
        for _ in 0..M {
            pts.push(p);
            d = (d + Vec3::new(0.0, -0.08, 0.0)).normalize();
            p += d * 0.011;
        }
    }
    pts
}

fn sim(strands: usize) -> StrandSim {
    let mut sim = StrandSim::from_points(
        M,
        &cap(strands),
        StrandParams::default(),
        Schedule::FIXED_120,
        Pose::IDENTITY,
    )
    .unwrap();
    sim.set_head_colliders(&[Collider::sphere(Vec3::ZERO, 0.1)]);
    sim
}

fn pose(t: f64) -> Pose {
    Pose::new(Vec3::ZERO, Quat::from_rotation_y(ops::sin(3.0 * t as Real)))
}

/// Runs `frames` 1/60 s frames of the turning head.
fn run(sim: &mut StrandSim, frames: usize) -> Pose {
    let mut p = pose(0.0);
    for f in 0..frames {
        let t = (f + 1) as f64 / 60.0;
        sim.advance(1.0 / 60.0, |time, _| pose(time));
        p = pose(t);
    }
    p
}

fn interpolated(plan: &mut FollowPlanBuf, sim: &StrandSim, p: &Pose, fix: bool) -> [Vec<Real>; 3] {
    let n = plan.renders() * M;
    let mut out = [vec![0.0; n], vec![0.0; n], vec![0.0; n]];
    let [x, y, z] = &mut out;
    plan.interpolate(sim, p, fix, x, y, z);
    out
}

#[test]
fn weights_sum_to_one_and_guides_are_in_range() {
    let sim = sim(200);
    let plan = FollowPlanBuf::for_sim(&sim, 10, 7).unwrap();
    let v = plan.view();
    v.check().unwrap();
    assert_eq!(v.renders(), 2000);
    for (co, gi) in v.coefs.iter().zip(v.guide_index) {
        let sum: Real = co.iter().map(|c| c[0]).sum();
        assert!((sum - 1.0).abs() < 1e-6, "weights sum to {sum}");
        assert!(co.iter().all(|c| c[0] >= 0.0));
        assert!(gi.iter().all(|&g| (g as usize) < 200));
    }
}

#[test]
fn at_rest_render_strands_start_at_their_roots_and_keep_lengths() {
    let sim = sim(200);
    let mut plan = FollowPlanBuf::for_sim(&sim, 10, 7).unwrap();
    let out = interpolated(&mut plan, &sim, &Pose::IDENTITY, true);
    let e = length_error(&plan.view(), &out[0], &out[1], &out[2]);
    assert!(e.max < 1e-4, "rest length error {e:?}");
    // Strand 0 of each guide is the guide itself, rooted on it.
    let rest = rest_points(&sim);
    for g in [0usize, 57, 199] {
        let j = g * 10 * M;
        let root = Vec3::new(out[0][j], out[1][j], out[2][j]);
        assert!(
            (root - rest[g * M]).length() < 1e-6,
            "guide {g} root {root}"
        );
    }
}

#[test]
fn a_render_strand_on_a_guide_reproduces_it() {
    let mut sim = sim(200);
    let mut plan = FollowPlanBuf::for_sim(&sim, 4, 1).unwrap();
    let p = run(&mut sim, 30);
    for fix in [false, true] {
        let out = interpolated(&mut plan, &sim, &p, fix);
        let mut worst: Real = 0.0;
        for g in 0..200 {
            for i in 0..M {
                let j = g * 4 * M + i;
                let q = Vec3::new(out[0][j], out[1][j], out[2][j]);
                worst = worst.max((q - sim.point(g, i)).length());
            }
        }
        // Without the fix the blend is exactly the guide; the fix moves it
        // only by the guide's own length error (the sim's FTL is exact to
        // about 1e-6 relative) plus the rsqrt's 1e-5.
        let limit = if fix { 2e-5 } else { 0.0 };
        assert!(worst <= limit, "fix {fix}: {worst} m from the guide");
    }
}

#[test]
fn lengths_stay_within_three_percent_while_the_head_turns() {
    let mut sim = sim(300);
    let mut plan = FollowPlanBuf::for_sim(&sim, 10, 3).unwrap();
    let mut worst_raw: Real = 0.0;
    let mut worst_fixed: Real = 0.0;
    for f in 0..90 {
        let t = (f + 1) as f64 / 60.0;
        sim.advance(1.0 / 60.0, |time, _| pose(time));
        let p = pose(t);
        let raw = interpolated(&mut plan, &sim, &p, false);
        let fixed = interpolated(&mut plan, &sim, &p, true);
        worst_raw = worst_raw.max(length_error(&plan.view(), &raw[0], &raw[1], &raw[2]).max);
        worst_fixed =
            worst_fixed.max(length_error(&plan.view(), &fixed[0], &fixed[1], &fixed[2]).max);
    }
    assert!(worst_fixed < 0.03, "fixed: {worst_fixed}");
    // The fix must be doing something: the raw blend drifts more.
    assert!(
        worst_raw > worst_fixed,
        "raw {worst_raw} fixed {worst_fixed}"
    );
}

#[test]
fn interpolation_is_deterministic_across_runs_and_instruction_sets() {
    let mut sim = sim(120);
    let p = run(&mut sim, 20);
    let mut plan = FollowPlanBuf::for_sim(&sim, 10, 9).unwrap();
    let a = interpolated(&mut plan, &sim, &p, true);
    let b = interpolated(&mut plan, &sim, &p, true);
    let bits =
        |v: &[Vec<Real>; 3]| -> Vec<u32> { v.iter().flatten().map(|f| f.to_bits()).collect() };
    assert_eq!(bits(&a), bits(&b));
    plan.set_isa(Isa::Portable);
    let c = interpolated(&mut plan, &sim, &p, true);
    assert_eq!(
        bits(&a),
        bits(&c),
        "portable build differs from {:?}",
        Isa::detect()
    );
    // A second plan built the same way gives the same bits too.
    let mut again = FollowPlanBuf::for_sim(&sim, 10, 9).unwrap();
    assert_eq!(bits(&a), bits(&interpolated(&mut again, &sim, &p, true)));
}

#[test]
fn bad_plan_input_is_refused() {
    let good = cap(4);
    assert_eq!(
        FollowPlanBuf::from_roots(M, &[], &[Vec3::ZERO]).unwrap_err(),
        FollowError::Empty
    );
    assert_eq!(
        FollowPlanBuf::from_roots(M, &good, &[]).unwrap_err(),
        FollowError::Empty
    );
    assert_eq!(
        FollowPlanBuf::scattered(M, &good, 0, 1).unwrap_err(),
        FollowError::Empty
    );
    let mut nan = good.clone();
    nan[5].y = Real::NAN;
    assert_eq!(
        FollowPlanBuf::scattered(M, &nan, 4, 1).unwrap_err(),
        FollowError::NotFinite("guide_points")
    );
    assert_eq!(
        FollowPlanBuf::from_roots(M, &good, &[Vec3::new(0.0, Real::INFINITY, 0.0)]).unwrap_err(),
        FollowError::NotFinite("render_roots")
    );
    assert_eq!(
        FollowPlanBuf::from_roots(M, &good[..good.len() - 1], &[Vec3::ZERO]).unwrap_err(),
        FollowError::Length("guide_points")
    );
    assert_eq!(
        FollowPlanBuf::from_roots(3, &good[..12], &[Vec3::ZERO]).unwrap_err(),
        FollowError::Particles(3)
    );
    // A hand-made plan with an index past the guides fails its check.
    let plan = FollowPlanBuf::from_roots(M, &good, &[Vec3::ZERO]).unwrap();
    let mut v = plan.view();
    let bad = [[9u32, 0, 0]];
    v.guide_index = &bad;
    assert_eq!(v.check(), Err(FollowError::GuideIndex));
}

#[test]
fn one_guide_and_degenerate_guides_stay_finite() {
    // One guide: every render strand follows it alone.
    let one = cap(1);
    let plan = FollowPlanBuf::scattered(M, &one, 5, 2).unwrap();
    assert!(plan.view().coefs.iter().all(|c| c[0][0] == 1.0));
    // A guide folded back on itself (a 180° kink) and one with coincident
    // points: frames degenerate, output stays finite.
    let mut pts = cap(3);
    for i in 8..M {
        pts[i] = pts[7] - (pts[i] - pts[7]);
    }
    for i in 0..M {
        pts[M + i] = pts[M];
    }
    let layout = tress_core::strand::StrandLayout::new(3, M).unwrap();
    let mut x = vec![0.0; layout.len()];
    let (mut y, mut z) = (x.clone(), x.clone());
    for s in 0..3 {
        for i in 0..M {
            let j = layout.index(s, i);
            (x[j], y[j], z[j]) = (pts[s * M + i].x, pts[s * M + i].y, pts[s * M + i].z);
        }
    }
    let mut plan = FollowPlanBuf::scattered(M, &pts, 6, 2).unwrap();
    let v = plan.view();
    let mut frames = vec![0.0; v.frames_len()];
    guide_frames(
        &layout,
        &x,
        &y,
        &z,
        tress_core::math::Mat3::IDENTITY,
        v.root_normal,
        &mut frames,
    );
    assert!(frames.iter().all(|f| f.is_finite()));
    let n = plan.renders() * M;
    let mut out = [vec![0.0; n], vec![0.0; n], vec![0.0; n]];
    let [ox, oy, oz] = &mut out;
    tress_core::strand::follow::interpolate(&plan.view(), &frames, true, ox, oy, oz);
    assert!(out.iter().flatten().all(|f| f.is_finite()));
    let _ = &mut plan;
}

/// The shader-side copy (`follow_copy`), worked by hand: a straight guide
/// hanging along −Y with rest root normal +X has root frame N = +X,
/// T = −Y, B = T × N = +Z; the offset (a, b, c) = (0.01, 0.02, 0.003)
/// moves every particle by (0.01, −0.003, 0.02). Turning the head a
/// quarter turn about +Y carries the normal to −Z and the binormal to +X.
#[test]
fn a_copy_moves_its_guide_by_the_offset_in_the_root_frame() {
    use tress_core::strand::StrandLayout;
    use tress_core::strand::follow_copy::{copy_points, texels_per_guide, write_guide_texels};
    let layout = StrandLayout::new(1, 4).unwrap();
    let (mut x, mut y, mut z) = (
        vec![0.0; layout.len()],
        vec![0.0; layout.len()],
        vec![0.0; layout.len()],
    );
    for i in 0..4 {
        let j = layout.index(0, i);
        (x[j], y[j], z[j]) = (0.5, 2.0 - 0.1 * i as Real, -1.0);
    }
    let mut tex = vec![0.0; texels_per_guide(4) * 4];
    let offset = [[0.01, 0.02, 0.003]];
    let mut out = [Vec3::ZERO; 4];
    write_guide_texels(
        &layout,
        (&x, &y, &z),
        tress_core::math::Mat3::IDENTITY,
        &[Vec3::X],
        &[1.0; 4],
        &mut tex,
    );
    copy_points(&tex, 4, &[0], &offset, &mut out);
    for (i, p) in out.iter().enumerate() {
        let want = Vec3::new(0.51, 2.0 - 0.1 * i as Real - 0.003, -0.98);
        assert!(
            (*p - want).length() < 1e-6,
            "particle {i}: {p} against {want}"
        );
    }
    // The guide itself, turned with the head: the strand still hangs along
    // −Y, the normal is now −Z and the binormal (−Y) × (−Z) = +X.
    let quarter =
        tress_core::math::Mat3::from_quat(Quat::from_rotation_y(core::f32::consts::FRAC_PI_2));
    write_guide_texels(
        &layout,
        (&x, &y, &z),
        quarter,
        &[Vec3::X],
        &[1.0; 4],
        &mut tex,
    );
    copy_points(&tex, 4, &[0], &offset, &mut out);
    let want = Vec3::new(0.52, 2.0 - 0.003, -1.01);
    assert!(
        (out[0] - want).length() < 1e-6,
        "root {} against {want}",
        out[0]
    );
}

/// Coincident particles (a zero first segment) give a zero tangent and
/// binormal, and a normal along the first segment a zero normal and
/// binormal: finite frames, so a copy is never placed at NaN.
#[test]
fn a_degenerate_guide_gives_a_finite_copy() {
    use tress_core::strand::follow_copy::root_frame;
    let p = Vec3::new(0.1, 0.2, 0.3);
    assert_eq!(root_frame(p, p, Vec3::X), [Vec3::X, Vec3::ZERO, Vec3::ZERO]);
    let [n, b, t] = root_frame(p, p - Vec3::Y, Vec3::Y);
    assert_eq!((n, b), (Vec3::ZERO, Vec3::ZERO));
    assert_eq!(t, -Vec3::Y);
}

/// The spread by hand: guide 0 hangs straight down in 0.1 m segments;
/// guide 1 starts 0.01 m beside it and leans away 0.005 m per particle, so
/// their distance at particle i is 0.01 + 0.005 i: ratios 1, 1.5, 2, 2.5.
/// With copies reaching 1 mm a step of the spread may be 0.01 × 0.1 / 0.001
/// = 1 (no limit); reaching 1 cm, 0.1 (1, 1.1, 1.2, 1.3). A guide without
/// neighbours keeps 1; far apart, the ratio stops at 4.
#[test]
fn the_spread_follows_the_nearest_neighbour_within_its_step_limit() {
    use tress_core::strand::follow_copy::spread;
    let strand = |x0: Real, lean: Real| -> Vec<Vec3> {
        (0..4)
            .map(|i| Vec3::new(x0 + lean * i as Real, -0.1 * i as Real, 0.0))
            .collect()
    };
    let pts: Vec<Vec3> = [strand(0.0, 0.0), strand(0.01, 0.005)].concat();
    let none = u32::MAX;
    let near = [[1, none, none], [0, none, none]];
    let mut out = [0.0; 8];
    spread(&pts, 4, &near, &[0.001, 0.001], &mut out);
    for (got, want) in out[..4].iter().zip([1.0, 1.5, 2.0, 2.5]) {
        assert!((got - want).abs() < 1e-5, "{:?}", &out[..4]);
    }
    spread(&pts, 4, &near, &[0.01, 0.01], &mut out);
    for (got, want) in out[..4].iter().zip([1.0, 1.1, 1.2, 1.3]) {
        assert!((got - want).abs() < 1e-5, "{:?}", &out[..4]);
    }
    spread(&pts, 4, &[[none; 3], [none; 3]], &[0.001, 0.001], &mut out);
    assert_eq!(out, [1.0; 8]);
    let far: Vec<Vec3> = [strand(0.0, 0.0), strand(0.01, 0.05)].concat();
    spread(&far, 4, &near, &[0.001, 0.001], &mut out);
    assert_eq!(out[3], 4.0);
}

/// The guide texture packed in parts on the sim's threads (`run_split` and
/// `for_each_guide_texel_in`, as the Godot node packs it) is the texture
/// packed whole, and every part ran.
#[test]
fn the_guide_texture_packed_in_parts_is_the_whole_one() {
    use std::sync::Mutex;
    use tress_core::strand::follow_copy::{TEXEL_FLOATS, texels_per_guide};
    let mut s = sim(203);
    s.set_threads(2);
    for f in 1..=20 {
        s.advance(1.0 / 60.0, |t, _| pose(t + f as f64 / 60.0));
    }
    let at = pose(0.5);
    let plan = FollowPlanBuf::for_sim(&s, 3, 7).unwrap();
    let mut whole = vec![0.0; plan.texels_len()];
    plan.guide_texels(&s, &at, &mut whole);
    let guides = plan.guides();
    let per = texels_per_guide(M) * TEXEL_FLOATS;
    let share = guides.div_ceil(s.threads());
    let mut split = vec![f32::NAN; plan.texels_len()];
    let parts: Vec<Mutex<&mut [f32]>> = split.chunks_mut(share * per).map(Mutex::new).collect();
    let ran = Mutex::new(Vec::new());
    s.run_split(&|part, parts_n, layout, pos| {
        ran.lock().unwrap().push((part, parts_n));
        let mut dst = parts[part].lock().unwrap();
        let first = part * share;
        let range = first..(first + share).min(guides);
        plan.for_each_guide_texel_in(layout, pos, &at, range, |k, v| {
            let o = k * TEXEL_FLOATS - first * per;
            dst[o..o + TEXEL_FLOATS].copy_from_slice(&v);
        });
    });
    drop(parts);
    let mut ran = ran.into_inner().unwrap();
    ran.sort_unstable();
    assert_eq!(ran, [(0, 2), (1, 2)]);
    let same = whole
        .iter()
        .zip(&split)
        .all(|(a, b)| a.to_bits() == b.to_bits());
    assert!(
        same,
        "the texture packed in parts differs from the whole one"
    );
}
