//! The C ABI does what the Rust API does: the same world through both gives
//! the same bits, every collider shape is accepted, sampled advance reaches
//! the core's `advance_sampled`, and the avatar and strand look-ups agree
//! with the loaded files.

// The test calls the C ABI as C would.
#![allow(unsafe_code)]

use core::ffi::c_void;

use tress_core::collide::Collider;
use tress_core::math::{Pose, Quat, Vec3};
use tress_core::spring::{ChainDesc, ContactMode, JointDesc, JointOutput, Mode, StepConfig};
use tress_ffi::*;
use tress_rig::spring_rig::AvatarWorld;

fn ok(s: TressStatus) {
    // SAFETY: tress_last_error returns a NUL-terminated thread-local string.
    let msg = unsafe { core::ffi::CStr::from_ptr(tress_last_error()) };
    assert_eq!(s, TressStatus::Ok, "{msg:?}");
}

fn v(x: f32, y: f32, z: f32) -> TressVec3 {
    TressVec3 { x, y, z }
}

fn colliders() -> Vec<TressCollider> {
    let c = |shape: TressShape, offset, tail, normal, radius| TressCollider {
        shape: shape as u32,
        offset,
        tail,
        normal,
        radius,
    };
    vec![
        c(
            TressShape::Sphere,
            v(0.0, -0.1, 0.1),
            v(0.0, 0.0, 0.0),
            v(0.0, 1.0, 0.0),
            0.08,
        ),
        c(
            TressShape::Capsule,
            v(-0.1, -0.3, 0.05),
            v(0.1, -0.3, 0.05),
            v(0.0, 1.0, 0.0),
            0.06,
        ),
        c(
            TressShape::Plane,
            v(0.0, -0.5, 0.0),
            v(0.0, 0.0, 0.0),
            v(0.0, 1.0, 0.2),
            0.0,
        ),
        c(
            TressShape::InsideSphere,
            v(0.0, 0.0, 0.0),
            v(0.0, 0.0, 0.0),
            v(0.0, 1.0, 0.0),
            1.0,
        ),
        c(
            TressShape::InsideCapsule,
            v(0.0, 0.5, 0.0),
            v(0.0, -1.0, 0.0),
            v(0.0, 1.0, 0.0),
            0.8,
        ),
    ]
}

fn joint(i: usize) -> TressJointDesc {
    TressJointDesc {
        local_rotation: Quat::from_rotation_x(0.1 * i as f32).into(),
        offset: v(0.0, -0.06, 0.02),
        params: TressJointParams {
            stiffness: 400.0,
            damping: 25.0,
            ..TressJointParams::default()
        },
        ..TressJointDesc::default()
    }
}

fn motion(i: u32) -> Pose {
    let t = i as f32 / 60.0;
    Pose::new(
        Vec3::new(0.05 * tress_core::math::ops::sin(3.0 * t), 1.5, 0.0),
        Quat::from_rotation_y(0.8 * tress_core::math::ops::sin(2.0 * t)),
    )
}

/// The same world through the core, for comparison.
fn core_world() -> Box<AvatarWorld> {
    let mut w = Box::new(AvatarWorld::new(StepConfig::default()));
    let f = w.add_frame(motion(0)).unwrap();
    for c in colliders() {
        let kind = [
            tress_core::collide::ShapeKind::Sphere,
            tress_core::collide::ShapeKind::Capsule,
            tress_core::collide::ShapeKind::Plane,
            tress_core::collide::ShapeKind::InsideSphere,
            tress_core::collide::ShapeKind::InsideCapsule,
        ][c.shape as usize];
        let p = |v: TressVec3| Vec3::new(v.x, v.y, v.z);
        w.add_collider(
            f,
            Collider {
                kind,
                offset: p(c.offset),
                tail: p(c.tail),
                normal: p(c.normal),
                radius: c.radius,
            },
        )
        .unwrap();
    }
    for (mode, contact) in [
        (Mode::Improved, ContactMode::Segment),
        (Mode::Earlier, ContactMode::Tail),
        (Mode::VrmCompatible, ContactMode::Tail),
    ] {
        let joints: Vec<JointDesc> = (0..5)
            .map(|i| {
                let j = joint(i);
                let q = j.local_rotation;
                JointDesc {
                    local_rot: tress_core::math::quat::normalize(Quat::from_xyzw(
                        q.x, q.y, q.z, q.w,
                    )),
                    offset: Vec3::new(j.offset.x, j.offset.y, j.offset.z),
                    params: tress_core::spring::JointParams {
                        stiffness: 400.0,
                        damping: 25.0,
                        ..Default::default()
                    }
                    .sanitized(),
                    ..JointDesc::default()
                }
            })
            .collect();
        let desc = ChainDesc {
            mode,
            contact,
            ..ChainDesc::default()
        };
        w.add_chain(desc, &joints).unwrap();
    }
    w
}

fn ffi_world() -> TressSpringWorld {
    let mut w = TressSpringWorld::default();
    let caps = TressSpringCapacity {
        joints: 15,
        chains: 3,
        colliders: 5,
        frames: 1,
    };
    ok(tress_spring_create(Some(&caps), None, Some(&mut w)));
    let mut f = 0;
    ok(tress_spring_add_frame(
        w,
        Some(&motion(0).into()),
        Some(&mut f),
    ));
    for (i, c) in colliders().iter().enumerate() {
        let mut index = 99;
        ok(tress_spring_add_collider(w, f, Some(c), Some(&mut index)));
        assert_eq!(index as usize, i);
    }
    for (mode, contact) in [
        (TressMode::Improved, TressContact::Segment),
        (TressMode::Earlier, TressContact::Tail),
        (TressMode::VrmCompatible, TressContact::Tail),
    ] {
        let joints: Vec<TressJointDesc> = (0..5).map(joint).collect();
        let desc = TressChainDesc {
            mode: mode as u32,
            contact: contact as u32,
            ..TressChainDesc::default()
        };
        // SAFETY: `joints` holds 5 descriptions.
        ok(unsafe { tress_spring_add_chain(w, Some(&desc), joints.as_ptr(), 5, None) });
    }
    w
}

