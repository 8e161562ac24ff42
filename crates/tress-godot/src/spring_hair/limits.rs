//! `TressSpringHair.chain_limits`: angle limits per chain
//! (`VRMC_springBone_limit` shapes) set from Godot, on top of the limits
//! the file gave each joint.
//!
//! The dictionary maps a chain (its name, or its index in chain order) to
//! `{ "shape": "cone" | "hinge" | "spherical" | "none" | "file", "angle":
//! degrees, "pitch": degrees, "yaw": degrees, "rotation": Quaternion }`:
//! the limit on every joint of the chain (`none`: no limit; `file`: the
//! file's own). Chains not named keep the file's limits. Changes apply
//! live, without a reset; a bad entry is reported and leaves its chain on
//! the file's limits.

use godot::prelude::*;
use tress_core::math::Quat;
use tress_core::spring::JointLimit;
use tress_rig::spring_rig::{ChainLimit, SpringRig};

use super::{TressSpringHair, crowd};

#[godot_api(secondary)]
impl TressSpringHair {
    /// The limit the solver uses on joint `joint` of chain `chain`:
    /// `{ "shape", "angle" | "pitch" + "yaw" (degrees), "rotation" }`, or an
    /// empty dictionary for none (or indices out of range).
    #[func]
    pub fn get_joint_limit(&mut self, chain: i32, joint: i32) -> VarDictionary {
        crowd::settle(self);
        let mut d = VarDictionary::new();
        let Some(rig) = self.rig.as_ref() else {
            return d;
        };
        let (Ok(c), Ok(j)) = (usize::try_from(chain), usize::try_from(joint)) else {
            return d;
        };
        let Some(rc) = rig.chains.get(c) else {
            return d;
        };
        let Ok(Some(l)) = rig.world.joint_limit(rc.index, j) else {
            return d;
        };
        use tress_core::spring::LimitShape as S;
        d.set("shape", l.shape.name());
        match l.shape {
            S::Cone { angle } | S::Hinge { angle } => d.set("angle", angle.to_degrees()),
            S::Spherical { pitch, yaw } => {
                d.set("pitch", pitch.to_degrees());
                d.set("yaw", yaw.to_degrees());
            }
        }
        let r = l.rotation;
        d.set("rotation", Quaternion::new(r.x, r.y, r.z, r.w));
        d
    }
}

impl TressSpringHair {
    /// Puts `chain_limits` on the rig: every chain back to the file's
    /// limits, then each entry on its chain.
    pub(super) fn apply_chain_limits(&mut self) {
        crowd::settle(self);
        let (Some(avatar), Some(rig)) = (self.avatar.as_ref(), self.rig.as_mut()) else {
            return;
        };
        for i in 0..rig.chains.len() {
            let _ = rig.set_chain_limit(avatar, i, ChainLimit::File);
        }
        for (key, value) in self.chain_limits.iter_shared() {
            let Some(chain) = chain_of(rig, &key) else {
                godot_warn!(
                    "TressSpringHair.chain_limits: no chain {key} (chains: {}); entry ignored",
                    rig.chains
                        .iter()
                        .map(|c| c.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                );
                continue;
            };
            match limit_of(&value) {
                Ok(limit) => {
                    let _ = rig.set_chain_limit(avatar, chain, limit);
                }
                Err(why) => godot_error!(
                    "TressSpringHair.chain_limits[{key}]: {why}; the chain keeps the file's limits"
                ),
            }
        }
    }
}

/// The rig chain a dictionary key names: an index, or a chain name.
fn chain_of(rig: &SpringRig, key: &Variant) -> Option<usize> {
    if let Ok(i) = key.try_to::<i64>() {
        return usize::try_from(i).ok().filter(|&i| i < rig.chains.len());
    }
    let name = key.try_to::<GString>().ok()?.to_string();
    rig.chains.iter().position(|c| c.name == name)
}

/// A number (float or int) in degrees, as radians.
fn degrees(d: &VarDictionary, key: &str) -> Result<f32, String> {
    let v = d
        .get(key)
        .ok_or_else(|| format!("missing `{key}` (degrees)"))?;
    #[allow(clippy::cast_possible_truncation)] // degrees fit an f32
    let x = v
        .try_to::<f64>()
        .or_else(|_| v.try_to::<i64>().map(|i| i as f64))
        .map_err(|_| format!("`{key}` should be a number of degrees, found {v}"))?
        as f32;
    if x.is_finite() {
        Ok(x.to_radians())
    } else {
        Err(format!("`{key}` is not finite ({x})"))
    }
}

fn limit_of(value: &Variant) -> Result<ChainLimit, String> {
    let d = value.try_to::<VarDictionary>().map_err(|_| {
        format!(
            "expected a Dictionary such as {{\"shape\": \"cone\", \"angle\": 30.0}}, found {value}"
        )
    })?;
    let shape = d
        .get("shape")
        .and_then(|s| s.try_to::<GString>().ok())
        .map(|s| s.to_string())
        .ok_or("missing `shape` (cone, hinge, spherical, none or file)")?;
    let limit = match shape.as_str() {
        "none" => return Ok(ChainLimit::Every(None)),
        "file" => return Ok(ChainLimit::File),
        "cone" => JointLimit::cone(degrees(&d, "angle")?),
        "hinge" => JointLimit::hinge(degrees(&d, "angle")?),
        "spherical" => JointLimit::spherical(degrees(&d, "pitch")?, degrees(&d, "yaw")?),
        other => {
            return Err(format!(
                "unknown shape `{other}` (cone, hinge, spherical, none or file)"
            ));
        }
    };
    let rotation = match d.get("rotation") {
        None => Quat::IDENTITY,
        Some(r) => {
            let q = r
                .try_to::<Quaternion>()
                .map_err(|_| format!("`rotation` should be a Quaternion, found {r}"))?;
            Quat::from_xyzw(q.x, q.y, q.z, q.w)
        }
    };
    Ok(ChainLimit::Every(Some(limit.with_rotation(rotation))))
}
