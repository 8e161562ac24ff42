//! What a groom goes through after its reader in `TressStrandHair.load_groom`:
//! resampled to the solver's particle count, ordered by root, a level of
//! detail picked.

use tress_rig::groom::{Groom, read_any_with_warnings};

pub fn exercise(name: &str, data: &[u8]) {
    let Ok((groom, _skipped)) = read_any_with_warnings(name, data) else {
        return;
    };
    let _ = groom.bounds();
    // 16 particles: TressStrandHair's default.
    if let Ok(g) = groom.resampled(16) {
        let _: Groom = g.ordered_by_root().subset(0.5);
    }
}
