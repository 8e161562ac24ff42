//! Humanoid retargeting (issue 7): identity, A-pose vs T-pose, facing and
//! sides, feet and hands, loops, travel, errors, hair joints, VRMA quirks
//! and the glTF output.

use crate::common;

use std::path::{Path, PathBuf};

use glam::{Mat4, Quat, Vec3};
use tress_rig::anim::clip::angle_between;
use tress_rig::anim::sample::{Local, local_pose, world_from_local};
use tress_rig::anim::{self, BoneMap, RetargetError, RetargetOptions, Retargeter};
use tress_tools::validate;
use tress_vrm::{Animation, Avatar, Channel, ChannelValues, Interpolation};

fn repo(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(rel)
}

fn builtin() -> Avatar {
    tress_vrm::load_path(repo("assets/tress_avatar.vrm")).expect("built-in avatar")
}

fn library(dir: &Path) -> Avatar {
    tress_vrm::load_path(dir.join("quaternius-ual1/AnimationLibrary_Godot_Standard.gltf"))
        .expect("Universal Animation Library")
}

fn godette(dir: &Path) -> Avatar {
    tress_vrm::load_path(dir.join("godette-vrm0/Godette_vrm_v4.vrm")).expect("Godette")
}

fn pos(w: &[Mat4], n: usize) -> Vec3 {
    w[n].w_axis.truncate()
}

fn rot(m: &Mat4) -> Quat {
    m.to_scale_rotation_translation().1
}

fn plain() -> RetargetOptions {
    RetargetOptions {
        fps: None,
        remove_travel: false,
        loop_blend: None,
    }
}

/// A source mapped onto itself must come back unchanged: same world
/// rotations on every mapped bone, same hips path. (Feet and toes are left
/// out: the ground pass lifts soles the library's own clips push into the
/// floor.)
#[test]
fn identity_retarget_reproduces_the_source() {
    let Some(dir) = common::assets_dir() else {
        return;
    };
    let src = library(&dir);
    let map = BoneMap::detect(&src).expect("DEF- names");
    let mut me = src.clone();
    me.humanoid = Some(tress_vrm::Humanoid {
        bones: map.bones.clone(),
    });
    let r = Retargeter::new(&src, &map, &me).expect("retargeter");
    assert!((r.scale() - 1.0).abs() < 1e-5);
    let anim = src
        .animations
        .iter()
        .find(|a| a.name == "Dance_Loop")
        .expect("Dance_Loop");
    let clip = r.retarget(anim, &plain()).expect("retarget");
    let frames = anim::checks::world_frames(&clip, &me);
    let mut local: Vec<Local> = Vec::new();
    let mut world = Vec::new();
    let mut worst_angle = 0.0f32;
    let mut worst_hips = 0.0f32;
    for (i, &t) in clip.times.iter().enumerate() {
        local_pose(&src, anim, t, &mut local);
        world_from_local(&src, &local, &mut world);
        for (bone, node) in &map.bones {
            if bone.contains("Foot") || bone.contains("Toes") {
                continue;
            }
            worst_angle =
                worst_angle.max(angle_between(rot(&world[*node]), rot(&frames[i][*node])));
        }
        let hips = map.node("hips").unwrap();
        worst_hips = worst_hips.max(pos(&world, hips).distance(pos(&frames[i], hips)));
    }
    assert!(
        worst_angle < 0.2f32.to_radians(),
        "worst bone {:.3}°",
        worst_angle.to_degrees()
    );
    assert!(worst_hips < 1e-3, "hips off by {worst_hips} m");
}

