//! SIMD dispatch for every solver: which vector instructions this CPU runs
//! ([`Isa`], detected once when a world or simulator is made), and
//! `target_build!`, the one macro that compiles a kernel for them.
//!
//! An instruction set beyond the build's baseline is represented by a
//! zero-sized token ([`Avx2`], [`Avx512`]) whose only constructor is
//! [`Isa::detect`]: holding one proves the CPU runs those instructions. The
//! builds made by `target_build!` take the token as their first argument,
//! so they are safe functions, and the one `unsafe` call into the
//! `#[target_feature]` code lives in the macro. The spring kernel's
//! eight-lane vector type (`spring::lane_math::F8`) is made only from an
//! [`Avx2`] token as well.
//!
//! Builds, by the lanes they step at once:
//!
//! | build                          | lanes             | needs                        |
//! |--------------------------------|-------------------|------------------------------|
//! | spring `step_group4`           | 4 chains (`Vec4`) | baseline (SSE2 on x86-64)    |
//! | spring `step_group8_avx2`      | 8 chains (`F8`)   | [`Avx2`]                     |
//! | spring `step_group8_avx512`    | 8 chains (`F8`)   | [`Avx512`] (32 registers)    |
//! | strand portable                | 16 or 32 strands  | baseline                     |
//! | strand `step_chunks16_avx2`    | 16 strands        | [`Avx2`]                     |
//! | strand `step_chunks32_avx512`  | 32 strands        | [`Avx512`]                   |
//!
//! No build enables FMA contraction (Rust never fuses a multiply and an add
//! unless asked), so every build computes the portable build's bits; the
//! solvers' tests hold them to it.

/// Whether the CPU has every x86 feature listed: detected at run time with
/// `std`, else read from the build's target features.
#[cfg(all(target_arch = "x86_64", feature = "std"))]
macro_rules! has {
    ($($f:tt),+) => { $(std::is_x86_feature_detected!($f))&&+ };
}
#[cfg(all(target_arch = "x86_64", not(feature = "std")))]
macro_rules! has {
    ($($f:tt),+) => { cfg!(all($(target_feature = $f),+)) };
}

/// What a token holds: nothing where its instructions can exist, and an
/// uninhabited type elsewhere, so that no token can exist there at all.
#[cfg(target_arch = "x86_64")]
type Proof = ();
#[cfg(not(target_arch = "x86_64"))]
type Proof = core::convert::Infallible;

/// Proof that this CPU runs AVX2 (x86-64). Zero-sized; only
/// [`Isa::detect`] makes one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Avx2(Proof);

/// Proof that this CPU runs AVX2 and AVX-512 F, VL, DQ and BW (x86-64).
/// Zero-sized; only [`Isa::detect`] makes one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Avx512(Proof);

impl Avx512 {
    /// AVX-512 CPUs run AVX2.
    #[must_use]
    #[allow(clippy::unit_arg)] // the proof is `()` on x86-64
    pub fn avx2(self) -> Avx2 {
        Avx2(self.0)
    }
}

/// The vector instruction set a solver's builds are chosen for.
///
/// [`Isa::detect`] gives the best this CPU runs; [`Isa::Portable`] (and any
/// lower level, see [`Isa::at_most`]) may always be chosen instead, and
/// computes the same bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Isa {
    /// The build's own target features only (SSE2 on default x86-64).
    Portable,
    /// AVX2.
    Avx2(Avx2),
    /// AVX2 and AVX-512 F, VL, DQ, BW.
    Avx512(Avx512),
}

impl Isa {
    /// The best level this CPU runs: detected at run time with `std` on
    /// x86-64, from the build's target features otherwise.
    #[must_use]
    pub fn detect() -> Self {
        #[cfg(target_arch = "x86_64")]
        {
            if has!("avx2") {
                if has!("avx512f", "avx512vl", "avx512dq", "avx512bw") {
                    return Self::Avx512(Avx512(()));
                }
                return Self::Avx2(Avx2(()));
            }
        }
        Self::Portable
    }

    /// `self`, or `level` when that is lower: [`Isa::Portable`] is lowest,
    /// then AVX2, then AVX-512. (For tests and benchmarks that compare
    /// builds.)
    #[must_use]
    // Elsewhere than x86-64 the token arms cannot be reached (no tokens).
    #[cfg_attr(not(target_arch = "x86_64"), allow(unreachable_code))]
    pub fn at_most(self, level: IsaLevel) -> Self {
        match (self, level) {
            (_, IsaLevel::Portable) => Self::Portable,
            (Self::Avx512(t), IsaLevel::Avx2) => Self::Avx2(t.avx2()),
            _ => self,
        }
    }

