//! What a clip file goes through after its reader, shared by the clip
//! targets: sampled at its start, middle and end, and retargeted onto the
//! built-in avatar as `TressAvatar.load_animations` and `tress retarget` do.

use std::sync::OnceLock;

use tress_rig::anim::sample::{local_pose, world_from_local};
use tress_rig::anim::{RetargetOptions, Retargeter};
use tress_vrm::model::Avatar;

/// The retarget target: the generated avatar, built once per process.
fn target() -> &'static Avatar {
    static TARGET: OnceLock<Avatar> = OnceLock::new();
    TARGET.get_or_init(|| {
        let (glb, _) = tress_tools::avatar::build(tress_tools::avatar::Variant::Standard);
        tress_vrm::load_bytes(&glb, None).expect("the built-in avatar loads")
    })
}

/// Longest clip retargeted. The retargeter's work grows with the clip's
/// duration, not with the file's size (one key at 1e9 s asks for 1e10
/// frames), so longer clips are only sampled here; see fuzz/README.md.
const MAX_RETARGET_SECONDS: f32 = 2.0;

pub fn exercise(source: &Avatar) {
    let mut local = Vec::new();
    let mut world = Vec::new();
    for a in &source.animations {
        for t in [0.0, a.duration * 0.5, a.duration] {
            local_pose(source, a, t, &mut local);
            world_from_local(source, &local, &mut world);
        }
    }
    let Ok(r) = Retargeter::detect(source, target()) else {
        return;
    };
    // 10 fps, the retargeter's lowest rate, keeps a run short.
    let opts = RetargetOptions {
        fps: Some(10.0),
        ..RetargetOptions::default()
    };
    for a in &source.animations {
        if a.duration.is_finite() && a.duration <= MAX_RETARGET_SECONDS {
            let _ = r.retarget(a, &opts);
        }
    }
}
