//! Mesh shapes for the generated avatar: tubes along polylines and spheres.
//!
//! Skin weights are supplied by the caller as a function of the vertex's
//! position along the shape, so the same tube serves a limb, a torso or a lock.

use glam::{Quat, Vec3};
use tress_core::math::ops;

use tress_vrm::gltf_out::Primitive;

/// Skinning of one vertex: up to four (joint, weight) pairs.
pub type Influence = [(u16, f32); 4];

/// A single rigid influence.
#[must_use]
pub fn rigid(joint: u16) -> Influence {
    [(joint, 1.0), (0, 0.0), (0, 0.0), (0, 0.0)]
}

/// A blend between two joints: weight `1 - t` on `a`, `t` on `b`.
#[must_use]
pub fn blend(a: u16, b: u16, t: f32) -> Influence {
    let t = t.clamp(0.0, 1.0);
    if a == b || t <= 0.0 {
        return rigid(a);
    }
    if t >= 1.0 {
        return rigid(b);
    }
    [(a, 1.0 - t), (b, t), (0, 0.0), (0, 0.0)]
}

fn push_vertex(p: &mut Primitive, pos: Vec3, normal: Vec3, inf: Influence) {
    p.positions.push(pos);
    p.normals.push(normal.normalize_or(Vec3::Y));
    p.joints.push([inf[0].0, inf[1].0, inf[2].0, inf[3].0]);
    p.weights.push([inf[0].1, inf[1].1, inf[2].1, inf[3].1]);
}

/// Cross-section of a tube: half-extents along the frame's two side axes.
#[derive(Debug, Clone, Copy)]
pub struct Section {
    /// Half-width along the first side axis.
    pub rx: f32,
    /// Half-width along the second side axis.
    pub rz: f32,
}

/// A closed tube through `path` (at least two points) with `sides` vertices
/// per ring and `rings` rings spaced by arc length, capped at both ends.
///
/// `section(s)` and `influence(s, pos)` take the arc-length fraction
/// `s ∈ [0, 1]`. The first side axis starts as `side_hint` projected off the
/// path and is carried along by parallel transport so the tube never twists.
pub fn tube(
    path: &[Vec3],
    rings: usize,
    sides: usize,
    side_hint: Vec3,
    section: &dyn Fn(f32) -> Section,
    influence: &dyn Fn(f32, Vec3) -> Influence,
) -> Primitive {
    let mut p = Primitive::default();
    let samples = resample(path, rings.max(2));
    let tangents: Vec<Vec3> = (0..samples.len())
        .map(|i| {
            let a = samples[i.saturating_sub(1)];
            let b = samples[(i + 1).min(samples.len() - 1)];
            (b - a).normalize_or(Vec3::NEG_Y)
        })
        .collect();
    let mut side = (side_hint - tangents[0] * side_hint.dot(tangents[0])).normalize_or(Vec3::X);
    if side.cross(tangents[0]).length_squared() < 1e-6 {
        side = tangents[0].any_orthonormal_vector();
    }
    let n_rings = samples.len();
    for (i, (&c, &t)) in samples.iter().zip(&tangents).enumerate() {
        if i > 0 {
            // Parallel transport: rotate the side axis by the turn of the tangent.
            side = Quat::from_rotation_arc(tangents[i - 1], t) * side;
            side = (side - t * side.dot(t)).normalize_or(side);
        }
        let other = t.cross(side);
        let s = i as f32 / (n_rings - 1) as f32;
        let sec = section(s);
        for k in 0..sides {
            let a = core::f32::consts::TAU * k as f32 / sides as f32;
            let (sn, cs) = ops::sin_cos(a);
            let off = side * (cs * sec.rx) + other * (sn * sec.rz);
            let nrm = side * (cs * sec.rz) + other * (sn * sec.rx);
            let pos = c + off;
            push_vertex(&mut p, pos, nrm, influence(s, pos));
        }
    }
    let ring = |i: usize, k: usize| (i * sides + k % sides) as u32;
    for i in 0..n_rings - 1 {
        for k in 0..sides {
            let (a, b, c, d) = (
                ring(i, k),
                ring(i, k + 1),
                ring(i + 1, k),
                ring(i + 1, k + 1),
            );
            p.indices.extend_from_slice(&[a, c, b, b, c, d]);
        }
    }
    // Caps: a centre vertex at each end, fanned to its ring.
    for (end, ring_i, flip) in [(0usize, 0usize, true), (n_rings - 1, n_rings - 1, false)] {
        let s = end as f32 / (n_rings - 1) as f32;
        let normal = if flip { -tangents[end] } else { tangents[end] };
        let centre = u32::try_from(p.positions.len()).expect("fits u32");
        push_vertex(&mut p, samples[end], normal, influence(s, samples[end]));
        for k in 0..sides {
            let (a, b) = (ring(ring_i, k), ring(ring_i, k + 1));
            if flip {
                p.indices.extend_from_slice(&[centre, b, a]);
            } else {
                p.indices.extend_from_slice(&[centre, a, b]);
            }
        }
    }
    p
}

/// [`tube`] with its walls wound counter-clockwise seen from outside, like
/// its caps: a closed, consistently oriented surface whose normals all
/// point out. [`tube`] winds its walls inward (its caps outward), which the
/// first two avatars keep so their bytes and every figure measured on them
/// stay; the skirt variant's body uses this, because the skirt hangs right
/// over the legs' top caps, where a measurement that orients each piece
/// by its signed volume would read the inconsistent caps as "inside".
pub fn tube_outward(
    path: &[Vec3],
    rings: usize,
    sides: usize,
    side_hint: Vec3,
    section: &dyn Fn(f32) -> Section,
    influence: &dyn Fn(f32, Vec3) -> Influence,
) -> Primitive {
    let mut p = tube(path, rings, sides, side_hint, section, influence);
    let walls = (rings.max(2) - 1) * sides * 6;
    for t in p.indices[..walls].chunks_exact_mut(3) {
        t.swap(1, 2);
    }
    p
}

