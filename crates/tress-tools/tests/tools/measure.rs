//! Hair quality measurements (issue #6): the standard run on the built-in
//! avatar, and hand-built cases whose stretch and penetration are known.

use crate::common;

use alloc::collections::BTreeSet;

use glam::{Mat4, Vec3, Vec4};
use tress_core::math::ops;
use tress_tools::measure::penetration::{InsidePart, Penetration};
use tress_tools::measure::stretch::Stretch;
use tress_tools::measure::{Feed, MeasureError, MeasureOptions, MeshSet, Solver, measure, report};
use tress_vrm::{Avatar, Humanoid, Mesh, Primitive, Skin};

fn built_in() -> Avatar {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/tress_avatar.vrm");
    tress_vrm::load_path(path).expect("assets/tress_avatar.vrm loads")
}

#[test]
fn built_in_avatar_improved_settles_keeps_roots_and_agrees_across_frame_rates() {
    let a = built_in();
    // The mesh is skinned at 30 fps only (the CLI does every rate): the
    // other runs still check settling, roots and invariance.
    let opts = MeasureOptions {
        mesh_fps: Some(vec![30]),
        ..MeasureOptions::default()
    };
    let r = measure(&a, &opts).expect("measures");
    print!("{}", report::summary(&r));
    assert_eq!(r.runs.len(), 3);
    let s = r.runs[0].stretch.as_ref().expect("mesh run at 30 fps");
    assert!(s.finite, "non-finite stretch");
    assert!(s.edges > 1000, "only {} hair edges", s.edges);
    let p = r.runs[0].penetration.as_ref().expect("mesh run at 30 fps");
    assert_eq!(p.hair_vertices, 1936, "8 rigged locks × 242 vertices");
    for run in &r.runs {
        // Issue #6: tips still within 0.001 mm per sample in the last 2 s.
        assert!(
            run.settling.max_tip_step_m < 1e-6,
            "{} fps: tip step {} m",
            run.fps,
            run.settling.max_tip_step_m
        );
        // The hair swings: at least one tip leaves its rest place carried by
        // the head by centimetres during the ±60° turn (hair glued to the
        // head would read 0), and stays within the locks' reach (36 cm).
        assert!(
            run.swing.max_tip_deviation_m > 0.02 && run.swing.max_tip_deviation_m < 0.36,
            "{} fps: swing {:?}",
            run.fps,
            run.swing
        );
        assert!(run.swing.time_s > 0.0 && run.swing.time_s <= 4.0 + 1e-9);
        // Roots sit on the head to within float rounding (0.01 mm is ~100×
        // the rounding of world coordinates near 1.6 m).
        assert!(
            run.root_fixity_m < 1e-5,
            "{} fps: root moved {} m",
            run.fps,
            run.root_fixity_m
        );
        assert!(
            run.writeback_m < 1e-4,
            "{} fps: write-back {} m",
            run.fps,
            run.writeback_m
        );
        let s = run.stretch.as_ref().expect("mesh run");
        assert!(s.finite, "{} fps: non-finite stretch", run.fps);
        assert!(
            s.edges > 1000,
            "{} fps: only {} hair edges",
            run.fps,
            s.edges
        );
        let p = run.penetration.as_ref().expect("mesh run");
        assert_eq!(p.hair_vertices, 1936, "8 rigged locks × 242 vertices");
    }
    // The motion evaluated per substep is the same input at every frame
    // rate, so the states must be bit-identical at shared instants.
    assert_eq!(r.frame_rate.substeps.len(), 3);
    for p in &r.frame_rate.substeps {
        assert!(
            p.identical,
            "{}/{} fps differ by {} m",
            p.a_fps, p.b_fps, p.max_m
        );
        // 12 s at gcd(a, b) shared instants per second, plus t = 0.
        let per_second = if p.a_fps == 30 { 30 } else { 60 };
        assert_eq!(
            p.shared_samples,
            12 * per_second + 1,
            "{}/{} fps",
            p.a_fps,
            p.b_fps
        );
    }
    // Poses per frame are a (slightly) different motion at each rate:
    // reported, and bounded well below a centimetre.
    for p in &r.frame_rate.frames {
        assert!(p.max_m < 0.01, "{}/{} fps: {} m", p.a_fps, p.b_fps, p.max_m);
    }
}

