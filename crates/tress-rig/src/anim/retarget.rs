//! World-space humanoid retargeting.
//!
//! Each mapped bone carries its *world-space rotation change* from the
//! source's rest pose onto the target's rest pose:
//!
//! `W_t(b, τ) = Y · D_b(τ) · Y⁻¹ · A_b · W_t⁰(b)`, with
//! `D_b(τ) = W_s(b, τ) · W_s⁰(b)⁻¹`,
//!
//! where `Y` turns the source's facing into the target's and `A_b` is the
//! shortest rotation taking the target's rest bone direction onto the
//! source's (both measured from bone to a mapped child, so bone-axis
//! conventions never matter). With `A_b`, a clip's first frame reproduces
//! the *source's* posture, so T-pose and A-pose sources both land right on
//! any target rest pose. Only world rotations transfer, so a target with
//! fewer or extra spine bones still ends every mapped bone where the source
//! put it. The hips' world displacement is turned by `Y` and scaled by the
//! leg-length ratio, which keeps the ankles' height change in proportion to
//! the target's legs (feet stay on the ground).
//!
//! Rest poses come from the files' node transforms, never from a pose the
//! target is currently in.

use glam::{Mat4, Quat, Vec3};

use super::bone_map::{BONES, BoneMap, GROUND_ALIGNED, humanoid_parent};
use super::clip::{Clip, Track};
use super::sample::{Local, key_interval, local_pose, world_from_local};
use super::soles::Soles;
use crate::skin::SkinnedVertex;
use tress_core::math::{ops, quat};
use tress_vrm::model::{Animation, Avatar};

/// How to retarget.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RetargetOptions {
    /// Output frame rate; `None`: the source's key rate, clamped to 10–120 Hz.
    pub fps: Option<f32>,
    /// Remove the net horizontal travel of the hips over the clip (the
    /// straight line from its first to its last frame), keeping sway.
    pub remove_travel: bool,
    /// When the clip does not already end where it starts, append a blend of
    /// this many seconds from the last pose back to the first so it loops.
    pub loop_blend: Option<f32>,
}

impl Default for RetargetOptions {
    fn default() -> Self {
        Self {
            fps: None,
            remove_travel: true,
            loop_blend: Some(0.3),
        }
    }
}

/// Why a retarget cannot be set up.
#[derive(Debug, Clone, PartialEq)]
pub enum RetargetError {
    /// The source file has no humanoid map, no `DEF-` bones and no hips by
    /// node name.
    NoSourceMap,
    /// The target has no humanoid map.
    NoTargetHumanoid,
    /// Required body bones are missing (side, bone names).
    MissingBones {
        /// `source` or `target`.
        side: &'static str,
        /// The VRM names of the missing bones.
        bones: Vec<&'static str>,
    },
    /// No clip with that name.
    NoSuchClip {
        /// The name asked for.
        name: String,
        /// The clips the file has (unnamed ones as `clip0`, `clip1`, …).
        available: Vec<String>,
    },
    /// The clip would need more than [`MAX_FRAMES`] frames: a few bytes
    /// with a wild key time (a BVH `Frame Time: 100000`) must not keep a
    /// loader busy for hours or take gigabytes.
    TooLong {
        /// The clip's name.
        name: String,
        /// Its length in seconds.
        duration: f32,
        /// The rate it would be sampled at.
        fps: f32,
    },
}

/// The most frames one retargeted clip may have: 36 minutes at 120 fps,
/// 7.3 hours at 10 fps (about 230 MB of rotations for a full humanoid).
pub const MAX_FRAMES: usize = 1 << 18;

impl core::fmt::Display for RetargetError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            RetargetError::NoSourceMap => write!(
                f,
                "the animation file has no humanoid map (VRM/VRMA), no Universal Animation Library `DEF-` bones and no hips found by node name (Mixamo, UE, snake_case, `.L`/`.R` names)"
            ),
            RetargetError::NoTargetHumanoid => {
                write!(f, "the target avatar has no VRM humanoid map")
            }
            RetargetError::MissingBones { side, bones } => {
                write!(
                    f,
                    "the {side} lacks required humanoid bones: {}",
                    bones.join(", ")
                )
            }
            RetargetError::NoSuchClip { name, available } => {
                write!(f, "no clip named `{name}`; ")?;
                if available.is_empty() {
                    write!(f, "the file has no clips")
                } else {
                    write!(f, "the file has: {}", available.join(", "))
                }
            }
            RetargetError::TooLong {
                name,
                duration,
                fps,
            } => write!(
                f,
                "clip `{name}` lasts {duration} s: at {fps} fps that is more than the {MAX_FRAMES} frames a clip may have (are its key times or frame time right?)"
            ),
        }
    }
}

