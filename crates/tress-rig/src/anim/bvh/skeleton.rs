//! A read BVH as the retargeter's source: the skeleton as nodes with rest
//! transforms (the OFFSETs, identity rotations: BVH's rest pose), the
//! motion as one clip (a rotation track per rotating joint, a translation
//! track per joint with position channels), in metres.

use glam::{Quat, Vec3};

use super::euler::{self, Axis};
use super::read::{Bvh, Channel as BvhChannel};
use tress_vrm::Warning;
use tress_vrm::model::{Animation, Avatar, Channel, ChannelValues, Interpolation, Node};

/// The unit a skeleton's offsets are in, judged from its size.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Units {
    /// Metres per file unit.
    pub metres_per_unit: f32,
    /// The skeleton's largest rest extent, file units.
    pub extent: f32,
    /// `metres` or `centimetres`.
    pub name: &'static str,
}

/// Rest positions of every joint (file units), parents first.
#[must_use]
pub fn rest_positions(bvh: &Bvh) -> Vec<Vec3> {
    let mut p = Vec::with_capacity(bvh.joints.len());
    for j in &bvh.joints {
        let base = j
            .parent
            .and_then(|q| p.get(q).copied())
            .unwrap_or(Vec3::ZERO);
        p.push(base + j.offset);
    }
    p
}

/// Units tried, in this order: the first that makes the skeleton's largest
/// rest extent a human's 0.9–2.4 m wins. CMU's motion capture (the
/// cgspeed BVH conversions) uses the ASF's `length 0.45`: one unit is
/// 1/0.45 inch.
pub const UNITS: [(&str, f32); 5] = [
    ("metres", 1.0),
    ("centimetres", 0.01),
    ("millimetres", 0.001),
    ("inches", 0.0254),
    ("CMU units (1/0.45 inch)", 0.0254 / 0.45),
];

/// The unit of a skeleton's offsets, judged from its size ([`UNITS`]);
/// none fitting, centimetres above 3 units and metres below. Only reports
/// and warnings depend on it: the retarget scales hips motion by the
/// leg-length ratio, whatever the unit.
#[must_use]
pub fn detect_units(bvh: &Bvh) -> Units {
    let p = rest_positions(bvh);
    let (lo, hi) = p.iter().fold(
        (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)),
        |(lo, hi), v| (lo.min(*v), hi.max(*v)),
    );
    let extent = if p.is_empty() {
        0.0
    } else {
        (hi - lo).max_element()
    };
    let (name, metres_per_unit) = UNITS
        .iter()
        .copied()
        .find(|(_, m)| (0.9..=2.4).contains(&(extent * m)))
        .unwrap_or(if extent > 3.0 { UNITS[1] } else { UNITS[0] });
    Units {
        metres_per_unit,
        extent,
        name,
    }
}

/// The BVH as an avatar with one animation named `clip`: node `i` is joint
/// `i`. Returns the avatar (no humanoid map yet) and the unit warning.
#[must_use]
pub fn to_avatar(bvh: &Bvh, clip: &str) -> Avatar {
    let units = detect_units(bvh);
    let s = units.metres_per_unit;
    let mut nodes: Vec<Node> = bvh
        .joints
        .iter()
        .map(|j| Node {
            name: j.name.clone(),
            parent: j.parent,
            children: Vec::new(),
            translation: j.offset * s,
            rotation: Quat::IDENTITY,
            scale: Vec3::ONE,
            mesh: None,
            skin: None,
        })
        .collect();
    for (i, j) in bvh.joints.iter().enumerate() {
        if let Some(p) = j.parent {
            nodes[p].children.push(i);
        }
    }
    let times: Vec<f32> = (0..bvh.frames).map(|f| f as f32 * bvh.frame_time).collect();
    let mut channels = Vec::new();
    for (n, j) in bvh.joints.iter().enumerate() {
        let rot: Vec<(usize, Axis)> = j
            .channels
            .iter()
            .enumerate()
            .filter_map(|(k, c)| match c {
                BvhChannel::Rotation(a) => Some((j.first_column + k, *a)),
                BvhChannel::Position(_) => None,
            })
            .collect();
        let pos: Vec<(usize, Axis)> = j
            .channels
            .iter()
            .enumerate()
            .filter_map(|(k, c)| match c {
                BvhChannel::Position(a) => Some((j.first_column + k, *a)),
                BvhChannel::Rotation(_) => None,
            })
            .collect();
        if !rot.is_empty() {
            let mut parts = Vec::with_capacity(3);
            let values = (0..bvh.frames)
                .map(|f| {
                    let row = bvh.row(f);
                    parts.clear();
                    parts.extend(rot.iter().map(|&(c, a)| (a, row[c])));
                    euler::compose(&parts)
                })
                .collect();
            channels.push(Channel {
                node: n,
                times: times.clone(),
                interpolation: Interpolation::Linear,
                values: ChannelValues::Rotation(values),
            });
        }
        if !pos.is_empty() {
            // Position channels replace the OFFSET on their axes; an axis
            // without one keeps the offset.
            let values = (0..bvh.frames)
                .map(|f| {
                    let row = bvh.row(f);
                    let mut v = j.offset.to_array();
                    for &(c, a) in &pos {
                        v[a.index()] = row[c];
                    }
                    Vec3::from(v) * s
                })
                .collect();
            channels.push(Channel {
                node: n,
                times: times.clone(),
                interpolation: Interpolation::Linear,
                values: ChannelValues::Translation(values),
            });
        }
    }
    let roots = (0..nodes.len())
        .filter(|&i| nodes[i].parent.is_none())
        .collect();
    let mut warnings = vec![Warning {
        path: String::new(),
        message: format!(
            "BVH offsets read as {} (the skeleton spans {:.3} file units){}",
            units.name,
            units.extent,
            if s == 1.0 {
                ""
            } else {
                ", converted to metres"
            }
        ),
    }];
    let height = units.extent * s;
    if !(0.3..=3.0).contains(&height) {
        warnings.push(Warning {
            path: String::new(),
            message: format!(
                "the skeleton spans {height:.2} m, not a human's 0.3–3 m; check the file's units"
            ),
        });
    }
    Avatar {
        animations: vec![Animation {
            name: clip.to_owned(),
            channels,
            duration: times.last().copied().unwrap_or(0.0),
        }],
        warnings,
        ..Avatar::skeleton_only(nodes, roots)
    }
}
