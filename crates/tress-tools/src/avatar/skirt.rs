//! The skirt of [`Variant::Skirt`](super::Variant::Skirt): a ring of spring
//! chains hung from the hips over one skinned cone of cloth, and the pelvis,
//! thigh and shin capsules that keep it off the body.
//!
//! The cloth is a flared ring (an A-line mini skirt, fluted) described by its profile
//! ([`PROFILE`]): each row of joints is an ellipse around the hips at one
//! height. Chain `c` hangs at angle `2π c / CHAINS` from the front (+Z)
//! towards the avatar's left (+X), one joint per profile row, the last a tip
//! at the hem. Every cloth vertex is skinned to the two chains either side of
//! it and, along them, to the bones around its height, so the cloth between
//! chains follows both.
//!
//! Design numbers and why:
//! - the waistband sits at the natural waist, 10 cm above the hips bone and
//!   15 cm above the hip joints, where a thigh flexed to the horizontal and
//!   past it (Crouch_Idle_Loop) passes under it: a band at 97 cm had the
//!   crouching thigh through the front chains' roots, 3.6-7.7 cm inside its
//!   capsule, where no contact rule can move cloth fixed to the hips
//!   (p99 117 %, 116 vertices inside the thigh; 39 %, none, at 105 cm,
//!   both with the earlier 31 × 28.5 cm hem);
//! - the hem sits 30 cm below the hips bone with a 37 × 35 cm radius, so a
//!   thigh swung 30° forward in a walk (its front 15 + 7 cm ahead of the hip
//!   at the hem's height) stays inside it: the skirt is pushed by the legs in
//!   kicks, crouches and sitting, not at every step (a 25 × 21 cm hem, tried
//!   first, was pushed in the dance too: skirt p99 stretch 69 % against 25 %),
//!   and raised thighs find more cloth to lie under (crouching p99 39.0 % with
//!   a 31 × 28.5 cm hem, 30.5 % with this one; sitting 16.7 %, 14.5 %);
//! - the rows above the hem are no wider than the hands allow: they swing
//!   past the cloth's upper half in a walk (a third row 2 cm wider put 23
//!   skirt vertices inside them);
//! - the thigh capsules are wider than the leg mesh (8 cm against 7.5 cm at
//!   the top) and almost meet between the legs, so a chain pressed down
//!   onto the lap in a sitting pose rests on them instead of falling into
//!   the gap, where the cloth beside it would cut through a thigh;
//! - two pelvis capsules keep the cloth from being pushed into the hips by a
//!   thigh coming up under it (crouching: 16 vertices inside the pelvis
//!   with one capsule, none with two);
//! - cone limits ([`ROOT_CONE_DEG`], [`JOINT_CONE_DEG`]) let the front lie
//!   along thighs raised past the horizontal but never fold the cloth up
//!   into the waist;
//! - [`CHAINS`] chains: with 32 band rounds and the earlier hem
//!   (`tress_core::spring::band::BAND_ROUNDS`), 16 / 24 / 32 chains give
//!   p99 sitting 19.6 / 16.7 / 20.8 %, dancing 6.0 / 4.6 / 3.5 % and
//!   crouching 36.4 / 39.0 / 48.8 %, and 24 is the only count with nothing
//!   inside the legs on all five clips (16: six vertices in a thigh
//!   crouching);
//! - the chains form one closed band ([`BAND_STRETCH`]): a chain a leg
//!   pushes takes its neighbours along, and the cloth between two chains
//!   is kept off the legs too.
//! - the cloth between two chains hangs in a fold ([`FOLD_RATIO`]) whose
//!   joint the runtime places from the two chains: the ring round the hips
//!   gains up to half its length before it stretches, which raised thighs
//!   ask of it (crouching p99 30.5 % without folds, 14 % with them); each
//!   half of a fold is split along the diagonal from its chain's upper
//!   corner to the ridge's lower one (the other diagonal stretched as the
//!   fold flattened lower down: crouching 20.4 % against 17.1 %);
//! - the weights along a chain ease into each joint ([`ALONG_EASE`]) and
//!   the runtime turns the band's bones so its ring crosses each at its
//!   root as at rest (`tress_core::spring::band_twist`): crouching p99 9.2 %
//!   against 13.8 % with straight weights and the shortest arc.

