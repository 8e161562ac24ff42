//! Level of detail for `TressStrandHair`: what the camera sees of the hair
//! (hidden, off screen, or the share of the view's height it covers) and
//! the detail level that follows from it.

use godot::classes::camera_3d::ProjectionType;
use godot::classes::{Camera3D, Node3D};
use godot::prelude::*;

/// How the hair is seen this frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum View {
    /// The node (or a parent) is hidden.
    Hidden,
    /// The hair's bounds are outside the current camera's frustum.
    OffScreen,
    /// On screen, its bounds' diameter covering this share of the view's
    /// height (1 with no camera to ask, e.g. headless).
    OnScreen(f32),
}

/// Detail levels: 0 full, 1 half, 2 quarter (step rate and drawn strands).
pub(crate) const LEVELS: u32 = 3;

/// A level is left only when the coverage passes its threshold by this
/// factor, so a camera resting near a threshold does not flicker.
const HYSTERESIS: f32 = 1.15;

/// How `node`'s hair, a sphere at `centre` of `radius` in world space, is
/// seen by its viewport's current camera.
pub(crate) fn view_of(node: &Gd<Node3D>, centre: Vector3, radius: f32) -> View {
    if !node.is_visible_in_tree() {
        return View::Hidden;
    }
    let Some(camera) = node.get_viewport().and_then(|v| v.get_camera_3d()) else {
        return View::OnScreen(1.0);
    };
    // Godot's frustum planes face outwards.
    for plane in camera.get_frustum().iter_shared() {
        if plane.distance_to(centre) > radius {
            return View::OffScreen;
        }
    }
    View::OnScreen(coverage(&camera, centre, radius))
}

/// The share of the camera's view height a sphere's diameter covers.
fn coverage(camera: &Gd<Camera3D>, centre: Vector3, radius: f32) -> f32 {
    let height = match camera.get_projection() {
        ProjectionType::ORTHOGONAL => camera.get_size(),
        _ => {
            let forward = -camera.get_global_transform().basis.col_c();
            let depth = (centre - camera.get_global_position()).dot(forward);
            let half = tress_core::math::ops::tan(camera.get_fov().to_radians() * 0.5);
            2.0 * depth.max(camera.get_near()) * half
        }
    };
    if height > 0.0 && height.is_finite() {
        (2.0 * radius / height).max(0.0)
    } else {
        1.0
    }
}

/// The level for `coverage` coming from level `current`: full detail at or
/// above `half`, half detail down to `quarter`, quarter below; a move back
/// to more detail needs the coverage `HYSTERESIS` times over its threshold.
pub(crate) fn level_for(coverage: f32, current: u32, half: f32, quarter: f32) -> u32 {
    let thresholds = [half, quarter];
    let mut level = 0;
    for (i, t) in thresholds.iter().enumerate() {
        // Going to more detail than now needs the margin; staying does not.
        let t = if (i as u32) < current {
            t * HYSTERESIS
        } else {
            *t
        };
        if coverage < t {
            level = i as u32 + 1;
        }
    }
    level.min(LEVELS - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_follow_coverage_with_hysteresis() {
        assert_eq!(level_for(0.5, 0, 0.2, 0.06), 0);
        assert_eq!(level_for(0.1, 0, 0.2, 0.06), 1);
        assert_eq!(level_for(0.01, 0, 0.2, 0.06), 2);
        // Just over the threshold is not enough to come back.
        assert_eq!(level_for(0.21, 1, 0.2, 0.06), 1);
        assert_eq!(level_for(0.24, 1, 0.2, 0.06), 0);
        assert_eq!(level_for(0.065, 2, 0.2, 0.06), 2);
        assert_eq!(level_for(0.07, 2, 0.2, 0.06), 1);
        // Going down needs no margin.
        assert_eq!(level_for(0.19, 0, 0.2, 0.06), 1);
        // NaN coverage keeps full detail rather than hiding hair.
        assert_eq!(level_for(f32::NAN, 0, 0.2, 0.06), 0);
    }
}
