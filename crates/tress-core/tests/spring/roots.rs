//! Regression for "Quality by default", item 2: a chain whose root lies
//! inside a collider must not be left inside it.
//!
//! Whole-segment contact only corrects the depth a segment adds beyond its
//! root's (the root-depth rule), so a chain hanging from inside a head
//! sphere or capsule used to rest with its tails well inside. Each case
//! steps a still chain for 3 s in every mode and contact kind and asks:
//! every tail outside the collider (clearance, with the hit radius, at
//! least −[`TOLERANCE`]; −[`VRM_TOLERANCE`] in VrmCompatible), and the first segment turned off its rest direction by
//! no more than [`KINK_MARGIN_DEG`] beyond the least turn that takes its
//! tail out at all (the least turn is geometry: the rest tail is inside, so
//! the segment must turn; a kink is turning farther, towards pointing
//! straight out, which the push at the root with lever 5 once did).

use crate::common::World;
use alloc::vec::Vec;
use tress_core::collide::{Collider, clearance_point};
use tress_core::math::{Quat, Real, Vec3};
use tress_core::spring::{
    ChainDesc, ContactMode, FlatLock, JointDesc, JointOutput, JointParams, Mode, Pose,
};

/// Segments of the chain and their length.
const SEGMENTS: usize = 4;
const LEN: Real = 0.04;
/// Hit radius of every joint.
const HIT: Real = 0.01;
/// Allowed overlap of a tail at rest (Improved, Earlier), issue #25 item 2:
/// outside, or on the surface within 0.1 mm. These springs pull the first
/// tail about 3 mm into the collider per substep (`k |r − x| h²` = 3000 ·
/// 14 mm / 120²); a push followed by the length projection left about a
/// fifth of it inside (0.08–0.19 mm here), because the projection pulls
/// the end back toward a root that is itself inside. Where the collider
/// holds the root the end is now turned about the root onto the surface
/// (`PreparedRound::rooted_end`): 0.000 mm, at exactly the least turn.
const TOLERANCE: Real = 1e-4;
/// VrmCompatible keeps three-vrm's single push along the contact normal
/// and renormalisation (0.5–0.9 mm here): repeating it where the collider
/// holds the root moved the three-vrm sample files whose roots sit inside
/// their sphere or capsule 16–22 mm off three-vrm, against the 1 mm parity
/// bound (docs/log/2026-12-03-rooted-contact-passes.md).
const VRM_TOLERANCE: Real = 1e-3;
/// Turn beyond the least one, in degrees, that still is not a kink: the
/// static sag of these springs (k = 3000 /s², g = 9.81 m/s²: about
/// 9.81 / 3000 rad ≈ 0.2° per unit lever, a few tenths of a degree over
/// the chain) plus the small angle a tail sits past the surface.
const KINK_MARGIN_DEG: Real = 2.0;

/// The five solver setups every case runs.
const SETUPS: [(Mode, ContactMode); 5] = [
    (Mode::Improved, ContactMode::Segment),
    (Mode::Improved, ContactMode::Tail),
    (Mode::Earlier, ContactMode::Segment),
    (Mode::Earlier, ContactMode::Tail),
    (Mode::VrmCompatible, ContactMode::Tail),
];

fn params(mode: Mode) -> JointParams {
    if mode == Mode::VrmCompatible {
        // VRMC values: stiffness 1, drag 0.4, a light gravity.
        JointParams {
            stiffness: 1.0,
            damping: 0.0,
            drag: 0.4,
            gravity: Vec3::new(0.0, -0.1, 0.0),
            hit_radius: HIT,
        }
    } else {
        JointParams {
            stiffness: 3000.0,
            damping: 40.0,
            drag: 0.4,
            gravity: Vec3::new(0.0, -9.81, 0.0),
            hit_radius: HIT,
        }
    }
}

/// A still world with `collider` and a straight chain hanging down from
/// `root`, stepped 3 s at 60 fps; its joint outputs.
fn settle(collider: Collider, root: Vec3, mode: Mode, contact: ContactMode) -> Vec<JointOutput> {
    let mut w = World::default();
    let head = w.add_frame(Pose::IDENTITY).unwrap();
    w.add_collider(head, collider).unwrap();
    let j = JointDesc {
        local_rot: Quat::IDENTITY,
        offset: Vec3::new(0.0, -LEN, 0.0),
        params: params(mode),
        flat: FlatLock::default(),
    };
    let desc = ChainDesc {
        frame: head,
        root_offset: root,
        mode,
        contact,
        ..ChainDesc::default()
    };
    w.add_chain(desc, &alloc::vec![j; SEGMENTS]).unwrap();
    for _ in 0..180 {
        w.advance(1.0 / 60.0);
    }
    let mut out = alloc::vec![JointOutput::default(); SEGMENTS];
    let n = w.outputs(0, &mut out);
    out.truncate(n);
    out
}

