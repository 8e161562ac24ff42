//! Shared bench inputs.
