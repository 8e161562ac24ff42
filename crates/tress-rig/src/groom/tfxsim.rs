//! TressFX `.tfxsim` simulation settings (one file per groom part, as the
//! TressFX 3 ponytail ships them), read and mapped onto our per-second
//! [`StrandParams`].
//!
//! The file is text, one `name value` pair a line (`version 3.0`,
//! `damping 0.1`, `stiffnessForLocalShapeMatching 0.3`, …); `#` starts a
//! comment. Names are the TressFX sample's; a name we do not use is listed
//! in [`TfxSim::ignored`], a malformed line is [`GroomError::Parse`] naming
//! the line.
//!
//! TressFX quotes every value per simulation step of 1/60 s, which is our
//! [`REFERENCE_STEP`]; the mapping (also in `docs/STRANDS.md`):
//!
//! | `.tfxsim` | TressFX meaning | ours |
//! |---|---|---|
//! | `damping d` | keeps `1 − d` of the velocity per step | `damping = −60 ln(1 − d)` /s |
//! | `stiffnessForGlobalShapeMatching s` | fraction toward the groomed position, once per step | `global_stiffness = s` |
//! | `globalShapeMatchingEffectiveRange r` | fraction of the strand under global shape | `global_range = r` |
//! | `stiffnessForLocalShapeMatching s` | fraction of the segment error, applied `N` times per step (`localShapeMatchingIterations`, a project setting) | `local_stiffness = 1 − (1 − s)^N` |

use tress_core::math::ops;
use tress_core::strand::StrandParams;
use tress_core::strand::params::REFERENCE_STEP;

use super::GroomError;

/// The settings a `.tfxsim` file gives; `None` for those it leaves out.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TfxSim {
    /// TressFX damping, 0..1: the fraction of velocity lost per 1/60 s step.
    pub damping: Option<f32>,
    /// Local shape stiffness per application, 0..1.
    pub local_stiffness: Option<f32>,
    /// Global shape stiffness per 1/60 s step, 0..1.
    pub global_stiffness: Option<f32>,
    /// Fraction of the strand (from the root) under global shape, 0..1.
    pub global_range: Option<f32>,
    /// Lines with a name this reader does not map: `(line, name)`.
    pub ignored: Vec<(usize, String)>,
}

/// TressFX's `localShapeMatchingIterations` when no project file says:
/// the sample's default (the ponytail's `.tfxproj` sets 3).
pub const DEFAULT_LOCAL_ITERATIONS: u32 = 1;

/// Parses a `.tfxsim` file's bytes.
///
/// # Errors
/// [`GroomError::Parse`] for a line that is not UTF-8, has no value, a
/// value that is not a number, or a value outside 0..=1 (damping below 1).
pub fn read_tfxsim(bytes: &[u8]) -> Result<TfxSim, GroomError> {
    let mut sim = TfxSim::default();
    for (i, raw) in bytes.split(|&b| b == b'\n').enumerate() {
        let line = i + 1;
        let err = |message: String| GroomError::Parse { line, message };
        let text = core::str::from_utf8(raw)
            .map_err(|_| err("not UTF-8 text (a .tfxsim is `name value` lines)".into()))?;
        let text = text.split('#').next().unwrap_or("").trim();
        let mut words = text.split_whitespace();
        let Some(name) = words.next() else {
            continue;
        };
        let value = words
            .next()
            .ok_or_else(|| err(format!("`{name}` has no value")))?;
        if let Some(extra) = words.next() {
            return Err(err(format!("`{name}` has more than one value (`{extra}`)")));
        }
        let slot = match name {
            "damping" => &mut sim.damping,
            "stiffnessForLocalShapeMatching" => &mut sim.local_stiffness,
            "stiffnessForGlobalShapeMatching" => &mut sim.global_stiffness,
            "globalShapeMatchingEffectiveRange" => &mut sim.global_range,
            "version" => continue,
            other => {
                sim.ignored.push((line, other.to_owned()));
                continue;
            }
        };
        let v: f32 = value
            .parse()
            .map_err(|_| err(format!("`{name}` value `{value}` is not a number")))?;
        // Damping 1 would be an infinite rate; every other setting is a fraction.
        let ok = if name == "damping" {
            (0.0..1.0).contains(&v)
        } else {
            (0.0..=1.0).contains(&v)
        };
        if !ok {
            let range = if name == "damping" {
                "0..1 (below 1)"
            } else {
                "0..=1"
            };
            return Err(err(format!("`{name}` value {v} is outside {range}")));
        }
        *slot = Some(v);
    }
    Ok(sim)
}

