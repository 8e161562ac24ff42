//! Checks of a retargeted clip: validity (what the validation command
//! reports) and measurements that look at the resulting motion.

use alloc::collections::BTreeSet;

use glam::{Mat4, Vec3};

use super::bone_map::REQUIRED;
use super::clip::Clip;
use super::sample::{Local, world_from_local};
use super::soles::Soles;
use crate::skin::{SkinnedVertex, skinned_vertices};
use tress_core::math::ops;
use tress_vrm::model::Avatar;

/// What the validation found wrong with one clip on one avatar.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Validity {
    /// Required body bones without a track.
    pub missing_required: Vec<&'static str>,
    /// Rotation or translation values that are NaN or infinite.
    pub non_finite: usize,
    /// Rotations whose length is off one by more than 1e-3.
    pub non_unit: usize,
    /// Tracks written on spring (hair) joints.
    pub hair_tracks: usize,
}

impl Validity {
    /// Nothing wrong.
    #[must_use]
    pub fn ok(&self) -> bool {
        self.missing_required.is_empty()
            && self.non_finite == 0
            && self.non_unit == 0
            && self.hair_tracks == 0
    }
}

/// Validates `clip` as retargeted onto `target`.
#[must_use]
pub fn validate(clip: &Clip, target: &Avatar) -> Validity {
    let hair = crate::skin::spring_nodes(target);
    let mut v = Validity::default();
    for r in REQUIRED {
        if !clip
            .tracks
            .iter()
            .any(|t| t.bone == r && t.rotations.len() == clip.times.len())
        {
            v.missing_required.push(r);
        }
    }
    for t in &clip.tracks {
        if hair.contains(&t.node) {
            v.hair_tracks += 1;
        }
        for q in &t.rotations {
            if !q.is_finite() {
                v.non_finite += 1;
            } else if (tress_core::math::quat::length(*q) - 1.0).abs() > 1e-3 {
                v.non_unit += 1;
            }
        }
    }
    if hair.contains(&clip.hips_node) {
        v.hair_tracks += 1;
    }
    v.non_finite += clip
        .hips_translation
        .iter()
        .filter(|p| !p.is_finite())
        .count();
    v.non_finite += clip.times.iter().filter(|t| !t.is_finite()).count();
    v
}

/// World matrices of every target node for each frame of the clip.
#[must_use]
pub fn world_frames(clip: &Clip, target: &Avatar) -> Vec<Vec<Mat4>> {
    let mut local: Vec<Local> = Vec::new();
    (0..clip.times.len())
        .map(|i| {
            clip.apply_frame(target, i, &mut local);
            let mut w = Vec::new();
            world_from_local(target, &local, &mut w);
            w
        })
        .collect()
}

/// Feet against the ground: per frame, the height of the lowest sole point
/// above the rest ground (the lowest foot vertex at rest). Sole points are
/// the rest vertices skinned mostly to the foot and toe bones, carried
/// rigidly by those bones; without such vertices, the ankle and toe joints.
#[derive(Debug, Clone, PartialEq)]
pub struct FootContact {
    /// Per frame, metres (negative: below the ground).
    pub offset: Vec<f32>,
    /// Largest |offset|, metres.
    pub worst: f32,
    /// Whether sole points came from the mesh.
    pub from_mesh: bool,
}

/// Measures [`FootContact`] over `frames` (from [`world_frames`]).
#[must_use]
pub fn foot_contact(target: &Avatar, frames: &[Vec<Mat4>]) -> Option<FootContact> {
    let h = target.humanoid.as_ref()?;
    let rest = target.rest_world();
    let found = Soles::new(target, &rest)?;
    let from_mesh = !found.feet.is_empty();
    let (sole, ground): (Vec<SkinnedVertex>, f32) = if from_mesh {
        (
            found.feet.into_iter().flat_map(|(_, v)| v).collect(),
            found.ground,
        )
    } else {
        // No skinned feet: the ankle and toe joints themselves, bound at rest.
        let joints: Vec<SkinnedVertex> = ["leftFoot", "rightFoot", "leftToes", "rightToes"]
            .iter()
            .filter_map(|b| h.bone(b))
            .map(|b| SkinnedVertex {
                position: rest[b].w_axis.truncate(),
                influences: vec![(b, tress_core::math::affine::inverse(&rest[b]), 1.0)],
                owner: b,
            })
            .collect();
        if joints.is_empty() {
            return None;
        }
        let ground = joints
            .iter()
            .map(|v| v.position.y)
            .fold(f32::INFINITY, f32::min);
        (
            joints
                .into_iter()
                .filter(|v| v.position.y <= ground + 0.03)
                .collect(),
            ground,
        )
    };
    let offset: Vec<f32> = frames
        .iter()
        .map(|w| {
            sole.iter()
                .map(|v| v.skin(w).y - ground)
                .fold(f32::INFINITY, f32::min)
        })
        .collect();
    let worst = offset.iter().fold(0.0f32, |a, o| a.max(o.abs()));
    Some(FootContact {
        offset,
        worst,
        from_mesh,
    })
}

