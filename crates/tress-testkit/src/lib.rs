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

/// A seeded xorshift64 generator for randomised tests: the same sequence on
/// every platform, so a failure names a seed that reproduces it anywhere.
#[derive(Debug, Clone)]
pub struct Xorshift(u64);

impl Xorshift {
    /// A generator from `seed` (any value; mixed so that neighbouring seeds
    /// start far apart, and never zero).
    #[must_use]
    pub fn new(seed: u64) -> Self {
        Self(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// A value in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }

    /// A value in `[0, 1)` with 24 random bits.
    pub fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }
}
