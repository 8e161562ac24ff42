//! Humanoid bone maps: which node of a source skeleton plays which VRM
//! humanoid bone.

use alloc::collections::{BTreeMap, BTreeSet};

use tress_vrm::model::Avatar;

/// Bones every retarget needs on both sides (VRM 1.0's required set).
pub const REQUIRED: [&str; 15] = [
    "hips",
    "spine",
    "head",
    "leftUpperArm",
    "leftLowerArm",
    "leftHand",
    "rightUpperArm",
    "rightLowerArm",
    "rightHand",
    "leftUpperLeg",
    "leftLowerLeg",
    "leftFoot",
    "rightUpperLeg",
    "rightLowerLeg",
    "rightFoot",
];

/// Bones whose rest orientation is trusted as-is (turned by the facing
/// only): the hips, and the feet and toes, because ankle-to-toe lines slope
/// differently on different skeletons (matching them would tilt soles into
/// the floor) while every rest pose stands flat on the ground.
pub const GROUND_ALIGNED: [&str; 5] = ["hips", "leftFoot", "rightFoot", "leftToes", "rightToes"];

/// Humanoid bones in parent-before-child order, each with the bones whose
/// rest position gives its direction (the first one mapped on both sides
/// wins; none: the bone keeps its parent's rest alignment).
///
/// Bones in [`GROUND_ALIGNED`] ignore this and keep their own rest
/// orientation instead.
pub const BONES: [(&str, &[&str]); 55] = [
    ("hips", &[]),
    ("spine", &["chest", "upperChest", "neck"]),
    ("chest", &["upperChest", "neck"]),
    ("upperChest", &["neck"]),
    ("neck", &["head"]),
    ("head", &[]),
    ("leftEye", &[]),
    ("rightEye", &[]),
    ("jaw", &[]),
    ("leftUpperLeg", &["leftLowerLeg"]),
    ("leftLowerLeg", &["leftFoot"]),
    ("leftFoot", &[]),
    ("leftToes", &[]),
    ("rightUpperLeg", &["rightLowerLeg"]),
    ("rightLowerLeg", &["rightFoot"]),
    ("rightFoot", &[]),
    ("rightToes", &[]),
    ("leftShoulder", &["leftUpperArm"]),
    ("leftUpperArm", &["leftLowerArm"]),
    ("leftLowerArm", &["leftHand"]),
    ("leftHand", &["leftMiddleProximal"]),
    ("rightShoulder", &["rightUpperArm"]),
    ("rightUpperArm", &["rightLowerArm"]),
    ("rightLowerArm", &["rightHand"]),
    ("rightHand", &["rightMiddleProximal"]),
    ("leftThumbMetacarpal", &["leftThumbProximal"]),
    ("leftThumbProximal", &["leftThumbDistal"]),
    ("leftThumbDistal", &[]),
    ("leftIndexProximal", &["leftIndexIntermediate"]),
    ("leftIndexIntermediate", &["leftIndexDistal"]),
    ("leftIndexDistal", &[]),
    ("leftMiddleProximal", &["leftMiddleIntermediate"]),
    ("leftMiddleIntermediate", &["leftMiddleDistal"]),
    ("leftMiddleDistal", &[]),
    ("leftRingProximal", &["leftRingIntermediate"]),
    ("leftRingIntermediate", &["leftRingDistal"]),
    ("leftRingDistal", &[]),
    ("leftLittleProximal", &["leftLittleIntermediate"]),
    ("leftLittleIntermediate", &["leftLittleDistal"]),
    ("leftLittleDistal", &[]),
    ("rightThumbMetacarpal", &["rightThumbProximal"]),
    ("rightThumbProximal", &["rightThumbDistal"]),
    ("rightThumbDistal", &[]),
    ("rightIndexProximal", &["rightIndexIntermediate"]),
    ("rightIndexIntermediate", &["rightIndexDistal"]),
    ("rightIndexDistal", &[]),
    ("rightMiddleProximal", &["rightMiddleIntermediate"]),
    ("rightMiddleIntermediate", &["rightMiddleDistal"]),
    ("rightMiddleDistal", &[]),
    ("rightRingProximal", &["rightRingIntermediate"]),
    ("rightRingIntermediate", &["rightRingDistal"]),
    ("rightRingDistal", &[]),
    ("rightLittleProximal", &["rightLittleIntermediate"]),
    ("rightLittleIntermediate", &["rightLittleDistal"]),
    ("rightLittleDistal", &[]),
];

