//! Times the render-strand interpolation on the standard scene: 60,000
//! render strands × 16 particles from its 6,000 simulated guides, one
//! thread, with and without the length fix, after half a second of the
//! head turn. Prints the best and median wall time and the mean CPU time
//! per call (on a shared machine the best wall time and the CPU time are
//! the ones that do not count other processes).
//!
//! `cargo run --release -p tress-benches --bin interp-bench [-- CALLS [PER_GUIDE]]`

use std::time::Instant;

use tress_core::strand::{FollowPlanBuf, Schedule, StrandParams};
use tress_rig::groom::ProceduralGroom;
use tress_rig::groom::scene::{standard_sim, turning_pose};

/// CPU seconds of this process (user + system) from `/proc/self/stat`.
fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    let after = stat.rsplit(')').next().unwrap_or("");
    let f: Vec<&str> = after.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|s| s.parse::<f64>().ok()).unwrap_or(0.0);
    (ticks(11) + ticks(12)) / 100.0
}

fn main() {
    let mut args = std::env::args().skip(1);
    let calls: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(400);
    let per_guide: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(10);
    let groom = ProceduralGroom::default();
    let mut sim = standard_sim(&groom, StrandParams::default(), Schedule::REFERENCE);
    let mut t = 0.0f64;
    for _ in 0..30 {
        t += 1.0 / 60.0;
        let pose = turning_pose(groom.head_centre, t);
        sim.advance(1.0 / 60.0, |_, _| pose);
    }
    let pose = turning_pose(groom.head_centre, t);
    let built = Instant::now();
    let mut plan = FollowPlanBuf::for_sim(&sim, per_guide, 0x7e55).expect("standard groom");
    println!(
        "plan: {} render strands from {} guides, built in {:.1} ms",
        plan.renders(),
        plan.guides(),
        built.elapsed().as_secs_f64() * 1e3
    );
    let n = plan.renders() * plan.particles();
    let (mut x, mut y, mut z) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
    for fix in [true, false] {
        for _ in 0..20 {
            plan.interpolate(&sim, &pose, fix, &mut x, &mut y, &mut z);
        }
        let mut wall = Vec::with_capacity(calls);
        let cpu0 = cpu_seconds();
        for _ in 0..calls {
            let s = Instant::now();
            plan.interpolate(&sim, &pose, fix, &mut x, &mut y, &mut z);
            wall.push(s.elapsed().as_secs_f64() * 1e3);
        }
        let cpu = (cpu_seconds() - cpu0) / calls as f64 * 1e3;
        wall.sort_by(f64::total_cmp);
        println!(
            "length fix {fix}: best {:.3} ms, median {:.3} ms, CPU {:.3} ms per call ({:.2} ns per particle, best)",
            wall[0],
            wall[calls / 2],
            cpu,
            wall[0] * 1e6 / n as f64
        );
    }
    core::hint::black_box((&x, &y, &z));
}