use glam::{Mat4, Vec3};
use tress_core::math::ops;

use super::geometry::Influence;
use super::hair::SpringParams;
use super::skeleton::{BONES, ColliderDef, b};
use tress_vrm::gltf_out::Primitive;

/// Spring chains around the hips.
pub const CHAINS: usize = 24;

/// One ring of joints: its height and its ellipse's half-axes (metres).
#[derive(Debug, Clone, Copy)]
pub struct Row {
    /// Height (model space).
    pub y: f32,
    /// Half-axis along X (sideways).
    pub rx: f32,
    /// Half-axis along Z (front-back).
    pub rz: f32,
}

/// The skirt's rows of joints, waist first, hem last: three segments per chain.
pub const PROFILE: [Row; 4] = [
    Row {
        y: 1.05,
        rx: 0.150,
        rz: 0.115,
    },
    Row {
        y: 0.92,
        rx: 0.200,
        rz: 0.180,
    },
    Row {
        y: 0.785,
        rx: 0.250,
        rz: 0.235,
    },
    Row {
        y: 0.65,
        rx: 0.370,
        rz: 0.350,
    },
];

/// Spring values of every skirt joint. The hit radius is the cloth's
/// margin, not its thickness (the cloth runs through the joints): when
/// the hands were colliders too, a walking hand pressed the cloth against
/// the thigh with under 5 cm between them, which two 2 cm margins cannot
/// pass (Walk_Loop p99 36 % with 2 cm, 13 % with 1 cm, before the band's
/// stretch went to 0).
pub const SPRING: SpringParams = SpringParams {
    stiffness: 1.0,
    drag: 0.4,
    gravity: 0.5,
    hit_radius: 0.01,
};

/// Cone half-angle of a chain's first segment around its rest direction
/// (relative to the hips), degrees: enough to lie along a thigh flexed
/// past the horizontal in a crouch (the rest direction is already 21–27°
/// out from straight down), not enough to fold up into the waist. Crouching
/// p99 stretch 115 % at 80°, 39 % at 100° and 120° alike (with the earlier
/// 31 × 28.5 cm hem); the other four clips do not reach the cone.
pub const ROOT_CONE_DEG: f32 = 100.0;
/// Cone half-angle of the later segments relative to the segment above,
/// degrees: the cloth bends over a knee but never doubles back.
pub const JOINT_CONE_DEG: f32 = 45.0;

/// How far two neighbouring chains' joints may move apart past their rest
/// distance (the skirt's band, `TRESS_springBone_band`): without the band a
/// thigh pushes one chain while its neighbours stay, and the cloth between
/// them stretches by the difference. None: the cloth skinned across a gap
/// stretches more than the gap itself (linear blend of the two chains'
/// rotations), so 5 % here gave 11–13 % p99 on Dance_Loop and Walk_Loop
/// and 0 gives 9–10 %.
pub const BAND_STRETCH: f32 = 0.0;
/// How far a diagonal between two neighbouring chains' joints may grow past
/// its rest length (the band's shear, `BandLink::shear` in tress-core): a
/// quad of cloth between two chains that leans into a parallelogram keeps
/// its sides and stretches along a diagonal (Walk_Loop and Jump_Loop).
/// 2 % measured best over 0–5 % on the five clips; held rigid (0) the
/// dance, whose skirt lags the hips' turn, stretches more
/// (docs/log/2026-12-05-skirt-shear.md).
pub const BAND_SHEAR: f32 = 0.02;

