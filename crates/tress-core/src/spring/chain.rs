//! Chain and joint descriptions (what a loader supplies) and their runtime state.
//!
//! A chain hangs from an attachment frame. Joint `i` is one segment: it starts
//! at `o_i` (the root offset for `i = 0`, else the end of segment `i − 1`) and
//! ends at the simulated point `x_i`, `s ‖a_i‖` away.

use super::params::{ContactMode, JointParams, Mode};
use crate::math::{Quat, Real, Vec3, quat};

/// One segment as authored.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct JointDesc {
    /// Rest rotation of this bone relative to the previous joint's bone (for
    /// the first joint: relative to the attachment frame).
    pub local_rot: Quat,
    /// Rest offset `a_i` of the segment's end (the child bone's rest
    /// translation, or a virtual tail) in this bone's local space, unscaled.
    pub offset: Vec3,
    /// Physics parameters.
    pub params: JointParams,
    /// A flat lock's resistance to bending across its width (off in a bare
    /// description; a rig built from a skinned avatar turns it on).
    pub flat: FlatLock,
}

impl Default for JointDesc {
    fn default() -> Self {
        Self {
            local_rot: Quat::IDENTITY,
            offset: Vec3::new(0.0, -0.1, 0.0),
            params: JointParams::default(),
            flat: FlatLock::default(),
        }
    }
}

/// A flat lock (a hair card or ribbon) bends easily through its face and
/// hardly across its width: strands side by side would have to stretch.
/// Skinned, a ribbon bent across its width stretches its outer edge by
/// about half its width times the curvature; this keeps that bend small.
///
/// Improved mode: each substep, the segment end's deviation from the rest
/// arc along the width axis decays by `e^(−stiffness·h)`; the deviation
/// through the face is left to the spring as before.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FlatLock {
    /// The lock's width direction in this bone's local space (any length;
    /// zero: a round lock, no resistance).
    pub width_axis: Vec3,
    /// Decay rate of the sideways deviation, 1/s (0: off). 83/s halves it
    /// every 1/120 s step.
    pub stiffness: Real,
    /// Half the lock's width, unscaled (0: not known). Bounds how far the
    /// lock twist ([`ChainDesc::twist`]) may turn the first bone, whose
    /// root row lies on the scalp: its corners move at most
    /// `twist::ROOT_SHIFT`.
    #[cfg_attr(feature = "serde", serde(default))]
    pub half_width: Real,
    /// How fast the lock's bends across its width relax, 1/s (0: off):
    /// each substep a segment keeps `e^(−bend·h)` of its sideways lean
    /// against its parent's. Unlike `stiffness`, which holds each segment
    /// to the rest arc and so also holds back the lock's sideways swing,
    /// this leaves a lock leaning as a whole alone. Off in a bare
    /// description; a rig built from an avatar gives [`FLAT_BEND`] to locks
    /// whose reach meets no collider that moves against their attachment
    /// (`docs/SOLVER.md`, "Bend hold"). Only where `stiffness` is on.
    ///
    /// [`FLAT_BEND`]: super::FLAT_BEND
    #[cfg_attr(feature = "serde", serde(default))]
    pub bend: Real,
}

/// A chain as authored.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ChainDesc {
    /// Index of the attachment frame the chain hangs from.
    pub frame: usize,
    /// Position of the first joint's bone in the attachment frame, unscaled.
    pub root_offset: Vec3,
    /// Solver mode.
    pub mode: Mode,
    /// Tail-point or whole-segment contact.
    pub contact: ContactMode,
    /// Bit `j` set: collider `j` acts on this chain.
    pub collider_mask: u64,
    /// VrmCompatible: frame whose space holds the inertia (VRM `center`).
    pub center: Option<usize>,
    /// VrmCompatible: measure each bone length against the child's position
    /// from the previous step, as three-vrm does, instead of the rest length.
    pub vrm_length_quirk: bool,
    /// The last joint ends at a virtual tail (no child bone: a VRM 0.x
    /// childless end). three-vrm measures such a bone's length from its own
    /// current matrix, so the length quirk does not apply to it.
    pub virtual_tail: bool,
    /// Improved mode: drape over contact (off in a bare description; on in
    /// a rig built from an avatar, `tress_rig`'s default). A segment a
    /// collider pushes passes its turn on: the segments below it aim along
    /// it bent by their rest angles instead of along the rest arc carried
    /// by the frame, and its parent takes a share of the turn, so the lock
    /// bends over the contact instead of kinking at one joint
    /// (`docs/SOLVER.md`, "Drape over contact").
    pub drape: bool,
    /// Improved mode: twist each bone's output about its own segment so the
    /// bends at its joints pass through its flat lock's face (the joints'
    /// [`FlatLock::width_axis`]) rather than across its width, where a
    /// skinned ribbon stretches (off in a bare description, on in a rig
    /// built from an avatar; `docs/SOLVER.md`, "Lock twist"). Moves no
    /// joint: the simulation is the same, only the bone rotations written
    /// out differ. Ignored on a chain with angle limits or in a band.
    pub twist: bool,
}

