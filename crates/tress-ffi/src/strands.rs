//! `tress_strands_*`: particle strands (`tress_core::strand::StrandSim`)
//! from a groom file's bytes (`.tfx` or OBJ, `tress_rig::groom::read_any`)
//! or from the caller's arrays, following a head pose, with head-frame and
//! world colliders; positions and tangents read into caller buffers.

use core::ffi::c_char;

use tress_core::collide::{Collider, WorldCollider};
use tress_core::math::{Pose, Quat, Vec3};
use tress_core::strand::{PassCounts, Schedule, StrandParams, StrandSim};
use tress_rig::groom::{Groom, read_any};

use crate::ptr::{self, required};
use crate::registry::Registry;
use crate::status::{Error, Result, TressStatus, guard};
use crate::types::{TressCollider, TressPose, TressVec3, frame_time, index_out, too_small};

/// A strand groom handle; all bits zero is the null handle.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TressStrands {
    /// Registry slot, generation and kind; opaque.
    pub bits: u64,
}

/// Strand solver parameters (`tress_core::strand::StrandParams`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TressStrandParams {
    /// Gravity, m/s², world space.
    pub gravity: TressVec3,
    /// Velocity decay rate, 1/s.
    pub damping: f32,
    /// Global shape stiffness: fraction of the distance to the groomed position removed per 1/60 s.
    pub global_stiffness: f32,
    /// Fraction of the free particles (from the root) under global shape.
    pub global_range: f32,
    /// Local shape stiffness: fraction of the segment error removed per 1/60 s.
    pub local_stiffness: f32,
    /// Follow-The-Leader velocity correction (0 plain, 1 full).
    pub length_velocity_correction: f32,
    /// Particle radius added to every collider, metres.
    pub collision_margin: f32,
    /// Global shape iterations per step (0..=255).
    pub global_passes: u32,
    /// Local shape iterations per step (0..=255).
    pub local_passes: u32,
    /// Collision iterations per step (0..=255).
    pub collision_passes: u32,
    /// Length iterations per step (0..=255).
    pub length_passes: u32,
    /// Run one collision sweep inside the last length sweep.
    pub collide_in_length: bool,
}

impl From<StrandParams> for TressStrandParams {
    fn from(p: StrandParams) -> Self {
        Self {
            gravity: p.gravity.into(),
            damping: p.damping,
            global_stiffness: p.global_stiffness,
            global_range: p.global_range,
            local_stiffness: p.local_stiffness,
            length_velocity_correction: p.length_velocity_correction,
            collision_margin: p.collision_margin,
            global_passes: p.passes.global.into(),
            local_passes: p.passes.local.into(),
            collision_passes: p.passes.collision.into(),
            length_passes: p.passes.length.into(),
            collide_in_length: p.collide_in_length,
        }
    }
}

impl Default for TressStrandParams {
    fn default() -> Self {
        StrandParams::default().into()
    }
}

impl TressStrandParams {
    fn to_core(self) -> Result<StrandParams> {
        let reals = [
            ("damping", self.damping),
            ("global_stiffness", self.global_stiffness),
            ("global_range", self.global_range),
            ("local_stiffness", self.local_stiffness),
            (
                "length_velocity_correction",
                self.length_velocity_correction,
            ),
            ("collision_margin", self.collision_margin),
        ];
        for (what, x) in reals {
            if !x.is_finite() {
                return Err(Error::invalid(format!("{what} is not finite ({x})")));
            }
        }
        let pass = |what: &str, n: u32| {
            u8::try_from(n).map_err(|_| Error::invalid(format!("{what} {n} is over 255")))
        };
        Ok(StrandParams {
            gravity: self.gravity.to_core("gravity")?,
            damping: self.damping,
            global_stiffness: self.global_stiffness,
            global_range: self.global_range,
            local_stiffness: self.local_stiffness,
            length_velocity_correction: self.length_velocity_correction,
            collision_margin: self.collision_margin,
            passes: PassCounts {
                global: pass("global_passes", self.global_passes)?,
                local: pass("local_passes", self.local_passes)?,
                collision: pass("collision_passes", self.collision_passes)?,
                length: pass("length_passes", self.length_passes)?,
            },
            collide_in_length: self.collide_in_length,
        })
    }
}

