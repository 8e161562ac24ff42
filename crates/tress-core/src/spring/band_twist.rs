//! Band twist: each bone of a chain in a band turned about its own segment
//! so that the band's ring crosses it at its root as it did at rest.
//!
//! The cloth between two chains of a band is skinned to both chains' bones
//! (and to a fold's, placed from them). The shortest-arc output leaves each
//! bone's twist about its segment at whatever the arc from its rest
//! direction gives; after a large swing (a skirt's front over a raised
//! thigh) that no longer carries the bone's rest "across", towards its
//! neighbours, onto the line to them, and the linear blend of two bones
//! whose across directions disagree shears the cloth between them. Here
//! each bone is turned about its segment so that the ring's tangent at
//! rest, from the previous chain's joint to the next chain's at the bone's
//! root row, lies along the ring's tangent there now, as far as a turn
//! about the segment can put it. The root row, not the tail's or both
//! rows' mean: the cloth round a bone's root is what the bone carries
//! alone (crouching p99 skirt stretch 9.2 % from the root row, 9.7 % with
//! a quarter of the tail row's, 10.6 % from their mean, 11.9 % from the
//! tail's, `docs/log/2026-12-06-skirt-weights-and-band-twist.md`).
//!
//! A function of the joints' positions only: no state, nothing the step
//! sees, so frame-rate invariance and contact are untouched.

use super::chain::{Chain, Joint};
use super::output::JointOutput;
use crate::math::{Pose, Quat, Real, Vec3, ops, quat};

/// Below this squared length (world units²) a direction's part square to
/// the segment is no direction: the bone keeps its shortest arc.
const DEGENERATE: Real = 1e-12;

/// One chain of the band as the twist reads it.
#[derive(Clone, Copy)]
pub(crate) struct Side<'a> {
    pub chain: &'a Chain,
    pub joints: &'a [Joint],
}

/// Walks a chain's rows, root first: each row's place in the world and at
/// rest in the attachment frame (unscaled).
struct Rows<'a> {
    joints: &'a [Joint],
    next: usize,
    now: Vec3,
    rest: Vec3,
}

impl<'a> Rows<'a> {
    fn new(side: Side<'a>, frame: &Pose, scale: Real) -> Self {
        let root = side.chain.desc.root_offset;
        Self {
            joints: side.joints,
            next: 0,
            now: frame.transform_point(root * scale),
            rest: root,
        }
    }

    /// The current row, then steps to the next; `None` past the chain.
    fn step(&mut self) -> Option<(Vec3, Vec3)> {
        let row = (self.next <= self.joints.len()).then_some((self.now, self.rest));
        if let Some(j) = self.joints.get(self.next) {
            self.now = j.x;
            self.rest += j.rest_vec;
        }
        self.next += 1;
        row
    }
}

/// `rot` turned about the unit `axis` so that `carried` (a direction as
/// `rot` carries it) lies along `target` as far as a turn about the axis
/// can put it; `rot` itself where either has no part square to the axis.
#[must_use]
pub(crate) fn twist_onto(rot: Quat, axis: Vec3, carried: Vec3, target: Vec3) -> Quat {
    let c = carried - axis * axis.dot(carried);
    let t = target - axis * axis.dot(target);
    let (cc, tt) = (c.length_squared(), t.length_squared());
    // Written so NaN fails it too.
    if !(cc > DEGENERATE && tt > DEGENERATE) {
        return rot;
    }
    let (c, t) = (c * (1.0 / ops::sqrt(cc)), t * (1.0 / ops::sqrt(tt)));
    // Both square to the axis, so their shortest arc turns about it; where
    // they point apart `from_rotation_arc` would pick any axis square to
    // `c`, so the half turn is taken about the segment here.
    let turn = if c.dot(t) > -1.0 + 1e-6 {
        quat::from_rotation_arc(c, t)
    } else {
        Quat::from_xyzw(axis.x, axis.y, axis.z, 0.0)
    };
    quat::normalize_or(quat::mul(turn, rot), rot)
}