/// Issue #25, acceptance 1: the defaults (flat locks at 5/s, drape, the lock
/// twist, the rig's bend hold, the joined-root contact lever) take the
/// built-in avatar's p99 edge stretch from 18.7 % (the three lock options
/// off) to at most 5 %, worst edge at most 15 %, at 30 and at 120 fps
/// (4.67 / 4.88 %, worst 11.27 / 11.31 %, measured 2026-12-06 by `tress
/// measure`; 5.20 / 5.87 % before the joined-root lever), with no hair
/// inside the body and every lock keeping at least 60 % of the swing it has
/// with the three off.
#[test]
fn the_defaults_cut_ribbon_stretch_and_keep_the_swing() {
    let a = built_in();
    let runs = |o: MeasureOptions| measure(&a, &o).expect("measures").runs;
    let on = runs(MeasureOptions {
        fps: vec![30, 120],
        ..MeasureOptions::default()
    });
    let off = runs(MeasureOptions {
        fps: vec![30],
        flat_lock_stiffness: 0.0,
        drape: false,
        lock_twist: false,
        ..MeasureOptions::default()
    })
    .remove(0);
    let s_off = off.stretch.unwrap();
    assert!(
        s_off.p99_percent > 15.0,
        "the check has no teeth: {s_off:?}"
    );
    for run in &on {
        let s_on = run.stretch.as_ref().unwrap();
        let worst = s_on.worst.as_ref().map_or(f32::INFINITY, |e| e.percent);
        println!(
            "{} fps: p99 {:.2} %, worst {:.2} % by default; {:.2} % without (30 fps)",
            run.fps, s_on.p99_percent, worst, s_off.p99_percent
        );
        assert!(
            s_on.finite && s_on.p99_percent <= 5.0,
            "{} fps: {s_on:?}",
            run.fps
        );
        assert!(worst <= 15.0, "{} fps: worst edge {worst} %", run.fps);
        let p = run.penetration.as_ref().unwrap();
        assert_eq!(p.vertices_inside, 0, "{} fps", run.fps);
    }
    let on = &on[0];
    assert_eq!(on.swing.per_chain.len(), 8);
    for ((name, a), (_, b)) in on.swing.per_chain.iter().zip(&off.swing.per_chain) {
        println!(
            "{name}: swing {:.1} cm, {:.1} without",
            a * 100.0,
            b * 100.0
        );
        assert!(*a >= 0.6 * b, "{name} swings {a} m, {b} m without");
    }
}

/// Issue #6, acceptance 1: the layered variant's p99 edge stretch at most
/// 10 %, no hair inside the body at 30 and 120 fps: with the defaults
/// (7.78 % / 8.22 % measured 2026-12-05 by `tress measure`; it was 19.8 %
/// before flat locks, drape and the lock twist were the defaults).
#[test]
fn layered_avatar_meets_its_stretch_target_by_default() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../assets/tress_avatar_layered.vrm"
    );
    let a = tress_vrm::load_path(path).expect("assets/tress_avatar_layered.vrm loads");
    let opts = MeasureOptions {
        fps: vec![30, 120],
        ..MeasureOptions::default()
    };
    let r = measure(&a, &opts).expect("measures");
    for run in &r.runs {
        let s = run.stretch.as_ref().expect("mesh run");
        println!("{} fps: p99 {:.2} %", run.fps, s.p99_percent);
        assert!(s.finite && s.p99_percent <= 10.0, "{} fps: {s:?}", run.fps);
        let p = run.penetration.as_ref().expect("mesh run");
        assert_eq!(p.vertices_inside, 0, "{} fps: {p:?}", run.fps);
        assert!(run.settling.max_tip_step_m < 1e-6, "{} fps", run.fps);
    }
    assert!(r.frame_rate.substeps.iter().all(|p| p.identical));
}

