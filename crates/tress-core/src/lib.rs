//! Tress core: the `no_std` math and solvers behind Tress hair motion.
//!
//! Everything here runs without an allocator in a simulation step, and every
//! float function goes through [`math::ops`] (libm) so a step gives the same
//! bits with and without `std`.
//!
//! - [`clock`]: the fixed step rate and the integer-tick clock both solvers run on.
//! - [`collide`]: collider shapes and contact queries shared by the solvers.
//! - [`math`]: scalar/vector aliases, the rigid [`math::Pose`] and the one
//!   module of float functions.
//! - [`simd`]: the instruction set detected per world or simulator, and the
//!   one macro that builds kernels for it.
//! - [`spring`]: the spring-chain hair solver (fixed step, no curl, no rebound).
//! - [`strand`]: TressFX-style particle strands.
#![no_std]
#![deny(unsafe_code)]

#[cfg(feature = "std")]
extern crate std;

pub mod clock;
pub mod collide;
pub mod constraint;
pub mod math;
pub mod simd;
pub mod spring;
pub mod strand;

// The usage snippets of the docs run as doctests, so they cannot rot.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/SOLVER.md")]
mod solver_md {}
#[cfg(all(doctest, feature = "std"))] // `StrandSim` needs `std`
#[doc = include_str!("../../../docs/STRANDS.md")]
mod strands_md {}

#[cfg(test)]
mod tests {
    use core::error::Error;
    use core::fmt::Write;

    /// `e`'s message, through the `Error` trait object.
    fn message(e: &dyn Error) -> heapless::String<128> {
        let mut s = heapless::String::new();
        write!(s, "{e}").unwrap();
        s
    }

    #[test]
    fn error_types_are_errors_with_messages() {
        use crate::constraint::CycleError;
        use crate::spring::SetupError;
        use crate::strand::{BufferLenError, LayoutError};
        let all: [&dyn Error; 7] = [
            &SetupError::Capacity,
            &SetupError::BadIndex,
            &SetupError::BadLength,
            &LayoutError::NoStrands,
            &LayoutError::Lanes(8),
            &BufferLenError {
                expected: 32,
                found: 16,
            },
            &CycleError { constraint: 3 },
        ];
        for e in all {
            assert!(!message(e).is_empty(), "{e:?}");
        }
        assert_eq!(
            message(&LayoutError::Lanes(8)),
            "8 lanes per chunk; use 16 or 32"
        );
    }
}
