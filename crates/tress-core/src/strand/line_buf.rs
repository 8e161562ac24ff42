//! Float buffers that start on a cache line.
//!
//! The chunked kernel loads and stores whole rows (16 or 32 floats: one or
//! two cache lines). A `Vec<f32>` only promises 4-byte alignment, and a
//! large one from the system allocator usually starts 16 bytes past a page,
//! so most row accesses straddled two lines. [`LineBuf`] over-allocates by
//! one line and exposes the part that starts on one; it is plain safe code
//! (the offset is found from the address, the data is an ordinary slice).

// The crate links `std` (not a separate `alloc`) under this feature.
#![allow(clippy::std_instead_of_alloc)]

use core::ops::{Deref, DerefMut};
use std::{vec, vec::Vec};

use crate::math::Real;

/// Bytes in a cache line on the CPUs the kernel is built for.
const LINE: usize = 64;
const PER_LINE: usize = LINE / core::mem::size_of::<Real>();

/// `len` floats starting on a cache line (when the allocator's block allows
/// it, which every one does for 4-byte floats), dereferencing to `[Real]`.
#[derive(Debug)]
pub struct LineBuf {
    /// The floats and one line more.
    data: Vec<Real>,
    /// Where the part on a line begins.
    start: usize,
}

impl LineBuf {
    /// `len` zeros.
    #[must_use]
    pub fn zeroed(len: usize) -> Self {
        let data = vec![0.0; len + PER_LINE];
        let misalign = data.as_ptr() as usize % LINE;
        // Floats are 4-byte aligned, so the distance to the next line is a
        // whole number of floats below PER_LINE.
        let start = ((LINE - misalign) % LINE) / core::mem::size_of::<Real>();
        Self { data, start }
    }

    /// The floats' place in `data`.
    fn range(&self) -> core::ops::Range<usize> {
        self.start..self.start + self.data.len() - PER_LINE
    }
}

/// A copy on a line of its own: a derived clone would copy the offset into
/// a new block that need not share the old one's misalignment.
impl Clone for LineBuf {
    fn clone(&self) -> Self {
        let mut c = Self::zeroed(self.len());
        c.copy_from_slice(self);
        c
    }
}

impl Deref for LineBuf {
    type Target = [Real];
    fn deref(&self) -> &[Real] {
        &self.data[self.range()]
    }
}

impl DerefMut for LineBuf {
    fn deref_mut(&mut self) -> &mut [Real] {
        let r = self.range();
        &mut self.data[r]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn starts_on_a_line_and_holds_its_length() {
        for n in [0, 1, 15, 16, 17, 96_000] {
            let mut b = LineBuf::zeroed(n);
            assert_eq!(b.len(), n);
            assert_eq!(b.as_ptr() as usize % LINE, 0, "n = {n}");
            assert!(b.iter().all(|&v| v == 0.0));
            if n > 0 {
                b[n - 1] = 1.0;
                assert_eq!(b[n - 1], 1.0);
            }
        }
    }

    #[test]
    fn a_clone_holds_the_same_floats_on_a_line_of_its_own() {
        for n in [1, 17, 96_000] {
            let mut b = LineBuf::zeroed(n);
            for (i, v) in b.iter_mut().enumerate() {
                *v = i as Real * 0.5 - 3.0;
            }
            // Clones made while other blocks come and go land at several
            // misalignments; every one must start on a line.
            let mut keep = Vec::new();
            for k in 0..8 {
                keep.push(vec![0u8; 4 * k + 4]);
                let c = b.clone();
                assert_eq!(c.as_ptr() as usize % LINE, 0, "n = {n}, k = {k}");
                assert_eq!(&c[..], &b[..]);
            }
        }
    }
}
