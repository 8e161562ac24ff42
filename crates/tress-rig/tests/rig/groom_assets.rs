//! The third-party grooms (`../shared/assets`, never copied into the repo):
//! each loads, resamples and simulates 10 s of the turning head with finite
//! output; a corrupt `.tfx` is an error, not a panic.
//!
//! Missing assets print a loud SKIPPED line, and fail when `CI` is set.

use std::path::PathBuf;

use glam::{Quat, Vec3};
use tress_core::strand::{Schedule, StrandParams};
use tress_rig::groom::scene::{sim_for_groom, turning_pose};
use tress_rig::groom::tfx::{load_tfx, read_tfx};
use tress_rig::groom::{Groom, GroomError, obj::load_obj};

fn asset(rel: &str) -> Option<PathBuf> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/assets")
        .join(rel);
    if p.exists() {
        Some(p)
    } else {
        eprintln!("SKIPPED: {} not found", p.display());
        assert!(
            std::env::var_os("CI").is_none(),
            "asset {rel} missing under CI"
        );
        None
    }
}

/// Simulates `groom` (metres, head frame = file frame) for 10 s of the
/// turning head about its root centroid and checks every particle is finite.
fn simulate_10s(name: &str, groom: &Groom, particles: usize) {
    let roots: Vec<Vec3> = groom.strands().map(|s| s[0]).collect();
    let centre = roots.iter().copied().sum::<Vec3>() / roots.len() as f32;
    let mut sim = sim_for_groom(
        groom,
        particles,
        centre,
        0.1,
        StrandParams::default(),
        Schedule::FIXED_120,
        false,
    )
    .unwrap_or_else(|e| panic!("{name}: {e}"));
    sim.set_threads(2);
    for _ in 0..600 {
        sim.advance(1.0 / 60.0, |t, _| turning_pose(centre, t));
    }
    let (x, y, z) = sim.positions();
    assert!(
        x.iter().chain(y).chain(z).all(|v| v.is_finite()),
        "{name}: non-finite particle"
    );
    let e = sim.length_error();
    assert!(e.max < 0.01, "{name}: length error {e:?}");
    println!(
        "{name}: {} strands x {particles} simulated 10 s, finite, length error max {:.2e}",
        sim.layout().strands(),
        e.max
    );
}

#[test]
fn tressfx4_ratboy_mohawk_loads_and_simulates() {
    let Some(p) = asset("tressfx4-ratboy/Ratboy_mohawk.tfx") else {
        return;
    };
    let t = load_tfx(p).unwrap();
    assert!(t.warnings.is_empty(), "{:?}", t.warnings);
    // Counts from the asset README: 2,228 strands x 32 vertices.
    assert_eq!(
        (t.version, t.groom.strand_count(), t.vertices_per_strand),
        (4, 2228, 32)
    );
    simulate_10s("Ratboy_mohawk.tfx", &t.groom, 32);
}

#[test]
fn tressfx3_ponytail_parts_load_and_simulate() {
    let mut total = 0;
    let mut all = Groom::new();
    for part in ["front_top", "side", "back", "tail"] {
        let Some(p) = asset(&format!("tressfx3-ponytail/{part}.tfx")) else {
            return;
        };
        let t = load_tfx(p).unwrap();
        assert!(t.warnings.is_empty(), "{part}: {:?}", t.warnings);
        assert_eq!((t.version, t.vertices_per_strand), (3, 16), "{part}");
        total += t.groom.strand_count();
        // The ponytail is authored in centimetres.
        for s in t
            .groom
            .transformed(0.01, Quat::IDENTITY, Vec3::ZERO)
            .strands()
        {
            all.push_strand(s);
        }
    }
    // Asset README: 4,933 strands x 16 vertices in four parts.
    assert_eq!(total, 4933);
    simulate_10s("ponytail (4 parts)", &all, 16);
}

#[test]
fn vhair_obj_grooms_load_and_simulate() {
    // (file, strands, points per strand) from the asset README.
    for (file, strands, points) in [
        ("Hair_Cap_8verts_475Strands.obj", 475, 8),
        ("Hair_Fringe_8verts_300Strands.obj", 300, 8),
        ("Hair_Ponytail_8verts_400Strands.obj", 400, 8),
        ("1k_8Strand.obj", 1000, 8),
        ("1k_16Strand.obj", 1000, 16),
        ("Hair.obj", 2000, 32),
    ] {
        let Some(p) = asset(&format!("vhair-obj-grooms/{file}")) else {
            return;
        };
        let g = load_obj(p).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(g.strand_count(), strands, "{file}");
        assert_eq!(g.uniform_count(), Some(points), "{file}");
        simulate_10s(file, &g, 16);
    }
}

