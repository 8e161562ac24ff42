//! Integration tests of `tress-rig`, one binary (`cargo test -p tress-rig --test rig`).

extern crate alloc;

mod body;
mod common;
mod follow;
mod groom_assets;
mod mutated;
mod parity;
