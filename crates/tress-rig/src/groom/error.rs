//! Typed errors for groom files: every bad input names what was wrong.

use core::fmt;

/// Why a groom could not be read or built.
#[derive(Debug)]
pub enum GroomError {
    /// The file could not be read.
    Io(std::io::Error),
    /// The data ends before a structure it must contain.
    Truncated {
        /// What was being read.
        what: &'static str,
        /// Bytes needed.
        needed: u64,
        /// Bytes available.
        available: u64,
    },
    /// A `.tfx` version this reader does not know.
    UnsupportedVersion(f32),
    /// A count in the header is impossible (zero, or too large for the file).
    BadCount {
        /// Which count.
        what: &'static str,
        /// Its value.
        value: u64,
    },
    /// A malformed line in a text file.
    Parse {
        /// 1-based line number.
        line: usize,
        /// What was wrong.
        message: String,
    },
    /// The file holds no usable strand.
    Empty,
    /// A strand with fewer than two distinct points cannot be resampled.
    DegenerateStrand(usize),
    /// Particles per strand outside what the solver supports.
    BadParticleCount(usize),
    /// The header's counts do not fill the bytes set aside for positions
    /// (a wrong count would read every strand shifted).
    CountMismatch {
        /// Strands in the header.
        strands: u64,
        /// Vertices per strand in the header.
        vertices: u64,
        /// Byte offset of the positions.
        offset: u64,
        /// Bytes of positions the counts need.
        expected: u64,
        /// Bytes of positions the file has (to its end or the next section).
        found: u64,
        /// Where the positions end: `the end of the file` or the next section.
        until: &'static str,
    },
    /// The file is of another kind (a glTF, a BVH, a Godot scene…): what
    /// it is and what to use instead.
    WrongFormat(String),
    /// Skinning data (`.tfxbone`) that contradicts itself: what, at which byte.
    Skin {
        /// Byte offset of the value.
        at: u64,
        /// What was wrong.
        message: String,
    },
    /// Skinning data that does not fit the groom or skeleton it is used
    /// with (strand counts, a bone the skeleton lacks): what, in words.
    SkinMismatch(String),
    /// Every strand in the file is degenerate; the first one's reason.
    AllDegenerate {
        /// Strands in the file.
        strands: usize,
        /// Why the first was skipped.
        first: GroomWarning,
    },
}

/// A strand a reader skipped, and why; the groom loads without it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroomWarning {
    /// The strand's index in the file (counting skipped strands).
    pub strand: usize,
    /// OBJ: the 1-based line of the element that started the strand.
    pub line: Option<usize>,
    /// What is wrong with it (`has zero length: all 16 points coincide`).
    pub reason: String,
}

impl fmt::Display for GroomWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(l) => write!(
                f,
                "strand {} (line {l}) {}; skipped",
                self.strand, self.reason
            ),
            None => write!(f, "strand {} {}; skipped", self.strand, self.reason),
        }
    }
}

impl fmt::Display for GroomError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Io(e) => write!(f, "cannot read groom: {e}"),
            Self::Truncated {
                what,
                needed,
                available,
            } => write!(
                f,
                "groom truncated: {what} needs {needed} bytes, only {available} present"
            ),
            Self::UnsupportedVersion(v) => {
                write!(f, "unsupported TressFX version {v} (expected 3 or 4)")
            }
            Self::BadCount { what, value } => write!(f, "impossible {what}: {value}"),
            Self::Parse { line, message } => write!(f, "line {line}: {message}"),
            Self::Empty => write!(f, "groom has no strands"),
            Self::DegenerateStrand(s) => write!(f, "strand {s} has zero length"),
            Self::BadParticleCount(m) => {
                write!(f, "{m} particles per strand; supported range is 4..=64")
            }
            Self::CountMismatch {
                strands,
                vertices,
                offset,
                expected,
                found,
                until,
            } => write!(
                f,
                "header counts ({strands} strands × {vertices} vertices) need {expected} bytes of positions from byte {offset}, found {found} (to {until})"
            ),
            Self::WrongFormat(advice) => f.write_str(advice),
            Self::Skin { at, message } => write!(f, "tfxbone byte {at}: {message}"),
            Self::SkinMismatch(message) => write!(f, "tfxbone: {message}"),
            Self::AllDegenerate { strands, first } => write!(
                f,
                "all {strands} strands are degenerate, none left to simulate (first: {first})"
            ),
        }
    }
}

impl core::error::Error for GroomError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            Self::Io(e) => Some(e),
            _ => None,
        }
    }
}

impl From<std::io::Error> for GroomError {
    fn from(e: std::io::Error) -> Self {
        Self::Io(e)
    }
}
