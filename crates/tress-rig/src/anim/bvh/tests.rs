//! The reader on hand-written files: values, rotations, units, mapping by
//! structure, and every error naming its line, joint and channel.

use glam::{Quat, Vec3};

use super::read::{BvhErrorKind, read};
use super::*;
use crate::anim::clip::angle_between;
use crate::anim::sample::{local_pose, world_from_local};
use tress_core::math::quat;

/// A small humanoid in centimetres (CMU names and the CMU channel order,
/// a position-and-rotation root), standing on y = 0, facing +Z, its left at
/// +X. Two frames: rest, then the left upper arm turned `Zrotation -90`
/// (down along −Y) and the hips raised 10 cm.
const TINY: &str = "HIERARCHY
ROOT Hips
{
  OFFSET 0 95 0
  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation
  JOINT LeftUpLeg
  {
    OFFSET 10 0 0
    CHANNELS 3 Zrotation Xrotation Yrotation
    JOINT LeftLeg
    {
      OFFSET 0 -45 0
      CHANNELS 3 Zrotation Xrotation Yrotation
      JOINT LeftFoot
      {
        OFFSET 0 -42 0
        CHANNELS 3 Zrotation Xrotation Yrotation
        End Site
        {
          OFFSET 0 -6 14
        }
      }
    }
  }
  JOINT RightUpLeg
  {
    OFFSET -10 0 0
    CHANNELS 3 Zrotation Xrotation Yrotation
    JOINT RightLeg
    {
      OFFSET 0 -45 0
      CHANNELS 3 Zrotation Xrotation Yrotation
      JOINT RightFoot
      {
        OFFSET 0 -42 0
        CHANNELS 3 Zrotation Xrotation Yrotation
        End Site
        {
          OFFSET 0 -6 14
        }
      }
    }
  }
  JOINT Spine
  {
    OFFSET 0 10 0
    CHANNELS 3 Zrotation Xrotation Yrotation
    JOINT Spine1
    {
      OFFSET 0 30 0
      CHANNELS 3 Zrotation Xrotation Yrotation
      JOINT Neck
      {
        OFFSET 0 15 0
        CHANNELS 3 Zrotation Xrotation Yrotation
        JOINT Head
        {
          OFFSET 0 10 0
          CHANNELS 3 Zrotation Xrotation Yrotation
          End Site
          {
            OFFSET 0 20 0
          }
        }
      }
      JOINT LeftShoulder
      {
        OFFSET 5 10 0
        CHANNELS 3 Zrotation Xrotation Yrotation
        JOINT LeftArm
        {
          OFFSET 12 0 0
          CHANNELS 3 Zrotation Xrotation Yrotation
          JOINT LeftForeArm
          {
            OFFSET 28 0 0
            CHANNELS 3 Zrotation Xrotation Yrotation
            JOINT LeftHand
            {
              OFFSET 25 0 0
              CHANNELS 3 Zrotation Xrotation Yrotation
              End Site
              {
                OFFSET 8 0 0
              }
            }
          }
        }
      }
      JOINT RightShoulder
      {
        OFFSET -5 10 0
        CHANNELS 3 Zrotation Xrotation Yrotation
        JOINT RightArm
        {
          OFFSET -12 0 0
          CHANNELS 3 Zrotation Xrotation Yrotation
          JOINT RightForeArm
          {
            OFFSET -28 0 0
            CHANNELS 3 Zrotation Xrotation Yrotation
            JOINT RightHand
            {
              OFFSET -25 0 0
              CHANNELS 3 Zrotation Xrotation Yrotation
              End Site
              {
                OFFSET -8 0 0
              }
            }
          }
        }
      }
    }
  }
}
MOTION
Frames: 2
Frame Time: 0.0333333
0 95 0 0 0 0  0 0 0  0 0 0  0 0 0  0 0 0  0 0 0  0 0 0  0 0 0  0 0 0  0 0 0  0 0 0  0 0 0  0 0 0  0 0 0  0 0 0  0 0 0  0 0 0  0 0 0  0 0 0
0 105 0 0 0 0  0 0 0  0 0 0  0 0 0  0 0 0  0 0 0  0 0 0  0 0 0  0 0 0  0 0 0  0 0 0  0 0 0  -90 0 0  0 0 0  0 0 0  0 0 0  0 0 0  0 0 0  0 0 0
";

