//! Shared test helpers.

pub use tress_testkit::shared_assets as assets_dir;

use glam::{Quat, Vec3};
use tress_vrm::Node;

/// A node with no mesh at `translation` under `parent`, unrotated and
/// unscaled (children are left for the test to fill in).
pub fn node(name: &str, parent: Option<usize>, translation: Vec3) -> Node {
    Node {
        name: name.to_owned(),
        parent,
        children: Vec::new(),
        translation,
        rotation: Quat::IDENTITY,
        scale: Vec3::ONE,
        mesh: None,
        skin: None,
    }
}

/// A path under the repository root.
pub fn repo(rel: &str) -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(rel)
}

/// The rest world matrices with only the head turned by `yaw` about the
/// vertical: every other node stays at rest.
pub fn head_yawed(rest: &[glam::Mat4], head: usize, yaw: f32) -> Vec<glam::Mat4> {
    let mut world = rest.to_vec();
    let (s, r, t) = rest[head].to_scale_rotation_translation();
    world[head] = glam::Mat4::from_scale_rotation_translation(s, Quat::from_rotation_y(yaw) * r, t);
    world
}
