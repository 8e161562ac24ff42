//! A retargeted clip: evenly spaced frames of local rotations per mapped
//! target bone plus the hips translation.

use glam::{Quat, Vec3};
use tress_core::math::ops;

use tress_vrm::model::{Animation, Avatar, Channel, ChannelValues, Interpolation};

/// The local rotation track of one target bone.
#[derive(Debug, Clone, PartialEq)]
pub struct Track {
    /// VRM humanoid bone name.
    pub bone: &'static str,
    /// Target node.
    pub node: usize,
    /// Local rotation per frame.
    pub rotations: Vec<Quat>,
}

/// A clip on the target avatar.
#[derive(Debug, Clone, PartialEq)]
pub struct Clip {
    /// The source clip's name.
    pub name: String,
    /// Frame rate of `times`.
    pub fps: f32,
    /// Frame times, seconds, from 0.
    pub times: Vec<f32>,
    /// One track per mapped bone.
    pub tracks: Vec<Track>,
    /// The hips node.
    pub hips_node: usize,
    /// Hips local translation per frame.
    pub hips_translation: Vec<Vec3>,
    /// Whether a blend back to the first frame was appended.
    pub loop_blend_added: bool,
}

/// Angle of the rotation between two unit quaternions, radians (atan2 keeps
/// small angles exact where acos of a dot product would not).
#[must_use]
pub fn angle_between(a: Quat, b: Quat) -> f32 {
    let d = tress_core::math::quat::mul(a.inverse(), b);
    2.0 * ops::atan2(d.xyz().length(), ops::abs(d.w))
}

/// Largest rotation difference (radians) and hips distance between two frames.
fn frame_distance(c: &Clip, a: usize, b: usize) -> (f32, f32) {
    let angle = c
        .tracks
        .iter()
        .map(|t| angle_between(t.rotations[a], t.rotations[b]))
        .fold(0.0f32, f32::max);
    (angle, c.hips_translation[a].distance(c.hips_translation[b]))
}

impl Clip {
    /// Length in seconds.
    #[must_use]
    pub fn duration(&self) -> f32 {
        self.times.last().copied().unwrap_or(0.0)
    }

    /// Whether the last frame matches the first closely enough (3°, 1 cm)
    /// to play as a loop without a visible jump.
    #[must_use]
    pub fn loops(&self) -> bool {
        let n = self.times.len();
        if n < 2 {
            return true;
        }
        let (angle, dist) = frame_distance(self, 0, n - 1);
        angle <= 3f32.to_radians() && dist <= 0.01
    }

    /// Makes the clip loop: when it does not already, appends `seconds` of
    /// frames easing from the last pose back to the first one.
    pub fn close_loop(&mut self, seconds: f32) {
        if self.loops() || self.times.is_empty() || seconds.is_nan() || seconds <= 0.0 {
            return;
        }
        let n = self.times.len();
        let frames = ((seconds * self.fps).round() as usize).max(1);
        let end = self.duration();
        for k in 1..=frames {
            let f = k as f32 / frames as f32;
            let s = f * f * (3.0 - 2.0 * f);
            self.times.push(end + k as f32 / self.fps);
            for t in &mut self.tracks {
                let q = tress_core::constraint::slerp(t.rotations[n - 1], t.rotations[0], s);
                t.rotations.push(q);
            }
            let p = self.hips_translation[n - 1].lerp(self.hips_translation[0], s);
            self.hips_translation.push(p);
        }
        self.loop_blend_added = true;
    }

    /// The clip as a glTF-style animation on the target's nodes (linear keys).
    #[must_use]
    pub fn to_animation(&self) -> Animation {
        let mut channels: Vec<Channel> = self
            .tracks
            .iter()
            .map(|t| Channel {
                node: t.node,
                times: self.times.clone(),
                interpolation: Interpolation::Linear,
                values: ChannelValues::Rotation(t.rotations.clone()),
            })
            .collect();
        channels.push(Channel {
            node: self.hips_node,
            times: self.times.clone(),
            interpolation: Interpolation::Linear,
            values: ChannelValues::Translation(self.hips_translation.clone()),
        });
        Animation {
            name: self.name.clone(),
            channels,
            duration: self.duration(),
        }
    }

    /// Local rotations and the hips translation of frame `i` written over
    /// the target's rest pose (nodes the clip does not move keep rest).
    pub fn apply_frame(&self, target: &Avatar, i: usize, local: &mut Vec<super::sample::Local>) {
        local.clear();
        local.extend(target.nodes.iter().map(|n| super::sample::Local {
            translation: n.translation,
            rotation: n.rotation,
            scale: n.scale,
        }));
        for t in &self.tracks {
            if let (Some(slot), Some(q)) = (local.get_mut(t.node), t.rotations.get(i)) {
                slot.rotation = *q;
            }
        }
        if let (Some(slot), Some(p)) = (local.get_mut(self.hips_node), self.hips_translation.get(i))
        {
            slot.translation = *p;
        }
    }
}
