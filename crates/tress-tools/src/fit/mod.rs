//! The hair fitter (issue #6, item 1): rigs a hair mesh as one spring chain.
//!
//! Given a mesh the user calls hair, the node it hangs from (the humanoid
//! head by default) and a joint count (by default one from the lock's length
//! and bend, [`auto_joints`]), [`fit_hair`]:
//!
//! 1. drops the mesh's previous skin weights and takes its vertices to model
//!    space at the rest pose;
//! 2. [`weld`]s split vertices by position, so seams do not cut the surface;
//! 3. finds the **root band**: the vertices nearest the scalp (the
//!    attachment's colliders, or its origin when it has none) or a given
//!    root point, within half a median edge of the nearest;
//! 4. measures [`geodesic`] distance from that band over the welded edges;
//! 5. builds the [`centreline`] through the centroids of equal-distance
//!    bands and places the joints at equal arc length along it, the first at
//!    the root band and a tail node at the far end;
//! 6. computes [`weights`]: the root band pinned to the attachment, then
//!    neighbouring bones blended along the arc;
//! 7. derives spring parameters per joint, the hit radius from the band
//!    radius at the joint's tail, and the stiffness at least what keeps the
//!    bone's bend within what its skinning can take without stretching
//!    (thick locks and the short root hand-over need more; `bend_stiffness`).
//!
//! [`apply()`] puts the result into an [`Avatar`] (and [`undo`] takes it back
//! out); [`glb`] writes it into the original file's bytes.

pub mod apply;
pub mod centreline;
pub mod geodesic;
pub mod glb;
pub mod weights;
pub mod weld;

use glam::{Mat4, Quat, Vec3};

pub use apply::{Applied, apply, undo};
use centreline::Centreline;
use geodesic::Graph;
use weights::Layout;

use tress_vrm::model::{Avatar, ColliderShape};

/// What to fit.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FitOptions {
    /// Bones in the chain (a tail node is added after the last); `None`:
    /// from the lock's length and bend ([`auto_joints`]).
    pub joints: Option<usize>,
    /// Node the chain hangs from; `None`: the humanoid `head`.
    pub attachment: Option<usize>,
    /// Model-space point the lock grows from; `None`: nearest the scalp.
    pub root_point: Option<Vec3>,
}

/// Why a mesh cannot be fitted.
#[derive(Debug, Clone, PartialEq)]
pub enum FitError {
    /// No mesh with that index.
    MeshNotFound(usize),
    /// No node draws the mesh, so it has no place in the scene.
    MeshNotPlaced(String),
    /// The mesh has no triangles to walk over.
    NoSurface(String),
    /// Fewer welded vertices than the chain needs.
    TooFewVertices {
        /// Mesh name.
        mesh: String,
        /// Welded vertices reached from the root band.
        have: usize,
        /// Needed: four per joint, so every band has a ring to average.
        need: usize,
    },
    /// No attachment was given and the avatar has no humanoid `head`.
    NoHead,
    /// The attachment node does not exist.
    BadAttachment(usize),
    /// Zero joints asked for.
    NoJoints,
    /// More joints than a skin can index next to the attachment.
    TooManyJoints(usize),
}

impl core::fmt::Display for FitError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::MeshNotFound(i) => write!(f, "there is no mesh {i}"),
            Self::MeshNotPlaced(m) => write!(
                f,
                "mesh `{m}` is not drawn by any node, so it has no place on the avatar"
            ),
            Self::NoSurface(m) => write!(
                f,
                "mesh `{m}` has no triangles: the fitter walks over a connected surface"
            ),
            Self::TooFewVertices { mesh, have, need } => write!(
                f,
                "mesh `{mesh}` has {have} connected vertices (after welding); {need} are needed for this many joints (use fewer --joints)"
            ),
            Self::NoHead => write!(
                f,
                "the avatar has no humanoid `head` bone to hang the hair from (name an attachment node)"
            ),
            Self::BadAttachment(n) => write!(f, "attachment node {n} does not exist"),
            Self::NoJoints => write!(f, "a chain needs at least one joint"),
            Self::TooManyJoints(n) => write!(f, "{n} joints is more than a skin can hold"),
        }
    }
}