/// The least turn (degrees) of the rest direction `rest` at `root`,
/// towards the collider's outward normal at the root, that puts the tail
/// (one segment of [`LEN`]) outside: scanned in 0.01° steps.
fn least_turn(world: &tress_core::collide::WorldCollider, root: Vec3, rest: Vec3) -> Real {
    let out = clearance_point(world, root, HIT).1;
    let axis = rest.cross(out).normalize();
    (0..18_000)
        .map(|k| k as Real * 0.01)
        .find(|&deg| {
            let d = Quat::from_axis_angle(axis, deg.to_radians()) * rest;
            clearance_point(world, root + d * LEN, HIT).0 >= 0.0
        })
        .expect("some turn clears the collider")
}

/// Runs every setup against `collider` with the root at `root` and checks
/// the tails and the first segment's turn, printing a line per setup.
fn check(name: &str, collider: Collider, root: Vec3) {
    let world = collider.posed(Vec3::ZERO, Quat::IDENTITY, 1.0);
    assert!(
        clearance_point(&world, root, HIT).0 < -0.005,
        "{name}: the root must start well inside"
    );
    let rest = Vec3::NEG_Y;
    let least = least_turn(&world, root, rest);
    let mut failures = Vec::new();
    for (mode, contact) in SETUPS {
        let out = settle(collider, root, mode, contact);
        let worst = out
            .iter()
            .map(|o| clearance_point(&world, o.tail, HIT).0)
            .fold(Real::INFINITY, Real::min);
        let first = (out[0].tail - out[0].origin).normalize();
        let turned = first.angle_between(rest).to_degrees();
        println!(
            "{name} {mode:?}/{contact:?}: worst tail clearance {:.3} mm, first segment turned \
             {turned:.2}° (least turn that clears {least:.2}°)",
            worst * 1e3
        );
        let tolerance = if mode == Mode::VrmCompatible {
            VRM_TOLERANCE
        } else {
            TOLERANCE
        };
        if worst < -tolerance {
            failures.push(alloc::format!(
                "{mode:?}/{contact:?}: a tail {:.3} mm inside",
                -worst * 1e3
            ));
        }
        if turned > least + KINK_MARGIN_DEG {
            failures.push(alloc::format!(
                "{mode:?}/{contact:?}: first segment turned {turned:.2}° (least {least:.2}°)"
            ));
        }
    }
    assert!(failures.is_empty(), "{name}: {failures:?}");
}

#[test]
fn a_chain_rooted_inside_a_sphere_ends_outside_it() {
    // Head sphere r 10 cm; the root 3 mm under its surface at the back of
    // the head (13 mm inside the reach with the hit radius), hanging down.
    check(
        "sphere",
        Collider::sphere(Vec3::ZERO, 0.1),
        Vec3::new(0.0, 0.02, -0.095),
    );
}

#[test]
fn a_chain_rooted_inside_a_capsule_ends_outside_it() {
    // Upright head capsule r 9 cm; the root 5 mm under its side: the first
    // segment runs parallel to the axis, no deeper than its root.
    check(
        "capsule",
        Collider::capsule(Vec3::new(0.0, -0.03, 0.0), Vec3::new(0.0, 0.03, 0.0), 0.09),
        Vec3::new(0.0, 0.0, -0.085),
    );
}

#[test]
fn a_chain_rooted_outside_an_inside_capsule_ends_inside_it() {
    // For an inside shape "inside the collider" is outside the region it
    // keeps hair in: the root 1 cm beyond the wall of an upright inside
    // capsule r 20 cm (2 cm with the hit radius), its rest tail there too.
    // Inside shapes test only the free end, so every mode pulls the tails
    // back in; this pins that.
    check(
        "inside capsule",
        Collider::inside_capsule(Vec3::new(0.0, -0.3, 0.0), Vec3::new(0.0, 0.3, 0.0), 0.2),
        Vec3::new(0.0, 0.0, -0.21),
    );
}
