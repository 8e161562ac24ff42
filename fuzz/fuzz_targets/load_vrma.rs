//! Raw bytes as an animation file (`.vrma`, glTF, or a BVH the bytes
//! reveal), through `anim::source::load_bytes_with`, the entry
//! `TressAvatar.load_animations` uses, then sampled and retargeted.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "common/clip.rs"]
mod clip;

fuzz_target!(|data: &[u8]| {
    let no_buffers = |uri: &str| Err(format!("no external buffers here ({uri})"));
    if let Ok(source) = tress_rig::anim::source::load_bytes_with(data, "clip.vrma", no_buffers) {
        clip::exercise(&source);
    }
});
