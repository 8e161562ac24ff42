//! `TressSpringHair`: spring-chain hair as a SkeletonModifier3D.

use godot::classes::skeleton_3d::ModifierCallbackModeProcess;
use godot::classes::{
    AnimationPlayer, Engine, ISkeletonModifier3D, Node3D, Skeleton3D, SkeletonModifier3D,
};
use godot::prelude::*;
use tress_core::spring::{JointOutput, Mode, StepConfig};
use tress_rig::param_scales::ParamScales;
use tress_rig::spring_rig::{RigOptions, SpringRig};
use tress_vrm::Avatar;

use crate::collider::TressCollider3D;
use crate::convert::{largest_scale, pose_and_scale, quaternion, vec3, vector3};
use crate::inspector_rig::{self, HandParams};
use tress_core::math::Vec3;

mod crowd;
mod crowd_pool;
mod limits;
mod motion;

/// Spring-chain hair driven by Tress's fixed-step solver.
///
/// Runs after animation in Godot's skeleton pipeline (a SkeletonModifier3D,
/// so add it as a child of the Skeleton3D). Configure it from a VRM file with
/// `configure_from_vrm`; it then reads the attachment and collider bones each
/// frame, advances the solver in fixed 1/120 s substeps from whatever delta
/// Godot gives, and writes the hair bones' rotations.
///
/// It also runs in the editor: hand-made chains rest in their authored
/// shape and follow a head bone turned or an animation previewed there
/// (`simulate_in_editor`), and inspector edits apply without a reset.
#[derive(GodotClass)]
#[class(tool, base = SkeletonModifier3D, init)]
pub struct TressSpringHair {
    /// Solver: 0 improved (the hairstyle's arc held in the head frame),
    /// 1 earlier (rest direction from the bent parent: curls; for comparison),
    /// 2 VRM-compatible (the VRMC_springBone reference update).
    #[export(enum = (Improved = 0, Earlier = 1, VrmCompatible = 2))]
    #[var(set = set_solver_mode)]
    solver_mode: i32,
    /// An attachment that jumps farther than this (metres) in one substep is
    /// a teleport: the hair is carried along rigidly instead of exploding.
    #[export]
    #[var(set = set_teleport_distance)]
    #[init(val = 1.0)]
    teleport_distance: f32,
    /// Improved mode: flat locks (ribbon-shaped hair meshes, read from the
    /// skin) resist bending across their width, which is what stretches
    /// ribbon meshes; 1/s, 0 = off. The default, 5, with `lock_twist` and
    /// `drape` cuts ribbon stretch about threefold and keeps most of the
    /// swing; 83 halves that bend every 1/120 s step: the least stretch, but
    /// short locks hardly swing.
    #[export]
    #[var(set = set_flat_lock_stiffness)]
    #[init(val = tress_rig::spring_rig::SOFT_FLAT_LOCK_STIFFNESS)]
    flat_lock_stiffness: f32,
    /// Improved mode: turn each flat lock's bones about their own segments
    /// so its bends go through its face, where a skinned ribbon does not
    /// stretch (on by default; moves no joint, only the bone rotations;
    /// needs the skin, as flat locks do; see docs/SOLVER.md, "Lock twist").
    #[export]
    #[var(set = set_lock_twist)]
    #[init(val = true)]
    lock_twist: bool,
    /// Improved mode: drape over contact (on by default). Below a segment a
    /// collider pushes, the lock keeps its shape relative to the contact
    /// instead of aiming back into the collider, so long locks bend over
    /// the shoulders and chest instead of kinking at one joint, which
    /// stretches the skinned mesh (see docs/SOLVER.md).
    #[export]
    #[var(set = set_drape)]
    #[init(val = true)]
    drape: bool,
    /// Hold the file's bands (`TRESS_springBone_band`: neighbouring chains,
    /// a skirt's, kept to their rest spacing so the cloth between them
    /// cannot stretch, and that cloth kept off the colliders); on by
    /// default. Improved and Earlier modes (see docs/SOLVER.md, "Bands").
    #[export]
    #[var(set = set_hold_bands)]
    #[init(val = true)]
    hold_bands: bool,
    /// Multiplier on every joint's configured stiffness (1 = as authored);
    /// live: the hair keeps its motion.
    #[export(range = (0.0, 4.0, or_greater))]
    #[var(set = set_stiffness_scale)]
    #[init(val = 1.0)]
    stiffness_scale: f32,
    /// Multiplier on every joint's configured drag (the product is clamped
    /// to 0..1); live: the hair keeps its motion.
    #[export(range = (0.0, 4.0, or_greater))]
    #[var(set = set_drag_scale)]
    #[init(val = 1.0)]
    drag_scale: f32,
    /// Multiplier on every joint's configured gravity power; live: the hair
    /// keeps its motion.
    #[export(range = (0.0, 4.0, or_greater))]
    #[var(set = set_gravity_scale)]
    #[init(val = 1.0)]
    gravity_scale: f32,
    /// In the editor: simulate the hair, so it follows a head bone turned
    /// or an animation previewed there. Off: the bones show their rest (or
    /// animated) pose, untouched. Nothing the simulation writes is saved
    /// into the scene.
    #[export]
    #[var(set = set_simulate_in_editor)]
    #[init(val = true)]
    simulate_in_editor: bool,
    /// The rig was built from `root_bones` / `end_bones`: the hand-made
    /// joint values and TressCollider3D edits apply to it live.
    hand_made: bool,
    /// The hand-made chains or the collider list changed: rebuild from
    /// the inspector at the next update.
    rebuild_pending: bool,
    /// Hand-made rigs: every TressCollider3D in the avatar's collider order,
    /// with the bone name it was built with (a new bone needs a rebuild).
    hand_colliders: Vec<(Gd<TressCollider3D>, GString)>,
    /// `collider::edit_count()` when `hand_colliders` were last compared
    /// with the world; `None` after a build (compare at the next update).
    collider_edits_seen: Option<u32>,
    /// Whether this runs in the editor, asked once: the answer never
    /// changes for a process, and an engine call per frame is not free.
    in_editor: Option<bool>,
    /// Chains that use tail-point contact instead of whole-segment contact
    /// (bit i: spring chain i), set by TressAvatar from the collider fit.
    tail_chains: u128,
    /// Substeps run by the last update.
    last_substeps: u32,
    /// Where the last update's time went (see `get_last_timing`).
    last_timing: UpdateTiming,
    /// Engine frame of the last update that advanced time.
    last_frame: Option<u64>,
    /// Hand-made chains (used when no VRM is configured): the first bone
    /// of each chain, simulated. Changing the list rebuilds the chains.
    #[export]
    #[var(set = set_root_bones)]
    root_bones: PackedStringArray,
    /// The last bone of each hand-made chain (its tail: the bone before it is
    /// the last one simulated). One per root bone.
    #[export]
    #[var(set = set_end_bones)]
    end_bones: PackedStringArray,
    /// Hand-made chains: return force toward the rest shape (VRM stiffness).
    /// This and the joint values below apply live, without a reset.
    #[export]
    #[var(set = set_stiffness)]
    #[init(val = 1.0)]
    stiffness: f32,
    /// Hand-made chains: velocity damping, 0..1 (VRM dragForce).
    #[export(range = (0.0, 1.0))]
    #[var(set = set_drag)]
    #[init(val = 0.4)]
    drag: f32,
    /// Hand-made chains: gravity strength (VRM gravityPower; 1 = real gravity).
    #[export]
    #[var(set = set_gravity_power)]
    gravity_power: f32,
    /// Hand-made chains: gravity direction.
    #[export]
    #[var(set = set_gravity_dir)]
    #[init(val = Vector3::new(0.0, -1.0, 0.0))]
    gravity_dir: Vector3,
    /// Hand-made chains: collision radius of each joint (metres).
    #[export]
    #[var(set = set_hit_radius)]
    #[init(val = 0.02)]
    hit_radius: f32,
    /// Hand-made chains with their own settings (after the Root Bones /
    /// End Bones pairs, which share the values above): per chain its
    /// Root Bone and End Bone, joint values (one for the chain or one per
    /// joint), a simulated tip past the end bone (Virtual Tail, Tail
    /// Direction, Tail Length), its colliders and contact kind. Changing
    /// the list rebuilds the chains; edits inside an entry are picked up by
    /// `refresh_chains()` (every update in the editor): joint values live,
    /// the rest by a rebuild.
    #[export]
    #[var(set = set_chains)]
    chains: Array<Gd<crate::spring_config::TressSpringChain>>,
    /// The hand-made **Chains** as last built (the editor rebuilds when
    /// they differ).
    built_specs: Vec<Result<tress_rig::hand_rig::HandChainSpec, String>>,
    /// An AnimationPlayer whose current animation wins over the simulation
    /// for the chains whose bones it animates; when the track ends (or the
    /// player stops) the solver picks up from the animated motion.
    #[export]
    animation_player: NodePath,
    /// The current animation and the bones it drives (looked up once per
    /// animation, not every frame).
    animated: Option<(StringName, Vec<i32>)>,
    /// Per-frame scratch: animated rotations of one chain.
    scratch_rots: Vec<tress_core::math::Quat>,
    /// Per-frame scratch: one chain's solver output at a time (touched by
    /// the thread that steps, never by the one that writes bones).
    scratch_out: Vec<JointOutput>,
    /// The last step's bone writes, in chain order: what the update hands
    /// the skeleton. Compact (20 bytes a bone against 64 for a
    /// `JointOutput`) because with `crowd_threads` above 1 a helper writes
    /// it and the main thread reads it: at 1,000 avatars the writes took
    /// four times as long as on one thread while they read the outputs.
    scratch_writes: Vec<BoneWrite>,
    /// The frame poses read for the next step, put into the solver by the
    /// step itself (on a crowd helper, off the main thread).
    frame_inputs: FrameInputs,
    /// Chains currently handed to the animation.
    authored: Vec<bool>,
    avatar: Option<Avatar>,
    rig: Option<SpringRig>,
    /// Where each solver frame's pose comes from.
    frame_sources: Vec<FrameSource>,
    /// Hand-made rigs: avatar pseudo-node → the collider node it stands for.
    collider_nodes: Vec<(usize, Gd<Node3D>)>,
    chain_bones: Vec<Vec<i32>>,
    /// The skeleton bone of each fold joint, in `rig.folds.nodes()` order
    /// (−1: not a bone).
    fold_bones: Vec<i32>,
    /// Angle limits per chain, on top of the file's own
    /// (`VRMC_springBone_limit`): chain name (or index) →
    /// `{ "shape": "cone" | "hinge" | "spherical" | "none" | "file",
    /// "angle" | "pitch" + "yaw": degrees, "rotation": Quaternion }`, the
    /// limit on every joint of that chain, in every solver mode. Live, no
    /// reset (see docs/GODOT.md).
    #[export]
    #[var(set = set_chain_limits)]
    chain_limits: VarDictionary,
    /// A VRM avatar's springs stored in the scene (an imported `.vrm` sets
    /// it): on ready the solver is built from it and the TressCollider3D
    /// nodes it names, instead of from the hand-made chains.
    #[export]
    spring_config: Option<Gd<crate::spring_config::TressSpringConfig>>,
    /// Wind, pause, teleport and anchor settings (`motion`).
    motion: motion::MotionState,
    /// Wind: where it blows to, world space (zero: calm). All wind
    /// settings apply live, without a reset.
    #[export]
    #[var(set = set_wind_direction)]
    #[init(val = Vector3::new(1.0, 0.0, 0.0))]
    wind_direction: Vector3,
    /// Wind: mean acceleration, m/s² (0 = off, the default; 9.81 pushes as
    /// hard as gravity pulls).
    #[export(range = (0.0, 30.0, or_greater))]
    #[var(set = set_wind_strength)]
    wind_strength: f32,
    /// Wind: gust amplitude relative to the strength.
    #[export(range = (0.0, 2.0, or_greater))]
    #[var(set = set_wind_gust)]
    #[init(val = 0.5)]
    wind_gust: f32,
    /// Wind: typical seconds between gusts.
    #[export(range = (0.05, 10.0, or_greater))]
    #[var(set = set_wind_gust_seconds)]
    #[init(val = 1.5)]
    wind_gust_seconds: f32,
    /// Wind: sideways and vertical flutter relative to the strength.
    #[export(range = (0.0, 2.0, or_greater))]
    #[var(set = set_wind_turbulence)]
    #[init(val = 0.3)]
    wind_turbulence: f32,
    /// Wind: share a chain rooted at the centre of its hairstyle loses
    /// (0: every chain gets all of it).
    #[export(range = (0.0, 1.0))]
    #[var(set = set_wind_occlusion)]
    #[init(val = 0.5)]
    wind_occlusion: f32,
    /// Wind: seed of the gust noise.
    #[export]
    #[var(set = set_wind_seed)]
    wind_seed: i32,
    /// An attachment that turns by more than this many degrees in one
    /// frame is a teleport (0 = never, the default).
    #[export(range = (0.0, 180.0))]
    #[var(set = set_teleport_angle)]
    teleport_angle: f32,
    /// What a teleport does to the hair: keep its shape (carried rigidly)
    /// or reset it to rest under the new pose.
    #[export(enum = (KeepShape = 0, Reset = 1))]
    #[var(set = set_teleport_mode)]
    teleport_mode: i32,
    /// A moving platform or vehicle (a Node3D) the avatar rides: the hair
    /// does not feel its motion as inertia, only motion relative to it.
    #[export]
    #[var(set = set_anchor)]
    anchor: NodePath,
    /// With `TressSpringHair.set_crowd_threads(n)` above 1, this hair steps
    /// together with the scene's others, on n threads. Turn it off when a
    /// modifier before this one moves the bones the hair hangs from or
    /// collides with (TressAvatar does so for its node constraints): the
    /// shared step reads every hair's pose before those modifiers run.
    #[export]
    #[init(val = true)]
    pub(crate) step_with_crowd: bool,
    /// Set by the shared step: the engine frame it stepped this hair in,
    /// with the microseconds of this hair's reads and its share of the step.
    pub(crate) crowd_stepped: Option<(u64, f64, f64)>,
    /// The pool slot of this hair's step while it is out (its solver is in
    /// the job; `crowd::settle` puts it back).
    pub(crate) crowd_flight: Option<usize>,
    /// The parent skeleton while the node is in the tree (what
    /// `get_skeleton()` returns then): set on entering the tree and cleared
    /// on leaving it, so a crowd of hairs asks the engine for none of them
    /// each frame (a reparent leaves and enters the tree again).
    pub(crate) skeleton_in_tree: Option<Gd<Skeleton3D>>,
    base: Base<SkeletonModifier3D>,
}

