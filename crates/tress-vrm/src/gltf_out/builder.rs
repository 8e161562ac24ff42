//! A small glTF 2.0 binary (GLB) writer for the assets Tress generates.
//!
//! It builds the JSON document with `serde_json` (whose maps keep keys sorted,
//! so the output is byte-for-byte reproducible) and one binary buffer whose
//! views are 4-byte aligned as the spec requires.
//!
//! - [`GltfBuilder`]: add nodes, meshes, skins and materials, then [`GltfBuilder::to_glb`].
//! - [`Primitive`]: one mesh primitive's vertex data.

use glam::{Mat4, Quat, Vec3};
use serde_json::{Map, Value, json};

const ARRAY_BUFFER: u32 = 34962;
const ELEMENT_ARRAY_BUFFER: u32 = 34963;
const FLOAT: u32 = 5126;
const UNSIGNED_SHORT: u32 = 5123;
const UNSIGNED_INT: u32 = 5125;

/// Vertex data of one mesh primitive (triangles).
#[derive(Debug, Clone, Default)]
pub struct Primitive {
    /// Material index in the document.
    pub material: Option<usize>,
    /// Positions in the mesh node's space.
    pub positions: Vec<Vec3>,
    /// Unit normals, one per position.
    pub normals: Vec<Vec3>,
    /// Up to four joint indices (into the skin's joint list) per vertex.
    pub joints: Vec<[u16; 4]>,
    /// Weights matching `joints`, summing to one.
    pub weights: Vec<[f32; 4]>,
    /// Triangle list.
    pub indices: Vec<u32>,
}

impl Primitive {
    /// Appends `other`'s vertices and triangles to this primitive.
    pub fn append(&mut self, other: &Primitive) {
        let base = u32::try_from(self.positions.len()).expect("vertex count fits u32");
        self.positions.extend_from_slice(&other.positions);
        self.normals.extend_from_slice(&other.normals);
        self.joints.extend_from_slice(&other.joints);
        self.weights.extend_from_slice(&other.weights);
        self.indices.extend(other.indices.iter().map(|i| i + base));
    }
}

/// Builds a glTF document and its binary buffer.
#[derive(Debug, Default)]
pub struct GltfBuilder {
    nodes: Vec<Map<String, Value>>,
    meshes: Vec<Value>,
    materials: Vec<Value>,
    skins: Vec<Value>,
    accessors: Vec<Value>,
    views: Vec<Value>,
    bin: Vec<u8>,
    scene_roots: Vec<usize>,
    animations: Vec<Value>,
    /// Extensions used inside other objects (not at the root), for
    /// `extensionsUsed`.
    nested_extensions: Vec<String>,
}

impl GltfBuilder {
    /// An empty document.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Lists `name` in `extensionsUsed` though it appears only inside other
    /// objects (e.g. `VRMC_springBone_limit` on spring joints), as glTF
    /// requires of every extension a document uses.
    pub fn use_extension(&mut self, name: &str) {
        if !self.nested_extensions.iter().any(|n| n == name) {
            self.nested_extensions.push(name.to_owned());
        }
    }

    /// Adds a node with a name and rest transform; returns its index.
    pub fn add_node(&mut self, name: &str, translation: Vec3, rotation: Quat) -> usize {
        let mut n = Map::new();
        n.insert("name".into(), json!(name));
        if translation != Vec3::ZERO {
            n.insert("translation".into(), json!(translation.to_array()));
        }
        if rotation != Quat::IDENTITY {
            n.insert("rotation".into(), json!(rotation.to_array()));
        }
        self.nodes.push(n);
        self.nodes.len() - 1
    }

    /// Sets a node's scale (omitted from the file when one).
    pub fn set_node_scale(&mut self, node: usize, scale: Vec3) {
        if scale != Vec3::ONE {
            self.nodes[node].insert("scale".into(), json!(scale.to_array()));
        }
    }

    /// Adds an animation (one sampler per channel); returns its index.
    pub fn add_animation(&mut self, anim: &crate::model::Animation) -> usize {
        let mut samplers = Vec::new();
        let mut channels = Vec::new();
        for c in &anim.channels {
            let super::channel::ChannelData {
                path,
                values: data,
                ty,
                width,
                interpolation,
            } = super::channel::channel_data(c);
            let tv = self.add_view(bytes_of_f32(&c.times), None);
            let lo = c.times.first().copied().unwrap_or(0.0);
            let hi = c.times.last().copied().unwrap_or(0.0);
            let input = self.add_accessor(tv, FLOAT, c.times.len(), "SCALAR", None);
            // glTF requires min/max on animation inputs.
            self.accessors[input]["min"] = json!([lo]);
            self.accessors[input]["max"] = json!([hi]);
            let vv = self.add_view(bytes_of_f32(&data), None);
            let output = self.add_accessor(vv, FLOAT, data.len() / width, ty, None);
            samplers
                .push(json!({ "input": input, "output": output, "interpolation": interpolation }));
            channels.push(json!({ "sampler": samplers.len() - 1,
                "target": { "node": c.node, "path": path } }));
        }
        self.animations
            .push(json!({ "name": anim.name, "samplers": samplers, "channels": channels }));
        self.animations.len() - 1
    }

