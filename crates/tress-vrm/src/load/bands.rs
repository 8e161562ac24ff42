//! `TRESS_springBone_band`, Tress's own extension on `VRMC_springBone`:
//! rows of neighbouring springs held to their rest spacing (a skirt's
//! chains around the hips), `extensions.TRESS_springBone_band { bands: [{
//! name?, springs: [i, …], closed?, stretch?, shear?, folds?, foldFlatAngle?
//! }] }`, each `springs` entry an index into this `VRMC_springBone`'s
//! `springs`, neighbours in order. `shear` (0..=1, absent: shear free) also
//! holds the diagonals between neighbours' joints
//! (`tress_core::spring::BandLink::shear`). `folds` (`tress_core::spring::fold`)
//! gives, per neighbouring pair in order (a closed band's last pair is the
//! last chain with the first), the nodes of the fold between them, one per
//! joint of the pair, root first; `foldFlatAngle` (radians, ≥ 0, absent: 0,
//! never) is the bend at which a fold lies flat.
//!
//! Other runtimes ignore the extension and simulate the springs alone. A
//! malformed band never fails the load: it is dropped with a warning naming
//! its JSON path, and its springs simulate alone.

use super::ctx::Ctx;
use crate::error::Result;
use crate::json::J;
use crate::model::SpringBand;

/// The extension's name.
pub(crate) const EXTENSION: &str = "TRESS_springBone_band";

/// Stretch a band allows when the file does not say.
pub const DEFAULT_STRETCH: f32 = 0.0;

/// The bands of a `VRMC_springBone` object `v` whose springs start at chain
/// `base` and number `count`.
pub(crate) fn bands(
    v: &J<'_>,
    base: usize,
    count: usize,
    nodes: usize,
    ctx: &mut Ctx,
) -> Result<Vec<SpringBand>> {
    let Some(ext) = v.get("extensions")?.map(|e| e.get(EXTENSION)).transpose()? else {
        return Ok(Vec::new());
    };
    let Some(ext) = ext else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    let list = match ext.list("bands") {
        Ok(l) => l,
        Err(e) => {
            ctx.warn(&ext.path, &format!("{EXTENSION} ignored: {}", e.message));
            return Ok(out);
        }
    };
    for b in list {
        match band(&b, base, count) {
            Ok(mut band) => {
                // Broken folds never drop the band: it holds its chains
                // without them.
                match folds(&b, &band, nodes) {
                    Ok((f, angle)) => {
                        band.folds = f;
                        band.fold_flat_angle = angle;
                    }
                    Err(e) => {
                        ctx.warn_dropped(&e, &b.path, "band's folds", "the band holds without them")
                    }
                }
                out.push(band);
            }
            Err(e) => ctx.warn_dropped(&e, &b.path, "band", "its springs simulate alone"),
        }
    }
    Ok(out)
}

fn band(b: &J<'_>, base: usize, count: usize) -> Result<SpringBand> {
    let mut chains = Vec::new();
    for s in b.list("springs")? {
        let i = s.index(count, "spring")?;
        if chains.contains(&(base + i)) {
            return Err(s.err(
                crate::error::ErrorKind::Invalid,
                format!("spring {i} is listed twice"),
            ));
        }
        chains.push(base + i);
    }
    if chains.len() < 2 {
        return Err(b.err(
            crate::error::ErrorKind::Invalid,
            "a band needs at least two springs",
        ));
    }
    let stretch = b.f32_or("stretch", DEFAULT_STRETCH)?;
    if !(0.0..=1.0).contains(&stretch) {
        return Err(b.err(
            crate::error::ErrorKind::Invalid,
            format!("stretch {stretch} is outside 0..=1"),
        ));
    }
    let shear = b.get("shear")?.map(|j| j.f32()).transpose()?;
    if let Some(s) = shear.filter(|s| !(0.0..=1.0).contains(s)) {
        return Err(b.err(
            crate::error::ErrorKind::Invalid,
            format!("shear {s} is outside 0..=1"),
        ));
    }
    Ok(SpringBand {
        name: b.opt_str("name")?,
        source_path: b.path.clone(),
        chains,
        closed: b.opt_bool("closed")?.unwrap_or(false),
        stretch,
        shear,
        folds: Vec::new(),
        fold_flat_angle: 0.0,
    })
}

/// A band's `folds` and `foldFlatAngle`: one node list per pair, every
/// list as long as the first.
fn folds(b: &J<'_>, band: &SpringBand, nodes: usize) -> Result<(Vec<Vec<usize>>, f32)> {
    let list = b.list("folds")?;
    if list.is_empty() {
        return Ok((Vec::new(), 0.0));
    }
    let pairs = band.pairs().count();
    if list.len() != pairs {
        return Err(b.err(
            crate::error::ErrorKind::Invalid,
            format!("{} fold lists for {pairs} neighbouring pairs", list.len()),
        ));
    }
    let mut out: Vec<Vec<usize>> = Vec::with_capacity(list.len());
    for f in &list {
        let row: Vec<usize> = f
            .items()?
            .map(|n| n.index(nodes, "node"))
            .collect::<Result<_>>()?;
        if row.len() < 2 || out.first().is_some_and(|first| first.len() != row.len()) {
            return Err(f.err(
                crate::error::ErrorKind::Invalid,
                format!("a fold needs one node per joint of its pair (2 or more, as many as the first); {} given", row.len()),
            ));
        }
        out.push(row);
    }
    let angle = b.f32_or("foldFlatAngle", 0.0)?;
    if !(0.0..=core::f32::consts::PI).contains(&angle) {
        return Err(b.err(
            crate::error::ErrorKind::Invalid,
            format!("foldFlatAngle {angle} is outside 0..=π"),
        ));
    }
    Ok((out, angle))
}