/// The last update's time by part, in microseconds (monotonic clock).
#[derive(Clone, Copy, Default)]
struct UpdateTiming {
    /// Everything `process_modification` did.
    total: f64,
    /// Reading the animated pose: frame, bone and collider transforms.
    reads: f64,
    /// The solver: substeps and the joints' local rotations.
    solver: f64,
    /// Writing the bone rotations to the skeleton.
    writes: f64,
}

fn micros_since(t: std::time::Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e6
}

/// Where a solver frame's world pose comes from each frame.
enum FrameSource {
    /// The skeleton's own global transform (chains hanging from the root).
    Skeleton,
    /// A bone's global pose.
    Bone(i32),
    /// A node's global transform (a TressCollider3D without a bone).
    Node(Gd<Node3D>),
}

fn mode_of(i: i32) -> Mode {
    match i {
        1 => Mode::Earlier,
        2 => Mode::VrmCompatible,
        _ => Mode::Improved,
    }
}

#[godot_api]
impl ISkeletonModifier3D for TressSpringHair {
    fn ready(&mut self) {
        if self.avatar.is_some() {
            return;
        }
        if let Some(cfg) = self.spring_config.clone() {
            crate::spring_config::configure(self, &cfg);
        } else if !self.root_bones.is_empty() || !self.chains.is_empty() {
            self.configure_from_inspector();
        }
    }

