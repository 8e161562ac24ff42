//! Quaternion arithmetic in one fixed order of operations.
//!
//! glam implements `Quat * Quat`, `Quat * Vec3`, `dot`, `length` and
//! `normalize` per instruction set: SSE2 adds the four products of a dot in
//! pairs, NEON fuses multiply-adds, the scalar build (wasm32, thumbv7em)
//! adds left to right. Each rounds differently, so a solver using them gives
//! different bits on x86-64, aarch64 and wasm32. The solvers call these
//! functions instead: plain IEEE `f32` arithmetic, which Rust never
//! contracts into fused multiply-adds, in the order of glam's scalar build
//! for products and dots; normalising divides by the length, as glam's
//! SSE2 build does.
//!
//! glam's lane-wise operations (`+`, `-`, `*` by a scalar or lane by lane,
//! `select`, `max`) round each lane once on every instruction set and stay
//! in use.

use super::{Quat, Real, Vec3, Vec4, ops};

/// The Hamilton product `a * b`: rotation `b`, then `a`. Per component,
/// left to right:
///
/// ```text
/// x = w0 x1 + x0 w1 + y0 z1 − z0 y1
/// y = w0 y1 − x0 z1 + y0 w1 + z0 x1
/// z = w0 z1 + x0 y1 − y0 x1 + z0 w1
/// w = w0 w1 − x0 x1 − y0 y1 − z0 z1
/// ```
///
/// computed as four lane-wise products added in that order, with each
/// subtraction written as the addition of a negated product (`p − q` and
/// `p + (−q)` round alike, and negation is exact): the same bits as the
/// scalar formulas on every instruction set, in vector registers where
/// the target has them.
#[inline]
#[must_use]
pub fn mul(a: Quat, b: Quat) -> Quat {
    use glam::Vec4Swizzles;
    let (a, b) = (Vec4::from(a), Vec4::from(b));
    let t1 = a.wwww() * b;
    let t2 = a.xxxx() * Vec4::new(1.0, -1.0, 1.0, -1.0) * b.wzyx();
    let t3 = a.yyyy() * Vec4::new(1.0, 1.0, -1.0, -1.0) * b.zwxy();
    let t4 = a.zzzz() * Vec4::new(-1.0, 1.0, 1.0, -1.0) * b.yxwz();
    Quat::from_vec4(((t1 + t2) + t3) + t4)
}

/// `v` rotated by the unit quaternion `q` (`q * v * q⁻¹`), as
/// `v (w² − b·b) + b 2(v·b) + (b × v) 2w` with `b = (x, y, z)`.
#[inline]
#[must_use]
pub fn rotate(q: Quat, v: Vec3) -> Vec3 {
    let (b, w) = (Vec3::new(q.x, q.y, q.z), q.w);
    let b2 = b.x * b.x + b.y * b.y + b.z * b.z;
    let k_v = w * w - b2;
    let k_b = (v.x * b.x + v.y * b.y + v.z * b.z) * 2.0;
    let k_c = w * 2.0;
    let c = Vec3::new(
        b.y * v.z - v.y * b.z,
        b.z * v.x - v.z * b.x,
        b.x * v.y - v.x * b.y,
    );
    Vec3::new(
        v.x * k_v + b.x * k_b + c.x * k_c,
        v.y * k_v + b.y * k_b + c.y * k_c,
        v.z * k_v + b.z * k_b + c.z * k_c,
    )
}

/// The four-component dot product, added left to right.
#[inline]
#[must_use]
pub fn dot(a: Quat, b: Quat) -> Real {
    a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w
}

/// The squared norm.
#[inline]
#[must_use]
pub fn length_squared(q: Quat) -> Real {
    dot(q, q)
}

/// The norm.
#[inline]
#[must_use]
pub fn length(q: Quat) -> Real {
    ops::sqrt(dot(q, q))
}

/// `q` divided by its length (one rounding per component, as
/// [`crate::math::Pose::sanitized`] does, so normalising twice changes
/// nothing more). A zero quaternion gives NaN; callers guard against it.
#[inline]
#[must_use]
pub fn normalize(q: Quat) -> Quat {
    q / length(q)
}

/// `q` normalised by [`normalize`], or `fallback` when `q` is not finite,
/// too short (length ≤ 1e-6) to give a direction, or so long that its
/// length overflows (components past about 1e19, which would divide to a
/// zero quaternion): how the solvers sanitise rotations they are given.
#[inline]
#[must_use]
pub fn normalize_or(q: Quat, fallback: Quat) -> Quat {
    let len = length(q);
    if q.is_finite() && len > 1e-6 && len.is_finite() {
        q / len
    } else {
        fallback
    }
}

