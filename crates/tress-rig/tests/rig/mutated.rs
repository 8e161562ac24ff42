//! Damaged avatar files never crash the loader, the rig or the solver.
//!
//! Each committed avatar is damaged in seeded ways a broken exporter or a
//! hand edit produces: a value of the spring, collider, node, skin or
//! accessor JSON replaced (zero, negative, huge, out of range, a string,
//! null, an empty object or array) or removed, or floats of the binary
//! chunk overwritten with NaN, infinity or 1e30. Whatever loads must build
//! a rig or refuse with an error, and the rig must step a normal frame, a
//! one-second frame and an empty one with every output finite.

use serde_json::{Value, json};
use tress_rig::spring_rig::{RigOptions, SpringRig};
use tress_testkit::{Xorshift as Rng, repo_root};

/// Damaged copies per avatar.
const COPIES: u64 = 300;

/// JSON pointers of every value under the parts a rig reads.
fn targets(v: &Value, path: &str, inside: bool, out: &mut Vec<String>) {
    if inside {
        out.push(path.to_owned());
    }
    let read = |k: &str| {
        inside
            || k.starts_with("VRM")
            || ["nodes", "skins", "accessors", "bufferViews", "extensions"].contains(&k)
    };
    match v {
        Value::Object(m) => {
            for (k, c) in m {
                let key = k.replace('~', "~0").replace('/', "~1");
                targets(c, &format!("{path}/{key}"), read(k), out);
            }
        }
        Value::Array(a) => {
            for (i, c) in a.iter().enumerate() {
                targets(c, &format!("{path}/{i}"), inside, out);
            }
        }
        _ => {}
    }
}

fn damage_json(j: &mut Value, rng: &mut Rng, pointers: &[String]) {
    let p = &pointers[rng.below(pointers.len() as u64) as usize];
    let replacement = match rng.below(10) {
        0 => json!(0),
        1 => json!(-1),
        2 => json!(1e30),
        3 => json!(4_294_967_295_u64),
        4 => json!(0.5),
        5 => json!(rng.below(120)),
        6 => Value::Null,
        7 => json!("x"),
        8 => json!([]),
        _ => {
            // Remove the value from its parent.
            let (parent, key) = p.rsplit_once('/').expect("pointers start with '/'");
            match j.pointer_mut(parent) {
                Some(Value::Object(m)) => {
                    m.remove(&key.replace("~1", "/").replace("~0", "~"));
                }
                Some(Value::Array(a)) => {
                    if let Ok(i) = key.parse::<usize>()
                        && i < a.len()
                    {
                        a.remove(i);
                    }
                }
                _ => {}
            }
            return;
        }
    };
    if let Some(t) = j.pointer_mut(p) {
        *t = replacement;
    }
}

fn damage_bin(bin: &mut [u8], rng: &mut Rng) {
    for _ in 0..1 + rng.below(8) {
        let at = rng.below(bin.len() as u64 / 4) as usize * 4;
        let v = [f32::NAN, f32::INFINITY, 1e30, -1e30, 0.0][rng.below(5) as usize];
        bin[at..at + 4].copy_from_slice(&v.to_le_bytes());
    }
}

/// A GLB's JSON and binary chunks.
fn split(glb: &[u8]) -> (Value, Vec<u8>) {
    let word =
        |at: usize| u32::from_le_bytes(glb[at..at + 4].try_into().expect("4 bytes")) as usize;
    let json_len = word(12);
    let json =
        serde_json::from_slice(&glb[20..20 + json_len]).expect("the committed avatar's JSON");
    let bin_at = 20 + json_len;
    let bin = glb[bin_at + 8..bin_at + 8 + word(bin_at)].to_vec();
    (json, bin)
}

fn join(json: &Value, bin: &[u8]) -> Vec<u8> {
    let mut j = serde_json::to_vec(json).expect("JSON serialises");
    j.resize(j.len().next_multiple_of(4), b' ');
    let total = 12 + 8 + j.len() + 8 + bin.len();
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    for (len, kind, body) in [(j.len(), *b"JSON", &j[..]), (bin.len(), *b"BIN\0", bin)] {
        if kind == *b"JSON" {
            out.extend_from_slice(&u32::try_from(total).expect("fits").to_le_bytes());
        }
        out.extend_from_slice(&u32::try_from(len).expect("fits").to_le_bytes());
        out.extend_from_slice(&kind);
        out.extend_from_slice(body);
    }
    out
}

/// Loads, rigs and steps `bytes`; `Err` names a non-finite output.
fn exercise(bytes: &[u8]) -> Result<&'static str, String> {
    let Ok(avatar) = tress_vrm::load_bytes(bytes, None) else {
        return Ok("refused by the loader");
    };
    let Ok(mut rig) = SpringRig::build(&avatar, &RigOptions::default()) else {
        return Ok("refused by the rig");
    };
    let poses = rig.rest_poses(&avatar);
    rig.set_frame_poses(&poses);
    for dt in [1.0 / 30.0, 1.0, 0.0, 1.0 / 120.0] {
        rig.advance(dt);
        for c in 0..rig.chains.len() {
            for (j, o) in rig.outputs(c).iter().enumerate() {
                if !(o.tail.is_finite() && o.origin.is_finite() && o.world_rot.is_finite()) {
                    return Err(format!("after dt {dt}: chain {c} joint {j} {o:?}"));
                }
            }
        }
    }
    Ok("stepped")
}

#[test]
fn damaged_avatars_are_refused_or_step_finite() {
    for name in [
        "tress_avatar.vrm",
        "tress_avatar_layered.vrm",
        "tress_avatar_skirt.vrm",
    ] {
        let glb = std::fs::read(repo_root().join("assets").join(name)).expect("committed avatar");
        let (json, bin) = split(&glb);
        let mut pointers = Vec::new();
        targets(&json, "", false, &mut pointers);
        let mut rng = Rng::new(glb.len() as u64);
        let mut stepped = 0;
        for copy in 0..COPIES {
            let (mut j, mut b) = (json.clone(), bin.clone());
            for _ in 0..1 + rng.below(3) {
                if rng.below(5) == 0 {
                    damage_bin(&mut b, &mut rng);
                } else {
                    damage_json(&mut j, &mut rng, &pointers);
                }
            }
            let bytes = join(&j, &b);
            let outcome = std::panic::catch_unwind(|| exercise(&bytes));
            match outcome {
                Ok(Ok(what)) => stepped += usize::from(what == "stepped"),
                Ok(Err(e)) => panic!("{name}, damaged copy {copy}: {e}"),
                Err(_) => panic!("{name}, damaged copy {copy}: panicked (message above)"),
            }
        }
        // Damage that the loader always refused would test nothing past it.
        assert!(
            stepped >= 10,
            "{name}: only {stepped} of {COPIES} damaged copies stepped"
        );
    }
}
