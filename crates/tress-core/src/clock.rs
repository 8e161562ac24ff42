//! The fixed-step clock both solvers run on: the step rate, integer time
//! units, and [`StepClock`], which turns frame times into steps.
//!
//! Frame times are converted to integer time units (1/302 400 s, so 1/30,
//! 1/60, 1/120, 1/144 and 1/240 s are whole numbers) and accumulated, and
//! each step's interpolation parameter is formed from those integers. The
//! same poses at the same simulated times therefore give bit-identical
//! states at any frame rate.
//!
//! - [`STEP_HZ`], [`STEP_SECONDS`]: the one step rate (the spring solver's
//!   `H` and the strand solver's fixed step).
//! - [`UNITS_PER_SECOND`], [`UNITS_PER_STEP`], [`seconds_to_units`]: the
//!   integer time base.
//! - [`Schedule`]: fixed steps, or (for the strand reference) a fixed number
//!   per frame; [`StepClock`] and the [`StepPlan`] it hands out per frame.

use crate::math::{Real, ops};

/// Fixed steps per second.
pub const STEP_HZ: u32 = 120;
/// The fixed step, seconds (`1 / STEP_HZ`).
pub const STEP_SECONDS: Real = 1.0 / STEP_HZ as Real;
/// Time units per second.
pub const UNITS_PER_SECOND: u32 = 302_400;
/// Time units per fixed step.
pub const UNITS_PER_STEP: u32 = UNITS_PER_SECOND / STEP_HZ;
const _: () = assert!(UNITS_PER_SECOND.is_multiple_of(STEP_HZ));

/// Frames longer than this (seconds) are treated as this long.
const MAX_FRAME_SECONDS: Real = 60.0;

/// Whole time units in `dt` seconds (NaN and negative: 0; capped at a minute).
#[must_use]
pub fn seconds_to_units(dt: Real) -> u32 {
    if dt.is_nan() || dt <= 0.0 {
        return 0;
    }
    ops::round(dt.min(MAX_FRAME_SECONDS) * UNITS_PER_SECOND as Real) as u32
}

/// How steps are laid out over frames.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Schedule {
    /// Steps of [`STEP_SECONDS`] whenever enough frame time has accumulated
    /// (in whole [time units](UNITS_PER_STEP)). A frame due more than
    /// `max_steps` runs exactly `max_steps`, spread evenly over the frame,
    /// and drops the backlog (the hair lags in simulated time instead of
    /// spiralling); the fraction of a step left over is kept.
    Fixed {
        /// Most steps one frame may run.
        max_steps: u32,
    },
    /// Exactly `steps` steps of `h` per frame whatever the frame time
    /// (TressFX's reference: two 1/60 s steps).
    PerFrame {
        /// Steps per frame.
        steps: u32,
        /// Step length, s.
        h: Real,
    },
}

impl Schedule {
    /// 1/120 s steps, at most 8 per frame.
    pub const FIXED_120: Self = Self::Fixed { max_steps: 8 };
    /// Two 1/60 s steps per frame.
    pub const REFERENCE: Self = Self::PerFrame {
        steps: 2,
        h: 1.0 / 60.0,
    };

    /// Step length, s.
    #[must_use]
    pub fn h(&self) -> Real {
        match *self {
            Self::Fixed { .. } => STEP_SECONDS,
            Self::PerFrame { h, .. } => h,
        }
    }
}

/// The steps one frame runs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StepPlan {
    /// Steps run before this frame (step `j` of the plan is step
    /// `first + j + 1` since the clock started).
    pub first: u64,
    /// Number of steps.
    pub count: u32,
    /// Step length, s.
    pub h: Real,
    /// How [`Self::fraction`] is formed.
    shape: PlanShape,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum PlanShape {
    /// Fixed steps: the units carried into the frame, the frame's units,
    /// and whether the steps were capped (spread evenly).
    Fixed {
        before: u32,
        units: u32,
        capped: bool,
    },
    /// A fixed number of steps per frame.
    PerFrame,
}

impl StepPlan {
    /// Index of step `j` of this plan since the clock started, 1-based:
    /// the step that ends at simulated time `index · h`.
    #[must_use]
    pub fn index(&self, j: u32) -> u64 {
        self.first + u64::from(j) + 1
    }

    /// Simulated time at the end of step `j` of this plan (`j < count`),
    /// seconds since the clock started; a function of the step index alone.
    #[must_use]
    pub fn time(&self, j: u32) -> f64 {
        let i = self.index(j) as f64;
        match self.shape {
            PlanShape::Fixed { .. } => i / f64::from(STEP_HZ),
            PlanShape::PerFrame => i * f64::from(self.h),
        }
    }

    /// Where the end of step `j` falls inside the frame, in (0, 1], for
    /// interpolating a pose from the previous frame's to this one's. Formed
    /// from integers (a step's end in time units over the frame's), so the
    /// same instant gets the same parameter at any frame rate; the last
    /// step of a frame that ends on a step boundary gets exactly 1.
    #[must_use]
    pub fn fraction(&self, j: u32) -> Real {
        let k = j + 1;
        match self.shape {
            PlanShape::Fixed { capped: true, .. } | PlanShape::PerFrame => {
                k as Real / self.count as Real
            }
            PlanShape::Fixed { before, units, .. } => {
                (k * UNITS_PER_STEP - before) as Real / units as Real
            }
        }
    }
}

