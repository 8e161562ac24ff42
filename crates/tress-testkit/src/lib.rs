//! Helpers shared by the integration tests of every Tress crate.
//!
//! The real third-party assets (`../shared/assets`, beside the repository)
//! are read by path and never copied in; a test that needs them says loudly
//! when they are absent, and fails under CI (`CI` set), where they are
//! always provided.

use std::path::PathBuf;

/// The repository root (this crate lives in `crates/tress-testkit`).
#[must_use]
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `../shared/assets` beside the repository, or `None` after saying loudly
/// that it is missing.
///
/// # Panics
/// When the folder is missing and `CI` is set: the real-asset tests must run
/// there.
#[must_use]
pub fn shared_assets() -> Option<PathBuf> {
    let dir = repo_root().join("../shared/assets");
    if dir.join("README.md").is_file() {
        return Some(dir);
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "../shared/assets not found at {} and CI is set: the real-asset tests cannot run",
        dir.display()
    );
    eprintln!(
        "\n!!!!!!!! SKIPPED: ../shared/assets not found at {} — real-asset checks did NOT run !!!!!!!!\n",
        dir.display()
    );
    None
}
