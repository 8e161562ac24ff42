//! Editor gizmos: `TressCollider3D` shapes and `TressSpringHair` chains
//! drawn as wireframes in the 3D viewport.
//!
//! - [`TressGizmoEditorPlugin`]: the EditorPlugin gdext registers with the
//!   editor by itself (an `EditorPlugin` base class is enough in gdext 0.5);
//!   it adds the gizmo plugin on entering the editor and removes it on exit.
//! - [`TressGizmoPlugin`]: an `EditorNode3DGizmoPlugin` that draws both node
//!   kinds. Both are editor classes: gdext registers them at the editor
//!   level only, so an exported game never sees them.
//! - [`collider_lines`] and [`chain_lines`]: the wireframes as plain line
//!   lists, which the gizmo draws and `TressCollider3D.get_gizmo_lines()`
//!   returns for tests.

use godot::classes::{
    EditorNode3DGizmo, EditorNode3DGizmoPlugin, EditorPlugin, IEditorNode3DGizmoPlugin,
    IEditorPlugin, Material, Node3D,
};
use godot::prelude::*;
use tress_core::math::ops;

use crate::collider::TressCollider3D;
use crate::spring_hair::TressSpringHair;

/// Segments per full circle: smooth at the sizes colliders have on screen.
const CIRCLE_SEGMENTS: usize = 32;
/// Half the side of the square that stands for a (boundless) plane, metres.
const PLANE_HALF: f32 = 0.25;

/// Outside shapes: orange, the colour Godot's own physics shapes are not.
const OUTSIDE_COLOUR: Color = Color::from_rgba(1.0, 0.55, 0.1, 1.0);
/// Inside shapes (hair kept in): magenta, unmistakably not an outside one.
const INSIDE_COLOUR: Color = Color::from_rgba(0.9, 0.2, 0.9, 1.0);
/// Chain segments, joint to tail.
const CHAIN_COLOUR: Color = Color::from_rgba(0.3, 0.95, 0.4, 1.0);
/// Joint hit radii.
const RADIUS_COLOUR: Color = Color::from_rgba(1.0, 0.9, 0.2, 1.0);

/// Adds [`TressGizmoPlugin`] to the editor's 3D view.
#[derive(GodotClass)]
#[class(tool, init, base = EditorPlugin)]
pub struct TressGizmoEditorPlugin {
    gizmos: Option<Gd<TressGizmoPlugin>>,
    base: Base<EditorPlugin>,
}

#[godot_api]
impl IEditorPlugin for TressGizmoEditorPlugin {
    fn enter_tree(&mut self) {
        let mut gizmos = TressGizmoPlugin::new_gd();
        gizmos.bind_mut().create_materials();
        self.base_mut().add_node_3d_gizmo_plugin(&gizmos);
        self.gizmos = Some(gizmos);
    }

    fn exit_tree(&mut self) {
        if let Some(gizmos) = self.gizmos.take() {
            self.base_mut().remove_node_3d_gizmo_plugin(&gizmos);
        }
    }
}

/// Draws `TressCollider3D` shapes (outside shapes orange, inside shapes
/// magenta) and `TressSpringHair` chains (segments green, joint hit radii
/// yellow) in the editor's 3D view.
#[derive(GodotClass)]
#[class(tool, init, base = EditorNode3DGizmoPlugin)]
pub struct TressGizmoPlugin {
    base: Base<EditorNode3DGizmoPlugin>,
}

#[godot_api]
impl IEditorNode3DGizmoPlugin for TressGizmoPlugin {
    fn has_gizmo(&self, node: Option<Gd<Node3D>>) -> bool {
        node.is_some_and(|n| n.is_class("TressCollider3D") || n.is_class("TressSpringHair"))
    }

    fn get_gizmo_name(&self) -> GString {
        "Tress".into()
    }

