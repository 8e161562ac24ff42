//! Humanoid bone maps read from node names, for rigs without a VRM humanoid.
//!
//! - [`normalise`]: a node name reduced to a side and a key (`mixamorig:LeftUpLeg`,
//!   `thigh_l`, `upper_leg.L` and `leftUpperLeg` all become left + a leg key);
//! - [`SIDED`], [`CENTRE`]: the table of keys the conventions use for each bone;
//! - [`match_names`]: every node of a skeleton matched against the table, two
//!   nodes claiming one bone resolved by hierarchy or reported;
//! - [`parse_json_map`]: a `{"hips": "pelvis", ...}` file that overrides the match.

use alloc::collections::BTreeMap;
use core::fmt;

use tress_vrm::model::Node;

/// Which side a name marks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The character's left.
    Left,
    /// The character's right.
    Right,
}

/// Prefixes that carry no bone meaning (rig namespaces, deform layers).
const PREFIXES: [&str; 6] = [
    "mixamorig1:",
    "mixamorig:",
    "def-",
    "org-",
    "bip01 ",
    "bip01_",
];

/// A node name as a side and a key: lower case, namespace prefixes and side
/// markers taken off, separators dropped and leading zeros of numbers removed
/// (`spine_01` and `Spine1` both give `spine1`).
#[must_use]
pub fn normalise(name: &str) -> (Option<Side>, String) {
    let mut s = name.trim().to_ascii_lowercase();
    for p in PREFIXES {
        if let Some(rest) = s.strip_prefix(p) {
            s = rest.to_owned();
            break;
        }
    }
    let mut side = None;
    for (word, sd) in [("left", Side::Left), ("right", Side::Right)] {
        if let Some(rest) = s.strip_prefix(word) {
            s = rest.to_owned();
            side = Some(sd);
            break;
        }
        if let Some(rest) = s.strip_suffix(word) {
            s = rest.to_owned();
            side = Some(sd);
            break;
        }
    }
    if side.is_none() {
        'outer: for (ch, sd) in [('l', Side::Left), ('r', Side::Right)] {
            for sep in ['_', '.', '-', ' '] {
                if let Some(rest) = s.strip_suffix(&format!("{sep}{ch}")[..]) {
                    s = rest.to_owned();
                    side = Some(sd);
                    break 'outer;
                }
                if let Some(rest) = s.strip_prefix(&format!("{ch}{sep}")[..]) {
                    s = rest.to_owned();
                    side = Some(sd);
                    break 'outer;
                }
            }
        }
    }
    let kept: Vec<char> = s
        .chars()
        .filter(|c| !matches!(c, '_' | '.' | '-' | ' ' | ':'))
        .collect();
    let mut key = String::with_capacity(kept.len());
    let mut i = 0;
    while i < kept.len() {
        if kept[i].is_ascii_digit() {
            let run_end = kept[i..]
                .iter()
                .position(|c| !c.is_ascii_digit())
                .map_or(kept.len(), |k| i + k);
            let run: String = kept[i..run_end].iter().collect();
            let trimmed = run.trim_start_matches('0');
            key.push_str(if trimmed.is_empty() { "0" } else { trimmed });
            i = run_end;
        } else {
            key.push(kept[i]);
            i += 1;
        }
    }
    (side, key)
}

/// Sided bones: (VRM name without `left`/`right`, keys across conventions).
///
/// VRM camelCase, snake_case (Godot's test rig), Mixamo, UE mannequin and
/// Rigify/Blender names reduce to these keys through [`normalise`].
pub const SIDED: [(&str, &[&str]); 9] = [
    ("Shoulder", &["shoulder", "clavicle"]),
    ("UpperArm", &["upperarm", "arm"]),
    ("LowerArm", &["lowerarm", "forearm"]),
    ("Hand", &["hand"]),
    ("UpperLeg", &["upperleg", "thigh", "upleg"]),
    ("LowerLeg", &["lowerleg", "shin", "calf", "leg", "knee"]),
    ("Foot", &["foot", "ankle"]),
    ("Toes", &["toes", "toe", "toebase", "ball"]),
    ("Eye", &["eye"]),
];

