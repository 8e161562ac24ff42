//! Loader speed (issue 4, acceptance 5): load Godette (VRM 0.x, 591 KB GLB,
//! 8,067 vertices, one 68-joint skin, 8 spring roots) from memory and from
//! disk; the target is at most 10 ms in a release build.
//!
//! `CARGO_TARGET_DIR=… cargo bench -p tress-benches --bench load -- --warm-up-time 1 --measurement-time 3`
//!
//! Needs `../shared/assets`; without it the bench says so loudly and measures nothing.

use core::hint::black_box;
use std::path::PathBuf;

use criterion::{Criterion, criterion_group, criterion_main};

fn godette() -> Option<PathBuf> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/assets/godette-vrm0/Godette_vrm_v4.vrm");
    if p.is_file() {
        Some(p)
    } else {
        eprintln!(
            "SKIPPED: {} not found; the load bench measured nothing",
            p.display()
        );
        None
    }
}

fn bench(c: &mut Criterion) {
    let Some(path) = godette() else { return };
    let bytes = std::fs::read(&path).expect("read Godette");
    let mut g = c.benchmark_group("load");
    g.bench_function("godette_vrm0_from_memory", |b| {
        b.iter(|| black_box(tress_vrm::load_bytes(black_box(&bytes), None).expect("load")));
    });
    g.bench_function("godette_vrm0_from_disk", |b| {
        b.iter(|| black_box(tress_vrm::load_path(black_box(&path)).expect("load")));
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