fn ffi_outputs(w: TressSpringWorld) -> Vec<TressJointOutput> {
    let mut all = Vec::new();
    for c in 0..3 {
        let mut out = [TressJointOutput::default(); 5];
        let mut n = 0;
        // SAFETY: `out` holds 5 outputs.
        ok(unsafe { tress_spring_outputs(w, c, out.as_mut_ptr(), 5, Some(&mut n)) });
        assert_eq!(n, 5);
        all.extend_from_slice(&out);
    }
    all
}

fn core_outputs(w: &AvatarWorld) -> Vec<TressJointOutput> {
    let mut all = Vec::new();
    for c in 0..3 {
        let mut out = [JointOutput::default(); 5];
        assert_eq!(w.outputs(c, &mut out), 5);
        all.extend(out.iter().map(|o| TressJointOutput::from(*o)));
    }
    all
}

#[test]
fn a_world_through_the_abi_matches_the_core_bit_for_bit() {
    let mut core = core_world();
    let w = ffi_world();
    // Capacities given at creation are enforced.
    ok(tress_spring_set_teleport_distance(w, 0.5));
    core.set_config(StepConfig {
        teleport_distance: 0.5,
        ..core.config()
    });
    for i in 1..=180 {
        let p = motion(i);
        core.set_frame_pose(0, p);
        core.advance(1.0 / 60.0);
        ok(tress_spring_set_frame_pose(w, 0, Some(&p.into())));
        let mut substeps = 0;
        ok(tress_spring_advance(w, 1.0 / 60.0, Some(&mut substeps)));
        assert_eq!(substeps, 2);
        if i == 90 {
            // Run-time edits go through too.
            let p = TressJointParams {
                stiffness: 200.0,
                damping: 20.0,
                ..TressJointParams::default()
            };
            ok(tress_spring_set_chain_params(w, 0, Some(&p)));
            core.set_chain_params(
                0,
                tress_core::spring::JointParams {
                    stiffness: 200.0,
                    damping: 20.0,
                    ..Default::default()
                }
                .sanitized(),
            )
            .unwrap();
            ok(tress_spring_set_chain_mode(
                w,
                1,
                TressMode::Improved as u32,
                TressContact::Segment as u32,
            ));
            let mut d = core.chain_desc(1).unwrap();
            d.mode = Mode::Improved;
            d.contact = ContactMode::Segment;
            core.set_chain_desc(1, d).unwrap();
        }
    }
    let (a, b) = (ffi_outputs(w), core_outputs(&core));
    assert!(a.iter().all(|o| o.tail.x.is_finite()));
    assert_eq!(a, b);
    let mut extra = TressJointDesc::default();
    extra.offset.y = -0.1;
    // SAFETY: one description.
    let s = unsafe { tress_spring_add_chain(w, Some(&TressChainDesc::default()), &extra, 1, None) };
    assert_eq!(s, TressStatus::CapacityExceeded);
    ok(tress_spring_reset(w));
    ok(tress_spring_destroy(w));
}

#[test]
fn a_band_link_reaches_the_core_bit_for_bit_and_bad_links_are_refused() {
    let mut core = core_world();
    let w = ffi_world();
    // Chains 0 (Improved) and 1 (Earlier) hang from the one frame.
    ok(tress_spring_add_band_link(w, 0, 1, 0.05));
    core.add_band_link(tress_core::spring::BandLink::new(0, 1, 0.05))
        .unwrap();
    let unlinked = ffi_world();
    for i in 1..=120 {
        let p = motion(i);
        core.set_frame_pose(0, p);
        core.advance(1.0 / 60.0);
        for world in [w, unlinked] {
            ok(tress_spring_set_frame_pose(world, 0, Some(&p.into())));
            ok(tress_spring_advance(world, 1.0 / 60.0, None));
        }
    }
    let linked = ffi_outputs(w);
    assert_eq!(linked, core_outputs(&core));
    assert_ne!(linked, ffi_outputs(unlinked), "the link changed nothing");
    let bad = |s: TressStatus| assert_eq!(s, TressStatus::BadIndex);
    bad(tress_spring_add_band_link(w, 0, 0, 0.05));
    bad(tress_spring_add_band_link(w, 0, 9, 0.05));
    bad(tress_spring_add_band_link_sheared(w, 1, 1, 0.05, 0.02));
    ok(tress_spring_destroy(w));
    ok(tress_spring_destroy(unlinked));
}

#[test]
fn a_sheared_band_link_reaches_the_core_bit_for_bit() {
    let mut core = core_world();
    let w = ffi_world();
    let plain = ffi_world();
    // Chain 1 (Earlier) moved 10 cm along x and chain 0's gravity tilted
    // away from it, so that chain 0 leans and shears the quads between them.
    let off = TressVec3 {
        x: 0.1,
        y: 0.0,
        z: 0.0,
    };
    let desc = TressChainDesc {
        mode: TressMode::Earlier as u32,
        contact: TressContact::Tail as u32,
        root_offset: off,
        ..TressChainDesc::default()
    };
    let mut d = core.chain_desc(1).unwrap();
    d.root_offset = Vec3::new(off.x, off.y, off.z);
    core.set_chain_desc(1, d).unwrap();
    let mut lean = joint(0).params;
    lean.gravity.x = -6.0;
    for world in [w, plain] {
        ok(tress_spring_set_chain_desc(world, 1, Some(&desc)));
        for j in 0..5 {
            ok(tress_spring_set_joint_params(world, 0, j, Some(&lean)));
        }
    }
    let core_lean = tress_core::spring::JointParams {
        stiffness: 400.0,
        damping: 25.0,
        gravity: Vec3::new(lean.gravity.x, lean.gravity.y, lean.gravity.z),
        ..Default::default()
    }
    .sanitized();
    for j in 0..5 {
        core.set_joint_params(0, j, core_lean).unwrap();
    }
    ok(tress_spring_add_band_link_sheared(w, 0, 1, 0.0, 0.0));
    ok(tress_spring_add_band_link(plain, 0, 1, 0.0));
    core.add_band_link(tress_core::spring::BandLink {
        shear: Some(0.0),
        ..tress_core::spring::BandLink::new(0, 1, 0.0)
    })
    .unwrap();
    for i in 1..=120 {
        let p = motion(i);
        core.set_frame_pose(0, p);
        core.advance(1.0 / 60.0);
        for world in [w, plain] {
            ok(tress_spring_set_frame_pose(world, 0, Some(&p.into())));
            ok(tress_spring_advance(world, 1.0 / 60.0, None));
        }
    }
    let sheared = ffi_outputs(w);
    assert_eq!(sheared, core_outputs(&core));
    assert_ne!(sheared, ffi_outputs(plain), "the shear changed nothing");
    ok(tress_spring_destroy(w));
    ok(tress_spring_destroy(plain));
}

