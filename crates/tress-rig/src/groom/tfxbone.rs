//! TressFX `.tfxbone` skinning data: the skeleton's bone names and, per
//! strand, up to four (bone, weight) pairs that carry its root.
//!
//! Layout (AMD TressFX 4, little-endian; the Ratboy mohawk's file fills
//! exactly): `i32 boneCount`; per bone `i32 index, i32 nameLength,
//! nameLength bytes` (the name, NUL-terminated); `i32 strandCount`; per
//! strand `i32 strandIndex` and four `(i32 bone, f32 weight)` pairs.
//! Every count is checked against the bytes left before anything is
//! allocated; errors say what and at which byte ([`GroomError::Skin`]).
//!
//! [`TfxBones::for_groom`] follows the groom through the strands a reader
//! skipped and the solver's reordering; [`TfxBones::resolve`] maps the
//! file's bones onto a skeleton's by name and gives the solver's
//! [`BoneWeights`] (`tress_core::strand::skin`).

use super::{GroomError, GroomWarning};
use tress_core::strand::BoneWeights;

/// Up to four bones and their weights for one strand's root.
pub type RootWeights = [(u32, f32); 4];

/// A `.tfxbone` file.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TfxBones {
    /// Bone names by index.
    pub bones: Vec<String>,
    /// Per strand, in strand order: (bone index, weight), weights summing
    /// to 1 (normalised on reading; unused slots weigh 0).
    pub weights: Vec<RootWeights>,
}

struct Reader<'a> {
    b: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize, what: &'static str) -> Result<&[u8], GroomError> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.b.len());
        let Some(end) = end else {
            return Err(GroomError::Truncated {
                what,
                needed: self.at as u64 + n as u64,
                available: self.b.len() as u64,
            });
        };
        let s = &self.b[self.at..end];
        self.at = end;
        Ok(s)
    }

    fn i32(&mut self, what: &'static str) -> Result<i32, GroomError> {
        let s = self.take(4, what)?;
        Ok(i32::from_le_bytes([s[0], s[1], s[2], s[3]]))
    }

    fn f32(&mut self, what: &'static str) -> Result<f32, GroomError> {
        self.i32(what).map(|v| f32::from_bits(v as u32))
    }

    /// A count that must be positive and fit `unit` bytes each in what is left.
    fn count(&mut self, what: &'static str, unit: usize) -> Result<usize, GroomError> {
        let v = self.i32(what)?;
        let left = (self.b.len() - self.at) / unit;
        if v <= 0 || v as usize > left {
            return Err(GroomError::BadCount {
                what,
                value: v as i64 as u64,
            });
        }
        Ok(v as usize)
    }

    fn skin(&self, at: usize, message: String) -> GroomError {
        GroomError::Skin {
            at: at as u64,
            message,
        }
    }
}

