//! `tress_spring_*`: a spring-chain world built by hand (frames, colliders,
//! chains with per-joint parameters), stepped and read by the caller.
//!
//! The world is `tress_rig::spring_rig::AvatarWorld` (the type every avatar
//! uses, [`TRESS_MAX_JOINTS`] joints and so on); the capacities given at
//! creation are limits below those, checked on every add. The world-level
//! operations here also serve `tress_avatar_*` (see [`crate::avatar`]).

use core::ffi::c_void;

use tress_core::math::{Pose, Quat, Vec3};
use tress_core::spring::JointOutput;
use tress_rig::spring_rig::AvatarWorld;

use crate::ptr::{self, required};
use crate::registry::{Registry, count_into};
use crate::status::{Error, Result, TressStatus, guard};
use crate::types::{
    TressChainDesc, TressCollider, TressJointDesc, TressJointOutput, TressJointParams, TressPose,
    TressQuat, TressStepConfig, TressVec3, contact, frame_time, index_out, mode, too_small,
};

/// Most joints a spring world holds.
pub const TRESS_MAX_JOINTS: u32 = 1024;
/// Most chains a spring world holds.
pub const TRESS_MAX_CHAINS: u32 = 96;
/// Most colliders a spring world holds (one bit each in a chain's mask).
pub const TRESS_MAX_COLLIDERS: u32 = 64;
/// Most attachment frames a spring world holds.
pub const TRESS_MAX_FRAMES: u32 = 32;
/// The bend hold, 1/s, an avatar's rig gives a flat lock whose reach meets
/// no collider moving against its attachment (`TressJointDesc::flat_bend`).
pub const TRESS_FLAT_BEND: f32 = 300.0;

/// A spring world handle; all bits zero is the null handle.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TressSpringWorld {
    /// Registry slot, generation and kind; opaque.
    pub bits: u64,
}

/// Capacities of a new spring world, each at most its `TRESS_MAX_*`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TressSpringCapacity {
    /// Joints over all chains.
    pub joints: u32,
    /// Chains.
    pub chains: u32,
    /// Colliders.
    pub colliders: u32,
    /// Attachment frames.
    pub frames: u32,
}

/// The caller's poses for `tress_spring_advance_sampled`: writes frame
/// `frame`'s pose at the end of substep `substep` (which ends at
/// `substep / 120` s after the first advance) into `out`.
pub type TressPoseFn =
    Option<unsafe extern "C" fn(user: *mut c_void, frame: u32, substep: u64, out: *mut TressPose)>;

/// A pose the callback has not written (every part NaN).
const UNSET: TressPose = TressPose {
    position: TressVec3 {
        x: f32::NAN,
        y: f32::NAN,
        z: f32::NAN,
    },
    rotation: TressQuat {
        x: f32::NAN,
        y: f32::NAN,
        z: f32::NAN,
        w: f32::NAN,
    },
};

/// A world with its counts and an output scratch row.
pub(crate) struct World {
    pub world: Box<AvatarWorld>,
    pub caps: TressSpringCapacity,
    pub frames: usize,
    pub colliders: usize,
    pub joints: usize,
    /// One chain's outputs, as long as the longest chain (sized at set-up).
    pub scratch: Vec<JointOutput>,
}

impl World {
    pub fn new(world: Box<AvatarWorld>, caps: TressSpringCapacity) -> Self {
        Self {
            world,
            caps,
            frames: 0,
            colliders: 0,
            joints: 0,
            scratch: Vec::new(),
        }
    }

    /// Counts and scratch for a world built elsewhere (the avatar rig).
    pub fn adopt(world: Box<AvatarWorld>, frames: usize) -> Self {
        let chains = world.chain_count();
        let lens: Vec<usize> = (0..chains).map(|c| world.chain_len(c)).collect();
        let mut w = Self::new(
            world,
            TressSpringCapacity {
                joints: TRESS_MAX_JOINTS,
                chains: TRESS_MAX_CHAINS,
                colliders: TRESS_MAX_COLLIDERS,
                frames: TRESS_MAX_FRAMES,
            },
        );
        w.frames = frames;
        w.joints = lens.iter().sum();
        w.scratch = vec![JointOutput::default(); lens.into_iter().max().unwrap_or(0)];
        w
    }

    pub fn frame(&self, frame: u32) -> Result<usize> {
        let f = frame as usize;
        if f < self.frames {
            Ok(f)
        } else {
            Err(Error::new(
                TressStatus::BadIndex,
                format!("frame {frame} does not exist ({} frames)", self.frames),
            ))
        }
    }

