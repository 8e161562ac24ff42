//! The pieces of the `tress` command-line tool that are worth testing
//! without a process: report builders.
//!
//! - [`inspect`]: `tress inspect FILE`.
//! - [`measure`]: `tress measure FILE ...` (arguments and JSON).

pub mod inspect;
pub mod measure;
