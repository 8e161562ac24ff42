//! The undo record [`write_fit`](super::write_fit) leaves in the file, and
//! taking a fit back out with it.
//!
//! Records stack in the document root's `extras.tress_fit`, oldest first,
//! so a file fitted twice can be taken back one fit at a time. The fit only
//! appends to the arrays it touches, so their lengths before are enough to
//! remove what it added; the few values it overwrites are copied whole. A
//! value that was absent is written as a missing key (not `null`), so "no
//! skin" and "`skin: null`" come back as they were. Arrays are recorded as
//! `[length before or null when absent, length after]`: the length after is
//! what lets an undo notice a file edited since the fit.

use serde_json::{Map, Value, json};

/// The key of the record stack in the root `extras`.
pub(super) const KEY: &str = "tress_fit";
/// Bumped when the record's fields change meaning; older tools then refuse
/// a record they would misread.
const VERSION: u64 = 1;
/// The arrays the fit appends to.
const ARRAYS: [&str; 5] = ["nodes", "skins", "accessors", "bufferViews", "buffers"];

/// Why a fit cannot be taken out of a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UndoError {
    /// Not a GLB (`.vrm` / `.glb`) file, or a broken one.
    NotGlb(String),
    /// The file holds no fit record.
    NoRecord,
    /// The last record is not one [`write_fit`](super::write_fit) writes.
    BadRecord(String),
    /// The document is no longer as the fit left it.
    Edited(String),
}

impl core::fmt::Display for UndoError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::NotGlb(s) => write!(
                f,
                "cannot undo a fit in this file: {s} (fits are written into GLB-based .vrm/.glb files)"
            ),
            Self::NoRecord => write!(
                f,
                "the file has no fit record (extras.{KEY}): it was not written by `tress fit`, or every fit in it was already undone"
            ),
            Self::BadRecord(s) => {
                write!(f, "the last fit record (extras.{KEY}) cannot be read: {s}")
            }
            Self::Edited(s) => write!(
                f,
                "the file was changed after the fit ({s}), so undoing it would break the file; fit the original file again instead"
            ),
        }
    }
}

impl core::error::Error for UndoError {}

/// What one fit changed.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Record {
    /// Per [`ARRAYS`] entry: length before (`None`: absent) and after.
    lengths: [(Option<usize>, usize); 5],
    /// Binary chunk length before and after.
    bin: (usize, usize),
    /// Buffer 0's `byteLength` before, when it had one.
    buffer_byte_length: Option<Value>,
    /// The node the chain hangs from, and its `children` before.
    attachment: usize,
    children: Option<Value>,
    /// The node drawing the fitted mesh, and its `skin` before.
    mesh_node: usize,
    skin: Option<Value>,
    /// The fitted mesh and each primitive's `attributes` before.
    mesh: usize,
    attributes: Vec<Value>,
    /// `extensions.VRMC_springBone` before, and whether `extensions` existed.
    spring_bone: Option<Value>,
    had_extensions: bool,
    extensions_used: Option<Value>,
    /// The root `extras` before, its record stack taken out.
    extras: Option<Value>,
}