impl core::error::Error for FitError {}

/// VRM spring values of one fitted joint.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct JointSpring {
    /// Collision radius of the joint's tail sphere.
    pub hit_radius: f32,
    /// Return force toward the rest direction.
    pub stiffness: f32,
    /// Gravity strength.
    pub gravity_power: f32,
    /// Gravity direction (world).
    pub gravity_dir: Vec3,
    /// Velocity damping, 0..1.
    pub drag_force: f32,
}

/// One new node of the chain.
#[derive(Debug, Clone, PartialEq)]
pub struct FittedJoint {
    /// Node name (unique in the avatar).
    pub name: String,
    /// Parent: `None` for the attachment, `Some(k)` for joint `k`.
    pub parent: Option<usize>,
    /// Rest local translation.
    pub translation: Vec3,
    /// Rest local rotation (identity: joints keep the attachment's axes).
    pub rotation: Quat,
    /// Rest local scale.
    pub scale: Vec3,
    /// Rest position in model space.
    pub position: Vec3,
    /// Arc length from the root.
    pub arc: f32,
    /// Inverse bind matrix for the mesh's node space (joint world⁻¹ × mesh node world).
    pub inverse_bind: Mat4,
    /// Spring values (the tail's are written but unused, as VRM 1.0 does).
    pub spring: JointSpring,
}

/// New skin attributes of one primitive.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PrimitiveWeights {
    /// Skin joint indices (0: the attachment, `k + 1`: joint `k`).
    pub joints: Vec<[u16; 4]>,
    /// Weights, summing to one.
    pub weights: Vec<[f32; 4]>,
}

/// A fitted chain, ready to [`apply()`].
#[derive(Debug, Clone, PartialEq)]
pub struct HairFit {
    /// The mesh.
    pub mesh: usize,
    /// Its name.
    pub mesh_name: String,
    /// The node that draws it (the first, if several do).
    pub mesh_node: usize,
    /// The node the chain hangs from.
    pub attachment: usize,
    /// Inverse bind of the attachment (skin joint 0).
    pub attachment_inverse_bind: Mat4,
    /// The bones, root first; `joints.len()` is the asked joint count.
    pub joints: Vec<FittedJoint>,
    /// The tail node after the last bone (at the lock's far end, unweighted).
    pub tail: FittedJoint,
    /// Per primitive of the mesh, in order.
    pub weights: Vec<PrimitiveWeights>,
    /// Arc length of the centre line, metres.
    pub length: f32,
    /// Vertices pinned to the attachment (weight 1), over all primitives.
    pub pinned_vertices: usize,
    /// Welded vertices / input vertices.
    pub welded_vertices: usize,
    /// Input vertices.
    pub vertices: usize,
    /// Vertices of the root band (welded).
    pub root_band: usize,
    /// Things a user should know (unreached vertices, extra drawing nodes).
    pub notes: Vec<String>,
}

/// Spring values for a fitted lock: a long lock's (the built-in avatar's
/// `LONG` values: stiffness 0.6, drag 0.4, gravity 0.5 down), with the
/// stiffness rising toward the root where a real lock is held by the tie,
/// and at least `bend`, what a lock this thick needs (see [`bend_stiffness`]).
fn spring_for(k: usize, bones: usize, hit_radius: f32, bend: f32) -> JointSpring {
    let t = if bones > 1 {
        k as f32 / (bones - 1) as f32
    } else {
        0.0
    };
    JointSpring {
        hit_radius,
        stiffness: (0.9 - 0.3 * t).max(bend),
        gravity_power: 0.5,
        gravity_dir: Vec3::NEG_Y,
        drag_force: DRAG,
    }
}

