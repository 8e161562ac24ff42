//! Structure-aware BVH: the input is a list of edits (replace a token by a
//! number, keyword or channel name chosen by the input; delete a token;
//! duplicate, delete or swap lines; scale a number) applied to a valid BVH
//! file, so the mutations reach the channel layout, the offsets and the
//! motion numbers instead of dying on the first line. The base is written by
//! `tress_tools::bvh_out::write_bvh` from the built-in avatar (CMU names,
//! ZXY channels, centimetres, four frames), so nothing third-party is in it.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;

#[path = "common/clip.rs"]
mod clip;

/// The base file as lines of whitespace-separated tokens.
fn base() -> &'static Vec<Vec<String>> {
    static BASE: OnceLock<Vec<Vec<String>>> = OnceLock::new();
    BASE.get_or_init(|| {
        let (glb, _) = tress_tools::avatar::build(tress_tools::avatar::Variant::Standard);
        let avatar = tress_vrm::load_bytes(&glb, None).expect("the built-in avatar loads");
        let map =
            tress_rig::anim::BoneMap::detect(&avatar).expect("the built-in avatar is a humanoid");
        // No channels: the rest pose, sampled at 30 Hz over 0.1 s.
        let rest = tress_vrm::model::Animation {
            name: "rest".into(),
            channels: Vec::new(),
            duration: 0.1,
        };
        let text = tress_tools::bvh_out::write_bvh(
            &avatar,
            &map,
            &rest,
            &tress_tools::bvh_out::BvhOptions::default(),
        );
        text.lines()
            .map(|l| l.split_whitespace().map(str::to_owned).collect())
            .collect()
    })
}

/// A byte reader that yields zeros when the input runs out.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn u8(&mut self) -> u8 {
        let (b, rest) = self.0.split_first().map_or((0, &[][..]), |(b, r)| (*b, r));
        self.0 = rest;
        b
    }
    fn u16(&mut self) -> usize {
        usize::from(self.u8()) << 8 | usize::from(self.u8())
    }
}

/// Tokens the reader treats specially, and numbers at the edges, one space
/// apart (an empty token is the delete edit).
const TOKENS: &str = "NaN inf -inf 1e38 -1e38 3.5e38 0 -0 1e-45 -1 1 2 3 6 7 9 4294967296 \
    18446744073709551616 99999999999999999999999 0.0 0.0333333 1e9 -1e9 0x10 1,5 +2 . - e \
    Xrotation Yrotation Zrotation Xposition Yposition Zposition Wrotation xrotation CHANNELS \
    OFFSET JOINT ROOT End Site { } MOTION HIERARCHY Frames: Frame Time: Hips LeftUpLeg Head";

fn token(i: u8) -> String {
    let n = TOKENS.split_whitespace().count();
    let tok = TOKENS.split_whitespace().nth(usize::from(i) % n);
    tok.unwrap_or_default().to_owned()
}

fuzz_target!(|data: &[u8]| {
    let mut lines = base().clone();
    let mut r = Bytes(data);
    let edits = 1 + r.u8() % 8;
    for _ in 0..edits {
        if lines.is_empty() {
            break;
        }
        let op = r.u8() % 8;
        let l = r.u16() % lines.len();
        let t = usize::from(r.u8());
        match op {
            0..=2 => {
                let tok = token(r.u8());
                let line = &mut lines[l];
                if line.is_empty() {
                    line.push(tok);
                } else {
                    let i = t % line.len();
                    line[i] = tok;
                }
            }
            3 => {
                let line = &mut lines[l];
                if !line.is_empty() {
                    let i = t % line.len();
                    line.remove(i);
                }
            }
            4 => {
                let copy = lines[l].clone();
                lines.insert(l, copy);
            }
            5 => {
                lines.remove(l);
            }
            6 => {
                let m = r.u16() % lines.len();
                lines.swap(l, m);
            }
            _ => {
                // Scale a number by a power of ten chosen by the input.
                let line = &mut lines[l];
                if !line.is_empty() {
                    let i = t % line.len();
                    if let Ok(v) = line[i].parse::<f64>() {
                        let e = i32::from(r.u8() % 80) - 40;
                        line[i] = format!("{}", v * 10f64.powi(e));
                    }
                }
            }
        }
    }
    let mut text = String::new();
    for line in &lines {
        text.push_str(&line.join(" "));
        text.push('\n');
    }
    if let Ok(c) = tress_rig::anim::bvh::load(text.as_bytes(), "clip.bvh") {
        clip::exercise(&c.avatar);
    }
});
