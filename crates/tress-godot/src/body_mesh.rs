//! A groom's body (`.tfxmesh`) drawn in Godot: the mesh TressFX grooms are
//! authored on, skinned to the same skeleton as the groom's `.tfxbone`, so
//! the hair is seen on its character instead of in the air.
//!
//! [`body_arrays`] turns the file into a surface's arrays in the groom's
//! Godot space; `TressStrandHair::load_body_mesh` wraps them in a
//! `MeshInstance3D` with a `Skin` bound to the hair's skeleton by name.

use tress_core::math::Vec3;
use tress_rig::groom::tfxmesh::TfxMesh;

/// One surface's arrays, as Godot's `ArrayMesh` takes them.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct BodyArrays {
    pub positions: Vec<Vec3>,
    pub normals: Vec<Vec3>,
    /// Four bone indices a vertex (the file's bone list order).
    pub bones: Vec<i32>,
    /// Four weights a vertex, summing to one.
    pub weights: Vec<f32>,
    pub indices: Vec<i32>,
}

/// The file's vertices moved into the groom's space, `(p - origin) *
/// scale`, as the groom itself is, so body and roots stay together.
///
/// Two conventions differ between the files and Godot. Winding: the TressFX
/// Maya exporter writes counter-clockwise front faces (Ratboy_body: all
/// 25,814 triangles' edge cross products agree with the written normals,
/// and the signed volume is positive), Godot's front faces are clockwise,
/// so each triangle's last two corners swap. Weights: the file's do not
/// always sum to one (Ratboy_body: 0.85 to 1.0), which linear blend
/// skinning would turn into a shrunken vertex; they are divided by their
/// sum, and a vertex with none weighs fully on bone 0.
pub(crate) fn body_arrays(mesh: &TfxMesh, origin: Vec3, scale: f32) -> BodyArrays {
    let mut out = BodyArrays::default();
    for v in &mesh.vertices {
        out.positions.push((v.pos - origin) * scale);
        out.normals
            .push(v.normal.try_normalize().unwrap_or(Vec3::Y));
        let weights = v
            .weights
            .map(|(b, w)| (b, if w.is_finite() && w > 0.0 { w } else { 0.0 }));
        let sum: f32 = weights.iter().map(|&(_, w)| w).sum();
        for (bone, w) in weights {
            out.bones.push(i32::try_from(bone).unwrap_or(0));
            out.weights.push(if sum > 0.0 { w / sum } else { 0.0 });
        }
        if sum <= 0.0 {
            let n = out.weights.len();
            out.bones[n - 4] = 0;
            out.weights[n - 4] = 1.0;
        }
    }
    for t in &mesh.triangles {
        for k in [0, 2, 1] {
            out.indices.push(i32::try_from(t[k]).unwrap_or(0));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use tress_rig::groom::tfxmesh::read_tfxmesh;

    /// Two bones, three vertices, one triangle, hand-written in the Maya
    /// exporter's layout; the expected arrays worked out by hand.
    const FILE: &str = "\
# a hand-made body
numOfBones 2
0 root
1 head
numOfVertices 3
0 1 2 3 0 0 2 0 1 0 0 0.6 0.2 0 0
1 3 2 3 0 1 0 1 0 0 0 1 0 0 0
2 1 4 3 0 0 0 0 0 0 0 0 0 0 0
numOfTriangles 1
0 0 1 2
";

    #[test]
    fn vertices_move_and_scale_as_the_groom_does() {
        let mesh = read_tfxmesh(FILE).expect("the hand-made file reads");
        let a = body_arrays(&mesh, Vec3::new(1.0, 2.0, 3.0), 0.5);
        assert_eq!(
            a.positions,
            [
                Vec3::ZERO,
                Vec3::new(1.0, 0.0, 0.0),
                Vec3::new(0.0, 1.0, 0.0)
            ]
        );
        // (0, 0, 2) normalised; (0, 1, 0) kept; a zero normal becomes up.
        assert_eq!(a.normals, [Vec3::Z, Vec3::Y, Vec3::Y]);
    }

    #[test]
    fn weights_sum_to_one_and_an_unweighted_vertex_follows_bone_zero() {
        let mesh = read_tfxmesh(FILE).expect("the hand-made file reads");
        let a = body_arrays(&mesh, Vec3::ZERO, 1.0);
        assert_eq!(a.bones, [0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]);
        // 0.6 and 0.2 of 0.8: 0.75 and 0.25.
        assert_eq!(&a.weights[..4], &[0.75, 0.25, 0.0, 0.0]);
        assert_eq!(&a.weights[4..8], &[1.0, 0.0, 0.0, 0.0]);
        assert_eq!(&a.weights[8..], &[1.0, 0.0, 0.0, 0.0]);
    }

    #[test]
    fn triangles_turn_clockwise_for_godot() {
        let mesh = read_tfxmesh(FILE).expect("the hand-made file reads");
        assert_eq!(body_arrays(&mesh, Vec3::ZERO, 1.0).indices, [0, 2, 1]);
    }
}