#[test]
fn corrupt_tfx_files_are_errors() {
    let Some(p) = asset("tressfx4-ratboy/Ratboy_mohawk.tfx") else {
        return;
    };
    let bytes = std::fs::read(p).unwrap();
    // Truncated mid-positions.
    assert!(matches!(
        read_tfx(&bytes[..bytes.len() / 3]),
        Err(GroomError::Truncated { .. })
    ));
    // Strand count inflated past the file size.
    let mut big = bytes.clone();
    big[4..8].copy_from_slice(&100_000_000u32.to_le_bytes());
    assert!(read_tfx(&big).is_err());
    // Garbage version.
    let mut v = bytes.clone();
    v[0..4].copy_from_slice(&[0xde, 0xad, 0xbe, 0xef]);
    assert!(matches!(
        read_tfx(&v),
        Err(GroomError::UnsupportedVersion(_))
    ));
    // One strand short: the positions no longer reach the strand UVs at
    // 1,140,896 (= 160 + 2228 × 32 × 16, the asset's offsetStrandUV).
    let mut short = bytes.clone();
    short[4..8].copy_from_slice(&2227u32.to_le_bytes());
    assert_eq!(
        read_tfx(&short).unwrap_err().to_string(),
        "header counts (2227 strands × 32 vertices) need 1140224 bytes of positions from byte 160, found 1140736 (to the next section's offset)"
    );
    // A NaN in the first position: strand 0 is skipped and named, the rest loads.
    let mut nan = bytes;
    let off = u32::from_le_bytes([nan[12], nan[13], nan[14], nan[15]]) as usize;
    nan[off..off + 4].copy_from_slice(&f32::NAN.to_le_bytes());
    let t = read_tfx(&nan).unwrap();
    assert_eq!(t.groom.strand_count(), 2227);
    assert_eq!(t.warnings.len(), 1);
    assert_eq!(t.warnings[0].strand, 0);
    assert!(
        t.warnings[0].reason.starts_with("vertex 0 is not finite"),
        "{}",
        t.warnings[0]
    );
    // Every prefix of the header is an error, never a panic.
    for cut in 0..200 {
        let _ = read_tfx(&v[..cut]);
    }
}

#[test]
fn every_shared_groom_reads_at_its_authored_scale_and_particle_count() {
    use tress_rig::groom::{UnitGuess, load_any};
    // (file, units, own particles): the ponytail is in centimetres (its
    // project's head spheres are 24-27 units across), the rest in metres.
    #[rustfmt::skip]
    let cases = [
        ("tressfx3-ponytail/front_top.tfx", UnitGuess::Centimetres, 16),
        ("tressfx3-ponytail/side.tfx", UnitGuess::Centimetres, 16),
        ("tressfx3-ponytail/back.tfx", UnitGuess::Centimetres, 16),
        ("tressfx3-ponytail/tail.tfx", UnitGuess::Centimetres, 16),
        ("tressfx4-ratboy/Ratboy_mohawk.tfx", UnitGuess::Metres, 32),
        ("vhair-obj-grooms/Hair_Cap_8verts_475Strands.obj", UnitGuess::Metres, 8),
        ("vhair-obj-grooms/Hair_Fringe_8verts_300Strands.obj", UnitGuess::Metres, 8),
        ("vhair-obj-grooms/Hair_Ponytail_8verts_400Strands.obj", UnitGuess::Metres, 8),
        ("vhair-obj-grooms/1k_8Strand.obj", UnitGuess::Metres, 8),
        ("vhair-obj-grooms/1k_16Strand.obj", UnitGuess::Metres, 16),
        ("vhair-obj-grooms/Hair.obj", UnitGuess::Metres, 32),
    ];
    for (rel, units, particles) in cases {
        let Some(p) = asset(rel) else {
            return;
        };
        let g = load_any(&p).unwrap_or_else(|e| panic!("{rel}: {e}"));
        assert_eq!(g.guess_units(), units, "{rel}");
        assert_eq!(g.own_particles(), Some(particles), "{rel}");
        // At that scale every groom is head-sized: under 1.5 m across.
        let (lo, hi) = g
            .transformed(units.scale(), Quat::IDENTITY, Vec3::ZERO)
            .bounds()
            .unwrap();
        assert!((hi - lo).max_element() < 1.5, "{rel}: {:?}", hi - lo);
    }
}

