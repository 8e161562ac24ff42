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