    fn enter_tree(&mut self) {
        self.skeleton_in_tree = self.parent_as_skeleton();
        if !Engine::singleton().is_editor_hint() {
            crowd::join(self.to_gd());
        }
    }

    fn exit_tree(&mut self) {
        crowd::leave(self);
        self.skeleton_in_tree = None;
    }

    fn process_modification(&mut self) {
        // A Rust clock: an engine call per reading would cost more than
        // some of the parts it times.
        let start = std::time::Instant::now();
        let editor = *self
            .in_editor
            .get_or_insert_with(|| Engine::singleton().is_editor_hint());
        // Stepped together with the scene's other hairs (threads > 1): this
        // call only writes what the shared step left.
        if !editor && crowd::write_if_stepped(self, start) {
            return;
        }
        let Some(prepared) = self.prepare(editor) else {
            return;
        };
        let solver_start = std::time::Instant::now();
        if let Some(job) = self.step_job(prepared.dt) {
            job.run();
        }
        let solver = micros_since(solver_start);
        self.write_bones(prepared.skel, editor, start, prepared.reads, solver);
    }
}

/// What [`TressSpringHair::prepare`] leaves for the step.
pub(crate) struct Prepared {
    /// The skeleton, fetched within this call.
    pub(crate) skel: Gd<Skeleton3D>,
    /// Seconds to simulate this call.
    pub(crate) dt: f32,
    /// Microseconds spent reading the animated pose.
    pub(crate) reads: f64,
}

/// One hair's step as pure Rust data: no Godot object is touched, so any
/// thread may run it (`crowd`).
pub(crate) struct StepJob<'a> {
    rig: &'a mut SpringRig,
    chain_bones: &'a [Vec<i32>],
    fold_bones: &'a [i32],
    inputs: &'a mut FrameInputs,
    out: &'a mut Vec<JointOutput>,
    writes: &'a mut Vec<BoneWrite>,
    substeps: &'a mut u32,
    dt: f32,
}

/// What an update read for its step: each solver frame's world transform,
/// the model scale, and whether the step resumes after a pause. The step
/// applies them (`apply`) in the order the update once applied them
/// itself, so it sees the same world on whichever thread it runs.
#[derive(Clone, Default)]
pub(crate) struct FrameInputs {
    frames: Vec<(usize, Transform3D)>,
    /// The skeleton's largest axis scale: the model scale.
    scale: f32,
    resumed: bool,
    /// The node cannot process: hold the hair instead of stepping it.
    held: bool,
    /// Read and not yet applied.
    pending: bool,
}

impl FrameInputs {
    fn apply(&mut self, rig: &mut SpringRig) {
        if !core::mem::take(&mut self.pending) {
            return;
        }
        for (fi, xf) in &self.frames {
            rig.world.set_frame_pose(*fi, pose_and_scale(xf).0);
        }
        if (rig.world.scale() - self.scale).abs() > 1e-6 {
            rig.world.set_scale(self.scale);
        }
        if self.held {
            rig.world.hold();
        } else if self.resumed {
            rig.world.resume();
        }
    }
}

/// One bone's new local rotation (and, for a fold joint, position).
#[derive(Clone, Copy, Debug)]
pub(crate) struct BoneWrite {
    bone: i32,
    rot: Quaternion,
    pos: Option<Vector3>,
}

impl StepJob<'_> {
    /// Advances the solver by `dt` and collects every chain's bone
    /// rotations, in chain order.
    pub(crate) fn run(self) {
        let held = self.inputs.held;
        self.inputs.apply(self.rig);
        *self.substeps = if held { 0 } else { self.rig.advance(self.dt) };
        self.writes.clear();
        for (ci, bones) in self.chain_bones.iter().enumerate() {
            self.out.clear();
            self.out.resize(bones.len(), JointOutput::default());
            let n = self.rig.outputs_into(ci, &mut self.out[..]);
            for (out, &bone) in self.out[..n].iter().zip(bones) {
                if bone >= 0 {
                    self.writes.push(BoneWrite {
                        bone,
                        rot: quaternion(out.local_rot),
                        pos: None,
                    });
                }
            }
        }
        // Fold joints stand where their chains now leave them.
        for (f, &bone) in self.rig.fold_locals().iter().zip(self.fold_bones) {
            if bone >= 0 {
                self.writes.push(BoneWrite {
                    bone,
                    rot: quaternion(f.rotation),
                    pos: Some(vector3(f.translation)),
                });
            }
        }
    }
}

impl TressSpringHair {
    /// Everything an update does before the solver: inspector edits, the
    /// frame's time, authored chains and the animated frame and collider
    /// poses into the world. `None` when there is nothing to step (no
    /// skeleton or rig, paused in the editor); a node that cannot process
    /// gets a step that holds the hair (`FrameInputs::held`).
    pub(crate) fn prepare(&mut self, editor: bool) -> Option<Prepared> {
        let skel = self.base().get_skeleton()?;
        self.prepare_on(editor, skel, None)
    }