#[test]
fn the_ponytail_settings_and_project_read() {
    use tress_rig::groom::tfxsim::{load_tfxsim, read_tfxproj};
    let Some(proj) = asset("tressfx3-ponytail/ponytail.tfxproj") else {
        return;
    };
    let p = read_tfxproj(&std::fs::read(&proj).unwrap()).unwrap();
    assert_eq!(p.parts.len(), 4);
    assert_eq!(
        (p.local_iterations, p.length_iterations),
        (Some(3), Some(3))
    );
    assert_eq!(p.spheres.len(), 3);
    // (part, local, global, range) as the shipped files give them; damping
    // is 0.1 in all four.
    for (part, local, global, range) in [
        ("front_top", 0.5, 0.2, 0.2),
        ("side", 0.5, 0.2, 0.2),
        ("back", 0.6, 0.2, 0.4),
        ("tail", 0.3, 0.1, 0.3),
    ] {
        let found = p
            .parts
            .iter()
            .find(|q| q.file == format!("{part}.tfx"))
            .unwrap_or_else(|| panic!("{part} not in the project"));
        let tfx = &found.file;
        assert_eq!(
            found.sim.as_deref(),
            Some(format!("{part}.tfxsim").as_str()),
            "{tfx}"
        );
        // ponytail.tfxproj: `4 0.4 5.0` on every part line.
        assert_eq!(found.follow, 4, "{tfx}");
        let s = load_tfxsim(proj.with_file_name(found.sim.as_ref().unwrap())).unwrap();
        assert!(s.ignored.is_empty(), "{part}: {:?}", s.ignored);
        assert_eq!(
            (
                s.damping,
                s.local_stiffness,
                s.global_stiffness,
                s.global_range
            ),
            (Some(0.1), Some(local), Some(global), Some(range)),
            "{part}"
        );
    }
}

#[test]
fn the_ratboy_tfxbone_reads() {
    use tress_rig::groom::tfxbone::load_tfxbone;
    let Some(p) = asset("tressfx4-ratboy/Ratboy_mohawk.tfxbone") else {
        return;
    };
    let t = load_tfxbone(p).unwrap();
    // 105 bones, one weight set per mohawk strand (2,228), the file filled
    // exactly (84,369 bytes); values as the file holds them.
    assert_eq!((t.bones.len(), t.weights.len()), (105, 2228));
    assert_eq!(t.bones[0], "frenchHornMonster_head_JNT");
    assert_eq!(t.bones[104], "frenchHornMonster_R_Toe_End_JNT");
    let [(b0, w0), (b1, w1), _, _] = t.weights[0];
    assert_eq!((b0, b1), (76, 77));
    assert!((w0 - 0.523_717_8).abs() < 1e-6 && (w1 - 0.476_282_2).abs() < 1e-6);
    for (s, w) in t.weights.iter().enumerate() {
        let sum: f32 = w.iter().map(|p| p.1).sum();
        assert!((sum - 1.0).abs() < 1e-5, "strand {s}: {w:?}");
    }
}

/// The skinning transform of a bone turned by `rot` about `pivot` (bind
/// pose at identity, so the transform is the bone's motion itself).
fn turned_about(pivot: Vec3, rot: Quat) -> tress_core::math::Pose {
    tress_core::math::Pose::new(pivot - rot * pivot, rot)
}

