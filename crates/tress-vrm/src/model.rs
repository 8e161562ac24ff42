//! The typed model a load produces. All positions, directions and offsets
//! are in glTF's right-handed space (metres, +Y up); VRM 0.x conversions are
//! already applied.

use alloc::collections::BTreeMap;

use glam::{Mat4, Quat, Vec3, Vec4};
pub use tress_core::constraint::{AimAxis, ConstraintKind, NodeConstraint, RollAxis};
pub use tress_core::spring::{JointLimit, LimitShape};

use crate::error::Warning;

/// Which VRM generation (if any) the file uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// VRM 0.x (`extensions.VRM`).
    Vrm0,
    /// VRM 1.0 (`extensions.VRMC_vrm`).
    Vrm1,
    /// VRM Animation (`extensions.VRMC_vrm_animation`).
    Vrma,
    /// Plain glTF 2.0 (may still carry `VRMC_springBone` / `VRMC_node_constraint`).
    Gltf,
}

/// A loaded avatar (or animation clip, or plain glTF scene).
#[derive(Debug, Clone)]
pub struct Avatar {
    /// What kind of file this was.
    pub format: Format,
    /// Every glTF node, in file order (indices below refer to this list).
    pub nodes: Vec<Node>,
    /// Root nodes of the default scene (or of all parentless nodes when there is no scene).
    pub roots: Vec<usize>,
    /// Meshes in file order.
    pub meshes: Vec<Mesh>,
    /// Skins in file order.
    pub skins: Vec<Skin>,
    /// Material names in file order (`None` when unnamed).
    pub materials: Vec<Option<String>>,
    /// VRM humanoid map (VRM 1.0 bone names), or the VRMA humanoid map.
    pub humanoid: Option<Humanoid>,
    /// VRM meta, including the license fields.
    pub meta: Option<Meta>,
    /// Spring chains and colliders.
    pub springs: SpringSystem,
    /// Node constraints (`VRMC_node_constraint`).
    pub constraints: Vec<NodeConstraint>,
    /// Indices into `constraints` in a valid evaluation order.
    pub constraint_order: Vec<usize>,
    /// Animations in file order.
    pub animations: Vec<Animation>,
    /// Oddities tolerated during the load.
    pub warnings: Vec<Warning>,
}

/// One glTF node with its rest (file) transform.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// Name (empty when the file gives none).
    pub name: String,
    /// Parent node, `None` for roots.
    pub parent: Option<usize>,
    /// Children in file order.
    pub children: Vec<usize>,
    /// Rest local translation.
    pub translation: Vec3,
    /// Rest local rotation.
    pub rotation: Quat,
    /// Rest local scale.
    pub scale: Vec3,
    /// Mesh drawn at this node.
    pub mesh: Option<usize>,
    /// Skin deforming that mesh.
    pub skin: Option<usize>,
}

impl Node {
    /// The rest local matrix.
    #[must_use]
    pub fn local_matrix(&self) -> Mat4 {
        Mat4::from_scale_rotation_translation(self.scale, self.rotation, self.translation)
    }

    /// The rest local transform as the constraint solver takes it.
    #[must_use]
    pub fn local_pose(&self) -> tress_core::constraint::LocalPose {
        tress_core::constraint::LocalPose {
            translation: self.translation,
            rotation: self.rotation,
            scale: self.scale,
        }
    }
}

/// A mesh: a list of primitives.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Mesh {
    /// Name (empty when none).
    pub name: String,
    /// Primitives in file order.
    pub primitives: Vec<Primitive>,
}

/// One primitive's vertex data (triangles; other modes are kept as given).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Primitive {
    /// `POSITION`.
    pub positions: Vec<Vec3>,
    /// `NORMAL` (empty when absent).
    pub normals: Vec<Vec3>,
    /// `JOINTS_0` (empty when absent).
    pub joints: Vec<[u16; 4]>,
    /// `WEIGHTS_0` (empty when absent).
    pub weights: Vec<Vec4>,
    /// Indices (empty for non-indexed geometry).
    pub indices: Vec<u32>,
    /// glTF primitive mode (4 = triangles).
    pub mode: u32,
    /// Material index.
    pub material: Option<usize>,
    /// That material's name, for convenience.
    pub material_name: Option<String>,
}

/// A skin.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Skin {
    /// Name (empty when none).
    pub name: String,
    /// Joint nodes.
    pub joints: Vec<usize>,
    /// Inverse bind matrices, one per joint (identity when the file has none).
    pub inverse_binds: Vec<Mat4>,
    /// The `skeleton` root node, when given.
    pub skeleton: Option<usize>,
}

