//! Skinned strand roots: each strand carried by up to four bones of an
//! animated skeleton instead of one rigid head pose.
//!
//! TressFX 4 skins a strand with its root's bone weights: the root moves to
//! `Σ wᵢ Mᵢ p` (linear blend skinning with the caller's bone matrices
//! `Mᵢ`, each the bone's current pose times its inverse bind pose), and the
//! groomed shape is held in the frame of the blended rotation. Here the
//! rotation is the weight-blended bone quaternions, aligned to the first
//! bone's hemisphere and normalised, so the groomed shape turns rigidly
//! and keeps its segment lengths; a single bone gives its own rotation.
//!
//! [`skin_rest`] writes the groom carried this way into caller-owned arrays
//! (no allocation); the step then runs with an identity head frame over
//! those arrays, so the kernel and the rigid-head path are untouched.

use super::buffers::{self, BufferLenError, StrandRest};
use super::layout::StrandLayout;
use crate::math::{Pose, Quat, Real, Vec3, quat};

/// Bones one strand's root weighs, as in TressFX.
pub const MAX_INFLUENCES: usize = 4;

/// One strand's (bone index, weight) pairs; unused slots weigh 0.
pub type BoneWeights = [(u32, Real); MAX_INFLUENCES];

/// Why skinning data does not fit a sim.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SkinError {
    /// One entry per strand is needed.
    StrandCount {
        /// Strands in the sim.
        expected: usize,
        /// Weight entries given.
        found: usize,
    },
    /// A weighted bone past the bone list.
    BoneIndex {
        /// The strand.
        strand: usize,
        /// Its bone index.
        bone: u32,
        /// Bones given.
        bones: usize,
    },
    /// A weight that is negative or not finite, or weights summing to 0.
    Weight {
        /// The strand.
        strand: usize,
    },
    /// A frame's bone list has another length than the one skinning was
    /// set up with.
    BoneCount {
        /// Bones at setup.
        expected: usize,
        /// Bones this frame.
        found: usize,
    },
}

impl core::fmt::Display for SkinError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            Self::StrandCount { expected, found } => write!(
                f,
                "skin weights for {found} strands, the groom has {expected}"
            ),
            Self::BoneIndex {
                strand,
                bone,
                bones,
            } => write!(
                f,
                "strand {strand} weighs bone {bone}; the skeleton has {bones} bones"
            ),
            Self::Weight { strand } => write!(
                f,
                "strand {strand} has a negative or non-finite weight, or none"
            ),
            Self::BoneCount { expected, found } => {
                write!(
                    f,
                    "{found} bone poses given, skinning was set up with {expected}"
                )
            }
        }
    }
}

/// Checks that `weights` has one entry per strand, every weighted bone is
/// below `bones` and every strand's weights are finite, non-negative and
/// sum to more than 0.
///
/// # Errors
/// The first [`SkinError`] found, in strand order.
pub fn check_weights(
    weights: &[BoneWeights],
    strands: usize,
    bones: usize,
) -> Result<(), SkinError> {
    if weights.len() != strands {
        return Err(SkinError::StrandCount {
            expected: strands,
            found: weights.len(),
        });
    }
    for (strand, w) in weights.iter().enumerate() {
        let mut sum = 0.0;
        for &(bone, weight) in w {
            if !weight.is_finite() || weight < 0.0 {
                return Err(SkinError::Weight { strand });
            }
            if weight > 0.0 && bone as usize >= bones {
                return Err(SkinError::BoneIndex {
                    strand,
                    bone,
                    bones,
                });
            }
            sum += weight;
        }
        if sum <= 0.0 {
            return Err(SkinError::Weight { strand });
        }
    }
    Ok(())
}