    /// [`Self::prepare`] on the parent skeleton `skel`; `idle`: the caller
    /// already found this node processing (so not held) with `skel` updating
    /// in the idle process at engine frame `.0`, whose delta is `.1` (the
    /// crowd's shared step asks once per frame what every hair would ask).
    pub(crate) fn prepare_on(
        &mut self,
        editor: bool,
        skel: Gd<Skeleton3D>,
        idle: Option<(u64, f64)>,
    ) -> Option<Prepared> {
        // Edits inside a Chains entry reach no setter of this node; the
        // editor compares (a failed build too, so a fix is picked up).
        if editor && self.inspector_owned() {
            self.refresh_chains();
        }
        if self.rebuild_pending && self.inspector_owned() {
            self.configure_from_inspector();
        }
        if self.hand_made {
            self.sync_hand_colliders();
        }
        // Off in the editor: the chains rest under the current pose (so
        // the gizmo and a later switch-on start from there) and the bones
        // keep whatever pose the skeleton has.
        let paused = editor && !self.simulate_in_editor;
        let held = !editor && idle.is_none() && self.held_now();
        // Godot may update a skeleton (and run its modifiers) more than once
        // in a frame; the frame's time is simulated on the first call only,
        // later calls re-apply the same result.
        let (frame, delta) = match idle {
            Some(known) => known,
            None => match skel.get_modifier_callback_mode_process() {
                ModifierCallbackModeProcess::PHYSICS => (
                    Engine::singleton().get_physics_frames(),
                    self.base().get_physics_process_delta_time(),
                ),
                _ => (
                    Engine::singleton().get_process_frames(),
                    self.base().get_process_delta_time(),
                ),
            },
        };
        // A held update claims no frame: the first one that steps again
        // sees the gap and resumes.
        let dt = if held || self.last_frame == Some(frame) {
            0.0
        } else {
            delta as f32
        };
        let resumed = !editor && dt > 0.0 && self.take_resume(frame);
        // A call that advanced no time (before the first frame) does not
        // claim the frame.
        if dt > 0.0 {
            self.last_frame = Some(frame);
        }
        let playing = self.refresh_animated(&skel);
        let rig = self.rig.as_mut()?;
        // Authored motion wins: chains the playing animation drives follow
        // it, with their animated local rotations, until it lets go.
        let driven: &[i32] = match (&self.animated, playing) {
            (Some((_, bones)), true) => bones,
            _ => &[],
        };
        self.authored.resize(self.chain_bones.len(), false);
        // Nothing driven and nothing handed back: no chain to visit (the
        // bone lists are one allocation per chain, cold in a crowd).
        let visit = !driven.is_empty() || self.authored.contains(&true);
        for (ci, bones) in self.chain_bones.iter().enumerate().filter(|_| visit) {
            if bones.iter().any(|b| *b >= 0 && driven.contains(b)) {
                self.scratch_rots.clear();
                self.scratch_rots.extend(bones.iter().map(|&b| {
                    let q = skel.get_bone_pose_rotation(b.max(0));
                    tress_core::math::Quat::from_xyzw(q.x, q.y, q.z, q.w)
                }));
                let _ = rig
                    .world
                    .set_authored(rig.chains[ci].index, Some(&self.scratch_rots));
                self.authored[ci] = true;
            } else if self.authored[ci] {
                let _ = rig.world.set_authored(rig.chains[ci].index, None);
                self.authored[ci] = false;
            }
        }
        let reads_start = std::time::Instant::now();
        let skel_xf = skel.get_global_transform();
        let inputs = &mut self.frame_inputs;
        inputs.frames.clear();
        for (fi, source) in self.frame_sources.iter().enumerate() {
            let xf = match source {
                FrameSource::Bone(b) => skel_xf * skel.get_bone_global_pose(*b),
                FrameSource::Skeleton => skel_xf,
                // A freed collider node keeps its last pose (the hand-made
                // rig rebuilds without it); never a call on a dead object:
                // release builds skip gdext's liveness checks (Cargo.toml).
                FrameSource::Node(n) if n.is_instance_valid() => n.get_global_transform(),
                FrameSource::Node(_) => continue,
            };
            inputs.frames.push((fi, xf));
        }
        inputs.scale = largest_scale(&skel_xf);
        inputs.resumed = resumed;
        inputs.held = held;
        inputs.pending = true;
        if paused {
            inputs.apply(rig);
            rig.world.reset();
            self.last_substeps = 0;
            self.base_mut().update_gizmos();
            return None;
        }
        Some(Prepared {
            skel,
            dt,
            reads: micros_since(reads_start),
        })
    }

    /// This hair's step over `dt`, borrowing only its pure Rust parts.
    pub(crate) fn step_job(&mut self, dt: f32) -> Option<StepJob<'_>> {
        Some(StepJob {
            rig: self.rig.as_mut()?,
            chain_bones: &self.chain_bones,
            fold_bones: &self.fold_bones,
            inputs: &mut self.frame_inputs,
            out: &mut self.scratch_out,
            writes: &mut self.scratch_writes,
            substeps: &mut self.last_substeps,
            dt,
        })
    }

    /// Puts the last step's bone rotations on `skel`.
    pub(crate) fn write_rotations(&self, skel: &mut Gd<Skeleton3D>) {
        for w in &self.scratch_writes {
            skel.set_bone_pose_rotation(w.bone, w.rot);
            if let Some(p) = w.pos {
                skel.set_bone_pose_position(w.bone, p);
            }
        }
    }

    /// Writes the last step's rotations to the skeleton and records the
    /// update's timing (`solver`: microseconds of this hair's step).
    pub(crate) fn write_bones(
        &mut self,
        mut skel: Gd<Skeleton3D>,
        editor: bool,
        start: std::time::Instant,
        reads: f64,
        solver: f64,
    ) {
        let writes_start = std::time::Instant::now();
        self.write_rotations(&mut skel);
        if editor {
            // The chain gizmo draws the solver's joints: redraw as they move.
            self.base_mut().update_gizmos();
        }
        self.last_timing = UpdateTiming {
            total: micros_since(start),
            reads,
            solver,
            writes: micros_since(writes_start),
        };
    }
}

#[godot_api]
impl TressSpringHair {
    /// Reads the springs and colliders of a `.vrm` file and builds the
    /// solver for the parent Skeleton3D, whose bone names must equal the
    /// file's node names (as Godot's GLTFDocument makes them). Returns false,
    /// with the reason in the log, when the file cannot be used.
    #[func]
    pub fn configure_from_vrm(&mut self, path: GString) -> bool {
        let file = path.to_string();
        match crate::files::load_model(&file) {
            Ok(avatar) => {
                for w in &avatar.warnings {
                    godot_warn!("TressSpringHair: {file}: {w}");
                }
                self.configure_from_avatar(avatar)
            }
            Err(e) => {
                godot_error!("TressSpringHair: cannot use '{file}': {e}");
                false
            }
        }
    }

    /// Puts every chain back to its rest pose under the current attachment.
    #[func]
    pub fn reset(&mut self) {
        crowd::settle(self);
        if let Some(rig) = self.rig.as_mut() {
            rig.world.reset();
        }
    }

    /// World position of the end of segment `joint` of chain `chain` after
    /// the last update (zero for bad indices): the solver's own answer,
    /// independent of when Godot applies or restores bone poses.
    #[func]
    pub fn get_joint_tail(&mut self, chain: i32, joint: i32) -> Vector3 {
        crowd::settle(self);
        let (Ok(c), Ok(j)) = (usize::try_from(chain), usize::try_from(joint)) else {
            return Vector3::ZERO;
        };
        match self.rig.as_ref() {
            Some(rig) if c < rig.chains.len() => rig
                .outputs(c)
                .get(j)
                .map_or(Vector3::ZERO, |o| vector3(o.tail)),
            _ => Vector3::ZERO,
        }
    }

    /// Number of simulated chains.
    #[func]
    pub fn chain_count(&mut self) -> i32 {
        crowd::settle(self);
        self.chain_bones.len() as i32
    }

