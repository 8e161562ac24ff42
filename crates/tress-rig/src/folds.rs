//! The folds of an avatar's bands (`TRESS_springBone_band`'s `folds`,
//! `tress_core::spring::fold`): after each step, every fold joint placed
//! from the two chains either side and handed out as its node's local pose,
//! which the caller writes as it writes the chains' rotations.
//!
//! A fold node must hang from a joint of one of its two chains (the
//! generator puts it under the first chain's joint of its row), so its
//! local pose comes from the solver's outputs alone; a runtime that knows
//! nothing of folds then carries it with that chain.

use glam::{Mat4, Quat, Vec3};
use tress_core::math::{Pose, quat};
use tress_core::spring::JointOutput;
use tress_core::spring::fold::{FoldRest, bend_angle, depth_for_bend};
use tress_vrm::model::Avatar;

use crate::spring_rig::{AvatarWorld, RigChain, pose_of};

/// A joint of a simulated chain: the rig chain and its joint, where joint
/// `k` equal to the chain's output count is the tip (the last bone's tail).
#[derive(Debug, Clone, Copy, PartialEq)]
struct JointRef {
    chain: usize,
    joint: usize,
    /// The tip's rest rotation relative to the last bone (identity for
    /// a bone).
    tip_rot: Quat,
}

/// One fold joint.
#[derive(Debug, Clone)]
struct FoldJoint {
    node: usize,
    rest: FoldRest,
    a: JointRef,
    b: JointRef,
    parent: JointRef,
    /// The neighbouring rows' joints of each chain (`a` then `b`), for the
    /// bend; `None` on the first and last rows.
    around: Option<[JointRef; 4]>,
    /// The chains' mean bend at this row at rest, radians: only bending
    /// past it presses the fold.
    rest_bend: f32,
    /// This fold's next row (index into the joints), `None` on the last.
    next: Option<usize>,
    /// This fold's previous row, `None` on the first.
    above: Option<usize>,
    flat_angle: f32,
}

/// One fold node's local pose under its parent.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FoldLocal {
    /// The node.
    pub node: usize,
    /// Local translation (the parent's units).
    pub translation: Vec3,
    /// Local rotation.
    pub rotation: Quat,
}

/// Every fold joint of a rig, with scratch for the chains' outputs.
#[derive(Debug, Clone, Default)]
pub struct RigFolds {
    joints: Vec<FoldJoint>,
    /// Outputs of every rig chain a fold uses (filled per call; other
    /// chains' stay empty), and how many each holds.
    outputs: Vec<Vec<JointOutput>>,
    counts: Vec<usize>,
    placed: Vec<(Vec3, Quat)>,
    locals: Vec<FoldLocal>,
}

impl RigFolds {
    /// The folds of `avatar`'s bands over the rig's `chains`; a fold that
    /// cannot be placed (a chain not simulated, rows that do not match the
    /// chains' joints, a node under something other than its chains) is
    /// left out with a note.
    #[must_use]
    pub fn build(avatar: &Avatar, chains: &[RigChain], notes: &mut Vec<String>) -> Self {
        let rest = avatar.rest_world();
        let mut joints = Vec::new();
        for band in &avatar.springs.bands {
            for ((sa, sb), nodes) in band.pairs().zip(&band.folds) {
                match fold_joints(avatar, chains, &rest, sa, sb, nodes, joints.len()) {
                    Ok(mut f) => {
                        for j in &mut f {
                            j.flat_angle = band.fold_flat_angle;
                        }
                        joints.extend(f);
                    }
                    Err(why) => notes.push(format!(
                        "band {}: fold between springs {sa} and {sb} not placed ({why})",
                        band.source_path
                    )),
                }
            }
        }
        let mut outputs = vec![Vec::new(); chains.len()];
        for j in &joints {
            for r in [j.a, j.b] {
                outputs[r.chain] = vec![JointOutput::default(); chains[r.chain].nodes.len()];
            }
        }
        Self {
            counts: vec![0; chains.len()],
            outputs,
            joints,
            placed: Vec::new(),
            locals: Vec::new(),
        }
    }

