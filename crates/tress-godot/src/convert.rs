//! glam ↔ Godot conversions.

use godot::builtin::{Quaternion, Transform3D, Vector3};
use tress_core::math::{Quat, Vec3};
use tress_core::spring::Pose;

/// Godot vector to glam.
#[must_use]
pub fn vec3(v: Vector3) -> Vec3 {
    Vec3::new(v.x, v.y, v.z)
}

/// glam vector to Godot.
#[must_use]
pub fn vector3(v: Vec3) -> Vector3 {
    Vector3::new(v.x, v.y, v.z)
}

/// glam quaternion to Godot.
#[must_use]
pub fn quaternion(q: Quat) -> Quaternion {
    Quaternion::new(q.x, q.y, q.z, q.w)
}

/// A transform's position and rotation (scale dropped) as a solver pose,
/// with its largest axis scale.
#[must_use]
pub fn pose_and_scale(t: &Transform3D) -> (Pose, f32) {
    let q = t.basis.orthonormalized().get_quaternion();
    let rot = Quat::from_xyzw(q.x, q.y, q.z, q.w).normalize();
    (Pose::new(vec3(t.origin), rot), largest_scale(t))
}

/// The largest axis scale of `t`'s basis (the scale half of
/// [`pose_and_scale`]).
pub fn largest_scale(t: &Transform3D) -> f32 {
    let s = t.basis.get_scale();
    s.x.abs().max(s.y.abs()).max(s.z.abs())
}
