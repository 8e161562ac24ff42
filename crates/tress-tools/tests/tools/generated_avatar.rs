//! The built-in generated avatar (the lead's `avatar` module) loads through
//! the VRM 1.0 loader with the counts in its own JSON, and no warnings.

use tress_tools::avatar::{Variant, build};

/// The GLB's JSON chunk, read independently of the loader.
fn json_of(glb: &[u8]) -> serde_json::Value {
    let len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    serde_json::from_slice(&glb[20..20 + len]).unwrap()
}

#[test]
fn generated_avatars_load_with_their_counts() {
    for v in [Variant::Standard, Variant::Layered] {
        let (bytes, summary) = build(v);
        let j = json_of(&bytes);
        let a = tress_vrm::load_bytes(&bytes, None).unwrap_or_else(|e| panic!("{v:?}: {e}"));
        assert_eq!(a.format, tress_vrm::Format::Vrm1, "{v:?}");
        assert_eq!(a.nodes.len(), j["nodes"].as_array().unwrap().len(), "{v:?}");
        let springs = j["extensions"]["VRMC_springBone"]["springs"]
            .as_array()
            .unwrap();
        assert_eq!(a.springs.chains.len(), springs.len(), "{v:?}");
        assert_eq!(a.springs.chains.len(), summary.chains, "{v:?}");
        assert!(
            a.springs.chains.iter().all(|c| c.is_head_hair()),
            "{v:?}: every lock is head hair"
        );
        assert!(a.warnings.is_empty(), "{v:?}: {:#?}", a.warnings);
    }
}
