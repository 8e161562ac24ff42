//! One standard run at one delivered frame rate.
//!
//! Per frame: pose the head (and sway) for the frame's time, hand the
//! frames' world poses to the [`SpringRig`], advance by the frame time
//! (fixed 1/120 s substeps inside), write each joint's solver rotation into
//! its node's local rotation, recompute every world matrix, then sample:
//! joint positions, root fixity, tip motion and, when a mesh is given, the
//! skinned hair and body.

use glam::Vec3;
use serde::Serialize;
use tress_core::spring::JointOutput;

use super::motion::{ClipMotion, Motion, Skeleton};
use super::penetration::{Penetration, PenetrationReport};
use super::stretch::{Stretch, StretchReport};
use tress_rig::skin::MeshSet;
use tress_rig::spring_rig::{RigError, RigOptions, SpringRig, frame_pose};
use tress_vrm::model::Avatar;

/// How attachment poses reach the solver.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Feed {
    /// One pose per delivered frame, interpolated by the solver across its
    /// substeps: what an engine does.
    Frames,
    /// The motion evaluated at every substep's end (`advance_sampled`):
    /// the same input at any frame rate.
    Substeps,
}

/// Settling of the chain tips at the end of the run.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Settling {
    /// The window at the end of the run, seconds.
    pub window_s: f64,
    /// Largest tip movement between consecutive samples in the window, metres.
    pub max_tip_step_m: f32,
}

/// How far the hair swings while the head moves: the largest distance of a
/// chain tip from its rest place carried by the chain's attachment frame
/// (the hairstyle's shape held by the head), over the movement phase. Zero
/// would be hair glued to the head; it says the hair still moves.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Swing {
    /// Largest tip deviation, metres.
    pub max_tip_deviation_m: f32,
    /// The chain it belongs to (the name of its first joint's node).
    pub chain: String,
    /// When, seconds into the run.
    pub time_s: f64,
    /// Each chain's largest tip deviation, metres, by chain name (the
    /// name of its first joint's node), in chain order.
    pub per_chain: Vec<(String, f32)>,
}

/// How fast the hair bones turn about their own segments: the largest
/// turn of an output rotation about the bone's segment from one sample to
/// the next. That turn moves no joint, so neither stretch nor swing sees
/// it, but a flat lock's skinned ribbon turns its face with it: tens of
/// degrees in one frame is a visible flip. The lock twist
/// (`docs/SOLVER.md`, "Lock twist") is what turns bones this way.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Spin {
    /// Largest turn about a bone's own segment between consecutive samples, degrees.
    pub max_deg: f32,
    /// The chain it belongs to (the name of its first joint's node).
    pub chain: String,
    /// The bone's index within its chain (0: the first).
    pub bone: usize,
    /// When (the later of the two samples), seconds into the run.
    pub time_s: f64,
    /// Bone-samples that turned more than [`SPIN_FLIP_DEG`].
    pub over: usize,
}

/// A turn about a bone's own segment between two samples past which
/// [`Spin::over`] counts it (a flat lock's face visibly flips).
pub const SPIN_FLIP_DEG: f32 = 10.0;

/// The turn, degrees, of `now` relative to `before` about `axis` (unit):
/// the twist part of their difference.
fn turn_about(before: glam::Quat, now: glam::Quat, axis: Vec3) -> f32 {
    let d = now * before.inverse();
    // The shorter way round: q and −q are the same rotation.
    let d = if d.w < 0.0 { -d } else { d };
    let along = Vec3::new(d.x, d.y, d.z).dot(axis);
    (2.0 * tress_core::math::ops::atan2(along, d.w))
        .to_degrees()
        .abs()
}

/// Results of one run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunReport {
    /// Delivered frames per second (one sample per frame).
    pub fps: u32,
    /// How poses were fed.
    pub feed: Feed,
    /// Samples taken (the rest pose at t = 0 included).
    pub samples: usize,
    /// Largest distance of a chain root from its rest place in its
    /// attachment's frame, metres.
    pub root_fixity_m: f32,
    /// Largest distance between a joint as the solver has it and as the
    /// node hierarchy rebuilt from the written rotations places it, metres.
    pub writeback_m: f32,
    /// Tip motion at the end.
    pub settling: Settling,
    /// Tip swing during the movement.
    pub swing: Swing,
    /// Bones turning about their own segments between samples.
    pub spin: Spin,
    /// Hair edge stretch (absent for joint-only runs).
    pub stretch: Option<StretchReport>,
    /// Hair inside the body (absent for joint-only runs).
    pub penetration: Option<PenetrationReport>,
    /// Wall-clock time of this run, seconds.
    pub seconds: f64,
}

