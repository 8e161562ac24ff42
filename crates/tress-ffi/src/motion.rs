//! `tress_spring_*` for what moves the hair besides its frames: wind, angle
//! limits (`VRMC_springBone_limit`), the teleport policy, the anchor frame
//! and resuming after a pause. Each call maps onto the core's method of the
//! same name, so a world driven through the ABI gives the bits a Rust
//! caller's world gives; none of them resets a chain.
//!
//! `tress_avatar_*` has the same calls, with the avatar's chain numbers
//! (see `avatar.rs`); both go through the `World` methods here.

use tress_core::math::Quat;
use tress_core::spring::{JointLimit, LimitShape, TeleportMode, TeleportPolicy, Wind};

use crate::ptr::required;
use crate::spring::{TressSpringWorld, World, with as with_world};
use crate::status::{Error, Result, TressStatus, guard};
use crate::types::{TressQuat, TressVec3};

/// A wind field (see `tress_core::spring::Wind`); `tress_wind_default`
/// gives calm with the default gust settings.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TressWind {
    /// Where the wind blows to, world space (any length; zero: calm).
    pub direction: TressVec3,
    /// Mean acceleration along `direction`, unscaled units/s² (9.81 pushes
    /// as hard as gravity pulls).
    pub strength: f32,
    /// Gust amplitude relative to `strength` (strength varies within
    /// `strength · (1 ± gust)`).
    pub gust: f32,
    /// Typical time between gust peaks, seconds.
    pub gust_seconds: f32,
    /// Sideways and vertical flutter relative to `strength`.
    pub turbulence: f32,
    /// 0..1: share of the wind a chain at the centre of its hairstyle loses.
    pub occlusion: f32,
    /// Seed of the gust and flutter noise.
    pub seed: u32,
}

impl From<Wind> for TressWind {
    fn from(w: Wind) -> Self {
        Self {
            direction: w.direction.into(),
            strength: w.strength,
            gust: w.gust,
            gust_seconds: w.gust_seconds,
            turbulence: w.turbulence,
            occlusion: w.occlusion,
            seed: w.seed,
        }
    }
}

impl TressWind {
    fn to_core(self) -> Result<Wind> {
        let amounts = [
            ("strength", self.strength),
            ("gust", self.gust),
            ("gust_seconds", self.gust_seconds),
            ("turbulence", self.turbulence),
            ("occlusion", self.occlusion),
        ];
        for (name, x) in amounts {
            if !(x.is_finite() && x >= 0.0) {
                return Err(Error::invalid(format!(
                    "wind {name} {x} is not a finite, non-negative number"
                )));
            }
        }
        Ok(Wind {
            direction: self.direction.to_core("wind direction")?,
            strength: self.strength,
            gust: self.gust,
            gust_seconds: self.gust_seconds,
            turbulence: self.turbulence,
            occlusion: self.occlusion,
            seed: self.seed,
        })
    }
}

/// Limit shapes, for `TressJointLimit.shape`.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TressLimitShape {
    /// No limit.
    None = 0,
    /// At most `angle` from the bone axis in any direction.
    Cone = 1,
    /// Turning about the limit's x axis only, at most `angle` each way.
    Hinge = 2,
    /// `pitch` and `yaw` bounded separately.
    Spherical = 3,
}

/// One joint's angle limit as `VRMC_springBone_limit` authors it. Angles in
/// radians; values outside the draft's ranges are clamped as it says.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TressJointLimit {
    /// A `TressLimitShape` value.
    pub shape: u32,
    /// Cone: half-angle. Hinge: largest turn. Ignored otherwise.
    pub angle: f32,
    /// Spherical: largest pitch (≤ π). Ignored otherwise.
    pub pitch: f32,
    /// Spherical: largest yaw (≤ π/2). Ignored otherwise.
    pub yaw: f32,
    /// The limit's turn away from the bone axis, in its own space.
    pub rotation: TressQuat,
}

impl Default for TressJointLimit {
    fn default() -> Self {
        Self {
            shape: TressLimitShape::None as u32,
            angle: 0.0,
            pitch: 0.0,
            yaw: 0.0,
            rotation: TressQuat::default(),
        }
    }
}

impl From<Option<JointLimit>> for TressJointLimit {
    fn from(l: Option<JointLimit>) -> Self {
        let Some(l) = l else {
            return Self::default();
        };
        let rotation = l.rotation.into();
        match l.shape {
            LimitShape::Cone { angle } => Self {
                shape: TressLimitShape::Cone as u32,
                angle,
                rotation,
                ..Self::default()
            },
            LimitShape::Hinge { angle } => Self {
                shape: TressLimitShape::Hinge as u32,
                angle,
                rotation,
                ..Self::default()
            },
            LimitShape::Spherical { pitch, yaw } => Self {
                shape: TressLimitShape::Spherical as u32,
                pitch,
                yaw,
                rotation,
                ..Self::default()
            },
        }
    }
}

