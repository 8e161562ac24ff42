//! One animation channel as glTF wants it, shared by the document builder
//! and the in-place editor.

use glam::Vec3;

/// One animation channel's glTF pieces: target path, flattened values,
/// accessor type and its width, interpolation name.
#[derive(Debug, Clone, PartialEq)]
pub struct ChannelData {
    /// glTF target path (`translation`, `rotation`, `scale`, `weights`).
    pub path: &'static str,
    /// Output values, flattened.
    pub values: Vec<f32>,
    /// Accessor type (`VEC3`, `VEC4`, `SCALAR`).
    pub ty: &'static str,
    /// Floats per output element.
    pub width: usize,
    /// glTF interpolation name.
    pub interpolation: &'static str,
}

/// The glTF pieces of one [`Channel`](crate::model::Channel).
#[must_use]
pub fn channel_data(c: &crate::model::Channel) -> ChannelData {
    use crate::model::{ChannelValues, Interpolation};
    let flat3 = |v: &[Vec3]| v.iter().flat_map(|x| x.to_array()).collect();
    let (path, values, ty, width) = match &c.values {
        ChannelValues::Translation(v) => ("translation", flat3(v), "VEC3", 3),
        ChannelValues::Rotation(v) => (
            "rotation",
            v.iter().flat_map(|x| x.to_array()).collect(),
            "VEC4",
            4,
        ),
        ChannelValues::Scale(v) => ("scale", flat3(v), "VEC3", 3),
        ChannelValues::Weights(v) => ("weights", v.clone(), "SCALAR", 1),
    };
    let interpolation = match c.interpolation {
        Interpolation::Linear => "LINEAR",
        Interpolation::Step => "STEP",
        Interpolation::CubicSpline => "CUBICSPLINE",
    };
    ChannelData {
        path,
        values,
        ty,
        width,
        interpolation,
    }
}