    /// Number of simulated joints.
    #[func]
    pub fn joint_count(&mut self) -> i32 {
        crowd::settle(self);
        self.chain_bones.iter().map(Vec::len).sum::<usize>() as i32
    }

    /// Substeps run by the last update.
    #[func]
    pub fn get_last_substeps(&mut self) -> i32 {
        crowd::settle(self);
        self.last_substeps as i32
    }

    /// Microseconds the last hair update took.
    #[func]
    pub fn get_last_update_usec(&self) -> i64 {
        self.last_timing.total as i64
    }

    /// Where the last update's time went, in microseconds: `total`,
    /// `reads` (frame, bone and collider transforms from the skeleton),
    /// `solver` (those transforms into the solver, substeps and joint
    /// rotations) and `writes` (bone rotations to the skeleton). Godot's
    /// own work after the modifier (the skeleton's global poses) is not in
    /// `total`; the bench measures it from outside.
    #[func]
    pub fn get_last_timing(&self) -> VarDictionary {
        let t = self.last_timing;
        let mut d = VarDictionary::new();
        d.set("total", t.total);
        d.set("reads", t.reads);
        d.set("solver", t.solver);
        d.set("writes", t.writes);
        d
    }

    /// Changes the solver mode: hand-made chains switch without a reset;
    /// rigs from a VRM file are rebuilt.
    #[func]
    pub fn set_solver_mode(&mut self, mode: i32) {
        crowd::settle(self);
        self.solver_mode = mode.clamp(0, 2);
        let opts = self.rig_options();
        if self.hand_made
            && let (Some(avatar), Some(rig)) = (self.avatar.as_ref(), self.rig.as_mut())
            && rig.set_mode(avatar, &opts).is_ok()
        {
            return;
        }
        if self.avatar.is_some() {
            self.rebuild();
        }
    }

    /// Turns the simulation in the editor on or off (no effect in a
    /// running game).
    #[func]
    pub fn set_simulate_in_editor(&mut self, on: bool) {
        self.simulate_in_editor = on;
    }

    /// Sets the hand-made chains' root bones (rebuilt at the next update).
    #[func]
    pub fn set_root_bones(&mut self, bones: PackedStringArray) {
        self.root_bones = bones;
        self.rebuild_pending = true;
    }

    /// Sets the hand-made chains' end bones (rebuilt at the next update).
    #[func]
    pub fn set_end_bones(&mut self, bones: PackedStringArray) {
        self.end_bones = bones;
        self.rebuild_pending = true;
    }

    /// Sets the hand-made chains with their own settings (rebuilt at the
    /// next update).
    #[func]
    pub fn set_chains(&mut self, chains: Array<Gd<crate::spring_config::TressSpringChain>>) {
        self.chains = chains;
        self.rebuild_pending = true;
    }

    /// Picks up edits made inside the **Chains** entries (which the node is
    /// not told of): changed joint values apply to the running chains
    /// without a reset; any other change rebuilds at the next update. The
    /// editor calls it every update; a script that edits an entry at run
    /// time calls it after. Returns whether anything changed.
    #[func]
    pub fn refresh_chains(&mut self) -> bool {
        crowd::settle(self);
        let now = crate::spring_hand::specs(&self.chains);
        if now == self.built_specs {
            return false;
        }
        let first = self.root_bones.len();
        if self.hand_made
            && crate::spring_hand::values_only(&self.built_specs, &now)
            && let (Some(avatar), Some(rig)) = (self.avatar.as_mut(), self.rig.as_mut())
        {
            crate::spring_hand::apply_joint_values(avatar, first, &now);
            // The rig keeps its live scales on top of the new values.
            if let Err(e) = rig.refresh_joint_params(avatar) {
                godot_error!("TressSpringHair: cannot apply the chains' joint values: {e}");
            }
            self.built_specs = now;
        } else {
            self.rebuild_pending = true;
        }
        true
    }

    /// A new TressSpringHair with the chains and colliders of Godot's
    /// SpringBoneSimulator3D `sim` (Godot 4.4+): one **Chains** entry per
    /// setting (bones, radius, stiffness, drag, gravity and their curves
    /// sampled per joint, per-joint values, extend_end_bone, centre bone,
    /// collision choice) and one TressCollider3D child per
    /// SpringBoneCollision3D child, named alike. Not yet in the tree: add it
    /// under the same Skeleton3D and switch the simulator off
    /// (`sim.active = false`). Null, with the reason in the log, when `sim`
    /// is not a simulator under a skeleton or has no usable chain; a chain
    /// with a missing bone or an end bone outside its root is left out with
    /// an error.
    #[func]
    pub fn from_spring_bone_simulator(sim: Gd<godot::classes::Node>) -> Option<Gd<Self>> {
        crate::sim_convert::convert(&sim)
    }

    /// Sets the hand-made stiffness; applies to the running chains.
    #[func]
    pub fn set_stiffness(&mut self, value: f32) {
        self.stiffness = value;
        self.push_hand_params();
    }

    /// Sets the hand-made drag; applies to the running chains.
    #[func]
    pub fn set_drag(&mut self, value: f32) {
        self.drag = value;
        self.push_hand_params();
    }

    /// Sets the hand-made gravity power; applies to the running chains.
    #[func]
    pub fn set_gravity_power(&mut self, value: f32) {
        self.gravity_power = value;
        self.push_hand_params();
    }

    /// Sets the hand-made gravity direction; applies to the running chains.
    #[func]
    pub fn set_gravity_dir(&mut self, value: Vector3) {
        self.gravity_dir = value;
        self.push_hand_params();
    }

    /// Sets the hand-made joints' hit radius; applies to the running chains.
    #[func]
    pub fn set_hit_radius(&mut self, value: f32) {
        self.hit_radius = value;
        self.push_hand_params();
    }

    /// Asks for a rebuild from the inspector at the next update (a
    /// TressCollider3D entering or leaving the skeleton in the editor).
    #[func]
    pub fn request_rebuild(&mut self) {
        if self.inspector_owned() {
            self.rebuild_pending = true;
        }
    }

    /// Sets the flat-lock stiffness; the hair keeps its motion (one built
    /// with flat locks and the lock twist both off is rebuilt from rest).
    #[func]
    pub fn set_flat_lock_stiffness(&mut self, per_second: f32) {
        self.flat_lock_stiffness = if per_second.is_finite() {
            per_second.max(0.0)
        } else {
            0.0
        };
        self.push_lock_options();
    }

    /// Turns the lock twist on or off; the hair keeps its motion (one built
    /// with flat locks and the lock twist both off is rebuilt from rest).
    #[func]
    pub fn set_lock_twist(&mut self, on: bool) {
        self.lock_twist = on;
        self.push_lock_options();
    }

    /// Turns drape over contact on or off; the hair keeps its motion.
    #[func]
    pub fn set_drape(&mut self, on: bool) {
        self.drape = on;
        self.push_lock_options();
    }

    /// Turns the file's bands on or off (rebuilds a configured rig).
    #[func]
    pub fn set_hold_bands(&mut self, on: bool) {
        self.hold_bands = on;
        if self.avatar.is_some() {
            self.rebuild();
        }
    }

