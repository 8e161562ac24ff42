//! A VRM avatar's spring hair kept in the scene: the resources an imported
//! `.vrm` stores, so the hair is rebuilt at run time with no file to read.
//!
//! - [`TressSpringConfig`]: the rest skeleton as the file gives it (the
//!   solver's rest pose, which Godot's Skeleton3D holds only up to float
//!   round-off), the chains in file order and the order the colliders are
//!   solved in;
//! - [`TressSpringChain`]: one chain's bones and per-joint VRM values, its
//!   contact kind, centre and virtual tail, and the colliders it meets;
//! - [`from_avatar`] / [`to_avatar`]: between those and the loader's
//!   [`Avatar`], which `tress_rig::spring_rig::SpringRig` builds from.
//!
//! The colliders themselves are `TressCollider3D` nodes (one per VRM
//! collider, named in [`TressSpringConfig`]'s `colliders`), so they can be
//! seen and edited like hand-made ones.

use godot::classes::{Node as GdNode, Node3D, Skeleton3D};
use godot::prelude::*;
use tress_core::math::{Quat, Vec3};
use tress_vrm::model::{
    Avatar, Collider, ColliderGroup, ColliderShape, LockHint, Node, SpringChain, SpringJoint,
    SpringSystem,
};

use crate::convert::{vec3, vector3};
use crate::spring_hair::TressSpringHair;

/// A VRM avatar's springs as scene data (what `TressSpringHair` builds its
/// solver from when its **Spring Config** is set, as an imported `.vrm`'s is).
#[derive(GodotClass)]
#[class(base = Resource, init, tool)]
pub struct TressSpringConfig {
    /// Every node of the file, in file order: names (bones keep these names).
    #[export]
    pub node_names: PackedStringArray,
    /// Parent of each node (an index into `node_names`; -1 for roots).
    #[export]
    pub node_parents: PackedInt32Array,
    /// Rest translation of each node, as the file gives it.
    #[export]
    pub node_translations: PackedVector3Array,
    /// Rest rotation of each node (x, y, z, w), as the file gives it.
    #[export]
    pub node_rotations: PackedVector4Array,
    /// Rest scale of each node.
    #[export]
    pub node_scales: PackedVector3Array,
    /// The chains, in file order (the order the solver runs them).
    #[export]
    pub chains: Array<Gd<TressSpringChain>>,
    /// Names of the `TressCollider3D` nodes (under the skeleton) the chains
    /// meet, in the order they are solved.
    #[export]
    pub colliders: PackedStringArray,
    base: Base<Resource>,
}