/// Pelvis, thigh and shin capsules: the skirt's collider group.
///
/// The forearms and hands are not in it. Hands that rest on the thighs
/// (Sitting_Idle_Loop) touch the leg mesh, so there is no room for cloth
/// between them; as colliders they pushed the chains on the thighs down
/// their sides, and the cloth between those chains and the ones on top
/// stretched (p99 62 % sitting, 25 % without them: the hands then rest on
/// the cloth, 57 cloth vertices within them, none in the legs). Arms
/// swinging in a walk or a dance put no cloth inside them either way
/// (docs/log/2026-12-05-skirt-hands.md).
pub const BODY_COLLIDERS: [ColliderDef; 6] = [
    // The pelvis as two capsules across it, above and below the hips bone,
    // covering the torso's 13 × 9.5 cm section from the waistband down to
    // the crotch (one capsule left its lower back corners bare).
    ColliderDef {
        bone: b::HIPS,
        offset: Vec3::new(-0.04, 0.05, 0.0),
        tail: Vec3::new(0.04, 0.05, 0.0),
        radius: 0.095,
        head_group: false,
    },
    ColliderDef {
        bone: b::HIPS,
        offset: Vec3::new(-0.04, -0.04, 0.0),
        tail: Vec3::new(0.04, -0.04, 0.0),
        radius: 0.095,
        head_group: false,
    },
    ColliderDef {
        bone: b::L_UPPER_LEG,
        offset: Vec3::new(0.0, -0.02, 0.0),
        tail: Vec3::new(0.0, -0.40, 0.0),
        radius: 0.08,
        head_group: false,
    },
    ColliderDef {
        bone: b::L_LOWER_LEG,
        offset: Vec3::ZERO,
        tail: Vec3::new(0.0, -0.42, 0.0),
        radius: 0.065,
        head_group: false,
    },
    ColliderDef {
        bone: b::R_UPPER_LEG,
        offset: Vec3::new(0.0, -0.02, 0.0),
        tail: Vec3::new(0.0, -0.40, 0.0),
        radius: 0.08,
        head_group: false,
    },
    ColliderDef {
        bone: b::R_LOWER_LEG,
        offset: Vec3::ZERO,
        tail: Vec3::new(0.0, -0.42, 0.0),
        radius: 0.065,
        head_group: false,
    },
];

/// Mesh rows per segment and mesh columns between two chains.
const ROWS_PER_SEGMENT: usize = 8;
const COLUMNS_PER_GAP: usize = 6;

/// Angle of chain `c` (or of a fractional column), radians from +Z towards +X.
fn angle(c: f32) -> f32 {
    core::f32::consts::TAU * c / CHAINS as f32
}

/// The profile at `s ∈ [0, 1]` along it (rows at `k / 3`), linearly between rows.
fn row_at(s: f32) -> Row {
    let segs = (PROFILE.len() - 1) as f32;
    let f = (s * segs).clamp(0.0, segs);
    let i = (f as usize).min(PROFILE.len() - 2);
    let u = f - i as f32;
    let (a, b) = (PROFILE[i], PROFILE[i + 1]);
    Row {
        y: a.y + (b.y - a.y) * u,
        rx: a.rx + (b.rx - a.rx) * u,
        rz: a.rz + (b.rz - a.rz) * u,
    }
}

fn on_row(r: Row, phi: f32) -> Vec3 {
    let (s, c) = ops::sin_cos(phi);
    Vec3::new(r.rx * s, r.y, r.rz * c)
}

/// The rest position of every chain's joints (model space), chain by chain,
/// waist first.
#[must_use]
pub fn chain_joints() -> Vec<Vec<Vec3>> {
    (0..CHAINS)
        .map(|c| {
            PROFILE
                .iter()
                .map(|&r| on_row(r, angle(c as f32)))
                .collect()
        })
        .collect()
}

/// The world positions of the skirt colliders' axis ends at rest.
#[must_use]
pub fn body_capsules_at_rest() -> Vec<(Vec3, Vec3, f32)> {
    BODY_COLLIDERS
        .iter()
        .map(|c| {
            let at = Vec3::from_array(BONES[c.bone].pos);
            (at + c.offset, at + c.tail, c.radius)
        })
        .collect()
}

/// How much longer the cloth between two neighbouring chains is than the
/// straight gap between their joints at rest: the surplus hangs in a fold
/// (a flute) outward of the gap, carried by a fold joint the runtime places
/// from the two chains (`TRESS_springBone_band`'s folds,
/// `tress_core::spring::fold`), so a gap that opens flattens the fold
/// instead of stretching the cloth. Without folds the ring was too short
/// round raised thighs (crouching p99 30.5 %, sitting 14.5 %); 1.3 and 1.8
/// measure within a point of 1.5 on every clip, and deeper folds put more
/// of the walking hands through them
/// (docs/log/2026-12-06-skirt-fold-bones.md).
pub const FOLD_RATIO: f32 = 1.5;