/// How strands are made from a groom.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TressStrandOptions {
    /// Particles per strand after resampling (4..=64); 0 keeps the groom's
    /// own count when every strand has the same (in range).
    pub particles: u32,
    /// Groom-space point that becomes the head frame's origin (subtracted
    /// from every groom point; the groom's axes are the head's).
    pub origin: TressVec3,
    /// Head pose the strands start at rest under.
    pub head_pose: TressPose,
    /// Solver parameters.
    pub params: TressStrandParams,
    /// Threads that step the strands (1: the caller's only; 0 counts as 1).
    pub threads: u32,
}

impl Default for TressStrandOptions {
    fn default() -> Self {
        Self {
            particles: 16,
            origin: TressVec3::default(),
            head_pose: TressPose::default(),
            params: TressStrandParams::default(),
            threads: 1,
        }
    }
}

pub(crate) struct StrandsObj {
    pub(crate) sim: StrandSim,
    /// Pose at the end of the last advance, and the one set for the next.
    pub(crate) last: Pose,
    next: Pose,
    head: Vec<Collider>,
    world: Vec<WorldCollider>,
    /// Render strands following these (`strand_follow`), once asked for.
    pub(crate) follow: Option<crate::strand_follow::Follow>,
}

impl StrandsObj {
    fn new(groom: &Groom, opts: &TressStrandOptions) -> Result<Self> {
        let load = |e: tress_rig::groom::GroomError| Error::new(TressStatus::LoadFailed, e);
        let m = match opts.particles {
            0 => groom.uniform_count().ok_or_else(|| {
                Error::invalid("particles is 0 but the groom's strands differ in length")
            })?,
            m => m as usize,
        };
        let groom = groom.resampled(m).map_err(load)?.ordered_by_root();
        let origin = opts.origin.to_core("origin")?;
        let pts: Vec<Vec3> = groom.points().iter().map(|p| *p - origin).collect();
        let pose = opts.head_pose.to_core("head_pose")?;
        let params = opts.params.to_core()?;
        let mut sim =
            StrandSim::from_points(m, &pts, params, Schedule::FIXED_120, pose).map_err(|e| {
                Error::new(TressStatus::LoadFailed, format!("no usable strands: {e:?}"))
            })?;
        sim.set_threads(opts.threads.max(1) as usize);
        Ok(Self {
            sim,
            last: pose,
            next: pose,
            head: Vec::new(),
            world: Vec::new(),
            follow: None,
        })
    }

    fn count(&self) -> usize {
        let l = self.sim.layout();
        l.strands() * l.particles()
    }
}

static STRANDS: Registry<StrandsObj> = Registry::new(3, "strands");

pub(crate) fn with<R>(s: TressStrands, f: impl FnOnce(&mut StrandsObj) -> Result<R>) -> Result<R> {
    STRANDS.with(s.bits, f)
}

fn make(groom: &Groom, options: Option<&TressStrandOptions>, out: &mut TressStrands) -> Result<()> {
    let opts = options.copied().unwrap_or_default();
    let obj = StrandsObj::new(groom, &opts)?;
    out.bits = STRANDS.insert(obj);
    Ok(())
}

/// The default strand options, into `out`.
#[unsafe(no_mangle)]
pub extern "C" fn tress_strand_options_default(
    out: Option<&mut TressStrandOptions>,
) -> TressStatus {
    guard("tress_strand_options_default", || {
        *required(out, "out")? = TressStrandOptions::default();
        Ok(())
    })
}

/// Makes strands from a groom file's bytes: `name` ending in `.obj` (any
/// case) reads OBJ polylines, any other name TressFX `.tfx`; the name is
/// not opened. `options` null: the defaults.
///
/// # Safety
/// `name` is a NUL-terminated string; `bytes` points to `len` readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tress_strands_load(
    name: *const c_char,
    bytes: *const u8,
    len: usize,
    options: Option<&TressStrandOptions>,
    out: Option<&mut TressStrands>,
) -> TressStatus {
    guard("tress_strands_load", || {
        let out = required(out, "out")?;
        // SAFETY: the caller gives a NUL-terminated string.
        let name = unsafe { ptr::c_str(name, "name") }?;
        // SAFETY: the caller gives `len` readable bytes at `bytes`.
        let bytes = unsafe { ptr::slice(bytes, len, "bytes") }?;
        let groom = read_any(name, bytes).map_err(|e| {
            Error::new(
                TressStatus::LoadFailed,
                format!("cannot read groom {name:?}: {e}"),
            )
        })?;
        make(&groom, options, out)
    })
}