    /// Every fold node.
    pub fn nodes(&self) -> impl Iterator<Item = usize> + '_ {
        self.joints.iter().map(|j| j.node)
    }

    /// Places every fold joint from the current outputs of `world`'s
    /// chains (`chains`, the rig's, as built with these folds) and returns
    /// their local poses, in [`Self::nodes`]' order (a node's local
    /// translation in its parent's units: divided by the world's scale).
    pub fn place(&mut self, world: &AvatarWorld, chains: &[RigChain]) -> &[FoldLocal] {
        self.locals.clear();
        if self.joints.is_empty() {
            return &self.locals;
        }
        for ((ci, buf), count) in self.outputs.iter_mut().enumerate().zip(&mut self.counts) {
            if !buf.is_empty() {
                *count = world.outputs(chains[ci].index, buf);
            }
        }
        let (outs, counts) = (&self.outputs, &self.counts);
        let pose = |r: JointRef| joint_pose(&outs[r.chain][..counts[r.chain]], r);
        self.placed.clear();
        for j in &self.joints {
            let (a, b) = (pose(j.a), pose(j.b));
            let depth = j.around.map_or(1.0, |[pa, na, pb, nb]| {
                let bend = 0.5
                    * (bend_angle(pose(pa).pos, a.pos, pose(na).pos)
                        + bend_angle(pose(pb).pos, b.pos, pose(nb).pos));
                depth_for_bend((bend - j.rest_bend).max(0.0), j.flat_angle)
            });
            self.placed
                .push((j.rest.place(a, b, depth), Quat::IDENTITY));
        }
        // Rotations look at the next row (placed above) and, on the last
        // row, take the row above's (turned in this same pass).
        for i in 0..self.joints.len() {
            let j = &self.joints[i];
            let (a, b) = (pose(j.a), pose(j.b));
            let here = self.placed[i].0;
            let next = j.next.map(|n| self.placed[n].0);
            let above = j.above.map(|n| self.placed[n].1);
            self.placed[i].1 = j.rest.rotation(a, b, here, next, above);
        }
        let scale = world.scale();
        let inv_scale = if scale > 0.0 && scale.is_finite() {
            1.0 / scale
        } else {
            1.0
        };
        for (j, &(pos, rot)) in self.joints.iter().zip(&self.placed) {
            let parent = pose(j.parent);
            let back = parent.rot.conjugate();
            self.locals.push(FoldLocal {
                node: j.node,
                translation: quat::rotate(back, pos - parent.pos) * inv_scale,
                rotation: quat::normalize_or(quat::mul(back, rot), Quat::IDENTITY),
            });
        }
        &self.locals
    }
}

/// The world pose of a chain joint from its chain's outputs.
fn joint_pose(out: &[JointOutput], r: JointRef) -> Pose {
    match out.get(r.joint) {
        Some(o) => Pose::new(o.origin, o.world_rot),
        None => out.last().map_or(Pose::IDENTITY, |o| {
            Pose::new(o.tail, quat::mul(o.world_rot, r.tip_rot))
        }),
    }
}

