//! `TressAvatar`: a Node3D that loads a VRM avatar at runtime.

use godot::classes::{
    AnimationLibrary, AnimationPlayer, BoneAttachment3D, CapsuleShape3D, CollisionShape3D, INode3D,
    MeshInstance3D, Node, Node3D, Skeleton3D, SphereShape3D,
};
use godot::prelude::*;

use crate::constraints::{ConstraintRunner, TressNodeConstraints};
use crate::convert::{quaternion, vector3};
use crate::files;
use crate::live::live;
use crate::model_scene;
use crate::spring_hair::TressSpringHair;
use crate::strand_hair::TressStrandHair;

/// Loads a `.vrm` (or `.glb`/`.gltf`) avatar at runtime and shows it.
///
/// Godot's GLTFDocument builds the scene (bone names equal glTF node names).
/// A missing or corrupt file logs a clear error and leaves the node empty;
/// the scene keeps running. In the editor it shows the model (not saved with
/// the scene, and without hair, constraints or clips, which run in the game).
#[derive(GodotClass)]
#[class(base = Node3D, init, tool)]
pub struct TressAvatar {
    /// Avatar file to load when the node enters the tree. `res://`, `user://`
    /// and absolute paths work. Changing it in the editor shows the new model.
    #[export(file = "*.vrm,*.glb,*.gltf")]
    #[var(set = set_vrm_path)]
    vrm_path: GString,
    /// Simulate the avatar's VRM spring bones with Tress (a TressSpringHair
    /// is added under the skeleton on load).
    #[export]
    #[init(val = true)]
    spring_hair: bool,
    /// Fit the colliders to the body before building the hair (grow them
    /// over the body vertices around them, add a torso capsule where the
    /// trunk is bare, choose tail or whole-segment contact per chain; see
    /// `tress fit-colliders`). Off: the file's colliders as authored.
    #[export]
    #[init(val = true)]
    fit_colliders: bool,
    /// For a file without VRM spring bones (a plain `.glb`/`.gltf`): hang
    /// every dangling bone chain under the head as spring hair (chains no
    /// humanoid bone lies under; stiffness 1, drag 0.4, no gravity). A file
    /// without a VRM humanoid gets one from its node names either way.
    #[export]
    #[init(val = true)]
    chains_under_head: bool,
    /// Solver for the hair added on load: 0 improved, 1 earlier, 2 VRM-compatible.
    #[export(enum = (Improved = 0, Earlier = 1, VrmCompatible = 2))]
    hair_mode: i32,
    /// Humanoid clips to retarget onto the avatar after it loads: the
    /// Universal Animation Library's glTF (Rigify `DEF-` bones), a `.vrma`,
    /// any glTF/VRM with a humanoid map, or a `.bvh` motion capture (one
    /// clip, named after the file). Empty: none.
    #[export(file = "*.gltf,*.glb,*.vrma,*.vrm,*.bvh")]
    animation_file: GString,
    /// Clip to start once `animation_file` is loaded (empty: none).
    #[export]
    autoplay: GString,
    /// Keep the character in place: remove the net horizontal travel of
    /// each clip (its sway stays). Applies to clips loaded afterwards.
    #[export]
    #[init(val = true)]
    remove_travel: bool,
    /// Meshes to hide (accessories: hats, glasses, a hair mesh replaced by
    /// strands), by mesh instance or mesh resource name. Applied on load
    /// and whenever it changes.
    #[export]
    #[var(set = set_hidden_meshes)]
    hidden_meshes: PackedStringArray,
    /// Strand hair groom (`.tfx` or OBJ polylines) to grow on the head on
    /// load, authored in the avatar's model space (empty: none). A
    /// TressStrandHair is added on the head bone, colliding with the VRM
    /// colliders on the head.
    #[export(file = "*.tfx,*.obj")]
    strand_groom: GString,
    /// Share of the groom's strands simulated and drawn (level of detail).
    #[export(range = (0.01, 1.0))]
    #[init(val = 1.0)]
    strand_fraction: f32,
    strands: Option<Gd<TressStrandHair>>,
    /// The file's node constraints plus any added with `add_node_constraint`.
    constraint_list: Vec<tress_core::constraint::NodeConstraint>,
    /// Evaluates them on the skeleton, after animation and before the hair.
    constraint_node: Option<Gd<TressNodeConstraints>>,
    /// Evaluates them in `process` when no constrained node is a bone.
    scene_constraints: Option<ConstraintRunner>,
    /// Clips loaded so far, in load order.
    clip_names: Vec<String>,
    player: Option<Gd<AnimationPlayer>>,
    /// The avatar as our loader read it (rest pose from the file), kept for
    /// retargeting.
    vrm: Option<tress_vrm::Avatar>,
    skeleton: Option<Gd<Skeleton3D>>,
    hair: Option<Gd<TressSpringHair>>,
    /// VRM humanoid bone name → skeleton bone (node) name.
    humanoid: alloc::collections::BTreeMap<String, String>,
    model: Option<Gd<Node>>,
    base: Base<Node3D>,
}

