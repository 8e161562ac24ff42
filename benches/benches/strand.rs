//! Criterion bench of the strand solver: one frame (two 1/60 s steps, the
//! reference passes) of the standard 6,000 × 16 scene, one thread and two;
//! the same scene on the 120 Hz clock at each level of detail's rate
//! divisor (1, 2, 4: what hair far away costs); the same frame with the
//! volume pass on (its default, a pass every second step), one thread and
//! two; and the render strands interpolated from it (60,000 from its 6,000
//! guides, one thread).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tress_core::math::Vec3;
use tress_core::strand::follow_copy::copy_points;
use tress_core::strand::{FollowPlanBuf, Schedule, StrandParams, VolumeParams};
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

/// A 60 fps frame of the standard scene on the 120 Hz clock, one thread, at
/// the rate divisors of `TressStrandHair`'s detail levels (full, half,
/// quarter): two steps a frame, one, and one every other frame.
fn strand_lod(c: &mut Criterion) {
    let groom = ProceduralGroom::default();
    let mut g = c.benchmark_group("strand");
    g.sample_size(30);
    for divisor in [1u32, 2, 4] {
        let mut sim = standard_sim(&groom, StrandParams::default(), Schedule::FIXED_120);
        sim.set_threads(1);
        sim.set_rate_divisor(divisor);
        let mut t = 0.0f64;
        g.bench_function(format!("lod_frame_6000x16_divisor{divisor}"), |b| {
            b.iter(|| {
                t += 1.0 / 60.0;
                let pose = turning_pose(groom.head_centre, t % 4.0);
                sim.advance(1.0 / 60.0, |_, _| pose);
            });
        });
    }
    g.finish();
}

/// A 60 fps frame of the standard scene on the 120 Hz clock with the
/// volume pass at its defaults for the groom (`VolumeParams::for_spacing`),
/// one thread and two: against `lod_frame_6000x16_divisor1` (the same
/// frame without it) what volume costs.
fn strand_volume(c: &mut Criterion) {
    let groom = ProceduralGroom::default();
    let mut g = c.benchmark_group("strand");
    g.sample_size(20);
    for threads in [1usize, 2] {
        let mut sim = standard_sim(&groom, StrandParams::default(), Schedule::FIXED_120);
        sim.set_threads(threads);
        sim.set_volume(Some(VolumeParams::for_spacing(sim.root_spacing())));
        let mut t = 0.0f64;
        g.bench_function(format!("volume_frame_6000x16_threads{threads}"), |b| {
            b.iter(|| {
                t += 1.0 / 60.0;
                let pose = turning_pose(groom.head_centre, t % 4.0);
                sim.advance(1.0 / 60.0, |_, _| pose);
            });
        });
    }
    g.finish();
}

fn strand_interpolate(c: &mut Criterion) {
    let groom = ProceduralGroom::default();
    let mut sim = standard_sim(&groom, StrandParams::default(), Schedule::REFERENCE);
    // Half a second of the head turn, so the guides are bent and the
    // frames are not the rest ones.
    let mut t = 0.0f64;
    for _ in 0..30 {
        t += 1.0 / 60.0;
        let pose = turning_pose(groom.head_centre, t);
        sim.advance(1.0 / 60.0, |_, _| pose);
    }
    let pose = turning_pose(groom.head_centre, t);
    let mut plan = FollowPlanBuf::for_sim(&sim, 10, 0x7e55).expect("the standard groom fits");
    let n = plan.renders() * plan.particles();
    let (mut x, mut y, mut z) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
    let mut g = c.benchmark_group("strand");
    g.sample_size(50);
    g.throughput(Throughput::Elements(n as u64));
    for fix in [true, false] {
        let name = if fix {
            "interpolate_60000_from_6000"
        } else {
            "interpolate_60000_from_6000_no_length_fix"
        };
        g.bench_function(name, |b| {
            b.iter(|| plan.interpolate(&sim, &pose, fix, &mut x, &mut y, &mut z));
        });
    }
    // The shader path (what TressStrandHair draws): per frame the CPU packs
    // the 6,000 guides into the texture the vertex shader places the 60,000
    // render strands from; and the same placement done on the CPU instead.
    let mut texels = vec![0.0; plan.texels_len()];
    g.bench_function("guide_texels_6000_for_60000", |b| {
        b.iter(|| plan.guide_texels(&sim, &pose, &mut texels));
    });
    let (guide, offset) = plan.copies();
    let (guide, offset) = (guide.to_vec(), offset.to_vec());
    let mut pts = vec![Vec3::ZERO; n];
    g.bench_function("copy_60000_from_6000_on_cpu", |b| {
        b.iter(|| {
            plan.guide_texels(&sim, &pose, &mut texels);
            copy_points(&texels, plan.particles(), &guide, &offset, &mut pts);
        });
    });
    g.finish();
}

criterion_group!(
    benches,
    strand_frame,
    strand_lod,
    strand_volume,
    strand_interpolate
);
criterion_main!(benches);