impl Record {
    /// What a fit of `mesh` (drawn by `mesh_node`, hung from `attachment`)
    /// is about to change in `doc`, and the records already stacked there.
    ///
    /// # Errors
    /// A message naming the part of the document the fit could not put back.
    pub(super) fn before(
        doc: &Value,
        bin: usize,
        attachment: usize,
        mesh_node: usize,
        mesh: usize,
    ) -> Result<(Self, Vec<Value>), String> {
        let root = doc.as_object().ok_or("the document is not a JSON object")?;
        let mut lengths = [(None, 0); 5];
        for (name, l) in ARRAYS.iter().zip(&mut lengths) {
            l.0 = match root.get(*name) {
                None => None,
                Some(Value::Array(a)) => Some(a.len()),
                Some(_) => return Err(format!("`{name}` is not an array")),
            };
        }
        let node = |i: usize| {
            root.get("nodes")
                .and_then(|n| n.get(i))
                .and_then(Value::as_object)
                .ok_or_else(|| format!("node {i} is not a JSON object"))
        };
        let attributes = root
            .get("meshes")
            .and_then(|m| m.get(mesh))
            .and_then(|m| m.get("primitives"))
            .and_then(Value::as_array)
            .ok_or_else(|| format!("mesh {mesh} has no primitives array"))?
            .iter()
            .enumerate()
            .map(|(i, p)| match p.get("attributes") {
                Some(a @ Value::Object(_)) => Ok(a.clone()),
                _ => Err(format!(
                    "mesh {mesh} primitive {i} has no attributes object"
                )),
            })
            .collect::<Result<Vec<_>, _>>()?;
        let spring_bone = match root.get("extensions") {
            None => None,
            Some(Value::Object(e)) => e.get("VRMC_springBone").cloned(),
            Some(_) => return Err("`extensions` is not an object".into()),
        };
        if spring_bone.as_ref().is_some_and(|s| !s.is_object()) {
            return Err("`extensions.VRMC_springBone` is not an object".into());
        }
        let (extras, stack) = split_extras(root.get("extras").cloned())?;
        let record = Self {
            lengths,
            bin: (bin, 0),
            buffer_byte_length: root
                .get("buffers")
                .and_then(|b| b.get(0))
                .and_then(|b| b.get("byteLength"))
                .cloned(),
            attachment,
            children: node(attachment)?.get("children").cloned(),
            mesh_node,
            skin: node(mesh_node)?.get("skin").cloned(),
            mesh,
            attributes,
            spring_bone,
            had_extensions: root.contains_key("extensions"),
            extensions_used: root.get("extensionsUsed").cloned(),
            extras,
        };
        Ok((record, stack))
    }

    /// Notes what the fit left in `doc` (sealed, with a `bin`-byte binary
    /// chunk) and pushes the record onto `stack` in the root `extras`.
    ///
    /// # Errors
    /// When `doc` is not a JSON object.
    pub(super) fn push(
        mut self,
        doc: &mut Value,
        bin: usize,
        mut stack: Vec<Value>,
    ) -> Result<(), String> {
        let root = doc
            .as_object_mut()
            .ok_or("the document is not a JSON object")?;
        for (name, l) in ARRAYS.iter().zip(&mut self.lengths) {
            l.1 = root
                .get(*name)
                .and_then(Value::as_array)
                .map_or(0, Vec::len);
        }
        self.bin.1 = bin;
        // Extras that are not an object cannot hold the stack; the record
        // keeps them and the last undo puts them back.
        let mut extras = match &self.extras {
            Some(Value::Object(m)) => m.clone(),
            _ => Map::new(),
        };
        stack.push(self.to_json());
        extras.insert(KEY.into(), Value::Array(stack));
        root.insert("extras".into(), Value::Object(extras));
        Ok(())
    }

    fn to_json(&self) -> Value {
        let lengths: Map<String, Value> = ARRAYS
            .iter()
            .zip(&self.lengths)
            .map(|(name, (before, after))| ((*name).to_owned(), json!([before, after])))
            .collect();
        let mut r = Map::new();
        r.insert("version".into(), json!(VERSION));
        r.insert("lengths".into(), Value::Object(lengths));
        r.insert("bin".into(), json!([self.bin.0, self.bin.1]));
        put(&mut r, "bufferByteLength", self.buffer_byte_length.as_ref());
        r.insert("attachment".into(), json!(self.attachment));
        put(&mut r, "children", self.children.as_ref());
        r.insert("meshNode".into(), json!(self.mesh_node));
        put(&mut r, "skin", self.skin.as_ref());
        r.insert("mesh".into(), json!(self.mesh));
        r.insert("attributes".into(), Value::Array(self.attributes.clone()));
        put(&mut r, "springBone", self.spring_bone.as_ref());
        r.insert("hadExtensions".into(), json!(self.had_extensions));
        put(&mut r, "extensionsUsed", self.extensions_used.as_ref());
        put(&mut r, "extras", self.extras.as_ref());
        Value::Object(r)
    }