#[godot_api]
impl INode3D for TressAvatar {
    fn process(&mut self, _delta: f64) {
        if let Some(r) = self.scene_constraints.as_mut() {
            r.evaluate(None);
        }
    }

    fn ready(&mut self) {
        // After default-priority nodes (animation players), so scene
        // constraints read this frame's animated pose.
        self.base_mut().set_process_priority(100);
        if !self.vrm_path.is_empty() && live(&self.model).is_none() {
            let path = self.vrm_path.clone();
            self.load_vrm(path);
        }
        // Godot switched processing on (this class has a `process`);
        // only scene constraints need it.
        self.update_processing();
        if in_editor() {
            return;
        }
        if !self.animation_file.is_empty()
            && live(&self.model).is_some()
            && self.clip_names.is_empty()
        {
            let path = self.animation_file.clone();
            self.load_animations(path);
            if !self.autoplay.is_empty() {
                let clip = self.autoplay.clone();
                self.play_animation(clip);
            }
        }
    }
}

#[godot_api]
impl TressAvatar {
    /// Emitted after a model has been loaded and added as a child.
    #[signal]
    fn avatar_loaded();

    /// Loads an avatar, replacing any loaded before. Returns false (and logs
    /// why) when the file is missing or not a valid glTF/VRM.
    #[func]
    pub fn load_vrm(&mut self, path: GString) -> bool {
        let file = path.to_string();
        // One read through FileAccess feeds both Godot's glTF importer and
        // our loader, so `res://` works inside an exported game's pack.
        let bytes = match files::read(&file) {
            Ok(b) => b,
            Err(e) => {
                godot_error!(
                    "TressAvatar: cannot load '{path}': {e}{}",
                    imported_hint(&path)
                );
                return false;
            }
        };
        // A BVH, a Godot scene, an image… is named before Godot's importer
        // tries it and prints errors of its own.
        let kind = tress_vrm::sniff::detect_format(bytes.as_slice(), &file);
        if !kind.is_gltf() && kind != tress_vrm::sniff::FileKind::Unknown {
            godot_error!(
                "TressAvatar: cannot load '{path}': {}",
                kind.advice("a glTF / VRM file")
            );
            return false;
        }
        let scene = match model_scene::generate(&file, &bytes) {
            Ok(s) => s,
            Err(godot_says) => {
                // Our reader says what and where (byte offsets, JSON paths);
                // Godot's importer only that it failed.
                let why = match tress_vrm::load_bytes_with(bytes.as_slice(), |rel| {
                    files::read_beside(&file, rel)
                }) {
                    Err(e) => e.to_string(),
                    Ok(_) => godot_says,
                };
                godot_error!("TressAvatar: cannot load '{path}': {why}");
                return false;
            }
        };
        self.unload();
        self.base_mut().add_child(&scene);
        self.skeleton = model_scene::find_skeleton(&scene);
        self.model = Some(scene);
        // The VRM extensions (humanoid, springs, colliders) come from our
        // own loader; Godot's GLTFDocument does not read them.
        self.humanoid.clear();
        match tress_vrm::load_bytes_with(bytes.as_slice(), |rel| files::read_beside(&file, rel)) {
            Ok(mut vrm) => {
                self.rig_plain(&mut vrm, &file);
                for w in &vrm.warnings {
                    godot_warn!("TressAvatar: {file}: {w}");
                }
                if let Some(model) = self.model.as_ref() {
                    model_scene::face_plus_z(model, vrm.format);
                }
                if let Some(h) = &vrm.humanoid {
                    for (bone, &node) in &h.bones {
                        if let Some(n) = vrm.nodes.get(node) {
                            self.humanoid.insert(bone.clone(), n.name.clone());
                        }
                    }
                }
                self.vrm = Some(vrm.clone());
                // The editor shows the model only: the motion runs in the game.
                if !in_editor() {
                    self.constraint_list = vrm.constraints.clone();
                    self.rebuild_constraints();
                    if !self.strand_groom.is_empty() {
                        self.attach_strands(&vrm);
                    }
                    if self.spring_hair {
                        self.attach_hair(vrm, &file);
                    }
                }
            }
            Err(e) => {
                godot_warn!("TressAvatar: '{file}' shows, but its VRM data cannot be used: {e}")
            }
        }
        self.apply_hidden_meshes();
        self.vrm_path = path;
        self.signals().avatar_loaded().emit();
        true
    }

