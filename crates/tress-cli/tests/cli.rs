//! The `tress` binary run as a process: help, version, exit codes, and one
//! real command on a committed asset.

use std::ffi::OsStr;
use std::path::PathBuf;
use std::process::{Command, Output};

const SUBCOMMANDS: [&str; 9] = [
    "inspect",
    "validate-anim",
    "retarget",
    "export",
    "generate-assets",
    "measure",
    "fit-colliders",
    "fit",
    "unfit",
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