/// The shortest rotation taking the unit vector `from` to the unit vector
/// `to`; when they are opposite, exactly half a turn (`w = 0`, as
/// three-vrm's `setFromUnitVectors` builds it) about an axis orthogonal to
/// `from`. glam's `from_axis_angle(axis, π)` has `w = cos(π/2) = −4.4e-8`
/// in f32, which turns `from` to `−from` plus a sideways 8.7e-8.
#[must_use]
pub fn from_rotation_arc(from: Vec3, to: Vec3) -> Quat {
    const ONE_MINUS_EPS: Real = 1.0 - 2.0 * Real::EPSILON;
    let d = from.dot(to);
    if d > ONE_MINUS_EPS {
        Quat::IDENTITY
    } else if d < -ONE_MINUS_EPS {
        let axis = from.any_orthonormal_vector();
        Quat::from_xyzw(axis.x, axis.y, axis.z, 0.0)
    } else {
        let c = from.cross(to);
        normalize(Quat::from_xyzw(c.x, c.y, c.z, 1.0 + d))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Reference values: exact identities of the Hamilton product and of
    // rotations by quarter turns (whose terms are exact in f32 once the
    // half-angle sine and cosine are the same number).
    #[test]
    fn products_follow_hamilton() {
        let i = Quat::from_xyzw(1.0, 0.0, 0.0, 0.0);
        let j = Quat::from_xyzw(0.0, 1.0, 0.0, 0.0);
        let k = Quat::from_xyzw(0.0, 0.0, 1.0, 0.0);
        assert_eq!(mul(i, j), k);
        assert_eq!(mul(j, i), -k);
        assert_eq!(mul(k, k), Quat::from_xyzw(0.0, 0.0, 0.0, -1.0));
        let h = core::f32::consts::FRAC_1_SQRT_2;
        let yaw = Quat::from_xyzw(0.0, h, 0.0, h);
        let r = rotate(yaw, Vec3::X);
        assert!((r - Vec3::NEG_Z).length() < 1e-6, "{r}");
    }

    /// The scalar formulas of [`mul`]'s doc, for its bit-for-bit test.
    fn mul_scalar(a: Quat, b: Quat) -> Quat {
        let (x0, y0, z0, w0) = (a.x, a.y, a.z, a.w);
        let (x1, y1, z1, w1) = (b.x, b.y, b.z, b.w);
        Quat::from_xyzw(
            w0 * x1 + x0 * w1 + y0 * z1 - z0 * y1,
            w0 * y1 - x0 * z1 + y0 * w1 + z0 * x1,
            w0 * z1 + x0 * y1 - y0 * x1 + z0 * w1,
            w0 * w1 - x0 * x1 - y0 * y1 - z0 * z1,
        )
    }

    #[test]
    fn vector_product_has_the_scalar_bits() {
        // xorshift over raw bit patterns of ordinary magnitudes, signed
        // zeros and exact cancellations included.
        let mut s = 0x9e37_79b9_u32;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            (s >> 8) as Real / (1u32 << 23) as Real - 1.0
        };
        let specials = [0.0, -0.0, 1.0, -1.0, 0.5];
        for i in 0..20_000 {
            let mut q = || Quat::from_xyzw(next(), next(), next(), next());
            let (mut a, b) = (q(), q());
            if i % 7 == 0 {
                a = Quat::from_xyzw(specials[i % 5], b.y, specials[(i / 5) % 5], -b.w);
            }
            let (v, r) = (mul(a, b), mul_scalar(a, b));
            assert_eq!(
                Vec4::from(v).to_array().map(Real::to_bits),
                Vec4::from(r).to_array().map(Real::to_bits),
                "{a} * {b}"
            );
        }
    }

    #[test]
    fn rotate_agrees_with_the_product_form() {
        let q = normalize(Quat::from_xyzw(0.3, -0.5, 0.2, 0.8));
        let v = Vec3::new(0.7, -1.1, 2.5);
        let p = mul(mul(q, Quat::from_xyzw(v.x, v.y, v.z, 0.0)), q.conjugate());
        let r = rotate(q, v);
        assert!((r - Vec3::new(p.x, p.y, p.z)).length() < 1e-5, "{r} vs {p}");
        assert!((length(q) - 1.0).abs() < 1e-6);
    }

    #[test]
    fn arcs_take_from_to_to() {
        let a = Vec3::new(1.0, 2.0, -0.5).normalize();
        let b = Vec3::new(-0.3, 0.4, 2.0).normalize();
        assert!((rotate(from_rotation_arc(a, b), a) - b).length() < 1e-6);
        assert_eq!(from_rotation_arc(a, a), Quat::IDENTITY);
        assert!((rotate(from_rotation_arc(a, -a), a) + a).length() < 1e-6);
        // Half turns of the axes are exact.
        for v in [
            Vec3::X,
            Vec3::Y,
            Vec3::Z,
            Vec3::NEG_X,
            Vec3::NEG_Y,
            Vec3::NEG_Z,
        ] {
            assert_eq!(rotate(from_rotation_arc(v, -v), v), -v, "{v}");
        }
    }
}