    /// Removes the loaded model, if any.
    #[func]
    pub fn unload(&mut self) {
        if let Some(mut m) = self.model.take().filter(|n| n.is_instance_valid()) {
            m.queue_free();
        }
        if let Some(mut p) = self.player.take().filter(|n| n.is_instance_valid()) {
            p.queue_free();
        }
        if let Some(mut c) = self
            .constraint_node
            .take()
            .filter(|n| n.is_instance_valid())
        {
            c.queue_free();
        }
        self.set_scene_constraints(None);
        self.constraint_list.clear();
        self.skeleton = None;
        self.hair = None;
        self.strands = None;
        self.vrm = None;
        self.clip_names.clear();
        self.humanoid.clear();
    }

    /// Retargets every clip of an animation file (glTF, VRMA or BVH) onto
    /// the loaded avatar and adds them to its AnimationPlayer (created on
    /// first use; every clip loops). Returns the names of the clips added; logs why and returns
    /// none when the file cannot be read or lacks required body bones.
    #[func]
    pub fn load_animations(&mut self, path: GString) -> PackedStringArray {
        let file = path.to_string();
        if self.vrm.is_none() || live(&self.skeleton).is_none() {
            godot_error!(
                "TressAvatar: load a VRM avatar with a skeleton before its animations ('{path}')"
            );
            return PackedStringArray::new();
        }
        let (Some(vrm), Some(skeleton)) = (self.vrm.take(), live(&self.skeleton)) else {
            return PackedStringArray::new();
        };
        // Taken to lend it while `self` is borrowed mutably; put back below.
        let added = self.retarget_into_player(&path, &file, &vrm, &skeleton);
        self.vrm = Some(vrm);
        added
    }

