//! Entry points: [`load_path`], [`load_bytes`] and [`load_bytes_with`].
//!
//! Pipeline: the file's kind (`crate::sniff`: a BVH, a Godot scene, an
//! image… is named, not parsed) → GLB container (`glb.rs`) → JSON
//! (`serde_json`) → path-tracking decode of the glTF core (`gltf.rs`,
//! `buffers.rs`) → VRM extensions (`vrm0.rs`, `vrm1.rs`, `vrma.rs`,
//! `constraints.rs`) → schema validation of the whole document by
//! `gltf::json` (its errors carry JSON paths too).

use std::path::Path;

use serde_json::Value;

use crate::error::{Error, ErrorKind, Result, Warning};
use crate::json::J;
use crate::model::{Avatar, Format, SpringSystem};
use crate::sniff;
use ctx::Ctx;

mod bands;
mod buffers;
mod constraints;

use buffers::BufferResolver;
mod ctx;
mod glb;
mod gltf;
mod limits;
mod vrm0;
mod vrm1;
mod vrma;

pub use gltf::unnamed_clip;
pub use vrm1::hair_flags;

/// Largest file accepted (bytes); larger inputs fail before parsing.
pub const MAX_FILE_BYTES: usize = 1 << 30;

/// Loads a `.vrm`, `.glb`, `.vrma` or `.gltf` file; external buffers are
/// resolved next to it.
///
/// # Errors
/// [`Error`] naming the JSON path and what is wrong there.
pub fn load_path(path: impl AsRef<Path>) -> Result<Avatar> {
    let path = path.as_ref();
    let bytes = std::fs::read(path).map_err(|e| {
        Error::new(
            ErrorKind::Io,
            "",
            format!("cannot read {}: {e}", path.display()),
        )
    })?;
    let name = path.to_string_lossy();
    match path.parent() {
        Some(dir) => load_resolved(&bytes, &name, Some(&mut |rel: &str| read_beside(dir, rel))),
        None => load_resolved(&bytes, &name, None),
    }
}

fn read_beside(dir: &Path, rel: &str) -> core::result::Result<Vec<u8>, String> {
    let p = dir.join(rel);
    std::fs::read(&p).map_err(|e| format!("cannot read {}: {e}", p.display()))
}

/// Loads from memory. `base_dir` resolves external buffer URIs (`None`
/// makes them an error); GLB files need none.
///
/// # Errors
/// [`Error`] naming the JSON path and what is wrong there.
pub fn load_bytes(bytes: &[u8], base_dir: Option<&Path>) -> Result<Avatar> {
    match base_dir {
        Some(dir) => load_bytes_with(bytes, |rel| read_beside(dir, rel)),
        None => load_resolved(bytes, "", None),
    }
}

/// Loads from memory, reading external buffers through `resolve` instead of
/// the file system (a game engine's virtual files, an archive, a network).
/// `resolve` gets each buffer's `uri` percent-decoded and already checked to
/// stay inside the model's folder; its error message becomes an
/// [`ErrorKind::Io`] error at `buffers[i].uri`. GLB files with only their
/// binary chunk never call it.
///
/// # Errors
/// [`Error`] naming the JSON path and what is wrong there.
pub fn load_bytes_with(
    bytes: &[u8],
    mut resolve: impl FnMut(&str) -> core::result::Result<Vec<u8>, String>,
) -> Result<Avatar> {
    load_resolved(bytes, "", Some(&mut resolve))
}

fn load_resolved(
    bytes: &[u8],
    name: &str,
    resolve: Option<&mut BufferResolver<'_>>,
) -> Result<Avatar> {
    if bytes.len() > MAX_FILE_BYTES {
        return Err(Error::new(
            ErrorKind::Bounds,
            "",
            format!("file of {} bytes is too large", bytes.len()),
        ));
    }
    let kind = sniff::detect_format(bytes, name);
    let (json, bin, notes) = if bytes.starts_with(b"glTF") {
        let g = glb::split(bytes)?;
        (g.json, g.bin, g.notes)
    } else if kind.is_gltf() || kind == sniff::FileKind::Unknown {
        (bytes, None, Vec::new())
    } else {
        return Err(Error::new(
            ErrorKind::Unsupported,
            "",
            kind.advice("a glTF / VRM file"),
        ));
    };
    let value: Value = serde_json::from_slice(json).map_err(|e| {
        // Text that is neither JSON nor a format we know by sight.
        let hint = if kind == sniff::FileKind::Unknown {
            "; this does not start like a glTF, GLB or VRM file (nor any format Tress knows)"
        } else {
            ""
        };
        Error::new(
            ErrorKind::Syntax,
            "",
            format!(
                "invalid JSON at line {} column {}: {e}{hint}",
                e.line(),
                e.column()
            ),
        )
    })?;
    let mut avatar = load_value(&value, bin, resolve)?;
    let container = notes.into_iter().map(|message| Warning {
        path: String::new(),
        message,
    });
    avatar.warnings.splice(0..0, container);
    Ok(avatar)
}

