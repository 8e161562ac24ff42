//! The scene an imported `.vrm` becomes: the model as Godot's GLTFDocument
//! builds it, VRM 0.x turned to +Z, and the avatar's springs, colliders and
//! node constraints stored as nodes and resources, so the scene runs with
//! no file to read (an exported game leaves the `.vrm` out).
//!
//! Under the Skeleton3D: `TressNodeConstraints` (first, when the file has
//! constraints on bones), one `BoneAttachment3D` per collider bone holding
//! its `TressCollider3D` nodes (so the editor shows them on the body; they
//! follow their bone through **Bone Name**), and `TressSpringHair` with a
//! `TressSpringConfig`. [`build`] is called by the editor's importer
//! (`editor_import`); it needs no editor class itself.

use godot::classes::{BoneAttachment3D, Node, Node3D, Skeleton3D};
use godot::prelude::*;
use tress_core::math::{Quat, Vec3};
use tress_vrm::ColliderShape;

use crate::collider::TressCollider3D;
use crate::constraints::TressNodeConstraints;
use crate::convert::{quaternion, vector3};
use crate::spring_config::{self, TressSpringConfig};
use crate::spring_hair::TressSpringHair;
use crate::{files, model_scene};

/// What the importer's options ask for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportOptions {
    /// Add the spring hair (and colliders).
    pub spring_hair: bool,
    /// `TressSpringHair.solver_mode`: 0 improved, 1 earlier, 2 VRM-compatible.
    pub hair_mode: i32,
    /// Fit the colliders to the body first, as `TressAvatar.fit_colliders`.
    pub fit_colliders: bool,
    /// Mesh instances (or meshes) to import hidden, by name.
    pub hidden_meshes: Vec<String>,
}

impl Default for ImportOptions {
    fn default() -> Self {
        Self {
            spring_hair: true,
            hair_mode: 0,
            fit_colliders: true,
            hidden_meshes: Vec::new(),
        }
    }
}

/// The imported scene of `file`, or why not in words.
///
/// # Errors
/// When the file cannot be read, is not a glTF/VRM Godot can build, or its
/// VRM data cannot be read (an imported `.vrm` without its springs would
/// silently lose the hair).
pub fn build(file: &str, opts: &ImportOptions) -> Result<Gd<Node3D>, String> {
    let bytes = files::read(file)?;
    let model = model_scene::generate(file, &bytes)?;
    let vrm = tress_vrm::load_bytes_with(bytes.as_slice(), |rel| files::read_beside(file, rel))
        .map_err(|e| format!("its VRM data cannot be used: {e}"));
    let vrm = match vrm {
        Ok(v) => v,
        Err(e) => {
            model.free();
            return Err(e);
        }
    };
    for w in &vrm.warnings {
        godot_warn!("Tress import: {file}: {w}");
    }
    // The model goes under a plain root: Godot's scene importer may replace
    // the root node (its root type option) and the VRM 0.x turn must stay.
    let mut root = Node3D::new_alloc();
    let stem = std::path::Path::new(file)
        .file_stem()
        .map_or_else(|| "Avatar".to_owned(), |s| s.to_string_lossy().into_owned());
    root.set_name(stem.as_str());
    model_scene::face_plus_z(&model, vrm.format);
    root.add_child(&model);
    let skeleton = model_scene::find_skeleton(&model);
    match skeleton {
        Some(mut skel) => {
            let rest = add_hair(&mut skel, &model, &vrm, opts);
            add_constraints(&mut skel, &vrm, rest, file);
        }
        None if !vrm.springs.chains.is_empty() || !vrm.constraints.is_empty() => {
            godot_warn!(
                "Tress import: '{file}' has no skeleton; no spring hair or node constraints"
            )
        }
        None => {}
    }
    hide_meshes(&model, &opts.hidden_meshes, file);
    let owner = root.clone().upcast::<Node>();
    own_all(&owner, &owner);
    Ok(root)
}

/// Adds the colliders and the configured `TressSpringHair`; returns the
/// config (its node list also serves the node constraints).
fn add_hair(
    skel: &mut Gd<Skeleton3D>,
    model: &Gd<Node>,
    vrm: &tress_vrm::Avatar,
    opts: &ImportOptions,
) -> Gd<TressSpringConfig> {
    let (avatar, tail_chains) = if opts.spring_hair && opts.fit_colliders {
        let (fitted, fit) = tress_rig::fit_colliders::fitted(
            vrm,
            &tress_rig::fit_colliders::ColliderFitOptions::default(),
        );
        godot_print!(
            "Tress import: collider fit: {} grown, {} added, {} linked",
            fit.grown.len(),
            fit.added.len(),
            fit.linked.len()
        );
        (fitted, fit.tail_chains())
    } else {
        (vrm.clone(), 0)
    };
    let names = spring_config::collider_names(&avatar);
    let cfg = spring_config::from_avatar(&avatar, tail_chains, &names);
    if !opts.spring_hair || avatar.springs.chains.is_empty() {
        return cfg;
    }
    let mut holders: Vec<(usize, Gd<Node3D>)> = Vec::new();
    for (c, name) in avatar.springs.colliders.iter().zip(&names) {
        let bone = avatar.nodes[c.node].name.as_str();
        let holder = match holders.iter().find(|(n, _)| *n == c.node) {
            Some((_, h)) => h.clone(),
            None if skel.find_bone(bone) >= 0 => {
                let mut a = BoneAttachment3D::new_alloc();
                a.set_name(&format!("TressColliders_{bone}"));
                a.set_bone_name(bone);
                skel.add_child(&a);
                holders.push((c.node, a.clone().upcast()));
                a.upcast()
            }
            // A node outside the skin (a plain Node3D): the collider goes
            // under it and the hair follows that node.
            None => match model
                .find_child_ex(bone)
                .recursive(true)
                .owned(false)
                .done()
                .and_then(|n| n.try_cast::<Node3D>().ok())
            {
                Some(n) => {
                    holders.push((c.node, n.clone()));
                    n
                }
                None => {
                    godot_warn!(
                        "Tress import: collider '{name}' follows '{bone}', which is neither a bone nor a node of the scene; left out"
                    );
                    continue;
                }
            },
        };
        let mut holder = holder;
        holder.add_child(&collider_node(name, bone, &c.shape));
    }
    let mut hair = TressSpringHair::new_alloc();
    hair.set_name("TressSpringHair");
    hair.set("solver_mode", &opts.hair_mode.clamp(0, 2).to_variant());
    hair.set("spring_config", &cfg.to_variant());
    skel.add_child(&hair);
    cfg
}

