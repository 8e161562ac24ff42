//! Acceptance tests of the spring-chain solver (issue 3). Run with
//! `cargo test -p tress-core --test spring -- --nocapture` to see the
//! measured numbers recorded in `docs/SOLVER.md`.

extern crate alloc;

mod bands;
mod common;
mod contact;
mod continuity;
mod curl;
mod drape;
mod flat;
mod invariance;
mod lane_check;
mod lanes;
mod lanes_vrm;
mod lengths;
mod limits;
mod output;
mod props;
mod roots;
mod scale;
mod twist;
mod vrm;
mod wind;
