//! `tress_avatar_*`: a VRM or GLB file's springs and colliders as a ready
//! spring world (`tress_rig::spring_rig::SpringRig`), with frames keyed by
//! glTF node index and looked up by node name.
//!
//! Chains are numbered as the rig lists them (VRM spring order, skipped
//! springs left out); [`tress_avatar_chain_nodes`] names the nodes each
//! chain's outputs belong to.

use core::ffi::c_char;

use tress_core::math::Pose;
use tress_core::spring::ChainDesc;
use tress_rig::fit_colliders::{ColliderFitOptions, fitted};
use tress_rig::spring_rig::{RigError, RigOptions, SpringRig, apply_lock_options};

use crate::motion::{TressJointLimit, TressWind};
use crate::ptr::{self, required};
use crate::registry::{Registry, count_into};
use crate::spring::World;
use crate::status::{Error, Result, TressStatus, guard};
use crate::types::{
    TressChainDesc, TressFoldPose, TressJointOutput, TressJointParams, TressPose, TressStepConfig,
    contact, index_out, mode, too_small,
};

/// An avatar handle; all bits zero is the null handle.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TressAvatar {
    /// Registry slot, generation and kind; opaque.
    pub bits: u64,
}

/// How an avatar's rig is built (`tress_rig::spring_rig::RigOptions`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TressRigOptions {
    /// A `TressMode` value for every chain.
    pub mode: u32,
    /// A `TressContact` value for every chain (VRM-compatible chains use the tail).
    pub contact: u32,
    /// Fit colliders to the body first and take each chain's contact from
    /// the fit, as the Godot `TressAvatar` node does.
    pub fit_colliders: bool,
    /// VrmCompatible: three-vrm's bone-length quirk.
    pub vrm_length_quirk: bool,
    /// Improved: flat-lock stiffness, 1/s (0: off; 5, the default, with the
    /// lock twist and drape; 83 for the least stretch and the least swing).
    pub flat_lock_stiffness: f32,
    /// Improved: drape over contact (on by default).
    pub drape: bool,
    /// Improved: twist flat locks' bones so their bends go through the face
    /// (on by default).
    pub lock_twist: bool,
    /// Stepping policy.
    pub config: TressStepConfig,
}

impl Default for TressRigOptions {
    fn default() -> Self {
        let o = RigOptions::default();
        let d: TressChainDesc = ChainDesc {
            mode: o.mode,
            contact: o.contact,
            ..ChainDesc::default()
        }
        .into();
        Self {
            mode: d.mode,
            contact: d.contact,
            fit_colliders: false,
            vrm_length_quirk: o.vrm_length_quirk,
            flat_lock_stiffness: o.flat_lock_stiffness,
            drape: o.drape,
            lock_twist: o.lock_twist,
            config: o.config.into(),
        }
    }
}

/// `flat_lock_stiffness` (1/s), `drape`, `lock_twist`, as `TressRigOptions`
/// names them.
#[derive(Debug, Clone, Copy, PartialEq)]
struct LockOptions {
    flat_lock_stiffness: f32,
    drape: bool,
    lock_twist: bool,
}

impl LockOptions {
    fn of(o: &RigOptions) -> Self {
        Self {
            flat_lock_stiffness: o.flat_lock_stiffness,
            drape: o.drape,
            lock_twist: o.lock_twist,
        }
    }
}

pub(crate) struct AvatarObj {
    world: World,
    chains: Vec<tress_rig::spring_rig::RigChain>,
    /// Whether the rig read the locks' shapes (flat locks or the twist on
    /// at load), which `tress_avatar_set_lock_options` needs to turn them on.
    lock_shapes: bool,
    /// The lock options in force: the load's, then the last accepted
    /// `tress_avatar_set_lock_options`.
    lock_options: LockOptions,
    frame_nodes: Vec<Option<usize>>,
    node_names: Vec<String>,
    rest: Vec<Pose>,
    /// The bands' fold joints, placed from the chains' outputs on request.
    folds: tress_rig::folds::RigFolds,
}

