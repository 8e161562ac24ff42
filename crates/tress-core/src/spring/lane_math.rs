//! The vector types the lane kernel (`super::lanes`) is written over: glam's
//! `Vec4` for four lanes, and `F8`, eight lanes in one AVX register (x86-64,
//! made only with a [`simd::Avx2`] token, so only where the CPU has AVX2).
//!
//! Every operation is the IEEE operation of the scalar kernel lane by lane
//! (no fused multiply-add, correctly rounded square roots), so either width
//! gives the scalar kernel's bits.

use core::ops::{Add, BitAnd, BitOr, Div, Mul, Neg, Not, Sub};

use crate::math::{Mat4, Real, Vec3, Vec4, ops};
#[cfg(target_arch = "x86_64")]
use crate::simd;
use glam::BVec4A;

/// `W` lanes of `Real` with the operations the lane kernel uses.
///
/// Vectors are made from scalars only with an [`Lanes::Isa`] value, the
/// proof that this CPU runs the type's instructions; operations on vectors
/// that exist need none.
pub(crate) trait Lanes<const W: usize>:
    Copy
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
{
    /// One bit of truth per lane.
    type Mask: Copy
        + BitAnd<Output = Self::Mask>
        + BitOr<Output = Self::Mask>
        + Not<Output = Self::Mask>;
    /// What a vector is made with: `()` for `Vec4`, a detection token for
    /// wider types.
    type Isa: Copy;

    fn splat(isa: Self::Isa, x: Real) -> Self;
    fn from_array(isa: Self::Isa, a: [Real; W]) -> Self;
    fn lane(&self, i: usize) -> Real;
    fn set_lane(&mut self, i: usize, v: Real);
    fn cmplt(self, o: Self) -> Self::Mask;
    fn cmpgt(self, o: Self) -> Self::Mask;
    fn cmple(self, o: Self) -> Self::Mask;
    fn cmpge(self, o: Self) -> Self::Mask;
    fn cmpeq(self, o: Self) -> Self::Mask;
    /// `a` where `m` holds, else `b`.
    fn select(m: Self::Mask, a: Self, b: Self) -> Self;
    /// `if self > o { self } else { o }` per lane (x86's `maxps`, which
    /// glam's `Vec4::max` is).
    fn max(self, o: Self) -> Self;
    /// Correctly rounded square root per lane.
    fn sqrt(self) -> Self;
    /// Lanes set in `m` as bits (lane `i` is bit `i`).
    fn bits(m: Self::Mask) -> u32;
    /// The mask with the lanes of bit set `b`.
    fn mask_of(isa: Self::Isa, b: u32) -> Self::Mask;

    /// `W` vectors as three lane vectors (x, y, z).
    fn transpose_in(isa: Self::Isa, v: &[Vec3; W]) -> [Self; 3];
    /// Three lane vectors back as `W` vectors.
    fn transpose_out(x: Self, y: Self, z: Self) -> [Vec3; W];
    /// `W` four-vectors (quaternions) as four lane vectors.
    fn transpose_in4(isa: Self::Isa, v: &[Vec4; W]) -> [Self; 4];
    /// Four lane vectors back as `W` four-vectors.
    fn transpose_out4(x: Self, y: Self, z: Self, w: Self) -> [Vec4; W];
}

/// Comparisons that glam's `Vec4` has under the same names.
macro_rules! glam_compare {
    ($($f:ident),*) => {
        $(
            #[inline(always)]
            fn $f(self, o: Self) -> BVec4A {
                Vec4::$f(self, o)
            }
        )*
    };
}

impl Lanes<4> for Vec4 {
    type Mask = BVec4A;
    type Isa = ();

