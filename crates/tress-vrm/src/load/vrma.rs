//! VRM Animation (`VRMC_vrm_animation`): humanoid map → nodes of the clip.

use super::ctx::Ctx;
use super::vrm1::{humanoid_object, spec_version};
use crate::error::Result;
use crate::json::J;
use crate::model::Avatar;

pub(crate) fn animation(v: &J<'_>, avatar: &mut Avatar, ctx: &mut Ctx) -> Result<()> {
    spec_version(v, ctx, &["1.0", "1.0-draft"])?;
    if let Some(h) = v.get("humanoid")? {
        let bones = h.req("humanBones")?;
        let hum = humanoid_object(&bones, avatar.nodes.len(), ctx)?;
        for (name, &node) in &hum.bones {
            let node_name = &avatar.nodes[node].name;
            // Some exporters (three-vrm's idle_loop.vrma) send a bone to a BVH
            // end-site marker; tolerated, but said.
            if node_name.eq_ignore_ascii_case("endsite") {
                ctx.warn(
                    &bones.key_path(name),
                    &format!("`{name}` maps to node {node} named `{node_name}` (an end-site marker); kept"),
                );
            }
        }
        avatar.humanoid = Some(hum);
    } else {
        ctx.warn(&v.key_path("humanoid"), "VRMA without a humanoid map");
    }
    Ok(())
}
