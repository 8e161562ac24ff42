//! The built-in avatar's humanoid skeleton and body meshes.
//!
//! Every bone has an identity rest rotation, so a bone's local translation is
//! the difference of world positions and its inverse bind is a translation.
//! The avatar faces +Z (VRM 1.0); its left hand is at +X.

use glam::Vec3;
use tress_core::math::ops;

use super::geometry::{Influence, Section, TubeFn, blend, rigid, sphere};
use tress_vrm::gltf_out::Primitive;

/// One bone: glTF node name, VRM 1.0 humanoid name, parent, world position.
#[derive(Debug, Clone, Copy)]
pub struct BoneDef {
    /// Node name.
    pub name: &'static str,
    /// VRM 1.0 humanoid bone name.
    pub humanoid: &'static str,
    /// Index of the parent in [`BONES`].
    pub parent: Option<usize>,
    /// Rest position in model space, metres.
    pub pos: [f32; 3],
}

const fn bone(
    name: &'static str,
    humanoid: &'static str,
    parent: Option<usize>,
    pos: [f32; 3],
) -> BoneDef {
    BoneDef {
        name,
        humanoid,
        parent,
        pos,
    }
}

/// Index of each body bone in [`BONES`].
pub mod b {
    pub const HIPS: usize = 0;
    pub const SPINE: usize = 1;
    pub const CHEST: usize = 2;
    pub const NECK: usize = 3;
    pub const HEAD: usize = 4;
    pub const L_UPPER_ARM: usize = 5;
    pub const L_LOWER_ARM: usize = 6;
    pub const L_HAND: usize = 7;
    pub const R_UPPER_ARM: usize = 8;
    pub const R_LOWER_ARM: usize = 9;
    pub const R_HAND: usize = 10;
    pub const L_UPPER_LEG: usize = 11;
    pub const L_LOWER_LEG: usize = 12;
    pub const L_FOOT: usize = 13;
    pub const R_UPPER_LEG: usize = 14;
    pub const R_LOWER_LEG: usize = 15;
    pub const R_FOOT: usize = 16;
}

/// The humanoid skeleton, parents before children.
pub const BONES: [BoneDef; 17] = [
    bone("Hips", "hips", None, [0.0, 0.95, 0.0]),
    bone("Spine", "spine", Some(b::HIPS), [0.0, 1.05, 0.0]),
    bone("Chest", "chest", Some(b::SPINE), [0.0, 1.20, 0.0]),
    bone("Neck", "neck", Some(b::CHEST), [0.0, 1.42, 0.0]),
    bone("Head", "head", Some(b::NECK), [0.0, 1.50, 0.0]),
    bone(
        "LeftUpperArm",
        "leftUpperArm",
        Some(b::CHEST),
        [0.17, 1.38, 0.0],
    ),
    bone(
        "LeftLowerArm",
        "leftLowerArm",
        Some(b::L_UPPER_ARM),
        [0.45, 1.38, 0.0],
    ),
    bone(
        "LeftHand",
        "leftHand",
        Some(b::L_LOWER_ARM),
        [0.71, 1.38, 0.0],
    ),
    bone(
        "RightUpperArm",
        "rightUpperArm",
        Some(b::CHEST),
        [-0.17, 1.38, 0.0],
    ),
    bone(
        "RightLowerArm",
        "rightLowerArm",
        Some(b::R_UPPER_ARM),
        [-0.45, 1.38, 0.0],
    ),
    bone(
        "RightHand",
        "rightHand",
        Some(b::R_LOWER_ARM),
        [-0.71, 1.38, 0.0],
    ),
    bone(
        "LeftUpperLeg",
        "leftUpperLeg",
        Some(b::HIPS),
        [0.09, 0.90, 0.0],
    ),
    bone(
        "LeftLowerLeg",
        "leftLowerLeg",
        Some(b::L_UPPER_LEG),
        [0.09, 0.50, 0.0],
    ),
    bone(
        "LeftFoot",
        "leftFoot",
        Some(b::L_LOWER_LEG),
        [0.09, 0.08, 0.0],
    ),
    bone(
        "RightUpperLeg",
        "rightUpperLeg",
        Some(b::HIPS),
        [-0.09, 0.90, 0.0],
    ),
    bone(
        "RightLowerLeg",
        "rightLowerLeg",
        Some(b::R_UPPER_LEG),
        [-0.09, 0.50, 0.0],
    ),
    bone(
        "RightFoot",
        "rightFoot",
        Some(b::R_LOWER_LEG),
        [-0.09, 0.08, 0.0],
    ),
];

