//! Which spring bones carry a flat lock, and which way it is wide.
//!
//! A bone's lock is the skinned geometry it owns (vertices whose largest
//! weight is on it) at the rest pose. Seen down the bone, a hair card or
//! ribbon is much wider than thick; a tube is round. The spread of the
//! owned vertices across the bone (a 2×2 covariance in the plane
//! perpendicular to the segment) gives the width axis and the aspect ratio;
//! bones whose lock is at least [`MIN_ASPECT`] times wider than thick get
//! a [`FlatLock`](tress_core::spring::FlatLock) in the solver.

use alloc::collections::BTreeMap;

use glam::{Mat4, Vec3};
use tress_core::math::{affine, ops, quat};

use tress_vrm::model::Avatar;

/// Width-to-thickness ratio (square root of the covariance eigenvalues'
/// ratio) from which a lock counts as flat.
pub const MIN_ASPECT: f32 = 2.0;
/// Fewest owned vertices that make a shape worth reading.
pub const MIN_VERTICES: usize = 6;

/// One bone's lock as seen down the bone.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LockShape {
    /// Width axis in the bone's local space (unit).
    pub width_axis: Vec3,
    /// Width-to-thickness ratio.
    pub aspect: f32,
    /// Half the lock's width: the largest distance of an owned vertex from
    /// the bone's segment along the width axis, m (world, at rest).
    pub half_width: f32,
    /// Owned vertices (0: given by the avatar, not read from the skin).
    pub vertices: usize,
}

impl LockShape {
    /// Wide enough to be a flat lock ([`MIN_ASPECT`]).
    #[must_use]
    pub fn is_flat(&self) -> bool {
        self.aspect >= MIN_ASPECT
    }
}

fn rotation_of(m: &Mat4) -> glam::Quat {
    quat::normalize(affine::decompose(m).1)
}

/// The lock shape of every simulated spring bone that owns enough skinned
/// vertices, keyed by node.
#[must_use]
///
/// Where the avatar carries its lock shapes (`SpringSystem::locks`, from an
/// imported scene's spring config, which holds no mesh) those are returned
/// instead, so an imported scene's hair gets what the file's would.
pub fn lock_shapes(avatar: &Avatar) -> BTreeMap<usize, LockShape> {
    if !avatar.springs.locks.is_empty() {
        return avatar
            .springs
            .locks
            .iter()
            .filter(|l| {
                l.width_axis.is_finite() && l.aspect.is_finite() && l.half_width.is_finite()
            })
            .map(|l| {
                let shape = LockShape {
                    width_axis: l.width_axis.normalize_or_zero(),
                    aspect: l.aspect,
                    half_width: l.half_width.max(0.0),
                    vertices: 0,
                };
                (l.node, shape)
            })
            .collect();
    }
    let rest = avatar.rest_world();
    let pos = |n: usize| rest.get(n).map_or(Vec3::ZERO, |m| m.w_axis.truncate());
    // Segment of each simulated bone: origin and unit direction, world.
    let mut segments: BTreeMap<usize, (Vec3, Vec3)> = BTreeMap::new();
    for chain in &avatar.springs.chains {
        for i in 0..chain.simulated_len() {
            let node = chain.joints[i].node;
            let Some(m) = rest.get(node) else { continue };
            let end = match chain.joints.get(i + 1) {
                Some(next) => pos(next.node),
                None => {
                    m.transform_point3(chain.virtual_tail.unwrap_or(Vec3::new(0.0, -0.07, 0.0)))
                }
            };
            if let Some(d) = (end - pos(node)).try_normalize() {
                segments.insert(node, (pos(node), d));
            }
        }
    }
    // Owned rest positions per bone.
    let bones: alloc::collections::BTreeSet<usize> = segments.keys().copied().collect();
    let mut owned: BTreeMap<usize, Vec<Vec3>> = BTreeMap::new();
    for v in crate::skin::skinned_vertices(avatar, &bones) {
        let p = v.skin(&rest);
        if p.is_finite() {
            owned.entry(v.owner).or_default().push(p);
        }
    }
    let mut out = BTreeMap::new();
    for (node, points) in owned {
        let Some(&(origin, d)) = segments.get(&node) else {
            continue;
        };
        if points.len() < MIN_VERTICES {
            continue;
        }
        let e1 = d.any_orthonormal_vector();
        let e2 = d.cross(e1);
        let n = points.len() as f32;
        let proj: Vec<(f32, f32)> = points
            .iter()
            .map(|p| ((*p - origin).dot(e1), (*p - origin).dot(e2)))
            .collect();
        let (mx, my) = proj
            .iter()
            .fold((0.0, 0.0), |(a, b), (x, y)| (a + x / n, b + y / n));
        let (mut cxx, mut cyy, mut cxy) = (0.0f32, 0.0f32, 0.0f32);
        for (x, y) in &proj {
            let (dx, dy) = (x - mx, y - my);
            cxx += dx * dx / n;
            cyy += dy * dy / n;
            cxy += dx * dy / n;
        }
        let half_trace = 0.5 * (cxx + cyy);
        let root = ops::hypot(0.5 * (cxx - cyy), cxy);
        let (major, minor) = (half_trace + root, (half_trace - root).max(0.0));
        if major <= 0.0 {
            continue;
        }
        let aspect = if minor > 0.0 {
            ops::sqrt(major / minor)
        } else {
            f32::INFINITY
        };
        let angle = 0.5 * ops::atan2(2.0 * cxy, cxx - cyy);
        let (s, c) = ops::sin_cos(angle);
        let axis_world = e1 * c + e2 * s;
        let half_width = points
            .iter()
            .map(|p| ops::abs((*p - origin).dot(axis_world)))
            .fold(0.0f32, f32::max);
        let Some(m) = rest.get(node) else { continue };
        out.insert(
            node,
            LockShape {
                width_axis: quat::rotate(rotation_of(m).inverse(), axis_world).normalize_or_zero(),
                aspect,
                half_width,
                vertices: points.len(),
            },
        );
    }
    out
}
