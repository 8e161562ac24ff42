//! Retargeted clips as Godot `Animation`s on an avatar's Skeleton3D.

use godot::classes::animation::{LoopMode, TrackType};
use godot::classes::{Animation, Skeleton3D};
use godot::prelude::*;
use tress_rig::anim::Clip;
use tress_vrm::Avatar;

use tress_core::math::Quat;

use crate::convert::{quaternion, vector3};

/// Builds a looping Godot animation from `clip` (retargeted onto `avatar`)
/// with tracks on `skeleton` at `skeleton_path` (relative to the player's
/// root node). Returns the animation and the number of bones not found in
/// the skeleton (their tracks are left out).
///
/// Godot's GLTFDocument keeps glTF node names and local rests for bones; a
/// root bone may still sit in a different parent frame than its glTF node,
/// so each bone's keys are turned by the rotation taking the glTF rest onto
/// Godot's rest (identity for every bone under another bone).
pub fn to_godot(
    clip: &Clip,
    avatar: &Avatar,
    skeleton: &Gd<Skeleton3D>,
    skeleton_path: &str,
) -> (Gd<Animation>, usize) {
    let mut anim = Animation::new_gd();
    let mut missing = 0;
    let length = clip.duration().max(1.0 / clip.fps);
    anim.set_length(length);
    anim.set_loop_mode(LoopMode::LINEAR);
    for track in &clip.tracks {
        let Some(node) = avatar.nodes.get(track.node) else {
            missing += 1;
            continue;
        };
        let bone = skeleton.find_bone(node.name.as_str());
        if bone < 0 {
            missing += 1;
            continue;
        }
        let fix = frame_fix(skeleton, bone, node.rotation);
        let t = anim.add_track(TrackType::ROTATION_3D);
        anim.track_set_path(
            t,
            &NodePath::from(format!("{skeleton_path}:{}", node.name).as_str()),
        );
        for (time, q) in clip.times.iter().zip(&track.rotations) {
            anim.rotation_track_insert_key(t, f64::from(*time), quaternion((fix * *q).normalize()));
        }
        if track.node == clip.hips_node {
            let rest = skeleton.get_bone_rest(bone).origin;
            let t = anim.add_track(TrackType::POSITION_3D);
            anim.track_set_path(
                t,
                &NodePath::from(format!("{skeleton_path}:{}", node.name).as_str()),
            );
            for (time, p) in clip.times.iter().zip(&clip.hips_translation) {
                let delta = vector3(fix * (*p - node.translation));
                anim.position_track_insert_key(t, f64::from(*time), rest + delta);
            }
        }
    }
    (anim, missing)
}

/// Rotation from the glTF node's parent frame to the Godot bone's parent
/// frame, read off the two rests.
fn frame_fix(skeleton: &Gd<Skeleton3D>, bone: i32, gltf_rest: Quat) -> Quat {
    let q = skeleton
        .get_bone_rest(bone)
        .basis
        .orthonormalized()
        .get_quaternion();
    let godot_rest = Quat::from_xyzw(q.x, q.y, q.z, q.w).normalize();
    let fix = (godot_rest * gltf_rest.inverse()).normalize();
    // Float noise on an identity is not a frame change.
    if fix.abs_diff_eq(Quat::IDENTITY, 1e-5) || fix.abs_diff_eq(-Quat::IDENTITY, 1e-5) {
        Quat::IDENTITY
    } else {
        fix
    }
}