impl AvatarObj {
    /// Loads and rigs `bytes`.
    pub fn load(bytes: &[u8], opts: &TressRigOptions) -> Result<Self> {
        let avatar = tress_vrm::load_bytes(bytes, None).map_err(|e| {
            Error::new(TressStatus::LoadFailed, format!("cannot load the VRM: {e}"))
        })?;
        let mut rig_opts = RigOptions {
            mode: mode(opts.mode)?,
            contact: contact(opts.contact)?,
            vrm_length_quirk: opts.vrm_length_quirk,
            flat_lock_stiffness: if opts.flat_lock_stiffness.is_finite() {
                opts.flat_lock_stiffness
            } else {
                return Err(Error::invalid("flat_lock_stiffness is not finite"));
            },
            drape: opts.drape,
            lock_twist: opts.lock_twist,
            config: opts.config.to_core()?,
            ..RigOptions::default()
        };
        let avatar = if opts.fit_colliders {
            let (a, fit) = fitted(&avatar, &ColliderFitOptions::default());
            rig_opts.tail_chains = fit.tail_chains();
            a
        } else {
            avatar
        };
        let rig = SpringRig::build(&avatar, &rig_opts).map_err(|e| {
            let status = match e {
                RigError::Capacity(_) => TressStatus::CapacityExceeded,
                RigError::Invalid(_) => TressStatus::LoadFailed,
            };
            Error::new(status, format!("cannot rig the VRM: {e}"))
        })?;
        let rest = rig.rest_poses(&avatar);
        let lock_shapes = rig.lock_shapes_read();
        let SpringRig {
            world,
            frame_nodes,
            chains,
            folds,
            ..
        } = rig;
        Ok(Self {
            world: World::adopt(world, frame_nodes.len()),
            chains,
            lock_shapes,
            lock_options: LockOptions::of(&rig_opts),
            frame_nodes,
            node_names: avatar.nodes.into_iter().map(|n| n.name).collect(),
            rest,
            folds,
        })
    }

    fn chain(&self, chain: u32) -> Result<usize> {
        self.chains
            .get(chain as usize)
            .map(|c| c.index)
            .ok_or_else(|| {
                Error::new(
                    TressStatus::BadIndex,
                    format!(
                        "chain {chain} does not exist ({} chains)",
                        self.chains.len()
                    ),
                )
            })
    }

    /// `frame`'s entry of a per-frame list (`frame_nodes`, `rest`).
    fn frame_entry<'a, T>(&self, items: &'a [T], frame: u32) -> Result<&'a T> {
        items.get(frame as usize).ok_or_else(|| {
            Error::new(
                TressStatus::BadIndex,
                format!(
                    "frame {frame} does not exist ({} frames)",
                    self.frame_nodes.len()
                ),
            )
        })
    }

    fn frame_of_node(&self, node: usize) -> Result<u32> {
        self.frame_nodes
            .iter()
            .position(|&n| n == Some(node))
            .map(index_out)
            .ok_or_else(|| {
                Error::new(
                    TressStatus::BadIndex,
                    format!("node {node} is not an attachment frame"),
                )
            })
    }

    fn find_node(&self, name: &str) -> Result<usize> {
        self.node_names
            .iter()
            .position(|n| n == name)
            .ok_or_else(|| Error::new(TressStatus::BadIndex, format!("no node is named {name:?}")))
    }
}

static AVATARS: Registry<AvatarObj> = Registry::new(2, "avatar");

fn with<R>(a: TressAvatar, f: impl FnOnce(&mut AvatarObj) -> Result<R>) -> Result<R> {
    AVATARS.with(a.bits, f)
}

/// The default rig options, into `out`.
#[unsafe(no_mangle)]
pub extern "C" fn tress_rig_options_default(out: Option<&mut TressRigOptions>) -> TressStatus {
    guard("tress_rig_options_default", || {
        *required(out, "out")? = TressRigOptions::default();
        Ok(())
    })
}

/// Loads a VRM 0.x / 1.0 or glTF binary (GLB) file's bytes and builds its
/// spring rig at rest; `options` null: the defaults. `LoadFailed` carries
/// the loader's message with the JSON path that failed.
///
/// # Safety
/// `bytes` points to `len` readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tress_avatar_load(
    bytes: *const u8,
    len: usize,
    options: Option<&TressRigOptions>,
    out: Option<&mut TressAvatar>,
) -> TressStatus {
    guard("tress_avatar_load", || {
        let out = required(out, "out")?;
        // SAFETY: the caller gives `len` readable bytes at `bytes`.
        let bytes = unsafe { ptr::slice(bytes, len, "bytes") }?;
        let opts = options.copied().unwrap_or_default();
        let a = AvatarObj::load(bytes, &opts)?;
        out.bits = AVATARS.insert(a);
        Ok(())
    })
}

