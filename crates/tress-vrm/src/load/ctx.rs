//! What a load collects on the way: its warnings.

use crate::error::Warning;

/// Warnings collected during a load.
#[derive(Debug, Default)]
pub(crate) struct Ctx {
    warnings: Vec<Warning>,
    once: Vec<&'static str>,
}

impl Ctx {
    pub fn warn(&mut self, path: &str, msg: &str) {
        self.warnings.push(Warning {
            path: path.to_owned(),
            message: msg.to_owned(),
        });
    }

    /// Records `e`, about a value the loader drops instead of failing on,
    /// as a warning at `e`'s path (`at` when it has none): `{what} ignored:
    /// {its message}; {consequence}`.
    pub fn warn_dropped(
        &mut self,
        e: &crate::error::Error,
        at: &str,
        what: &str,
        consequence: &str,
    ) {
        let path = if e.path.is_empty() { at } else { &e.path };
        self.warn(
            path,
            &format!("{what} ignored: {}; {consequence}", e.message),
        );
    }

    /// The warnings collected, in order.
    pub fn into_warnings(self) -> Vec<Warning> {
        self.warnings
    }

    /// Warns only the first time `key` comes up.
    pub fn note_once(&mut self, key: &'static str, path: &str, msg: &str) {
        if !self.once.contains(&key) {
            self.once.push(key);
            self.warn(path, msg);
        }
    }
}
