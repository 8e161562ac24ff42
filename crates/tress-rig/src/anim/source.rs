//! Any file a clip can come from, read into the retargeter's source: glTF,
//! VRM and VRMA through `tress_vrm`, BVH through [`super::bvh`].

use tress_vrm::model::Avatar;
use tress_vrm::sniff::{FileKind, detect_format};

/// Reads an animation source from its bytes; `name` (a path, `res://` or
/// plain) names the file, its clip (for a BVH) and its kind where the
/// bytes do not. `resolve` reads a `.gltf`'s external buffers.
///
/// # Errors
/// The reader's message: a glTF error with its JSON path, a BVH error with
/// its line, joint and channel.
pub fn load_bytes_with(
    bytes: &[u8],
    name: &str,
    resolve: impl FnMut(&str) -> Result<Vec<u8>, String>,
) -> Result<Avatar, String> {
    if detect_format(bytes, name) == FileKind::Bvh {
        return super::bvh::load(bytes, name)
            .map(|c| c.avatar)
            .map_err(|e| e.to_string());
    }
    tress_vrm::load_bytes_with(bytes, resolve).map_err(|e| e.to_string())
}

/// [`load_bytes_with`] for a file on disk, buffers read beside it.
///
/// # Errors
/// As [`load_bytes_with`], and when the file cannot be read.
pub fn load_path(path: &std::path::Path) -> Result<Avatar, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if detect_format(&bytes, &path.to_string_lossy()) == FileKind::Bvh {
        return load_bytes_with(&bytes, &path.to_string_lossy(), |_| Err(String::new()));
    }
    tress_vrm::load_path(path).map_err(|e| e.to_string())
}