impl core::error::Error for RetargetError {}

/// One bone present on both sides.
#[derive(Debug, Clone)]
struct Pair {
    bone: &'static str,
    src: usize,
    dst: usize,
    /// `Y⁻¹ · A_b · W_t⁰(b)`, so that `W_t = Y · W_s(τ) · W_s⁰⁻¹ · pre`.
    pre: Quat,
}

/// A source skeleton mapped onto a target avatar, ready to retarget any of
/// the source's clips.
#[derive(Debug, Clone)]
pub struct Retargeter<'a> {
    source: &'a Avatar,
    target: &'a Avatar,
    pairs: Vec<Pair>,
    /// Source rest world rotations, by source node.
    src_rest_rot: Vec<Quat>,
    facing: Quat,
    scale: f32,
    src_hips: usize,
    dst_hips: usize,
    src_hips_rest: Vec3,
    dst_hips_rest: Vec3,
    /// Rest world matrix of the target hips' parent (identity for a root).
    dst_hips_parent: Mat4,
    /// Target nodes, parents before children.
    dst_order: Vec<usize>,
    /// Target node → index into `pairs`.
    dst_pair: Vec<Option<usize>>,
    /// Sole vertices per foot, for the ground pass.
    soles: Vec<Sole>,
    /// Height of the lowest sole vertex at rest.
    ground: f32,
    /// What was left out and why.
    pub notes: Vec<String>,
}

/// The lowest vertices of one foot (skinned mostly to the foot or toes).
#[derive(Debug, Clone)]
struct Sole {
    foot: usize,
    pair: usize,
    verts: Vec<SkinnedVertex>,
}

fn rotation_of(m: &Mat4) -> Quat {
    quat::normalize(tress_core::math::affine::decompose(m).1)
}

/// The character's forward direction on the ground plane: the cross of its
/// left-to-right hip line with up (VRM 1.0 faces +Z with its left at +X).
fn forward(world: &[Mat4], map: impl Fn(&str) -> Option<usize>) -> Option<Vec3> {
    let l = world.get(map("leftUpperLeg")?)?.w_axis.truncate();
    let r = world.get(map("rightUpperLeg")?)?.w_axis.truncate();
    let left = Vec3::new(l.x - r.x, 0.0, l.z - r.z).try_normalize()?;
    Some(left.cross(Vec3::Y))
}

fn leg_length(world: &[Mat4], map: impl Fn(&str) -> Option<usize>) -> Option<f32> {
    let p = |b: &str| Some(world.get(map(b)?)?.w_axis.truncate());
    let mut sum = 0.0;
    for side in ["left", "right"] {
        let up = p(&format!("{side}UpperLeg"))?;
        let low = p(&format!("{side}LowerLeg"))?;
        let foot = p(&format!("{side}Foot"))?;
        sum += up.distance(low) + low.distance(foot);
    }
    (sum > 1e-4).then_some(sum / 2.0)
}

