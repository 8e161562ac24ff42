//! Shared test helpers.

pub use tress_testkit::shared_assets as assets_dir;
