//! The standard run's motion and the node transforms it produces.
//!
//! The head turns about the world up axis through the head bone while the
//! whole avatar sways sideways (the `hips` node is translated, so body and
//! head move together and the neck is not stretched), then everything holds
//! still. Every time is an `f64` computed as `k / rate`: IEEE division is
//! correctly rounded, so frame `k` at 30 fps and substep `4k` at 120 Hz give
//! the same instant bit for bit, and therefore the same pose.

use glam::{Mat4, Quat, Vec3};
use serde::Serialize;
use tress_core::math::ops;

use tress_rig::anim::Clip;
use tress_rig::anim::sample::{Local as ClipLocal, local_pose};
use tress_vrm::model::{Animation, Avatar};

/// The head motion of the standard run.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Motion {
    /// Peak head yaw, degrees.
    pub yaw_deg: f32,
    /// Yaw frequency, Hz (yaw = peak · sin(2π f t)).
    pub yaw_hz: f32,
    /// Peak sideways sway of the whole avatar along world X, metres.
    pub sway_m: f32,
    /// Sway frequency, Hz.
    pub sway_hz: f32,
    /// Seconds of movement.
    pub move_s: f64,
    /// Seconds held still afterwards.
    pub still_s: f64,
}

impl Default for Motion {
    /// Issue #6's run: yaw ±60° at 0.5 Hz with a 3 cm sway for 4 s, then 8 s still.
    /// Both sines end at zero at 4 s (two yaw periods, one sway period), so the
    /// still pose is the rest pose.
    fn default() -> Self {
        Self {
            yaw_deg: 60.0,
            yaw_hz: 0.5,
            sway_m: 0.03,
            sway_hz: 0.25,
            move_s: 4.0,
            still_s: 8.0,
        }
    }
}

/// `sin(2π f t)` with the phase reduced in `f64` first, so late times keep
/// full `f32` precision.
fn sine(hz: f32, t: f64) -> f32 {
    let phase = (f64::from(hz) * t).fract();
    ops::sin((core::f64::consts::TAU * phase) as f32)
}

impl Motion {
    /// Total length of the run, seconds.
    #[must_use]
    pub fn duration(&self) -> f64 {
        self.move_s + self.still_s
    }

    /// Head yaw (radians) and sideways sway (metres) at time `t`.
    #[must_use]
    pub fn at(&self, t: f64) -> (f32, f32) {
        if t >= self.move_s || t <= 0.0 {
            return (0.0, 0.0);
        }
        (
            self.yaw_deg.to_radians() * sine(self.yaw_hz, t),
            self.sway_m * sine(self.sway_hz, t),
        )
    }
}

/// A retargeted body clip played instead of the standard head motion
/// (`tress measure --anim FILE --clip NAME`): the body eases from the rest
/// pose into the clip's first frame over [`ClipMotion::ease_in_s`] (smooth
/// step), then the clip plays [`ClipMotion::passes`] times back to back.
///
/// The ease-in is measured like the rest: it is the motion of an avatar
/// that starts at rest and sits or crouches, and it lets the springs start
/// from their rest shape rather than inside a body already posed.
#[derive(Debug, Clone, PartialEq)]
pub struct ClipMotion {
    /// The clip's name.
    pub name: String,
    /// The clip on the measured avatar's nodes.
    pub animation: Animation,
    /// One pass, seconds.
    pub clip_s: f64,
    /// Passes played.
    pub passes: u32,
    /// Seconds of easing from rest into the first frame.
    pub ease_in_s: f64,
    /// Nodes the clip animates.
    nodes: Vec<usize>,
}

impl ClipMotion {
    /// `clip` (retargeted onto the measured avatar) played `passes` times
    /// after a 1 s ease-in.
    #[must_use]
    pub fn new(clip: &Clip, passes: u32) -> Self {
        let animation = clip.to_animation();
        let mut nodes: Vec<usize> = animation.channels.iter().map(|c| c.node).collect();
        nodes.sort_unstable();
        nodes.dedup();
        Self {
            name: clip.name.clone(),
            clip_s: f64::from(clip.duration()),
            animation,
            passes: passes.max(1),
            ease_in_s: 1.0,
            nodes,
        }
    }

    /// Total length, seconds.
    #[must_use]
    pub fn duration(&self) -> f64 {
        self.ease_in_s + self.clip_s * f64::from(self.passes)
    }

    /// Local transforms of the animated nodes at time `t` into `out` (every
    /// node, from `rest`), using `scratch`.
    fn pose_into(
        &self,
        avatar: &Avatar,
        t: f64,
        rest: &[Local],
        out: &mut [Local],
        scratch: &mut Vec<ClipLocal>,
    ) {
        let (clip_t, ease) = if t < self.ease_in_s {
            let f = (t / self.ease_in_s).clamp(0.0, 1.0) as f32;
            (0.0, f * f * (3.0 - 2.0 * f))
        } else if self.clip_s > 0.0 {
            (((t - self.ease_in_s) % self.clip_s) as f32, 1.0)
        } else {
            (0.0, 1.0)
        };
        local_pose(avatar, &self.animation, clip_t, scratch);
        for &n in &self.nodes {
            let (Some(slot), Some(posed), Some(r)) = (out.get_mut(n), scratch.get(n), rest.get(n))
            else {
                continue;
            };
            slot.rotation = tress_core::constraint::slerp(r.rotation, posed.rotation, ease);
            slot.translation = r.translation.lerp(posed.translation, ease);
        }
    }
}

