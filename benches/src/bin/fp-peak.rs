//! The host's own ceiling on vector float arithmetic: how many 512-bit
//! (AVX-512) and 256-bit (AVX2) multiplies and adds one core retires per
//! nanosecond, or 128-bit NEON ones on aarch64 (phones), when nothing else
//! limits it, so a kernel's time can be read against the arithmetic it must
//! do (docs/PERFORMANCE.md, "Strands").
//!
//! `cargo run --release -p tress-benches --bin fp-peak [-- MILLIS]`
//!
//! Each test keeps 16 independent accumulators (`a = a·m + c`, the multiply
//! and the add as two instructions, as the solvers are built: no fused
//! multiply-add), far more than the adders' latency needs, so only the
//! number of vector units bounds it. The fused multiply-add line shows what
//! a build with FMA could retire instead. Best of five runs of MILLIS
//! (default 300) milliseconds each; the CPU model is printed beside it.

#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
use std::time::Instant;

/// Operations per loop iteration in every test: 16 accumulators, and two
/// instructions each (multiply, add) or one (fused).
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
const ACC: usize = 16;

/// One test kernel: `iters` rounds of `$step` on each of [`ACC`]
/// independent `$ty` accumulators (`$x` the accumulator, `$m` and `$c`
/// the splatted multiplier and addend), then `$reduce` over them (`$a`) so
/// the result depends on every one and nothing is optimised away. One
/// body for every test, so they differ only in the instructions measured.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
macro_rules! kernel {
    (
        $(#[$doc:meta])*
        $name:ident, $feature:literal, $ty:ty, $splat:ident,
        |$x:ident, $m:ident, $c:ident| $step:expr,
        |$a:ident| $reduce:expr
    ) => {
        $(#[$doc])*
        #[target_feature(enable = $feature)]
        pub fn $name(iters: u64, m: f32, c: f32) -> f32 {
            let ($m, $c) = ($splat(m), $splat(c));
            let mut $a: [$ty; ACC] = [$splat(1.0); ACC];
            for _ in 0..iters {
                for $x in &mut $a {
                    *$x = $step;
                }
            }
            $reduce
        }
    };
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use core::arch::x86_64::{
        __m256, __m512, _mm256_add_ps, _mm256_cvtss_f32, _mm256_mul_ps, _mm256_set1_ps,
        _mm512_add_ps, _mm512_fmadd_ps, _mm512_mul_ps, _mm512_reduce_add_ps, _mm512_set1_ps,
    };

    use super::ACC;

    kernel!(
        /// A multiply then an add on 16 zmm accumulators.
        zmm_mul_add, "avx512f", __m512, _mm512_set1_ps,
        |x, vm, vc| _mm512_add_ps(_mm512_mul_ps(*x, vm), vc),
        |a| a.iter().map(|x| _mm512_reduce_add_ps(*x)).sum()
    );

    kernel!(
        /// The same with one fused multiply-add per accumulator.
        zmm_fma, "avx512f,fma", __m512, _mm512_set1_ps,
        |x, vm, vc| _mm512_fmadd_ps(*x, vm, vc),
        |a| a.iter().map(|x| _mm512_reduce_add_ps(*x)).sum()
    );

    kernel!(
        /// The multiply-then-add test on 16 ymm accumulators.
        ymm_mul_add, "avx2", __m256, _mm256_set1_ps,
        |x, vm, vc| _mm256_add_ps(_mm256_mul_ps(*x, vm), vc),
        |a| {
            // Lane 0 of the sum depends on every accumulator.
            let mut sum = _mm256_set1_ps(0.0);
            for x in a {
                sum = _mm256_add_ps(sum, x);
            }
            _mm256_cvtss_f32(sum)
        }
    );
}

/// NEON is part of every aarch64 target, so these need no detection.
#[cfg(target_arch = "aarch64")]
mod arm {
    use core::arch::aarch64::{
        float32x4_t, vaddq_f32, vaddvq_f32, vdupq_n_f32, vfmaq_f32, vmulq_f32,
    };

    use super::ACC;

    kernel!(
        /// A multiply then an add on 16 q-register accumulators.
        q_mul_add, "neon", float32x4_t, vdupq_n_f32,
        |x, vm, vc| vaddq_f32(vmulq_f32(*x, vm), vc),
        |a| a.iter().map(|x| vaddvq_f32(*x)).sum()
    );

    kernel!(
        /// The same with one fused multiply-add per accumulator.
        q_fma, "neon", float32x4_t, vdupq_n_f32,
        |x, vm, vc| vfmaq_f32(vc, *x, vm),
        |a| a.iter().map(|x| vaddvq_f32(*x)).sum()
    );
}

/// Runs `f(iters)` for about `millis` milliseconds five times and prints
/// the best rate in vector instructions per nanosecond (`per_iter` each
/// round), the float operations that makes (`lanes_ops` per instruction),
/// and the last result (printed, so nothing is optimised away).
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
fn report(label: &str, millis: u64, per_iter: u64, lanes_ops: f64, f: &dyn Fn(u64) -> f32) {
    // Calibrate: double the rounds until one run takes 20 ms, and take the
    // rounds per millisecond from that run.
    let mut iters = 1_000u64;
    let per_ms = loop {
        let t = Instant::now();
        core::hint::black_box(f(core::hint::black_box(iters)));
        let ms = t.elapsed().as_secs_f64() * 1e3;
        if ms >= 20.0 {
            break iters as f64 / ms;
        }
        iters *= 2;
    };
    let iters = (per_ms * millis as f64).max(1.0) as u64;
    let mut best = 0.0f64;
    let mut out = 0.0;
    for _ in 0..5 {
        let t = Instant::now();
        out = f(core::hint::black_box(iters));
        let ns = t.elapsed().as_secs_f64() * 1e9;
        best = best.max((iters * per_iter) as f64 / ns);
    }
    println!(
        "{label}: {best:.2} instructions/ns ({:.1} G float ops/s), result {out}",
        best * lanes_ops
    );
}

/// The CPU model line of `/proc/cpuinfo`, or "unknown CPU".
fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into())
}

