//! File access through Godot's `FileAccess`, so every path Godot knows
//! works the same in the editor and in an exported game: `res://` (inside
//! the game's pack once exported), `user://` and file-system paths.
//!
//! - [`read`]: a whole file as bytes, or why not in words;
//! - [`exists`]: whether an optional file is there;
//! - [`read_beside`]: a file named relative to another (a `.gltf`'s
//!   external buffers), for `tress_vrm::load_bytes_with`;
//! - [`load_model`]: a glTF/VRM/VRMA read by our loader, buffers and all;
//! - [`load_clips`]: an animation source, BVH included;
//! - [`folder_of`]: the folder a file's relative references start from.

use godot::builtin::PackedByteArray;
use godot::classes::FileAccess;
use godot::classes::file_access::ModeFlags;
use godot::global::Error as GdError;

/// Reads the whole file at `path` (any path `FileAccess` opens). The error
/// is the reason alone ("file not found"), for the caller to put after the
/// path it was given. The bytes stay in Godot's array: `as_slice` lends
/// them to Rust, and Godot's own importers take the array itself.
pub(crate) fn read(path: &str) -> Result<PackedByteArray, String> {
    let Some(mut f) = FileAccess::open(path, ModeFlags::READ) else {
        return Err(match FileAccess::get_open_error() {
            GdError::ERR_FILE_NOT_FOUND => "file not found".to_owned(),
            GdError::ERR_FILE_NO_PERMISSION => "permission denied".to_owned(),
            e => format!("cannot open it ({e:?})"),
        });
    };
    let len = f.get_length();
    if len > tress_vrm::load::MAX_FILE_BYTES as u64 {
        return Err(format!("file of {len} bytes is too large"));
    }
    let bytes = f.get_buffer(len as i64);
    f.close();
    if bytes.len() as u64 != len {
        return Err(format!("read {} of its {len} bytes", bytes.len()));
    }
    Ok(bytes)
}

/// Whether a file exists at `path` (any path `FileAccess` opens), for
/// optional companions such as a groom's `.tfxsim`.
pub(crate) fn exists(path: &str) -> bool {
    FileAccess::file_exists(path)
}

/// The files in the folder of `file` whose names end in `.ext` (any case),
/// as full paths, sorted; none when the folder cannot be listed.
pub(crate) fn beside_with_ext(file: &str, ext: &str) -> Vec<String> {
    let dir = folder_of(file);
    let listed = godot::classes::DirAccess::get_files_at(dir.as_str());
    let suffix = format!(".{}", ext.to_ascii_lowercase());
    let mut out: Vec<String> = listed
        .as_slice()
        .iter()
        .map(ToString::to_string)
        .filter(|n| n.to_ascii_lowercase().ends_with(&suffix))
        .map(|n| format!("{dir}{n}"))
        .collect();
    out.sort();
    out
}

/// Reads `rel` (a `.gltf` buffer's decoded `uri`) from the folder of `file`;
/// the error names the path tried.
pub(crate) fn read_beside(file: &str, rel: &str) -> Result<Vec<u8>, String> {
    let p = format!("{}{rel}", folder_of(file));
    read(&p)
        .map(|b| b.to_vec())
        .map_err(|e| format!("cannot read {p}: {e}"))
}

/// Reads `file` and parses it with Tress's loader, its external buffers
/// read beside it; the error is the reason, as for [`read`].
pub(crate) fn load_model(file: &str) -> Result<tress_vrm::Avatar, String> {
    let bytes = read(file)?;
    tress_vrm::load_bytes_with(bytes.as_slice(), |rel| read_beside(file, rel))
        .map_err(|e| e.to_string())
}

/// Reads an animation source at `file`: glTF / VRM / VRMA by our loader,
/// BVH by `tress_rig::anim::bvh` (clip named after the file); the error is
/// the reason, as for [`read`].
pub(crate) fn load_clips(file: &str) -> Result<tress_vrm::Avatar, String> {
    let bytes = read(file)?;
    tress_rig::anim::source::load_bytes_with(bytes.as_slice(), file, |rel| read_beside(file, rel))
}

/// The folder of `file` with its trailing separator (`res://clips/` for
/// `res://clips/walk.gltf`, `res://` for `res://a.vrm`), or `./` for a bare
/// file name. Godot's `GLTFDocument.append_from_buffer` resolves a
/// `.gltf`'s buffers and images from the `get_base_dir()` of the base path
/// it is given, which for this is the folder itself.
pub(crate) fn folder_of(file: &str) -> String {
    match file.rfind(['/', '\\']) {
        Some(i) => file[..=i].to_owned(),
        None => "./".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::folder_of;

    #[test]
    fn folders_keep_their_separator() {
        assert_eq!(folder_of("res://clips/walk.gltf"), "res://clips/");
        assert_eq!(folder_of("res://a.vrm"), "res://");
        assert_eq!(folder_of("user://x/y/z.tfx"), "user://x/y/");
        assert_eq!(folder_of("/abs/dir/m.gltf"), "/abs/dir/");
        assert_eq!(folder_of(r"C:\models\m.gltf"), r"C:\models\");
        assert_eq!(folder_of("m.gltf"), "./");
    }
}
