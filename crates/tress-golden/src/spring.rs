//! The spring scene: chains of every mode and contact kind around a moving
//! head and chest, stepped through sampled and interpolated frames.

use heapless::Vec;
use tress_core::collide::Collider;
use tress_core::math::{Quat, Real, Vec3, ops, quat};
use tress_core::spring::{
    ChainDesc, ContactMode, FlatLock, JointDesc, JointOutput, JointParams, Mode, Pose, SpringWorld,
    StepConfig,
};

use crate::Fnv;

/// The scene's world: 160 joints, 16 chains, 8 colliders, 2 frames.
pub type World = SpringWorld<160, 16, 8, 2>;

/// Most joints of one chain in the scene.
const MAX_CHAIN: usize = 8;

/// `n` segments of `len`: the first leaves its frame tilted `tilt` degrees,
/// each further one bends 8° back.
fn arc(
    n: usize,
    len: Real,
    tilt: Real,
    params: JointParams,
    flat: FlatLock,
) -> Vec<JointDesc, MAX_CHAIN> {
    (0..n)
        .map(|i| JointDesc {
            local_rot: Quat::from_rotation_x(if i == 0 { tilt } else { -8.0 }.to_radians()),
            offset: Vec3::new(0.0, -len, 0.0),
            params,
            flat,
        })
        .collect()
}

/// Head (frame 0) and chest (frame 1) with one collider of every shape, and
/// chains in every mode: Improved chains enough for full lane groups in both
/// contact modes, Earlier, drape, a flat lock with the lock twist, and
/// VRM-compatible chains with and without a center frame and the length
/// quirk.
///
/// # Panics
///
/// Never: the scene fits [`World`]'s capacities.
#[must_use]
pub fn scene(config: StepConfig) -> World {
    let mut w = World::new(config);
    let head = w
        .add_frame(Pose::new(Vec3::new(0.0, 1.6, 0.0), Quat::IDENTITY))
        .unwrap();
    let chest = w
        .add_frame(Pose::new(Vec3::new(0.0, 1.3, 0.0), Quat::IDENTITY))
        .unwrap();
    w.add_collider(head, Collider::sphere(Vec3::new(0.0, 0.05, 0.0), 0.1))
        .unwrap();
    w.add_collider(
        chest,
        Collider::capsule(
            Vec3::new(-0.12, 0.0, 0.02),
            Vec3::new(0.12, 0.0, 0.02),
            0.09,
        ),
    )
    .unwrap();
    w.add_collider(chest, Collider::plane(Vec3::new(0.0, 0.0, -0.06), Vec3::Z))
        .unwrap();
    w.add_collider(head, Collider::inside_sphere(Vec3::ZERO, 0.45))
        .unwrap();
    w.add_collider(
        chest,
        Collider::inside_capsule(Vec3::new(0.0, 0.4, 0.0), Vec3::new(0.0, -0.3, 0.0), 0.5),
    )
    .unwrap();
    let soft = JointParams {
        stiffness: 400.0,
        damping: 22.0,
        drag: 0.4,
        gravity: Vec3::new(0.0, -9.81, 0.0),
        hit_radius: 0.01,
    };
    let vrm = JointParams {
        stiffness: 1.0,
        drag: 0.3,
        gravity: Vec3::new(0.0, -1.0, 0.0),
        ..soft
    };
    let round = FlatLock::default();
    // Improved, segment contact: eight chains around the back of the head
    // (one eight-lane group, or two of four).
    for i in 0..8 {
        let a = (i as Real - 3.5) * 0.3;
        let desc = ChainDesc {
            frame: head,
            root_offset: Vec3::new(0.09 * ops::sin(a), 0.06, -0.09 * ops::cos(a)),
            contact: ContactMode::Segment,
            ..ChainDesc::default()
        };
        w.add_chain(desc, &arc(4 + i % 3, 0.05, 40.0, soft, round))
            .unwrap();
    }
    // Improved, tail contact: three chains at the sides.
    for i in 0..3 {
        let x = (i as Real - 1.0) * 0.08;
        let desc = ChainDesc {
            frame: head,
            root_offset: Vec3::new(x, 0.08, 0.07),
            ..ChainDesc::default()
        };
        w.add_chain(desc, &arc(5, 0.04, 70.0, soft, round)).unwrap();
    }
    let back = |x: Real| Vec3::new(x, 0.04, -0.1);
    let one = |mode, root_offset, drape, center, quirk| ChainDesc {
        frame: head,
        root_offset,
        mode,
        contact: ContactMode::Segment,
        center,
        vrm_length_quirk: quirk,
        drape,
        ..ChainDesc::default()
    };
    w.add_chain(
        one(Mode::Earlier, back(0.0), false, None, false),
        &arc(6, 0.05, 30.0, soft, round),
    )
    .unwrap();
    w.add_chain(
        one(Mode::Improved, back(0.03), true, None, false),
        &arc(7, 0.05, 20.0, soft, round),
    )
    .unwrap();
    // A flat lock 4 cm wide that holds its bends (the rig's rate) and whose
    // bone outputs take the lock twist.
    let flat = FlatLock {
        width_axis: Vec3::X,
        stiffness: 83.0,
        half_width: 0.02,
        bend: tress_core::spring::FLAT_BEND,
    };
    w.add_chain(
        ChainDesc {
            twist: true,
            ..one(Mode::Improved, back(-0.03), false, None, false)
        },
        &arc(6, 0.05, 25.0, soft, flat),
    )
    .unwrap();
    w.add_chain(
        one(Mode::VrmCompatible, back(0.06), false, None, false),
        &arc(5, 0.05, 35.0, vrm, round),
    )
    .unwrap();
    w.add_chain(
        one(Mode::VrmCompatible, back(-0.06), false, Some(chest), true),
        &arc(5, 0.05, 35.0, vrm, round),
    )
    .unwrap();
    w.set_scale(1.1);
    w
}

