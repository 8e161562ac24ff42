//! TressFX `.tfxmesh` collision meshes: the body a groom was made on,
//! skinned to the same skeleton as its `.tfxbone`.
//!
//! A text file (the TressFX Maya exporter's; `#` lines are comments):
//! `numOfBones N` then `index name` per bone; `numOfVertices N` then
//! `index x y z nx ny nz j0 j1 j2 j3 w0 w1 w2 w3` per vertex (position,
//! normal, four joint indices into the bone list, four weights);
//! `numOfTriangles N` then `index v0 v1 v2` per triangle. Every line is
//! checked (count, order, numbers, indices in range) and errors name the
//! line ([`GroomError::Parse`]).
//!
//! Read only: the strand solver collides with spheres, capsules and
//! planes, not triangles, so the mesh is not a collider here
//! (`docs/STRANDS.md`).

use super::GroomError;
use glam::Vec3;

/// One skinned vertex.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MeshVertex {
    /// Position, file units.
    pub pos: Vec3,
    /// Normal as written (not renormalised).
    pub normal: Vec3,
    /// (bone index, weight) pairs as written; unused slots weigh 0.
    pub weights: [(u32, f32); 4],
}

/// A `.tfxmesh` file.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TfxMesh {
    /// Bone names by index.
    pub bones: Vec<String>,
    /// Vertices by index.
    pub vertices: Vec<MeshVertex>,
    /// Triangles as vertex indices.
    pub triangles: Vec<[u32; 3]>,
}

impl TfxMesh {
    /// Axis-aligned bounds `(min, max)` of the vertices; `None` when empty.
    #[must_use]
    pub fn bounds(&self) -> Option<(Vec3, Vec3)> {
        let first = self.vertices.first()?.pos;
        Some(
            self.vertices
                .iter()
                .fold((first, first), |(lo, hi), v| (lo.min(v.pos), hi.max(v.pos))),
        )
    }
}

/// Lines with their 1-based numbers, comments and blank lines skipped.
struct Lines<'a> {
    it: core::iter::Enumerate<core::str::Lines<'a>>,
    /// The last line number handed out (or reached at the end).
    at: usize,
}

impl<'a> Lines<'a> {
    fn next(&mut self, what: &str) -> Result<(usize, Vec<&'a str>), GroomError> {
        for (i, l) in self.it.by_ref() {
            self.at = i + 1;
            let t = l.trim();
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            return Ok((i + 1, t.split_whitespace().collect()));
        }
        Err(GroomError::Parse {
            line: self.at + 1,
            message: format!("the file ends before {what}"),
        })
    }

    /// A `key N` header line.
    fn count(&mut self, key: &str) -> Result<usize, GroomError> {
        let (line, f) = self.next(key)?;
        match f.as_slice() {
            [k, n] if *k == key => n.parse().map_err(|_| GroomError::Parse {
                line,
                message: format!("{key} `{n}` is not a count"),
            }),
            _ => Err(GroomError::Parse {
                line,
                message: format!("expected `{key} N`, found `{}`", f.join(" ")),
            }),
        }
    }

    /// A data line of exactly `n` fields that starts with its index `i`.
    fn row(&mut self, what: &str, i: usize, n: usize) -> Result<(usize, Vec<&'a str>), GroomError> {
        let (line, f) = self.next(&format!("{what} {i}"))?;
        let bad = |message: String| GroomError::Parse { line, message };
        if f.len() != n {
            return Err(bad(format!(
                "{what} {i} has {} fields, expected {n}",
                f.len()
            )));
        }
        if f[0].parse::<usize>().ok() != Some(i) {
            return Err(bad(format!("{what} {i} is listed as `{}`", f[0])));
        }
        Ok((line, f))
    }
}

fn num<T: core::str::FromStr>(line: usize, what: &str, s: &str) -> Result<T, GroomError> {
    s.parse().map_err(|_| GroomError::Parse {
        line,
        message: format!("{what} `{s}` is not a number"),
    })
}

