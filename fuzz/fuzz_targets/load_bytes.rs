//! Raw bytes straight into the loader: GLB container, JSON text, anything.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // Must return Ok or Err; a panic, hang or huge allocation is a finding.
    let _ = tress_vrm::load_bytes(data, None);
});
