//! The plain `#[repr(C)]` values that cross the boundary, and their
//! checked conversions to the core's types (non-finite input is refused).
//!
//! Enumerations travel as `uint32_t` fields holding a `TressShape`,
//! `TressMode` or `TressContact` value, so a C caller's out-of-range number
//! is an [`InvalidArgument`](TressStatus::InvalidArgument), not undefined
//! behaviour.

use tress_core::collide::{Collider, ShapeKind};
use tress_core::math::{Pose, Quat, Vec3};
use tress_core::spring::{
    ChainDesc, ContactMode, FlatLock, JointDesc, JointOutput, JointParams, Mode, StepConfig,
};

use crate::status::{Error, Result, TressStatus};

/// A 3-vector.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TressVec3 {
    /// x.
    pub x: f32,
    /// y.
    pub y: f32,
    /// z.
    pub z: f32,
}

/// A unit quaternion (`w` last, as glTF stores it).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TressQuat {
    /// x.
    pub x: f32,
    /// y.
    pub y: f32,
    /// z.
    pub z: f32,
    /// w.
    pub w: f32,
}

impl Default for TressQuat {
    fn default() -> Self {
        Self::from(Quat::IDENTITY)
    }
}

/// A rigid pose: world position and rotation.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TressPose {
    /// Position.
    pub position: TressVec3,
    /// Rotation.
    pub rotation: TressQuat,
}

/// Collider shapes, for `TressCollider.shape`.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TressShape {
    /// Keeps points outside a ball (`offset`, `radius`).
    Sphere = 0,
    /// Keeps points outside a capsule (`offset` to `tail`, `radius`).
    Capsule = 1,
    /// Keeps points on the side `normal` points to (through `offset`; `radius` is extra thickness).
    Plane = 2,
    /// Keeps points inside a ball.
    InsideSphere = 3,
    /// Keeps points inside a capsule.
    InsideCapsule = 4,
}

/// Solver modes, for `TressChainDesc.mode`.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TressMode {
    /// The hairstyle's rest arc held in the attachment frame (no curl).
    Improved = 0,
    /// Rest direction from the bent parent, as VRM aims (ends curl).
    Earlier = 1,
    /// The VRMC_springBone reference update, one per fixed substep.
    VrmCompatible = 2,
}

/// Contact modes, for `TressChainDesc.contact`.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TressContact {
    /// Only each segment's end point (what VRM implementations do).
    Tail = 0,
    /// The closest point of the whole segment.
    Segment = 1,
}

/// A collider in its frame's space (or, for strands' world colliders, in
/// world space), unscaled.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TressCollider {
    /// A `TressShape` value.
    pub shape: u32,
    /// Centre (sphere), axis head (capsule) or a point on the plane.
    pub offset: TressVec3,
    /// Axis tail (capsules); ignored otherwise.
    pub tail: TressVec3,
    /// Plane normal (need not be unit length); ignored otherwise.
    pub normal: TressVec3,
    /// Radius (sphere, capsule) or extra thickness (plane).
    pub radius: f32,
}

/// One joint's physics (see `tress_core::spring::JointParams`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TressJointParams {
    /// Improved/Earlier: spring constant, 1/s². VrmCompatible: VRMC `stiffness`.
    pub stiffness: f32,
    /// Improved/Earlier: damping rate, 1/s (keep it at least √stiffness).
    pub damping: f32,
    /// VrmCompatible: VRMC `dragForce` in [0, 1].
    pub drag: f32,
    /// Gravity, world space, unscaled units/s².
    pub gravity: TressVec3,
    /// Hit radius of the segment, unscaled.
    pub hit_radius: f32,
}

impl Default for TressJointParams {
    fn default() -> Self {
        JointParams::default().into()
    }
}

/// One segment as authored.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TressJointDesc {
    /// Rest rotation relative to the previous joint's bone (the first
    /// joint: relative to the attachment frame).
    pub local_rotation: TressQuat,
    /// Rest offset of the segment's end in this bone's space, unscaled.
    pub offset: TressVec3,
    /// Physics.
    pub params: TressJointParams,
    /// Flat lock: width direction in this bone's space (zero: round lock).
    pub flat_width_axis: TressVec3,
    /// Flat lock: decay rate of the sideways bend, 1/s (0: off).
    pub flat_stiffness: f32,
    /// Flat lock: half the lock's width, unscaled (0: not known); bounds
    /// the lock twist's turn of the first bone.
    pub flat_half_width: f32,
    /// Flat lock: how fast its bends across the width relax towards its
    /// parent's lean, 1/s (0: off; `TRESS_FLAT_BEND` is what an avatar's rig
    /// gives a lock whose reach meets no collider moving against it).
    pub flat_bend: f32,
}