impl Default for ChainDesc {
    fn default() -> Self {
        Self {
            frame: 0,
            root_offset: Vec3::ZERO,
            mode: Mode::Improved,
            contact: ContactMode::Tail,
            collider_mask: u64::MAX,
            center: None,
            vrm_length_quirk: false,
            virtual_tail: false,
            drape: false,
            twist: false,
        }
    }
}

/// Runtime state of one joint. Fields are crate-visible for the step kernels.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Joint {
    pub params: JointParams,
    /// The step written as `x + h u = x + c_v v + c_k (r − x) + s c_g`
    /// with `r` the target: `c_v = h e^(−c h)`, `c_k = h² e^(−c h) k`,
    /// `c_g = h² e^(−c h) g` (see `step_chain`).
    pub c_v: Real,
    pub c_k: Real,
    pub c_g: Vec3,
    /// Local rest rotation `Q_i`.
    pub local_rot: Quat,
    /// Accumulated rest rotation `R_i^0` (attachment → this bone).
    pub rest_rot: Quat,
    /// `a_i`, unscaled, bone-local.
    pub axis: Vec3,
    /// `a_i / ‖a_i‖`, or zero for a zero-length bone.
    pub axis_unit: Vec3,
    /// `R_i^0 a_i`, unscaled, attachment-local.
    pub rest_vec: Vec3,
    /// `‖a_i‖`, unscaled.
    pub len0: Real,
    /// Simulated end point (VrmCompatible: world tail).
    pub x: Vec3,
    /// Velocity (Improved/Earlier).
    pub v: Vec3,
    /// VrmCompatible: current and previous tail in center space.
    pub cur_tail: Vec3,
    pub prev_tail: Vec3,
    /// VrmCompatible quirk: the child bone's position after the previous step.
    pub child_prev: Vec3,
    /// Authored pose: accumulated animated rotation (attachment → bone).
    pub anim_rot: Quat,
    /// Flat lock: unit width axis in the attachment frame at rest,
    /// perpendicular to `rest_vec` (zero: none).
    pub lateral: Vec3,
    /// The lock's unit width axis in the attachment frame at rest,
    /// perpendicular to `rest_vec`, whatever the stiffness (zero: round).
    pub face: Vec3,
    /// Half the lock's width, unscaled (0: not known).
    pub half_width: Real,
    /// Flat lock: share of the sideways deviation kept per step,
    /// e^(−stiffness·h) (1: none).
    pub lateral_keep: Real,
    /// Flat lock: how fast its bend across the width relaxes towards its
    /// parent's lean, 1/s (`FlatLock::bend`).
    pub bend_rate: Real,
    /// Flat lock: share of that bend kept per step, `e^(−bend_rate·h)`
    /// (1: none).
    pub bend_keep: Real,
    /// How far colliders pushed this segment's end in the last substep
    /// (unscaled; 0: no contact).
    pub pushed: Real,
    /// Floor of the lever a whole-segment contact's push is scaled by:
    /// `collide::contact::MIN_LEVER` for a chain's first segment (its root
    /// is the attachment), `JOINED_ROOT_LEVER` for the others (the parent
    /// takes what is left).
    pub lever: Real,
}