/// Parses `.tfxbone` bytes.
///
/// # Errors
/// [`GroomError::Truncated`], [`GroomError::BadCount`] (a count that is
/// not positive or cannot fit the file), or [`GroomError::Skin`] naming the
/// byte: a bone listed out of order, a name that is not UTF-8, a strand
/// out of order, a weight that is negative or not finite, a weighted bone
/// index past the bone list, a strand whose weights sum to 0, or bytes
/// after the last strand.
pub fn read_tfxbone(bytes: &[u8]) -> Result<TfxBones, GroomError> {
    let mut r = Reader { b: bytes, at: 0 };
    // A bone takes at least 9 bytes (index, length, one NUL).
    let n_bones = r.count("bone count", 9)?;
    let mut bones = Vec::with_capacity(n_bones);
    for i in 0..n_bones {
        let at = r.at;
        let index = r.i32("bone index")?;
        if index != i as i32 {
            return Err(r.skin(at, format!("bone {i} is listed with index {index}")));
        }
        let len = r.count("bone name length", 1)?;
        let at = r.at;
        let raw = r.take(len, "bone name")?;
        let name = raw.strip_suffix(&[0]).unwrap_or(raw);
        let Ok(name) = core::str::from_utf8(name) else {
            return Err(GroomError::Skin {
                at: at as u64,
                message: format!("bone {i}'s name is not UTF-8"),
            });
        };
        bones.push(name.to_owned());
    }
    let n_strands = r.count("strand count", 36)?;
    let mut weights = Vec::with_capacity(n_strands);
    for s in 0..n_strands {
        let at = r.at;
        let index = r.i32("strand index")?;
        if index != s as i32 {
            return Err(r.skin(at, format!("strand {s} is listed with index {index}")));
        }
        let mut w: RootWeights = [(0, 0.0); 4];
        for slot in &mut w {
            let at = r.at;
            let bone = r.i32("weighted bone")?;
            let weight = r.f32("bone weight")?;
            if !weight.is_finite() || weight < 0.0 {
                return Err(r.skin(at, format!("strand {s} has bone weight {weight}")));
            }
            if weight > 0.0 && (bone < 0 || bone as usize >= n_bones) {
                return Err(r.skin(
                    at,
                    format!("strand {s} weighs bone {bone}; the file has {n_bones} bones"),
                ));
            }
            *slot = (bone.max(0) as u32, weight);
        }
        let sum: f32 = w.iter().map(|p| p.1).sum();
        if sum <= 0.0 {
            return Err(r.skin(at, format!("strand {s} has no bone weight")));
        }
        for slot in &mut w {
            slot.1 /= sum;
        }
        weights.push(w);
    }
    if r.at != bytes.len() {
        return Err(r.skin(
            r.at,
            format!("{} bytes after the last strand", bytes.len() - r.at),
        ));
    }
    Ok(TfxBones { bones, weights })
}

impl TfxBones {
    /// The weights of the strands a groom kept, in its order: `file_strands`
    /// is how many strands the `.tfx` held, `skipped` the strands its reader
    /// left out (degenerate ones), `order` the kept strands' indices in the
    /// order they are simulated (after [`super::Groom::root_order`] and
    /// [`super::subset_indices`]; indices into the kept strands).
    ///
    /// # Errors
    /// [`GroomError::SkinMismatch`] when the file weighs another number of
    /// strands than the groom file has, or `order` names a strand past them.
    pub fn for_groom(
        &self,
        file_strands: usize,
        skipped: &[GroomWarning],
        order: &[usize],
    ) -> Result<Vec<RootWeights>, GroomError> {
        if self.weights.len() != file_strands {
            return Err(GroomError::SkinMismatch(format!(
                "weights for {} strands, the groom file has {file_strands}",
                self.weights.len()
            )));
        }
        let kept: Vec<&RootWeights> = self
            .weights
            .iter()
            .enumerate()
            .filter(|(i, _)| !skipped.iter().any(|w| w.strand == *i))
            .map(|(_, w)| w)
            .collect();
        order
            .iter()
            .map(|&i| {
                kept.get(i).map(|w| **w).ok_or_else(|| {
                    GroomError::SkinMismatch(format!(
                        "strand {i} asked for, the groom kept {}",
                        kept.len()
                    ))
                })
            })
            .collect()
    }

    /// Every bone some strand weighs, with the number of strands that weigh
    /// it, most used first (ties in file order).
    #[must_use]
    pub fn used_bones(&self) -> Vec<(usize, usize)> {
        let mut count = vec![0usize; self.bones.len()];
        for w in &self.weights {
            for &(b, weight) in w {
                if weight > 0.0
                    && let Some(c) = count.get_mut(b as usize)
                {
                    *c += 1;
                }
            }
        }
        let mut used: Vec<(usize, usize)> = count
            .into_iter()
            .enumerate()
            .filter(|&(_, c)| c > 0)
            .collect();
        used.sort_by_key(|&(b, c)| (core::cmp::Reverse(c), b));
        used
    }

