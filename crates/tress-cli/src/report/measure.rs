//! The JSON document of `tress measure FILE --json OUT.json` (its options
//! are [`crate::cli::MeasureArgs`]).

use tress_tools::measure::Report;

/// The JSON document: the file measured, then the report's fields.
#[must_use]
pub fn json(file: &str, report: &Report) -> serde_json::Value {
    let mut v = serde_json::to_value(report).unwrap_or(serde_json::Value::Null);
    if let serde_json::Value::Object(map) = &mut v {
        map.insert("file".to_owned(), serde_json::Value::from(file));
    }
    v
}
