//! `TRESS_springBone_band` on `VRMC_springBone`: neighbouring springs held
//! to their spacing (issue #19, the skirt). Read with its values; a
//! malformed band is dropped with a warning naming its path, and the file
//! still loads.

use serde_json::{Value, json};
use tress_vrm::load_bytes;
use tress_vrm::model::SpringBand;

use crate::common;
use crate::errors::{base, set};

const SPRING_BONE: &str = "/extensions/VRMC_springBone";

/// The base document with three springs (the base's one, twice more) and
/// `ext` as the band extension.
fn with_bands(ext: Value) -> (Vec<SpringBand>, Vec<String>) {
    let (mut j, b) = base();
    let spring = j
        .pointer(&format!("{SPRING_BONE}/springs/0"))
        .unwrap()
        .clone();
    set(
        &mut j,
        &format!("{SPRING_BONE}/springs"),
        json!([spring, spring, spring]),
    );
    set(
        &mut j,
        &format!("{SPRING_BONE}/extensions"),
        json!({ "TRESS_springBone_band": ext }),
    );
    let a = load_bytes(&common::glb(&j, &b), None).expect("loads");
    assert_eq!(a.springs.chains.len(), 3);
    (
        a.springs.bands,
        a.warnings.iter().map(ToString::to_string).collect(),
    )
}

#[test]
fn a_band_loads_with_its_values_and_a_ring_closes() {
    let (bands, w) = with_bands(json!({ "bands": [
        { "name": "skirt", "springs": [2, 0, 1], "closed": true, "stretch": 0.1, "shear": 0.02 },
        { "springs": [0, 1] },
    ] }));
    assert!(w.is_empty(), "{w:#?}");
    assert_eq!(bands.len(), 2);
    assert_eq!(bands[0].name.as_deref(), Some("skirt"));
    assert_eq!(bands[0].chains, [2, 0, 1]);
    assert!(bands[0].closed);
    assert!((bands[0].stretch - 0.1).abs() < 1e-7);
    assert!(bands[0].shear.is_some_and(|s| (s - 0.02).abs() < 1e-7));
    assert_eq!(
        bands[0].pairs().collect::<Vec<_>>(),
        [(2, 0), (0, 1), (1, 2)]
    );
    // Defaults: open, no stretch, shear free.
    assert!(!bands[1].closed);
    assert_eq!(bands[1].stretch, 0.0);
    assert_eq!(bands[1].shear, None);
    assert_eq!(bands[1].pairs().collect::<Vec<_>>(), [(0, 1)]);
}

#[test]
fn malformed_bands_are_dropped_with_a_warning_naming_the_path() {
    let p = "extensions.VRMC_springBone.extensions.TRESS_springBone_band.bands";
    let cases = [
        (
            json!({ "springs": [0, 5] }),
            format!("{p}[0].springs[1]: band ignored"),
        ),
        (
            json!({ "springs": [1] }),
            format!("{p}[0]: band ignored: a band needs at least two springs"),
        ),
        (
            json!({ "springs": [0, 0] }),
            format!("{p}[0].springs[1]: band ignored: spring 0 is listed twice"),
        ),
        (
            json!({ "springs": [0, 1], "stretch": 2.0 }),
            format!("{p}[0]: band ignored: stretch 2 is outside 0..=1"),
        ),
        (
            json!({ "springs": [0, 1], "shear": -0.5 }),
            format!("{p}[0]: band ignored: shear -0.5 is outside 0..=1"),
        ),
        (
            json!({ "springs": [0, 1], "shear": "some" }),
            format!("{p}[0].shear: band ignored"),
        ),
        (
            json!({ "springs": "all" }),
            format!("{p}[0].springs: band ignored"),
        ),
    ];
    for (band, want) in cases {
        let (bands, w) = with_bands(json!({ "bands": [band, { "springs": [0, 1] }] }));
        // The good band after it still loads.
        assert_eq!(bands.len(), 1, "{want}");
        assert_eq!(bands[0].chains, [0, 1]);
        assert_eq!(w.len(), 1, "{w:#?}");
        assert!(
            w[0].starts_with(&want),
            "{} does not start with {want}",
            w[0]
        );
    }
}

#[test]
fn folds_load_per_pair_with_their_flat_angle() {
    // Six nodes in the base document; folds name any of them.
    let (bands, w) = with_bands(json!({ "bands": [{
        "springs": [0, 1, 2], "closed": true,
        "folds": [[0, 1, 2], [3, 4, 5], [5, 4, 3]], "foldFlatAngle": 0.35,
    }, { "springs": [0, 1] }] }));
    assert!(w.is_empty(), "{w:#?}");
    assert_eq!(
        bands[0].folds,
        [vec![0, 1, 2], vec![3, 4, 5], vec![5, 4, 3]]
    );
    assert!((bands[0].fold_flat_angle - 0.35).abs() < 1e-7);
    // None given: no folds, never flat.
    assert!(bands[1].folds.is_empty());
    assert_eq!(bands[1].fold_flat_angle, 0.0);
}

#[test]
fn malformed_folds_are_dropped_and_the_band_kept() {
    let p = "extensions.VRMC_springBone.extensions.TRESS_springBone_band.bands[0]";
    let cases = [
        (
            json!({ "springs": [0, 1], "folds": [[0, 1], [2, 3]] }),
            format!("{p}: band's folds ignored: 2 fold lists for 1 neighbouring pairs"),
        ),
        (
            json!({ "springs": [0, 1, 2], "folds": [[0, 1, 2], [3, 4]] }),
            format!("{p}.folds[1]: band's folds ignored: a fold needs one node per joint"),
        ),
        (
            json!({ "springs": [0, 1], "folds": [[0, 9]] }),
            format!("{p}.folds[0][1]: band's folds ignored"),
        ),
        (
            json!({ "springs": [0, 1], "folds": [[0, 1]], "foldFlatAngle": -1.0 }),
            format!("{p}: band's folds ignored: foldFlatAngle -1 is outside 0..=π"),
        ),
    ];
    for (band, want) in cases {
        let (bands, w) = with_bands(json!({ "bands": [band] }));
        assert_eq!(bands.len(), 1, "{want}");
        assert!(bands[0].folds.is_empty(), "{want}");
        assert_eq!(w.len(), 1, "{w:#?}");
        assert!(
            w[0].starts_with(&want),
            "{} does not start with {want}",
            w[0]
        );
    }
}