impl<'a> Retargeter<'a> {
    /// Maps `source` (with `map`, e.g. from [`BoneMap::detect`]) onto `target`.
    ///
    /// # Errors
    /// When the target has no humanoid, or either side lacks a required bone.
    pub fn new(
        source: &'a Avatar,
        map: &BoneMap,
        target: &'a Avatar,
    ) -> Result<Self, RetargetError> {
        let humanoid = target
            .humanoid
            .as_ref()
            .filter(|h| !h.bones.is_empty())
            .ok_or(RetargetError::NoTargetHumanoid)?;
        let missing = map.missing_required();
        if !missing.is_empty() {
            return Err(RetargetError::MissingBones {
                side: "animation",
                bones: missing,
            });
        }
        let target_missing: Vec<&'static str> = super::bone_map::REQUIRED
            .iter()
            .copied()
            .filter(|b| humanoid.bone(b).is_none())
            .collect();
        if !target_missing.is_empty() {
            return Err(RetargetError::MissingBones {
                side: "target avatar",
                bones: target_missing,
            });
        }
        let src_world = source.rest_world();
        let dst_world = target.rest_world();
        let src_rest_rot: Vec<Quat> = src_world.iter().map(rotation_of).collect();
        let dst_rest_rot: Vec<Quat> = dst_world.iter().map(rotation_of).collect();
        let smap = |b: &str| map.node(b);
        let dmap = |b: &str| humanoid.bone(b);
        let mut notes = Vec::new();

        let facing = match (forward(&src_world, smap), forward(&dst_world, dmap)) {
            (Some(fs), Some(ft)) => quat::from_rotation_arc(fs, ft),
            _ => {
                notes.push("hips line is vertical on one side: facing taken as equal".to_owned());
                Quat::IDENTITY
            }
        };
        let scale = match (leg_length(&src_world, smap), leg_length(&dst_world, dmap)) {
            (Some(s), Some(t)) => t / s,
            _ => {
                notes.push("a leg has zero length: hips motion not scaled".to_owned());
                1.0
            }
        };

        let hair = crate::skin::spring_nodes(target);
        let both = |b: &str| Some((map.node(b)?, humanoid.bone(b)?));
        let mut pairs: Vec<Pair> = Vec::new();
        // Alignment per bone, for children that inherit it.
        let mut align_of: alloc::collections::BTreeMap<&'static str, Quat> =
            alloc::collections::BTreeMap::new();
        for (bone, dir_children) in BONES {
            let Some((src, dst)) = both(bone) else {
                continue;
            };
            if src >= source.nodes.len() || dst >= target.nodes.len() {
                continue;
            }
            if hair.contains(&dst) {
                notes.push(format!(
                    "`{bone}` is a spring joint on the target (node {dst}); no track written"
                ));
                continue;
            }
            let align = if GROUND_ALIGNED.contains(&bone) {
                Some(Quat::IDENTITY)
            } else {
                None
            };
            let align = align
                .or_else(|| {
                    dir_children
                        .iter()
                        .find_map(|c| {
                            let (sc, dc) = both(c)?;
                            let ds = src_world.get(sc)?.w_axis.truncate()
                                - src_world[src].w_axis.truncate();
                            let dt = dst_world.get(dc)?.w_axis.truncate()
                                - dst_world[dst].w_axis.truncate();
                            let ds = quat::rotate(facing, ds).try_normalize()?;
                            let dt = dt.try_normalize()?;
                            Some(quat::from_rotation_arc(dt, ds))
                        })
                        .or_else(|| {
                            // No direction of its own: keep the nearest mapped
                            // ancestor's alignment (the head keeps its rest relation
                            // to the neck).
                            let mut p = humanoid_parent(bone);
                            while let Some(name) = p {
                                if let Some(a) = align_of.get(name) {
                                    return Some(*a);
                                }
                                p = humanoid_parent(name);
                            }
                            None
                        })
                })
                .unwrap_or(Quat::IDENTITY);
            align_of.insert(bone, align);
            pairs.push(Pair {
                bone,
                src,
                dst,
                pre: quat::normalize(quat::mul(
                    quat::mul(facing.inverse(), align),
                    dst_rest_rot[dst],
                )),
            });
        }

        let (src_hips, dst_hips) = both("hips").ok_or(RetargetError::MissingBones {
            side: "animation",
            bones: vec!["hips"],
        })?;
        let dst_hips_parent = target.nodes[dst_hips]
            .parent
            .and_then(|p| dst_world.get(p).copied())
            .unwrap_or(Mat4::IDENTITY);

        let mut dst_order = Vec::with_capacity(target.nodes.len());
        let mut stack: Vec<usize> = target.roots.clone();
        stack.extend(
            (0..target.nodes.len())
                .filter(|&i| target.nodes[i].parent.is_none() && !target.roots.contains(&i)),
        );
        let mut seen = vec![false; target.nodes.len()];
        while let Some(n) = stack.pop() {
            if n >= seen.len() || seen[n] {
                continue;
            }
            seen[n] = true;
            dst_order.push(n);
            stack.extend(target.nodes[n].children.iter().rev());
        }
        let mut dst_pair = vec![None; target.nodes.len()];
        for (i, p) in pairs.iter().enumerate() {
            dst_pair[p.dst] = Some(i);
        }

        let (soles, ground) = Self::soles(target, &pairs, &dst_world, &mut notes);

        Ok(Self {
            soles,
            ground,
            source,
            target,
            pairs,
            src_rest_rot,
            facing,
            scale,
            src_hips,
            dst_hips,
            src_hips_rest: src_world[src_hips].w_axis.truncate(),
            dst_hips_rest: dst_world[dst_hips].w_axis.truncate(),
            dst_hips_parent,
            dst_order,
            dst_pair,
            notes,
        })
    }

    fn soles(
        target: &Avatar,
        pairs: &[Pair],
        rest: &[Mat4],
        notes: &mut Vec<String>,
    ) -> (Vec<Sole>, f32) {
        let Some(found) = Soles::new(target, rest) else {
            return (Vec::new(), 0.0);
        };
        for side in &found.bare {
            notes.push(format!(
                "no mesh skinned to the {side} foot: soles not kept above the ground"
            ));
        }
        let soles = found
            .feet
            .into_iter()
            .filter_map(|(foot, verts)| {
                let pair = pairs.iter().position(|p| p.dst == foot)?;
                Some(Sole { foot, pair, verts })
            })
            .collect();
        (soles, found.ground)
    }