/// The built-in avatar in an A-pose (upper arms 45° down) as the source,
/// onto the T-pose built-in avatar: a clip that holds the source's rest
/// must put the target's arms 45° down; a clip that lifts the source's arms
/// level must put the target's arms level. Both rest poses are honoured.
#[test]
fn a_pose_and_t_pose_sources_both_land_right() {
    let target = builtin();
    let h = target.humanoid.clone().unwrap();
    let mut source = target.clone();
    source.springs = Default::default();
    let rest = source.rest_world();
    let mut lift = Vec::new();
    for (side, sign) in [("left", 1.0f32), ("right", -1.0)] {
        let arm = h.bone(&format!("{side}UpperArm")).unwrap();
        let parent = source.nodes[arm].parent.unwrap();
        let parent_rot = rot(&rest[parent]);
        // Left arm along +X turns toward −Y about −Z; the right one mirrors.
        let down = Quat::from_rotation_z(-sign * 45f32.to_radians());
        let t_local = source.nodes[arm].rotation;
        source.nodes[arm].rotation = (parent_rot.inverse() * down * rot(&rest[arm])).normalize();
        lift.push(Channel {
            node: arm,
            times: vec![0.0],
            interpolation: Interpolation::Linear,
            values: ChannelValues::Rotation(vec![t_local]),
        });
    }
    let hold = Animation {
        name: "hold".into(),
        channels: vec![],
        duration: 0.0,
    };
    let level = Animation {
        name: "level".into(),
        channels: lift,
        duration: 0.0,
    };
    let map = BoneMap::detect(&source).unwrap();
    let r = Retargeter::new(&source, &map, &target).unwrap();
    for (clip, want_deg) in [(&hold, -45.0f32), (&level, 0.0)] {
        let out = r.retarget(clip, &plain()).expect("retarget");
        let w = &anim::checks::world_frames(&out, &target)[0];
        for side in ["left", "right"] {
            let a = pos(w, h.bone(&format!("{side}UpperArm")).unwrap());
            let b = pos(w, h.bone(&format!("{side}LowerArm")).unwrap());
            let d = (b - a).normalize();
            let elevation = tress_core::math::ops::asin_clamped(d.y).to_degrees();
            assert!(
                (elevation - want_deg).abs() < 1.0,
                "{}: {side} arm at {elevation:.2}°, want {want_deg}°",
                clip.name
            );
        }
    }
}

/// Godette is VRM 0.x and faces −Z; the library faces its own way. When the
/// source's left foot is ahead in Walk_Loop, the target's left foot must be
/// ahead along *her* forward (a facing or side mix-up would swap them).
#[test]
fn left_stays_left_and_forward_stays_forward() {
    let Some(dir) = common::assets_dir() else {
        return;
    };
    let src = library(&dir);
    let target = godette(&dir);
    let map = BoneMap::detect(&src).unwrap();
    let h = target.humanoid.clone().unwrap();
    // Godette's forward is −Z (asset README); the library's comes from its
    // own hip line: left minus right, crossed with up.
    let src_rest = src.rest_world();
    let hip_line = pos(&src_rest, map.node("leftUpperLeg").unwrap())
        - pos(&src_rest, map.node("rightUpperLeg").unwrap());
    let src_forward = Vec3::new(hip_line.x, 0.0, hip_line.z)
        .normalize()
        .cross(Vec3::Y);
    let r = Retargeter::new(&src, &map, &target).unwrap();
    let anim = src
        .animations
        .iter()
        .find(|a| a.name == "Walk_Loop")
        .unwrap();
    let clip = r.retarget(anim, &plain()).expect("retarget");
    let frames = anim::checks::world_frames(&clip, &target);
    let mut local = Vec::new();
    let mut world = Vec::new();
    let mut agree = 0;
    let mut checked = 0;
    for (i, &t) in clip.times.iter().enumerate() {
        local_pose(&src, anim, t, &mut local);
        world_from_local(&src, &local, &mut world);
        let s = (pos(&world, map.node("leftFoot").unwrap())
            - pos(&world, map.node("rightFoot").unwrap()))
        .dot(src_forward);
        let d = (pos(&frames[i], h.bone("leftFoot").unwrap())
            - pos(&frames[i], h.bone("rightFoot").unwrap()))
        .dot(Vec3::NEG_Z);
        if s.abs() > 0.1 {
            checked += 1;
            if s.signum() == d.signum() {
                agree += 1;
            }
        }
    }
    assert!(
        checked >= 10,
        "too few frames with a clear stride: {checked}"
    );
    assert_eq!(
        agree,
        checked,
        "feet swapped in {} of {checked} frames",
        checked - agree
    );
}

