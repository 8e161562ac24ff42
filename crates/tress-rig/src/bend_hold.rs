//! Which chains' flat locks take the bend hold
//! ([`FlatLock::bend`](tress_core::spring::FlatLock)).
//!
//! The hold straightens a lock's bends across its width and lets it swing
//! as a whole: right for a lock whose only colliders move with it (a bang
//! against the forehead), whose bends come from its own swing. A lock that
//! can reach a collider moving against its attachment (a front lock swept
//! over the shoulder as the head turns, a back lock against the back) must
//! bend round it: holding its bends made the 30 and 60 fps runs part by up
//! to 70 mm where a lock met a shoulder, and with the hold faded near
//! colliders to prevent that, it stretched the built-in avatar's front
//! locks (p99 8.84 → 9.30 %) and the layered avatar (7.78 → 8.36 %)
//! (`docs/log/2026-12-06-bend-hold-default.md`).

use alloc::collections::BTreeSet;

use glam::Mat4;
use tress_vrm::model::{Avatar, SpringChain};

use crate::fit_colliders::geom::{Round, chain_colliders, chain_points, reach};

/// The rigid body a node moves with: its nearest humanoid bone, itself or
/// above it (the node itself where the avatar names no humanoid bones).
fn body_of(avatar: &Avatar, node: usize, bones: &BTreeSet<usize>) -> usize {
    if bones.is_empty() {
        return node;
    }
    let mut n = node;
    // A parent cycle in a broken file ends the walk at the node count.
    for _ in 0..avatar.nodes.len() {
        if bones.contains(&n) {
            return n;
        }
        match avatar.nodes.get(n).and_then(|x| x.parent) {
            Some(p) => n = p,
            None => return usize::MAX,
        }
    }
    usize::MAX
}

/// Whether `chain` takes the bend hold: at rest, no collider of its groups
/// that hangs from another body than the chain's attachment (a body: the
/// nearest humanoid bone at or above a node) lies within the chain's reach
/// of its root. Planes and inside shapes on another body count as within
/// reach.
#[must_use]
pub fn takes_bend_hold(avatar: &Avatar, chain: &SpringChain, rest: &[Mat4]) -> bool {
    let pts = chain_points(rest, chain);
    let (Some(&root), Some(first)) = (pts.first(), chain.joints.first()) else {
        return false;
    };
    let bones: BTreeSet<usize> = avatar
        .humanoid
        .as_ref()
        .map(|h| h.bones.values().copied().collect())
        .unwrap_or_default();
    let attachment = avatar.nodes.get(first.node).and_then(|n| n.parent);
    let own = attachment.map_or(usize::MAX, |a| body_of(avatar, a, &bones));
    let radius = chain
        .joints
        .iter()
        .map(|j| j.hit_radius)
        .fold(0.0, f32::max);
    let within = reach(&pts) + radius;
    chain_colliders(avatar, chain).into_iter().all(|ci| {
        let c = &avatar.springs.colliders[ci];
        if own != usize::MAX && body_of(avatar, c.node, &bones) == own {
            return true;
        }
        Round::of(rest, c).is_some_and(|r| r.surface_distance(root) > within)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::String;
    use alloc::vec::Vec;

    /// The chains of a committed avatar that take the hold, by first node.
    fn holding(file: &str) -> (Vec<String>, usize) {
        let path = alloc::format!("{}/../../assets/{file}", env!("CARGO_MANIFEST_DIR"));
        let a = tress_vrm::load_path(&path).expect("committed avatar loads");
        let rest = a.rest_world();
        let names = a
            .springs
            .chains
            .iter()
            .filter(|c| takes_bend_hold(&a, c, &rest))
            .map(|c| a.nodes[c.joints[0].node].name.clone())
            .collect();
        (names, a.springs.chains.len())
    }

    #[test]
    fn only_locks_out_of_the_bodys_reach_hold_their_bends() {
        // The bangs meet only the head's colliders; the side locks reach the
        // shoulders, the front locks the chest, the layered back locks the
        // back, and the skirt the legs.
        let bangs = [
            "HairBangL1_0",
            "HairBangR1_0",
            "HairBangL2_0",
            "HairBangR2_0",
        ];
        for file in ["tress_avatar.vrm", "tress_avatar_layered.vrm"] {
            let (names, chains) = holding(file);
            assert_eq!(names, bangs, "{file}");
            assert!(chains > names.len(), "{file}");
        }
    }

    #[test]
    fn a_collider_on_the_chains_own_bone_never_stops_it() {
        // Every collider moved onto the head (the bangs' attachment): every
        // chain under the head holds its bends whatever it can reach.
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/tress_avatar.vrm");
        let mut a = tress_vrm::load_path(path).expect("committed avatar loads");
        let head = a
            .humanoid
            .as_ref()
            .and_then(|h| h.bone("head"))
            .expect("head bone");
        for c in &mut a.springs.colliders {
            c.node = head;
        }
        let rest = a.rest_world();
        let hair: Vec<_> = a.springs.chains.iter().filter(|c| c.under_head).collect();
        assert!(hair.len() >= 8);
        assert!(hair.iter().all(|c| takes_bend_hold(&a, c, &rest)));
    }
}
