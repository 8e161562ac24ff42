//! Skinned meshes at run time: which vertices are hair and which are body,
//! and the one linear-blend skinning every measurement and check uses.
//!
//! - [`mesh`]: [`MeshSet`], every skinned triangle primitive flattened and
//!   classified (hair vertices, hair and body triangles), skinned in bulk.
//! - [`vertex`]: [`SkinnedVertex`], a few selected vertices with their own
//!   influences (feet, hands, a lock's shape).

use alloc::collections::BTreeSet;

use glam::{Mat4, Vec3};
use tress_vrm::model::Avatar;

pub mod mesh;
pub mod vertex;

pub use mesh::{MeshSet, Part};
pub use vertex::{SkinnedVertex, skinned_vertices};

/// Depth below which a hair vertex is not counted as inside the body
/// (issue #6: "beyond 1 mm"), metres; shared by the measurement and the
/// collider fit's contact choice.
pub const CONTACT_THRESHOLD: f32 = 0.001;

/// Linear-blend skinning of one bind-space point: the sum, in the order
/// given, of each weight times the point moved by its joint matrix (world ×
/// inverse bind). Zero weights should be left out by the caller, since
/// `0 × inf` would poison the sum.
#[inline]
#[must_use]
pub fn blend(p: Vec3, influences: impl Iterator<Item = (Mat4, f32)>) -> Vec3 {
    let mut acc = Vec3::ZERO;
    for (m, w) in influences {
        acc += m.transform_point3(p) * w;
    }
    acc
}

/// Every node a spring chain moves (its joints, tails included): a vertex
/// whose largest weight is on one of these is hair.
#[must_use]
pub fn spring_nodes(avatar: &Avatar) -> BTreeSet<usize> {
    avatar
        .springs
        .chains
        .iter()
        .flat_map(|c| c.joints.iter().map(|j| j.node))
        // Fold joints are driven too: the cloth they carry is hair.
        .chain(
            avatar
                .springs
                .bands
                .iter()
                .flat_map(|b| b.folds.iter().flatten().copied()),
        )
        .collect()
}