/// Bones without a side: (VRM name, keys). The spine is numbered in some
/// conventions and is matched as a chain instead (see [`match_names`]).
pub const CENTRE: [(&str, &[&str]); 6] = [
    ("hips", &["hips", "hip", "pelvis"]),
    ("chest", &["chest"]),
    ("upperChest", &["upperchest"]),
    ("neck", &["neck", "neck1"]),
    ("head", &["head"]),
    ("jaw", &["jaw"]),
];

/// A finger key without its side as the VRM bone's tail (`IndexProximal`):
/// a finger (`thumb`, `index`, `middle`, `ring`, `little` or `pinky`) after
/// an optional `hand` (Mixamo) or `f` (Rigify), then a segment number 1–3
/// (Mixamo, UE, Rigify; the thumb's 1 is its metacarpal) or VRM's word.
fn finger(key: &str) -> Option<String> {
    const FINGERS: [(&str, &str); 6] = [
        ("thumb", "Thumb"),
        ("index", "Index"),
        ("middle", "Middle"),
        ("ring", "Ring"),
        ("little", "Little"),
        ("pinky", "Little"),
    ];
    let key = key.strip_prefix("hand").unwrap_or(key);
    let (vrm, rest) = FINGERS.iter().find_map(|(name, vrm)| {
        key.strip_prefix(name)
            .or_else(|| key.strip_prefix('f').and_then(|k| k.strip_prefix(name)))
            .map(|rest| (*vrm, rest))
    })?;
    let thumb = vrm == "Thumb";
    let segment = match rest {
        "1" if thumb => "Metacarpal",
        "1" | "proximal" => "Proximal",
        "2" if thumb => "Proximal",
        "2" | "intermediate" => "Intermediate",
        "3" | "distal" => "Distal",
        "metacarpal" if thumb => "Metacarpal",
        _ => return None,
    };
    if thumb && segment == "Intermediate" {
        return None;
    }
    Some(format!("{vrm}{segment}"))
}

/// The VRM bone a node name claims, if any (spine keys excluded).
#[must_use]
pub fn bone_for(name: &str) -> Option<String> {
    let (side, key) = normalise(name);
    match side {
        Some(sd) => {
            let prefix = if sd == Side::Left { "left" } else { "right" };
            SIDED
                .iter()
                .find(|(_, keys)| keys.contains(&key.as_str()))
                .map(|(b, _)| (*b).to_owned())
                .or_else(|| finger(&key))
                .map(|b| format!("{prefix}{b}"))
        }
        None => CENTRE
            .iter()
            .find(|(_, keys)| keys.contains(&key.as_str()))
            .map(|(b, _)| (*b).to_owned()),
    }
}

/// A node name is a spine segment: `spine`, `spine1`, `spine_02`, … (its number).
fn spine_number(name: &str) -> Option<u32> {
    let (side, key) = normalise(name);
    if side.is_some() {
        return None;
    }
    let rest = key.strip_prefix("spine")?;
    if rest.is_empty() {
        Some(0)
    } else {
        rest.parse().ok()
    }
}

/// A name match: the map and what was decided on the way.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct NameMatch {
    /// VRM bone → node index.
    pub bones: BTreeMap<String, usize>,
    /// Choices made between several claimants, for the avatar's warnings.
    pub notes: Vec<String>,
}

/// Why a name map could not be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NameMapError {
    /// Unrelated nodes (neither above the other) claim one bone.
    Ambiguous {
        /// The VRM bone.
        bone: String,
        /// The claimants' node names.
        nodes: Vec<String>,
    },
    /// A JSON map is not an object of strings.
    BadJson(String),
    /// A JSON map names a bone VRM does not have.
    UnknownBone(String),
    /// A JSON map names a node the skeleton lacks.
    UnknownNode {
        /// The VRM bone.
        bone: String,
        /// The missing node name.
        node: String,
    },
}

