//! Which vertices are hair and which triangles are body, and linear-blend
//! skinning of both.
//!
//! Rules (documented in `docs/QUALITY.md`):
//! - every triangle primitive (`mode` 4) of a node with both a mesh and a
//!   skin is considered; unskinned meshes (the built-in avatar's rigid
//!   ponytail) follow their node rigidly and are neither measured nor used
//!   as body;
//! - a **hair vertex** is one whose largest skin weight is on a spring joint
//!   (any joint of any spring chain, tails included): that is what the
//!   solver moves;
//! - a **hair triangle** has at least one hair vertex, so the edges where a
//!   lock meets head-skinned geometry are measured too;
//! - a **body triangle** has no hair vertex and a material whose name does
//!   not contain "hair" (a static hair cap is an open shell over the scalp;
//!   as a penetration surface it would report every lock root as inside);
//! - each connected piece of the body is oriented to enclose positive volume
//!   (its triangles are flipped when their signed volume about the piece's
//!   centroid is negative): the inside test reads the winding, and the
//!   built-in avatar's body tubes are wound inward.

use alloc::collections::BTreeSet;

use glam::{Mat4, Vec3};

use tress_vrm::model::Avatar;

/// One measured primitive instance.
#[derive(Debug, Clone, PartialEq)]
pub struct Part {
    /// Mesh name (or `mesh N`).
    pub mesh: String,
    /// Primitive index within the mesh.
    pub primitive: usize,
    /// First vertex of this part in the flattened arrays.
    pub start: usize,
    /// Vertex count.
    pub len: usize,
}

/// Every skinned triangle primitive, flattened, with its classification.
#[derive(Debug, Clone, Default)]
pub struct MeshSet {
    /// The primitive instances.
    pub parts: Vec<Part>,
    /// Bind-space positions.
    bind: Vec<Vec3>,
    /// Per vertex: four (joint matrix index, weight) pairs, weights summing to 1.
    influences: Vec<[(u32, f32); 4]>,
    /// Per skin: the offset of its joints in the joint matrix list.
    skin_offsets: Vec<usize>,
    /// Node of each joint matrix.
    joint_nodes: Vec<usize>,
    /// Inverse bind matrix of each joint matrix.
    inverse_binds: Vec<Mat4>,
    /// Hair vertices (flattened indices).
    pub hair: Vec<u32>,
    /// Triangles with at least one hair vertex.
    pub hair_tris: Vec<[u32; 3]>,
    /// Body triangles.
    pub body_tris: Vec<[u32; 3]>,
    /// Vertices used by body triangles.
    pub body_verts: Vec<u32>,
    /// What was left out and why.
    pub notes: Vec<String>,
}

impl MeshSet {
    /// Classifies `avatar`'s skinned primitives; `spring_nodes` are the nodes
    /// the solver moves (and their tails).
    #[must_use]
    pub fn new(avatar: &Avatar, spring_nodes: &BTreeSet<usize>) -> Self {
        let mut set = MeshSet::default();
        for skin in &avatar.skins {
            set.skin_offsets.push(set.joint_nodes.len());
            for (j, &node) in skin.joints.iter().enumerate() {
                set.joint_nodes.push(node);
                set.inverse_binds
                    .push(skin.inverse_binds.get(j).copied().unwrap_or(Mat4::IDENTITY));
            }
        }
        for node in &avatar.nodes {
            let Some(mi) = node.mesh else { continue };
            let Some(mesh) = avatar.meshes.get(mi) else {
                continue;
            };
            let mesh_name = if mesh.name.is_empty() {
                format!("mesh {mi}")
            } else {
                mesh.name.clone()
            };
            let Some(si) = node.skin.filter(|&s| s < avatar.skins.len()) else {
                set.notes
                    .push(format!("{mesh_name}: not skinned, not measured"));
                continue;
            };
            for (pi, prim) in mesh.primitives.iter().enumerate() {
                set.add_primitive(avatar, spring_nodes, &mesh_name, pi, prim, si);
            }
        }
        set.orient_body(avatar);
        let mut body: Vec<u32> = set.body_tris.iter().flatten().copied().collect();
        body.sort_unstable();
        body.dedup();
        set.body_verts = body;
        set
    }