/// A run's report and its joint positions per sample (every joint's origin,
/// then each chain's tip), for comparing frame rates.
#[derive(Debug, Clone)]
pub struct RunOutput {
    /// The report.
    pub report: RunReport,
    /// Joint positions, per sample.
    pub joints: Vec<Vec<Vec3>>,
}

/// What every run shares.
#[derive(Debug, Clone, Copy)]
pub struct Setup<'a> {
    /// The avatar.
    pub avatar: &'a Avatar,
    /// Rig options (solver mode).
    pub rig: &'a RigOptions,
    /// The motion.
    pub motion: &'a Motion,
    /// Head node.
    pub head: usize,
    /// Node carrying the sway.
    pub sway_node: usize,
    /// Window at the end for settling, seconds.
    pub settle_window_s: f64,
    /// Meshes whose hair edges count for stretch (empty: all).
    pub stretch_meshes: &'a [String],
    /// Keep every spring joint at its rest local rotation
    /// ([`MeasureOptions::rigid_hair`](super::MeasureOptions::rigid_hair)).
    pub rigid_hair: bool,
    /// The wind ([`MeasureOptions::wind`](super::MeasureOptions::wind)).
    pub wind: tress_core::spring::Wind,
    /// A body clip played instead of `motion`
    /// ([`MeasureOptions::clip`](super::MeasureOptions::clip)).
    pub clip: Option<&'a ClipMotion>,
    /// Hair meshes whose vertices count for penetration (empty: all).
    pub inside_meshes: &'a [String],
}

impl Setup<'_> {
    /// Length of the run, seconds.
    #[must_use]
    pub fn duration(&self) -> f64 {
        self.clip
            .map_or_else(|| self.motion.duration(), ClipMotion::duration)
    }

    /// End of the movement (swing is measured until then), seconds: a clip
    /// moves all the way.
    #[must_use]
    pub fn moving_until(&self) -> f64 {
        self.clip.map_or(self.motion.move_s, ClipMotion::duration)
    }

    fn pose(&self, skel: &mut Skeleton, t: f64) {
        match self.clip {
            Some(c) => skel.pose_clip_at(self.avatar, c, t),
            None => skel.pose_at(self.motion, t),
        }
    }
}

/// Joint origins, roots and tips of every chain as the skeleton `world`
/// places them, each tip at the chain's tail node or its virtual tail (the
/// hair carried rigidly).
fn rigid_outputs(
    avatar: &Avatar,
    rig: &SpringRig,
    world: &[glam::Mat4],
    joints: &mut Vec<Vec3>,
    roots: &mut Vec<Vec3>,
    tips: &mut Vec<Vec3>,
) {
    for c in &rig.chains {
        for &node in &c.nodes {
            joints.push(world[node].w_axis.truncate());
        }
        if let (Some(&first), Some(&last)) = (c.nodes.first(), c.nodes.last()) {
            roots.push(world[first].w_axis.truncate());
            // As `SpringRig::build` takes the last segment: to the next
            // joint's node, else along the virtual tail.
            let chain = &avatar.springs.chains[c.spring];
            let tip = match chain.joints.get(c.nodes.len()) {
                Some(next) => world[next.node].w_axis.truncate(),
                None => world[last]
                    .transform_point3(chain.virtual_tail.unwrap_or(Vec3::new(0.0, -0.07, 0.0))),
            };
            tips.push(tip);
        }
    }
}