    /// Number of nodes added so far.
    #[must_use]
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// Makes `child` a child of `parent`.
    pub fn add_child(&mut self, parent: usize, child: usize) {
        let children = self.nodes[parent]
            .entry("children")
            .or_insert_with(|| json!([]));
        children
            .as_array_mut()
            .expect("children is an array")
            .push(json!(child));
    }

    /// Marks a node as a root of the default scene.
    pub fn add_scene_root(&mut self, node: usize) {
        self.scene_roots.push(node);
    }

    /// Attaches mesh (and optionally skin) to a node.
    pub fn set_node_mesh(&mut self, node: usize, mesh: usize, skin: Option<usize>) {
        self.nodes[node].insert("mesh".into(), json!(mesh));
        if let Some(s) = skin {
            self.nodes[node].insert("skin".into(), json!(s));
        }
    }

    /// Adds an opaque PBR material with a base colour; returns its index.
    pub fn add_material(&mut self, name: &str, rgba: [f32; 4], roughness: f32) -> usize {
        self.materials.push(json!({
            "name": name,
            "pbrMetallicRoughness": {
                "baseColorFactor": rgba,
                "metallicFactor": 0.0,
                "roughnessFactor": roughness,
            },
            "doubleSided": true,
        }));
        self.materials.len() - 1
    }

    /// Adds a skin; `inverse_binds[i]` belongs to `joints[i]`. Returns its index.
    pub fn add_skin(
        &mut self,
        name: &str,
        skeleton: usize,
        joints: &[usize],
        inverse_binds: &[Mat4],
    ) -> usize {
        let data: Vec<f32> = inverse_binds
            .iter()
            .flat_map(|m| m.to_cols_array())
            .collect();
        let view = self.add_view(bytes_of_f32(&data), None);
        let acc = self.add_accessor(view, FLOAT, inverse_binds.len(), "MAT4", None);
        self.skins.push(json!({
            "name": name,
            "skeleton": skeleton,
            "joints": joints,
            "inverseBindMatrices": acc,
        }));
        self.skins.len() - 1
    }

    /// Adds a mesh of one or more primitives; returns its index.
    pub fn add_mesh(&mut self, name: &str, primitives: &[(&str, &Primitive)]) -> usize {
        let mut prims = Vec::new();
        for (pname, p) in primitives {
            prims.push(self.primitive_json(pname, p));
        }
        self.meshes
            .push(json!({ "name": name, "primitives": prims }));
        self.meshes.len() - 1
    }

    fn primitive_json(&mut self, name: &str, p: &Primitive) -> Value {
        let n = p.positions.len();
        let (min, max) = bounds(&p.positions);
        let pos_data: Vec<f32> = p.positions.iter().flat_map(|v| v.to_array()).collect();
        let v = self.add_view(bytes_of_f32(&pos_data), Some(ARRAY_BUFFER));
        let pos = self.add_accessor(v, FLOAT, n, "VEC3", Some((min, max)));
        let mut attrs = Map::new();
        attrs.insert("POSITION".into(), json!(pos));
        if !p.normals.is_empty() {
            let d: Vec<f32> = p.normals.iter().flat_map(|v| v.to_array()).collect();
            let v = self.add_view(bytes_of_f32(&d), Some(ARRAY_BUFFER));
            attrs.insert(
                "NORMAL".into(),
                json!(self.add_accessor(v, FLOAT, n, "VEC3", None)),
            );
        }
        if !p.joints.is_empty() {
            let d: Vec<u8> = p
                .joints
                .iter()
                .flat_map(|j| j.iter().flat_map(|x| x.to_le_bytes()))
                .collect();
            let v = self.add_view(d, Some(ARRAY_BUFFER));
            attrs.insert(
                "JOINTS_0".into(),
                json!(self.add_accessor(v, UNSIGNED_SHORT, n, "VEC4", None)),
            );
            let w: Vec<f32> = p.weights.iter().flatten().copied().collect();
            let v = self.add_view(bytes_of_f32(&w), Some(ARRAY_BUFFER));
            attrs.insert(
                "WEIGHTS_0".into(),
                json!(self.add_accessor(v, FLOAT, n, "VEC4", None)),
            );
        }
        let idx: Vec<u8> = p.indices.iter().flat_map(|i| i.to_le_bytes()).collect();
        let v = self.add_view(idx, Some(ELEMENT_ARRAY_BUFFER));
        let ind = self.add_accessor(v, UNSIGNED_INT, p.indices.len(), "SCALAR", None);
        let mut prim = json!({ "attributes": attrs, "indices": ind, "mode": 4,
            "extras": { "name": name } });
        if let Some(m) = p.material {
            prim["material"] = json!(m);
        }
        prim
    }