/// A chain as authored.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TressChainDesc {
    /// Attachment frame index.
    pub frame: u32,
    /// First joint's position in the attachment frame, unscaled.
    pub root_offset: TressVec3,
    /// A `TressMode` value.
    pub mode: u32,
    /// A `TressContact` value.
    pub contact: u32,
    /// Bit `j` set: collider `j` acts on this chain.
    pub collider_mask: u64,
    /// VrmCompatible: frame whose space holds the inertia (VRM `center`), or -1.
    pub center: i32,
    /// VrmCompatible: three-vrm's bone-length quirk.
    pub vrm_length_quirk: bool,
    /// The last joint ends at a virtual tail (no child bone).
    pub virtual_tail: bool,
    /// Improved: drape over contact.
    pub drape: bool,
    /// Improved: twist flat locks' bone outputs so bends go through the face.
    pub twist: bool,
}

impl Default for TressChainDesc {
    fn default() -> Self {
        ChainDesc::default().into()
    }
}

/// The world-wide stepping policy (see `tress_core::spring::StepConfig`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TressStepConfig {
    /// Most 1/120 s substeps one frame may run (1..=120).
    pub max_substeps: u32,
    /// Contact projection passes per joint and substep (1..=16).
    pub contact_iterations: u32,
    /// An attachment jumping farther than this in one substep (unscaled)
    /// is a teleport: its chains are carried rigidly. 0 or less: never.
    pub teleport_distance: f32,
    /// Step chains in vector lanes (same bits as off).
    pub lanes: bool,
}

impl Default for TressStepConfig {
    fn default() -> Self {
        StepConfig::default().into()
    }
}

/// What a caller writes back to one bone.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TressJointOutput {
    /// World position of the bone (the segment's start).
    pub origin: TressVec3,
    /// World position of the segment's end (child bone or tail).
    pub tail: TressVec3,
    /// World rotation of the bone.
    pub world_rotation: TressQuat,
    /// Rotation relative to the previous joint's bone (first joint: to the frame).
    pub local_rotation: TressQuat,
}

/// One fold joint's local pose under its parent node (`TRESS_springBone_band`
/// folds): write it to the node as it is, translation and rotation.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TressFoldPose {
    /// The node (as `tress_avatar_find_node` numbers them).
    pub node: u32,
    /// Local translation, in the parent's units.
    pub translation: TressVec3,
    /// Local rotation.
    pub rotation: TressQuat,
}

impl From<Vec3> for TressVec3 {
    fn from(v: Vec3) -> Self {
        Self {
            x: v.x,
            y: v.y,
            z: v.z,
        }
    }
}

impl From<Quat> for TressQuat {
    fn from(q: Quat) -> Self {
        Self {
            x: q.x,
            y: q.y,
            z: q.z,
            w: q.w,
        }
    }
}

impl From<Pose> for TressPose {
    fn from(p: Pose) -> Self {
        Self {
            position: p.pos.into(),
            rotation: p.rot.into(),
        }
    }
}

impl From<JointParams> for TressJointParams {
    fn from(p: JointParams) -> Self {
        Self {
            stiffness: p.stiffness,
            damping: p.damping,
            drag: p.drag,
            gravity: p.gravity.into(),
            hit_radius: p.hit_radius,
        }
    }
}

impl From<ChainDesc> for TressChainDesc {
    fn from(d: ChainDesc) -> Self {
        Self {
            frame: d.frame as u32,
            root_offset: d.root_offset.into(),
            mode: match d.mode {
                Mode::Improved => TressMode::Improved,
                Mode::Earlier => TressMode::Earlier,
                Mode::VrmCompatible => TressMode::VrmCompatible,
            } as u32,
            contact: match d.contact {
                ContactMode::Tail => TressContact::Tail,
                ContactMode::Segment => TressContact::Segment,
            } as u32,
            collider_mask: d.collider_mask,
            center: d.center.map_or(-1, |c| c as i32),
            vrm_length_quirk: d.vrm_length_quirk,
            virtual_tail: d.virtual_tail,
            drape: d.drape,
            twist: d.twist,
        }
    }
}

impl From<StepConfig> for TressStepConfig {
    fn from(c: StepConfig) -> Self {
        Self {
            max_substeps: c.max_substeps,
            contact_iterations: c.contact_iterations,
            teleport_distance: c.teleport_distance,
            lanes: c.lanes,
        }
    }
}

impl From<JointOutput> for TressJointOutput {
    fn from(o: JointOutput) -> Self {
        Self {
            origin: o.origin.into(),
            tail: o.tail.into(),
            world_rotation: o.world_rot.into(),
            local_rotation: o.local_rot.into(),
        }
    }
}

fn finite(x: f32, what: &str) -> Result<f32> {
    if x.is_finite() {
        Ok(x)
    } else {
        Err(Error::invalid(format!("{what} is not finite ({x})")))
    }
}

impl TressVec3 {
    pub(crate) fn to_core(self, what: &str) -> Result<Vec3> {
        let v = Vec3::new(self.x, self.y, self.z);
        if v.is_finite() {
            Ok(v)
        } else {
            Err(Error::invalid(format!("{what} is not finite ({v})")))
        }
    }
}