/// Destroys an avatar; the handle and its copies become stale.
#[unsafe(no_mangle)]
pub extern "C" fn tress_avatar_destroy(avatar: TressAvatar) -> TressStatus {
    guard("tress_avatar_destroy", || AVATARS.remove(avatar.bits))
}

/// The number of glTF nodes, into `out`.
#[unsafe(no_mangle)]
pub extern "C" fn tress_avatar_node_count(
    avatar: TressAvatar,
    out: Option<&mut u32>,
) -> TressStatus {
    count_into("tress_avatar_node_count", &AVATARS, avatar.bits, out, |a| {
        Ok(a.node_names.len())
    })
}

/// The index of the first node named `name` (UTF-8), into `out`;
/// `BadIndex` when none is.
///
/// # Safety
/// `name` is a NUL-terminated string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tress_avatar_find_node(
    avatar: TressAvatar,
    name: *const c_char,
    out: Option<&mut u32>,
) -> TressStatus {
    guard("tress_avatar_find_node", || {
        let out = required(out, "out")?;
        // SAFETY: the caller gives a NUL-terminated string.
        let name = unsafe { ptr::c_str(name, "name") }?;
        with(avatar, |a| {
            *out = index_out(a.find_node(name)?);
            Ok(())
        })
    })
}

/// The attachment frame of the node named `name`, into `out`; `BadIndex`
/// when no node has that name or it is not a frame.
///
/// # Safety
/// `name` is a NUL-terminated string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tress_avatar_find_frame(
    avatar: TressAvatar,
    name: *const c_char,
    out: Option<&mut u32>,
) -> TressStatus {
    guard("tress_avatar_find_frame", || {
        let out = required(out, "out")?;
        // SAFETY: the caller gives a NUL-terminated string.
        let name = unsafe { ptr::c_str(name, "name") }?;
        with(avatar, |a| {
            let node = a.find_node(name)?;
            *out = a.frame_of_node(node)?;
            Ok(())
        })
    })
}

/// The attachment frame of node `node`, into `out`; `BadIndex` when the
/// node is not a frame.
#[unsafe(no_mangle)]
pub extern "C" fn tress_avatar_frame_of_node(
    avatar: TressAvatar,
    node: u32,
    out: Option<&mut u32>,
) -> TressStatus {
    guard("tress_avatar_frame_of_node", || {
        let out = required(out, "out")?;
        with(avatar, |a| {
            *out = a.frame_of_node(node as usize)?;
            Ok(())
        })
    })
}

/// The number of attachment frames, into `out`.
#[unsafe(no_mangle)]
pub extern "C" fn tress_avatar_frame_count(
    avatar: TressAvatar,
    out: Option<&mut u32>,
) -> TressStatus {
    count_into(
        "tress_avatar_frame_count",
        &AVATARS,
        avatar.bits,
        out,
        |a| Ok(a.frame_nodes.len()),
    )
}

/// The glTF node of frame `frame`, into `out` (-1: the scene root).
#[unsafe(no_mangle)]
pub extern "C" fn tress_avatar_frame_node(
    avatar: TressAvatar,
    frame: u32,
    out: Option<&mut i32>,
) -> TressStatus {
    guard("tress_avatar_frame_node", || {
        let out = required(out, "out")?;
        with(avatar, |a| {
            let n = a.frame_entry(&a.frame_nodes, frame)?;
            *out = n.map_or(-1, |n| i32::try_from(n).unwrap_or(i32::MAX));
            Ok(())
        })
    })
}

/// Frame `frame`'s rest world pose (the file's rest pose), into `out`.
#[unsafe(no_mangle)]
pub extern "C" fn tress_avatar_rest_pose(
    avatar: TressAvatar,
    frame: u32,
    out: Option<&mut TressPose>,
) -> TressStatus {
    guard("tress_avatar_rest_pose", || {
        let out = required(out, "out")?;
        with(avatar, |a| {
            let p = a.frame_entry(&a.rest, frame)?;
            *out = (*p).into();
            Ok(())
        })
    })
}

