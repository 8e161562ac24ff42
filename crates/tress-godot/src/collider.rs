//! `TressCollider3D`: a collision shape for `TressSpringHair` set up in the
//! editor.

use godot::classes::{INode3D, Node3D};
use godot::prelude::*;
use tress_vrm::ColliderShape;

use crate::convert::vec3;

/// A sphere, capsule, plane or inside shape that keeps spring hair out (or in).
///
/// Put it anywhere under the Skeleton3D that holds the `TressSpringHair`. With
/// **Bone Name** set it follows that bone, offset by this node's own
/// transform; otherwise it follows this node's global transform (e.g. under
/// a BoneAttachment3D). Capsules run along local Y; a plane's normal is
/// local +Y.
#[derive(GodotClass)]
#[class(base = Node3D, init)]
pub struct TressCollider3D {
    /// Shape: sphere, capsule, plane, inside sphere (keeps hair inside),
    /// inside capsule.
    #[export(enum = (Sphere = 0, Capsule = 1, Plane = 2, InsideSphere = 3, InsideCapsule = 4))]
    pub shape: i32,
    /// Radius (metres); unused for planes.
    #[export]
    #[init(val = 0.1)]
    pub radius: f32,
    /// Capsule length between the centres of its end caps (metres).
    #[export]
    #[init(val = 0.2)]
    pub height: f32,
    /// Skeleton bone this collider follows; empty: follow this node.
    #[export]
    pub bone_name: GString,
    base: Base<Node3D>,
}

#[godot_api]
impl INode3D for TressCollider3D {}

impl TressCollider3D {
    /// The shape in the frame it follows: the bone's (offset by this node's
    /// local transform) when `bone_name` is set, else this node's own.
    #[must_use]
    pub fn shape_in_frame(&self) -> ColliderShape {
        let local = if self.bone_name.is_empty() {
            Transform3D::IDENTITY
        } else {
            self.base().get_transform()
        };
        let half = self.height.max(0.0) * 0.5;
        let at = |p: Vector3| vec3(local * p);
        let radius = self.radius.max(0.0);
        match self.shape {
            1 => ColliderShape::Capsule {
                offset: at(Vector3::new(0.0, -half, 0.0)),
                tail: at(Vector3::new(0.0, half, 0.0)),
                radius,
            },
            2 => ColliderShape::Plane {
                offset: at(Vector3::ZERO),
                normal: vec3(local.basis * Vector3::UP),
            },
            3 => ColliderShape::InsideSphere {
                offset: at(Vector3::ZERO),
                radius,
            },
            4 => ColliderShape::InsideCapsule {
                offset: at(Vector3::new(0.0, -half, 0.0)),
                tail: at(Vector3::new(0.0, half, 0.0)),
                radius,
            },
            _ => ColliderShape::Sphere {
                offset: at(Vector3::ZERO),
                radius,
            },
        }
    }
}
