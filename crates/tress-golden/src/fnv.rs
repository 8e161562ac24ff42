//! FNV-1a over the bits of the solver's outputs.

use tress_core::math::{Quat, Vec3};

/// FNV-1a, 64 bits, over the little-endian bytes of each word.
#[derive(Clone, Copy, Debug)]
pub struct Fnv(pub u64);

impl Default for Fnv {
    fn default() -> Self {
        Self::new()
    }
}

impl Fnv {
    /// The hash of nothing (the FNV-1a offset basis).
    #[must_use]
    pub const fn new() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }

    /// Hashes one 32-bit word.
    pub fn word(&mut self, w: u32) {
        for b in w.to_le_bytes() {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    /// Hashes the bits of `v`'s components, x first.
    pub fn vec3(&mut self, v: Vec3) {
        for x in v.to_array() {
            self.word(x.to_bits());
        }
    }

    /// Hashes the bits of `q`'s components, x first.
    pub fn quat(&mut self, q: Quat) {
        for x in q.to_array() {
            self.word(x.to_bits());
        }
    }
}
