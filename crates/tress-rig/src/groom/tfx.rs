//! TressFX `.tfx` reader: version 4 (float4 positions) and version 3 (float3).
//!
//! Layouts as in AMD's TressFX `TressFXFileFormat.h` (MIT), read with our own
//! code, little-endian:
//! - v4 header (160 bytes): `f32 version; u32 numHairStrands,
//!   numVerticesPerStrand, offsetVertexPosition, offsetStrandUV,
//!   offsetVertexUV, offsetStrandThickness, offsetVertexColor; u32
//!   reserved[32]`; positions are `float4` (w = inverse mass) at
//!   `offsetVertexPosition`.
//! - v3 header: `f32 version; u32 numGuideHairStrands, numVerticesPerStrand,
//!   numFollowHairsPerGuideHair; u32 bothEndsImmovable; u32 reserved1[31];
//!   u32 verticesOffset, …` — positions are `float3` at `verticesOffset`
//!   (byte 144 of the header).
//!
//! Every count is checked against the file size before anything is
//! allocated, so a corrupt header gives an error, never a huge allocation.
//! The positions must fill their block exactly: up to the next section the
//! header names (v4 `offsetStrandUV`…, AMD's Ratboy has strand UVs right
//! after them) or to the end of the file; a count that is off by one would
//! otherwise read every strand shifted. Degenerate strands (a non-finite
//! point, or all points coincident) are skipped with a [`GroomWarning`].

use std::path::Path;

use glam::Vec3;

use super::resample::degeneracy;
use super::{Groom, GroomError, GroomWarning};

/// A groom read from a `.tfx` file.
#[derive(Debug, Clone, PartialEq)]
pub struct TfxGroom {
    /// The strands, file units and axes.
    pub groom: Groom,
    /// File format version (3 or 4).
    pub version: u32,
    /// Vertices per strand in the file.
    pub vertices_per_strand: usize,
    /// v3 only: the file asks for both ends to be pinned (we pin the root only).
    pub both_ends_immovable: bool,
    /// Strands skipped as degenerate, in file order.
    pub warnings: Vec<GroomWarning>,
}

const V4_HEADER: u64 = 4 * 8 + 4 * 32;
const V3_VERTICES_OFFSET_AT: u64 = 4 * 5 + 4 * 31;
/// The v4 section offsets after `offsetVertexPosition`.
const V4_SECTIONS_AT: [u64; 4] = [16, 20, 24, 28];
/// v3: the offsets that follow `verticesOffset` (tangents, …); AMD's v3
/// files leave them 0.
const V3_SECTIONS_AT: core::ops::Range<u64> =
    V3_VERTICES_OFFSET_AT + 4..V3_VERTICES_OFFSET_AT + 4 + 4 * 11;

fn u32_at(b: &[u8], at: u64, what: &'static str) -> Result<u32, GroomError> {
    let at = usize::try_from(at).map_err(|_| GroomError::BadCount { what, value: at })?;
    let bytes = b.get(at..at + 4).ok_or(GroomError::Truncated {
        what,
        needed: at as u64 + 4,
        available: b.len() as u64,
    })?;
    Ok(u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]))
}

