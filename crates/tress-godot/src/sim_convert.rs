//! Godot's own `SpringBoneSimulator3D` set-up turned into a
//! `TressSpringHair`: [`convert`] reads each setting (chain) and each
//! `SpringBoneCollision3D` child and builds the hand-made equivalent, one
//! `TressSpringChain` per setting and one `TressCollider3D` per collision.
//!
//! The simulator exists from Godot 4.4 on and the extension is built
//! against the 4.3 API, so its properties are read by name
//! (`settings/{i}/...`, as the simulator stores them in a scene). How each
//! one maps, and what cannot map exactly, is in docs/GODOT.md
//! ("From a SpringBoneSimulator3D").

use godot::classes::{Curve, Node, Node3D, Skeleton3D};
use godot::prelude::*;

use crate::collider::TressCollider3D;
use crate::spring_config::TressSpringChain;
use crate::spring_hair::TressSpringHair;

/// Godot's `ROTATION_AXIS_ALL`: the joint turns freely (the only kind Tress
/// simulates).
const ROTATION_AXIS_ALL: i64 = 3;
/// Godot's `CENTER_FROM_NODE` and `CENTER_FROM_BONE`.
const CENTER_FROM_NODE: i64 = 1;
const CENTER_FROM_BONE: i64 = 2;

/// A property of `obj` read by name, or `default` when it is missing or of
/// another type (an older or newer simulator).
fn prop<T: FromGodot>(obj: &Gd<Node>, path: &str, default: T) -> T {
    obj.get(path).try_to::<T>().unwrap_or(default)
}

/// The hair equivalent to `sim`, not yet in the tree (add it under the same
/// Skeleton3D and switch the simulator off), or `None` with the reason in
/// the log. Chains that cannot be used are left out, each with an error.
pub fn convert(sim: &Gd<Node>) -> Option<Gd<TressSpringHair>> {
    let who = format!(
        "TressSpringHair.from_spring_bone_simulator('{}')",
        sim.get_name()
    );
    if !sim.is_class("SpringBoneSimulator3D") {
        godot_error!(
            "{who}: a {} is not a SpringBoneSimulator3D (Godot 4.4 or newer)",
            sim.get_class()
        );
        return None;
    }
    let Some(skel) = sim
        .get_parent()
        .and_then(|p| p.try_cast::<Skeleton3D>().ok())
    else {
        godot_error!("{who}: the simulator is not a child of a Skeleton3D");
        return None;
    };
    let count = prop(sim, "setting_count", 0i64);
    if count <= 0 {
        godot_error!(
            "{who}: the simulator has no settings (setting_count {count}): nothing to convert"
        );
        return None;
    }
    let (colliders, renamed) = colliders(sim, &skel, &who);
    if prop(sim, "external_force", Vector3::ZERO) != Vector3::ZERO {
        godot_warn!("{who}: external_force is not converted (TressSpringHair has no such force)");
    }
    let mut chains: Array<Gd<TressSpringChain>> = Array::new();
    for i in 0..count {
        match chain(sim, &skel, i, &who, &renamed) {
            Ok(c) => chains.push(&c),
            Err(e) => godot_error!("{who}: setting {i}: {e}; left out"),
        }
    }
    if chains.is_empty() {
        godot_error!("{who}: none of its {count} settings could be used");
        // Never in the tree: nothing else would free them.
        for c in colliders {
            c.free();
        }
        return None;
    }
    let mut hair = TressSpringHair::new_alloc();
    hair.set_name("TressSpringHair");
    if let Ok(n) = sim.clone().try_cast::<Node3D>() {
        hair.set_transform(n.get_transform());
    }
    for c in colliders {
        hair.add_child(&c);
    }
    hair.bind_mut().set_chains(chains);
    Some(hair)
}

/// Collision node name → the name its TressCollider3D got.
type Renamed = Vec<(String, String)>;