/// Accumulates frame time in integer units and hands out step plans.
#[derive(Debug, Clone, PartialEq)]
pub struct StepClock {
    schedule: Schedule,
    /// Units carried over, less than one step.
    acc: u32,
    steps: u64,
}

impl StepClock {
    /// A clock at time zero.
    #[must_use]
    pub const fn new(schedule: Schedule) -> Self {
        Self {
            schedule,
            acc: 0,
            steps: 0,
        }
    }

    /// The schedule.
    #[must_use]
    pub fn schedule(&self) -> Schedule {
        self.schedule
    }

    /// Changes the schedule from the next frame on, keeping the time reached.
    pub fn set_schedule(&mut self, schedule: Schedule) {
        self.schedule = schedule;
    }

    /// Steps run since the clock started.
    #[must_use]
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Simulated time reached, seconds.
    #[must_use]
    pub fn time(&self) -> f64 {
        match self.schedule {
            Schedule::Fixed { .. } => self.steps as f64 / f64::from(STEP_HZ),
            Schedule::PerFrame { h, .. } => self.steps as f64 * f64::from(h),
        }
    }

    /// Drops the time carried towards the next step; the step count stays.
    pub fn restart_phase(&mut self) {
        self.acc = 0;
    }

    /// Accounts for a frame of `dt` seconds and returns the steps to run.
    /// Non-finite or negative `dt` counts as zero.
    pub fn advance(&mut self, dt: Real) -> StepPlan {
        let first = self.steps;
        let (count, shape) = match self.schedule {
            Schedule::Fixed { max_steps } => {
                let before = self.acc;
                let units = seconds_to_units(dt);
                let total = before + units;
                let due = total / UNITS_PER_STEP;
                let count = due.min(max_steps);
                // The backlog beyond `max_steps` is dropped, the partial step kept.
                self.acc = total - due * UNITS_PER_STEP;
                let shape = PlanShape::Fixed {
                    before,
                    units,
                    capped: due > max_steps,
                };
                (count, shape)
            }
            Schedule::PerFrame { steps, .. } => (steps, PlanShape::PerFrame),
        };
        self.steps += u64::from(count);
        StepPlan {
            first,
            count,
            h: self.schedule.h(),
            shape,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_of_whole_units_reach_the_same_steps_and_fractions() {
        // 1/30, 1/60, 1/144 and 1/240 s are whole units; a second of each
        // runs 120 steps, and a step's fraction depends only on its instant.
        for fps in [30u32, 60, 120, 144, 240] {
            let mut c = StepClock::new(Schedule::FIXED_120);
            let mut last = 0.0;
            for _ in 0..fps {
                let p = c.advance(1.0 / fps as Real);
                for j in 0..p.count {
                    assert_eq!(p.time(j), p.index(j) as f64 / 120.0);
                    last = p.fraction(j);
                }
            }
            assert_eq!(c.steps(), 120, "{fps} fps");
            assert_eq!(last, 1.0, "{fps} fps: the second ends on a step");
        }
    }

    #[test]
    fn uneven_frames_that_add_up_run_the_same_steps() {
        let mut a = StepClock::new(Schedule::FIXED_120);
        let mut b = StepClock::new(Schedule::FIXED_120);
        for _ in 0..60 {
            a.advance(1.0 / 60.0);
        }
        // The same second in uneven frames of whole units (seeded pattern).
        let pattern = [3931u32, 6350, 2419, 7409, 10130];
        let mut left = UNITS_PER_SECOND;
        let mut i = 0;
        while left > 0 {
            let u = pattern[i % pattern.len()].min(left);
            b.advance(u as Real / UNITS_PER_SECOND as Real);
            left -= u;
            i += 1;
        }
        assert_eq!(a.steps(), 120);
        assert_eq!(b.steps(), 120);
    }

    #[test]
    fn hitches_are_capped_and_reference_runs_two_per_frame() {
        let mut c = StepClock::new(Schedule::FIXED_120);
        let p = c.advance(1.0);
        assert_eq!(p.count, 8);
        assert_eq!((p.fraction(0), p.fraction(7)), (0.125, 1.0));
        assert_eq!(c.advance(1.0 / 120.0).count, 1);
        assert_eq!(c.advance(Real::NAN).count, 0);
        assert_eq!(c.advance(-1.0).count, 0);
        // 1/240 s frames alternate between 0 and 1 steps.
        let n: u32 = (0..8).map(|_| c.advance(1.0 / 240.0).count).sum();
        assert_eq!(n, 4);
        let mut r = StepClock::new(Schedule::REFERENCE);
        let p = r.advance(0.5);
        assert_eq!(p.count, 2);
        assert_eq!((p.fraction(0), p.fraction(1)), (0.5, 1.0));
        assert_eq!(r.time(), f64::from(2.0 / 60.0f32));
    }
}