/// Runs the standard motion at `fps` frames per second; with `mesh`
/// (and its rest-pose skinned positions), skins and measures the hair too.
///
/// # Errors
/// When the rig cannot be built.
pub fn run(
    setup: &Setup<'_>,
    fps: u32,
    feed: Feed,
    mesh: Option<(&MeshSet, &[Vec3])>,
) -> Result<RunOutput, RigError> {
    let started = std::time::Instant::now();
    let avatar = setup.avatar;
    let mut rig = SpringRig::build(avatar, setup.rig)?;
    rig.world.set_wind(setup.wind);
    let mut skel = Skeleton::new(avatar, setup.head, setup.sway_node);
    let mut probe = skel.clone();
    let rest_world = avatar.rest_world();
    let rest_roots: Vec<Vec3> = rig
        .chains
        .iter()
        .map(|c| {
            frame_pose(&rest_world, c.attachment)
                .inverse_transform_point(rest_world[c.nodes[0]].w_axis.truncate())
        })
        .collect();

    let mut stretch = mesh.map(|(m, rest)| Stretch::new_in(m, rest, setup.stretch_meshes));
    // Penetration over the chosen meshes' hair only: the same set with
    // its hair list cut down (vertex numbering unchanged).
    let inside: Option<MeshSet> = mesh
        .filter(|_| !setup.inside_meshes.is_empty())
        .map(|(m, _)| {
            let mut only = m.clone();
            only.hair.retain(|&v| {
                m.locate(v)
                    .is_some_and(|(part, _)| setup.inside_meshes.contains(&part.mesh))
            });
            only
        });
    let mut penetration =
        mesh.map(|(m, rest)| Penetration::new(inside.as_ref().unwrap_or(m), rest));
    let to_skin: Vec<u32> = match (&stretch, mesh) {
        (Some(s), Some((m, _))) => {
            let mut v = s.vertices();
            v.extend(&m.hair);
            v.extend(&m.body_verts);
            v.sort_unstable();
            v.dedup();
            v
        }
        _ => Vec::new(),
    };

    let fps = fps.max(1);
    let frames = (setup.duration() * f64::from(fps)).round() as usize;
    let dt = 1.0 / fps as f32;
    let settle_from = setup.duration() - setup.settle_window_s;
    let mut world = Vec::new();
    let mut probe_world = Vec::new();
    let mut buf = vec![JointOutput::default(); 64];
    let mut joint_matrices = Vec::new();
    let mut pos = Vec::new();
    let mut samples = Vec::with_capacity(frames + 1);
    let mut prev_tips: Option<Vec<Vec3>> = None;
    // Each tip at rest in its attachment's frame (from the first sample).
    let mut rest_tips: Vec<Vec3> = Vec::new();
    let mut swing = (0.0f32, 0usize, 0.0f64);
    let mut chain_swing = vec![0.0f32; rig.chains.len()];
    let mut root_fixity = 0.0f32;
    let mut settle = 0.0f32;
    let mut writeback = 0.0f32;
    // Each chain's output rotations at the previous sample.
    let mut prev_rots: Vec<Vec<glam::Quat>> = vec![Vec::new(); rig.chains.len()];
    // The largest turn so far (degrees, chain, bone, time) and the
    // bone-samples over SPIN_FLIP_DEG.
    let mut spin_max = (0.0f32, 0usize, 0usize, 0.0f64);
    let mut spin_over = 0usize;

    for k in 0..=frames {
        let t = k as f64 / f64::from(fps);
        if k > 0 {
            setup.pose(&mut skel, t);
            match feed {
                Feed::Frames => {
                    skel.world_into(&mut world);
                    rig.set_frame_poses_from_world(&world);
                    rig.advance(dt);
                }
                Feed::Substeps => {
                    // The probe starts from the current locals (spring joints
                    // included) and is re-posed once per substep.
                    probe.locals.clone_from(&skel.locals);
                    let mut cached = None;
                    let frame_nodes = rig.frame_nodes.clone();
                    rig.world.advance_sampled(dt, |frame, n| {
                        if cached != Some(n) {
                            setup.pose(&mut probe, n as f64 / 120.0);
                            probe.world_into(&mut probe_world);
                            cached = Some(n);
                        }
                        frame_pose(&probe_world, frame_nodes[frame])
                    });
                }
            }
        }
        let mut joints = Vec::with_capacity(rig.joint_count() + rig.chains.len());
        let mut tips = Vec::with_capacity(rig.chains.len());
        let mut roots = Vec::with_capacity(rig.chains.len());
        for ci in 0..rig.chains.len() {
            let len = rig.chains[ci].nodes.len();
            if buf.len() < len {
                buf.resize(len, JointOutput::default());
            }
            let n = rig.outputs_into(ci, &mut buf);
            if setup.rigid_hair {
                // The locals keep their rest rotations; the outputs are
                // replaced below by the rigid skeleton's.
                continue;
            }
            if let Some(before) = prev_rots.get_mut(ci) {
                for (b, o) in buf[..n].iter().enumerate() {
                    if let Some(&q) = before.get(b) {
                        let axis = (o.tail - o.origin).normalize_or_zero();
                        let turn = turn_about(q, o.world_rot, axis);
                        if turn > SPIN_FLIP_DEG {
                            spin_over += 1;
                        }
                        if turn > spin_max.0 {
                            spin_max = (turn, ci, b, t);
                        }
                    }
                }
                before.clear();
                before.extend(buf[..n].iter().map(|o| o.world_rot));
            }
            for (o, &node) in buf[..n].iter().zip(&rig.chains[ci].nodes) {
                skel.locals[node].rotation = o.local_rot;
                joints.push(o.origin);
            }
            if let (Some(first), Some(last)) = (buf[..n].first(), buf[..n].last()) {
                roots.push(first.origin);
                tips.push(last.tail);
            }
        }
        if !setup.rigid_hair {
            // Fold joints follow the chains' outputs, as the Godot node
            // writes them.
            for f in rig.fold_locals() {
                skel.locals[f.node].translation = f.translation;
                skel.locals[f.node].rotation = f.rotation;
            }
        }
        skel.world_into(&mut world);
        if setup.rigid_hair {
            rigid_outputs(avatar, &rig, &world, &mut joints, &mut roots, &mut tips);
        }
        joints.extend(&tips);
        // The skeleton rebuilt from the written rotations must put every
        // joint where the solver has it, or the skinning measures something else.
        let driven = rig.chains.iter().flat_map(|c| c.nodes.iter());
        for (&node, origin) in driven.zip(&joints) {
            writeback = writeback.max(world[node].w_axis.truncate().distance(*origin));
        }
        for ((c, &origin), rest) in rig.chains.iter().zip(&roots).zip(&rest_roots) {
            let local = frame_pose(&world, c.attachment).inverse_transform_point(origin);
            root_fixity = root_fixity.max(local.distance(*rest));
        }
        if k == 0 {
            rest_tips = rig
                .chains
                .iter()
                .zip(&tips)
                .map(|(c, &tip)| frame_pose(&world, c.attachment).inverse_transform_point(tip))
                .collect();
        } else if t <= setup.moving_until() + 1e-9 {
            for (ci, (c, &tip)) in rig.chains.iter().zip(&tips).enumerate() {
                let carried = frame_pose(&world, c.attachment).transform_point(rest_tips[ci]);
                let d = tip.distance(carried);
                chain_swing[ci] = chain_swing[ci].max(d);
                if d > swing.0 {
                    swing = (d, ci, t);
                }
            }
        }
        if let Some(prev) = &prev_tips
            && t - 1.0 / f64::from(fps) >= settle_from - 1e-9
        {
            for (a, b) in prev.iter().zip(&tips) {
                settle = settle.max(a.distance(*b));
            }
        }
        prev_tips = Some(tips);
        samples.push(joints);

        if let (Some((m, _)), Some(s), Some(p)) = (mesh, &mut stretch, &mut penetration) {
            m.joint_matrices_into(&world, &mut joint_matrices);
            m.skin(&joint_matrices, &to_skin, &mut pos);
            s.sample(&pos);
            p.sample(inside.as_ref().unwrap_or(m), &pos, t);
        }
    }
    let chain_name = |ci: usize| {
        rig.chains
            .get(ci)
            .and_then(|c| c.nodes.first())
            .map_or_else(String::new, |&n| avatar.nodes[n].name.clone())
    };
    let node_names: Vec<String> = avatar.nodes.iter().map(|n| n.name.clone()).collect();
    let report = RunReport {
        fps,
        feed,
        samples: samples.len(),
        root_fixity_m: root_fixity,
        writeback_m: writeback,
        settling: Settling {
            window_s: setup.settle_window_s,
            max_tip_step_m: settle,
        },
        swing: Swing {
            max_tip_deviation_m: swing.0,
            chain: chain_name(swing.1),
            time_s: swing.2,
            per_chain: chain_swing
                .iter()
                .enumerate()
                .map(|(ci, &d)| (chain_name(ci), d))
                .collect(),
        },
        spin: Spin {
            max_deg: spin_max.0,
            chain: chain_name(spin_max.1),
            bone: spin_max.2,
            time_s: spin_max.3,
            over: spin_over,
        },
        stretch: mesh
            .zip(stretch.as_ref())
            .map(|((m, _), s)| s.report_named(m, &node_names)),
        penetration: mesh
            .zip(penetration.as_ref())
            .map(|((m, _), p)| p.report(inside.as_ref().unwrap_or(m), &node_names)),
        seconds: started.elapsed().as_secs_f64(),
    };
    Ok(RunOutput {
        report,
        joints: samples,
    })
}

