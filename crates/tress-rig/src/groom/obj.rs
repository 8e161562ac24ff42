//! OBJ polyline grooms: `v` vertices and `l` line elements.
//!
//! Each `l` element is a polyline (1-based or negative, relative indices).
//! Exporters write a strand either as one long `l` or as a run of two-point
//! `l`s (`l 1 2`, `l 2 3`, …); an element that starts where the current
//! strand ends continues it, anything else starts a new strand. Other
//! statements (`o`, `g`, `mtllib`, `f`, …) are ignored. A polyline of no
//! length (its points coincide) is skipped with a [`GroomWarning`] naming
//! its strand index and line.

use std::path::Path;

use glam::Vec3;

use super::resample::degeneracy;
use super::{Groom, GroomError, GroomWarning};

/// Reads an OBJ polyline groom from disk.
///
/// # Errors
/// [`GroomError`] for I/O failures and malformed files.
pub fn load_obj(path: impl AsRef<Path>) -> Result<Groom, GroomError> {
    read_obj_bytes(&std::fs::read(path)?)
}

/// Parses OBJ bytes, which must be UTF-8 text; skipped strands are
/// dropped silently (see [`read_obj_bytes_with_warnings`]).
///
/// # Errors
/// As [`read_obj_bytes_with_warnings`].
pub fn read_obj_bytes(bytes: &[u8]) -> Result<Groom, GroomError> {
    read_obj_bytes_with_warnings(bytes).map(|(g, _)| g)
}

/// Parses OBJ bytes, which must be UTF-8 text, and lists the strands skipped.
///
/// # Errors
/// [`GroomError::Parse`] for text that is not UTF-8 (naming the line) and
/// everything [`read_obj_with_warnings`] reports.
pub fn read_obj_bytes_with_warnings(
    bytes: &[u8],
) -> Result<(Groom, Vec<GroomWarning>), GroomError> {
    let text = core::str::from_utf8(bytes).map_err(|e| GroomError::Parse {
        line: 1 + bytes[..e.valid_up_to()]
            .iter()
            .filter(|&&b| b == b'\n')
            .count(),
        message: "not UTF-8 text".into(),
    })?;
    read_obj_with_warnings(text)
}

fn parse_err(line: usize, message: impl Into<String>) -> GroomError {
    GroomError::Parse {
        line,
        message: message.into(),
    }
}

/// Parses OBJ text; skipped strands are dropped silently (see
/// [`read_obj_with_warnings`]).
///
/// # Errors
/// As [`read_obj_with_warnings`].
pub fn read_obj(text: &str) -> Result<Groom, GroomError> {
    read_obj_with_warnings(text).map(|(g, _)| g)
}

/// The strand being gathered: its vertex indices and the line it began on.
#[derive(Debug, Default)]
struct Pending {
    indices: Vec<u32>,
    line: usize,
}

/// Builds OBJ grooms strand by strand, skipping degenerate ones.
#[derive(Debug, Default)]
struct Builder {
    groom: Groom,
    warnings: Vec<GroomWarning>,
    strands: usize,
}

impl Builder {
    fn flush(&mut self, cur: &mut Pending, verts: &[Vec3]) {
        if cur.indices.len() >= 2 {
            let pts: Vec<Vec3> = cur.indices.iter().map(|&i| verts[i as usize]).collect();
            match degeneracy(&pts) {
                Some(reason) => self.warnings.push(GroomWarning {
                    strand: self.strands,
                    line: Some(cur.line),
                    reason,
                }),
                None => self.groom.push_strand(&pts),
            }
            self.strands += 1;
        }
        cur.indices.clear();
    }
}