/// Acceptance 1 and 2: every clip (46 library clips, two VRMA) on every
/// avatar (built-in, layered, Godette) validates; Idle and Walk keep the
/// feet within 3 cm of the ground and Idle keeps the hands outside the torso.
#[test]
fn every_clip_on_every_avatar_validates_and_measures_within_the_marks() {
    let Some(dir) = common::assets_dir() else {
        return;
    };
    let avatars = vec![
        ("built-in".to_owned(), builtin()),
        (
            "layered".to_owned(),
            tress_vrm::load_path(repo("assets/tress_avatar_layered.vrm")).unwrap(),
        ),
        ("Godette".to_owned(), godette(&dir)),
    ];
    let sources = vec![
        ("UAL".to_owned(), library(&dir)),
        (
            "idle_loop".to_owned(),
            tress_vrm::load_path(dir.join("three-vrm-vrma/idle_loop.vrma")).unwrap(),
        ),
        (
            "test".to_owned(),
            tress_vrm::load_path(dir.join("three-vrm-vrma/test.vrma")).unwrap(),
        ),
    ];
    let rows = validate::validate_all(&avatars, &sources, |_, _, _| {});
    assert_eq!(rows.len(), 3 * (46 + 2), "clip × avatar pairs");
    let failed: Vec<String> = rows
        .iter()
        .filter(|r| !r.passed())
        .map(|r| {
            format!(
                "{} / {} / {}: {:?} foot {:?} hands {:?}",
                r.avatar, r.source, r.clip, r.validity, r.foot, r.hands
            )
        })
        .collect();
    assert!(failed.is_empty(), "failed:\n{}", failed.join("\n"));
    let measured: Vec<_> = rows.iter().filter(|r| r.measured).collect();
    assert_eq!(measured.len(), 6, "Idle and Walk on three avatars");
    for r in measured {
        let foot = r.foot.expect("feet measured");
        assert!(
            foot <= 0.03,
            "{} {}: feet {foot} m off the ground",
            r.avatar,
            r.clip
        );
        if r.clip == "Idle_Loop" {
            let hands = r.hands.expect("hands measured");
            assert!(
                hands > 0.0,
                "{}: a hand {hands} m inside the torso",
                r.avatar
            );
        }
    }
}

/// The measurement itself must catch a bad result: the same Walk with the
/// hips dropped 10 cm sinks the feet, and arms folded onto the chest put
/// the hands inside the torso.
#[test]
fn the_foot_and_hand_measures_catch_bad_motion() {
    let Some(dir) = common::assets_dir() else {
        return;
    };
    let src = library(&dir);
    let target = builtin();
    let h = target.humanoid.clone().unwrap();
    let r = Retargeter::new(&src, &BoneMap::detect(&src).unwrap(), &target).unwrap();
    let mut clip = r.retarget_named("Walk_Loop", &plain()).unwrap();
    for p in &mut clip.hips_translation {
        p.y -= 0.10;
    }
    let frames = anim::checks::world_frames(&clip, &target);
    let feet = anim::checks::foot_contact(&target, &frames).unwrap();
    assert!(feet.from_mesh);
    assert!(
        feet.worst > 0.08,
        "a 10 cm drop measured as {} m",
        feet.worst
    );

    // Put each hand at the chest centre: clearance must be negative.
    let torso = anim::checks::torso(&target).unwrap();
    let mut frames =
        anim::checks::world_frames(&r.retarget_named("Idle_Loop", &plain()).unwrap(), &target);
    let chest = h.bone("chest").unwrap();
    for w in &mut frames {
        let c = w[chest].w_axis;
        for hand in ["leftHand", "rightHand"] {
            w[h.bone(hand).unwrap()].w_axis = c;
        }
    }
    let hands = anim::checks::hand_clearance(&target, &torso, &frames).unwrap();
    assert!(
        hands < -0.05,
        "hands at the chest measured {hands} m outside"
    );
}

