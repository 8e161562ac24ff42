//! `TressCollider3D`: a collision shape for `TressSpringHair` set up in the
//! editor.

use core::sync::atomic::{AtomicU32, Ordering};

use godot::classes::notify::Node3DNotification;
use godot::classes::{Engine, INode3D, Node3D, Skeleton3D};
use godot::prelude::*;
use tress_vrm::ColliderShape;

use crate::convert::vec3;

/// A sphere, capsule, plane or inside shape that keeps spring hair out (or in).
///
/// Put it anywhere under the Skeleton3D that holds the `TressSpringHair`. With
/// **Bone Name** set it follows that bone, offset by this node's own
/// transform; otherwise it follows this node's global transform (e.g. under
/// a BoneAttachment3D). Capsules run along local Y; a plane's normal is
/// local +Y. Edits reach a running TressSpringHair at its next update; in
/// the editor a gizmo draws the shape where the hair meets it.
#[derive(GodotClass)]
#[class(tool, base = Node3D, init)]
pub struct TressCollider3D {
    /// Shape: sphere, capsule, plane, inside sphere (keeps hair inside),
    /// inside capsule.
    #[export(enum = (Sphere = 0, Capsule = 1, Plane = 2, InsideSphere = 3, InsideCapsule = 4))]
    #[var(set = set_shape)]
    pub shape: i32,
    /// Radius (metres); unused for planes.
    #[export]
    #[var(set = set_radius)]
    #[init(val = 0.1)]
    pub radius: f32,
    /// Capsule length between the centres of its end caps (metres).
    #[export]
    #[var(set = set_height)]
    #[init(val = 0.2)]
    pub height: f32,
    /// Skeleton bone this collider follows; empty: follow this node.
    #[export]
    #[var(set = set_bone_name)]
    pub bone_name: GString,
    base: Base<Node3D>,
}

/// Counts every change to any `TressCollider3D` that can change the shape a
/// running `TressSpringHair` holds for it: a setter, a move of the node
/// itself, entering or leaving the tree. A hair node compares it with the
/// count it last saw, so a game whose colliders stay put pays one load per
/// frame instead of reading every collider's properties.
static EDITS: AtomicU32 = AtomicU32::new(0);

/// The current value of the collider edit count (see `EDITS`).
pub fn edit_count() -> u32 {
    EDITS.load(Ordering::Relaxed)
}

fn edited() {
    EDITS.fetch_add(1, Ordering::Relaxed);
}

/// Every `TressCollider3D` below `root`, in tree order, owned or not (a
/// collider added by a script has no owner).
pub fn colliders_under(root: &Gd<Node>) -> Vec<Gd<TressCollider3D>> {
    root.find_children_ex("*")
        .type_("TressCollider3D")
        .recursive(true)
        .owned(false)
        .done()
        .iter_shared()
        .filter_map(|n| n.try_cast::<TressCollider3D>().ok())
        .collect()
}

#[godot_api]
impl INode3D for TressCollider3D {
    fn on_notification(&mut self, what: Node3DNotification) {
        if what == Node3DNotification::LOCAL_TRANSFORM_CHANGED {
            edited();
        }
    }

    fn enter_tree(&mut self) {
        edited();
        // A bone-following collider's offset is this node's local transform.
        self.base_mut().set_notify_local_transform(true);
        if Engine::singleton().is_editor_hint() {
            self.ask_hair_to_rebuild();
        }
    }

    fn ready(&mut self) {
        // A bone-following collider's gizmo is redrawn each frame (the
        // bone moves without this node's transform changing); only the
        // editor draws it. Set here, not on entering the tree: Godot
        // switches processing on at the first ready (this class has a
        // `process`), and the flag outlives leaving the tree.
        let editor = Engine::singleton().is_editor_hint();
        self.base_mut().set_process(editor);
    }

    fn exit_tree(&mut self) {
        edited();
        if Engine::singleton().is_editor_hint() {
            self.ask_hair_to_rebuild();
        }
    }

    fn process(&mut self, _delta: f64) {
        if !self.bone_name.is_empty() {
            self.base_mut().update_gizmos();
        }
    }
}

#[godot_api]
impl TressCollider3D {
    /// Sets the shape (0 sphere … 4 inside capsule).
    #[func]
    pub fn set_shape(&mut self, shape: i32) {
        self.shape = shape;
        edited();
        self.base_mut().update_gizmos();
    }

    /// Sets the radius (metres).
    #[func]
    pub fn set_radius(&mut self, radius: f32) {
        self.radius = radius;
        edited();
        self.base_mut().update_gizmos();
    }

    /// Sets the capsule height (metres).
    #[func]
    pub fn set_height(&mut self, height: f32) {
        self.height = height;
        edited();
        self.base_mut().update_gizmos();
    }

    /// Sets the bone followed (empty: this node).
    #[func]
    pub fn set_bone_name(&mut self, bone: GString) {
        self.bone_name = bone;
        edited();
        self.base_mut().update_gizmos();
    }

    /// The gizmo's wireframe as line segments (pairs of points) in this
    /// node's local space: where the shape is, also when it follows a bone.
    #[func]
    pub fn get_gizmo_lines(&self) -> PackedVector3Array {
        let to_local = self.base().get_global_transform().affine_inverse() * self.shape_frame();
        let mut out = PackedVector3Array::new();
        for p in crate::editor_gizmos::collider_lines(self.shape, self.radius, self.height) {
            out.push(to_local * p);
        }
        out
    }

    /// Whether the shape keeps hair inside (inside sphere or capsule).
    #[func]
    pub fn is_inside_shape(&self) -> bool {
        matches!(self.shape, 3 | 4)
    }
}

impl TressCollider3D {
    /// World transform of the shape's own frame: the bone's pose times this
    /// node's local transform, or this node's global transform.
    fn shape_frame(&self) -> Transform3D {
        let own = self.base().get_global_transform();
        if self.bone_name.is_empty() {
            return own;
        }
        let Some(skel) = self.skeleton() else {
            return own;
        };
        let b = skel.find_bone(&self.bone_name);
        if b < 0 {
            return own;
        }
        skel.get_global_transform() * skel.get_bone_global_pose(b) * self.base().get_transform()
    }

    /// The nearest Skeleton3D above this node.
    fn skeleton(&self) -> Option<Gd<Skeleton3D>> {
        let mut at = self.base().get_parent();
        while let Some(n) = at {
            match n.try_cast::<Skeleton3D>() {
                Ok(s) => return Some(s),
                Err(n) => at = n.get_parent(),
            }
        }
        None
    }

    /// The editor added or removed this collider: every TressSpringHair of
    /// its skeleton rebuilds (deferred, so a whole scene loading or closing
    /// rebuilds once, and never while a hair node is busy).
    fn ask_hair_to_rebuild(&self) {
        let Some(skel) = self.skeleton() else {
            return;
        };
        for child in skel.get_children().iter_shared() {
            if child.is_class("TressSpringHair") {
                let mut child = child;
                child.call_deferred("request_rebuild", &[]);
            }
        }
    }

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
