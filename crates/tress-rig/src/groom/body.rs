//! The strand scene's body as a mesh, and distance fields built from it:
//! the head, neck and shoulders that `scene` also gives as analytic
//! colliders, triangulated, one closed mesh per rigid part (the head in
//! the head's frame, the neck and shoulders still in the world).

use glam::{Quat, Vec3};
use tress_core::collide::{SdfError, build_sdf};
use tress_core::math::ops::{cos, sin};
use tress_core::strand::{BodyField, PartFrame};

use super::scene::body_colliders;

/// One rigid part of the body mesh.
#[derive(Debug, Clone)]
pub struct MeshPart {
    /// Vertices in the part's frame.
    pub vertices: Vec<Vec3>,
    /// Triangles (vertex indices).
    pub triangles: Vec<[u32; 3]>,
    /// The frame.
    pub frame: PartFrame,
}

/// A closed capsule mesh from `a` to `b` of `radius` (a sphere when
/// `a == b`): `rings` latitude steps per hemisphere, `segments` around.
#[must_use]
pub fn capsule_mesh(
    a: Vec3,
    b: Vec3,
    radius: f32,
    rings: u32,
    segments: u32,
) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let axis = b - a;
    let up = axis.try_normalize().unwrap_or(Vec3::Y);
    let turn = Quat::from_rotation_arc(Vec3::Y, up);
    let mut v = vec![b + up * radius];
    // Rings from the top pole down: the upper cap about `b`, then the lower
    // about `a`; the equator appears once per cap, so the side is a
    // cylinder between them.
    let mut levels = Vec::new();
    for r in 1..=rings {
        levels.push((core::f32::consts::FRAC_PI_2 * r as f32 / rings as f32, b));
    }
    for r in 0..rings {
        levels.push((
            core::f32::consts::FRAC_PI_2 * (1.0 + r as f32 / rings as f32),
            a,
        ));
    }
    for &(th, centre) in &levels {
        for s in 0..segments {
            let ph = core::f32::consts::TAU * s as f32 / segments as f32;
            let d = Vec3::new(sin(th) * cos(ph), cos(th), sin(th) * sin(ph));
            v.push(centre + turn * d * radius);
        }
    }
    v.push(a - up * radius);
    let bottom = (v.len() - 1) as u32;
    let n = levels.len() as u32;
    let at = |l: u32, s: u32| 1 + l * segments + s % segments;
    let mut t = Vec::new();
    for s in 0..segments {
        t.push([0, at(0, s + 1), at(0, s)]);
        t.push([bottom, at(n - 1, s), at(n - 1, s + 1)]);
    }
    for l in 0..n - 1 {
        for s in 0..segments {
            t.push([at(l, s), at(l, s + 1), at(l + 1, s)]);
            t.push([at(l, s + 1), at(l + 1, s + 1), at(l + 1, s)]);
        }
    }
    (v, t)
}

/// The scene's body for a head of `radius` centred at `centre`: the head
/// sphere (head frame, centred on its origin), the neck and the shoulders
/// (world), as [`body_colliders`] places them.
#[must_use]
pub fn body_mesh(centre: Vec3, radius: f32) -> Vec<MeshPart> {
    let (v, t) = capsule_mesh(Vec3::ZERO, Vec3::ZERO, radius, 16, 48);
    let mut parts = vec![MeshPart {
        vertices: v,
        triangles: t,
        frame: PartFrame::Head,
    }];
    for c in body_colliders(centre, radius) {
        let (v, t) = capsule_mesh(c.a, c.b, c.radius, 12, 40);
        parts.push(MeshPart {
            vertices: v,
            triangles: t,
            frame: PartFrame::World,
        });
    }
    parts
}

/// A distance field over `part` with nodes `cell` apart, reaching `margin`
/// past the mesh on every side, exact within 3 cells of the surface.
///
/// # Errors
/// [`SdfError`] for a degenerate mesh or grid.
pub fn part_field(part: &MeshPart, cell: f32, margin: f32) -> Result<BodyField, SdfError> {
    let (mut lo, mut hi) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
    for p in &part.vertices {
        lo = lo.min(*p);
        hi = hi.max(*p);
    }
    let origin = lo - Vec3::splat(margin);
    let span = (hi + Vec3::splat(margin) - origin) / cell;
    let dims =
        [span.x, span.y, span.z].map(|d| (tress_core::math::ops::floor(d) as usize + 2).max(2));
    let mut values = vec![0.0; dims[0] * dims[1] * dims[2]];
    build_sdf(
        &part.vertices,
        &part.triangles,
        origin,
        cell,
        dims,
        6,
        &mut values,
    )?;
    let centre = (lo + hi) * 0.5;
    let radius = part
        .vertices
        .iter()
        .map(|p| (*p - centre).length())
        .fold(0.0, f32::max);
    Ok(BodyField {
        values,
        origin,
        cell,
        dims,
        frame: part.frame,
        bound: (centre, radius),
    })
}
