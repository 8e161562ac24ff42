//! Hand-made chains with their own settings: `TressSpringHair`'s **Chains**
//! (`TressSpringChain` resources) read into tress-rig's
//! [`HandChainSpec`]s.
//!
//! A resource names its chain by **Root Bone** / **End Bone** (or lists
//! **Bones**), gives each joint value once for the chain or per joint, and
//! chooses its tip, colliders and contact kind; the rules for short lists
//! and defaults are in [`joint_values`].

use godot::prelude::*;
use tress_rig::hand_rig::{HandChainSpec, HandColliders, HandParams, HandTail};
use tress_rig::plain_rig::DEFAULT_PARAMS;

use crate::convert::vec3;
use crate::spring_config::TressSpringChain;

/// Value `k` of a per-joint list: its own, the last one for a short list,
/// `default` for an empty one.
fn nth<T: Copy>(list: &[T], k: usize, default: T) -> T {
    list.get(k).or(list.last()).copied().unwrap_or(default)
}

/// The joint values of `c`, root first, as many as its longest list (at
/// least one): each list gives one value for the whole chain or one per
/// joint; a short list repeats its last value; an empty one takes
/// [`DEFAULT_PARAMS`].
#[must_use]
pub fn joint_values(c: &TressSpringChain) -> Vec<HandParams> {
    let (st, dr, gp, gd, hr) = (
        c.stiffness.as_slice(),
        c.drag.as_slice(),
        c.gravity_power.as_slice(),
        c.gravity_dir.as_slice(),
        c.hit_radius.as_slice(),
    );
    let n = [st.len(), dr.len(), gp.len(), gd.len(), hr.len()]
        .into_iter()
        .max()
        .unwrap_or(0)
        .max(1);
    let d = DEFAULT_PARAMS;
    (0..n)
        .map(|k| HandParams {
            stiffness: nth(st, k, d.stiffness),
            drag: nth(dr, k, d.drag),
            gravity_power: nth(gp, k, d.gravity_power),
            gravity_dir: vec3(nth(gd, k, Vector3::new(0.0, -1.0, 0.0))),
            hit_radius: nth(hr, k, d.hit_radius),
        })
        .collect()
}

/// The tip past the end bone that `c` asks for, if any.
#[must_use]
pub fn tail(c: &TressSpringChain) -> Option<HandTail> {
    if !c.virtual_tail {
        return None;
    }
    let axis = |v: Vector3| HandTail::Offset(vec3(v * c.tail_length));
    Some(match c.tail_direction {
        1 => axis(Vector3::RIGHT),
        2 => axis(Vector3::LEFT),
        3 => axis(Vector3::UP),
        4 => axis(Vector3::DOWN),
        5 => axis(Vector3::BACK),
        6 => axis(Vector3::FORWARD),
        7 => HandTail::FromParent(c.tail_length),
        _ => HandTail::Offset(vec3(c.tail_offset)),
    })
}

/// Chain `index` of **Chains** as a spec.
///
/// # Errors
/// A message naming the chain when it has neither root/end bones nor bones.
pub fn spec(index: usize, chain: &Gd<TressSpringChain>) -> Result<HandChainSpec, String> {
    let c = chain.bind();
    let bones = c.bones.as_slice();
    let pick = |own: &GString, fallback: Option<&GString>| {
        if own.is_empty() {
            fallback.map(GString::to_string).unwrap_or_default()
        } else {
            own.to_string()
        }
    };
    let root = pick(&c.root_bone, bones.first());
    let end = pick(&c.end_bone, bones.last());
    if root.is_empty() || end.is_empty() {
        return Err(format!(
            "chains[{index}]: set its Root Bone and End Bone (or list its Bones)"
        ));
    }
    let names = |l: &PackedStringArray| l.as_slice().iter().map(GString::to_string).collect();
    Ok(HandChainSpec {
        name: (!c.chain_name.is_empty()).then(|| c.chain_name.to_string()),
        source: format!("chains[{index}]"),
        root,
        end,
        joints: joint_values(&c),
        tail: tail(&c),
        colliders: if c.all_colliders {
            HandColliders::AllExcept(names(&c.exclude_colliders))
        } else {
            HandColliders::Only(names(&c.colliders))
        },
        tail_contact: c.tail_contact,
        center: (!c.center_bone.is_empty()).then(|| c.center_bone.to_string()),
    })
}

/// Every entry of `chains` as a spec (or why not), to tell when they
/// changed.
#[must_use]
pub fn specs(chains: &Array<Gd<TressSpringChain>>) -> Vec<Result<HandChainSpec, String>> {
    chains
        .iter_shared()
        .enumerate()
        .map(|(i, c)| spec(i, &c))
        .collect()
}

/// Whether `new` differs from `old` at most in joint values: the same
/// entries, bones, tips, colliders and contact, so the running rig can take
/// the values without a rebuild.
#[must_use]
pub fn values_only(
    old: &[Result<HandChainSpec, String>],
    new: &[Result<HandChainSpec, String>],
) -> bool {
    old.len() == new.len()
        && old.iter().zip(new).all(|(a, b)| match (a, b) {
            (Ok(a), Ok(b)) => {
                HandChainSpec {
                    joints: b.joints.clone(),
                    ..a.clone()
                } == *b
            }
            _ => false,
        })
}

/// Writes each spec's joint values into its chain of `avatar` (chain
/// `first + i` for entry `i`, as `inspector_rig::build` orders them), by
/// the same short-list rule as the build.
pub fn apply_joint_values(
    avatar: &mut tress_vrm::Avatar,
    first: usize,
    specs: &[Result<HandChainSpec, String>],
) {
    for (i, spec) in specs.iter().enumerate() {
        let (Ok(spec), Some(chain)) = (spec, avatar.springs.chains.get_mut(first + i)) else {
            continue;
        };
        let Some(&last) = spec.joints.last() else {
            continue;
        };
        for (k, j) in chain.joints.iter_mut().enumerate() {
            let p = spec.joints.get(k).copied().unwrap_or(last);
            j.stiffness = p.stiffness;
            j.drag_force = p.drag;
            j.gravity_power = p.gravity_power;
            j.gravity_dir = p.gravity_dir;
            j.hit_radius = p.hit_radius;
        }
    }
}