    pub fn chain(&self, chain: u32) -> Result<usize> {
        let c = chain as usize;
        let n = self.world.chain_count();
        if c < n {
            Ok(c)
        } else {
            Err(Error::new(
                TressStatus::BadIndex,
                format!("chain {chain} does not exist ({n} chains)"),
            ))
        }
    }

    pub fn set_frame_pose(&mut self, frame: u32, pose: Option<&TressPose>) -> Result<()> {
        let f = self.frame(frame)?;
        let p = required(pose, "pose")?.to_core("pose")?;
        self.world.set_frame_pose(f, p);
        Ok(())
    }

    pub fn advance(&mut self, dt: f32, substeps: Option<&mut u32>) -> Result<()> {
        let n = self.world.advance(frame_time(dt)?);
        if let Some(s) = substeps {
            *s = n;
        }
        Ok(())
    }

    /// Chain `chain` (a world index) into the caller's buffer.
    pub fn outputs(
        &mut self,
        chain: usize,
        out: &mut [TressJointOutput],
        written: Option<&mut usize>,
    ) -> Result<()> {
        let len = self.world.chain_len(chain);
        if out.len() < len {
            return Err(too_small("the output buffer", out.len(), len));
        }
        let n = self.world.outputs(chain, &mut self.scratch[..len]);
        for (o, s) in out.iter_mut().zip(&self.scratch[..n]) {
            *o = (*s).into();
        }
        if let Some(w) = written {
            *w = n;
        }
        Ok(())
    }

    pub fn set_joint_params(
        &mut self,
        chain: usize,
        joint: u32,
        params: Option<&TressJointParams>,
    ) -> Result<()> {
        let p = required(params, "params")?.to_core()?;
        Ok(self.world.set_joint_params(chain, joint as usize, p)?)
    }

    pub fn set_chain_params(
        &mut self,
        chain: usize,
        params: Option<&TressJointParams>,
    ) -> Result<()> {
        let p = required(params, "params")?.to_core()?;
        Ok(self.world.set_chain_params(chain, p)?)
    }

    pub fn set_chain_mode(&mut self, chain: usize, m: u32, c: u32) -> Result<()> {
        let mut d = self.world.chain_desc(chain)?;
        d.mode = mode(m)?;
        d.contact = contact(c)?;
        Ok(self.world.set_chain_desc(chain, d)?)
    }

    pub fn set_teleport_distance(&mut self, distance: f32) -> Result<()> {
        if distance.is_nan() {
            return Err(Error::invalid("teleport distance is NaN"));
        }
        let mut c = self.world.config();
        c.teleport_distance = distance;
        self.world.set_config(c.sanitized());
        Ok(())
    }
}

static WORLDS: Registry<World> = Registry::new(1, "spring world");

pub(crate) fn with<R>(w: TressSpringWorld, f: impl FnOnce(&mut World) -> Result<R>) -> Result<R> {
    WORLDS.with(w.bits, f)
}

/// Makes an empty spring world. `capacity` null: the `TRESS_MAX_*` limits;
/// `config` null: the default stepping policy.
#[unsafe(no_mangle)]
pub extern "C" fn tress_spring_create(
    capacity: Option<&TressSpringCapacity>,
    config: Option<&TressStepConfig>,
    out: Option<&mut TressSpringWorld>,
) -> TressStatus {
    guard("tress_spring_create", || {
        let out = required(out, "out")?;
        let caps = capacity.copied().unwrap_or(TressSpringCapacity {
            joints: TRESS_MAX_JOINTS,
            chains: TRESS_MAX_CHAINS,
            colliders: TRESS_MAX_COLLIDERS,
            frames: TRESS_MAX_FRAMES,
        });
        for (what, have, max) in [
            ("joints", caps.joints, TRESS_MAX_JOINTS),
            ("chains", caps.chains, TRESS_MAX_CHAINS),
            ("colliders", caps.colliders, TRESS_MAX_COLLIDERS),
            ("frames", caps.frames, TRESS_MAX_FRAMES),
        ] {
            if have > max {
                return Err(Error::new(
                    TressStatus::CapacityExceeded,
                    format!("{have} {what} asked for, a world holds {max}"),
                ));
            }
        }
        let config = config.copied().unwrap_or_default().to_core()?;
        let world = Box::new(AvatarWorld::new(config));
        out.bits = WORLDS.insert(World::new(world, caps));
        Ok(())
    })
}

