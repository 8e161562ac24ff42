//! Colliders and contact geometry shared by the spring-chain and strand solvers.
//!
//! Shapes are authored in the local space of an attachment frame ([`Collider`])
//! and posed once per substep into plain, `Copy` [`WorldCollider`] records that
//! tight solver loops read. Every query is allocation-free and branch-light.
//!
//! - [`shape`]: shape kinds, authored and posed colliders, pose interpolation.
//! - [`geom`]: closest points between segments and on a segment.
//! - [`contact`]: clearance, point and segment push-out, swept contact.
//! - [`prepared`]: the same queries against a sphere or capsule whose axis
//!   terms are cached per substep (the spring solver's narrow phase).
//! - [`sdf`]: signed distance fields on a grid, built from a triangle mesh
//!   (the body, for strand collision).

pub mod contact;
pub mod geom;
pub mod prepared;
pub mod sdf;
pub mod shape;

pub use contact::{
    SegmentHit, clearance_point, clearance_segment, push_out_point, push_out_segment,
    push_out_segment_moving, push_out_segment_swept,
};
pub use geom::{closest_point_on_segment, closest_points_segments};
pub use prepared::PreparedRound;
pub use sdf::{SdfBuild, SdfError, SdfGrid, build_sdf};
pub use shape::{Collider, ShapeKind, WorldCollider};