impl Joint {
    pub(crate) fn new(desc: &JointDesc, parent_rest: Quat) -> Self {
        let params = desc.params.sanitized();
        let local_rot = sanitize_rot(desc.local_rot);
        let rest_rot = quat::normalize(quat::mul(parent_rest, local_rot));
        let axis = if desc.offset.is_finite() {
            desc.offset
        } else {
            Vec3::ZERO
        };
        let rest_vec = quat::rotate(rest_rot, axis);
        // The width axis at rest, made perpendicular to the segment so the
        // constraint never pulls along the bone.
        let w = quat::rotate(rest_rot, desc.flat.width_axis);
        let along = rest_vec.normalize_or_zero();
        let face = if w.is_finite() {
            (w - along * w.dot(along)).normalize_or_zero()
        } else {
            Vec3::ZERO
        };
        let half_width = if desc.flat.half_width.is_finite() {
            desc.flat.half_width.max(0.0)
        } else {
            0.0
        };
        let bend_rate = if desc.flat.bend.is_finite() {
            desc.flat.bend.max(0.0)
        } else {
            0.0
        };
        let mut joint = Self {
            face,
            half_width,
            lateral: Vec3::ZERO,
            lateral_keep: 1.0,
            bend_rate,
            bend_keep: 1.0,
            pushed: 0.0,
            lever: crate::collide::contact::JOINED_ROOT_LEVER,
            params,
            c_v: 0.0,
            c_k: 0.0,
            c_g: Vec3::ZERO,
            local_rot,
            rest_rot,
            axis,
            axis_unit: axis.normalize_or_zero(),
            rest_vec,
            len0: axis.length(),
            x: Vec3::ZERO,
            v: Vec3::ZERO,
            cur_tail: Vec3::ZERO,
            prev_tail: Vec3::ZERO,
            child_prev: Vec3::ZERO,
            anim_rot: rest_rot,
        };
        joint.refresh_coefficients();
        joint.set_flat_stiffness(desc.flat.stiffness);
        joint
    }

    /// Makes this joint a flat lock relaxing at `per_second` (0 or not
    /// finite: none) where it has a width axis (`face`); the state is kept.
    pub(crate) fn set_flat_stiffness(&mut self, per_second: Real) {
        let on = per_second.is_finite() && per_second > 0.0 && self.face != Vec3::ZERO;
        self.lateral = if on { self.face } else { Vec3::ZERO };
        self.lateral_keep = if on {
            crate::math::ops::exp(-per_second * super::params::H)
        } else {
            1.0
        };
        self.bend_keep = if on && self.bend_rate > 0.0 {
            crate::math::ops::exp(-self.bend_rate * super::params::H)
        } else {
            1.0
        };
    }

    /// Recomputes the per-step factors from `params`.
    fn refresh_coefficients(&mut self) {
        // e^(−c h) is folded in here, so a step does no `exp`.
        let (h, d) = (super::params::H, self.params.decay());
        self.c_v = h * d;
        self.c_k = h * h * d * self.params.stiffness;
        self.c_g = self.params.gravity * (h * h * d);
    }

    /// Applies new parameters without touching the state.
    pub(crate) fn set_params(&mut self, p: JointParams) {
        self.params = p.sanitized();
        self.refresh_coefficients();
    }
}

/// A unit rotation, identity when the input is not usable.
#[must_use]
pub(crate) fn sanitize_rot(q: Quat) -> Quat {
    quat::normalize_or(q, Quat::IDENTITY)
}

/// Runtime state of one chain.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Chain {
    pub desc: ChainDesc,
    /// First joint in the world's joint array.
    pub start: usize,
    /// Number of joints.
    pub len: usize,
    /// Joints follow the animated pose instead of simulating.
    pub authored: bool,
    /// Root position at the previous substep (for the radial velocity fix).
    pub root_prev: Vec3,
    /// Some joint is a flat lock (`Joint::lateral_keep < 1`).
    pub flat: bool,
    /// Some joint has an angle limit (`SpringWorld::set_joint_limit`).
    pub limited: bool,
    /// Some joint holds its bends (`Joint::bend_keep < 1`).
    pub holds: bool,
    /// A band link names the chain (`SpringWorld::add_band_link`): its
    /// cloth is held by the band, not by the flat-lock bend hold.
    pub banded: bool,
    /// The chains linked before and after it in its band (the first links
    /// that name it; itself where none does), for the band twist.
    pub band_prev: usize,
    pub band_next: usize,
}

impl Chain {
    /// Sum of unscaled segment lengths plus the largest hit radius: with the
    /// root, a bound on where the chain can be.
    pub(crate) fn reach(joints: &[Joint]) -> Real {
        joints.iter().map(|j| j.len0).sum::<Real>()
            + joints
                .iter()
                .map(|j| j.params.hit_radius)
                .fold(0.0, Real::max)
    }
}