/// One strand's carrier: its root skinned by `weights` over `bones`
/// (`Σ wᵢ Mᵢ root`, weights divided by their sum) and the blended rotation
/// the groomed shape is held in. Influences with weight 0 or a bone past
/// `bones` are skipped; with none left the root stays as given, unrotated.
#[must_use]
pub fn skin_root(weights: &BoneWeights, bones: &[Pose], root: Vec3) -> (Vec3, Quat) {
    let mut pos = Vec3::ZERO;
    let mut rot = Quat::from_xyzw(0.0, 0.0, 0.0, 0.0);
    let mut first: Option<Quat> = None;
    let mut sum = 0.0;
    for &(bone, w) in weights {
        let Some(b) = bones.get(bone as usize).filter(|_| w > 0.0) else {
            continue;
        };
        pos += b.transform_point(root) * w;
        let lead = *first.get_or_insert(b.rot);
        // q and −q are one rotation: blend on the first bone's side.
        let q = if quat::dot(lead, b.rot) < 0.0 {
            -b.rot
        } else {
            b.rot
        };
        rot += q * w;
        sum += w;
    }
    if sum <= 0.0 {
        return (root, Quat::IDENTITY);
    }
    (pos / sum, quat::normalize_or(rot, Quat::IDENTITY))
}

