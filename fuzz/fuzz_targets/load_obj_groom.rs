//! Raw bytes as an OBJ polyline groom, through `groom::read_any_with_warnings`
//! and then resampling, as `TressStrandHair` loads one.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "common/groom.rs"]
mod groom;

fuzz_target!(|data: &[u8]| groom::exercise("groom.obj", data));
