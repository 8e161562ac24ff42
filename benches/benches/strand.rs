//! Criterion bench of the strand solver: one frame (two 1/60 s steps, the
//! reference passes) of the standard 6,000 × 16 scene, one thread and two.

use criterion::{Criterion, criterion_group, criterion_main};
use tress_core::strand::{Schedule, StrandParams};
use tress_rig::groom::ProceduralGroom;
use tress_rig::groom::scene::{standard_sim, turning_pose};

fn strand_frame(c: &mut Criterion) {
    let groom = ProceduralGroom::default();
    let mut g = c.benchmark_group("strand");
    g.sample_size(30);
    for threads in [1usize, 2] {
        let mut sim = standard_sim(&groom, StrandParams::default(), Schedule::REFERENCE);
        sim.set_threads(threads);
        let mut t = 0.0f64;
        g.bench_function(format!("frame_6000x16_threads{threads}"), |b| {
            b.iter(|| {
                t += 1.0 / 60.0;
                // Keep the head moving so every pass works, as in a real frame.
                let pose = turning_pose(groom.head_centre, t % 4.0);
                sim.advance(1.0 / 60.0, |_, _| pose);
            });
        });
    }
    g.finish();
}

criterion_group!(benches, strand_frame);
criterion_main!(benches);