/// The humanoid parent of a bone in the VRM hierarchy (the nearest one the
/// skeleton may lack is skipped by the caller).
#[must_use]
pub fn humanoid_parent(bone: &str) -> Option<&'static str> {
    let side = |s: &str| {
        if s.starts_with("left") {
            "left"
        } else {
            "right"
        }
    };
    let p = match bone {
        "hips" => return None,
        "spine" | "leftUpperLeg" | "rightUpperLeg" => "hips",
        "chest" => "spine",
        "upperChest" => "chest",
        "neck" | "leftShoulder" | "rightShoulder" => "upperChest",
        "head" => "neck",
        "leftEye" | "rightEye" | "jaw" => "head",
        _ => {
            let s = side(bone);
            let rest = &bone[s.len()..];
            let parent = match rest {
                "LowerLeg" => "UpperLeg",
                "Foot" => "LowerLeg",
                "Toes" => "Foot",
                "UpperArm" => "Shoulder",
                "LowerArm" => "UpperArm",
                "Hand" => "LowerArm",
                "ThumbMetacarpal" | "IndexProximal" | "MiddleProximal" | "RingProximal"
                | "LittleProximal" => "Hand",
                "ThumbProximal" => "ThumbMetacarpal",
                "ThumbDistal" => "ThumbProximal",
                r if r.ends_with("Intermediate") => {
                    return BONES
                        .iter()
                        .map(|(n, _)| *n)
                        .find(|n| *n == format!("{s}{}Proximal", &r[..r.len() - 12]));
                }
                r if r.ends_with("Distal") => {
                    return BONES
                        .iter()
                        .map(|(n, _)| *n)
                        .find(|n| *n == format!("{s}{}Intermediate", &r[..r.len() - 6]));
                }
                _ => return None,
            };
            return BONES
                .iter()
                .map(|(n, _)| *n)
                .find(|n| *n == format!("{s}{parent}"));
        }
    };
    Some(p)
}

/// The Universal Animation Library's Rigify `DEF-` names, by VRM bone.
/// Rigify's `.L` is the character's left.
pub const UAL_DEF: [(&str, &str); 52] = [
    ("hips", "DEF-hips"),
    ("spine", "DEF-spine.001"),
    ("chest", "DEF-spine.002"),
    ("upperChest", "DEF-spine.003"),
    ("neck", "DEF-neck"),
    ("head", "DEF-head"),
    ("leftUpperLeg", "DEF-thigh.L"),
    ("leftLowerLeg", "DEF-shin.L"),
    ("leftFoot", "DEF-foot.L"),
    ("leftToes", "DEF-toe.L"),
    ("rightUpperLeg", "DEF-thigh.R"),
    ("rightLowerLeg", "DEF-shin.R"),
    ("rightFoot", "DEF-foot.R"),
    ("rightToes", "DEF-toe.R"),
    ("leftShoulder", "DEF-shoulder.L"),
    ("leftUpperArm", "DEF-upper_arm.L"),
    ("leftLowerArm", "DEF-forearm.L"),
    ("leftHand", "DEF-hand.L"),
    ("rightShoulder", "DEF-shoulder.R"),
    ("rightUpperArm", "DEF-upper_arm.R"),
    ("rightLowerArm", "DEF-forearm.R"),
    ("rightHand", "DEF-hand.R"),
    ("leftThumbMetacarpal", "DEF-thumb.01.L"),
    ("leftThumbProximal", "DEF-thumb.02.L"),
    ("leftThumbDistal", "DEF-thumb.03.L"),
    ("leftIndexProximal", "DEF-f_index.01.L"),
    ("leftIndexIntermediate", "DEF-f_index.02.L"),
    ("leftIndexDistal", "DEF-f_index.03.L"),
    ("leftMiddleProximal", "DEF-f_middle.01.L"),
    ("leftMiddleIntermediate", "DEF-f_middle.02.L"),
    ("leftMiddleDistal", "DEF-f_middle.03.L"),
    ("leftRingProximal", "DEF-f_ring.01.L"),
    ("leftRingIntermediate", "DEF-f_ring.02.L"),
    ("leftRingDistal", "DEF-f_ring.03.L"),
    ("leftLittleProximal", "DEF-f_pinky.01.L"),
    ("leftLittleIntermediate", "DEF-f_pinky.02.L"),
    ("leftLittleDistal", "DEF-f_pinky.03.L"),
    ("rightThumbMetacarpal", "DEF-thumb.01.R"),
    ("rightThumbProximal", "DEF-thumb.02.R"),
    ("rightThumbDistal", "DEF-thumb.03.R"),
    ("rightIndexProximal", "DEF-f_index.01.R"),
    ("rightIndexIntermediate", "DEF-f_index.02.R"),
    ("rightIndexDistal", "DEF-f_index.03.R"),
    ("rightMiddleProximal", "DEF-f_middle.01.R"),
    ("rightMiddleIntermediate", "DEF-f_middle.02.R"),
    ("rightMiddleDistal", "DEF-f_middle.03.R"),
    ("rightRingProximal", "DEF-f_ring.01.R"),
    ("rightRingIntermediate", "DEF-f_ring.02.R"),
    ("rightRingDistal", "DEF-f_ring.03.R"),
    ("rightLittleProximal", "DEF-f_pinky.01.R"),
    ("rightLittleIntermediate", "DEF-f_pinky.02.R"),
    ("rightLittleDistal", "DEF-f_pinky.03.R"),
];

