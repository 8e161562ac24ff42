//! A no_std consumer of tress-core (see Cargo.toml for why it exists).
#![no_std]

use tress_core::math::{Vec3, ops};

/// Exercises the core so its code is really linked, not just type-checked.
#[unsafe(no_mangle)]
pub extern "C" fn tress_no_std_probe(x: f32) -> f32 {
    let v = Vec3::new(x, ops::sin(x), ops::sqrt(ops::abs(x)));
    v.length()
}

#[panic_handler]
fn panic(_info: &core::panic::PanicInfo) -> ! {
    loop {}
}
