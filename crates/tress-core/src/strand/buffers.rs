//! Caller-owned structure-of-arrays buffers: the groom at rest and the live state.
//!
//! The solver never allocates; the caller sizes every array to
//! [`StrandLayout::len`] and the solver borrows them. Rest data is in the head
//! frame (the frame the head pose carries); live positions are in world space.

use super::layout::StrandLayout;
use crate::math::{Real, Vec3};

/// The groom at rest, head frame. `len[i]` is the rest length of the segment
/// ending at particle `i` (0 at the root) and `inv_len[i]` its reciprocal (0
/// for zero-length segments).
#[derive(Debug, Clone, Copy)]
pub struct StrandRest<'a> {
    /// Rest x.
    pub x: &'a [Real],
    /// Rest y.
    pub y: &'a [Real],
    /// Rest z.
    pub z: &'a [Real],
    /// Rest segment lengths.
    pub len: &'a [Real],
    /// Reciprocal rest segment lengths.
    pub inv_len: &'a [Real],
}

/// Live particle positions (`x`, `y`, `z`) and previous positions (`px`,
/// `py`, `pz`), world space. Velocity is implicit: `x − px` per step.
#[derive(Debug)]
pub struct StrandState<'a> {
    /// Current x.
    pub x: &'a mut [Real],
    /// Current y.
    pub y: &'a mut [Real],
    /// Current z.
    pub z: &'a mut [Real],
    /// Previous x.
    pub px: &'a mut [Real],
    /// Previous y.
    pub py: &'a mut [Real],
    /// Previous z.
    pub pz: &'a mut [Real],
}

/// Why buffers do not fit a layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BufferLenError {
    /// Length the layout needs.
    pub expected: usize,
    /// Shortest length found.
    pub found: usize,
}

impl core::fmt::Display for BufferLenError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "strand buffer has {} floats, layout needs {}",
            self.found, self.expected
        )
    }
}

impl core::error::Error for BufferLenError {}

/// `Ok` when every length is `expected`, else the first that is not.
pub(crate) fn check(lens: &[usize], expected: usize) -> Result<(), BufferLenError> {
    match lens.iter().find(|&&l| l != expected) {
        Some(&found) => Err(BufferLenError { expected, found }),
        None => Ok(()),
    }
}

impl<'a> StrandRest<'a> {
    /// Checks every array has the layout's length.
    ///
    /// # Errors
    /// [`BufferLenError`] naming the first mismatch.
    pub fn check(&self, layout: &StrandLayout) -> Result<(), BufferLenError> {
        check(
            &[
                self.x.len(),
                self.y.len(),
                self.z.len(),
                self.len.len(),
                self.inv_len.len(),
            ],
            layout.len(),
        )
    }

    /// Rest position of one particle.
    #[must_use]
    pub fn point(&self, layout: &StrandLayout, strand: usize, particle: usize) -> Vec3 {
        let i = layout.index(strand, particle);
        Vec3::new(self.x[i], self.y[i], self.z[i])
    }

    /// The arrays of chunks `from..to`.
    #[must_use]
    pub fn chunks(&self, layout: &StrandLayout, from: usize, to: usize) -> Self {
        let (a, b) = (from * layout.chunk_len(), to * layout.chunk_len());
        Self {
            x: &self.x[a..b],
            y: &self.y[a..b],
            z: &self.z[a..b],
            len: &self.len[a..b],
            inv_len: &self.inv_len[a..b],
        }
    }
}

impl<'a> StrandState<'a> {
    /// Checks every array has the layout's length.
    ///
    /// # Errors
    /// [`BufferLenError`] naming the first mismatch.
    pub fn check(&self, layout: &StrandLayout) -> Result<(), BufferLenError> {
        check(
            &[
                self.x.len(),
                self.y.len(),
                self.z.len(),
                self.px.len(),
                self.py.len(),
                self.pz.len(),
            ],
            layout.len(),
        )
    }