/// Frame pose at substep `n` of the sampled advance: `motion` at `n / 120` s.
unsafe extern "C" fn sampled(user: *mut c_void, _frame: u32, substep: u64, out: *mut TressPose) {
    let calls = user.cast::<u32>();
    // SAFETY: `user` is the test's counter and `out` the library's pose.
    unsafe {
        *calls += 1;
        *out = motion_at(substep).into();
    }
}

fn motion_at(substep: u64) -> Pose {
    let t = substep as f32 / 120.0;
    Pose::new(
        Vec3::new(0.0, 1.5, 0.0),
        Quat::from_rotation_y(0.8 * tress_core::math::ops::sin(2.0 * t)),
    )
}

#[test]
fn sampled_advance_asks_for_every_substep() {
    let mut core = core_world();
    let w = ffi_world();
    let mut calls = 0u32;
    for _ in 0..60 {
        core.advance_sampled(1.0 / 60.0, |_, n| motion_at(n));
        // SAFETY: `sampled` writes one pose and counts into `calls`.
        ok(unsafe {
            tress_spring_advance_sampled(
                w,
                1.0 / 60.0,
                Some(sampled),
                (&raw mut calls).cast(),
                None,
            )
        });
    }
    // 120 substeps of one frame, plus the first advance's initial pose.
    assert_eq!(calls, 121);
    assert_eq!(ffi_outputs(w), core_outputs(&core));
    ok(tress_spring_destroy(w));
}

#[test]
fn the_avatar_names_its_frames_and_nodes() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/tress_avatar.vrm");
    let bytes = std::fs::read(path).unwrap();
    let avatar = tress_vrm::load_bytes(&bytes, None).unwrap();
    let mut a = TressAvatar::default();
    // SAFETY: a live byte slice.
    ok(unsafe { tress_avatar_load(bytes.as_ptr(), bytes.len(), None, Some(&mut a)) });
    let (mut node, mut frame, mut by_node, mut back) = (0, 0, 0, 0);
    // SAFETY: NUL-terminated literals.
    ok(unsafe { tress_avatar_find_node(a, c"Head".as_ptr(), Some(&mut node)) });
    assert_eq!(avatar.nodes[node as usize].name, "Head");
    // SAFETY: as above.
    ok(unsafe { tress_avatar_find_frame(a, c"Head".as_ptr(), Some(&mut frame)) });
    ok(tress_avatar_frame_of_node(a, node, Some(&mut by_node)));
    ok(tress_avatar_frame_node(a, frame, Some(&mut back)));
    assert_eq!((frame, back), (by_node, node as i32));
    // SAFETY: as above.
    let s = unsafe { tress_avatar_find_frame(a, c"NoSuchBone".as_ptr(), Some(&mut frame)) };
    assert_eq!(s, TressStatus::BadIndex);
    let mut chains = 0;
    ok(tress_avatar_chain_count(a, Some(&mut chains)));
    assert!(chains > 0);
    for c in 0..chains {
        let mut len = 0;
        ok(tress_avatar_chain_length(a, c, Some(&mut len)));
        let mut nodes = vec![0u32; len as usize];
        let mut n = 0;
        // SAFETY: `nodes` holds `len` values.
        ok(unsafe {
            tress_avatar_chain_nodes(a, c, nodes.as_mut_ptr(), nodes.len(), Some(&mut n))
        });
        assert_eq!(n, len as usize);
        assert!(nodes.iter().all(|&n| (n as usize) < avatar.nodes.len()));
    }
    ok(tress_avatar_destroy(a));
}

/// 8 straight strands of 16 points hanging 20 cm from a ring of radius 10 cm.
fn ring_strands() -> TressStrands {
    let mut pts = Vec::new();
    for s in 0..8 {
        let a = s as f32 * core::f32::consts::TAU / 8.0;
        let (sin, cos) = tress_core::math::ops::sin_cos(a);
        for p in 0..16 {
            pts.push(v(0.1 * cos, -0.2 * p as f32 / 15.0, 0.1 * sin));
        }
    }
    let mut s = TressStrands::default();
    // SAFETY: `pts` holds 8 × 16 points.
    ok(unsafe { tress_strands_create(pts.as_ptr(), 8, 16, None, Some(&mut s)) });
    s
}

#[test]
fn strands_from_arrays_follow_the_head() {
    let s = ring_strands();
    let (mut strands, mut particles) = (0, 0);
    ok(tress_strands_counts(
        s,
        Some(&mut strands),
        Some(&mut particles),
    ));
    assert_eq!((strands, particles), (8, 16));
    let body = [TressCollider {
        shape: TressShape::Plane as u32,
        offset: v(0.0, -1.0, 0.0),
        normal: v(0.0, 1.0, 0.0),
        ..TressCollider::default()
    }];
    // SAFETY: one collider.
    ok(unsafe { tress_strands_set_world_colliders(s, body.as_ptr(), 1) });
    let head = TressPose {
        position: v(0.3, 1.5, 0.0),
        rotation: TressQuat::default(),
    };
    ok(tress_strands_set_head_pose(s, Some(&head)));
    for _ in 0..30 {
        ok(tress_strands_advance(s, 1.0 / 60.0, None));
    }
    let mut pos = vec![TressVec3::default(); 128];
    let mut tan = vec![TressVec3::default(); 128];
    // SAFETY: 128 vectors each.
    ok(unsafe { tress_strands_positions(s, pos.as_mut_ptr(), 128, None) });
    // SAFETY: as above.
    ok(unsafe { tress_strands_tangents(s, tan.as_mut_ptr(), 128, None) });
    // Roots ride on the head (the strands' order is the solver's).
    for root in pos.iter().step_by(16) {
        let r = tress_core::math::ops::hypot(root.x - 0.3, root.z);
        assert!(
            (r - 0.1).abs() < 1e-5 && (root.y - 1.5).abs() < 1e-5,
            "{root:?}"
        );
    }
    for t in &tan {
        let l = t.x * t.x + t.y * t.y + t.z * t.z;
        assert!((l - 1.0).abs() < 1e-4, "{t:?}");
    }
    // SAFETY: 127 < 128 entries: refused, nothing written.
    let small = unsafe { tress_strands_positions(s, pos.as_mut_ptr(), 127, None) };
    assert_eq!(small, TressStatus::BufferTooSmall);
    ok(tress_strands_reset(s, None));
    ok(tress_strands_destroy(s));
    assert_eq!(tress_strands_destroy(s), TressStatus::StaleHandle);
}