#[cfg(test)]
mod tests {
    use super::turn_about;
    use glam::{Quat, Vec3};

    /// The spin is the twist part of a turn: a turn about the segment
    /// counts in full, a swing across it not at all, and a turn about a
    /// tilted axis by its component along the segment (hand-computed: a
    /// 90° turn about (1, 1, 0)/√2 is q = (½, ½, 0, 1/√2), whose twist
    /// about x is 2·atan(½ / (1/√2)) = 2·atan(1/√2) = 70.53°).
    #[test]
    fn the_turn_about_a_segment_is_the_twist_part() {
        let start = Quat::from_rotation_z(0.3);
        let y = Vec3::Y;
        let twisted = Quat::from_axis_angle(y, 40f32.to_radians()) * start;
        assert!((turn_about(start, twisted, y) - 40.0).abs() < 1e-3);
        let swung = Quat::from_axis_angle(Vec3::X, 25f32.to_radians()) * start;
        assert!(turn_about(start, swung, y).abs() < 1e-3);
        let tilted =
            Quat::from_axis_angle(Vec3::new(1.0, 1.0, 0.0).normalize(), 90f32.to_radians());
        let expected = 70.528_78;
        assert!((turn_about(Quat::IDENTITY, tilted, Vec3::X) - expected).abs() < 1e-3);
        // The sign of the quaternion does not matter.
        assert!((turn_about(start, -twisted, y) - 40.0).abs() < 1e-3);
    }
}
