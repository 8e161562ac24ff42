//! Core glTF 2.0: nodes, scenes, materials, meshes, skins, animations.

use glam::{Mat4, Quat, Vec3, Vec4};

use super::buffers::Data;
use super::ctx::Ctx;
use crate::error::{ErrorKind, Result};
use crate::json::J;
use crate::model::{Animation, Channel, ChannelValues, Interpolation, Mesh, Node, Primitive, Skin};

pub(crate) fn nodes(root: &J<'_>) -> Result<Vec<Node>> {
    let list = root.list("nodes")?;
    let n = list.len();
    let mut nodes = Vec::with_capacity(n);
    for j in &list {
        let name = j.opt_str("name")?.unwrap_or_default();
        let mut children = Vec::new();
        for c in j.list("children")? {
            children.push(c.index(n, "node")?);
        }
        let (mut translation, mut rotation, mut scale) = (Vec3::ZERO, Quat::IDENTITY, Vec3::ONE);
        if let Some(m) = j.get("matrix")? {
            let a = m.floats::<16>()?;
            let (s, r, t) = tress_core::math::affine::decompose(&Mat4::from_cols_array(&a));
            if !(s.is_finite() && r.is_finite() && t.is_finite()) {
                return Err(m.err(ErrorKind::Invalid, "matrix does not decompose into TRS"));
            }
            (translation, rotation, scale) = (t, r, s);
        }
        if let Some(t) = j.get("translation")? {
            translation = t.vec3()?;
        }
        if let Some(r) = j.get("rotation")? {
            let q = r.quat()?;
            let len2 = tress_core::math::quat::length_squared(q);
            if len2 < 1e-12 {
                return Err(r.err(ErrorKind::Invalid, "rotation quaternion has zero length"));
            }
            rotation = q * (1.0 / tress_core::math::ops::sqrt(len2));
        }
        if let Some(s) = j.get("scale")? {
            scale = s.vec3()?;
        }
        let mesh = j.get("mesh")?.map(|m| m.usize()).transpose()?;
        let skin = j.get("skin")?.map(|m| m.usize()).transpose()?;
        nodes.push(Node {
            name,
            parent: None,
            children,
            translation,
            rotation,
            scale,
            mesh,
            skin,
        });
    }
    // Parents: each node has at most one, and never itself.
    for (i, j) in list.iter().enumerate() {
        for (k, c) in j.list("children")?.into_iter().enumerate() {
            let child = nodes[i].children[k];
            let path = format!("{}.children[{k}]", j.path);
            if child == i {
                return Err(J::at(c.v, path).err(
                    ErrorKind::Cycle,
                    format!("node {i} lists itself as a child"),
                ));
            }
            if let Some(p) = nodes[child].parent {
                return Err(J::at(c.v, path).err(
                    ErrorKind::Cycle,
                    format!("node {child} already has parent {p}; a node may have only one parent"),
                ));
            }
            nodes[child].parent = Some(i);
        }
    }
    // With single parents, a node that no root reaches sits on a cycle.
    let mut reached = vec![false; n];
    let mut stack: Vec<usize> = (0..n).filter(|&i| nodes[i].parent.is_none()).collect();
    while let Some(i) = stack.pop() {
        reached[i] = true;
        stack.extend(nodes[i].children.iter().copied());
    }
    if let Some(i) = reached.iter().position(|r| !r) {
        let p = nodes[i].parent.unwrap_or(i);
        let k = nodes[p].children.iter().position(|&c| c == i).unwrap_or(0);
        return Err(crate::Error::new(
            ErrorKind::Cycle,
            format!("nodes[{p}].children[{k}]"),
            format!("node {i} is on a parent cycle"),
        ));
    }
    Ok(nodes)
}

pub(crate) fn check_node_refs(
    root: &J<'_>,
    nodes: &[Node],
    meshes: usize,
    skins: usize,
) -> Result<()> {
    let list = root.list("nodes")?;
    for (i, j) in list.iter().enumerate() {
        if let Some(m) = j.get("mesh")? {
            m.index(meshes, "mesh")?;
        }
        if let Some(s) = j.get("skin")? {
            s.index(skins, "skin")?;
        }
        let _ = &nodes[i];
    }
    Ok(())
}