    fn retarget_into_player(
        &mut self,
        path: &GString,
        file: &str,
        vrm: &tress_vrm::Avatar,
        skeleton: &Gd<Skeleton3D>,
    ) -> PackedStringArray {
        let mut added = PackedStringArray::new();
        let source = match files::load_clips(file) {
            Ok(s) => s,
            Err(e) => {
                godot_error!("TressAvatar: cannot load animations '{path}': {e}");
                return added;
            }
        };
        // A BVH says its units and how its bones were mapped.
        if source
            .warnings
            .first()
            .is_some_and(|w| w.message.starts_with("BVH offsets"))
        {
            for w in &source.warnings {
                godot_print!("TressAvatar: {path}: {w}");
            }
        }
        let retargeter = match tress_rig::anim::Retargeter::detect(&source, vrm) {
            Ok(r) => r,
            Err(
                e @ (tress_rig::anim::RetargetError::NoTargetHumanoid
                | tress_rig::anim::RetargetError::MissingBones {
                    side: "target avatar",
                    ..
                }),
            ) => {
                // The avatar is at fault, not the clip file: name it.
                godot_error!(
                    "TressAvatar: cannot retarget '{path}' onto '{}': {e}",
                    self.vrm_path
                );
                return added;
            }
            Err(e) => {
                godot_error!("TressAvatar: cannot retarget '{path}': {e}");
                return added;
            }
        };
        for n in &retargeter.notes {
            godot_warn!("TressAvatar: {path}: {n}");
        }
        let opts = tress_rig::anim::RetargetOptions {
            remove_travel: self.remove_travel,
            ..tress_rig::anim::RetargetOptions::default()
        };
        let player = self.ensure_player();
        let skeleton_path = self.base().get_path_to(skeleton).to_string();
        let stem = std::path::Path::new(file)
            .file_stem()
            .map_or_else(|| "clip".to_owned(), |s| s.to_string_lossy().into_owned());
        let mut lib = if player.has_animation_library("") {
            player
                .get_animation_library("")
                .unwrap_or_else(AnimationLibrary::new_gd)
        } else {
            AnimationLibrary::new_gd()
        };
        let mut unmatched = 0;
        for anim in &source.animations {
            let clip = match retargeter.retarget(anim, &opts) {
                Ok(c) => c,
                Err(e) => {
                    godot_error!("TressAvatar: '{file}': {e}; the clip is left out");
                    continue;
                }
            };
            let (ganim, missing) = crate::animation::to_godot(&clip, vrm, skeleton, &skeleton_path);
            unmatched = unmatched.max(missing);
            // VRMA files usually hold one unnamed (`clip0` from the loader) or
            // generically named clip: use the file name, so two such files do
            // not both give `clip0`. Files of several clips keep the loader's
            // names, the ones `tress export --clip` takes.
            let generic = anim.name == tress_vrm::load::unnamed_clip(0) || anim.name == "animation";
            let mut name = if source.animations.len() == 1 && generic {
                stem.clone()
            } else {
                anim.name.clone()
            };
            while self.clip_names.contains(&name) {
                name.push('+');
            }
            lib.add_animation(name.as_str(), &ganim);
            added.push(name.as_str());
            self.clip_names.push(name);
        }
        if unmatched > 0 {
            godot_warn!(
                "TressAvatar: {unmatched} retargeted bone(s) not found in the skeleton; their tracks are left out"
            );
        }
        let mut player = player;
        if !player.has_animation_library("") {
            player.add_animation_library("", &lib);
        }
        added
    }

    fn ensure_player(&mut self) -> Gd<AnimationPlayer> {
        if let Some(p) = live(&self.player) {
            return p;
        }
        let mut p = AnimationPlayer::new_alloc();
        p.set_name("TressAnimation");
        self.base_mut().add_child(&p);
        // The hair yields to the player on chains it animates (none of ours:
        // retargeting never writes hair tracks, but a user's clip may).
        if let Some(hair) = live(&self.hair) {
            let path = hair.get_path_to(&p);
            let mut hair = hair;
            hair.set("animation_player", &path.to_variant());
        }
        self.player = Some(p.clone());
        p
    }

    /// Names of the clips loaded with `load_animations`.
    #[func]
    pub fn get_animation_names(&self) -> PackedStringArray {
        self.clip_names
            .iter()
            .map(|n| GString::from(n.as_str()))
            .collect()
    }