/// Reads a `.tfxsim` file from disk.
///
/// # Errors
/// [`GroomError::Io`], and as [`read_tfxsim`].
pub fn load_tfxsim(path: impl AsRef<std::path::Path>) -> Result<TfxSim, GroomError> {
    read_tfxsim(&std::fs::read(path)?)
}

impl TfxSim {
    /// `params` with the values this file sets, mapped as in the module
    /// table; `local_iterations` is the project's
    /// `localShapeMatchingIterations` ([`DEFAULT_LOCAL_ITERATIONS`] without
    /// one). Values the file leaves out keep `params`' own.
    #[must_use]
    pub fn apply(&self, mut params: StrandParams, local_iterations: u32) -> StrandParams {
        if let Some(d) = self.damping {
            params.damping = -ops::ln(1.0 - d) / REFERENCE_STEP;
        }
        if let Some(s) = self.global_stiffness {
            params.global_stiffness = s;
        }
        if let Some(r) = self.global_range {
            params.global_range = r;
        }
        if let Some(s) = self.local_stiffness {
            let n = local_iterations.clamp(1, 64) as f32;
            params.local_stiffness = 1.0 - ops::powf(1.0 - s, n);
        }
        params
    }
}

/// One groom part of a TressFX project.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TfxPart {
    /// The groom file, relative to the project.
    pub file: String,
    /// Follow hairs per guide hair: TressFX draws this many more strands
    /// around each simulated one (0: none, or not written).
    pub follow: u32,
    /// The part's settings file, relative to the project.
    pub sim: Option<String>,
}

/// What a TressFX `.tfxproj` project file says that the solver and the
/// renderer use: the parts (groom file, follow hairs, `.tfxsim`), the shape
/// iterations, and the collision spheres (file units, centre and radius).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TfxProject {
    /// The parts, in file order.
    pub parts: Vec<TfxPart>,
    /// `localShapeMatchingIterations`, when set.
    pub local_iterations: Option<u32>,
    /// `lengthConstraintIterations`, when set.
    pub length_iterations: Option<u32>,
    /// `collision_sphere x y z r`, file units.
    pub spheres: Vec<[f32; 4]>,
}

impl TfxProject {
    /// The part whose groom file is `file` (a bare name, compared without
    /// case, as the Windows-made TressFX samples spell them).
    #[must_use]
    pub fn part(&self, file: &str) -> Option<&TfxPart> {
        self.parts
            .iter()
            .find(|q| q.file.eq_ignore_ascii_case(file))
    }
}

