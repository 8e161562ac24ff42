//! Workspace-level integration tests (`integration/`): behaviour that spans
//! crates, such as the committed assets equalling a fresh generation.

pub use tress_testkit::{repo_root, shared_assets};
