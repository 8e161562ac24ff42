//! Raw bytes as a `.tfx` groom, through `groom::read_any_with_warnings` (the
//! entry `TressStrandHair` uses; the bytes choose the reader first, so this
//! also reaches the format sniffing) and then resampling.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "common/groom.rs"]
mod groom;

fuzz_target!(|data: &[u8]| groom::exercise("groom.tfx", data));
