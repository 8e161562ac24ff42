//! What the `tress` command prints, built as strings and JSON so it can be
//! tested without a process.
//!
//! - [`inspect`]: `tress inspect FILE`.
//! - [`measure`]: the JSON of `tress measure FILE --json OUT.json`.
//! - [`fit_colliders`]: the before/after lines of
//!   `tress measure --fit-colliders`.

pub mod fit_colliders;
pub mod inspect;
pub mod measure;
