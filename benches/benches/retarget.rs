//! Retargeting speed (issue 7, acceptance 3): one ~2 s Universal Animation
//! Library clip onto Godette (45 humanoid bones, with the ground pass on her
//! skinned feet); the target is at most 5 ms in a release build. The whole
//! validation (`tress validate-anim`) reports its own elapsed time.
//!
//! `cargo bench -p tress-benches --bench retarget -- --warm-up-time 1 --measurement-time 3`
//!
//! Needs `../shared/assets`; without it the bench says so loudly and measures nothing.

use core::hint::black_box;
use std::path::PathBuf;

use criterion::{Criterion, criterion_group, criterion_main};
use tress_rig::anim::{BoneMap, RetargetOptions, Retargeter};

fn asset(rel: &str) -> Option<PathBuf> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/assets")
        .join(rel);
    if p.is_file() {
        Some(p)
    } else {
        eprintln!(
            "SKIPPED: {} not found; the retarget bench measured nothing",
            p.display()
        );
        None
    }
}

fn bench(c: &mut Criterion) {
    let (Some(lib), Some(godette)) = (
        asset("quaternius-ual1/AnimationLibrary_Godot_Standard.gltf"),
        asset("godette-vrm0/Godette_vrm_v4.vrm"),
    ) else {
        return;
    };
    let source = tress_vrm::load_path(lib).expect("load the library");
    let target = tress_vrm::load_path(godette).expect("load Godette");
    let map = BoneMap::detect(&source).expect("DEF- names");
    let r = Retargeter::new(&source, &map, &target).expect("retargeter");
    // Spell_Simple_Idle_Loop is 2.08 s long: the "one 2 s clip".
    let clip = source
        .animations
        .iter()
        .find(|a| a.name == "Spell_Simple_Idle_Loop")
        .expect("clip");
    let opts = RetargetOptions::default();
    let mut g = c.benchmark_group("retarget");
    g.bench_function("ual_2s_clip_onto_godette", |b| {
        b.iter(|| black_box(r.retarget(black_box(clip), &opts).expect("retarget")));
    });
    g.bench_function("setup_ual_onto_godette", |b| {
        b.iter(|| black_box(Retargeter::new(&source, &map, &target).expect("retargeter")));
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
