//! Hand-computed expectations (worked out on paper from the pseudocode of
//! the VRMC_node_constraint 1.0 specification; each case says how).

use super::*;
use core::f32::consts::{FRAC_PI_2, FRAC_PI_4, FRAC_PI_6};

fn deg(d: Real) -> Real {
    d * core::f32::consts::PI / 180.0
}

fn assert_quat(got: Quat, want: Quat) {
    // q and −q are the same rotation.
    let d = ops::abs(got.dot(want));
    assert!(d > 1.0 - 1e-5, "got {got:?}, want {want:?} (|dot| = {d})");
}

#[test]
fn rotation_copies_local_change_with_weight() {
    // Source turns 90° about Y from an identity rest; destination rest is identity.
    let src_now = Quat::from_rotation_y(FRAC_PI_2);
    assert_quat(
        rotation(Quat::IDENTITY, Quat::IDENTITY, src_now, 1.0),
        src_now,
    );
    // Half weight: slerp(identity, rotY(90°), ½) = rotY(45°).
    assert_quat(
        rotation(Quat::IDENTITY, Quat::IDENTITY, src_now, 0.5),
        Quat::from_rotation_y(FRAC_PI_4),
    );
    // Weight 0 keeps the rest rotation.
    let rest = Quat::from_rotation_x(FRAC_PI_2);
    assert_quat(rotation(rest, Quat::IDENTITY, src_now, 0.0), rest);
    // Non-identity rests: source rest rotZ(90°) then local change rotY(30°);
    // destination rest rotX(90°) → rotX(90°)·rotY(30°).
    let src_rest = Quat::from_rotation_z(FRAC_PI_2);
    let delta = Quat::from_rotation_y(FRAC_PI_6);
    assert_quat(
        rotation(rest, src_rest, src_rest * delta, 1.0),
        rest * delta,
    );
}

#[test]
fn roll_keeps_only_the_twist() {
    // q = rotX(30°)·rotY(60°): q·Y = rotX(30°)·Y, the swing is rotX(30°),
    // so the twist about Y is rotY(60°).
    let q = Quat::from_rotation_x(deg(30.0)) * Quat::from_rotation_y(deg(60.0));
    assert_quat(
        roll(Quat::IDENTITY, Quat::IDENTITY, q, RollAxis::Y, 1.0),
        Quat::from_rotation_y(deg(60.0)),
    );
    // Half weight: rotY(30°).
    assert_quat(
        roll(Quat::IDENTITY, Quat::IDENTITY, q, RollAxis::Y, 0.5),
        Quat::from_rotation_y(deg(30.0)),
    );
    // A pure rotation about Z has no twist about X.
    let z = Quat::from_rotation_z(deg(50.0));
    assert_quat(
        roll(Quat::IDENTITY, Quat::IDENTITY, z, RollAxis::X, 1.0),
        Quat::IDENTITY,
    );
    assert_quat(roll(Quat::IDENTITY, Quat::IDENTITY, z, RollAxis::Z, 1.0), z);
    // Source rest rotZ(90°), local change rotX(40°): in the parent frame that
    // is 40° about rotZ(90°)·X = +Y; destination rest identity, roll axis Y → rotY(40°).
    let src_rest = Quat::from_rotation_z(FRAC_PI_2);
    let src_now = src_rest * Quat::from_rotation_x(deg(40.0));
    assert_quat(
        roll(Quat::IDENTITY, src_rest, src_now, RollAxis::Y, 1.0),
        Quat::from_rotation_y(deg(40.0)),
    );
    // Destination rest rotX(90°): parent-frame rotY(40°) seen in the
    // destination is rotX(-90°)·rotY(40°)·rotX(90°) = 40° about rotX(-90°)·Y = −Z,
    // so roll axis Z gives rotZ(-40°) and the result is rotX(90°)·rotZ(-40°).
    let dst_rest = Quat::from_rotation_x(FRAC_PI_2);
    assert_quat(
        roll(dst_rest, src_rest, src_now, RollAxis::Z, 1.0),
        dst_rest * Quat::from_rotation_z(deg(-40.0)),
    );
}

#[test]
fn aim_points_signed_axis_at_source() {
    // +X toward a source on +Z: rotY(θ) maps X to (cos θ, 0, −sin θ), so θ = −90°.
    let p = Quat::IDENTITY;
    assert_quat(
        aim(
            Quat::IDENTITY,
            p,
            Vec3::ZERO,
            Vec3::Z,
            AimAxis::PositiveX,
            1.0,
        ),
        Quat::from_rotation_y(-FRAC_PI_2),
    );
    assert_quat(
        aim(
            Quat::IDENTITY,
            p,
            Vec3::ZERO,
            Vec3::Z,
            AimAxis::PositiveX,
            0.5,
        ),
        Quat::from_rotation_y(-FRAC_PI_4),
    );
    // −Y toward +X: rotZ(θ) maps −Y to (sin θ, −cos θ, 0), so θ = 90°.
    assert_quat(
        aim(
            Quat::IDENTITY,
            p,
            Vec3::ZERO,
            Vec3::X * 2.0,
            AimAxis::NegativeY,
            1.0,
        ),
        Quat::from_rotation_z(FRAC_PI_2),
    );
    // Already aimed: rest kept.
    assert_quat(
        aim(
            Quat::IDENTITY,
            p,
            Vec3::ONE,
            Vec3::ONE + Vec3::NEG_Z,
            AimAxis::NegativeZ,
            1.0,
        ),
        Quat::IDENTITY,
    );
    // Parent world rotY(90°): +X in world is rotY(90°)·X = −Z. Source on world
    // +X needs the world turn rotY(−90°); local = P⁻¹·F·P·rest = rotY(−90°).
    let parent = Quat::from_rotation_y(FRAC_PI_2);
    let local = aim(
        Quat::IDENTITY,
        parent,
        Vec3::ZERO,
        Vec3::X,
        AimAxis::PositiveX,
        1.0,
    );
    assert_quat(local, Quat::from_rotation_y(-FRAC_PI_2));
    let world_axis = (parent * local) * Vec3::X;
    assert!((world_axis - Vec3::X).length() < 1e-5);
}