#[test]
fn the_tiny_file_reads_with_its_numbers() {
    let b = read(TINY.as_bytes()).expect("reads");
    assert_eq!(b.joints.iter().filter(|j| !j.end_site).count(), 19);
    assert_eq!(b.joints.iter().filter(|j| j.end_site).count(), 5);
    assert_eq!(b.channels, 6 + 18 * 3);
    assert_eq!(b.frames, 2);
    assert!((b.frame_time - 0.033_333_3).abs() < 1e-7);
    assert_eq!(b.row(1)[1], 105.0);
    let arm = b.joints.iter().find(|j| j.name == "LeftArm").unwrap();
    assert_eq!(b.row(1)[arm.first_column], -90.0);
    assert_eq!(arm.line, 70);
    assert_eq!(b.joints[4].name, "LeftFoot End Site");
}

#[test]
fn the_tiny_file_becomes_a_clip_in_metres_and_maps_by_shape_too() {
    let c = load(TINY.as_bytes(), "res://clips/wave.bvh").expect("loads");
    // Mixamo-style joint names, which the name conventions know: the load
    // maps by name, and the shape's own map is checked below.
    assert_eq!(c.mapped_by, MappedBy::Name);
    let a = &c.avatar;
    let by_shape = super::structure::map_by_structure(a).expect("a map by shape");
    assert_eq!(a.animations.len(), 1);
    assert_eq!(a.animations[0].name, "wave");
    assert!((a.animations[0].duration - 0.033_333_3).abs() < 1e-6);
    assert!(
        a.warnings[0]
            .message
            .starts_with("BVH offsets read as centimetres"),
        "{:?}",
        a.warnings
    );
    let name = |b: &str| {
        a.nodes[*by_shape.get(b).unwrap_or_else(|| panic!("{b} unmapped"))]
            .name
            .as_str()
    };
    for (bone, joint) in [
        ("hips", "Hips"),
        ("spine", "Spine"),
        ("chest", "Spine1"),
        ("neck", "Neck"),
        ("head", "Head"),
        ("leftUpperLeg", "LeftUpLeg"),
        ("leftLowerLeg", "LeftLeg"),
        ("leftFoot", "LeftFoot"),
        ("rightUpperLeg", "RightUpLeg"),
        ("rightFoot", "RightFoot"),
        ("leftShoulder", "LeftShoulder"),
        ("leftUpperArm", "LeftArm"),
        ("leftLowerArm", "LeftForeArm"),
        ("leftHand", "LeftHand"),
        ("rightShoulder", "RightShoulder"),
        ("rightUpperArm", "RightArm"),
        ("rightHand", "RightHand"),
    ] {
        assert_eq!(name(bone), joint, "{bone}");
    }
    assert!(BoneMap::detect(a).unwrap().missing_required().is_empty());

    // Frame 1: hips 10 cm up (metres now), left forearm straight down.
    let mut local = Vec::new();
    let mut world = Vec::new();
    local_pose(a, &a.animations[0], a.animations[0].duration, &mut local);
    world_from_local(a, &local, &mut world);
    let p = |n: &str| world[a.node_by_name(n).unwrap()].w_axis.truncate();
    assert!(p("Hips").distance(Vec3::new(0.0, 1.05, 0.0)) < 1e-5);
    let d = (p("LeftForeArm") - p("LeftArm")) / 0.28;
    assert!(d.distance(-Vec3::Y) < 1e-4, "{d}");
    assert!(p("LeftFoot").distance(Vec3::new(0.1, 0.18, 0.0)) < 1e-5);
}

