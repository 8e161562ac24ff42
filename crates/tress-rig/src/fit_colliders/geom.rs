//! Rest-pose geometry the fitter reads: colliders in world space, chain
//! polylines, distances and percentiles.

use alloc::collections::BTreeSet;

use glam::{Mat4, Vec3};
use tress_core::collide::{closest_point_on_segment, closest_points_segments};
use tress_core::math::ops;

use tress_vrm::model::{Avatar, Collider, ColliderShape, SpringChain};

/// A sphere or capsule posed at rest, in world space (a sphere has `a == b`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Round {
    pub a: Vec3,
    pub b: Vec3,
    pub r: f32,
}

impl Round {
    /// The collider posed by its node's rest world matrix; `None` for planes
    /// and inside shapes, which the fitter leaves alone (they hold hair in,
    /// or are unbounded, so "covering vertices" means nothing for them).
    pub fn of(world: &[Mat4], c: &Collider) -> Option<Self> {
        let m = world.get(c.node)?;
        match c.shape {
            ColliderShape::Sphere { offset, radius } => {
                let a = m.transform_point3(offset);
                Some(Self { a, b: a, r: radius })
            }
            ColliderShape::Capsule {
                offset,
                tail,
                radius,
            } => Some(Self {
                a: m.transform_point3(offset),
                b: m.transform_point3(tail),
                r: radius,
            }),
            _ => None,
        }
    }

    /// Distance from `p` to the core (centre or axis segment).
    pub fn core_distance(&self, p: Vec3) -> f32 {
        point_segment_distance(p, self.a, self.b)
    }

    /// Signed distance from `p` to the surface (negative inside).
    pub fn surface_distance(&self, p: Vec3) -> f32 {
        self.core_distance(p) - self.r
    }

    /// Distance from segment `p0..p1` to the core.
    pub fn core_distance_to_segment(&self, p0: Vec3, p1: Vec3) -> f32 {
        let (s, t) = closest_points_segments(p0, p1, self.a, self.b);
        let p = p0 + (p1 - p0) * s;
        let q = self.a + (self.b - self.a) * t;
        p.distance(q)
    }
}

/// Distance from `p` to segment `a..b`.
pub(crate) fn point_segment_distance(p: Vec3, a: Vec3, b: Vec3) -> f32 {
    let t = closest_point_on_segment(a, b, p);
    p.distance(a + (b - a) * t)
}

/// The nearest-rank `q`-quantile (`q` in 0..=1) of `values` (sorted here);
/// `None` when empty.
pub(crate) fn percentile(values: &mut [f32], q: f32) -> Option<f32> {
    if values.is_empty() {
        return None;
    }
    values.sort_unstable_by(f32::total_cmp);
    let n = values.len();
    // Nearest rank: the smallest value with at least q·n values at or below it.
    let rank = -ops::floor(-q.clamp(0.0, 1.0) * n as f32) as usize;
    Some(values[rank.clamp(1, n) - 1])
}

/// Rest world positions of a chain's joints, plus the virtual tail when the
/// last joint is simulated with one: consecutive points are the simulated
/// segments, segment `k` belonging to joint `k`.
pub(crate) fn chain_points(world: &[Mat4], chain: &SpringChain) -> Vec<Vec3> {
    let mut pts: Vec<Vec3> = chain
        .joints
        .iter()
        .filter_map(|j| world.get(j.node).map(|m| m.w_axis.truncate()))
        .collect();
    if pts.len() != chain.joints.len() {
        return Vec::new();
    }
    if let (Some(tail), Some(last)) = (chain.virtual_tail, chain.joints.last()) {
        pts.push(world[last.node].transform_point3(tail));
    }
    pts
}

/// Sum of the segment lengths of `pts`.
pub(crate) fn reach(pts: &[Vec3]) -> f32 {
    pts.windows(2).map(|w| w[0].distance(w[1])).sum()
}

/// The colliders a chain collides with through its groups.
pub(crate) fn chain_colliders(avatar: &Avatar, chain: &SpringChain) -> BTreeSet<usize> {
    chain
        .collider_groups
        .iter()
        .filter_map(|&g| avatar.springs.collider_groups.get(g))
        .flat_map(|g| g.colliders.iter().copied())
        .filter(|&c| c < avatar.springs.colliders.len())
        .collect()
}

/// Smallest clearance at rest between `round` and the chain's simulated
/// segments, each widened by its joint's hit radius: how large the
/// collider's radius may become before the hair starts out in contact.
pub(crate) fn rest_clearance(round: &Round, chain: &SpringChain, pts: &[Vec3]) -> f32 {
    pts.windows(2)
        .zip(&chain.joints)
        .map(|(w, j)| round.core_distance_to_segment(w[0], w[1]) - j.hit_radius)
        .fold(f32::INFINITY, f32::min)
}

/// Name of a node for reports (`node N` when unnamed).
pub(crate) fn node_name(avatar: &Avatar, node: usize) -> String {
    match avatar.nodes.get(node) {
        Some(n) if !n.name.is_empty() => n.name.clone(),
        _ => format!("node {node}"),
    }
}
