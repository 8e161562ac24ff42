//! Hair of the built-in avatar: spring-bone locks and the unrigged ponytail.
//!
//! Locks are grown from the scalp by a small marching procedure that starts
//! along the scalp normal, turns downward, and is pushed out of the head and
//! body shapes as it goes, so the authored rest pose never starts inside a
//! collider. Joints are then placed at equal arc length along the path.

use glam::Vec3;
use tress_core::math::ops;

use super::skeleton::{HEAD_CENTRE, HEAD_RADIUS};

/// A capsule (a sphere when `a == b`) that grown hair must stay outside of.
#[derive(Debug, Clone, Copy)]
pub struct Obstacle {
    /// Axis start.
    pub a: Vec3,
    /// Axis end.
    pub b: Vec3,
    /// Radius.
    pub r: f32,
}

impl Obstacle {
    fn push_out(&self, p: Vec3) -> Vec3 {
        let ab = self.b - self.a;
        let len2 = ab.length_squared();
        let t = if len2 > 0.0 {
            ((p - self.a).dot(ab) / len2).clamp(0.0, 1.0)
        } else {
            0.0
        };
        let c = self.a + ab * t;
        let d = p - c;
        let dist = d.length();
        if dist >= self.r || dist < 1e-9 {
            p
        } else {
            c + d * (self.r / dist)
        }
    }
}

/// Spring parameters of one lock (VRMC_springBone joint values).
#[derive(Debug, Clone, Copy)]
pub struct SpringParams {
    /// Return force toward the rest direction.
    pub stiffness: f32,
    /// Velocity damping, 0..1.
    pub drag: f32,
    /// Gravity strength.
    pub gravity: f32,
    /// Collision radius of each joint (metres).
    pub hit_radius: f32,
}

/// How a lock is grown and simulated.
#[derive(Debug, Clone, Copy)]
pub struct LockDef {
    /// Node name prefix, unique per lock.
    pub name: &'static str,
    /// Around the head from the front (+Z) toward the avatar's left (+X), degrees.
    pub azimuth_deg: f32,
    /// Above the head centre's horizontal plane, degrees.
    pub elevation_deg: f32,
    /// Arc length of the lock (metres).
    pub length: f32,
    /// Number of simulated segments (joints = segments + 1, the last a tip).
    pub segments: usize,
    /// Half-width of the lock's ribbon at the root (metres).
    pub width: f32,
    /// Extra push forward (+Z) while growing, so front locks fall in front of
    /// the shoulders rather than behind them.
    pub forward: f32,
    /// Spring values.
    pub spring: SpringParams,
    /// Whether the lock collides with the body group as well as the head.
    pub body_colliders: bool,
}

/// A grown lock: its joints (model space) and its mesh path.
#[derive(Debug, Clone)]
pub struct Lock {
    /// Definition it was grown from.
    pub def: LockDef,
    /// Joint positions, root first, tip last.
    pub joints: Vec<Vec3>,
    /// Dense centre line for the mesh.
    pub path: Vec<Vec3>,
}

const BANG: SpringParams = SpringParams {
    stiffness: 1.2,
    drag: 0.5,
    gravity: 0.3,
    hit_radius: 0.01,
};
const SIDE: SpringParams = SpringParams {
    stiffness: 0.9,
    drag: 0.45,
    gravity: 0.4,
    hit_radius: 0.012,
};
const LONG: SpringParams = SpringParams {
    stiffness: 0.6,
    drag: 0.4,
    gravity: 0.5,
    hit_radius: 0.015,
};

// A compact row constructor for the lock tables below.
#[allow(clippy::too_many_arguments)]
const fn lock(
    name: &'static str,
    azimuth_deg: f32,
    elevation_deg: f32,
    length: f32,
    segments: usize,
    width: f32,
    forward: f32,
    spring: SpringParams,
    body_colliders: bool,
) -> LockDef {
    LockDef {
        name,
        azimuth_deg,
        elevation_deg,
        length,
        segments,
        width,
        forward,
        spring,
        body_colliders,
    }
}

/// The standard hairstyle: four bangs, two side locks, two long front locks
/// that reach over the chest.
pub const STANDARD_LOCKS: [LockDef; 8] = [
    lock("HairBangL1", 14.0, 38.0, 0.11, 4, 0.028, 0.2, BANG, false),
    lock("HairBangR1", -14.0, 38.0, 0.11, 4, 0.028, 0.2, BANG, false),
    lock("HairBangL2", 38.0, 34.0, 0.12, 4, 0.028, 0.1, BANG, false),
    lock("HairBangR2", -38.0, 34.0, 0.12, 4, 0.028, 0.1, BANG, false),
    lock("HairSideL", 78.0, 18.0, 0.17, 4, 0.026, 0.0, SIDE, true),
    lock("HairSideR", -78.0, 18.0, 0.17, 4, 0.026, 0.0, SIDE, true),
    lock(
        "HairFrontLockL",
        55.0,
        12.0,
        0.36,
        6,
        0.016,
        0.6,
        LONG,
        true,
    ),
    lock(
        "HairFrontLockR",
        -55.0,
        12.0,
        0.36,
        6,
        0.016,
        0.6,
        LONG,
        true,
    ),
];