    /// The band links the solver holds, as plain data: per link `a` and `b`
    /// (chain names, as `get_chain_descriptions()` gives them), `stretch`
    /// and `shear` (the diagonals' allowance, null where the file leaves
    /// shear free). Empty when the file has no bands, `hold_bands` is off or
    /// the solver mode is VRM-compatible.
    #[func]
    pub fn get_band_links(&mut self) -> VarArray {
        crowd::settle(self);
        let mut out = VarArray::new();
        let Some(rig) = self.rig.as_ref() else {
            return out;
        };
        let name = |world: usize| {
            rig.chains
                .iter()
                .find(|c| c.index == world)
                .map_or_else(GString::new, |c| GString::from(c.name.as_str()))
        };
        for l in rig.world.band_links() {
            let mut d = VarDictionary::new();
            d.set("a", &name(l.a).to_variant());
            d.set("b", &name(l.b).to_variant());
            d.set("stretch", &l.stretch.to_variant());
            d.set(
                "shear",
                &l.shear.map_or_else(Variant::nil, |s| s.to_variant()),
            );
            out.push(&d.to_variant());
        }
        out
    }

    /// Sets the per-chain angle limits (see the property; the work is in
    /// `spring_hair::limits`) and applies them now, without a reset.
    #[func]
    pub fn set_chain_limits(&mut self, limits: VarDictionary) {
        self.chain_limits = limits;
        self.apply_chain_limits();
    }

    /// Changes the teleport threshold without a reset.
    #[func]
    pub fn set_teleport_distance(&mut self, metres: f32) {
        crowd::settle(self);
        self.teleport_distance = metres;
        if let Some(rig) = self.rig.as_mut() {
            let mut c = rig.world.config();
            c.teleport_distance = metres;
            rig.world.set_config(c);
        }
    }

    // Wind, teleport and anchor (the logic is in `motion`).

    /// Sets where the wind blows to; live.
    #[func]
    pub fn set_wind_direction(&mut self, direction: Vector3) {
        self.wind_direction = direction;
        self.push_wind();
    }

    /// Sets the wind's mean acceleration (m/s²); live.
    #[func]
    pub fn set_wind_strength(&mut self, strength: f32) {
        self.wind_strength = strength;
        self.push_wind();
    }

    /// Sets the gust amplitude (relative to the strength); live.
    #[func]
    pub fn set_wind_gust(&mut self, gust: f32) {
        self.wind_gust = gust;
        self.push_wind();
    }

    /// Sets the typical seconds between gusts; live.
    #[func]
    pub fn set_wind_gust_seconds(&mut self, seconds: f32) {
        self.wind_gust_seconds = seconds;
        self.push_wind();
    }

    /// Sets the sideways flutter (relative to the strength); live.
    #[func]
    pub fn set_wind_turbulence(&mut self, turbulence: f32) {
        self.wind_turbulence = turbulence;
        self.push_wind();
    }

    /// Sets how much the centre of the hairstyle is sheltered; live.
    #[func]
    pub fn set_wind_occlusion(&mut self, occlusion: f32) {
        self.wind_occlusion = occlusion;
        self.push_wind();
    }

    /// Sets the gust noise seed; live.
    #[func]
    pub fn set_wind_seed(&mut self, seed: i32) {
        self.wind_seed = seed;
        self.push_wind();
    }

    /// Sets the teleport rotation threshold in degrees (0 = never); live.
    #[func]
    pub fn set_teleport_angle(&mut self, degrees: f32) {
        self.teleport_angle = if degrees.is_finite() {
            degrees.max(0.0)
        } else {
            0.0
        };
        self.push_teleport();
    }

    /// Sets what a teleport does: 0 keep the shape, 1 reset; live.
    #[func]
    pub fn set_teleport_mode(&mut self, mode: i32) {
        if !(0..=1).contains(&mode) {
            godot_warn!(
                "TressSpringHair '{}': teleport_mode {mode} is not 0 (KeepShape) or 1 (Reset); using KeepShape",
                self.base().get_name()
            );
        }
        self.teleport_mode = if mode == 1 { 1 } else { 0 };
        self.push_teleport();
    }

    /// Sets the anchor node (a platform or vehicle); empty turns it off.
    /// Live: the hair keeps its state.
    #[func]
    pub fn set_anchor(&mut self, path: NodePath) {
        self.anchor = path;
        self.push_anchor();
    }

    /// Scales every joint's stiffness from the next frame on, without a reset.
    #[func]
    pub fn set_stiffness_scale(&mut self, factor: f32) {
        self.stiffness_scale = self.checked_scale("stiffness_scale", factor);
        self.push_param_scales();
    }

    /// Scales every joint's drag from the next frame on, without a reset.
    #[func]
    pub fn set_drag_scale(&mut self, factor: f32) {
        self.drag_scale = self.checked_scale("drag_scale", factor);
        self.push_param_scales();
    }

    /// Scales every joint's gravity from the next frame on, without a reset.
    #[func]
    pub fn set_gravity_scale(&mut self, factor: f32) {
        self.gravity_scale = self.checked_scale("gravity_scale", factor);
        self.push_param_scales();
    }

    /// The lock shapes flat locks and the lock twist use, by bone name: each
    /// `[width_axis (bone space), aspect, half_width (m)]`. Read from the
    /// skin for a `.vrm` (`TressAvatar`), from the spring config for an
    /// imported scene (empty where that config holds none).
    #[func]
    pub fn get_lock_shapes(&mut self) -> VarDictionary {
        crowd::settle(self);
        let mut d = VarDictionary::new();
        let Some(avatar) = self.avatar.as_ref() else {
            return d;
        };
        for (node, s) in tress_rig::flat_locks::lock_shapes(avatar) {
            let Some(n) = avatar.nodes.get(node) else {
                continue;
            };
            let mut v = VarArray::new();
            v.push(&vector3(s.width_axis).to_variant());
            v.push(&s.aspect.to_variant());
            v.push(&s.half_width.to_variant());
            d.set(n.name.as_str(), &v);
        }
        d
    }

    /// The simulated chains as plain data, for building a comparison rig in
    /// another solver (the demo's SpringBoneSimulator3D peer): per chain
    /// `name`, `root_bone`, `end_bone`, `extend_end` (a virtual tail) with
    /// `end_length`, the first joint's VRM `stiffness`, `drag`,
    /// `gravity_power`, `gravity_dir`, `hit_radius`, and `colliders` (indices
    /// into `get_collider_descriptions()`).
    #[func]
    pub fn get_chain_descriptions(&mut self) -> VarArray {
        crowd::settle(self);
        let mut out = VarArray::new();
        let (Some(avatar), Some(rig)) = (self.avatar.as_ref(), self.rig.as_ref()) else {
            return out;
        };
        let name_of = |n: usize| GString::from(avatar.nodes[n].name.as_str());
        for rc in &rig.chains {
            let c = &avatar.springs.chains[rc.spring];
            let (Some(first), Some(last)) = (c.joints.first(), c.joints.last()) else {
                continue;
            };
            let mut d = VarDictionary::new();
            d.set("name", &rc.name.to_variant());
            d.set("root_bone", &name_of(first.node).to_variant());
            d.set("end_bone", &name_of(last.node).to_variant());
            d.set("extend_end", &c.virtual_tail.is_some().to_variant());
            d.set(
                "end_length",
                &c.virtual_tail.map_or(0.0, |t| t.length()).to_variant(),
            );
            d.set("stiffness", &first.stiffness.to_variant());
            d.set("drag", &first.drag_force.to_variant());
            d.set("gravity_power", &first.gravity_power.to_variant());
            d.set("gravity_dir", &vector3(first.gravity_dir).to_variant());
            d.set("hit_radius", &first.hit_radius.to_variant());
            let mut colliders = PackedInt32Array::new();
            for &g in &c.collider_groups {
                if let Some(group) = avatar.springs.collider_groups.get(g) {
                    for &k in &group.colliders {
                        if !colliders.contains(k as i32) {
                            colliders.push(k as i32);
                        }
                    }
                }
            }
            d.set("colliders", &colliders.to_variant());
            out.push(&d.to_variant());
        }
        out
    }

