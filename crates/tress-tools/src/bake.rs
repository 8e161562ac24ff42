//! Baking hair motion: a body clip played on the avatar, its spring hair
//! simulated, and the hair bones' rotations recorded as animation tracks
//! beside the body's (`tress export … --bake`).
//!
//! The simulation is the one the avatar gets everywhere else
//! ([`SpringRig`] with the given options, fixed 1/120 s substeps between the
//! clip's frames). A looping bake plays the clip until the hair repeats
//! itself from pass to pass (within 0.1°, at most 8 passes), then records
//! one more pass, so the recorded hair starts in the state the loop's end
//! leaves it in.

use glam::Quat;

use tress_rig::anim::Clip;
use tress_rig::anim::sample::{Local, world_from_local};
use tress_rig::spring_rig::{RigError, RigOptions, SpringRig};
use tress_vrm::model::{Animation, Avatar, Channel, ChannelValues, Interpolation};

/// Most passes played before recording a looping bake.
const MAX_PREROLL: usize = 8;

fn converged(a: &[Quat], b: &[Quat]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(p, q)| tress_rig::anim::clip::angle_between(*p, *q) < 0.1f32.to_radians())
}

/// How to bake.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BakeOptions {
    /// Pre-roll one pass of the clip so the recorded hair loops.
    pub looped: bool,
    /// The rig.
    pub rig: RigOptions,
}

impl Default for BakeOptions {
    fn default() -> Self {
        Self {
            looped: true,
            rig: RigOptions::default(),
        }
    }
}

/// The clip's body tracks plus one rotation track per simulated hair bone,
/// at the clip's frame times.
///
/// # Errors
/// When the avatar's springs cannot be built into a rig.
pub fn bake(avatar: &Avatar, clip: &Clip, opts: &BakeOptions) -> Result<Animation, RigError> {
    let mut rig = SpringRig::build(avatar, &opts.rig)?;
    let mut local: Vec<Local> = Vec::new();
    let mut world = Vec::new();
    // Start at rest under the clip's first frame.
    clip.apply_frame(avatar, 0, &mut local);
    world_from_local(avatar, &local, &mut world);
    rig.set_frame_poses_from_world(&world);
    rig.world.reset();

    let nodes: Vec<Vec<usize>> = rig.chains.iter().map(|c| c.nodes.clone()).collect();
    let mut tracks: Vec<Vec<Vec<Quat>>> = nodes.iter().map(|n| vec![Vec::new(); n.len()]).collect();
    let mut out = Vec::new();
    let end_state = |rig: &SpringRig| -> Vec<Quat> {
        let mut all = Vec::new();
        let mut buf = Vec::new();
        for (ci, chain) in rig.chains.iter().enumerate() {
            buf.resize(
                chain.nodes.len(),
                tress_core::spring::JointOutput::default(),
            );
            let n = rig.outputs_into(ci, &mut buf);
            all.extend(buf[..n].iter().map(|o| o.local_rot));
        }
        all
    };
    // Looping: pre-roll whole passes until the hair repeats itself (its
    // state at the end of a pass within 0.1° of the previous pass's, at
    // most MAX_PREROLL passes), then record one more.
    let mut prev_end: Option<Vec<Quat>> = None;
    let mut passes_run = 0;
    loop {
        // The state the last pass ended in, against the one before it.
        let now = end_state(&rig);
        let record = !opts.looped
            || passes_run >= MAX_PREROLL
            || prev_end.as_ref().is_some_and(|p| converged(p, &now));
        prev_end = Some(now);
        for (i, &t) in clip.times.iter().enumerate() {
            // A loop's last frame and its first are the same instant: after
            // the first pass, frame 0 is the state the last frame left.
            if i > 0 || passes_run == 0 {
                clip.apply_frame(avatar, i, &mut local);
                world_from_local(avatar, &local, &mut world);
                rig.set_frame_poses_from_world(&world);
                rig.advance(if i == 0 { 0.0 } else { t - clip.times[i - 1] });
            }
            if record {
                for (ci, chain) in rig.chains.iter().enumerate() {
                    out.resize(
                        chain.nodes.len(),
                        tress_core::spring::JointOutput::default(),
                    );
                    let n = rig.outputs_into(ci, &mut out);
                    for (k, o) in out[..n].iter().enumerate() {
                        tracks[ci][k].push(o.local_rot.normalize());
                    }
                }
            }
        }
        passes_run += 1;
        if record {
            break;
        }
    }
    let mut anim = clip.to_animation();
    for (ci, chain_nodes) in nodes.iter().enumerate() {
        for (k, &node) in chain_nodes.iter().enumerate() {
            let values = core::mem::take(&mut tracks[ci][k]);
            if values.len() != clip.times.len() {
                continue;
            }
            anim.channels.push(Channel {
                node,
                times: clip.times.clone(),
                interpolation: Interpolation::Linear,
                values: ChannelValues::Rotation(values),
            });
        }
    }
    Ok(anim)
}