/// One spring chain of a [`TressSpringConfig`], or a hand-made chain in
/// `TressSpringHair`'s **Chains**: joint `i` swings toward joint `i + 1`;
/// the last bone is only the tail unless **Virtual Tail** is on (VRM 0.x
/// ends, Godot's `extend_end_bone`: it swings too, toward a tip past it).
///
/// By hand, name the chain by **Root Bone** and **End Bone** instead of
/// listing **Bones**, and give each joint value as one number for the whole
/// chain or one per joint, root first (a list shorter than the chain
/// repeats its last value; an empty one takes the default: stiffness 1,
/// drag 0.4, gravity 0 along -Y, radius 0.02 m).
#[derive(GodotClass)]
#[class(base = Resource, init, tool)]
pub struct TressSpringChain {
    /// Spring name (VRM 1.0 `name`, VRM 0.x bone-group `comment`).
    #[export]
    pub chain_name: GString,
    /// Where in the file the chain came from (for messages).
    #[export]
    pub source_path: GString,
    /// Bones, root first.
    #[export]
    pub bones: PackedStringArray,
    /// Per joint: return force toward the rest shape (VRM stiffness).
    #[export]
    pub stiffness: PackedFloat32Array,
    /// Per joint: velocity damping, 0..1 (VRM dragForce).
    #[export]
    pub drag: PackedFloat32Array,
    /// Per joint: gravity strength (VRM gravityPower).
    #[export]
    pub gravity_power: PackedFloat32Array,
    /// Per joint: gravity direction (VRM gravityDir).
    #[export]
    pub gravity_dir: PackedVector3Array,
    /// Per joint: collision radius (metres).
    #[export]
    pub hit_radius: PackedFloat32Array,
    /// Per joint: the lock's width axis in the bone's space, as the importer
    /// read it from the skin (zero: no lock shape; empty: none known, as in
    /// scenes imported before 2026-12-04). Flat locks and the lock twist
    /// need it.
    #[export]
    pub lock_axis: PackedVector3Array,
    /// Per joint: the lock's width-to-thickness ratio (with `lock_axis`).
    #[export]
    pub lock_aspect: PackedFloat32Array,
    /// Per joint: half the lock's width, metres (with `lock_axis`).
    #[export]
    pub lock_half_width: PackedFloat32Array,
    /// The last bone swings too, toward `tail_offset`.
    #[export]
    pub virtual_tail: bool,
    /// The virtual tail in the last bone's frame.
    #[export]
    pub tail_offset: Vector3,
    /// Bone whose space the VRM-compatible solver runs in ("" for none).
    #[export]
    pub center_bone: GString,
    /// Contact at the tail point only, not along whole segments (the
    /// collider fit's choice for this chain).
    #[export]
    pub tail_contact: bool,
    /// The first joint hangs under the humanoid head bone.
    #[export]
    pub under_head: bool,
    /// The chain is named like hair.
    #[export]
    pub named_hair: bool,
    /// Names of the `TressCollider3D` nodes this chain meets.
    #[export]
    pub colliders: PackedStringArray,
    /// By hand: the first bone of the chain (used when **Bones** is empty).
    #[export]
    pub root_bone: GString,
    /// By hand: the last bone of the chain; with **Virtual Tail** it may be
    /// the root itself.
    #[export]
    pub end_bone: GString,
    /// By hand, with **Virtual Tail**: where the tip past the end bone
    /// points: **Tail Offset** as given, or **Tail Length** along an axis
    /// of the end bone, or along its direction from its parent (Godot's
    /// `end_bone_direction`; FromParent is its default).
    #[export(enum = (Offset = 0, PlusX = 1, MinusX = 2, PlusY = 3, MinusY = 4, PlusZ = 5, MinusZ = 6, FromParent = 7))]
    pub tail_direction: i32,
    /// By hand, with **Virtual Tail** and a **Tail Direction** other than
    /// Offset: how far the tip lies past the end bone (metres; Godot's
    /// `end_bone_length`).
    #[export]
    pub tail_length: f32,
    /// By hand: the chain meets every `TressCollider3D` under the skeleton
    /// but those in **Exclude Colliders** (Godot's
    /// `enable_all_child_collisions`); off, only those in **Colliders**.
    #[export]
    pub all_colliders: bool,
    /// By hand, with **All Colliders**: names of the colliders this chain
    /// passes through.
    #[export]
    pub exclude_colliders: PackedStringArray,
    /// Per joint: the file's angle limit (`VRMC_springBone_limit`): 0 none,
    /// 1 cone, 2 hinge, 3 spherical. Shorter than `bones` (a scene imported
    /// before limits were kept): the joints past it have none.
    #[export]
    pub limit_shape: PackedInt32Array,
    /// Per joint: the limit's angles in radians, (cone or hinge angle, 0) or
    /// spherical (pitch, yaw).
    #[export]
    pub limit_angles: PackedVector2Array,
    /// Per joint: the limit's rotation (x, y, z, w).
    #[export]
    pub limit_rotation: PackedVector4Array,
    base: Base<Resource>,
}

/// A joint's limit as the three `TressSpringChain` limit values.
fn limit_values(l: Option<&tress_vrm::JointLimit>) -> (i32, Vector2, Vector4) {
    use tress_vrm::LimitShape as S;
    let Some(l) = l else {
        return (0, Vector2::ZERO, Vector4::new(0.0, 0.0, 0.0, 1.0));
    };
    let (code, angles) = match l.shape {
        S::Cone { angle } => (1, Vector2::new(angle, 0.0)),
        S::Hinge { angle } => (2, Vector2::new(angle, 0.0)),
        S::Spherical { pitch, yaw } => (3, Vector2::new(pitch, yaw)),
    };
    let r = l.rotation;
    (code, angles, Vector4::new(r.x, r.y, r.z, r.w))
}

