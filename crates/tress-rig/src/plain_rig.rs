//! Plain glTF humanoids (no VRM extensions) made usable: a humanoid map from
//! node names or a JSON map, and spring chains declared by root and end bone
//! or found dangling under the head.
//!
//! - [`ChainSpec`] / [`ChainSpec::parse`]: `ROOT:END[:stiffness=..,drag=..,gravity=..,radius=..]`;
//! - [`PlainRigOptions`]: the map file's text, the chains, the head search;
//! - [`apply`]: fills an [`Avatar`]'s humanoid and springs, noting each
//!   choice in its warnings;
//! - [`dangling_under_head`]: the head's bone chains no humanoid bone lies under.

use alloc::collections::BTreeMap;
use core::fmt;

use glam::Vec3;
use tress_vrm::{Avatar, Humanoid, SpringChain, SpringJoint, Warning};

use crate::anim::bone_names::{self, NameMapError};
use crate::hand_rig::HandParams;

/// Joint values of a declared chain unless it says otherwise: the same as a
/// hand-made chain's in `TressSpringHair` (stiffness 1, drag 0.4, no gravity,
/// 2 cm radius).
pub const DEFAULT_PARAMS: HandParams = HandParams {
    stiffness: 1.0,
    drag: 0.4,
    gravity_power: 0.0,
    gravity_dir: Vec3::NEG_Y,
    hit_radius: 0.02,
};

/// One declared chain: root and end bone names and its joint values.
#[derive(Debug, Clone, PartialEq)]
pub struct ChainSpec {
    /// First bone.
    pub root: String,
    /// Last bone (descends from `root`).
    pub end: String,
    /// Every joint's values.
    pub params: HandParams,
}

impl ChainSpec {
    /// Parses `ROOT:END` or `ROOT:END:key=value,...` with keys `stiffness`,
    /// `drag`, `gravity` (power), `radius` (metres); the rest default to
    /// [`DEFAULT_PARAMS`].
    ///
    /// # Errors
    /// A message naming the part that is wrong.
    pub fn parse(text: &str) -> Result<Self, String> {
        let mut parts = text.splitn(3, ':');
        let root = parts.next().unwrap_or_default().trim();
        let end = parts.next().unwrap_or_default().trim();
        if root.is_empty() || end.is_empty() {
            return Err(format!(
                "chain `{text}`: expected ROOT:END[:stiffness=..,drag=..,gravity=..,radius=..]"
            ));
        }
        let mut params = DEFAULT_PARAMS;
        if let Some(kv) = parts.next() {
            for item in kv.split(',').filter(|s| !s.trim().is_empty()) {
                let (k, v) = item
                    .split_once('=')
                    .ok_or_else(|| format!("chain `{text}`: `{item}` is not key=value"))?;
                let v: f32 = v
                    .trim()
                    .parse()
                    .ok()
                    .filter(|v: &f32| v.is_finite() && *v >= 0.0)
                    .ok_or_else(|| format!("chain `{text}`: `{item}` needs a finite number ≥ 0"))?;
                match k.trim() {
                    "stiffness" => params.stiffness = v,
                    "drag" => params.drag = v.min(1.0),
                    "gravity" => params.gravity_power = v,
                    "radius" => params.hit_radius = v,
                    other => {
                        return Err(format!(
                            "chain `{text}`: unknown key `{other}` (stiffness, drag, gravity, radius)"
                        ));
                    }
                }
            }
        }
        Ok(Self {
            root: root.to_owned(),
            end: end.to_owned(),
            params,
        })
    }
}

/// What to add to a plain avatar.
#[derive(Debug, Clone, Default)]
pub struct PlainRigOptions {
    /// A JSON bone map's text (`{"hips": "pelvis", ...}`), over the name match.
    pub bone_map: Option<String>,
    /// Chains declared by root and end bone.
    pub chains: Vec<ChainSpec>,
    /// Also add every dangling chain under the head.
    pub chains_under_head: bool,
}

impl PlainRigOptions {
    /// Nothing asked for.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.bone_map.is_none() && self.chains.is_empty() && !self.chains_under_head
    }
}

