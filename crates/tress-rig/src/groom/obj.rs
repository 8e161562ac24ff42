//! OBJ polyline grooms: `v` vertices and `l` line elements.
//!
//! Each `l` element is a polyline (1-based or negative, relative indices).
//! Exporters write a strand either as one long `l` or as a run of two-point
//! `l`s (`l 1 2`, `l 2 3`, …); an element that starts where the current
//! strand ends continues it, anything else starts a new strand. Other
//! statements (`o`, `g`, `mtllib`, `f`, …) are ignored.

use std::path::Path;

use glam::Vec3;

use super::{Groom, GroomError};

/// Reads an OBJ polyline groom from disk.
///
/// # Errors
/// [`GroomError`] for I/O failures and malformed files.
pub fn load_obj(path: impl AsRef<Path>) -> Result<Groom, GroomError> {
    read_obj_bytes(&std::fs::read(path)?)
}

/// Parses OBJ bytes, which must be UTF-8 text.
///
/// # Errors
/// [`GroomError::Parse`] for text that is not UTF-8 (naming the line) and
/// everything [`read_obj`] reports.
pub fn read_obj_bytes(bytes: &[u8]) -> Result<Groom, GroomError> {
    let text = core::str::from_utf8(bytes).map_err(|e| GroomError::Parse {
        line: 1 + bytes[..e.valid_up_to()]
            .iter()
            .filter(|&&b| b == b'\n')
            .count(),
        message: "not UTF-8 text".into(),
    })?;
    read_obj(text)
}

fn parse_err(line: usize, message: impl Into<String>) -> GroomError {
    GroomError::Parse {
        line,
        message: message.into(),
    }
}

/// Parses OBJ text.
///
/// # Errors
/// [`GroomError::Parse`] for malformed numbers or indices,
/// [`GroomError::Empty`] when there is no polyline.
pub fn read_obj(text: &str) -> Result<Groom, GroomError> {
    let mut verts: Vec<Vec3> = Vec::new();
    let mut groom = Groom::new();
    let mut cur: Vec<u32> = Vec::new();
    let flush = |cur: &mut Vec<u32>, groom: &mut Groom, verts: &[Vec3]| {
        if cur.len() >= 2 {
            let pts: Vec<Vec3> = cur.iter().map(|&i| verts[i as usize]).collect();
            groom.push_strand(&pts);
        }
        cur.clear();
    };
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
                if cur.last() == idx.first() {
                    cur.extend_from_slice(&idx[1..]);
                } else {
                    flush(&mut cur, &mut groom, &verts);
                    cur = idx;
                }
            }
            _ => {}
        }
    }
    flush(&mut cur, &mut groom, &verts);
    if groom.strand_count() == 0 {
        return Err(GroomError::Empty);
    }
    Ok(groom)
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
}