/// Makes strands from `strand_count` strands of `points_per_strand`
/// points each (strand-major, root first, in groom space).
///
/// # Safety
/// `points` points to `strand_count * points_per_strand` `TressVec3` values.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tress_strands_create(
    points: *const TressVec3,
    strand_count: usize,
    points_per_strand: usize,
    options: Option<&TressStrandOptions>,
    out: Option<&mut TressStrands>,
) -> TressStatus {
    guard("tress_strands_create", || {
        let out = required(out, "out")?;
        let n = strand_count
            .checked_mul(points_per_strand)
            .ok_or_else(|| Error::invalid("strand_count * points_per_strand overflows"))?;
        if n == 0 || points_per_strand < 2 {
            return Err(Error::invalid(
                "strands need at least one strand of two points",
            ));
        }
        // SAFETY: the caller gives `n` points at `points`.
        let pts = unsafe { ptr::slice(points, n, "points") }?;
        let mut groom = Groom::new();
        let mut strand = Vec::with_capacity(points_per_strand);
        for s in pts.chunks(points_per_strand) {
            strand.clear();
            for p in s {
                strand.push(p.to_core("point")?);
            }
            groom.push_strand(&strand);
        }
        make(&groom, options, out)
    })
}

/// Destroys strands; the handle and its copies become stale.
#[unsafe(no_mangle)]
pub extern "C" fn tress_strands_destroy(strands: TressStrands) -> TressStatus {
    guard("tress_strands_destroy", || STRANDS.remove(strands.bits))
}

/// Strand and per-strand particle counts, into `out_strands` and
/// `out_particles` (either may be null). Position and tangent buffers hold
/// `strands * particles` entries.
#[unsafe(no_mangle)]
pub extern "C" fn tress_strands_counts(
    strands: TressStrands,
    out_strands: Option<&mut u32>,
    out_particles: Option<&mut u32>,
) -> TressStatus {
    guard("tress_strands_counts", || {
        with(strands, |s| {
            let l = s.sim.layout();
            if let Some(o) = out_strands {
                *o = index_out(l.strands());
            }
            if let Some(o) = out_particles {
                *o = index_out(l.particles());
            }
            Ok(())
        })
    })
}

/// Sets the head pose the next advance ends at.
#[unsafe(no_mangle)]
pub extern "C" fn tress_strands_set_head_pose(
    strands: TressStrands,
    pose: Option<&TressPose>,
) -> TressStatus {
    guard("tress_strands_set_head_pose", || {
        let p = required(pose, "pose")?.to_core("pose")?;
        with(strands, |s| {
            s.next = p;
            Ok(())
        })
    })
}

/// Replaces the colliders carried by the head (in the head frame).
///
/// # Safety
/// `colliders` points to `count` `TressCollider` values.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tress_strands_set_head_colliders(
    strands: TressStrands,
    colliders: *const TressCollider,
    count: usize,
) -> TressStatus {
    guard("tress_strands_set_head_colliders", || {
        // SAFETY: the caller gives `count` colliders at `colliders`.
        let cs = unsafe { ptr::slice(colliders, count, "colliders") }?;
        with(strands, |s| {
            s.head.clear();
            for c in cs {
                s.head.push(c.to_core()?);
            }
            s.sim.set_head_colliders(&s.head);
            Ok(())
        })
    })
}

/// Replaces the world-space colliders (body parts the caller poses).
///
/// # Safety
/// `colliders` points to `count` `TressCollider` values.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tress_strands_set_world_colliders(
    strands: TressStrands,
    colliders: *const TressCollider,
    count: usize,
) -> TressStatus {
    guard("tress_strands_set_world_colliders", || {
        // SAFETY: the caller gives `count` colliders at `colliders`.
        let cs = unsafe { ptr::slice(colliders, count, "colliders") }?;
        with(strands, |s| {
            s.world.clear();
            for c in cs {
                s.world
                    .push(c.to_core()?.posed(Vec3::ZERO, Quat::IDENTITY, 1.0));
            }
            s.sim.set_world_colliders(&s.world);
            Ok(())
        })
    })
}

