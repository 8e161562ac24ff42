//! The built-in skirt avatar (`assets/tress_avatar_skirt.vrm`, issue 19
//! item 1) measured on five Universal Animation Library clips at 30 and
//! 120 fps: skirt vertices inside the body, skirt edge stretch and the
//! hem's swing, as `tress measure --anim … --clip … --meshes Skirt
//! --inside-meshes Skirt` prints them (docs/QUALITY.md, "Skirt").
//!
//! Skipped with a loud message without `../shared/assets` (failing under `CI`).

use crate::common;

use tress_rig::anim::{BoneMap, RetargetOptions, Retargeter};
use tress_tools::measure::penetration::PenetrationReport;
use tress_tools::measure::{ClipMotion, MeasureOptions, Report, measure};

/// The issue's five clips by their names in the library.
const CLIPS: [&str; 5] = [
    "Dance_Loop",
    "Walk_Loop",
    "Sitting_Idle_Loop",
    "Jump_Loop",
    "Crouch_Idle_Loop",
];

/// One measurement per clip, each with a mesh run at 30 and at 120 fps.
fn measured() -> Option<Vec<(&'static str, Report)>> {
    let dir = common::assets_dir()?;
    let avatar =
        tress_vrm::load_path(tress_testkit::repo_root().join("assets/tress_avatar_skirt.vrm"))
            .expect("the skirt avatar loads");
    let lib =
        tress_vrm::load_path(dir.join("quaternius-ual1/AnimationLibrary_Godot_Standard.gltf"))
            .expect("the animation library loads");
    let r = Retargeter::new(&lib, &BoneMap::detect(&lib).expect("map"), &avatar).expect("retarget");
    let skirt = vec!["Skirt".to_owned()];
    Some(
        CLIPS
            .iter()
            .map(|&name| {
                let clip = r
                    .retarget_named(name, &RetargetOptions::default())
                    .expect("clip");
                let opts = MeasureOptions {
                    fps: vec![30, 120],
                    clip: Some(ClipMotion::new(&clip, 3)),
                    stretch_meshes: skirt.clone(),
                    inside_meshes: skirt.clone(),
                    ..MeasureOptions::default()
                };
                (name, measure(&avatar, &opts).expect("measures"))
            })
            .collect(),
    )
}

/// The largest hem (chain tip) swing of the skirt chains, metres.
fn hem_swing(run: &tress_tools::measure::RunReport) -> f32 {
    run.swing
        .per_chain
        .iter()
        .filter(|(name, _)| name.starts_with("Skirt"))
        .map(|&(_, d)| d)
        .fold(0.0, f32::max)
}

/// Skirt vertices more than 1 mm inside the legs (the issue's measure):
/// those whose deepest point was in a body part skinned to a leg bone.
fn inside_legs(p: &PenetrationReport) -> usize {
    p.by_part
        .iter()
        .filter(|part| part.name.contains("Leg") || part.name.contains("Foot"))
        .map(|part| part.vertices)
        .sum()
}

fn print_table(reports: &[(&str, Report)]) {
    println!(
        "clip, fps: skirt p99 stretch / inside the body > 1 mm (deepest) / of those in the legs / hem swing"
    );
    for (name, rep) in reports {
        for run in &rep.runs {
            let s = run.stretch.as_ref().expect("mesh run");
            let p = run.penetration.as_ref().expect("mesh run");
            println!(
                "{name}, {}: {:.1} % / {} ({:.1} mm) / {} / {:.1} cm",
                run.fps,
                s.p99_percent,
                p.vertices_inside,
                p.deepest.as_ref().map_or(0.0, |d| d.depth_m * 1000.0),
                inside_legs(p),
                hem_swing(run) * 100.0
            );
        }
    }
}

/// Issue 19's acceptance 1: on all five clips at 30 and 120 fps no skirt
/// vertex more than 1 mm inside the legs, p99 skirt edge stretch ≤ 10 %,
/// and the hem swings at least 3 cm dancing; also that the skirt starts
/// clear, its roots stay on the hips and nothing but the hands reaches it.
/// docs/QUALITY.md, "Skirt", has the figures.
#[test]
fn skirt_meets_the_issue_19_targets_on_five_clips() {
    let Some(reports) = measured() else {
        return;
    };
    print_table(&reports);
    for (name, rep) in &reports {
        assert!(rep.mesh.hair_vertices > 0, "{name}");
        for run in &rep.runs {
            let s = run.stretch.as_ref().expect("mesh run");
            let p = run.penetration.as_ref().expect("mesh run");
            assert!(s.finite, "{name} at {} fps: non-finite stretch", run.fps);
            // Only skirt vertices are counted, and none is inside at rest.
            // 25 rows (three segments of eight) by 144 columns (24 chains, six each).
            assert_eq!(p.hair_vertices, 3600, "{name}");
            assert_eq!(p.inside_at_rest, 0, "{name} at {} fps", run.fps);
            assert!(run.root_fixity_m < 1e-4, "{name}: roots left the hips");
            assert_eq!(
                inside_legs(p),
                0,
                "{name} at {} fps: {:?}",
                run.fps,
                p.by_part
            );
            // p99 at 30 / 120 fps: dance 2.7 / 2.7 %, walk 1.8 / 1.8,
            // sitting 8.3 / 8.4, jump 3.6 / 3.7, crouch 9.2 / 9.2 (before
            // the band twist and the eased weights: 2.7, 2.0, 9.9, 3.8,
            // 13.8; before the folds 4.1, 3.1, 14.5, 5.0, 30.5).
            assert!(
                s.p99_percent <= 10.0,
                "{name} at {} fps: p99 {}",
                run.fps,
                s.p99_percent
            );
        }
    }
    // Nothing inside the body at all dancing, jumping or crouching, since
    // the waistband sits above where the flexed thigh passes (116-117
    // vertices inside the left thigh with it at 0.97 m). Walking, the
    // swinging hands brush the folds' outer edges (34-36 vertices inside
    // the hands and forearms, none before the folds); sitting they rest on
    // the lap, through the cloth lying there (the skirt does not collide
    // with them, `skirt::BODY_COLLIDERS`).
    for (name, rep) in [&reports[0], &reports[3], &reports[4]] {
        for run in &rep.runs {
            let p = run.penetration.as_ref().expect("mesh run");
            assert_eq!(p.vertices_inside, 0, "{name} at {} fps", run.fps);
        }
    }
    // The issue's "visibly moves": the hem swings at least 3 cm in the dance.
    let (_, dance) = &reports[0];
    for run in &dance.runs {
        let swing = hem_swing(run);
        assert!(
            swing >= 0.03,
            "Dance_Loop at {} fps: hem swings {swing} m",
            run.fps
        );
    }
}