/// One node's local transform.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Local {
    /// Translation.
    pub translation: Vec3,
    /// Rotation.
    pub rotation: Quat,
    /// Scale.
    pub scale: Vec3,
}

/// The avatar's node hierarchy with animatable local transforms.
#[derive(Debug, Clone)]
pub struct Skeleton {
    /// Current local transforms, by node.
    pub locals: Vec<Local>,
    rest: Vec<Local>,
    parents: Vec<Option<usize>>,
    /// Nodes with every parent before its children.
    order: Vec<usize>,
    head: usize,
    /// Rotation of the head's parent in the world at rest (the motion never
    /// rotates anything above the head).
    head_parent_rot: Quat,
    /// Node that carries the sway, and the world X axis in its parent's space.
    sway_node: usize,
    sway_axis: Vec3,
    /// Scratch for sampling a clip.
    scratch: Vec<ClipLocal>,
}

impl Skeleton {
    /// The skeleton of `avatar`, driven through node `head`; the sway goes on
    /// `sway_node` (the hips, or the head itself without hips).
    #[must_use]
    pub fn new(avatar: &Avatar, head: usize, sway_node: usize) -> Self {
        let rest: Vec<Local> = avatar
            .nodes
            .iter()
            .map(|n| Local {
                translation: n.translation,
                rotation: n.rotation.normalize(),
                scale: n.scale,
            })
            .collect();
        let parents: Vec<Option<usize>> = avatar.nodes.iter().map(|n| n.parent).collect();
        let mut order = Vec::with_capacity(parents.len());
        let mut stack: Vec<usize> = (0..parents.len())
            .filter(|&i| parents[i].is_none())
            .collect();
        while let Some(n) = stack.pop() {
            order.push(n);
            stack.extend(avatar.nodes[n].children.iter().copied());
        }
        let rest_world = avatar.rest_world();
        let rot_of = |n: Option<usize>| {
            n.map_or(Quat::IDENTITY, |n| {
                rest_world[n].to_scale_rotation_translation().1.normalize()
            })
        };
        let head_parent_rot = rot_of(parents[head]);
        // A world offset becomes a local translation through the parent's
        // inverse (scale included).
        let sway_axis = parents[sway_node].map_or(Vec3::X, |p| {
            rest_world[p].inverse().transform_vector3(Vec3::X)
        });
        Self {
            locals: rest.clone(),
            rest,
            parents,
            order,
            head,
            head_parent_rot,
            sway_node,
            sway_axis,
            scratch: Vec::new(),
        }
    }

    /// Poses the nodes `clip` animates for time `t` (other nodes keep their
    /// current locals, e.g. the spring joints' last solver output).
    pub fn pose_clip_at(&mut self, avatar: &Avatar, clip: &ClipMotion, t: f64) {
        clip.pose_into(avatar, t, &self.rest, &mut self.locals, &mut self.scratch);
    }

    /// Poses the head and the sway node for time `t` (other nodes keep their
    /// current locals, e.g. the spring joints' last solver output).
    pub fn pose_at(&mut self, motion: &Motion, t: f64) {
        let (yaw, sway) = motion.at(t);
        let turn = Quat::from_rotation_y(yaw);
        // The world turn R_y conjugated into the parent's frame: the head
        // rotates about the world up axis through its own origin.
        let p = self.head_parent_rot;
        let rest_head = self.rest[self.head];
        self.locals[self.head].rotation = (p.inverse() * turn * p * rest_head.rotation).normalize();
        let rest_sway = self.rest[self.sway_node];
        self.locals[self.sway_node].translation = rest_sway.translation + self.sway_axis * sway;
    }

    /// World matrices of every node from the current locals.
    pub fn world_into(&self, world: &mut Vec<Mat4>) {
        world.clear();
        world.resize(self.locals.len(), Mat4::IDENTITY);
        for &n in &self.order {
            let l = &self.locals[n];
            let m = Mat4::from_scale_rotation_translation(l.scale, l.rotation, l.translation);
            world[n] = match self.parents[n] {
                Some(p) => world[p] * m,
                None => m,
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn motion_peaks_and_stops() {
        let m = Motion::default();
        // yaw = 60° sin(2π·0.5·t) peaks at t = 0.5 s.
        let (yaw, _) = m.at(0.5);
        assert!((yaw - 60f32.to_radians()).abs() < 1e-5, "{yaw}");
        // sway = 3 cm sin(2π·0.25·t) peaks at t = 1 s.
        let (_, sway) = m.at(1.0);
        assert!((sway - 0.03).abs() < 1e-7, "{sway}");
        assert_eq!(m.at(4.0), (0.0, 0.0));
        assert_eq!(m.at(11.0), (0.0, 0.0));
        assert!((m.duration() - 12.0).abs() < f64::EPSILON);
    }
}