fn real(line: usize, what: &str, s: &str) -> Result<f32, GroomError> {
    let v: f32 = num(line, what, s)?;
    if v.is_finite() {
        Ok(v)
    } else {
        Err(GroomError::Parse {
            line,
            message: format!("{what} `{s}` is not finite"),
        })
    }
}

/// Most entries of any section: 4× Ratboy's 25,814 triangles is far
/// below it; a count past it is a corrupt header, refused before reading.
const MAX_ENTRIES: usize = 10_000_000;

/// Parses `.tfxmesh` text.
///
/// # Errors
/// [`GroomError::Parse`] naming the line: a missing or malformed
/// `numOf…` header, a count over ten million, a row with the wrong field
/// count or index, a value that is not a finite number, a negative
/// weight, a joint index past the bones (with weight > 0), a triangle
/// vertex past the vertices, text after the last triangle, or the file
/// ending early.
pub fn read_tfxmesh(text: &str) -> Result<TfxMesh, GroomError> {
    let mut r = Lines {
        it: text.lines().enumerate(),
        at: 0,
    };
    let capped = |r: &Lines<'_>, key: &str, n: usize| {
        if n > MAX_ENTRIES {
            Err(GroomError::Parse {
                line: r.at,
                message: format!("{key} {n} is over {MAX_ENTRIES}"),
            })
        } else {
            Ok(n)
        }
    };
    let n_bones = r.count("numOfBones")?;
    let n_bones = capped(&r, "numOfBones", n_bones)?;
    let mut bones = Vec::with_capacity(n_bones);
    for i in 0..n_bones {
        let (_, f) = r.row("bone", i, 2)?;
        bones.push(f[1].to_owned());
    }
    let n_verts = r.count("numOfVertices")?;
    let n_verts = capped(&r, "numOfVertices", n_verts)?;
    let mut vertices = Vec::with_capacity(n_verts);
    for i in 0..n_verts {
        let (line, f) = r.row("vertex", i, 15)?;
        let mut v = [0.0f32; 6];
        for (k, out) in v.iter_mut().enumerate() {
            *out = real(line, "coordinate", f[1 + k])?;
        }
        let mut weights = [(0u32, 0.0f32); 4];
        for (k, slot) in weights.iter_mut().enumerate() {
            let joint: u32 = num(line, "joint index", f[7 + k])?;
            let w = real(line, "weight", f[11 + k])?;
            if w < 0.0 {
                return Err(GroomError::Parse {
                    line,
                    message: format!("vertex {i} has weight {w}"),
                });
            }
            if w > 0.0 && joint as usize >= n_bones {
                return Err(GroomError::Parse {
                    line,
                    message: format!(
                        "vertex {i} weighs joint {joint}; the file has {n_bones} bones"
                    ),
                });
            }
            *slot = (joint, w);
        }
        vertices.push(MeshVertex {
            pos: Vec3::new(v[0], v[1], v[2]),
            normal: Vec3::new(v[3], v[4], v[5]),
            weights,
        });
    }
    let n_tris = r.count("numOfTriangles")?;
    let n_tris = capped(&r, "numOfTriangles", n_tris)?;
    let mut triangles = Vec::with_capacity(n_tris);
    for i in 0..n_tris {
        let (line, f) = r.row("triangle", i, 4)?;
        let mut t = [0u32; 3];
        for (k, out) in t.iter_mut().enumerate() {
            *out = num(line, "vertex index", f[1 + k])?;
            if *out as usize >= n_verts {
                return Err(GroomError::Parse {
                    line,
                    message: format!("triangle {i} names vertex {out}; the file has {n_verts}"),
                });
            }
        }
        triangles.push(t);
    }
    if let Ok((line, f)) = r.next("the end") {
        return Err(GroomError::Parse {
            line,
            message: format!("`{}` after the last triangle", f.join(" ")),
        });
    }
    Ok(TfxMesh {
        bones,
        vertices,
        triangles,
    })
}

