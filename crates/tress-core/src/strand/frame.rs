//! What one step sees of the world: the head pose (a [`Pose`]) and the
//! posed colliders.

use crate::collide::{Collider, WorldCollider};
use crate::math::{Mat3, Pose, Vec3};

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
        head: &Pose,
        head_colliders: &[Collider],
        world_colliders: &[WorldCollider],
    ) -> Self {
        let mut colliders = heapless::Vec::new();
        let posed = head_colliders
            .iter()
            .map(|c| c.posed(head.pos, head.rot, 1.0));
        for c in posed.chain(world_colliders.iter().copied()) {
            if c.is_finite() && colliders.push(c).is_err() {
                break;
            }
        }
        Self {
            rot: Mat3::from_quat(head.rot),
            trans: head.pos,
            colliders,
        }
    }
}
