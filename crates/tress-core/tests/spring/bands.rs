//! Bands (`spring::band`): neighbouring chains held to their rest spacing,
//! and the cloth line between them kept out of colliders. Issue #19, the
//! skirt: a thigh pushed one chain while its neighbours stayed, and the
//! cloth between them stretched by the difference.
//!
//! Two straight chains of three 10 cm segments hang 10 cm apart (x = ±5 cm)
//! from a still frame; a second frame carries a collider that moves in.

use alloc::vec::Vec;
use tress_core::collide::{Collider, clearance_point, clearance_segment};
use tress_core::math::{Quat, Real, Vec3, ops, quat};
use tress_core::spring::{
    BandLink, ChainDesc, ContactMode, FlatLock, JointDesc, JointParams, Mode, Pose, SetupError,
};

use crate::common::{World, outputs, stiff_params};

const SEG: Real = 0.1;
const GAP: Real = 0.1;
const HIT: Real = 0.01;
const STRETCH: Real = 0.05;

fn at(p: Vec3) -> Pose {
    Pose::new(p, Quat::IDENTITY)
}

fn params(mode: Mode) -> JointParams {
    if mode == Mode::VrmCompatible {
        JointParams {
            stiffness: 1.0,
            drag: 0.4,
            gravity: Vec3::new(0.0, -0.5, 0.0),
            ..stiff_params()
        }
    } else {
        JointParams {
            // A skirt's springs: soft, so a push carries far.
            stiffness: 200.0,
            damping: 8.0,
            drag: 0.4,
            gravity: Vec3::new(0.0, -9.81, 0.0),
            hit_radius: HIT,
        }
    }
}

/// Frame 0 holds the chains (A at +x, B at −x), frame 1 the collider;
/// `mask_a`/`mask_b`: whether the collider acts on A / B.
fn two_chains(mode: Mode, shape: Collider, mask_a: bool, mask_b: bool, link: bool) -> World {
    let mut w = World::default();
    let hips = w.add_frame(Pose::IDENTITY).unwrap();
    let mover = w.add_frame(at(Vec3::new(0.0, 0.0, 0.4))).unwrap();
    w.add_collider(mover, shape).unwrap();
    let joints: Vec<JointDesc> = (0..3)
        .map(|_| JointDesc {
            offset: Vec3::new(0.0, -SEG, 0.0),
            params: params(mode),
            flat: FlatLock::default(),
            ..JointDesc::default()
        })
        .collect();
    for (x, on) in [(0.5 * GAP, mask_a), (-0.5 * GAP, mask_b)] {
        let desc = ChainDesc {
            frame: hips,
            root_offset: Vec3::new(x, 0.0, 0.0),
            mode,
            contact: if mode == Mode::VrmCompatible {
                ContactMode::Tail
            } else {
                ContactMode::Segment
            },
            collider_mask: u64::from(on),
            ..ChainDesc::default()
        };
        w.add_chain(desc, &joints).unwrap();
    }
    if link {
        w.add_band_link(BandLink::new(0, 1, STRETCH)).unwrap();
    }
    w
}

/// The mover's pose at substep `i`: from z = 0.4 m to its stop over 1 s,
/// then still.
fn mover_at(stop: Vec3, i: u64) -> Pose {
    let s = (i as Real / 120.0).min(1.0);
    at(Vec3::new(0.0, 0.0, 0.4).lerp(stop, s))
}

fn run(w: &mut World, stop: Vec3, fps: u32, seconds: Real) {
    let frames = (seconds * fps as Real) as usize;
    for _ in 0..frames {
        w.advance_sampled(1.0 / fps as Real, |frame, i| {
            if frame == 0 {
                Pose::IDENTITY
            } else {
                mover_at(stop, i)
            }
        });
    }
}

/// Joint ends of chain `c`, root first (the root included).
fn points(w: &World, c: usize) -> Vec<Vec3> {
    let out = outputs(w, c);
    core::iter::once(out[0].origin)
        .chain(out.iter().map(|o| o.tail))
        .collect()
}

/// Largest ratio of the distance between matching joints of A and B to
/// its rest value (the gap).
fn worst_spread(w: &World) -> Real {
    let (a, b) = (points(w, 0), points(w, 1));
    a.iter()
        .zip(&b)
        .map(|(p, q)| p.distance(*q) / GAP)
        .fold(0.0, Real::max)
}