/// Mirrored facing: the same skeleton turned to face −Z (x and z negated)
/// must still put the left leg on the character's left.
#[test]
fn sides_follow_the_facing_from_the_feet() {
    let turned: String = TINY
        .lines()
        .map(|l| {
            let t = l.trim_start();
            if let Some(rest) = t.strip_prefix("OFFSET ") {
                let v: Vec<f32> = rest
                    .split_whitespace()
                    .map(|x| x.parse().unwrap())
                    .collect();
                format!("OFFSET {} {} {}\n", -v[0], v[1], -v[2])
            } else {
                format!("{l}\n")
            }
        })
        .collect();
    let c = load(turned.as_bytes(), "t.bvh").unwrap();
    let a = &c.avatar;
    let h = a.humanoid.as_ref().unwrap();
    assert_eq!(a.nodes[h.bone("leftUpperLeg").unwrap()].name, "LeftUpLeg");
    assert_eq!(a.nodes[h.bone("leftHand").unwrap()].name, "LeftHand");
}

/// The same skeleton written in CMU's units (1/0.45 inch, 5.644 cm) and in
/// millimetres reads at the same height in metres.
#[test]
fn units_are_judged_from_the_skeleton_size() {
    let scaled = |k: f32| -> String {
        TINY.lines()
            .map(|l| match l.trim_start().strip_prefix("OFFSET ") {
                Some(rest) => {
                    let v: Vec<String> = rest
                        .split_whitespace()
                        .map(|x| format!("{}", x.parse::<f32>().unwrap() * k))
                        .collect();
                    format!("OFFSET {}\n", v.join(" "))
                }
                None => format!("{l}\n"),
            })
            .collect()
    };
    for (k, unit) in [
        (1.0, "centimetres"),
        (0.45 / 2.54, "CMU units"),
        (10.0, "millimetres"),
    ] {
        let b = read(scaled(k).as_bytes()).unwrap();
        let u = skeleton::detect_units(&b);
        assert!(u.name.starts_with(unit), "{k}: {u:?}");
        // TINY spans 178 cm from foot tip to head tip.
        assert!(
            (u.extent * u.metres_per_unit - 1.78).abs() < 0.01,
            "{k}: {u:?}"
        );
    }
}

#[test]
fn channel_order_is_read_as_listed() {
    // One joint, Xrotation then Zrotation listed: R = Rx(90) · Rz(90), which
    // takes +X to +Z (Rz: +X → +Y; Rx: +Y → +Z).
    let text = "HIERARCHY\nROOT A\n{\n OFFSET 0 0 0\n CHANNELS 2 Xrotation Zrotation\n End Site\n {\n  OFFSET 1 0 0\n }\n}\nMOTION\nFrames: 1\nFrame Time: 0.1\n90 90\n";
    let a = skeleton::to_avatar(&read(text.as_bytes()).unwrap(), "x");
    let tress_vrm::ChannelValues::Rotation(q) = &a.animations[0].channels[0].values else {
        panic!("rotation channel");
    };
    assert!(quat::rotate(q[0], Vec3::X).distance(Vec3::Z) < 1e-5);
    let want = quat::mul(
        Quat::from_rotation_x(90f32.to_radians()),
        Quat::from_rotation_z(90f32.to_radians()),
    );
    assert!(angle_between(q[0], want) < 1e-4);
    // A metre-sized skeleton stays in metres.
    assert!(
        a.warnings[0]
            .message
            .starts_with("BVH offsets read as metres")
    );
}

