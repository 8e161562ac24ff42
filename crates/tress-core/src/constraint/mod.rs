//! `VRMC_node_constraint` 1.0 solver: roll, aim and rotation constraints.
//!
//! Each constraint drives the local rotation of a *destination* node from a
//! *source* node and blends from the destination's rest rotation by its
//! `weight` (slerp), following the non-normative pseudocode of the
//! specification (vrm-c/vrm-specification,
//! `specification/VRMC_node_constraint-1.0/README.md`):
//!
//! - **roll**: the source's rotation change, moved into the destination's rest
//!   frame, keeps only its twist about the roll axis (swing-twist
//!   decomposition: `twist = swing⁻¹ · q` with `swing` the shortest arc that
//!   carries the axis where `q` carries it);
//! - **aim**: the shortest rotation that turns the signed aim axis (in world
//!   space, from the destination's rest orientation) toward the source's
//!   world position;
//! - **rotation**: the source's local rotation change since rest, applied on
//!   top of the destination's rest rotation (Blender's local-local copy).
//!
//! Constraints are evaluated in dependency order ([`evaluation_order`]); a
//! cycle is reported as [`CycleError`]. Nothing here allocates.

use crate::math::{Quat, Real, Vec3, ops, quat};

/// The axis of the destination that a roll constraint transfers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum RollAxis {
    /// Local +X.
    X,
    /// Local +Y.
    Y,
    /// Local +Z.
    Z,
}

impl RollAxis {
    /// The axis named as `VRMC_node_constraint` spells it (`X`, `Y`, `Z`).
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "X" => Some(Self::X),
            "Y" => Some(Self::Y),
            "Z" => Some(Self::Z),
            _ => None,
        }
    }

    /// The unit vector of this axis.
    #[must_use]
    pub const fn vector(self) -> Vec3 {
        match self {
            Self::X => Vec3::X,
            Self::Y => Vec3::Y,
            Self::Z => Vec3::Z,
        }
    }
}

/// The signed axis of the destination that an aim constraint points at the source.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum AimAxis {
    /// Local +X.
    PositiveX,
    /// Local −X.
    NegativeX,
    /// Local +Y.
    PositiveY,
    /// Local −Y.
    NegativeY,
    /// Local +Z.
    PositiveZ,
    /// Local −Z.
    NegativeZ,
}

impl AimAxis {
    /// The axis named as `VRMC_node_constraint` spells it (`PositiveX` …
    /// `NegativeZ`).
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "PositiveX" => Some(Self::PositiveX),
            "NegativeX" => Some(Self::NegativeX),
            "PositiveY" => Some(Self::PositiveY),
            "NegativeY" => Some(Self::NegativeY),
            "PositiveZ" => Some(Self::PositiveZ),
            "NegativeZ" => Some(Self::NegativeZ),
            _ => None,
        }
    }

    /// The unit vector of this signed axis.
    #[must_use]
    pub const fn vector(self) -> Vec3 {
        match self {
            Self::PositiveX => Vec3::X,
            Self::NegativeX => Vec3::NEG_X,
            Self::PositiveY => Vec3::Y,
            Self::NegativeY => Vec3::NEG_Y,
            Self::PositiveZ => Vec3::Z,
            Self::NegativeZ => Vec3::NEG_Z,
        }
    }
}

/// What a constraint does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum ConstraintKind {
    /// Twist about one local axis, copied from the source.
    Roll(RollAxis),
    /// Point a signed local axis at the source.
    Aim(AimAxis),
    /// Copy the source's local rotation change.
    Rotation,
}

/// One node constraint: `destination` is the constrained node, `source` the driver.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct NodeConstraint {
    /// Index of the constrained node.
    pub destination: usize,
    /// Index of the driving node.
    pub source: usize,
    /// What the constraint does.
    pub kind: ConstraintKind,
    /// Blend from the rest rotation (0) to the full constraint (1).
    pub weight: Real,
}

/// The constraints form a dependency cycle; `constraint` is one constraint on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CycleError {
    /// Index (into the constraint slice) of a constraint that is part of, or waits on, a cycle.
    pub constraint: usize,
}

impl core::fmt::Display for CycleError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "node constraints form a cycle (constraint {} is on it or waits on it)",
            self.constraint
        )
    }
}

impl core::error::Error for CycleError {}

const EPS: Real = 1.0e-6;