#[test]
fn built_in_avatar_earlier_solver_is_measured_on_the_same_run() {
    let a = built_in();
    let opts = MeasureOptions {
        fps: vec![30],
        ..MeasureOptions::default()
    };
    let improved = measure(&a, &opts).expect("improved");
    let earlier = measure(
        &a,
        &MeasureOptions {
            solver: Solver::Earlier,
            ..opts
        },
    )
    .expect("earlier");
    for r in [&improved, &earlier] {
        let run = &r.runs[0];
        let s = run.stretch.as_ref().expect("mesh run");
        let p = run.penetration.as_ref().expect("mesh run");
        println!(
            "{:>8}: stretch p99 {:.2} %, worst {:.2} %, inside > 1 mm: {}, tip step {:.6} mm",
            r.solver,
            s.p99_percent,
            s.worst.as_ref().map_or(0.0, |w| w.percent),
            p.vertices_inside,
            run.settling.max_tip_step_m * 1000.0
        );
        assert!(s.finite);
    }
    // The plot of the improved run: tip paths for every chain, one point per
    // sample, and a PNG on disk.
    assert_eq!(improved.tip_paths.len(), improved.chains);
    assert!(
        improved
            .tip_paths
            .iter()
            .all(|p| p.len() == improved.runs[0].samples)
    );
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/test-out");
    std::fs::create_dir_all(&dir).unwrap();
    let png = dir.join("measure_plot.png");
    let _ = std::fs::remove_file(&png);
    let labelled =
        tress_tools::measure::plot::plot_png(&improved, "built-in, improved", &png).unwrap();
    let bytes = std::fs::read(&png).unwrap();
    assert!(bytes.starts_with(b"\x89PNG"), "not a PNG");
    assert!(
        bytes.len() > 10_000,
        "a nearly empty plot ({} bytes)",
        bytes.len()
    );
    println!(
        "plot: {} ({} bytes, labels: {labelled})",
        png.display(),
        bytes.len()
    );
}

/// An avatar of two joints (`A` at the origin, `B` as its child at
/// `b_at`) and one skinned mesh: `verts` with rigid joint indices (0: A,
/// 1: B), triangles `tris`. Bind pose = rest pose.
fn two_joint_avatar(b_at: Vec3, verts: &[(Vec3, u16)], tris: &[[u32; 3]]) -> Avatar {
    let mut nodes = vec![
        common::node("A", None, Vec3::ZERO),
        common::node("B", Some(0), b_at),
        common::node("Mesh", None, Vec3::ZERO),
    ];
    nodes[0].children.push(1);
    nodes[2].mesh = Some(0);
    nodes[2].skin = Some(0);
    let prim = Primitive {
        positions: verts.iter().map(|v| v.0).collect(),
        joints: verts.iter().map(|v| [v.1, 0, 0, 0]).collect(),
        weights: verts
            .iter()
            .map(|_| Vec4::new(1.0, 0.0, 0.0, 0.0))
            .collect(),
        indices: tris.iter().flatten().copied().collect(),
        mode: 4,
        ..Primitive::default()
    };
    Avatar {
        meshes: vec![Mesh {
            name: "Strip".to_owned(),
            primitives: vec![prim],
        }],
        skins: vec![Skin {
            name: String::new(),
            joints: vec![0, 1],
            inverse_binds: vec![Mat4::IDENTITY, Mat4::from_translation(-b_at)],
            skeleton: None,
        }],
        ..Avatar::skeleton_only(nodes, vec![0, 2])
    }
}

/// Skinned positions of every vertex of `mesh` with `avatar`'s current node transforms.
fn skinned(mesh: &MeshSet, avatar: &Avatar) -> Vec<Vec3> {
    let mut joints = Vec::new();
    mesh.joint_matrices_into(&avatar.rest_world(), &mut joints);
    let all: Vec<u32> = (0..u32::try_from(mesh.vertex_count()).unwrap()).collect();
    let mut pos = Vec::new();
    mesh.skin(&joints, &all, &mut pos);
    pos
}

