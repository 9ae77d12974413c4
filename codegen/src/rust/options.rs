//! What a build can change about the generated Rust.

use super::error::GenerateError;
use crate::profile::Profile;

/// Options of the Rust generator; `toolidl_build::Builder` sets them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RustOptions {
    /// How generated code names the runtime crate: `::toolidl_runtime` unless the user
    /// re-exports it elsewhere.
    pub runtime_crate: String,
    /// Hoist records used more than once to `$defs` in the listings (see `SchemaOptions`).
    pub hoist_shared: bool,
    /// Extra attributes on generated records and enums, by path: `.` (every type), a package
    /// (`acme.common`), or a type (`acme.common.Page`). The attribute is Rust source, such as
    /// `#[derive(Eq)]`.
    pub type_attributes: Vec<(String, String)>,
    /// Extra attributes on record fields, by path: `acme.common.Page.size` (or a prefix: a
    /// type, a package, `.`).
    pub field_attributes: Vec<(String, String)>,
    /// Packages whose types the user already has: `(package, rust path)`, such as
    /// `("acme.common", "::common_types")`. Their types are not generated; references use
    /// `rust_path::TypeName`.
    pub extern_paths: Vec<(String, String)>,
    /// The client profile whose variant of the listings the server publishes (tool names
    /// and input schemas, `crate::profile`); decoding and checks do not change.
    pub profile: Profile,
    /// Typed format values: `uuid`, `datetime`, `date`, `time`, `duration` and `uri` become
    /// the types of `toolidl_runtime::typed` (`uuid::Uuid`, chrono's `DateTime<FixedOffset>`
    /// and `NaiveDate`, a time of day with its optional offset, a `chrono::TimeDelta`, an
    /// RFC 3986 `iri_string` URI) instead of checked `String`s. The accepted texts do not
    /// change. The runtime needs its `typed-formats` feature.
    pub typed_formats: bool,
    /// Also generate, per service, `XxxClient`: one async method per tool, resource and
    /// prompt, with the input types the server decodes and the declared result types, each
    /// result checked as the server checks arguments. The runtime needs its `client`
    /// feature.
    pub client: bool,
    /// Forward bindings (from `toolidl import --openapi --forward`): each bound service also
    /// gets `XxxForward` and `XxxRequests`, handlers that call the HTTP API its tools were
    /// imported from. The runtime needs its `forward` feature.
    pub forward: Vec<crate::forward::Binding>,
}

impl Default for RustOptions {
    fn default() -> Self {
        RustOptions {
            runtime_crate: "::toolidl_runtime".into(),
            hoist_shared: false,
            type_attributes: Vec::new(),
            field_attributes: Vec::new(),
            extern_paths: Vec::new(),
            profile: Profile::Standard,
            typed_formats: false,
            client: false,
            forward: Vec::new(),
        }
    }
}

impl RustOptions {
    /// Refuses options that cannot reach the generated code as the user wrote them: an
    /// attribute that is not Rust attribute syntax, a runtime crate or extern path that is not
    /// a Rust path. Each would otherwise be dropped or break the generated file far from its
    /// cause.
    pub(super) fn validate(&self) -> Result<(), GenerateError> {
        let attributes = [
            ("type_attribute", &self.type_attributes),
            ("field_attribute", &self.field_attributes),
        ];
        for (option, rules) in attributes {
            for (path, attribute) in rules {
                let attributes = parse_attributes(attribute).map_err(|why| GenerateError {
                    message: format!(
                        "{option}({path:?}, {attribute:?}): not a Rust attribute such as \
                         `#[derive(Hash)]`: {why}"
                    ),
                })?;
                // A derive the generator writes itself would be a conflicting impl inside
                // generated code, far from its cause.
                if let Some(derived) = attributes.iter().find_map(already_derived) {
                    return Err(GenerateError {
                        message: format!(
                            "{option}({path:?}, {attribute:?}): every generated record, enum \
                             and union derives `{derived}` already; remove it from the attribute"
                        ),
                    });
                }
            }
        }
        let paths = std::iter::once(("runtime_crate", None, &self.runtime_crate)).chain(
            self.extern_paths
                .iter()
                .map(|(package, path)| ("extern_path", Some(package), path)),
        );
        for (option, package, path) in paths {
            if syn::parse_str::<syn::Path>(path).is_err() {
                let call = match package {
                    Some(package) => format!("{option}({package:?}, {path:?})"),
                    None => format!("{option}({path:?})"),
                };
                return Err(GenerateError {
                    message: format!("{call}: not a Rust path such as `::common_types`"),
                });
            }
        }
        Ok(())
    }
}

