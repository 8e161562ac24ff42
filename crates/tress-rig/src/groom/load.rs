//! A groom file of either format, chosen by its bytes and then its name.

use std::path::Path;

use tress_vrm::sniff::{FileKind, detect_format};

use super::{Groom, GroomError, GroomWarning, obj, tfx};

/// Reads a groom file: OBJ polylines or TressFX (`.tfx`), recognised by
/// their first bytes (a TressFX version, OBJ statements) and otherwise by
/// the name (`.obj` in any case is OBJ, any other name TressFX). Strands
/// skipped as degenerate are dropped silently; see
/// [`load_any_with_warnings`].
///
/// # Errors
/// [`GroomError`] from the reader chosen, for I/O failures and malformed
/// files; [`GroomError::WrongFormat`] for a file of another kind.
pub fn load_any(path: impl AsRef<Path>) -> Result<Groom, GroomError> {
    load_any_with_warnings(path).map(|(g, _)| g)
}

/// [`load_any`], with the strands skipped as degenerate.
///
/// # Errors
/// As [`load_any`].
pub fn load_any_with_warnings(
    path: impl AsRef<Path>,
) -> Result<(Groom, Vec<GroomWarning>), GroomError> {
    let path = path.as_ref();
    read_any_with_warnings(&path.to_string_lossy(), &std::fs::read(path)?)
}

/// Parses a groom file's bytes read by the caller (from a game engine's
/// virtual files, an archive): `name` helps choose the format as in
/// [`load_any`] and is not opened.
///
/// # Errors
/// As [`load_any`].
pub fn read_any(name: &str, bytes: &[u8]) -> Result<Groom, GroomError> {
    read_any_with_warnings(name, bytes).map(|(g, _)| g)
}

/// [`read_any`], with the strands skipped as degenerate.
///
/// # Errors
/// As [`load_any`].
pub fn read_any_with_warnings(
    name: &str,
    bytes: &[u8],
) -> Result<(Groom, Vec<GroomWarning>), GroomError> {
    match detect_format(bytes, name) {
        FileKind::Obj => obj::read_obj_bytes_with_warnings(bytes),
        FileKind::Tfx | FileKind::Unknown => tfx::read_tfx(bytes).map(|t| (t.groom, t.warnings)),
        other => Err(GroomError::WrongFormat(
            other.advice("a groom (.tfx or OBJ polylines)"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;

    const OBJ: &str = "v 0 0 0\nv 0 -1 0\nv 0 -2 0\nl 1 2 3\n";

    /// A file under the system temp folder, removed when dropped.
    struct TempFile(PathBuf);

    impl TempFile {
        fn new(name: &str, contents: &str) -> Self {
            let p = std::env::temp_dir()
                .join(format!("tress-rig-load-any-{}-{name}", std::process::id()));
            std::fs::write(&p, contents).unwrap();
            Self(p)
        }
    }

    impl Drop for TempFile {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(&self.0);
        }
    }

    #[test]
    fn obj_names_read_as_obj_in_any_case() {
        for name in ["hair.obj", "HAIR.OBJ"] {
            let f = TempFile::new(name, OBJ);
            let g = load_any(&f.0).unwrap();
            assert_eq!(g.strand_count(), 1, "{name}");
            assert_eq!(g.strand(0).len(), 3, "{name}");
        }
    }

    #[test]
    fn contents_decide_before_names() {
        // OBJ text under another name is still OBJ: its statements say so.
        let f = TempFile::new("hair.txt", OBJ);
        assert_eq!(load_any(&f.0).unwrap().strand_count(), 1);
        // Text that is neither, under another name, is tried as TressFX.
        let f = TempFile::new("notes.txt", "hello\n");
        let e = load_any(&f.0).unwrap_err();
        assert!(matches!(e, GroomError::Truncated { .. }), "{e}");
        // Other formats are named, with what to use instead.
        #[rustfmt::skip]
        let cases: &[(&str, &[u8], &str)] = &[
            ("walk.bvh", b"HIERARCHY\nROOT Hips\n", "this is a BVH motion capture file (.bvh), not a groom (.tfx or OBJ polylines): BVH is read as an animation (tress retarget, tress validate-anim --clips, TressAvatar.load_animations), not as an avatar or a groom"),
            ("hair.tfx", b"glTF\x02\0\0\0", "this is a binary glTF file (.glb), not a groom (.tfx or OBJ polylines): avatars and animations are read by the glTF / VRM loader"),
            ("hair.tscn", b"[gd_scene format=3]\n", "this is a Godot scene (.tscn), not a groom"),
        ];
        for (name, bytes, want) in cases {
            let e = read_any(name, bytes).unwrap_err();
            assert!(matches!(e, GroomError::WrongFormat(_)), "{name}: {e}");
            assert!(e.to_string().starts_with(want), "{name}: {e}");
        }
        let missing = std::env::temp_dir().join("tress-rig-no-such-groom.tfx");
        assert!(matches!(load_any(missing), Err(GroomError::Io(_))));
    }

    #[test]
    fn bytes_read_like_the_file_of_that_name() {
        for name in ["res://hair.obj", "HAIR.OBJ"] {
            let g = read_any(name, OBJ.as_bytes()).unwrap();
            assert_eq!((g.strand_count(), g.strand(0).len()), (1, 3), "{name}");
        }
        let f = TempFile::new("same.obj", OBJ);
        assert_eq!(
            read_any("same.obj", OBJ.as_bytes()).unwrap(),
            load_any(&f.0).unwrap()
        );
        // The committed TressFX groom through both doors.
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets/tress_groom.tfx");
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(
            read_any("user://tress_groom.tfx", &bytes).unwrap(),
            load_any(&path).unwrap()
        );
        // Malformed bytes fail as the file would: OBJ that is not UTF-8
        // names its line; a short .tfx is truncated.
        let e = read_any("bad.obj", b"v 0 0 0\n\xff\n").unwrap_err();
        assert!(matches!(e, GroomError::Parse { line: 2, .. }), "{e}");
        let e = read_any("bad.tfx", b"tfx").unwrap_err();
        assert!(matches!(e, GroomError::Truncated { .. }), "{e}");
    }

    /// The committed groom, as `TressStrandHair` prepares it (16 particles,
    /// root order): the strand counts its Godot tests check.
    #[test]
    fn committed_groom_subsets_match_the_godot_tests() {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets/tress_groom.tfx");
        let g = load_any(path)
            .unwrap()
            .resampled(16)
            .unwrap()
            .ordered_by_root();
        assert_eq!(g.strand_count(), 6000);
        assert_eq!(g.subset(1.0).strand_count(), 6000);
        assert_eq!(g.subset(0.25).strand_count(), 1500);
        assert_eq!(g.subset(0.05).strand_count(), 300);
    }
}
