//! Arc-length resampling: any polyline to exactly the solver's particle count.
//!
//! Points are spaced evenly along the strand's length, so the solver's
//! segments all have the same rest length and the root and tip stay where
//! the groom put them.

use glam::Vec3;

/// Why `strand` cannot be simulated, or `None` when it can: fewer than two
/// points, a non-finite point, or no length (the points coincide). The
/// same conditions make [`resample_into`] refuse it.
#[must_use]
pub fn degeneracy(strand: &[Vec3]) -> Option<String> {
    if strand.len() < 2 {
        return Some(format!("has {} point(s), needs 2", strand.len()));
    }
    if let Some(v) = strand.iter().position(|p| !p.is_finite()) {
        return Some(format!("vertex {v} is not finite ({})", strand[v]));
    }
    let total: f32 = strand.windows(2).map(|w| (w[1] - w[0]).length()).sum();
    if !total.is_finite() {
        return Some("is too long for 32-bit floats (its length overflows)".to_owned());
    }
    if total <= 0.0 {
        return Some(format!(
            "has zero length: all {} points coincide",
            strand.len()
        ));
    }
    None
}

/// Fills `out` with points evenly spaced by arc length along `strand`
/// (first and last points kept exactly). Returns `None` when the strand has
/// fewer than two points, zero length, a non-finite point, or `out` has
/// fewer than two slots.
#[must_use]
pub fn resample_into(strand: &[Vec3], out: &mut [Vec3]) -> Option<()> {
    if strand.len() < 2 || out.len() < 2 || !strand.iter().all(|p| p.is_finite()) {
        return None;
    }
    let total: f32 = strand.windows(2).map(|w| (w[1] - w[0]).length()).sum();
    if total.is_nan() || total <= 0.0 || !total.is_finite() {
        return None;
    }
    let n = out.len();
    let (mut seg, mut seg_start) = (0usize, 0.0f32);
    for (k, o) in out.iter_mut().enumerate() {
        if k == n - 1 {
            *o = strand[strand.len() - 1];
            break;
        }
        let target = total * k as f32 / (n - 1) as f32;
        // Walk forward to the segment containing `target`.
        loop {
            let l = (strand[seg + 1] - strand[seg]).length();
            if seg_start + l >= target || seg + 2 >= strand.len() {
                let t = if l > 0.0 {
                    ((target - seg_start) / l).clamp(0.0, 1.0)
                } else {
                    0.0
                };
                *o = strand[seg].lerp(strand[seg + 1], t);
                break;
            }
            seg_start += l;
            seg += 1;
        }
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn even_spacing_on_an_uneven_polyline() {
        // An L: 1 m along x then 2 m along y (total 3 m), resampled to 4 points
        // at arc lengths 0, 1, 2, 3.
        let s = [Vec3::ZERO, Vec3::X, Vec3::new(1.0, 2.0, 0.0)];
        let mut out = [Vec3::ZERO; 4];
        resample_into(&s, &mut out).unwrap();
        let want = [
            Vec3::ZERO,
            Vec3::X,
            Vec3::new(1.0, 1.0, 0.0),
            Vec3::new(1.0, 2.0, 0.0),
        ];
        for (a, b) in out.iter().zip(want) {
            assert!((*a - b).length() < 1e-6, "{a} vs {b}");
        }
    }

    #[test]
    fn degeneracy_says_why() {
        let p = Vec3::ONE;
        #[rustfmt::skip]
        let cases: &[(&[Vec3], Option<&str>)] = &[
            (&[p, p, p], Some("has zero length: all 3 points coincide")),
            (&[p], Some("has 1 point(s), needs 2")),
            (&[p, Vec3::new(0.0, f32::NAN, 0.0)], Some("vertex 1 is not finite ([0, NaN, 0])")),
            (&[Vec3::splat(-3e38), Vec3::splat(3e38)], Some("is too long for 32-bit floats (its length overflows)")),
            (&[p, Vec3::ZERO], None),
        ];
        for (s, want) in cases {
            assert_eq!(degeneracy(s).as_deref(), *want, "{s:?}");
            assert_eq!(
                resample_into(s, &mut [Vec3::ZERO; 4]).is_none(),
                want.is_some()
            );
        }
    }

    #[test]
    fn degenerate_strands_are_refused() {
        let mut out = [Vec3::ZERO; 4];
        assert!(resample_into(&[Vec3::ONE, Vec3::ONE], &mut out).is_none());
        assert!(resample_into(&[Vec3::ONE], &mut out).is_none());
        assert!(resample_into(&[Vec3::ZERO, Vec3::splat(f32::NAN)], &mut out).is_none());
    }
}