/// Joint `j`'s limit read back from a `TressSpringChain`.
fn limit_of(
    s: &TressSpringChain,
    j: usize,
    label: &str,
) -> Result<Option<tress_vrm::JointLimit>, String> {
    use tress_vrm::{JointLimit, LimitShape as S};
    let Some(&code) = s.limit_shape.as_slice().get(j) else {
        return Ok(None);
    };
    if code == 0 {
        return Ok(None);
    }
    let (Some(a), Some(r)) = (
        s.limit_angles.as_slice().get(j),
        s.limit_rotation.as_slice().get(j),
    ) else {
        return Err(format!(
            "{label}, joint {j}: limit_shape is set but limit_angles or limit_rotation has no value for it"
        ));
    };
    let shape = match code {
        1 => S::Cone { angle: a.x },
        2 => S::Hinge { angle: a.x },
        3 => S::Spherical {
            pitch: a.x,
            yaw: a.y,
        },
        other => {
            return Err(format!(
                "{label}, joint {j}: limit_shape {other} is not 0 (none), 1 (cone), 2 (hinge) or 3 (spherical)"
            ));
        }
    };
    Ok(Some(JointLimit {
        shape,
        rotation: tress_core::math::Quat::from_xyzw(r.x, r.y, r.z, r.w),
    }))
}

/// The name each collider of `avatar` gets as a `TressCollider3D` node:
/// unique, numbered in file order, with the bone it follows.
#[must_use]
pub fn collider_names(avatar: &Avatar) -> Vec<String> {
    avatar
        .springs
        .colliders
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let bone = avatar.nodes.get(c.node).map_or("", |n| n.name.as_str());
            format!("TressCollider{i:02}_{bone}")
        })
        .collect()
}

/// The springs of `avatar` as a [`TressSpringConfig`]; bit `i` of
/// `tail_chains` gives chain `i` tail contact. `names` names the colliders
/// as [`collider_names`] does.
#[must_use]
pub fn from_avatar(avatar: &Avatar, tail_chains: u128, names: &[String]) -> Gd<TressSpringConfig> {
    let mut cfg = TressSpringConfig::new_gd();
    {
        let mut c = cfg.bind_mut();
        for n in &avatar.nodes {
            c.node_names.push(n.name.as_str());
            c.node_parents
                .push(n.parent.map_or(-1, |p| i32::try_from(p).unwrap_or(-1)));
            c.node_translations.push(vector3(n.translation));
            let q = n.rotation;
            c.node_rotations.push(Vector4::new(q.x, q.y, q.z, q.w));
            c.node_scales.push(vector3(n.scale));
        }
        for name in names {
            c.colliders.push(name.as_str());
        }
        let node_name = |n: usize| avatar.nodes.get(n).map_or("", |x| x.name.as_str());
        // Read from the skin now: the config keeps no mesh.
        let locks = tress_rig::flat_locks::lock_shapes(avatar);
        for (ci, chain) in avatar.springs.chains.iter().enumerate() {
            let mut r = TressSpringChain::new_gd();
            {
                let mut s = r.bind_mut();
                s.chain_name = chain.name.as_deref().unwrap_or("").into();
                s.source_path = chain.source_path.as_str().into();
                for j in &chain.joints {
                    s.bones.push(node_name(j.node));
                    s.stiffness.push(j.stiffness);
                    s.drag.push(j.drag_force);
                    s.gravity_power.push(j.gravity_power);
                    s.gravity_dir.push(vector3(j.gravity_dir));
                    s.hit_radius.push(j.hit_radius);
                    let lock = locks.get(&j.node);
                    s.lock_axis
                        .push(vector3(lock.map_or(Vec3::ZERO, |l| l.width_axis)));
                    s.lock_aspect.push(lock.map_or(0.0, |l| l.aspect));
                    s.lock_half_width.push(lock.map_or(0.0, |l| l.half_width));
                    let (code, angles, rotation) = limit_values(j.limit.as_ref());
                    s.limit_shape.push(code);
                    s.limit_angles.push(angles);
                    s.limit_rotation.push(rotation);
                }
                s.virtual_tail = chain.virtual_tail.is_some();
                s.tail_offset = vector3(chain.virtual_tail.unwrap_or(Vec3::ZERO));
                s.center_bone = chain.center.map_or("", node_name).into();
                s.tail_contact = ci < 128 && (tail_chains >> ci) & 1 == 1;
                s.under_head = chain.under_head;
                s.named_hair = chain.named_hair;
                let mut met = Vec::new();
                for &g in &chain.collider_groups {
                    if let Some(group) = avatar.springs.collider_groups.get(g) {
                        for &k in &group.colliders {
                            if !met.contains(&k) {
                                met.push(k);
                            }
                        }
                    }
                }
                met.sort_unstable();
                for k in met {
                    if let Some(name) = names.get(k) {
                        s.colliders.push(name.as_str());
                    }
                }
            }
            c.chains.push(&r);
        }
    }
    cfg
}