/// The tube builder [`skeleton`](super::skeleton) uses for a body: inward
/// walls ([`tube`]) or outward ([`tube_outward`]).
pub type TubeFn = fn(
    &[Vec3],
    usize,
    usize,
    Vec3,
    &dyn Fn(f32) -> Section,
    &dyn Fn(f32, Vec3) -> Influence,
) -> Primitive;

/// A UV sphere of `radius` at `centre`, scaled per axis by `stretch`.
pub fn sphere(
    centre: Vec3,
    radius: f32,
    stretch: Vec3,
    rings: usize,
    sides: usize,
    influence: &dyn Fn(Vec3) -> Influence,
) -> Primitive {
    let mut p = Primitive::default();
    for i in 0..=rings {
        let theta = core::f32::consts::PI * i as f32 / rings as f32;
        let (st, ct) = ops::sin_cos(theta);
        for k in 0..=sides {
            let phi = core::f32::consts::TAU * k as f32 / sides as f32;
            let (sp, cp) = ops::sin_cos(phi);
            let unit = Vec3::new(st * sp, ct, st * cp);
            let pos = centre + unit * radius * stretch;
            push_vertex(&mut p, pos, unit / stretch, influence(pos));
        }
    }
    let row = sides as u32 + 1;
    for i in 0..rings as u32 {
        for k in 0..sides as u32 {
            let a = i * row + k;
            let (b, c, d) = (a + 1, a + row, a + row + 1);
            p.indices.extend_from_slice(&[a, c, b, b, c, d]);
        }
    }
    p
}

/// Points spaced evenly by arc length along a polyline (`count` ≥ 2).
#[must_use]
pub fn resample(path: &[Vec3], count: usize) -> Vec<Vec3> {
    let mut cumulative = vec![0.0f32];
    for w in path.windows(2) {
        let last = *cumulative.last().expect("non-empty");
        cumulative.push(last + (w[1] - w[0]).length());
    }
    let total = *cumulative.last().expect("non-empty");
    let mut out = Vec::with_capacity(count);
    let mut seg = 0;
    for i in 0..count {
        let target = total * i as f32 / (count - 1) as f32;
        while seg + 2 < cumulative.len() && cumulative[seg + 1] < target {
            seg += 1;
        }
        let len = cumulative[seg + 1] - cumulative[seg];
        let t = if len > 0.0 {
            ((target - cumulative[seg]) / len).clamp(0.0, 1.0)
        } else {
            0.0
        };
        out.push(path[seg].lerp(path[seg + 1], t));
    }
    out
}

/// Total arc length of a polyline.
#[must_use]
pub fn arc_length(path: &[Vec3]) -> f32 {
    path.windows(2).map(|w| (w[1] - w[0]).length()).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resample_is_even_and_keeps_the_ends() {
        let path = [Vec3::ZERO, Vec3::X, Vec3::new(1.0, 2.0, 0.0)];
        let r = resample(&path, 4);
        assert_eq!(r[0], Vec3::ZERO);
        assert!((r[3] - path[2]).length() < 1e-6);
        for w in r.windows(2) {
            assert!(((w[1] - w[0]).length() - 1.0).abs() < 1e-5);
        }
    }

    #[test]
    fn tube_has_rings_caps_and_valid_indices() {
        let t = tube(
            &[Vec3::ZERO, Vec3::NEG_Y],
            5,
            6,
            Vec3::X,
            &|_| Section { rx: 0.1, rz: 0.1 },
            &|_, _| rigid(0),
        );
        assert_eq!(t.positions.len(), 5 * 6 + 2);
        assert!(t.indices.iter().all(|&i| (i as usize) < t.positions.len()));
        // Every ring vertex lies at the section radius from the axis.
        for p in &t.positions[..30] {
            assert!((Vec3::new(p.x, 0.0, p.z).length() - 0.1).abs() < 1e-5);
        }
    }

    /// Signed volume of a triangle surface (positive: wound outward).
    fn volume(p: &Primitive) -> f32 {
        p.indices
            .chunks(3)
            .map(|t| {
                let [a, b, c] = [0, 1, 2].map(|k| p.positions[t[k] as usize]);
                a.dot(b.cross(c)) / 6.0
            })
            .sum()
    }

    #[test]
    fn outward_tube_encloses_positive_volume_with_every_face() {
        let mk = |f: TubeFn| {
            f(
                &[Vec3::ZERO, Vec3::NEG_Y],
                5,
                6,
                Vec3::X,
                &|_| Section { rx: 0.1, rz: 0.1 },
                &|_, _| rigid(0),
            )
        };
        let out = mk(tube_outward);
        assert!(volume(&out) > 0.0);
        // A step of 1 cm along every face's normal leaves the solid (the
        // hexagonal prism y ∈ [-1, 0], inscribed radius 0.1·cos 30°).
        for t in out.indices.chunks(3) {
            let [a, b, c] = [0, 1, 2].map(|k| out.positions[t[k] as usize]);
            let q = (a + b + c) / 3.0 + (b - a).cross(c - a).normalize() * 0.01;
            let radial = Vec3::new(q.x, 0.0, q.z).length();
            assert!(
                radial > 0.1 * 0.866 || q.y > 0.0 || q.y < -1.0,
                "face {t:?} faces inward"
            );
        }
        // The older builder's walls face inward.
        assert!(volume(&mk(tube)) < 0.0);
    }
}