/// Sets frame `frame`'s world pose for the coming advance.
#[unsafe(no_mangle)]
pub extern "C" fn tress_avatar_set_frame_pose(
    avatar: TressAvatar,
    frame: u32,
    pose: Option<&TressPose>,
) -> TressStatus {
    guard("tress_avatar_set_frame_pose", || {
        with(avatar, |a| a.world.set_frame_pose(frame, pose))
    })
}

/// Advances by a frame of `dt` seconds; substeps run go to `out_substeps` (may be null).
#[unsafe(no_mangle)]
pub extern "C" fn tress_avatar_advance(
    avatar: TressAvatar,
    dt: f32,
    out_substeps: Option<&mut u32>,
) -> TressStatus {
    guard("tress_avatar_advance", || {
        with(avatar, |a| a.world.advance(dt, out_substeps))
    })
}

/// Puts every chain at rest under the current frame poses.
#[unsafe(no_mangle)]
pub extern "C" fn tress_avatar_reset(avatar: TressAvatar) -> TressStatus {
    guard("tress_avatar_reset", || {
        with(avatar, |a| {
            a.world.world.reset();
            Ok(())
        })
    })
}

/// The number of chains, into `out`.
#[unsafe(no_mangle)]
pub extern "C" fn tress_avatar_chain_count(
    avatar: TressAvatar,
    out: Option<&mut u32>,
) -> TressStatus {
    count_into(
        "tress_avatar_chain_count",
        &AVATARS,
        avatar.bits,
        out,
        |a| Ok(a.chains.len()),
    )
}

/// The number of joints of chain `chain`, into `out`.
#[unsafe(no_mangle)]
pub extern "C" fn tress_avatar_chain_length(
    avatar: TressAvatar,
    chain: u32,
    out: Option<&mut u32>,
) -> TressStatus {
    count_into(
        "tress_avatar_chain_length",
        &AVATARS,
        avatar.bits,
        out,
        |a| Ok(a.world.world.chain_len(a.chain(chain)?)),
    )
}

/// The glTF nodes chain `chain` drives (root first) into `out` of
/// `capacity` entries; the count goes to `out_written` (may be null).
///
/// # Safety
/// `out` points to `capacity` writable `uint32_t` values.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tress_avatar_chain_nodes(
    avatar: TressAvatar,
    chain: u32,
    out: *mut u32,
    capacity: usize,
    out_written: Option<&mut usize>,
) -> TressStatus {
    guard("tress_avatar_chain_nodes", || {
        // SAFETY: the caller gives `capacity` writable values at `out`.
        let out = unsafe { ptr::slice_mut(out, capacity, "out") }?;
        with(avatar, |a| {
            a.chain(chain)?;
            let nodes = &a.chains[chain as usize].nodes;
            if out.len() < nodes.len() {
                return Err(too_small("the node buffer", out.len(), nodes.len()));
            }
            for (o, n) in out.iter_mut().zip(nodes) {
                *o = index_out(*n);
            }
            if let Some(w) = out_written {
                *w = nodes.len();
            }
            Ok(())
        })
    })
}

/// Writes chain `chain`'s joint outputs (root first) into `out` of
/// `capacity` entries; the count goes to `out_written` (may be null).
///
/// # Safety
/// `out` points to `capacity` writable `TressJointOutput` values.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tress_avatar_outputs(
    avatar: TressAvatar,
    chain: u32,
    out: *mut TressJointOutput,
    capacity: usize,
    out_written: Option<&mut usize>,
) -> TressStatus {
    guard("tress_avatar_outputs", || {
        // SAFETY: the caller gives `capacity` writable outputs at `out`.
        let out = unsafe { ptr::slice_mut(out, capacity, "out") }?;
        with(avatar, |a| {
            let c = a.chain(chain)?;
            a.world.outputs(c, out, out_written)
        })
    })
}

/// The number of fold joints (`TRESS_springBone_band` folds: the cloth
/// between two chains of a band hung in a flute), into `out`; 0 without.
#[unsafe(no_mangle)]
pub extern "C" fn tress_avatar_fold_count(
    avatar: TressAvatar,
    out: Option<&mut u32>,
) -> TressStatus {
    count_into("tress_avatar_fold_count", &AVATARS, avatar.bits, out, |a| {
        Ok(a.folds.nodes().count())
    })
}

