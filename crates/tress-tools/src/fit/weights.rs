//! Skin weights along the arc: the attachment holds the root band, then each
//! bone's weight is a tent centred on its segment's midpoint.
//!
//! Bone `k` runs from joint `k` to joint `k + 1`. Around joint `k + 1` both
//! bones place the joint at the same point, so blending them there keeps the
//! surface together when the joint bends; at a segment's midpoint the bone
//! alone carries the vertex, so a straight stretch of the lock moves
//! rigidly. Adjacent tents overlap only between two midpoints, so a vertex
//! has at most two influences (three if `release` is past the first
//! bone's midpoint). (The built-in avatar's locks use the same
//! scheme; it halved their edge stretch.)

/// Skin joint index of the attachment (head); bone `k` is `k + 1`.
pub const ATTACHMENT: u16 = 0;

/// The arc layout the weights follow.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Layout {
    /// Number of bones.
    pub bones: usize,
    /// Length of one bone (arc).
    pub segment: f32,
    /// Vertices with arc ≤ this stay on the attachment alone.
    pub pinned: f32,
    /// Arc where the attachment's weight has faded to zero.
    pub release: f32,
}

impl Layout {
    /// Up to four (skin joint, weight) pairs for a vertex at arc `a`,
    /// weights summing to one, unused pairs `(0, 0.0)`.
    #[must_use]
    pub fn influences(&self, a: f32) -> ([u16; 4], [f32; 4]) {
        let bone = |k: usize| u16::try_from(k + 1).unwrap_or(u16::MAX);
        if self.bones == 0 || self.segment <= 0.0 || a <= self.pinned {
            return ([ATTACHMENT, 0, 0, 0], [1.0, 0.0, 0.0, 0.0]);
        }
        // The bones' tents: between midpoint k and midpoint k + 1, bone k
        // fades into bone k + 1; before the first midpoint bone 0 alone,
        // after the last the last bone alone.
        let f = (a / self.segment - 0.5).max(0.0);
        let last = self.bones - 1;
        let (mut j, mut w) = if f >= last as f32 {
            ([bone(last), 0, 0, 0], [1.0, 0.0, 0.0, 0.0])
        } else {
            let k = (f as usize).min(last);
            pair(bone(k), bone(k + 1), f - k as f32)
        };
        // The attachment hands over to the bones between the pinned band and
        // `release`.
        let span = (self.release - self.pinned).max(f32::MIN_POSITIVE);
        let held = 1.0 - ((a - self.pinned) / span).clamp(0.0, 1.0);
        if held > 0.0 {
            j = [ATTACHMENT, j[0], j[1], 0];
            w = [held, w[0] * (1.0 - held), w[1] * (1.0 - held), 0.0];
        }
        (j, w)
    }
}

/// Weight `1 − t` on `a`, `t` on `b`; a single influence at either end.
fn pair(a: u16, b: u16, t: f32) -> ([u16; 4], [f32; 4]) {
    if t <= 0.0 {
        ([a, 0, 0, 0], [1.0, 0.0, 0.0, 0.0])
    } else if t >= 1.0 {
        ([b, 0, 0, 0], [1.0, 0.0, 0.0, 0.0])
    } else {
        ([a, b, 0, 0], [1.0 - t, t, 0.0, 0.0])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tents_blend_neighbours_and_pin_the_root() {
        let l = Layout {
            bones: 4,
            segment: 1.0,
            pinned: 0.1,
            release: 0.5,
        };
        assert_eq!(l.influences(0.05), ([0, 0, 0, 0], [1.0, 0.0, 0.0, 0.0]));
        // Halfway between the pinned band and the first midpoint.
        let (j, w) = l.influences(0.3);
        assert_eq!(j[..2], [0, 1]);
        assert!((w[0] - 0.5).abs() < 1e-6);
        // At a joint (arc 2), the bones on either side share the vertex.
        let (j, w) = l.influences(2.0);
        assert_eq!(j[..2], [2, 3]);
        assert!((w[0] - 0.5).abs() < 1e-6 && (w[1] - 0.5).abs() < 1e-6);
        // At a midpoint, one bone alone; past the last midpoint, the last bone.
        assert_eq!(l.influences(1.5), ([2, 0, 0, 0], [1.0, 0.0, 0.0, 0.0]));
        assert_eq!(l.influences(3.9), ([4, 0, 0, 0], [1.0, 0.0, 0.0, 0.0]));
    }
}