impl TressQuat {
    /// The rotation, normalised; a zero or non-finite quaternion is refused,
    /// and so is one whose squared length overflows (components past about
    /// 1e19), which would normalise to zero.
    pub(crate) fn to_core(self, what: &str) -> Result<Quat> {
        let q = Quat::from_xyzw(self.x, self.y, self.z, self.w);
        let len2 = tress_core::math::quat::length_squared(q);
        if !q.is_finite() || !len2.is_finite() || len2 < 1e-12 {
            return Err(Error::invalid(format!(
                "{what} is not a finite non-zero quaternion of finite length ({q})"
            )));
        }
        // The core's normalisation: the same bits on every platform.
        Ok(tress_core::math::quat::normalize(q))
    }
}

impl TressPose {
    pub(crate) fn to_core(self, what: &str) -> Result<Pose> {
        Ok(Pose::new(
            self.position.to_core(what)?,
            self.rotation.to_core(what)?,
        ))
    }
}

impl TressCollider {
    pub(crate) fn to_core(self) -> Result<Collider> {
        let kind = match self.shape {
            0 => ShapeKind::Sphere,
            1 => ShapeKind::Capsule,
            2 => ShapeKind::Plane,
            3 => ShapeKind::InsideSphere,
            4 => ShapeKind::InsideCapsule,
            s => {
                return Err(Error::invalid(format!(
                    "collider shape {s} is not a TressShape"
                )));
            }
        };
        let radius = finite(self.radius, "collider radius")?;
        if radius < 0.0 {
            return Err(Error::invalid(format!(
                "collider radius {radius} is negative"
            )));
        }
        Ok(Collider {
            kind,
            offset: self.offset.to_core("collider offset")?,
            tail: self.tail.to_core("collider tail")?,
            normal: self.normal.to_core("collider normal")?,
            radius,
        })
    }
}

impl TressJointParams {
    pub(crate) fn to_core(self) -> Result<JointParams> {
        Ok(JointParams {
            stiffness: finite(self.stiffness, "stiffness")?,
            damping: finite(self.damping, "damping")?,
            drag: finite(self.drag, "drag")?,
            gravity: self.gravity.to_core("gravity")?,
            hit_radius: finite(self.hit_radius, "hit_radius")?,
        }
        .sanitized())
    }
}

impl TressJointDesc {
    pub(crate) fn to_core(self) -> Result<JointDesc> {
        Ok(JointDesc {
            local_rot: self.local_rotation.to_core("joint local_rotation")?,
            offset: self.offset.to_core("joint offset")?,
            params: self.params.to_core()?,
            flat: FlatLock {
                width_axis: self.flat_width_axis.to_core("flat_width_axis")?,
                stiffness: finite(self.flat_stiffness, "flat_stiffness")?,
                half_width: finite(self.flat_half_width, "flat_half_width")?,
                bend: finite(self.flat_bend, "flat_bend")?,
            },
        })
    }
}

pub(crate) fn mode(m: u32) -> Result<Mode> {
    match m {
        0 => Ok(Mode::Improved),
        1 => Ok(Mode::Earlier),
        2 => Ok(Mode::VrmCompatible),
        m => Err(Error::invalid(format!("mode {m} is not a TressMode"))),
    }
}

pub(crate) fn contact(c: u32) -> Result<ContactMode> {
    match c {
        0 => Ok(ContactMode::Tail),
        1 => Ok(ContactMode::Segment),
        c => Err(Error::invalid(format!("contact {c} is not a TressContact"))),
    }
}

impl TressChainDesc {
    pub(crate) fn to_core(self) -> Result<ChainDesc> {
        let center = match self.center {
            -1 => None,
            c if c >= 0 => Some(c as usize),
            c => {
                return Err(Error::invalid(format!(
                    "center frame {c} is neither -1 nor a frame"
                )));
            }
        };
        Ok(ChainDesc {
            frame: self.frame as usize,
            root_offset: self.root_offset.to_core("root_offset")?,
            mode: mode(self.mode)?,
            contact: contact(self.contact)?,
            collider_mask: self.collider_mask,
            center,
            vrm_length_quirk: self.vrm_length_quirk,
            virtual_tail: self.virtual_tail,
            drape: self.drape,
            twist: self.twist,
        })
    }
}

impl TressStepConfig {
    pub(crate) fn to_core(self) -> Result<StepConfig> {
        let teleport_distance = match self.teleport_distance {
            d if d.is_nan() => return Err(Error::invalid("teleport_distance is NaN")),
            d => d,
        };
        Ok(StepConfig {
            max_substeps: self.max_substeps,
            contact_iterations: self.contact_iterations,
            teleport_distance,
            lanes: self.lanes,
        }
        .sanitized())
    }
}

/// A frame time: finite and not negative.
pub(crate) fn frame_time(dt: f32) -> Result<f32> {
    if dt.is_finite() && dt >= 0.0 {
        Ok(dt)
    } else {
        Err(Error::invalid(format!(
            "frame time {dt} is not a finite, non-negative number of seconds"
        )))
    }
}

/// `index` as a `u32` index for C.
pub(crate) fn index_out(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}

/// The error for a caller buffer of `have` elements where `need` are written.
pub(crate) fn too_small(what: &str, have: usize, need: usize) -> Error {
    Error::new(
        TressStatus::BufferTooSmall,
        format!("{what} holds {have} elements, {need} are needed"),
    )
}