#[test]
fn stretch_of_a_two_triangle_strip_matches_the_hand_computed_ratios() {
    // A unit square: the bottom edge on joint A, the top edge on joint B
    // (a spring joint), triangles (0, 1, 2) and (1, 3, 2).
    let verts = [
        (Vec3::new(0.0, 0.0, 0.0), 0),
        (Vec3::new(1.0, 0.0, 0.0), 0),
        (Vec3::new(0.0, 1.0, 0.0), 1),
        (Vec3::new(1.0, 1.0, 0.0), 1),
    ];
    let mut a = two_joint_avatar(Vec3::Y, &verts, &[[0, 1, 2], [1, 3, 2]]);
    let mesh = MeshSet::new(&a, &BTreeSet::from([1]));
    assert_eq!(mesh.hair, vec![2, 3]);
    assert_eq!(mesh.hair_tris.len(), 2);
    let mut stretch = Stretch::new(&mesh, &skinned(&mesh, &a));
    // B moves 0.5 further from A: the top edge rises to y = 1.5.
    a.nodes[1].translation = Vec3::new(0.0, 1.5, 0.0);
    stretch.sample(&skinned(&mesh, &a));
    let r = stretch.report(&mesh);
    // Four edges with a hair end (the bottom edge joins two vertices on A
    // and is left out). By hand: the two verticals go 1 → 1.5 (+50 %), the
    // diagonal (1, 2) goes √2 → √(1 + 1.5²) = √3.25 (+27.475 %), the top
    // horizontal keeps its length (0 %).
    assert_eq!(r.edges, 4);
    let worst = r.worst.expect("an edge");
    assert!((worst.percent - 50.0).abs() < 1e-3, "{worst:?}");
    assert_eq!(worst.mesh, "Strip");
    assert!(
        worst.vertices == [0, 2] || worst.vertices == [1, 3],
        "{worst:?}"
    );
    // Nearest rank: p99 of 4 values is the largest, p50 the second.
    assert!((r.p99_percent - 50.0).abs() < 1e-3, "{}", r.p99_percent);
    let diagonal = (ops::sqrt(3.25f32 / 2.0) - 1.0) * 100.0;
    assert!(
        (r.p50_percent - diagonal).abs() < 1e-3,
        "{} vs {diagonal}",
        r.p50_percent
    );
    let bins: Vec<usize> = r.histogram.iter().map(|b| b.edges).collect();
    // 0 in the first bin (≤ 0.1 %); 27.5, 50, 50 in the (25, 50] bin.
    assert_eq!(bins, vec![1, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0]);
    // The only sample is the moved one.
    assert!(
        (r.at_start_percent - 50.0).abs() < 1e-3,
        "{}",
        r.at_start_percent
    );
}

/// Godette's p99 was the edge 2123–2214 of her backpack: a hair triangle
/// (its third vertex, 2213, is half on a front-hair bone) whose two other
/// vertices are skinned to the backpack and the head only. Its stretch is
/// the head turning away from the backpack, which no hair solver moves, yet
/// it counted as hair stretch. An edge now needs a hair vertex at one end.
#[test]
fn stretch_leaves_out_a_hair_triangles_edge_with_no_hair_end() {
    // Triangle (0, 1, 2): 0 and 1 on joint A (not a spring), 2 on B (a
    // spring joint): edge 0–1 has no hair end.
    let verts = [
        (Vec3::new(0.0, 0.0, 0.0), 0),
        (Vec3::new(1.0, 0.0, 0.0), 0),
        (Vec3::new(0.0, 1.0, 0.0), 1),
    ];
    let a = two_joint_avatar(Vec3::Y, &verts, &[[0, 1, 2]]);
    let mesh = MeshSet::new(&a, &BTreeSet::from([1]));
    assert_eq!(mesh.hair, vec![2]);
    assert_eq!(mesh.hair_tris.len(), 1);
    let rest = skinned(&mesh, &a);
    let mut stretch = Stretch::new(&mesh, &rest);
    // The body under the hair deforms: vertex 1 moves 0.5 away from 0 (as
    // a vertex shared between head and backpack does when the head turns).
    let mut pos = rest.clone();
    pos[1] = Vec3::new(1.5, 0.0, 0.0);
    stretch.sample(&rest);
    stretch.sample(&pos);
    let r = stretch.report(&mesh);
    // Left: 0–2 (0 %) and 1–2 (√2 → √3.25, +27.475 %); edge 0–1 (+50 %)
    // is the body's.
    assert_eq!(r.edges, 2, "{r:?}");
    let worst = r.worst.expect("an edge");
    assert_eq!(worst.vertices, [1, 2], "{worst:?}");
    let diagonal = (ops::sqrt(3.25f32 / 2.0) - 1.0) * 100.0;
    assert!((worst.percent - diagonal).abs() < 1e-3, "{worst:?}");
    assert_eq!(
        worst.owners,
        ["node 0 1.00".to_owned(), "node 1 1.00".to_owned()]
    );
    assert!(r.at_start_percent.abs() < 1e-4, "{}", r.at_start_percent);
}