#[test]
fn a_pushed_chain_takes_its_neighbour_along() {
    // A sphere that acts on A alone comes in level with A's middle joint
    // and stops between the chains: A is pushed out to +x, away from B,
    // which it does not touch.
    let sphere = Collider::sphere(Vec3::ZERO, 0.08);
    let stop = Vec3::new(0.0, -0.2, 0.0);
    for mode in [Mode::Improved, Mode::Earlier] {
        let mut alone = two_chains(mode, sphere, true, false, false);
        run(&mut alone, stop, 60, 2.0);
        let spread_alone = worst_spread(&alone);
        let mut linked = two_chains(mode, sphere, true, false, true);
        run(&mut linked, stop, 60, 2.0);
        let spread = worst_spread(&linked);
        println!("{mode:?}: spread {spread_alone:.3} alone, {spread:.4} linked");
        // The push matters (otherwise the test shows nothing) ...
        assert!(spread_alone > 1.3, "{mode:?}: alone {spread_alone}");
        // ... and the link holds it to its stretch.
        assert!(spread <= 1.0 + STRETCH + 1e-3, "{mode:?}: linked {spread}");
        // Bones keep their lengths, and A stays out of the sphere.
        let world_sphere = stop;
        for c in 0..2 {
            let p = points(&linked, c);
            for s in p.windows(2) {
                assert!(
                    (s[0].distance(s[1]) - SEG).abs() < 1e-4,
                    "{mode:?}: bone length"
                );
            }
        }
        for (k, q) in points(&linked, 0).iter().enumerate().skip(1) {
            let clear = q.distance(world_sphere) - 0.08 - HIT;
            assert!(clear > -1e-4, "{mode:?}: joint {k} of A {clear} inside");
        }
        // B went along: its tip moved 3 cm or more the way A's did.
        let rest_tip = |x: Real| Vec3::new(x, -3.0 * SEG, 0.0);
        let a_moved = points(&linked, 0)[3] - rest_tip(0.5 * GAP);
        let b_moved = points(&linked, 1)[3] - rest_tip(-0.5 * GAP);
        let along = b_moved.dot(a_moved.normalize());
        println!("{mode:?}: A's tip moved {a_moved}, B's {along:.4} along it");
        assert!(
            along > 0.03,
            "{mode:?}: B's tip moved {along} with A ({a_moved})"
        );
    }
}

#[test]
fn the_cloth_between_two_chains_stays_out_of_a_capsule() {
    // A post between the chains (radius 3 cm: with the hit radius it fits
    // through the 10 cm gap untouched) comes in from the front and stops
    // where the chains hang.
    let post = Collider::capsule(Vec3::new(0.0, 0.05, 0.0), Vec3::new(0.0, -0.4, 0.0), 0.03);
    let stop = Vec3::ZERO;
    let world_post = |_: &World| post.posed(stop, Quat::IDENTITY, 1.0);
    for mode in [Mode::Improved, Mode::Earlier] {
        let deepest = |w: &World| {
            let (a, b) = (points(w, 0), points(w, 1));
            let c = world_post(w);
            a.iter()
                .zip(&b)
                .skip(1)
                .map(|(p, q)| clearance_segment(&c, *p, *q, 0.0).0)
                .fold(Real::INFINITY, Real::min)
        };
        let mut alone = two_chains(mode, post, true, true, false);
        run(&mut alone, stop, 60, 2.0);
        let mut linked = two_chains(mode, post, true, true, true);
        run(&mut linked, stop, 60, 2.0);
        let (d_alone, d_linked) = (deepest(&alone), deepest(&linked));
        println!("{mode:?}: cloth line clearance {d_alone:.4} alone, {d_linked:.5} linked");
        assert!(
            d_alone < -0.02,
            "{mode:?}: the post passes between the chains alone"
        );
        assert!(
            d_linked > -1e-3,
            "{mode:?}: cloth line {d_linked} inside the post"
        );
        assert!(worst_spread(&linked) <= 1.0 + STRETCH + 1e-3);
        // Nothing left inside as points either.
        let c = world_post(&linked);
        for ch in 0..2 {
            for q in points(&linked, ch).iter().skip(1) {
                assert!(clearance_point(&c, *q, HIT).0 > -1e-3, "{mode:?}");
            }
        }
    }
}

#[test]
fn banded_chains_give_the_same_bits_at_any_frame_rate() {
    let sphere = Collider::sphere(Vec3::ZERO, 0.08);
    let stop = Vec3::new(0.5 * GAP, -0.2, 0.0);
    let bits = |w: &World| -> Vec<[u32; 3]> {
        (0..2)
            .flat_map(|c| points(w, c))
            .map(|p| [p.x.to_bits(), p.y.to_bits(), p.z.to_bits()])
            .collect()
    };
    let mut runs = Vec::new();
    for fps in [30u32, 60, 120, 240] {
        let mut w = two_chains(Mode::Improved, sphere, true, false, true);
        run(&mut w, stop, fps, 1.5);
        runs.push(bits(&w));
    }
    for r in &runs[1..] {
        assert_eq!(r, &runs[0], "banded states differ between frame rates");
    }
}