/// The shortest-arc rotation taking direction `from` to direction `to`.
///
/// Both need not be unit length; a zero vector yields identity. Opposite
/// directions rotate by π about an axis perpendicular to `from`.
#[must_use]
pub fn from_to(from: Vec3, to: Vec3) -> Quat {
    let lf = ops::sqrt(from.length_squared());
    let lt = ops::sqrt(to.length_squared());
    if lf < EPS || lt < EPS {
        return Quat::IDENTITY;
    }
    let a = from / lf;
    let b = to / lt;
    let d = a.dot(b);
    if d < -1.0 + EPS {
        // Half turn about any axis perpendicular to `a`.
        let mut axis = Vec3::X.cross(a);
        if axis.length_squared() < EPS {
            axis = Vec3::Y.cross(a);
        }
        let axis = axis / ops::sqrt(axis.length_squared());
        return Quat::from_xyzw(axis.x, axis.y, axis.z, 0.0);
    }
    let c = a.cross(b);
    let q = Quat::from_xyzw(c.x, c.y, c.z, 1.0 + d);
    normalize(q)
}

/// Normalises a quaternion through [`ops::sqrt`]; a zero quaternion becomes identity.
#[must_use]
pub fn normalize(q: Quat) -> Quat {
    let l = ops::sqrt(quat::length_squared(q));
    if l < EPS {
        Quat::IDENTITY
    } else {
        q * (1.0 / l)
    }
}

/// Spherical interpolation through [`ops`] (shortest path), `t` in `[0, 1]`.
#[must_use]
pub fn slerp(a: Quat, b: Quat, t: Real) -> Quat {
    if t <= 0.0 {
        return a;
    }
    let mut b = b;
    let mut d = quat::dot(a, b);
    if d < 0.0 {
        b = -b;
        d = -d;
    }
    if t >= 1.0 {
        return b;
    }
    if d > 1.0 - EPS {
        return normalize(a + (b - a) * t);
    }
    let theta = ops::acos_clamped(d);
    let s = ops::sin(theta);
    let wa = ops::sin((1.0 - t) * theta) / s;
    let wb = ops::sin(t * theta) / s;
    normalize(a * wa + b * wb)
}

/// Swing-twist decomposition of `q` about the unit `axis`: `q = swing · twist`,
/// where `twist` rotates about `axis` only and `swing` is the shortest arc
/// taking `axis` to `q · axis`.
#[must_use]
pub fn swing_twist(q: Quat, axis: Vec3) -> (Quat, Quat) {
    let swing = from_to(axis, quat::rotate(q, axis));
    let twist = normalize(quat::mul(swing.inverse(), q));
    (swing, twist)
}

/// Roll constraint: the destination's new local rotation.
///
/// `src_rest` / `src_now` are the source's local rotations at rest and now.
#[must_use]
pub fn roll(dst_rest: Quat, src_rest: Quat, src_now: Quat, axis: RollAxis, weight: Real) -> Quat {
    let delta_src = quat::mul(src_rest.inverse(), src_now);
    let delta_in_parent = quat::mul(quat::mul(src_rest, delta_src), src_rest.inverse());
    let delta_in_dst = quat::mul(quat::mul(dst_rest.inverse(), delta_in_parent), dst_rest);
    let (_, twist) = swing_twist(delta_in_dst, axis.vector());
    slerp(dst_rest, normalize(quat::mul(dst_rest, twist)), weight)
}

/// Rotation constraint: the destination's new local rotation.
#[must_use]
pub fn rotation(dst_rest: Quat, src_rest: Quat, src_now: Quat, weight: Real) -> Quat {
    let delta_src = quat::mul(src_rest.inverse(), src_now);
    slerp(dst_rest, normalize(quat::mul(dst_rest, delta_src)), weight)
}

/// Aim constraint: the destination's new local rotation.
///
/// `dst_parent_world` is the world rotation of the destination's parent
/// (identity for a root), `dst_world_pos` the destination's world position and
/// `src_world_pos` the source's. When the two coincide the rest rotation is kept.
#[must_use]
pub fn aim(
    dst_rest: Quat,
    dst_parent_world: Quat,
    dst_world_pos: Vec3,
    src_world_pos: Vec3,
    axis: AimAxis,
    weight: Real,
) -> Quat {
    let from = quat::rotate(quat::mul(dst_parent_world, dst_rest), axis.vector());
    let to = src_world_pos - dst_world_pos;
    if to.length_squared() < EPS * EPS {
        return dst_rest;
    }
    let ft = from_to(from, to);
    let target = quat::mul(
        quat::mul(quat::mul(dst_parent_world.inverse(), ft), dst_parent_world),
        dst_rest,
    );
    slerp(dst_rest, normalize(target), weight)
}

/// Whether `ancestor` is `node` or one of its ancestors (walks at most `parents.len()` steps).
fn is_self_or_ancestor(ancestor: usize, node: usize, parents: &[Option<usize>]) -> bool {
    let mut cur = Some(node);
    for _ in 0..=parents.len() {
        match cur {
            Some(n) if n == ancestor => return true,
            Some(n) => cur = parents.get(n).copied().flatten(),
            None => return false,
        }
    }
    false
}