    /// The record as [`to_json`](Self::to_json) wrote it.
    ///
    /// # Errors
    /// A message naming the field that is missing or malformed.
    pub(super) fn from_json(v: &Value) -> Result<Self, String> {
        let r = v.as_object().ok_or("it is not a JSON object")?;
        match r.get("version").and_then(Value::as_u64) {
            Some(VERSION) => {}
            Some(n) => {
                return Err(format!(
                    "it has version {n}; this tress reads version {VERSION} (use the tress that wrote it)"
                ));
            }
            None => return Err("`version` is missing".into()),
        }
        let lengths = r
            .get("lengths")
            .and_then(Value::as_object)
            .ok_or("`lengths` is missing")?;
        let mut l = [(None, 0); 5];
        for (name, slot) in ARRAYS.iter().zip(&mut l) {
            let field = format!("lengths.{name}");
            let pair = lengths.get(*name).ok_or(format!("`{field}` is missing"))?;
            *slot = before_after(pair, &field, true)?;
        }
        let (bin_before, bin_after) =
            before_after(r.get("bin").ok_or("`bin` is missing")?, "bin", false)?;
        let attributes = r
            .get("attributes")
            .and_then(Value::as_array)
            .ok_or("`attributes` is missing")?
            .clone();
        Ok(Self {
            lengths: l,
            bin: (bin_before.unwrap_or(0), bin_after),
            buffer_byte_length: r.get("bufferByteLength").cloned(),
            attachment: index(r, "attachment")?,
            children: r.get("children").cloned(),
            mesh_node: index(r, "meshNode")?,
            skin: r.get("skin").cloned(),
            mesh: index(r, "mesh")?,
            attributes,
            spring_bone: r.get("springBone").cloned(),
            had_extensions: r
                .get("hadExtensions")
                .and_then(Value::as_bool)
                .ok_or("`hadExtensions` is missing")?,
            extensions_used: r.get("extensionsUsed").cloned(),
            extras: r.get("extras").cloned(),
        })
    }