#[test]
fn vrm_compatible_chains_ignore_links() {
    let sphere = Collider::sphere(Vec3::ZERO, 0.08);
    let stop = Vec3::new(0.5 * GAP, -0.2, 0.0);
    let mut alone = two_chains(Mode::VrmCompatible, sphere, true, false, false);
    let mut linked = two_chains(Mode::VrmCompatible, sphere, true, false, true);
    run(&mut alone, stop, 60, 1.0);
    run(&mut linked, stop, 60, 1.0);
    assert_eq!(points(&alone, 0), points(&linked, 0));
    assert_eq!(points(&alone, 1), points(&linked, 1));
}

#[test]
fn bad_links_are_refused_and_bad_stretch_clamped() {
    let sphere = Collider::sphere(Vec3::ZERO, 0.08);
    let mut w = two_chains(Mode::Improved, sphere, true, false, false);
    let link = BandLink::new;
    assert_eq!(w.add_band_link(link(0, 0, 0.1)), Err(SetupError::BadIndex));
    assert_eq!(w.add_band_link(link(0, 7, 0.1)), Err(SetupError::BadIndex));
    // A chain on another frame cannot be linked.
    let other = ChainDesc {
        frame: 1,
        ..ChainDesc::default()
    };
    let c = w.add_chain(other, &[JointDesc::default()]).unwrap();
    assert_eq!(w.add_band_link(link(0, c, 0.1)), Err(SetupError::BadIndex));
    w.add_band_link(link(0, 1, Real::NAN)).unwrap();
    // A linked chain moved to another frame later is no longer held.
    let mut moved = two_chains(Mode::Improved, sphere, true, false, true);
    let mut alone = two_chains(Mode::Improved, sphere, true, false, false);
    for world in [&mut moved, &mut alone] {
        let mut d = world.chain_desc(0).unwrap();
        d.frame = 1;
        world.set_chain_desc(0, d).unwrap();
        run(world, Vec3::new(0.0, -0.2, 0.0), 60, 0.5);
    }
    assert_eq!(points(&moved, 0), points(&alone, 0));
    assert_eq!(points(&moved, 1), points(&alone, 1));
    w.add_band_link(link(1, 0, 7.0)).unwrap();
    let stretches: Vec<Real> = w.band_links().iter().map(|l| l.stretch).collect();
    assert_eq!(stretches, [0.0, 1.0]);
    // NaN poses and a one-second frame leave banded chains finite.
    w.set_frame_pose(1, at(Vec3::splat(Real::NAN)));
    w.advance(1.0);
    w.advance(1.0 / 60.0);
    for ch in 0..2 {
        assert!(points(&w, ch).iter().all(|p| p.is_finite()));
    }
    w.clear_band_links();
    assert!(w.band_links().is_empty());
}

/// Two linked chains as `two_chains` builds them (no collider acts), A's
/// gravity tilted along +x, away from B: A leans sideways in the band's
/// plane and drags B along, and with the joint pairs alone each quad
/// between them leans into a parallelogram, one diagonal growing.
fn leaning_pair(shear: Option<Real>) -> World {
    let sphere = Collider::sphere(Vec3::ZERO, 0.08);
    let mut w = two_chains(Mode::Improved, sphere, false, false, false);
    let lean = JointParams {
        gravity: Vec3::new(6.0, -9.81, 0.0),
        ..params(Mode::Improved)
    };
    for j in 0..3 {
        w.set_joint_params(0, j, lean).unwrap();
    }
    w.add_band_link(BandLink {
        shear,
        ..BandLink::new(0, 1, 0.0)
    })
    .unwrap();
    w
}

/// Largest ratio of a quad diagonal (joint `k − 1` of one chain to joint
/// `k` of the other, joints after the roots) to its rest length.
fn worst_diagonal(w: &World) -> Real {
    let (a, b) = (points(w, 0), points(w, 1));
    let rest = tress_core::math::ops::sqrt(GAP * GAP + SEG * SEG);
    (2..a.len())
        .flat_map(|k| [a[k - 1].distance(b[k]), a[k].distance(b[k - 1])])
        .map(|d| d / rest)
        .fold(0.0, Real::max)
}

#[test]
fn shear_links_hold_the_quads_diagonals() {
    const SHEAR: Real = 0.02;
    let mut free = leaning_pair(None);
    let mut held = leaning_pair(Some(SHEAR));
    let (mut worst_free, mut worst_held) = (0.0, 0.0);
    for _ in 0..120 {
        free.advance(1.0 / 60.0);
        held.advance(1.0 / 60.0);
        worst_free = Real::max(worst_free, worst_diagonal(&free));
        worst_held = Real::max(worst_held, worst_diagonal(&held));
    }
    println!("worst diagonal over rest: {worst_free:.4} free, {worst_held:.4} held");
    // The lean shears the quads when nothing holds the diagonals (else the
    // test shows nothing) ...
    assert!(worst_free > 1.0 + 3.0 * SHEAR, "free {worst_free}");
    // ... the shear links hold them to their allowance, after every frame
    // (the chain walks that follow the links may leave a rounding's worth) ...
    assert!(worst_held <= 1.0 + SHEAR + 1e-3, "held {worst_held}");
    // ... and the joint pairs and bone lengths still hold.
    assert!(worst_spread(&held) <= 1.0 + 1e-3);
    for c in 0..2 {
        for s in points(&held, c).windows(2) {
            assert!((s[0].distance(s[1]) - SEG).abs() < 1e-4, "bone length");
        }
    }
}

