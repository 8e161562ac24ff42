//! Shared fixtures: a hairstyle arc hanging from the back of a head.

use alloc::vec::Vec;
use tress_core::math::{Quat, Real, Vec3};
use tress_core::spring::{
    ChainDesc, ContactMode, FlatLock, JointDesc, JointOutput, JointParams, Mode, Pose, SpringWorld,
};

pub type World = SpringWorld<64, 8, 8, 4>;

/// Head yaw of `deg` degrees.
pub fn yaw(deg: Real) -> Quat {
    Quat::from_rotation_y(deg.to_radians())
}

/// Parameters of the curl/settle fixture: stiff enough that the static sag
/// per segment is a few degrees, and damped (c ≈ 0.7 √k) so that a segment's
/// resonance does not amplify its parent's swing down the chain.
pub fn stiff_params() -> JointParams {
    JointParams {
        stiffness: 3000.0,
        damping: 40.0,
        drag: 0.4,
        gravity: Vec3::new(0.0, -9.81, 0.0),
        hit_radius: 0.005,
    }
}

/// [`stiff_params`] for Improved and Earlier chains; for VRM-compatible
/// ones, VRMC values a VRM file would carry (stiffness 1, drag 0.3,
/// gravity power 1 down), where 3000 would hold the hair rigid.
pub fn params_for(mode: Mode) -> JointParams {
    if mode == Mode::VrmCompatible {
        JointParams {
            stiffness: 1.0,
            drag: 0.3,
            gravity: Vec3::new(0.0, -1.0, 0.0),
            ..stiff_params()
        }
    } else {
        stiff_params()
    }
}

/// `n` segments of `len` metres: the first leaves the head tilted 40° back,
/// each further one bends 10° towards vertical — a typical back-hair arc.
pub fn arc(n: usize, len: Real, params: JointParams) -> Vec<JointDesc> {
    (0..n)
        .map(|i| JointDesc {
            local_rot: Quat::from_rotation_x(if i == 0 {
                40.0_f32.to_radians()
            } else {
                -10.0_f32.to_radians()
            }),
            offset: Vec3::new(0.0, -len, 0.0),
            params,
            flat: FlatLock::default(),
        })
        .collect()
}

/// A world with one head frame at the origin and one arc chain.
pub fn world_with(
    mode: Mode,
    contact: ContactMode,
    n: usize,
    len: Real,
    params: JointParams,
) -> World {
    let mut w = World::default();
    let head = w.add_frame(Pose::IDENTITY).unwrap();
    let desc = ChainDesc {
        frame: head,
        root_offset: Vec3::new(0.0, 0.05, -0.09),
        mode,
        contact,
        ..ChainDesc::default()
    };
    w.add_chain(desc, &arc(n, len, params)).unwrap();
    w
}

/// A world with one frame at the origin and a straight lock of `n`
/// segments of `len` hanging down from it (Improved, whole-segment
/// contact, soft springs), each joint with `flat`, the chain with `drape`.
pub fn straight_lock(n: usize, len: Real, flat: FlatLock, drape: bool) -> World {
    let mut w = World::default();
    let head = w.add_frame(Pose::IDENTITY).unwrap();
    let params = JointParams {
        stiffness: 400.0,
        damping: 20.0,
        ..stiff_params()
    };
    let joints: Vec<JointDesc> = (0..n)
        .map(|_| JointDesc {
            local_rot: Quat::IDENTITY,
            offset: Vec3::new(0.0, -len, 0.0),
            params,
            flat,
        })
        .collect();
    w.add_chain(
        ChainDesc {
            frame: head,
            mode: Mode::Improved,
            contact: ContactMode::Segment,
            drape,
            ..ChainDesc::default()
        },
        &joints,
    )
    .unwrap();
    w
}

/// The chain's joint outputs.
pub fn outputs(w: &World, chain: usize) -> Vec<JointOutput> {
    let mut out = alloc::vec![JointOutput::default(); w.chain_len(chain)];
    let n = w.outputs(chain, &mut out);
    out.truncate(n);
    out
}

/// Rest arc end points carried rigidly by `head` (the chain of [`world_with`]).
pub fn rest_arc(head: &Pose, n: usize, len: Real, scale: Real) -> Vec<Vec3> {
    let mut rot = Quat::IDENTITY;
    let mut o = head.transform_point(Vec3::new(0.0, 0.05, -0.09) * scale);
    arc(n, len, JointParams::default())
        .iter()
        .map(|d| {
            rot *= d.local_rot;
            o += head.rot * (rot * d.offset) * scale;
            o
        })
        .collect()
}

/// Largest distance between matching points.
pub fn max_dev(a: &[Vec3], b: &[Vec3]) -> Real {
    a.iter()
        .zip(b)
        .map(|(p, q)| (*p - *q).length())
        .fold(0.0, Real::max)
}

/// End points of chain 0.
pub fn tails(w: &World) -> Vec<Vec3> {
    outputs(w, 0).iter().map(|o| o.tail).collect()
}
