//! Level of detail for [`StrandSim`]: a coarser step rate for hair far
//! away, and carrying the strands rigidly across a pause (hidden or off
//! screen) so they resume where the head took them, without a pop.

use super::StrandSim;
use crate::math::{Mat3, Pose, Real, Vec3};

/// The coarsest rate divisor: 1/120 s × 8 = 1/15 s steps, about as long as
/// the shape and length passes stay stable on the standard groom.
pub const MAX_RATE_DIVISOR: u32 = 8;

impl StrandSim {
    /// Runs only every `divisor`-th step of the clock, each `divisor` times
    /// as long (1 = every step, the default; clamped to
    /// 1..=[`MAX_RATE_DIVISOR`]). Which steps run depends on the step index
    /// alone, so a divided sim stays bit-identical at any frame rate. The
    /// particles keep their velocity across a change (the previous
    /// positions are rescaled to the new step), and the stiffnesses are
    /// per second, so the hair looks the same, only coarser in time.
    pub fn set_rate_divisor(&mut self, divisor: u32) {
        let divisor = divisor.clamp(1, MAX_RATE_DIVISOR);
        if divisor == self.rate {
            return;
        }
        // Verlet keeps velocity as x − x_prev per step: the same velocity
        // over a step `divisor / rate` times as long is that much more.
        let f = divisor as Real / self.rate as Real;
        let [x, y, z, px, py, pz] = &mut self.state;
        for (c, p) in [(x, px), (y, py), (z, pz)] {
            for (c, p) in c.iter().zip(p.iter_mut()) {
                *p = *c - (*c - *p) * f;
            }
        }
        self.rate = divisor;
    }

    /// The rate divisor ([`Self::set_rate_divisor`]).
    #[must_use]
    pub fn rate_divisor(&self) -> u32 {
        self.rate
    }

    /// Moves every particle (and its previous position, so velocities turn
    /// with it) rigidly by the head's motion from `from` to `to`, and takes
    /// `to` as the last pose: for resuming after a pause, so that the hair
    /// sits on the head where it left it, relative to the head, with the
    /// velocity it had. No step runs and the clock does not move.
    pub fn carry(&mut self, from: Pose, to: Pose) {
        let from = from.sanitized(&self.last_pose);
        let to = to.sanitized(&from);
        let turn = to.rot * from.rot.conjugate();
        let m = Mat3::from_quat(turn);
        let shift = to.pos - m * from.pos;
        let [x, y, z, px, py, pz] = &mut self.state;
        for (x, y, z) in [(x, y, z), (px, py, pz)] {
            for ((x, y), z) in x.iter_mut().zip(y.iter_mut()).zip(z.iter_mut()) {
                let p = m * Vec3::new(*x, *y, *z) + shift;
                (*x, *y, *z) = (p.x, p.y, p.z);
            }
        }
        self.last_pose = to;
    }

    /// [`Self::carry`] for a skinned sim: the particles move with the head
    /// from `from` to `to`, and the bones' last poses become `bones`, so
    /// the next frame does not sweep the roots from where the bones were
    /// when the pause began. Without skinning this is `carry`.
    ///
    /// # Errors
    /// [`super::SkinError::BoneCount`] when `bones` is not as long as at
    /// setup; nothing moves then.
    pub fn carry_skinned(
        &mut self,
        from: Pose,
        to: Pose,
        bones: &[Pose],
    ) -> Result<(), super::SkinError> {
        if let Some(skin) = self.skin.as_ref() {
            super::check_bone_count(skin, bones)?;
        }
        self.carry(from, to);
        if let Some(skin) = self.skin.as_mut() {
            skin.last_bones.copy_from_slice(bones);
        }
        Ok(())
    }
}
