//! `VRMC_springBone_limit` (draft) on spring joints: read with its values,
//! malformed limits dropped with a warning naming their path, the joint-level
//! `angleLimit` some exporters write warned about (issue 19, acceptance 2).

use serde_json::{Value, json};
use tress_vrm::load_bytes;
use tress_vrm::model::{JointLimit, LimitShape};

use crate::common;
use crate::errors::{base, set};

const JOINT: &str = "/extensions/VRMC_springBone/springs/0/joints";

fn with_limits(limits: &[(usize, Value)]) -> (Vec<Option<JointLimit>>, Vec<String>) {
    let (mut j, b) = base();
    for (k, ext) in limits {
        set(
            &mut j,
            &format!("{JOINT}/{k}/extensions"),
            json!({ "VRMC_springBone_limit": ext }),
        );
    }
    let a = load_bytes(&common::glb(&j, &b), None).expect("loads");
    let got = a.springs.chains[0].joints.iter().map(|j| j.limit).collect();
    (got, a.warnings.iter().map(ToString::to_string).collect())
}

#[test]
fn cone_hinge_and_spherical_load_with_their_values() {
    let q = [0.0, 0.0, 0.382_683_4, 0.923_879_5];
    let (got, w) = with_limits(&[
        (
            0,
            json!({ "specVersion": "1.0-draft", "limit": { "cone": { "angle": 0.5, "rotation": q } } }),
        ),
        (
            1,
            json!({ "specVersion": "1.0-draft", "limit": { "spherical": { "pitch": 0.4, "yaw": 0.2 } } }),
        ),
    ]);
    assert!(w.is_empty(), "{w:#?}");
    assert_eq!(got[0].unwrap().shape, LimitShape::Cone { angle: 0.5 });
    assert_eq!(got[0].unwrap().rotation.to_array(), q);
    assert_eq!(
        got[1].unwrap().shape,
        LimitShape::Spherical {
            pitch: 0.4,
            yaw: 0.2
        }
    );
    assert_eq!(got[2], None);
    let (got, _) = with_limits(&[(
        1,
        json!({ "specVersion": "1.0-draft", "limit": { "hinge": { "angle": 4.0 } } }),
    )]);
    // Read as written; the solver interprets 4 rad as π (the draft's rule).
    assert_eq!(got[1].unwrap().shape, LimitShape::Hinge { angle: 4.0 });
}

#[test]
fn malformed_limits_are_dropped_with_a_warning_naming_the_path() {
    let p = "extensions.VRMC_springBone.springs[0].joints[0].extensions.VRMC_springBone_limit";
    let cases = [
        (
            json!({ "specVersion": "1.0-draft" }),
            format!("{p}.limit: VRMC_springBone_limit ignored: required property is missing"),
        ),
        (
            json!({ "specVersion": "1.0-draft", "limit": { "cone": { "angle": 1.0 }, "hinge": { "angle": 1.0 } } }),
            format!(
                "{p}.limit: VRMC_springBone_limit ignored: a limit holds exactly one of cone, hinge or spherical, found 2"
            ),
        ),
        (
            json!({ "specVersion": "1.0-draft", "limit": {} }),
            format!(
                "{p}.limit: VRMC_springBone_limit ignored: a limit holds exactly one of cone, hinge or spherical, found 0"
            ),
        ),
        (
            json!({ "specVersion": "1.0-draft", "limit": { "cone": { "angle": "wide" } } }),
            format!(
                "{p}.limit.cone.angle: VRMC_springBone_limit ignored: expected a number, found a string"
            ),
        ),
        (
            json!({ "specVersion": "1.0-draft", "limit": { "spherical": { "pitch": 1.0 } } }),
            format!(
                "{p}.limit.spherical.yaw: VRMC_springBone_limit ignored: required property is missing"
            ),
        ),
        (
            json!({ "specVersion": "1.0-draft", "limit": { "hinge": { "angle": 1.0, "rotation": [0.0, 0.0, 0.0, 0.0] } } }),
            format!(
                "{p}.limit.hinge.rotation: VRMC_springBone_limit ignored: rotation is not a rotation (zero length)"
            ),
        ),
    ];
    for (ext, want) in cases {
        let (got, w) = with_limits(&[(0, ext.clone())]);
        assert_eq!(got[0], None, "{ext}");
        assert!(w.iter().any(|x| x.starts_with(&want)), "{ext}: {w:#?}");
    }
}

#[test]
fn tolerated_oddities_warn_and_keep_the_limit() {
    let p = "extensions.VRMC_springBone.springs[0].joints";
    let (got, w) = with_limits(&[
        (
            0,
            json!({ "limit": { "cone": { "angle": -0.5, "rotation": [0.0, 0.0, 0.0, 2.0] } } }),
        ),
        // The last joint is only a tail: ignored, as the draft requires.
        (
            2,
            json!({ "specVersion": "1.0-draft", "limit": { "cone": { "angle": 0.5 } } }),
        ),
    ]);
    let has = |s: &str| w.iter().any(|x| x.contains(s));
    assert!(
        has(&format!(
            "{p}[0].extensions.VRMC_springBone_limit.specVersion: missing specVersion"
        )),
        "{w:#?}"
    );
    assert!(
        has(&format!(
            "{p}[0].extensions.VRMC_springBone_limit.limit.cone.angle: negative angle"
        )),
        "{w:#?}"
    );
    assert!(
        has("rotation has length 2.0000, not 1; normalised"),
        "{w:#?}"
    );
    assert!(
        has(&format!(
            "{p}[2].extensions.VRMC_springBone_limit: limit on the spring's last joint ignored"
        )),
        "{w:#?}"
    );
    assert_eq!(w.len(), 4, "{w:#?}");
    assert_eq!(got[0].unwrap().rotation, glam::Quat::IDENTITY);
    assert_eq!(got[2], None);
}

#[test]
fn a_joint_level_angle_limit_is_reported_not_read() {
    let (mut j, b) = base();
    set(&mut j, &format!("{JOINT}/0/angleLimit"), json!(45.0));
    let a = load_bytes(&common::glb(&j, &b), None).unwrap();
    let w: Vec<String> = a.warnings.iter().map(ToString::to_string).collect();
    assert_eq!(w.len(), 1, "{w:#?}");
    assert!(
        w[0].starts_with("extensions.VRMC_springBone.springs[0].joints[0].angleLimit: non-standard joint-level `angleLimit` ignored"),
        "{w:#?}"
    );
    assert_eq!(a.springs.chains[0].joints[0].limit, None);
}