/// A `TressCollider3D` for a VRM collider shape: it follows `bone`, with the
/// shape's offset (and, for capsules and planes, its axis) as its transform.
fn collider_node(name: &str, bone: &str, shape: &ColliderShape) -> Gd<TressCollider3D> {
    // A capsule node sits at the capsule's middle with local +Y along it.
    let capsule = |kind, offset: Vec3, tail: Vec3, radius| {
        let axis = tail - offset;
        (
            kind,
            radius,
            axis.length(),
            (offset + tail) * 0.5,
            Some(axis),
        )
    };
    let (kind, radius, height, at, axis) = match *shape {
        ColliderShape::Sphere { offset, radius } => (0, radius, 0.0, offset, None),
        ColliderShape::InsideSphere { offset, radius } => (3, radius, 0.0, offset, None),
        ColliderShape::Capsule {
            offset,
            tail,
            radius,
        } => capsule(1, offset, tail, radius),
        ColliderShape::InsideCapsule {
            offset,
            tail,
            radius,
        } => capsule(4, offset, tail, radius),
        ColliderShape::Plane { offset, normal } => (2, 0.0, 0.0, offset, Some(normal)),
    };
    let mut node = TressCollider3D::new_alloc();
    node.set_name(name);
    {
        let mut b = node.bind_mut();
        b.shape = kind;
        b.radius = radius;
        b.height = height;
        b.bone_name = bone.into();
    }
    // Spheres keep an identity basis, so their centre comes back bit for
    // bit; capsules and planes turn local +Y onto their axis.
    node.set_position(vector3(at));
    if let Some(axis) = axis {
        let rot = Quat::from_rotation_arc(Vec3::Y, axis.normalize_or(Vec3::Y));
        node.set_quaternion(quaternion(rot));
    }
    node
}

fn add_constraints(
    skel: &mut Gd<Skeleton3D>,
    vrm: &tress_vrm::Avatar,
    rest: Gd<TressSpringConfig>,
    file: &str,
) {
    if vrm.constraints.is_empty() {
        return;
    }
    let bones = vrm
        .constraints
        .iter()
        .flat_map(|c| [c.source, c.destination])
        .any(|n| {
            vrm.nodes
                .get(n)
                .is_some_and(|x| skel.find_bone(x.name.as_str()) >= 0)
        });
    if !bones {
        godot_warn!(
            "Tress import: '{file}': its node constraints touch no bone; they are left out (load it with TressAvatar to apply them)"
        );
        return;
    }
    let mut node = TressNodeConstraints::new_alloc();
    node.set_name("TressNodeConstraints");
    node.bind_mut().store(rest, vrm, &vrm.constraints);
    skel.add_child(&node);
    // Modifiers run in child order: before the hair.
    skel.move_child(&node, 0);
}

/// Hides the mesh instances named in `names` (node or mesh name).
fn hide_meshes(model: &Gd<Node>, names: &[String], file: &str) {
    if names.is_empty() {
        return;
    }
    let mut matched = vec![false; names.len()];
    let mut seen = Vec::new();
    for node in model
        .find_children_ex("*")
        .recursive(true)
        .owned(false)
        .done()
        .iter_shared()
    {
        // GLTFDocument makes ImporterMeshInstance3D nodes for the importer
        // and MeshInstance3D ones at run time; both carry a `mesh`.
        if !(node.is_class("MeshInstance3D") || node.is_class("ImporterMeshInstance3D")) {
            continue;
        }
        let Ok(mut n3) = node.try_cast::<Node3D>() else {
            continue;
        };
        let node_name = n3.get_name().to_string();
        let mesh_name = n3
            .get("mesh")
            .try_to::<Gd<godot::classes::Resource>>()
            .map(|r| r.get_name().to_string())
            .unwrap_or_default();
        for (i, w) in names.iter().enumerate() {
            if *w == node_name || (!mesh_name.is_empty() && *w == mesh_name) {
                matched[i] = true;
                n3.set_visible(false);
            }
        }
        seen.push(node_name);
    }
    for (w, ok) in names.iter().zip(matched) {
        if !ok {
            godot_warn!(
                "Tress import: '{file}': no mesh named '{w}' to hide; meshes: {}",
                seen.join(", ")
            );
        }
    }
}

/// Makes `owner` the owner of every node below `node`, so the scene saves them.
fn own_all(node: &Gd<Node>, owner: &Gd<Node>) {
    for mut child in node.get_children().iter_shared() {
        child.set_owner(owner);
        own_all(&child, owner);
    }
}
