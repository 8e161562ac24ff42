//! The before/after lines of `tress measure --fit-colliders` (what
//! `tress fit-colliders FILE` prints comes from
//! [`tress_rig::fit_colliders::report`]).

use core::fmt::Write as _;

use tress_tools::measure::Report;

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
        let deep = |p: &tress_tools::measure::penetration::PenetrationReport| {
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