/// Places every fold joint from the chains' current outputs and writes
/// their local poses (node, translation, rotation) into `out` of `capacity`
/// entries; the count goes to `out_written` (may be null). Write them to
/// the nodes after the chains' rotations, every frame.
///
/// # Safety
/// `out` points to `capacity` writable `TressFoldPose` values.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tress_avatar_fold_poses(
    avatar: TressAvatar,
    out: *mut TressFoldPose,
    capacity: usize,
    out_written: Option<&mut usize>,
) -> TressStatus {
    guard("tress_avatar_fold_poses", || {
        // SAFETY: the caller gives `capacity` writable poses at `out`.
        let out = unsafe { ptr::slice_mut(out, capacity, "out") }?;
        with(avatar, |a| {
            let need = a.folds.nodes().count();
            if out.len() < need {
                return Err(too_small("the output buffer", out.len(), need));
            }
            let placed = a.folds.place(&a.world.world, &a.chains);
            for (o, f) in out.iter_mut().zip(placed) {
                *o = TressFoldPose {
                    node: u32::try_from(f.node).unwrap_or(u32::MAX),
                    translation: f.translation.into(),
                    rotation: f.rotation.into(),
                };
            }
            if let Some(w) = out_written {
                *w = placed.len();
            }
            Ok(())
        })
    })
}

/// Changes every joint's parameters of chain `chain` (state kept).
#[unsafe(no_mangle)]
pub extern "C" fn tress_avatar_set_chain_params(
    avatar: TressAvatar,
    chain: u32,
    params: Option<&TressJointParams>,
) -> TressStatus {
    guard("tress_avatar_set_chain_params", || {
        with(avatar, |a| {
            let c = a.chain(chain)?;
            a.world.set_chain_params(c, params)
        })
    })
}

/// Sets chain `chain`'s mode (`TressMode`) and contact (`TressContact`).
#[unsafe(no_mangle)]
pub extern "C" fn tress_avatar_set_chain_mode(
    avatar: TressAvatar,
    chain: u32,
    mode: u32,
    contact: u32,
) -> TressStatus {
    guard("tress_avatar_set_chain_mode", || {
        with(avatar, |a| {
            let c = a.chain(chain)?;
            a.world.set_chain_mode(c, mode, contact)
        })
    })
}

/// Sets the lock options of every chain as `TressRigOptions` names them
/// (`flat_lock_stiffness` in 1/s, 0 off; `drape`; `lock_twist`), keeping the
/// hair's motion. `InvalidArgument` (nothing changed) for a stiffness that
/// is negative or not finite, or for turning flat locks or the twist on in
/// an avatar loaded with both off: its rig did not read the locks' shapes;
/// load it again with them on.
#[unsafe(no_mangle)]
pub extern "C" fn tress_avatar_set_lock_options(
    avatar: TressAvatar,
    flat_lock_stiffness: f32,
    drape: bool,
    lock_twist: bool,
) -> TressStatus {
    guard("tress_avatar_set_lock_options", || {
        with(avatar, |a| {
            if !(flat_lock_stiffness.is_finite() && flat_lock_stiffness >= 0.0) {
                return Err(Error::invalid(format!(
                    "flat_lock_stiffness {flat_lock_stiffness} is not a finite rate >= 0"
                )));
            }
            let opts = RigOptions {
                flat_lock_stiffness,
                drape,
                lock_twist,
                ..RigOptions::default()
            };
            if !apply_lock_options(&mut a.world.world, &a.chains, a.lock_shapes, &opts) {
                return Err(Error::invalid(
                    "the avatar was loaded with flat locks and the lock twist off, so its \
                     rig has no lock shapes: load it again with either on",
                ));
            }
            a.lock_options = LockOptions::of(&opts);
            Ok(())
        })
    })
}

/// Reads the lock options in force (what the avatar was loaded with, or the
/// last `tress_avatar_set_lock_options` that succeeded) into the three
/// outputs. `NullPointer` for a null output (nothing written).
#[unsafe(no_mangle)]
pub extern "C" fn tress_avatar_get_lock_options(
    avatar: TressAvatar,
    flat_lock_stiffness: Option<&mut f32>,
    drape: Option<&mut bool>,
    lock_twist: Option<&mut bool>,
) -> TressStatus {
    guard("tress_avatar_get_lock_options", || {
        let k = required(flat_lock_stiffness, "flat_lock_stiffness")?;
        let d = required(drape, "drape")?;
        let t = required(lock_twist, "lock_twist")?;
        with(avatar, |a| {
            let o = a.lock_options;
            (*k, *d, *t) = (o.flat_lock_stiffness, o.drape, o.lock_twist);
            Ok(())
        })
    })
}

