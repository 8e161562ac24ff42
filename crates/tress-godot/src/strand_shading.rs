//! What `TressStrandHair` hands its hair shader: the default material, the
//! per-strand random number in the ribbon's UV2, and the hair volume the
//! shader's self-shadowing term measures light paths through.
//!
//! The shading model itself lives in `godot-project/strands/hair_ribbon.gdshader`
//! (built into the extension); `docs/STRANDS.md#shading` describes it.

use godot::classes::{ImageTexture, ResourceLoader, Shader, ShaderMaterial};
use godot::prelude::*;
use tress_core::math::Vec3;
use tress_core::strand::Pose;

use crate::convert::vector3;

/// A project's own ribbon shader, used instead of the built-in one when
/// present: the addon's copy (which a user may edit), then the demo
/// project's (`godot-project/strands/`, the built-in one's source).
const SHADERS: [&str; 2] = [
    "res://addons/tress/shaders/hair_ribbon.gdshader",
    "res://strands/hair_ribbon.gdshader",
];
/// The ribbon shader built into the extension, so strands draw in any
/// project and in exported games (the demo project's file is its source).
const SHADER_CODE: &str = include_str!("../../../godot-project/strands/hair_ribbon.gdshader");

/// Default root and tip colours: dark brown roots, lighter tips (the
/// shader's own defaults, so a material made here and one made from the
/// shader file in the editor look the same).
pub const ROOT_COLOR: Color = Color::from_rgb(0.14, 0.08, 0.045);
pub const TIP_COLOR: Color = Color::from_rgb(0.52, 0.33, 0.18);

/// The hair shader: the project's copy when there is one, else the built-in.
fn hair_shader() -> Gd<Shader> {
    let mut loader = ResourceLoader::singleton();
    let found = SHADERS.iter().find(|p| loader.exists(**p));
    let shader = found.and_then(|p| loader.load(*p).and_then(|r| r.try_cast::<Shader>().ok()));
    shader.unwrap_or_else(|| {
        let mut s = Shader::new_gd();
        s.set_code(SHADER_CODE);
        s
    })
}

/// A new material with the hair shader and these colours.
pub fn default_material(root: Color, tip: Color) -> Gd<ShaderMaterial> {
    let mut mat = ShaderMaterial::new_gd();
    mat.set_shader(&hair_shader());
    set_colors(&mut mat, root, tip);
    mat
}

/// Writes the root and tip colours into a hair material.
pub fn set_colors(mat: &mut Gd<ShaderMaterial>, root: Color, tip: Color) {
    mat.set_shader_parameter("root_color", &root.to_variant());
    mat.set_shader_parameter("tip_color", &tip.to_variant());
}

/// The uniforms through which the hair shader places render strands from
/// the guide texture (`strand_follow`); 0 width draws the mesh's own
/// positions.
const GUIDE_POINTS: &str = "guide_points";
const GUIDE_WIDTH: &str = "guide_texture_width";

/// Whether `mat`'s shader can place render strands from a guide texture.
#[must_use]
pub fn places_from_guides(mat: &Gd<ShaderMaterial>) -> bool {
    mat.get_shader().is_some_and(|shader| {
        shader.get_shader_uniform_list().iter_shared().any(|u| {
            u.try_to::<VarDictionary>()
                .ok()
                .and_then(|d| d.get("name"))
                .is_some_and(|n| n.to_string() == GUIDE_POINTS)
        })
    })
}

/// Hands the shader this frame's guide texture.
pub fn set_guides(mat: &mut Gd<ShaderMaterial>, texture: &Gd<ImageTexture>, width: usize) {
    mat.set_shader_parameter(GUIDE_POINTS, &texture.to_variant());
    mat.set_shader_parameter(GUIDE_WIDTH, &(width as i32).to_variant());
}

/// Tells a shader that can place strands that this mesh holds positions.
pub fn clear_guides(mat: &mut Gd<ShaderMaterial>) {
    if places_from_guides(mat) {
        mat.set_shader_parameter(GUIDE_WIDTH, &0.to_variant());
    }
}