#[test]
fn the_ratboy_mohawk_roots_follow_its_skinned_bones() {
    use tress_core::math::{Pose, ops::sin};
    use tress_core::strand::StrandSim;
    use tress_rig::groom::load_any_with_warnings;
    use tress_rig::groom::tfxbone::load_tfxbone;
    let (Some(tfx), Some(bone)) = (
        asset("tressfx4-ratboy/Ratboy_mohawk.tfx"),
        asset("tressfx4-ratboy/Ratboy_mohawk.tfxbone"),
    ) else {
        return;
    };
    let (groom, skipped) = load_any_with_warnings(&tfx).unwrap();
    let bones = load_tfxbone(bone).unwrap();
    let file_strands = groom.strand_count() + skipped.len();
    // No Ratboy skeleton ships: a test skeleton with the file's bone names
    // in reverse order (so the name lookup is exercised), bind poses at
    // identity, i.e. the roots as authored.
    let skeleton: Vec<&str> = bones.bones.iter().rev().map(String::as_str).collect();
    let scale = groom.guess_units().scale();
    let groom = groom
        .transformed(scale, Quat::IDENTITY, Vec3::ZERO)
        .resampled(8)
        .unwrap();
    let order = groom.root_order();
    let groom = groom.picked(&order);
    let weights = bones.for_groom(file_strands, &skipped, &order).unwrap();
    let skin = bones.resolve(&weights, &skeleton).unwrap();
    let pts = groom.points().to_vec();
    let mut sim = StrandSim::from_points(
        8,
        &pts,
        StrandParams::default(),
        Schedule::FIXED_120,
        Pose::IDENTITY,
    )
    .unwrap();
    sim.set_threads(2);
    // Procedural animation: the head nods ±0.5 rad about x through the
    // groom's root centroid, spine03 sways ±0.3 rad about z, spine02
    // rises 3 cm; every other bone stays at bind.
    let roots: Vec<Vec3> = groom.strands().map(|s| s[0]).collect();
    let centre = roots.iter().copied().sum::<Vec3>() / roots.len() as f32;
    let at = |name: &str| skeleton.iter().position(|s| *s == name).unwrap();
    let (head, spine3, spine2) = (
        at("frenchHornMonster_head_JNT"),
        at("frenchHornMonster_spine03_JNT"),
        at("frenchHornMonster_spine02_JNT"),
    );
    let pose_at = |t: f32| {
        let mut p = vec![Pose::IDENTITY; skeleton.len()];
        p[head] = turned_about(centre, Quat::from_rotation_x(0.5 * sin(2.0 * t)));
        p[spine3] = turned_about(centre, Quat::from_rotation_z(0.3 * sin(3.0 * t)));
        p[spine2] = Pose::new(Vec3::new(0.0, 0.03 * sin(1.5 * t), 0.0), Quat::IDENTITY);
        p
    };
    sim.set_skin(&skin, &pose_at(0.0)).unwrap();
    let mut worst: f32 = 0.0;
    for frame in 1..=180 {
        let t = frame as f32 / 60.0;
        let poses = pose_at(t);
        sim.advance_skinned(1.0 / 60.0, Pose::IDENTITY, &poses)
            .unwrap();
        if frame % 10 != 0 {
            continue;
        }
        for (s, (w, &root)) in skin.iter().zip(&roots).enumerate() {
            // Σ wᵢ (Rᵢ p + tᵢ), with the file's weights (normalised on read).
            let want: Vec3 = w
                .iter()
                .filter(|(_, wt)| *wt > 0.0)
                .map(|&(b, wt)| (poses[b as usize].rot * root + poses[b as usize].pos) * wt)
                .sum();
            worst = worst.max((sim.point(s, 0) - want).length());
        }
    }
    let e = sim.length_error();
    println!(
        "ratboy mohawk skinned: {} strands x 8, roots within {worst:.2e} m of Σ w M p, length \
         error mean {:.2e} max {:.2e}",
        roots.len(),
        e.mean,
        e.max
    );
    // Issue 20's acceptance: roots on their skinned positions within 0.1 mm.
    assert!(worst < 1e-4, "root {worst} m off its skinned position");
    assert!(e.max.is_finite() && e.mean < 0.01 && e.max < 0.03, "{e:?}");
}

#[test]
fn the_ratboy_body_tfxmesh_reads() {
    use tress_rig::groom::tfxbone::load_tfxbone;
    use tress_rig::groom::tfxmesh::load_tfxmesh;
    let (Some(mesh), Some(bone)) = (
        asset("tressfx4-ratboy/Ratboy_body.tfxmesh"),
        asset("tressfx4-ratboy/Ratboy_mohawk.tfxbone"),
    ) else {
        return;
    };
    let m = load_tfxmesh(mesh).unwrap();
    // Counts from the file's own headers (numOfBones 86, numOfVertices
    // 12909, numOfTriangles 25814).
    assert_eq!(
        (m.bones.len(), m.vertices.len(), m.triangles.len()),
        (86, 12909, 25814)
    );
    assert_eq!(m.bones[0], "frenchHornMonster_root_JNT");
    // The body and the mohawk share one skeleton: every mesh bone is named
    // in the .tfxbone (105 bones). Bounds from the file's own values
    // (x from -0.24827, y up to 0.912639: metres).
    let names = load_tfxbone(bone).unwrap().bones;
    let missing: Vec<&String> = m.bones.iter().filter(|b| !names.contains(b)).collect();
    assert!(
        missing.is_empty(),
        "mesh bones not in the tfxbone: {missing:?}"
    );
    let (lo, hi) = m.bounds().unwrap();
    assert!(
        (lo.x + 0.248).abs() < 1e-3 && (hi.y - 0.9126).abs() < 1e-3,
        "{lo} {hi}"
    );
}