/// Why a plain rig could not be made.
#[derive(Debug, Clone, PartialEq)]
pub enum PlainRigError {
    /// The name match or the JSON map failed.
    Map(NameMapError),
    /// A declared chain names a bone the file lacks.
    UnknownBone {
        /// The chain as given.
        chain: String,
        /// The missing bone.
        bone: String,
    },
    /// A declared chain's end does not descend from its root (or is it).
    NotDescendant {
        /// The chain as given.
        chain: String,
    },
    /// Chains under the head were asked for without a humanoid head.
    NoHead,
}

impl fmt::Display for PlainRigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Map(e) => e.fmt(f),
            Self::UnknownBone { chain, bone } => {
                write!(f, "chain {chain}: the file has no node named `{bone}`")
            }
            Self::NotDescendant { chain } => write!(
                f,
                "chain {chain}: the end bone does not descend from the root bone"
            ),
            Self::NoHead => write!(
                f,
                "chains under the head: the file has no humanoid `head` (no VRM humanoid, no node name matched; give --bone-map)"
            ),
        }
    }
}

impl core::error::Error for PlainRigError {}

impl From<NameMapError> for PlainRigError {
    fn from(e: NameMapError) -> Self {
        Self::Map(e)
    }
}

fn warn(avatar: &mut Avatar, message: String) {
    avatar.warnings.push(Warning {
        path: String::new(),
        message,
    });
}

/// Gives `avatar` a humanoid (when it has none, or a JSON map is given) and
/// the asked-for spring chains.
///
/// The humanoid comes from the name match with the JSON map's entries over
/// it; a VRM humanoid is kept unless a map is given. Each decision is a
/// warning in `avatar.warnings`. Declared chains collide with nothing (no
/// colliders are invented; `fit_colliders` can add them).
///
/// # Errors
/// A bad map, an ambiguous name match, an unknown or unrelated chain bone,
/// or chains under the head without a head.
pub fn apply(avatar: &mut Avatar, opts: &PlainRigOptions) -> Result<(), PlainRigError> {
    let has_humanoid = avatar
        .humanoid
        .as_ref()
        .is_some_and(|h| !h.bones.is_empty());
    if !has_humanoid || opts.bone_map.is_some() {
        let mut bones = BTreeMap::new();
        if !has_humanoid && avatar.node_by_name("DEF-hips").is_some() {
            // The Universal Animation Library's rig: its exact map, as a
            // clip source gets.
            if let Some(m) = crate::anim::BoneMap::detect(avatar) {
                bones = m.bones;
            }
            let n = bones.len();
            warn(
                avatar,
                format!(
                    "no VRM humanoid: {n} humanoid bones from the Universal Animation Library's DEF- names"
                ),
            );
        } else if !has_humanoid {
            let m = bone_names::match_names(&avatar.nodes)?;
            let n = m.bones.len();
            bones = m.bones;
            for note in m.notes {
                warn(avatar, format!("bone map by name: {note}"));
            }
            warn(
                avatar,
                format!("no VRM humanoid: {n} humanoid bones matched by node name"),
            );
        } else if let Some(h) = &avatar.humanoid {
            bones = h.bones.clone();
        }
        if let Some(text) = &opts.bone_map {
            let over = bone_names::parse_json_map(text, &avatar.nodes)?;
            let n = over.len();
            bones.extend(over);
            warn(avatar, format!("bone map file: {n} bones set from it"));
        }
        avatar.humanoid = Some(Humanoid { bones });
    }
    let head = avatar.humanoid.as_ref().and_then(|h| h.bone("head"));
    let mut added = Vec::new();
    for spec in &opts.chains {
        let given = format!("{}:{}", spec.root, spec.end);
        let find = |name: &str| {
            avatar
                .node_by_name(name)
                .ok_or_else(|| PlainRigError::UnknownBone {
                    chain: given.clone(),
                    bone: name.to_owned(),
                })
        };
        let (root, end) = (find(&spec.root)?, find(&spec.end)?);
        let mut path = vec![end];
        let mut cur = end;
        while cur != root {
            cur = avatar.nodes[cur]
                .parent
                .ok_or_else(|| PlainRigError::NotDescendant {
                    chain: given.clone(),
                })?;
            path.push(cur);
        }
        if path.len() < 2 {
            return Err(PlainRigError::NotDescendant { chain: given });
        }
        path.reverse();
        added.push((given, path, spec.params));
    }
    if opts.chains_under_head {
        let head = head.ok_or(PlainRigError::NoHead)?;
        for path in dangling_under_head(avatar, head) {
            let given = format!(
                "{}:{}",
                avatar.nodes[path[0]].name,
                avatar.nodes[path[path.len() - 1]].name
            );
            // A chain also declared by hand keeps its declared values.
            if !added.iter().any(|(_, p, _)| p[0] == path[0]) {
                added.push((given, path, DEFAULT_PARAMS));
            }
        }
    }
    let n = added.len();
    for (given, path, params) in added {
        let under_head = head.is_some_and(|h| avatar.is_self_or_ancestor(h, path[0]));
        let k = avatar.springs.chains.len();
        avatar.springs.chains.push(SpringChain {
            name: Some(given),
            source_path: format!("declared chain {k}"),
            joints: path
                .into_iter()
                .map(|node| SpringJoint {
                    node,
                    hit_radius: params.hit_radius,
                    stiffness: params.stiffness,
                    gravity_power: params.gravity_power,
                    gravity_dir: params.gravity_dir,
                    drag_force: params.drag,
                    limit: None,
                })
                .collect(),
            virtual_tail: None,
            center: None,
            collider_groups: Vec::new(),
            under_head,
            named_hair: false,
        });
    }
    if n > 0 {
        warn(
            avatar,
            format!("{n} spring chain(s) declared outside the file, without colliders"),
        );
    }
    Ok(())
}

