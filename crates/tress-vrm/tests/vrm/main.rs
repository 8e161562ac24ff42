//! Integration tests of `tress-vrm`, one binary (`cargo test -p tress-vrm --test vrm`).

extern crate alloc;

mod assets;
mod bands;
mod binary;
mod common;
mod errors;
mod limits;