/// The bend of the chains past their rest bend at which a fold lies flat,
/// degrees (`foldFlatAngle`): a fold outside a bend lengthens by its depth
/// times the bend, so over a thigh it is pressed flatter. Pressed harder
/// it trades the sitting cloth for the crouching: p99 sitting / crouching
/// 8.14 / 9.52 % at 150°, 8.24 / 9.34 % at 90°, 8.34 / 9.20 % at 60°,
/// 8.65 / 9.11 % at 45°, with the eased weights and the band twist
/// (docs/log/2026-12-06-skirt-weights-and-band-twist.md); 60° leaves both
/// clear of 10 %.
pub const FOLD_FLAT_DEG: f32 = 60.0;

/// Where the fold between chains `c` and `c + 1` stands at `s ∈ [0, 1]`
/// along the profile: the gap's midpoint pushed out, horizontally and
/// square to the gap, so the two halves of the cloth across it are
/// [`FOLD_RATIO`] times the gap together, from the waistband down (gathered
/// there: a waistband without folds left the first segment's cloth to fan
/// from flat to a full fold, and it stretched along its diagonals as the
/// first row's gap opened, crouching 17.1 % against 14.5 %).
fn fold_at(c: usize, s: f32) -> Vec3 {
    let row = row_at(s);
    let a = on_row(row, angle(c as f32));
    let b = on_row(row, angle((c + 1) as f32));
    let gap = b - a;
    let mut out = gap.cross(Vec3::Y).normalize_or_zero();
    let mid = (a + b) * 0.5;
    if out.dot(Vec3::new(mid.x, 0.0, mid.z)) < 0.0 {
        out = -out;
    }
    let depth = 0.5 * gap.length() * ops::sqrt(FOLD_RATIO * FOLD_RATIO - 1.0);
    mid + out * depth
}

/// The rest position of every fold's joints (model space), fold `c` lying
/// between chains `c` and `c + 1`, one joint per profile row.
#[must_use]
pub fn fold_joints() -> Vec<Vec<Vec3>> {
    let segs = (PROFILE.len() - 1) as f32;
    (0..CHAINS)
        .map(|c| {
            (0..PROFILE.len())
                .map(|k| fold_at(c, k as f32 / segs))
                .collect()
        })
        .collect()
}