    /// Plays a loaded clip from its start, looping. Returns false (and logs
    /// the known names) when there is no such clip.
    #[func]
    pub fn play_animation(&mut self, name: GString) -> bool {
        let key = name.to_string();
        let Some(mut p) = self
            .player
            .clone()
            .filter(|_| self.clip_names.contains(&key))
        else {
            godot_error!(
                "TressAvatar: no animation '{name}'; loaded: {}",
                self.clip_names.join(", ")
            );
            return false;
        };
        p.stop();
        p.play_ex().name(key.as_str()).done();
        true
    }

    /// Starts the current clip again from its first frame.
    #[func]
    pub fn restart_animation(&mut self) {
        if let Some(mut p) = live(&self.player) {
            let current = p.get_current_animation();
            if !current.is_empty() {
                p.stop();
                p.play_ex().name(&StringName::from(&current)).done();
            }
        }
    }

    /// Stops the clip and puts the body back in its rest pose.
    #[func]
    pub fn stop_animation(&mut self) {
        if let Some(mut p) = live(&self.player) {
            p.stop();
        }
        if let Some(mut s) = live(&self.skeleton) {
            s.reset_bone_poses();
        }
    }

    /// The clip playing now ("" when none).
    #[func]
    pub fn get_current_animation(&self) -> GString {
        live(&self.player)
            .filter(|p| p.is_playing())
            .map_or_else(GString::new, |p| p.get_current_animation().clone())
    }

    /// The AnimationPlayer holding the retargeted clips, or null.
    #[func]
    pub fn get_animation_player(&self) -> Option<Gd<AnimationPlayer>> {
        live(&self.player)
    }

    /// The TressSpringHair added on load, or null.
    #[func]
    pub fn get_hair_node(&self) -> Option<Gd<TressSpringHair>> {
        live(&self.hair)
    }

    /// The skeleton bone of a VRM humanoid bone (`head`, `leftHand`, …, VRM
    /// 1.0 names; VRM 0.x files are mapped), or "" when the avatar has none.
    #[func]
    pub fn get_humanoid_bone(&self, humanoid: GString) -> GString {
        self.humanoid
            .get(&humanoid.to_string())
            .map_or_else(GString::new, |s| GString::from(s.as_str()))
    }

    /// A plain glTF humanoid: a humanoid from node names when the file has
    /// none, and its dangling chains under the head as springs when it has
    /// no VRM springs (and `chains_under_head` is on). A failure is reported
    /// and the model still shows.
    fn rig_plain(&self, vrm: &mut tress_vrm::Avatar, file: &str) {
        use tress_rig::plain_rig::{PlainRigOptions, apply};
        let has_humanoid = vrm.humanoid.as_ref().is_some_and(|h| !h.bones.is_empty());
        let opts = PlainRigOptions {
            chains_under_head: self.chains_under_head && vrm.springs.chains.is_empty(),
            ..PlainRigOptions::default()
        };
        if has_humanoid && !opts.chains_under_head {
            return;
        }
        let mut trial = vrm.clone();
        match apply(&mut trial, &opts) {
            Ok(()) => *vrm = trial,
            Err(tress_rig::plain_rig::PlainRigError::NoHead) if !has_humanoid => {
                // No head by name either: keep the bone map found, no chains.
                if let Err(e) = apply(vrm, &PlainRigOptions::default()) {
                    godot_warn!("TressAvatar: '{file}': no bone map by name: {e}");
                }
                godot_warn!(
                    "TressAvatar: '{file}' has no humanoid head (VRM or by node name); no chains under the head"
                );
            }
            Err(e) => godot_warn!("TressAvatar: '{file}': plain rig not added: {e}"),
        }
    }