/// Every error names the line and, where there is one, the joint and the
/// channel. Each row: the edit made to TINY (or a whole text), the kind,
/// the line, the joint and channel expected, and words of the message.
#[test]
fn every_error_names_where() {
    let frames_at = TINY.find("MOTION").unwrap();
    let head = &TINY[..frames_at];
    let rows_only = |rows: &str| format!("{head}MOTION\nFrames: 2\nFrame Time: 0.0333333\n{rows}");
    let row = "0 95 0 0 0 0".to_owned() + &" 0 0 0".repeat(18);
    let short_row = "0 95 0 0 0 0".to_owned() + &" 0 0 0".repeat(17);
    let nan_row =
        "0 95 0 0 0 0".to_owned() + &" 0 0 0".repeat(11) + " 0 nan 0" + &" 0 0 0".repeat(6);
    type Case = (
        String,
        BvhErrorKind,
        usize,
        Option<&'static str>,
        Option<&'static str>,
        &'static str,
    );
    let cases: Vec<Case> = vec![
        (
            "ROOT Hips\n{\n".into(),
            BvhErrorKind::Expected,
            1,
            None,
            None,
            "expected `HIERARCHY`",
        ),
        (
            TINY.replacen("ROOT Hips\n{", "ROOT Hips\nOFFSET", 1),
            BvhErrorKind::Expected,
            3,
            Some("Hips"),
            None,
            "expected `{` after `ROOT Hips`",
        ),
        (
            TINY.replacen(
                "CHANNELS 3 Zrotation Xrotation Yrotation\n    JOINT LeftLeg",
                "CHANNELS 4 Zrotation Xrotation Yrotation\n    JOINT LeftLeg",
                1,
            ),
            BvhErrorKind::ChannelCount,
            10,
            Some("LeftUpLeg"),
            None,
            "CHANNELS says 4 but names only 3",
        ),
        (
            TINY.replacen(
                "CHANNELS 3 Zrotation Xrotation Yrotation\n    JOINT LeftLeg",
                "CHANNELS 3 Zrotation Xrotation Wrotation\n    JOINT LeftLeg",
                1,
            ),
            BvhErrorKind::UnknownChannel,
            9,
            Some("LeftUpLeg"),
            Some("Wrotation"),
            "unknown channel name",
        ),
        (
            TINY.replacen(
                "CHANNELS 3 Zrotation Xrotation Yrotation\n    JOINT LeftLeg",
                "CHANNELS 9 Zrotation Xrotation Yrotation\n    JOINT LeftLeg",
                1,
            ),
            BvhErrorKind::ChannelCount,
            9,
            Some("LeftUpLeg"),
            None,
            "from 0 to 6, found `9`",
        ),
        (
            TINY.replacen("OFFSET 0 -45 0", "OFFSET 0 -45", 1),
            BvhErrorKind::Expected,
            13,
            Some("LeftLeg"),
            None,
            "expected OFFSET z (a number), found `CHANNELS`",
        ),
        (
            TINY.replacen("OFFSET 0 -45 0", "OFFSET 0 inf 0", 1),
            BvhErrorKind::NonFinite,
            12,
            Some("LeftLeg"),
            None,
            "not a finite number",
        ),
        (
            rows_only(&format!("{row}\n{short_row}\n")),
            BvhErrorKind::RowLength,
            121,
            None,
            None,
            "frame 2 has 57 values; the hierarchy's channels need 60",
        ),
        (
            rows_only(&format!("{row} 1\n")),
            BvhErrorKind::RowLength,
            120,
            None,
            None,
            "more than the 60 values",
        ),
        (
            rows_only(&format!("{row}\n{nan_row}\n")),
            BvhErrorKind::NonFinite,
            121,
            Some("LeftArm"),
            Some("Xrotation"),
            "frame 2 value 41 is `nan`",
        ),
        (
            rows_only(&format!("{row}\n")),
            BvhErrorKind::Truncated,
            120,
            None,
            None,
            "Frames says 2, but the file ends after 1 rows",
        ),
        (
            format!("{head}MOTION\nFrames: 1\nFrame Time: 0\n{row}\n"),
            BvhErrorKind::FrameTime,
            119,
            None,
            None,
            "must be above zero",
        ),
        (
            format!("{head}MOTION\nFrames: 1\nFrame Time: -0.1\n{row}\n"),
            BvhErrorKind::FrameTime,
            119,
            None,
            None,
            "must be above zero",
        ),
        (
            format!("{head}MOTION\nFrames: 1\nFrame Time: 0.03\n{row}\n{row}\n"),
            BvhErrorKind::ExtraRows,
            121,
            None,
            None,
            "Frames says 1, but a row 2 follows",
        ),
        (
            format!("{head}MOTION\nFrames: lots\n"),
            BvhErrorKind::Expected,
            118,
            None,
            None,
            "frame count (a whole number), found `lots`",
        ),
        // A huge declared count is checked against the rows present, not allocated.
        (
            format!("{head}MOTION\nFrames: 18446744073709551615\nFrame Time: 0.03\n{row}\n"),
            BvhErrorKind::Truncated,
            120,
            None,
            None,
            "ends after 1 rows",
        ),
        (
            TINY[..400].to_owned(),
            BvhErrorKind::Truncated,
            18,
            None,
            None,
            "the file ends where",
        ),
        (
            TINY.replacen("  JOINT RightUpLeg", "  BONE RightUpLeg", 1),
            BvhErrorKind::Expected,
            25,
            Some("Hips"),
            None,
            "expected `JOINT`, `End Site` or `}`, found `BONE`",
        ),
        (
            "HIERARCHY\nMOTION\n".into(),
            BvhErrorKind::Expected,
            2,
            None,
            None,
            "expected `ROOT`, found `MOTION`",
        ),
    ];
    for (i, (text, kind, line, joint, channel, words)) in cases.iter().enumerate() {
        let e = read(text.as_bytes()).expect_err(&format!("case {i} ({words}) reads"));
        assert_eq!(e.kind, *kind, "case {i}: {e}");
        assert_eq!(e.line, *line, "case {i}: {e}");
        assert_eq!(e.joint.as_deref(), *joint, "case {i}: {e}");
        assert_eq!(e.channel.as_deref(), *channel, "case {i}: {e}");
        assert!(e.to_string().contains(words), "case {i}: {e}");
        assert!(
            e.to_string().starts_with(&format!("line {line}")),
            "case {i}: {e}"
        );
    }
    // Not text at all.
    let e = read(b"HIERARCHY\n\xff\xfe").unwrap_err();
    assert_eq!((e.kind, e.line), (BvhErrorKind::NotText, 2));
}