#[test]
fn render_strands_follow_their_guides_through_the_abi() {
    // Four render strands for each of the ring's 8.
    let s = ring_strands();
    // Nothing to draw before the render strands are made; a ratio out of
    // range is refused.
    let mut texels = vec![0.0f32; 8 * 19 * 4];
    // SAFETY: `texels` holds its length.
    let early = unsafe { tress_strands_guide_texels(s, texels.as_mut_ptr(), texels.len(), None) };
    assert_eq!(early, TressStatus::InvalidArgument);
    for bad in [0, 65] {
        assert_eq!(
            tress_strands_follow(s, bad, 1, None),
            TressStatus::InvalidArgument
        );
    }
    let mut renders = 0;
    ok(tress_strands_follow(s, 4, 1, Some(&mut renders)));
    assert_eq!(renders, 32);
    let (mut per, mut guides) = (0, 0);
    ok(tress_strands_guide_texture_size(
        s,
        Some(&mut per),
        Some(&mut guides),
    ));
    assert_eq!(
        (per, guides),
        (19, 8),
        "16 particles and the root frame per guide"
    );
    // Each render strand copies its own guide (strand g · 4 + q follows g,
    // and its root lies nearest g); the guide's own copy has no offset.
    let mut copy_guide = vec![0u32; 32];
    let mut offset = vec![TressVec3::default(); 32];
    // SAFETY: 32 entries each.
    ok(unsafe {
        tress_strands_follow_copies(s, copy_guide.as_mut_ptr(), offset.as_mut_ptr(), 32, None)
    });
    for (r, &g) in copy_guide.iter().enumerate() {
        assert_eq!(g as usize, r / 4, "render strand {r}");
    }
    for o in offset.iter().step_by(4) {
        assert_eq!((o.x, o.y, o.z), (0.0, 0.0, 0.0));
    }
    let head = TressPose {
        position: v(0.3, 1.5, 0.0),
        rotation: TressQuat {
            x: 0.0,
            y: 0.258_819,
            z: 0.0,
            w: 0.965_926,
        },
    };
    ok(tress_strands_set_head_pose(s, Some(&head)));
    for _ in 0..20 {
        ok(tress_strands_advance(s, 1.0 / 60.0, None));
    }
    let mut pos = vec![TressVec3::default(); 128];
    // SAFETY: 128 vectors.
    ok(unsafe { tress_strands_positions(s, pos.as_mut_ptr(), 128, None) });
    let mut written = 0;
    // SAFETY: `texels` holds its length.
    ok(unsafe {
        tress_strands_guide_texels(s, texels.as_mut_ptr(), texels.len(), Some(&mut written))
    });
    assert_eq!(written, 8 * 19 * 4);
    // The texture holds the simulated particles, bit for bit.
    for (j, p) in pos.iter().enumerate() {
        let t = &texels[((j / 16) * 19 + j % 16) * 4..][..3];
        assert_eq!([p.x, p.y, p.z], [t[0], t[1], t[2]], "particle {j}");
    }
    let mut points = vec![TressVec3::default(); 32 * 16];
    // SAFETY: 512 vectors.
    ok(unsafe { tress_strands_follow_points(s, points.as_mut_ptr(), 512, None) });
    let len = |a: &TressVec3, b: &TressVec3| Vec3::new(a.x - b.x, a.y - b.y, a.z - b.z).length();
    for r in 0..32 {
        let (copy, guide) = (&points[r * 16..][..16], &pos[(r / 4) * 16..][..16]);
        if r % 4 == 0 {
            // The guide's own copy is the guide.
            assert_eq!(copy, guide, "render strand {r}");
        }
        // A copy's segments keep its guide's lengths within the spread's 1 %.
        for k in 1..16 {
            let (lc, lg) = (len(&copy[k], &copy[k - 1]), len(&guide[k], &guide[k - 1]));
            assert!(
                (lc / lg - 1.0).abs() <= 0.0101,
                "render strand {r} segment {k}: {lc} vs {lg}"
            );
        }
    }
    // SAFETY: 511 < 512 entries: refused, nothing written.
    let small = unsafe { tress_strands_follow_points(s, points.as_mut_ptr(), 511, None) };
    assert_eq!(small, TressStatus::BufferTooSmall);
    ok(tress_strands_destroy(s));
}