    /// Ground pass for one frame: a sole vertex that the transferred motion
    /// puts under the rest ground (differently proportioned feet dip at
    /// toe-off and heel strike) is lifted by pitching that foot about its
    /// ankle; the toes follow. Returns the corrected local rotation per sole.
    fn lift_feet(&self, local: &mut [Local], world: &mut Vec<Mat4>) -> Vec<(usize, Quat)> {
        let mut fixed = Vec::new();
        let lowest = |sole: &Sole, world: &[Mat4]| {
            sole.verts
                .iter()
                .map(|v| v.skin(world))
                .min_by(|a, b| a.y.total_cmp(&b.y))
        };
        for sole in &self.soles {
            for _ in 0..6 {
                let Some(low) = lowest(sole, world) else {
                    break;
                };
                let depth = self.ground - low.y;
                if depth.is_nan() || depth <= 1e-4 {
                    break;
                }
                let ankle = world[sole.foot].w_axis.truncate();
                let r = low - ankle;
                let lever = Vec3::new(r.x, 0.0, r.z).length();
                let Some(axis) = r.cross(Vec3::Y).try_normalize() else {
                    break;
                };
                if lever < 0.02 {
                    break;
                }
                let parent_rot = self.target.nodes[sole.foot]
                    .parent
                    .map_or(Quat::IDENTITY, |p| rotation_of(&world[p]));
                let before = local[sole.foot].rotation;
                let foot_rot = rotation_of(&world[sole.foot]);
                // Pitching lifts one end of the foot and lowers the other; a
                // step is kept only when the lowest point rises.
                let mut angle = (depth / lever).min(0.5);
                let mut improved = false;
                for _ in 0..3 {
                    let new_world =
                        quat::normalize(quat::mul(Quat::from_axis_angle(axis, angle), foot_rot));
                    local[sole.foot].rotation =
                        quat::normalize(quat::mul(parent_rot.inverse(), new_world));
                    world_from_local(self.target, local, world);
                    if lowest(sole, world).is_some_and(|l| l.y > low.y + 1e-5) {
                        improved = true;
                        break;
                    }
                    angle *= 0.5;
                }
                if !improved {
                    local[sole.foot].rotation = before;
                    world_from_local(self.target, local, world);
                    break;
                }
                fixed.retain(|(p, _)| *p != sole.pair);
                fixed.push((sole.pair, local[sole.foot].rotation));
            }
        }
        fixed
    }

    /// Maps `source` onto `target` with the source's own bone map
    /// ([`BoneMap::detect`]: its humanoid, or the Universal Animation
    /// Library's names).
    ///
    /// # Errors
    /// [`RetargetError::NoSourceMap`] when the source has neither, else as
    /// [`Retargeter::new`].
    pub fn detect(source: &'a Avatar, target: &'a Avatar) -> Result<Self, RetargetError> {
        let map = BoneMap::detect(source).ok_or(RetargetError::NoSourceMap)?;
        Self::new(source, &map, target)
    }

    /// Leg-length ratio target / source applied to hips motion.
    #[must_use]
    pub fn scale(&self) -> f32 {
        self.scale
    }

    /// Retargets the source clip named `name`.
    ///
    /// # Errors
    /// When the source has no clip of that name.
    pub fn retarget_named(
        &self,
        name: &str,
        opts: &RetargetOptions,
    ) -> Result<Clip, RetargetError> {
        let clip = self
            .source
            .animations
            .iter()
            .find(|a| a.name == name)
            .ok_or_else(|| RetargetError::NoSuchClip {
                name: name.to_owned(),
                available: self
                    .source
                    .animations
                    .iter()
                    .map(|a| a.name.clone())
                    .collect(),
            })?;
        self.retarget(clip, opts)
    }

