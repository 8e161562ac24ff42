//! How a [`SpringWorld`] applies its [`Wind`]: per chain, per substep, as
//! an acceleration scaled by the chain's exposure.
//!
//! Improved, Earlier and draped chains get the acceleration as a velocity
//! change `a·h` before their kernel runs, which is the same as adding `a`
//! to the kernel's force (`u = e^(−c h)(v + h(f + a))`) without touching
//! the kernels. VRM-compatible chains get it beside gravity, `(gravityDir ·
//! gravityPower + a / 9.81)·h`, the way UniVRM adds its external force.
//! Authored chains follow their animation and feel nothing.

use super::SpringWorld;
use crate::math::{Real, Vec3};
use crate::spring::H;
use crate::spring::params::Mode;
use crate::spring::wind::Wind;
use crate::spring::world::SetupError;

/// Gravity power 1 in m/s²: the factor between a wind acceleration and a
/// VRM external force (`tress_rig`'s `gravityPower · 9.81` mapping).
const VRM_FORCE_PER_ACCEL: Real = 1.0 / 9.81;

/// A world's wind and what each chain receives of it.
#[derive(Clone, Copy, Debug)]
pub(super) struct WindState<const C: usize> {
    /// The field (sanitized).
    pub field: Wind,
    /// Each chain's own exposure factor (1 unless set).
    pub exposure: [Real; C],
    /// Each chain's depth into its hairstyle: 0 at the outside, 1 at the
    /// centre (from the root offsets of the chains on the same frame).
    pub depth: [Real; C],
    /// This substep's external force on each VRM-compatible chain (VRM
    /// units, unscaled; zero for the others).
    pub vrm_force: [Vec3; C],
    /// Some `vrm_force` may be non-zero.
    pub vrm_dirty: bool,
}

impl<const C: usize> Default for WindState<C> {
    fn default() -> Self {
        Self {
            field: Wind::default().sanitized(),
            exposure: [1.0; C],
            depth: [0.0; C],
            vrm_force: [Vec3::ZERO; C],
            vrm_dirty: false,
        }
    }
}

impl<const J: usize, const C: usize, const K: usize, const F: usize> SpringWorld<J, C, K, F> {
    /// Sets the wind from the next substep on. Nothing is reset: the hair
    /// keeps its state and the gusts their phase (a function of simulated
    /// time), so changing the wind between frames is seamless.
    pub fn set_wind(&mut self, wind: Wind) {
        self.wind.field = wind.sanitized();
    }

    /// The wind (sanitized).
    #[must_use]
    pub fn wind(&self) -> Wind {
        self.wind.field
    }

    /// Sets chain `chain`'s own exposure factor (1 by default, 0 shields
    /// it completely; negative or non-finite values count as 1).
    pub fn set_chain_wind_exposure(
        &mut self,
        chain: usize,
        exposure: Real,
    ) -> Result<(), SetupError> {
        if chain >= self.chains.len() {
            return Err(SetupError::BadIndex);
        }
        self.wind.exposure[chain] = if exposure.is_finite() && exposure >= 0.0 {
            exposure
        } else {
            1.0
        };
        Ok(())
    }

    /// The share of the wind chain `chain` receives: its own exposure
    /// times `1 − occlusion · depth`, where depth is how far its root lies
    /// inside the hairstyle (0 for the outermost roots of the chains on its
    /// frame, 1 at their centroid).
    pub fn chain_wind_exposure(&self, chain: usize) -> Result<Real, SetupError> {
        if chain >= self.chains.len() {
            return Err(SetupError::BadIndex);
        }
        Ok(self.share(chain))
    }

    fn share(&self, chain: usize) -> Real {
        self.wind.exposure[chain] * (1.0 - self.wind.field.occlusion * self.wind.depth[chain])
    }

    /// Recomputes every chain's depth into its hairstyle (after chains are
    /// added or moved): the distance of its root offset from the centroid
    /// of the roots on the same frame, against the farthest one.
    pub(super) fn refresh_wind_depth(&mut self) {
        let n = self.chains.len();
        for i in 0..n {
            let frame = self.chains[i].desc.frame;
            let mut sum = Vec3::ZERO;
            let mut count = 0.0;
            for c in self.chains.iter().filter(|c| c.desc.frame == frame) {
                sum += c.desc.root_offset;
                count += 1.0;
            }
            let centroid = sum / count;
            let far = self
                .chains
                .iter()
                .filter(|c| c.desc.frame == frame)
                .map(|c| (c.desc.root_offset - centroid).length())
                .fold(0.0, Real::max);
            let r = (self.chains[i].desc.root_offset - centroid).length();
            self.wind.depth[i] = if far > 1e-6 {
                (1.0 - r / far).clamp(0.0, 1.0)
            } else {
                0.0
            };
        }
    }

    /// Applies substep `step`'s wind to every simulated chain (before the
    /// kernels run).
    pub(super) fn blow(&mut self, step: u64) {
        if self.wind.vrm_dirty {
            self.wind.vrm_force = [Vec3::ZERO; C];
            self.wind.vrm_dirty = false;
        }
        if self.wind.field.is_calm() {
            return;
        }
        for ci in 0..self.chains.len() {
            let c = self.chains[ci];
            if c.authored {
                continue;
            }
            let a = self.wind.field.acceleration(ci, step) * self.share(ci);
            if c.desc.mode == Mode::VrmCompatible {
                // Scaled inside the kernel, with gravity.
                self.wind.vrm_force[ci] = a * VRM_FORCE_PER_ACCEL;
                self.wind.vrm_dirty = true;
            } else {
                let dv = a * (self.scale * H);
                for j in &mut self.joints[c.start..c.start + c.len] {
                    j.v += dv;
                }
            }
        }
    }
}
