//! The committed generated assets are exactly what the code generates now.

use tress_tests::repo_root;
use tress_tools::avatar::{self, Variant};

#[test]
fn committed_assets_equal_a_fresh_generation() {
    for (name, fresh) in avatar::asset_files() {
        let path = repo_root().join("assets").join(name);
        let committed = std::fs::read(&path)
            .unwrap_or_else(|e| panic!("{}: {e} (run tools/dev.sh assets)", path.display()));
        assert!(
            committed == fresh,
            "{} differs from a fresh generation: regenerate with `tools/dev.sh assets` \
             and commit, or find the nondeterminism",
            path.display()
        );
    }
}

#[test]
fn built_in_avatar_is_valid_gltf_with_vrm_extensions() {
    let path = repo_root()
        .join("assets")
        .join(Variant::Standard.file_name());
    let (doc, _, _) = gltf::import(&path).expect("valid glTF");
    let used: Vec<&str> = doc.extensions_used().collect();
    assert!(used.contains(&"VRMC_vrm") && used.contains(&"VRMC_springBone"));
    let meshes: Vec<String> = doc
        .meshes()
        .filter_map(|m| m.name().map(str::to_owned))
        .collect();
    assert!(meshes.iter().any(|m| m == "Ponytail"), "{meshes:?}");
    let body = doc
        .meshes()
        .find(|m| m.name() == Some("Body"))
        .expect("Body");
    assert_eq!(body.primitives().count(), 2, "body and a separate shirt");
    let ponytail = doc
        .nodes()
        .find(|n| n.name() == Some("Ponytail"))
        .expect("Ponytail node");
    assert!(ponytail.skin().is_none(), "the ponytail ships unrigged");
}
