//! When steps run: a fixed-step accumulator, or a fixed number per frame.
//!
//! The accumulator keeps the total frame time in `f64` and derives the number
//! of steps due from it, so any sequence of frame times that reaches the same
//! total runs the same steps at the same simulated times `(j + 1) · h`; with a
//! head pose that depends only on time, results are then bit-identical.

use crate::math::Real;

/// Fixed step of the default schedule.
pub const FIXED_STEP: Real = 1.0 / 120.0;
/// Slack when converting accumulated time to steps, so a total that should
/// be an exact multiple of the step is not one step short from rounding
/// (frame times arrive as `f32`, good to ~1e-7 relative).
const EPS_STEPS: f64 = 1e-4;

/// How steps are laid out over frames.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Schedule {
    /// Steps of `h` seconds whenever enough frame time has accumulated; at
    /// most `max_steps` per frame (excess time is dropped, not owed).
    Fixed {
        /// Step length, s.
        h: Real,
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
    pub const FIXED_120: Self = Self::Fixed {
        h: FIXED_STEP,
        max_steps: 8,
    };
    /// Two 1/60 s steps per frame.
    pub const REFERENCE: Self = Self::PerFrame {
        steps: 2,
        h: 1.0 / 60.0,
    };

    /// Step length.
    #[must_use]
    pub fn h(&self) -> Real {
        match *self {
            Self::Fixed { h, .. } | Self::PerFrame { h, .. } => h,
        }
    }
}

/// The steps one frame runs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StepPlan {
    /// Index of the first step (steps are numbered from 0 since reset).
    pub first: u64,
    /// Number of steps.
    pub count: u32,
    /// Step length.
    pub h: Real,
    /// Simulated time at the start of the frame.
    pub frame_start: f64,
    /// Frame length the plan was made for.
    pub frame_dt: f64,
}

impl StepPlan {
    /// Simulated time at the end of step `j` of this plan (`j < count`).
    #[must_use]
    pub fn time(&self, j: u32) -> f64 {
        (self.first + u64::from(j) + 1) as f64 * f64::from(self.h)
    }

    /// Where the end of step `j` falls inside the frame, 0..=1, for
    /// interpolating the pose between the previous frame and this one.
    #[must_use]
    pub fn fraction(&self, j: u32) -> Real {
        if self.frame_dt <= 0.0 {
            return 1.0;
        }
        (((self.time(j) - self.frame_start) / self.frame_dt).clamp(0.0, 1.0)) as Real
    }
}

/// Accumulates frame time and hands out step plans.
#[derive(Debug, Clone, PartialEq)]
pub struct StepClock {
    schedule: Schedule,
    total: f64,
    steps: u64,
}

impl StepClock {
    /// A clock at time zero.
    #[must_use]
    pub fn new(schedule: Schedule) -> Self {
        Self {
            schedule,
            total: 0.0,
            steps: 0,
        }
    }

    /// The schedule.
    #[must_use]
    pub fn schedule(&self) -> Schedule {
        self.schedule
    }

    /// Steps run since reset.
    #[must_use]
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Simulated time reached.
    #[must_use]
    pub fn time(&self) -> f64 {
        self.steps as f64 * f64::from(self.schedule.h())
    }

    /// Accounts for a frame of `dt` seconds and returns the steps to run.
    /// Non-finite or negative `dt` counts as zero.
    pub fn advance(&mut self, dt: Real) -> StepPlan {
        let dt = if dt.is_finite() {
            f64::from(dt.max(0.0))
        } else {
            0.0
        };
        let h = self.schedule.h();
        let hd = f64::from(h);
        let frame_start = self.total;
        let count = match self.schedule {
            Schedule::Fixed { max_steps, .. } => {
                self.total += dt;
                let due = ((self.total / hd) + EPS_STEPS) as u64;
                let n = due.saturating_sub(self.steps);
                if n > u64::from(max_steps) {
                    // Drop the backlog so a hitch never snowballs.
                    self.total = (self.steps + u64::from(max_steps)) as f64 * hd;
                    max_steps
                } else {
                    n as u32
                }
            }
            Schedule::PerFrame { steps, .. } => {
                self.total = (self.steps + u64::from(steps)) as f64 * hd;
                steps
            }
        };
        let plan = StepPlan {
            first: self.steps,
            count,
            h,
            frame_start,
            frame_dt: self.total - frame_start,
        };
        self.steps += u64::from(count);
        plan
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_frame_split_reaches_the_same_steps() {
        let mut a = StepClock::new(Schedule::FIXED_120);
        let mut b = StepClock::new(Schedule::FIXED_120);
        for _ in 0..60 {
            a.advance(1.0 / 60.0);
        }
        // Same second in uneven frames (seeded pattern, sums to 1 s).
        let pattern: [f64; 5] = [0.013, 0.021, 0.008, 0.0245, 0.0335];
        let mut sum = 0.0f64;
        let mut i = 0;
        while sum + 1e-9 < 1.0 {
            let dt = pattern[i % pattern.len()].min(1.0 - sum);
            b.advance(dt as Real);
            sum += dt;
            i += 1;
        }
        assert_eq!(a.steps(), 120);
        assert_eq!(b.steps(), 120);
    }

    #[test]
    fn hitches_are_capped_and_reference_runs_two_per_frame() {
        let mut c = StepClock::new(Schedule::FIXED_120);
        assert_eq!(c.advance(1.0).count, 8);
        assert_eq!(c.advance(1.0 / 120.0).count, 1);
        assert_eq!(c.advance(Real::NAN).count, 0);
        let mut r = StepClock::new(Schedule::REFERENCE);
        let p = r.advance(0.5);
        assert_eq!(p.count, 2);
        assert!((p.fraction(0) - 0.5).abs() < 1e-6 && p.fraction(1) == 1.0);
    }
}
