//! Evaluating glTF animation channels and whole-skeleton poses at a time.

use glam::{Mat4, Quat, Vec3};

use tress_vrm::model::{Animation, Avatar, Channel, ChannelValues, Interpolation};

/// Local transform of one node.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Local {
    /// Translation.
    pub translation: Vec3,
    /// Rotation (unit).
    pub rotation: Quat,
    /// Scale.
    pub scale: Vec3,
}

impl Local {
    /// As a matrix.
    #[must_use]
    pub fn matrix(&self) -> Mat4 {
        Mat4::from_scale_rotation_translation(self.scale, self.rotation, self.translation)
    }
}

/// Where `t` falls between keys: the lower key, the upper key and the
/// fraction between them (clamped to the first and last key).
fn bracket(times: &[f32], t: f32) -> (usize, usize, f32) {
    let n = times.len();
    if n <= 1 || !t.is_finite() || t <= times[0] {
        return (0, 0, 0.0);
    }
    if t >= times[n - 1] {
        return (n - 1, n - 1, 0.0);
    }
    // First key strictly after t; keys are sorted (the loader checks).
    let hi = times.partition_point(|&k| k <= t).min(n - 1);
    let lo = hi - 1;
    let span = times[hi] - times[lo];
    let f = if span > 0.0 {
        (t - times[lo]) / span
    } else {
        0.0
    };
    (lo, hi, f)
}

/// Hermite basis for glTF's cubic spline, `h` the key interval.
fn hermite<T>(p0: T, m0: T, p1: T, m1: T, f: f32, h: f32) -> T
where
    T: core::ops::Mul<f32, Output = T> + core::ops::Add<Output = T> + Copy,
{
    let f2 = f * f;
    let f3 = f2 * f;
    p0 * (2.0 * f3 - 3.0 * f2 + 1.0)
        + m0 * (h * (f3 - 2.0 * f2 + f))
        + p1 * (-2.0 * f3 + 3.0 * f2)
        + m1 * (h * (f3 - f2))
}

fn sample_vec3(c: &Channel, v: &[Vec3], t: f32) -> Option<Vec3> {
    sample_vec3_raw(c, v, t).filter(|x| x.is_finite())
}

fn sample_vec3_raw(c: &Channel, v: &[Vec3], t: f32) -> Option<Vec3> {
    let (lo, hi, f) = bracket(&c.times, t);
    match c.interpolation {
        Interpolation::CubicSpline => {
            // Values hold (in-tangent, value, out-tangent) per key.
            let p0 = *v.get(3 * lo + 1)?;
            if lo == hi {
                return Some(p0);
            }
            let h = c.times[hi] - c.times[lo];
            Some(hermite(
                p0,
                *v.get(3 * lo + 2)?,
                *v.get(3 * hi + 1)?,
                *v.get(3 * hi)?,
                f,
                h,
            ))
        }
        Interpolation::Step => v.get(lo).copied(),
        Interpolation::Linear => Some(v.get(lo)?.lerp(*v.get(hi)?, f)),
    }
}

fn sample_quat(c: &Channel, v: &[Quat], t: f32) -> Option<Quat> {
    let (lo, hi, f) = bracket(&c.times, t);
    let q = match c.interpolation {
        Interpolation::CubicSpline => {
            let p0 = *v.get(3 * lo + 1)?;
            if lo == hi {
                p0
            } else {
                let h = c.times[hi] - c.times[lo];
                let mut p1 = *v.get(3 * hi + 1)?;
                let m0 = *v.get(3 * lo + 2)?;
                let mut m1 = *v.get(3 * hi)?;
                if tress_core::math::quat::dot(p0, p1) < 0.0 {
                    p1 = -p1;
                    m1 = -m1;
                }
                hermite(p0, m0, p1, m1, f, h)
            }
        }
        Interpolation::Step => *v.get(lo)?,
        Interpolation::Linear => tress_core::constraint::slerp(*v.get(lo)?, *v.get(hi)?, f),
    };
    let len = tress_core::math::quat::length(q);
    (len.is_finite() && len > 1e-6).then(|| q / len)
}

/// The local transforms of every node of `avatar` at time `t` of `clip`:
/// the rest transform, overridden by whatever the clip animates.
/// Unusable keys (missing values, a zero or non-finite quaternion, a
/// non-finite translation or scale) leave the rest value.
pub fn local_pose(avatar: &Avatar, clip: &Animation, t: f32, out: &mut Vec<Local>) {
    out.clear();
    out.extend(avatar.nodes.iter().map(|n| Local {
        translation: n.translation,
        rotation: n.rotation,
        scale: n.scale,
    }));
    for c in &clip.channels {
        let Some(slot) = out.get_mut(c.node) else {
            continue;
        };
        match &c.values {
            ChannelValues::Translation(v) => {
                if let Some(x) = sample_vec3(c, v, t) {
                    slot.translation = x;
                }
            }
            ChannelValues::Rotation(v) => {
                if let Some(q) = sample_quat(c, v, t) {
                    slot.rotation = q;
                }
            }
            ChannelValues::Scale(v) => {
                if let Some(x) = sample_vec3(c, v, t) {
                    slot.scale = x;
                }
            }
            ChannelValues::Weights(_) => {}
        }
    }
}