/// The cloth, skinned to the chain joints and the folds' joints;
/// `first_joint` is the skin index of chain 0's first joint, chains
/// following one another, [`PROFILE`]`.len()` joints each, and
/// `first_fold` that of fold 0's first joint, laid out the same way.
#[must_use]
pub fn mesh(first_joint: usize, first_fold: usize) -> Primitive {
    let segs = PROFILE.len() - 1;
    let rows = segs * ROWS_PER_SEGMENT;
    let cols = CHAINS * COLUMNS_PER_GAP;
    let index = |first: usize, chain: usize, k: usize| {
        u16::try_from(first + (chain % CHAINS) * PROFILE.len() + k).expect("joint index fits u16")
    };
    let mut p = Primitive::default();
    for r in 0..=rows {
        let s = r as f32 / rows as f32;
        let row = row_at(s);
        // Along a chain: bone i carries segment i; weights blend between
        // neighbouring bones from the middle of one segment to the middle
        // of the next, eased towards the joint (`ALONG_EASE`).
        let f = s * segs as f32;
        let i = (f as usize).min(segs - 1);
        let u = f - i as f32;
        let (a, bb, t) = if u < 0.5 && i > 0 {
            (i - 1, i, along_weight(0.5 + u))
        } else if u >= 0.5 && i + 1 < segs {
            (i, i + 1, along_weight(u - 0.5))
        } else {
            (i, i, 0.0)
        };
        for col in 0..cols {
            let c = col / COLUMNS_PER_GAP;
            let across = (col % COLUMNS_PER_GAP) as f32 / COLUMNS_PER_GAP as f32;
            let here = on_row(row, angle(c as f32));
            let next = on_row(row, angle((c + 1) as f32));
            let fold = fold_at(c, s);
            // Across a gap the cloth runs from the chain out to the fold
            // and back in to the next chain, each half skinned between
            // the two it spans.
            let (pos, inf) = if across <= 0.5 {
                let v = 2.0 * across;
                let j = [
                    index(first_joint, c, a),
                    index(first_joint, c, bb),
                    index(first_fold, c, a),
                    index(first_fold, c, bb),
                ];
                (here.lerp(fold, v), skin(j, t, v))
            } else {
                let v = 2.0 * across - 1.0;
                let j = [
                    index(first_fold, c, a),
                    index(first_fold, c, bb),
                    index(first_joint, c + 1, a),
                    index(first_joint, c + 1, bb),
                ];
                (fold.lerp(next, v), skin(j, t, v))
            };
            p.positions.push(pos);
            p.joints.push([inf[0].0, inf[1].0, inf[2].0, inf[3].0]);
            p.weights.push([inf[0].1, inf[1].1, inf[2].1, inf[3].1]);
        }
    }
    let at = |r: usize, col: usize| u32::try_from(r * cols + col % cols).expect("fits u32");
    for r in 0..rows {
        for col in 0..cols {
            let (a, bb, c, d) = (
                at(r, col),
                at(r, col + 1),
                at(r + 1, col),
                at(r + 1, col + 1),
            );
            // Counter-clockwise seen from outside; each quad split along
            // the diagonal from its chain's upper corner to the fold's
            // lower one, mirrored about the fold's ridge.
            if col % COLUMNS_PER_GAP < COLUMNS_PER_GAP / 2 {
                p.indices.extend_from_slice(&[a, c, d, a, d, bb]);
            } else {
                p.indices.extend_from_slice(&[a, c, bb, bb, c, d]);
            }
        }
    }
    // Smooth normals: each vertex the area-weighted sum of its triangles'.
    let mut normals = vec![Vec3::ZERO; p.positions.len()];
    for t in p.indices.chunks_exact(3) {
        let [a, b, c] = [t[0], t[1], t[2]].map(|i| i as usize);
        let n = (p.positions[b] - p.positions[a]).cross(p.positions[c] - p.positions[a]);
        for v in [a, b, c] {
            normals[v] += n;
        }
    }
    p.normals = normals
        .into_iter()
        .map(|n| n.normalize_or(Vec3::Z))
        .collect();
    p
}

/// How far the weights along a chain lean from a straight blend towards a
/// smoothstep, which gathers the change from one bone to the next about the
/// joint between them. Where a chain bends sharply (over a raised thigh),
/// a point skinned partly to the bone past the joint is carried round that
/// bone's turn; a blend that starts steeply halfway along the segment
/// carries the first rows out round the bend and stretches the cloth
/// there, one that starts flat does not. p99 crouching 13.8 % straight,
/// 11.6 % as a smoothstep, 11.3 % at 0.75 (folds flat at 150°, before the
/// band twist); steeper curves (smootherstep, a smoothstep twice) and
/// narrower blends measure worse
/// (docs/log/2026-12-06-skirt-weights-and-band-twist.md).
pub const ALONG_EASE: f32 = 0.75;

/// The weight of the second of two bones `x ∈ [0, 1]` of the way from the
/// middle of the first one's segment to the middle of the second's.
fn along_weight(x: f32) -> f32 {
    x + ALONG_EASE * (x * x * (3.0 - 2.0 * x) - x)
}

/// Bilinear weights: `along` between bones 0→1 (and 2→3) of a chain,
/// `across` from the first chain (0, 1) to the next (2, 3); zero weights
/// dropped to the front so the first influence always carries weight.
fn skin(j: [u16; 4], along: f32, across: f32) -> Influence {
    let w = [
        (1.0 - across) * (1.0 - along),
        (1.0 - across) * along,
        across * (1.0 - along),
        across * along,
    ];
    let mut out: Influence = [(0, 0.0); 4];
    let mut n = 0;
    for (k, &wk) in w.iter().enumerate() {
        if wk > 0.0 {
            out[n] = (j[k], wk);
            n += 1;
        }
    }
    out
}

