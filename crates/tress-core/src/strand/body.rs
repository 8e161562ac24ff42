//! Collision with the body by distance field: after each step, free
//! particles closer than the collision margin to a body part's surface
//! (or inside it) are moved out along the field's gradient.
//!
//! A body is a few rigid parts, each a [`SdfGrid`] built once in its own
//! frame (the head's, or the world's for a still torso): sampling in the
//! part's frame follows the part with no rebuild, which is what a skinned
//! mesh's head and shoulders do between their bones. The move is applied
//! to the previous position too (no velocity is added, nothing bounces).
//! Then, from a strand's first moved particle on, each particle is put back
//! at its rest length from its parent and moved out again, a few times, so
//! it turns about its parent until it is outside and the lengths stay
//! exact.
//!
//! Strands are independent, so the pass may run over parts of the buffers
//! on several threads; once per fixed step: the same bits with any thread
//! count and frame rate.

use super::buffers::{StrandRest, StrandState};
use super::layout::StrandLayout;
use crate::collide::SdfGrid;
use crate::math::{Pose, Real, Vec3, ops};

/// Which frame a body part's field is built in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PartFrame {
    /// The head's (it turns with the head pose of each step).
    Head,
    /// The world's (a part that stays where it is).
    World,
}

/// One rigid body part: its field and the frame it is in.
#[derive(Debug, Clone, Copy)]
pub struct BodyPart<'a> {
    /// Signed distances, negative inside, in the part's frame.
    pub field: SdfGrid<'a>,
    /// The frame.
    pub frame: PartFrame,
    /// A sphere (centre, radius) in the part's frame holding its surface:
    /// particles farther out than its radius plus the margin are not
    /// sampled.
    pub bound: (Vec3, Real),
}

/// Most body parts a pass collides with.
pub const MAX_BODY_PARTS: usize = 8;

/// Pushes per particle while its length is restored.
const TURNS: usize = 4;

/// What one pass did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct BodyStats {
    /// Particles moved out before their lengths were restored.
    pub pushes: usize,
}

/// The move that takes `p` to `margin` outside every part, part by part;
/// `centres` are the parts' bound centres in the world.
fn push_out(parts: &[BodyPart<'_>], centres: &[Vec3], head: &Pose, margin: Real, p: Vec3) -> Vec3 {
    let mut q = p;
    for (part, centre) in parts.iter().zip(centres) {
        // Culled in the world first: no turn into the part's frame.
        let reach = part.bound.1 + margin;
        if (q - *centre).length_squared() > reach * reach {
            continue;
        }
        let local = match part.frame {
            PartFrame::Head => head.rot.conjugate() * (q - head.pos),
            PartFrame::World => q,
        };
        // Far from the surface by the nearest node: no trilinear sample.
        let slack = part.field.cell * 0.867;
        match part.field.nearest(local) {
            Some(n) if n - slack < margin => {}
            _ => continue,
        }
        let Some((d, grad)) = part.field.sample(local) else {
            continue;
        };
        if d >= margin {
            continue;
        }
        let g2 = grad.length_squared();
        if !g2.is_finite() || g2 <= 0.0 {
            continue;
        }
        let n = grad * (1.0 / ops::sqrt(g2));
        let step = n * (margin - d);
        q += match part.frame {
            PartFrame::Head => head.rot * step,
            PartFrame::World => step,
        };
    }
    q - p
}

/// Moves every free particle of `s` out of the body `parts` (with the head
/// at `head`) to `margin` from their surfaces, restoring lengths (the first
/// [`MAX_BODY_PARTS`] parts). `s` may
/// be the chunks from `first_chunk` on of `layout`'s buffers (as a
/// threaded driver splits them); `rest` is always whole.
pub fn body_pass(
    layout: &StrandLayout,
    rest: &StrandRest<'_>,
    s: &mut StrandState<'_>,
    first_chunk: usize,
    parts: &[BodyPart<'_>],
    head: &Pose,
    margin: Real,
) -> BodyStats {
    let mut stats = BodyStats::default();
    if parts.is_empty() {
        return stats;
    }
    let mut centres = [Vec3::ZERO; MAX_BODY_PARTS];
    let parts = &parts[..parts.len().min(centres.len())];
    for (c, part) in centres.iter_mut().zip(parts) {
        *c = match part.frame {
            PartFrame::Head => head.pos + head.rot * part.bound.0,
            PartFrame::World => part.bound.0,
        };
    }
    let centres = &centres[..parts.len()];
    let base = first_chunk * layout.chunk_len();
    let chunks = s.x.len() / layout.chunk_len().max(1);
    let strands = (first_chunk * layout.lanes())
        ..((first_chunk + chunks) * layout.lanes()).min(layout.strands());
    for strand in strands {
        let mut first = None;
        for q in 1..layout.particles() {
            let i = layout.index(strand, q) - base;
            let d = push_out(parts, centres, head, margin, s.at(i));
            if d != Vec3::ZERO && d.is_finite() {
                s.shift(i, d);
                stats.pushes += 1;
                first.get_or_insert(q);
            }
        }
        // Segments before the first move kept their lengths.
        if let Some(first) = first {
            restore_lengths(layout, rest, s, base, strand, first, |p| {
                push_out(parts, centres, head, margin, p)
            });
        }
    }
    stats
}

/// Puts each segment of `strand` from particle `first` on back to its rest
/// length, moving previous positions by the same amount. Each particle, placed
/// at its length from its parent, is moved out of the body (`out`) and put
/// back on that length a few times: it turns about its parent until it is
/// outside, so the lengths do not pull it back in.
fn restore_lengths(
    layout: &StrandLayout,
    rest: &StrandRest<'_>,
    s: &mut StrandState<'_>,
    base: usize,
    strand: usize,
    first: usize,
    out: impl Fn(Vec3) -> Vec3,
) {
    let mut parent = s.at(layout.index(strand, first - 1) - base);
    for q in first..layout.particles() {
        let g = layout.index(strand, q);
        let i = g - base;
        let p = s.at(i);
        let len = rest.len[g];
        let mut fixed = p;
        for _ in 0..TURNS {
            let d = fixed - parent;
            let l_sq = d.length_squared();
            if !(l_sq > 0.0 && l_sq.is_finite() && len > 0.0) {
                break;
            }
            fixed = parent + d * (len / ops::sqrt(l_sq));
            let push = out(fixed);
            if push == Vec3::ZERO || !push.is_finite() {
                break;
            }
            fixed += push;
        }
        // End on the length (the last push may have left it).
        let d = fixed - parent;
        let l_sq = d.length_squared();
        if l_sq > 0.0 && l_sq.is_finite() && len > 0.0 {
            fixed = parent + d * (len / ops::sqrt(l_sq));
        }
        s.shift(i, fixed - p);
        parent = fixed;
    }
}
