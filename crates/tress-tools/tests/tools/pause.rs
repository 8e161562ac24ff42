//! Pausing the built-in avatar's hair while its head keeps turning
//! (`SpringWorld::hold` on every held frame, then `resume`), as the Godot
//! node does when it is disabled and its skeleton plays on.

use glam::Vec3;
use tress_core::math::ops;
use tress_rig::spring_rig::{RigOptions, SpringRig};

use crate::common::{head_yawed, repo};

/// What one pause did, in millimetres in the head's frame: the largest tip
/// motion of the resume frame, of ordinary frames before the pause, and of
/// the chains that touch nothing while held (which must not move).
struct Pause {
    resume: f32,
    ordinary: f32,
    untouched_held: f32,
}

/// 60 fps frames of a ±50° head turn (period 1.5 s), the hair paused from
/// frame `from` to frame `to`: `hold` on each held frame, or nothing (the
/// old rigid hold: the hair carried whole by `resume`).
fn pause(from: usize, to: usize, hold: bool) -> Pause {
    let a = tress_vrm::load_path(repo("assets/tress_avatar.vrm")).unwrap();
    let mut rig = SpringRig::build(&a, &RigOptions::default()).unwrap();
    let rest = a.rest_world();
    let head = a.humanoid.as_ref().unwrap().bone("head").unwrap();
    // The bangs and the side locks: clear of every collider in this turn.
    let free: Vec<usize> = (0..rig.chains.len())
        .filter(|&c| !a.nodes[rig.chains[c].nodes[0]].name.contains("Front"))
        .collect();
    assert_eq!(free.len(), 6, "four bangs and two side locks");
    let dist = |p: &[Vec3], q: &[Vec3], which: &mut dyn Iterator<Item = usize>| {
        which.map(|i| p[i].distance(q[i])).fold(0.0f32, f32::max) * 1e3
    };
    let mut out = Pause {
        resume: 0.0,
        ordinary: 0.0,
        untouched_held: 0.0,
    };
    let mut last: Option<Vec<Vec3>> = None;
    let mut held_at: Option<Vec<Vec3>> = None;
    for f in 0..to + 30 {
        let yaw = 50f32.to_radians() * ops::sin(core::f32::consts::PI * f as f32 / 45.0);
        let world = head_yawed(&rest, head, yaw);
        rig.set_frame_poses_from_world(&world);
        let held = (from..to).contains(&f);
        if held {
            if hold {
                rig.world.hold();
            }
        } else {
            if f == to {
                rig.world.resume();
            }
            rig.advance(1.0 / 60.0);
        }
        let inv = world[head].inverse();
        let tips: Vec<Vec3> = (0..rig.chains.len())
            .map(|c| inv.transform_point3(rig.outputs(c).last().unwrap().tail))
            .collect();
        if let Some(l) = &last {
            let all = dist(l, &tips, &mut (0..tips.len()));
            if f == to {
                out.resume = all;
            } else if f > 20 && f < from {
                out.ordinary = out.ordinary.max(all);
            }
        }
        if held {
            let first = held_at.get_or_insert_with(|| tips.clone());
            let moved = dist(first, &tips, &mut free.iter().copied());
            out.untouched_held = out.untouched_held.max(moved);
        }
        last = Some(tips);
    }
    out
}

/// Over 56 pauses (starts 90..150, ends 200..270 frames, every 10: every
/// phase of the turn), the resume frame moves the tips no more than
/// ordinary frames do plus 1 mm. Measured 2026-12-05: at most 2.3 mm
/// *under* the ordinary frames' 14.2 mm with `hold`; with the rigid hold 15
/// of the 56 fail, by up to 137 mm (a front lock carried through the
/// shoulder, pushed out in one frame). The chains that touch nothing stay
/// rigid with the head while held (to float rounding: 0.0013 mm after
/// 110 held frames).
#[test]
fn a_held_hair_resumes_without_a_pop_at_any_phase() {
    let mut worst = f32::MIN;
    let mut rigid_worst = f32::MIN;
    for from in (90..=150).step_by(10) {
        for to in (200..=270).step_by(10) {
            let p = pause(from, to, true);
            assert!(
                p.resume <= p.ordinary + 1.0,
                "pause {from}..{to}: the resume frame moved the tips {:.2} mm, ordinary frames up to {:.2} mm",
                p.resume,
                p.ordinary
            );
            assert!(
                p.untouched_held < 0.01,
                "pause {from}..{to}: a chain clear of the colliders moved {} mm in the head's frame while held",
                p.untouched_held
            );
            worst = worst.max(p.resume - p.ordinary);
            let r = pause(from, to, false);
            rigid_worst = rigid_worst.max(r.resume - r.ordinary);
        }
    }
    println!(
        "resume frame beyond ordinary frames: hold {worst:.2} mm, rigid hold {rigid_worst:.2} mm"
    );
    // The check has teeth: without the hold's contact it fails.
    assert!(
        rigid_worst > 10.0,
        "the rigid hold should pop somewhere: {rigid_worst} mm"
    );
}