fn load_value(
    value: &Value,
    bin: Option<&[u8]>,
    resolve: Option<&mut BufferResolver<'_>>,
) -> Result<Avatar> {
    let root = J::root(value);
    root.obj()?;
    let mut ctx = Ctx::default();
    match root.get("asset")? {
        None => ctx.warn("asset", "missing `asset` (required by glTF 2.0)"),
        Some(a) => {
            if let Some(v) = a.get("version")? {
                let v = v.str()?;
                if !v.starts_with('2') {
                    return Err(Error::new(
                        ErrorKind::Unsupported,
                        "asset.version",
                        format!("glTF version {v} is not 2.x"),
                    ));
                }
            }
        }
    }
    let data = buffers::Data::new(&root, bin, resolve)?;
    let nodes = gltf::nodes(&root)?;
    let materials = gltf::materials(&root)?;
    let meshes = gltf::meshes(&root, &data, &materials, &mut ctx)?;
    let skins = gltf::skins(&root, &data, nodes.len())?;
    gltf::check_node_refs(&root, &nodes, meshes.len(), skins.len())?;
    gltf::check_joint_ranges(&root, &nodes, &meshes, &skins, &mut ctx)?;
    let roots = gltf::roots(&root, &nodes)?;
    let animations = gltf::animations(&root, &data, nodes.len(), &mut ctx)?;

    let mut avatar = Avatar {
        format: Format::Gltf,
        nodes,
        roots,
        meshes,
        skins,
        materials,
        humanoid: None,
        meta: None,
        springs: SpringSystem::default(),
        constraints: Vec::new(),
        constraint_order: Vec::new(),
        animations,
        warnings: Vec::new(),
    };
    let ext = match root.get("extensions")? {
        Some(e) => {
            e.obj()?;
            Some(e)
        }
        None => None,
    };
    if let Some(ext) = &ext {
        if let Some(v) = ext.get("VRMC_vrm")? {
            avatar.format = Format::Vrm1;
            vrm1::vrm(&v, &mut avatar, &mut ctx)?;
        } else if let Some(v) = ext.get("VRM")? {
            avatar.format = Format::Vrm0;
            vrm0::vrm(&v, &mut avatar, &mut ctx)?;
        }
        if let Some(v) = ext.get("VRMC_vrm_animation")? {
            if avatar.format == Format::Gltf {
                avatar.format = Format::Vrma;
            }
            vrma::animation(&v, &mut avatar, &mut ctx)?;
        }
        if let Some(v) = ext.get("VRMC_springBone")? {
            if avatar.format == Format::Vrm0 {
                ctx.warn(
                    &v.path,
                    "VRMC_springBone next to VRM 0.x secondaryAnimation; both loaded",
                );
            }
            vrm1::spring_bone(&v, &mut avatar, &mut ctx)?;
        }
    }
    constraints::load(&root, &mut avatar, &mut ctx)?;
    vrm1::classify_hair(&mut avatar);
    validate_with_gltf_crate(value, &mut ctx)?;
    avatar.warnings = ctx.into_warnings();
    Ok(avatar)
}

/// Runs the `gltf` crate's schema validation over the whole document. Its
/// errors name JSON paths; ones that matter to us were already caught with
/// better messages above, so anything left is reported as an error only
/// when it is an out-of-range index, and as a warning otherwise.
fn validate_with_gltf_crate(value: &Value, ctx: &mut Ctx) -> Result<()> {
    use ::gltf::json::validation::{Error as VErr, Validate};
    let value = with_crate_required_defaults(value);
    let root: ::gltf::json::Root = match serde::Deserialize::deserialize(&*value) {
        Ok(r) => r,
        Err(e) => {
            ctx.warn(
                "",
                &format!("the gltf crate's schema reader rejected the document: {e}"),
            );
            return Ok(());
        }
    };
    let mut errors = Vec::new();
    root.validate(&root, ::gltf::json::Path::new, &mut |path, err| {
        errors.push((path(), err))
    });
    for (path, err) in errors {
        let p = path.as_str().to_owned();
        match err {
            VErr::IndexOutOfBounds => {
                return Err(Error::new(ErrorKind::Index, p, format!("{err}")));
            }
            // The crate does not know the VRM extensions we handle ourselves.
            VErr::Unsupported if p.starts_with("extensionsRequired") => continue,
            _ => {}
        }
        ctx.warn(&p, &format!("glTF schema: {err}"));
    }
    Ok(())
}