/// A strand's random number in [0, 1): the same strand gets the same value
/// on every load, and neighbours (strands are ordered along the scalp) get
/// unrelated ones, so brightness and glints do not band.
#[must_use]
pub fn strand_random(strand: usize) -> f32 {
    // A 32-bit integer finaliser (xorshift-multiply): cheap, well mixed.
    let mut x = (strand as u32).wrapping_add(0x9e37_79b9);
    x = (x ^ (x >> 16)).wrapping_mul(0x7feb_352d);
    x = (x ^ (x >> 15)).wrapping_mul(0x846c_a68b);
    x ^= x >> 16;
    (x >> 8) as f32 / (1u32 << 24) as f32
}

/// The sphere that stands for the hair volume in the shader's
/// self-shadowing, in the attachment's frame.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct HairVolume {
    pub centre: Vec3,
    pub radius: f32,
}

impl HairVolume {
    /// Centred on the groom's median point (per axis), its radius the
    /// distance within which 90 % of the points lie: the few strays of a
    /// real groom neither move nor blow it up, and most of the hair is
    /// inside it. None for no points or no extent.
    #[must_use]
    pub fn of_points(points: &[Vec3]) -> Option<Self> {
        if points.is_empty() {
            return None;
        }
        let centre = Vec3::new(
            quantile(points.iter().map(|p| p.x).collect(), 0.5),
            quantile(points.iter().map(|p| p.y).collect(), 0.5),
            quantile(points.iter().map(|p| p.z).collect(), 0.5),
        );
        let radius = quantile(points.iter().map(|p| (*p - centre).length()).collect(), 0.9);
        (radius.is_finite() && radius > 0.0 && centre.is_finite())
            .then_some(Self { centre, radius })
    }

    /// Writes the volume, carried by `pose`, into a hair material.
    pub fn apply(&self, pose: &Pose, mat: &mut Gd<ShaderMaterial>) {
        let c = vector3(pose.transform_point(self.centre));
        mat.set_shader_parameter("volume_center", &c.to_variant());
        mat.set_shader_parameter("volume_radius", &self.radius.to_variant());
    }
}

/// The value below which a fraction `q` of `values` lies (not empty).
fn quantile(mut values: Vec<f32>, q: f32) -> f32 {
    let k = ((values.len() as f32 * q) as usize).min(values.len() - 1);
    *values.select_nth_unstable_by(k, f32::total_cmp).1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strand_random_is_in_range_and_spread() {
        let v: Vec<f32> = (0..10_000).map(strand_random).collect();
        assert!(v.iter().all(|x| (0.0..1.0).contains(x)));
        let mean = v.iter().sum::<f32>() / v.len() as f32;
        assert!((mean - 0.5).abs() < 0.02, "mean {mean}");
        // Neighbours unrelated: mean gap of a uniform pair is 1/3.
        let gap = v.windows(2).map(|w| (w[0] - w[1]).abs()).sum::<f32>() / 9_999.0;
        assert!((gap - 1.0 / 3.0).abs() < 0.02, "gap {gap}");
    }

    #[test]
    fn volume_holds_most_points_and_ignores_strays() {
        let mut pts: Vec<Vec3> = (0..100)
            .map(|i| Vec3::new((i % 10) as f32 * 0.01, (i / 10) as f32 * 0.01, 0.0))
            .collect();
        pts.push(Vec3::new(100.0, 0.0, 0.0));
        let v = HairVolume::of_points(&pts).unwrap();
        let inside = pts
            .iter()
            .filter(|p| (**p - v.centre).length() <= v.radius)
            .count();
        assert!(inside >= 90, "{inside} of 101 inside");
        assert!(
            v.radius < 1.0,
            "a stray point 100 m away set the radius to {}",
            v.radius
        );
        assert_eq!(HairVolume::of_points(&[]), None);
        assert_eq!(HairVolume::of_points(&[Vec3::ONE]), None);
    }
}
