//! Client profiles: which variant of a server's listings a client is served, shared by the
//! compiler, which publishes each variant (`toolidl_codegen::profile`), and the runtime,
//! which lists the one a server serves and reads arguments in the forms it gives them.

use std::fmt;
use std::str::FromStr;

/// A client profile: the listing variant a server publishes (`docs/lint.md` says what each
/// changes) and the forms its decoders read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Profile {
    /// The schema mapping as generated; its lint reports portability warnings only.
    #[default]
    Standard,
    /// Claude (desktop and API): portable tool names.
    Claude,
    /// OpenAI's strict function calling (structured outputs): every property required,
    /// `null` for a parameter left out, maps as lists of `{key, value}` entries.
    OpenAiStrict,
    /// Gemini (an OpenAPI 3.0 subset of JSON Schema).
    Gemini,
}

impl Profile {
    /// Every profile, in documentation order.
    pub const ALL: [Profile; 4] = [
        Profile::Standard,
        Profile::Claude,
        Profile::OpenAiStrict,
        Profile::Gemini,
    ];

    /// The profile's name on the command line and in build options (`openai-strict`).
    pub const fn name(self) -> &'static str {
        match self {
            Profile::Standard => "standard",
            Profile::Claude => "claude",
            Profile::OpenAiStrict => "openai-strict",
            Profile::Gemini => "gemini",
        }
    }

    /// The variant's name in Rust (`OpenAiStrict`), for help texts and generated code.
    pub const fn rust_name(self) -> &'static str {
        match self {
            Profile::Standard => "Standard",
            Profile::Claude => "Claude",
            Profile::OpenAiStrict => "OpenAiStrict",
            Profile::Gemini => "Gemini",
        }
    }

    /// The profile named `name`.
    pub fn parse(name: &str) -> Option<Profile> {
        Profile::ALL.into_iter().find(|p| p.name() == name)
    }

    /// Whether the profile's listing requires every property and closes every object, so
    /// that a parameter left out is published as also taking `null` and a map as a list of
    /// `{key, value}` entries: the forms a server serving it reads as well.
    pub const fn strict_forms(self) -> bool {
        matches!(self, Profile::OpenAiStrict)
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not a profile's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownProfile(pub String);

impl fmt::Display for UnknownProfile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = Profile::ALL.iter().map(|p| p.name()).collect();
        write!(
            f,
            "no profile named `{}` (profiles: {})",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownProfile {}

impl FromStr for Profile {
    type Err = UnknownProfile;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Profile::parse(s).ok_or_else(|| UnknownProfile(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for p in Profile::ALL {
            assert_eq!(p.name().parse::<Profile>(), Ok(p));
            assert_eq!(p.to_string(), p.name());
        }
        assert_eq!(
            "strict".parse::<Profile>().unwrap_err().to_string(),
            "no profile named `strict` (profiles: standard, claude, openai-strict, gemini)"
        );
        assert_eq!(Profile::default(), Profile::Standard);
        assert_eq!(Profile::OpenAiStrict.rust_name(), "OpenAiStrict");
    }
}
