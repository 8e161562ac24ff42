//! Render strands for `TressStrandHair`: many drawn strands interpolated
//! from the simulated guides (`render_ratio` per guide), timed apart from
//! the simulation.

use godot::classes::Time;
use godot::obj::Singleton;
use tress_core::math::{Real, Vec3};
use tress_core::strand::follow::length_error;
use tress_core::strand::{FollowPlanBuf, Pose, StrandSim};

/// The scatter seed: fixed, so a groom gives the same render strands on
/// every load and machine.
const SEED: u64 = 0x7e55_f011;

/// The plan and its output buffers.
pub(crate) struct FollowRender {
    plan: FollowPlanBuf,
    x: Vec<Real>,
    y: Vec<Real>,
    z: Vec<Real>,
    last_usec: u64,
}

impl FollowRender {
    /// `per_guide` render strands for each strand of `sim` (the guide's
    /// own first), or the reason there are none.
    pub(crate) fn new(sim: &StrandSim, per_guide: usize) -> Result<Self, String> {
        let plan = FollowPlanBuf::for_sim(sim, per_guide, SEED).map_err(|e| e.to_string())?;
        let n = plan.renders() * plan.particles();
        Ok(Self {
            plan,
            x: vec![0.0; n],
            y: vec![0.0; n],
            z: vec![0.0; n],
            last_usec: 0,
        })
    }

    /// Render strands.
    pub(crate) fn renders(&self) -> usize {
        self.plan.renders()
    }

    /// Interpolates from `sim` (head at `pose`) and writes the render
    /// strands strand-major into `out` (as many as fit).
    pub(crate) fn write_points(&mut self, sim: &StrandSim, pose: &Pose, out: &mut [Vec3]) {
        let start = Time::singleton().get_ticks_usec();
        // The length fix is what keeps render segments within 3 % of the
        // groom's while the guides bend (tests/strand_follow.rs).
        self.plan
            .interpolate(sim, pose, true, &mut self.x, &mut self.y, &mut self.z);
        for (j, o) in out.iter_mut().enumerate().take(self.x.len()) {
            *o = Vec3::new(self.x[j], self.y[j], self.z[j]);
        }
        self.last_usec = Time::singleton().get_ticks_usec() - start;
    }

    /// Microseconds the last interpolation (and copy out) took.
    pub(crate) fn last_usec(&self) -> u64 {
        self.last_usec
    }

    /// Largest relative segment length error of the last interpolation
    /// against the render strands' rest lengths.
    pub(crate) fn max_length_error(&self) -> f32 {
        length_error(&self.plan.view(), &self.x, &self.y, &self.z).max
    }
}
