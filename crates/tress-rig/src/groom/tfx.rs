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

use std::path::Path;

use glam::Vec3;

use super::{Groom, GroomError};

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
}

const V4_HEADER: u64 = 4 * 8 + 4 * 32;
const V3_VERTICES_OFFSET_AT: u64 = 4 * 5 + 4 * 31;

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
/// [`GroomError::BadCount`] or [`GroomError::NonFinite`].
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
    if needed > bytes.len() as u64 {
        return Err(GroomError::Truncated {
            what: "vertex positions",
            needed,
            available: bytes.len() as u64,
        });
    }
    let (strands, verts, offset, stride) = (
        strands as usize,
        verts as usize,
        offset as usize,
        stride as usize,
    );
    let mut groom = Groom::new();
    let mut buf = Vec::with_capacity(verts);
    for s in 0..strands {
        buf.clear();
        for v in 0..verts {
            let at = offset + (s * verts + v) * stride;
            let p = Vec3::new(
                f32_at(bytes, at),
                f32_at(bytes, at + 4),
                f32_at(bytes, at + 8),
            );
            if !p.is_finite() {
                return Err(GroomError::NonFinite {
                    strand: s,
                    vertex: v,
                });
            }
            buf.push(p);
        }
        groom.push_strand(&buf);
    }
    Ok(TfxGroom {
        groom,
        version,
        vertices_per_strand: verts,
        both_ends_immovable: both,
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
        let mut nan = good.clone();
        nan[160..164].copy_from_slice(&f32::NAN.to_le_bytes());
        assert!(matches!(read_tfx(&nan), Err(GroomError::NonFinite { .. })));
        let mut off = good;
        off[12..16].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(read_tfx(&off).is_err());
    }
}