/// A collider read back from its `TressCollider3D` node: its name, the bone
/// it follows and its shape in that bone's frame.
#[derive(Debug, Clone)]
pub struct NodeCollider {
    /// Node name (what `colliders` lists).
    pub name: String,
    /// The bone it follows.
    pub bone: String,
    /// Its shape in that bone's frame.
    pub shape: ColliderShape,
}

/// The node list of `cfg` as an avatar with no springs (what node
/// constraints are evaluated against).
///
/// # Errors
/// When the node arrays differ in length or the parents loop.
pub fn rest_avatar(cfg: &TressSpringConfig) -> Result<Avatar, String> {
    let n = cfg.node_names.len();
    if [
        cfg.node_parents.len(),
        cfg.node_translations.len(),
        cfg.node_rotations.len(),
        cfg.node_scales.len(),
    ]
    .iter()
    .any(|&l| l != n)
    {
        return Err(format!(
            "the node arrays differ in length ({n} names, {} parents, {} translations, {} rotations, {} scales)",
            cfg.node_parents.len(),
            cfg.node_translations.len(),
            cfg.node_rotations.len(),
            cfg.node_scales.len()
        ));
    }
    let mut nodes: Vec<Node> = (0..n)
        .map(|i| {
            let r = cfg.node_rotations.as_slice()[i];
            Node {
                name: cfg.node_names.as_slice()[i].to_string(),
                parent: usize::try_from(cfg.node_parents.as_slice()[i])
                    .ok()
                    .filter(|&p| p < n && p != i),
                children: Vec::new(),
                translation: vec3(cfg.node_translations.as_slice()[i]),
                rotation: Quat::from_xyzw(r.x, r.y, r.z, r.w),
                scale: vec3(cfg.node_scales.as_slice()[i]),
                mesh: None,
                skin: None,
            }
        })
        .collect();
    // An edited parent list may loop; the rig and the constraint solver
    // walk parents up to a root, so a loop is refused here.
    for i in 0..n {
        let mut cur = nodes[i].parent;
        let mut steps = 0;
        while let Some(p) = cur {
            steps += 1;
            if steps > n {
                return Err(format!(
                    "node_parents loop through node {i} ('{}')",
                    nodes[i].name
                ));
            }
            cur = nodes[p].parent;
        }
    }
    for i in 0..n {
        if let Some(p) = nodes[i].parent {
            nodes[p].children.push(i);
        }
    }
    let roots = (0..n).filter(|&i| nodes[i].parent.is_none()).collect();
    Ok(Avatar::skeleton_only(nodes, roots))
}