    /// `weights` (as [`Self::for_groom`] gives them) with every bone turned
    /// into its index in `skeleton` (bone names in the skeleton's order),
    /// for the strand solver. Bones no strand weighs need not exist.
    ///
    /// # Errors
    /// [`GroomError::SkinMismatch`] naming the first weighted bone (most
    /// used first) the skeleton does not have, with how many strands weigh
    /// it and how many are missing in all.
    pub fn resolve<S: AsRef<str>>(
        &self,
        weights: &[RootWeights],
        skeleton: &[S],
    ) -> Result<Vec<BoneWeights>, GroomError> {
        let find = |b: usize| {
            let name = self.bones.get(b)?;
            skeleton.iter().position(|s| s.as_ref() == name)
        };
        let missing: Vec<(usize, usize)> = self
            .used_bones()
            .into_iter()
            .filter(|&(b, _)| find(b).is_none())
            .collect();
        if let Some(&(b, strands)) = missing.first() {
            return Err(GroomError::SkinMismatch(format!(
                "the skeleton has no bone '{}' ({strands} strands weigh it; {} weighted bones \
                 missing in all)",
                self.bones[b],
                missing.len()
            )));
        }
        let map: Vec<u32> = (0..self.bones.len())
            .map(|b| find(b).map_or(0, |i| i as u32))
            .collect();
        Ok(weights
            .iter()
            .map(|w| w.map(|(b, weight)| (map.get(b as usize).copied().unwrap_or(0), weight)))
            .collect())
    }
}

/// `NAME.tfxbone` beside a groom file `NAME.tfx` (or any extension).
#[must_use]
pub fn sibling_tfxbone(groom_path: &str) -> String {
    let p = std::path::Path::new(groom_path);
    p.with_extension("tfxbone").to_string_lossy().into_owned()
}

