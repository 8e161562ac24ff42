//! `VRMC_springBone_limit` (draft 1.0, vrm-c/vrm-specification PR #496): an
//! angle limit on a spring joint, `joints[i].extensions.VRMC_springBone_limit
//! { specVersion, limit: { cone | hinge | spherical } }`.
//!
//! The extension is a draft, so a malformed limit never fails the load: it
//! is dropped with a warning naming its JSON path and what was wrong, and
//! the joint simulates without it. Values the draft tells implementations to
//! reinterpret (angles at or beyond π, a yaw beyond π/2) are read as written
//! and clamped by the solver; a negative angle or a non-unit rotation, which
//! the draft forbids, is warned about and then clamped or normalised.

use glam::Quat;
use tress_core::spring::{JointLimit, LimitShape};

use super::ctx::Ctx;
use crate::error::{ErrorKind, Result};
use crate::json::J;

/// The extension's name.
pub(crate) const EXTENSION: &str = "VRMC_springBone_limit";

/// The only `specVersion` the draft allows.
const SPEC_VERSION: &str = "1.0-draft";

/// The limit on joint `j` (`last`: the chain's tail-only joint), if any.
pub(crate) fn joint_limit(j: &J<'_>, last: bool, ctx: &mut Ctx) -> Result<Option<JointLimit>> {
    if let Some(a) = j.get("angleLimit")? {
        // Found in real files: a joint-level field of some exporter, not
        // part of any VRM specification.
        ctx.warn(
            &a.path,
            "non-standard joint-level `angleLimit` ignored: angle limits are read from \
             the joint's extensions.VRMC_springBone_limit (draft), so this joint has no limit",
        );
    }
    let Some(ext) = j.get("extensions")?.map(|e| e.get(EXTENSION)).transpose()? else {
        return Ok(None);
    };
    let Some(ext) = ext else {
        return Ok(None);
    };
    if last {
        ctx.warn(
            &ext.path,
            "limit on the spring's last joint ignored: that joint is only a tail (the draft \
             says implementations must ignore it)",
        );
        return Ok(None);
    }
    match parse(&ext, ctx) {
        Ok(l) => Ok(Some(l)),
        Err(e) => {
            ctx.warn_dropped(&e, &ext.path, EXTENSION, "the joint has no limit");
            Ok(None)
        }
    }
}

fn parse(ext: &J<'_>, ctx: &mut Ctx) -> Result<JointLimit> {
    match ext.get("specVersion")? {
        None => ctx.warn(
            &ext.key_path("specVersion"),
            "missing specVersion; read as 1.0-draft",
        ),
        Some(v) => {
            let s = v.str()?;
            if s != SPEC_VERSION {
                ctx.warn(
                    &v.path,
                    &format!("unknown specVersion `{s}`; read as {SPEC_VERSION}"),
                );
            }
        }
    }
    let limit = ext.req("limit")?;
    let kinds: Vec<J<'_>> = ["cone", "hinge", "spherical"]
        .iter()
        .filter_map(|k| limit.get(k).transpose())
        .collect::<Result<_>>()?;
    let [kind] = kinds.as_slice() else {
        return Err(limit.err(
            ErrorKind::Invalid,
            format!(
                "a limit holds exactly one of cone, hinge or spherical, found {}",
                kinds.len()
            ),
        ));
    };
    let shape = if kind.path.ends_with("cone") {
        LimitShape::Cone {
            angle: angle(kind, "angle", ctx)?,
        }
    } else if kind.path.ends_with("hinge") {
        LimitShape::Hinge {
            angle: angle(kind, "angle", ctx)?,
        }
    } else {
        LimitShape::Spherical {
            pitch: angle(kind, "pitch", ctx)?,
            yaw: angle(kind, "yaw", ctx)?,
        }
    };
    let rotation = match kind.get("rotation")? {
        None => Quat::IDENTITY,
        Some(r) => {
            let q = r.quat()?;
            let len = q.length();
            // Finite components (`J::quat`), so the length is never NaN.
            if len <= 1e-6 {
                return Err(r.err(
                    ErrorKind::Invalid,
                    "rotation is not a rotation (zero length)",
                ));
            }
            if (len - 1.0).abs() > 1e-3 {
                ctx.warn(
                    &r.path,
                    &format!("rotation has length {len:.4}, not 1; normalised"),
                );
                q / len
            } else {
                // Kept as written; the solver normalises it.
                q
            }
        }
    };
    Ok(JointLimit { shape, rotation })
}

/// A required angle in radians; negative ones are warned about (the
/// solver reads them as 0).
fn angle(kind: &J<'_>, key: &str, ctx: &mut Ctx) -> Result<f32> {
    let a = kind.req(key)?;
    let v = a.f32()?;
    if v < 0.0 {
        ctx.warn(&a.path, &format!("negative angle {v}; read as 0"));
    }
    Ok(v)
}
