//! `tress fit-colliders FILE [--json OUT.json]`, and the before/after lines
//! of `tress measure --fit-colliders`.

use core::fmt::Write as _;
use std::path::PathBuf;

use crate::measure::Report;

/// Parsed arguments of `tress fit-colliders`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Args {
    /// The avatar.
    pub file: PathBuf,
    /// Where to write the JSON report.
    pub json: Option<PathBuf>,
}

/// The usage line.
pub const USAGE: &str = "tress fit-colliders FILE [--json OUT.json]";

/// Parses the arguments after `fit-colliders`.
///
/// # Errors
/// A message naming the bad or missing argument.
pub fn parse_args(args: &[String]) -> Result<Args, String> {
    let mut file = None;
    let mut json = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--json" => {
                json = Some(PathBuf::from(it.next().ok_or("--json needs a value")?));
            }
            s if s.starts_with("--") => return Err(format!("unknown option `{s}`")),
            s if file.is_none() => file = Some(PathBuf::from(s)),
            s => return Err(format!("unexpected argument `{s}` (one FILE only)")),
        }
    }
    Ok(Args {
        file: file.ok_or("missing FILE")?,
        json,
    })
}

/// Penetration per frame rate, authored against fitted.
#[must_use]
pub fn compare(authored: &Report, fitted: &Report) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "penetration, authored → fitted colliders:");
    for a in &authored.runs {
        let (Some(pa), Some(pf)) = (
            a.penetration.as_ref(),
            fitted.run(a.fps).and_then(|r| r.penetration.as_ref()),
        ) else {
            continue;
        };
        let deep = |p: &crate::measure::penetration::PenetrationReport| {
            p.deepest.as_ref().map_or_else(
                || "—".to_owned(),
                |d| format!("{:.1} mm", d.depth_m * 1000.0),
            )
        };
        let _ = writeln!(
            out,
            "  {} fps: {} → {} hair vertices inside > 1 mm ({} → {} at rest), deepest {} → {}",
            a.fps,
            pa.vertices_inside,
            pf.vertices_inside,
            pa.inside_at_rest,
            pf.inside_at_rest,
            deep(pa),
            deep(pf)
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &[&str]) -> Vec<String> {
        s.iter().map(|&a| a.to_owned()).collect()
    }

    #[test]
    fn parses_file_and_json_and_rejects_mistakes() {
        let a = parse_args(&args(&["a.vrm", "--json", "o.json"])).expect("parses");
        assert_eq!(a.file, PathBuf::from("a.vrm"));
        assert_eq!(a.json, Some(PathBuf::from("o.json")));
        assert!(parse_args(&args(&[])).unwrap_err().contains("missing FILE"));
        assert!(
            parse_args(&args(&["a.vrm", "--json"]))
                .unwrap_err()
                .contains("needs a value")
        );
        assert!(
            parse_args(&args(&["a.vrm", "--x"]))
                .unwrap_err()
                .contains("unknown option")
        );
        assert!(
            parse_args(&args(&["a.vrm", "b.vrm"]))
                .unwrap_err()
                .contains("one FILE")
        );
    }
}