impl TressJointLimit {
    fn to_core(self) -> Result<Option<JointLimit>> {
        let angle = |name: &str, x: f32| {
            if x.is_finite() {
                Ok(x)
            } else {
                Err(Error::invalid(format!("limit {name} {x} is not finite")))
            }
        };
        let shape = match self.shape {
            0 => return Ok(None),
            1 => LimitShape::Cone {
                angle: angle("angle", self.angle)?,
            },
            2 => LimitShape::Hinge {
                angle: angle("angle", self.angle)?,
            },
            3 => LimitShape::Spherical {
                pitch: angle("pitch", self.pitch)?,
                yaw: angle("yaw", self.yaw)?,
            },
            s => {
                return Err(Error::invalid(format!(
                    "limit shape {s} is not a TressLimitShape (0..=3)"
                )));
            }
        };
        let rotation: Quat = self.rotation.to_core("limit rotation")?;
        Ok(Some(JointLimit { shape, rotation }))
    }
}

/// What a teleported chain does, for `tress_spring_set_teleport_policy`.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TressTeleportMode {
    /// Carried rigidly with its frame, keeping its shape and swing.
    KeepShape = 0,
    /// Put at rest on its arc under the new pose.
    Reset = 1,
}

/// No anchor frame, for `tress_spring_set_anchor`.
pub const TRESS_NO_ANCHOR: u32 = u32::MAX;

/// The checked operations behind both the `tress_spring_*` and the
/// `tress_avatar_*` calls; `chain` is a world chain index.
impl World {
    pub(crate) fn set_wind(&mut self, wind: Option<&TressWind>) -> Result<()> {
        let wind = required(wind, "wind")?.to_core()?;
        self.world.set_wind(wind);
        Ok(())
    }

    pub(crate) fn set_chain_wind_exposure(&mut self, chain: usize, exposure: f32) -> Result<()> {
        if !(exposure.is_finite() && exposure >= 0.0) {
            return Err(Error::invalid(format!(
                "wind exposure {exposure} is not a finite, non-negative number"
            )));
        }
        Ok(self.world.set_chain_wind_exposure(chain, exposure)?)
    }

    /// `joint` `None`: every joint of the chain.
    pub(crate) fn set_limit(
        &mut self,
        chain: usize,
        joint: Option<u32>,
        limit: Option<&TressJointLimit>,
    ) -> Result<()> {
        let l = limit.map_or(Ok(None), |l| l.to_core())?;
        match joint {
            Some(j) => {
                let len = self.world.chain_len(chain);
                if j as usize >= len {
                    return Err(Error::new(
                        TressStatus::BadIndex,
                        format!("joint {j} does not exist (the chain has {len} joints)"),
                    ));
                }
                self.world.set_joint_limit(chain, j as usize, l)?;
            }
            None => self.world.set_chain_limit(chain, l)?,
        }
        Ok(())
    }

    pub(crate) fn set_teleport_policy(&mut self, angle: f32, mode: u32) -> Result<()> {
        if angle.is_nan() {
            return Err(Error::invalid("teleport angle is NaN"));
        }
        let mode = match mode {
            0 => TeleportMode::KeepShape,
            1 => TeleportMode::Reset,
            m => {
                return Err(Error::invalid(format!(
                    "teleport mode {m} is not a TressTeleportMode (0 or 1)"
                )));
            }
        };
        self.world
            .set_teleport_policy(TeleportPolicy { angle, mode });
        Ok(())
    }

    pub(crate) fn set_anchor(&mut self, frame: u32) -> Result<()> {
        let f = if frame == TRESS_NO_ANCHOR {
            None
        } else {
            Some(self.frame(frame)?)
        };
        Ok(self.world.set_anchor(f)?)
    }
}

/// Calm wind with the default gust, flutter and occlusion, into `out`.
#[unsafe(no_mangle)]
pub extern "C" fn tress_wind_default(out: Option<&mut TressWind>) -> TressStatus {
    guard("tress_wind_default", || {
        *required(out, "out")? = Wind::default().into();
        Ok(())
    })
}

/// Sets the wind from the next substep on; nothing is reset, and the gusts
/// keep their phase (a function of simulated time).
#[unsafe(no_mangle)]
pub extern "C" fn tress_spring_set_wind(
    world: TressSpringWorld,
    wind: Option<&TressWind>,
) -> TressStatus {
    guard("tress_spring_set_wind", || {
        with_world(world, |w| w.set_wind(wind))
    })
}