/// One `TressCollider3D` per `SpringBoneCollision3D` child of `sim`, named
/// like it (with a number added when a TressCollider3D under the skeleton
/// has that name already: chains find theirs by name): following the same
/// bone with the same offset, or, without a bone, placed where it is
/// relative to the simulator.
fn colliders(
    sim: &Gd<Node>,
    skel: &Gd<Skeleton3D>,
    who: &str,
) -> (Vec<Gd<TressCollider3D>>, Renamed) {
    let mut taken: Vec<String> = crate::collider::colliders_under(&skel.clone().upcast())
        .iter()
        .map(|n| n.get_name().to_string())
        .collect();
    let mut renamed = Vec::new();
    let mut out = Vec::new();
    for child in sim.get_children().iter_shared() {
        if !child.is_class("SpringBoneCollision3D") {
            continue;
        }
        let name = child.get_name();
        let shape = if child.is_class("SpringBoneCollisionSphere3D") {
            if prop(&child, "inside", false) { 3 } else { 0 }
        } else if child.is_class("SpringBoneCollisionCapsule3D") {
            if prop(&child, "inside", false) { 4 } else { 1 }
        } else if child.is_class("SpringBoneCollisionPlane3D") {
            2
        } else {
            godot_warn!(
                "{who}: collision '{name}' is a {}, which has no Tress shape; left out",
                child.get_class()
            );
            continue;
        };
        let radius = prop(&child, "radius", 0.0f32);
        // Godot's capsule height runs over the caps; Tress's between their
        // centres.
        let height = (prop(&child, "height", 0.0f32) - 2.0 * radius).max(0.0);
        // A String in some Godot versions, a StringName in others.
        let v = child.get("bone_name");
        let bone = v
            .try_to::<GString>()
            .or_else(|_| v.try_to::<StringName>().map(|s| GString::from(&s)))
            .unwrap_or_default();
        let mut unique = name.to_string();
        let mut k = 2;
        while taken.contains(&unique) {
            unique = format!("{name}_{k}");
            k += 1;
        }
        if unique != name.to_string() {
            godot_warn!(
                "{who}: collision '{name}' becomes TressCollider3D '{unique}': the skeleton has a '{name}' already"
            );
        }
        taken.push(unique.clone());
        renamed.push((name.to_string(), unique.clone()));
        let mut c = TressCollider3D::new_alloc();
        c.set_name(unique.as_str());
        {
            let mut b = c.bind_mut();
            b.shape = shape;
            b.radius = radius;
            b.height = height;
        }
        if !bone.is_empty() && skel.find_bone(&bone) >= 0 {
            // The offset Godot applies after the bone's pose.
            let rot = prop(&child, "rotation_offset", Quaternion::IDENTITY);
            let pos = prop(&child, "position_offset", Vector3::ZERO);
            c.set_transform(Transform3D::new(Basis::from_quaternion(rot), pos));
            c.bind_mut().bone_name = bone;
        } else {
            if !bone.is_empty() {
                godot_warn!(
                    "{who}: collision '{name}': bone '{bone}' is not in {}; it follows its own transform",
                    skel.get_name()
                );
            }
            if let Ok(n) = child.clone().try_cast::<Node3D>() {
                c.set_transform(n.get_transform());
            }
        }
        out.push(c);
    }
    (out, renamed)
}

/// Bone indices from `root` down to `end`, or why not.
fn bone_path(skel: &Gd<Skeleton3D>, root: &GString, end: &GString) -> Result<Vec<i32>, String> {
    let sname = skel.get_name();
    let find = |name: &GString, what: &str| {
        if name.is_empty() {
            return Err(format!("no {what} bone"));
        }
        let b = skel.find_bone(name);
        if b < 0 {
            Err(format!("{what} bone '{name}' is not in {sname}"))
        } else {
            Ok(b)
        }
    };
    let (r, e) = (find(root, "root")?, find(end, "end")?);
    let mut path = vec![e];
    let mut cur = e;
    while cur != r {
        cur = skel.get_bone_parent(cur);
        if cur < 0 {
            return Err(format!("end bone '{end}' is not under root bone '{root}'"));
        }
        path.push(cur);
    }
    path.reverse();
    Ok(path)
}

