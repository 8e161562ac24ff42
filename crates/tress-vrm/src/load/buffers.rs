//! Buffers, buffer views and accessors, bounds-checked before any allocation.

use alloc::borrow::Cow;
use std::path::Path;

use crate::error::{Error, ErrorKind, Result};
use crate::json::J;

/// Reads one external buffer: given the buffer's `uri`, percent-decoded and
/// known to stay inside the model's folder (no `..`, not absolute, no
/// scheme), returns its bytes or says why it cannot.
pub(crate) type BufferResolver<'r> = dyn FnMut(&str) -> core::result::Result<Vec<u8>, String> + 'r;

/// Accessors without a bufferView are all zeros; cap how many such
/// components one may ask for so a claimed huge count cannot allocate gigabytes.
const MAX_VIRTUAL_ELEMENTS: usize = 1 << 22;

/// Decoded components allowed per byte of buffer data, plus a fixed floor:
/// many references to one large accessor cannot multiply memory without bound.
const DECODE_BUDGET_PER_BYTE: usize = 16;
const DECODE_BUDGET_FLOOR: usize = 1 << 24;

#[derive(Debug)]
pub(crate) struct View {
    buffer: usize,
    offset: usize,
    length: usize,
    stride: Option<usize>,
}

/// The binary side of a document.
#[derive(Debug)]
pub(crate) struct Data<'a> {
    buffers: Vec<Cow<'a, [u8]>>,
    views: Vec<View>,
    accessors: Vec<J<'a>>,
    /// Components that may still be decoded (see [`DECODE_BUDGET_PER_BYTE`]).
    budget: core::cell::Cell<usize>,
}

/// How to read an accessor's components.
#[derive(Debug, Clone, Copy)]
struct Layout {
    comp: u32,
    comp_size: usize,
    ncomp: usize,
    normalized: bool,
}

fn comp_size(comp: u32) -> Option<usize> {
    match comp {
        5120 | 5121 => Some(1),
        5122 | 5123 => Some(2),
        5125 | 5126 => Some(4),
        _ => None,
    }
}

fn type_components(t: &str) -> Option<usize> {
    match t {
        "SCALAR" => Some(1),
        "VEC2" => Some(2),
        "VEC3" => Some(3),
        "VEC4" | "MAT2" => Some(4),
        "MAT3" => Some(9),
        "MAT4" => Some(16),
        _ => None,
    }
}

fn read_comp_f32(b: &[u8], comp: u32, normalized: bool) -> f32 {
    match comp {
        5126 => f32::from_le_bytes([b[0], b[1], b[2], b[3]]),
        5121 => {
            let v = f32::from(b[0]);
            if normalized { v / 255.0 } else { v }
        }
        5120 => {
            let v = f32::from(i8::from_le_bytes([b[0]]));
            if normalized { (v / 127.0).max(-1.0) } else { v }
        }
        5123 => {
            let v = f32::from(u16::from_le_bytes([b[0], b[1]]));
            if normalized { v / 65535.0 } else { v }
        }
        5122 => {
            let v = f32::from(i16::from_le_bytes([b[0], b[1]]));
            if normalized {
                (v / 32767.0).max(-1.0)
            } else {
                v
            }
        }
        // 5125 (u32) is not allowed for float attributes; read as a plain number.
        #[allow(clippy::cast_precision_loss)]
        _ => u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f32,
    }
}

fn read_comp_u32(b: &[u8], comp: u32) -> u32 {
    match comp {
        5121 | 5120 => u32::from(b[0]),
        5123 | 5122 => u32::from(u16::from_le_bytes([b[0], b[1]])),
        _ => u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
    }
}

fn decode_base64(s: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(s.len() / 4 * 3);
    let mut acc = 0u32;
    let mut bits = 0u32;
    for c in s.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            b'=' | b'\n' | b'\r' | b' ' => continue,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push(((acc >> bits) & 0xff) as u8);
        }
    }
    Some(out)
}