    #[inline(always)]
    fn splat((): (), x: Real) -> Self {
        Vec4::splat(x)
    }
    #[inline(always)]
    fn from_array((): (), a: [Real; 4]) -> Self {
        Vec4::from_array(a)
    }
    #[inline(always)]
    fn lane(&self, i: usize) -> Real {
        self[i]
    }
    #[inline(always)]
    fn set_lane(&mut self, i: usize, v: Real) {
        self[i] = v;
    }
    glam_compare!(cmplt, cmpgt, cmple, cmpge, cmpeq);
    #[inline(always)]
    fn select(m: BVec4A, a: Self, b: Self) -> Self {
        Vec4::select(m, a, b)
    }
    #[inline(always)]
    fn max(self, o: Self) -> Self {
        Vec4::max(self, o)
    }
    #[inline(always)]
    fn sqrt(self) -> Self {
        ops::sqrt4(self)
    }
    #[inline(always)]
    fn bits(m: BVec4A) -> u32 {
        m.bitmask()
    }
    #[inline(always)]
    fn mask_of((): (), b: u32) -> BVec4A {
        BVec4A::new(b & 1 != 0, b & 2 != 0, b & 4 != 0, b & 8 != 0)
    }

    /// One 4×4 shuffle transpose instead of twelve scalar inserts.
    #[inline(always)]
    fn transpose_in((): (), v: &[Vec3; 4]) -> [Self; 3] {
        let m = Mat4::from_cols(
            v[0].extend(0.0),
            v[1].extend(0.0),
            v[2].extend(0.0),
            v[3].extend(0.0),
        )
        .transpose();
        [m.x_axis, m.y_axis, m.z_axis]
    }

    #[inline(always)]
    fn transpose_out(x: Self, y: Self, z: Self) -> [Vec3; 4] {
        let m = Mat4::from_cols(x, y, z, Vec4::ZERO).transpose();
        [
            m.x_axis.truncate(),
            m.y_axis.truncate(),
            m.z_axis.truncate(),
            m.w_axis.truncate(),
        ]
    }

    #[inline(always)]
    fn transpose_in4((): (), v: &[Vec4; 4]) -> [Self; 4] {
        let m = Mat4::from_cols(v[0], v[1], v[2], v[3]).transpose();
        [m.x_axis, m.y_axis, m.z_axis, m.w_axis]
    }

    #[inline(always)]
    fn transpose_out4(x: Self, y: Self, z: Self, w: Self) -> [Vec4; 4] {
        let m = Mat4::from_cols(x, y, z, w).transpose();
        [m.x_axis, m.y_axis, m.z_axis, m.w_axis]
    }
}

/// Eight lanes in one AVX register.
///
/// Its operations are AVX/AVX2 instructions, so an `F8` may only exist on
/// a CPU that has them: every `F8` carries the [`simd::Avx2`] token it was
/// made with (zero-sized; only `simd::Isa::detect` makes one, after
/// detecting AVX2), and new vectors are made only from that token or from
/// existing vectors. Every `unsafe` block below rests on that.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug)]
pub(crate) struct F8(x86::__m256, simd::Avx2);

/// [`F8`]'s mask: all ones or all zeros per lane (carries its token too).
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug)]
pub(crate) struct M8(x86::__m256, simd::Avx2);