    /// Retargets one clip of the source onto the target.
    ///
    /// # Errors
    /// [`RetargetError::TooLong`] for a clip of more than [`MAX_FRAMES`]
    /// frames at the rate it is sampled at.
    pub fn retarget(
        &self,
        clip: &Animation,
        opts: &RetargetOptions,
    ) -> Result<Clip, RetargetError> {
        let duration = if clip.duration.is_finite() {
            clip.duration.max(0.0)
        } else {
            0.0
        };
        let fps = opts
            .fps
            .or_else(|| key_interval(clip).map(|d| 1.0 / d))
            .filter(|f| f.is_finite() && *f > 0.0)
            .unwrap_or(30.0)
            .clamp(10.0, 120.0);
        // Key times stored as f32 put 24 fps at 24.0001; a whole rate is meant.
        let fps = if ops::abs(fps - ops::round(fps)) < 0.01 {
            ops::round(fps)
        } else {
            fps
        };
        // Round to whole frames; a trailing partial frame lands on the end.
        let steps = (duration * fps).ceil().max(0.0);
        if steps >= MAX_FRAMES as f32 {
            return Err(RetargetError::TooLong {
                name: clip.name.clone(),
                duration,
                fps,
            });
        }
        let steps = steps as usize;
        let times: Vec<f32> = (0..=steps)
            .map(|i| (i as f32 / fps).min(duration))
            .collect();

        let mut tracks: Vec<Track> = self
            .pairs
            .iter()
            .map(|p| Track {
                bone: p.bone,
                node: p.dst,
                rotations: Vec::with_capacity(times.len()),
            })
            .collect();
        let mut hips_world: Vec<Vec3> = Vec::with_capacity(times.len());
        let mut local: Vec<Local> = Vec::new();
        let mut world: Vec<Mat4> = Vec::new();
        let mut dst_world_rot = vec![Quat::IDENTITY; self.target.nodes.len()];
        let mut desired = vec![Quat::IDENTITY; self.pairs.len()];
        let mut dst_local: Vec<Local> = Vec::new();
        let mut dst_world: Vec<Mat4> = Vec::new();
        for &t in &times {
            local_pose(self.source, clip, t, &mut local);
            world_from_local(self.source, &local, &mut world);
            for (d, p) in desired.iter_mut().zip(&self.pairs) {
                let ws = rotation_of(&world[p.src]);
                *d = quat::normalize(quat::mul(
                    quat::mul(
                        quat::mul(self.facing, ws),
                        self.src_rest_rot[p.src].inverse(),
                    ),
                    p.pre,
                ));
            }
            // Walk the target down from its roots so each mapped bone's local
            // rotation is taken against its parent's *animated* world rotation.
            for &n in &self.dst_order {
                let node = &self.target.nodes[n];
                let parent_rot = node.parent.map_or(Quat::IDENTITY, |p| dst_world_rot[p]);
                dst_world_rot[n] = match self.dst_pair[n] {
                    Some(i) => {
                        let local_rot =
                            quat::normalize(quat::mul(parent_rot.inverse(), desired[i]));
                        tracks[i].rotations.push(local_rot);
                        desired[i]
                    }
                    None => quat::normalize(quat::mul(parent_rot, node.rotation)),
                };
            }
            let ps = world[self.src_hips].w_axis.truncate();
            let hips = self.dst_hips_rest
                + self.scale * quat::rotate(self.facing, ps - self.src_hips_rest);
            hips_world.push(hips);
            if !self.soles.is_empty() {
                dst_local.clear();
                dst_local.extend(self.target.nodes.iter().map(|n| Local {
                    translation: n.translation,
                    rotation: n.rotation,
                    scale: n.scale,
                }));
                for tr in &tracks {
                    if let Some(q) = tr.rotations.last() {
                        dst_local[tr.node].rotation = *q;
                    }
                }
                dst_local[self.dst_hips].translation =
                    tress_core::math::affine::inverse(&self.dst_hips_parent).transform_point3(hips);
                world_from_local(self.target, &dst_local, &mut dst_world);
                for (pair, q) in self.lift_feet(&mut dst_local, &mut dst_world) {
                    if let Some(last) = tracks[pair].rotations.last_mut() {
                        *last = q;
                    }
                }
            }
        }

        if opts.remove_travel && hips_world.len() > 1 {
            let first = hips_world[0];
            let last = hips_world[hips_world.len() - 1];
            let drift = Vec3::new(last.x - first.x, 0.0, last.z - first.z);
            let span = times[times.len() - 1].max(1e-6);
            for (p, &t) in hips_world.iter_mut().zip(&times) {
                *p -= drift * (t / span);
            }
        }
        let to_local = tress_core::math::affine::inverse(&self.dst_hips_parent);
        let hips_translation: Vec<Vec3> = hips_world
            .iter()
            .map(|p| to_local.transform_point3(*p))
            .collect();

        let mut out = Clip {
            name: clip.name.clone(),
            fps,
            times,
            tracks,
            hips_node: self.dst_hips,
            hips_translation,
            loop_blend_added: false,
        };
        if let Some(blend) = opts.loop_blend {
            out.close_loop(blend);
        }
        Ok(out)
    }
}
