//! Helpers shared by the workspace-level integration tests.

use std::path::PathBuf;

/// The repository root (this crate lives in `tests/`).
#[must_use]
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ has a parent")
        .to_path_buf()
}

/// `../shared/assets` beside the repository, if present. When absent this
/// prints a loud notice, and fails under CI (`CI` set), where the folder
/// is always provided.
#[must_use]
pub fn shared_assets() -> Option<PathBuf> {
    let dir = repo_root().join("../shared/assets");
    if dir.is_dir() {
        return Some(dir);
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "../shared/assets is missing under CI"
    );
    eprintln!("SKIPPED: ../shared/assets not found beside the repository");
    None
}