/// A closed cube of half-size `h` centred at the origin, corners shared,
/// wound counter-clockwise from outside (or inward when `inward`).
fn cube(h: f32, inward: bool) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let corner = |x: f32, y: f32, z: f32| -> u32 {
        u32::from(x > 0.0) | (u32::from(y > 0.0) << 1) | (u32::from(z > 0.0) << 2)
    };
    let verts = (0..8)
        .map(|i| {
            let s = |bit: u32| if i & bit != 0 { h } else { -h };
            Vec3::new(s(1), s(2), s(4))
        })
        .collect();
    let mut tris = Vec::new();
    for n in [
        Vec3::X,
        Vec3::NEG_X,
        Vec3::Y,
        Vec3::NEG_Y,
        Vec3::Z,
        Vec3::NEG_Z,
    ] {
        // u × (n × u) = n for unit u ⟂ n, so the quad below runs
        // counter-clockwise about n.
        let u = if n.x != 0.0 {
            Vec3::Y
        } else if n.y != 0.0 {
            Vec3::Z
        } else {
            Vec3::X
        };
        let v = n.cross(u);
        let quad: Vec<u32> = [-u - v, u - v, u + v, v - u]
            .iter()
            .map(|d| {
                let p = n + *d;
                corner(p.x, p.y, p.z)
            })
            .collect();
        for t in [[quad[0], quad[1], quad[2]], [quad[0], quad[2], quad[3]]] {
            tris.push(if inward { [t[0], t[2], t[1]] } else { t });
        }
    }
    (verts, tris)
}

/// The cube as body on joint A, plus a hair triangle on joint B (at the
/// origin) with one vertex 5 mm inside the cube's +Z face and two outside.
fn cube_case(inward: bool) -> (Avatar, MeshSet) {
    let (body, body_tris) = cube(0.1, inward);
    let mut verts: Vec<(Vec3, u16)> = body.iter().map(|&p| (p, 0)).collect();
    let inside = Vec3::new(0.0, 0.0, 0.095);
    verts.extend([
        (inside, 1),
        (Vec3::new(0.0, 0.0, 0.105), 1),
        (Vec3::new(0.0, 0.05, 0.12), 1),
    ]);
    let mut tris = body_tris;
    tris.push([8, 9, 10]);
    let a = two_joint_avatar(Vec3::ZERO, &verts, &tris);
    let mesh = MeshSet::new(&a, &BTreeSet::from([1]));
    (a, mesh)
}

#[test]
fn cube_winding_is_outward_by_construction() {
    let (v, t) = cube(0.1, false);
    let vol: f32 = t
        .iter()
        .map(|t| v[t[0] as usize].dot(v[t[1] as usize].cross(v[t[2] as usize])) / 6.0)
        .sum();
    // (0.2 m)³ = 0.008 m³, positive when every face winds outward.
    assert!((vol - 0.008).abs() < 1e-6, "{vol}");
}

#[test]
fn a_vertex_5_mm_inside_a_cube_counts_and_one_outside_does_not() {
    for inward in [false, true] {
        let (a, mesh) = cube_case(inward);
        assert_eq!(mesh.body_tris.len(), 12);
        assert_eq!(mesh.hair, vec![8, 9, 10]);
        let pos = skinned(&mesh, &a);
        let mut p = Penetration::new(&mesh, &pos);
        p.sample(&mesh, &pos, 0.0);
        let names: Vec<String> = a.nodes.iter().map(|n| n.name.clone()).collect();
        let r = p.report(&mesh, &names);
        assert_eq!(r.vertices_inside, 1, "inward winding {inward}: {r:?}");
        assert_eq!(r.inside_at_rest, 1);
        // The cube is skinned to joint A (node 0): the vertex is inside A.
        assert_eq!(
            r.by_part,
            vec![InsidePart {
                node: 0,
                name: "A".to_owned(),
                vertices: 1
            }]
        );
        let d = r.deepest.expect("one inside");
        assert_eq!(d.vertex, 8, "the vertex at z = 0.095");
        assert!((d.depth_m - 0.005).abs() < 1e-6, "{}", d.depth_m);
    }
}

