//! Both golden digests on bare metal (see Cargo.toml).
#![no_std]
#![no_main]

use core::hint::black_box;

#[unsafe(no_mangle)]
pub extern "C" fn _start() -> ! {
    black_box(tress_golden::spring_digest());
    black_box(tress_golden::strand_digest());
    loop {
        core::hint::spin_loop();
    }
}

#[panic_handler]
fn panic(_info: &core::panic::PanicInfo) -> ! {
    loop {}
}
