//! `tress groom measure --plot OUT.png`: the tips' swing and their distance
//! from the groomed shape over time, drawn with `plotters` (text as
//! [`crate::measure::plot`] draws it).

use std::path::Path;

use plotters::prelude::*;

use super::quality::QualityReport;

/// One panel: `values(sample)` against time.
fn panel(
    area: &DrawingArea<BitMapBackend<'_>, plotters::coord::Shift>,
    r: &QualityReport,
    labels: bool,
    caption: &str,
    y_desc: &str,
    value: impl Fn(&super::quality::Sample) -> f32,
) -> Result<(), String> {
    let err = |e: &dyn core::fmt::Display| e.to_string();
    let t1 = r.samples.last().map_or(1.0, |s| s.t as f32).max(1e-3);
    let (lo, hi) = r
        .samples
        .iter()
        .map(&value)
        .filter(|v| v.is_finite())
        .fold((0.0f32, 0.0f32), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let pad = ((hi - lo) * 0.05).max(1e-3);
    let mut chart = ChartBuilder::on(area);
    chart
        .margin(20)
        .x_label_area_size(if labels { 50 } else { 5 })
        .y_label_area_size(if labels { 60 } else { 5 });
    if labels {
        chart.caption(caption, ("sans-serif", 18));
    }
    let mut chart = chart
        .build_cartesian_2d(0.0f32..t1, (lo - pad)..(hi + pad))
        .map_err(|e| err(&e))?;
    let mut mesh = chart.configure_mesh();
    if labels {
        mesh.x_desc("time (s)").y_desc(y_desc);
    } else {
        mesh.x_labels(0).y_labels(0);
    }
    mesh.draw().map_err(|e| err(&e))?;
    chart
        .draw_series(LineSeries::new(
            r.samples
                .iter()
                .map(|s| (s.t as f32, value(s)))
                .filter(|p| p.1.is_finite()),
            BLUE.stroke_width(2),
        ))
        .map_err(|e| err(&e))?;
    Ok(())
}

/// Draws the mean tip yaw past the follow position (degrees) and the mean
/// tip distance from the groomed tip (mm) over time into a 1200×600 PNG.
/// Returns whether labels were drawn (a TrueType font was found).
///
/// # Errors
/// A message when the file cannot be drawn or written.
pub fn plot_png(r: &QualityReport, title: &str, path: &Path) -> Result<bool, String> {
    let err = |e: &dyn core::fmt::Display| e.to_string();
    let (root, labels) = crate::measure::plot::canvas(path, title)?;
    let (left, right) = root.split_horizontally(600);
    panel(
        &left,
        r,
        labels,
        "mean tip yaw past its follow position",
        "degrees",
        |s| s.tip_yaw_deg,
    )?;
    panel(
        &right,
        r,
        labels,
        "mean tip distance from the groomed tip",
        "mm",
        |s| s.tip_offset * 1000.0,
    )?;
    root.present().map_err(|e| err(&e))?;
    Ok(labels)
}
