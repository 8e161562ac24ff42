//! Writes a fitted chain into the original file's bytes.
//!
//! The fit is added to the file's own glTF document rather than written
//! from [`Avatar`]: the model keeps no textures,
//! texture coordinates, morph targets, expressions or material parameters,
//! and the user's file must keep all of them. So the document is edited in
//! place: new nodes, a skin and accessors are appended (existing indices stay
//! valid), the mesh's `JOINTS_0`/`WEIGHTS_0` are replaced (any `JOINTS_1`/
//! `WEIGHTS_1` dropped), and a spring is appended to `VRMC_springBone`
//! (created when absent). Everything else is copied untouched.
//!
//! Not handled, with an error: VRM 0.x files (their springs live in
//! `secondaryAnimation`, with different semantics) and `.gltf` files with
//! external buffers (the output is one GLB).
//!
//! Each fit also pushes a record of what it changed onto the root
//! `extras.tress_fit`, so [`undo_fit`] can take the last fit back out of
//! the file alone (`tress unfit`).

mod record;

use serde_json::{Value, json};

use super::HairFit;
use super::apply::fitted_chain;
use record::Record;
pub use record::UndoError;
use tress_vrm::gltf_out::glb::{array, f32_bytes, open, push_accessor, seal, to_glb};
use tress_vrm::model::Avatar;

const ARRAY_BUFFER: u32 = 34962;
const FLOAT: u32 = 5126;
const UNSIGNED_SHORT: u32 = 5123;

/// Why the fitted file cannot be written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WriteError {
    /// Not a GLB (`.vrm` / `.glb`) file, or a broken one.
    NotGlb(String),
    /// A VRM 0.x file.
    Vrm0,
    /// The document does not have the shape the fit expects.
    Document(String),
}

impl core::fmt::Display for WriteError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::NotGlb(s) => write!(
                f,
                "cannot write the fit into this file: {s} (the fitter writes GLB-based .vrm/.glb files)"
            ),
            Self::Vrm0 => write!(
                f,
                "VRM 0.x output is not supported: convert the avatar to VRM 1.0 first (its springs would go into secondaryAnimation, which this writer does not edit)"
            ),
            Self::Document(s) => write!(f, "cannot write the fit: {s}"),
        }
    }
}

impl core::error::Error for WriteError {}

