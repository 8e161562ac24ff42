//! The pieces of the `tress` command-line tool that are worth testing
//! without a process: report builders.
//!
//! - [`inspect`]: `tress inspect FILE`.
//! - [`animations`]: `tress validate-anim`.
//! - [`measure`]: `tress measure FILE ...` (arguments and JSON).

pub mod animations;
pub mod inspect;
pub mod measure;