/// Inverse bind matrices of the skirt joints, as [`chain_joints`] orders them.
#[must_use]
pub fn inverse_binds() -> Vec<Mat4> {
    chain_joints()
        .iter()
        .chain(&fold_joints())
        .flatten()
        .map(|p| Mat4::from_translation(-*p))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Distance from `p` to the segment `a`–`b`.
    fn to_axis(p: Vec3, a: Vec3, b: Vec3) -> f32 {
        let ab = b - a;
        let t = ((p - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0);
        p.distance(a + ab * t)
    }

    #[test]
    fn skirt_starts_clear_of_its_capsules() {
        // Every joint's hit sphere and every cloth vertex outside every
        // capsule of the skirt's collider group at rest, so nothing starts
        // in contact.
        let caps = body_capsules_at_rest();
        for chain in chain_joints() {
            for &p in &chain {
                for &(a, b, r) in &caps {
                    assert!(to_axis(p, a, b) > r + SPRING.hit_radius, "{p}");
                }
            }
        }
        for &p in &mesh(0, CHAINS * PROFILE.len()).positions {
            for &(a, b, r) in &caps {
                assert!(to_axis(p, a, b) > r, "{p}");
            }
        }
    }

    #[test]
    fn weights_sum_to_one_and_name_existing_joints() {
        // Chains' joints from 100, folds' after them.
        let joints = CHAINS * PROFILE.len();
        let m = mesh(100, 100 + joints);
        let joints = 2 * joints;
        for (j, w) in m.joints.iter().zip(&m.weights) {
            assert!((w.iter().sum::<f32>() - 1.0).abs() < 1e-5, "{w:?}");
            for (&ji, &wi) in j.iter().zip(w) {
                if wi > 0.0 {
                    assert!((100..100 + joints).contains(&usize::from(ji)), "{j:?}");
                }
            }
        }
        assert!(m.indices.iter().all(|&i| (i as usize) < m.positions.len()));
    }

    #[test]
    fn fold_joints_stand_out_by_the_cloths_surplus() {
        // Each half of the cloth across a gap, chain to fold, is
        // FOLD_RATIO / 2 times the gap, from the waistband down; the fold
        // stands outward of the gap's midpoint, square to the gap.
        let chains = chain_joints();
        for (c, fold) in fold_joints().iter().enumerate() {
            for (k, &f) in fold.iter().enumerate() {
                let (a, b) = (chains[c][k], chains[(c + 1) % CHAINS][k]);
                let gap = a.distance(b);
                let mid = (a + b) * 0.5;
                let depth = f.distance(mid);
                let want = 0.5 * gap * ops::sqrt(FOLD_RATIO * FOLD_RATIO - 1.0);
                assert!(
                    (depth - want).abs() < 1e-5,
                    "fold {c} row {k}: {depth} vs {want}"
                );
                assert!((f - mid).dot(b - a).abs() < 1e-6, "fold {c} row {k}");
                assert!(
                    (f - mid).dot(Vec3::new(mid.x, 0.0, mid.z)) > 0.0,
                    "fold {c} row {k}"
                );
                let half = f.distance(a);
                assert!(
                    (half - 0.5 * FOLD_RATIO * gap).abs() < 1e-5,
                    "fold {c} row {k}"
                );
            }
        }
    }

    #[test]
    fn chain_and_fold_joints_lie_on_the_cloth() {
        // Chain c's joints are the mesh vertices of column c·COLUMNS_PER_GAP
        // at rows k·ROWS_PER_SEGMENT, fold c's those half a gap on, so the
        // cloth starts where its bones are.
        let m = mesh(0, CHAINS * PROFILE.len());
        let cols = CHAINS * COLUMNS_PER_GAP;
        for (c, chain) in chain_joints().iter().enumerate() {
            for (k, &p) in chain.iter().enumerate() {
                let v = m.positions[k * ROWS_PER_SEGMENT * cols + c * COLUMNS_PER_GAP];
                assert!(v.distance(p) < 1e-6, "chain {c} joint {k}: {v} vs {p}");
            }
        }
        for (c, fold) in fold_joints().iter().enumerate() {
            for (k, &p) in fold.iter().enumerate() {
                let at = k * ROWS_PER_SEGMENT * cols + c * COLUMNS_PER_GAP + COLUMNS_PER_GAP / 2;
                assert!(m.positions[at].distance(p) < 1e-6, "fold {c} joint {k}");
            }
        }
    }
}