/// `original` (the bytes `avatar` was loaded from) with `fit` written in.
///
/// # Errors
/// [`WriteError`] for VRM 0.x, non-GLB input, or a document whose mesh or
/// nodes do not match `avatar`.
pub fn write_fit(original: &[u8], avatar: &Avatar, fit: &HairFit) -> Result<Vec<u8>, WriteError> {
    let (mut doc, mut bin) = open(original).map_err(WriteError::NotGlb)?;
    if doc.pointer("/extensions/VRM").is_some() {
        return Err(WriteError::Vrm0);
    }
    let node_count = doc["nodes"].as_array().map_or(0, Vec::len);
    if node_count != avatar.nodes.len() {
        return Err(WriteError::Document(format!(
            "the file has {node_count} nodes but the avatar {}",
            avatar.nodes.len()
        )));
    }
    let prim_count = doc
        .pointer(&format!("/meshes/{}/primitives", fit.mesh))
        .and_then(Value::as_array)
        .map(Vec::len);
    if prim_count != Some(fit.weights.len()) {
        return Err(WriteError::Document(format!(
            "mesh {} has {prim_count:?} primitives, the fit {}",
            fit.mesh,
            fit.weights.len()
        )));
    }

    let (record, stack) = Record::before(&doc, bin.len(), fit.attachment, fit.mesh_node, fit.mesh)
        .map_err(WriteError::Document)?;

    // Nodes: the joints in order, then the tail, each the parent of the next.
    let first = node_count;
    let all: Vec<&super::FittedJoint> = fit
        .joints
        .iter()
        .chain(core::iter::once(&fit.tail))
        .collect();
    for (k, j) in all.iter().enumerate() {
        let mut n = json!({ "name": j.name, "translation": j.translation.to_array() });
        if j.rotation != glam::Quat::IDENTITY {
            n["rotation"] = json!(j.rotation.to_array());
        }
        if j.scale != glam::Vec3::ONE {
            n["scale"] = json!(j.scale.to_array());
        }
        if k + 1 < all.len() {
            n["children"] = json!([first + k + 1]);
        }
        array(&mut doc, "nodes").push(n);
    }
    let attach = &mut doc["nodes"][fit.attachment];
    if !attach["children"].is_array() {
        attach["children"] = json!([]);
    }
    attach["children"]
        .as_array_mut()
        .expect("just made an array")
        .push(json!(first));

    // The skin: the attachment (joint 0), then the bones.
    let ibms = core::iter::once(&fit.attachment_inverse_bind)
        .chain(fit.joints.iter().map(|j| &j.inverse_bind))
        .flat_map(|m| m.to_cols_array());
    let ibm = push_accessor(
        &mut doc,
        &mut bin,
        &f32_bytes(ibms),
        FLOAT,
        fit.joints.len() + 1,
        "MAT4",
        None,
    );
    let joints: Vec<usize> = core::iter::once(fit.attachment)
        .chain((0..fit.joints.len()).map(|k| first + k))
        .collect();
    let skins = array(&mut doc, "skins");
    skins.push(
        json!({ "name": format!("{}_fit", fit.mesh_name), "joints": joints,
        "inverseBindMatrices": ibm, "skeleton": fit.attachment }),
    );
    let skin = skins.len() - 1;
    doc["nodes"][fit.mesh_node]["skin"] = json!(skin);

    // Weights, per primitive.
    for (pi, w) in fit.weights.iter().enumerate() {
        let jb: Vec<u8> = w
            .joints
            .iter()
            .flat_map(|j| j.iter().flat_map(|x| x.to_le_bytes()))
            .collect();
        let ja = push_accessor(
            &mut doc,
            &mut bin,
            &jb,
            UNSIGNED_SHORT,
            w.joints.len(),
            "VEC4",
            Some(ARRAY_BUFFER),
        );
        let wa = push_accessor(
            &mut doc,
            &mut bin,
            &f32_bytes(w.weights.iter().flatten().copied()),
            FLOAT,
            w.weights.len(),
            "VEC4",
            Some(ARRAY_BUFFER),
        );
        let attrs = doc
            .pointer_mut(&format!("/meshes/{}/primitives/{pi}/attributes", fit.mesh))
            .and_then(Value::as_object_mut)
            .ok_or_else(|| WriteError::Document(format!("primitive {pi} has no attributes")))?;
        // Previous weights are dropped, extra influence sets included.
        attrs.retain(|k, _| !(k.starts_with("JOINTS_") || k.starts_with("WEIGHTS_")));
        attrs.insert("JOINTS_0".into(), json!(ja));
        attrs.insert("WEIGHTS_0".into(), json!(wa));
    }

    // The spring, through the same chain the model gets.
    let chain = fitted_chain(avatar, fit, first);
    let joints: Vec<Value> = chain
        .joints
        .iter()
        .map(|j| {
            json!({ "node": j.node, "hitRadius": j.hit_radius, "stiffness": j.stiffness,
                "gravityPower": j.gravity_power, "gravityDir": j.gravity_dir.to_array(),
                "dragForce": j.drag_force })
        })
        .collect();
    let exts = doc
        .as_object_mut()
        .ok_or_else(|| WriteError::Document("the document is not an object".into()))?
        .entry("extensions")
        .or_insert_with(|| json!({}));
    let sb = exts
        .as_object_mut()
        .ok_or_else(|| WriteError::Document("extensions is not an object".into()))?
        .entry("VRMC_springBone")
        .or_insert_with(|| json!({ "specVersion": "1.0" }));
    array(sb, "springs").push(json!({ "name": chain.name, "joints": joints,
        "colliderGroups": chain.collider_groups }));
    let used = array(&mut doc, "extensionsUsed");
    if !used.iter().any(|u| u == "VRMC_springBone") {
        used.push(json!("VRMC_springBone"));
    }

    seal(&mut doc, &mut bin);
    record
        .push(&mut doc, bin.len(), stack)
        .map_err(WriteError::Document)?;
    Ok(to_glb(&doc, &bin))
}

/// `bytes` (a file written by [`write_fit`]) with its last fit taken out:
/// the document and binary chunk as they were before that fit.
///
/// # Errors
/// [`UndoError`] when the file is not a GLB, holds no fit record, or was
/// changed after the fit in a way the record cannot undo.
pub fn undo_fit(bytes: &[u8]) -> Result<Vec<u8>, UndoError> {
    let (mut doc, mut bin) = open(bytes).map_err(UndoError::NotGlb)?;
    let Some(stack) = doc.get_mut("extras").and_then(|e| e.get_mut(record::KEY)) else {
        return Err(UndoError::NoRecord);
    };
    let Value::Array(stack) = stack else {
        return Err(UndoError::BadRecord(format!(
            "`extras.{}` is not a list",
            record::KEY
        )));
    };
    let Some(last) = stack.pop() else {
        return Err(UndoError::NoRecord);
    };
    let remaining = core::mem::take(stack);
    let record = Record::from_json(&last).map_err(UndoError::BadRecord)?;
    record.restore(&mut doc, &mut bin, remaining)?;
    Ok(to_glb(&doc, &bin))
}

/// How many fits `bytes` records (0 for a file never fitted).
///
/// # Errors
/// [`UndoError::NotGlb`] when the file is not a GLB;
/// [`UndoError::BadRecord`] when the record stack is not a list.
pub fn recorded_fits(bytes: &[u8]) -> Result<usize, UndoError> {
    let (doc, _) = open(bytes).map_err(UndoError::NotGlb)?;
    match doc.get("extras").and_then(|e| e.get(record::KEY)) {
        None => Ok(0),
        Some(Value::Array(a)) => Ok(a.len()),
        Some(_) => Err(UndoError::BadRecord(format!(
            "`extras.{}` is not a list",
            record::KEY
        ))),
    }
}
