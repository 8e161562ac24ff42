//! Object handles kept across calls.
//!
//! Release builds skip gdext's per-call check that an object is still alive
//! (`safeguards-release-disengaged` in the root `Cargo.toml`: the checks
//! were half of the in-engine hair update). A handle the extension keeps
//! from one call to the next (a model, a player, a node it added) may have
//! been freed by the game since, so it is only used through [`live`], which
//! answers `None` for a freed object. Objects fetched within a call (the
//! skeleton from `get_skeleton()`) are used within it only.

use godot::obj::{Gd, GodotClass};

/// The handle, if its object still exists.
pub(crate) fn live<T: GodotClass>(handle: &Option<Gd<T>>) -> Option<Gd<T>> {
    handle.as_ref().filter(|h| h.is_instance_valid()).cloned()
}