/// Sets the teleport threshold (see `tress_spring_set_teleport_distance`).
#[unsafe(no_mangle)]
pub extern "C" fn tress_avatar_set_teleport_distance(
    avatar: TressAvatar,
    distance: f32,
) -> TressStatus {
    guard("tress_avatar_set_teleport_distance", || {
        with(avatar, |a| a.world.set_teleport_distance(distance))
    })
}

/// Sets the wind (see `tress_spring_set_wind`).
#[unsafe(no_mangle)]
pub extern "C" fn tress_avatar_set_wind(
    avatar: TressAvatar,
    wind: Option<&TressWind>,
) -> TressStatus {
    guard("tress_avatar_set_wind", || {
        with(avatar, |a| a.world.set_wind(wind))
    })
}

/// Sets chain `chain`'s own wind exposure (see
/// `tress_spring_set_chain_wind_exposure`).
#[unsafe(no_mangle)]
pub extern "C" fn tress_avatar_set_chain_wind_exposure(
    avatar: TressAvatar,
    chain: u32,
    exposure: f32,
) -> TressStatus {
    guard("tress_avatar_set_chain_wind_exposure", || {
        with(avatar, |a| {
            let c = a.chain(chain)?;
            a.world.set_chain_wind_exposure(c, exposure)
        })
    })
}

/// Sets or removes one joint's angle limit on top of the file's (see
/// `tress_spring_set_joint_limit`).
#[unsafe(no_mangle)]
pub extern "C" fn tress_avatar_set_joint_limit(
    avatar: TressAvatar,
    chain: u32,
    joint: u32,
    limit: Option<&TressJointLimit>,
) -> TressStatus {
    guard("tress_avatar_set_joint_limit", || {
        with(avatar, |a| {
            let c = a.chain(chain)?;
            a.world.set_limit(c, Some(joint), limit)
        })
    })
}

/// Sets or removes the same angle limit on every joint of chain `chain`.
#[unsafe(no_mangle)]
pub extern "C" fn tress_avatar_set_chain_limit(
    avatar: TressAvatar,
    chain: u32,
    limit: Option<&TressJointLimit>,
) -> TressStatus {
    guard("tress_avatar_set_chain_limit", || {
        with(avatar, |a| {
            let c = a.chain(chain)?;
            a.world.set_limit(c, None, limit)
        })
    })
}

/// Sets the teleport rotation threshold and mode (see
/// `tress_spring_set_teleport_policy`).
#[unsafe(no_mangle)]
pub extern "C" fn tress_avatar_set_teleport_policy(
    avatar: TressAvatar,
    angle: f32,
    mode: u32,
) -> TressStatus {
    guard("tress_avatar_set_teleport_policy", || {
        with(avatar, |a| a.world.set_teleport_policy(angle, mode))
    })
}

/// Makes frame `frame` the anchor, or none with `TRESS_NO_ANCHOR` (see
/// `tress_spring_set_anchor`).
#[unsafe(no_mangle)]
pub extern "C" fn tress_avatar_set_anchor(avatar: TressAvatar, frame: u32) -> TressStatus {
    guard("tress_avatar_set_anchor", || {
        with(avatar, |a| a.world.set_anchor(frame))
    })
}

/// Continues after a pause (see `tress_spring_resume`).
#[unsafe(no_mangle)]
pub extern "C" fn tress_avatar_resume(avatar: TressAvatar) -> TressStatus {
    guard("tress_avatar_resume", || {
        with(avatar, |a| {
            a.world.world.resume();
            Ok(())
        })
    })
}

/// Holds the hair for one paused frame (see `tress_spring_hold`).
#[unsafe(no_mangle)]
pub extern "C" fn tress_avatar_hold(avatar: TressAvatar) -> TressStatus {
    guard("tress_avatar_hold", || {
        with(avatar, |a| {
            a.world.world.hold();
            Ok(())
        })
    })
}