/// Where a source skeleton's bone map came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MapSource {
    /// The file's own humanoid map (VRM, VRMA).
    Humanoid,
    /// The built-in Universal Animation Library (`DEF-`) names.
    UalDef,
    /// Node names matched against the built-in conventions
    /// ([`super::bone_names`]).
    Names,
}

/// A source skeleton's map: VRM bone name → node.
#[derive(Debug, Clone, PartialEq)]
pub struct BoneMap {
    /// Bone → node index in the source file.
    pub bones: BTreeMap<String, usize>,
    /// Where it came from.
    pub source: MapSource,
}

impl BoneMap {
    /// The file's humanoid map when it has one (VRM, VRMA), else the
    /// Universal Animation Library's names when its `DEF-hips` is present,
    /// else the node names matched against the built-in conventions when
    /// they find the hips (an ambiguous match gives `None`;
    /// [`super::bone_names::match_names`] says why).
    #[must_use]
    pub fn detect(source: &Avatar) -> Option<BoneMap> {
        if let Some(h) = &source.humanoid
            && !h.bones.is_empty()
        {
            let mut bones = h.bones.clone();
            let taken: BTreeSet<usize> = bones.values().copied().collect();
            for node in bones.values_mut() {
                // A BVH end-site marker (three-vrm's idle_loop.vrma maps `head`
                // to one) only carries its parent's motion: use the parent.
                if let Some(n) = source.nodes.get(*node)
                    && n.name.eq_ignore_ascii_case("endsite")
                    && let Some(p) = n.parent
                    && !taken.contains(&p)
                {
                    *node = p;
                }
            }
            return Some(BoneMap {
                bones,
                source: MapSource::Humanoid,
            });
        }
        if source.node_by_name("DEF-hips").is_none() {
            let m = super::bone_names::match_names(&source.nodes).ok()?;
            if !m.bones.contains_key("hips") {
                return None;
            }
            return Some(BoneMap {
                bones: m.bones,
                source: MapSource::Names,
            });
        }
        let bones = UAL_DEF
            .iter()
            .filter_map(|(bone, name)| Some(((*bone).to_owned(), source.node_by_name(name)?)))
            .collect();
        Some(BoneMap {
            bones,
            source: MapSource::UalDef,
        })
    }

    /// The node playing `bone`.
    #[must_use]
    pub fn node(&self, bone: &str) -> Option<usize> {
        self.bones.get(bone).copied()
    }

    /// Required bones this map lacks.
    #[must_use]
    pub fn missing_required(&self) -> Vec<&'static str> {
        REQUIRED
            .iter()
            .copied()
            .filter(|b| !self.bones.contains_key(*b))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bone_but_hips_has_a_listed_parent_listed_before_it() {
        for (i, (bone, children)) in BONES.iter().enumerate() {
            if *bone == "hips" {
                continue;
            }
            let p = humanoid_parent(bone).unwrap_or_else(|| panic!("{bone} has no parent"));
            let pi = BONES.iter().position(|(n, _)| *n == p).unwrap();
            assert!(pi < i, "{bone}'s parent {p} comes after it");
            for c in *children {
                assert!(BONES.iter().any(|(n, _)| n == c), "{bone} → unknown {c}");
            }
        }
        assert_eq!(
            humanoid_parent("leftIndexDistal"),
            Some("leftIndexIntermediate")
        );
        assert_eq!(
            humanoid_parent("rightLittleIntermediate"),
            Some("rightLittleProximal")
        );
        assert_eq!(
            humanoid_parent("rightThumbDistal"),
            Some("rightThumbProximal")
        );
    }

    #[test]
    fn the_ual_map_names_only_known_bones_once() {
        let mut seen = alloc::collections::BTreeSet::new();
        for (bone, name) in UAL_DEF {
            assert!(BONES.iter().any(|(n, _)| *n == bone), "{bone}");
            assert!(seen.insert(name), "{name} twice");
        }
        for r in REQUIRED {
            assert!(UAL_DEF.iter().any(|(b, _)| *b == r), "UAL lacks {r}");
        }
    }
}