#[test]
fn from_to_handles_opposite_and_zero() {
    let q = from_to(Vec3::X, Vec3::NEG_X);
    assert!((q * Vec3::X - Vec3::NEG_X).length() < 1e-5);
    assert_quat(from_to(Vec3::ZERO, Vec3::X), Quat::IDENTITY);
}

fn c(destination: usize, source: usize, kind: ConstraintKind) -> NodeConstraint {
    NodeConstraint {
        destination,
        source,
        kind,
        weight: 1.0,
    }
}

#[test]
fn order_follows_dependencies_and_detects_cycles() {
    // Nodes: 0 root, 1..=3 children of 0.
    let parents = [None, Some(0), Some(0), Some(0)];
    // Constraint 0 reads node 2, which constraint 1 writes: 1 must come first.
    let cs = [
        c(3, 2, ConstraintKind::Rotation),
        c(2, 1, ConstraintKind::Rotation),
    ];
    let mut order = [0; 2];
    let mut placed = [false; 2];
    evaluation_order(&cs, &parents, &mut order, &mut placed).unwrap();
    assert_eq!(order, [1, 0]);
    // 2 ← 3 and 3 ← 2: a cycle.
    let cyc = [
        c(3, 2, ConstraintKind::Rotation),
        c(2, 3, ConstraintKind::Roll(RollAxis::X)),
    ];
    assert!(evaluation_order(&cyc, &parents, &mut order, &mut placed).is_err());
    // A node constraining itself is a cycle.
    let own = [c(1, 1, ConstraintKind::Rotation)];
    assert_eq!(
        evaluation_order(&own, &parents, &mut order[..1], &mut placed[..1]),
        Err(CycleError { constraint: 0 })
    );
    // Aim reads its source's world position, so writing the source's parent is a dependency.
    let parents = [None, Some(0), Some(1), None];
    let cs = [
        c(3, 2, ConstraintKind::Aim(AimAxis::PositiveX)),
        c(1, 0, ConstraintKind::Rotation),
    ];
    evaluation_order(&cs, &parents, &mut order, &mut placed).unwrap();
    assert_eq!(order, [1, 0]);
}

#[test]
fn apply_chains_constraints_in_order() {
    // Node 0 (root) rotates 90° about Y; node 1 copies it with weight ½ (rotY 45°);
    // node 2 copies node 1's change fully (rotY 45°).
    let parents = [None, None, None];
    let rest = [Quat::IDENTITY; 3];
    let mut pose = [LocalPose {
        translation: Vec3::ZERO,
        rotation: Quat::IDENTITY,
        scale: Vec3::ONE,
    }; 3];
    pose[0].rotation = Quat::from_rotation_y(FRAC_PI_2);
    let mut cs = [
        c(2, 1, ConstraintKind::Rotation),
        c(1, 0, ConstraintKind::Rotation),
    ];
    cs[1].weight = 0.5;
    let mut order = [0; 2];
    let mut placed = [false; 2];
    evaluation_order(&cs, &parents, &mut order, &mut placed).unwrap();
    apply(&cs, &order, &parents, &rest, &mut pose);
    assert_quat(pose[1].rotation, Quat::from_rotation_y(FRAC_PI_4));
    assert_quat(pose[2].rotation, Quat::from_rotation_y(FRAC_PI_4));
}

#[test]
fn apply_aim_uses_world_positions() {
    // Node 0 at (0,0,0) rotated rotY(90°); node 1 its child at local (1,0,0)
    // → world (0,0,−1). Node 2 (root) at (0,0,0) aims +X at node 1:
    // X → −Z is rotY(90°).
    let parents = [None, Some(0), None];
    let rest = [Quat::IDENTITY; 3];
    let mut pose = [LocalPose {
        translation: Vec3::ZERO,
        rotation: Quat::IDENTITY,
        scale: Vec3::ONE,
    }; 3];
    pose[0].rotation = Quat::from_rotation_y(FRAC_PI_2);
    pose[1].translation = Vec3::X;
    let cs = [c(2, 1, ConstraintKind::Aim(AimAxis::PositiveX))];
    apply(&cs, &[0], &parents, &rest, &mut pose);
    assert_quat(pose[2].rotation, Quat::from_rotation_y(FRAC_PI_2));
}
