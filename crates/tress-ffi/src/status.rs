//! Status codes, the thread-local last-error message and the panic guard
//! every entry point runs inside.
//!
//! A successful call touches none of this but the guard (`catch_unwind`
//! does not allocate); only a failing call formats and stores a message.

use alloc::ffi::CString;
use core::cell::RefCell;
use core::ffi::{c_char, c_int};
use core::fmt;
use core::panic::AssertUnwindSafe;
use std::panic::catch_unwind;

/// What a call did. Every `tress_*` function that can fail returns one;
/// anything but `Ok` leaves a message for `tress_last_error` on the
/// calling thread.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TressStatus {
    /// Done.
    Ok = 0,
    /// A handle argument is the null handle (all bits zero).
    NullHandle = 1,
    /// A handle was destroyed, belongs to another kind of object, or was
    /// never made by this library.
    StaleHandle = 2,
    /// A required pointer argument is null.
    NullPointer = 3,
    /// The caller's buffer is too small; nothing was written.
    BufferTooSmall = 4,
    /// An argument is out of range or not finite (NaN, infinity).
    InvalidArgument = 5,
    /// File bytes (VRM, GLB, groom) could not be loaded or rigged.
    LoadFailed = 6,
    /// A fixed-capacity store is full.
    CapacityExceeded = 7,
    /// An index names no frame, collider, chain, joint or node.
    BadIndex = 8,
    /// The library panicked; the object may be left half-updated.
    Panic = 9,
}

/// A failure on its way to the caller: the status and what happened.
#[derive(Debug)]
pub(crate) struct Error {
    pub status: TressStatus,
    pub message: String,
}

impl Error {
    pub fn new(status: TressStatus, message: impl fmt::Display) -> Self {
        Self {
            status,
            message: message.to_string(),
        }
    }

    pub fn invalid(message: impl fmt::Display) -> Self {
        Self::new(TressStatus::InvalidArgument, message)
    }
}

impl From<tress_core::spring::SetupError> for Error {
    fn from(e: tress_core::spring::SetupError) -> Self {
        use tress_core::spring::SetupError;
        let status = match e {
            SetupError::Capacity => TressStatus::CapacityExceeded,
            SetupError::BadIndex => TressStatus::BadIndex,
            SetupError::BadLength => TressStatus::InvalidArgument,
        };
        Self::new(status, e)
    }
}

pub(crate) type Result<T> = core::result::Result<T, Error>;

thread_local! {
    /// The last failing call's message on this thread (`None`: none yet).
    static LAST_ERROR: RefCell<Option<CString>> = const { RefCell::new(None) };
}

fn store(function: &str, message: &str) {
    let text = format!("{function}: {message}").replace('\0', " ");
    let c = CString::new(text).unwrap_or_default();
    LAST_ERROR.with(|slot| *slot.borrow_mut() = Some(c));
}

/// Runs `f`, catching any panic, and turns the result into a status; a
/// failure's message is stored with the entry point's name.
pub(crate) fn guard(function: &'static str, f: impl FnOnce() -> Result<()>) -> TressStatus {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(())) => TressStatus::Ok,
        Ok(Err(e)) => {
            store(function, &e.message);
            e.status
        }
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".to_owned());
            store(function, &format!("panicked: {what}"));
            TressStatus::Panic
        }
    }
}

/// The message of the last failing call on this thread, or an empty string.
///
/// The pointer stays valid until the next failing call on this thread.
#[unsafe(no_mangle)]
pub extern "C" fn tress_last_error() -> *const c_char {
    let p = catch_unwind(|| LAST_ERROR.with(|slot| slot.borrow().as_ref().map(|c| c.as_ptr())));
    match p {
        Ok(Some(p)) => p,
        _ => c"".as_ptr(),
    }
}

/// Runs `f` on this thread's last error message (empty when there is
/// none), without its NUL.
pub(crate) fn with_last_error<R>(f: impl FnOnce(&[u8]) -> R) -> R {
    LAST_ERROR.with(|slot| {
        let slot = slot.borrow();
        f(slot.as_ref().map_or(&[][..], |c| c.as_bytes()))
    })
}

/// A static, NUL-terminated name for a `TressStatus` value (`"Ok"`,
/// `"NullHandle"`, …; `"Unknown"` for a number that is none). Takes an
/// `int` so any number C passes is sound.
#[unsafe(no_mangle)]
pub extern "C" fn tress_status_name(status: c_int) -> *const c_char {
    let s: &'static core::ffi::CStr = match status {
        0 => c"Ok",
        1 => c"NullHandle",
        2 => c"StaleHandle",
        3 => c"NullPointer",
        4 => c"BufferTooSmall",
        5 => c"InvalidArgument",
        6 => c"LoadFailed",
        7 => c"CapacityExceeded",
        8 => c"BadIndex",
        9 => c"Panic",
        _ => c"Unknown",
    };
    s.as_ptr()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_a_status_and_a_message() {
        let s = guard("test_fn", || panic!("boom"));
        assert_eq!(s, TressStatus::Panic);
        // SAFETY: tress_last_error returns a NUL-terminated thread-local string.
        let msg = unsafe { core::ffi::CStr::from_ptr(tress_last_error()) };
        assert_eq!(msg.to_str().unwrap(), "test_fn: panicked: boom");
    }

    #[test]
    fn every_status_has_its_name() {
        for (s, name) in [
            (TressStatus::Ok, "Ok"),
            (TressStatus::NullHandle, "NullHandle"),
            (TressStatus::StaleHandle, "StaleHandle"),
            (TressStatus::NullPointer, "NullPointer"),
            (TressStatus::BufferTooSmall, "BufferTooSmall"),
            (TressStatus::InvalidArgument, "InvalidArgument"),
            (TressStatus::LoadFailed, "LoadFailed"),
            (TressStatus::CapacityExceeded, "CapacityExceeded"),
            (TressStatus::BadIndex, "BadIndex"),
            (TressStatus::Panic, "Panic"),
        ] {
            // SAFETY: tress_status_name returns a static NUL-terminated string.
            let got = unsafe { core::ffi::CStr::from_ptr(tress_status_name(s as c_int)) };
            assert_eq!(got.to_str().unwrap(), name);
        }
        // SAFETY: as above.
        let other = unsafe { core::ffi::CStr::from_ptr(tress_status_name(-3)) };
        assert_eq!(other.to_str().unwrap(), "Unknown");
    }
}