/// Head and chest as functions of the substep index (`i / 120` s): a turn,
/// a nod and a sway.
#[must_use]
pub fn pose(frame: usize, i: u64) -> Pose {
    let t = i as Real / 120.0;
    if frame == 0 {
        Pose::new(
            Vec3::new(
                0.06 * ops::sin(2.5 * t),
                1.6 + 0.02 * ops::sin(7.0 * t),
                0.0,
            ),
            quat::mul(
                Quat::from_rotation_y(1.1 * ops::sin(3.0 * t)),
                Quat::from_rotation_x(0.4 * ops::sin(5.0 * t)),
            ),
        )
    } else {
        Pose::new(
            Vec3::new(0.06 * ops::sin(2.5 * t), 1.3, 0.03 * ops::sin(1.5 * t)),
            Quat::from_rotation_y(0.3 * ops::sin(1.7 * t)),
        )
    }
}

/// Hashes every chain's outputs and joint states, chain by chain.
pub fn hash(w: &World, h: &mut Fnv) {
    let mut out = [JointOutput::default(); 16];
    for c in 0..w.chain_count() {
        let n = w.outputs(c, &mut out);
        for o in &out[..n] {
            h.vec3(o.origin);
            h.vec3(o.tail);
            h.quat(o.world_rot);
            h.quat(o.local_rot);
        }
        for j in 0..w.chain_len(c) {
            let (x, v) = w.joint_state(c, j).unwrap();
            h.vec3(x);
            h.vec3(v);
        }
    }
}

/// The scene's digest with `config` (and `lane_width`, if given): 2 s of
/// sampled motion at 60 fps, then 1 s of interpolated frames of uneven
/// length with a pause (five frames held with `hold`, then `resume`), a
/// hitch (more than `max_substeps`) and a teleport.
///
/// # Panics
///
/// If a chain's root did not move or went non-finite.
#[must_use]
pub fn digest(config: StepConfig, lane_width: Option<usize>) -> u64 {
    let mut w = scene(config);
    if let Some(l) = lane_width {
        w.set_lane_width(l);
    }
    let mut h = Fnv::new();
    let start: Vec<Vec3, 16> = (0..w.chain_count())
        .map(|c| w.joint_state(c, 0).unwrap().0)
        .collect();
    for _ in 0..120 {
        w.advance_sampled(1.0 / 60.0, pose);
        hash(&w, &mut h);
    }
    let frames = [0.016f32, 0.007, 0.033, 0.0125, 0.2, 0.016, 0.021, 0.004];
    let mut i = 240u64;
    for f in 0..60 {
        let dt = frames[f % frames.len()];
        i += 2;
        let mut head = pose(0, i);
        if f == 40 {
            head.pos.x += 3.0;
        }
        w.set_frame_pose(0, head);
        w.set_frame_pose(1, pose(1, i));
        if (20..25).contains(&f) {
            w.hold();
        } else {
            if f == 25 {
                w.resume();
            }
            w.advance(dt);
        }
        hash(&w, &mut h);
    }
    for (c, s) in start.iter().enumerate() {
        let (x, v) = w.joint_state(c, 0).unwrap();
        assert!(
            x.is_finite() && v.is_finite() && x != *s,
            "chain {c} did not move"
        );
    }
    h.0
}
