//! Integration tests of `tress-tools`, one binary (`cargo test -p tress-tools --test tools`).

extern crate alloc;

mod bvh;
mod common;
mod export;
mod fit;
mod fit_colliders;
mod flat_locks;
mod generated_avatar;
mod measure;
mod pause;
mod retarget;
mod skirt;