/// Centre of the head sphere, model space (metres).
pub const HEAD_CENTRE: Vec3 = Vec3::new(0.0, 1.60, 0.0);
/// Radius of the head sphere (metres).
pub const HEAD_RADIUS: f32 = 0.10;

pub(super) fn j(bone: usize) -> u16 {
    u16::try_from(bone).expect("few bones")
}

fn pos(bone: usize) -> Vec3 {
    Vec3::from_array(BONES[bone].pos)
}

/// Blend weights along a vertical run of bones (sorted by height), blending
/// linearly within `band` of each boundary so the skin never tears.
pub(super) fn by_height(y: f32, bones: &[usize], band: f32) -> Influence {
    let mut k = 0;
    while k + 1 < bones.len() && pos(bones[k + 1]).y <= y {
        k += 1;
    }
    let here = pos(bones[k]).y;
    if k > 0 && y < here + band {
        return blend(
            j(bones[k - 1]),
            j(bones[k]),
            (y - (here - band)) / (2.0 * band),
        );
    }
    if k + 1 < bones.len() {
        let next = pos(bones[k + 1]).y;
        if y > next - band {
            return blend(
                j(bones[k]),
                j(bones[k + 1]),
                (y - (next - band)) / (2.0 * band),
            );
        }
    }
    rigid(j(bones[k]))
}

/// Blend weights along a hanging run of bones (a leg: sorted by height,
/// each bone owning the part below its origin down to the next bone),
/// blending within `band` of each inner joint.
///
/// [`by_height`] gives each bone the part *above* its origin, right for a
/// spine but not for a leg, where it skins the thigh to the shin bone and
/// the shin to the foot; the first two avatars keep that (their bytes and
/// figures stay), the skirt variant, whose measurement is against the
/// legs, uses this.
pub(super) fn hanging(y: f32, bones: &[usize], band: f32) -> Influence {
    for w in bones.windows(2) {
        let joint = pos(w[0]).y;
        if (y - joint).abs() < band {
            return blend(j(w[0]), j(w[1]), (y - (joint - band)) / (2.0 * band));
        }
    }
    let owner = bones
        .iter()
        .copied()
        .find(|&b| pos(b).y > y)
        .or_else(|| bones.last().copied())
        .unwrap_or(b::HIPS);
    rigid(j(owner))
}

/// The torso, a separate "shirt" primitive skinned to hips, spine and chest,
/// built with `tube` ([`TubeFn`]).
#[must_use]
pub fn shirt(tube: TubeFn) -> Primitive {
    let path = [Vec3::new(0.0, 0.86, 0.0), Vec3::new(0.0, 1.46, 0.0)];
    tube(
        &path,
        24,
        24,
        Vec3::X,
        &|s| {
            // Wider at the shoulders, slimmer at the waist, rounded over the
            // shoulders into the neck.
            let w = 0.13 + 0.05 * s * s;
            let round = if s > 0.85 {
                let u = (s - 0.85) / 0.15;
                ops::sqrt((1.0 - u * u).max(0.0)).max(0.45)
            } else {
                1.0
            };
            Section {
                rx: w * round,
                rz: 0.095 * round,
            }
        },
        &|_, p| by_height(p.y, &[b::HIPS, b::SPINE, b::CHEST], 0.05),
    )
}

