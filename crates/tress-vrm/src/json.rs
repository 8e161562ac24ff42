//! A small path-tracking reader over `serde_json::Value`.
//!
//! Every accessor returns an [`Error`] naming the exact JSON path, which a
//! derive-based decode cannot do for type errors.

use serde_json::{Map, Value};

use crate::error::{Error, ErrorKind, Result};
use glam::{Quat, Vec3};

/// A JSON value and where it sits in the document.
#[derive(Debug, Clone)]
pub(crate) struct J<'a> {
    pub v: &'a Value,
    pub path: String,
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

impl<'a> J<'a> {
    pub fn root(v: &'a Value) -> Self {
        Self {
            v,
            path: String::new(),
        }
    }

    pub fn at(v: &'a Value, path: impl Into<String>) -> Self {
        Self {
            v,
            path: path.into(),
        }
    }

    pub fn key_path(&self, key: &str) -> String {
        if self.path.is_empty() {
            key.to_owned()
        } else {
            format!("{}.{key}", self.path)
        }
    }

    pub fn err(&self, kind: ErrorKind, msg: impl Into<String>) -> Error {
        Error::new(kind, self.path.clone(), msg)
    }

    fn type_err(&self, want: &str) -> Error {
        self.err(
            ErrorKind::Type,
            format!("expected {want}, found {}", type_name(self.v)),
        )
    }

    pub fn obj(&self) -> Result<&'a Map<String, Value>> {
        self.v.as_object().ok_or_else(|| self.type_err("an object"))
    }

    /// Optional property; present-but-null counts as absent.
    pub fn get(&self, key: &str) -> Result<Option<J<'a>>> {
        Ok(self.obj()?.get(key).filter(|v| !v.is_null()).map(|v| J {
            v,
            path: self.key_path(key),
        }))
    }

    pub fn req(&self, key: &str) -> Result<J<'a>> {
        self.get(key)?.ok_or_else(|| {
            Error::new(
                ErrorKind::Missing,
                self.key_path(key),
                "required property is missing",
            )
        })
    }

    pub fn arr(&self) -> Result<&'a [Value]> {
        self.v
            .as_array()
            .map(Vec::as_slice)
            .ok_or_else(|| self.type_err("an array"))
    }

    /// Items of an array, each with its path.
    pub fn items(&self) -> Result<impl Iterator<Item = J<'a>> + '_> {
        let a = self.arr()?;
        Ok(a.iter().enumerate().map(move |(i, v)| J {
            v,
            path: format!("{}[{i}]", self.path),
        }))
    }

    /// Items of an optional array property (absent → empty).
    pub fn list(&self, key: &str) -> Result<Vec<J<'a>>> {
        match self.get(key)? {
            None => Ok(Vec::new()),
            Some(j) => Ok(j.items()?.collect()),
        }
    }

    pub fn f32(&self) -> Result<f32> {
        let x = self.v.as_f64().ok_or_else(|| self.type_err("a number"))?;
        #[allow(clippy::cast_possible_truncation)]
        let f = x as f32;
        if f.is_finite() {
            Ok(f)
        } else {
            Err(self.err(
                ErrorKind::Invalid,
                format!("number {x} does not fit a 32-bit float"),
            ))
        }
    }

    pub fn f32_or(&self, key: &str, default: f32) -> Result<f32> {
        self.get(key)?.map_or(Ok(default), |j| j.f32())
    }

    pub fn usize(&self) -> Result<usize> {
        let n = self
            .v
            .as_u64()
            .ok_or_else(|| self.type_err("a non-negative integer"))?;
        usize::try_from(n).map_err(|_| self.err(ErrorKind::Invalid, format!("{n} is too large")))
    }

    pub fn str(&self) -> Result<&'a str> {
        self.v.as_str().ok_or_else(|| self.type_err("a string"))
    }

    pub fn opt_str(&self, key: &str) -> Result<Option<String>> {
        self.get(key)?
            .map(|j| j.str().map(str::to_owned))
            .transpose()
    }

    pub fn bool(&self) -> Result<bool> {
        self.v.as_bool().ok_or_else(|| self.type_err("a boolean"))
    }

    pub fn opt_bool(&self, key: &str) -> Result<Option<bool>> {
        self.get(key)?.map(|j| j.bool()).transpose()
    }

    /// An index into something with `len` entries called `what` (`node 93 does not exist (71 nodes)`).
    pub fn index(&self, len: usize, what: &str) -> Result<usize> {
        let i = self.usize()?;
        if i < len {
            Ok(i)
        } else {
            Err(self.err(
                ErrorKind::Index,
                format!("{what} {i} does not exist ({len} {what}s)"),
            ))
        }
    }

    pub fn floats<const N: usize>(&self) -> Result<[f32; N]> {
        let a = self.arr()?;
        if a.len() != N {
            return Err(self.err(
                ErrorKind::Type,
                format!("expected an array of {N} numbers, found {}", a.len()),
            ));
        }
        let mut out = [0.0; N];
        for (i, v) in a.iter().enumerate() {
            out[i] = J {
                v,
                path: format!("{}[{i}]", self.path),
            }
            .f32()?;
        }
        Ok(out)
    }

    pub fn vec3(&self) -> Result<Vec3> {
        self.floats::<3>().map(Vec3::from_array)
    }

    pub fn vec3_or(&self, key: &str, default: Vec3) -> Result<Vec3> {
        self.get(key)?.map_or(Ok(default), |j| j.vec3())
    }

    /// VRM 0.x `{ "x": .., "y": .., "z": .. }` (missing components are 0).
    pub fn xyz(&self) -> Result<Vec3> {
        Ok(Vec3::new(
            self.f32_or("x", 0.0)?,
            self.f32_or("y", 0.0)?,
            self.f32_or("z", 0.0)?,
        ))
    }

    pub fn quat(&self) -> Result<Quat> {
        self.floats::<4>().map(Quat::from_array)
    }
}
