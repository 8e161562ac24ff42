//! Affine matrices taken apart and inverted in one order of operations.
//!
//! glam's `Mat4::to_scale_rotation_translation` and `Mat4::inverse` go
//! through its per-instruction-set `Mat3A`/`Vec4` code (see [`super::quat`]
//! for why that changes bits between platforms); these use the scalar
//! `Vec3`/`Mat3` types, which are the same code everywhere, so a rig built
//! from the same file has the same bits on every platform.

use super::{Mat3, Mat4, Quat, Vec3, Vec4};

/// The scale, rotation and translation of an affine matrix (glam's
/// decomposition: a negative determinant flips the x scale). Not finite
/// for a singular matrix; callers check.
#[must_use]
pub fn decompose(m: &Mat4) -> (Vec3, Quat, Vec3) {
    let (x, y, z) = (
        m.x_axis.truncate(),
        m.y_axis.truncate(),
        m.z_axis.truncate(),
    );
    let det = Mat3::from_cols(x, y, z).determinant();
    let scale = Vec3::new(x.length() * det.signum(), y.length(), z.length());
    let inv = scale.recip();
    let rot = Quat::from_mat3(&Mat3::from_cols(x * inv.x, y * inv.y, z * inv.z));
    (scale, rot, m.w_axis.truncate())
}

/// The inverse of an affine matrix (last row `0 0 0 1`): the inverse of
/// its 3×3 part, and the translation mapped back through it.
#[must_use]
pub fn inverse(m: &Mat4) -> Mat4 {
    let a = Mat3::from_cols(
        m.x_axis.truncate(),
        m.y_axis.truncate(),
        m.z_axis.truncate(),
    );
    let inv = a.inverse();
    let t = -(inv * m.w_axis.truncate());
    Mat4::from_cols(
        inv.x_axis.extend(0.0),
        inv.y_axis.extend(0.0),
        inv.z_axis.extend(0.0),
        Vec4::new(t.x, t.y, t.z, 1.0),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    // Reference: a matrix composed from known parts must decompose into
    // them (to rounding), and its inverse must undo it.
    #[test]
    fn decompose_and_inverse_undo_composition() {
        let s = Vec3::new(1.5, 0.5, 2.0);
        let r = Quat::from_xyzw(0.2, -0.4, 0.1, 0.888_819_4);
        let t = Vec3::new(0.3, -1.2, 4.0);
        let m = Mat4::from_scale_rotation_translation(s, r, t);
        let (s2, r2, t2) = decompose(&m);
        assert!((s2 - s).length() < 1e-5, "{s2}");
        assert!(super::super::quat::dot(r, r2).abs() > 1.0 - 1e-6, "{r2}");
        assert_eq!(t2, t);
        let p = Vec3::new(0.7, 0.1, -0.4);
        let back = inverse(&m).transform_point3(m.transform_point3(p));
        assert!((back - p).length() < 1e-5, "{back}");
        let mirrored = Mat4::from_scale(Vec3::new(-1.0, 1.0, 1.0));
        assert_eq!(decompose(&mirrored).0, Vec3::new(-1.0, 1.0, 1.0));
    }
}