#[test]
fn shear_is_clamped_and_a_bad_one_is_none() {
    let sphere = Collider::sphere(Vec3::ZERO, 0.08);
    let mut w = two_chains(Mode::Improved, sphere, false, false, false);
    for shear in [Some(-1.0), Some(5.0), Some(Real::NAN), None] {
        w.add_band_link(BandLink {
            shear,
            ..BandLink::new(0, 1, 0.0)
        })
        .unwrap();
    }
    let shears: Vec<Option<Real>> = w.band_links().iter().map(|l| l.shear).collect();
    assert_eq!(shears, [Some(0.0), Some(1.0), None, None]);
}

/// The angle (radians) between the parts of `a` and `b` square to the unit
/// `axis`.
fn angle_across(axis: Vec3, a: Vec3, b: Vec3) -> Real {
    let (a, b) = (a - axis * axis.dot(a), b - axis * axis.dot(b));
    ops::atan2(a.cross(b).length(), a.dot(b))
}

#[test]
fn banded_bones_turn_so_the_ring_crosses_their_roots_as_at_rest() {
    // The sphere stops beside A and behind the chains' plane, so A swings
    // out and back, off the plane the band's tangent (B − A, along −x at
    // rest) lies in: the shortest arc then carries the rest tangent off
    // the line to B. With the band, each bone of both chains is turned
    // about its segment until the rest tangent, as the bone carries it,
    // lies along B − A at the bone's root row (`spring::band_twist`); the
    // bone still points along its segment, and local rotations follow.
    let sphere = Collider::sphere(Vec3::ZERO, 0.08);
    let stop = Vec3::new(0.0, -0.2, -0.05);
    let mut w = two_chains(Mode::Improved, sphere, true, false, true);
    run(&mut w, stop, 60, 1.5);
    let rest_tangent = Vec3::new(-GAP, 0.0, 0.0);
    let (rows_a, rows_b) = (points(&w, 0), points(&w, 1));
    let mut arc_off: Real = 0.0;
    for c in 0..2 {
        let mut parent = Quat::IDENTITY;
        for (i, o) in outputs(&w, c).iter().enumerate() {
            let axis = (o.tail - o.origin).normalize();
            let tangent = rows_b[i] - rows_a[i];
            let carried = quat::rotate(o.world_rot, rest_tangent);
            let off = angle_across(axis, carried, tangent);
            assert!(off < 1e-3, "chain {c} bone {i}: {off} rad off the ring");
            let along = quat::rotate(o.world_rot, Vec3::NEG_Y);
            assert!(along.distance(axis) < 1e-5, "chain {c} bone {i}: {along}");
            let from_parent = quat::mul(parent, o.local_rot);
            assert!(quat::dot(from_parent, o.world_rot).abs() > 1.0 - 1e-6);
            parent = o.world_rot;
            // Where the shortest arc alone would have left the tangent.
            let arc = quat::from_rotation_arc(Vec3::NEG_Y, axis);
            arc_off = arc_off.max(angle_across(axis, quat::rotate(arc, rest_tangent), tangent));
        }
    }
    println!(
        "the shortest arc left the ring {:.1}° off",
        arc_off.to_degrees()
    );
    assert!(
        arc_off > 5f32.to_radians(),
        "the push did not twist: {arc_off}"
    );
}

#[test]
fn band_twist_changes_nothing_at_rest() {
    // The sphere stays away: the banded chains hang as the unbanded ones,
    // rotations included.
    let sphere = Collider::sphere(Vec3::ZERO, 0.08);
    let far = Vec3::new(0.0, 0.0, 0.4);
    let mut linked = two_chains(Mode::Improved, sphere, true, true, true);
    let mut alone = two_chains(Mode::Improved, sphere, true, true, false);
    run(&mut linked, far, 60, 0.5);
    run(&mut alone, far, 60, 0.5);
    for c in 0..2 {
        for (a, b) in outputs(&linked, c).iter().zip(outputs(&alone, c)) {
            assert!(quat::dot(a.world_rot, b.world_rot).abs() > 1.0 - 1e-6);
            assert!(quat::dot(a.local_rot, b.local_rot).abs() > 1.0 - 1e-6);
            assert!(a.tail.distance(b.tail) < 1e-6);
        }
    }
}