/// Parses a `.tfxproj`. Lines it does not use (colours, lights, the mesh)
/// are passed over; a part line is `file.tfx follow radius factor
/// file.tfxsim [name]`, of which the follow hairs' radius and tip factor
/// are not used (render strands are scattered by the groom's own roots).
///
/// # Errors
/// [`GroomError::Parse`] for a line that is not UTF-8 or a setting this
/// reader uses whose value is malformed.
pub fn read_tfxproj(bytes: &[u8]) -> Result<TfxProject, GroomError> {
    let mut p = TfxProject::default();
    for (i, raw) in bytes.split(|&b| b == b'\n').enumerate() {
        let line = i + 1;
        let err = |message: String| GroomError::Parse { line, message };
        let text = core::str::from_utf8(raw).map_err(|_| err("not UTF-8 text".into()))?;
        let words: Vec<&str> = text
            .split('#')
            .next()
            .unwrap_or("")
            .split_whitespace()
            .collect();
        let Some(&first) = words.first() else {
            continue;
        };
        let int = |what: &str| -> Result<u32, GroomError> {
            words
                .get(1)
                .and_then(|v| v.parse().ok())
                .filter(|&n| (1..=64).contains(&n))
                .ok_or_else(|| err(format!("`{what}` needs a count of 1..=64")))
        };
        match first {
            "localShapeMatchingIterations" => p.local_iterations = Some(int(first)?),
            "lengthConstraintIterations" => p.length_iterations = Some(int(first)?),
            "collision_sphere" => {
                let v: Vec<f32> = words[1..].iter().filter_map(|w| w.parse().ok()).collect();
                match v.as_slice() {
                    &[x, y, z, r] if v.iter().all(|c| c.is_finite()) && r > 0.0 => {
                        p.spheres.push([x, y, z, r]);
                    }
                    _ => {
                        return Err(err(
                            "`collision_sphere` needs centre x y z and a positive radius".into(),
                        ));
                    }
                }
            }
            f if f.to_ascii_lowercase().ends_with(".tfx") => {
                let sim = words
                    .iter()
                    .find(|w| w.to_ascii_lowercase().ends_with(".tfxsim"))
                    .map(|w| (*w).to_owned());
                // `file.tfx follow radius factor file.tfxsim [name]`: a
                // second word that is not a count leaves no follow hairs.
                let follow = words.get(1).and_then(|w| w.parse().ok()).unwrap_or(0);
                p.parts.push(TfxPart {
                    file: f.to_owned(),
                    follow,
                    sim,
                });
            }
            _ => {}
        }
    }
    Ok(p)
}

