//! The golden digests exported from WebAssembly (see Cargo.toml).
#![no_std]

/// The spring scene's digest (`tress_golden::spring_digest`).
#[unsafe(no_mangle)]
pub extern "C" fn tress_spring_digest() -> u64 {
    tress_golden::spring_digest()
}

/// The strand scene's digest (`tress_golden::strand_digest`).
#[unsafe(no_mangle)]
pub extern "C" fn tress_strand_digest() -> u64 {
    tress_golden::strand_digest()
}

#[panic_handler]
fn panic(_info: &core::panic::PanicInfo) -> ! {
    core::arch::wasm32::unreachable()
}
