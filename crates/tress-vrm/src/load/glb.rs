//! The GLB container, read by our own code so that every fault names the
//! byte offset and the expected and found lengths (the `gltf` crate's
//! reader says only "could not completely read the object").
//!
//! Layout (glTF 2.0 §4.4): a 12-byte header (`glTF`, version 2, total
//! length), then chunks of `u32 length, u32 type, data`; the first chunk is
//! `JSON`, an optional second is `BIN\0`, and chunks of other types are
//! skipped as the specification asks.

use crate::error::{Error, ErrorKind, Result};

const HEADER: usize = 12;
const CHUNK_HEADER: usize = 8;
const JSON: u32 = u32::from_le_bytes(*b"JSON");
const BIN: u32 = u32::from_le_bytes(*b"BIN\0");

/// The chunks of a GLB file, borrowed from its bytes.
#[derive(Debug)]
pub(crate) struct Glb<'a> {
    pub json: &'a [u8],
    pub bin: Option<&'a [u8]>,
    /// Tolerated oddities (bytes after the declared length), for the warnings.
    pub notes: Vec<String>,
}

fn container(msg: String) -> Error {
    Error::new(ErrorKind::Container, "", msg)
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

/// A chunk type as text when it is printable (`JSON`, `BIN\0`), else hex.
fn chunk_name(t: u32) -> String {
    let b = t.to_le_bytes();
    if b.iter().all(|&c| c == 0 || c.is_ascii_graphic()) {
        b.iter()
            .map(|&c| {
                if c == 0 {
                    "\\0".to_owned()
                } else {
                    char::from(c).to_string()
                }
            })
            .collect()
    } else {
        format!("0x{t:08x}")
    }
}

/// Splits a GLB file (which starts with `glTF`) into its chunks.
///
/// # Errors
/// [`ErrorKind::Container`] naming the byte offset of the field at fault and
/// the lengths expected and found.
pub(crate) fn split(bytes: &[u8]) -> Result<Glb<'_>> {
    let found = bytes.len();
    if found < HEADER {
        return Err(container(format!(
            "GLB header at byte 0: expected {HEADER} bytes, found {found}"
        )));
    }
    let version = u32_at(bytes, 4);
    if version != 2 {
        return Err(container(format!(
            "GLB version at byte 4 is {version}, expected 2"
        )));
    }
    let declared = u32_at(bytes, 8) as usize;
    let mut notes = Vec::new();
    if declared > found {
        return Err(container(format!(
            "file truncated: the GLB header (byte 8) declares {declared} bytes, found {found}"
        )));
    }
    if declared < found {
        notes.push(format!(
            "the GLB header (byte 8) declares {declared} bytes but the file has {found}; the {} bytes after are ignored",
            found - declared
        ));
    }
    let bytes = &bytes[..declared];
    let mut at = HEADER;
    let mut json = None;
    let mut bin = None;
    let mut index = 0usize;
    while at < declared {
        let left = declared - at;
        if left < CHUNK_HEADER {
            return Err(container(format!(
                "chunk {index} header at byte {at}: expected {CHUNK_HEADER} bytes, found {left}"
            )));
        }
        let len = u32_at(bytes, at) as usize;
        let kind = u32_at(bytes, at + 4);
        let data_at = at + CHUNK_HEADER;
        let avail = declared - data_at;
        if len > avail {
            return Err(container(format!(
                "chunk {index} ({}) at byte {at} declares {len} bytes of data from byte {data_at}, found {avail}",
                chunk_name(kind)
            )));
        }
        let data = &bytes[data_at..data_at + len];
        match (index, kind) {
            (0, JSON) => json = Some(data),
            (0, other) => {
                return Err(container(format!(
                    "chunk 0 at byte {at} is `{}`, expected `JSON`",
                    chunk_name(other)
                )));
            }
            (1, BIN) => bin = Some(data),
            _ => {}
        }
        at = data_at + len;
        index += 1;
    }
    let Some(json) = json else {
        return Err(container(format!(
            "no JSON chunk: expected a chunk header at byte {HEADER}, the file ends at byte {declared}"
        )));
    };
    Ok(Glb { json, bin, notes })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `glTF` v2 with a 4-byte JSON chunk `{}  ` and an 8-byte BIN chunk.
    fn tiny() -> Vec<u8> {
        let mut b = Vec::new();
        b.extend_from_slice(b"glTF");
        b.extend_from_slice(&2u32.to_le_bytes());
        b.extend_from_slice(&40u32.to_le_bytes());
        b.extend_from_slice(&4u32.to_le_bytes());
        b.extend_from_slice(b"JSON{}  ");
        b.extend_from_slice(&8u32.to_le_bytes());
        b.extend_from_slice(b"BIN\0");
        b.extend_from_slice(&[1, 2, 3, 4, 5, 6, 7, 8]);
        b
    }

    #[test]
    fn splits_json_and_bin() {
        let b = tiny();
        let g = split(&b).unwrap();
        assert_eq!(g.json, b"{}  ");
        assert_eq!(g.bin, Some(&[1u8, 2, 3, 4, 5, 6, 7, 8][..]));
        assert!(g.notes.is_empty());
    }

    /// Each fault names where and the lengths; the numbers follow from
    /// `tiny()`'s layout (header 0..12, JSON chunk header 12..20, data
    /// 20..24, BIN chunk header 24..32, data 32..40).
    #[test]
    fn faults_name_offset_and_lengths() {
        type Patch = fn(&mut Vec<u8>);
        #[rustfmt::skip]
        let cases: &[(&str, Patch, &str)] = &[
            ("short header", |b| b.truncate(7),
                "GLB header at byte 0: expected 12 bytes, found 7"),
            ("version 1", |b| b[4] = 1,
                "GLB version at byte 4 is 1, expected 2"),
            ("cut in the BIN data", |b| b.truncate(35),
                "file truncated: the GLB header (byte 8) declares 40 bytes, found 35"),
            ("BIN chunk longer than the file", |b| b[24] = 9,
                "chunk 1 (BIN\\0) at byte 24 declares 9 bytes of data from byte 32, found 8"),
            ("JSON chunk longer than the file", |b| b[12..16].copy_from_slice(&u32::MAX.to_le_bytes()),
                "chunk 0 (JSON) at byte 12 declares 4294967295 bytes of data from byte 20, found 20"),
            ("BIN first", |b| b[16..20].copy_from_slice(b"BIN\0"),
                "chunk 0 at byte 12 is `BIN\\0`, expected `JSON`"),
            ("half a chunk header", |b| { b.truncate(28); b[8] = 28; },
                "chunk 1 header at byte 24: expected 8 bytes, found 4"),
            ("no chunk", |b| { b.truncate(12); b[8] = 12; },
                "no JSON chunk: expected a chunk header at byte 12, the file ends at byte 12"),
        ];
        for (name, patch, want) in cases {
            let mut b = tiny();
            patch(&mut b);
            let e = split(&b).unwrap_err();
            assert_eq!(e.kind, ErrorKind::Container, "{name}");
            assert_eq!(e.message, *want, "{name}");
        }
    }

    #[test]
    fn bytes_after_the_declared_length_are_noted() {
        let mut b = tiny();
        b.extend_from_slice(&[0; 4]);
        let g = split(&b).unwrap();
        assert_eq!(g.bin.map(<[u8]>::len), Some(8));
        assert_eq!(
            g.notes,
            [
                "the GLB header (byte 8) declares 40 bytes but the file has 44; the 4 bytes after are ignored"
            ]
        );
    }
}
