//! A glTF/VRM file's bytes as a Godot scene, the same way for
//! `TressAvatar.load_vrm` (at run time and in the editor) and for the
//! `.vrm` scene importer.
//!
//! - [`generate`]: Godot's GLTFDocument builds the nodes, meshes and
//!   Skeleton3D (bone names equal glTF node names);
//! - [`face_plus_z`]: VRM 0.x models turned to face +Z like VRM 1.0;
//! - [`TressVrmGltfExtension`]: tells GLTFDocument the VRM extensions are
//!   handled, so files that list them as required still load.

use godot::classes::{
    Engine, GltfDocument, GltfDocumentExtension, GltfState, IGltfDocumentExtension, Node, Node3D,
    Skeleton3D,
};
use godot::global::Error as GdError;
use godot::prelude::*;

use crate::files;

/// The scene of `file` from its `bytes`, or why not in words (to put after
/// the file name).
pub(crate) fn generate(file: &str, bytes: &PackedByteArray) -> Result<Gd<Node>, String> {
    let mut doc = GltfDocument::new_gd();
    let mut state = GltfState::new_gd();
    // As append_from_file names it: the scene root is called after the file.
    if let Some(stem) = std::path::Path::new(file).file_stem() {
        state.set_filename(&*stem.to_string_lossy());
    }
    // In the editor GLTFDocument would otherwise write the embedded
    // textures out as files beside the model (its import behaviour); the
    // importer and the editor preview keep them inside the scene instead.
    if Engine::singleton().is_editor_hint() {
        state.set_handle_binary_image(GltfState::HANDLE_BINARY_EMBED_AS_UNCOMPRESSED);
    }
    // Registered for this parse only: GLTFDocument's list is global, and
    // an extension object left in it would outlive this library at exit.
    let ext = TressVrmGltfExtension::new_gd().upcast::<GltfDocumentExtension>();
    GltfDocument::register_gltf_document_extension(&ext);
    let err = doc.append_from_buffer(bytes, files::folder_of(file).as_str(), &state);
    GltfDocument::unregister_gltf_document_extension(&ext);
    if err != GdError::OK {
        return Err(format!("not a valid glTF/VRM ({err:?})"));
    }
    doc.generate_scene(&state)
        .ok_or_else(|| "parsed but produced no scene".to_owned())
}

/// The model's first Skeleton3D (GLTFDocument makes one per skin).
pub(crate) fn find_skeleton(root: &Gd<Node>) -> Option<Gd<Skeleton3D>> {
    root.find_children_ex("*")
        .type_("Skeleton3D")
        .recursive(true)
        .owned(false)
        .done()
        .iter_shared()
        .next()
        .and_then(|n| n.try_cast::<Skeleton3D>().ok())
}

/// Turns a VRM 0.x model (which faces −Z) to face +Z like VRM 1.0, as
/// three-vrm's rotateVRM0 does, so one camera fits both.
pub(crate) fn face_plus_z(root: &Gd<Node>, format: tress_vrm::Format) {
    if format == tress_vrm::Format::Vrm0
        && let Ok(mut root) = root.clone().try_cast::<Node3D>()
    {
        root.rotate_y(core::f32::consts::PI);
    }
}

/// The VRM extensions Tress reads itself (tress-vrm). Files may list them
/// in `extensionsRequired` (VRM 1.0 exporters write `VRMC_vrm` there), and
/// GLTFDocument refuses a required extension no extension object claims.
/// Godot builds the meshes and skeleton; the VRM data is ours.
#[derive(GodotClass)]
#[class(tool, init, base = GltfDocumentExtension)]
pub struct TressVrmGltfExtension {
    base: Base<GltfDocumentExtension>,
}

#[godot_api]
impl IGltfDocumentExtension for TressVrmGltfExtension {
    fn get_supported_extensions(&mut self) -> PackedStringArray {
        [
            "VRM",
            "VRMC_vrm",
            "VRMC_springBone",
            "VRMC_springBone_extended_collider",
            "VRMC_node_constraint",
            "VRMC_vrm_animation",
        ]
        .iter()
        .map(|s| GString::from(*s))
        .collect()
    }
}