/// The joints of one fold (`nodes`, one per row) between springs `sa` and
/// `sb`; `first` is the index the first of them will have.
fn fold_joints(
    avatar: &Avatar,
    chains: &[RigChain],
    rest: &[Mat4],
    sa: usize,
    sb: usize,
    nodes: &[usize],
    first: usize,
) -> Result<Vec<FoldJoint>, String> {
    let rig_chain = |s: usize| {
        chains
            .iter()
            .position(|c| c.spring == s)
            .ok_or_else(|| format!("spring {s} is not simulated"))
    };
    let (ca, cb) = (rig_chain(sa)?, rig_chain(sb)?);
    let joint_ref = |ci: usize, spring: usize, k: usize| -> Result<JointRef, String> {
        // Rows past the chains' joints were refused below, before any call.
        let file = &avatar.springs.chains[spring].joints;
        let node = file[k].node;
        let driven = &chains[ci].nodes;
        if let Some(joint) = driven.iter().position(|&n| n == node) {
            return Ok(JointRef {
                chain: ci,
                joint,
                tip_rot: Quat::IDENTITY,
            });
        }
        // The tip: the tail of the last driven bone, its node a child of it.
        let last = *driven.last().ok_or("a chain without bones")?;
        if k + 1 == file.len() && avatar.nodes.get(node).and_then(|n| n.parent) == Some(last) {
            let tip_rot = avatar.nodes[node].rotation;
            return Ok(JointRef {
                chain: ci,
                joint: driven.len(),
                tip_rot,
            });
        }
        Err(format!("joint {k} of spring {spring} is not simulated"))
    };
    for s in [sa, sb] {
        if avatar.springs.chains[s].joints.len() != nodes.len() {
            return Err(format!(
                "spring {s} has {} joints, the fold {}",
                avatar.springs.chains[s].joints.len(),
                nodes.len()
            ));
        }
    }
    let rows = nodes.len();
    let mut out = Vec::with_capacity(rows);
    for (k, &node) in nodes.iter().enumerate() {
        let a = joint_ref(ca, sa, k)?;
        let b = joint_ref(cb, sb, k)?;
        // The parent: a joint of either chain, any row.
        let parent_node = avatar.nodes.get(node).and_then(|n| n.parent);
        let parent = (0..rows)
            .flat_map(|r| [(ca, sa, r), (cb, sb, r)])
            .find(|&(_, s, r)| Some(avatar.springs.chains[s].joints[r].node) == parent_node)
            .map(|(ci, s, r)| joint_ref(ci, s, r))
            .transpose()?
            .ok_or_else(|| format!("node {node} does not hang from a joint of its two chains"))?;
        let at = |n: usize| pose_of(&rest[n]);
        let file = |s: usize, r: usize| avatar.springs.chains[s].joints[r].node;
        let rest_fold = FoldRest::new(
            at(file(sa, k)),
            at(file(sb, k)),
            at(node),
            nodes.get(k + 1).map(|&n| at(n).pos),
        );
        let around = (k > 0 && k + 1 < rows)
            .then(|| -> Result<[JointRef; 4], String> {
                Ok([
                    joint_ref(ca, sa, k - 1)?,
                    joint_ref(ca, sa, k + 1)?,
                    joint_ref(cb, sb, k - 1)?,
                    joint_ref(cb, sb, k + 1)?,
                ])
            })
            .transpose()?;
        let rest_bend = if k > 0 && k + 1 < rows {
            let bend = |s: usize| {
                bend_angle(
                    at(file(s, k - 1)).pos,
                    at(file(s, k)).pos,
                    at(file(s, k + 1)).pos,
                )
            };
            0.5 * (bend(sa) + bend(sb))
        } else {
            0.0
        };
        out.push(FoldJoint {
            node,
            rest: rest_fold,
            a,
            b,
            parent,
            around,
            rest_bend,
            next: (k + 1 < rows).then_some(first + k + 1),
            above: (k > 0).then(|| first + k - 1),
            flat_angle: 0.0,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spring_rig::{RigOptions, SpringRig};
    use tress_core::math::Pose;

    /// The committed skirt avatar: 24 chains in one closed band, a fold of
    /// four joints between each pair.
    fn skirt() -> Avatar {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../assets/tress_avatar_skirt.vrm"
        );
        tress_vrm::load_path(path).expect("the skirt avatar loads")
    }

    fn fold_nodes(a: &Avatar) -> Vec<usize> {
        a.springs.bands[0].folds.iter().flatten().copied().collect()
    }

    #[test]
    fn at_rest_every_fold_joint_keeps_its_file_pose() {
        let a = skirt();
        let mut rig = SpringRig::build(&a, &RigOptions::default()).expect("rig");
        assert!(
            rig.notes.iter().all(|n| !n.contains("fold")),
            "{:?}",
            rig.notes
        );
        let nodes = fold_nodes(&a);
        assert_eq!(nodes.len(), 24 * 4);
        assert!(rig.folds.nodes().eq(nodes.iter().copied()));
        let locals = rig.fold_locals().to_vec();
        assert_eq!(locals.len(), nodes.len());
        for f in &locals {
            let n = &a.nodes[f.node];
            assert!(f.translation.distance(n.translation) < 1e-5, "{}", n.name);
            // Twice the vector part of the difference: the angle, radians,
            // without acos's loss near zero.
            let d = f.rotation * n.rotation.conjugate();
            let angle = 2.0 * d.xyz().length();
            assert!(angle < 1e-5, "{}: turned {angle} rad", n.name);
        }
    }

    /// Swings the hips about for a second and checks every fold joint
    /// against its two chain joints each frame: never further from either
    /// than half the cloth's path across at rest (the cloth does not
    /// stretch across), always outward of or on the gap, finite.
    #[test]
    fn moving_folds_never_stretch_the_cloth_across() {
        let a = skirt();
        let mut rig = SpringRig::build(&a, &RigOptions::default()).expect("rig");
        let rest = a.rest_world();
        let band = &a.springs.bands[0];
        let pairs: Vec<(usize, usize)> = band.pairs().collect();
        let pos = |m: &Mat4| m.w_axis.truncate();
        // Rest half path of each fold joint (chain a's joint to the fold).
        let mut half = Vec::new();
        for ((sa, _), fold) in pairs.iter().zip(&band.folds) {
            for (k, &n) in fold.iter().enumerate() {
                let ja = a.springs.chains[*sa].joints[k].node;
                half.push(pos(&rest[n]).distance(pos(&rest[ja])));
            }
        }
        let poses = rig.rest_poses(&a);
        let mut skel = a.rest_world();
        let mut worst: f32 = 0.0;
        let mut moved: f32 = 0.0;
        for step in 1..=60 {
            let t = step as f32 / 60.0;
            let turn =
                Quat::from_rotation_y(1.2 * ops_sin(6.0 * t)) * Quat::from_rotation_x(0.4 * t);
            let frames: Vec<Pose> = poses
                .iter()
                .map(|p| Pose::new(turn * p.pos + Vec3::new(0.3 * t, 0.0, 0.0), turn * p.rot))
                .collect();
            rig.set_frame_poses(&frames);
            rig.advance(1.0 / 60.0);
            // World matrices of the chain joints, from the outputs.
            for c in 0..rig.chains.len() {
                let out = rig.outputs(c);
                for (o, &n) in out.iter().zip(&rig.chains[c].nodes) {
                    skel[n] = Mat4::from_rotation_translation(o.world_rot, o.origin);
                }
                let spring = &a.springs.chains[rig.chains[c].spring];
                if let (Some(last), Some(tip)) = (out.last(), spring.joints.last())
                    && !rig.chains[c].nodes.contains(&tip.node)
                {
                    skel[tip.node] = Mat4::from_rotation_translation(last.world_rot, last.tail);
                }
            }
            let locals = rig.fold_locals().to_vec();
            let mut i = 0;
            for ((sa, sb), fold) in pairs.iter().zip(&band.folds) {
                for (k, &n) in fold.iter().enumerate() {
                    let f = locals[i];
                    assert_eq!(f.node, n);
                    let parent = a.nodes[n].parent.expect("a fold joint has a parent");
                    let world =
                        skel[parent] * Mat4::from_rotation_translation(f.rotation, f.translation);
                    let p = pos(&world);
                    assert!(p.is_finite());
                    let ja = pos(&skel[a.springs.chains[*sa].joints[k].node]);
                    let jb = pos(&skel[a.springs.chains[*sb].joints[k].node]);
                    for j in [ja, jb] {
                        worst = worst.max(p.distance(j) / half[i]);
                    }
                    moved = moved.max((p.distance(ja) - half[i]).abs());
                    i += 1;
                }
            }
        }
        // Both halves equal and at most the rest half path: depth absorbs
        // any opening, bends only press the fold flatter.
        assert!(
            worst <= 1.0 + 1e-4,
            "a fold half stretched by {}",
            worst - 1.0
        );
        // And the folds did move with the skirt (pressed flatter somewhere).
        assert!(moved > 1e-3, "no fold changed shape ({moved} m)");
    }

    fn ops_sin(x: f32) -> f32 {
        tress_core::math::ops::sin(x)
    }

    #[test]
    fn a_fold_that_cannot_be_placed_is_left_out_with_a_note() {
        let mut a = skirt();
        // Fold 3's waist joint moved under the hips: no longer under its
        // chains.
        let hips = a.node_by_name("Hips").expect("Hips");
        let node = a.springs.bands[0].folds[3][0];
        a.nodes[node].parent = Some(hips);
        // Fold 5 one row short.
        a.springs.bands[0].folds[5].pop();
        let rig = SpringRig::build(&a, &RigOptions::default()).expect("rig still builds");
        let notes: Vec<&String> = rig.notes.iter().filter(|n| n.contains("fold")).collect();
        assert_eq!(notes.len(), 2, "{notes:?}");
        assert!(
            notes
                .iter()
                .any(|n| n.contains("does not hang from a joint of its two chains"))
        );
        assert!(notes.iter().any(|n| n.contains("has 4 joints, the fold 3")));
        assert_eq!(rig.folds.nodes().count(), 22 * 4);
    }
}
