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
    for v in [Variant::Standard, Variant::Layered, Variant::Skirt] {
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
        // The skirt's chains hang from the hips; every other chain is a lock.
        let skirt = a
            .springs
            .chains
            .iter()
            .filter(|c| a.nodes[c.joints[0].node].name.starts_with("Skirt"))
            .count();
        let expected_skirt = if v == Variant::Skirt {
            tress_tools::avatar::skirt::CHAINS
        } else {
            0
        };
        assert_eq!(skirt, expected_skirt, "{v:?}");
        assert_eq!(
            a.springs.chains.iter().filter(|c| c.is_head_hair()).count(),
            a.springs.chains.len() - skirt,
            "{v:?}: every lock is head hair"
        );
        if v == Variant::Skirt {
            // Every skirt joint but the tip carries its cone limit.
            let limited = a
                .springs
                .chains
                .iter()
                .flat_map(|c| &c.joints)
                .filter(|j| j.limit.is_some())
                .count();
            assert_eq!(
                limited,
                skirt * (tress_tools::avatar::skirt::PROFILE.len() - 1)
            );
            let used = j["extensionsUsed"].as_array().unwrap();
            assert!(
                used.iter().any(|e| e == "VRMC_springBone_limit"),
                "{used:?}"
            );
        }
        assert!(a.warnings.is_empty(), "{v:?}: {:#?}", a.warnings);
    }
}