/// Setting `i` of `sim` as a hand-made chain resource.
fn chain(
    sim: &Gd<Node>,
    skel: &Gd<Skeleton3D>,
    i: i64,
    who: &str,
    renamed: &Renamed,
) -> Result<Gd<TressSpringChain>, String> {
    let at = |what: &str| format!("settings/{i}/{what}");
    let root: GString = prop(sim, &at("root_bone_name"), GString::new());
    let end: GString = prop(sim, &at("end_bone_name"), GString::new());
    let path = bone_path(skel, &root, &end)?;
    let n = path.len();
    let extend = prop(sim, &at("extend_end_bone"), false);
    let length = prop(sim, &at("end_bone/length"), 0.0f32);
    if n < 2 && !(extend && length > 0.0) {
        return Err(format!(
            "root and end are the same bone '{root}' and the end bone is not extended: nothing swings"
        ));
    }
    let mut res = TressSpringChain::new_gd();
    {
        let mut c = res.bind_mut();
        c.chain_name = format!("{root}…{end}").as_str().into();
        c.source_path = format!("{}:settings/{i}", sim.get_name()).as_str().into();
        c.root_bone = root.clone();
        c.end_bone = end.clone();
        // Godot simulates the end bone only with a length.
        c.virtual_tail = extend && length > 0.0;
        c.tail_direction = prop(sim, &at("end_bone/direction"), 6i32).clamp(0, 6) + 1;
        c.tail_length = length;
        // Godot's colliders push the tail points only.
        c.tail_contact = true;
        let individual = prop(sim, &at("individual_config"), false);
        let joint_count = usize::try_from(prop(sim, &at("joint_count"), 0i64)).unwrap_or(0);
        let mut axis_locked = false;
        if individual && joint_count == n {
            for j in 0..n {
                let jp = |w: &str| at(&format!("joints/{j}/{w}"));
                c.stiffness.push(prop(sim, &jp("stiffness"), 0.0f32));
                c.drag.push(prop(sim, &jp("drag"), 0.0f32));
                c.gravity_power.push(prop(sim, &jp("gravity"), 0.0f32));
                c.gravity_dir
                    .push(prop(sim, &jp("gravity_direction"), Vector3::DOWN));
                c.hit_radius.push(prop(sim, &jp("radius"), 0.0f32));
                axis_locked |=
                    prop(sim, &jp("rotation_axis"), ROTATION_AXIS_ALL) != ROTATION_AXIS_ALL;
            }
        } else {
            if individual {
                godot_warn!(
                    "{who}: setting {i}: individual_config with {joint_count} joints for {n} bones; using the chain's values"
                );
            }
            // Sampled per joint as Godot samples them: joint j at j / (n - 1).
            let curve = |w: &str| -> Option<Gd<Curve>> {
                sim.get(at(&format!("{w}/damping_curve")).as_str())
                    .try_to::<Gd<Curve>>()
                    .ok()
            };
            let sampled = |w: &str| -> PackedFloat32Array {
                let value = prop(sim, &at(&format!("{w}/value")), 0.0f32);
                let curve = curve(w);
                (0..n)
                    .map(|j| {
                        let t = if n > 1 {
                            j as f32 / (n - 1) as f32
                        } else {
                            0.0
                        };
                        curve
                            .as_ref()
                            .map_or(value, |cv| value * cv.sample_baked(t))
                    })
                    .collect()
            };
            c.stiffness = sampled("stiffness");
            c.drag = sampled("drag");
            c.gravity_power = sampled("gravity");
            c.hit_radius = sampled("radius");
            c.gravity_dir
                .push(prop(sim, &at("gravity/direction"), Vector3::DOWN));
            axis_locked = prop(sim, &at("rotation_axis"), ROTATION_AXIS_ALL) != ROTATION_AXIS_ALL;
        }
        if axis_locked {
            godot_warn!(
                "{who}: setting {i}: rotation_axis locks are not converted; the chain turns freely"
            );
        }
        match prop(sim, &at("center_from"), 0i64) {
            CENTER_FROM_BONE => c.center_bone = prop(sim, &at("center_bone_name"), GString::new()),
            CENTER_FROM_NODE => godot_warn!(
                "{who}: setting {i}: center_from Node is not converted; the chain runs in world space"
            ),
            _ => {}
        }
        c.all_colliders = prop(sim, &at("enable_all_child_collisions"), true);
        let (list, count) = if c.all_colliders {
            ("exclude_collisions", "exclude_collision_count")
        } else {
            ("collisions", "collision_count")
        };
        let mut names = PackedStringArray::new();
        for k in 0..prop(sim, &at(count), 0i64) {
            let p: NodePath = prop(sim, &at(&format!("{list}/{k}")), NodePath::default());
            match sim.get_node_or_null(&p) {
                Some(node) if node.is_class("SpringBoneCollision3D") => {
                    // A collision of a kind Tress lacks was left out above.
                    let own = node.get_name().to_string();
                    if let Some((_, to)) = renamed.iter().find(|(from, _)| *from == own) {
                        names.push(to.as_str());
                    }
                }
                _ if p.is_empty() => {}
                _ => godot_warn!(
                    "{who}: setting {i}: {list}/{k} '{p}' is not a collision of the simulator; left out"
                ),
            }
        }
        if c.all_colliders {
            c.exclude_colliders = names;
        } else {
            c.colliders = names;
        }
    }
    Ok(res)
}