    /// Current position of one particle.
    #[must_use]
    pub fn point(&self, layout: &StrandLayout, strand: usize, particle: usize) -> Vec3 {
        let i = layout.index(strand, particle);
        Vec3::new(self.x[i], self.y[i], self.z[i])
    }

    /// Current position of the particle at buffer index `i`.
    #[must_use]
    pub fn at(&self, i: usize) -> Vec3 {
        Vec3::new(self.x[i], self.y[i], self.z[i])
    }

    /// Moves the particle at buffer index `i` and its previous position by
    /// `d`: a move that adds no velocity (the passes after a step use it,
    /// so nothing they push bounces back).
    pub fn shift(&mut self, i: usize, d: Vec3) {
        self.x[i] += d.x;
        self.y[i] += d.y;
        self.z[i] += d.z;
        self.px[i] += d.x;
        self.py[i] += d.y;
        self.pz[i] += d.z;
    }

    /// Reborrows the state for a shorter lifetime.
    pub fn reborrow(&mut self) -> StrandState<'_> {
        StrandState {
            x: self.x,
            y: self.y,
            z: self.z,
            px: self.px,
            py: self.py,
            pz: self.pz,
        }
    }

    /// Splits into chunks `..mid` and `mid..`, for threads.
    #[must_use]
    pub fn split_at_chunk(self, layout: &StrandLayout, mid: usize) -> (Self, Self) {
        let at = mid * layout.chunk_len();
        let (x0, x1) = self.x.split_at_mut(at);
        let (y0, y1) = self.y.split_at_mut(at);
        let (z0, z1) = self.z.split_at_mut(at);
        let (px0, px1) = self.px.split_at_mut(at);
        let (py0, py1) = self.py.split_at_mut(at);
        let (pz0, pz1) = self.pz.split_at_mut(at);
        (
            Self {
                x: x0,
                y: y0,
                z: z0,
                px: px0,
                py: py0,
                pz: pz0,
            },
            Self {
                x: x1,
                y: y1,
                z: z1,
                px: px1,
                py: py1,
                pz: pz1,
            },
        )
    }

    /// Places every particle at its rest pose carried by `rot`/`trans`, at rest
    /// (previous = current).
    pub fn reset_to_rest(&mut self, rest: &StrandRest<'_>, rot: crate::math::Mat3, trans: Vec3) {
        for i in 0..self.x.len().min(rest.x.len()) {
            let p = rot * Vec3::new(rest.x[i], rest.y[i], rest.z[i]) + trans;
            self.x[i] = p.x;
            self.y[i] = p.y;
            self.z[i] = p.z;
            self.px[i] = p.x;
            self.py[i] = p.y;
            self.pz[i] = p.z;
        }
    }
}

/// Fills rest arrays from a function giving each strand's groomed particle
/// positions (head frame). Padding strands repeat the last real strand, so
/// they simulate like it and never produce NaN.
///
/// # Errors
/// [`BufferLenError`] when an array does not have the layout's length.
pub fn fill_rest(
    layout: &StrandLayout,
    mut point: impl FnMut(usize, usize) -> Vec3,
    x: &mut [Real],
    y: &mut [Real],
    z: &mut [Real],
    len: &mut [Real],
    inv_len: &mut [Real],
) -> Result<(), BufferLenError> {
    check(
        &[x.len(), y.len(), z.len(), len.len(), inv_len.len()],
        layout.len(),
    )?;
    let last = layout.strands() - 1;
    for s in 0..layout.chunks() * layout.lanes() {
        let src = s.min(last);
        let mut prev = Vec3::ZERO;
        for p in 0..layout.particles() {
            let q = point(src, p);
            let i = layout.index(s, p);
            x[i] = q.x;
            y[i] = q.y;
            z[i] = q.z;
            let l = if p == 0 { 0.0 } else { (q - prev).length() };
            len[i] = l;
            inv_len[i] = if l > 0.0 { 1.0 / l } else { 0.0 };
            prev = q;
        }
    }
    Ok(())
}