/// Humanoid bone map, keyed by VRM 1.0 bone names (`hips`, `head`,
/// `leftThumbMetacarpal`, …); VRM 0.x names are translated.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Humanoid {
    /// Bone name → node index.
    pub bones: BTreeMap<String, usize>,
}

impl Humanoid {
    /// The node of a bone, by VRM 1.0 name.
    #[must_use]
    pub fn bone(&self, name: &str) -> Option<usize> {
        self.bones.get(name).copied()
    }
}

/// Avatar meta. VRM 0.x values are mapped onto the VRM 1.0 field names where
/// they mean the same thing; the raw 0.x license name is kept too.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Meta {
    /// Title / name.
    pub name: Option<String>,
    /// Model version string.
    pub version: Option<String>,
    /// Authors (0.x: the single `author`).
    pub authors: Vec<String>,
    /// Copyright line (1.0 only).
    pub copyright_information: Option<String>,
    /// Contact.
    pub contact_information: Option<String>,
    /// References (0.x: the single `reference`).
    pub references: Vec<String>,
    /// License URL (1.0 `licenseUrl`; 0.x `otherLicenseUrl` when given).
    pub license_url: Option<String>,
    /// VRM 0.x `licenseName` (`CC_BY`, `CC0`, `Redistribution_Prohibited`, `Other`, …).
    pub license_name: Option<String>,
    /// Who may use the avatar (1.0 `avatarPermission`; 0.x `allowedUserName`).
    pub avatar_permission: Option<String>,
    /// 1.0 `commercialUsage`; 0.x `commercialUssageName` (`Allow` / `Disallow`).
    pub commercial_usage: Option<String>,
    /// 1.0 `creditNotation`.
    pub credit_notation: Option<String>,
    /// 1.0 `modification`.
    pub modification: Option<String>,
    /// 1.0 `allowRedistribution`.
    pub allow_redistribution: Option<bool>,
    /// 1.0 `allowExcessivelyViolentUsage`; 0.x `violentUssageName == "Allow"`.
    pub allow_excessively_violent_usage: Option<bool>,
    /// 1.0 `allowExcessivelySexualUsage`; 0.x `sexualUssageName == "Allow"`.
    pub allow_excessively_sexual_usage: Option<bool>,
    /// 1.0 `allowPoliticalOrReligiousUsage`.
    pub allow_political_or_religious_usage: Option<bool>,
    /// 1.0 `allowAntisocialOrHateUsage`.
    pub allow_antisocial_or_hate_usage: Option<bool>,
    /// 1.0 `otherLicenseUrl`; 0.x `otherPermissionUrl`.
    pub other_license_url: Option<String>,
    /// 1.0 `thirdPartyLicenses`.
    pub third_party_licenses: Option<String>,
}

/// Spring chains, colliders and collider groups.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SpringSystem {
    /// Chains, VRM 1.0 springs in file order, VRM 0.x bone-group roots expanded.
    pub chains: Vec<SpringChain>,
    /// Every collider.
    pub colliders: Vec<Collider>,
    /// Collider groups (indices into `colliders`).
    pub collider_groups: Vec<ColliderGroup>,
    /// Rows of neighbouring chains held to their rest spacing
    /// (`TRESS_springBone_band`).
    pub bands: Vec<SpringBand>,
    /// Spring bones' lock shapes known without the mesh (an imported
    /// scene's spring config carries them); empty: the rig reads them from
    /// the skin.
    pub locks: Vec<LockHint>,
}

/// One spring bone's lock shape as seen down the bone: which way it is
/// wide, how much wider than thick, and half its width (what
/// `tress_rig::flat_locks` reads from the skin).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LockHint {
    /// The bone's node.
    pub node: usize,
    /// Width axis in the bone's local space (unit).
    pub width_axis: Vec3,
    /// Width-to-thickness ratio.
    pub aspect: f32,
    /// Half the width, m (world, at rest).
    pub half_width: f32,
}

/// Neighbouring chains held to their rest spacing joint by joint, so the
/// cloth skinned between them does not stretch (a skirt's chains around the
/// hips). Tress's own extension `TRESS_springBone_band` on
/// `VRMC_springBone`; other runtimes simulate the chains alone.
#[derive(Debug, Clone, PartialEq)]
pub struct SpringBand {
    /// The band's name, if the file gives one.
    pub name: Option<String>,
    /// JSON path of the band in the file.
    pub source_path: String,
    /// Indices into [`SpringSystem::chains`], neighbours in order.
    pub chains: Vec<usize>,
    /// The last chain is also the first one's neighbour (a ring).
    pub closed: bool,
    /// How far past its rest distance a pair of joints may move apart, as a
    /// share of it.
    pub stretch: f32,
    /// Shear held too: how far past `1 + stretch` times its rest length a
    /// diagonal between two neighbours' joints (`k − 1` of one, `k` of the
    /// other) may grow, as a share; `None` (the file says nothing): shear
    /// free.
    pub shear: Option<f32>,
    /// Fold joints (`tress_core::spring::fold`): per pair of
    /// [`Self::pairs`], in its order, the nodes of the fold between them,
    /// one per joint of the pair, root first; empty: no folds.
    pub folds: Vec<Vec<usize>>,
    /// The bend at which a fold lies flat, radians; 0: never.
    pub fold_flat_angle: f32,
}