/// The wind as the solver uses it (unit direction, calm when none), into
/// `out`.
#[unsafe(no_mangle)]
pub extern "C" fn tress_spring_get_wind(
    world: TressSpringWorld,
    out: Option<&mut TressWind>,
) -> TressStatus {
    guard("tress_spring_get_wind", || {
        let out = required(out, "out")?;
        with_world(world, |w| {
            *out = w.world.wind().into();
            Ok(())
        })
    })
}

/// Sets chain `chain`'s own wind exposure (1 by default, 0 shields it).
#[unsafe(no_mangle)]
pub extern "C" fn tress_spring_set_chain_wind_exposure(
    world: TressSpringWorld,
    chain: u32,
    exposure: f32,
) -> TressStatus {
    guard("tress_spring_set_chain_wind_exposure", || {
        with_world(world, |w| {
            let c = w.chain(chain)?;
            w.set_chain_wind_exposure(c, exposure)
        })
    })
}

/// The share of the wind chain `chain` receives (its exposure times its
/// shelter by depth into the hairstyle), into `out`.
#[unsafe(no_mangle)]
pub extern "C" fn tress_spring_get_chain_wind_exposure(
    world: TressSpringWorld,
    chain: u32,
    out: Option<&mut f32>,
) -> TressStatus {
    guard("tress_spring_get_chain_wind_exposure", || {
        let out = required(out, "out")?;
        with_world(world, |w| {
            *out = w.world.chain_wind_exposure(w.chain(chain)?)?;
            Ok(())
        })
    })
}

/// Holds chain `b` to chain `a` joint by joint (a band, as a skirt's
/// neighbouring chains are): after every step no pair of their joint ends
/// is more than `1 + stretch` times its rest distance apart, and the straight
/// line between them stays out of round colliders. Both chains must hang
/// from the same frame; `stretch` is clamped to 0..=1. Improved and Earlier
/// chains only (VRM-compatible chains ignore links). Improved chains in a
/// band also have their output rotations turned about their segments so
/// the band crosses each bone's root as it did at rest (the band twist,
/// docs/SOLVER.md); positions are unchanged. `BadIndex` for a chain
/// that does not exist, a chain linked to itself or chains on different
/// frames; `CapacityExceeded` past one link per chain.
#[unsafe(no_mangle)]
pub extern "C" fn tress_spring_add_band_link(
    world: TressSpringWorld,
    a: u32,
    b: u32,
    stretch: f32,
) -> TressStatus {
    guard("tress_spring_add_band_link", || {
        add_band_link(world, a, b, stretch, None)
    })
}

/// As `tress_spring_add_band_link`, holding the cloth's shear too: each
/// diagonal between the two chains (joint `k - 1` of one to joint `k` of
/// the other) is kept within `(1 + stretch)(1 + shear)` times its rest
/// length. `shear` is clamped to 0..=1; a NaN or infinite `shear` leaves
/// the diagonals free (the plain link).
#[unsafe(no_mangle)]
pub extern "C" fn tress_spring_add_band_link_sheared(
    world: TressSpringWorld,
    a: u32,
    b: u32,
    stretch: f32,
    shear: f32,
) -> TressStatus {
    guard("tress_spring_add_band_link_sheared", || {
        add_band_link(world, a, b, stretch, Some(shear))
    })
}

fn add_band_link(
    world: TressSpringWorld,
    a: u32,
    b: u32,
    stretch: f32,
    shear: Option<f32>,
) -> Result<()> {
    with_world(world, |w| {
        let (a, b) = (w.chain(a)?, w.chain(b)?);
        if a == b {
            return Err(Error::new(
                TressStatus::BadIndex,
                format!("chain {a} cannot be linked to itself"),
            ));
        }
        let link = tress_core::spring::BandLink {
            shear,
            ..tress_core::spring::BandLink::new(a, b, stretch)
        };
        w.world.add_band_link(link).map_err(|e| match e {
            tress_core::spring::SetupError::BadIndex => Error::new(
                TressStatus::BadIndex,
                format!("chains {a} and {b} hang from different frames"),
            ),
            other => other.into(),
        })
    })
}

/// Sets one joint's angle limit; `limit` null or of shape
/// `TRESS_LIMIT_SHAPE_NONE` removes it. The state is kept.
#[unsafe(no_mangle)]
pub extern "C" fn tress_spring_set_joint_limit(
    world: TressSpringWorld,
    chain: u32,
    joint: u32,
    limit: Option<&TressJointLimit>,
) -> TressStatus {
    guard("tress_spring_set_joint_limit", || {
        with_world(world, |w| {
            let c = w.chain(chain)?;
            w.set_limit(c, Some(joint), limit)
        })
    })
}

