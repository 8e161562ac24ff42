//! The strand test scene: the procedural groom on the built-in head, with
//! head, neck and shoulder colliders and the turning-head motion that the
//! quality command, the benches and the demo all use.
//!
//! The head turns about the vertical axis through its centre: yaw
//! `±60° · sin(π t)` (2 s period) for 4 s, then holds still.

use glam::{Quat, Vec3};
use tress_core::collide::{Collider, WorldCollider};
use tress_core::math::ops;
use tress_core::strand::{LayoutError, Pose, Schedule, StrandParams, StrandSim};

use super::{Groom, GroomError, ProceduralGroom};

/// Seconds the head turns before holding still.
pub const TURN_SECONDS: f32 = 4.0;
/// Yaw amplitude, radians (60°).
pub const TURN_AMPLITUDE: f32 = core::f32::consts::FRAC_PI_3;

/// Head yaw at time `t` (seconds): `±60° sin(π t)` until [`TURN_SECONDS`], then 0.
#[must_use]
pub fn turning_yaw(t: f64) -> f32 {
    if t >= f64::from(TURN_SECONDS) || t <= 0.0 {
        0.0
    } else {
        TURN_AMPLITUDE * ops::sin(core::f32::consts::PI * t as f32)
    }
}

/// Head pose of the turning-head motion for a head centred at `centre`.
#[must_use]
pub fn turning_pose(centre: Vec3, t: f64) -> Pose {
    Pose::new(centre, Quat::from_rotation_y(turning_yaw(t)))
}

/// The head collider, in the head frame (origin at the head centre).
#[must_use]
pub fn head_colliders(radius: f32) -> [Collider; 1] {
    [Collider::sphere(Vec3::ZERO, radius)]
}

/// Neck and shoulder capsules in world space for a head at `centre` of
/// `radius` (they stay still while the head turns).
#[must_use]
pub fn body_colliders(centre: Vec3, radius: f32) -> [WorldCollider; 2] {
    let s = radius / 0.1;
    [
        Collider::capsule(
            centre + Vec3::new(0.0, -0.22, 0.0) * s,
            centre + Vec3::new(0.0, -0.07, 0.0) * s,
            0.05 * s,
        ),
        Collider::capsule(
            centre + Vec3::new(-0.16, -0.28, 0.0) * s,
            centre + Vec3::new(0.16, -0.28, 0.0) * s,
            0.08 * s,
        ),
    ]
    .map(|c| c.posed(Vec3::ZERO, Quat::IDENTITY, 1.0))
}

/// Every collider of the scene posed for head pose `pose`.
#[must_use]
pub fn posed_colliders(pose: &Pose, radius: f32) -> Vec<WorldCollider> {
    let mut v: Vec<WorldCollider> = head_colliders(radius)
        .iter()
        .map(|c| c.posed(pose.pos, pose.rot, 1.0))
        .collect();
    v.extend(body_colliders(pose.pos, radius));
    v
}

/// A simulator for `groom` (strands root first, in the same space as the
/// head at `centre`, rest rotation identity), resampled to `particles`.
///
/// # Errors
/// [`GroomError`] when resampling fails or the layout is out of range.
pub fn sim_for_groom(
    groom: &Groom,
    particles: usize,
    centre: Vec3,
    radius: f32,
    params: StrandParams,
    schedule: Schedule,
    colliders: bool,
) -> Result<StrandSim, GroomError> {
    let local =
        groom
            .resampled(particles)?
            .ordered_by_root()
            .transformed(1.0, Quat::IDENTITY, -centre);
    let pose = Pose::new(centre, Quat::IDENTITY);
    let mut sim = StrandSim::from_points(particles, local.points(), params, schedule, pose)
        .map_err(|e| match e {
            LayoutError::ParticlesOutOfRange(m) => GroomError::BadParticleCount(m),
            _ => GroomError::Empty,
        })?;
    if colliders {
        sim.set_head_colliders(&head_colliders(radius));
        sim.set_world_colliders(&body_colliders(centre, radius));
    }
    Ok(sim)
}

/// The standard scene: [`ProceduralGroom::default`] (6,000 × 16) with the
/// given parameters; colliders unless `params` is the baseline (no passes).
///
/// # Panics
/// Never for the default groom (its counts are in range).
#[must_use]
pub fn standard_sim(
    groom: &ProceduralGroom,
    params: StrandParams,
    schedule: Schedule,
) -> StrandSim {
    let colliders = params.passes.collision > 0 || params.collide_in_length;
    sim_for_groom(
        &groom.generate(),
        groom.particles,
        groom.head_centre,
        groom.head_radius,
        params,
        schedule,
        colliders,
    )
    .expect("the procedural groom always fits the solver")
}