    fn redraw(&mut self, gizmo: Option<Gd<EditorNode3DGizmo>>) {
        let Some(mut gizmo) = gizmo else {
            return;
        };
        gizmo.clear();
        let Some(node) = gizmo.get_node_3d() else {
            return;
        };
        let node = match node.try_cast::<TressCollider3D>() {
            Ok(collider) => {
                let (lines, inside) = {
                    let c = collider.bind();
                    (c.get_gizmo_lines(), c.is_inside_shape())
                };
                let name = if inside { "inside" } else { "outside" };
                self.add_lines(&mut gizmo, &lines, name);
                gizmo.add_collision_segments(&lines);
                return;
            }
            Err(node) => node,
        };
        if let Ok(hair) = node.try_cast::<TressSpringHair>() {
            let to_local = hair.get_global_transform().affine_inverse();
            let (segments, radii) = chain_lines(&hair.bind().joint_segments());
            let local = |pts: Vec<Vector3>| -> PackedVector3Array {
                pts.into_iter().map(|p| to_local * p).collect()
            };
            let (segments, radii) = (local(segments), local(radii));
            self.add_lines(&mut gizmo, &segments, "chain");
            self.add_lines(&mut gizmo, &radii, "radius");
            gizmo.add_collision_segments(&segments);
        }
    }
}

impl TressGizmoPlugin {
    /// The line materials, made once the plugin exists (Godot keeps them
    /// per plugin, with selected and unselected variants).
    fn create_materials(&mut self) {
        for (name, colour) in [
            ("outside", OUTSIDE_COLOUR),
            ("inside", INSIDE_COLOUR),
            ("chain", CHAIN_COLOUR),
            ("radius", RADIUS_COLOUR),
        ] {
            self.base_mut().create_material(name, colour);
        }
    }

    fn add_lines(&self, gizmo: &mut Gd<EditorNode3DGizmo>, lines: &PackedVector3Array, name: &str) {
        if lines.is_empty() {
            return;
        }
        let Some(material) = self.base().get_material_ex(name).gizmo(&*gizmo).done() else {
            return;
        };
        gizmo.add_lines(lines, &material.upcast::<Material>());
    }
}

/// A circle of `radius` about `centre` in the plane of unit axes `u`, `v`,
/// from angle `from` to `to` (radians), as line segments.
fn arc(
    out: &mut Vec<Vector3>,
    centre: Vector3,
    u: Vector3,
    v: Vector3,
    radius: f32,
    from: f32,
    to: f32,
) {
    let n = ((CIRCLE_SEGMENTS as f32 * (to - from).abs() / core::f32::consts::TAU).ceil() as usize)
        .max(2);
    let at = |k: usize| {
        let a = from + (to - from) * k as f32 / n as f32;
        centre + (u * ops::cos(a) + v * ops::sin(a)) * radius
    };
    for k in 0..n {
        out.push(at(k));
        out.push(at(k + 1));
    }
}

/// Three great circles: a sphere's wireframe.
fn wire_sphere(out: &mut Vec<Vector3>, centre: Vector3, radius: f32) {
    let (x, y, z) = (Vector3::RIGHT, Vector3::UP, Vector3::BACK);
    let tau = core::f32::consts::TAU;
    arc(out, centre, x, y, radius, 0.0, tau);
    arc(out, centre, y, z, radius, 0.0, tau);
    arc(out, centre, z, x, radius, 0.0, tau);
}