/// The upper torso at rest, as an elliptic cylinder around the hips–neck
/// line: half-width and half-depth hold 90 % of the rest vertices skinned
/// mostly to the spine, chest and upper chest (not the hips, where skirts
/// and the pelvis flare). It moves rigidly with the highest of those bones.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Torso {
    /// Rest hips position (bottom of the axis).
    pub base: Vec3,
    /// Unit axis up the body and its length to the neck.
    pub axis: Vec3,
    /// Axis length, metres.
    pub length: f32,
    /// Unit direction toward the character's left.
    pub lateral: Vec3,
    /// Half-width (along `lateral`), metres.
    pub half_width: f32,
    /// Half-depth (front to back), metres.
    pub half_depth: f32,
    /// The bone it moves with.
    pub bone: usize,
}

impl Torso {
    /// Signed clearance of a rest-space point outside the cylinder's side,
    /// measured radially, metres (points beyond either end are outside by
    /// their distance past it).
    #[must_use]
    pub fn clearance(&self, p: Vec3) -> f32 {
        let d = p - self.base;
        let along = d.dot(self.axis);
        let forward = self.lateral.cross(self.axis);
        let x = d.dot(self.lateral);
        let z = d.dot(forward);
        let r = Vec3::new(x, 0.0, z).length();
        let ellipse = if r > 1e-9 {
            let (c, s) = (x / r, z / r);
            self.half_width * self.half_depth / ops::hypot(self.half_depth * c, self.half_width * s)
        } else {
            self.half_width.min(self.half_depth)
        };
        let side = r - ellipse;
        let beyond = if along < 0.0 {
            -along
        } else {
            along - self.length
        };
        if beyond > 0.0 { side.max(beyond) } else { side }
    }
}

/// Fits [`Torso`] to the target's skinned body at rest.
#[must_use]
pub fn torso(target: &Avatar) -> Option<Torso> {
    let h = target.humanoid.as_ref()?;
    let rest = target.rest_world();
    let pos = |b: &str| Some(rest.get(h.bone(b)?)?.w_axis.truncate());
    let base = pos("hips")?;
    let top = pos("neck").or_else(|| pos("head"))?;
    let axis = (top - base).try_normalize()?;
    let length = base.distance(top);
    let hips_line = pos("leftUpperLeg")? - pos("rightUpperLeg")?;
    let lateral = (hips_line - axis * hips_line.dot(axis)).try_normalize()?;
    let forward = lateral.cross(axis);
    let trunk_names = ["spine", "chest", "upperChest"];
    let trunk: BTreeSet<usize> = trunk_names.iter().filter_map(|n| h.bone(n)).collect();
    let bone = trunk_names.iter().rev().find_map(|n| h.bone(n))?;
    let verts: Vec<Vec3> = skinned_vertices(target, &trunk)
        .iter()
        .map(|v| v.skin(&rest))
        .filter(|p| p.is_finite())
        .collect();
    if verts.len() < 8 {
        return None;
    }
    let mut xs: Vec<f32> = verts
        .iter()
        .map(|p| (*p - base).dot(lateral).abs())
        .collect();
    let mut zs: Vec<f32> = verts
        .iter()
        .map(|p| (*p - base).dot(forward).abs())
        .collect();
    xs.sort_by(f32::total_cmp);
    zs.sort_by(f32::total_cmp);
    Some(Torso {
        base,
        axis,
        length,
        lateral,
        half_width: xs[xs.len() * 9 / 10],
        half_depth: zs[zs.len() * 9 / 10],
        bone,
    })
}

/// Smallest clearance of either hand (the midpoint of the wrist and the
/// middle-finger base when mapped) from the torso over the frames, metres
/// (negative: inside). Hands are taken into the torso bone's rest frame.
#[must_use]
pub fn hand_clearance(target: &Avatar, torso: &Torso, frames: &[Vec<Mat4>]) -> Option<f32> {
    let h = target.humanoid.as_ref()?;
    let hands: Vec<(usize, Option<usize>)> = [
        ("leftHand", "leftMiddleProximal"),
        ("rightHand", "rightMiddleProximal"),
    ]
    .iter()
    .filter_map(|(hand, finger)| Some((h.bone(hand)?, h.bone(finger))))
    .collect();
    let rest = target.rest_world();
    let bone_rest = *rest.get(torso.bone)?;
    let mut worst = f32::INFINITY;
    for w in frames {
        let to_rest = bone_rest * tress_core::math::affine::inverse(w.get(torso.bone)?);
        for &(hand, finger) in &hands {
            let p = w[hand].w_axis.truncate();
            let p = finger.map_or(p, |f| (p + w[f].w_axis.truncate()) * 0.5);
            worst = worst.min(torso.clearance(to_rest.transform_point3(p)));
        }
    }
    worst.is_finite().then_some(worst)
}
