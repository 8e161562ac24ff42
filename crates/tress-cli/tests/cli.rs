//! The `tress` binary run as a process: help, version, exit codes, and one
//! real command on a committed asset.

use std::ffi::OsStr;
use std::path::PathBuf;
use std::process::{Command, Output};

const SUBCOMMANDS: [&str; 11] = [
    "inspect",
    "validate-anim",
    "retarget",
    "export",
    "bvh",
    "generate-assets",
    "measure",
    "fit-colliders",
    "fit",
    "unfit",
    "groom",
];

fn tress<S: AsRef<OsStr>>(args: &[S]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tress"))
        .args(args)
        .output()
        .expect("runs the tress binary")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn assets() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets")
}

#[test]
fn help_lists_every_subcommand() {
    let o = tress(&["--help"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    for c in SUBCOMMANDS {
        assert!(
            out.lines()
                .any(|l| l.trim_start().starts_with(&format!("{c} "))),
            "`{c}` missing from:\n{out}"
        );
    }
}

#[test]
fn every_subcommand_has_help() {
    for c in SUBCOMMANDS {
        let o = tress(&[c, "--help"]);
        assert_eq!(o.status.code(), Some(0), "{c}: {}", stderr(&o));
        assert!(
            stdout(&o).contains(&format!("Usage: tress {c}")),
            "{c}: {}",
            stdout(&o)
        );
    }
}

#[test]
fn measure_help_names_its_options() {
    let o = tress(&["measure", "--help"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("--fps"), "{out}");
    assert!(out.contains("--solver"), "{out}");
}

/// `inspect` lists the skirt avatar's band (`TRESS_springBone_band`): its
/// 24 chains in a ring, the shear it holds and its folds, as the
/// generator writes them.
#[test]
fn inspect_lists_the_skirt_band() {
    let avatar = assets().join("tress_avatar_skirt.vrm");
    let o = tress(&[OsStr::new("inspect"), avatar.as_os_str()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let names: Vec<String> = (0..24).map(|c| format!("Skirt{c:02}")).collect();
    let want = format!(
        "band Skirt: 24 chains in a ring, stretch at most 0.0 %, shear at most 2.0 %: {}",
        names.join(", ")
    );
    assert!(out.contains(&want), "missing `{want}` in:\n{out}");
    // skirt::FOLD_FLAT_DEG, one fold per gap of the ring, a joint per row.
    let folds =
        "  folds: 24 (one per neighbouring pair), 4 joints each, pressed flat at a 60.0° bend";
    assert!(out.contains(folds), "missing `{folds}` in:\n{out}");
    assert!(out.contains("warnings: 0"), "{out}");
}

/// `measure --anim --clip` plays a library clip on the skirt avatar and
/// says so; a clip the file lacks is refused with the names it has.
#[test]
fn measure_plays_a_clip_on_the_skirt_avatar() {
    let Some(shared) = tress_testkit::shared_assets() else {
        return;
    };
    let lib = shared.join("quaternius-ual1/AnimationLibrary_Godot_Standard.gltf");
    let avatar = assets().join("tress_avatar_skirt.vrm");
    let args = |clip: &str| -> Vec<std::ffi::OsString> {
        vec![
            "measure".into(),
            avatar.clone().into(),
            "--anim".into(),
            lib.clone().into(),
            "--clip".into(),
            clip.into(),
            "--passes".into(),
            "1".into(),
            "--fps".into(),
            "30".into(),
            "--meshes".into(),
            "Skirt".into(),
            "--inside-meshes".into(),
            "Skirt".into(),
        ]
    };
    let o = tress(&args("Dance_Loop"));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("motion: clip Dance_Loop (1.00 s) played 1 times after a 1 s ease-in"),
        "{out}"
    );
    // Only the skirt's 3,600 vertices are judged for penetration.
    assert!(out.contains("of 3600 hair vertices"), "{out}");
    let o = tress(&args("No_Such_Clip"));
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("Dance_Loop"), "{}", stderr(&o));
}

#[test]
fn version_prints_the_version() {
    let o = tress(&["--version"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o).trim(),
        format!("tress {}", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn a_misspelt_subcommand_exits_2_with_a_suggestion() {
    let o = tress(&["mesure", "x"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("'measure'"), "{err}");
}

#[test]
fn bad_values_exit_2_naming_the_option() {
    for (args, says) in [
        (
            &["measure", "a.vrm", "--solver", "fast"][..],
            "unknown solver",
        ),
        (&["measure", "a.vrm", "--fps", "0"], "bad frame rate"),
        (
            &[
                "fit", "a.vrm", "--mesh", "M", "--joints", "0", "-o", "o.vrm",
            ],
            "--joints",
        ),
        (
            &[
                "fit", "a.vrm", "--mesh", "M", "--root", "1,2", "-o", "o.vrm",
            ],
            "X,Y,Z",
        ),
        (&["inspect"], "<FILE>"),
        (&[], "Usage: tress <COMMAND>"),
    ] {
        let o = tress(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
        assert!(stdout(&o).is_empty(), "{args:?}: {}", stdout(&o));
    }
}

#[test]
fn inspect_prints_the_built_in_avatars_rig() {
    let file = assets().join("tress_avatar.vrm");
    let o = tress(&[OsStr::new("inspect"), file.as_os_str()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("format: VRM 1.0"), "{out}");
    assert!(out.contains("humanoid: 17 bones"), "{out}");
    assert!(out.contains("springs: 8 chains"), "{out}");
    assert!(out.contains("warnings: 0"), "{out}");
    // Every lock is a ribbon; only the bangs, out of the body's reach,
    // hold their bends (`tress_rig::bend_hold`).
    let chain_lines: Vec<&str> = out
        .lines()
        .filter(|l| l.contains(" joints from `"))
        .collect();
    assert_eq!(chain_lines.len(), 8, "{out}");
    for line in chain_lines {
        assert!(line.contains("flat lock ("), "{line}");
        assert_eq!(
            line.contains("holds its bends"),
            line.contains("HairBang"),
            "{line}"
        );
    }
}

#[test]
fn inspect_on_a_missing_file_exits_1_naming_it() {
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/no-such-avatar.vrm");
    let o = tress(&[OsStr::new("inspect"), file.as_os_str()]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.starts_with("error: "), "{err}");
    assert!(err.contains("no-such-avatar.vrm"), "{err}");
}

/// A folder under the system temp dir for one test, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Self {
        let p = std::env::temp_dir().join(format!("tress-cli-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&p).unwrap();
        Self(p)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Issue #18: a file of another kind is named with what to use instead
/// (`retarget` on a `.bvh` said "invalid JSON at line 1 column 1"), and a
/// cut GLB says where and by how much.
#[test]
fn wrong_and_broken_files_say_what_and_where() {
    let dir = Scratch::new("formats");
    let avatar = assets().join("tress_avatar.vrm");
    let bytes = std::fs::read(&avatar).unwrap();
    let bvh = dir.0.join("walk.bvh");
    std::fs::write(&bvh, "HIERARCHY\nROOT Hips\n{\n}\nMOTION\n").unwrap();
    let tscn = dir.0.join("level.tscn");
    std::fs::write(&tscn, "[gd_scene load_steps=2 format=3]\n").unwrap();
    let cut = dir.0.join("cut.vrm");
    std::fs::write(&cut, &bytes[..1000]).unwrap();
    let out = dir.0.join("out.glb");
    let (bvh_s, tscn_s, cut_s) = (bvh.display(), tscn.display(), cut.display());
    let cases: [(Vec<&OsStr>, String); 3] = [
        (
            vec![
                "retarget".as_ref(),
                avatar.as_os_str(),
                bvh.as_os_str(),
                "-o".as_ref(),
                out.as_os_str(),
            ],
            format!("error: {bvh_s}: BVH line 4, joint `Hips`: expected `OFFSET`, found `}}`"),
        ),
        (
            vec!["inspect".as_ref(), tscn.as_os_str()],
            format!(
                "error: {tscn_s}: this is a Godot scene (.tscn), not a glTF / VRM file: Godot's own text files are not read; export the scene as .glb from Godot"
            ),
        ),
        (
            vec!["inspect".as_ref(), cut.as_os_str()],
            format!(
                "error: {cut_s}: file truncated: the GLB header (byte 8) declares {} bytes, found 1000",
                bytes.len()
            ),
        ),
    ];
    for (args, want) in cases {
        let o = tress(&args);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).starts_with(&want), "{args:?}: {}", stderr(&o));
        assert!(!out.exists());
    }
}

/// Issue #18: an unnamed clip is `clip0` to `export --clip` (it needed
/// `--clip ""`), and a wrong name lists the real ones.
#[test]
fn unnamed_clips_are_clip0_to_export() {
    let dir = Scratch::new("clip0");
    let avatar = assets().join("tress_avatar.vrm");
    let bytes = std::fs::read(&avatar).unwrap();
    let a = tress_vrm::load_bytes(&bytes, None).unwrap();
    let hips = a.humanoid.as_ref().unwrap().bone("hips").unwrap();
    // A one-second nod of the hips, written with an empty name.
    let anim = tress_vrm::Animation {
        name: String::new(),
        channels: vec![tress_vrm::Channel {
            node: hips,
            times: vec![0.0, 1.0],
            interpolation: tress_vrm::Interpolation::Linear,
            values: tress_vrm::ChannelValues::Rotation(vec![
                glam::Quat::IDENTITY,
                glam::Quat::from_rotation_x(0.2),
            ]),
        }],
        duration: 1.0,
    };
    let clips = dir.0.join("unnamed.glb");
    std::fs::write(
        &clips,
        tress_vrm::gltf_out::append_animation(&bytes, &anim).unwrap(),
    )
    .unwrap();
    let out = dir.0.join("out.glb");
    let export = |clip: &str| {
        tress(&[
            "export".as_ref(),
            avatar.as_os_str(),
            "--anim".as_ref(),
            clips.as_os_str(),
            "--clip".as_ref(),
            clip.as_ref(),
            "-o".as_ref(),
            out.as_os_str(),
        ])
    };
    let o = export("clip0");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("animation `clip0`"), "{}", stdout(&o));
    let o = export("Walk");
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).ends_with("no clip named `Walk`; the file has: clip0\n"),
        "{}",
        stderr(&o)
    );
}

/// Issue #18: `tress bvh` writes a library clip as BVH and `retarget` and
/// `validate-anim` take it back, saying its units and how its bones were
/// mapped.
#[test]
fn a_bvh_clip_is_written_and_retargeted() {
    let Some(shared) = tress_testkit::shared_assets() else {
        return;
    };
    let dir = Scratch::new("bvh");
    let lib = shared.join("quaternius-ual1/AnimationLibrary_Godot_Standard.gltf");
    let bvh = dir.0.join("Walk_Loop.bvh");
    let o = tress(&[
        "bvh".as_ref(),
        lib.as_os_str(),
        "--clip".as_ref(),
        "Walk_Loop".as_ref(),
        "-o".as_ref(),
        bvh.as_os_str(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = dir.0.join("walk.glb");
    let avatar = assets().join("tress_avatar.vrm");
    let o = tress(&[
        "retarget".as_ref(),
        avatar.as_os_str(),
        bvh.as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("BVH offsets read as centimetres"), "{err}");
    assert!(err.contains("22 humanoid bones mapped by"), "{err}");
    let back = tress_vrm::load_path(&out).unwrap();
    assert_eq!(back.animations.len(), 1);
    assert_eq!(back.animations[0].name, "Walk_Loop");
    let o = tress(&[
        "validate-anim".as_ref(),
        "--avatar".as_ref(),
        avatar.as_os_str(),
        "--clips".as_ref(),
        bvh.as_os_str(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("| Walk_Loop | 33 | 17 | loop |"),
        "{}",
        stdout(&o)
    );
    assert!(
        stdout(&o).contains("1 of 1 clip × avatar pairs pass"),
        "{}",
        stdout(&o)
    );
    let o = tress(&[
        "bvh", "x.gltf", "--clip", "a", "--order", "XXY", "-o", "o.bvh",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("not three distinct axes"),
        "{}",
        stderr(&o)
    );
}

/// Issue #19, acceptance 2: a file with `VRMC_springBone_limit` (the
/// built-in avatar with limits written into its JSON) loads with its limits
/// and `inspect` lists them; a joint-level `angleLimit` is a warning.
#[test]
fn inspect_lists_angle_limits_and_warns_on_a_joint_level_angle_limit() {
    use serde_json::json;
    use tress_vrm::gltf_out::glb;
    let dir = Scratch::new("limits");
    let bytes = std::fs::read(assets().join("tress_avatar.vrm")).unwrap();
    let (mut doc, bin) = glb::open(&bytes).unwrap();
    let limit = |l: serde_json::Value| json!({ "VRMC_springBone_limit": { "specVersion": "1.0-draft", "limit": l } });
    let joints = "/extensions/VRMC_springBone/springs/0/joints";
    let j = doc.pointer_mut(joints).unwrap().as_array_mut().unwrap();
    assert!(j.len() >= 3, "the first spring has {} joints", j.len());
    j[0]["extensions"] = limit(json!({ "cone": { "angle": 0.5 } }));
    j[1]["extensions"] = limit(
        json!({ "hinge": { "angle": 0.25, "rotation": [0.0, 0.0, 0.707_106_77, 0.707_106_77] } }),
    );
    j[2]["angleLimit"] = json!(30.0);
    let k = doc
        .pointer_mut("/extensions/VRMC_springBone/springs/1/joints/0")
        .unwrap();
    k["extensions"] = limit(json!({ "spherical": { "pitch": 0.6, "yaw": 0.3 } }));
    doc["extensionsUsed"]
        .as_array_mut()
        .unwrap()
        .push(json!("VRMC_springBone_limit"));
    let file = dir.0.join("limited.vrm");
    std::fs::write(&file, glb::close(doc, bin)).unwrap();

    let o = tress(&[OsStr::new("inspect"), file.as_os_str()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    for want in [
        ": cone 28.6°",
        ": hinge 14.3°, rotation (0.0000, 0.0000, 0.7071, 0.7071)",
        ": spherical pitch 34.4° yaw 17.2°",
        "warnings: 1",
        "extensions.VRMC_springBone.springs[0].joints[2].angleLimit: non-standard joint-level `angleLimit` ignored",
    ] {
        assert!(out.contains(want), "missing `{want}` in:\n{out}");
    }
    assert_eq!(out.matches("    limit on joint ").count(), 3, "{out}");
    if std::env::var_os("TRESS_SHOW").is_some() {
        println!("{out}");
    }
}

#[test]
fn groom_inspect_reads_the_committed_groom_and_a_centimetre_obj() {
    let o = tress(&[
        OsStr::new("groom"),
        OsStr::new("inspect"),
        assets().join("tress_groom.tfx").as_os_str(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    for want in [
        "format: TressFX 4",
        "units: metres (detected",
        "strands: 6000   points per strand: 16",
        "particles simulated by default: 16",
        "parts: 1",
    ] {
        assert!(out.contains(want), "`{want}` missing from:\n{out}");
    }
    // Two 4-point strands 1.5 units long, 20 units apart: centimetres.
    let obj = std::env::temp_dir().join(format!("tress-cli-fur-{}.obj", std::process::id()));
    std::fs::write(
        &obj,
        "v 0 0 0\nv 0 0 0.5\nv 0 0 1\nv 0 0 1.5\nl 1 2 3 4\n\
         v 20 0 0\nv 20 0 0.5\nv 20 0 1\nv 20 0 1.5\nl 5 6 7 8\n",
    )
    .unwrap();
    let o = tress(&[OsStr::new("groom"), OsStr::new("inspect"), obj.as_os_str()]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(out.contains("units: centimetres (detected"), "{out}");
    assert!(out.contains("particles simulated by default: 4"), "{out}");
    assert!(
        out.contains("strand length (m): shortest 0.0150, mean 0.0150"),
        "{out}"
    );
    let o = tress(&[
        OsStr::new("groom"),
        OsStr::new("inspect"),
        obj.as_os_str(),
        OsStr::new("--scale"),
        OsStr::new("1"),
    ]);
    assert!(
        stdout(&o).contains("units: 1 m per unit (--scale)"),
        "{}",
        stdout(&o)
    );
    let _ = std::fs::remove_file(&obj);
    // A missing file is an error naming it; a bad scale is refused.
    let o = tress(&["groom", "inspect", "no-such-groom.tfx"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("no-such-groom.tfx"), "{}", stderr(&o));
    let o = tress(&["groom", "inspect", "procedural", "--scale", "0"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("--scale 0: must be a positive number"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn groom_measure_reports_and_plots_the_fur() {
    let png = std::env::temp_dir().join(format!("tress-cli-fur-{}.png", std::process::id()));
    // 5 % of the built-in fur keeps the debug build quick; 5 s covers the
    // 4 s head turn and the settling after it.
    let o = tress(&[
        OsStr::new("groom"),
        OsStr::new("measure"),
        OsStr::new("procedural-fur"),
        OsStr::new("--head-turn"),
        OsStr::new("--seconds"),
        OsStr::new("5"),
        OsStr::new("--fraction"),
        OsStr::new("0.05"),
        OsStr::new("--plot"),
        png.as_os_str(),
    ]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{}", stderr(&o));
    for want in [
        "run: 300 strands x 4 particles (900 free)",
        "worst frame 0 of 900",
        "swing after the reversal at 0.5 s",
        "tips at the end:",
        "PASS",
    ] {
        assert!(out.contains(want), "`{want}` missing from:\n{out}");
    }
    let bytes = std::fs::read(&png).expect("the plot was written");
    assert_eq!(&bytes[1..4], b"PNG");
    let _ = std::fs::remove_file(&png);
    // Why the groom's own count is the default: resampled to 16 particles
    // the fur's segments are 1 mm, shorter than gravity's pull per step
    // can be undone and than the 2 mm collision margin; it falls over
    // (86 % here) and stretches where it meets the head, and the run fails.
    let o = tress(&[
        "groom",
        "measure",
        "procedural-fur",
        "--seconds",
        "1",
        "--fraction",
        "0.05",
        "--particles",
        "16",
    ]);
    let out = stdout(&o);
    let offset: f32 = out
        .lines()
        .find_map(|l| l.strip_prefix("tips at the end: "))
        .and_then(|l| l.split('%').next())
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no tip line in:\n{out}"));
    assert!(
        offset > 50.0 && o.status.code() == Some(1),
        "16 particles: tips {offset} % away:\n{out}"
    );
    let o = tress(&["groom", "measure", "procedural", "--seconds", "0"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("--seconds 0"), "{}", stderr(&o));
}

#[test]
fn groom_inspect_lists_the_follow_hairs_a_project_gives_its_parts() {
    let Some(shared) = tress_testkit::shared_assets() else {
        return;
    };
    let proj = shared.join("tressfx3-ponytail/ponytail.tfxproj");
    // ponytail.tfxproj: `tail.tfx 4 0.4 5.0 tail.tfxsim tail` and the same
    // 4 on its other three parts; the tail alone finds the project beside it.
    for (file, lines) in [(proj.clone(), 4), (proj.with_file_name("tail.tfx"), 1)] {
        let o = tress(&[OsStr::new("groom"), OsStr::new("inspect"), file.as_os_str()]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let out = stdout(&o);
        let want = "    follow hairs: 4 per guide (the project's; TressStrandHair draws 5 strands per simulated one)";
        assert_eq!(out.matches(want).count(), lines, "{out}");
    }
}

#[test]
fn groom_inspect_summarises_a_tfxbone_beside_or_given() {
    // A two-bone file written here: strand 0 on bone 1, strand 1 split.
    let dir = std::env::temp_dir().join(format!("tress-cli-bones-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut b = Vec::new();
    b.extend(2i32.to_le_bytes());
    for (i, n) in ["hips", "head"].iter().enumerate() {
        b.extend((i as i32).to_le_bytes());
        b.extend((n.len() as i32 + 1).to_le_bytes());
        b.extend(n.as_bytes());
        b.push(0);
    }
    b.extend(2i32.to_le_bytes());
    for (s, w) in [
        (0i32, [(1i32, 1.0f32), (0, 0.0)]),
        (1, [(0, 0.5), (1, 0.5)]),
    ] {
        b.extend(s.to_le_bytes());
        for (bone, weight) in w.iter().chain(&[(0, 0.0), (0, 0.0)]) {
            b.extend(bone.to_le_bytes());
            b.extend(weight.to_le_bytes());
        }
    }
    let bones = dir.join("given.tfxbone");
    std::fs::write(&bones, &b).unwrap();
    let o = tress(&[
        OsStr::new("groom"),
        OsStr::new("inspect"),
        OsStr::new("procedural"),
        OsStr::new("--bones"),
        bones.as_os_str(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    for want in [
        "given.tfxbone: 2 bones, root weights for 2 strands",
        "2 bones weighted; most used (strands): head 2, hips 1",
        "bones per strand: mean 1.50, max 2; 1 strands on one bone",
    ] {
        assert!(out.contains(want), "`{want}` missing from:\n{out}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
