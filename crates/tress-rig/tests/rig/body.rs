//! The strand scene's body meshes and their distance fields: every field
//! agrees with the analytic shape it triangulates, in sign and distance.

use glam::{Quat, Vec3};
use tress_core::collide::{Collider, SdfGrid, clearance_point};
use tress_core::strand::PartFrame;
use tress_rig::groom::ProceduralGroom;
use tress_rig::groom::body::{body_mesh, part_field};
use tress_rig::groom::scene::{body_colliders, head_colliders};

#[test]
fn body_fields_match_the_shapes_they_triangulate() {
    let g = ProceduralGroom::default();
    let parts = body_mesh(g.head_centre, g.head_radius);
    let mut shapes = vec![head_colliders(g.head_radius)[0].posed(Vec3::ZERO, Quat::IDENTITY, 1.0)];
    shapes.extend(body_colliders(g.head_centre, g.head_radius));
    assert_eq!(parts.len(), shapes.len());
    assert_eq!(parts[0].frame, PartFrame::Head);
    let cell = 0.004;
    for (k, (part, shape)) in parts.iter().zip(&shapes).enumerate() {
        let f = part_field(part, cell, 0.02).unwrap();
        let grid = SdfGrid {
            origin: f.origin,
            cell: f.cell,
            dims: f.dims,
            values: &f.values,
        };
        let hi = f.origin
            + Vec3::new(
                f.dims[0] as f32 - 1.0,
                f.dims[1] as f32 - 1.0,
                f.dims[2] as f32 - 1.0,
            ) * cell;
        let mut state = 0x1234_5678u32;
        let mut rnd = || {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            state as f32 / u32::MAX as f32
        };
        let (mut wrong_sign, mut worst) = (0, 0.0f32);
        for _ in 0..20_000 {
            let p = f.origin + (hi - f.origin) * Vec3::new(rnd(), rnd(), rnd());
            let want = clearance_point(shape, p, 0.0).0;
            let (d, _) = grid.sample(p).unwrap();
            if want.abs() > 2.0 * cell && (d < 0.0) != (want < 0.0) {
                wrong_sign += 1;
            }
            if want.abs() < 2.0 * cell {
                worst = worst.max((d - want).abs());
            }
        }
        assert_eq!(
            wrong_sign, 0,
            "part {k}: {wrong_sign} samples with the wrong sign"
        );
        assert!(worst < 0.002, "part {k}: {worst} m off near the surface");
    }
    let _ = Collider::sphere(Vec3::ZERO, 1.0);
}

/// The procedural groom (a tenth of it, 600 strands) through the head
/// turn and a second still, with the analytic colliders off: with the
/// body's distance fields no free particle is more than 2 mm inside the
/// head, neck or shoulders on any frame and the lengths hold; without
/// them hundreds are (so the check can fail). One thread against two and
/// 30 against 120 fps frames (poses per step) give the same bits.
#[test]
fn body_fields_keep_the_hair_out_of_the_body() {
    use tress_core::strand::{Schedule, StrandParams, StrandSim};
    use tress_rig::groom::scene::{posed_colliders, turning_pose};
    let g = ProceduralGroom {
        strands: 600,
        ..ProceduralGroom::default()
    };
    let fields: Vec<_> = body_mesh(g.head_centre, g.head_radius)
        .iter()
        .map(|p| part_field(p, 0.004, 0.02).unwrap())
        .collect();
    let run = |body: bool, threads: usize, fps: u32| -> (usize, f32, Vec<u32>) {
        let mut sim: StrandSim =
            tress_rig::groom::scene::standard_sim(&g, StrandParams::default(), Schedule::FIXED_120);
        sim.set_head_colliders(&[]);
        sim.set_world_colliders(&[]);
        sim.set_threads(threads);
        if body {
            sim.set_body(fields.clone()).unwrap();
        }
        let (mut worst, mut len) = (0usize, 0.0f32);
        for f in 1..=(3 * fps) {
            sim.advance(1.0 / fps as f32, |t, _| turning_pose(g.head_centre, t));
            if f % (fps / 30) == 0 {
                let t = f64::from(f) / f64::from(fps);
                let shapes = posed_colliders(&turning_pose(g.head_centre, t), g.head_radius);
                worst = worst.max(sim.inside(&shapes, 0.002));
                len = len.max(sim.length_error().max);
            }
        }
        let (x, y, z) = sim.positions();
        let bits = x.iter().chain(y).chain(z).map(|v| v.to_bits()).collect();
        (worst, len, bits)
    };
    let (inside, len, bits) = run(true, 1, 30);
    let (without, _, _) = run(false, 1, 30);
    assert!(
        without > 100,
        "without the fields only {without} particles went in"
    );
    assert_eq!(
        inside, 0,
        "{inside} particles more than 2 mm inside the body"
    );
    assert!(len < 1e-3, "length error {len}");
    assert!(run(true, 2, 30).2 == bits, "two threads differ from one");
    assert!(run(true, 1, 120).2 == bits, "120 fps differs from 30 fps");
}
