//! Workspace-level integration tests: behaviour that spans crates.

mod assets;
mod credits;