/// The avatar [`TressSpringConfig`] describes, with `found` the collider
/// nodes there are, and the tail-contact chains as a bit set.
///
/// # Errors
/// Names the chain, joint or collider when a bone is not in the node list,
/// a per-joint array is shorter than the bones, or a listed collider has no
/// node.
pub fn to_avatar(
    cfg: &TressSpringConfig,
    found: &[NodeCollider],
) -> Result<(Avatar, u128), String> {
    let mut avatar = rest_avatar(cfg)?;
    let nodes = &avatar.nodes;
    let index_of = |name: &str| nodes.iter().position(|x| x.name == name);
    let mut springs = SpringSystem::default();
    for (k, name) in cfg.colliders.as_slice().iter().enumerate() {
        let name = name.to_string();
        let c = found.iter().find(|c| c.name == name).ok_or_else(|| {
            format!("collider {k}: no TressCollider3D named '{name}' in the scene")
        })?;
        let node = index_of(&c.bone).ok_or_else(|| {
            format!(
                "collider '{name}': bone '{}' is not in the node list",
                c.bone
            )
        })?;
        springs.colliders.push(Collider {
            node,
            shape: c.shape,
        });
    }
    let mut tail_chains = 0u128;
    let mut lock_hints = Vec::new();
    for (ci, chain) in cfg.chains.iter_shared().enumerate() {
        let s = chain.bind();
        let label = format!("chain {ci} ('{}')", s.chain_name);
        let len = s.bones.len();
        for (what, l) in [
            ("stiffness", s.stiffness.len()),
            ("drag", s.drag.len()),
            ("gravity_power", s.gravity_power.len()),
            ("gravity_dir", s.gravity_dir.len()),
            ("hit_radius", s.hit_radius.len()),
        ] {
            if l < len {
                return Err(format!("{label}: {what} has {l} values for {len} bones"));
            }
        }
        let mut joints = Vec::with_capacity(len);
        // Lock shapes as the importer read them; arrays shorter than the
        // bones (an older scene) mean none known.
        let has_locks = [
            s.lock_axis.len(),
            s.lock_aspect.len(),
            s.lock_half_width.len(),
        ]
        .iter()
        .all(|&l| l >= len);
        for (j, bone) in s.bones.as_slice().iter().enumerate() {
            let node = index_of(&bone.to_string()).ok_or_else(|| {
                format!("{label}, joint {j}: bone '{bone}' is not in the node list")
            })?;
            if has_locks {
                let axis = vec3(s.lock_axis.as_slice()[j]);
                if axis != Vec3::ZERO {
                    lock_hints.push(LockHint {
                        node,
                        width_axis: axis,
                        aspect: s.lock_aspect.as_slice()[j],
                        half_width: s.lock_half_width.as_slice()[j],
                    });
                }
            }
            joints.push(SpringJoint {
                node,
                hit_radius: s.hit_radius.as_slice()[j],
                stiffness: s.stiffness.as_slice()[j],
                gravity_power: s.gravity_power.as_slice()[j],
                gravity_dir: vec3(s.gravity_dir.as_slice()[j]),
                drag_force: s.drag.as_slice()[j],
                limit: limit_of(&s, j, &label)?,
            });
        }
        let center = if s.center_bone.is_empty() {
            None
        } else {
            Some(index_of(&s.center_bone.to_string()).ok_or_else(|| {
                format!(
                    "{label}: centre bone '{}' is not in the node list",
                    s.center_bone
                )
            })?)
        };
        let mut group = ColliderGroup::default();
        for name in s.colliders.as_slice() {
            let k = cfg
                .colliders
                .as_slice()
                .iter()
                .position(|c| c == name)
                .ok_or_else(|| {
                    format!("{label}: collider '{name}' is not in the config's collider list")
                })?;
            group.colliders.push(k);
        }
        let groups = if group.colliders.is_empty() {
            Vec::new()
        } else {
            springs.collider_groups.push(group);
            vec![springs.collider_groups.len() - 1]
        };
        if s.tail_contact && ci < 128 {
            tail_chains |= 1 << ci;
        }
        springs.chains.push(SpringChain {
            name: (!s.chain_name.is_empty()).then(|| s.chain_name.to_string()),
            source_path: s.source_path.to_string(),
            joints,
            virtual_tail: s.virtual_tail.then(|| vec3(s.tail_offset)),
            center,
            collider_groups: groups,
            under_head: s.under_head,
            named_hair: s.named_hair,
        });
    }
    springs.locks = lock_hints;
    avatar.springs = springs;
    Ok((avatar, tail_chains))
}

