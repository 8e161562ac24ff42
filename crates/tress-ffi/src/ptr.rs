//! The only raw-pointer code of the crate: C pointers and lengths turned
//! into Rust slices and strings, each after a null check.
//!
//! Single structs cross the boundary as `Option<&T>` / `Option<&mut T>`
//! (the C ABI of a nullable pointer), which needs no `unsafe`; only
//! pointer-and-length pairs and C strings come through here.

use core::ffi::{CStr, c_char};

use crate::status::{Error, Result, TressStatus};

/// The required pointer argument `p`, or a [`TressStatus::NullPointer`] error naming it.
pub(crate) fn required<T>(p: Option<T>, what: &str) -> Result<T> {
    p.ok_or_else(|| Error::new(TressStatus::NullPointer, format!("`{what}` is null")))
}

/// `n` elements at `p` (empty when `n` is 0, whatever `p` is).
///
/// # Safety
/// When `n > 0` and `p` is not null, `p` points to `n` initialised, aligned
/// elements that nothing writes while the slice lives.
pub(crate) unsafe fn slice<'a, T>(p: *const T, n: usize, what: &str) -> Result<&'a [T]> {
    if n == 0 {
        return Ok(&[]);
    }
    if p.is_null() {
        return Err(Error::new(
            TressStatus::NullPointer,
            format!("`{what}` is null with length {n}"),
        ));
    }
    // SAFETY: not null, and the caller promises `n` valid elements.
    Ok(unsafe { core::slice::from_raw_parts(p, n) })
}

/// `n` writable elements at `p` (empty when `n` is 0).
///
/// # Safety
/// When `n > 0` and `p` is not null, `p` points to `n` aligned elements
/// that nothing else reads or writes while the slice lives.
pub(crate) unsafe fn slice_mut<'a, T>(p: *mut T, n: usize, what: &str) -> Result<&'a mut [T]> {
    if n == 0 {
        return Ok(&mut []);
    }
    if p.is_null() {
        return Err(Error::new(
            TressStatus::NullPointer,
            format!("`{what}` is null with capacity {n}"),
        ));
    }
    // SAFETY: not null, and the caller promises `n` exclusive elements.
    Ok(unsafe { core::slice::from_raw_parts_mut(p, n) })
}

/// `n` writable bytes at `p`, or `None` when `p` is null or `n` is 0.
///
/// # Safety
/// As [`slice_mut`].
pub(crate) unsafe fn bytes_mut<'a>(p: *mut u8, n: usize) -> Option<&'a mut [u8]> {
    if p.is_null() || n == 0 {
        return None;
    }
    // SAFETY: not null, and the caller promises `n` exclusive bytes.
    Some(unsafe { core::slice::from_raw_parts_mut(p, n) })
}

/// The NUL-terminated UTF-8 string at `p`.
///
/// # Safety
/// `p` is null or points to a NUL-terminated string that lives and stays
/// unchanged while the result is used.
pub(crate) unsafe fn c_str<'a>(p: *const c_char, what: &str) -> Result<&'a str> {
    if p.is_null() {
        return Err(Error::new(
            TressStatus::NullPointer,
            format!("`{what}` is null"),
        ));
    }
    // SAFETY: not null, and the caller promises a NUL-terminated string.
    let s = unsafe { CStr::from_ptr(p) };
    s.to_str()
        .map_err(|_| Error::invalid(format!("`{what}` is not UTF-8")))
}

/// Asks the caller's pose callback for `frame`'s pose at the end of `substep`.
///
/// # Safety
/// `f` is a valid function that may be called with `user`, and it writes a
/// `TressPose` (or nothing) through the pointer it is given.
pub(crate) unsafe fn call_pose_fn(
    f: unsafe extern "C" fn(*mut core::ffi::c_void, u32, u64, *mut crate::TressPose),
    user: *mut core::ffi::c_void,
    frame: u32,
    substep: u64,
    out: &mut crate::TressPose,
) {
    // SAFETY: the caller promises `f` and `user` go together; `out` is a
    // valid, exclusive `TressPose`.
    unsafe { f(user, frame, substep, out) }
}

/// `size` bytes of zeroed memory aligned to 8, from the Rust allocator,
/// with a hidden length word in front; null when `size` is 0 or too large.
pub(crate) fn alloc_words(size: usize) -> *mut u8 {
    let Some(words) = size.checked_add(7).map(|s| s / 8) else {
        return core::ptr::null_mut();
    };
    if size == 0 || words >= usize::MAX / 8 - 1 {
        return core::ptr::null_mut();
    }
    let mut block = vec![0u64; words + 1].into_boxed_slice();
    block[0] = words as u64;
    let first = Box::into_raw(block).cast::<u64>();
    first.wrapping_add(1).cast()
}

/// Frees a block from [`alloc_words`] (nothing for null).
///
/// # Safety
/// `p` is null or came from [`alloc_words`] and has not been freed.
pub(crate) unsafe fn free_words(p: *mut u8) {
    if p.is_null() {
        return;
    }
    let first = p.cast::<u64>().wrapping_sub(1);
    // SAFETY: `first` is the start of the boxed slice `alloc_words` made,
    // whose first word holds its length less one.
    unsafe {
        let words = *first as usize;
        let slice = core::ptr::slice_from_raw_parts_mut(first, words + 1);
        drop(Box::from_raw(slice));
    }
}
