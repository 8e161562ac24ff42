//! Entry points: [`load_path`] and [`load_bytes`].
//!
//! Pipeline: GLB container (via the `gltf` crate's [`gltf::Glb`]) → JSON
//! (`serde_json`) → path-tracking decode of the glTF core (`gltf.rs`,
//! `buffers.rs`) → VRM extensions (`vrm0.rs`, `vrm1.rs`, `vrma.rs`,
//! `constraints.rs`) → schema validation of the whole document by
//! `gltf::json` (its errors carry JSON paths too).

use std::path::Path;

use serde_json::Value;

use crate::error::{Error, ErrorKind, Result, Warning};
use crate::json::J;
use crate::model::{Avatar, Format, SpringSystem};

mod buffers;
mod constraints;
mod gltf;
mod vrm0;
mod vrm1;
mod vrma;

pub(crate) use vrm1::hair_flags;

/// Largest file accepted (bytes); larger inputs fail before parsing.
pub const MAX_FILE_BYTES: usize = 1 << 30;

/// Warnings collected during a load.
#[derive(Debug, Default)]
pub(crate) struct Ctx {
    warnings: Vec<Warning>,
    once: Vec<&'static str>,
}

impl Ctx {
    pub fn warn(&mut self, path: &str, msg: &str) {
        self.warnings.push(Warning {
            path: path.to_owned(),
            message: msg.to_owned(),
        });
    }

    /// Warns only the first time `key` comes up.
    pub fn note_once(&mut self, key: &'static str, path: &str, msg: &str) {
        if !self.once.contains(&key) {
            self.once.push(key);
            self.warn(path, msg);
        }
    }
}

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
    load_bytes(&bytes, path.parent())
}

/// Loads from memory. `base_dir` resolves external buffer URIs (`None`
/// makes them an error); GLB files need none.
///
/// # Errors
/// [`Error`] naming the JSON path and what is wrong there.
pub fn load_bytes(bytes: &[u8], base_dir: Option<&Path>) -> Result<Avatar> {
    if bytes.len() > MAX_FILE_BYTES {
        return Err(Error::new(
            ErrorKind::Bounds,
            "",
            format!("file of {} bytes is too large", bytes.len()),
        ));
    }
    let (json, bin): (&[u8], Option<&[u8]>) = if bytes.starts_with(b"glTF") {
        let glb = ::gltf::Glb::from_slice(bytes).map_err(|e| {
            Error::new(
                ErrorKind::Container,
                "",
                format!("invalid GLB container: {e}"),
            )
        })?;
        let json: &[u8] = match glb.json {
            alloc::borrow::Cow::Borrowed(b) => b,
            alloc::borrow::Cow::Owned(_) => {
                return Err(Error::new(
                    ErrorKind::Container,
                    "",
                    "GLB JSON chunk could not be borrowed",
                ));
            }
        };
        let bin = match glb.bin {
            Some(alloc::borrow::Cow::Borrowed(b)) => Some(b),
            Some(alloc::borrow::Cow::Owned(_)) => {
                return Err(Error::new(
                    ErrorKind::Container,
                    "",
                    "GLB BIN chunk could not be borrowed",
                ));
            }
            None => None,
        };
        (json, bin)
    } else {
        (bytes, None)
    };
    let value: Value = serde_json::from_slice(json).map_err(|e| {
        Error::new(
            ErrorKind::Syntax,
            "",
            format!(
                "invalid JSON at line {} column {}: {e}",
                e.line(),
                e.column()
            ),
        )
    })?;
    load_value(&value, bin, base_dir)
}

fn load_value(value: &Value, bin: Option<&[u8]>, base_dir: Option<&Path>) -> Result<Avatar> {
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
    let data = buffers::Data::new(&root, bin, base_dir)?;
    let nodes = gltf::nodes(&root)?;
    let materials = gltf::materials(&root)?;
    let meshes = gltf::meshes(&root, &data, &materials, &mut ctx)?;
    let skins = gltf::skins(&root, &data, nodes.len())?;
    gltf::check_node_refs(&root, &nodes, meshes.len(), skins.len())?;
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
    avatar.warnings = ctx.warnings;
    Ok(avatar)
}

/// Runs the `gltf` crate's schema validation over the whole document. Its
/// errors name JSON paths; ones that matter to us were already caught with
/// better messages above, so anything left is reported as an error only
/// when it is an out-of-range index, and as a warning otherwise.
fn validate_with_gltf_crate(value: &Value, ctx: &mut Ctx) -> Result<()> {
    use ::gltf::json::validation::{Error as VErr, Validate};
    let root: ::gltf::json::Root = match serde::Deserialize::deserialize(value) {
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
