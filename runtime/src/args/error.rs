//! The argument error: `Argument '<path>' is not valid.` plus an optional short reason.

use std::borrow::Cow;

use super::path::Path;

/// A tool argument that failed to decode or broke a constraint.
///
/// Its text is sent to the client as an `isError` tool result, so the model can fix the call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArgError {
    path: String,
    reason: Option<Cow<'static, str>>,
}

impl ArgError {
    /// An error at `path` with a short reason (one sentence, ending with a period).
    pub fn new(path: &Path<'_>, reason: impl Into<Cow<'static, str>>) -> Self {
        ArgError {
            path: path.render(),
            reason: Some(reason.into()),
        }
    }

    /// An error at a path already rendered (one built without a [`Path`]).
    pub(crate) fn at(path: String, reason: Option<String>) -> Self {
        ArgError {
            path,
            reason: reason.map(Cow::Owned),
        }
    }

    /// An error at `path` with no reason.
    pub fn bare(path: &Path<'_>) -> Self {
        ArgError {
            path: path.render(),
            reason: None,
        }
    }

    /// A required property is absent.
    pub fn missing(parent: &Path<'_>, name: &str) -> Self {
        Self::new(&parent.field(name), "A value is required.")
    }

    /// A property the closed object does not declare.
    pub fn unknown(parent: &Path<'_>, name: &str) -> Self {
        Self::new(&parent.field(name), "Unknown property.")
    }

    /// A property the closed object does not declare, naming the closest of the `known`
    /// ones when it looks like a typo of it: `Argument 'qeury' is not valid. Unknown
    /// property. Did you mean 'query'?`.
    pub fn unknown_of(parent: &Path<'_>, name: &str, known: &[&str]) -> Self {
        match toolidl_formats::suggest::closest(name, known.iter().copied()) {
            Some(close) => Self::new(
                &parent.field(name),
                format!("Unknown property. Did you mean '{close}'?"),
            ),
            None => Self::unknown(parent, name),
        }
    }

    /// `null` where the type is not nullable.
    pub fn null(path: &Path<'_>) -> Self {
        Self::new(path, "Null is not allowed.")
    }

    /// The value has the wrong JSON type; `expected` is e.g. "an integer".
    pub fn expected(path: &Path<'_>, expected: &str) -> Self {
        Self::new(path, format!("Expected {expected}."))
    }

    /// The rendered path (`items[2].qty`; empty for the arguments object itself).
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The reason after `is not valid.`, if any.
    pub fn reason(&self) -> Option<&str> {
        self.reason.as_deref()
    }
}

impl std::fmt::Display for ArgError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Argument '{}' is not valid.", self.path)?;
        if let Some(reason) = &self.reason {
            write!(f, " {reason}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ArgError {}

/// For prompts and resource templates, whose failures are JSON-RPC errors rather than tool
/// results: invalid params (-32602) with exactly the argument error's text.
impl From<ArgError> for crate::RpcError {
    fn from(e: ArgError) -> Self {
        crate::RpcError::invalid_params(e.to_string())
    }
}
