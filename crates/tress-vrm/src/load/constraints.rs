//! `VRMC_node_constraint` on nodes, ordered for evaluation (a cycle is an error).

use super::ctx::Ctx;
use super::vrm1::spec_version;
use crate::error::{Error, ErrorKind, Result};
use crate::json::J;
use crate::model::{AimAxis, Avatar, ConstraintKind, NodeConstraint, RollAxis};

pub(crate) fn load(root: &J<'_>, avatar: &mut Avatar, ctx: &mut Ctx) -> Result<()> {
    let n = avatar.nodes.len();
    let mut paths = Vec::new();
    for (i, node) in root.list("nodes")?.into_iter().enumerate() {
        let Some(ext) = node.get("extensions")? else {
            continue;
        };
        let Some(c) = ext.get("VRMC_node_constraint")? else {
            continue;
        };
        spec_version(&c, ctx, &["1.0", "1.0-beta"])?;
        let body = c.req("constraint")?;
        let mut found = Vec::new();
        for key in ["roll", "aim", "rotation"] {
            if let Some(k) = body.get(key)? {
                found.push(k);
            }
        }
        if found.len() != 1 {
            return Err(body.err(
                ErrorKind::Invalid,
                format!(
                    "must hold exactly one of roll, aim, rotation (found {})",
                    found.len()
                ),
            ));
        }
        let k = found.remove(0);
        let source = k.req("source")?.index(n, "node")?;
        let weight = k.f32_or("weight", 1.0)?;
        if !(0.0..=1.0).contains(&weight) {
            ctx.warn(
                &k.key_path("weight"),
                &format!("weight {weight} clamped to [0, 1]"),
            );
        }
        let kind = if k.path.ends_with("roll") {
            let a = k.req("rollAxis")?;
            let name = a.str()?;
            ConstraintKind::Roll(RollAxis::from_name(name).ok_or_else(|| {
                a.err(
                    ErrorKind::Invalid,
                    format!("rollAxis `{name}` is not X, Y or Z"),
                )
            })?)
        } else if k.path.ends_with("aim") {
            let a = k.req("aimAxis")?;
            let name = a.str()?;
            ConstraintKind::Aim(AimAxis::from_name(name).ok_or_else(|| {
                a.err(
                    ErrorKind::Invalid,
                    format!("aimAxis `{name}` is not a signed axis"),
                )
            })?)
        } else {
            ConstraintKind::Rotation
        };
        avatar.constraints.push(NodeConstraint {
            destination: i,
            source,
            kind,
            weight: weight.clamp(0.0, 1.0),
        });
        paths.push(body.path.clone());
    }
    let parents: Vec<Option<usize>> = avatar.nodes.iter().map(|x| x.parent).collect();
    let m = avatar.constraints.len();
    let mut order = vec![0; m];
    let mut placed = vec![false; m];
    tress_core::constraint::evaluation_order(
        &avatar.constraints,
        &parents,
        &mut order,
        &mut placed,
    )
    .map_err(|e| {
        let c = &avatar.constraints[e.constraint];
        Error::new(
            ErrorKind::Cycle,
            paths[e.constraint].clone(),
            format!(
                "constraint on node {} (source {}) is part of a dependency cycle",
                c.destination, c.source
            ),
        )
    })?;
    avatar.constraint_order = order;
    Ok(())
}