#[test]
fn a_skeleton_that_is_not_a_humanoid_says_why() {
    let text = "HIERARCHY\nROOT A\n{\n OFFSET 0 0 0\n CHANNELS 3 Zrotation Xrotation Yrotation\n JOINT B\n {\n  OFFSET 0 10 0\n  CHANNELS 3 Zrotation Xrotation Yrotation\n  End Site\n  {\n   OFFSET 0 10 0\n  }\n }\n}\nMOTION\nFrames: 1\nFrame Time: 0.1\n0 0 0 0 0 0\n";
    let e = load(text.as_bytes(), "tail.bvh").unwrap_err();
    assert!(
        e.to_string().starts_with(
            "BVH skeleton: no humanoid bone names known, and its structure is not a humanoid's"
        ),
        "{e}"
    );
}

#[test]
fn clip_names_come_from_the_file() {
    assert_eq!(clip_name("res://clips/walk.bvh"), "walk");
    assert_eq!(clip_name(r"C:\mocap\02_01.BVH"), "02_01");
    assert_eq!(clip_name("walk"), "walk");
    assert_eq!(clip_name(""), "bvh");
}

/// Every prefix of the tiny file, and the file with each of a spread of
/// bytes replaced, reads or fails with an error; none panics or hangs.
#[test]
fn cut_and_damaged_files_never_panic() {
    let bytes = TINY.as_bytes();
    for n in 0..bytes.len() {
        let _ = read(&bytes[..n]);
    }
    for (i, bad) in (0..bytes.len())
        .step_by(7)
        .zip([b'{', b'}', b'-', b'9', b'\n', 0xff, b' '].iter().cycle())
    {
        let mut b = bytes.to_vec();
        b[i] = *bad;
        if let Ok(bvh) = read(&b) {
            // What reads must also convert and map (or refuse) cleanly.
            let _ = skeleton::to_avatar(&bvh, "x");
            let _ = load(&b, "x.bvh");
        }
    }
}

