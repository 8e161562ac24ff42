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