/// Reads a `.tfxbone` file from disk.
///
/// # Errors
/// [`GroomError::Io`], and as [`read_tfxbone`].
pub fn load_tfxbone(path: impl AsRef<std::path::Path>) -> Result<TfxBones, GroomError> {
    read_tfxbone(&std::fs::read(path)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file of `names` and per-strand `(index, [(bone, weight); 4])`.
    fn file(names: &[&str], strands: &[(i32, [(i32, f32); 4])]) -> Vec<u8> {
        let mut b = Vec::new();
        b.extend((names.len() as i32).to_le_bytes());
        for (i, n) in names.iter().enumerate() {
            b.extend((i as i32).to_le_bytes());
            b.extend((n.len() as i32 + 1).to_le_bytes());
            b.extend(n.as_bytes());
            b.push(0);
        }
        b.extend((strands.len() as i32).to_le_bytes());
        for (i, w) in strands {
            b.extend(i.to_le_bytes());
            for (bone, weight) in w {
                b.extend(bone.to_le_bytes());
                b.extend(weight.to_le_bytes());
            }
        }
        b
    }

    const ONE: [(i32, f32); 4] = [(1, 3.0), (0, 1.0), (0, 0.0), (0, 0.0)];

    #[test]
    fn reads_names_and_normalised_weights() {
        let t = read_tfxbone(&file(&["head", "neck"], &[(0, ONE), (1, [(0, 1.0); 4])])).unwrap();
        assert_eq!(t.bones, ["head", "neck"]);
        assert_eq!(t.weights[0], [(1, 0.75), (0, 0.25), (0, 0.0), (0, 0.0)]);
        assert_eq!(t.weights[1], [(0, 0.25); 4]);
    }

    #[test]
    fn weights_follow_the_groom_and_resolve_by_name() {
        let w = |b: i32| [(b, 1.0), (0, 0.0), (0, 0.0), (0, 0.0)];
        let t = read_tfxbone(&file(
            &["root", "head", "jaw"],
            &[(0, w(1)), (1, w(2)), (2, w(1)), (3, w(1))],
        ))
        .unwrap();
        assert_eq!(t.used_bones(), [(1, 3), (2, 1)]);
        // Strand 1 skipped by the reader; the kept three simulated as 2, 0, 1.
        let skipped = [GroomWarning {
            strand: 1,
            line: None,
            reason: "has zero length".into(),
        }];
        let kept = t.for_groom(4, &skipped, &[2, 0, 1]).unwrap();
        let bones: Vec<u32> = kept.iter().map(|k| k[0].0).collect();
        assert_eq!(bones, [1, 1, 1]);
        let e = t.for_groom(5, &[], &[0]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "tfxbone: weights for 4 strands, the groom file has 5"
        );
        assert!(t.for_groom(4, &skipped, &[3]).is_err());
        // A skeleton in another order: head is its bone 0, jaw its 2;
        // "root" is weighed by nobody and may be absent.
        let all = t.for_groom(4, &[], &[0, 1, 2, 3]).unwrap();
        let r = t.resolve(&all, &["head", "spine", "jaw"]).unwrap();
        let got: Vec<u32> = r.iter().map(|k| k[0].0).collect();
        assert_eq!(got, [0, 2, 0, 0]);
        let e = t.resolve(&all, &["root", "jaw"]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "tfxbone: the skeleton has no bone 'head' (3 strands weigh it; 1 weighted bones \
             missing in all)"
        );
        assert_eq!(
            sibling_tfxbone("a/b/Ratboy_mohawk.tfx"),
            "a/b/Ratboy_mohawk.tfxbone"
        );
    }

    #[test]
    fn bad_files_say_what_and_where() {
        let good = file(&["head", "neck"], &[(0, ONE)]);
        // Byte offsets: bone count 0..4; bone 0 at 4 (index, len 5, "head\0"
        // to 17); bone 1 at 17 to 30; strand count 30..34; strand 0 at 34.
        let mut bad_bone = good.clone();
        bad_bone[17..21].copy_from_slice(&7i32.to_le_bytes());
        let mut bad_strand = good.clone();
        bad_strand[34..38].copy_from_slice(&3i32.to_le_bytes());
        let mut far_bone = good.clone();
        far_bone[38..42].copy_from_slice(&9i32.to_le_bytes());
        let mut nan = good.clone();
        nan[42..46].copy_from_slice(&f32::NAN.to_le_bytes());
        let mut utf = good.clone();
        utf[12] = 0xff;
        let mut extra = good.clone();
        extra.push(0);
        let zero = file(&["head"], &[(0, [(0, 0.0); 4])]);
        let mut huge = good.clone();
        huge[0..4].copy_from_slice(&1_000_000i32.to_le_bytes());
        #[rustfmt::skip]
        let cases: Vec<(&str, Vec<u8>, &str)> = vec![
            ("bone index", bad_bone, "tfxbone byte 17: bone 1 is listed with index 7"),
            ("strand index", bad_strand, "tfxbone byte 34: strand 0 is listed with index 3"),
            ("bone past the list", far_bone, "tfxbone byte 38: strand 0 weighs bone 9; the file has 2 bones"),
            ("NaN weight", nan, "tfxbone byte 38: strand 0 has bone weight NaN"),
            ("name", utf, "tfxbone byte 12: bone 0's name is not UTF-8"),
            ("trailing", extra, "tfxbone byte 70: 1 bytes after the last strand"),
            ("no weight", zero, "tfxbone byte 21: strand 0 has no bone weight"),
            ("count", huge, "impossible bone count: 1000000"),
            ("empty", Vec::new(), "groom truncated: bone count needs 4 bytes, only 0 present"),
        ];
        for (what, bytes, want) in cases {
            let e = read_tfxbone(&bytes).unwrap_err();
            assert_eq!(e.to_string(), want, "{what}");
        }
        // Every prefix is an error, never a panic.
        for cut in 0..good.len() {
            assert!(read_tfxbone(&good[..cut]).is_err(), "cut at {cut}");
        }
    }
}
