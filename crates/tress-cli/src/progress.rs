//! The progress bar of the long commands (`measure`, `validate-anim`), on
//! stderr.
//!
//! The tools report progress through a plain callback,
//! `progress(done, total, what)`, called with `done == total` once at the
//! end; only the command line draws. On a terminal the bar is redrawn in
//! place; elsewhere (a CI log, a pipe) indicatif hides it and one line is
//! printed at the end instead of hundreds of redraws.

use indicatif::{ProgressBar, ProgressStyle};

/// The bar: `[####..........] 2/6 mesh run at 120 fps`.
const TEMPLATE: &str = "[{bar:30}] {pos}/{len} {wide_msg}";

/// One bar, from the first callback to the one with `done == total`; a
/// later callback starts a fresh bar (`measure --fit-colliders` measures
/// twice).
#[derive(Debug, Default)]
pub struct Progress {
    bar: Option<ProgressBar>,
}

impl Progress {
    /// No bar yet: it appears at the first [`update`](Self::update).
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// `done` of `total` steps, now at `what`; the bar finishes when
    /// `done == total`.
    pub fn update(&mut self, done: usize, total: usize, what: &str) {
        let bar = self
            .bar
            .get_or_insert_with(|| ProgressBar::new(total as u64).with_style(style()));
        bar.set_length(total as u64);
        bar.set_position(done as u64);
        bar.set_message(what.to_owned());
        if done == total {
            if bar.is_hidden() {
                eprintln!("{what} ({total} of {total})");
            } else {
                bar.finish();
            }
            self.bar = None;
        }
    }
}

fn style() -> ProgressStyle {
    ProgressStyle::with_template(TEMPLATE)
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("#.")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_template_parses() {
        assert!(ProgressStyle::with_template(TEMPLATE).is_ok());
    }

    #[test]
    fn a_finished_bar_makes_way_for_the_next() {
        let mut p = Progress::new();
        p.update(0, 2, "first");
        assert!(p.bar.is_some());
        p.update(2, 2, "done");
        assert!(p.bar.is_none());
        p.update(0, 3, "again");
        assert_eq!(p.bar.as_ref().and_then(ProgressBar::length), Some(3));
    }
}
