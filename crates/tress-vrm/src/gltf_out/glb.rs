//! The GLB container and the document-editing primitives every writer
//! shares: open a GLB's own document, append accessors, seal and pack it.

use serde_json::{Value, json};

/// glTF `componentType` of `f32`.
pub const FLOAT: u32 = 5126;

/// Appends `bytes` as a buffer view and an accessor; returns the accessor.
pub fn push_accessor(
    doc: &mut Value,
    bin: &mut Vec<u8>,
    bytes: &[u8],
    component: u32,
    count: usize,
    ty: &str,
    target: Option<u32>,
) -> usize {
    // glTF wants every view 4-byte aligned.
    while !bin.len().is_multiple_of(4) {
        bin.push(0);
    }
    let mut view = json!({ "buffer": 0, "byteOffset": bin.len(), "byteLength": bytes.len() });
    if let Some(t) = target {
        view["target"] = json!(t);
    }
    bin.extend_from_slice(bytes);
    let views = array(doc, "bufferViews");
    views.push(view);
    let view_index = views.len() - 1;
    let accessors = array(doc, "accessors");
    accessors.push(
        json!({ "bufferView": view_index, "componentType": component,
        "count": count, "type": ty }),
    );
    accessors.len() - 1
}

/// `doc[key]` as an array, created when absent.
pub fn array<'a>(doc: &'a mut Value, key: &str) -> &'a mut Vec<Value> {
    if !doc[key].is_array() {
        doc[key] = json!([]);
    }
    doc[key].as_array_mut().expect("just made an array")
}

/// Little-endian bytes of `v`.
pub fn f32_bytes(v: impl IntoIterator<Item = f32>) -> Vec<u8> {
    v.into_iter().flat_map(f32::to_le_bytes).collect()
}

/// The document and binary chunk of a GLB whose buffer 0 is embedded.
///
/// # Errors
/// A message when the bytes are not such a GLB.
pub fn open(original: &[u8]) -> Result<(Value, Vec<u8>), String> {
    if !original.starts_with(b"glTF") {
        return Err("not a GLB container".into());
    }
    let glb = gltf::Glb::from_slice(original).map_err(|e| e.to_string())?;
    let doc: Value = serde_json::from_slice(&glb.json).map_err(|e| e.to_string())?;
    if let Some(b) = doc.pointer("/buffers/0")
        && b.get("uri").is_some()
    {
        return Err("buffer 0 refers to an external file".into());
    }
    Ok((doc, glb.bin.map(|b| b.into_owned()).unwrap_or_default()))
}

/// Pads the binary chunk, records its length and packs the GLB.
pub fn close(mut doc: Value, mut bin: Vec<u8>) -> Vec<u8> {
    seal(&mut doc, &mut bin);
    to_glb(&doc, &bin)
}

/// Pads the binary chunk and records its length in buffer 0 (created when
/// absent): the document as [`close`] packs it, for writers that note what
/// the file holds before packing.
pub fn seal(doc: &mut Value, bin: &mut Vec<u8>) {
    while !bin.len().is_multiple_of(4) {
        bin.push(0);
    }
    let buffers = array(doc, "buffers");
    if buffers.is_empty() {
        buffers.push(json!({}));
    }
    buffers[0]["byteLength"] = json!(bin.len());
}

/// `doc` and `bin` packed as they are (no padding of `bin`, no buffer
/// length set).
pub fn to_glb(doc: &Value, bin: &[u8]) -> Vec<u8> {
    let mut json_bytes = serde_json::to_vec(doc).expect("JSON values always serialise");
    while !json_bytes.len().is_multiple_of(4) {
        json_bytes.push(b' ');
    }
    let len = |n: usize| u32::try_from(n).expect("GLB sections are under 4 GiB");
    let total = 12 + 8 + json_bytes.len() + 8 + bin.len();
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&len(total).to_le_bytes());
    out.extend_from_slice(&len(json_bytes.len()).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&json_bytes);
    out.extend_from_slice(&len(bin.len()).to_le_bytes());
    out.extend_from_slice(b"BIN\0");
    out.extend_from_slice(bin);
    out
}
