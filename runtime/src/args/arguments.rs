//! A call's arguments as the runtime hands them to a service: the JSON text and how to read
//! it, in one value, so that nothing about reading travels beside the signatures.

use serde_json::value::RawValue;
use toolidl_formats::Profile;

use super::depth::{DEFAULT_MAX_DEPTH, stack_here};
use super::error::ArgError;
use super::path::Path;
use super::read::Decode;
use super::reader::{Reader, Settings};

/// The arguments of a `tools/call` or `prompts/get`, as the runtime hands them to a
/// [`Service`](crate::Service): the `arguments` object's JSON text (`{}` when the client sent
/// none) and how to read it: the client profile the server serves, whose forms its decoders
/// read too ([`Profile::strict_forms`]), and the nesting limit
/// ([`ServerBuilder::max_depth`](crate::ServerBuilder::max_depth)).
///
/// Decode them where the call is dispatched, before the handler's future is built: the text
/// is borrowed from the request.
///
/// ```
/// use serde_json::value::RawValue;
/// use toolidl_runtime::args::{self, ArgError, Arguments, Decode, Path, Reader};
///
/// struct Add { a: i32, b: i32 }
///
/// impl Decode for Add {
///     fn read(r: &mut Reader<'_>, path: &Path<'_>) -> Result<Self, ArgError> {
///         let (mut a, mut b) = (None, None);
///         args::object(r, path, |r, key| {
///             match key {
///                 "a" => a = Some(i32::read(r, &path.field("a"))?),
///                 "b" => b = Some(i32::read(r, &path.field("b"))?),
///                 _ => return Err(ArgError::unknown(path, key)),
///             }
///             Ok(())
///         })?;
///         Ok(Add { a: args::required(a, path, "a")?, b: args::required(b, path, "b")? })
///     }
/// }
///
/// let raw = RawValue::from_string(r#"{"a":1,"b":[[2]]}"#.into()).unwrap();
/// let e = Arguments::new(&raw).decode::<Add>().err().unwrap();
/// assert_eq!(e.to_string(), "Argument 'b' is not valid. Expected an integer.");
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Arguments<'a> {
    raw: &'a RawValue,
    profile: Profile,
    max_depth: u32,
    /// Where the stack was when the arguments were made: reading them measures its stack
    /// budget from here ([`super::depth`]).
    stack_base: usize,
}

impl<'a> Arguments<'a> {
    /// `raw` (an object, as a call's `arguments` is) read with the defaults: the standard
    /// profile, the default nesting limit
    /// ([`DEFAULT_MAX_DEPTH`](super::depth::DEFAULT_MAX_DEPTH)), the stack budget measured
    /// from here.
    pub fn new(raw: &'a RawValue) -> Self {
        Arguments {
            raw,
            profile: Profile::Standard,
            max_depth: DEFAULT_MAX_DEPTH,
            stack_base: stack_here(),
        }
    }

    /// Read in `profile`'s forms as well (under [`Profile::OpenAiStrict`]: `null` for an
    /// optional parameter left out, a map as a list of `{key, value}` entries).
    pub fn with_profile(self, profile: Profile) -> Self {
        Arguments { profile, ..self }
    }

    /// Read entering at most `max_depth` arrays and objects, the `arguments` object being the
    /// first (at least 1).
    pub fn with_max_depth(self, max_depth: u32) -> Self {
        Arguments {
            max_depth: max_depth.max(1),
            ..self
        }
    }

    /// The `arguments` object, as the client sent it.
    pub fn raw(&self) -> &'a RawValue {
        self.raw
    }

    /// The profile whose forms are read.
    pub fn profile(&self) -> Profile {
        self.profile
    }

    /// How many arrays and objects a value may nest, the `arguments` object included.
    pub fn max_depth(&self) -> u32 {
        self.max_depth
    }

    /// A reader at the start of the arguments, reading as they say.
    pub fn reader(&self) -> Reader<'a> {
        let settings = Settings {
            max_depth: self.max_depth,
            strict_forms: self.profile.strict_forms(),
            stack_base: self.stack_base,
        };
        Reader::with_settings(self.raw.get(), settings)
    }

    /// The arguments read as `T` (a generated `…Args` input, say), errors reported from the
    /// root (`Argument 'city' is not valid. …`).
    pub fn decode<T: Decode>(&self) -> Result<T, ArgError> {
        T::read(&mut self.reader(), &Path::Root)
    }
}

impl<'a> From<&'a RawValue> for Arguments<'a> {
    fn from(raw: &'a RawValue) -> Self {
        Arguments::new(raw)
    }
}
