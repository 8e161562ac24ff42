//! A humanoid map from a skeleton's shape alone, for skeletons whose bone
//! names no convention knows.
//!
//! - **Hips**: the first joint from the root down with three or more
//!   children (a single-child `Reference` joint above it is skipped).
//! - **Legs**: the two children of the hips whose chains reach lowest;
//!   the **spine** is the one that reaches highest.
//! - Along a leg chain, the **thigh and shin** are the two consecutive
//!   segments of greatest total length; the joint after them is the
//!   **foot** and the next, if any, the **toes** (so a `LHipJoint` stub
//!   between the hips and the thigh is passed over).
//! - Up the spine, the first joint with side branches carries the
//!   **arms**; the joints below it are spine, chest, upper chest (first,
//!   second-last, last); its middle branch ends in the **head**, the
//!   branch's first joint being the **neck** when there are two or more.
//! - Along an arm chain, the **hand** is the first joint where fingers
//!   branch (two or more jointed children), the two joints before it the
//!   **lower and upper arm** and the one before those the **shoulder**;
//!   without fingers, the two longest consecutive segments are the upper
//!   and lower arm and the joint after them the hand.
//! - **Left and right** by the sign along the character's left
//!   (`up × forward`, with up +Y and forward the feet's heel-to-toe
//!   direction, +Z when the feet say nothing) of each chain relative to
//!   the hips.

use alloc::collections::BTreeMap;

use glam::Vec3;
use tress_vrm::model::Avatar;

/// Child chosen at each step down a chain: the one with the most joints
/// below it (a hand's middle finger over its thumb, a spine over a stub).
fn chain(a: &Avatar, start: usize, size: &[usize]) -> Vec<usize> {
    let mut out = vec![start];
    let mut cur = start;
    while let Some(&next) = a.nodes[cur].children.iter().max_by_key(|&&c| size[c]) {
        out.push(next);
        cur = next;
        if out.len() > a.nodes.len() {
            break;
        }
    }
    out
}

/// Joints in each subtree (itself included).
fn subtree_sizes(a: &Avatar) -> Vec<usize> {
    let mut size = vec![1usize; a.nodes.len()];
    // Parents come before children in a BVH; walk backwards.
    for i in (0..a.nodes.len()).rev() {
        if let Some(p) = a.nodes[i].parent
            && p < i
        {
            size[p] += size[i];
        }
    }
    size
}

fn subtree_y(a: &Avatar, root: usize, pos: &[Vec3], pick: fn(f32, f32) -> f32) -> f32 {
    let mut best = pos[root].y;
    let mut stack = vec![root];
    let mut steps = 0;
    while let Some(n) = stack.pop() {
        best = pick(best, pos[n].y);
        stack.extend(a.nodes[n].children.iter().copied());
        steps += 1;
        if steps > a.nodes.len() {
            break;
        }
    }
    best
}

/// Index `i` maximising `|p[i+1]-p[i]| + |p[i+2]-p[i+1]|` over joints of
/// `c` that have two further points.
fn longest_pair(c: &[usize], pos: &[Vec3]) -> Option<usize> {
    (0..c.len().checked_sub(2)?)
        .map(|i| {
            let l = pos[c[i]].distance(pos[c[i + 1]]) + pos[c[i + 1]].distance(pos[c[i + 2]]);
            (i, l)
        })
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(i, _)| i)
}

/// The joints of a chain that are real joints (not end sites): those with
/// children, or named otherwise than `… End Site`.
fn joints_only(a: &Avatar, c: &[usize]) -> Vec<usize> {
    c.iter()
        .copied()
        .filter(|&n| !a.nodes[n].name.ends_with("End Site"))
        .collect()
}

