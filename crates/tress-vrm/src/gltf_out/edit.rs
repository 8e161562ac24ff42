//! Editing a GLB's own glTF document in place: appended accessors and
//! animations, everything else in the file copied untouched (textures,
//! materials, morph targets and extensions that `model::Avatar` does not
//! hold survive). Used by `tress fit` and `tress export`.

use serde_json::json;

use super::channel::{ChannelData, channel_data};
use super::glb::{FLOAT, array, close, f32_bytes, open, push_accessor};
use crate::model::Animation;

/// `original` with `anim` appended to its animations (one sampler per
/// channel). Channel nodes index the file's own nodes.
///
/// # Errors
/// A message when the file is not an embedded-buffer GLB or a channel names
/// a node the file does not have.
pub fn append_animation(original: &[u8], anim: &Animation) -> Result<Vec<u8>, String> {
    let (mut doc, mut bin) = open(original)?;
    let nodes = doc["nodes"].as_array().map_or(0, Vec::len);
    let mut samplers = Vec::new();
    let mut channels = Vec::new();
    for c in &anim.channels {
        if c.node >= nodes {
            return Err(format!(
                "channel on node {} but the file has {nodes} nodes",
                c.node
            ));
        }
        let ChannelData {
            path,
            values: data,
            ty,
            width,
            interpolation,
        } = channel_data(c);
        let input = push_accessor(
            &mut doc,
            &mut bin,
            &f32_bytes(c.times.iter().copied()),
            FLOAT,
            c.times.len(),
            "SCALAR",
            None,
        );
        // glTF requires the input accessor's bounds.
        let lo = c.times.first().copied().unwrap_or(0.0);
        let hi = c.times.last().copied().unwrap_or(0.0);
        doc["accessors"][input]["min"] = json!([lo]);
        doc["accessors"][input]["max"] = json!([hi]);
        let output = push_accessor(
            &mut doc,
            &mut bin,
            &f32_bytes(data.iter().copied()),
            FLOAT,
            data.len() / width,
            ty,
            None,
        );
        samplers.push(json!({ "input": input, "output": output, "interpolation": interpolation }));
        channels.push(
            json!({ "sampler": samplers.len() - 1, "target": { "node": c.node, "path": path } }),
        );
    }
    array(&mut doc, "animations")
        .push(json!({ "name": anim.name, "samplers": samplers, "channels": channels }));
    Ok(close(doc, bin))
}