fn hex(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    }
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%'
            && i + 2 < b.len()
            && let (Some(h), Some(l)) = (hex(b[i + 1]), hex(b[i + 2]))
        {
            out.push(h * 16 + l);
            i += 3;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

impl<'a> Data<'a> {
    /// Reads `buffers`, `bufferViews` and notes `accessors` (decoded on
    /// demand); external buffers come from `resolve` (`None` makes them an
    /// error).
    pub fn new(
        root: &J<'a>,
        bin: Option<&'a [u8]>,
        mut resolve: Option<&mut BufferResolver<'_>>,
    ) -> Result<Self> {
        let mut buffers = Vec::new();
        for (i, b) in root.list("buffers")?.into_iter().enumerate() {
            let len = b.req("byteLength")?.usize()?;
            let data: Cow<'a, [u8]> = match b.get("uri")? {
                None => {
                    let Some(bin) = bin.filter(|_| i == 0) else {
                        return Err(b.err(
                            ErrorKind::Missing,
                            "buffer has no uri and there is no GLB binary chunk for it",
                        ));
                    };
                    Cow::Borrowed(bin)
                }
                Some(uri_j) => {
                    let uri = uri_j.str()?;
                    if let Some(rest) = uri.strip_prefix("data:") {
                        let Some((_, payload)) = rest.split_once(";base64,") else {
                            return Err(uri_j.err(ErrorKind::Unsupported, "data URI is not base64"));
                        };
                        Cow::Owned(decode_base64(payload).ok_or_else(|| {
                            uri_j.err(ErrorKind::Invalid, "data URI holds invalid base64")
                        })?)
                    } else {
                        let Some(resolve) = resolve.as_deref_mut() else {
                            return Err(uri_j.err(
                                ErrorKind::Io,
                                format!("external buffer `{uri}` but no base directory was given"),
                            ));
                        };
                        let rel = percent_decode(uri);
                        if rel.contains("..") || Path::new(&rel).is_absolute() || rel.contains(':')
                        {
                            return Err(uri_j.err(
                                ErrorKind::Invalid,
                                format!("buffer uri `{uri}` leaves the model's directory"),
                            ));
                        }
                        Cow::Owned(resolve(&rel).map_err(|e| uri_j.err(ErrorKind::Io, e))?)
                    }
                }
            };
            if data.len() < len {
                return Err(Error::new(
                    ErrorKind::Bounds,
                    b.key_path("byteLength"),
                    format!(
                        "buffer claims {len} bytes but only {} are present",
                        data.len()
                    ),
                ));
            }
            buffers.push(match data {
                Cow::Borrowed(d) => Cow::Borrowed(&d[..len]),
                Cow::Owned(mut d) => {
                    d.truncate(len);
                    Cow::Owned(d)
                }
            });
        }
        let mut views = Vec::new();
        for v in root.list("bufferViews")? {
            let buffer = v.req("buffer")?.index(buffers.len(), "buffer")?;
            let offset = v.get("byteOffset")?.map_or(Ok(0), |j| j.usize())?;
            let length = v.req("byteLength")?.usize()?;
            let stride = v.get("byteStride")?.map(|j| j.usize()).transpose()?;
            let blen = buffers[buffer].len();
            if offset.checked_add(length).is_none_or(|end| end > blen) {
                return Err(v.err(
                    ErrorKind::Bounds,
                    format!(
                        "byteOffset {offset} + byteLength {length} exceeds buffer {buffer} ({blen} bytes)"
                    ),
                ));
            }
            if let Some(s) = stride
                && !(4..=252).contains(&s)
            {
                return Err(Error::new(
                    ErrorKind::Invalid,
                    v.key_path("byteStride"),
                    format!("byteStride {s} is outside 4..=252"),
                ));
            }
            views.push(View {
                buffer,
                offset,
                length,
                stride,
            });
        }
        let accessors = root.list("accessors")?;
        let bytes: usize = buffers.iter().map(|b| b.len()).sum();
        let budget = bytes
            .saturating_mul(DECODE_BUDGET_PER_BYTE)
            .saturating_add(DECODE_BUDGET_FLOOR);
        Ok(Self {
            buffers,
            views,
            accessors,
            budget: core::cell::Cell::new(budget),
        })
    }

    fn layout(acc: &J<'a>) -> Result<(Layout, usize)> {
        let comp_j = acc.req("componentType")?;
        let comp = u32::try_from(comp_j.usize()?).unwrap_or(0);
        let comp_size = comp_size(comp).ok_or_else(|| {
            comp_j.err(
                ErrorKind::Invalid,
                format!("componentType {comp} is not a glTF component type"),
            )
        })?;
        let t = acc.req("type")?;
        let ncomp = type_components(t.str()?).ok_or_else(|| {
            t.err(
                ErrorKind::Invalid,
                format!(
                    "type `{}` is not a glTF accessor type",
                    t.str().unwrap_or("")
                ),
            )
        })?;
        let normalized = acc.opt_bool("normalized")?.unwrap_or(false);
        let count = acc.req("count")?.usize()?;
        Ok((
            Layout {
                comp,
                comp_size,
                ncomp,
                normalized,
            },
            count,
        ))
    }

    /// Byte slice and stride of `count` elements at `view` + `offset`, checked.
    fn slice(
        &self,
        j: &J<'a>,
        view: usize,
        offset: usize,
        count: usize,
        elem: usize,
    ) -> Result<(&[u8], usize)> {
        let v = &self.views[view];
        let stride = v.stride.unwrap_or(elem).max(elem);
        let needed = if count == 0 {
            Some(0)
        } else {
            stride
                .checked_mul(count - 1)
                .and_then(|x| x.checked_add(elem))
                .and_then(|x| x.checked_add(offset))
        };
        match needed {
            Some(n) if n <= v.length => {
                let start = v.offset + offset;
                Ok((&self.buffers[v.buffer][start..start + n.saturating_sub(offset)], stride))
            }
            _ => Err(j.err(
                ErrorKind::Bounds,
                format!(
                    "count {count} × {elem} bytes from byteOffset {offset} does not fit bufferView {view} ({} bytes)",
                    v.length
                ),
            )),
        }
    }

    /// The accessor at `idx` (referenced from `from`), checked to have one of `ncomps` components.
    fn accessor(&self, from: &J<'a>, ncomps: &[usize]) -> Result<(J<'a>, Layout, usize)> {
        let idx = from.index(self.accessors.len(), "accessor")?;
        let acc = self.accessors[idx].clone();
        let (layout, count) = Self::layout(&acc)?;
        if !ncomps.contains(&layout.ncomp) {
            return Err(from.err(
                ErrorKind::Invalid,
                format!(
                    "accessor {idx} has {} components per element, expected {ncomps:?}",
                    layout.ncomp
                ),
            ));
        }
        Ok((acc, layout, count))
    }

    /// Decodes every component of an accessor with `f`, applying sparse substitution.
    fn decode<T: Copy + Default>(
        &self,
        from: &J<'a>,
        ncomps: &[usize],
        f: impl Fn(&[u8], Layout) -> T,
    ) -> Result<(Vec<T>, usize)> {
        let (acc, l, count) = self.accessor(from, ncomps)?;
        let elem = l.comp_size * l.ncomp;
        let total = count
            .checked_mul(l.ncomp)
            .ok_or_else(|| acc.err(ErrorKind::Bounds, "count overflows"))?;
        let charge = |total: usize| -> Result<()> {
            let left = self.budget.get();
            if total > left {
                return Err(acc.err(
                    ErrorKind::Bounds,
                    format!("decoding {total} more components exceeds the loader's memory budget"),
                ));
            }
            self.budget.set(left - total);
            Ok(())
        };
        let mut out;
        match acc.get("bufferView")? {
            Some(vj) => {
                let view = vj.index(self.views.len(), "bufferView")?;
                let offset = acc.get("byteOffset")?.map_or(Ok(0), |j| j.usize())?;
                let (bytes, stride) = self.slice(&acc, view, offset, count, elem)?;
                charge(total)?;
                out = Vec::with_capacity(total);
                for e in 0..count {
                    let base = e * stride;
                    for c in 0..l.ncomp {
                        let s = base + c * l.comp_size;
                        out.push(f(&bytes[s..s + l.comp_size], l));
                    }
                }
            }
            None => {
                if total > MAX_VIRTUAL_ELEMENTS {
                    return Err(acc.err(
                        ErrorKind::Bounds,
                        format!("count {count} without a bufferView exceeds the limit of {MAX_VIRTUAL_ELEMENTS}"),
                    ));
                }
                charge(total)?;
                out = vec![T::default(); total];
            }
        }
        if let Some(sp) = acc.get("sparse")? {
            let n = sp.req("count")?.usize()?;
            let ind = sp.req("indices")?;
            let iv = ind
                .req("bufferView")?
                .index(self.views.len(), "bufferView")?;
            let ioff = ind.get("byteOffset")?.map_or(Ok(0), |j| j.usize())?;
            let icomp = u32::try_from(ind.req("componentType")?.usize()?).unwrap_or(0);
            let isize = match icomp {
                5121 => 1,
                5123 => 2,
                5125 => 4,
                _ => {
                    return Err(ind.err(
                        ErrorKind::Invalid,
                        format!("sparse index componentType {icomp}"),
                    ));
                }
            };
            let (ibytes, _) = self.slice(&ind, iv, ioff, n, isize)?;
            let val = sp.req("values")?;
            let vv = val
                .req("bufferView")?
                .index(self.views.len(), "bufferView")?;
            let voff = val.get("byteOffset")?.map_or(Ok(0), |j| j.usize())?;
            // Sparse values are tightly packed.
            let (vbytes, _) = self.slice(&val, vv, voff, n, elem)?;
            for k in 0..n {
                let target = read_comp_u32(&ibytes[k * isize..(k + 1) * isize], icomp) as usize;
                if target >= count {
                    return Err(ind.err(
                        ErrorKind::Index,
                        format!("sparse index {target} ≥ count {count}"),
                    ));
                }
                for c in 0..l.ncomp {
                    let s = k * elem + c * l.comp_size;
                    out[target * l.ncomp + c] = f(&vbytes[s..s + l.comp_size], l);
                }
            }
        }
        Ok((out, l.ncomp))
    }

    /// Float data (normalised integers converted), flattened; returns the component count.
    pub fn floats(&self, from: &J<'a>, ncomps: &[usize]) -> Result<(Vec<f32>, usize)> {
        self.decode(from, ncomps, |b, l| read_comp_f32(b, l.comp, l.normalized))
    }

    /// Float data that must be finite (positions, weights, matrices, keys).
    ///
    /// # Errors
    /// [`ErrorKind::Invalid`] at `from`'s path naming the accessor and the
    /// first element with a NaN or infinite component.
    pub fn finite_floats(&self, from: &J<'a>, ncomps: &[usize]) -> Result<(Vec<f32>, usize)> {
        let (v, n) = self.floats(from, ncomps)?;
        match Self::first_non_finite(from, &v, n) {
            Some(msg) => Err(from.err(ErrorKind::Invalid, msg)),
            None => Ok((v, n)),
        }
    }

    /// `accessors[7] element 12 component 1 is NaN` for the first NaN or
    /// infinite component of `v` (`n` per element), read through `from`.
    pub fn first_non_finite(from: &J<'a>, v: &[f32], n: usize) -> Option<String> {
        let at = v.iter().position(|x| !x.is_finite())?;
        let acc = from
            .usize()
            .map_or_else(|_| "the accessor".to_owned(), |i| format!("accessors[{i}]"));
        Some(format!(
            "{acc} element {} component {} is {} (values must be finite)",
            at / n.max(1),
            at % n.max(1),
            v[at]
        ))
    }

    /// Integer data (indices, joints), flattened.
    pub fn uints(&self, from: &J<'a>, ncomps: &[usize]) -> Result<(Vec<u32>, usize)> {
        let (_, l, _) = self.accessor(from, ncomps)?;
        if l.comp == 5126 {
            return Err(from.err(
                ErrorKind::Invalid,
                "expected an integer accessor, found float",
            ));
        }
        self.decode(from, ncomps, |b, l| read_comp_u32(b, l.comp))
    }
}
