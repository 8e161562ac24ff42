//! Scalar and vector aliases, the rigid [`Pose`], and [`ops`], the single
//! home of float functions.
//!
//! Aliases let the precision change in one place later; `ops` routes through
//! `libm` so that results do not depend on the platform's or std's float
//! implementation (clippy's `disallowed-methods` forbids `f32::sqrt` and
//! friends elsewhere).

pub mod affine;
mod pose;
pub mod quat;

/// The scalar type of every solver.
pub type Real = f32;
pub use glam::{Mat3, Mat4, Quat, Vec3, Vec3A, Vec4};
pub use pose::Pose;

/// Float functions, backed by `libm` (the square root on x86-64 by the SSE
/// instruction: correctly rounded, so the same bits).
pub mod ops {
    use super::Real;

    /// Square root of each lane, correctly rounded: the same bits as
    /// [`sqrt`] lane by lane (IEEE 754 square root has one correct result),
    /// one vector instruction where the target has one.
    #[inline(always)]
    #[must_use]
    pub fn sqrt4(x: super::Vec4) -> super::Vec4 {
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        #[allow(unsafe_code)]
        // SAFETY: `_mm_sqrt_ps` needs SSE, which this branch is compiled
        // only for (`target_feature = "sse2"` implies SSE). Four scalar
        // square roots instead cost the spring lane kernel 8 % of its time
        // (`perf annotate`, docs/PERFORMANCE.md).
        unsafe {
            super::Vec4::from(core::arch::x86_64::_mm_sqrt_ps(x.into()))
        }
        #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
        {
            super::Vec4::new(sqrt(x.x), sqrt(x.y), sqrt(x.z), sqrt(x.w))
        }
    }

    /// Square root, correctly rounded (the same bits as libm's everywhere).
    ///
    /// On x86-64 through the SSE intrinsic rather than libm, whose `sqrtss`
    /// is inline assembly in the legacy (non-VEX) encoding: inlined into
    /// the AVX-512 kernels it stalls on the SSE/AVX state transition on
    /// Intel cores, about 300 cycles each (`perf annotate` of strand-bench
    /// on an Intel Xeon, docs/PERFORMANCE.md); the intrinsic is encoded to
    /// suit the function it is inlined into.
    #[inline]
    #[must_use]
    pub fn sqrt(x: Real) -> Real {
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        #[allow(unsafe_code)]
        // SAFETY: `_mm_set_ss`, `_mm_sqrt_ss` and `_mm_cvtss_f32` need SSE,
        // which this branch is compiled only for (`sse2` implies it); they
        // touch no memory.
        unsafe {
            use core::arch::x86_64::{_mm_cvtss_f32, _mm_set_ss, _mm_sqrt_ss};
            _mm_cvtss_f32(_mm_sqrt_ss(_mm_set_ss(x)))
        }
        #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
        {
            libm::sqrtf(x)
        }
    }
    /// Sine of `x` radians.
    #[inline]
    #[must_use]
    pub fn sin(x: Real) -> Real {
        libm::sinf(x)
    }
    /// Cosine of `x` radians.
    #[inline]
    #[must_use]
    pub fn cos(x: Real) -> Real {
        libm::cosf(x)
    }
    /// Sine and cosine of `x` radians.
    #[inline]
    #[must_use]
    pub fn sin_cos(x: Real) -> (Real, Real) {
        libm::sincosf(x)
    }
    /// Tangent of `x` radians.
    #[inline]
    #[must_use]
    pub fn tan(x: Real) -> Real {
        libm::tanf(x)
    }
    /// e^x.
    #[inline]
    #[must_use]
    pub fn exp(x: Real) -> Real {
        libm::expf(x)
    }
    /// Natural logarithm.
    #[inline]
    #[must_use]
    pub fn ln(x: Real) -> Real {
        libm::logf(x)
    }
    /// x^y.
    #[inline]
    #[must_use]
    pub fn powf(x: Real, y: Real) -> Real {
        libm::powf(x, y)
    }
    /// Four-quadrant arctangent of y/x.
    #[inline]
    #[must_use]
    pub fn atan2(y: Real, x: Real) -> Real {
        libm::atan2f(y, x)
    }
    /// Arccosine, with the argument clamped to [-1, 1] so rounding never yields NaN.
    #[inline]
    #[must_use]
    pub fn acos_clamped(x: Real) -> Real {
        libm::acosf(x.clamp(-1.0, 1.0))
    }
    /// Arcsine, with the argument clamped to [-1, 1].
    #[inline]
    #[must_use]
    pub fn asin_clamped(x: Real) -> Real {
        libm::asinf(x.clamp(-1.0, 1.0))
    }
    /// sqrt(x² + y²) without undue overflow.
    #[inline]
    #[must_use]
    pub fn hypot(x: Real, y: Real) -> Real {
        libm::hypotf(x, y)
    }
    /// Absolute value (bit operation; exact everywhere).
    #[inline]
    #[must_use]
    pub fn abs(x: Real) -> Real {
        libm::fabsf(x)
    }
    /// Largest integer not greater than x.
    #[inline]
    #[must_use]
    pub fn floor(x: Real) -> Real {
        libm::floorf(x)
    }
    /// Rounds half away from zero.
    #[inline]
    #[must_use]
    pub fn round(x: Real) -> Real {
        libm::roundf(x)
    }
}

#[cfg(test)]
mod tests {
    use super::ops;

    #[test]
    fn ops_match_known_values() {
        // Reference values: exact mathematical identities.
        assert_eq!(ops::sqrt(4.0), 2.0);
        assert!((ops::sin(core::f32::consts::FRAC_PI_2) - 1.0).abs() < 1e-7);
        assert!((ops::exp(1.0) - core::f32::consts::E).abs() < 1e-6);
        assert_eq!(ops::acos_clamped(1.000_001), 0.0);
        assert!(!ops::acos_clamped(-1.000_001).is_nan());
    }
}