/// The wireframe of a `TressCollider3D` shape (0 sphere, 1 capsule, 2 plane,
/// 3 inside sphere, 4 inside capsule; others draw as a sphere, as the
/// collider treats them) in the shape's own frame, as pairs of points.
///
/// Capsules run along Y with `height` between the cap centres; a plane is
/// a square in XZ with its +Y normal as an arrow.
#[must_use]
pub fn collider_lines(shape: i32, radius: f32, height: f32) -> Vec<Vector3> {
    let r = if radius.is_finite() {
        radius.max(0.0)
    } else {
        0.0
    };
    let half = if height.is_finite() {
        height.max(0.0) * 0.5
    } else {
        0.0
    };
    let (x, y, z) = (Vector3::RIGHT, Vector3::UP, Vector3::BACK);
    let pi = core::f32::consts::PI;
    let mut out = Vec::new();
    match shape {
        1 | 4 => {
            let (top, bottom) = (y * half, -y * half);
            for c in [top, bottom] {
                arc(&mut out, c, x, z, r, 0.0, 2.0 * pi);
            }
            for side in [x, -x, z, -z] {
                out.push(top + side * r);
                out.push(bottom + side * r);
            }
            // Half circles close the caps, in the XY and ZY planes.
            for u in [x, z] {
                arc(&mut out, top, u, y, r, 0.0, pi);
                arc(&mut out, bottom, u, -y, r, 0.0, pi);
            }
        }
        2 => {
            let corners = [
                Vector3::new(-PLANE_HALF, 0.0, -PLANE_HALF),
                Vector3::new(PLANE_HALF, 0.0, -PLANE_HALF),
                Vector3::new(PLANE_HALF, 0.0, PLANE_HALF),
                Vector3::new(-PLANE_HALF, 0.0, PLANE_HALF),
            ];
            for k in 0..4 {
                out.push(corners[k]);
                out.push(corners[(k + 1) % 4]);
            }
            // The normal, with a head, says which side the hair stays on.
            let tip = y * PLANE_HALF;
            out.extend([Vector3::ZERO, tip]);
            for side in [x, -x, z, -z] {
                out.extend([tip, tip * 0.7 + side * PLANE_HALF * 0.15]);
            }
        }
        _ => wire_sphere(&mut out, Vector3::ZERO, r),
    }
    out
}

/// A chain gizmo's lines from each joint's (origin, tail, hit radius):
/// the segments joint to tail, and a small wire sphere of the hit radius
/// at every tail, in the same space as the joints.
#[must_use]
pub fn chain_lines(chains: &[Vec<(Vector3, Vector3, f32)>]) -> (Vec<Vector3>, Vec<Vector3>) {
    let mut segments = Vec::new();
    let mut radii = Vec::new();
    for chain in chains {
        for &(origin, tail, r) in chain {
            segments.extend([origin, tail]);
            if r > 0.0 && r.is_finite() {
                wire_sphere(&mut radii, tail, r);
            }
        }
    }
    (segments, radii)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn max_len(lines: &[Vector3]) -> f32 {
        lines.iter().map(|p| p.length()).fold(0.0, f32::max)
    }

    #[test]
    fn sphere_wire_lies_on_the_sphere() {
        let lines = collider_lines(0, 0.3, 1.0);
        assert_eq!(lines.len(), 3 * CIRCLE_SEGMENTS * 2);
        assert!(lines.iter().all(|p| (p.length() - 0.3).abs() < 1e-5));
    }

    #[test]
    fn capsule_wire_reaches_the_caps() {
        // Half height 0.2 plus radius 0.1: the caps' tips at ±0.3 on Y.
        let lines = collider_lines(1, 0.1, 0.4);
        let top = lines.iter().map(|p| p.y).fold(f32::MIN, f32::max);
        assert!((top - 0.3).abs() < 1e-5, "top {top}");
        assert_eq!(
            collider_lines(4, 0.1, 0.4),
            lines,
            "inside capsule: same wire"
        );
    }

    #[test]
    fn plane_wire_is_a_square_and_a_normal() {
        let lines = collider_lines(2, 0.0, 0.0);
        assert_eq!(lines.len(), 2 * (4 + 1 + 4));
        assert!(lines.iter().any(|p| p.y > 0.2), "the normal points up");
        assert!((max_len(&lines) - PLANE_HALF * core::f32::consts::SQRT_2).abs() < 1e-5);
    }

    #[test]
    fn bad_sizes_draw_nothing_wrong() {
        let lines = collider_lines(1, f32::NAN, f32::INFINITY);
        assert!(lines.iter().all(|p| p.is_finite()));
    }

    #[test]
    fn chain_draws_each_segment_and_radius() {
        let joint = (Vector3::ZERO, Vector3::new(0.0, -0.1, 0.0), 0.02);
        let (segments, radii) = chain_lines(&[vec![joint, joint]]);
        assert_eq!(segments.len(), 4);
        assert_eq!(radii.len(), 2 * 3 * CIRCLE_SEGMENTS * 2);
    }
}