    /// Flips body pieces (triangles connected through shared vertices)
    /// whose signed volume at the rest pose is negative.
    fn orient_body(&mut self, avatar: &Avatar) {
        let mut joints = Vec::new();
        self.joint_matrices_into(&avatar.rest_world(), &mut joints);
        let used: Vec<u32> = self.body_tris.iter().flatten().copied().collect();
        let mut pos = Vec::new();
        self.skin(&joints, &used, &mut pos);
        // Union-find over vertices, with path halving.
        let mut parent: Vec<u32> =
            (0..u32::try_from(self.bind.len()).unwrap_or(u32::MAX)).collect();
        let find = |parent: &mut Vec<u32>, mut x: u32| {
            while parent[x as usize] != x {
                parent[x as usize] = parent[parent[x as usize] as usize];
                x = parent[x as usize];
            }
            x
        };
        for t in &self.body_tris {
            let a = find(&mut parent, t[0]);
            for &v in &t[1..] {
                let b = find(&mut parent, v);
                parent[b as usize] = a;
            }
        }
        let mut pieces: alloc::collections::BTreeMap<u32, (Vec3, usize, f64)> =
            alloc::collections::BTreeMap::new();
        let roots: Vec<u32> = self
            .body_tris
            .iter()
            .map(|t| find(&mut parent, t[0]))
            .collect();
        for (t, r) in self.body_tris.iter().zip(&roots) {
            let e = pieces.entry(*r).or_insert((Vec3::ZERO, 0, 0.0));
            e.0 += pos[t[0] as usize];
            e.1 += 1;
        }
        for (t, r) in self.body_tris.iter().zip(&roots) {
            let e = pieces.get_mut(r).expect("every root has a piece");
            let c = e.0 / e.1 as f32;
            let [a, b, d] = t.map(|v| pos[v as usize] - c);
            e.2 += f64::from(a.dot(b.cross(d)));
        }
        let mut flipped = 0;
        for (t, r) in self.body_tris.iter_mut().zip(&roots) {
            if pieces[r].2 < 0.0 {
                t.swap(1, 2);
            }
        }
        for p in pieces.values() {
            if p.2 < 0.0 {
                flipped += 1;
            }
        }
        if flipped > 0 {
            self.notes.push(format!(
                "{flipped} of {} body pieces were wound inward and are flipped for the inside test",
                pieces.len()
            ));
        }
    }

