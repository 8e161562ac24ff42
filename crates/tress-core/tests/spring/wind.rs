//! Issue 19, acceptance 3: wind changed at run time resets nothing and
//! gives bit-identical states at 30, 60 and 120 fps.

use crate::common::*;
use alloc::vec::Vec;
use tress_core::collide::Collider;
use tress_core::math::{Real, Vec3, ops};
use tress_core::spring::{ChainDesc, ContactMode, JointParams, Mode, Pose, Wind};

/// Three chains on one head (so Improved ones step in vector lanes): two
/// outer locks and one whose root lies at the centre of the three, plus a
/// collider the hair can blow against.
fn windy(mode: Mode) -> World {
    let mut w = World::default();
    let head = w.add_frame(Pose::IDENTITY).unwrap();
    let params = if mode == Mode::VrmCompatible {
        params_for(mode)
    } else {
        JointParams {
            stiffness: 300.0,
            damping: 10.0,
            ..stiff_params()
        }
    };
    for x in [-0.06, 0.0, 0.06] {
        let desc = ChainDesc {
            frame: head,
            root_offset: Vec3::new(x, 0.05, if x == 0.0 { -0.07 } else { -0.09 }),
            mode,
            contact: ContactMode::Segment,
            ..ChainDesc::default()
        };
        w.add_chain(desc, &arc(6, 0.05, params)).unwrap();
    }
    w.add_collider(head, Collider::sphere(Vec3::new(0.0, -0.05, 0.02), 0.08))
        .unwrap();
    w
}

/// Every joint's position and velocity bits, all chains.
fn all_bits(w: &World) -> Vec<u32> {
    let mut out = Vec::new();
    for c in 0..w.chain_count() {
        for j in 0..w.chain_len(c) {
            let (x, v) = w.joint_state(c, j).unwrap();
            out.extend(
                x.to_array()
                    .iter()
                    .chain(&v.to_array())
                    .map(|f| f.to_bits()),
            );
        }
    }
    out
}

/// The head nods and turns, as a function of the substep index.
fn head_at(_frame: usize, i: u64) -> Pose {
    let t = i as Real / 120.0;
    Pose::new(
        Vec3::new(0.03 * ops::sin(2.0 * t), 0.0, 0.0),
        yaw(30.0 * ops::sin(1.5 * t)),
    )
}

/// The wind schedule, by simulated time: a breeze from the start, stronger
/// and turned at 0.5 s, gustier at 1.0 s, calm at 2.0 s.
fn wind_at(t: Real) -> Wind {
    let breeze = Wind {
        direction: Vec3::new(0.0, 0.0, 1.0),
        strength: 4.0,
        seed: 7,
        ..Wind::default()
    };
    if t < 0.5 {
        breeze
    } else if t < 1.0 {
        Wind {
            direction: Vec3::new(1.0, 0.0, 0.5),
            strength: 9.0,
            ..breeze
        }
    } else if t < 2.0 {
        Wind {
            direction: Vec3::new(1.0, 0.0, 0.5),
            strength: 9.0,
            gust: 1.0,
            gust_seconds: 0.5,
            turbulence: 0.8,
            ..breeze
        }
    } else {
        Wind::default()
    }
}

#[test]
fn wind_changed_at_run_time_is_bit_identical_at_30_60_120_fps() {
    for mode in [Mode::Improved, Mode::Earlier, Mode::VrmCompatible] {
        let mut runs = Vec::new();
        for fps in [30u32, 60, 120] {
            let mut w = windy(mode);
            let mut samples = Vec::new();
            for f in 1..=(3 * fps) {
                // The wind for the coming frame, set from the time it starts.
                w.set_wind(wind_at((f - 1) as Real / fps as Real));
                w.advance_sampled(1.0 / fps as Real, head_at);
                if f % (fps / 30) == 0 {
                    samples.push(all_bits(&w));
                }
            }
            runs.push(samples);
        }
        for (r, fps) in runs[1..].iter().zip([60, 120]) {
            assert_eq!(
                r, &runs[0],
                "{mode:?}: 30 and {fps} fps differ under changing wind"
            );
        }
        println!("wind {mode:?}: 90 samples bit-identical at 30/60/120 fps");
    }
}

/// Largest per-frame tip move of every chain in `frames` 60 fps frames.
fn tips(w: &World) -> Vec<Vec3> {
    (0..w.chain_count())
        .map(|c| outputs(w, c).last().unwrap().tail)
        .collect()
}

