//! What one step sees of the world: the head pose and the posed colliders.

use crate::collide::{Collider, WorldCollider};
use crate::math::{Mat3, Quat, Real, Vec3};

/// Rigid pose of the frame that carries the groom (the head bone).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HeadPose {
    /// Rotation, head frame to world.
    pub rotation: Quat,
    /// Position of the head frame's origin, world space.
    pub translation: Vec3,
}

impl Default for HeadPose {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl HeadPose {
    /// The head frame coincides with world.
    pub const IDENTITY: Self = Self {
        rotation: Quat::IDENTITY,
        translation: Vec3::ZERO,
    };

    /// A pose from a rotation and a translation.
    #[must_use]
    pub fn new(rotation: Quat, translation: Vec3) -> Self {
        Self {
            rotation,
            translation,
        }
    }

    /// The pose a fraction `t` of the way to `next` (nlerp rotation, lerp
    /// translation); `t = 1` gives `next` exactly.
    #[must_use]
    pub fn lerp(&self, next: &Self, t: Real) -> Self {
        if t >= 1.0 {
            return *next;
        }
        if t <= 0.0 {
            return *self;
        }
        // Shortest arc: flip `next` into self's hemisphere before blending.
        let q = if self.rotation.dot(next.rotation) < 0.0 {
            -next.rotation
        } else {
            next.rotation
        };
        Self {
            rotation: self.rotation.lerp(q, t),
            translation: self.translation.lerp(next.translation, t),
        }
    }
}

/// Most colliders one step tests against.
pub const MAX_COLLIDERS: usize = 16;

/// The world as one step sees it.
#[derive(Debug, Clone)]
pub struct StepFrame {
    /// Head rotation as a matrix (computed once per step).
    pub rot: Mat3,
    /// Head translation.
    pub trans: Vec3,
    /// Posed colliders (non-finite ones are dropped when posing).
    pub colliders: heapless::Vec<WorldCollider, MAX_COLLIDERS>,
}

impl StepFrame {
    /// A frame for `head`, with `head_colliders` authored in the head frame
    /// and `world_colliders` already posed. Colliders past
    /// [`MAX_COLLIDERS`] and non-finite ones are ignored.
    #[must_use]
    pub fn new(
        head: &HeadPose,
        head_colliders: &[Collider],
        world_colliders: &[WorldCollider],
    ) -> Self {
        let mut colliders = heapless::Vec::new();
        let posed = head_colliders
            .iter()
            .map(|c| c.posed(head.translation, head.rotation, 1.0));
        for c in posed.chain(world_colliders.iter().copied()) {
            if c.is_finite() && colliders.push(c).is_err() {
                break;
            }
        }
        Self {
            rot: Mat3::from_quat(head.rotation),
            trans: head.translation,
            colliders,
        }
    }
}