impl fmt::Display for NameMapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Ambiguous { bone, nodes } => write!(
                f,
                "humanoid bone `{bone}` is claimed by unrelated nodes {}: give a bone map (--bone-map FILE.json)",
                nodes.join(", ")
            ),
            Self::BadJson(e) => write!(
                f,
                "bone map: {e} (expected an object of VRM bone → node name)"
            ),
            Self::UnknownBone(b) => write!(f, "bone map: `{b}` is not a VRM humanoid bone"),
            Self::UnknownNode { bone, node } => {
                write!(
                    f,
                    "bone map: `{bone}` → node `{node}`, which the file lacks"
                )
            }
        }
    }
}

impl core::error::Error for NameMapError {}

fn depth(nodes: &[Node], mut n: usize) -> usize {
    let mut d = 0;
    while let Some(p) = nodes[n].parent {
        n = p;
        d += 1;
        if d > nodes.len() {
            break;
        }
    }
    d
}

fn is_ancestor(nodes: &[Node], a: usize, mut n: usize) -> bool {
    let mut steps = 0;
    while let Some(p) = nodes[n].parent {
        if p == a {
            return true;
        }
        n = p;
        steps += 1;
        if steps > nodes.len() {
            break;
        }
    }
    false
}

/// Matches every node name against the conventions' table.
///
/// Several nodes claiming one bone keep the one nearest the root when they
/// lie on one line of descent (`neck_01` over `neck_02`; noted), and are an
/// error otherwise. Numbered spine segments on one line map, top down, to
/// `spine`, `chest` and (the last of three or more) `upperChest`, unless a
/// node claims `chest` / `upperChest` by name. Hierarchy is only used to break
/// ties: bones are found by name.
///
/// # Errors
/// [`NameMapError::Ambiguous`] naming the bone and its claimants.
pub fn match_names(nodes: &[Node]) -> Result<NameMatch, NameMapError> {
    let mut claims: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    let mut spines: Vec<(u32, usize)> = Vec::new();
    for (i, n) in nodes.iter().enumerate() {
        if n.mesh.is_some() {
            continue;
        }
        if let Some(b) = bone_for(&n.name) {
            claims.entry(b).or_default().push(i);
        } else if let Some(k) = spine_number(&n.name) {
            spines.push((k, i));
        }
    }
    let mut out = NameMatch::default();
    for (bone, mut who) in claims {
        who.sort_by_key(|&n| (depth(nodes, n), n));
        let top = who[0];
        if who[1..].iter().any(|&o| !is_ancestor(nodes, top, o)) {
            return Err(NameMapError::Ambiguous {
                bone,
                nodes: who.iter().map(|&n| nodes[n].name.clone()).collect(),
            });
        }
        if who.len() > 1 {
            out.notes.push(format!(
                "`{bone}`: `{}` chosen over its descendant(s) {}",
                nodes[top].name,
                who[1..]
                    .iter()
                    .map(|&n| format!("`{}`", nodes[n].name))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        out.bones.insert(bone, top);
    }
    // A hip bone named `spine` (Rigify's own rig) is the hips, not a segment.
    spines.retain(|(_, n)| out.bones.get("hips") != Some(n));
    spines.sort_by_key(|&(k, n)| (depth(nodes, n), k, n));
    if let Some(&(_, first)) = spines.first() {
        if spines[1..]
            .iter()
            .any(|&(_, o)| !is_ancestor(nodes, first, o))
            && spines
                .windows(2)
                .any(|w| depth(nodes, w[0].1) == depth(nodes, w[1].1))
        {
            return Err(NameMapError::Ambiguous {
                bone: "spine".into(),
                nodes: spines.iter().map(|&(_, n)| nodes[n].name.clone()).collect(),
            });
        }
        out.bones.insert("spine".into(), first);
        let named_chest = out.bones.contains_key("chest");
        if spines.len() >= 2 && !named_chest {
            out.bones.insert("chest".into(), spines[1].1);
        }
        if spines.len() >= 3 && !out.bones.contains_key("upperChest") && !named_chest {
            out.bones
                .insert("upperChest".into(), spines[spines.len() - 1].1);
        }
    }
    Ok(out)
}

/// Reads a JSON bone map (`{"hips": "pelvis", "head": "head", ...}`, VRM bone
/// → node name) against `nodes`.
///
/// # Errors
/// Not an object of strings, an unknown VRM bone or an unknown node.
pub fn parse_json_map(text: &str, nodes: &[Node]) -> Result<BTreeMap<String, usize>, NameMapError> {
    let v: serde_json::Value =
        serde_json::from_str(text).map_err(|e| NameMapError::BadJson(e.to_string()))?;
    let obj = v
        .as_object()
        .ok_or_else(|| NameMapError::BadJson("not a JSON object".into()))?;
    let mut out = BTreeMap::new();
    for (bone, node) in obj {
        let Some(node) = node.as_str() else {
            return Err(NameMapError::BadJson(format!("`{bone}` is not a string")));
        };
        if !super::bone_map::BONES.iter().any(|(b, _)| b == bone) {
            return Err(NameMapError::UnknownBone(bone.clone()));
        }
        let i =
            nodes
                .iter()
                .position(|n| n.name == node)
                .ok_or_else(|| NameMapError::UnknownNode {
                    bone: bone.clone(),
                    node: node.to_owned(),
                })?;
        out.insert(bone.clone(), i);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{Quat, Vec3};

    /// A skeleton from `(name, parent name)` pairs, parents first.
    fn skeleton(bones: &[(&str, Option<&str>)]) -> Vec<Node> {
        let mut nodes: Vec<Node> = Vec::new();
        for (name, parent) in bones {
            let parent = parent.map(|p| {
                nodes
                    .iter()
                    .position(|n| n.name == p)
                    .unwrap_or_else(|| panic!("{p} before {name}"))
            });
            nodes.push(Node {
                name: (*name).into(),
                parent,
                children: Vec::new(),
                translation: Vec3::Y,
                rotation: Quat::IDENTITY,
                scale: Vec3::ONE,
                mesh: None,
                skin: None,
            });
        }
        nodes
    }

    /// The body every convention is written in: (VRM bone, parent VRM bone).
    const BODY: [(&str, Option<&str>); 18] = [
        ("hips", None),
        ("spine", Some("hips")),
        ("chest", Some("spine")),
        ("neck", Some("chest")),
        ("head", Some("neck")),
        ("leftShoulder", Some("chest")),
        ("leftUpperArm", Some("leftShoulder")),
        ("leftLowerArm", Some("leftUpperArm")),
        ("leftHand", Some("leftLowerArm")),
        ("rightShoulder", Some("chest")),
        ("rightUpperArm", Some("rightShoulder")),
        ("rightLowerArm", Some("rightUpperArm")),
        ("rightHand", Some("rightLowerArm")),
        ("leftUpperLeg", Some("hips")),
        ("leftLowerLeg", Some("leftUpperLeg")),
        ("leftFoot", Some("leftLowerLeg")),
        ("rightUpperLeg", Some("hips")),
        ("rightLowerLeg", Some("rightUpperLeg")),
    ];

    /// One row per convention: its names for [`BODY`], in order. The names
    /// are the conventions' published ones (VRM 1.0 humanoid spec, Godot's
    /// spring-bone test rig, Mixamo, UE4/5 mannequin, Blender's `.L`).
    const ROWS: [(&str, [&str; 18]); 7] = [
        (
            "VRM camelCase",
            [
                "hips",
                "spine",
                "chest",
                "neck",
                "head",
                "leftShoulder",
                "leftUpperArm",
                "leftLowerArm",
                "leftHand",
                "rightShoulder",
                "rightUpperArm",
                "rightLowerArm",
                "rightHand",
                "leftUpperLeg",
                "leftLowerLeg",
                "leftFoot",
                "rightUpperLeg",
                "rightLowerLeg",
            ],
        ),
        (
            "snake_case _l/_r (Godot test rig)",
            [
                "hips",
                "spine",
                "chest",
                "neck",
                "head",
                "shoulder_l",
                "upper_arm_l",
                "forearm_l",
                "hand_l",
                "shoulder_r",
                "upper_arm_r",
                "forearm_r",
                "hand_r",
                "thigh_l",
                "shin_l",
                "foot_l",
                "thigh_r",
                "shin_r",
            ],
        ),
        (
            "Left/Right words",
            [
                "Hips",
                "Spine",
                "Chest",
                "Neck",
                "Head",
                "LeftShoulder",
                "Left_UpperArm",
                "Left_LowerArm",
                "Left_Hand",
                "RightShoulder",
                "Right_UpperArm",
                "Right_LowerArm",
                "Right_Hand",
                "UpperLeg_Left",
                "LowerLeg_Left",
                "Foot_Left",
                "UpperLeg_Right",
                "LowerLeg_Right",
            ],
        ),
        (
            "Mixamo",
            [
                "mixamorig:Hips",
                "mixamorig:Spine",
                "mixamorig:Spine1",
                "mixamorig:Neck",
                "mixamorig:Head",
                "mixamorig:LeftShoulder",
                "mixamorig:LeftArm",
                "mixamorig:LeftForeArm",
                "mixamorig:LeftHand",
                "mixamorig:RightShoulder",
                "mixamorig:RightArm",
                "mixamorig:RightForeArm",
                "mixamorig:RightHand",
                "mixamorig:LeftUpLeg",
                "mixamorig:LeftLeg",
                "mixamorig:LeftFoot",
                "mixamorig:RightUpLeg",
                "mixamorig:RightLeg",
            ],
        ),
        (
            "UE mannequin",
            [
                "pelvis",
                "spine_01",
                "spine_02",
                "neck_01",
                "head",
                "clavicle_l",
                "upperarm_l",
                "lowerarm_l",
                "hand_l",
                "clavicle_r",
                "upperarm_r",
                "lowerarm_r",
                "hand_r",
                "thigh_l",
                "calf_l",
                "foot_l",
                "thigh_r",
                "calf_r",
            ],
        ),
        (
            "Blender .L/.R",
            [
                "hips",
                "spine",
                "chest",
                "neck",
                "head",
                "shoulder.L",
                "upper_arm.L",
                "forearm.L",
                "hand.L",
                "shoulder.R",
                "upper_arm.R",
                "forearm.R",
                "hand.R",
                "thigh.L",
                "shin.L",
                "foot.L",
                "thigh.R",
                "shin.R",
            ],
        ),
        (
            "Rigify DEF- (without DEF-hips)",
            [
                "DEF-pelvis",
                "DEF-spine.001",
                "DEF-spine.002",
                "DEF-neck",
                "DEF-head",
                "DEF-shoulder.L",
                "DEF-upper_arm.L",
                "DEF-forearm.L",
                "DEF-hand.L",
                "DEF-shoulder.R",
                "DEF-upper_arm.R",
                "DEF-forearm.R",
                "DEF-hand.R",
                "DEF-thigh.L",
                "DEF-shin.L",
                "DEF-foot.L",
                "DEF-thigh.R",
                "DEF-shin.R",
            ],
        ),
    ];

    #[test]
    fn each_convention_maps_the_whole_body() {
        for (convention, names) in ROWS {
            let bones: Vec<(&str, Option<&str>)> = BODY
                .iter()
                .zip(names)
                .map(|((_, parent), name)| {
                    let parent = parent.map(|p| {
                        let i = BODY.iter().position(|(b, _)| *b == p).unwrap();
                        names[i]
                    });
                    (name, parent)
                })
                .collect();
            let nodes = skeleton(&bones);
            let m = match_names(&nodes).unwrap_or_else(|e| panic!("{convention}: {e}"));
            for (i, (bone, _)) in BODY.iter().enumerate() {
                assert_eq!(
                    m.bones.get(*bone),
                    Some(&i),
                    "{convention}: {bone} should be {} (got {:?})",
                    names[i],
                    m.bones.get(*bone).map(|&n| &nodes[n].name)
                );
            }
            assert_eq!(m.bones.len(), BODY.len(), "{convention}: {:?}", m.bones);
        }
    }

    #[test]
    fn ue5_spine_chain_gives_spine_chest_and_upper_chest() {
        let nodes = skeleton(&[
            ("pelvis", None),
            ("spine_01", Some("pelvis")),
            ("spine_02", Some("spine_01")),
            ("spine_03", Some("spine_02")),
            ("spine_04", Some("spine_03")),
            ("spine_05", Some("spine_04")),
            ("neck_01", Some("spine_05")),
            ("neck_02", Some("neck_01")),
            ("head", Some("neck_02")),
        ]);
        let m = match_names(&nodes).unwrap();
        let name = |b: &str| nodes[m.bones[b]].name.as_str();
        assert_eq!(name("spine"), "spine_01");
        assert_eq!(name("chest"), "spine_02");
        assert_eq!(name("upperChest"), "spine_05");
        assert_eq!(name("neck"), "neck_01");
        assert!(m.notes.is_empty(), "neck_02 is no neck key: {:?}", m.notes);
    }

    #[test]
    fn a_descendant_claimant_loses_with_a_note_and_unrelated_ones_are_an_error() {
        let nodes = skeleton(&[
            ("hips", None),
            ("head", Some("hips")),
            ("Head", Some("head")),
        ]);
        let m = match_names(&nodes).unwrap();
        assert_eq!(m.bones["head"], 1);
        assert_eq!(m.notes.len(), 1, "{:?}", m.notes);
        let nodes = skeleton(&[
            ("hips", None),
            ("hand_l", Some("hips")),
            ("Left_Hand", Some("hips")),
        ]);
        let e = match_names(&nodes).unwrap_err();
        assert!(e.to_string().contains("leftHand"), "{e}");
        assert!(e.to_string().contains("Left_Hand"), "{e}");
    }

    #[test]
    fn names_that_only_look_like_bones_are_left_alone() {
        for n in [
            "hair_l_0",
            "HeadTop_End",
            "ik_hand_l",
            "mixamorig:LeftHandIndex4",
            "ponytail_1",
        ] {
            assert_eq!(bone_for(n), None, "{n}");
        }
        assert_eq!(bone_for("Bip01 L Thigh").as_deref(), Some("leftUpperLeg"));
        assert_eq!(
            bone_for("mixamorig1:RightToeBase").as_deref(),
            Some("rightToes")
        );
        assert_eq!(bone_for("ball_r").as_deref(), Some("rightToes"));
    }

    #[test]
    fn fingers_by_convention() {
        for (name, bone) in [
            ("leftIndexProximal", "leftIndexProximal"),
            ("leftThumbMetacarpal", "leftThumbMetacarpal"),
            ("mixamorig:LeftHandIndex1", "leftIndexProximal"),
            ("mixamorig:RightHandThumb1", "rightThumbMetacarpal"),
            ("mixamorig:RightHandPinky3", "rightLittleDistal"),
            ("index_01_l", "leftIndexProximal"),
            ("thumb_02_r", "rightThumbProximal"),
            ("middle_03_l", "leftMiddleDistal"),
            ("DEF-f_ring.02.L", "leftRingIntermediate"),
            ("DEF-thumb.03.R", "rightThumbDistal"),
            ("little_intermediate_r", "rightLittleIntermediate"),
        ] {
            assert_eq!(bone_for(name).as_deref(), Some(bone), "{name}");
            assert!(
                super::super::bone_map::BONES
                    .iter()
                    .any(|(b, _)| *b == bone),
                "{bone} is a VRM bone"
            );
        }
        for n in [
            "index_metacarpal_l",
            "thumb_intermediate_l",
            "mixamorig:LeftHandRing4",
        ] {
            assert_eq!(bone_for(n), None, "{n}");
        }
    }

    #[test]
    fn json_map_names_bones_and_nodes_or_says_which_is_wrong() {
        let nodes = skeleton(&[("root", None), ("pelvis", Some("root"))]);
        let m = parse_json_map(r#"{"hips": "pelvis"}"#, &nodes).unwrap();
        assert_eq!(m["hips"], 1);
        let e = parse_json_map(r#"{"hips": "Pelvis"}"#, &nodes).unwrap_err();
        assert!(e.to_string().contains("`Pelvis`"), "{e}");
        let e = parse_json_map(r#"{"hip": "pelvis"}"#, &nodes).unwrap_err();
        assert!(e.to_string().contains("`hip`"), "{e}");
        assert!(parse_json_map("[1]", &nodes).is_err());
    }
}