    /// Takes the fit back out of `doc` and `bin`; `remaining` is the record
    /// stack below this record.
    ///
    /// # Errors
    /// [`UndoError::Edited`] when the document is not as the fit left it;
    /// [`UndoError::BadRecord`] when the record contradicts itself.
    pub(super) fn restore(
        self,
        doc: &mut Value,
        bin: &mut Vec<u8>,
        remaining: Vec<Value>,
    ) -> Result<(), UndoError> {
        let bad = UndoError::BadRecord;
        let edited = UndoError::Edited;
        let [nodes, skins, accessors, _, buffers] = self.lengths;
        for (name, (before, after)) in ARRAYS.iter().zip(self.lengths) {
            if before.is_some_and(|b| b > after) {
                return Err(bad(format!(
                    "`lengths.{name}` says the fit shortened the array"
                )));
            }
            let now = doc.get(*name).and_then(Value::as_array).map(Vec::len);
            if now != Some(after) {
                let now = now.map_or_else(|| "no".to_owned(), |n| n.to_string());
                return Err(edited(format!(
                    "`{name}` has {now} entries where the fit left {after}"
                )));
            }
        }
        if self.bin.0 > self.bin.1 {
            return Err(bad("`bin` says the fit shortened the binary chunk".into()));
        }
        if bin.len() != self.bin.1 {
            return Err(edited(format!(
                "the binary chunk is {} bytes where the fit left {}",
                bin.len(),
                self.bin.1
            )));
        }
        let Some(first) = nodes.0 else {
            return Err(bad("it says the file had no nodes".into()));
        };
        if self.attachment >= first || self.mesh_node >= first {
            return Err(bad(format!(
                "its attachment {} or mesh node {} is not one of the {first} nodes before the fit",
                self.attachment, self.mesh_node
            )));
        }
        self.check_links(doc, first, skins.1, accessors.0.unwrap_or(0))?;
        if doc.pointer("/buffers/0/byteLength").and_then(Value::as_u64)
            != u64::try_from(self.bin.1).ok()
        {
            return Err(edited(
                "buffer 0's byteLength is not the binary chunk's length".into(),
            ));
        }
        if !self.had_extensions {
            let others: Vec<&str> = doc
                .get("extensions")
                .and_then(Value::as_object)
                .into_iter()
                .flat_map(Map::keys)
                .map(String::as_str)
                .filter(|k| *k != "VRMC_springBone")
                .collect();
            if !others.is_empty() {
                return Err(edited(format!(
                    "the file had no extensions before the fit but now has {}",
                    others.join(", ")
                )));
            }
        }
        let root = doc
            .as_object_mut()
            .ok_or_else(|| bad("the document is not a JSON object".into()))?;

        for (name, (before, _)) in ARRAYS.iter().zip(self.lengths) {
            match before {
                Some(n) => {
                    if let Some(Value::Array(a)) = root.get_mut(*name) {
                        a.truncate(n);
                    }
                }
                None => {
                    root.remove(*name);
                }
            }
        }
        bin.truncate(self.bin.0);
        if buffers.0.is_some_and(|n| n > 0)
            && let Some(Value::Object(b)) = root.get_mut("buffers").and_then(|b| b.get_mut(0))
        {
            set(b, "byteLength", self.buffer_byte_length);
        }
        if let Some(Value::Object(n)) = root
            .get_mut("nodes")
            .and_then(|n| n.get_mut(self.attachment))
        {
            set(n, "children", self.children);
        }
        if let Some(Value::Object(n)) = root
            .get_mut("nodes")
            .and_then(|n| n.get_mut(self.mesh_node))
        {
            set(n, "skin", self.skin);
        }
        if let Some(Value::Array(prims)) = root
            .get_mut("meshes")
            .and_then(|m| m.get_mut(self.mesh))
            .and_then(|m| m.get_mut("primitives"))
        {
            for (p, a) in prims.iter_mut().zip(self.attributes) {
                if let Value::Object(p) = p {
                    p.insert("attributes".into(), a);
                }
            }
        }
        if self.had_extensions {
            if let Some(Value::Object(e)) = root.get_mut("extensions") {
                set(e, "VRMC_springBone", self.spring_bone);
            }
        } else {
            root.remove("extensions");
        }
        set(root, "extensionsUsed", self.extensions_used);
        if remaining.is_empty() {
            set(root, "extras", self.extras);
        } else {
            let Some(Value::Object(mut extras)) = self.extras else {
                return Err(bad(
                    "earlier fits are recorded but the saved `extras` is not an object".into(),
                ));
            };
            extras.insert(KEY.into(), Value::Array(remaining));
            root.insert("extras".into(), Value::Object(extras));
        }
        Ok(())
    }