    fn attach_hair(&mut self, vrm: tress_vrm::Avatar, file: &str) {
        let Some(mut skel) = live(&self.skeleton) else {
            godot_warn!("TressAvatar: '{file}' has no skeleton; no spring hair");
            return;
        };
        let mut hair = TressSpringHair::new_alloc();
        hair.set_name("TressSpringHair");
        hair.bind_mut().set_solver_mode(self.hair_mode);
        // Node constraints on bones run before the hair (see
        // `step_with_crowd`).
        hair.bind_mut().step_with_crowd = live(&self.constraint_node).is_none();
        skel.add_child(&hair);
        let vrm = if self.fit_colliders {
            let (fitted, fit) = tress_rig::fit_colliders::fitted(
                &vrm,
                &tress_rig::fit_colliders::ColliderFitOptions::default(),
            );
            for note in &fit.notes {
                godot_print!("TressAvatar: collider fit: {note}");
            }
            godot_print!(
                "TressAvatar: collider fit: {} grown, {} added, {} linked",
                fit.grown.len(),
                fit.added.len(),
                fit.linked.len()
            );
            hair.bind_mut().set_tail_chains(fit.tail_chains());
            fitted
        } else {
            vrm
        };
        let frames = crate::spring_config::node_frames(&vrm, &skel, self.model.as_ref());
        hair.bind_mut().set_node_frames(frames);
        if hair.bind_mut().configure_from_avatar(vrm) {
            self.hair = Some(hair);
        } else {
            hair.queue_free();
        }
    }

    #[func]
    fn set_vrm_path(&mut self, path: GString) {
        let changed = path != self.vrm_path;
        self.vrm_path = path;
        // In the game the path is read on ready (or given to load_vrm); in
        // the editor a new path shows its model at once.
        if changed && in_editor() && self.base().is_inside_tree() {
            if self.vrm_path.is_empty() {
                self.unload();
            } else {
                let p = self.vrm_path.clone();
                self.load_vrm(p);
            }
        }
    }

    #[func]
    fn set_hidden_meshes(&mut self, names: PackedStringArray) {
        self.hidden_meshes = names;
        self.apply_hidden_meshes();
    }

    /// Names of the model's mesh instances (what `hidden_meshes` matches,
    /// besides the mesh resources' own names).
    #[func]
    pub fn get_mesh_names(&self) -> PackedStringArray {
        self.mesh_instances()
            .iter()
            .map(|m| GString::from(&m.get_name()))
            .collect()
    }

    fn mesh_instances(&self) -> Vec<Gd<MeshInstance3D>> {
        let Some(model) = live(&self.model) else {
            return Vec::new();
        };
        model
            .find_children_ex("*")
            .type_("MeshInstance3D")
            .recursive(true)
            .owned(false)
            .done()
            .iter_shared()
            .filter_map(|n| n.try_cast::<MeshInstance3D>().ok())
            // The strand ribbons are ours, not the model's.
            .filter(|m| {
                m.get_parent()
                    .is_none_or(|p| !p.is_class("TressStrandHair"))
            })
            .collect()
    }

    /// Hides every mesh instance whose node name or mesh name is listed;
    /// shows the others. A listed name that matches nothing is reported.
    fn apply_hidden_meshes(&mut self) {
        if live(&self.model).is_none() {
            return;
        }
        let wanted: Vec<String> = self
            .hidden_meshes
            .as_slice()
            .iter()
            .map(GString::to_string)
            .collect();
        let mut matched = vec![false; wanted.len()];
        for mut m in self.mesh_instances() {
            let node_name = m.get_name().to_string();
            let mesh_name = m
                .get_mesh()
                .map(|r| r.get_name().to_string())
                .unwrap_or_default();
            let mut hide = false;
            for (i, w) in wanted.iter().enumerate() {
                if *w == node_name || (!mesh_name.is_empty() && *w == mesh_name) {
                    matched[i] = true;
                    hide = true;
                }
            }
            m.set_visible(!hide);
        }
        for (w, ok) in wanted.iter().zip(matched) {
            if !ok {
                godot_warn!(
                    "TressAvatar: no mesh named '{w}' to hide; meshes: {}",
                    self.get_mesh_names()
                );
            }
        }
    }