    /// The avatar's colliders as plain data: `bone`, `shape` (`sphere`,
    /// `capsule`, `plane`, `insideSphere`, `insideCapsule`), `offset`, `tail`,
    /// `normal`, `radius`, in the bone's local space.
    #[func]
    pub fn get_collider_descriptions(&self) -> VarArray {
        use tress_vrm::ColliderShape as S;
        let mut out = VarArray::new();
        let Some(avatar) = self.avatar.as_ref() else {
            return out;
        };
        for c in &avatar.springs.colliders {
            let (offset, tail, normal, radius) = match c.shape {
                S::Sphere { offset, radius } | S::InsideSphere { offset, radius } => {
                    (offset, offset, Vec3::Y, radius)
                }
                S::Capsule {
                    offset,
                    tail,
                    radius,
                }
                | S::InsideCapsule {
                    offset,
                    tail,
                    radius,
                } => (offset, tail, Vec3::Y, radius),
                S::Plane { offset, normal } => (offset, offset, normal, 0.0),
            };
            let mut d = VarDictionary::new();
            d.set(
                "bone",
                &GString::from(avatar.nodes[c.node].name.as_str()).to_variant(),
            );
            d.set("shape", &GString::from(c.shape.name()).to_variant());
            d.set("offset", &vector3(offset).to_variant());
            d.set("tail", &vector3(tail).to_variant());
            d.set("normal", &vector3(normal).to_variant());
            d.set("radius", &radius.to_variant());
            out.push(&d.to_variant());
        }
        out
    }

    /// Builds the hand-made chains from `root_bones` / `end_bones`, the
    /// hand-made joint values and every TressCollider3D under the skeleton.
    /// Called on ready when no VRM is configured; call it again after
    /// changing the chain or collider list. Returns false (reason in the log)
    /// when a bone is missing or an end does not descend from its root.
    #[func]
    pub fn configure_from_inspector(&mut self) -> bool {
        let Some(skel) = self.parent_skeleton() else {
            return false;
        };
        let colliders = crate::collider::colliders_under(&skel.clone().upcast());
        let params = HandParams {
            stiffness: self.stiffness,
            drag: self.drag,
            gravity_power: self.gravity_power,
            gravity_dir: vec3(self.gravity_dir),
            hit_radius: self.hit_radius,
        };
        self.rebuild_pending = false;
        let chains: Vec<_> = self.chains.iter_shared().collect();
        self.built_specs = crate::spring_hand::specs(&self.chains);
        match inspector_rig::build(
            &skel,
            &self.root_bones,
            &self.end_bones,
            params,
            &chains,
            &colliders,
        ) {
            Ok(hand) => {
                self.collider_nodes = hand.collider_nodes;
                self.tail_chains = hand.tail_chains;
                self.hand_colliders = colliders
                    .into_iter()
                    .map(|c| {
                        let bone = c.bind().bone_name.clone();
                        (c, bone)
                    })
                    .collect();
                self.hand_made = true;
                self.collider_edits_seen = None;
                self.install(hand.avatar)
            }
            Err(e) => {
                // Not retried every frame: the next edit asks again.
                self.hand_colliders.clear();
                godot_error!("TressSpringHair: {e}");
                false
            }
        }
    }

    /// Builds the solver from an already loaded avatar (Rust callers such as
    /// `TressAvatar`, which loads the file once for both).
    pub fn configure_from_avatar(&mut self, avatar: Avatar) -> bool {
        self.hand_made = false;
        self.install(avatar)
    }

    fn install(&mut self, avatar: Avatar) -> bool {
        self.avatar = Some(avatar);
        self.rebuild()
    }

    /// Each simulated joint after the last update, per chain: world origin,
    /// world tail and world hit radius (what the chain gizmo draws).
    #[must_use]
    pub fn joint_segments(&self) -> Vec<Vec<(Vector3, Vector3, f32)>> {
        let (Some(avatar), Some(rig)) = (self.avatar.as_ref(), self.rig.as_ref()) else {
            return Vec::new();
        };
        let scale = rig.world.scale();
        (0..rig.chains.len())
            .map(|c| {
                let joints = avatar
                    .springs
                    .chains
                    .get(rig.chains[c].spring)
                    .map_or(&[][..], |s| &s.joints[..]);
                rig.outputs(c)
                    .iter()
                    .enumerate()
                    .map(|(k, o)| {
                        let r = joints.get(k).map_or(0.0, |j| j.hit_radius) * scale;
                        (vector3(o.origin), vector3(o.tail), r)
                    })
                    .collect()
            })
            .collect()
    }

    /// Whether the inspector's chains decide the rig (not a VRM file).
    fn inspector_owned(&self) -> bool {
        self.hand_made || self.avatar.is_none()
    }

    /// The rig options the node's properties ask for.
    fn rig_options(&self) -> RigOptions {
        RigOptions {
            mode: mode_of(self.solver_mode),
            tail_chains: self.tail_chains,
            flat_lock_stiffness: self.flat_lock_stiffness,
            drape: self.drape,
            lock_twist: self.lock_twist,
            bands: self.hold_bands,
            config: StepConfig {
                teleport_distance: self.teleport_distance,
                ..StepConfig::default()
            },
            ..RigOptions::default()
        }
    }

    /// Hand-made rigs: the joint values from the inspector into every joint
    /// of the avatar and the running world (no reset).
    fn push_hand_params(&mut self) {
        crowd::settle(self);
        if !self.hand_made {
            return;
        }
        let (Some(avatar), Some(rig)) = (self.avatar.as_mut(), self.rig.as_mut()) else {
            return;
        };
        let gravity_dir = vec3(self.gravity_dir);
        // Only the Root Bones / End Bones chains (built first) share these
        // values; the Chains entries keep their own.
        for chain in avatar.springs.chains.iter_mut().take(self.root_bones.len()) {
            for j in &mut chain.joints {
                j.stiffness = self.stiffness;
                j.drag_force = self.drag;
                j.gravity_power = self.gravity_power;
                j.gravity_dir = gravity_dir;
                j.hit_radius = self.hit_radius;
            }
        }
        // The rig keeps its live scales on top of the new values.
        if let Err(e) = rig.refresh_joint_params(avatar) {
            godot_error!("TressSpringHair: cannot apply the joint values: {e}");
        }
    }