/// Every joint index a skinned primitive uses is below its skin's joint
/// count. A node joins a mesh to a skin, so the check runs per node; an
/// index out of range with weight 0 moves nothing and is only a warning.
pub(crate) fn check_joint_ranges(
    root: &J<'_>,
    nodes: &[Node],
    meshes: &[Mesh],
    skins: &[Skin],
    ctx: &mut Ctx,
) -> Result<()> {
    let mesh_list = root.list("meshes")?;
    for (ni, node) in nodes.iter().enumerate() {
        let (Some(mi), Some(si)) = (node.mesh, node.skin) else {
            continue;
        };
        let (Some(mesh), Some(skin), Some(mj)) = (meshes.get(mi), skins.get(si), mesh_list.get(mi))
        else {
            continue;
        };
        let count = skin.joints.len();
        for (prim, pj) in mesh.primitives.iter().zip(mj.req("primitives")?.items()?) {
            let Some(attr) = pj.req("attributes")?.get("JOINTS_0")? else {
                continue;
            };
            let bad = prim.joints.iter().enumerate().find_map(|(e, js)| {
                js.iter()
                    .position(|&j| usize::from(j) >= count)
                    .map(|c| (e, c, js[c]))
            });
            let Some((e, c, j)) = bad else {
                continue;
            };
            let weight = prim.weights.get(e).map_or(1.0, |w| w.to_array()[c]);
            let acc = attr.usize().unwrap_or(usize::MAX);
            let msg = format!(
                "accessors[{acc}] element {e} component {c} is joint {j}, but skins[{si}] (used with meshes[{mi}] by nodes[{ni}]) has {count} joints"
            );
            if weight == 0.0 {
                ctx.warn(
                    &attr.path,
                    &format!("{msg}; its weight is 0, so it moves nothing"),
                );
            } else {
                return Err(attr.err(ErrorKind::Index, msg));
            }
        }
    }
    Ok(())
}

pub(crate) fn roots(root: &J<'_>, nodes: &[Node]) -> Result<Vec<usize>> {
    let scenes = root.list("scenes")?;
    let scene = match root.get("scene")? {
        Some(s) => Some(s.index(scenes.len(), "scene")?),
        None if !scenes.is_empty() => Some(0),
        None => None,
    };
    match scene {
        Some(s) => {
            let mut out = Vec::new();
            for r in scenes[s].list("nodes")? {
                out.push(r.index(nodes.len(), "node")?);
            }
            Ok(out)
        }
        None => Ok((0..nodes.len())
            .filter(|&i| nodes[i].parent.is_none())
            .collect()),
    }
}

pub(crate) fn materials(root: &J<'_>) -> Result<Vec<Option<String>>> {
    root.list("materials")?
        .iter()
        .map(|m| m.opt_str("name"))
        .collect()
}

fn vec3s(f: &[f32]) -> Vec<Vec3> {
    f.chunks_exact(3)
        .map(|c| Vec3::new(c[0], c[1], c[2]))
        .collect()
}

pub(crate) fn meshes(
    root: &J<'_>,
    data: &Data<'_>,
    materials: &[Option<String>],
    ctx: &mut Ctx,
) -> Result<Vec<Mesh>> {
    let mut out = Vec::new();
    for m in root.list("meshes")? {
        let mut mesh = Mesh {
            name: m.opt_str("name")?.unwrap_or_default(),
            primitives: Vec::new(),
        };
        for p in m.req("primitives")?.items()? {
            let attrs = p.req("attributes")?;
            attrs.obj()?;
            let mut prim = Primitive {
                mode: 4,
                ..Primitive::default()
            };
            if let Some(a) = attrs.get("POSITION")? {
                prim.positions = vec3s(&data.finite_floats(&a, &[3])?.0);
            }
            if let Some(a) = attrs.get("NORMAL")? {
                // Nothing Tress computes reads normals: bad ones are dropped, not fatal.
                let (n, _) = data.floats(&a, &[3])?;
                match Data::first_non_finite(&a, &n, 3) {
                    Some(msg) => ctx.warn(&a.path, &format!("{msg}; normals dropped")),
                    None => prim.normals = vec3s(&n),
                }
            }
            if let Some(a) = attrs.get("JOINTS_0")? {
                let (v, _) = data.uints(&a, &[4])?;
                prim.joints = v
                    .chunks_exact(4)
                    .map(|c| [c[0], c[1], c[2], c[3]].map(|x| u16::try_from(x).unwrap_or(u16::MAX)))
                    .collect();
            }
            if let Some(a) = attrs.get("WEIGHTS_0")? {
                let (v, _) = data.finite_floats(&a, &[4])?;
                prim.weights = v
                    .chunks_exact(4)
                    .map(|c| Vec4::new(c[0], c[1], c[2], c[3]))
                    .collect();
            }
            for (name, len) in [
                ("NORMAL", prim.normals.len()),
                ("JOINTS_0", prim.joints.len()),
                ("WEIGHTS_0", prim.weights.len()),
            ] {
                if len != 0 && len != prim.positions.len() {
                    return Err(attrs.err(
                        ErrorKind::Invalid,
                        format!(
                            "{name} has {len} elements but POSITION has {}",
                            prim.positions.len()
                        ),
                    ));
                }
            }
            if let Some(i) = p.get("indices")? {
                let (v, _) = data.uints(&i, &[1])?;
                let nv = prim.positions.len();
                if let Some(bad) = v.iter().position(|&x| x as usize >= nv) {
                    return Err(i.err(
                        ErrorKind::Index,
                        format!(
                            "index {bad} is vertex {} but there are {nv} vertices",
                            v[bad]
                        ),
                    ));
                }
                prim.indices = v;
            }
            if let Some(mode) = p.get("mode")? {
                prim.mode = u32::try_from(mode.usize()?).unwrap_or(u32::MAX);
                if prim.mode > 6 {
                    return Err(mode.err(
                        ErrorKind::Invalid,
                        format!("mode {} is not a glTF primitive mode", prim.mode),
                    ));
                }
            }
            if let Some(mat) = p.get("material")? {
                let i = mat.index(materials.len(), "material")?;
                prim.material = Some(i);
                prim.material_name.clone_from(&materials[i]);
            }
            if p.get("targets")?.is_some() {
                ctx.note_once("morph targets", &p.path, "morph targets are not loaded");
            }
            mesh.primitives.push(prim);
        }
        out.push(mesh);
    }
    Ok(out)
}

