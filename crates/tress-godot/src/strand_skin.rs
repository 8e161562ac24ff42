//! Skinned roots for `TressStrandHair`: a groom's `.tfxbone` bound to a
//! `Skeleton3D` by bone name, and that skeleton's current bone poses read
//! each frame as the solver's skinning transforms.
//!
//! The groom is taken to be authored in the skeleton's model space (after
//! `groom_origin` and the unit scale), as TressFX grooms share model space
//! with the body they were made on. A bone's skinning transform is then
//! `skeleton.global · bone_global_pose · bone_global_rest⁻¹`: identity
//! motion at the rest pose, so roots start where they were groomed.

use godot::classes::Skeleton3D;
use godot::prelude::*;
use tress_core::strand::{BoneWeights, Pose, StrandSim};
use tress_rig::groom::GroomWarning;
use tress_rig::groom::tfxbone::{RootWeights, TfxBones, read_tfxbone, sibling_tfxbone};

use crate::convert::pose_and_scale;

/// A loaded `.tfxbone` for the strands the node simulates, and the
/// skeleton it is bound to (if any).
pub(crate) struct StrandSkin {
    /// The file, for its bone names.
    file: TfxBones,
    /// Where it was read from (for messages).
    pub(crate) path: String,
    /// Per simulated strand, in the solver's order, the file's bone indices.
    weights: Vec<RootWeights>,
    /// The skeleton the sim is skinned from, once bound.
    skeleton: Option<Gd<Skeleton3D>>,
    /// Skinning transforms of every skeleton bone, refreshed each frame.
    poses: Vec<Pose>,
}

impl StrandSkin {
    /// Reads the groom's `.tfxbone`: `explicit` when set, else
    /// `NAME.tfxbone` beside `groom_file` when there is one. `order` is
    /// the simulated strands' indices among the groom's kept strands.
    /// `None` without a file; a file that cannot be used is an error
    /// naming it (the hair then follows its attachment rigidly).
    pub(crate) fn load(
        explicit: &str,
        groom_file: &str,
        file_strands: usize,
        skipped: &[GroomWarning],
        order: &[usize],
    ) -> Option<Self> {
        let path = if explicit.is_empty() {
            let p = sibling_tfxbone(groom_file);
            if !crate::files::exists(&p) {
                return None;
            }
            p
        } else {
            explicit.to_owned()
        };
        let read = crate::files::read(&path).and_then(|b| {
            let file = read_tfxbone(b.as_slice()).map_err(|e| e.to_string())?;
            let weights = file
                .for_groom(file_strands, skipped, order)
                .map_err(|e| e.to_string())?;
            Ok((file, weights))
        });
        match read {
            Ok((file, weights)) => Some(Self {
                file,
                path,
                weights,
                skeleton: None,
                poses: Vec::new(),
            }),
            Err(e) => {
                godot_error!(
                    "TressStrandHair: cannot use skinning '{path}': {e}; roots follow the \
                     attachment rigidly"
                );
                None
            }
        }
    }

    /// The bone names the file weighs strands by, in file order.
    pub(crate) fn bone_names(&self) -> &[String] {
        &self.file.bones
    }

    /// Strand `strand`'s bones (file names) and weights, in the solver's
    /// strand order; `None` past the strands.
    pub(crate) fn root_weights(&self, strand: usize) -> Option<Vec<(&str, f32)>> {
        let w = self.weights.get(strand)?;
        Some(
            w.iter()
                .filter(|(_, wt)| *wt > 0.0)
                .filter_map(|&(b, wt)| Some((self.file.bones.get(b as usize)?.as_str(), wt)))
                .collect(),
        )
    }

    /// Whether a skeleton drives the roots now.
    pub(crate) fn is_bound(&self) -> bool {
        self.skeleton.as_ref().is_some_and(Gd::is_instance_valid)
    }

    /// The skeleton that drives the roots now, if any.
    pub(crate) fn skeleton(&self) -> Option<Gd<Skeleton3D>> {
        self.skeleton.clone().filter(Gd::is_instance_valid)
    }

    /// Binds the sim to `skeleton`: every weighted bone looked up by name,
    /// the sim skinned from the skeleton's current pose. A bone the
    /// skeleton lacks is an error naming it; the sim stays rigid then.
    pub(crate) fn bind(&mut self, skeleton: Gd<Skeleton3D>, sim: &mut StrandSim) -> bool {
        self.skeleton = None;
        sim.clear_skin();
        let names: Vec<String> = (0..skeleton.get_bone_count())
            .map(|i| skeleton.get_bone_name(i).to_string())
            .collect();
        let weights: Vec<BoneWeights> = match self.file.resolve(&self.weights, &names) {
            Ok(w) => w,
            Err(e) => {
                godot_error!(
                    "TressStrandHair: '{}' on Skeleton3D '{}': {e}; roots follow the attachment \
                     rigidly",
                    self.path,
                    skeleton.get_name()
                );
                return false;
            }
        };
        read_poses(&skeleton, &mut self.poses);
        if let Err(e) = sim.set_skin(&weights, &self.poses) {
            godot_error!(
                "TressStrandHair: '{}': {e}; roots follow the attachment rigidly",
                self.path
            );
            return false;
        }
        self.skeleton = Some(skeleton);
        true
    }

    /// The bound skeleton's skinning transforms now, or `None` when it is
    /// gone or changed its bone count (then the sim goes back to rigid
    /// roots, with an error saying why).
    pub(crate) fn current_poses(&mut self, sim: &mut StrandSim) -> Option<&[Pose]> {
        let skeleton = self.skeleton.as_ref()?;
        let count = skeleton
            .is_instance_valid()
            .then(|| skeleton.get_bone_count());
        if count != Some(self.poses.len() as i32) {
            godot_error!(
                "TressStrandHair: the skeleton skinning '{}' was freed or changed its bones; \
                 roots follow the attachment rigidly",
                self.path
            );
            self.skeleton = None;
            sim.clear_skin();
            return None;
        }
        read_poses(skeleton, &mut self.poses);
        Some(&self.poses)
    }
}

/// Writes every bone's skinning transform (world space, scale dropped as
/// the rigid attachment drops it) into `out`, resized to the bone count.
fn read_poses(skeleton: &Gd<Skeleton3D>, out: &mut Vec<Pose>) {
    let n = skeleton.get_bone_count().max(0);
    out.resize(n as usize, Pose::IDENTITY);
    let world = skeleton.get_global_transform();
    for (i, pose) in (0..n).zip(out.iter_mut()) {
        let m = world
            * skeleton.get_bone_global_pose(i)
            * skeleton.get_bone_global_rest(i).affine_inverse();
        let (p, _) = pose_and_scale(&m);
        *pose = p.sanitized(pose);
    }
}