    fn add_view(&mut self, bytes: Vec<u8>, target: Option<u32>) -> usize {
        while !self.bin.len().is_multiple_of(4) {
            self.bin.push(0);
        }
        let offset = self.bin.len();
        self.bin.extend_from_slice(&bytes);
        let mut view = json!({ "buffer": 0, "byteOffset": offset, "byteLength": bytes.len() });
        if let Some(t) = target {
            view["target"] = json!(t);
        }
        self.views.push(view);
        self.views.len() - 1
    }

    fn add_accessor(
        &mut self,
        view: usize,
        component: u32,
        count: usize,
        ty: &str,
        min_max: Option<(Vec3, Vec3)>,
    ) -> usize {
        let mut acc =
            json!({ "bufferView": view, "componentType": component, "count": count, "type": ty });
        if let Some((min, max)) = min_max {
            acc["min"] = json!(min.to_array());
            acc["max"] = json!(max.to_array());
        }
        self.accessors.push(acc);
        self.accessors.len() - 1
    }

    /// Serialises the document as GLB, with `extensions` (a JSON object keyed
    /// by extension name) at the document root and listed in `extensionsUsed`.
    #[must_use]
    pub fn to_glb(&self, generator: &str, extensions: Map<String, Value>) -> Vec<u8> {
        let mut doc = json!({
            "asset": { "version": "2.0", "generator": generator },
            "scene": 0,
            "scenes": [{ "nodes": self.scene_roots }],
            "nodes": self.nodes,
            "meshes": self.meshes,
            "materials": self.materials,
            "skins": self.skins,
            "accessors": self.accessors,
            "bufferViews": self.views,
            "buffers": [{ "byteLength": self.bin.len() }],
        });
        // Only when present, so documents without animations stay as they were.
        if !self.animations.is_empty() {
            doc["animations"] = json!(self.animations);
        }
        if !extensions.is_empty() || !self.nested_extensions.is_empty() {
            let mut used: Vec<&String> = extensions.keys().collect();
            used.extend(&self.nested_extensions);
            doc["extensionsUsed"] = json!(used);
        }
        if !extensions.is_empty() {
            doc["extensions"] = Value::Object(extensions);
        }
        let mut bin = self.bin.clone();
        while !bin.len().is_multiple_of(4) {
            bin.push(0);
        }
        super::glb::to_glb(&doc, &bin)
    }
}

fn bytes_of_f32(data: &[f32]) -> Vec<u8> {
    data.iter().flat_map(|f| f.to_le_bytes()).collect()
}

fn bounds(points: &[Vec3]) -> (Vec3, Vec3) {
    points.iter().fold(
        (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)),
        |(lo, hi), p| (lo.min(*p), hi.max(*p)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glb_round_trips_through_the_gltf_crate() {
        let mut b = GltfBuilder::new();
        let root = b.add_node("root", Vec3::Y, Quat::IDENTITY);
        b.add_scene_root(root);
        let tri = Primitive {
            material: None,
            positions: vec![Vec3::ZERO, Vec3::X, Vec3::Y],
            normals: vec![Vec3::Z; 3],
            indices: vec![0, 1, 2],
            ..Primitive::default()
        };
        let m = b.add_mesh("tri", &[("tri", &tri)]);
        b.set_node_mesh(root, m, None);
        let glb = b.to_glb("test", Map::new());
        assert_eq!(glb.len() % 4, 0);
        let (doc, buffers, _) = gltf::import_slice(&glb).expect("valid GLB");
        let mesh = doc.meshes().next().expect("one mesh");
        let prim = mesh.primitives().next().expect("one primitive");
        let reader = prim.reader(|b| Some(&buffers[b.index()]));
        let pos: Vec<[f32; 3]> = reader.read_positions().expect("positions").collect();
        assert_eq!(pos, vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]);
        let node = doc.nodes().next().expect("node");
        assert_eq!(node.transform().decomposed().0, [0.0, 1.0, 0.0]);
    }
}
