//! `tress measure --plot OUT.png`: the stretch distribution and the tips'
//! paths of a measurement, drawn with `plotters`.
//!
//! Text needs a TrueType font; the first one found among common system
//! locations is used. Without one the plot is drawn without labels (and
//! the caller is told, so the numbers are read from the printed report).

use std::path::Path;

use plotters::prelude::*;
use plotters::style::{FontStyle, register_font};

use super::Report;

/// Fonts tried in order (Debian/Ubuntu, Fedora, macOS, Windows).
const FONTS: [&str; 6] = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu-sans-fonts/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "/System/Library/Fonts/Supplemental/Arial.ttf",
    "/Library/Fonts/Arial.ttf",
    "C:\\Windows\\Fonts\\arial.ttf",
];

/// Registers a system font for plotters' text once; whether one was found.
pub(crate) fn font() -> bool {
    static FOUND: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *FOUND.get_or_init(|| {
        FONTS.iter().any(|p| {
            std::fs::read(p).is_ok_and(|bytes| {
                // plotters keeps the font for the life of the process.
                let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
                register_font("sans-serif", FontStyle::Normal, bytes).is_ok()
            })
        })
    })
}

/// A white 1200×600 PNG canvas at `path`, titled when a font was found;
/// whether it was (both plots share it).
pub(crate) fn canvas<'a>(
    path: &'a Path,
    title: &str,
) -> Result<(DrawingArea<BitMapBackend<'a>, plotters::coord::Shift>, bool), String> {
    let labels = font();
    let err = |e: &dyn core::fmt::Display| e.to_string();
    let root = BitMapBackend::new(path, (1200, 600)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let root = if labels {
        root.titled(title, ("sans-serif", 22))
            .map_err(|e| err(&e))?
    } else {
        root
    };
    Ok((root, labels))
}

/// Draws the first run's stretch histogram (edges per bin of the largest
/// stretch each hair edge reached) and every chain tip's path seen from
/// above (x, z) into a 1200×600 PNG. Returns whether labels were drawn.
///
/// # Errors
/// A message when the file cannot be drawn or written.
pub fn plot_png(report: &Report, title: &str, path: &Path) -> Result<bool, String> {
    let err = |e: &dyn core::fmt::Display| e.to_string();
    let (root, labels) = canvas(path, title)?;
    let (left, right) = root.split_horizontally(600);

    let bins = report
        .runs
        .iter()
        .find_map(|r| r.stretch.as_ref())
        .map(|s| s.histogram.clone())
        .unwrap_or_default();
    let top = bins.iter().map(|b| b.edges).max().unwrap_or(1).max(1);
    let mut chart = ChartBuilder::on(&left);
    chart
        .margin(20)
        .x_label_area_size(if labels { 50 } else { 5 })
        .y_label_area_size(if labels { 60 } else { 5 });
    if labels {
        chart.caption("largest stretch per hair edge", ("sans-serif", 18));
    }
    let n = bins.len().max(1);
    let mut chart = chart
        .build_cartesian_2d((0..n).into_segmented(), 0..top + top / 10 + 1)
        .map_err(|e| err(&e))?;
    let names: Vec<String> = bins
        .iter()
        .map(|b| match (b.from, b.to) {
            (_, Some(t)) => format!("≤{t}%"),
            (Some(f), None) => format!(">{f}%"),
            (None, None) => String::new(),
        })
        .collect();
    let bin_name = |v: &SegmentValue<usize>| match v {
        SegmentValue::CenterOf(i) => names.get(*i).cloned().unwrap_or_default(),
        _ => String::new(),
    };
    let mut mesh = chart.configure_mesh();
    mesh.disable_x_mesh();
    if labels {
        mesh.x_desc("stretch bin")
            .y_desc("edges")
            .x_label_formatter(&bin_name);
    } else {
        mesh.x_labels(0).y_labels(0);
    }
    mesh.draw().map_err(|e| err(&e))?;
    chart
        .draw_series(
            Histogram::vertical(&chart)
                .style(RGBColor(70, 110, 170).filled())
                .margin(4)
                .data(bins.iter().enumerate().map(|(i, b)| (i, b.edges))),
        )
        .map_err(|e| err(&e))?;

    // Tip paths, top view.
    let pts = report.tip_paths.iter().flatten();
    let (mut x0, mut x1, mut z0, mut z1) = (
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::INFINITY,
        f32::NEG_INFINITY,
    );
    for p in pts {
        if p.is_finite() {
            x0 = x0.min(p.x);
            x1 = x1.max(p.x);
            z0 = z0.min(p.z);
            z1 = z1.max(p.z);
        }
    }
    if !(x0 < x1 && z0 < z1) {
        (x0, x1, z0, z1) = (-0.2, 0.2, -0.2, 0.2);
    }
    let pad = 0.05 * (x1 - x0).max(z1 - z0);
    let mut chart = ChartBuilder::on(&right);
    chart
        .margin(20)
        .x_label_area_size(if labels { 50 } else { 5 })
        .y_label_area_size(if labels { 60 } else { 5 });
    if labels {
        chart.caption("chain tips seen from above (m)", ("sans-serif", 18));
    }
    let mut chart = chart
        .build_cartesian_2d((x0 - pad)..(x1 + pad), (z0 - pad)..(z1 + pad))
        .map_err(|e| err(&e))?;
    let mut mesh = chart.configure_mesh();
    if labels {
        mesh.x_desc("x").y_desc("z");
    } else {
        mesh.x_labels(0).y_labels(0);
    }
    mesh.draw().map_err(|e| err(&e))?;
    for (i, path) in report.tip_paths.iter().enumerate() {
        let color = Palette99::pick(i).mix(0.9);
        chart
            .draw_series(LineSeries::new(
                path.iter().filter(|p| p.is_finite()).map(|p| (p.x, p.z)),
                color.stroke_width(2),
            ))
            .map_err(|e| err(&e))?;
    }
    root.present().map_err(|e| err(&e))?;
    Ok(labels)
}
