//! Folds: the cloth between two neighbouring chains of a band hangs in a
//! flute outward of the straight gap between them, carried by a joint that
//! is placed from the two chains after they step, never simulated.
//!
//! A ring of chains round the hips is shorter than the path round raised
//! thighs; cloth skinned straight across a gap stretches as much as the gap
//! opens. With a fold, the cloth across is longer than the gap at rest (the
//! two halves chain → fold → next chain), and as the gap opens the fold
//! flattens instead: the fold joint stands at the gap's midpoint, pushed
//! out by `√(h² − (gap/2)²)` with `h` half the cloth's path across at rest,
//! so both halves keep their length until the cloth lies flat. Where the
//! chains bend (over a thigh, a lap), a fold outside the bend would
//! lengthen by its depth times the bend, so it is pressed flat there: its
//! depth shrinks linearly to none at a flat angle ([`depth_for_bend`]).
//!
//! The fold joint turns with the two chains (their rotations' mean) and
//! then onto its ridge, the line to the next row's fold joint, so the cloth
//! skinned down the ridge follows it.
//!
//! Everything here is a function of the chains' outputs: no state, no
//! effect on the simulation, the same in every solver mode.

use crate::math::{Pose, Quat, Real, Vec3, ops, quat};

/// A fold joint at rest, as its two chain joints and its ridge saw it.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FoldRest {
    /// Half the cloth's path across the gap, squared (the rest gap's half
    /// squared plus the rest depth squared).
    half_path_sq: Real,
    /// The mean of the two chain joints' rest rotations.
    mean: Quat,
    /// Outward (from the gap's midpoint to the fold joint) at rest, unit;
    /// zero for a fold with no depth.
    out: Vec3,
    /// The fold joint's rest rotation.
    rot: Quat,
    /// From this fold joint to the next row's at rest, unit; zero on the
    /// last row.
    ridge: Vec3,
}

/// The normalised mean of two rotations, the second taken on the first's
/// hemisphere.
fn mean(a: Quat, b: Quat) -> Quat {
    let b = if quat::dot(a, b) < 0.0 { -b } else { b };
    quat::normalize_or(a + b, a)
}

impl FoldRest {
    /// The rest of a fold joint at `fold` between chain joints `a` and `b`
    /// (world poses at rest), with the next row's fold joint at `next`
    /// (`None` on the last row).
    #[must_use]
    pub fn new(a: Pose, b: Pose, fold: Pose, next: Option<Vec3>) -> Self {
        let mid = (a.pos + b.pos) * 0.5;
        let half_gap_sq = 0.25 * a.pos.distance_squared(b.pos);
        let depth_sq = fold.pos.distance_squared(mid);
        Self {
            half_path_sq: half_gap_sq + depth_sq,
            mean: mean(a.rot, b.rot),
            out: (fold.pos - mid).normalize_or_zero(),
            rot: fold.rot,
            ridge: next.map_or(Vec3::ZERO, |n| (n - fold.pos).normalize_or_zero()),
        }
    }

    /// The turn that carries the rest frame of the two chain joints to
    /// their current one.
    fn carry(&self, a: Pose, b: Pose) -> Quat {
        quat::normalize_or(
            quat::mul(mean(a.rot, b.rot), self.mean.conjugate()),
            Quat::IDENTITY,
        )
    }

    /// Where the fold joint stands between chain joints `a` and `b` now,
    /// its depth scaled by `depth` (1: the cloth's full path; 0: flat).
    #[must_use]
    pub fn place(&self, a: Pose, b: Pose, depth: Real) -> Vec3 {
        let gap = b.pos - a.pos;
        let along = gap.normalize_or_zero();
        let carried = quat::rotate(self.carry(a, b), self.out);
        // Square to the gap: the cloth's two halves then stay equal.
        let out = (carried - along * carried.dot(along)).normalize_or(carried);
        let room = self.half_path_sq - 0.25 * gap.length_squared();
        let d = if room > 0.0 { ops::sqrt(room) } else { 0.0 };
        (a.pos + b.pos) * 0.5 + out * (d * depth.clamp(0.0, 1.0))
    }