/// Destroys a spring world; the handle and its copies become stale.
#[unsafe(no_mangle)]
pub extern "C" fn tress_spring_destroy(world: TressSpringWorld) -> TressStatus {
    guard("tress_spring_destroy", || WORLDS.remove(world.bits))
}

/// Adds an attachment frame at `pose`; its index goes to `out_frame` (may be null).
#[unsafe(no_mangle)]
pub extern "C" fn tress_spring_add_frame(
    world: TressSpringWorld,
    pose: Option<&TressPose>,
    out_frame: Option<&mut u32>,
) -> TressStatus {
    guard("tress_spring_add_frame", || {
        with(world, |w| {
            let p = required(pose, "pose")?.to_core("pose")?;
            if w.frames >= w.caps.frames as usize {
                return Err(Error::new(
                    TressStatus::CapacityExceeded,
                    format!("the world's {} frames are in use", w.caps.frames),
                ));
            }
            let i = w.world.add_frame(p)?;
            w.frames += 1;
            if let Some(o) = out_frame {
                *o = index_out(i);
            }
            Ok(())
        })
    })
}

/// Adds a collider in frame `frame`'s space; its index (its bit in a
/// chain's `collider_mask`) goes to `out_collider` (may be null).
#[unsafe(no_mangle)]
pub extern "C" fn tress_spring_add_collider(
    world: TressSpringWorld,
    frame: u32,
    collider: Option<&TressCollider>,
    out_collider: Option<&mut u32>,
) -> TressStatus {
    guard("tress_spring_add_collider", || {
        with(world, |w| {
            let f = w.frame(frame)?;
            let c = required(collider, "collider")?.to_core()?;
            if w.colliders >= w.caps.colliders as usize {
                return Err(Error::new(
                    TressStatus::CapacityExceeded,
                    format!("the world's {} colliders are in use", w.caps.colliders),
                ));
            }
            let i = w.world.add_collider(f, c)?;
            w.colliders += 1;
            if let Some(o) = out_collider {
                *o = index_out(i);
            }
            Ok(())
        })
    })
}

/// Replaces collider `index`'s shape (same frame).
#[unsafe(no_mangle)]
pub extern "C" fn tress_spring_set_collider(
    world: TressSpringWorld,
    index: u32,
    collider: Option<&TressCollider>,
) -> TressStatus {
    guard("tress_spring_set_collider", || {
        with(world, |w| {
            let c = required(collider, "collider")?.to_core()?;
            Ok(w.world.set_collider(index as usize, c)?)
        })
    })
}

/// Adds a chain of `joint_count` joints (root to tip) hanging from
/// `desc.frame`, at rest under that frame's pose; its index goes to
/// `out_chain` (may be null).
///
/// # Safety
/// `joints` points to `joint_count` `TressJointDesc` values (or is null
/// with a count of 0).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tress_spring_add_chain(
    world: TressSpringWorld,
    desc: Option<&TressChainDesc>,
    joints: *const TressJointDesc,
    joint_count: usize,
    out_chain: Option<&mut u32>,
) -> TressStatus {
    guard("tress_spring_add_chain", || {
        // SAFETY: the caller gives `joint_count` descriptions at `joints`.
        let joints = unsafe { ptr::slice(joints, joint_count, "joints") }?;
        with(world, |w| {
            let d = required(desc, "desc")?.to_core()?;
            w.frame(d.frame as u32)?;
            if let Some(c) = d.center {
                w.frame(c as u32)?;
            }
            if joints.is_empty() {
                return Err(Error::invalid("a chain needs at least one joint"));
            }
            if w.world.chain_count() >= w.caps.chains as usize
                || w.joints + joints.len() > w.caps.joints as usize
            {
                return Err(Error::new(
                    TressStatus::CapacityExceeded,
                    format!(
                        "a chain of {} joints does not fit: {}/{} chains, {}/{} joints in use",
                        joints.len(),
                        w.world.chain_count(),
                        w.caps.chains,
                        w.joints,
                        w.caps.joints
                    ),
                ));
            }
            let descs = joints
                .iter()
                .enumerate()
                .map(|(i, j)| {
                    j.to_core().map_err(|mut e| {
                        e.message = format!("joint {i}: {}", e.message);
                        e
                    })
                })
                .collect::<Result<Vec<_>>>()?;
            let i = w.world.add_chain(d, &descs)?;
            w.joints += descs.len();
            if w.scratch.len() < descs.len() {
                w.scratch.resize(descs.len(), JointOutput::default());
            }
            if let Some(o) = out_chain {
                *o = index_out(i);
            }
            Ok(())
        })
    })
}

