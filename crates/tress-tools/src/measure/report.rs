//! The readable summary `tress measure` prints.

use core::fmt::Write as _;

use super::{PairDiff, Report};

fn mm(m: f32) -> String {
    format!("{:.4} mm", m * 1000.0)
}

fn pairs(out: &mut String, label: &str, pairs: &[PairDiff]) {
    let _ = write!(out, "  {label}:");
    for p in pairs {
        let _ = write!(
            out,
            " {}/{} {}{}",
            p.a_fps,
            p.b_fps,
            mm(p.max_m),
            if p.identical { " (identical)" } else { "" }
        );
    }
    let _ = writeln!(out);
}

/// A human-readable summary of `report`.
#[must_use]
pub fn summary(report: &Report) -> String {
    let mut out = String::new();
    let m = &report.motion;
    let _ = writeln!(
        out,
        "solver: {}; {} chains, {} joints",
        report.solver, report.chains, report.joints
    );
    if report.rigid_hair {
        let _ = writeln!(
            out,
            "hair carried rigidly: spring joints kept at their rest rotations (the solver's output is not written back)"
        );
    }
    if report.wind_strength > 0.0 {
        let [x, y, z] = report.wind_direction;
        let _ = writeln!(
            out,
            "wind: {} m/s² towards ({x:.2}, {y:.2}, {z:.2}), gusts and flutter as the Godot node's defaults",
            report.wind_strength
        );
    }
    if let Some(c) = &report.clip {
        let _ = writeln!(
            out,
            "motion: clip {} ({:.2} s) played {} times after a {} s ease-in from rest",
            c.name, c.clip_s, c.passes, c.ease_in_s
        );
    } else {
        let _ = writeln!(
            out,
            "motion: yaw ±{}° at {} Hz, sway ±{} cm at {} Hz for {} s, then {} s still",
            m.yaw_deg,
            m.yaw_hz,
            m.sway_m * 100.0,
            m.sway_hz,
            m.move_s,
            m.still_s
        );
    }
    let _ = writeln!(
        out,
        "mesh: {} hair vertices, {} hair triangles, {} body triangles",
        report.mesh.hair_vertices, report.mesh.hair_triangles, report.mesh.body_triangles
    );
    for n in &report.mesh.notes {
        let _ = writeln!(out, "  note: {n}");
    }
    for r in &report.runs {
        let _ = writeln!(
            out,
            "run at {} fps ({} samples, {:.2} s):",
            r.fps, r.samples, r.seconds
        );
        if let Some(s) = &r.stretch {
            let _ = writeln!(
                out,
                "  stretch over {} edges: p50 {:.3} %, p99 {:.3} %{}",
                s.edges,
                s.p50_percent,
                s.p99_percent,
                if s.finite { "" } else { " (NON-FINITE ratios)" }
            );
            if let Some(w) = &s.worst {
                let _ = writeln!(
                    out,
                    "  worst edge: {:.3} % ({} primitive {}, vertices {}–{}, rest {})",
                    w.percent,
                    w.mesh,
                    w.primitive,
                    w.vertices[0],
                    w.vertices[1],
                    mm(w.rest_m)
                );
            }
            let _ = writeln!(
                out,
                "  stretch at t = 0 (before any step): {:.3} %",
                s.at_start_percent
            );
            let listed: Vec<String> = s
                .worst_edges
                .iter()
                .take_while(|e| e.percent > 10.0)
                .map(|e| {
                    format!(
                        "{:.1} % ({} {} {}–{}: {} / {})",
                        e.percent,
                        e.mesh,
                        e.primitive,
                        e.vertices[0],
                        e.vertices[1],
                        e.owners[0],
                        e.owners[1]
                    )
                })
                .collect();
            if !listed.is_empty() {
                let _ = writeln!(
                    out,
                    "  edges over 10 %, largest first (mesh primitive vertices: skin weights of each end):"
                );
                for l in &listed {
                    let _ = writeln!(out, "    {l}");
                }
            }
            let bins: Vec<String> = s
                .histogram
                .iter()
                .map(|b| match (b.from, b.to) {
                    (_, Some(to)) => format!("≤{to}%: {}", b.edges),
                    (Some(from), None) => format!(">{from}%: {}", b.edges),
                    (None, None) => format!("all: {}", b.edges),
                })
                .collect();
            let _ = writeln!(out, "  histogram: {}", bins.join(", "));
        }
        let _ = writeln!(
            out,
            "  root fixity: {}; joints rebuilt from written rotations within {}",
            mm(r.root_fixity_m),
            mm(r.writeback_m)
        );
        let _ = writeln!(
            out,
            "  settling (last {} s): largest tip step {}",
            r.settling.window_s,
            mm(r.settling.max_tip_step_m)
        );
        let _ = writeln!(
            out,
            "  swing while moving: a tip {:.1} cm from its rest place carried by the head ({}, t = {:.2} s)",
            r.swing.max_tip_deviation_m * 100.0,
            r.swing.chain,
            r.swing.time_s
        );
        let per: Vec<String> = r
            .swing
            .per_chain
            .iter()
            .map(|(name, d)| format!("{name} {:.1}", d * 100.0))
            .collect();
        let _ = writeln!(out, "  swing per chain, cm: {}", per.join(", "));
        let _ = writeln!(
            out,
            "  spin: a bone turned {:.1}° about its own segment between samples ({} bone {}, t = {:.3} s); {} bone-samples over {}°",
            r.spin.max_deg,
            r.spin.chain,
            r.spin.bone,
            r.spin.time_s,
            r.spin.over,
            super::SPIN_FLIP_DEG
        );
        if let Some(p) = &r.penetration {
            let _ = write!(
                out,
                "  penetration > {}: {} of {} hair vertices ({} already at rest)",
                mm(p.threshold_m),
                p.vertices_inside,
                p.hair_vertices,
                p.inside_at_rest
            );
            match &p.deepest {
                Some(d) => {
                    let _ = writeln!(
                        out,
                        "; deepest {} ({} primitive {}, vertex {}, t = {:.3} s)",
                        mm(d.depth_m),
                        d.mesh,
                        d.primitive,
                        d.vertex,
                        d.time_s
                    );
                }
                None => {
                    let _ = writeln!(out);
                }
            }
            if !p.by_part.is_empty() {
                let parts: Vec<String> = p
                    .by_part
                    .iter()
                    .map(|part| {
                        let name = if part.name.is_empty() {
                            format!("node {}", part.node)
                        } else {
                            part.name.clone()
                        };
                        format!("{name} {}", part.vertices)
                    })
                    .collect();
                let _ = writeln!(
                    out,
                    "  inside, by the body part where deepest: {}",
                    parts.join(", ")
                );
            }
        }
    }
    let _ = writeln!(
        out,
        "frame-rate invariance (largest joint difference at shared instants):"
    );
    pairs(&mut out, "poses per frame", &report.frame_rate.frames);
    pairs(&mut out, "poses per substep", &report.frame_rate.substeps);
    let _ = writeln!(out, "total: {:.2} s", report.seconds);
    out
}