/// Reads a `.tfxmesh` file from disk.
///
/// # Errors
/// [`GroomError::Io`], [`GroomError::Parse`] for text that is not UTF-8,
/// and as [`read_tfxmesh`].
pub fn load_tfxmesh(path: impl AsRef<std::path::Path>) -> Result<TfxMesh, GroomError> {
    let bytes = std::fs::read(path)?;
    let text = String::from_utf8(bytes).map_err(|e| GroomError::Parse {
        line: 1,
        message: format!("not UTF-8 text (byte {})", e.utf8_error().valid_up_to()),
    })?;
    read_tfxmesh(&text)
}

/// `NAME.tfxmesh` beside a groom file is not the convention (Ratboy's is
/// `Ratboy_body.tfxmesh` beside `Ratboy_mohawk.tfx`): every `.tfxmesh` in
/// the groom's folder, sorted.
#[must_use]
pub fn tfxmesh_beside(groom_path: &std::path::Path) -> Vec<std::path::PathBuf> {
    let dir = groom_path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or_else(|| std::path::Path::new("."));
    let mut out: Vec<_> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "tfxmesh"))
        .collect();
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "# a comment\nnumOfBones 2\n0 hips\n1 head\n\
        numOfVertices 3\n\
        0 0 0 0 0 1 0 0 1 0 0 0.5 0.5 0 0\n\
        1 1 0 0 0 1 0 1 0 0 0 1 0 0 0\n\
        2 0 1 0 0 1 0 0 0 0 0 1 0 0 0\n\
        numOfTriangles 1\n# tri\n0 0 1 2\n";

    #[test]
    fn reads_bones_vertices_and_triangles() {
        let m = read_tfxmesh(GOOD).unwrap();
        assert_eq!(m.bones, ["hips", "head"]);
        assert_eq!(m.vertices.len(), 3);
        assert_eq!(m.vertices[0].weights[..2], [(0, 0.5), (1, 0.5)]);
        assert_eq!(m.vertices[1].pos, Vec3::X);
        assert_eq!(m.triangles, [[0, 1, 2]]);
        assert_eq!(m.bounds(), Some((Vec3::ZERO, Vec3::new(1.0, 1.0, 0.0))));
    }

    #[test]
    fn bad_files_name_the_line() {
        let cases = [
            (
                GOOD.replace("numOfBones 2", "bones 2"),
                "line 2: expected `numOfBones N`, found `bones 2`",
            ),
            (
                GOOD.replace("1 head", "3 head"),
                "line 4: bone 1 is listed as `3`",
            ),
            (
                GOOD.replace("1 1 0 0 0 1 0 1 0 0 0 1 0 0 0", "1 1 0 0"),
                "line 7: vertex 1 has 4 fields, expected 15",
            ),
            (
                GOOD.replace("2 0 1 0 0 1", "2 0 nan 0 0 1"),
                "line 8: coordinate `nan` is not finite",
            ),
            (
                GOOD.replace("1 0 1 0 0 0 1 0", "1 0 7 0 0 0 1 0"),
                "line 7: vertex 1 weighs joint 7; the file has 2 bones",
            ),
            (
                GOOD.replace("0 0 1 2", "0 0 1 5"),
                "line 11: triangle 0 names vertex 5; the file has 3",
            ),
            (
                GOOD.replace("0 0 1 2\n", ""),
                "line 11: the file ends before triangle 0",
            ),
            (
                format!("{GOOD}9 9 9 9\n"),
                "line 12: `9 9 9 9` after the last triangle",
            ),
            (
                "numOfBones 99999999999\n".to_owned(),
                "line 1: numOfBones 99999999999 is over 10000000",
            ),
        ];
        for (text, want) in cases {
            let e = read_tfxmesh(&text).unwrap_err();
            assert_eq!(e.to_string(), want);
        }
        // Every prefix is an error or a shorter valid file, never a panic.
        for cut in 0..GOOD.len() {
            let _ = read_tfxmesh(&GOOD[..cut]);
        }
    }
}