#[test]
fn one_shots_loop_after_the_blend_and_travel_is_removed() {
    let Some(dir) = common::assets_dir() else {
        return;
    };
    let src = library(&dir);
    let target = builtin();
    let r = Retargeter::new(&src, &BoneMap::detect(&src).unwrap(), &target).unwrap();
    let jump = r
        .retarget_named("Jump_Start", &RetargetOptions::default())
        .unwrap();
    assert!(
        jump.loop_blend_added,
        "Jump_Start does not end where it starts"
    );
    assert!(jump.loops());
    let n = jump.times.len() - 1;
    for t in &jump.tracks {
        assert!(
            angle_between(t.rotations[0], t.rotations[n]) < 1e-3,
            "{} does not close",
            t.bone
        );
    }
    let walk = r
        .retarget_named("Walk_Loop", &RetargetOptions::default())
        .unwrap();
    assert!(!walk.loop_blend_added, "Walk_Loop already loops");

    // Roll_RM carries root motion: kept, the hips travel; removed, they end
    // where they started.
    let keep = r
        .retarget_named(
            "Roll_RM",
            &RetargetOptions {
                remove_travel: false,
                ..RetargetOptions::default()
            },
        )
        .unwrap();
    let removed = r
        .retarget_named(
            "Roll_RM",
            &RetargetOptions {
                loop_blend: None,
                ..RetargetOptions::default()
            },
        )
        .unwrap();
    let horiz = |c: &anim::Clip| {
        let a = c.hips_translation[0];
        let b = *c.hips_translation.last().unwrap();
        Vec3::new(b.x - a.x, 0.0, b.z - a.z).length()
    };
    let kept_travel = {
        let k = r
            .retarget_named(
                "Roll_RM",
                &RetargetOptions {
                    remove_travel: false,
                    loop_blend: None,
                    ..RetargetOptions::default()
                },
            )
            .unwrap();
        horiz(&k)
    };
    assert!(kept_travel > 0.5, "Roll_RM travels only {kept_travel} m");
    assert!(horiz(&removed) < 1e-3, "travel left: {} m", horiz(&removed));
    assert!(keep.loops(), "a blended clip loops");
}

#[test]
fn missing_bones_and_missing_humanoids_are_named() {
    let target = builtin();
    let mut source = target.clone();
    let foot = source.humanoid.as_ref().unwrap().bone("leftFoot").unwrap();
    source.humanoid.as_mut().unwrap().bones.remove("leftFoot");
    let map = BoneMap::detect(&source).unwrap();
    let err = Retargeter::new(&source, &map, &target).unwrap_err();
    assert_eq!(
        err,
        RetargetError::MissingBones {
            side: "animation",
            bones: vec!["leftFoot"]
        }
    );
    assert!(err.to_string().contains("leftFoot"), "{err}");
    let _ = foot;

    let mut bare = target.clone();
    bare.humanoid = None;
    let map = BoneMap::detect(&target).unwrap();
    assert_eq!(
        Retargeter::new(&target, &map, &bare).unwrap_err(),
        RetargetError::NoTargetHumanoid
    );

    // The built-in avatar's node names (`Hips`, `LeftUpperArm`) match by
    // name; numbered names match no convention.
    let mut by_name = target.clone();
    by_name.humanoid = None;
    let map = BoneMap::detect(&by_name).expect("VRM-style node names");
    assert_eq!(map.source, tress_rig::anim::MapSource::Names);
    assert_eq!(
        map.node("leftHand"),
        target.humanoid.as_ref().unwrap().bone("leftHand")
    );
    let mut no_names = by_name;
    for (i, n) in no_names.nodes.iter_mut().enumerate() {
        n.name = format!("bone{i}");
    }
    assert!(
        BoneMap::detect(&no_names).is_none(),
        "no map, no DEF- names, no matching node names"
    );
}

/// A humanoid bone that is also a spring joint gets no track, and says so.
#[test]
fn spring_joints_never_get_tracks() {
    let target = builtin();
    let mut hairy = target.clone();
    let neck = hairy.humanoid.as_ref().unwrap().bone("neck").unwrap();
    hairy.springs.chains[0].joints[0].node = neck;
    let map = BoneMap::detect(&target).unwrap();
    let r = Retargeter::new(&target, &map, &hairy).unwrap();
    assert!(
        r.notes.iter().any(|n| n.contains("`neck`")),
        "{:?}",
        r.notes
    );
    let clip = r
        .retarget(
            &Animation {
                name: "x".into(),
                channels: vec![],
                duration: 1.0,
            },
            &plain(),
        )
        .expect("retarget");
    assert!(clip.tracks.iter().all(|t| t.node != neck));
    assert_eq!(anim::checks::validate(&clip, &hairy).hair_tracks, 0);
    // And the validator notices a hair track when one is forced in.
    let mut forced = clip.clone();
    forced.tracks[0].node = hairy.springs.chains[1].joints[0].node;
    assert_eq!(anim::checks::validate(&forced, &hairy).hair_tracks, 1);
}