/// BVH text for joints `(name, parent index, offset)`, parents first; the
/// root gets six channels, the rest three, leaves an end site continuing
/// their offset; `frames` rows of zeros (the root at its offset).
fn hierarchy(joints: &[(&str, Option<usize>, [f32; 3])], frames: usize) -> String {
    fn emit(s: &mut String, j: &[(&str, Option<usize>, [f32; 3])], i: usize, depth: usize) {
        let pad = "  ".repeat(depth);
        let (name, parent, o) = j[i];
        let kw = if parent.is_none() { "ROOT" } else { "JOINT" };
        let ch = if parent.is_none() {
            "6 Xposition Yposition Zposition Zrotation Xrotation Yrotation"
        } else {
            "3 Zrotation Xrotation Yrotation"
        };
        s.push_str(&format!(
            "{pad}{kw} {name}\n{pad}{{\n{pad}  OFFSET {} {} {}\n{pad}  CHANNELS {ch}\n",
            o[0], o[1], o[2]
        ));
        let kids: Vec<usize> = (0..j.len()).filter(|&c| j[c].1 == Some(i)).collect();
        if kids.is_empty() {
            s.push_str(&format!(
                "{pad}  End Site\n{pad}  {{\n{pad}    OFFSET {} {} {}\n{pad}  }}\n",
                o[0] * 0.5,
                o[1] * 0.5,
                o[2] * 0.5
            ));
        }
        for c in kids {
            emit(s, j, c, depth + 1);
        }
        s.push_str(&format!("{pad}}}\n"));
    }
    let mut s = String::from("HIERARCHY\n");
    emit(&mut s, joints, 0, 0);
    let root = joints[0].2;
    let row =
        format!("{} {} {} 0 0 0", root[0], root[1], root[2]) + &" 0 0 0".repeat(joints.len() - 1);
    s.push_str(&format!(
        "MOTION\nFrames: {frames}\nFrame Time: 0.0083333\n"
    ));
    for _ in 0..frames {
        s.push_str(&row);
        s.push('\n');
    }
    s
}