    /// Hand-made rigs: each TressCollider3D's shape, size and offset into
    /// the running world when they changed; a collider gone from the tree
    /// or following another bone rebuilds the rig.
    fn sync_hand_colliders(&mut self) {
        crowd::settle(self);
        let edits = crate::collider::edit_count();
        if self.collider_edits_seen == Some(edits) {
            return;
        }
        self.collider_edits_seen = Some(edits);
        let mut rebuild = false;
        for (i, (node, bone)) in self.hand_colliders.iter().enumerate() {
            if !node.is_instance_valid() || !node.is_inside_tree() {
                rebuild = true;
                break;
            }
            let b = node.bind();
            if b.bone_name != *bone {
                rebuild = true;
                break;
            }
            let shape = b.shape_in_frame();
            drop(b);
            let (Some(avatar), Some(rig)) = (self.avatar.as_mut(), self.rig.as_mut()) else {
                return;
            };
            let Some(c) = avatar.springs.colliders.get_mut(i) else {
                continue;
            };
            if c.shape != shape {
                c.shape = shape;
                if let Err(e) = rig.set_collider_shape(avatar, i, &shape) {
                    godot_error!("TressSpringHair: collider '{}': {e}", node.get_name());
                }
            }
        }
        if rebuild {
            self.configure_from_inspector();
        }
    }

    /// Chains (bit i: spring chain i) that use tail-point contact; the
    /// others check whole segments. Takes effect at the next configure.
    pub fn set_tail_chains(&mut self, chains: u128) {
        self.tail_chains = chains;
    }

    /// `factor` when usable; otherwise a warning naming the property and 1
    /// (negative: 0), so a bad slider value never reaches the solver.
    fn checked_scale(&self, what: &str, factor: f32) -> f32 {
        let ok = ParamScales {
            stiffness: factor,
            drag: factor,
            gravity: factor,
        }
        .sanitized()
        .stiffness;
        if ok != factor {
            godot_warn!(
                "TressSpringHair '{}': {what} {factor} is not a finite factor >= 0; using {ok}",
                self.base().get_name()
            );
        }
        ok
    }

    /// The lock options into the running rig, keeping the hair's motion; a
    /// rig built without the lock shapes (flat locks and the twist both
    /// off when it was built) is rebuilt instead, from rest.
    fn push_lock_options(&mut self) {
        crowd::settle(self);
        let opts = self.rig_options();
        let live = self
            .rig
            .as_mut()
            .is_some_and(|rig| rig.set_lock_options(&opts));
        if !live && self.avatar.is_some() {
            self.rebuild();
        }
    }

    /// Hands the three scale properties to the running rig (state kept).
    fn push_param_scales(&mut self) {
        crowd::settle(self);
        let scales = ParamScales {
            stiffness: self.stiffness_scale,
            drag: self.drag_scale,
            gravity: self.gravity_scale,
        };
        if let (Some(avatar), Some(rig)) = (self.avatar.as_ref(), self.rig.as_mut())
            && let Err(e) = rig.set_param_scales(avatar, scales)
        {
            godot_error!("TressSpringHair: could not apply the parameter scales: {e}");
        }
    }

    /// Avatar nodes that are not skeleton bones but plain Node3D nodes of
    /// the scene (a file whose skin leaves the head out): attachments and
    /// colliders on them follow those nodes. Takes effect at the next
    /// configure.
    pub fn set_node_frames(&mut self, frames: Vec<(usize, Gd<Node3D>)>) {
        self.collider_nodes = frames;
    }

    /// The Skeleton3D this node is a child of, or an error in the log.
    ///
    /// The parent, not `get_skeleton()`: that one is only set once the node
    /// is inside the scene tree, and avatars are often configured before
    /// they are added.
    fn parent_skeleton(&self) -> Option<Gd<Skeleton3D>> {
        let skel = self.parent_as_skeleton();
        if skel.is_none() {
            godot_error!("TressSpringHair: add it as a child of a Skeleton3D before configuring");
        }
        skel
    }

    /// The parent as a Skeleton3D, if it is one.
    fn parent_as_skeleton(&self) -> Option<Gd<Skeleton3D>> {
        self.base()
            .get_parent()
            .and_then(|p| p.try_cast::<Skeleton3D>().ok())
    }

    /// Whether the animation player is playing; keeps `animated` (the
    /// current animation and the bones its tracks drive) up to date.
    fn refresh_animated(&mut self, skel: &Gd<Skeleton3D>) -> bool {
        if self.animation_player.is_empty() {
            return false;
        }
        let Some(player) = self
            .base()
            .try_get_node_as::<AnimationPlayer>(&self.animation_player)
        else {
            return false;
        };
        if !player.is_playing() {
            return false;
        }
        let name = StringName::from(&player.get_current_animation());
        if self
            .animated
            .as_ref()
            .is_some_and(|(cached, _)| *cached == name)
        {
            return true;
        }
        let Some(anim) = player.get_animation(&name) else {
            return false;
        };
        let bones: Vec<i32> = (0..anim.get_track_count())
            .filter(|&t| anim.track_is_enabled(t))
            .map(|t| {
                skel.find_bone(&GString::from(
                    &anim.track_get_path(t).get_concatenated_subnames(),
                ))
            })
            .filter(|&b| b >= 0)
            .collect();
        self.animated = Some((name, bones));
        true
    }

    fn rebuild(&mut self) -> bool {
        crowd::settle(self);
        let Some(avatar) = self.avatar.as_ref() else {
            return false;
        };
        let Some(skel) = self.parent_skeleton() else {
            return false;
        };
        let opts = self.rig_options();
        let rig = match SpringRig::build(avatar, &opts) {
            Ok(r) => r,
            Err(e) => {
                godot_error!("TressSpringHair: {e}");
                return false;
            }
        };
        for n in &rig.notes {
            godot_warn!("TressSpringHair: {n}");
        }
        let bone = |node: usize| -> i32 { skel.find_bone(avatar.nodes[node].name.as_str()) };
        let mut frame_sources = Vec::with_capacity(rig.frame_nodes.len());
        for n in &rig.frame_nodes {
            let source = match n {
                None => FrameSource::Skeleton,
                Some(n) => {
                    if let Some((_, node)) = self.collider_nodes.iter().find(|(p, _)| p == n) {
                        FrameSource::Node(node.clone())
                    } else {
                        let b = bone(*n);
                        if b < 0 {
                            godot_error!(
                                "TressSpringHair: node '{}' (a hair attachment or collider) is not a bone of {}",
                                avatar.nodes[*n].name,
                                skel.get_name()
                            );
                            return false;
                        }
                        FrameSource::Bone(b)
                    }
                }
            };
            frame_sources.push(source);
        }
        let chain_bones: Vec<Vec<i32>> = rig
            .chains
            .iter()
            .map(|c| c.nodes.iter().map(|&n| bone(n)).collect())
            .collect();
        let fold_bones: Vec<i32> = rig.folds.nodes().map(bone).collect();
        let missing: usize = chain_bones
            .iter()
            .flatten()
            .chain(&fold_bones)
            .filter(|&&b| b < 0)
            .count();
        if missing > 0 {
            godot_warn!(
                "TressSpringHair: {missing} hair joints are not skeleton bones; they stay still"
            );
        }
        self.frame_sources = frame_sources;
        self.authored.clear();
        self.chain_bones = chain_bones;
        self.fold_bones = fold_bones;
        self.rig = Some(rig);
        self.apply_chain_limits();
        // A rebuild starts from the file's values; the live scales persist.
        if (self.stiffness_scale, self.drag_scale, self.gravity_scale) != (1.0, 1.0, 1.0) {
            self.push_param_scales();
        }
        self.apply_motion_settings();
        true
    }
}