/// Limbs and neck as one "body" primitive, built with `tube` ([`TubeFn`]);
/// `hanging_legs` gives each leg bone the part below its origin (the thigh to the
/// upper leg) instead of the part above it, which the first two avatars keep.
#[must_use]
pub fn limbs(tube: TubeFn, hanging_legs: bool) -> Primitive {
    let mut body = Primitive::default();
    // Neck: a short tube blending into the head at the top.
    body.append(&tube(
        &[Vec3::new(0.0, 1.38, 0.0), Vec3::new(0.0, 1.55, 0.0)],
        8,
        16,
        Vec3::X,
        &|_| Section {
            rx: 0.045,
            rz: 0.045,
        },
        &|_, p| by_height(p.y, &[b::CHEST, b::NECK, b::HEAD], 0.02),
    ));
    for side in [1.0f32, -1.0] {
        let (ua, la, hand) = if side > 0.0 {
            (b::L_UPPER_ARM, b::L_LOWER_ARM, b::L_HAND)
        } else {
            (b::R_UPPER_ARM, b::R_LOWER_ARM, b::R_HAND)
        };
        let arm = [
            Vec3::new(0.12 * side, 1.38, 0.0),
            Vec3::new(0.80 * side, 1.38, 0.0),
        ];
        body.append(&tube(
            &arm,
            20,
            16,
            Vec3::Y,
            &|s| {
                let r = 0.045 - 0.015 * s;
                Section { rx: r, rz: r }
            },
            &|_, p| {
                let x = p.x * side;
                if x < pos(la).x * side - 0.03 {
                    rigid(j(ua))
                } else if x < pos(la).x * side + 0.03 {
                    blend(j(ua), j(la), (x - (pos(la).x * side - 0.03)) / 0.06)
                } else if x < pos(hand).x * side - 0.02 {
                    rigid(j(la))
                } else {
                    blend(j(la), j(hand), (x - (pos(hand).x * side - 0.02)) / 0.04)
                }
            },
        ));
        let (ul, ll, foot) = if side > 0.0 {
            (b::L_UPPER_LEG, b::L_LOWER_LEG, b::L_FOOT)
        } else {
            (b::R_UPPER_LEG, b::R_LOWER_LEG, b::R_FOOT)
        };
        let x = 0.09 * side;
        body.append(&tube(
            &[Vec3::new(x, 0.93, 0.0), Vec3::new(x, 0.04, 0.0)],
            24,
            16,
            Vec3::X,
            &|s| {
                let r = 0.075 - 0.035 * s;
                Section { rx: r, rz: r }
            },
            &|_, p| {
                if hanging_legs {
                    hanging(p.y, &[foot, ll, ul], 0.04)
                } else {
                    by_height(p.y, &[foot, ll, ul, b::HIPS], 0.04)
                }
            },
        ));
        body.append(&tube(
            &[Vec3::new(x, 0.04, -0.04), Vec3::new(x, 0.04, 0.16)],
            6,
            12,
            Vec3::X,
            &|_| Section {
                rx: 0.045,
                rz: 0.035,
            },
            &|_, _| rigid(j(foot)),
        ));
    }
    body
}

/// The head: a sphere with a nose so its facing can be seen.
#[must_use]
pub fn head() -> Primitive {
    let mut h = sphere(HEAD_CENTRE, HEAD_RADIUS, Vec3::ONE, 20, 32, &|_| {
        rigid(j(b::HEAD))
    });
    h.append(&sphere(
        HEAD_CENTRE + Vec3::new(0.0, -0.01, HEAD_RADIUS),
        0.018,
        Vec3::ONE,
        6,
        10,
        &|_| rigid(j(b::HEAD)),
    ));
    h
}