/// Writes the groom `rest` carried by each strand's skinning into `x`,
/// `y`, `z` (the layout's length): the root at [`skin_root`]'s position
/// and particle `i` at `root + R (pᵢ − p₀)`. Padding strands take the last
/// real strand's weights, as [`super::fill_rest`] gives them its points.
/// A strand without an entry in `weights` stays at its groomed position.
///
/// # Errors
/// [`BufferLenError`] when an output array or `rest` is not the layout's
/// length.
pub fn skin_rest(
    layout: &StrandLayout,
    weights: &[BoneWeights],
    bones: &[Pose],
    rest: &StrandRest<'_>,
    x: &mut [Real],
    y: &mut [Real],
    z: &mut [Real],
) -> Result<(), BufferLenError> {
    let n = layout.len();
    buffers::check(
        &[
            x.len(),
            y.len(),
            z.len(),
            rest.x.len(),
            rest.y.len(),
            rest.z.len(),
        ],
        n,
    )?;
    let last = layout.strands().saturating_sub(1);
    let none: BoneWeights = [(0, 0.0); MAX_INFLUENCES];
    for s in 0..layout.chunks() * layout.lanes() {
        let w = weights.get(s.min(last)).unwrap_or(&none);
        let i0 = layout.index(s, 0);
        let p0 = Vec3::new(rest.x[i0], rest.y[i0], rest.z[i0]);
        let (root, rot) = skin_root(w, bones, p0);
        for p in 0..layout.particles() {
            let i = layout.index(s, p);
            let q = if p == 0 {
                root
            } else {
                root + quat::rotate(rot, Vec3::new(rest.x[i], rest.y[i], rest.z[i]) - p0)
            };
            x[i] = q.x;
            y[i] = q.y;
            z[i] = q.z;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strand::fill_rest;

    fn quarter_turn_z() -> Quat {
        // cos 45°, sin 45° about +Z: (x, y) → (−y, x).
        let h = core::f32::consts::FRAC_1_SQRT_2;
        Quat::from_xyzw(0.0, 0.0, h, h)
    }

    #[test]
    fn root_is_the_weighted_sum_of_the_bone_transforms() {
        // Hand computation: bone 0 moves +1 in x, bone 1 turns a quarter
        // about z. p = (1, 0, 0): bone 0 gives (2, 0, 0), bone 1 (0, 1, 0);
        // 0.25 and 0.75 of those are (0.5, 0.75, 0).
        let bones = [
            Pose::new(Vec3::X, Quat::IDENTITY),
            Pose::new(Vec3::ZERO, quarter_turn_z()),
        ];
        let w: BoneWeights = [(0, 0.25), (1, 0.75), (0, 0.0), (0, 0.0)];
        let (root, rot) = skin_root(&w, &bones, Vec3::X);
        assert!((root - Vec3::new(0.5, 0.75, 0.0)).length() < 1e-6, "{root}");
        // Rotation: 0.25·identity + 0.75·quarter (half-angle 45°), normalised,
        // is a turn of 2·atan2(0.75 sin 45°, 0.25 + 0.75 cos 45°)
        // = 2·atan2(0.5303, 0.7803) = 68.40° (hand value).
        let angle = 2.0 * crate::math::ops::atan2(rot.z, rot.w);
        assert!(
            (angle.to_degrees() - 68.40).abs() < 0.01,
            "{}",
            angle.to_degrees()
        );
        // Weights are divided by their sum; one bone is its own transform.
        let doubled: BoneWeights = [(0, 0.5), (1, 1.5), (0, 0.0), (0, 0.0)];
        assert_eq!(skin_root(&doubled, &bones, Vec3::X).0, root);
        let one: BoneWeights = [(1, 1.0), (0, 0.0), (0, 0.0), (0, 0.0)];
        let q = skin_root(&one, &bones, Vec3::X).1;
        assert!(quat::dot(q, quarter_turn_z()) > 1.0 - 1e-6, "{q}");
        // A bone past the list is skipped; none left keeps the root.
        let far: BoneWeights = [(9, 1.0), (0, 0.0), (0, 0.0), (0, 0.0)];
        assert_eq!(skin_root(&far, &bones, Vec3::X), (Vec3::X, Quat::IDENTITY));
        // -q is the same rotation as q: the blend does not cancel.
        let flipped = [bones[1], Pose::new(Vec3::ZERO, -quarter_turn_z())];
        let half: BoneWeights = [(0, 0.5), (1, 0.5), (0, 0.0), (0, 0.0)];
        let (r, q) = skin_root(&half, &flipped, Vec3::X);
        assert!((r - Vec3::Y).length() < 1e-6, "{r}");
        assert!((q.z - quarter_turn_z().z).abs() < 1e-6 && (q.w - quarter_turn_z().w).abs() < 1e-6);
    }

    #[test]
    fn the_groomed_shape_turns_with_the_root() {
        // One strand along -y from (1, 0, 0), one bone turned a quarter
        // about z and moved up 2: the strand hangs along +x from (0, 3, 0).
        let layout = StrandLayout::new(1, 4).unwrap();
        let n = layout.len();
        // No allocator in the core: fixed arrays cut to the layout's length.
        assert!(n <= 128, "one chunk of 4 particles fits 128 floats");
        let mut store = [[0.0; 128]; 8];
        let [rx, ry, rz, len, inv, x, y, z] = &mut store;
        let (rx, ry, rz) = (&mut rx[..n], &mut ry[..n], &mut rz[..n]);
        let (len, inv) = (&mut len[..n], &mut inv[..n]);
        let (x, y, z) = (&mut x[..n], &mut y[..n], &mut z[..n]);
        fill_rest(
            &layout,
            |_, p| Vec3::new(1.0, -(p as f32) * 0.1, 0.0),
            rx,
            ry,
            rz,
            len,
            inv,
        )
        .unwrap();
        let rest = StrandRest {
            x: rx,
            y: ry,
            z: rz,
            len,
            inv_len: inv,
        };
        let bones = [Pose::new(Vec3::new(0.0, 2.0, 0.0), quarter_turn_z())];
        let w = [[(0, 1.0), (0, 0.0), (0, 0.0), (0, 0.0)]];
        skin_rest(&layout, &w, &bones, &rest, x, y, z).unwrap();
        for p in 0..4 {
            let i = layout.index(0, p);
            let want = Vec3::new(0.1 * p as f32, 3.0, 0.0);
            let got = Vec3::new(x[i], y[i], z[i]);
            assert!((got - want).length() < 1e-6, "particle {p}: {got}");
        }
        // Short output arrays are refused, not indexed past.
        let mut short = [0.0; 127];
        let e = skin_rest(&layout, &w, &bones, &rest, &mut short[..n - 1], y, z);
        assert_eq!(
            e,
            Err(BufferLenError {
                expected: n,
                found: n - 1
            })
        );
    }

    #[test]
    fn weights_are_checked_per_strand() {
        let ok: BoneWeights = [(1, 1.0), (0, 0.0), (0, 0.0), (0, 0.0)];
        assert_eq!(check_weights(&[ok, ok], 2, 2), Ok(()));
        assert_eq!(
            check_weights(&[ok], 2, 2),
            Err(SkinError::StrandCount {
                expected: 2,
                found: 1
            })
        );
        assert_eq!(
            check_weights(&[ok, ok], 2, 1),
            Err(SkinError::BoneIndex {
                strand: 0,
                bone: 1,
                bones: 1
            })
        );
        let nan: BoneWeights = [(0, Real::NAN), (0, 0.0), (0, 0.0), (0, 0.0)];
        let zero: BoneWeights = [(0, 0.0); 4];
        assert_eq!(
            check_weights(&[ok, nan], 2, 2),
            Err(SkinError::Weight { strand: 1 })
        );
        assert_eq!(
            check_weights(&[zero, ok], 2, 2),
            Err(SkinError::Weight { strand: 0 })
        );
    }
}