/// Replaces the solver parameters (state kept).
#[unsafe(no_mangle)]
pub extern "C" fn tress_strands_set_params(
    strands: TressStrands,
    params: Option<&TressStrandParams>,
) -> TressStatus {
    guard("tress_strands_set_params", || {
        let p = required(params, "params")?.to_core()?;
        with(strands, |s| {
            s.sim.set_params(p);
            Ok(())
        })
    })
}

/// Advances by a frame of `dt` seconds, the head moving from the last
/// advance's pose to the one set with `tress_strands_set_head_pose`; steps
/// run go to `out_steps` (may be null).
#[unsafe(no_mangle)]
pub extern "C" fn tress_strands_advance(
    strands: TressStrands,
    dt: f32,
    out_steps: Option<&mut u32>,
) -> TressStatus {
    guard("tress_strands_advance", || {
        let dt = frame_time(dt)?;
        with(strands, |s| {
            let (from, to) = (s.last, s.next);
            let n = s.sim.advance(dt, |_, t| from.interpolate(&to, t));
            s.last = to;
            if let Some(o) = out_steps {
                *o = n;
            }
            Ok(())
        })
    })
}

/// Puts every strand back at its groomed pose under `pose` (null: the
/// last head pose), at rest.
#[unsafe(no_mangle)]
pub extern "C" fn tress_strands_reset(
    strands: TressStrands,
    pose: Option<&TressPose>,
) -> TressStatus {
    guard("tress_strands_reset", || {
        let p = pose.map(|p| p.to_core("pose")).transpose()?;
        with(strands, |s| {
            let p = p.unwrap_or(s.next);
            s.sim.reset(p);
            s.last = p;
            s.next = p;
            Ok(())
        })
    })
}

/// Writes every particle's world position (strand-major) into `out` of
/// `capacity` entries; the count goes to `out_written` (may be null).
///
/// # Safety
/// `out` points to `capacity` writable `TressVec3` values.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tress_strands_positions(
    strands: TressStrands,
    out: *mut TressVec3,
    capacity: usize,
    out_written: Option<&mut usize>,
) -> TressStatus {
    guard("tress_strands_positions", || {
        // SAFETY: the caller gives `capacity` writable values at `out`.
        let out = unsafe { ptr::slice_mut(out, capacity, "out") }?;
        with(strands, |s| {
            let n = s.count();
            if out.len() < n {
                return Err(too_small("the position buffer", out.len(), n));
            }
            let m = s.sim.layout().particles();
            for (j, o) in out[..n].iter_mut().enumerate() {
                *o = s.sim.point(j / m, j % m).into();
            }
            if let Some(w) = out_written {
                *w = n;
            }
            Ok(())
        })
    })
}

/// Writes every particle's unit tangent (towards the tip, from its two
/// neighbours; +y where degenerate) into `out` of `capacity` entries; the
/// count goes to `out_written` (may be null).
///
/// # Safety
/// `out` points to `capacity` writable `TressVec3` values.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tress_strands_tangents(
    strands: TressStrands,
    out: *mut TressVec3,
    capacity: usize,
    out_written: Option<&mut usize>,
) -> TressStatus {
    guard("tress_strands_tangents", || {
        // SAFETY: the caller gives `capacity` writable values at `out`.
        let out = unsafe { ptr::slice_mut(out, capacity, "out") }?;
        with(strands, |s| {
            let n = s.count();
            if out.len() < n {
                return Err(too_small("the tangent buffer", out.len(), n));
            }
            let m = s.sim.layout().particles();
            for (j, o) in out[..n].iter_mut().enumerate() {
                let (strand, k) = (j / m, j % m);
                let prev = s.sim.point(strand, k.saturating_sub(1));
                let next = s.sim.point(strand, (k + 1).min(m - 1));
                *o = (next - prev).normalize_or(Vec3::Y).into();
            }
            if let Some(w) = out_written {
                *w = n;
            }
            Ok(())
        })
    })
}
