//! Lock shapes read from skinned meshes: the built-in avatar's ribbon locks
//! are flat and wide around the head; a fitted tube (the ponytail) is round.

use tress_rig::flat_locks::{MIN_ASPECT, lock_shapes};

fn repo(rel: &str) -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(rel)
}

#[test]
fn ribbon_locks_are_flat_and_wide_around_the_head() {
    let a = tress_rig::load_path(repo("assets/tress_avatar.vrm")).unwrap();
    let shapes = lock_shapes(&a);
    let rest = a.rest_world();
    let head = a.humanoid.as_ref().unwrap().bone("head").unwrap();
    let head_pos = rest[head].w_axis.truncate();
    let mut checked = 0;
    for (node, s) in &shapes {
        let name = &a.nodes[*node].name;
        // The generator makes every lock a ribbon whose width runs around
        // the head (avatar/mod.rs `lock_mesh`: width along up × outward).
        assert!(s.aspect >= MIN_ASPECT, "{name}: aspect {}", s.aspect);
        let m = rest[*node];
        let axis_world = m.to_scale_rotation_translation().1 * s.width_axis;
        let out = (m.w_axis.truncate() - head_pos).with_y(0.0).normalize();
        let around = glam::Vec3::Y.cross(out).normalize();
        assert!(
            axis_world.dot(around).abs() > 0.8,
            "{name}: width axis {axis_world} is not around the head ({around})"
        );
        checked += 1;
    }
    // 4 bangs × 4 + 2 sides × 4 + 2 front locks × 6 simulated bones.
    assert_eq!(checked, 36, "every simulated lock bone owns a ribbon");
}

#[test]
fn a_fitted_tube_is_round() {
    let a = tress_rig::load_path(repo("assets/tress_avatar.vrm")).unwrap();
    let mesh = tress_rig::fit::mesh_by_name(&a, "Ponytail").unwrap();
    let fit = tress_rig::fit::fit_hair(&a, mesh, &tress_rig::fit::FitOptions::default()).unwrap();
    let (fitted, _) = tress_rig::fit::apply(&a, &fit);
    let shapes = lock_shapes(&fitted);
    let tube: Vec<_> = shapes
        .iter()
        .filter(|(n, _)| fitted.nodes[**n].name.starts_with("Ponytail"))
        .collect();
    assert!(!tube.is_empty(), "the fitted ponytail's bones own vertices");
    for (n, s) in tube {
        assert!(
            s.aspect < MIN_ASPECT,
            "{}: aspect {} reads as flat",
            fitted.nodes[*n].name,
            s.aspect
        );
    }
}
