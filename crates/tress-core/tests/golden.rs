//! Golden digests: the fixed scenes of `tress-golden` stepped here, every
//! output bit hashed and compared to its committed constant, and the same
//! bits from every SIMD build, lane width and thread count.
//!
//! A digest that changes means the solver computes different bits: a
//! behaviour change that its commit must explain (and then update the
//! constant in `crates/tress-golden/src/lib.rs`).
//! `cargo test -p tress-core --test golden -- --nocapture` prints the
//! digests the current code computes; with `GOLDEN_PRINT=1` it only prints
//! them.

use tress_core::simd::Isa;
use tress_core::spring::StepConfig;
use tress_core::strand::{LANES, WIDE_LANES};
use tress_golden::{SPRING_DIGEST, STRAND_DIGEST, spring, strand};

/// Prints `name`'s digest (seen with `--nocapture`, or when the test
/// fails) and checks it, unless `GOLDEN_PRINT` is set.
fn check(name: &str, got: u64, want: u64) {
    println!("{name}: 0x{got:016x}");
    if std::env::var_os("GOLDEN_PRINT").is_some() {
        return;
    }
    assert_eq!(
        got, want,
        "{name}: digest 0x{got:016x}, committed 0x{want:016x}: the solver's bits changed"
    );
}

#[test]
fn spring_scene_digest() {
    let lanes = tress_golden::spring_digest();
    check("spring", lanes, SPRING_DIGEST);
    // The same bits from the scalar kernel alone and from either lane width,
    // so the digest does not depend on the CPU's vector instructions.
    let scalar = spring::digest(
        StepConfig {
            lanes: false,
            ..StepConfig::default()
        },
        None,
    );
    assert_eq!(scalar, lanes, "scalar kernel differs from the lane kernels");
    for width in [4, 8] {
        let d = spring::digest(StepConfig::default(), Some(width));
        assert_eq!(d, lanes, "lane width {width} differs");
    }
}

#[test]
fn strand_scene_digest() {
    let digest = tress_golden::strand_digest();
    check("strand", digest, STRAND_DIGEST);
    // The portable build is plain IEEE arithmetic without fused
    // multiply-adds (the kernel's inverse square root included), so it is
    // the same on every platform; the SIMD builds and the wide layout must
    // give its bits.
    let best = Isa::detect();
    for (isa, lanes) in [
        (best, LANES),
        (Isa::Portable, WIDE_LANES),
        (best, WIDE_LANES),
    ] {
        let d = strand::digest(isa, lanes);
        assert_eq!(d, digest, "{isa:?}, {lanes} lanes: differs from portable");
    }
}

/// `StrandSim` (feature `std`) runs the same steps as the hand-driven
/// scene, on one thread or two.
#[cfg(feature = "std")]
#[test]
fn strand_sim_gives_the_scene_digest() {
    use tress_core::clock::Schedule;
    use tress_core::strand::{StrandParams, StrandSim};
    use tress_golden::Fnv;
    let want = tress_golden::strand_digest();
    for threads in [1, 2] {
        let mut sim = StrandSim::from_points(
            strand::PARTICLES,
            &strand::points(),
            StrandParams::default(),
            Schedule::FIXED_120,
            strand::pose(0.0),
        )
        .unwrap();
        sim.set_head_colliders(&strand::head_colliders());
        sim.set_world_colliders(&strand::world_colliders());
        sim.set_threads(threads);
        let mut h = Fnv::new();
        for dt in strand::frames() {
            sim.advance(dt, |t, _| strand::pose(t));
            let (x, y, z) = sim.positions();
            strand::hash(sim.layout(), x, y, z, &mut h);
        }
        assert_eq!(h.0, want, "StrandSim on {threads} threads");
    }
}
