//! `tress measure FILE [--solver improved|earlier|vrm] [--fps 30,60,120] [--meshes NAME,NAME]
//! [--fit-colliders] [--json OUT.json] [--plot OUT.png]`; `--meshes` limits the stretch to those meshes' hair.

use std::path::PathBuf;

use crate::measure::{MeasureError, MeasureOptions, Report, Solver, parse_fps};

/// Parsed arguments of `tress measure`.
#[derive(Debug, Clone, PartialEq)]
pub struct Args {
    /// The avatar.
    pub file: PathBuf,
    /// What to measure.
    pub options: MeasureOptions,
    /// Where to write the JSON report.
    pub json: Option<PathBuf>,
    /// Where to draw the stretch distribution and tip paths (PNG).
    pub plot: Option<PathBuf>,
    /// Also measure with fitted colliders and per-chain contact
    /// ([`crate::fit_colliders`]), and compare.
    pub fit_colliders: bool,
}

/// The usage line.
pub const USAGE: &str = "tress measure FILE [--solver improved|earlier|vrm] [--fps 30,60,120] [--meshes NAME,NAME] [--flat-lock-stiffness 1/s] [--drape] [--fit-colliders] [--json OUT.json] [--plot OUT.png]";

/// Parses the arguments after `measure`.
///
/// # Errors
/// A message naming the bad or missing argument.
pub fn parse_args(args: &[String]) -> Result<Args, String> {
    let mut file = None;
    let mut options = MeasureOptions::default();
    let mut json = None;
    let mut plot = None;
    let mut fit_colliders = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |name: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{name} needs a value"))
        };
        match a.as_str() {
            "--solver" => {
                options.solver = value("--solver")?
                    .parse::<Solver>()
                    .map_err(|e: MeasureError| e.to_string())?;
            }
            "--fps" => options.fps = parse_fps(&value("--fps")?).map_err(|e| e.to_string())?,
            "--json" => json = Some(PathBuf::from(value("--json")?)),
            "--plot" => plot = Some(PathBuf::from(value("--plot")?)),
            "--flat-lock-stiffness" => {
                options.flat_lock_stiffness = value("--flat-lock-stiffness")?
                    .parse::<f32>()
                    .ok()
                    .filter(|x| x.is_finite() && *x >= 0.0)
                    .ok_or_else(|| {
                        "--flat-lock-stiffness needs a number ≥ 0 (1/s; 0: off)".to_owned()
                    })?;
            }
            "--drape" => options.drape = true,
            "--meshes" => {
                options.stretch_meshes = value("--meshes")?
                    .split(',')
                    .map(|n| n.trim().to_owned())
                    .filter(|n| !n.is_empty())
                    .collect();
            }
            "--fit-colliders" => fit_colliders = true,
            s if s.starts_with("--") => return Err(format!("unknown option `{s}`")),
            s if file.is_none() => file = Some(PathBuf::from(s)),
            s => return Err(format!("unexpected argument `{s}` (one FILE only)")),
        }
    }
    let file = file.ok_or_else(|| "missing FILE".to_owned())?;
    Ok(Args {
        file,
        options,
        json,
        plot,
        fit_colliders,
    })
}

/// The JSON document: the file measured, then the report's fields.
#[must_use]
pub fn json(file: &str, report: &Report) -> serde_json::Value {
    let mut v = serde_json::to_value(report).unwrap_or(serde_json::Value::Null);
    if let serde_json::Value::Object(map) = &mut v {
        map.insert("file".to_owned(), serde_json::Value::from(file));
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &[&str]) -> Vec<String> {
        s.iter().map(|&a| a.to_owned()).collect()
    }

    #[test]
    fn parses_options_and_rejects_mistakes() {
        let a = parse_args(&args(&[
            "a.vrm", "--solver", "earlier", "--fps", "30,120", "--json", "o.json",
        ]))
        .expect("parses");
        assert_eq!(a.file, PathBuf::from("a.vrm"));
        assert_eq!(a.options.solver, Solver::Earlier);
        assert_eq!(a.options.fps, vec![30, 120]);
        assert_eq!(a.json, Some(PathBuf::from("o.json")));
        assert!(!a.fit_colliders);
        assert!(
            parse_args(&args(&["a.vrm", "--fit-colliders"]))
                .expect("parses")
                .fit_colliders
        );
        let e = parse_args(&args(&["a.vrm", "--solver", "fast"])).unwrap_err();
        assert!(e.contains("unknown solver `fast`"), "{e}");
        let e = parse_args(&args(&["a.vrm", "--fps", "30,0"])).unwrap_err();
        assert!(e.contains("bad frame rate"), "{e}");
        assert!(parse_args(&args(&[])).unwrap_err().contains("missing FILE"));
        assert!(
            parse_args(&args(&["a.vrm", "--json"]))
                .unwrap_err()
                .contains("needs a value")
        );
    }
}