/// Sets (or, with null or `TRESS_LIMIT_SHAPE_NONE`, removes) the same
/// angle limit on every joint of a chain. The state is kept.
#[unsafe(no_mangle)]
pub extern "C" fn tress_spring_set_chain_limit(
    world: TressSpringWorld,
    chain: u32,
    limit: Option<&TressJointLimit>,
) -> TressStatus {
    guard("tress_spring_set_chain_limit", || {
        with_world(world, |w| {
            let c = w.chain(chain)?;
            w.set_limit(c, None, limit)
        })
    })
}

/// One joint's angle limit as the solver uses it (angles clamped; shape
/// `TRESS_LIMIT_SHAPE_NONE` when it has none), into `out`.
#[unsafe(no_mangle)]
pub extern "C" fn tress_spring_get_joint_limit(
    world: TressSpringWorld,
    chain: u32,
    joint: u32,
    out: Option<&mut TressJointLimit>,
) -> TressStatus {
    guard("tress_spring_get_joint_limit", || {
        let out = required(out, "out")?;
        with_world(world, |w| {
            *out = w.world.joint_limit(w.chain(chain)?, joint as usize)?.into();
            Ok(())
        })
    })
}

/// Sets the rotation threshold (radians; 0, negative or π and above: off,
/// the default) and the mode (`TressTeleportMode`) of teleport handling.
/// The distance threshold is `tress_spring_set_teleport_distance`.
#[unsafe(no_mangle)]
pub extern "C" fn tress_spring_set_teleport_policy(
    world: TressSpringWorld,
    angle: f32,
    mode: u32,
) -> TressStatus {
    guard("tress_spring_set_teleport_policy", || {
        with_world(world, |w| w.set_teleport_policy(angle, mode))
    })
}

/// The teleport rotation threshold (infinite when off) and mode, into the
/// out-pointers (either may be null).
#[unsafe(no_mangle)]
pub extern "C" fn tress_spring_get_teleport_policy(
    world: TressSpringWorld,
    angle: Option<&mut f32>,
    mode: Option<&mut u32>,
) -> TressStatus {
    guard("tress_spring_get_teleport_policy", || {
        with_world(world, |w| {
            let p = w.world.teleport_policy();
            if let Some(a) = angle {
                *a = p.angle;
            }
            if let Some(m) = mode {
                *m = match p.mode {
                    TeleportMode::KeepShape => TressTeleportMode::KeepShape,
                    TeleportMode::Reset => TressTeleportMode::Reset,
                } as u32;
            }
            Ok(())
        })
    })
}

/// Makes frame `frame` the anchor (a platform or vehicle whose motion the
/// hair does not feel as inertia); `TRESS_NO_ANCHOR` turns it off.
#[unsafe(no_mangle)]
pub extern "C" fn tress_spring_set_anchor(world: TressSpringWorld, frame: u32) -> TressStatus {
    guard("tress_spring_set_anchor", || {
        with_world(world, |w| w.set_anchor(frame))
    })
}

/// The anchor frame, or `TRESS_NO_ANCHOR`, into `out`.
#[unsafe(no_mangle)]
pub extern "C" fn tress_spring_get_anchor(
    world: TressSpringWorld,
    out: Option<&mut u32>,
) -> TressStatus {
    guard("tress_spring_get_anchor", || {
        let out = required(out, "out")?;
        with_world(world, |w| {
            *out = w
                .world
                .anchor()
                .map_or(TRESS_NO_ANCHOR, crate::types::index_out);
            Ok(())
        })
    })
}

/// Continues after a pause: call it after setting the frame poses where
/// the avatar is now and before the next advance. Every chain is carried
/// rigidly to them, so the pause's motion is not replayed as one violent
/// frame and nothing is reset.
#[unsafe(no_mangle)]
pub extern "C" fn tress_spring_resume(world: TressSpringWorld) -> TressStatus {
    guard("tress_spring_resume", || {
        with_world(world, |w| {
            w.world.resume();
            Ok(())
        })
    })
}

/// Holds the hair for one frame while its owner is paused but the avatar
/// still moves: call it instead of an advance, after setting the frame
/// poses. Every chain is carried with its frame and kept on its bone
/// lengths, in its limits and out of the colliders; no time passes and no
/// velocity changes. Call `tress_spring_resume` before the next advance.
#[unsafe(no_mangle)]
pub extern "C" fn tress_spring_hold(world: TressSpringWorld) -> TressStatus {
    guard("tress_spring_hold", || {
        with_world(world, |w| {
            w.world.hold();
            Ok(())
        })
    })
}
