//! A groom file of either format, chosen by its name.

use std::path::Path;

use super::{Groom, GroomError, obj, tfx};

/// Reads a groom file: a name ending in `.obj` (any case) as OBJ polylines,
/// any other as TressFX (`.tfx`).
///
/// # Errors
/// [`GroomError`] from the reader chosen, for I/O failures and malformed files.
pub fn load_any(path: impl AsRef<Path>) -> Result<Groom, GroomError> {
    let path = path.as_ref();
    read_any(&path.to_string_lossy(), &std::fs::read(path)?)
}

/// Parses a groom file's bytes read by the caller (from a game engine's
/// virtual files, an archive): `name` chooses the format as in [`load_any`]
/// and is not opened.
///
/// # Errors
/// [`GroomError`] from the reader chosen, for malformed files.
pub fn read_any(name: &str, bytes: &[u8]) -> Result<Groom, GroomError> {
    if name.to_ascii_lowercase().ends_with(".obj") {
        obj::read_obj_bytes(bytes)
    } else {
        tfx::read_tfx(bytes).map(|t| t.groom)
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
    fn other_names_read_as_tressfx() {
        // OBJ text under another name is read as TressFX, and is not one.
        let f = TempFile::new("hair.txt", OBJ);
        let e = load_any(&f.0).unwrap_err();
        assert!(
            matches!(
                e,
                GroomError::UnsupportedVersion(_)
                    | GroomError::Truncated { .. }
                    | GroomError::BadCount { .. }
            ),
            "{e}"
        );
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
