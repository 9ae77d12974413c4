//! Helpers that generated code (and hand-written services) use to read tool arguments.
//!
//! Every failure is an [`ArgError`] whose text is `Argument '<path>' is not valid.`,
//! optionally followed by one short reason. See `docs/runtime.md` for the exact texts.
//!
//! A tool's arguments are read like this (what generated code does for `add(a: i32, b: i32)`):
//!
//! ```
//! use toolidl_runtime::args::{self, ArgError, Decode, Path};
//! use serde_json::value::RawValue;
//!
//! fn read_add(raw: &RawValue) -> Result<(i32, i32), ArgError> {
//!     let root = Path::Root;
//!     let (mut a, mut b) = (None, None);
//!     args::object(raw, &root, |key, value| {
//!         match key {
//!             "a" => a = Some(i32::decode(value, &root.field("a"))?),
//!             "b" => b = Some(i32::decode(value, &root.field("b"))?),
//!             _ => return Err(ArgError::unknown(&root, key)),
//!         }
//!         Ok(())
//!     })?;
//!     Ok((args::required(a, &root, "a")?, args::required(b, &root, "b")?))
//! }
//!
//! let raw = RawValue::from_string(r#"{"a":1,"b":"x"}"#.into()).unwrap();
//! assert_eq!(read_add(&raw).unwrap_err().to_string(), "Argument 'b' is not valid. Expected an integer.");
//! ```

pub mod check;
mod decode;
pub mod depth;
mod error;
pub use toolidl_formats as formats;
mod json_eq;
mod number;
mod path;
pub mod profile;
pub mod read;
mod reader;
pub mod text;

pub use check::{Format, Pattern};
pub use decode::{
    Decode, array, enum_member, integer, list, map, nullable, object, required, set, set_by_eq,
    set_by_json, set_with, string, unique_json_items, wrong_type,
};
pub use error::ArgError;
pub use json_eq::json_eq;
pub use path::Path;
pub use profile::Profile;
pub use reader::{Kind, Malformed, Reader, TooDeep};
pub use text::{FromText, text, text_arguments, text_formatted, text_member};

use serde_json::value::RawValue;

/// The `f32` nearest to a finite `f64`: the schema of an `f32` is any number, so a number
/// beyond its range is read as the largest `f32` of that sign, never as infinity.
pub fn to_f32(v: f64) -> f32 {
    v.clamp(-f64::from(f32::MAX), f64::from(f32::MAX)) as f32
}

/// `bytes`: a base64 string decoded to its bytes.
pub fn bytes(raw: &RawValue, path: &Path<'_>) -> Result<Vec<u8>, ArgError> {
    read::bytes(&mut Reader::new(raw.get()), path)
}

/// A string that must have `format` (uuid, date, time, date-time, uri, email, duration).
pub fn formatted(raw: &RawValue, path: &Path<'_>, format: Format) -> Result<String, ArgError> {
    read::formatted(&mut Reader::new(raw.get()), path, format)
}
