//! Structure-aware: the fuzz input is a list of edits applied to a valid VRM
//! 1.0 document (the built-in generated avatar's JSON, with its real BIN
//! chunk), so the mutations reach deep into springs, colliders, accessors and
//! constraints instead of dying in the JSON parser.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};

struct Base {
    json: Value,
    bin: Vec<u8>,
}

fn base() -> &'static Base {
    static BASE: OnceLock<Base> = OnceLock::new();
    BASE.get_or_init(|| {
        let (glb, _) = tress_tools::avatar::build(tress_tools::avatar::Variant::Standard);
        let jlen = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
        let mut json: Value = serde_json::from_slice(&glb[20..20 + jlen]).unwrap();
        let bin_start = 20 + jlen + 8;
        let bin = glb[bin_start..].to_vec();
        // Add a few node constraints so that code path is exercised too.
        if let Some(nodes) = json["nodes"].as_array_mut() {
            for (i, kind) in [(1usize, "rotation"), (2, "roll"), (3, "aim")] {
                if let Some(n) = nodes.get_mut(i).and_then(Value::as_object_mut) {
                    let body = match kind {
                        "roll" => json!({ "roll": { "source": 0, "rollAxis": "Y", "weight": 0.5 } }),
                        "aim" => json!({ "aim": { "source": 0, "aimAxis": "NegativeZ" } }),
                        _ => json!({ "rotation": { "source": 0 } }),
                    };
                    n.insert(
                        "extensions".into(),
                        json!({ "VRMC_node_constraint": { "specVersion": "1.0", "constraint": body } }),
                    );
                }
            }
        }
        Base { json, bin }
    })
}

fn glb(json: &Value, bin: &[u8]) -> Vec<u8> {
    let mut j = serde_json::to_vec(json).unwrap();
    while !j.len().is_multiple_of(4) {
        j.push(b' ');
    }
    let total = 12 + 8 + j.len() + 8 + bin.len();
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&(j.len() as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&j);
    out.extend_from_slice(&(bin.len() as u32).to_le_bytes());
    out.extend_from_slice(b"BIN\0");
    out.extend_from_slice(bin);
    out
}

/// A byte reader that yields zeros when the input runs out.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn u8(&mut self) -> u8 {
        let (b, rest) = self.0.split_first().map_or((0, &[][..]), |(b, r)| (*b, r));
        self.0 = rest;
        b
    }
    fn u64(&mut self) -> u64 {
        (0..8).fold(0u64, |a, _| (a << 8) | u64::from(self.u8()))
    }
}

/// Walks down from the root choosing children by input bytes; returns the target.
fn pick<'v>(mut v: &'v mut Value, r: &mut Bytes<'_>) -> &'v mut Value {
    let depth = r.u8() % 8;
    for _ in 0..depth {
        let len = match v {
            Value::Array(a) => a.len(),
            Value::Object(o) => o.len(),
            _ => 0,
        };
        if len == 0 {
            break;
        }
        let i = usize::from(r.u8()) % len;
        v = match v {
            Value::Array(a) => &mut a[i],
            Value::Object(o) => o.values_mut().nth(i).unwrap(),
            _ => unreachable!(),
        };
    }
    v
}

fn replacement(r: &mut Bytes<'_>) -> Value {
    match r.u8() % 12 {
        0 => Value::Null,
        1 => json!(r.u8().is_multiple_of(2)),
        2 => json!(r.u8()),
        3 => json!(r.u64()),
        4 => json!(-(i64::from(r.u8()) + 1)),
        5 => json!(f64::from(r.u8()) / 7.0 - 10.0),
        6 => json!(1e38 * f64::from(r.u8())),
        7 => json!(
            [
                "X",
                "PositiveX",
                "NegativeY",
                "Z",
                "sphere",
                "VEC3",
                "SCALAR",
                "1.0"
            ][usize::from(r.u8() % 8)]
        ),
        8 => json!([]),
        9 => json!({}),
        10 => json!([r.u8(), r.u8(), r.u8()]),
        _ => json!({ "node": r.u8(), "shape": { "capsule": { "radius": -1.0 } } }),
    }
}

fuzz_target!(|data: &[u8]| {
    let b = base();
    let mut json = b.json.clone();
    let mut r = Bytes(data);
    let edits = 1 + r.u8() % 6;
    for _ in 0..edits {
        let op = r.u8() % 4;
        let target = pick(&mut json, &mut r);
        match op {
            // Replace a value.
            0 | 1 => *target = replacement(&mut r),
            // Remove an entry.
            2 => match target {
                Value::Array(a) if !a.is_empty() => {
                    let i = usize::from(r.u8()) % a.len();
                    a.remove(i);
                }
                Value::Object(o) if !o.is_empty() => {
                    let i = usize::from(r.u8()) % o.len();
                    let k = o.keys().nth(i).cloned().unwrap();
                    o.remove(&k);
                }
                _ => {}
            },
            // Duplicate an array entry (longer chains, repeated indices).
            _ => {
                if let Value::Array(a) = target
                    && let Some(x) = a.first().cloned()
                {
                    a.push(x);
                }
            }
        }
    }
    let bytes = glb(&json, &b.bin);
    let _ = tress_vrm::load_bytes(&bytes, None);
});