/// Turns the bones in `out` (the outputs of the chain whose joints are
/// `joints`, written by the shortest arc, at the substep's `frame`) about
/// their segments so the band's tangent from `prev` to `next` at each
/// bone's root row keeps its rest direction across the bone; rewrites the
/// local rotations to match.
pub(crate) fn band_twist_outputs(
    joints: &[Joint],
    prev: Side<'_>,
    next: Side<'_>,
    frame: &Pose,
    scale: Real,
    out: &mut [JointOutput],
) {
    let (mut before, mut after) = (Rows::new(prev, frame, scale), Rows::new(next, frame, scale));
    let mut parent_w = frame.rot;
    for (o, j) in out.iter_mut().zip(joints) {
        if let (Some((p, p0)), Some((n, n0))) = (before.step(), after.step()) {
            // The rest tangent in the bone's frame, carried as the bone is now.
            let carried = quat::rotate(quat::mul(o.world_rot, j.rest_rot.conjugate()), n0 - p0);
            let axis = (o.tail - o.origin).normalize_or_zero();
            if axis != Vec3::ZERO {
                o.world_rot = twist_onto(o.world_rot, axis, carried, n - p);
            }
        }
        o.local_rot = quat::mul(parent_w.conjugate(), o.world_rot);
        parent_w = o.world_rot;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_abs_diff_eq;

    fn close(a: Vec3, b: Vec3) {
        assert!(a.distance(b) < 1e-5, "{a} vs {b}");
    }

    #[test]
    fn a_bone_swung_out_of_the_ring_turns_back_onto_it() {
        // A bone hanging along −Y, the ring's tangent along +X. It swings
        // to d = (1, 0, 1)/√2: the shortest arc is a quarter turn about
        // n = (−1, 0, 1)/√2, which carries X to X·0 + n × X + n (n·X) =
        // (½, √½, −½). Square to d the ring's tangent X is (½, 0, −½), at
        // 45° from it; after the twist the bone carries X onto
        // (1, 0, −1)/√2 and still carries −Y onto d.
        let d = Vec3::new(1.0, 0.0, 1.0).normalize();
        let arc = quat::from_rotation_arc(Vec3::NEG_Y, d);
        close(
            quat::rotate(arc, Vec3::X),
            Vec3::new(0.5, ops::sqrt(0.5), -0.5),
        );
        let r = twist_onto(arc, d, quat::rotate(arc, Vec3::X), Vec3::X);
        close(quat::rotate(r, Vec3::NEG_Y), d);
        close(
            quat::rotate(r, Vec3::X),
            Vec3::new(1.0, 0.0, -1.0).normalize(),
        );
        assert_abs_diff_eq!(quat::length_squared(r), 1.0, epsilon = 1e-6);
    }

    #[test]
    fn a_tangent_already_across_leaves_the_bone() {
        let d = Vec3::new(0.0, -0.6, 0.8);
        let arc = quat::from_rotation_arc(Vec3::NEG_Y, d);
        let r = twist_onto(arc, d, quat::rotate(arc, Vec3::X), Vec3::X * 3.0);
        assert_abs_diff_eq!(quat::dot(r, arc).abs(), 1.0, epsilon = 1e-6);
    }

    #[test]
    fn degenerate_and_bad_directions_keep_the_arc() {
        let arc = quat::from_rotation_arc(Vec3::NEG_Y, Vec3::X);
        // The tangent along the segment: no part square to it.
        assert_eq!(twist_onto(arc, Vec3::X, Vec3::Z, Vec3::X), arc);
        assert_eq!(twist_onto(arc, Vec3::X, Vec3::ZERO, Vec3::Z), arc);
        // NaN never comes back as a rotation.
        let nan = Vec3::new(Real::NAN, 0.0, 0.0);
        let r = twist_onto(arc, Vec3::X, Vec3::Z, nan);
        assert!(r.is_finite(), "{r:?}");
    }
}