/// The shape of CMU's cgspeed conversions (their offsets, in CMU units):
/// hip-joint stubs between the hips and the thighs, LowerBack and Neck1,
/// a finger base, index finger and thumb branching off each hand, the
/// character facing +Z. Its names are not Rigify's, so the map comes from
/// the structure.
#[test]
fn a_cmu_shaped_skeleton_maps_by_shape_too() {
    #[rustfmt::skip]
    let j: &[(&str, Option<usize>, [f32; 3])] = &[
        ("Hips", None, [0.0, 17.0, 0.0]),
        ("LHipJoint", Some(0), [0.0, 0.0, 0.0]),
        ("LeftUpLeg", Some(1), [1.66, -1.80, 0.62]),
        ("LeftLeg", Some(2), [2.60, -7.14, 0.0]),
        ("LeftFoot", Some(3), [2.49, -6.85, 0.0]),
        ("LeftToeBase", Some(4), [0.16, -0.44, 2.17]),
        ("RHipJoint", Some(0), [0.0, 0.0, 0.0]),
        ("RightUpLeg", Some(6), [-1.61, -1.80, 0.62]),
        ("RightLeg", Some(7), [-2.60, -7.14, 0.0]),
        ("RightFoot", Some(8), [-2.49, -6.85, 0.0]),
        ("RightToeBase", Some(9), [-0.16, -0.44, 2.17]),
        ("LowerBack", Some(0), [0.0, 0.0, 0.0]),
        ("Spine", Some(11), [0.03, 2.06, -0.01]),
        ("Spine1", Some(12), [0.05, 2.06, -0.01]),
        ("Neck", Some(13), [0.0, 0.0, 0.0]),
        ("Neck1", Some(14), [-0.01, 1.75, 0.02]),
        ("Head", Some(15), [0.01, 1.76, -0.01]),
        ("LeftShoulder", Some(13), [0.0, 0.0, 0.0]),
        ("LeftArm", Some(17), [3.58, 0.59, -0.02]),
        ("LeftForeArm", Some(18), [4.98, 0.0, 0.0]),
        ("LeftHand", Some(19), [3.48, 0.0, 0.0]),
        ("LeftFingerBase", Some(20), [0.72, 0.0, 0.0]),
        ("LeftHandIndex1", Some(21), [0.58, 0.0, 0.0]),
        ("LThumb", Some(20), [0.51, 0.0, 0.51]),
        ("RightShoulder", Some(13), [0.0, 0.0, 0.0]),
        ("RightArm", Some(24), [-3.38, 0.59, -0.02]),
        ("RightForeArm", Some(25), [-5.20, 0.0, 0.0]),
        ("RightHand", Some(26), [-3.27, 0.0, 0.0]),
        ("RightFingerBase", Some(27), [-0.72, 0.0, 0.0]),
        ("RightHandIndex1", Some(28), [-0.58, 0.0, 0.0]),
        ("RThumb", Some(27), [-0.51, 0.0, 0.51]),
    ];
    let c = load(hierarchy(j, 3).as_bytes(), "02_01.bvh").expect("loads");
    // CMU's joint names are Mixamo's too, which the name conventions know:
    // the load maps by name; the shape's own map is what this checks.
    assert_eq!(c.mapped_by, MappedBy::Name);
    let a = &c.avatar;
    let by_shape = super::structure::map_by_structure(a).expect("a map by shape");
    assert!(
        a.warnings[0].message.contains("CMU units"),
        "{:?}",
        a.warnings
    );
    let name = |b: &str| by_shape.get(b).map(|&n| a.nodes[n].name.as_str());
    for (bone, joint) in [
        ("hips", "Hips"),
        ("leftUpperLeg", "LeftUpLeg"),
        ("leftLowerLeg", "LeftLeg"),
        ("leftFoot", "LeftFoot"),
        ("leftToes", "LeftToeBase"),
        ("rightUpperLeg", "RightUpLeg"),
        ("rightFoot", "RightFoot"),
        ("spine", "LowerBack"),
        ("chest", "Spine"),
        ("upperChest", "Spine1"),
        ("neck", "Neck"),
        ("head", "Head"),
        ("leftShoulder", "LeftShoulder"),
        ("leftUpperArm", "LeftArm"),
        ("leftLowerArm", "LeftForeArm"),
        ("leftHand", "LeftHand"),
        ("rightUpperArm", "RightArm"),
        ("rightLowerArm", "RightForeArm"),
        ("rightHand", "RightHand"),
    ] {
        assert_eq!(name(bone), Some(joint), "{bone}");
    }
    assert_eq!(a.animations[0].name, "02_01");
}

#[test]
fn joints_no_convention_names_map_by_shape() {
    // The tiny file with every joint renamed to something no bone-name
    // convention knows: only the skeleton's shape can map it.
    let mut text = String::new();
    let mut n = 0;
    for line in TINY.lines() {
        let t = line.trim_start();
        let indent = &line[..line.len() - t.len()];
        if t.strip_prefix("ROOT ")
            .or_else(|| t.strip_prefix("JOINT "))
            .is_some()
        {
            let word = if t.starts_with("ROOT") {
                "ROOT"
            } else {
                "JOINT"
            };
            text.push_str(&format!("{indent}{word} node{n}\n"));
            n += 1;
        } else {
            text.push_str(line);
            text.push('\n');
        }
    }
    let c = load(text.as_bytes(), "renamed.bvh").expect("loads");
    assert_eq!(c.mapped_by, MappedBy::Structure);
    assert!(
        BoneMap::detect(&c.avatar)
            .unwrap()
            .missing_required()
            .is_empty()
    );
}