/// Sets frame `frame`'s pose for the coming advance. A non-finite or zero
/// rotation is refused (`InvalidArgument`) and the old pose kept.
#[unsafe(no_mangle)]
pub extern "C" fn tress_spring_set_frame_pose(
    world: TressSpringWorld,
    frame: u32,
    pose: Option<&TressPose>,
) -> TressStatus {
    guard("tress_spring_set_frame_pose", || {
        with(world, |w| w.set_frame_pose(frame, pose))
    })
}

/// Advances by a frame of `dt` seconds (fixed 1/120 s substeps, frame poses
/// interpolated); the substeps run go to `out_substeps` (may be null).
#[unsafe(no_mangle)]
pub extern "C" fn tress_spring_advance(
    world: TressSpringWorld,
    dt: f32,
    out_substeps: Option<&mut u32>,
) -> TressStatus {
    guard("tress_spring_advance", || {
        with(world, |w| w.advance(dt, out_substeps))
    })
}

/// Advances by a frame of `dt` seconds, asking `pose_at` for every frame's
/// pose at the end of each substep (exact for an analytic motion at any
/// frame rate). A pose it leaves non-finite keeps the previous one.
///
/// The world is locked while `pose_at` runs: it must not call functions on
/// this same world (they would wait for it forever).
///
/// # Safety
/// `pose_at` is callable with `user` from this thread during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tress_spring_advance_sampled(
    world: TressSpringWorld,
    dt: f32,
    pose_at: TressPoseFn,
    user: *mut c_void,
    out_substeps: Option<&mut u32>,
) -> TressStatus {
    guard("tress_spring_advance_sampled", || {
        let f = required(pose_at, "pose_at")?;
        with(world, |w| {
            let dt = frame_time(dt)?;
            let n = w.world.advance_sampled(dt, |frame, substep| {
                // Left unwritten, the pose stays NaN and the core keeps the last one.
                let mut p = UNSET;
                // SAFETY: the caller promises `pose_at` may be called with `user`.
                unsafe { ptr::call_pose_fn(f, user, index_out(frame), substep, &mut p) };
                let (v, q) = (p.position, p.rotation);
                Pose::new(
                    Vec3::new(v.x, v.y, v.z),
                    Quat::from_xyzw(q.x, q.y, q.z, q.w),
                )
            });
            if let Some(s) = out_substeps {
                *s = n;
            }
            Ok(())
        })
    })
}

/// Writes chain `chain`'s joint outputs (root first) into `out`, which
/// holds `capacity` entries; the count goes to `out_written` (may be null).
/// `BufferTooSmall` when `capacity` is under the chain's length.
///
/// # Safety
/// `out` points to `capacity` writable `TressJointOutput` values.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tress_spring_outputs(
    world: TressSpringWorld,
    chain: u32,
    out: *mut TressJointOutput,
    capacity: usize,
    out_written: Option<&mut usize>,
) -> TressStatus {
    guard("tress_spring_outputs", || {
        // SAFETY: the caller gives `capacity` writable outputs at `out`.
        let out = unsafe { ptr::slice_mut(out, capacity, "out") }?;
        with(world, |w| {
            let c = w.chain(chain)?;
            w.outputs(c, out, out_written)
        })
    })
}

/// The number of chains, into `out`.
#[unsafe(no_mangle)]
pub extern "C" fn tress_spring_chain_count(
    world: TressSpringWorld,
    out: Option<&mut u32>,
) -> TressStatus {
    count_into("tress_spring_chain_count", &WORLDS, world.bits, out, |w| {
        Ok(w.world.chain_count())
    })
}

/// The number of joints of chain `chain`, into `out`.
#[unsafe(no_mangle)]
pub extern "C" fn tress_spring_chain_length(
    world: TressSpringWorld,
    chain: u32,
    out: Option<&mut u32>,
) -> TressStatus {
    count_into("tress_spring_chain_length", &WORLDS, world.bits, out, |w| {
        Ok(w.world.chain_len(w.chain(chain)?))
    })
}

/// Puts every chain at rest under the current frame poses.
#[unsafe(no_mangle)]
pub extern "C" fn tress_spring_reset(world: TressSpringWorld) -> TressStatus {
    guard("tress_spring_reset", || {
        with(world, |w| {
            w.world.reset();
            Ok(())
        })
    })
}