/// Builds `hair`'s solver from its config and the `TressCollider3D` nodes
/// under its Skeleton3D (what `TressSpringHair` does on ready when its
/// **Spring Config** is set). Returns false, with the reason in the log,
/// when the config does not fit the scene.
pub fn configure(hair: &mut TressSpringHair, cfg: &Gd<TressSpringConfig>) -> bool {
    let Some(skel) = hair
        .base()
        .get_parent()
        .and_then(|p| p.try_cast::<Skeleton3D>().ok())
    else {
        godot_error!("TressSpringHair: add it as a child of a Skeleton3D before configuring");
        return false;
    };
    // The skeleton's colliders first; then the scene's, for colliders on
    // nodes outside the skin (the owner: the imported scene's root).
    let scene = hair.base().get_owner();
    let mut found = Vec::new();
    for root in core::iter::once(skel.clone().upcast::<GdNode>()).chain(scene.clone()) {
        for c in crate::collider::colliders_under(&root) {
            let b = c.bind();
            found.push(NodeCollider {
                name: c.get_name().to_string(),
                bone: b.bone_name.to_string(),
                shape: b.shape_in_frame(),
            });
        }
    }
    match to_avatar(&cfg.bind(), &found) {
        Ok((avatar, tail_chains)) => {
            // The lock shapes are read from the skinned meshes, which the
            // config does not hold: the importer stores them; a scene
            // imported before it did has none, and flat locks and the lock
            // twist then do nothing. Both are on by default, and a config
            // made by hand, or of hair with no ribbon-shaped lock, has none
            // either: a note, not a warning.
            let flat = hair.base_mut().get("flat_lock_stiffness").try_to::<f32>();
            let twist = hair.base_mut().get("lock_twist").try_to::<bool>();
            let asked = flat.is_ok_and(|f| f > 0.0) || twist.unwrap_or(false);
            if asked && avatar.springs.locks.is_empty() {
                godot_print!(
                    "TressSpringHair '{}': flat_lock_stiffness and lock_twist have no effect on hair built from a spring config without lock shapes (reimport the .vrm, or load it with TressAvatar)",
                    hair.base().get_name()
                );
            }
            hair.set_node_frames(node_frames(&avatar, &skel, scene.as_ref()));
            hair.set_tail_chains(tail_chains);
            hair.configure_from_avatar(avatar)
        }
        Err(e) => {
            godot_error!(
                "TressSpringHair '{}': its spring config does not fit the scene: {e}",
                hair.base().get_name()
            );
            false
        }
    }
}

/// The nodes of `avatar` that are not bones of `skel` but Node3D nodes of
/// `scene` by name (first match), for `TressSpringHair::set_node_frames`.
#[must_use]
pub fn node_frames(
    avatar: &Avatar,
    skel: &Gd<Skeleton3D>,
    scene: Option<&Gd<GdNode>>,
) -> Vec<(usize, Gd<Node3D>)> {
    let Some(scene) = scene else {
        return Vec::new();
    };
    let mut by_name = alloc::collections::BTreeMap::new();
    for n in scene
        .find_children_ex("*")
        .type_("Node3D")
        .recursive(true)
        .owned(false)
        .done()
        .iter_shared()
    {
        if let Ok(n) = n.try_cast::<Node3D>() {
            by_name.entry(n.get_name().to_string()).or_insert(n);
        }
    }
    avatar
        .nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| skel.find_bone(n.name.as_str()) < 0)
        .filter_map(|(i, n)| by_name.get(&n.name).map(|node| (i, node.clone())))
        .collect()
}