#[test]
fn skipping_queries_by_slack_finds_what_querying_every_sample_finds() {
    // The hair joint moves in and out of the cube along a path; the
    // shortcut must report exactly what brute force reports.
    let (mut a, mesh) = cube_case(false);
    let rest = skinned(&mesh, &a);
    let mut fast = Penetration::new(&mesh, &rest);
    let mut slow = Penetration::new(&mesh, &rest);
    slow.use_slack = false;
    for k in 0..200 {
        let t = f64::from(k) / 60.0;
        let s = (k as f32) * 0.05;
        a.nodes[1].translation = Vec3::new(
            0.03 * ops::sin(s),
            0.02 * ops::cos(0.7 * s),
            -0.12 + 0.1 * ops::cos(0.3 * s),
        );
        let pos = skinned(&mesh, &a);
        fast.sample(&mesh, &pos, t);
        slow.sample(&mesh, &pos, t);
    }
    let (f, s) = (fast.report(&mesh, &[]), slow.report(&mesh, &[]));
    assert_eq!(f, s);
    assert!(
        f.vertices_inside >= 2,
        "the path must go deep enough to matter: {f:?}"
    );
}

#[test]
fn avatars_without_head_or_springs_are_refused_with_a_reason() {
    let (a, _) = cube_case(false);
    assert_eq!(
        measure(&a, &MeasureOptions::default()).unwrap_err(),
        MeasureError::NoHead
    );
    let mut a = a;
    a.humanoid = Some(Humanoid {
        bones: [("head".to_owned(), 1)].into_iter().collect(),
    });
    let e = measure(&a, &MeasureOptions::default()).unwrap_err();
    assert_eq!(e, MeasureError::NoSprings);
    assert!(e.to_string().contains("no spring chain"), "{e}");
    assert!(
        "fast"
            .parse::<Solver>()
            .unwrap_err()
            .to_string()
            .contains("improved, earlier or vrm")
    );
}

#[test]
fn godette_is_measured_when_present() {
    let Some(dir) = common::assets_dir() else {
        return;
    };
    let a =
        tress_vrm::load_path(dir.join("godette-vrm0/Godette_vrm_v4.vrm")).expect("Godette loads");
    let r = measure(
        &a,
        &MeasureOptions {
            fps: vec![30],
            feed: Feed::Frames,
            ..MeasureOptions::default()
        },
    )
    .expect("measures");
    print!("{}", report::summary(&r));
    let run = &r.runs[0];
    assert!(
        r.mesh.hair_vertices > 0,
        "Godette's front hair is skinned to spring joints"
    );
    assert!(run.stretch.as_ref().is_some_and(|s| s.finite));
    assert!(run.root_fixity_m < 1e-5, "{}", run.root_fixity_m);
    assert!(
        r.frame_rate.substeps.is_empty(),
        "one frame rate: nothing to compare"
    );
}

fn godette() -> Option<Avatar> {
    let dir = common::assets_dir()?;
    Some(tress_vrm::load_path(dir.join("godette-vrm0/Godette_vrm_v4.vrm")).expect("Godette loads"))
}

/// Issue "Quality by default", item 4: Godette's stretch is the same with
/// either solver because it is not the hair's. With the hair carried
/// rigidly by the head (nothing simulated), the same edges of her backpack
/// stretch about as much: each ends at backpack vertex 2213, skinned half
/// to the front-hair bone `FrontHair_Center_R` and half to the backpack,
/// so it follows the head's turn while its neighbours stay with the body.
#[test]
fn godette_stretch_is_her_backpack_weights_even_with_rigid_hair() {
    let Some(a) = godette() else {
        return;
    };
    let run = |rigid_hair| {
        let opts = MeasureOptions {
            fps: vec![30],
            rigid_hair,
            ..MeasureOptions::default()
        };
        let r = measure(&a, &opts).expect("measures");
        print!("{}", report::summary(&r));
        r
    };
    let (rigid, simulated) = (run(true), run(false));
    let swing = &rigid.runs[0].swing;
    assert!(
        swing.max_tip_deviation_m < 1e-5,
        "rigid hair swung: {swing:?}"
    );
    for r in [&rigid, &simulated] {
        let s = r.runs[0].stretch.as_ref().expect("mesh run");
        assert!(
            s.at_start_percent.abs() < 1e-3,
            "t = 0: {}",
            s.at_start_percent
        );
        let over: Vec<_> = s.worst_edges.iter().filter(|e| e.percent > 50.0).collect();
        assert_eq!(over.len(), 5, "rigid {}: {over:?}", r.rigid_hair);
        for e in over {
            assert!(
                e.mesh == "BodyMesh" && e.primitive == 2 && e.vertices.contains(&2213),
                "{e:?}"
            );
            assert!(
                e.owners
                    .iter()
                    .any(|o| o.contains("FrontHair_Center_R 0.50")),
                "{e:?}"
            );
        }
        // p99 of 477 edges is the fifth largest: one of those five.
        assert!(s.p99_percent > 80.0, "{}", s.p99_percent);
    }
}