#[test]
fn wind_change_resets_nothing() {
    for mode in [Mode::Improved, Mode::VrmCompatible] {
        // Run `a` keeps the breeze; run `b` turns it into a gale at frame 60.
        let (mut a, mut b) = (windy(mode), windy(mode));
        let breeze = wind_at(0.0);
        let gale = Wind {
            direction: Vec3::new(-1.0, 0.3, 0.0),
            strength: 12.0,
            ..breeze
        };
        a.set_wind(breeze);
        b.set_wind(breeze);
        let mut apart_first: Real = 0.0;
        let mut swing: Real = 0.0;
        for f in 1..=120u32 {
            if f == 61 {
                b.set_wind(gale);
                assert_eq!(
                    all_bits(&a),
                    all_bits(&b),
                    "the runs agree up to the change"
                );
            }
            let before = tips(&b);
            a.advance_sampled(1.0 / 60.0, head_at);
            b.advance_sampled(1.0 / 60.0, head_at);
            if f == 61 {
                apart_first = max_dev(&tips(&a), &tips(&b));
            } else if f < 61 {
                swing = swing.max(max_dev(&before, &tips(&b)));
            }
        }
        // What the change itself asks for in its first frame: at most the
        // difference of the two accelerations, for 1/60 s, from rest
        // relative to the other run (½·Δa·T²; the VRM update's own rule below).
        let steps = 60 * 2;
        let dv = (steps + 1..=steps + 2)
            .flat_map(|s| (0..3).map(move |c| (c, s)))
            .map(|(c, s)| {
                (gale.sanitized().acceleration(c, s) - breeze.sanitized().acceleration(c, s))
                    .length()
            })
            .fold(0.0, Real::max);
        let asked = if mode == Mode::VrmCompatible {
            // VRM forces (like gravityPower) move the tail by `F·h` a
            // substep, and inertia keeps (1 − drag) of the first substep's.
            dv / 9.81 * (1.0 / 120.0) * (2.0 + (1.0 - params_for(mode).drag))
        } else {
            0.5 * dv * (1.0 / 60.0) * (1.0 / 60.0)
        };
        println!(
            "wind change {mode:?}: runs part by {:.3} mm in the change frame (the new force \
             alone: up to {:.3} mm; the tips swing up to {:.1} mm a frame)",
            apart_first * 1e3,
            asked * 1e3,
            swing * 1e3
        );
        // A reset would drop the tips to rest, which is a swing's worth of
        // distance away: the change frame parts the runs by no more than
        // the new force moves a free tip.
        assert!(
            apart_first < asked + 1e-3,
            "{mode:?}: the change moved the tips {apart_first} m"
        );
        assert!(
            swing > asked + 1e-3,
            "{mode:?}: the test cannot tell a reset"
        );
        // The gale then does blow the hair elsewhere.
        let apart = max_dev(&tips(&a), &tips(&b));
        assert!(
            apart > 0.02,
            "{mode:?}: the gale moved the hair only {apart} m"
        );
        assert!(b.substep_count() == a.substep_count());
    }
}

#[test]
fn wind_blows_the_hair_and_the_centre_lock_less() {
    for mode in [Mode::Improved, Mode::VrmCompatible] {
        let mut calm = windy(mode);
        let mut blown = windy(mode);
        blown.set_wind(Wind {
            direction: Vec3::Z,
            strength: 6.0,
            gust: 0.0,
            turbulence: 0.0,
            occlusion: 0.8,
            ..Wind::default()
        });
        // The centre root is the deepest: it gets 1 − 0.8·depth of the wind.
        let share: Vec<Real> = (0..3)
            .map(|c| blown.chain_wind_exposure(c).unwrap())
            .collect();
        assert!(
            share[1] < share[0] && (share[0] - share[2]).abs() < 1e-6,
            "{share:?}"
        );
        for _ in 0..240 {
            calm.advance(1.0 / 60.0);
            blown.advance(1.0 / 60.0);
        }
        let (c, b) = (tips(&calm), tips(&blown));
        let push: Vec<Real> = c.iter().zip(&b).map(|(p, q)| q.z - p.z).collect();
        println!("wind {mode:?}: tips blown +z by {push:?} m, exposures {share:?}");
        assert!(push[0] > 0.01 && push[2] > 0.01, "{mode:?}: {push:?}");
        assert!(
            push[1] < push[0],
            "{mode:?}: the sheltered lock moved as much"
        );
        // Shielding a chain by hand takes it out of the wind.
        blown.set_chain_wind_exposure(0, 0.0).unwrap();
        assert_eq!(blown.chain_wind_exposure(0).unwrap(), 0.0);
        assert!(blown.set_chain_wind_exposure(9, 1.0).is_err());
    }
}

#[test]
fn calm_wind_keeps_the_bits() {
    let (mut a, mut b) = (windy(Mode::Improved), windy(Mode::Improved));
    b.set_wind(Wind {
        strength: 0.0,
        ..wind_at(0.0)
    });
    b.set_chain_wind_exposure(1, 0.5).unwrap();
    for _ in 0..60 {
        a.advance_sampled(1.0 / 60.0, head_at);
        b.advance_sampled(1.0 / 60.0, head_at);
    }
    assert_eq!(all_bits(&a), all_bits(&b));
}