impl SpringBand {
    /// The neighbouring pairs, in order (a ring closes with last → first).
    pub fn pairs(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        let n = self.chains.len();
        let closing = (self.closed && n > 2).then(|| (self.chains[n - 1], self.chains[0]));
        self.chains.windows(2).map(|w| (w[0], w[1])).chain(closing)
    }
}

impl SpringSystem {
    /// Total joints over all chains (tail-only entries included).
    #[must_use]
    pub fn joint_count(&self) -> usize {
        self.chains.iter().map(|c| c.joints.len()).sum()
    }
}

/// One chain of spring joints.
///
/// `joints[i]` for `i + 1 < joints.len()` is simulated with `joints[i + 1]`
/// as its tail and uses its own settings. The last entry is only a tail
/// (VRM 1.0 semantics: its settings are unused) unless `virtual_tail` is
/// set, in which case it is simulated too, with a tail at `virtual_tail`
/// in its own local frame (VRM 0.x childless ends: 7 cm along the node's
/// own local translation, as three-vrm does).
#[derive(Debug, Clone, PartialEq)]
pub struct SpringChain {
    /// VRM 1.0 spring name, or VRM 0.x bone-group `comment`.
    pub name: Option<String>,
    /// JSON path of the spring (or bone-group root) this chain came from.
    pub source_path: String,
    /// Joints root first.
    pub joints: Vec<SpringJoint>,
    /// Local-space tail offset of the last joint, when it has no tail node.
    pub virtual_tail: Option<Vec3>,
    /// Node whose space the simulation runs in, if any.
    pub center: Option<usize>,
    /// Collider groups this chain collides with.
    pub collider_groups: Vec<usize>,
    /// The first joint lies under the humanoid `head` bone.
    pub under_head: bool,
    /// The chain's name mentions hair (hair, bang, fringe, 髪, ...).
    pub named_hair: bool,
}

impl SpringChain {
    /// Head hair: under the head bone, or named like hair.
    #[must_use]
    pub fn is_head_hair(&self) -> bool {
        self.under_head || self.named_hair
    }

    /// Number of joints that are actually simulated.
    #[must_use]
    pub fn simulated_len(&self) -> usize {
        if self.virtual_tail.is_some() {
            self.joints.len()
        } else {
            self.joints.len().saturating_sub(1)
        }
    }
}

/// One spring joint and its settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SpringJoint {
    /// The node this joint moves.
    pub node: usize,
    /// Collision radius of the joint's tail sphere.
    pub hit_radius: f32,
    /// Restoring force toward the rest direction.
    pub stiffness: f32,
    /// Gravity strength.
    pub gravity_power: f32,
    /// Gravity direction (world space, as given; not necessarily unit).
    pub gravity_dir: Vec3,
    /// Velocity damping, 0..1.
    pub drag_force: f32,
    /// Angle limit of this joint's bone (`VRMC_springBone_limit` on the
    /// joint, draft 1.0), as read: angles in radians, unclamped. Never set
    /// on a chain's last joint (a tail only; the draft says to ignore it).
    pub limit: Option<JointLimit>,
}

/// A collider attached to a node.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Collider {
    /// The node it follows.
    pub node: usize,
    /// Its shape in the node's local space.
    pub shape: ColliderShape,
}

/// Collider shapes (offsets, tails and normals in the node's local space).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ColliderShape {
    /// Keeps joints outside a sphere.
    Sphere {
        /// Centre.
        offset: Vec3,
        /// Radius.
        radius: f32,
    },
    /// Keeps joints outside a capsule from `offset` to `tail`.
    Capsule {
        /// One end.
        offset: Vec3,
        /// The other end.
        tail: Vec3,
        /// Radius.
        radius: f32,
    },
    /// Keeps joints on the `normal` side of a plane.
    Plane {
        /// A point on the plane.
        offset: Vec3,
        /// The plane normal (as given).
        normal: Vec3,
    },
    /// Keeps joints inside a sphere.
    InsideSphere {
        /// Centre.
        offset: Vec3,
        /// Radius.
        radius: f32,
    },
    /// Keeps joints inside a capsule.
    InsideCapsule {
        /// One end.
        offset: Vec3,
        /// The other end.
        tail: Vec3,
        /// Radius.
        radius: f32,
    },
}