#[test]
fn an_obj_groom_loads_and_steps() {
    let obj = b"v 0 0 0.1\nv 0 -0.05 0.1\nv 0 -0.1 0.1\nv 0 -0.15 0.1\nl 1 2 3 4\n\
                v 0.1 0 0\nv 0.1 -0.05 0\nv 0.1 -0.1 0\nv 0.1 -0.15 0\nl 5 6 7 8\n";
    let opts = TressStrandOptions {
        particles: 0,
        ..TressStrandOptions::default()
    };
    let mut s = TressStrands::default();
    // SAFETY: a NUL-terminated literal and a live byte slice.
    ok(unsafe {
        tress_strands_load(
            c"hair.OBJ".as_ptr(),
            obj.as_ptr(),
            obj.len(),
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
    assert_eq!((strands, particles), (2, 4));
    let mut steps = 0;
    ok(tress_strands_advance(s, 0.1, Some(&mut steps)));
    assert_eq!(steps, 8, "a 0.1 s frame runs the 8-step cap");
    ok(tress_strands_destroy(s));
}

#[test]
fn an_avatar_with_fitted_colliders_steps() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/tress_avatar.vrm");
    let bytes = std::fs::read(path).unwrap();
    let mut opts = TressRigOptions::default();
    ok(tress_rig_options_default(Some(&mut opts)));
    opts.fit_colliders = true;
    opts.mode = TressMode::VrmCompatible as u32;
    let mut a = TressAvatar::default();
    // SAFETY: a live byte slice.
    ok(unsafe { tress_avatar_load(bytes.as_ptr(), bytes.len(), Some(&opts), Some(&mut a)) });
    for _ in 0..30 {
        ok(tress_avatar_advance(a, 1.0 / 30.0, None));
    }
    let mut out = [TressJointOutput::default(); 64];
    let mut n = 0;
    // SAFETY: `out` holds 64 outputs.
    ok(unsafe { tress_avatar_outputs(a, 0, out.as_mut_ptr(), 64, Some(&mut n)) });
    assert!(n > 0 && out[..n].iter().all(|o| o.tail.y.is_finite()));
    opts.mode = 17;
    let mut b = TressAvatar::default();
    // SAFETY: as above.
    let s = unsafe { tress_avatar_load(bytes.as_ptr(), bytes.len(), Some(&opts), Some(&mut b)) };
    assert_eq!(s, TressStatus::InvalidArgument);
    ok(tress_avatar_destroy(a));
}

#[test]
fn wasm_style_memory_round_trips() {
    let p = tress_alloc(100);
    assert!(!p.is_null());
    assert_eq!(p as usize % 8, 0);
    // SAFETY: `p` came from tress_alloc and is freed once.
    unsafe { tress_free(p) };
    assert!(tress_alloc(0).is_null());
    // SAFETY: null is allowed.
    unsafe { tress_free(core::ptr::null_mut()) };
}

#[test]
fn handles_work_from_many_threads_and_destroy_is_safe_during_calls() {
    // Four threads step their own worlds while two share a fifth that one
    // of them destroys part-way: every call returns Ok or StaleHandle.
    let shared = ffi_world();
    let bits = shared.bits;
    let workers: Vec<_> = (0..6)
        .map(|k| {
            std::thread::spawn(move || {
                let own = ffi_world();
                let shared = TressSpringWorld { bits };
                let mut stale = 0;
                for i in 1..=120 {
                    let p = motion(i).into();
                    ok(tress_spring_set_frame_pose(own, 0, Some(&p)));
                    ok(tress_spring_advance(own, 1.0 / 60.0, None));
                    if k < 2 {
                        match tress_spring_advance(shared, 1.0 / 60.0, None) {
                            TressStatus::Ok => {}
                            TressStatus::StaleHandle => stale += 1,
                            s => panic!("{s:?}"),
                        }
                        if k == 0 && i == 60 {
                            ok(tress_spring_destroy(shared));
                        }
                    }
                }
                let out = ffi_outputs(own);
                ok(tress_spring_destroy(own));
                (out, stale)
            })
        })
        .collect::<Vec<_>>()
        .into_iter()
        .map(|h| h.join().unwrap())
        .collect::<Vec<_>>();
    // Every private world saw the same motion: the same bits.
    assert!(workers.windows(2).all(|w| w[0].0 == w[1].0));
    assert_eq!(
        workers[0].1, 60,
        "thread 0 destroyed the shared world at 60"
    );
    // Thread 1 sees it stale from whenever thread 0 got there, if at all.
    assert!(workers[1].1 <= 120);
    assert_eq!(tress_spring_reset(shared), TressStatus::StaleHandle);
}

/// The 10° cone, 6 m/s² wind and reset-on-turn policy both worlds get.
fn motion_settings() -> (TressJointLimit, TressWind) {
    let limit = TressJointLimit {
        shape: TressLimitShape::Cone as u32,
        angle: 10f32.to_radians(),
        ..TressJointLimit::default()
    };
    let mut wind = TressWind {
        direction: v(0.0, 0.0, 0.0),
        strength: 0.0,
        gust: 0.0,
        gust_seconds: 0.0,
        turbulence: 0.0,
        occlusion: 0.0,
        seed: 0,
    };
    ok(tress_wind_default(Some(&mut wind)));
    wind.direction = v(1.0, 0.0, 0.5);
    wind.strength = 6.0;
    wind.seed = 7;
    (limit, wind)
}

#[test]
fn wind_limits_teleport_anchor_and_resume_reach_the_core_bit_for_bit() {
    use tress_core::spring::{JointLimit, TeleportMode, TeleportPolicy, Wind};
    let mut core = core_world();
    let w = ffi_world();
    let calm = ffi_world();
    let (limit, wind) = motion_settings();
    ok(tress_spring_set_chain_limit(w, 0, Some(&limit)));
    ok(tress_spring_set_joint_limit(w, 1, 2, Some(&limit)));
    ok(tress_spring_set_wind(w, Some(&wind)));
    ok(tress_spring_set_chain_wind_exposure(w, 2, 0.5));
    ok(tress_spring_set_teleport_policy(
        w,
        1.0,
        TressTeleportMode::Reset as u32,
    ));
    let cone = JointLimit::cone(10f32.to_radians());
    core.set_chain_limit(0, Some(cone)).unwrap();
    core.set_joint_limit(1, 2, Some(cone)).unwrap();
    core.set_wind(Wind {
        direction: Vec3::new(1.0, 0.0, 0.5),
        strength: 6.0,
        seed: 7,
        ..Wind::default()
    });
    core.set_chain_wind_exposure(2, 0.5).unwrap();
    core.set_teleport_policy(TeleportPolicy {
        angle: 1.0,
        mode: TeleportMode::Reset,
    });
    let drive = |i: u32, core: &mut AvatarWorld| {
        // A pause between frames 60 and 61 (the head moved 2 m meanwhile,
        // then resume), and a 2-radian turn at frame 100 (a teleport).
        let mut p = motion(i);
        if i > 60 {
            p.pos.x += 2.0;
        }
        if i >= 100 {
            // Normalised as the ABI normalises every rotation it is given.
            p.rot = tress_core::math::quat::normalize(Quat::from_rotation_y(2.0) * p.rot);
        }
        core.set_frame_pose(0, p);
        for h in [w, calm] {
            ok(tress_spring_set_frame_pose(h, 0, Some(&p.into())));
        }
        if i == 61 {
            // Held on the new pose for a frame (kept out of the colliders),
            // then resumed.
            core.hold();
            ok(tress_spring_hold(w));
            ok(tress_spring_hold(calm));
            core.resume();
            ok(tress_spring_resume(w));
            ok(tress_spring_resume(calm));
        }
        core.advance(1.0 / 60.0);
        ok(tress_spring_advance(w, 1.0 / 60.0, None));
        ok(tress_spring_advance(calm, 1.0 / 60.0, None));
    };
    for i in 1..=140 {
        drive(i, &mut core);
        if i == 120 {
            ok(tress_spring_set_anchor(w, 0));
            core.set_anchor(Some(0)).unwrap();
        }
    }
    let (a, b) = (ffi_outputs(w), core_outputs(&core));
    assert!(a.iter().all(|o| o.tail.x.is_finite()));
    assert_eq!(a, b);
    assert_ne!(a, ffi_outputs(calm), "the settings changed nothing");

    // What the solver holds reads back.
    let mut got = TressJointLimit::default();
    ok(tress_spring_get_joint_limit(w, 1, 2, Some(&mut got)));
    assert_eq!(got, limit);
    ok(tress_spring_get_joint_limit(w, 1, 1, Some(&mut got)));
    assert_eq!(got.shape, TressLimitShape::None as u32);
    let mut back = wind;
    ok(tress_spring_get_wind(w, Some(&mut back)));
    assert_eq!(back, TressWind::from(core.wind()));
    let d = back.direction;
    assert!((d.x - 0.894_427_2).abs() < 1e-6 && d.y == 0.0 && (d.z - 0.447_213_6).abs() < 1e-6);
    let (mut angle, mut mode, mut anchor, mut share) = (0.0, 9, 0, 0.0);
    ok(tress_spring_get_teleport_policy(
        w,
        Some(&mut angle),
        Some(&mut mode),
    ));
    assert_eq!((angle, mode), (1.0, TressTeleportMode::Reset as u32));
    ok(tress_spring_get_anchor(w, Some(&mut anchor)));
    assert_eq!(anchor, 0);
    ok(tress_spring_set_anchor(w, TRESS_NO_ANCHOR));
    ok(tress_spring_get_anchor(w, Some(&mut anchor)));
    assert_eq!(anchor, TRESS_NO_ANCHOR);
    ok(tress_spring_get_chain_wind_exposure(w, 2, Some(&mut share)));
    assert_eq!(share, core.chain_wind_exposure(2).unwrap());

    // Removing the limit: null and shape None both do.
    ok(tress_spring_set_chain_limit(w, 0, None));
    ok(tress_spring_set_joint_limit(
        w,
        1,
        2,
        Some(&TressJointLimit::default()),
    ));
    ok(tress_spring_get_joint_limit(w, 1, 2, Some(&mut got)));
    assert_eq!(got.shape, TressLimitShape::None as u32);
    for h in [w, calm] {
        ok(tress_spring_destroy(h));
    }
}

#[test]
fn bad_motion_settings_are_refused_and_change_nothing() {
    let w = ffi_world();
    let (limit, wind) = motion_settings();
    let bad = |s: TressStatus, want: TressStatus| assert_eq!(s, want);
    let nan_wind = TressWind {
        strength: f32::NAN,
        ..wind
    };
    bad(
        tress_spring_set_wind(w, Some(&nan_wind)),
        TressStatus::InvalidArgument,
    );
    let no_direction = TressWind {
        direction: v(f32::INFINITY, 0.0, 0.0),
        ..wind
    };
    bad(
        tress_spring_set_wind(w, Some(&no_direction)),
        TressStatus::InvalidArgument,
    );
    bad(tress_spring_set_wind(w, None), TressStatus::NullPointer);
    let mut back = wind;
    ok(tress_spring_get_wind(w, Some(&mut back)));
    assert_eq!(back.strength, 0.0, "a refused wind was applied");
    bad(
        tress_spring_set_chain_wind_exposure(w, 0, -1.0),
        TressStatus::InvalidArgument,
    );
    bad(
        tress_spring_set_chain_wind_exposure(w, 3, 1.0),
        TressStatus::BadIndex,
    );
    let shape7 = TressJointLimit { shape: 7, ..limit };
    bad(
        tress_spring_set_chain_limit(w, 0, Some(&shape7)),
        TressStatus::InvalidArgument,
    );
    let nan_angle = TressJointLimit {
        angle: f32::NAN,
        ..limit
    };
    bad(
        tress_spring_set_joint_limit(w, 0, 0, Some(&nan_angle)),
        TressStatus::InvalidArgument,
    );
    bad(
        tress_spring_set_joint_limit(w, 0, 5, Some(&limit)),
        TressStatus::BadIndex,
    );
    bad(
        tress_spring_set_chain_limit(w, 3, Some(&limit)),
        TressStatus::BadIndex,
    );
    bad(
        tress_spring_set_teleport_policy(w, f32::NAN, 0),
        TressStatus::InvalidArgument,
    );
    bad(
        tress_spring_set_teleport_policy(w, 1.0, 2),
        TressStatus::InvalidArgument,
    );
    bad(tress_spring_set_anchor(w, 1), TressStatus::BadIndex);
    let mut got = TressJointLimit::default();
    ok(tress_spring_get_joint_limit(w, 0, 0, Some(&mut got)));
    assert_eq!(got.shape, TressLimitShape::None as u32);
    ok(tress_spring_destroy(w));
    bad(tress_spring_resume(w), TressStatus::StaleHandle);
    bad(tress_spring_hold(w), TressStatus::StaleHandle);
}

#[test]
fn an_avatar_takes_wind_limits_and_a_resume() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/tress_avatar.vrm");
    let bytes = std::fs::read(path).unwrap();
    let load = || {
        let mut a = TressAvatar::default();
        // SAFETY: a live byte slice.
        ok(unsafe { tress_avatar_load(bytes.as_ptr(), bytes.len(), None, Some(&mut a)) });
        a
    };
    let (windy, calm) = (load(), load());
    let (limit, wind) = motion_settings();
    ok(tress_avatar_set_wind(windy, Some(&wind)));
    ok(tress_avatar_set_chain_wind_exposure(windy, 0, 1.0));
    ok(tress_avatar_set_chain_limit(windy, 1, Some(&limit)));
    ok(tress_avatar_set_joint_limit(windy, 2, 0, Some(&limit)));
    ok(tress_avatar_set_teleport_policy(windy, 1.0, 0));
    ok(tress_avatar_set_anchor(windy, TRESS_NO_ANCHOR));
    let tip = |a: TressAvatar| {
        let mut out = [TressJointOutput::default(); 64];
        let mut n = 0;
        // SAFETY: `out` holds 64 outputs.
        ok(unsafe { tress_avatar_outputs(a, 0, out.as_mut_ptr(), 64, Some(&mut n)) });
        out[n - 1].tail
    };
    for i in 0..60 {
        for a in [windy, calm] {
            if i == 30 {
                ok(tress_avatar_hold(a));
                ok(tress_avatar_resume(a));
            }
            ok(tress_avatar_advance(a, 1.0 / 30.0, None));
        }
    }
    let (a, b) = (tip(windy), tip(calm));
    assert!(a.x.is_finite() && a.y.is_finite() && a.z.is_finite());
    // 6 m/s² along +x (and +z) against 9.81 down leans the first lock's tip
    // downwind by millimetres: the first lock is a bang, whose flat lock (on
    // by default) holds it against a lean across its width (4.9 mm; 1 cm
    // with flat locks off).
    assert!(a.x - b.x > 0.003, "wind moved the tip {} m", a.x - b.x);
    assert_eq!(
        tress_avatar_set_chain_limit(windy, 999, Some(&limit)),
        TressStatus::BadIndex
    );
    assert_eq!(tress_avatar_set_anchor(windy, 999), TressStatus::BadIndex);
    for a in [windy, calm] {
        ok(tress_avatar_destroy(a));
    }
}

#[test]
fn an_avatar_changes_its_lock_options_live() {
    // The lock options changed on a moving avatar keep the hair where it is
    // (no reset); an avatar loaded with everything off and given the drape
    // before its first step moves exactly as one loaded with the drape on;
    // flat locks or the twist cannot be turned on where the load did not
    // read the lock shapes, and bad rates are refused.
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/tress_avatar.vrm");
    let bytes = std::fs::read(path).unwrap();
    let load = |opts: Option<&TressRigOptions>| {
        let mut a = TressAvatar::default();
        // SAFETY: a live byte slice.
        ok(unsafe { tress_avatar_load(bytes.as_ptr(), bytes.len(), opts, Some(&mut a)) });
        a
    };
    let tails = |a: TressAvatar| {
        let mut all = Vec::new();
        let mut chains = 0;
        ok(tress_avatar_chain_count(a, Some(&mut chains)));
        for c in 0..chains {
            let mut out = [TressJointOutput::default(); 64];
            let mut n = 0;
            // SAFETY: `out` holds 64 outputs.
            ok(unsafe { tress_avatar_outputs(a, c, out.as_mut_ptr(), 64, Some(&mut n)) });
            all.extend(out[..n].iter().map(|o| [o.tail.x, o.tail.y, o.tail.z]));
        }
        all
    };
    let options = |a: TressAvatar| {
        let (mut k, mut d, mut t) = (-1.0, false, false);
        ok(tress_avatar_get_lock_options(
            a,
            Some(&mut k),
            Some(&mut d),
            Some(&mut t),
        ));
        (k, d, t)
    };
    let (_, wind) = motion_settings();
    let moving = load(None);
    // Loaded with the defaults, as tress_rig_options_default gives them.
    let mut defaults = TressRigOptions::default();
    ok(tress_rig_options_default(Some(&mut defaults)));
    assert_eq!(
        options(moving),
        (
            defaults.flat_lock_stiffness,
            defaults.drape,
            defaults.lock_twist
        )
    );
    ok(tress_avatar_set_wind(moving, Some(&wind)));
    for _ in 0..20 {
        ok(tress_avatar_advance(moving, 1.0 / 30.0, None));
    }
    let before = tails(moving);
    ok(tress_avatar_set_lock_options(moving, 0.0, false, false));
    assert_eq!(options(moving), (0.0, false, false));
    assert_eq!(
        tails(moving),
        before,
        "switching the options off moved the hair"
    );
    ok(tress_avatar_set_lock_options(moving, 5.0, true, true));
    assert_eq!(tails(moving), before, "switching them on moved the hair");
    for bad in [f32::NAN, -1.0, f32::INFINITY] {
        assert_eq!(
            tress_avatar_set_lock_options(moving, bad, true, true),
            TressStatus::InvalidArgument
        );
    }
    // A refused set leaves the options as they were; null outputs are refused.
    ok(tress_avatar_set_lock_options(moving, 83.0, false, true));
    assert_eq!(
        tress_avatar_set_lock_options(moving, f32::NAN, true, false),
        TressStatus::InvalidArgument
    );
    assert_eq!(options(moving), (83.0, false, true));
    let (mut d, mut t) = (false, false);
    assert_eq!(
        tress_avatar_get_lock_options(moving, None, Some(&mut d), Some(&mut t)),
        TressStatus::NullPointer
    );

    let mut off = TressRigOptions::default();
    ok(tress_rig_options_default(Some(&mut off)));
    off.flat_lock_stiffness = 0.0;
    off.drape = false;
    off.lock_twist = false;
    let drape_only = TressRigOptions { drape: true, ..off };
    let (live, built) = (load(Some(&off)), load(Some(&drape_only)));
    assert_eq!(
        tress_avatar_set_lock_options(live, 5.0, false, false),
        TressStatus::InvalidArgument
    );
    assert_eq!(
        tress_avatar_set_lock_options(live, 0.0, false, true),
        TressStatus::InvalidArgument
    );
    // The refusals above left the loaded options in force.
    assert_eq!(options(live), (0.0, false, false));
    ok(tress_avatar_set_lock_options(live, 0.0, true, false));
    assert_eq!(options(live), (0.0, true, false));
    let plain = load(Some(&off));
    // The head turns ±60°, so the locks sweep over the shoulders.
    let mut head = 0;
    // SAFETY: a NUL-terminated literal.
    ok(unsafe { tress_avatar_find_frame(plain, c"Head".as_ptr(), Some(&mut head)) });
    let mut rest = TressPose::default();
    ok(tress_avatar_rest_pose(plain, head, Some(&mut rest)));
    let r = rest.rotation;
    let rest_rot = Quat::from_xyzw(r.x, r.y, r.z, r.w);
    let mut apart: f32 = 0.0;
    for f in 0..60 {
        let yaw = 60f32.to_radians() * tress_core::math::ops::sin(f as f32 * 0.15);
        let q = Quat::from_rotation_y(yaw) * rest_rot;
        let pose = TressPose {
            position: rest.position,
            rotation: TressQuat {
                x: q.x,
                y: q.y,
                z: q.z,
                w: q.w,
            },
        };
        for a in [live, built, plain] {
            ok(tress_avatar_set_frame_pose(a, head, Some(&pose)));
            ok(tress_avatar_advance(a, 1.0 / 30.0, None));
        }
        assert_eq!(tails(live), tails(built), "frame {f}");
        for (p, q) in tails(plain).iter().zip(tails(built)) {
            apart = apart.max(
                (p[0] - q[0])
                    .abs()
                    .max((p[1] - q[1]).abs())
                    .max((p[2] - q[2]).abs()),
            );
        }
    }
    assert!(
        apart > 1e-4,
        "the drape changed nothing in this run ({apart} m)"
    );
    for a in [moving, live, built, plain] {
        ok(tress_avatar_destroy(a));
    }
}

#[test]
fn a_rotation_too_long_to_normalise_is_refused() {
    // Components past ~1e19 overflow the squared length: normalised, such a
    // quaternion became zero, and strands created at it turned to NaN.
    let huge = TressPose {
        position: v(0.0, 0.0, 0.0),
        rotation: TressQuat {
            x: 0.37,
            y: -1e30,
            z: -1e30,
            w: 0.64,
        },
    };
    let s = ring_strands();
    assert_eq!(
        tress_strands_set_head_pose(s, Some(&huge)),
        TressStatus::InvalidArgument
    );
    // SAFETY: tress_last_error returns a NUL-terminated thread-local string.
    let msg = unsafe { core::ffi::CStr::from_ptr(tress_last_error()) };
    assert!(msg.to_string_lossy().contains("finite length"), "{msg:?}");
    assert_eq!(
        tress_strands_reset(s, Some(&huge)),
        TressStatus::InvalidArgument
    );
    ok(tress_strands_advance(s, 1.0 / 30.0, None));
    let mut pos = vec![v(0.0, 0.0, 0.0); 8 * 16];
    // SAFETY: `pos` holds 128 writable points.
    ok(unsafe { tress_strands_positions(s, pos.as_mut_ptr(), pos.len(), None) });
    assert!(
        pos.iter()
            .all(|p| p.x.is_finite() && p.y.is_finite() && p.z.is_finite())
    );
    ok(tress_strands_destroy(s));
    let w = ffi_world();
    assert_eq!(
        tress_spring_set_frame_pose(w, 0, Some(&huge)),
        TressStatus::InvalidArgument
    );
    ok(tress_spring_destroy(w));
}

/// The skirt avatar's folds through the C ABI: 24 folds of 4 joints; at
/// rest each pose is the node's file pose (the generator hangs fold `c`'s
/// joint `k` under `Skirt{c}_{k}` at the fold's offset); after steps they
/// stay finite; a buffer too small is refused; the built-in avatar has none.
#[test]
fn an_avatar_hands_out_its_fold_poses() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../assets/tress_avatar_skirt.vrm"
    );
    let bytes = std::fs::read(path).unwrap();
    let avatar = tress_vrm::load_bytes(&bytes, None).unwrap();
    let mut a = TressAvatar::default();
    // SAFETY: a live byte slice.
    ok(unsafe { tress_avatar_load(bytes.as_ptr(), bytes.len(), None, Some(&mut a)) });
    let mut count = 0u32;
    ok(tress_avatar_fold_count(a, Some(&mut count)));
    assert_eq!(count, 24 * 4);
    let mut poses = vec![TressFoldPose::default(); 96];
    let mut n = 0usize;
    // SAFETY: `poses` holds 96 entries.
    ok(unsafe { tress_avatar_fold_poses(a, poses.as_mut_ptr(), 96, Some(&mut n)) });
    assert_eq!(n, 96);
    for p in &poses {
        let node = &avatar.nodes[p.node as usize];
        assert!(node.name.starts_with("SkirtFold"), "{}", node.name);
        let t = Vec3::new(p.translation.x, p.translation.y, p.translation.z);
        assert!(t.distance(node.translation) < 1e-5, "{}: {t}", node.name);
    }
    for _ in 0..30 {
        ok(tress_avatar_advance(a, 1.0 / 30.0, None));
    }
    // SAFETY: as above.
    ok(unsafe { tress_avatar_fold_poses(a, poses.as_mut_ptr(), 96, Some(&mut n)) });
    assert!(
        poses
            .iter()
            .all(|p| p.translation.y.is_finite() && p.rotation.w.is_finite())
    );
    // SAFETY: `poses` holds 96 entries; 95 are claimed.
    let small = unsafe { tress_avatar_fold_poses(a, poses.as_mut_ptr(), 95, None) };
    assert_eq!(small, TressStatus::BufferTooSmall);
    ok(tress_avatar_destroy(a));

    let plain = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../assets/tress_avatar.vrm"
    ))
    .unwrap();
    let mut b = TressAvatar::default();
    // SAFETY: a live byte slice.
    ok(unsafe { tress_avatar_load(plain.as_ptr(), plain.len(), None, Some(&mut b)) });
    ok(tress_avatar_fold_count(b, Some(&mut count)));
    assert_eq!(count, 0);
    // SAFETY: no entries are needed; a null buffer of capacity 0.
    ok(unsafe { tress_avatar_fold_poses(b, core::ptr::null_mut(), 0, Some(&mut n)) });
    assert_eq!(n, 0);
    ok(tress_avatar_destroy(b));
}
