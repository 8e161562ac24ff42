//! After set-up, a frame through the C ABI allocates nothing: frame poses,
//! advance and output reads for a spring avatar, a hand-built spring world
//! and a strand groom, counted by a global allocator on this thread.

// The test calls the C ABI as C would, and a global allocator is unsafe.
#![allow(unsafe_code)]

use core::alloc::{GlobalAlloc, Layout};
use core::cell::Cell;
use std::alloc::System;

use tress_ffi::*;

/// Counts allocations made on a thread while it is armed.
struct Counting;

thread_local! {
    static ARMED: Cell<bool> = const { Cell::new(false) };
    static COUNT: Cell<u64> = const { Cell::new(0) };
}

fn note() {
    // `try_with`: the allocator also runs while thread-locals are torn down.
    let _ = ARMED.try_with(|a| {
        if a.get() {
            let _ = COUNT.try_with(|c| c.set(c.get() + 1));
        }
    });
}

// SAFETY: every call is passed straight to `System`; only a counter is added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note();
        // SAFETY: the caller's layout, passed on.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note();
        // SAFETY: as above.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, p: *mut u8, layout: Layout, new: usize) -> *mut u8 {
        note();
        // SAFETY: as above.
        unsafe { System.realloc(p, layout, new) }
    }
    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(p, layout) }
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// Allocations `f` makes on this thread.
fn allocations(f: impl FnOnce()) -> u64 {
    COUNT.with(|c| c.set(0));
    ARMED.with(|a| a.set(true));
    f();
    ARMED.with(|a| a.set(false));
    COUNT.with(Cell::get)
}

fn ok(s: TressStatus) {
    assert_eq!(s, TressStatus::Ok, "{:?}", last_error());
}

fn last_error() -> String {
    // SAFETY: tress_last_error returns a NUL-terminated thread-local string.
    unsafe { core::ffi::CStr::from_ptr(tress_last_error()) }
        .to_string_lossy()
        .into_owned()
}

