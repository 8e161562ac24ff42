//! What kind of file a byte string is, so a reader handed the wrong one can
//! say what it got and what to do instead of reporting a JSON syntax error.
//!
//! [`detect_format`] looks at magic bytes first and at the file name's
//! extension second (formats without a magic: OBJ, and telling `.vrm` /
//! `.vrma` apart from a plain `.glb`). [`FileKind::advice`] is the sentence
//! a loader prints when it gets a kind it does not read.

/// A file format Tress recognises.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// glTF JSON (`.gltf`).
    GltfJson,
    /// Binary glTF (`.glb`).
    Glb,
    /// VRM 0.x or 1.0 avatar (a GLB named `.vrm`).
    Vrm,
    /// VRM Animation (a GLB named `.vrma`).
    Vrma,
    /// BVH motion capture (`HIERARCHY`).
    Bvh,
    /// TressFX groom (`.tfx`, version 3 or 4 header).
    Tfx,
    /// Wavefront OBJ text.
    Obj,
    /// Godot text scene (`[gd_scene`).
    GodotScene,
    /// Godot text resource (`[gd_resource`).
    GodotResource,
    /// Autodesk FBX (binary `Kaydara FBX Binary` or ASCII `; FBX`).
    Fbx,
    /// PNG image.
    Png,
    /// JPEG image.
    Jpeg,
    /// None of the above.
    Unknown,
}

impl FileKind {
    /// The format's name as a user knows it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::GltfJson => "a glTF JSON file (.gltf)",
            Self::Glb => "a binary glTF file (.glb)",
            Self::Vrm => "a VRM avatar (.vrm)",
            Self::Vrma => "a VRM Animation (.vrma)",
            Self::Bvh => "a BVH motion capture file (.bvh)",
            Self::Tfx => "a TressFX groom (.tfx)",
            Self::Obj => "an OBJ file (.obj)",
            Self::GodotScene => "a Godot scene (.tscn)",
            Self::GodotResource => "a Godot resource (.tres)",
            Self::Fbx => "an FBX file (.fbx)",
            Self::Png => "a PNG image",
            Self::Jpeg => "a JPEG image",
            Self::Unknown => "a file of unknown format",
        }
    }

    /// Whether the glTF / VRM loader reads this kind.
    #[must_use]
    pub fn is_gltf(self) -> bool {
        matches!(self, Self::GltfJson | Self::Glb | Self::Vrm | Self::Vrma)
    }

    /// Whether the groom readers read this kind.
    #[must_use]
    pub fn is_groom(self) -> bool {
        matches!(self, Self::Tfx | Self::Obj)
    }

    /// What to do with this kind of file instead, for a loader that wanted
    /// `wanted` (`"a glTF / VRM file"`): `this is a BVH motion capture file
    /// (.bvh), not a glTF / VRM file: …`.
    #[must_use]
    pub fn advice(self, wanted: &str) -> String {
        let what_to_do = match self {
            Self::Bvh => {
                "BVH is read as an animation (tress retarget, tress validate-anim --clips, TressAvatar.load_animations), not as an avatar or a groom"
            }
            Self::Fbx => "convert it to .glb (Blender imports FBX and exports glTF)",
            Self::GodotScene | Self::GodotResource => {
                "Godot's own text files are not read; export the scene as .glb from Godot (Scene > Export As > glTF 2.0)"
            }
            Self::Tfx | Self::Obj => {
                "grooms are read by TressStrandHair (`strand_groom`) and the groom readers, not as avatars or animations"
            }
            Self::GltfJson | Self::Glb | Self::Vrm | Self::Vrma => {
                "avatars and animations are read by the glTF / VRM loader (`tress inspect`, TressAvatar)"
            }
            Self::Png | Self::Jpeg => {
                "images are not models; pass the .vrm, .glb or .gltf that uses it"
            }
            Self::Unknown => "expected a .vrm, .vrma, .glb or .gltf file",
        };
        format!("this is {}, not {wanted}: {what_to_do}", self.name())
    }
}

fn extension(name: &str) -> String {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    match base.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() => ext.to_ascii_lowercase(),
        _ => String::new(),
    }
}

/// Skips a UTF-8 byte-order mark and leading whitespace.
fn text_start(bytes: &[u8]) -> &[u8] {
    let b = bytes.strip_prefix(&[0xef, 0xbb, 0xbf]).unwrap_or(bytes);
    let skip = b
        .iter()
        .position(|c| !c.is_ascii_whitespace())
        .unwrap_or(b.len());
    &b[skip..]
}

/// OBJ has no magic; its first statements are ones only OBJ uses.
fn looks_like_obj(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(4096)];
    let Ok(text) = core::str::from_utf8(head).or_else(|e| {
        // A cut through a multi-byte character at the 4 KiB mark is fine.
        core::str::from_utf8(&head[..e.valid_up_to()])
    }) else {
        return false;
    };
    let keys: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .take(4)
        .map(|l| l.split_whitespace().next().unwrap_or(""))
        .collect();
    // At least one vertex, and nothing but OBJ statements around it.
    keys.contains(&"v")
        && keys.iter().all(|k| {
            matches!(
                *k,
                "v" | "vn" | "vt" | "vp" | "f" | "l" | "p" | "o" | "g" | "s" | "mtllib" | "usemtl"
            )
        })
}