/// Parses OBJ text and lists the strands skipped as degenerate.
///
/// # Errors
/// [`GroomError::Parse`] for malformed numbers or indices (a non-finite
/// vertex included), [`GroomError::Empty`] when there is no polyline,
/// [`GroomError::AllDegenerate`] when every polyline is degenerate.
pub fn read_obj_with_warnings(text: &str) -> Result<(Groom, Vec<GroomWarning>), GroomError> {
    let mut verts: Vec<Vec3> = Vec::new();
    let mut out = Builder {
        groom: Groom::new(),
        ..Builder::default()
    };
    let mut cur = Pending::default();
    for (n, line) in text.lines().enumerate() {
        let line_no = n + 1;
        let mut it = line.split_whitespace();
        match it.next() {
            Some("v") => {
                let mut c = [0.0f32; 3];
                for slot in &mut c {
                    let tok = it
                        .next()
                        .ok_or_else(|| parse_err(line_no, "vertex needs three coordinates"))?;
                    *slot = tok
                        .parse()
                        .map_err(|_| parse_err(line_no, format!("bad coordinate {tok:?}")))?;
                }
                let p = Vec3::from(c);
                if !p.is_finite() {
                    return Err(parse_err(line_no, "vertex is not finite"));
                }
                verts.push(p);
            }
            Some("l") => {
                let mut idx = Vec::new();
                for tok in it {
                    // `l v/vt` pairs: only the vertex index matters.
                    let v = tok.split('/').next().unwrap_or(tok);
                    let i: i64 = v
                        .parse()
                        .map_err(|_| parse_err(line_no, format!("bad index {tok:?}")))?;
                    let abs = if i > 0 {
                        i - 1
                    } else if i < 0 {
                        verts.len() as i64 + i
                    } else {
                        -1
                    };
                    if abs < 0 || abs >= verts.len() as i64 {
                        return Err(parse_err(
                            line_no,
                            format!("index {i} outside the {} vertices so far", verts.len()),
                        ));
                    }
                    idx.push(abs as u32);
                }
                if idx.len() < 2 {
                    return Err(parse_err(line_no, "line element needs two indices"));
                }
                if cur.indices.last() == idx.first() {
                    cur.indices.extend_from_slice(&idx[1..]);
                } else {
                    out.flush(&mut cur, &verts);
                    cur = Pending {
                        indices: idx,
                        line: line_no,
                    };
                }
            }
            _ => {}
        }
    }
    out.flush(&mut cur, &verts);
    if out.groom.strand_count() == 0 {
        return Err(match out.warnings.into_iter().next() {
            Some(first) => GroomError::AllDegenerate {
                strands: out.strands,
                first,
            },
            None => GroomError::Empty,
        });
    }
    Ok((out.groom, out.warnings))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chains_two_point_lines_and_splits_strands() {
        let text = "o hair\nv 0 0 0\nv 0 -1 0\nv 0 -2 0\nv 1 0 0\nv 1 -1 0\n\
                    l 1 2\nl 2 3\nl 4 5\n";
        let g = read_obj(text).unwrap();
        assert_eq!(g.strand_count(), 2);
        assert_eq!(g.strand(0).len(), 3);
        assert_eq!(g.strand(1), &[Vec3::X, Vec3::new(1.0, -1.0, 0.0)]);
        // One polyline element, negative indices.
        let g = read_obj("v 0 0 0\nv 0 1 0\nv 0 2 0\nl -3 -2 -1\n").unwrap();
        assert_eq!(g.strand(0).len(), 3);
    }

    #[test]
    fn bad_files_name_the_line() {
        assert!(matches!(
            read_obj("v 0 0 0\nl 1 9\n"),
            Err(GroomError::Parse { line: 2, .. })
        ));
        assert!(matches!(
            read_obj("v 0 zero 0\n"),
            Err(GroomError::Parse { line: 1, .. })
        ));
        assert!(matches!(read_obj("v 0 0 0\n"), Err(GroomError::Empty)));
    }

    /// A polyline whose points coincide is skipped and named by strand and
    /// line; a groom of nothing else is an error.
    #[test]
    fn degenerate_polylines_are_skipped_with_a_warning() {
        let text = "v 0 0 0\nv 0 -1 0\nv 1 0 0\nv 1 0 0\nl 1 2\nl 3 4\nl 4 3\nl 2 1\n";
        let (g, w) = read_obj_with_warnings(text).unwrap();
        // `l 3 4` then `l 4 3` chain into one strand of three coincident points.
        assert_eq!(g.strand_count(), 2);
        let w: Vec<String> = w.iter().map(ToString::to_string).collect();
        assert_eq!(
            w,
            ["strand 1 (line 6) has zero length: all 3 points coincide; skipped"]
        );
        let e = read_obj("v 1 0 0\nv 1 0 0\nl 1 2\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "all 1 strands are degenerate, none left to simulate (first: strand 0 (line 3) has zero length: all 2 points coincide; skipped)"
        );
    }
}