/// The humanoid bones (VRM names) found from `a`'s rest shape, or why none.
///
/// # Errors
/// A sentence naming what of the shape is not a humanoid's.
pub fn map_by_structure(a: &Avatar) -> Result<BTreeMap<String, usize>, String> {
    let world = a.rest_world();
    let pos: Vec<Vec3> = world.iter().map(|m| m.w_axis.truncate()).collect();
    let size = subtree_sizes(a);
    let root = *a.roots.first().ok_or("the skeleton has no root joint")?;
    let mut hips = root;
    for _ in 0..4 {
        match a.nodes[hips].children.as_slice() {
            [only] => hips = *only,
            _ => break,
        }
    }
    let kids = &a.nodes[hips].children;
    if kids.len() < 3 {
        return Err(format!(
            "its structure is not a humanoid's: the hips (`{}`, the first joint with branches) has {} children, not three (two legs and a spine)",
            a.nodes[hips].name,
            kids.len()
        ));
    }
    let mut by_low: Vec<(usize, f32)> = kids
        .iter()
        .map(|&k| (k, subtree_y(a, k, &pos, f32::min)))
        .collect();
    by_low.sort_by(|x, y| x.1.total_cmp(&y.1));
    let legs = [by_low[0].0, by_low[1].0];
    let spine_root = kids
        .iter()
        .copied()
        .filter(|k| !legs.contains(k))
        .max_by(|x, y| {
            subtree_y(a, *x, &pos, f32::max).total_cmp(&subtree_y(a, *y, &pos, f32::max))
        })
        .ok_or("no spine")?;
    let hp = pos[hips];

    let mut bones: BTreeMap<String, usize> = BTreeMap::new();
    bones.insert("hips".into(), hips);

    // Legs: thigh, shin, foot, toes.
    let mut leg_bones = Vec::new();
    for &l in &legs {
        let c = joints_only(a, &chain(a, l, &size));
        let i = longest_pair(&c, &pos).filter(|i| i + 2 < c.len()).ok_or_else(|| {
            format!(
                "its structure is not a humanoid's: the leg from `{}` has {} joints, too few for thigh, shin and foot",
                a.nodes[l].name,
                c.len()
            )
        })?;
        leg_bones.push((c[i], c[i + 1], c[i + 2], c.get(i + 3).copied()));
    }
    // Forward from the feet: ankle to toe (or to the foot's end site).
    let full = |n: usize| chain(a, n, &size);
    let mut fwd = Vec3::ZERO;
    for &(_, _, foot, _) in &leg_bones {
        if let Some(&tip) = full(foot).last() {
            let d = pos[tip] - pos[foot];
            fwd += Vec3::new(d.x, 0.0, d.z);
        }
    }
    let forward = fwd.try_normalize().unwrap_or(Vec3::Z);
    let left_dir = Vec3::Y.cross(forward);
    let side = |n: usize| {
        if (pos[n] - hp).dot(left_dir) >= 0.0 {
            "left"
        } else {
            "right"
        }
    };
    let s0 = side(leg_bones[0].0);
    let s1 = side(leg_bones[1].0);
    if s0 == s1 {
        return Err(
            "its structure is not a humanoid's: both legs lie on the same side of the hips".into(),
        );
    }
    for &(up, low, foot, toes) in &leg_bones {
        let s = side(up);
        bones.insert(format!("{s}UpperLeg"), up);
        bones.insert(format!("{s}LowerLeg"), low);
        bones.insert(format!("{s}Foot"), foot);
        if let Some(t) = toes {
            bones.insert(format!("{s}Toes"), t);
        }
    }

    // Spine up to the joint the arms branch from.
    let mut spine = vec![spine_root];
    let mut cur = spine_root;
    let branch = loop {
        let kids = &a.nodes[cur].children;
        let real: Vec<usize> = kids
            .iter()
            .copied()
            .filter(|&k| !a.nodes[k].name.ends_with("End Site"))
            .collect();
        if real.len() >= 3 {
            break cur;
        }
        match real.as_slice() {
            [one] => {
                cur = *one;
                spine.push(cur);
            }
            _ => {
                return Err(format!(
                    "its structure is not a humanoid's: no joint up the spine from `{}` branches into two arms and a neck",
                    a.nodes[spine_root].name
                ));
            }
        }
        if spine.len() > a.nodes.len() {
            return Err("the spine does not end".into());
        }
    };
    let n = spine.len();
    bones.insert("spine".into(), spine[0]);
    if n >= 2 {
        bones.insert("chest".into(), spine[n - if n >= 3 { 2 } else { 1 }]);
    }
    if n >= 3 {
        bones.insert("upperChest".into(), spine[n - 1]);
    }
    let bp = pos[branch];
    let mut arms: Vec<usize> = a.nodes[branch]
        .children
        .iter()
        .copied()
        .filter(|&k| !a.nodes[k].name.ends_with("End Site"))
        .collect();
    // The neck is the branch reaching highest; the arms the two reaching
    // farthest sideways.
    let neck_root = *arms
        .iter()
        .max_by(|x, y| {
            subtree_y(a, **x, &pos, f32::max).total_cmp(&subtree_y(a, **y, &pos, f32::max))
        })
        .ok_or("no neck")?;
    arms.retain(|&k| k != neck_root);
    let reach = |k: usize| {
        full(k)
            .iter()
            .map(|&m| ((pos[m] - bp).dot(left_dir)).abs())
            .fold(0.0f32, f32::max)
    };
    arms.sort_by(|x, y| reach(*y).total_cmp(&reach(*x)));
    arms.truncate(2);
    let neck = joints_only(a, &full(neck_root));
    let head = *neck.last().ok_or("no head")?;
    bones.insert("head".into(), head);
    if neck.len() >= 2 {
        bones.insert("neck".into(), neck[0]);
    }
    let mut arm_sides = Vec::new();
    for &arm in &arms {
        let c = joints_only(a, &full(arm));
        // Fingers branch at the hand: the first joint with two or more
        // jointed children is the hand. A clavicle can be longer than a
        // forearm (CMU's), so lengths decide only for a hand without fingers.
        let branching = c.iter().position(|&n| {
            a.nodes[n]
                .children
                .iter()
                .filter(|&&k| !a.nodes[k].name.ends_with("End Site"))
                .count()
                >= 2
        });
        let i = match branching {
            Some(h) if h >= 2 => Some(h - 2),
            _ => longest_pair(&c, &pos),
        };
        let i = i.filter(|i| i + 2 < c.len()).ok_or_else(|| {
            format!(
                "its structure is not a humanoid's: the arm from `{}` has {} joints, too few for upper arm, forearm and hand",
                a.nodes[arm].name,
                c.len()
            )
        })?;
        let s = side(c[i + 2]);
        arm_sides.push(s);
        if i >= 1 {
            bones.insert(format!("{s}Shoulder"), c[i - 1]);
        }
        bones.insert(format!("{s}UpperArm"), c[i]);
        bones.insert(format!("{s}LowerArm"), c[i + 1]);
        bones.insert(format!("{s}Hand"), c[i + 2]);
    }
    if arm_sides.len() == 2 && arm_sides[0] == arm_sides[1] {
        return Err("its structure is not a humanoid's: both arms lie on the same side".into());
    }
    Ok(bones)
}
