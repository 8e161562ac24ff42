//! One small spring world, stepped forever (see Cargo.toml).
#![no_std]
#![no_main]

use core::hint::black_box;
use core::mem::MaybeUninit;
use tress_core::collide::Collider;
use tress_core::math::{Quat, Vec3};
use tress_core::spring::{ChainDesc, JointDesc, JointOutput, Pose, SpringWorld};

/// A SpringWorld at the default capacities, never used: its section's size
/// is the RAM such a world takes on this target.
#[unsafe(link_section = ".tress_world")]
static DEFAULT_WORLD: MaybeUninit<SpringWorld> = MaybeUninit::uninit();

#[unsafe(no_mangle)]
pub extern "C" fn _start() -> ! {
    black_box(&DEFAULT_WORLD);
    let mut w = SpringWorld::<4, 1, 1, 1>::default();
    let head = w
        .add_frame(Pose::new(Vec3::new(0.0, 1.6, 0.0), Quat::IDENTITY))
        .unwrap();
    w.add_collider(head, Collider::sphere(Vec3::ZERO, 0.1))
        .unwrap();
    let joint = JointDesc {
        offset: Vec3::new(0.0, -0.05, 0.0),
        ..JointDesc::default()
    };
    let chain = ChainDesc {
        frame: head,
        ..ChainDesc::default()
    };
    w.add_chain(chain, &[joint; 4]).unwrap();
    let mut out = [JointOutput::default(); 4];
    loop {
        w.set_frame_pose(head, black_box(Pose::new(Vec3::Y, Quat::IDENTITY)));
        w.advance(black_box(1.0 / 60.0));
        let n = w.outputs(0, &mut out);
        black_box(&out[..n]);
    }
}

#[panic_handler]
fn panic(_info: &core::panic::PanicInfo) -> ! {
    loop {}
}
