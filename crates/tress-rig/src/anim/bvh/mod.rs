//! BVH motion capture read as a clip the retargeter takes.
//!
//! - [`read()`](read::read): the text reader, with typed errors naming
//!   the line, joint and channel ([`BvhError`]).
//! - [`euler`]: the rotation convention (intrinsic, in channel order) and
//!   its inverse, for writers.
//! - [`skeleton`]: the skeleton and motion as an [`Avatar`] with one
//!   [`Animation`](tress_vrm::Animation), in metres (units judged from the
//!   skeleton's size).
//! - [`structure`]: a humanoid map from the skeleton's shape, for names no
//!   convention knows.
//! - Here: [`load`], all of it in one call, the humanoid found by name first
//!   ([`BoneMap::detect`]) and by structure second.

pub mod euler;
pub mod read;
pub mod skeleton;
pub mod structure;

pub use read::{Bvh, BvhError, BvhErrorKind};

use crate::anim::BoneMap;
use tress_vrm::Warning;
use tress_vrm::model::{Avatar, Humanoid};

/// How the humanoid bones of a BVH were found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MappedBy {
    /// By joint names ([`BoneMap::detect`]).
    Name,
    /// By the skeleton's shape ([`structure::map_by_structure`]).
    Structure,
}

/// A BVH file ready to retarget.
#[derive(Debug, Clone)]
pub struct BvhClip {
    /// The skeleton as nodes (node `i` = joint `i`), its humanoid map set,
    /// and the motion as one animation; `warnings` say the units and the
    /// mapping.
    pub avatar: Avatar,
    /// How the map was found.
    pub mapped_by: MappedBy,
}

/// Why a BVH file cannot be used as a clip.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BvhLoadError {
    /// The text is not valid BVH.
    Read(BvhError),
    /// No humanoid map by name or by structure.
    NoHumanoid(String),
}

impl core::fmt::Display for BvhLoadError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::Read(e) => write!(f, "BVH {e}"),
            Self::NoHumanoid(why) => {
                write!(f, "BVH skeleton: no humanoid bone names known, and {why}")
            }
        }
    }
}

impl core::error::Error for BvhLoadError {}

/// The clip's name for a file: its stem (`walk` for `clips/walk.bvh`),
/// `bvh` when there is none.
#[must_use]
pub fn clip_name(file: &str) -> String {
    let base = file.rsplit(['/', '\\']).next().unwrap_or(file);
    let stem = match base.rsplit_once('.') {
        Some((s, _)) if !s.is_empty() => s,
        _ => base,
    };
    if stem.is_empty() {
        "bvh".to_owned()
    } else {
        stem.to_owned()
    }
}

/// Reads a BVH file (`file` names it and the clip) into a source the
/// retargeter takes: humanoid by name, else by structure; which bones were
/// mapped and how are in the avatar's warnings.
///
/// # Errors
/// [`BvhLoadError`]: a read error with its line, or no humanoid found.
pub fn load(bytes: &[u8], file: &str) -> Result<BvhClip, BvhLoadError> {
    let bvh = read::read(bytes).map_err(BvhLoadError::Read)?;
    let mut avatar = skeleton::to_avatar(&bvh, &clip_name(file));
    let (bones, mapped_by) = match BoneMap::detect(&avatar) {
        Some(m) if m.missing_required().is_empty() => (m.bones, MappedBy::Name),
        _ => (
            structure::map_by_structure(&avatar).map_err(BvhLoadError::NoHumanoid)?,
            MappedBy::Structure,
        ),
    };
    let list: Vec<String> = crate::anim::bone_map::BONES
        .iter()
        .filter_map(|(b, _)| Some(format!("{b}={}", avatar.nodes.get(*bones.get(*b)?)?.name)))
        .collect();
    avatar.warnings.push(Warning {
        path: String::new(),
        message: format!(
            "{} humanoid bones mapped by {}: {}",
            list.len(),
            match mapped_by {
                MappedBy::Name => "name",
                MappedBy::Structure => "structure",
            },
            list.join(", ")
        ),
    });
    avatar.humanoid = Some(Humanoid { bones });
    Ok(BvhClip { avatar, mapped_by })
}

#[cfg(test)]
mod tests;
