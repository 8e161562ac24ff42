//! Raw bytes as a BVH file, through `anim::bvh::load` (read, skeleton,
//! humanoid by name or structure), then sampled and retargeted.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "common/clip.rs"]
mod clip;

fuzz_target!(|data: &[u8]| {
    if let Ok(c) = tress_rig::anim::bvh::load(data, "clip.bvh") {
        clip::exercise(&c.avatar);
    }
});