    /// The fold joint's rotation with it at `here` and the next row's at
    /// `next` (`None` on the last row: `above`, the row above's rotation,
    /// when there is one).
    #[must_use]
    pub fn rotation(
        &self,
        a: Pose,
        b: Pose,
        here: Vec3,
        next: Option<Vec3>,
        above: Option<Quat>,
    ) -> Quat {
        let turned = quat::mul(self.carry(a, b), self.rot);
        match next {
            Some(n) if self.ridge != Vec3::ZERO => {
                let from = quat::rotate(quat::mul(turned, self.rot.conjugate()), self.ridge);
                let to = (n - here).normalize_or_zero();
                if to == Vec3::ZERO {
                    return turned;
                }
                quat::normalize_or(quat::mul(quat::from_rotation_arc(from, to), turned), turned)
            }
            _ => above.unwrap_or(turned),
        }
    }
}

/// The angle (radians) between `at − before` and `after − at`: how much a
/// chain bends at `at`; 0 for a degenerate segment.
#[must_use]
pub fn bend_angle(before: Vec3, at: Vec3, after: Vec3) -> Real {
    let (u, v) = (
        (at - before).normalize_or_zero(),
        (after - at).normalize_or_zero(),
    );
    if u == Vec3::ZERO || v == Vec3::ZERO {
        return 0.0;
    }
    ops::acos_clamped(u.dot(v))
}