/// A static hair cap over the top, sides and back of the head (skinned to
/// the head), so the locks grow out of hair rather than a bald scalp.
#[must_use]
pub fn hair_cap() -> Primitive {
    let mut cap = sphere(
        HEAD_CENTRE + Vec3::new(0.0, 0.004, -0.004),
        HEAD_RADIUS + 0.008,
        Vec3::new(1.04, 1.0, 1.05),
        20,
        32,
        &|_| rigid(j(b::HEAD)),
    );
    // Keep the top everywhere, and the back and sides down to the nape;
    // leave the face open.
    let keep = |u: Vec3| u.y > 0.5 || (u.z < 0.2 && u.y > -0.55);
    let tris: Vec<u32> = cap
        .indices
        .chunks(3)
        .filter(|t| {
            let c = t.iter().map(|&i| cap.positions[i as usize]).sum::<Vec3>() / 3.0;
            keep((c - HEAD_CENTRE).normalize_or(Vec3::Y))
        })
        .flatten()
        .copied()
        .collect();
    cap.indices = tris;
    cap
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hanging_legs_skin_the_thigh_to_the_upper_leg() {
        let leg = [b::L_FOOT, b::L_LOWER_LEG, b::L_UPPER_LEG];
        // Mid-thigh, mid-shin, the foot, and halfway at the knee.
        assert_eq!(hanging(0.70, &leg, 0.04), rigid(j(b::L_UPPER_LEG)));
        assert_eq!(hanging(0.30, &leg, 0.04), rigid(j(b::L_LOWER_LEG)));
        assert_eq!(hanging(0.05, &leg, 0.04)[0].0, j(b::L_FOOT));
        let knee = hanging(0.50, &leg, 0.04);
        assert_eq!(knee[0].0, j(b::L_LOWER_LEG));
        assert!((knee[0].1 - 0.5).abs() < 1e-5, "{knee:?}");
        assert_eq!(knee[1].0, j(b::L_UPPER_LEG));
        // What the older rule does with the thigh, kept for the first two avatars.
        assert_eq!(
            by_height(
                0.70,
                &[b::L_FOOT, b::L_LOWER_LEG, b::L_UPPER_LEG, b::HIPS],
                0.04
            ),
            rigid(j(b::L_LOWER_LEG))
        );
    }
}

/// A collider of the generated avatar in model space, with where it hangs.
#[derive(Debug, Clone, Copy)]
pub struct ColliderDef {
    /// Bone it is attached to (index into [`BONES`]).
    pub bone: usize,
    /// Offset of the axis start from the bone, in the bone's frame.
    pub offset: Vec3,
    /// Offset of the axis end; equal to `offset` for a sphere.
    pub tail: Vec3,
    /// Radius (metres).
    pub radius: f32,
    /// True for the head group; false for the body group.
    pub head_group: bool,
}

/// Head sphere, neck, chest and both upper arms.
pub const COLLIDERS: [ColliderDef; 5] = [
    ColliderDef {
        bone: b::HEAD,
        offset: Vec3::new(0.0, 0.10, 0.0),
        tail: Vec3::new(0.0, 0.10, 0.0),
        // Covers the hair cap, which sits a little off the scalp.
        radius: HEAD_RADIUS + 0.005,
        head_group: true,
    },
    ColliderDef {
        bone: b::NECK,
        offset: Vec3::ZERO,
        tail: Vec3::new(0.0, 0.12, 0.0),
        radius: 0.05,
        head_group: false,
    },
    ColliderDef {
        bone: b::CHEST,
        offset: Vec3::new(-0.07, 0.10, 0.0),
        tail: Vec3::new(0.07, 0.10, 0.0),
        radius: 0.12,
        head_group: false,
    },
    ColliderDef {
        bone: b::L_UPPER_ARM,
        offset: Vec3::ZERO,
        tail: Vec3::new(0.26, 0.0, 0.0),
        radius: 0.05,
        head_group: false,
    },
    ColliderDef {
        bone: b::R_UPPER_ARM,
        offset: Vec3::ZERO,
        tail: Vec3::new(-0.26, 0.0, 0.0),
        radius: 0.05,
        head_group: false,
    },
];