/// Issue "Quality by default", item 4: `HairBall_R` starts exactly at its rest and
/// stays there when nothing moves, so its largest swing (t = 0.05–0.07 s)
/// is not a pop but the answer of a stiff chain to the run's start, where
/// the head goes from still to its top speed (60°·π/s) at once.
#[test]
fn godette_hair_ball_starts_at_rest_and_holds_still() {
    use tress_rig::spring_rig::{RigOptions, SpringRig, frame_pose};
    use tress_tools::measure::motion::{Motion, Skeleton};
    let Some(a) = godette() else {
        return;
    };
    let mut rig = SpringRig::build(&a, &RigOptions::default()).expect("rig");
    let rest = a.rest_world();
    let ci = rig
        .chains
        .iter()
        .position(|c| a.nodes[c.nodes[0]].name == "HairBall_R")
        .expect("HairBall_R chain");
    let chain = rig.chains[ci].clone();
    let spring = &a.springs.chains[chain.spring];
    let last = *chain.nodes.last().expect("a joint");
    let rest_tail = rest[last].transform_point3(spring.virtual_tail.expect("VRM 0.x tail"));
    let out = rig.outputs(ci);
    let mut start = 0.0f32;
    for (o, &n) in out.iter().zip(&chain.nodes) {
        start = start.max(o.origin.distance(rest[n].w_axis.truncate()));
    }
    start = start.max(out.last().expect("a joint").tail.distance(rest_tail));
    println!(
        "HairBall_R at build: {:.3e} m from rest (joints and tail)",
        start
    );
    assert!(start < 1e-6, "{start}");
    // Two seconds with nothing moving.
    let poses = rig.rest_poses(&a);
    for _ in 0..240 {
        rig.set_frame_poses(&poses);
        rig.advance(1.0 / 120.0);
    }
    let drift = rig
        .outputs(ci)
        .last()
        .expect("a joint")
        .tail
        .distance(rest_tail);
    println!("HairBall_R tip after 2 s still: {:.3e} m from rest", drift);
    assert!(drift < 1e-6, "{drift}");

    // The standard run at 120 fps: the tip's distance from its rest place
    // carried by the head, around each instant the head is at top speed.
    let mut rig = SpringRig::build(&a, &RigOptions::default()).expect("rig");
    let h = a.humanoid.as_ref().expect("humanoid");
    let (head, hips) = (h.bone("head").expect("head"), h.bone("hips").expect("hips"));
    let mut skel = Skeleton::new(&a, head, hips);
    let motion = Motion::default();
    let local_tail = frame_pose(&rest, chain.attachment).inverse_transform_point(rest_tail);
    let mut world = Vec::new();
    let mut peaks = [(0.0f32, 0.0f64); 4];
    for k in 1..=480 {
        let t = f64::from(k) / 120.0;
        skel.pose_at(&motion, t);
        skel.world_into(&mut world);
        rig.set_frame_poses_from_world(&world);
        rig.advance(1.0 / 120.0);
        let tip = rig.outputs(ci).last().expect("a joint").tail;
        let d = tip.distance(frame_pose(&world, chain.attachment).transform_point(local_tail));
        let p = &mut peaks[(t - 1e-9).floor() as usize];
        if d > p.0 {
            *p = (d, t);
        }
    }
    for (s, (d, t)) in peaks.iter().enumerate() {
        println!(
            "HairBall_R swing in second {s}: {:.1} mm at t = {t:.3} s",
            d * 1000.0
        );
    }
    let later = peaks[1..].iter().map(|p| p.0).fold(0.0f32, f32::max);
    assert!(peaks[0].0 > later, "{peaks:?}");
}