/// Chains of bones under `head` that no humanoid bone lies under, root
/// first: from each such child of the head down through single children to
/// a leaf or a fork (a fork ends the chain: its branches would hang from a
/// simulated joint). Mesh nodes and one-bone stubs are not chains.
#[must_use]
pub fn dangling_under_head(avatar: &Avatar, head: usize) -> Vec<Vec<usize>> {
    let humanoid: Vec<usize> = avatar
        .humanoid
        .as_ref()
        .map(|h| h.bones.values().copied().collect())
        .unwrap_or_default();
    let mut out = Vec::new();
    for &c in &avatar.nodes[head].children {
        if humanoid.iter().any(|&b| avatar.is_self_or_ancestor(c, b)) {
            continue;
        }
        let mut path = vec![c];
        let mut cur = c;
        loop {
            let kids: Vec<usize> = avatar.nodes[cur]
                .children
                .iter()
                .copied()
                .filter(|&k| avatar.nodes[k].mesh.is_none())
                .collect();
            if kids.len() != 1 || path.len() > avatar.nodes.len() {
                break;
            }
            cur = kids[0];
            path.push(cur);
        }
        if path.len() >= 2 && path.iter().all(|&n| avatar.nodes[n].mesh.is_none()) {
            out.push(path);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Quat;
    use tress_vrm::Node;

    /// An avatar from `(name, parent)` pairs, parents first, no humanoid.
    fn plain(bones: &[(&str, Option<usize>)]) -> Avatar {
        let mut nodes: Vec<Node> = bones
            .iter()
            .map(|(name, parent)| Node {
                name: (*name).into(),
                parent: *parent,
                children: Vec::new(),
                translation: Vec3::new(0.0, -0.05, 0.0),
                rotation: Quat::IDENTITY,
                scale: Vec3::ONE,
                mesh: None,
                skin: None,
            })
            .collect();
        for i in 0..nodes.len() {
            if let Some(p) = nodes[i].parent {
                nodes[p].children.push(i);
            }
        }
        Avatar {
            ..Avatar::skeleton_only(nodes, vec![0])
        }
    }

    /// hips → neck → head; under head: a 3-bone strand, a fork with two
    /// leaves, and the humanoid eye.
    fn head_with_strands() -> Avatar {
        plain(&[
            ("hips", None),         // 0
            ("neck", Some(0)),      // 1
            ("head", Some(1)),      // 2
            ("tail_0", Some(2)),    // 3
            ("tail_1", Some(3)),    // 4
            ("tail_2", Some(4)),    // 5
            ("fork", Some(2)),      // 6
            ("fork_a", Some(6)),    // 7
            ("fork_b", Some(6)),    // 8
            ("eye_l", Some(2)),     // 9
            ("eye_l_end", Some(9)), // 10
        ])
    }

    #[test]
    fn dangling_chains_skip_humanoid_bones_forks_and_stubs() {
        let mut a = head_with_strands();
        apply(
            &mut a,
            &PlainRigOptions {
                chains_under_head: true,
                ..PlainRigOptions::default()
            },
        )
        .unwrap();
        let h = a.humanoid.as_ref().unwrap();
        assert_eq!((h.bone("head"), h.bone("leftEye")), (Some(2), Some(9)));
        let chains: Vec<Vec<usize>> = a
            .springs
            .chains
            .iter()
            .map(|c| c.joints.iter().map(|j| j.node).collect())
            .collect();
        assert_eq!(
            chains,
            vec![vec![3, 4, 5]],
            "the fork and the eye are no chains"
        );
        assert!(a.springs.chains[0].under_head);
        assert_eq!(
            a.springs.chains[0].joints[0].stiffness,
            DEFAULT_PARAMS.stiffness
        );
        assert!(
            a.warnings
                .iter()
                .any(|w| w.message.contains("matched by node name")),
            "{:?}",
            a.warnings
        );
    }

    #[test]
    fn declared_chains_keep_their_values_and_bad_ones_are_named() {
        let mut a = head_with_strands();
        let spec = ChainSpec::parse("fork:fork_b:stiffness=3").unwrap();
        apply(
            &mut a,
            &PlainRigOptions {
                chains: vec![spec],
                bone_map: Some(r#"{"upperChest": "neck"}"#.into()),
                ..PlainRigOptions::default()
            },
        )
        .unwrap();
        assert_eq!(a.springs.chains.len(), 1);
        let c = &a.springs.chains[0];
        assert_eq!(
            c.joints.iter().map(|j| j.node).collect::<Vec<_>>(),
            vec![6, 8]
        );
        assert_eq!(c.joints[1].stiffness, 3.0);
        assert_eq!(a.humanoid.as_ref().unwrap().bone("upperChest"), Some(1));
        let mut b = head_with_strands();
        let bad = |root: &str, end: &str| PlainRigOptions {
            chains: vec![ChainSpec::parse(&format!("{root}:{end}")).unwrap()],
            ..PlainRigOptions::default()
        };
        let e = apply(&mut b, &bad("tail_0", "nope")).unwrap_err();
        assert!(e.to_string().contains("`nope`"), "{e}");
        let e = apply(&mut b, &bad("tail_0", "fork_a")).unwrap_err();
        assert!(e.to_string().contains("does not descend"), "{e}");
        let e = apply(&mut b, &bad("tail_0", "tail_0")).unwrap_err();
        assert!(e.to_string().contains("does not descend"), "{e}");
    }

    #[test]
    fn chain_spec_reads_values_and_names_what_is_wrong() {
        let c =
            ChainSpec::parse("hair_0:hair_4:stiffness=2,drag=0.5,gravity=0.1,radius=0.03").unwrap();
        assert_eq!((c.root.as_str(), c.end.as_str()), ("hair_0", "hair_4"));
        assert_eq!(c.params.stiffness, 2.0);
        assert_eq!(c.params.drag, 0.5);
        assert_eq!(c.params.gravity_power, 0.1);
        assert_eq!(c.params.hit_radius, 0.03);
        assert_eq!(ChainSpec::parse("a:b").unwrap().params, DEFAULT_PARAMS);
        assert!(ChainSpec::parse("a").unwrap_err().contains("ROOT:END"));
        assert!(
            ChainSpec::parse("a:b:stiff=1")
                .unwrap_err()
                .contains("`stiff`")
        );
        assert!(
            ChainSpec::parse("a:b:drag=nan")
                .unwrap_err()
                .contains("drag=nan")
        );
    }
}