fn main() {
    let millis: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(300);
    println!(
        "fp-peak: {}, one thread, best of 5 × {millis} ms",
        cpu_model()
    );
    // Values that keep every accumulator finite over billions of rounds.
    let (m, c) = (
        core::hint::black_box(0.999_999_9f32),
        core::hint::black_box(1e-7f32),
    );
    #[cfg(target_arch = "x86_64")]
    {
        let ops = (2 * ACC) as u64;
        if std::is_x86_feature_detected!("avx512f") {
            #[allow(unsafe_code)]
            // SAFETY: the CPU runs AVX-512 F (checked on the line above),
            // the only feature `zmm_mul_add` is built with.
            report("zmm multiply + add", millis, ops, 16.0, &|n| unsafe {
                x86::zmm_mul_add(n, m, c)
            });
            if std::is_x86_feature_detected!("fma") {
                #[allow(unsafe_code)]
                // SAFETY: AVX-512 F and FMA are both checked just above.
                report(
                    "zmm fused multiply-add",
                    millis,
                    ACC as u64,
                    32.0,
                    &|n| unsafe { x86::zmm_fma(n, m, c) },
                );
            }
        } else {
            println!("zmm: this CPU has no AVX-512 F");
        }
        if std::is_x86_feature_detected!("avx2") {
            #[allow(unsafe_code)]
            // SAFETY: the CPU runs AVX2 (checked on the line above), the
            // only feature `ymm_mul_add` is built with.
            report("ymm multiply + add", millis, ops, 8.0, &|n| unsafe {
                x86::ymm_mul_add(n, m, c)
            });
        } else {
            println!("ymm: this CPU has no AVX2");
        }
    }
    #[cfg(target_arch = "aarch64")]
    {
        #[allow(unsafe_code)]
        // SAFETY: NEON is a baseline feature of every aarch64 target, so
        // every CPU this binary runs on has it.
        report(
            "NEON multiply + add",
            millis,
            (2 * ACC) as u64,
            4.0,
            &|n| unsafe { arm::q_mul_add(n, m, c) },
        );
        #[allow(unsafe_code)]
        // SAFETY: as above; NEON includes the fused multiply-add.
        report(
            "NEON fused multiply-add",
            millis,
            ACC as u64,
            8.0,
            &|n| unsafe { arm::q_fma(n, m, c) },
        );
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        let _ = (m, c, millis);
        println!("fp-peak measures x86-64 and aarch64 vector units only");
    }
}