    /// That the nodes, skin, attributes and spring the fit wrote are still
    /// there: `first` is its first node, `skins` the skin count it left and
    /// `accessors` the accessor count before it.
    fn check_links(
        &self,
        doc: &Value,
        first: usize,
        skins: usize,
        accessors: usize,
    ) -> Result<(), UndoError> {
        let edited = |s: String| Err(UndoError::Edited(s));
        let node = |i: usize| doc.get("nodes").and_then(|n| n.get(i));
        let last_child = node(self.attachment)
            .and_then(|n| n.get("children"))
            .and_then(Value::as_array)
            .and_then(|c| c.last())
            .and_then(Value::as_u64);
        if last_child != u64::try_from(first).ok() {
            return edited(format!(
                "node {}'s last child is no longer the chain's first node {first}",
                self.attachment
            ));
        }
        let skin = node(self.mesh_node)
            .and_then(|n| n.get("skin"))
            .and_then(Value::as_u64);
        if skin.is_none() || skin != skins.checked_sub(1).and_then(|s| u64::try_from(s).ok()) {
            return edited(format!(
                "node {} is no longer skinned with the fitted skin {}",
                self.mesh_node,
                skins.saturating_sub(1)
            ));
        }
        let prims = doc
            .get("meshes")
            .and_then(|m| m.get(self.mesh))
            .and_then(|m| m.get("primitives"))
            .and_then(Value::as_array);
        if prims.map(Vec::len) != Some(self.attributes.len()) {
            return edited(format!(
                "mesh {} no longer has the {} primitives the fit weighted",
                self.mesh,
                self.attributes.len()
            ));
        }
        for (i, p) in prims.into_iter().flatten().enumerate() {
            let fitted = |k: &str| {
                p.pointer(&format!("/attributes/{k}"))
                    .and_then(Value::as_u64)
                    .and_then(|a| usize::try_from(a).ok())
                    .is_some_and(|a| a >= accessors)
            };
            if !(fitted("JOINTS_0") && fitted("WEIGHTS_0")) {
                return edited(format!(
                    "mesh {} primitive {i} no longer uses the fitted weights",
                    self.mesh
                ));
            }
        }
        let chain_root = doc
            .pointer("/extensions/VRMC_springBone/springs")
            .and_then(Value::as_array)
            .and_then(|s| s.last())
            .and_then(|s| s.pointer("/joints/0/node"))
            .and_then(Value::as_u64);
        if chain_root != u64::try_from(first).ok() {
            return edited(
                "the last spring in VRMC_springBone is no longer the fitted chain".into(),
            );
        }
        Ok(())
    }
}

/// The saved `extras` and the record stack in it. An empty stack is left in
/// the saved value, so it comes back as it was.
fn split_extras(extras: Option<Value>) -> Result<(Option<Value>, Vec<Value>), String> {
    let Some(Value::Object(mut m)) = extras else {
        return Ok((extras, Vec::new()));
    };
    let stack = match m.remove(KEY) {
        None => Vec::new(),
        Some(Value::Array(a)) if !a.is_empty() => a,
        Some(Value::Array(a)) => {
            m.insert(KEY.into(), Value::Array(a));
            Vec::new()
        }
        Some(_) => {
            return Err(format!(
                "`extras.{KEY}` is not a list of fit records (rename or remove it)"
            ));
        }
    };
    Ok((Some(Value::Object(m)), stack))
}

/// Writes `v` under `key`, or nothing when it is absent.
fn put(r: &mut Map<String, Value>, key: &str, v: Option<&Value>) {
    if let Some(v) = v {
        r.insert(key.to_owned(), v.clone());
    }
}

/// Sets `key` to `v`, or removes it when `v` is absent.
fn set(m: &mut Map<String, Value>, key: &str, v: Option<Value>) {
    match v {
        Some(v) => m.insert(key.to_owned(), v),
        None => m.remove(key),
    };
}

/// An index field of the record.
fn index(r: &Map<String, Value>, key: &str) -> Result<usize, String> {
    r.get(key)
        .and_then(Value::as_u64)
        .and_then(|i| usize::try_from(i).ok())
        .ok_or_else(|| format!("`{key}` is missing or not an index"))
}

/// A `[before, after]` pair; `before` may be `null` when `absent_ok`.
fn before_after(v: &Value, field: &str, absent_ok: bool) -> Result<(Option<usize>, usize), String> {
    let n = |v: &Value| v.as_u64().and_then(|n| usize::try_from(n).ok());
    match v.as_array().map(Vec::as_slice) {
        Some([b, a]) => {
            let after = n(a).ok_or_else(|| format!("`{field}`'s length after is not a count"))?;
            let before = match b {
                Value::Null if absent_ok => None,
                b => Some(n(b).ok_or_else(|| format!("`{field}`'s length before is not a count"))?),
            };
            Ok((before, after))
        }
        _ => Err(format!("`{field}` is not a [before, after] pair")),
    }
}