/// Sets the teleport threshold: an attachment jumping farther than
/// `distance` (unscaled) in one substep carries its chains rigidly; 0 or
/// less turns teleport detection off.
#[unsafe(no_mangle)]
pub extern "C" fn tress_spring_set_teleport_distance(
    world: TressSpringWorld,
    distance: f32,
) -> TressStatus {
    guard("tress_spring_set_teleport_distance", || {
        with(world, |w| w.set_teleport_distance(distance))
    })
}

/// Replaces the stepping policy (state kept).
#[unsafe(no_mangle)]
pub extern "C" fn tress_spring_set_config(
    world: TressSpringWorld,
    config: Option<&TressStepConfig>,
) -> TressStatus {
    guard("tress_spring_set_config", || {
        let c = required(config, "config")?.to_core()?;
        with(world, |w| {
            w.world.set_config(c);
            Ok(())
        })
    })
}

/// The stepping policy, into `out`.
#[unsafe(no_mangle)]
pub extern "C" fn tress_spring_get_config(
    world: TressSpringWorld,
    out: Option<&mut TressStepConfig>,
) -> TressStatus {
    guard("tress_spring_get_config", || {
        let out = required(out, "out")?;
        with(world, |w| {
            *out = w.world.config().into();
            Ok(())
        })
    })
}

/// Sets the model scale (lengths, gravity and radii scale with it).
#[unsafe(no_mangle)]
pub extern "C" fn tress_spring_set_scale(world: TressSpringWorld, scale: f32) -> TressStatus {
    guard("tress_spring_set_scale", || {
        if !(scale.is_finite() && scale > 0.0) {
            return Err(Error::invalid(format!(
                "scale {scale} is not a positive number"
            )));
        }
        with(world, |w| {
            w.world.set_scale(scale);
            Ok(())
        })
    })
}

/// Changes one joint's parameters at run time (state kept).
#[unsafe(no_mangle)]
pub extern "C" fn tress_spring_set_joint_params(
    world: TressSpringWorld,
    chain: u32,
    joint: u32,
    params: Option<&TressJointParams>,
) -> TressStatus {
    guard("tress_spring_set_joint_params", || {
        with(world, |w| {
            let c = w.chain(chain)?;
            w.set_joint_params(c, joint, params)
        })
    })
}

/// Changes every joint's parameters of a chain at run time (state kept).
#[unsafe(no_mangle)]
pub extern "C" fn tress_spring_set_chain_params(
    world: TressSpringWorld,
    chain: u32,
    params: Option<&TressJointParams>,
) -> TressStatus {
    guard("tress_spring_set_chain_params", || {
        with(world, |w| {
            let c = w.chain(chain)?;
            w.set_chain_params(c, params)
        })
    })
}

/// Sets a chain's solver mode (`TressMode`) and contact (`TressContact`)
/// at run time, without a reset.
#[unsafe(no_mangle)]
pub extern "C" fn tress_spring_set_chain_mode(
    world: TressSpringWorld,
    chain: u32,
    mode: u32,
    contact: u32,
) -> TressStatus {
    guard("tress_spring_set_chain_mode", || {
        with(world, |w| {
            let c = w.chain(chain)?;
            w.set_chain_mode(c, mode, contact)
        })
    })
}

/// A chain's description, into `out`.
#[unsafe(no_mangle)]
pub extern "C" fn tress_spring_get_chain_desc(
    world: TressSpringWorld,
    chain: u32,
    out: Option<&mut TressChainDesc>,
) -> TressStatus {
    guard("tress_spring_get_chain_desc", || {
        let out = required(out, "out")?;
        with(world, |w| {
            *out = w.world.chain_desc(w.chain(chain)?)?.into();
            Ok(())
        })
    })
}

/// Replaces a chain's description (mode, contact, mask, …) without a reset.
#[unsafe(no_mangle)]
pub extern "C" fn tress_spring_set_chain_desc(
    world: TressSpringWorld,
    chain: u32,
    desc: Option<&TressChainDesc>,
) -> TressStatus {
    guard("tress_spring_set_chain_desc", || {
        with(world, |w| {
            let c = w.chain(chain)?;
            let d = required(desc, "desc")?.to_core()?;
            w.frame(d.frame as u32)?;
            if let Some(f) = d.center {
                w.frame(f as u32)?;
            }
            Ok(w.world.set_chain_desc(c, d)?)
        })
    })
}
