//! Reading tool and prompt arguments: what generated code (and hand-written services) decode
//! them with.
//!
//! A service gets a call's arguments as [`Arguments`]: the JSON text and how to read it (the
//! client profile served, the nesting limit). Values are read in one pass over the text by a
//! [`Reader`], straight into their Rust types, with one family of functions ([`object`],
//! [`list`], [`map`], [`set`], [`string`], [`enum_member`], …) and the [`Decode`] trait for
//! whole types. Every failure is an [`ArgError`] whose text is
//! `Argument '<path>' is not valid.`, optionally followed by one short reason. See
//! `docs/runtime.md` for the exact texts.
//!
//! A tool's arguments are read like this (what generated code does for `add(a: i32, b: i32)`):
//!
//! ```
//! use toolidl_runtime::args::{self, ArgError, Arguments, Decode, Path, Reader};
//! use serde_json::value::RawValue;
//!
//! fn read_add(r: &mut Reader<'_>, path: &Path<'_>) -> Result<(i32, i32), ArgError> {
//!     let (mut a, mut b) = (None, None);
//!     args::object(r, path, |r, key| {
//!         match key {
//!             "a" => a = Some(i32::read(r, &path.field("a"))?),
//!             "b" => b = Some(i32::read(r, &path.field("b"))?),
//!             _ => return Err(ArgError::unknown(path, key)),
//!         }
//!         Ok(())
//!     })?;
//!     Ok((args::required(a, path, "a")?, args::required(b, path, "b")?))
//! }
//!
//! let raw = RawValue::from_string(r#"{"a":1,"b":"x"}"#.into()).unwrap();
//! let arguments = Arguments::new(&raw); // a service is handed these by the runtime
//! let e = read_add(&mut arguments.reader(), &Path::Root).unwrap_err();
//! assert_eq!(e.to_string(), "Argument 'b' is not valid. Expected an integer.");
//! ```
//!
//! Its files, lowest first (checked as the crate's modules are; see `docs/architecture.md`):
//!
//! 1. `path`, `number`, `json_eq`, `depth`: paths into a value, exact numbers, JSON
//!    equality, nesting limits and the stack guard.
//! 2. `error`: the argument error.
//! 3. `check`: constraint checks on a decoded value.
//! 4. `reader`: the forward-only reader over the JSON text.
//! 5. `read`: the [`Decode`] trait and every decoding function.
//! 6. `decode`, `text`: `Decode` for the Rust types `.tool` types map to; values from text
//!    (prompt arguments, URI variables).
//! 7. `arguments`: a call's arguments and how to read them.

mod arguments;
pub mod check;
mod decode;
pub mod depth;
mod error;
mod json_eq;
mod number;
mod path;
mod read;
mod reader;
mod text;

pub use toolidl_formats as formats;
pub use toolidl_formats::{Profile, UnknownProfile};

pub use arguments::Arguments;
pub use check::{Format, Pattern};
pub use error::ArgError;
pub use json_eq::json_eq;
pub use number::to_f32;
pub use path::Path;
pub use read::{
    Decode, array, bytes, enum_member, formatted, integer, json, list, map, map_into, no_variant,
    null_as_absent, nullable, number, object, required, set, set_by_eq, set_by_json, set_with,
    string, tag, too_deep, wrong_type,
};
pub use reader::{Kind, Malformed, Reader, TooDeep};
pub use text::{FromText, text, text_arguments, text_formatted, text_member};
