//! The reference for `examples/c/hair_tips.c`, through the Rust API
//! (tress-vrm, tress-rig, tress-core; no `tress_*` function): loads the
//! built-in avatar, turns its head for 4 s at 60 fps and prints every
//! chain's tip position as the bits of its three floats.
//!
//! `cargo run -p tress-ffi --example hair_tips [-- PATH.vrm]`
//!
//! The motion uses only `+`, `*` and one normalisation, written the same way
//! in both programs, so the two agree to the bit:
//! yaw(i) = 60° · sin(π i / 60) for frame i = 1..=240, the sine a degree-11
//! Taylor polynomial over (−π, π], the head's rotation yaw × rest.

use tress_core::math::{Pose, Quat, Vec3};
use tress_core::spring::JointOutput;
use tress_rig::spring_rig::{RigOptions, SpringRig};

/// The node the C program turns (`tress_avatar_find_frame`).
const HEAD: &str = "Head";
const FRAMES: u32 = 240;
const DT: f32 = 1.0 / 60.0;
/// π / 60 and 60° in radians (`float` literals in the C program).
const STEP: f32 = 0.052_359_877;
const AMPLITUDE: f32 = core::f32::consts::FRAC_PI_3;

fn sin_poly(x: f32) -> f32 {
    let x2 = x * x;
    x * (1.0
        + x2 * (-0.166_666_67
            + x2 * (0.008_333_333
                + x2 * (-0.000_198_412_7 + x2 * (2.755_731_9e-6 + x2 * -2.505_210_8e-8)))))
}

fn cos_poly(x: f32) -> f32 {
    let x2 = x * x;
    1.0 + x2 * (-0.5 + x2 * (0.041_666_668 + x2 * (-0.001_388_888_9 + x2 * 2.480_158_7e-5)))
}

/// `a * b` as four sums of products in a fixed order (C does the same).
fn mul(a: [f32; 4], b: [f32; 4]) -> [f32; 4] {
    let [ax, ay, az, aw] = a;
    let [bx, by, bz, bw] = b;
    [
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
        aw * bw - ax * bx - ay * by - az * bz,
    ]
}

/// The head's rotation at frame `i`, not yet normalised.
fn head_rotation(i: u32, rest: Quat) -> [f32; 4] {
    let mut k = (i % 120) as i32;
    if k > 60 {
        k -= 120;
    }
    let yaw = AMPLITUDE * sin_poly(k as f32 * STEP);
    let half = yaw * 0.5;
    let turn = [0.0, sin_poly(half), 0.0, cos_poly(half)];
    mul(turn, [rest.x, rest.y, rest.z, rest.w])
}

fn main() {
    let path = std::env::args().nth(1).unwrap_or_else(|| {
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/tress_avatar.vrm").to_owned()
    });
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    let avatar = tress_vrm::load_bytes(&bytes, None).expect("the avatar loads");
    let mut rig = SpringRig::build(&avatar, &RigOptions::default()).expect("the avatar rigs");
    let node = avatar
        .nodes
        .iter()
        .position(|n| n.name == HEAD)
        .expect("a node named Head");
    let head = rig
        .frame_nodes
        .iter()
        .position(|&n| n == Some(node))
        .expect("the head is a frame");
    let rest = rig.rest_poses(&avatar);
    rig.set_frame_poses(&rest);
    for i in 1..=FRAMES {
        let [x, y, z, w] = head_rotation(i, rest[head].rot);
        let rot = tress_core::math::quat::normalize(Quat::from_xyzw(x, y, z, w));
        rig.world
            .set_frame_pose(head, Pose::new(rest[head].pos, rot));
        rig.advance(DT);
    }
    let longest = rig.chains.iter().map(|c| c.nodes.len()).max().unwrap_or(0);
    let mut out = vec![JointOutput::default(); longest];
    println!("tips {}", rig.chains.len());
    for c in 0..rig.chains.len() {
        let n = rig.outputs_into(c, &mut out);
        let tip: Vec3 = out[n - 1].tail;
        println!(
            "chain {c} tip {:08x} {:08x} {:08x}",
            tip.x.to_bits(),
            tip.y.to_bits(),
            tip.z.to_bits()
        );
    }
}