/// The kind of `bytes`, by magic bytes first and by `name`'s extension
/// (any case; may be empty or a `res://` path) second.
#[must_use]
pub fn detect_format(bytes: &[u8], name: &str) -> FileKind {
    let ext = extension(name);
    if bytes.starts_with(b"glTF") {
        return match ext.as_str() {
            "vrm" => FileKind::Vrm,
            "vrma" => FileKind::Vrma,
            _ => FileKind::Glb,
        };
    }
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        return FileKind::Png;
    }
    if bytes.starts_with(&[0xff, 0xd8, 0xff]) {
        return FileKind::Jpeg;
    }
    if bytes.starts_with(b"Kaydara FBX Binary") {
        return FileKind::Fbx;
    }
    let text = text_start(bytes);
    if text.starts_with(b"HIERARCHY") {
        return FileKind::Bvh;
    }
    if text.starts_with(b"[gd_scene") {
        return FileKind::GodotScene;
    }
    if text.starts_with(b"[gd_resource") {
        return FileKind::GodotResource;
    }
    if text.starts_with(b"; FBX") {
        return FileKind::Fbx;
    }
    if text.starts_with(b"{") {
        return FileKind::GltfJson;
    }
    // TressFX has no magic, but its first field is the version as an f32.
    if bytes.len() >= 12
        && (bytes[..4] == 3.0f32.to_le_bytes() || bytes[..4] == 4.0f32.to_le_bytes())
    {
        return FileKind::Tfx;
    }
    match ext.as_str() {
        "gltf" => FileKind::GltfJson,
        "glb" => FileKind::Glb,
        "vrm" => FileKind::Vrm,
        "vrma" => FileKind::Vrma,
        "bvh" => FileKind::Bvh,
        "tfx" => FileKind::Tfx,
        "tscn" => FileKind::GodotScene,
        "tres" => FileKind::GodotResource,
        "fbx" => FileKind::Fbx,
        "png" => FileKind::Png,
        "jpg" | "jpeg" => FileKind::Jpeg,
        "obj" => FileKind::Obj,
        _ if looks_like_obj(bytes) => FileKind::Obj,
        _ => FileKind::Unknown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each format from its first bytes; the name only decides where the
    /// bytes cannot (GLB flavours, OBJ).
    #[test]
    fn kinds_by_magic_then_extension() {
        let mut tfx4 = 4.0f32.to_le_bytes().to_vec();
        tfx4.resize(160, 0);
        #[rustfmt::skip]
        let cases: &[(&[u8], &str, FileKind)] = &[
            (b"glTF\x02\0\0\0", "a.glb", FileKind::Glb),
            (b"glTF\x02\0\0\0", "A.VRM", FileKind::Vrm),
            (b"glTF\x02\0\0\0", "res://clips/idle.vrma", FileKind::Vrma),
            (b"glTF\x02\0\0\0", "", FileKind::Glb),
            (b"  {\"asset\":{}}", "x.gltf", FileKind::GltfJson),
            (b"\xef\xbb\xbf{}", "", FileKind::GltfJson),
            (b"HIERARCHY\nROOT Hips\n{", "walk.bvh", FileKind::Bvh),
            (b"HIERARCHY\r\nROOT Hips", "walk.glb", FileKind::Bvh),
            (b"[gd_scene load_steps=3 format=3]\n", "a.tscn", FileKind::GodotScene),
            (b"[gd_resource type=\"Animation\"]", "", FileKind::GodotResource),
            (b"Kaydara FBX Binary  \0\x1a\0", "m.fbx", FileKind::Fbx),
            (b"; FBX 7.4.0 project file", "", FileKind::Fbx),
            (b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR", "t.vrm", FileKind::Png),
            (b"\xff\xd8\xff\xe0", "", FileKind::Jpeg),
            (&tfx4, "", FileKind::Tfx),
            (b"# hair\nv 0 0 0\nv 0 1 0\nl 1 2\n", "", FileKind::Obj),
            (b"anything", "hair.OBJ", FileKind::Obj),
            (b"MOTION", "m.bvh", FileKind::Bvh),
            (b"", "", FileKind::Unknown),
            (b"hello world", "notes.txt", FileKind::Unknown),
            (b"g", "", FileKind::Unknown),
        ];
        for (bytes, name, want) in cases {
            assert_eq!(detect_format(bytes, name), *want, "{name:?} {bytes:?}");
        }
    }

    #[test]
    fn advice_says_what_it_is_and_what_to_use() {
        assert_eq!(
            FileKind::GodotScene.advice("a glTF / VRM file"),
            "this is a Godot scene (.tscn), not a glTF / VRM file: Godot's own text files are not read; export the scene as .glb from Godot (Scene > Export As > glTF 2.0)"
        );
        assert!(FileKind::Bvh.advice("a groom").starts_with(
            "this is a BVH motion capture file (.bvh), not a groom: BVH is read as an animation"
        ));
    }
}
