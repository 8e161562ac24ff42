//! Hair fitter speed (issue #6 item 1 acceptance: fitting the built-in
//! ponytail takes at most 50 ms in a release build): `fit_hair` on the
//! built-in avatar's unrigged `Ponytail` (2,402 vertices, the joint count
//! the fitter picks for it: eight), and the whole `tress fit` path (fit,
//! apply to the model, write into the GLB).
//!
//! `CARGO_TARGET_DIR=… cargo bench -p tress-benches --bench fit -- --warm-up-time 1 --measurement-time 3`

use core::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tress_tools::fit::{self, FitOptions};

fn bench(c: &mut Criterion) {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../assets/tress_avatar.vrm");
    let bytes = std::fs::read(path).expect("built-in avatar asset");
    let avatar = tress_vrm::load_bytes(&bytes, None).expect("load");
    let mesh = fit::mesh_by_name(&avatar, "Ponytail").expect("Ponytail mesh");
    let opts = FitOptions::default();
    let mut g = c.benchmark_group("fit");
    g.bench_function("ponytail_fit_hair", |b| {
        b.iter(|| black_box(fit::fit_hair(black_box(&avatar), mesh, &opts).expect("fit")));
    });
    g.bench_function("ponytail_fit_apply_write", |b| {
        b.iter(|| {
            let f = fit::fit_hair(black_box(&avatar), mesh, &opts).expect("fit");
            let applied = fit::apply(&avatar, &f);
            let out = fit::glb::write_fit(&bytes, &avatar, &f).expect("write");
            black_box((applied, out))
        });
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