    /// Adds a node constraint (applied after animation, before the hair):
    /// `destination` and `source` are node names or VRM humanoid bone names,
    /// `kind` is `rotation`, `roll` (axis `X`/`Y`/`Z`) or `aim` (axis
    /// `PositiveX` … `NegativeZ`), `weight` 0..1. Returns false (and logs
    /// why) for unknown names or words, or a dependency cycle.
    #[func]
    pub fn add_node_constraint(
        &mut self,
        destination: GString,
        source: GString,
        kind: GString,
        axis: GString,
        weight: f32,
    ) -> bool {
        let Some(vrm) = self.vrm.as_ref() else {
            godot_error!("TressAvatar: load an avatar before adding node constraints");
            return false;
        };
        match tress_rig::constraint_rig::parse(
            vrm,
            &destination.to_string(),
            &source.to_string(),
            &kind.to_string(),
            &axis.to_string(),
            weight,
        ) {
            Ok(c) => {
                self.constraint_list.push(c);
                if self.rebuild_constraints() {
                    true
                } else {
                    self.constraint_list.pop();
                    self.rebuild_constraints();
                    false
                }
            }
            Err(e) => {
                godot_error!("TressAvatar: add_node_constraint: {e}");
                false
            }
        }
    }

    /// Number of node constraints applied each frame.
    #[func]
    pub fn get_node_constraint_count(&self) -> i32 {
        i32::try_from(self.constraint_list.len()).unwrap_or(i32::MAX)
    }

    /// Rebuilds the constraint evaluation from `constraint_list`: on the
    /// skeleton (a TressNodeConstraints modifier placed before the hair) when
    /// a constrained node is a bone, else in this node's `process`.
    fn rebuild_constraints(&mut self) -> bool {
        if let Some(mut c) = self
            .constraint_node
            .take()
            .filter(|n| n.is_instance_valid())
        {
            c.queue_free();
        }
        self.set_scene_constraints(None);
        if self.constraint_list.is_empty() {
            return true;
        }
        let Some(vrm) = self.vrm.as_ref() else {
            return false;
        };
        let runner = match ConstraintRunner::new(
            vrm,
            self.constraint_list.clone(),
            live(&self.skeleton).as_ref(),
            live(&self.model).as_ref(),
        ) {
            Ok(r) => r,
            Err(e) => {
                godot_error!(
                    "TressAvatar: node constraints form a cycle (constraint {}); none applied",
                    e.constraint
                );
                return false;
            }
        };
        match live(&self.skeleton) {
            Some(mut skel) if runner.uses_bones() => {
                let mut node = TressNodeConstraints::new_alloc();
                node.set_name("TressNodeConstraints");
                node.bind_mut().set_runner(runner);
                skel.add_child(&node);
                // Modifiers run in child order: before the hair.
                skel.move_child(&node, 0);
                self.constraint_node = Some(node);
                // The shared step reads poses before any modifier runs:
                // this hair must see the constrained ones.
                if let Some(mut hair) = live(&self.hair) {
                    hair.bind_mut().step_with_crowd = false;
                }
            }
            _ => self.set_scene_constraints(Some(runner)),
        }
        true
    }

    /// Sets the constraints `process` evaluates, and processing with them.
    fn set_scene_constraints(&mut self, runner: Option<ConstraintRunner>) {
        self.scene_constraints = runner;
        self.update_processing();
    }

    /// Processes only while scene constraints need it: in a crowd, a
    /// per-frame callback into every avatar costs each a cache miss or two
    /// for nothing.
    fn update_processing(&mut self) {
        let on = self.scene_constraints.is_some();
        self.base_mut().set_process(on);
    }

    /// The TressStrandHair added for `strand_groom`, or null.
    #[func]
    pub fn get_strand_node(&self) -> Option<Gd<TressStrandHair>> {
        live(&self.strands)
    }