/// Extra back layers of the layered hairstyle (with the standard eight, 12 chains).
pub const LAYERED_EXTRA: [LockDef; 4] = [
    lock("HairBackL1", 150.0, 34.0, 0.40, 6, 0.03, -0.2, LONG, true),
    lock("HairBackL2", 170.0, 40.0, 0.42, 6, 0.03, -0.2, LONG, true),
    lock("HairBackR2", -170.0, 40.0, 0.42, 6, 0.03, -0.2, LONG, true),
    lock("HairBackR1", -150.0, 34.0, 0.40, 6, 0.03, -0.2, LONG, true),
];

/// Unit direction from the head centre at an azimuth/elevation.
#[must_use]
pub fn scalp_dir(azimuth_deg: f32, elevation_deg: f32) -> Vec3 {
    let (sa, ca) = ops::sin_cos(azimuth_deg.to_radians());
    let (se, ce) = ops::sin_cos(elevation_deg.to_radians());
    Vec3::new(ce * sa, se, ce * ca)
}

/// Grows a lock's rest path from the scalp, keeping `clearance` off the head
/// and outside every obstacle.
#[must_use]
pub fn grow_path(def: &LockDef, clearance: f32, obstacles: &[Obstacle]) -> Vec<Vec3> {
    let shell = HEAD_RADIUS + clearance;
    let head = Obstacle {
        a: HEAD_CENTRE,
        b: HEAD_CENTRE,
        r: shell,
    };
    let step = 0.004;
    let mut p = HEAD_CENTRE + scalp_dir(def.azimuth_deg, def.elevation_deg) * shell;
    let mut path = vec![p];
    let steps = ops::round(def.length / step) as usize;
    for i in 1..=steps {
        let s = i as f32 * step;
        let turn = (s / 0.08).min(1.0);
        let out = (p - HEAD_CENTRE).normalize_or(Vec3::Y);
        let dir = (out * (1.0 - turn) * 0.7
            + Vec3::NEG_Y * (0.3 + 0.7 * turn)
            + Vec3::Z * def.forward * (1.0 - turn * 0.5))
            .normalize_or(Vec3::NEG_Y);
        let mut q = p + dir * step;
        for _ in 0..3 {
            q = head.push_out(q);
            for o in obstacles {
                q = o.push_out(q);
            }
            // Keep each step's length so the path's arc length is the lock's.
            q = p + (q - p).normalize_or(dir) * step;
        }
        path.push(q);
        p = q;
    }
    path
}

/// Catmull-Rom spline through `points`, `per_span` samples per span.
#[must_use]
pub fn catmull_rom(points: &[Vec3], per_span: usize) -> Vec<Vec3> {
    let n = points.len();
    let mut out = Vec::new();
    for i in 0..n - 1 {
        let p0 = points[i.saturating_sub(1)];
        let (p1, p2) = (points[i], points[i + 1]);
        let p3 = points[(i + 2).min(n - 1)];
        for k in 0..per_span {
            let t = k as f32 / per_span as f32;
            let (t2, t3) = (t * t, t * t * t);
            out.push(
                0.5 * ((2.0 * p1)
                    + (p2 - p0) * t
                    + (2.0 * p0 - 5.0 * p1 + 4.0 * p2 - p3) * t2
                    + (3.0 * p1 - p0 - 3.0 * p2 + p3) * t3),
            );
        }
    }
    out.push(points[n - 1]);
    out
}

/// The ponytail's centre line: from the back of the head, out and down the back.
#[must_use]
pub fn ponytail_path() -> Vec<Vec3> {
    let root = HEAD_CENTRE + scalp_dir(180.0, 25.0) * (HEAD_RADIUS - 0.005);
    let c = HEAD_CENTRE;
    let pts = [
        root,
        c + Vec3::new(0.0, 0.06, -0.14),
        c + Vec3::new(0.0, 0.01, -0.19),
        c + Vec3::new(0.005, -0.10, -0.21),
        c + Vec3::new(0.01, -0.22, -0.195),
        c + Vec3::new(0.015, -0.34, -0.17),
        c + Vec3::new(0.02, -0.44, -0.155),
    ];
    catmull_rom(&pts, 12)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grown_locks_keep_their_length_and_stay_off_the_head() {
        for def in STANDARD_LOCKS.iter().chain(&LAYERED_EXTRA) {
            let path = grow_path(def, 0.02, &[]);
            let len: f32 = path.windows(2).map(|w| (w[1] - w[0]).length()).sum();
            assert!((len - def.length).abs() < 0.005, "{}: {len}", def.name);
            for p in &path {
                assert!(
                    (*p - HEAD_CENTRE).length() >= HEAD_RADIUS + 0.0199,
                    "{}",
                    def.name
                );
            }
        }
    }
}