fn f32_at(b: &[u8], at: usize) -> f32 {
    f32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

/// Reads a `.tfx` file from disk.
///
/// # Errors
/// [`GroomError`] for I/O failures and malformed files.
pub fn load_tfx(path: impl AsRef<Path>) -> Result<TfxGroom, GroomError> {
    read_tfx(&std::fs::read(path)?)
}

/// Parses `.tfx` bytes.
///
/// # Errors
/// [`GroomError::Truncated`], [`GroomError::UnsupportedVersion`],
/// [`GroomError::BadCount`], [`GroomError::CountMismatch`] (the counts do
/// not fill the positions' bytes) or [`GroomError::AllDegenerate`].
pub fn read_tfx(bytes: &[u8]) -> Result<TfxGroom, GroomError> {
    if bytes.len() < 12 {
        return Err(GroomError::Truncated {
            what: "TressFX header",
            needed: 12,
            available: bytes.len() as u64,
        });
    }
    let version = f32_at(bytes, 0);
    let strands = u64::from(u32_at(bytes, 4, "strand count")?);
    let verts = u64::from(u32_at(bytes, 8, "vertices per strand")?);
    let (version, offset, stride, both) = if version == 4.0 {
        if (bytes.len() as u64) < V4_HEADER {
            return Err(GroomError::Truncated {
                what: "TressFX 4 header",
                needed: V4_HEADER,
                available: bytes.len() as u64,
            });
        }
        (
            4,
            u64::from(u32_at(bytes, 12, "vertex offset")?),
            16u64,
            false,
        )
    } else if version == 3.0 {
        let both = u32_at(bytes, 16, "bothEndsImmovable")? != 0;
        let off = u64::from(u32_at(bytes, V3_VERTICES_OFFSET_AT, "vertex offset")?);
        (3, off, 12u64, both)
    } else {
        return Err(GroomError::UnsupportedVersion(version));
    };
    if strands == 0 {
        return Err(GroomError::BadCount {
            what: "strand count",
            value: 0,
        });
    }
    if verts < 2 {
        return Err(GroomError::BadCount {
            what: "vertices per strand",
            value: verts,
        });
    }
    // Bound the counts by the file before allocating anything.
    let needed = strands
        .checked_mul(verts)
        .and_then(|n| n.checked_mul(stride))
        .and_then(|n| n.checked_add(offset))
        .ok_or(GroomError::BadCount {
            what: "strand count × vertices per strand",
            value: strands.saturating_mul(verts),
        })?;
    let len = bytes.len() as u64;
    if needed > len {
        return Err(GroomError::Truncated {
            what: "vertex positions",
            needed,
            available: len,
        });
    }
    // Where the positions end: the nearest later section, else the file's end.
    let later: Vec<u64> = if version == 4 {
        V4_SECTIONS_AT.to_vec()
    } else {
        V3_SECTIONS_AT.step_by(4).collect()
    };
    let mut end = (len, "the end of the file");
    for at in later {
        if at + 4 <= len {
            let o = u64::from(u32_at(bytes, at, "section offset")?);
            if o > offset && o < end.0 {
                end = (o, "the next section's offset");
            }
        }
    }
    let expected = needed - offset;
    let found = end.0 - offset;
    if expected != found {
        return Err(GroomError::CountMismatch {
            strands,
            vertices: verts,
            offset,
            expected,
            found,
            until: end.1,
        });
    }
    let (strands, verts, offset, stride) = (
        strands as usize,
        verts as usize,
        offset as usize,
        stride as usize,
    );
    let mut groom = Groom::new();
    let mut warnings = Vec::new();
    let mut buf = Vec::with_capacity(verts);
    for s in 0..strands {
        buf.clear();
        for v in 0..verts {
            let at = offset + (s * verts + v) * stride;
            buf.push(Vec3::new(
                f32_at(bytes, at),
                f32_at(bytes, at + 4),
                f32_at(bytes, at + 8),
            ));
        }
        match degeneracy(&buf) {
            Some(reason) => warnings.push(GroomWarning {
                strand: s,
                line: None,
                reason,
            }),
            None => groom.push_strand(&buf),
        }
    }
    if groom.strand_count() == 0 {
        return Err(GroomError::AllDegenerate {
            strands,
            first: warnings.swap_remove(0),
        });
    }
    Ok(TfxGroom {
        groom,
        version,
        vertices_per_strand: verts,
        both_ends_immovable: both,
        warnings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A v4 file with `strands × verts` positions at (strand, vertex, 0).
    fn v4(strands: u32, verts: u32) -> Vec<u8> {
        let mut b = Vec::new();
        b.extend_from_slice(&4.0f32.to_le_bytes());
        b.extend_from_slice(&strands.to_le_bytes());
        b.extend_from_slice(&verts.to_le_bytes());
        b.extend_from_slice(&160u32.to_le_bytes());
        b.resize(160, 0);
        for s in 0..strands {
            for v in 0..verts {
                for c in [s as f32, v as f32, 0.0, 1.0] {
                    b.extend_from_slice(&c.to_le_bytes());
                }
            }
        }
        b
    }

    #[test]
    fn reads_a_synthetic_v4_file() {
        let t = read_tfx(&v4(3, 4)).unwrap();
        assert_eq!(t.version, 4);
        assert_eq!(t.groom.strand_count(), 3);
        assert_eq!(t.groom.strand(2)[3], Vec3::new(2.0, 3.0, 0.0));
    }

    /// Byte offset of strand `s` vertex `v` component `c` in `v4(_, 4)`.
    fn at(s: usize, v: usize, c: usize) -> usize {
        160 + ((s * 4 + v) * 4 + c) * 4
    }

    /// Each bad header or strand, built from `v4(3, 4)` (positions 160..352),
    /// and the exact message, naming counts, offsets and strands.
    #[test]
    fn bad_counts_and_strands_say_where() {
        type Patch = fn(&mut Vec<u8>);
        #[rustfmt::skip]
        let cases: &[(&str, Patch, &str)] = &[
            ("strand count one short", |b| b[4] = 2,
                "header counts (2 strands × 4 vertices) need 128 bytes of positions from byte 160, found 192 (to the end of the file)"),
            ("vertices per strand one short", |b| b[8] = 3,
                "header counts (3 strands × 3 vertices) need 144 bytes of positions from byte 160, found 192 (to the end of the file)"),
            ("strand count one over", |b| b[4] = 4,
                "groom truncated: vertex positions needs 416 bytes, only 352 present"),
            ("a section after fewer positions", |b| b[16..20].copy_from_slice(&288u32.to_le_bytes()),
                "header counts (3 strands × 4 vertices) need 192 bytes of positions from byte 160, found 128 (to the next section's offset)"),
            ("every strand zero length", |b| {
                    for s in 0..3 { for v in 0..4 { for c in 0..3 {
                        b[at(s, v, c)..at(s, v, c) + 4].copy_from_slice(&0f32.to_le_bytes());
                    } } }
                },
                "all 3 strands are degenerate, none left to simulate (first: strand 0 has zero length: all 4 points coincide; skipped)"),
        ];
        for (name, patch, want) in cases {
            let mut b = v4(3, 4);
            patch(&mut b);
            let e = read_tfx(&b).unwrap_err();
            assert_eq!(e.to_string(), *want, "{name}");
        }
    }

    /// A zero-length or non-finite strand is skipped, named, and the rest loads.
    #[test]
    fn degenerate_strands_are_skipped_with_a_warning() {
        let mut b = v4(3, 4);
        // Strand 1: every point at (1, 0, 0) (x is the strand index, y the vertex).
        for v in 0..4 {
            b[at(1, v, 1)..at(1, v, 1) + 4].copy_from_slice(&0f32.to_le_bytes());
        }
        b[at(2, 3, 2)..at(2, 3, 2) + 4].copy_from_slice(&f32::NAN.to_le_bytes());
        let t = read_tfx(&b).unwrap();
        assert_eq!(t.groom.strand_count(), 1);
        assert_eq!(t.groom.strand(0)[3], Vec3::new(0.0, 3.0, 0.0));
        let w: Vec<String> = t.warnings.iter().map(ToString::to_string).collect();
        assert_eq!(
            w,
            [
                "strand 1 has zero length: all 4 points coincide; skipped",
                "strand 2 vertex 3 is not finite ([2, 3, NaN]); skipped",
            ]
        );
    }

    #[test]
    fn corrupt_files_are_errors_not_panics() {
        let good = v4(3, 4);
        // Truncated anywhere.
        for cut in [0, 5, 11, 100, 159, 170, good.len() - 1] {
            assert!(read_tfx(&good[..cut]).is_err(), "cut at {cut}");
        }
        // Absurd strand count: refused before allocating.
        let mut huge = good.clone();
        huge[4..8].copy_from_slice(&u32::MAX.to_le_bytes());
        huge[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(matches!(
            read_tfx(&huge),
            Err(GroomError::BadCount { .. } | GroomError::Truncated { .. })
        ));
        huge[8..12].copy_from_slice(&1000u32.to_le_bytes());
        assert!(matches!(read_tfx(&huge), Err(GroomError::Truncated { .. })));
        // Unknown version, NaN position, offset past the end.
        let mut bad = good.clone();
        bad[0..4].copy_from_slice(&7.5f32.to_le_bytes());
        assert!(matches!(
            read_tfx(&bad),
            Err(GroomError::UnsupportedVersion(_))
        ));
        let mut off = good;
        off[12..16].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(read_tfx(&off).is_err());
    }
}