/// Drag of every fitted joint.
const DRAG: f32 = 0.4;

/// Head turn speed the bend rule is written for, rad/s: the peak of the
/// standard `tress measure` turn (±60° at 0.5 Hz: 60° · 2π · 0.5 Hz =
/// 3.29 rad/s, 188°/s), so a fitted lock keeps its skin stretch within
/// [`MAX_SKIN_STRETCH`] through the fastest turn that run makes. It trades
/// swing for stretch: at 2 rad/s the built-in ponytail's tip swung 8.4 cm
/// from its carried rest place with 5.4 % p99 edge stretch, at 3.3 rad/s
/// 5.0 cm with 3.1 % (six joints) and 3.9 cm with 2.5 % (eight joints;
/// `docs/QUALITY.md`).
const REFERENCE_SPIN: f32 = 3.3;

/// Skin stretch the bend rule allows at [`REFERENCE_SPIN`].
const MAX_SKIN_STRETCH: f32 = 0.03;

/// VRM stiffness that keeps a bone within `max_bend` radians of the
/// direction the attachment carries it in while the attachment turns at
/// `spin` rad/s, with the bone's far end `lever` metres from the
/// attachment's origin and the bone `length` long.
///
/// Linear blend skinning turns a bend of `θ` between two bones into a
/// stretch of about `r θ / b` on the outside of a lock of radius `r` whose
/// weights hand over along `b`, so a stretch of at most `ε` allows
/// `θ = ε b / r` (the caller's `max_bend`): thick locks and short hand-overs
/// must bend less. The improved solver pulls a bone's end toward its carried
/// rest place with `k` (1/s², 1000 × VRM stiffness) against damping `c`
/// (`max(√k, −60 ln(1 − drag))`, `spring_rig::improved_params`) on its world
/// velocity, so an end carried at speed `V = spin · lever` trails by
/// `c V / k`, an angle of `c V / (k L)`; this returns the smallest `k`
/// keeping that below `max_bend`, capped at the solver's largest stiffness.
fn bend_stiffness(spin: f32, lever: f32, length: f32, max_bend: f32) -> f32 {
    if length <= 0.0 || max_bend <= 0.0 {
        return 0.0;
    }
    // c / k must stay below 1 / trail.
    let trail = spin * lever / (max_bend * length);
    let c_drag = -60.0 * tress_core::math::ops::ln(1.0 - DRAG);
    // c = √k: k = trail²; c = c_drag: k = c_drag · trail.
    let k = (trail * trail).max(c_drag * trail);
    k.min(tress_core::spring::MAX_STIFFNESS) / 1000.0
}

/// A name not yet used in `avatar` or `taken`.
fn unique_name(avatar: &Avatar, taken: &[String], base: &str) -> String {
    let used = |n: &str| avatar.nodes.iter().any(|x| x.name == n) || taken.iter().any(|t| t == n);
    if !used(base) {
        return base.to_owned();
    }
    (2..)
        .map(|i| format!("{base}.{i}"))
        .find(|n| !used(n))
        .unwrap_or_else(|| base.to_owned())
}