/// Whether constraint `b` reads a node that constraint `a` writes.
///
/// Every constraint reads its source (roll and rotation its local rotation,
/// aim its world position, so every ancestor too); aim also reads the world
/// transform of its destination's parent chain.
#[must_use]
pub fn depends_on(b: &NodeConstraint, a: &NodeConstraint, parents: &[Option<usize>]) -> bool {
    let reads_source = match b.kind {
        ConstraintKind::Aim(_) => is_self_or_ancestor(a.destination, b.source, parents),
        _ => a.destination == b.source,
    };
    let reads_parent = matches!(b.kind, ConstraintKind::Aim(_))
        && parents
            .get(b.destination)
            .copied()
            .flatten()
            .is_some_and(|p| is_self_or_ancestor(a.destination, p, parents));
    reads_source || reads_parent
}

/// Orders `constraints` so each comes after every constraint it depends on.
///
/// `order` must hold `constraints.len()` entries and `placed` as many flags;
/// on success `order` lists constraint indices in evaluation order. A
/// constraint whose source is its own destination, or any dependency cycle,
/// gives [`CycleError`]. O(n²) in the number of constraints, no allocation.
///
/// # Errors
/// [`CycleError`] when no valid order exists.
pub fn evaluation_order(
    constraints: &[NodeConstraint],
    parents: &[Option<usize>],
    order: &mut [usize],
    placed: &mut [bool],
) -> Result<(), CycleError> {
    let n = constraints.len();
    assert!(order.len() >= n && placed.len() >= n, "scratch too small");
    placed[..n].fill(false);
    let mut filled = 0;
    while filled < n {
        let mut progressed = false;
        for (bi, b) in constraints.iter().enumerate() {
            if placed[bi] {
                continue;
            }
            if b.source == b.destination {
                return Err(CycleError { constraint: bi });
            }
            let ready = constraints
                .iter()
                .enumerate()
                .all(|(ai, a)| ai == bi || placed[ai] || !depends_on(b, a, parents));
            if ready {
                placed[bi] = true;
                order[filled] = bi;
                filled += 1;
                progressed = true;
            }
        }
        if !progressed {
            let stuck = placed[..n].iter().position(|p| !p).unwrap_or(0);
            return Err(CycleError { constraint: stuck });
        }
    }
    Ok(())
}

/// A node's local transform, as the solver reads and writes it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LocalPose {
    /// Local translation.
    pub translation: Vec3,
    /// Local rotation.
    pub rotation: Quat,
    /// Local scale.
    pub scale: Vec3,
}

/// World rotation and position of `node` from local poses (walks the parent chain).
#[must_use]
pub fn world_of(node: usize, parents: &[Option<usize>], pose: &[LocalPose]) -> (Quat, Vec3) {
    // Accumulate from the node up: world = parent_world ∘ local.
    let mut rot = Quat::IDENTITY;
    let mut pos = Vec3::ZERO;
    let mut cur = Some(node);
    for _ in 0..=parents.len() {
        let Some(n) = cur else { break };
        let Some(p) = pose.get(n) else { break };
        // world(child) = T_p R_p S_p · (pos, rot)
        pos = p.translation + quat::rotate(p.rotation, p.scale * pos);
        rot = quat::mul(p.rotation, rot);
        cur = parents.get(n).copied().flatten();
    }
    (normalize(rot), pos)
}

/// Evaluates every constraint in `order` and writes destination rotations into `pose`.
///
/// `rest` holds each node's rest local rotation. Indices out of range are skipped.
pub fn apply(
    constraints: &[NodeConstraint],
    order: &[usize],
    parents: &[Option<usize>],
    rest: &[Quat],
    pose: &mut [LocalPose],
) {
    for &ci in order {
        let Some(c) = constraints.get(ci) else {
            continue;
        };
        let (Some(&dst_rest), Some(&src_rest), Some(src_now)) = (
            rest.get(c.destination),
            rest.get(c.source),
            pose.get(c.source).map(|p| p.rotation),
        ) else {
            continue;
        };
        if c.destination >= pose.len() {
            continue;
        }
        let q = match c.kind {
            ConstraintKind::Roll(axis) => roll(dst_rest, src_rest, src_now, axis, c.weight),
            ConstraintKind::Rotation => rotation(dst_rest, src_rest, src_now, c.weight),
            ConstraintKind::Aim(axis) => {
                let parent_rot = parents
                    .get(c.destination)
                    .copied()
                    .flatten()
                    .map_or(Quat::IDENTITY, |p| world_of(p, parents, pose).0);
                // A node's own rotation does not move its origin.
                let (_, dst_pos) = world_of(c.destination, parents, pose);
                let (_, src_pos) = world_of(c.source, parents, pose);
                aim(dst_rest, parent_rot, dst_pos, src_pos, axis, c.weight)
            }
        };
        pose[c.destination].rotation = q;
    }
}

#[cfg(test)]
mod tests;