/// How deep a fold may stand where its chains bend by `bend` (radians):
/// 1 where they run straight, falling linearly to 0 at `flat_angle` and
/// past it; 1 when `flat_angle` is not positive (never pressed flat).
#[must_use]
pub fn depth_for_bend(bend: Real, flat_angle: Real) -> Real {
    if flat_angle <= 0.0 || !flat_angle.is_finite() || !bend.is_finite() {
        return 1.0;
    }
    (1.0 - bend / flat_angle).clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(x: Real, y: Real, z: Real) -> Pose {
        Pose::new(Vec3::new(x, y, z), Quat::IDENTITY)
    }

    /// A gap of 2 along X, the fold 1 out along +Z: half path √2.
    fn rest() -> FoldRest {
        FoldRest::new(
            at(-1.0, 0.0, 0.0),
            at(1.0, 0.0, 0.0),
            at(0.0, 0.0, 1.0),
            None,
        )
    }

    #[test]
    fn at_rest_the_fold_stands_where_it_was_made() {
        let p = rest().place(at(-1.0, 0.0, 0.0), at(1.0, 0.0, 0.0), 1.0);
        assert!(p.distance(Vec3::new(0.0, 0.0, 1.0)) < 1e-6, "{p}");
    }

    #[test]
    fn an_opening_gap_flattens_the_fold_and_keeps_the_cloth_across() {
        // Gap 2 → 2.4: depth √(2 − 1.44) = √0.56 (hand-worked), each half
        // still √2 long.
        let (a, b) = (at(-1.2, 0.0, 0.0), at(1.2, 0.0, 0.0));
        let p = rest().place(a, b, 1.0);
        assert!((p.z - ops::sqrt(0.56)).abs() < 1e-6, "{p}");
        assert!((p.distance(a.pos) - ops::sqrt(2.0)).abs() < 1e-6);
        // Past the cloth's width (2√2 ≈ 2.83) it lies flat on the gap.
        let p = rest().place(at(-1.5, 0.0, 0.0), at(1.5, 0.0, 0.0), 1.0);
        assert!(p.length() < 1e-6, "{p}");
    }

    #[test]
    fn the_fold_turns_with_its_chains_and_stays_square_to_the_gap() {
        // Both chains turned 90° about Y (+Z → +X) and moved: the fold goes
        // out along +X from the new midpoint.
        let q = Quat::from_rotation_y(core::f32::consts::FRAC_PI_2);
        let a = Pose::new(Vec3::new(5.0, 0.0, 1.0), q);
        let b = Pose::new(Vec3::new(5.0, 0.0, -1.0), q);
        let p = rest().place(a, b, 1.0);
        assert!(p.distance(Vec3::new(6.0, 0.0, 0.0)) < 1e-5, "{p}");
        // A carried outward that leans into the gap is squared to it.
        let lean = Pose::new(Vec3::new(1.0, 0.0, 0.0), Quat::from_rotation_y(0.3));
        let p = rest().place(at(-1.0, 0.0, 0.0), lean, 1.0);
        assert!(p.x.abs() < 1e-6 && (p.z - 1.0).abs() < 1e-5, "{p}");
    }

    #[test]
    fn depth_share_and_bends() {
        let p = rest().place(at(-1.0, 0.0, 0.0), at(1.0, 0.0, 0.0), 0.25);
        assert!((p.z - 0.25).abs() < 1e-6, "{p}");
        let (o, y) = (Vec3::ZERO, Vec3::NEG_Y);
        // Straight: no bend, full depth; 10° of a 20° flat angle: half;
        // 30°: none.
        let flat = 20f32.to_radians();
        assert_eq!(bend_angle(o - y, o, o + y), 0.0);
        assert_eq!(depth_for_bend(0.0, flat), 1.0);
        let (sin, cos) = ops::sin_cos(10f32.to_radians());
        let bent = Vec3::new(0.0, -cos, sin);
        let ten = bend_angle(o - y, o, bent);
        assert!((ten - 10f32.to_radians()).abs() < 1e-5, "{ten}");
        assert!((depth_for_bend(ten, flat) - 0.5).abs() < 1e-4);
        assert_eq!(depth_for_bend(30f32.to_radians(), flat), 0.0);
        // Off, non-finite and degenerate: never pressed.
        assert_eq!(depth_for_bend(1.0, 0.0), 1.0);
        assert_eq!(depth_for_bend(Real::NAN, flat), 1.0);
        assert_eq!(bend_angle(o, o, bent), 0.0);
    }

    #[test]
    fn the_fold_turns_onto_its_ridge() {
        // Ridge at rest straight down; now the next fold joint sits out
        // along +Z below: the rotation takes −Y onto that direction.
        let r = FoldRest::new(
            at(-1.0, 0.0, 0.0),
            at(1.0, 0.0, 0.0),
            at(0.0, 0.0, 1.0),
            Some(Vec3::new(0.0, -1.0, 1.0)),
        );
        let (a, b) = (at(-1.0, 0.0, 0.0), at(1.0, 0.0, 0.0));
        let here = Vec3::new(0.0, 0.0, 1.0);
        let next = Vec3::new(0.0, -1.0, 2.0);
        let q = r.rotation(a, b, here, Some(next), None);
        let down = quat::rotate(q, Vec3::NEG_Y);
        let want = (next - here).normalize();
        assert!(down.distance(want) < 1e-6, "{down} vs {want}");
        // Last row: the row above's rotation.
        let above = Quat::from_rotation_x(0.5);
        assert_eq!(r.rotation(a, b, here, None, Some(above)), above);
        assert_eq!(rest().rotation(a, b, here, None, None), Quat::IDENTITY);
    }

    #[test]
    fn bad_input_stays_finite() {
        // A zero rotation (a broken input the solver would sanitise) and
        // a closed gap give a finite place.
        let weird = Pose::new(
            Vec3::new(-1.0, 0.0, 0.0),
            Quat::from_xyzw(0.0, 0.0, 0.0, 0.0),
        );
        let p = rest().place(weird, at(1.0, 0.0, 0.0), 1.0);
        assert!(p.is_finite(), "{p}");
        let p = rest().place(at(0.0, 0.0, 0.0), at(0.0, 0.0, 0.0), 1.0);
        assert!(p.is_finite(), "{p}");
    }
}