/// Signed distance from `p` to the scalp: the attachment's colliders (model
/// space), or its origin when it has none.
fn scalp_distance(avatar: &Avatar, world: &[Mat4], attachment: usize, p: Vec3) -> f32 {
    let m = world[attachment];
    let mut best = f32::INFINITY;
    for c in avatar
        .springs
        .colliders
        .iter()
        .filter(|c| c.node == attachment)
    {
        let d = match c.shape {
            ColliderShape::Sphere { offset, radius } => {
                p.distance(m.transform_point3(offset)) - radius
            }
            ColliderShape::Capsule {
                offset,
                tail,
                radius,
            } => {
                let (a, b) = (m.transform_point3(offset), m.transform_point3(tail));
                let ab = b - a;
                let t = if ab.length_squared() > 0.0 {
                    ((p - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0)
                } else {
                    0.0
                };
                p.distance(a + ab * t) - radius
            }
            // Planes and inside shapes do not describe a scalp.
            _ => continue,
        };
        best = best.min(d);
    }
    if best.is_finite() {
        best
    } else {
        p.distance(m.w_axis.truncate())
    }
}

/// Longest bone [`auto_joints`] gives a lock, metres. The built-in
/// ponytail (0.588 m) measured 3.14 % p99 edge stretch with six bones
/// (9.8 cm) and 2.50 % with eight (7.35 cm), against the 3 % target, with
/// flat locks and drape (`docs/QUALITY.md`): bones up to 7.5 cm.
pub const AUTO_BONE_LENGTH: f32 = 0.075;

/// Most bend of the lock's centre line [`auto_joints`] gives one bone,
/// degrees: a curled lock gets bones enough to follow its curl.
pub const AUTO_BONE_TURN_DEG: f32 = 25.0;

/// The range [`auto_joints`] chooses from.
pub const AUTO_JOINTS: core::ops::RangeInclusive<usize> = 3..=16;

/// The joint count for a lock whose centre line is `line`: enough bones
/// that none is longer than [`AUTO_BONE_LENGTH`] nor spans more than
/// [`AUTO_BONE_TURN_DEG`] of its bend, within [`AUTO_JOINTS`]; and the
/// bend it measured, degrees (the turning of equal chords half a bone long).
#[must_use]
pub fn auto_joints(line: &Centreline) -> (usize, f32) {
    use tress_core::math::ops;
    // The bend at the scale of half a bone: finer chords read the centre
    // line's band-to-band wobble as bend (the built-in ponytail turns
    // 204° over 32 chords of 1.8 cm, and far less at bone scale).
    let chords = (line.length() / (0.5 * AUTO_BONE_LENGTH)).ceil();
    let chords = if chords.is_finite() {
        (chords as usize).clamp(2, 64)
    } else {
        2
    };
    let points = line.equal_arc_points(chords + 1);
    let mut turn = 0.0f32;
    for w in points.windows(3) {
        let (a, b) = (
            (w[1] - w[0]).normalize_or_zero(),
            (w[2] - w[1]).normalize_or_zero(),
        );
        if a != Vec3::ZERO && b != Vec3::ZERO {
            turn += ops::acos_clamped(a.dot(b));
        }
    }
    // The turns between n chords inscribed in a bend add up to (n − 1)/n
    // of the bend itself (the ends' half chords turn unseen).
    let turn_deg = turn.to_degrees() * chords as f32 / (chords - 1) as f32;
    let by_length = (line.length() / AUTO_BONE_LENGTH).ceil();
    let by_turn = (turn_deg / AUTO_BONE_TURN_DEG).ceil();
    let n = by_length.max(by_turn);
    let n = if n.is_finite() { n as usize } else { 0 };
    (n.clamp(*AUTO_JOINTS.start(), *AUTO_JOINTS.end()), turn_deg)
}

/// Fits a chain of `joints` bones (or as many as [`auto_joints`]
/// picks) to mesh `mesh`.
///
/// # Errors
/// [`FitError`] when the mesh or the attachment is missing, has no
/// triangles, or has too few vertices for the chain.
pub fn fit_hair(avatar: &Avatar, mesh: usize, opts: &FitOptions) -> Result<HairFit, FitError> {
    let m = avatar
        .meshes
        .get(mesh)
        .ok_or(FitError::MeshNotFound(mesh))?;
    let mesh_name = if m.name.is_empty() {
        format!("mesh {mesh}")
    } else {
        m.name.clone()
    };
    match opts.joints {
        Some(0) => return Err(FitError::NoJoints),
        Some(n) if n >= usize::from(u16::MAX) => return Err(FitError::TooManyJoints(n)),
        _ => {}
    }
    let attachment = match opts.attachment {
        Some(a) if a < avatar.nodes.len() => a,
        Some(a) => return Err(FitError::BadAttachment(a)),
        None => avatar
            .humanoid
            .as_ref()
            .and_then(|h| h.bone("head"))
            .filter(|&h| h < avatar.nodes.len())
            .ok_or(FitError::NoHead)?,
    };
    let drawers: Vec<usize> = (0..avatar.nodes.len())
        .filter(|&i| avatar.nodes[i].mesh == Some(mesh))
        .collect();
    let &mesh_node = drawers
        .first()
        .ok_or_else(|| FitError::MeshNotPlaced(mesh_name.clone()))?;
    let mut notes = Vec::new();
    if drawers.len() > 1 {
        notes.push(format!(
            "{} nodes draw `{mesh_name}`; fitted where node `{}` draws it, and only that node is skinned",
            drawers.len(),
            avatar.nodes[mesh_node].name
        ));
    }
    let world = avatar.rest_world();
    let mesh_world = world[mesh_node];

    // 1. Model-space positions of every primitive, flattened.
    let mut points = Vec::new();
    let mut starts = Vec::new();
    for p in &m.primitives {
        starts.push(points.len());
        points.extend(p.positions.iter().map(|&v| mesh_world.transform_point3(v)));
    }
    let mut triangles: Vec<[u32; 3]> = Vec::new();
    for (p, &start) in m.primitives.iter().zip(&starts) {
        if p.mode != 4 {
            continue;
        }
        let base = u32::try_from(start).unwrap_or(u32::MAX);
        let nv = u32::try_from(p.positions.len()).unwrap_or(u32::MAX);
        let idx: Vec<u32> = if p.indices.is_empty() {
            (0..nv).collect()
        } else {
            p.indices.clone()
        };
        triangles.extend(
            idx.chunks_exact(3)
                .filter(|t| t.iter().all(|&i| i < nv))
                .map(|t| [t[0] + base, t[1] + base, t[2] + base]),
        );
    }
    if triangles.is_empty() {
        return Err(FitError::NoSurface(mesh_name));
    }

    // 2. Weld. 10 µm: far below any edge of a hair mesh, far above float
    // noise at avatar scale.
    let welded = weld::weld(&points, 1e-5);
    let wtris: Vec<[u32; 3]> = triangles
        .iter()
        .map(|t| t.map(|i| welded.id[i as usize]))
        .collect();
    let graph = Graph::from_triangles(&welded.positions, &wtris);

    // 3. Root band: within half a median edge of the nearest vertex.
    let mut lengths = graph.edge_lengths();
    lengths.sort_unstable_by(f32::total_cmp);
    let median_edge = lengths.get(lengths.len() / 2).copied().unwrap_or(0.0);
    let closeness: Vec<f32> = welded
        .positions
        .iter()
        .map(|&p| match opts.root_point {
            Some(r) => p.distance(r),
            None => scalp_distance(avatar, &world, attachment, p),
        })
        .collect();
    let in_graph: Vec<bool> = {
        let mut v = vec![false; welded.positions.len()];
        for t in &wtris {
            for &i in t {
                v[i as usize] = true;
            }
        }
        v
    };
    let nearest = closeness
        .iter()
        .zip(&in_graph)
        .filter(|(_, g)| **g)
        .map(|(c, _)| *c)
        .fold(f32::INFINITY, f32::min);
    let band = 0.5 * median_edge;
    let seeds: Vec<u32> = (0..welded.positions.len())
        .filter(|&i| in_graph[i] && closeness[i] <= nearest + band)
        .filter_map(|i| u32::try_from(i).ok())
        .collect();

    // 4. Geodesic distance from the band.
    let dist = graph.distances(&seeds);
    let reached = dist.iter().filter(|d| d.is_finite()).count();

    // 5. Centre line and joints. About one band per two rings of a typical
    // tube (√n of n vertices), but never so few that a bone spans less than
    // two bands.
    let line_for = |joints: usize| {
        let root = tress_core::math::ops::sqrt(reached as f32);
        let bands = (root as usize).min(512).max(4 * joints);
        Centreline::build(&welded.positions, &dist, bands)
    };
    // Picking the count needs a centre line; one built for the least count
    // serves when that is the count picked.
    let (joints, probe) = match opts.joints {
        Some(n) => (n, None),
        None => {
            let first = *AUTO_JOINTS.start();
            let probe = line_for(first);
            let (n, turn) = auto_joints(&probe);
            notes.push(format!(
                "{n} joints from the lock's length ({:.3} m, bones up to {AUTO_BONE_LENGTH} m) and \
                 bend ({turn:.0}°, up to {AUTO_BONE_TURN_DEG}° a bone); --joints sets them",
                probe.length()
            ));
            (n, (n == first).then_some(probe))
        }
    };
    let need = 4 * (joints + 1);
    if reached < need {
        return Err(FitError::TooFewVertices {
            mesh: mesh_name,
            have: reached,
            need,
        });
    }
    let line = probe.unwrap_or_else(|| line_for(joints));
    let length = line.length();
    let positions = line.equal_arc_points(joints + 1);
    let segment = length / joints as f32;
    let attach_world = world[attachment];
    // The root hand-over (step 6) and the stiffness each bone needs so that
    // its bend stays within what the skin can take (step 7).
    let seed_arc = seeds
        .iter()
        .map(|&s| line.project(welded.positions[s as usize]))
        .fold(0.0f32, f32::max);
    let pinned = (segment / 6.0).max(seed_arc).min(0.45 * segment);
    let release = 0.5 * segment;
    let origin = attach_world.w_axis.truncate();
    let bend: Vec<f32> = (0..joints)
        .map(|k| {
            let arc = segment * k as f32;
            // The thickest band along the bone.
            let r = (0..=8)
                .map(|i| line.radius_at((arc + segment * i as f32 / 8.0).min(length)))
                .fold(0.0f32, f32::max);
            let blend = if k == 0 { release - pinned } else { segment };
            let lever = positions[k + 1].distance(origin);
            bend_stiffness(
                REFERENCE_SPIN,
                lever,
                segment,
                MAX_SKIN_STRETCH * blend / r.max(f32::MIN_POSITIVE),
            )
        })
        .collect();
    let mut taken: Vec<String> = Vec::new();
    let mut chain: Vec<FittedJoint> = Vec::with_capacity(joints + 1);
    let mut parent_world = attach_world;
    for (k, &p) in positions.iter().enumerate() {
        let is_tail = k == joints;
        let base = if is_tail {
            format!("{mesh_name}_tip")
        } else {
            format!("{mesh_name}_{k}")
        };
        let name = unique_name(avatar, &taken, &base);
        taken.push(name.clone());
        let translation = parent_world.inverse().transform_point3(p);
        let joint_world = parent_world * Mat4::from_translation(translation);
        // The lock's band radius halfway along the bone: the tail sphere
        // sits at the next joint, but a tapering tip would give it almost
        // nothing there.
        let arc = segment * k as f32;
        let hit = line.radius_at((arc + 0.5 * segment).min(length));
        chain.push(FittedJoint {
            name,
            parent: k.checked_sub(1),
            translation,
            rotation: Quat::IDENTITY,
            scale: Vec3::ONE,
            position: p,
            arc,
            inverse_bind: joint_world.inverse() * mesh_world,
            spring: spring_for(k.min(joints - 1), joints, hit, bend[k.min(joints - 1)]),
        });
        parent_world = joint_world;
    }
    let tail = chain.pop().expect("joints + 1 positions");

    // 6. Weights. The pinned band: a sixth of a bone, and at least the root
    // band's own extent along the arc.
    let layout = Layout {
        bones: joints,
        segment,
        pinned,
        // Handing over by the first bone's midpoint keeps every vertex at two
        // influences at most. (Releasing at the first joint instead, three
        // influences, measured no better: p99 stretch 26.1 % against 25.1 %.)
        release,
    };
    let mut unreached = 0usize;
    let mut pinned_vertices = 0usize;
    let mut out_weights = Vec::with_capacity(m.primitives.len());
    for (p, &start) in m.primitives.iter().zip(&starts) {
        let mut w = PrimitiveWeights {
            joints: Vec::with_capacity(p.positions.len()),
            weights: Vec::with_capacity(p.positions.len()),
        };
        for i in 0..p.positions.len() {
            let flat = start + i;
            let d = dist[welded.id[flat] as usize];
            let arc = if d.is_finite() {
                line.arc_at(d)
            } else {
                unreached += 1;
                line.project(points[flat])
            };
            let (j, wt) = layout.influences(arc);
            if j[0] == weights::ATTACHMENT && wt[0] >= 1.0 {
                pinned_vertices += 1;
            }
            w.joints.push(j);
            w.weights.push(wt);
        }
        out_weights.push(w);
    }
    if unreached > 0 {
        notes.push(format!(
            "{unreached} vertices are not connected to the root band; weighted by their nearest point on the centre line"
        ));
    }
    Ok(HairFit {
        mesh,
        mesh_name,
        mesh_node,
        attachment,
        attachment_inverse_bind: attach_world.inverse() * mesh_world,
        joints: chain,
        tail,
        weights: out_weights,
        length,
        pinned_vertices,
        welded_vertices: welded.positions.len(),
        vertices: points.len(),
        root_band: seeds.len(),
        notes,
    })
}

/// The index of the mesh named `name` (or drawn by the node named `name`).
#[must_use]
pub fn mesh_by_name(avatar: &Avatar, name: &str) -> Option<usize> {
    avatar
        .meshes
        .iter()
        .position(|m| m.name == name)
        .or_else(|| {
            avatar
                .nodes
                .iter()
                .find(|n| n.name == name && n.mesh.is_some())
                .and_then(|n| n.mesh)
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use tress_core::math::ops;

    #[test]
    fn bend_stiffness_keeps_the_trail_within_the_allowed_bend() {
        // Hand-computed: spin 2 rad/s, end 0.2 m from the attachment, bone
        // 0.1 m, 0.1 rad allowed: the end moves at 0.4 m/s and may trail
        // 0.01 m, so c/k ≤ 1/40 s. Drag 0.4 gives c = −60 ln 0.6 ≈ 30.6/s,
        // below √k at k = 40² = 1600/s²: k = 1600, VRM stiffness 1.6.
        let k = bend_stiffness(2.0, 0.2, 0.1, 0.1);
        assert!((k - 1.6).abs() < 1e-4, "{k}");
        // With a slower turn the drag term decides: trail 10, c·trail ≈ 306.
        let k = bend_stiffness(0.5, 0.2, 0.1, 0.1);
        assert!((k - 0.3065).abs() < 1e-3, "{k}");
        // Whatever comes out, the solver's trail angle c V / (k L) is within
        // the bend asked for, unless the stiffness hit the solver's cap.
        for (spin, lever, len, bend) in [(2.0, 0.3, 0.05, 0.02), (1.0, 0.1, 0.2, 0.3)] {
            let k = 1000.0 * bend_stiffness(spin, lever, len, bend);
            let c = ops::sqrt(k).max(-60.0 * ops::ln(1.0 - DRAG));
            let trail = c * spin * lever / (k * len);
            assert!(trail <= bend * 1.0001 || k >= tress_core::spring::MAX_STIFFNESS * 0.999);
        }
        // Nothing to hold: no extra stiffness.
        assert_eq!(bend_stiffness(2.0, 0.2, 0.0, 0.1), 0.0);
        assert_eq!(bend_stiffness(2.0, 0.2, 0.1, 0.0), 0.0);
    }
}
