//! Strand collision with the body by distance field on the turning-head
//! scene: the scene's head, neck and shoulders as meshes, one field per
//! rigid part, the analytic colliders off. Prints the fields' build time
//! and size, the particles more than 2 mm inside the body (measured against
//! the analytic shapes the meshes triangulate) on every frame, with the
//! fields (one thread and two) and without any collision, the length
//! error, and the cost.
//!
//! `cargo run --release -p tress-benches --bin strand-body [-- CELL_MM]`
//!
//! Exits non-zero when a particle is more than 2 mm inside with the fields on.

use std::time::Instant;

use tress_core::strand::{Schedule, StrandParams};
use tress_rig::groom::ProceduralGroom;
use tress_rig::groom::body::{body_mesh, part_field};
use tress_rig::groom::scene::{TURN_SECONDS, posed_colliders, standard_sim, turning_pose};

const DEPTH: f32 = 0.002;

fn main() {
    let cell = std::env::args()
        .nth(1)
        .and_then(|s| s.parse::<f32>().ok())
        .map_or(0.004, |mm| mm / 1000.0);
    let groom = ProceduralGroom::default();
    let parts = body_mesh(groom.head_centre, groom.head_radius);
    let start = Instant::now();
    let fields: Vec<_> = parts
        .iter()
        .map(|p| part_field(p, cell, 0.02).expect("the scene's meshes are closed"))
        .collect();
    let build = start.elapsed().as_secs_f64() * 1e3;
    let nodes: usize = fields.iter().map(|f| f.values.len()).sum();
    let tris: usize = parts.iter().map(|p| p.triangles.len()).sum();
    println!(
        "body: {} parts, {tris} triangles; fields of {:.1} mm cells, {nodes} nodes ({:.1} MB), built in {build:.1} ms (once: each part is rigid in its frame)",
        parts.len(),
        cell * 1e3,
        nodes as f64 * 4.0 / 1e6
    );
    let frames = ((TURN_SECONDS + 1.0) * 60.0) as u32;
    let mut failed = false;
    for (with_fields, threads) in [(false, 1), (true, 1), (true, 2)] {
        let mut sim = standard_sim(&groom, StrandParams::default(), Schedule::FIXED_120);
        sim.set_threads(threads);
        sim.set_head_colliders(&[]);
        sim.set_world_colliders(&[]);
        if with_fields {
            sim.set_body(fields.clone()).expect("three parts fit");
        }
        let (mut worst, mut frames_inside, mut worst_max_len, mut worst_mean_len) =
            (0, 0, 0.0f32, 0.0f32);
        let mut step_secs = 0.0;
        for f in 1..=frames {
            let t = f64::from(f) / 60.0;
            let s = Instant::now();
            sim.advance(1.0 / 60.0, |tt, _| turning_pose(groom.head_centre, tt));
            step_secs += s.elapsed().as_secs_f64();
            let shapes = posed_colliders(&turning_pose(groom.head_centre, t), groom.head_radius);
            let inside = sim.inside(&shapes, DEPTH);
            if inside > 0 {
                frames_inside += 1;
            }
            worst = worst.max(inside);
            let e = sim.length_error();
            worst_max_len = worst_max_len.max(e.max);
            worst_mean_len = worst_mean_len.max(e.mean);
        }
        println!(
            "{}: particles > 2 mm inside the body: {worst} at worst, on {frames_inside} of {frames} frames; length error worst mean {:.4} %, max {:.4} %; {:.2} ms per frame ({threads} thread{})",
            if with_fields {
                "fields on, analytic colliders off"
            } else {
                "no collision at all"
            },
            worst_mean_len * 100.0,
            worst_max_len * 100.0,
            step_secs * 1e3 / f64::from(frames),
            if threads == 1 { "" } else { "s" }
        );
        if with_fields && worst > 0 {
            failed = true;
        }
    }
    if failed {
        std::process::exit(1);
    }
}