    /// Grows `strand_groom` on the head bone: a BoneAttachment3D carries a
    /// TressStrandHair whose groom origin is the head's rest position in
    /// model space, with the VRM colliders on the head as collision shapes.
    fn attach_strands(&mut self, vrm: &tress_vrm::Avatar) {
        let groom = self.strand_groom.clone();
        let Some(mut skel) = live(&self.skeleton) else {
            godot_warn!("TressAvatar: no skeleton; strand hair '{groom}' not added");
            return;
        };
        let Some(head) = vrm.humanoid.as_ref().and_then(|h| h.bone("head")) else {
            godot_warn!("TressAvatar: no humanoid head; strand hair '{groom}' not added");
            return;
        };
        let head_name = vrm.nodes[head].name.clone();
        let bone = skel.find_bone(head_name.as_str());
        if bone < 0 {
            godot_warn!(
                "TressAvatar: head bone '{head_name}' not in the skeleton; strand hair not added"
            );
            return;
        }
        let mut att = BoneAttachment3D::new_alloc();
        att.set_name("TressStrandHead");
        att.set_bone_name(head_name.as_str());
        skel.add_child(&att);
        let mut hair = TressStrandHair::new_alloc();
        hair.set_name("TressStrandHair");
        let rest = skel.get_bone_global_rest(bone);
        hair.set("groom_origin", &rest.origin.to_variant());
        hair.set("strand_fraction", &self.strand_fraction.to_variant());
        att.add_child(&hair);
        for c in vrm.springs.colliders.iter().filter(|c| c.node == head) {
            let (shape, centre, axis_rot): (Gd<godot::classes::Shape3D>, _, _) = match c.shape {
                tress_vrm::ColliderShape::Sphere { offset, radius } => {
                    let mut s = SphereShape3D::new_gd();
                    s.set_radius(radius);
                    (s.upcast(), offset, None)
                }
                tress_vrm::ColliderShape::Capsule {
                    offset,
                    tail,
                    radius,
                } => {
                    let mut s = CapsuleShape3D::new_gd();
                    s.set_radius(radius);
                    s.set_height((tail - offset).length() + 2.0 * radius);
                    // Godot capsules run along local Y.
                    let rot = tress_core::math::Quat::from_rotation_arc(
                        tress_core::math::Vec3::Y,
                        (tail - offset).normalize_or(tress_core::math::Vec3::Y),
                    );
                    (s.upcast(), (offset + tail) * 0.5, Some(rot))
                }
                _ => continue,
            };
            let mut cs = CollisionShape3D::new_alloc();
            cs.set_shape(&shape);
            cs.set_position(vector3(centre));
            if let Some(r) = axis_rot {
                cs.set_quaternion(quaternion(r));
            }
            hair.add_child(&cs);
        }
        if hair.bind_mut().load_groom(groom.clone()) {
            self.strands = Some(hair);
        } else {
            att.queue_free();
        }
    }

    /// The avatar's Skeleton3D, or null before a successful load.
    #[func]
    pub fn get_skeleton(&self) -> Option<Gd<Skeleton3D>> {
        live(&self.skeleton)
    }

    /// Number of bones of the loaded skeleton (0 before a load).
    #[func]
    pub fn bone_count(&self) -> i32 {
        live(&self.skeleton).map_or(0, |s| s.get_bone_count())
    }

    /// Test hook: panics on purpose, so the Godot runner's self-test can show
    /// that a Rust panic fails the suite. Never call it in a game.
    #[func]
    pub fn debug_panic(&self) {
        panic!("TressAvatar.debug_panic() called (runner self-test)");
    }
}

/// When `path` is gone but Godot imported it (an exported game leaves an
/// imported `.vrm` out of its pack), what to do instead.
fn imported_hint(path: &GString) -> String {
    if godot::classes::ResourceLoader::singleton().exists(path) {
        "; it was imported as a scene, whose source an export leaves out: instance the scene \
         (load(path).instantiate()) or set the file's import to Keep File to load it here"
            .to_owned()
    } else {
        String::new()
    }
}

fn in_editor() -> bool {
    godot::classes::Engine::singleton().is_editor_hint()
}