fn asset(name: &str) -> Vec<u8> {
    let path = format!("{}/../../assets/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn yaw(i: u32) -> TressQuat {
    let a = 0.5 * tress_core::math::ops::sin(i as f32 * 0.05);
    let (s, c) = tress_core::math::ops::sin_cos(a);
    TressQuat {
        x: 0.0,
        y: s,
        z: 0.0,
        w: c,
    }
}

fn avatar_frames_do_not_allocate() {
    let bytes = asset("tress_avatar.vrm");
    let mut av = TressAvatar::default();
    // SAFETY: `bytes` is a live slice of `len` bytes.
    ok(unsafe { tress_avatar_load(bytes.as_ptr(), bytes.len(), None, Some(&mut av)) });
    let (mut frames, mut chains, mut head) = (0, 0, 0);
    ok(tress_avatar_frame_count(av, Some(&mut frames)));
    ok(tress_avatar_chain_count(av, Some(&mut chains)));
    // SAFETY: a NUL-terminated literal.
    ok(unsafe { tress_avatar_find_frame(av, c"Head".as_ptr(), Some(&mut head)) });
    let mut rest = vec![TressPose::default(); frames as usize];
    for (f, p) in rest.iter_mut().enumerate() {
        ok(tress_avatar_rest_pose(av, f as u32, Some(p)));
    }
    let mut out = vec![TressJointOutput::default(); TRESS_MAX_JOINTS as usize];
    let mut frame = |i: u32| {
        let mut pose = rest[head as usize];
        pose.rotation = yaw(i);
        ok(tress_avatar_set_frame_pose(av, head, Some(&pose)));
        let mut substeps = 0;
        ok(tress_avatar_advance(av, 1.0 / 60.0, Some(&mut substeps)));
        for c in 0..chains {
            let mut n = 0;
            // SAFETY: `out` holds `out.len()` outputs.
            ok(unsafe { tress_avatar_outputs(av, c, out.as_mut_ptr(), out.len(), Some(&mut n)) });
        }
    };
    frame(0);
    let n = allocations(|| (1..=240).for_each(&mut frame));
    assert_eq!(n, 0, "240 avatar frames allocated {n} times");
    ok(tress_avatar_destroy(av));
}

fn spring_world_frames_do_not_allocate() {
    let mut w = TressSpringWorld::default();
    ok(tress_spring_create(None, None, Some(&mut w)));
    let pose = TressPose {
        position: TressVec3 {
            x: 0.0,
            y: 1.5,
            z: 0.0,
        },
        rotation: TressQuat::default(),
    };
    let mut frame = 0;
    ok(tress_spring_add_frame(w, Some(&pose), Some(&mut frame)));
    let sphere = TressCollider {
        shape: TressShape::Sphere as u32,
        radius: 0.1,
        ..TressCollider::default()
    };
    ok(tress_spring_add_collider(w, frame, Some(&sphere), None));
    let joints = [TressJointDesc {
        local_rotation: TressQuat::default(),
        offset: TressVec3 {
            x: 0.0,
            y: -0.05,
            z: 0.08,
        },
        params: TressJointParams::default(),
        ..TressJointDesc::default()
    }; 6];
    for contact in [TressContact::Tail, TressContact::Segment] {
        let desc = TressChainDesc {
            contact: contact as u32,
            ..TressChainDesc::default()
        };
        // SAFETY: `joints` holds 6 descriptions.
        ok(unsafe { tress_spring_add_chain(w, Some(&desc), joints.as_ptr(), 6, None) });
    }
    let mut out = [TressJointOutput::default(); 6];
    let mut step = |i: u32| {
        let p = TressPose {
            rotation: yaw(i),
            ..pose
        };
        ok(tress_spring_set_frame_pose(w, frame, Some(&p)));
        ok(tress_spring_advance(w, 1.0 / 60.0, None));
        for c in 0..2 {
            // SAFETY: `out` holds 6 outputs.
            ok(unsafe { tress_spring_outputs(w, c, out.as_mut_ptr(), 6, None) });
        }
    };
    step(0);
    let n = allocations(|| (1..=240).for_each(&mut step));
    assert_eq!(n, 0, "240 spring frames allocated {n} times");
    ok(tress_spring_destroy(w));
}

fn strand_frames_do_not_allocate() {
    let bytes = asset("tress_groom.tfx");
    let mut s = TressStrands::default();
    let opts = TressStrandOptions {
        particles: 16,
        threads: 1,
        ..TressStrandOptions::default()
    };
    // SAFETY: a NUL-terminated literal and a live byte slice.
    ok(unsafe {
        tress_strands_load(
            c"tress_groom.tfx".as_ptr(),
            bytes.as_ptr(),
            bytes.len(),
            Some(&opts),
            Some(&mut s),
        )
    });
    let (mut strands, mut particles) = (0, 0);
    ok(tress_strands_counts(
        s,
        Some(&mut strands),
        Some(&mut particles),
    ));
    let head = [TressCollider {
        shape: TressShape::Sphere as u32,
        radius: 0.09,
        ..TressCollider::default()
    }];
    // SAFETY: one collider.
    ok(unsafe { tress_strands_set_head_colliders(s, head.as_ptr(), 1) });
    let n = (strands * particles) as usize;
    let mut pos = vec![TressVec3::default(); n];
    let mut tan = vec![TressVec3::default(); n];
    // Two render strands per simulated one, drawn from the guide texture
    // and placed on the CPU too.
    let mut renders = 0;
    ok(tress_strands_follow(s, 2, 7, Some(&mut renders)));
    let (mut per, mut guides) = (0, 0);
    ok(tress_strands_guide_texture_size(
        s,
        Some(&mut per),
        Some(&mut guides),
    ));
    let mut texels = vec![0.0f32; (per * guides * 4) as usize];
    let mut points = vec![TressVec3::default(); renders as usize * particles as usize];
    let mut frame = |i: u32| {
        let p = TressPose {
            rotation: yaw(i),
            ..TressPose::default()
        };
        ok(tress_strands_set_head_pose(s, Some(&p)));
        ok(tress_strands_advance(s, 1.0 / 60.0, None));
        // SAFETY: both buffers hold `n` vectors.
        ok(unsafe { tress_strands_positions(s, pos.as_mut_ptr(), n, None) });
        // SAFETY: as above.
        ok(unsafe { tress_strands_tangents(s, tan.as_mut_ptr(), n, None) });
        // SAFETY: each buffer holds the length passed.
        ok(unsafe { tress_strands_guide_texels(s, texels.as_mut_ptr(), texels.len(), None) });
        // SAFETY: as above.
        ok(unsafe { tress_strands_follow_points(s, points.as_mut_ptr(), points.len(), None) });
    };
    frame(0);
    let count = allocations(|| (1..=60).for_each(&mut frame));
    assert_eq!(count, 0, "60 strand frames allocated {count} times");
    assert!(pos.iter().all(|p| p.x.is_finite() && p.y.is_finite()));
    ok(tress_strands_destroy(s));
}

/// One test, so no other test's thread shares the counts' timing.
#[test]
fn frames_after_set_up_do_not_allocate() {
    // The counter itself works.
    assert!(allocations(|| drop(Box::new(1u8))) > 0);
    avatar_frames_do_not_allocate();
    spring_world_frames_do_not_allocate();
    strand_frames_do_not_allocate();
    // An error path may allocate (its message), but must not fail.
    let bad = allocations(|| {
        assert_eq!(
            tress_spring_advance(TressSpringWorld::default(), 0.0, None),
            TressStatus::NullHandle
        );
    });
    assert!(bad > 0, "the error message is stored");
}
