//! Spring-chain solver speed (issue 3, acceptance 8): one 60 Hz frame of a
//! 12-chain, 60-joint avatar with 10 colliders and whole-segment contact on
//! 4 chains, next to a straightforward baseline of the same update; and 100
//! such avatars per frame; and the same avatar in the VRM-compatible mode
//! with the lane kernels and with the scalar kernel.
//!
//! `cargo bench -p tress-benches --bench spring -- --warm-up-time 1 --measurement-time 3`

extern crate alloc;

mod spring_support;

use alloc::vec::Vec;

use core::hint::black_box;
use criterion::{Criterion, criterion_group, criterion_main};
use spring_support::{avatar, avatar_vrm, baseline::Baseline, frame};
use tress_core::spring::JointOutput;

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("spring");
    let mut w = avatar();
    let mut n = 0u64;
    g.bench_function("tress_avatar_frame_60hz", |b| {
        b.iter(|| {
            n += 1;
            frame(&mut w, n);
            black_box(&w);
        });
    });
    let mut out = [JointOutput::default(); 8];
    g.bench_function("tress_avatar_frame_60hz_with_outputs", |b| {
        b.iter(|| {
            n += 1;
            frame(&mut w, n);
            for ch in 0..w.chain_count() {
                black_box(w.outputs(ch, &mut out));
            }
        });
    });
    for (name, lanes) in [
        ("tress_avatar_frame_60hz_vrm", true),
        ("tress_avatar_frame_60hz_vrm_scalar", false),
    ] {
        let mut w = avatar_vrm(lanes);
        let mut n = 0u64;
        g.bench_function(name, |b| {
            b.iter(|| {
                n += 1;
                frame(&mut w, n);
                black_box(&w);
            });
        });
    }
    let mut base = Baseline::new();
    let mut m = 0u64;
    g.bench_function("baseline_avatar_frame_60hz", |b| {
        b.iter(|| {
            m += 1;
            base.frame(m);
            black_box(base.tip(0));
        });
    });
    let mut crowd: Vec<_> = (0..100).map(|_| avatar()).collect();
    let mut k = 0u64;
    g.bench_function("tress_100_avatars_frame_60hz", |b| {
        b.iter(|| {
            k += 1;
            for (i, a) in crowd.iter_mut().enumerate() {
                frame(a, k + i as u64);
            }
            black_box(&crowd);
        });
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