    /// The AVX2 token, where this level includes AVX2.
    #[must_use]
    // Elsewhere than x86-64 the token arms cannot be reached (no tokens).
    #[cfg_attr(not(target_arch = "x86_64"), allow(unreachable_code))]
    pub fn avx2(self) -> Option<Avx2> {
        match self {
            Self::Portable => None,
            Self::Avx2(t) => Some(t),
            Self::Avx512(t) => Some(t.avx2()),
        }
    }

    /// The AVX-512 token, where this level includes AVX-512.
    #[must_use]
    pub fn avx512(self) -> Option<Avx512> {
        match self {
            Self::Avx512(t) => Some(t),
            _ => None,
        }
    }

    /// The level without its token.
    #[must_use]
    pub fn level(self) -> IsaLevel {
        match self {
            Self::Portable => IsaLevel::Portable,
            Self::Avx2(_) => IsaLevel::Avx2,
            Self::Avx512(_) => IsaLevel::Avx512,
        }
    }
}

/// An [`Isa`] level by name (no proof attached), for [`Isa::at_most`] and
/// for reporting.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum IsaLevel {
    /// [`Isa::Portable`].
    Portable,
    /// [`Isa::Avx2`].
    Avx2,
    /// [`Isa::Avx512`].
    Avx512,
}

/// Defines `fn $name(token, args…)`: `$body` compiled with the target
/// features of the token's instruction set, callable safely because the
/// token proves the CPU runs them. The token type is written `Avx2` or
/// `Avx512` (the two levels [`Isa::detect`] checks, with exactly the
/// features enabled here). Where the tokens cannot exist (not x86-64) the
/// function has the same signature and cannot be called.
///
/// ```text
/// target_build! {
///     /// The kernel for AVX2 CPUs.
///     fn kernel_avx2(token: Avx2, xs: &mut [f32]) {
///         kernel_generic(xs)
///     }
/// }
/// ```
macro_rules! target_build {
    (
        $(#[$attr:meta])*
        $vis:vis fn $name:ident($token:ident: Avx2 $(, $arg:ident: $ty:ty)* $(,)?)
        $(-> $ret:ty)? $body:block
    ) => {
        $crate::simd::target_build!(@build "avx2", Avx2,
            $(#[$attr])* $vis fn $name($token $(, $arg: $ty)*) $(-> $ret)? $body);
    };
    (
        $(#[$attr:meta])*
        $vis:vis fn $name:ident($token:ident: Avx512 $(, $arg:ident: $ty:ty)* $(,)?)
        $(-> $ret:ty)? $body:block
    ) => {
        $crate::simd::target_build!(@build "avx2,avx512f,avx512vl,avx512dq,avx512bw", Avx512,
            $(#[$attr])* $vis fn $name($token $(, $arg: $ty)*) $(-> $ret)? $body);
    };
    (@build $features:literal, $tok:ident,
        $(#[$attr:meta])*
        $vis:vis fn $name:ident($token:ident $(, $arg:ident: $ty:ty)*) $(-> $ret:ty)? $body:block
    ) => {
        $(#[$attr])*
        #[cfg(target_arch = "x86_64")]
        #[allow(unsafe_code)]
        $vis fn $name($token: $crate::simd::$tok $(, $arg: $ty)*) $(-> $ret)? {
            #[target_feature(enable = $features)]
            fn build($token: $crate::simd::$tok $(, $arg: $ty)*) $(-> $ret)? $body
            // SAFETY: `build` needs exactly the features `Isa::detect`
            // checked before making the token passed in, so the CPU has them.
            unsafe {
                build($token $(, $arg)*)
            }
        }

        $(#[$attr])*
        #[cfg(not(target_arch = "x86_64"))]
        $vis fn $name($token: $crate::simd::$tok $(, $arg: $ty)*) $(-> $ret)? {
            let _ = ($($arg,)*);
            $token.unreachable()
        }
    };
}
pub(crate) use target_build;

#[cfg(not(target_arch = "x86_64"))]
impl Avx2 {
    /// No token exists here.
    pub(crate) fn unreachable(self) -> ! {
        match self.0 {}
    }
}

#[cfg(not(target_arch = "x86_64"))]
impl Avx512 {
    /// No token exists here.
    pub(crate) fn unreachable(self) -> ! {
        match self.0 {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lower_levels_are_always_available() {
        let best = Isa::detect();
        assert_eq!(best.at_most(IsaLevel::Portable), Isa::Portable);
        assert!(best.at_most(IsaLevel::Avx2).level() <= IsaLevel::Avx2);
        assert_eq!(best.at_most(IsaLevel::Avx512), best);
        assert_eq!(best.avx512().is_some(), best.level() == IsaLevel::Avx512);
        assert_eq!(best.avx2().is_some(), best.level() >= IsaLevel::Avx2);
    }
}