/// World matrices from local transforms (parents before children, by walking
/// down from the roots; nodes unreachable from a root keep identity).
pub fn world_from_local(avatar: &Avatar, local: &[Local], out: &mut Vec<Mat4>) {
    out.clear();
    out.resize(avatar.nodes.len(), Mat4::IDENTITY);
    let mut stack: Vec<(usize, Mat4)> = (0..avatar.nodes.len())
        .filter(|&i| avatar.nodes[i].parent.is_none())
        .map(|r| (r, Mat4::IDENTITY))
        .collect();
    while let Some((n, parent)) = stack.pop() {
        let (Some(node), Some(l)) = (avatar.nodes.get(n), local.get(n)) else {
            continue;
        };
        let m = parent * l.matrix();
        out[n] = m;
        stack.extend(node.children.iter().map(|&c| (c, m)));
    }
}

/// The smallest positive key interval over the clip's channels (its frame
/// spacing), if any channel has two or more keys.
#[must_use]
pub fn key_interval(clip: &Animation) -> Option<f32> {
    clip.channels
        .iter()
        .flat_map(|c| c.times.windows(2).map(|w| w[1] - w[0]))
        .filter(|d| *d > 1e-5)
        .min_by(f32::total_cmp)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn channel(interp: Interpolation, times: Vec<f32>, values: ChannelValues) -> Channel {
        Channel {
            node: 0,
            times,
            interpolation: interp,
            values,
        }
    }

    #[test]
    fn linear_translation_interpolates_and_clamps() {
        let c = channel(
            Interpolation::Linear,
            vec![1.0, 3.0],
            ChannelValues::Translation(vec![Vec3::ZERO, Vec3::new(2.0, 0.0, 0.0)]),
        );
        let ChannelValues::Translation(v) = &c.values else {
            unreachable!()
        };
        assert_eq!(sample_vec3(&c, v, 2.0), Some(Vec3::new(1.0, 0.0, 0.0)));
        assert_eq!(sample_vec3(&c, v, 0.0), Some(Vec3::ZERO));
        assert_eq!(sample_vec3(&c, v, 9.0), Some(Vec3::new(2.0, 0.0, 0.0)));
        assert_eq!(sample_vec3(&c, v, f32::NAN), Some(Vec3::ZERO));
    }

    #[test]
    fn step_holds_the_lower_key() {
        let q1 = Quat::from_rotation_y(1.0);
        let c = channel(
            Interpolation::Step,
            vec![0.0, 1.0],
            ChannelValues::Rotation(vec![Quat::IDENTITY, q1]),
        );
        let ChannelValues::Rotation(v) = &c.values else {
            unreachable!()
        };
        assert_eq!(sample_quat(&c, v, 0.99), Some(Quat::IDENTITY));
        assert!(sample_quat(&c, v, 1.0).unwrap().abs_diff_eq(q1, 1e-6));
    }

    #[test]
    fn linear_rotation_is_a_slerp() {
        let c = channel(
            Interpolation::Linear,
            vec![0.0, 1.0],
            ChannelValues::Rotation(vec![Quat::IDENTITY, Quat::from_rotation_y(1.0)]),
        );
        let ChannelValues::Rotation(v) = &c.values else {
            unreachable!()
        };
        let q = sample_quat(&c, v, 0.25).unwrap();
        assert!(q.abs_diff_eq(Quat::from_rotation_y(0.25), 1e-6));
    }

    #[test]
    fn cubic_spline_with_zero_tangents_eases_between_values() {
        // Hermite with zero tangents at f = 0.5 is exactly the midpoint.
        let z = Vec3::ZERO;
        let c = channel(
            Interpolation::CubicSpline,
            vec![0.0, 2.0],
            ChannelValues::Translation(vec![z, z, z, z, Vec3::Y * 4.0, z]),
        );
        let ChannelValues::Translation(v) = &c.values else {
            unreachable!()
        };
        assert!(
            sample_vec3(&c, v, 1.0)
                .unwrap()
                .abs_diff_eq(Vec3::Y * 2.0, 1e-6)
        );
        // At f = 0.25: 3f² − 2f³ = 0.15625 of the way.
        assert!(
            sample_vec3(&c, v, 0.5)
                .unwrap()
                .abs_diff_eq(Vec3::Y * 0.625, 1e-6)
        );
    }

    #[test]
    fn a_non_finite_translation_key_is_ignored() {
        let c = channel(
            Interpolation::Linear,
            vec![0.0, 1.0],
            ChannelValues::Translation(vec![Vec3::ZERO, Vec3::new(f32::NAN, 0.0, 0.0)]),
        );
        let ChannelValues::Translation(v) = &c.values else {
            unreachable!()
        };
        assert_eq!(sample_vec3(&c, v, 0.5), None);
        assert_eq!(sample_vec3(&c, v, 0.0), Some(Vec3::ZERO));
    }

    #[test]
    fn a_zero_quaternion_key_is_ignored() {
        let c = channel(
            Interpolation::Linear,
            vec![0.0],
            ChannelValues::Rotation(vec![Quat::from_xyzw(0.0, 0.0, 0.0, 0.0)]),
        );
        let ChannelValues::Rotation(v) = &c.values else {
            unreachable!()
        };
        assert_eq!(sample_quat(&c, v, 0.0), None);
    }
}