/// three-vrm's idle_loop.vrma maps `head` to an end-site node; the map
/// uses its parent (the real head, which carries the motion).
#[test]
fn the_vrma_end_site_head_is_read_from_its_parent() {
    let Some(dir) = common::assets_dir() else {
        return;
    };
    let vrma = tress_vrm::load_path(dir.join("three-vrm-vrma/idle_loop.vrma")).unwrap();
    let raw = vrma.humanoid.as_ref().unwrap().bone("head").unwrap();
    assert_eq!(vrma.nodes[raw].name, "ENDSITE");
    let map = BoneMap::detect(&vrma).unwrap();
    let head = map.node("head").unwrap();
    assert_eq!(vrma.nodes[head].name, "head");
    assert!(
        vrma.animations[0].channels.iter().any(|c| c.node == head),
        "the parent is animated"
    );
}

/// The `.glb` output loads back with our loader: same node names, one
/// channel per track plus the hips translation, and the keys read back equal.
#[test]
fn retargeted_clips_round_trip_through_gltf() {
    let Some(dir) = common::assets_dir() else {
        return;
    };
    let src = library(&dir);
    let target = builtin();
    let r = Retargeter::new(&src, &BoneMap::detect(&src).unwrap(), &target).unwrap();
    let clips = vec![
        r.retarget_named("Idle_Loop", &RetargetOptions::default())
            .unwrap(),
        r.retarget_named("Jump_Start", &RetargetOptions::default())
            .unwrap(),
    ];
    let glb = anim::clip_glb(&target, &clips);
    let back = tress_vrm::load_bytes(&glb, None).expect("our own glb loads");
    assert_eq!(back.nodes.len(), target.nodes.len());
    for (a, b) in back.nodes.iter().zip(&target.nodes) {
        assert_eq!(a.name, b.name);
        assert!(a.translation.abs_diff_eq(b.translation, 1e-6));
    }
    assert_eq!(back.animations.len(), 2);
    for (anim_back, clip) in back.animations.iter().zip(&clips) {
        assert_eq!(anim_back.name, clip.name);
        assert_eq!(anim_back.channels.len(), clip.tracks.len() + 1);
        let mut local = Vec::new();
        let i = clip.times.len() / 2;
        local_pose(&back, anim_back, clip.times[i], &mut local);
        for t in &clip.tracks {
            assert!(
                angle_between(local[t.node].rotation, t.rotations[i]) < 1e-4,
                "{}",
                t.bone
            );
        }
        assert!(
            local[clip.hips_node]
                .translation
                .abs_diff_eq(clip.hips_translation[i], 1e-5)
        );
    }
}

/// A clip whose key times make it days long (a BVH's `Frame Time: 100000`
/// in a file of a few bytes, found beside the fuzz runs of 2026-12-02) is
/// refused at once instead of sampling millions of frames; one just under
/// the cap's length at the same rate still retargets.
#[test]
fn absurdly_long_clips_are_refused() {
    let target = builtin();
    let map = BoneMap::detect(&target).unwrap();
    let r = Retargeter::new(&target, &map, &target).unwrap();
    let clip = |duration| Animation {
        name: "long".into(),
        channels: vec![],
        duration,
    };
    let at_10 = RetargetOptions {
        fps: Some(10.0),
        ..plain()
    };
    match r.retarget(&clip(100_000.0), &at_10) {
        Err(RetargetError::TooLong {
            name,
            duration,
            fps,
        }) => {
            assert_eq!((name.as_str(), duration, fps), ("long", 100_000.0, 10.0));
        }
        other => panic!("a 100000 s clip at 10 fps must be TooLong, got {other:?}"),
    }
    let err = r.retarget(&clip(f32::MAX), &at_10).unwrap_err().to_string();
    assert!(
        err.contains("`long`") && err.contains("262144 frames"),
        "{err}"
    );
    // 26,000 s at 10 fps: 260,001 frames, under the cap of 262,144.
    let ok = r.retarget(&clip(26_000.0), &at_10).expect("under the cap");
    assert_eq!(ok.times.len(), 260_001);
}