/// One or more outer attributes (`#[…]`), and nothing else.
fn parse_attributes(text: &str) -> syn::Result<Vec<syn::Attribute>> {
    use syn::parse::Parser as _;
    let attributes = syn::Attribute::parse_outer.parse_str(text)?;
    if attributes.is_empty() {
        return Err(syn::Error::new(
            proc_macro2::Span::call_site(),
            "expected `#[...]`",
        ));
    }
    Ok(attributes)
}

/// The traits every generated type derives (`items.rs`); the others (`Eq`, `Hash`, `Copy`,
/// `Ord`) depend on the type. Not `Deserialize`: a generated type is read through its `Decode`
/// impl, which checks its constraints; a build that wants serde's second, unchecked way in
/// adds it with `type_attribute`.
const ALWAYS_DERIVED: &[&str] = &["Debug", "Clone", "PartialEq", "Serialize"];

/// The first trait of a `#[derive(…)]` that the generator derives on every type already.
fn already_derived(attribute: &syn::Attribute) -> Option<String> {
    if !attribute.path().is_ident("derive") {
        return None;
    }
    let paths = attribute
        .parse_args_with(syn::punctuated::Punctuated::<syn::Path, syn::Token![,]>::parse_terminated)
        .ok()?;
    paths.iter().find_map(|path| {
        let name = path.segments.last()?.ident.to_string();
        ALWAYS_DERIVED.contains(&name.as_str()).then_some(name)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_type_attribute(attribute: &str) -> RustOptions {
        RustOptions {
            type_attributes: vec![("acme.Forecast".into(), attribute.into())],
            ..RustOptions::default()
        }
    }

    #[test]
    fn attributes_that_parse_are_accepted() {
        for ok in [
            "#[derive(Hash)]",
            "#[derive(Hash)] #[serde(deny_unknown_fields)]",
            "#[doc = \"x\"]",
        ] {
            assert_eq!(with_type_attribute(ok).validate(), Ok(()), "{ok}");
        }
    }

    #[test]
    fn a_malformed_attribute_names_the_option_and_its_path() {
        for bad in [
            "#[derive(Hash)",
            "derive(Hash)",
            "",
            "#[derive(Hash)] struct X;",
            "#![x]",
        ] {
            let error = with_type_attribute(bad).validate().unwrap_err();
            assert!(
                error.message.starts_with(&format!(
                    "type_attribute(\"acme.Forecast\", {bad:?}): not a Rust attribute"
                )),
                "{bad}: {error}"
            );
        }
        let options = RustOptions {
            field_attributes: vec![("acme.Page.size".into(), "serde(default)".into())],
            ..RustOptions::default()
        };
        assert!(options.validate().unwrap_err().message.starts_with(
            "field_attribute(\"acme.Page.size\", \"serde(default)\"): not a Rust attribute"
        ));
    }

    #[test]
    fn a_derive_the_generator_writes_is_refused() {
        for (attribute, derived) in [
            ("#[derive(serde::Serialize)]", "Serialize"),
            ("#[derive(Hash, Clone)]", "Clone"),
            (
                "#[serde(rename_all = \"camelCase\")] #[derive(Debug)]",
                "Debug",
            ),
        ] {
            assert_eq!(
                with_type_attribute(attribute)
                    .validate()
                    .unwrap_err()
                    .message,
                format!(
                    "type_attribute(\"acme.Forecast\", {attribute:?}): every generated record, \
                     enum and union derives `{derived}` already; remove it from the attribute"
                )
            );
        }
        assert_eq!(
            with_type_attribute("#[derive(Hash, Eq)]").validate(),
            Ok(())
        );
    }

    #[test]
    fn a_malformed_path_names_the_option() {
        let options = RustOptions {
            extern_paths: vec![("acme.common".into(), "common types".into())],
            ..RustOptions::default()
        };
        assert_eq!(
            options.validate().unwrap_err().message,
            "extern_path(\"acme.common\", \"common types\"): not a Rust path such as `::common_types`"
        );
        let options = RustOptions {
            runtime_crate: "::my rt".into(),
            ..RustOptions::default()
        };
        assert_eq!(
            options.validate().unwrap_err().message,
            "runtime_crate(\"::my rt\"): not a Rust path such as `::common_types`"
        );
    }
}
