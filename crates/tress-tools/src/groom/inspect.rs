//! `tress groom inspect`: what a groom holds, in metres.

use core::fmt::Write as _;

use glam::Vec3;
use tress_core::collide::ShapeKind;
use tress_rig::groom::Groom;

use super::LoadedGroom;

/// Strand lengths of `g`: (shortest, mean, longest), metres.
#[must_use]
pub fn lengths(g: &Groom) -> (f32, f32, f32) {
    let ls: Vec<f32> = g
        .strands()
        .map(|s| s.windows(2).map(|w| (w[1] - w[0]).length()).sum())
        .collect();
    if ls.is_empty() {
        return (0.0, 0.0, 0.0);
    }
    let mean = ls.iter().sum::<f32>() / ls.len() as f32;
    (
        ls.iter().copied().fold(f32::INFINITY, f32::min),
        mean,
        ls.iter().copied().fold(0.0, f32::max),
    )
}

fn counts(g: &Groom) -> String {
    match g.uniform_count() {
        Some(n) => format!("{n}"),
        None => {
            let lo = g.strands().map(<[Vec3]>::len).min().unwrap_or(0);
            let hi = g.strands().map(<[Vec3]>::len).max().unwrap_or(0);
            format!("{lo}..{hi} (varies)")
        }
    }
}

fn v(p: Vec3) -> String {
    format!("({:.4}, {:.4}, {:.4})", p.x, p.y, p.z)
}

/// The report `tress groom inspect` prints.
#[must_use]
pub fn report(g: &LoadedGroom) -> String {
    let mut s = String::new();
    let all = g.combined();
    let _ = writeln!(s, "groom: {}", g.file);
    let _ = writeln!(s, "format: {}", g.format);
    let _ = writeln!(s, "units: {}", g.units);
    let _ = writeln!(
        s,
        "strands: {}   points per strand: {}   points: {}",
        all.strand_count(),
        counts(&all),
        all.points().len()
    );
    let _ = writeln!(
        s,
        "particles simulated by default: {} (the groom's own; --particles resamples)",
        all.own_particles().unwrap_or(0)
    );
    if let Some((lo, hi)) = all.bounds() {
        let _ = writeln!(
            s,
            "bounds (m): min {} max {} size {}",
            v(lo),
            v(hi),
            v(hi - lo)
        );
    }
    let (short, mean, long) = lengths(&all);
    let _ = writeln!(
        s,
        "strand length (m): shortest {short:.4}, mean {mean:.4}, longest {long:.4}"
    );
    let _ = writeln!(s, "parts: {}", g.parts.len());
    for p in &g.parts {
        let (_, mean, _) = lengths(&p.groom);
        let file = p
            .file_vertices
            .map_or(String::new(), |n| format!(", {n} in the file"));
        let _ = writeln!(
            s,
            "  {}: {} strands x {}{file}, mean length {mean:.4} m, {} skipped",
            p.name,
            p.groom.strand_count(),
            counts(&p.groom),
            p.skipped
        );
        if p.follow > 0 {
            let _ = writeln!(
                s,
                "    follow hairs: {} per guide (the project's; TressStrandHair draws {} strands per simulated one)",
                p.follow,
                (p.follow + 1).min(32)
            );
        }
        let q = &p.params;
        let _ = writeln!(
            s,
            "    settings: {}: damping {:.3}/s, global stiffness {:.3} over {:.0}%, local stiffness {:.3}",
            p.settings,
            q.damping,
            q.global_stiffness,
            q.global_range * 100.0,
            q.local_stiffness
        );
    }
    if g.colliders.is_empty() {
        let _ = writeln!(s, "colliders: none with the groom");
    } else {
        let _ = writeln!(s, "colliders: {}", g.colliders.len());
        for c in &g.colliders {
            let kind = match c.kind {
                ShapeKind::Sphere => "sphere",
                ShapeKind::Capsule => "capsule",
                _ => "other",
            };
            let _ = writeln!(s, "  {kind} at {} radius {:.4} m", v(c.offset), c.radius);
        }
    }
    for n in &g.notes {
        let _ = writeln!(s, "note: {n}");
    }
    s
}