    fn add_primitive(
        &mut self,
        avatar: &Avatar,
        spring_nodes: &BTreeSet<usize>,
        mesh_name: &str,
        pi: usize,
        prim: &tress_vrm::model::Primitive,
        si: usize,
    ) {
        let n = prim.positions.len();
        if prim.mode != 4 {
            self.notes.push(format!(
                "{mesh_name} primitive {pi}: mode {} is not triangles, not measured",
                prim.mode
            ));
            return;
        }
        if prim.joints.len() != n || prim.weights.len() != n {
            self.notes.push(format!(
                "{mesh_name} primitive {pi}: no JOINTS_0/WEIGHTS_0, not measured"
            ));
            return;
        }
        let skin = &avatar.skins[si];
        let offset = self.skin_offsets[si];
        let start = self.bind.len();
        let mut is_hair = Vec::with_capacity(n);
        for v in 0..n {
            let w = prim.weights[v];
            let j = prim.joints[v];
            let sum = w.x + w.y + w.z + w.w;
            let weights = if sum > 0.0 { w / sum } else { w };
            let mut inf = [(0u32, 0.0f32); 4];
            let mut best = (0.0f32, None);
            for k in 0..4 {
                let joint = usize::from(j[k]);
                if joint >= skin.joints.len() {
                    continue;
                }
                inf[k] = (u32::try_from(offset + joint).unwrap_or(0), weights[k]);
                if weights[k] > best.0 {
                    best = (weights[k], Some(skin.joints[joint]));
                }
            }
            is_hair.push(best.1.is_some_and(|node| spring_nodes.contains(&node)));
            self.bind.push(prim.positions[v]);
            self.influences.push(inf);
        }
        let index = |i: usize| -> Option<usize> {
            let v = if prim.indices.is_empty() {
                i
            } else {
                *prim.indices.get(i)? as usize
            };
            (v < n).then_some(v)
        };
        let count = if prim.indices.is_empty() {
            n
        } else {
            prim.indices.len()
        };
        let hairy_material = prim
            .material_name
            .as_deref()
            .is_some_and(|m| m.to_lowercase().contains("hair"));
        for t in 0..count / 3 {
            let (Some(a), Some(b), Some(c)) = (index(3 * t), index(3 * t + 1), index(3 * t + 2))
            else {
                continue;
            };
            let g = |v: usize| u32::try_from(start + v).unwrap_or(u32::MAX);
            let tri = [g(a), g(b), g(c)];
            if is_hair[a] || is_hair[b] || is_hair[c] {
                self.hair_tris.push(tri);
            } else if !hairy_material {
                self.body_tris.push(tri);
            }
        }
        self.hair.extend(
            (0..n)
                .filter(|&v| is_hair[v])
                .map(|v| u32::try_from(start + v).unwrap_or(u32::MAX)),
        );
        self.parts.push(Part {
            mesh: mesh_name.to_owned(),
            primitive: pi,
            start,
            len: n,
        });
    }

    /// Flattened vertex count.
    #[must_use]
    pub fn vertex_count(&self) -> usize {
        self.bind.len()
    }

    /// The part and local vertex index of flattened vertex `v`.
    #[must_use]
    pub fn locate(&self, v: u32) -> Option<(&Part, usize)> {
        let v = v as usize;
        self.parts
            .iter()
            .find(|p| v >= p.start && v < p.start + p.len)
            .map(|p| (p, v - p.start))
    }

    /// The node carrying the largest skin weight of flattened vertex `v`,
    /// with that weight (the weights of a vertex sum to 1).
    #[must_use]
    pub fn owner(&self, v: u32) -> Option<(usize, f32)> {
        let inf = self.influences.get(v as usize)?;
        let &(j, w) = inf
            .iter()
            .filter(|(_, w)| *w > 0.0)
            .max_by(|a, b| a.1.total_cmp(&b.1))?;
        Some((*self.joint_nodes.get(j as usize)?, w))
    }

    /// The nodes that skin flattened vertex `v` with their weights (summing
    /// to 1), zero weights left out, in the order the file lists them.
    #[must_use]
    pub fn weights(&self, v: u32) -> Vec<(usize, f32)> {
        self.influences
            .get(v as usize)
            .into_iter()
            .flatten()
            .filter(|(_, w)| *w > 0.0)
            .filter_map(|&(j, w)| Some((*self.joint_nodes.get(j as usize)?, w)))
            .collect()
    }

    /// Joint matrices (world × inverse bind) for the node matrices `world`.
    pub fn joint_matrices_into(&self, world: &[Mat4], out: &mut Vec<Mat4>) {
        out.clear();
        out.extend(
            self.joint_nodes
                .iter()
                .zip(&self.inverse_binds)
                .map(|(&n, ibm)| world.get(n).copied().unwrap_or(Mat4::IDENTITY) * *ibm),
        );
    }

    /// Skins the vertices `which` into `pos` (indexed by flattened vertex;
    /// other entries are left alone).
    pub fn skin(&self, joints: &[Mat4], which: &[u32], pos: &mut Vec<Vec3>) {
        pos.resize(self.bind.len(), Vec3::ZERO);
        for &v in which {
            let v = v as usize;
            pos[v] = super::blend(
                self.bind[v],
                self.influences[v]
                    .iter()
                    .filter(|(_, w)| *w != 0.0)
                    .map(|&(j, w)| (joints[j as usize], w)),
            );
        }
    }
}
