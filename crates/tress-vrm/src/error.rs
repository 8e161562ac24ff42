//! Load errors and warnings. Each names the JSON path it concerns.

use core::fmt;

/// What kind of problem stopped the load.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// The file could not be read (or an external buffer could not).
    Io,
    /// The GLB container is malformed or truncated.
    Container,
    /// The JSON text does not parse.
    Syntax,
    /// A required property is missing.
    Missing,
    /// A property has the wrong JSON type.
    Type,
    /// An index points past the end of what it indexes.
    Index,
    /// Data lies outside its buffer, or a count is implausible for the bytes present.
    Bounds,
    /// The node hierarchy or the constraints form a cycle (or a node has two parents).
    Cycle,
    /// A value is out of its allowed range or not one of the allowed names.
    Invalid,
    /// Valid but not supported by this loader.
    Unsupported,
}

/// A load failure: the JSON path (`extensions.VRMC_springBone.springs[2].joints[0].node`)
/// and the fact (`node 93 does not exist (71 nodes)`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    /// The category.
    pub kind: ErrorKind,
    /// JSON path of the offending value; empty for the file as a whole.
    pub path: String,
    /// What is wrong, in words.
    pub message: String,
}

impl Error {
    pub(crate) fn new(
        kind: ErrorKind,
        path: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Self {
            kind,
            path: path.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

impl core::error::Error for Error {}

/// Something odd the loader tolerated; listed in [`crate::Avatar::warnings`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    /// JSON path of the value concerned; empty for the file as a whole
    /// (its container).
    pub path: String,
    /// What was odd and what the loader did about it.
    pub message: String,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

/// Result alias for the loader.
pub type Result<T> = core::result::Result<T, Error>;
