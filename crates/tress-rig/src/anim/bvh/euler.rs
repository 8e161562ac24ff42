//! BVH's Euler convention: the rotation channels of a joint are intrinsic
//! rotations in the order the `CHANNELS` line lists them.
//!
//! For channels `A B C` with angles `a b c` (degrees in the file), the
//! joint's local rotation is the product, left to right in listed order,
//!
//! `R = R_A(a) · R_B(b) · R_C(c)`,
//!
//! applied to column vectors: a point in the joint's frame is turned by
//! `R_C` first and `R_A` last, which is the same as turning the *frame*
//! about `A`, then about the already turned `B`, then about `C`. With
//! `Zrotation Xrotation Yrotation` that is `R = Rz · Rx · Ry`. Each `R_X(θ)`
//! is the right-handed rotation by `θ` about the axis.

use glam::{Mat3, Quat, Vec3};
use tress_core::math::{ops, quat};

/// A rotation or position axis.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Axis {
    /// X.
    X,
    /// Y.
    Y,
    /// Z.
    Z,
}

impl Axis {
    /// 0, 1 or 2.
    #[must_use]
    pub const fn index(self) -> usize {
        match self {
            Self::X => 0,
            Self::Y => 1,
            Self::Z => 2,
        }
    }

    /// The unit vector.
    #[must_use]
    pub const fn unit(self) -> Vec3 {
        match self {
            Self::X => Vec3::X,
            Self::Y => Vec3::Y,
            Self::Z => Vec3::Z,
        }
    }

    /// `X`, `Y` or `Z`.
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            Self::X => 'X',
            Self::Y => 'Y',
            Self::Z => 'Z',
        }
    }
}

/// The right-handed rotation by `degrees` about `axis`.
#[must_use]
pub fn axis_rotation(axis: Axis, degrees: f32) -> Quat {
    let (s, c) = ops::sin_cos(degrees.to_radians() * 0.5);
    let v = axis.unit() * s;
    Quat::from_xyzw(v.x, v.y, v.z, c)
}

/// `R_A(a) · R_B(b) · …` for `(axis, degrees)` pairs in channel order.
#[must_use]
pub fn compose(rotations: &[(Axis, f32)]) -> Quat {
    let q = rotations.iter().fold(Quat::IDENTITY, |q, &(axis, deg)| {
        quat::mul(q, axis_rotation(axis, deg))
    });
    quat::normalize(q)
}

/// The angles (degrees) of `q` for three distinct axes in channel order,
/// so that [`compose`] of them gives `q` back (to float precision; at the
/// middle angle ±90° the first and last are not unique and one is set to 0).
#[must_use]
pub fn decompose(q: Quat, order: [Axis; 3]) -> [f32; 3] {
    let m = Mat3::from_quat(quat::normalize(q));
    let e = |r: usize, c: usize| m.col(c)[r];
    let (i, j, k) = (order[0].index(), order[1].index(), order[2].index());
    // An even permutation (XYZ, YZX, ZXY) gives M[i][k] = +sin b; an odd one −.
    let s = if (j + 3 - i) % 3 == 1 { 1.0 } else { -1.0 };
    let sb = (s * e(i, k)).clamp(-1.0, 1.0);
    let b = ops::asin_clamped(sb);
    let (a, c) = if sb.abs() < 0.999_999 {
        (
            ops::atan2(-s * e(j, k), e(k, k)),
            ops::atan2(-s * e(i, j), e(i, i)),
        )
    } else {
        // Gimbal lock: only a ± c is defined; put it all in a.
        (ops::atan2(s * e(k, j), e(j, j)), 0.0)
    };
    [a.to_degrees(), b.to_degrees(), c.to_degrees()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anim::clip::angle_between;

    fn close(a: Vec3, b: Vec3) -> bool {
        a.distance(b) < 1e-5
    }

    /// Hand-computed: `Zrotation 90 Xrotation 90` is `Rz(90) · Rx(90)`.
    /// Rx(90) takes +Y to +Z and +Z to −Y; Rz(90) takes +X to +Y, +Y to −X
    /// and keeps +Z. So +Y → (Rx) +Z → (Rz) +Z, and +Z → −Y → +X, and
    /// +X → +X → +Y. The other order, `Xrotation 90 Zrotation 90`, takes
    /// +X → +Y → +Z instead.
    #[test]
    fn channel_order_is_the_product_order() {
        let zx = compose(&[(Axis::Z, 90.0), (Axis::X, 90.0)]);
        assert!(close(quat::rotate(zx, Vec3::Y), Vec3::Z));
        assert!(close(quat::rotate(zx, Vec3::Z), Vec3::X));
        assert!(close(quat::rotate(zx, Vec3::X), Vec3::Y));
        let xz = compose(&[(Axis::X, 90.0), (Axis::Z, 90.0)]);
        assert!(close(quat::rotate(xz, Vec3::X), Vec3::Z));
        assert!(close(quat::rotate(xz, Vec3::Y), -Vec3::X));
        // One axis: right-handed, +X about +Z by 90° is +Y; about +Y, −Z.
        assert!(close(
            quat::rotate(compose(&[(Axis::Z, 90.0)]), Vec3::X),
            Vec3::Y
        ));
        assert!(close(
            quat::rotate(compose(&[(Axis::Y, 90.0)]), Vec3::X),
            -Vec3::Z
        ));
        // Z 30 then Y 45 then X 60 (the CMU order spelled out):
        // Rz(30)·Ry(45)·Rx(60) applied to +X: Rx keeps it, Ry(45) gives
        // (cos45, 0, −sin45), Rz(30) turns its x into (cos30, sin30)·cos45.
        let q = compose(&[(Axis::Z, 30.0), (Axis::Y, 45.0), (Axis::X, 60.0)]);
        let h = core::f32::consts::FRAC_1_SQRT_2;
        let (s30, c30) = (0.5f32, 0.866_025_4f32);
        assert!(close(
            quat::rotate(q, Vec3::X),
            Vec3::new(c30 * h, s30 * h, -h)
        ));
    }

    #[test]
    fn decompose_inverts_compose_in_every_order() {
        use Axis::{X, Y, Z};
        let orders = [
            [X, Y, Z],
            [X, Z, Y],
            [Y, X, Z],
            [Y, Z, X],
            [Z, X, Y],
            [Z, Y, X],
        ];
        let angles = [
            [10.0, 20.0, 30.0],
            [-170.0, 80.0, 45.0],
            [0.0, -60.0, 120.0],
            [33.0, 0.0, -5.0],
        ];
        for order in orders {
            for a in angles {
                let q = compose(&[(order[0], a[0]), (order[1], a[1]), (order[2], a[2])]);
                let d = decompose(q, order);
                let back = compose(&[(order[0], d[0]), (order[1], d[1]), (order[2], d[2])]);
                assert!(
                    angle_between(q, back) < 1e-3_f32.to_radians() * 10.0,
                    "{order:?} {a:?} → {d:?}"
                );
                for (x, y) in a.iter().zip(d) {
                    assert!((x - y).abs() < 1e-2, "{order:?} {a:?} → {d:?}");
                }
            }
            // Gimbal lock still composes back.
            let q = compose(&[(order[0], 25.0), (order[1], 90.0), (order[2], 15.0)]);
            let d = decompose(q, order);
            let back = compose(&[(order[0], d[0]), (order[1], d[1]), (order[2], d[2])]);
            assert!(
                angle_between(q, back) < 0.05f32.to_radians(),
                "{order:?} {d:?}"
            );
        }
    }
}
