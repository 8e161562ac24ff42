//! The pieces of the `tress` command-line tool that are worth testing
//! without a process: report builders.
//!
//! - [`inspect`]: `tress inspect FILE`.
//! - [`animations`]: `tress validate-anim`.
//! - [`measure`]: `tress measure FILE ...` (arguments and JSON).
//! - [`fit_colliders`]: `tress fit-colliders FILE ...` and the before/after
//!   lines of `tress measure --fit-colliders`.

pub mod animations;
pub mod fit_colliders;
pub mod inspect;
pub mod measure;
