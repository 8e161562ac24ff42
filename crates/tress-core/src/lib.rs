//! Tress core: the `no_std` math and solvers behind Tress hair motion.
//!
//! Everything here runs without an allocator in a simulation step, and every
//! float function goes through [`math::ops`] (libm) so a step gives the same
//! bits with and without `std`.
//!
//! - [`collide`]: collider shapes and contact queries shared by the solvers.
//! - [`math`]: scalar/vector aliases and the one module of float functions.
//! - [`spring`]: the spring-chain hair solver (fixed step, no curl, no rebound).
#![no_std]
#![deny(unsafe_code)]

#[cfg(feature = "std")]
extern crate std;

pub mod collide;
pub mod constraint;
pub mod math;
pub mod spring;
pub mod strand;