#[cfg(target_arch = "x86_64")]
use core::arch::x86_64 as x86;

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod eight {
    // Every block in this module calls AVX/AVX2 intrinsics, which is sound
    // because it runs with a `simd::Avx2` token at hand (the `F8`/`M8`
    // operands' or the `isa` argument), proof that the CPU has AVX2. Eight
    // lanes in one register: 6.1 → 5.45 µs per frame in `spring-bench`,
    // where two glam `Vec4` halves measured slower than four lanes
    // (docs/PERFORMANCE.md, "Fifth pass").
    use super::{F8, Lanes, M8, Real, Vec3, Vec4, simd, x86};
    use core::ops::{Add, BitAnd, BitOr, Div, Mul, Neg, Not, Sub};

    macro_rules! binary {
        ($t:ident, $trait:ident, $f:ident, $intr:ident) => {
            impl $trait for $t {
                type Output = Self;
                #[inline(always)]
                fn $f(self, o: Self) -> Self {
                    // SAFETY: `self` carries an AVX2 token (module comment).
                    Self(unsafe { x86::$intr(self.0, o.0) }, self.1)
                }
            }
        };
    }

    binary!(F8, Add, add, _mm256_add_ps);
    binary!(F8, Sub, sub, _mm256_sub_ps);
    binary!(F8, Mul, mul, _mm256_mul_ps);
    binary!(F8, Div, div, _mm256_div_ps);
    binary!(M8, BitAnd, bitand, _mm256_and_ps);
    binary!(M8, BitOr, bitor, _mm256_or_ps);

    impl Neg for F8 {
        type Output = Self;
        #[inline(always)]
        fn neg(self) -> Self {
            // Flipping the sign bit, as scalar negation does.
            // SAFETY: `self` carries an AVX2 token (module comment).
            let v = unsafe { x86::_mm256_xor_ps(self.0, x86::_mm256_set1_ps(-0.0)) };
            Self(v, self.1)
        }
    }

    impl Not for M8 {
        type Output = Self;
        #[inline(always)]
        fn not(self) -> Self {
            // SAFETY: `self` carries an AVX2 token (module comment).
            let v = unsafe {
                let ones = x86::_mm256_castsi256_ps(x86::_mm256_set1_epi32(-1));
                x86::_mm256_xor_ps(self.0, ones)
            };
            Self(v, self.1)
        }
    }

    macro_rules! compare {
        ($f:ident, $pred:ident) => {
            #[inline(always)]
            fn $f(self, o: Self) -> M8 {
                // Ordered, quiet: false where either side is NaN, as
                // Rust's comparison operators.
                // SAFETY: `self` carries an AVX2 token (module comment).
                let m = unsafe { x86::_mm256_cmp_ps::<{ x86::$pred }>(self.0, o.0) };
                M8(m, self.1)
            }
        };
    }

    impl F8 {
        #[inline(always)]
        fn to_array(self) -> [Real; 8] {
            let mut a = [0.0; 8];
            // SAFETY: `self` carries an AVX2 token (module comment); `a`
            // has room for eight.
            unsafe { x86::_mm256_storeu_ps(a.as_mut_ptr(), self.0) };
            a
        }

        #[inline(always)]
        fn halves(self) -> (Vec4, Vec4) {
            // SAFETY: `self` carries an AVX2 token (module comment).
            unsafe {
                (
                    Vec4::from(x86::_mm256_castps256_ps128(self.0)),
                    Vec4::from(x86::_mm256_extractf128_ps::<1>(self.0)),
                )
            }
        }

        #[inline(always)]
        fn from_halves(isa: simd::Avx2, lo: Vec4, hi: Vec4) -> Self {
            // SAFETY: `isa` is an AVX2 token (module comment).
            Self(unsafe { x86::_mm256_set_m128(hi.into(), lo.into()) }, isa)
        }
    }

    impl Lanes<8> for F8 {
        type Mask = M8;
        type Isa = simd::Avx2;

        #[inline(always)]
        fn splat(isa: simd::Avx2, x: Real) -> Self {
            // SAFETY: `isa` is an AVX2 token (module comment).
            Self(unsafe { x86::_mm256_set1_ps(x) }, isa)
        }
        #[inline(always)]
        fn from_array(isa: simd::Avx2, a: [Real; 8]) -> Self {
            // SAFETY: `isa` is an AVX2 token (module comment); `a` holds eight.
            Self(unsafe { x86::_mm256_loadu_ps(a.as_ptr()) }, isa)
        }
        #[inline(always)]
        fn lane(&self, i: usize) -> Real {
            self.to_array()[i]
        }
        #[inline(always)]
        fn set_lane(&mut self, i: usize, v: Real) {
            let mut a = self.to_array();
            a[i] = v;
            *self = Self::from_array(self.1, a);
        }
        compare!(cmplt, _CMP_LT_OQ);
        compare!(cmpgt, _CMP_GT_OQ);
        compare!(cmple, _CMP_LE_OQ);
        compare!(cmpge, _CMP_GE_OQ);
        compare!(cmpeq, _CMP_EQ_OQ);
        #[inline(always)]
        fn select(m: M8, a: Self, b: Self) -> Self {
            // SAFETY: `a` carries an AVX2 token (module comment).
            Self(unsafe { x86::_mm256_blendv_ps(b.0, a.0, m.0) }, a.1)
        }
        #[inline(always)]
        fn max(self, o: Self) -> Self {
            // `maxps` semantics, lane for lane those of glam's `Vec4::max`.
            // SAFETY: `self` carries an AVX2 token (module comment).
            Self(unsafe { x86::_mm256_max_ps(self.0, o.0) }, self.1)
        }
        #[inline(always)]
        fn sqrt(self) -> Self {
            // SAFETY: `self` carries an AVX2 token (module comment).
            Self(unsafe { x86::_mm256_sqrt_ps(self.0) }, self.1)
        }
        #[inline(always)]
        fn bits(m: M8) -> u32 {
            // SAFETY: `m` carries an AVX2 token (module comment).
            (unsafe { x86::_mm256_movemask_ps(m.0) }) as u32
        }
        #[inline(always)]
        fn mask_of(isa: simd::Avx2, b: u32) -> M8 {
            // SAFETY: `isa` is an AVX2 token (module comment).
            let m = unsafe {
                let lane_bits = x86::_mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
                let set = x86::_mm256_and_si256(x86::_mm256_set1_epi32(b as i32), lane_bits);
                x86::_mm256_castsi256_ps(x86::_mm256_cmpeq_epi32(set, lane_bits))
            };
            M8(m, isa)
        }

        /// Two 4×4 shuffle transposes.
        #[inline(always)]
        fn transpose_in(isa: simd::Avx2, v: &[Vec3; 8]) -> [Self; 3] {
            let [lx, ly, lz] = <Vec4 as Lanes<4>>::transpose_in((), &[v[0], v[1], v[2], v[3]]);
            let [hx, hy, hz] = <Vec4 as Lanes<4>>::transpose_in((), &[v[4], v[5], v[6], v[7]]);
            [
                Self::from_halves(isa, lx, hx),
                Self::from_halves(isa, ly, hy),
                Self::from_halves(isa, lz, hz),
            ]
        }

        #[inline(always)]
        fn transpose_out(x: Self, y: Self, z: Self) -> [Vec3; 8] {
            let ((xl, xh), (yl, yh), (zl, zh)) = (x.halves(), y.halves(), z.halves());
            let [a, b, c, d] = <Vec4 as Lanes<4>>::transpose_out(xl, yl, zl);
            let [e, f, g, h] = <Vec4 as Lanes<4>>::transpose_out(xh, yh, zh);
            [a, b, c, d, e, f, g, h]
        }

        #[inline(always)]
        fn transpose_in4(isa: simd::Avx2, v: &[Vec4; 8]) -> [Self; 4] {
            let [lx, ly, lz, lw] = <Vec4 as Lanes<4>>::transpose_in4((), &[v[0], v[1], v[2], v[3]]);
            let [hx, hy, hz, hw] = <Vec4 as Lanes<4>>::transpose_in4((), &[v[4], v[5], v[6], v[7]]);
            [
                Self::from_halves(isa, lx, hx),
                Self::from_halves(isa, ly, hy),
                Self::from_halves(isa, lz, hz),
                Self::from_halves(isa, lw, hw),
            ]
        }

        #[inline(always)]
        fn transpose_out4(x: Self, y: Self, z: Self, w: Self) -> [Vec4; 8] {
            let ((xl, xh), (yl, yh)) = (x.halves(), y.halves());
            let ((zl, zh), (wl, wh)) = (z.halves(), w.halves());
            let [a, b, c, d] = <Vec4 as Lanes<4>>::transpose_out4(xl, yl, zl, wl);
            let [e, f, g, h] = <Vec4 as Lanes<4>>::transpose_out4(xh, yh, zh, wh);
            [a, b, c, d, e, f, g, h]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A NaN's payload may differ where the compiler folds the scalar
    /// operation at build time; NaN-ness must agree.
    fn same(x: Real, y: Real) -> bool {
        x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan())
    }

    const VALS: [Real; 8] = [1.5, -0.0, 0.0, Real::NAN, Real::INFINITY, -2.25, 1e-30, 3.0];
    const OTHER: [Real; 8] = [1.5, 0.0, -0.0, 1.0, 2.0, Real::NAN, 1e-30, -3.0];

    /// Checks a width's operations against the scalar ones, lane by lane and
    /// bit for bit, on values that include NaN, signed zeros and infinities.
    fn check<const W: usize, S: Lanes<W>>(isa: S::Isa) {
        let a = S::from_array(isa, core::array::from_fn(|i| VALS[i]));
        let b = S::from_array(isa, core::array::from_fn(|i| OTHER[i]));
        for i in 0..W {
            let (x, y) = (VALS[i], OTHER[i]);
            assert!(same((a + b).lane(i), x + y), "{W}: add lane {i}");
            assert!(same((a - b).lane(i), x - y), "{W}: sub lane {i}");
            assert!(same((a * b).lane(i), x * y), "{W}: mul lane {i}");
            assert!(same((a / b).lane(i), x / y), "{W}: div lane {i}");
            assert!(same((-a).lane(i), -x), "{W}: neg lane {i}");
            assert!(same(a.sqrt().lane(i), ops::sqrt(x)), "{W}: sqrt lane {i}");
            let mx = if x > y { x } else { y };
            assert!(same(a.max(b).lane(i), mx), "{W}: max lane {i}");
            assert_eq!(S::bits(a.cmplt(b)) >> i & 1 == 1, x < y);
            assert_eq!(S::bits(a.cmpgt(b)) >> i & 1 == 1, x > y);
            assert_eq!(S::bits(a.cmple(b)) >> i & 1 == 1, x <= y);
            assert_eq!(S::bits(a.cmpge(b)) >> i & 1 == 1, x >= y);
            assert_eq!(S::bits(a.cmpeq(b)) >> i & 1 == 1, x == y);
            assert_eq!(S::bits(!a.cmpeq(b)) >> i & 1 == 1, x != y);
            let both = a.cmpge(b) & a.cmple(b);
            assert_eq!(S::bits(both) >> i & 1 == 1, x == y);
            let either = a.cmpgt(b) | a.cmplt(b);
            assert_eq!(
                S::bits(either) >> i & 1 == 1,
                x.partial_cmp(&y).is_some_and(core::cmp::Ordering::is_ne)
            );
            let sel = S::select(a.cmpgt(b), a, b);
            assert!(same(sel.lane(i), mx), "{W}: select lane {i}");
        }
        let all = (1u32 << W) - 1;
        for m in [0u32, 0x5a, 0xff, 0x81, 0x3, 0xc] {
            assert_eq!(S::bits(S::mask_of(isa, m & all)), m & all);
        }
        let v: [Vec3; W] = core::array::from_fn(|i| Vec3::new(VALS[i], OTHER[i], i as Real));
        let [x, y, z] = S::transpose_in(isa, &v);
        let back = S::transpose_out(x, y, z);
        for i in 0..W {
            assert!(same(x.lane(i), v[i].x) && same(y.lane(i), v[i].y) && same(z.lane(i), v[i].z));
            assert!(same(back[i].x, v[i].x) && same(back[i].y, v[i].y) && same(back[i].z, v[i].z));
        }
        let q: [Vec4; W] =
            core::array::from_fn(|i| Vec4::new(VALS[i], OTHER[i], i as Real, -(i as Real)));
        let [x, y, z, w] = S::transpose_in4(isa, &q);
        let back = S::transpose_out4(x, y, z, w);
        for i in 0..W {
            let lanes = [x.lane(i), y.lane(i), z.lane(i), w.lane(i)];
            let (want, got) = (q[i].to_array(), back[i].to_array());
            for c in 0..4 {
                assert!(
                    same(lanes[c], want[c]) && same(got[c], want[c]),
                    "{W}: 4-transpose {i}"
                );
            }
        }
        let mut c = a;
        c.set_lane(W - 1, 7.0);
        assert!(same(c.lane(W - 1), 7.0) && same(c.lane(0), a.lane(0)));
    }

    #[test]
    fn four_lanes_match_scalar_operations() {
        check::<4, Vec4>(());
    }

    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    #[test]
    fn eight_lanes_match_scalar_operations() {
        let Some(avx2) = crate::simd::Isa::detect().avx2() else {
            std::eprintln!("eight_lanes_match_scalar_operations: skipped, this CPU lacks AVX2");
            return;
        };
        check::<8, F8>(avx2);
    }
}
