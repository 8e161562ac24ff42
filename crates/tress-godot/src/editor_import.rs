//! Importing `.vrm` files as scenes in the Godot editor.
//!
//! [`TressImportPlugin`] (an EditorPlugin gdext registers with the editor
//! by itself) adds [`TressVrmImporter`] to Godot's scene importer, so a
//! `.vrm` in a project gets an Import dock, an `.import` file and a
//! re-import whenever it changes, like a `.glb`. What the scene holds is
//! built by [`crate::vrm_import`].

use godot::classes::{
    EditorPlugin, EditorSceneFormatImporter, IEditorPlugin, IEditorSceneFormatImporter, Object,
};
use godot::prelude::*;
use godot::register::info::PropertyHint;

use crate::vrm_import::{self, ImportOptions};

const HAIR: &str = "tress/spring_hair";
const MODE: &str = "tress/hair_mode";
const FIT: &str = "tress/fit_colliders";
const HIDDEN: &str = "tress/hidden_meshes";

/// Imports `.vrm` files (VRM 0.x and 1.0) as scenes: the model and its
/// skeleton, VRM 0.x turned to face +Z, and the spring hair, colliders and
/// node constraints stored in the scene. Options: `tress/spring_hair`,
/// `tress/hair_mode`, `tress/fit_colliders`, `tress/hidden_meshes`.
#[derive(GodotClass)]
#[class(tool, init, base = EditorSceneFormatImporter)]
pub struct TressVrmImporter {
    base: Base<EditorSceneFormatImporter>,
}

#[godot_api]
impl IEditorSceneFormatImporter for TressVrmImporter {
    fn get_extensions(&self) -> PackedStringArray {
        PackedStringArray::from(&[GString::from("vrm")])
    }

    fn get_import_flags(&self) -> u32 {
        EditorSceneFormatImporter::IMPORT_SCENE as u32
    }

    fn get_import_options(&mut self, path: GString) {
        // Godot asks every scene importer for options for every scene file
        // (and with no path for the import defaults): ours are for .vrm.
        let path = path.to_string().to_lowercase();
        if !(path.is_empty() || path.ends_with(".vrm")) {
            return;
        }
        // `add_import_option_advanced` came after the 4.3 API this crate is
        // built against; it is called by name where the editor has it.
        if !self.base().has_method("add_import_option_advanced") {
            return;
        }
        let d = ImportOptions::default();
        let options: [(VariantType, &str, Variant, PropertyHint, &str); 4] = [
            (
                VariantType::BOOL,
                HAIR,
                d.spring_hair.to_variant(),
                PropertyHint::NONE,
                "",
            ),
            (
                VariantType::INT,
                MODE,
                d.hair_mode.to_variant(),
                PropertyHint::ENUM,
                "Improved,Earlier,VrmCompatible",
            ),
            (
                VariantType::BOOL,
                FIT,
                d.fit_colliders.to_variant(),
                PropertyHint::NONE,
                "",
            ),
            (
                VariantType::PACKED_STRING_ARRAY,
                HIDDEN,
                PackedStringArray::new().to_variant(),
                PropertyHint::NONE,
                "",
            ),
        ];
        for (ty, name, default, hint, hint_string) in options {
            self.base_mut().call(
                "add_import_option_advanced",
                &[
                    (ty.ord()).to_variant(),
                    name.to_variant(),
                    default,
                    (hint.ord()).to_variant(),
                    hint_string.to_variant(),
                ],
            );
        }
    }

    fn get_option_visibility(
        &self,
        _path: GString,
        _for_animation: bool,
        option: GString,
    ) -> Variant {
        // No opinion on Godot's own options; ours show for scenes.
        if option.to_string().starts_with("tress/") {
            true.to_variant()
        } else {
            Variant::nil()
        }
    }

    fn import_scene(
        &mut self,
        path: GString,
        _flags: u32,
        options: VarDictionary,
    ) -> Option<Gd<Object>> {
        let opts = read_options(&options);
        match vrm_import::build(&path.to_string(), &opts) {
            Ok(root) => Some(root.upcast()),
            Err(e) => {
                godot_error!("Tress import: cannot import '{path}': {e}");
                None
            }
        }
    }
}

/// The importer's options from Godot's dictionary, defaults for missing or
/// mistyped ones.
fn read_options(options: &VarDictionary) -> ImportOptions {
    let d = ImportOptions::default();
    let get = |key: &str| options.get(key);
    ImportOptions {
        spring_hair: get(HAIR)
            .and_then(|v| v.try_to::<bool>().ok())
            .unwrap_or(d.spring_hair),
        hair_mode: get(MODE)
            .and_then(|v| v.try_to::<i32>().ok())
            .unwrap_or(d.hair_mode),
        fit_colliders: get(FIT)
            .and_then(|v| v.try_to::<bool>().ok())
            .unwrap_or(d.fit_colliders),
        hidden_meshes: get(HIDDEN)
            .and_then(|v| v.try_to::<PackedStringArray>().ok())
            .map(|a| a.as_slice().iter().map(GString::to_string).collect())
            .unwrap_or_default(),
    }
}

/// Registers [`TressVrmImporter`] with the editor's scene importer while
/// the extension is loaded.
#[derive(GodotClass)]
#[class(tool, init, base = EditorPlugin)]
pub struct TressImportPlugin {
    importer: Option<Gd<TressVrmImporter>>,
    base: Base<EditorPlugin>,
}

#[godot_api]
impl IEditorPlugin for TressImportPlugin {
    fn enter_tree(&mut self) {
        let importer = TressVrmImporter::new_gd();
        self.base_mut().add_scene_format_importer_plugin(
            &importer.clone().upcast::<EditorSceneFormatImporter>(),
        );
        self.importer = Some(importer);
    }

    fn exit_tree(&mut self) {
        if let Some(importer) = self.importer.take() {
            self.base_mut().remove_scene_format_importer_plugin(
                &importer.upcast::<EditorSceneFormatImporter>(),
            );
        }
    }
}
