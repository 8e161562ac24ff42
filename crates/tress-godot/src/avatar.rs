//! `TressAvatar`: a Node3D that loads a VRM avatar at runtime.

use godot::classes::{GltfDocument, GltfState, INode3D, Node, Node3D, ProjectSettings, Skeleton3D};
use godot::global::Error as GdError;
use godot::prelude::*;

use crate::spring_hair::TressSpringHair;

/// Loads a `.vrm` (or `.glb`/`.gltf`) avatar at runtime and shows it.
///
/// Godot's GLTFDocument builds the scene (bone names equal glTF node names).
/// A missing or corrupt file logs a clear error and leaves the node empty;
/// the scene keeps running.
#[derive(GodotClass)]
#[class(base = Node3D, init)]
pub struct TressAvatar {
    /// Avatar file to load when the node enters the tree. `res://`, `user://`
    /// and absolute paths work.
    #[export(file = "*.vrm,*.glb,*.gltf")]
    vrm_path: GString,
    /// Simulate the avatar's VRM spring bones with Tress (a TressSpringHair
    /// is added under the skeleton on load).
    #[export]
    #[init(val = true)]
    spring_hair: bool,
    /// Solver for the hair added on load: 0 improved, 1 earlier, 2 VRM-compatible.
    #[export(enum = (Improved = 0, Earlier = 1, VrmCompatible = 2))]
    hair_mode: i32,
    skeleton: Option<Gd<Skeleton3D>>,
    hair: Option<Gd<TressSpringHair>>,
    /// VRM humanoid bone name → skeleton bone (node) name.
    humanoid: alloc::collections::BTreeMap<String, String>,
    model: Option<Gd<Node>>,
    base: Base<Node3D>,
}

#[godot_api]
impl INode3D for TressAvatar {
    fn ready(&mut self) {
        if !self.vrm_path.is_empty() && self.model.is_none() {
            let path = self.vrm_path.clone();
            self.load_vrm(path);
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
        let file = globalize(&path);
        if !std::path::Path::new(&file).is_file() {
            godot_error!("TressAvatar: cannot load '{path}': file not found ({file})");
            return false;
        }
        let mut doc = GltfDocument::new_gd();
        let state = GltfState::new_gd();
        let err = doc.append_from_file(&file, &state);
        if err != GdError::OK {
            godot_error!("TressAvatar: cannot load '{path}': not a valid glTF/VRM ({err:?})");
            return false;
        }
        let Some(scene) = doc.generate_scene(&state) else {
            godot_error!("TressAvatar: '{path}' parsed but produced no scene");
            return false;
        };
        self.unload();
        self.base_mut().add_child(&scene);
        self.skeleton = find_skeleton(&scene);
        self.model = Some(scene);
        // The VRM extensions (humanoid, springs, colliders) come from our
        // own loader; Godot's GLTFDocument does not read them.
        self.humanoid.clear();
        match tress_rig::load_path(&file) {
            Ok(vrm) => {
                for w in &vrm.warnings {
                    godot_warn!("TressAvatar: {file}: {w}");
                }
                // VRM 0.x models face −Z; turn them to face +Z like VRM 1.0
                // (as three-vrm's rotateVRM0 does), so one camera fits both.
                if vrm.format == tress_rig::Format::Vrm0
                    && let Ok(mut root) = self.model.clone().expect("just set").try_cast::<Node3D>()
                {
                    root.rotate_y(core::f32::consts::PI);
                }
                if let Some(h) = &vrm.humanoid {
                    for (bone, &node) in &h.bones {
                        if let Some(n) = vrm.nodes.get(node) {
                            self.humanoid.insert(bone.clone(), n.name.clone());
                        }
                    }
                }
                if self.spring_hair {
                    self.attach_hair(vrm, &file);
                }
            }
            Err(e) => {
                godot_warn!("TressAvatar: '{file}' shows, but its VRM data cannot be used: {e}")
            }
        }
        self.vrm_path = path;
        self.signals().avatar_loaded().emit();
        true
    }

    /// Removes the loaded model, if any.
    #[func]
    pub fn unload(&mut self) {
        if let Some(mut m) = self.model.take() {
            m.queue_free();
        }
        self.skeleton = None;
        self.hair = None;
        self.humanoid.clear();
    }

    /// The TressSpringHair added on load, or null.
    #[func]
    pub fn get_hair_node(&self) -> Option<Gd<TressSpringHair>> {
        self.hair.clone()
    }

    /// The skeleton bone of a VRM humanoid bone (`head`, `leftHand`, …, VRM
    /// 1.0 names; VRM 0.x files are mapped), or "" when the avatar has none.
    #[func]
    pub fn get_humanoid_bone(&self, humanoid: GString) -> GString {
        self.humanoid
            .get(&humanoid.to_string())
            .map_or_else(GString::new, |s| GString::from(s.as_str()))
    }

    fn attach_hair(&mut self, vrm: tress_rig::Avatar, file: &str) {
        let Some(skel) = self.skeleton.as_mut() else {
            godot_warn!("TressAvatar: '{file}' has no skeleton; no spring hair");
            return;
        };
        let mut hair = TressSpringHair::new_alloc();
        hair.set_name("TressSpringHair");
        hair.bind_mut().set_solver_mode(self.hair_mode);
        skel.add_child(&hair);
        if hair.bind_mut().configure_from_avatar(vrm) {
            self.hair = Some(hair);
        } else {
            hair.queue_free();
        }
    }

    /// The avatar's Skeleton3D, or null before a successful load.
    #[func]
    pub fn get_skeleton(&self) -> Option<Gd<Skeleton3D>> {
        self.skeleton.clone()
    }

    /// Number of bones of the loaded skeleton (0 before a load).
    #[func]
    pub fn bone_count(&self) -> i32 {
        self.skeleton.as_ref().map_or(0, |s| s.get_bone_count())
    }

    /// Test hook: panics on purpose, so the Godot runner's self-test can show
    /// that a Rust panic fails the suite. Never call it in a game.
    #[func]
    pub fn debug_panic(&self) {
        panic!("TressAvatar.debug_panic() called (runner self-test)");
    }
}

/// Turns `res://` and `user://` paths into file-system paths.
pub(crate) fn globalize(path: &GString) -> String {
    let s = path.to_string();
    if s.starts_with("res://") || s.starts_with("user://") {
        ProjectSettings::singleton()
            .globalize_path(path)
            .to_string()
    } else {
        s
    }
}

fn find_skeleton(root: &Gd<Node>) -> Option<Gd<Skeleton3D>> {
    root.find_children_ex("*")
        .type_("Skeleton3D")
        .recursive(true)
        .owned(false)
        .done()
        .iter_shared()
        .next()
        .and_then(|n| n.try_cast::<Skeleton3D>().ok())
}