/// The document with the defaults the `gltf` crate's reader requires but
/// the glTF schema does not: a scene's `nodes` may be absent (glTF 2.0
/// `scene.schema.json` has no `required`), and gltf-json 1.4 refuses a
/// scene without it. Borrowed unchanged when nothing is missing.
fn with_crate_required_defaults(value: &Value) -> alloc::borrow::Cow<'_, Value> {
    let bare = |s: &Value| s.is_object() && s.get("nodes").is_none();
    let needs = value
        .get("scenes")
        .and_then(Value::as_array)
        .is_some_and(|scenes| scenes.iter().any(bare));
    if !needs {
        return alloc::borrow::Cow::Borrowed(value);
    }
    let mut v = value.clone();
    if let Some(scenes) = v.get_mut("scenes").and_then(Value::as_array_mut) {
        for s in scenes.iter_mut().filter(|s| bare(s)) {
            if let Some(o) = s.as_object_mut() {
                o.insert("nodes".to_owned(), Value::Array(Vec::new()));
            }
        }
    }
    alloc::borrow::Cow::Owned(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `.gltf` whose one triangle lies in an external buffer named with a
    /// space (`tri%20angle.bin` in the file).
    const GLTF: &str = r#"{
        "asset": { "version": "2.0" },
        "nodes": [{ "name": "tri", "mesh": 0 }],
        "scenes": [{ "nodes": [0] }],
        "meshes": [{ "primitives": [{ "attributes": { "POSITION": 0 } }] }],
        "accessors": [{ "bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
                        "min": [0, 0, 0], "max": [1, 1, 0] }],
        "bufferViews": [{ "buffer": 0, "byteLength": 36 }],
        "buffers": [{ "byteLength": 36, "uri": "tri%20angle.bin" }]
    }"#;

    fn triangle() -> Vec<u8> {
        [[0.0f32, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]
            .iter()
            .flatten()
            .flat_map(|c| c.to_le_bytes())
            .collect()
    }

    #[test]
    fn external_buffers_come_from_the_resolver() {
        let mut asked = Vec::new();
        let a = load_bytes_with(GLTF.as_bytes(), |uri| {
            asked.push(uri.to_owned());
            Ok(triangle())
        })
        .unwrap();
        assert_eq!(asked, ["tri angle.bin"]);
        let p = &a.meshes[0].primitives[0].positions;
        assert_eq!(p.len(), 3);
        assert_eq!(p[1], glam::Vec3::X);
        assert_eq!(p[2], glam::Vec3::Y);
    }

    #[test]
    fn a_resolver_failure_names_the_buffer() {
        let e = load_bytes_with(GLTF.as_bytes(), |uri| Err(format!("no {uri} here"))).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Io);
        assert_eq!(e.path, "buffers[0].uri");
        assert_eq!(e.message, "no tri angle.bin here");
        // A buffer shorter than it claims is still caught after the resolver.
        let e = load_bytes_with(GLTF.as_bytes(), |_| Ok(vec![0; 8])).unwrap_err();
        assert_eq!(
            (e.kind, e.path.as_str()),
            (ErrorKind::Bounds, "buffers[0].byteLength")
        );
    }

    #[test]
    fn uris_leaving_the_folder_never_reach_the_resolver() {
        for uri in [
            "../secret.bin",
            "/etc/passwd",
            "res://x.bin",
            "a/%2e%2e/b.bin",
        ] {
            let doc = GLTF.replace("tri%20angle.bin", uri);
            let e =
                load_bytes_with(doc.as_bytes(), |u| panic!("resolver asked for {u}")).unwrap_err();
            assert_eq!(e.kind, ErrorKind::Invalid, "{uri}: {e}");
        }
    }

    #[test]
    fn load_bytes_reads_buffers_beside_the_base_dir() {
        let dir = std::env::temp_dir().join(format!("tress-vrm-resolve-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("tri angle.bin"), triangle()).unwrap();
        let a = load_bytes(GLTF.as_bytes(), Some(&dir));
        let missing = load_bytes(GLTF.as_bytes(), Some(&dir.join("nowhere")));
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(a.unwrap().meshes[0].primitives[0].positions.len(), 3);
        let e = missing.unwrap_err();
        assert_eq!((e.kind, e.path.as_str()), (ErrorKind::Io, "buffers[0].uri"));
        assert!(e.message.starts_with("cannot read "), "{e}");
    }
}