/// The file name of the settings that go with groom `name` (`hair.tfx`
/// gives `hair.tfxsim`, the TressFX sample's naming), in the same folder.
#[must_use]
pub fn sibling_tfxsim(name: &str) -> String {
    let stem_end = name
        .rfind('.')
        .filter(|&d| !name[d..].contains(['/', '\\']))
        .unwrap_or(name.len());
    format!("{}.tfxsim", &name[..stem_end])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ponytail_tail_file_reads_and_maps() {
        // The shared ponytail's tail.tfxsim, as shipped (trailing blanks kept).
        let text = "version 3.0\ndamping 0.1\nstiffnessForLocalShapeMatching 0.3\n\
                    stiffnessForGlobalShapeMatching 0.1  \nglobalShapeMatchingEffectiveRange 0.3";
        let s = read_tfxsim(text.as_bytes()).unwrap();
        assert_eq!(
            (
                s.damping,
                s.local_stiffness,
                s.global_stiffness,
                s.global_range
            ),
            (Some(0.1), Some(0.3), Some(0.1), Some(0.3))
        );
        assert!(s.ignored.is_empty());
        let p = s.apply(StrandParams::default(), 3);
        // −60 ln 0.9 = 6.3216 /s; 1 − 0.7³ = 0.657.
        assert!((p.damping - 6.3216).abs() < 1e-3, "{}", p.damping);
        assert!((p.local_stiffness - 0.657).abs() < 1e-5);
        assert_eq!((p.global_stiffness, p.global_range), (0.1, 0.3));
        // One iteration: the file's value itself.
        assert!((s.apply(StrandParams::default(), 1).local_stiffness - 0.3).abs() < 1e-6);
    }

    #[test]
    fn the_mapped_damping_keeps_tressfx_s_velocity_per_step() {
        let p = TfxSim {
            damping: Some(0.25),
            ..TfxSim::default()
        }
        .apply(StrandParams::default(), 1);
        // e^(−c/60) must be the 75 % TressFX keeps per 1/60 s step.
        assert!((ops::exp(-p.damping * REFERENCE_STEP) - 0.75).abs() < 1e-6);
    }

    #[test]
    fn settings_left_out_keep_ours_and_unknown_names_are_listed() {
        let s = read_tfxsim(b"# comment\n\nfoo 1\ndamping 0.2 # trailing\n").unwrap();
        assert_eq!(s.ignored, [(3, "foo".to_owned())]);
        let p = s.apply(StrandParams::default(), 1);
        let d = StrandParams::default();
        assert_eq!(
            (p.global_stiffness, p.global_range, p.local_stiffness),
            (d.global_stiffness, d.global_range, d.local_stiffness)
        );
    }

    #[test]
    fn malformed_lines_are_named() {
        #[rustfmt::skip]
        let cases: &[(&[u8], usize, &str)] = &[
            (b"version 3.0\ndamping\n", 2, "`damping` has no value"),
            (b"damping zero\n", 1, "`damping` value `zero` is not a number"),
            (b"damping 1\n", 1, "`damping` value 1 is outside 0..1 (below 1)"),
            (b"damping -0.1\n", 1, "`damping` value -0.1 is outside 0..1 (below 1)"),
            (b"\n\nstiffnessForLocalShapeMatching 1.5\n", 3, "`stiffnessForLocalShapeMatching` value 1.5 is outside 0..=1"),
            (b"globalShapeMatchingEffectiveRange NaN\n", 1, "`globalShapeMatchingEffectiveRange` value NaN is outside 0..=1"),
            (b"damping 0.1 0.2\n", 1, "`damping` has more than one value (`0.2`)"),
            (b"damping 0.1\n\xff\n", 2, "not UTF-8 text"),
        ];
        for (bytes, want_line, want) in cases {
            match read_tfxsim(bytes) {
                Err(GroomError::Parse { line, message }) => {
                    assert_eq!(line, *want_line, "{want}");
                    assert!(message.starts_with(want), "{message} / {want}");
                }
                other => panic!("{want}: {other:?}"),
            }
        }
    }

    #[test]
    fn the_ponytail_project_reads() {
        let text = "version 3.0\n# parts\nfront_top.tfx 4 0.4 5.0 front_top.tfxsim front-and-top\n\
                    tail.tfx 4 0.4 5.0 tail.tfxsim tail\nponytail.sdkmesh\n\
                    lengthConstraintIterations 3\nlocalShapeMatchingIterations 3\n\
                    collision_sphere -0.095 92.000 9.899 26.5\nhairColor 0.6 0.4 0.2\n";
        let p = read_tfxproj(text.as_bytes()).unwrap();
        assert_eq!(
            p.parts[1],
            TfxPart {
                file: "tail.tfx".into(),
                follow: 4,
                sim: Some("tail.tfxsim".into())
            }
        );
        assert_eq!(p.part("TAIL.TFX"), Some(&p.parts[1]));
        assert_eq!(p.part("side.tfx"), None);
        // A part line whose second word is not a count: no follow hairs.
        let q = read_tfxproj(b"side.tfx side.tfxsim\n").unwrap();
        assert_eq!(
            (q.parts[0].follow, q.parts[0].sim.as_deref()),
            (0, Some("side.tfxsim"))
        );
        assert_eq!(
            (p.local_iterations, p.length_iterations),
            (Some(3), Some(3))
        );
        assert_eq!(p.spheres, [[-0.095, 92.0, 9.899, 26.5]]);
        #[rustfmt::skip]
        let bad: &[(&[u8], usize, &str)] = &[
            (b"localShapeMatchingIterations 0\n", 1, "`localShapeMatchingIterations` needs a count of 1..=64"),
            (b"\nlengthConstraintIterations x\n", 2, "`lengthConstraintIterations` needs a count of 1..=64"),
            (b"collision_sphere 1 2 3\n", 1, "`collision_sphere` needs centre x y z and a positive radius"),
            (b"collision_sphere 1 2 3 -1\n", 1, "`collision_sphere` needs centre x y z and a positive radius"),
        ];
        for (bytes, want_line, want) in bad {
            match read_tfxproj(bytes) {
                Err(GroomError::Parse { line, message }) => {
                    assert_eq!((line, message.as_str()), (*want_line, *want));
                }
                other => panic!("{want}: {other:?}"),
            }
        }
    }

    #[test]
    fn settings_sit_beside_the_groom() {
        assert_eq!(
            sibling_tfxsim("res://hair/tail.tfx"),
            "res://hair/tail.tfxsim"
        );
        assert_eq!(sibling_tfxsim("a.b/tail"), "a.b/tail.tfxsim");
    }
}