impl ColliderShape {
    /// Short name: `sphere`, `capsule`, `plane`, `insideSphere`, `insideCapsule`.
    #[must_use]
    pub const fn name(&self) -> &'static str {
        match self {
            Self::Sphere { .. } => "sphere",
            Self::Capsule { .. } => "capsule",
            Self::Plane { .. } => "plane",
            Self::InsideSphere { .. } => "insideSphere",
            Self::InsideCapsule { .. } => "insideCapsule",
        }
    }
}

/// A named set of colliders.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ColliderGroup {
    /// Name, when given.
    pub name: Option<String>,
    /// Indices into [`SpringSystem::colliders`].
    pub colliders: Vec<usize>,
}

/// An animation clip.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Animation {
    /// Name; an animation the file leaves unnamed (or names `""`) is
    /// `clip0`, `clip1`, … by its index among the file's animations
    /// ([`crate::load::unnamed_clip`]).
    pub name: String,
    /// Channels.
    pub channels: Vec<Channel>,
    /// Longest keyframe time, seconds.
    pub duration: f32,
}

/// One animated property of one node.
#[derive(Debug, Clone, PartialEq)]
pub struct Channel {
    /// Target node.
    pub node: usize,
    /// Keyframe times, seconds.
    pub times: Vec<f32>,
    /// Interpolation.
    pub interpolation: Interpolation,
    /// Values.
    pub values: ChannelValues,
}

/// Keyframe interpolation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Interpolation {
    /// Linear (slerp for rotations).
    Linear,
    /// Hold.
    Step,
    /// Cubic spline (values hold in-tangent, value, out-tangent per key).
    CubicSpline,
}

/// Keyframe values by target path.
#[derive(Debug, Clone, PartialEq)]
pub enum ChannelValues {
    /// `translation`.
    Translation(Vec<Vec3>),
    /// `rotation`.
    Rotation(Vec<Quat>),
    /// `scale`.
    Scale(Vec<Vec3>),
    /// `weights` (morph weights, flattened).
    Weights(Vec<f32>),
}

impl Avatar {
    /// A plain glTF skeleton and nothing else: no meshes, humanoid, springs
    /// or clips (what BVH files, stored spring configs and hand-made rigs
    /// start from).
    #[must_use]
    pub fn skeleton_only(nodes: Vec<Node>, roots: Vec<usize>) -> Self {
        Self {
            format: Format::Gltf,
            nodes,
            roots,
            meshes: Vec::new(),
            skins: Vec::new(),
            materials: Vec::new(),
            humanoid: None,
            meta: None,
            springs: SpringSystem::default(),
            constraints: Vec::new(),
            constraint_order: Vec::new(),
            animations: Vec::new(),
            warnings: Vec::new(),
        }
    }

    /// Rest world matrices of every node (parents before children).
    #[must_use]
    pub fn rest_world(&self) -> Vec<Mat4> {
        let mut world = vec![Mat4::IDENTITY; self.nodes.len()];
        let mut stack: Vec<(usize, Mat4)> = (0..self.nodes.len())
            .filter(|&i| self.nodes[i].parent.is_none())
            .map(|r| (r, Mat4::IDENTITY))
            .collect();
        while let Some((n, parent)) = stack.pop() {
            let Some(node) = self.nodes.get(n) else {
                continue;
            };
            let m = parent * node.local_matrix();
            world[n] = m;
            stack.extend(node.children.iter().map(|&c| (c, m)));
        }
        world
    }

    /// Index of the first node with this name.
    #[must_use]
    pub fn node_by_name(&self, name: &str) -> Option<usize> {
        self.nodes.iter().position(|n| n.name == name)
    }

    /// Whether `ancestor` is `node` itself or one of its ancestors.
    #[must_use]
    pub fn is_self_or_ancestor(&self, ancestor: usize, node: usize) -> bool {
        let mut cur = Some(node);
        for _ in 0..=self.nodes.len() {
            match cur {
                Some(n) if n == ancestor => return true,
                Some(n) => cur = self.nodes.get(n).and_then(|x| x.parent),
                None => return false,
            }
        }
        false
    }

    /// Colliders by shape name (`sphere`, `capsule`, ...), for reports.
    #[must_use]
    pub fn collider_counts(&self) -> BTreeMap<&'static str, usize> {
        let mut m = BTreeMap::new();
        for c in &self.springs.colliders {
            *m.entry(c.shape.name()).or_insert(0) += 1;
        }
        m
    }
}