pub(crate) fn skins(root: &J<'_>, data: &Data<'_>, node_count: usize) -> Result<Vec<Skin>> {
    let mut out = Vec::new();
    for s in root.list("skins")? {
        let mut joints = Vec::new();
        for j in s.req("joints")?.items()? {
            joints.push(j.index(node_count, "node")?);
        }
        let inverse_binds = match s.get("inverseBindMatrices")? {
            Some(a) => {
                let (f, _) = data.finite_floats(&a, &[16])?;
                let m: Vec<Mat4> = f.chunks_exact(16).map(Mat4::from_cols_slice).collect();
                if m.len() < joints.len() {
                    return Err(a.err(
                        ErrorKind::Invalid,
                        format!(
                            "{} inverse bind matrices for {} joints",
                            m.len(),
                            joints.len()
                        ),
                    ));
                }
                m
            }
            None => vec![Mat4::IDENTITY; joints.len()],
        };
        let skeleton = s
            .get("skeleton")?
            .map(|j| j.index(node_count, "node"))
            .transpose()?;
        out.push(Skin {
            name: s.opt_str("name")?.unwrap_or_default(),
            joints,
            inverse_binds,
            skeleton,
        });
    }
    Ok(out)
}

/// The name an animation without one goes by: `clip0`, `clip1`, … by its
/// index among the file's animations, so every command can name it.
#[must_use]
pub fn unnamed_clip(index: usize) -> String {
    format!("clip{index}")
}

pub(crate) fn animations(
    root: &J<'_>,
    data: &Data<'_>,
    node_count: usize,
    ctx: &mut Ctx,
) -> Result<Vec<Animation>> {
    let mut out = Vec::new();
    for (ai, a) in root.list("animations")?.into_iter().enumerate() {
        let samplers = a.req("samplers")?;
        let samplers: Vec<J<'_>> = samplers.items()?.collect();
        let mut anim = Animation {
            name: a
                .opt_str("name")?
                .filter(|n| !n.is_empty())
                .unwrap_or_else(|| unnamed_clip(ai)),
            ..Animation::default()
        };
        for ch in a.req("channels")?.items()? {
            let si = ch.req("sampler")?.index(samplers.len(), "sampler")?;
            let target = ch.req("target")?;
            let Some(node_j) = target.get("node")? else {
                ctx.warn(&target.path, "channel has no target node; skipped");
                continue;
            };
            let node = node_j.index(node_count, "node")?;
            let path_j = target.req("path")?;
            let sampler = &samplers[si];
            let interpolation = match sampler.get("interpolation")? {
                None => Interpolation::Linear,
                Some(i) => match i.str()? {
                    "LINEAR" => Interpolation::Linear,
                    "STEP" => Interpolation::Step,
                    "CUBICSPLINE" => Interpolation::CubicSpline,
                    other => {
                        return Err(i.err(
                            ErrorKind::Invalid,
                            format!("unknown interpolation `{other}`"),
                        ));
                    }
                },
            };
            let (times, _) = data.finite_floats(&sampler.req("input")?, &[1])?;
            let out_j = sampler.req("output")?;
            let per_key = if interpolation == Interpolation::CubicSpline {
                3
            } else {
                1
            };
            let values = match path_j.str()? {
                "translation" | "scale" => {
                    let v = vec3s(&data.finite_floats(&out_j, &[3])?.0);
                    if path_j.str()? == "scale" {
                        ChannelValues::Scale(v)
                    } else {
                        ChannelValues::Translation(v)
                    }
                }
                "rotation" => {
                    let (f, _) = data.finite_floats(&out_j, &[4])?;
                    ChannelValues::Rotation(
                        f.chunks_exact(4)
                            .map(|c| Quat::from_xyzw(c[0], c[1], c[2], c[3]))
                            .collect(),
                    )
                }
                "weights" => ChannelValues::Weights(data.finite_floats(&out_j, &[1])?.0),
                other => {
                    ctx.warn(
                        &path_j.path,
                        &format!("unknown target path `{other}`; channel skipped"),
                    );
                    continue;
                }
            };
            let nvals = match &values {
                ChannelValues::Translation(v) | ChannelValues::Scale(v) => v.len(),
                ChannelValues::Rotation(v) => v.len(),
                ChannelValues::Weights(_) => times.len() * per_key,
            };
            if nvals != times.len() * per_key {
                return Err(out_j.err(
                    ErrorKind::Invalid,
                    format!("{nvals} output values for {} keyframes", times.len()),
                ));
            }
            anim.duration = times.iter().copied().fold(anim.duration, f32::max);
            anim.channels.push(Channel {
                node,
                times,
                interpolation,
                values,
            });
        }
        out.push(anim);
    }
    Ok(out)
}
