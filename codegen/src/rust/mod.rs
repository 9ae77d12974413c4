//! Model → Rust: records, enums, handler traits, servers and argument decoders, as source
//! text formatted with prettyplease. Pure: no I/O.
//!
//! Its files, lowest first (checked as the crate's modules are; see `docs/architecture.md`):
//!
//! 1. `error`, `facts`: why generation failed; which fields are boxed, which records derive
//!    `Eq` and `Hash`.
//! 2. `options`: what a build can change about the generated code.
//! 3. `context`: what the generator knows while it writes one package.
//! 4. `values`: `@range` bounds and declared defaults as Rust expressions.
//! 5. `decode`: argument decoders.
//! 6. `items`: records and enums, each with its `Decode` impl.
//! 7. `service`: per service, the handler trait, the server and its `Service` impl, the
//!    client and the forward binding.
//! 8. `check`: two `.tool` names that become one Rust name, names Rust cannot use.

mod check;
mod context;
mod decode;
mod error;
mod facts;
mod items;
mod options;
mod service;
mod values;

pub use error::GenerateError;
pub use options::RustOptions;

use std::collections::HashSet;

use proc_macro2::TokenStream;
use quote::quote;
use toolidl::diagnostics::Diagnostic;
use toolidl::locations::Locations;
use toolidl::model::{Model, Returns, Service, Type, TypeDef};

use crate::listings::{ServiceListings, listings};
use crate::naming as names;
use crate::options::SchemaOptions;
use context::Context;
use facts::Facts;

/// One generated file: the body of the module of one package.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeneratedFile {
    /// The package, `acme.common`.
    pub package: String,
    /// `acme.common.rs`.
    pub file_name: String,
    /// The formatted Rust source.
    pub code: String,
}

/// What only the Rust generator can see, reported at the user's declarations: name clashes
/// after case conversion, reserved words, clashes with generated names.
pub fn check(model: &Model, locations: &Locations) -> Vec<Diagnostic> {
    check::check(model, locations)
}

/// Generates one file per package of `models` (several roots: each package once, its
/// services from the roots of that package), sorted by package.
pub fn generate(
    models: &[&Model],
    options: &RustOptions,
) -> Result<Vec<GeneratedFile>, GenerateError> {
    options.validate()?;
    let merged = merge(models);
    let facts = Facts::of(&merged);
    let schema_options = SchemaOptions {
        hoist_shared: options.hoist_shared,
    };
    let mut packages: Vec<String> = merged
        .types()
        .iter()
        .map(|t| t.package().to_owned())
        .collect();
    packages.extend(models.iter().map(|m| m.package.clone()));
    packages.sort();
    packages.dedup();
    packages.retain(|p| !options.extern_paths.iter().any(|(e, _)| e == p));
    let mut files = Vec::with_capacity(packages.len());
    for package in &packages {
        let mut services = Vec::new();
        for model in models.iter().filter(|m| &m.package == package) {
            let listings = listings(model, &schema_options).map_err(|e| GenerateError {
                message: format!("cannot write the listings of package `{package}`: {e:?}"),
            })?;
            for (service, listing) in model.services.iter().zip(listings.services) {
                services.push((service, listing));
            }
        }
        let types: Vec<&TypeDef> = merged
            .types()
            .iter()
            .filter(|t| t.package() == package)
            .collect();
        let mut local = HashSet::new();
        for t in &types {
            local.insert(names::type_name(t.name()));
        }
        for (s, _) in &services {
            local.insert(names::type_name(&s.name));
            local.insert(names::server_name(&s.name));
            if options.client {
                let client = names::client_name(&s.name);
                if let Some(t) = types.iter().find(|t| names::type_name(t.name()) == client) {
                    return Err(GenerateError {
                        message: format!(
                            "`{package}.{}` takes the name of service `{}`'s client, `{client}`; \
                             rename the type, or generate without the client",
                            t.name(),
                            s.name
                        ),
                    });
                }
                local.insert(client);
            }
            if options
                .forward
                .iter()
                .any(|b| &b.package == package && b.service == s.name)
            {
                for generated in [names::forward_name(&s.name), names::requests_name(&s.name)] {
                    if let Some(t) = types
                        .iter()
                        .find(|t| names::type_name(t.name()) == generated)
                    {
                        return Err(GenerateError {
                            message: format!(
                                "`{package}.{}` takes the name of service `{}`'s forwarding code, `{generated}`; rename the type",
                                t.name(),
                                s.name
                            ),
                        });
                    }
                    local.insert(generated);
                }
            }
        }
        let cx = Context::new(&facts, options, package, local);
        let code = cx.file(&types, &services)?;
        files.push(GeneratedFile {
            package: package.clone(),
            file_name: format!("{package}.rs"),
            code,
        });
    }
    Ok(files)
}

/// The name of the public struct a tool's arguments decode into (`GetWeatherArgs`), in the
/// module of the tool's package: every tool has one, with or without parameters.
pub fn tool_args_name(tool: &toolidl::model::Member) -> String {
    names::tool_input_name(tool)
}

/// The file that nests every package's module by its package path
/// (`pub mod acme { pub mod common { include!("acme.common.rs"); } }`), included by
/// `include_tools!()`.
pub fn include_file(packages: &[String]) -> String {
    let mut sorted: Vec<&String> = packages.iter().collect();
    sorted.sort();
    sorted.dedup();
    let mut out = String::from(HEADER);
    out.push('\n');
    let mut open: Vec<&str> = Vec::new();
    for package in sorted {
        let path: Vec<&str> = package.split('.').collect();
        let common = open.iter().zip(&path).take_while(|(a, b)| a == b).count();
        while open.len() > common {
            open.pop();
            out.push_str(&"    ".repeat(open.len()));
            out.push_str("}\n");
        }
        for segment in &path[common..] {
            out.push_str(&"    ".repeat(open.len()));
            out.push_str(&format!("pub mod {} {{\n", names::ident(segment)));
            open.push(segment);
        }
        out.push_str(&"    ".repeat(open.len()));
        out.push_str(&format!("include!(\"{package}.rs\");\n"));
    }
    while !open.is_empty() {
        open.pop();
        out.push_str(&"    ".repeat(open.len()));
        out.push_str("}\n");
    }
    out
}

/// The first lines of every generated file.
const HEADER: &str = "// @generated by toolidl — do not edit\n";

/// Every record and enum of all roots, each once (a package imported by two roots is the
/// same package).
fn merge(models: &[&Model]) -> Model {
    // `Model::new` keeps the first of two types with one package and name.
    let types = models.iter().flat_map(|m| m.types()).cloned().collect();
    Model::new(String::new(), Vec::new(), types, Vec::new())
}

impl Context<'_> {
    /// The whole file of one package, formatted.
    fn file(
        &self,
        types: &[&TypeDef],
        services: &[(&Service, ServiceListings)],
    ) -> Result<String, GenerateError> {
        let items = types.iter().map(|t| match t {
            TypeDef::Record(r) => self.record(r),
            TypeDef::Enum(e) => self.enumeration(e),
            TypeDef::Alias(a) => self.alias(a),
            TypeDef::Union(u) => self.union(u),
        });
        let map_import = (uses_map(types, services) && !self.local_types.contains("BTreeMap"))
            .then(|| {
                quote!(
                    use ::std::collections::BTreeMap;
                )
            });
        let clients = if self.options.client {
            services
                .iter()
                .map(|(s, _)| self.client(s))
                .collect::<Result<Vec<_>, _>>()?
        } else {
            Vec::new()
        };
        let mut forwards = Vec::new();
        for (s, _) in services {
            // The last binding given for the service wins.
            let mut bindings = self.options.forward.iter();
            if let Some(binding) =
                bindings.rfind(|b| b.package == self.package && b.service == s.name)
            {
                forwards.push(self.forward(s, binding)?);
            }
        }
        let services = services.iter().map(|(s, l)| self.service(s, l));
        let runtime: TokenStream =
            self.options
                .runtime_crate
                .parse()
                .map_err(|_| GenerateError {
                    message: format!(
                        "the runtime crate path `{}` is not a Rust path",
                        self.options.runtime_crate
                    ),
                })?;
        let version = proc_macro2::Literal::u32_unsuffixed(GENERATED_CODE_VERSION);
        let message = format!(
            "this code was generated by toolidl-build {}; it needs a toolidl-runtime of the same minor version ({}.x)",
            env!("CARGO_PKG_VERSION"),
            minor_version()
        );
        let tokens = quote! {
            use #runtime::codegen as rt;
            #map_import

            const _: () = assert!(rt::GENERATED_CODE_VERSION == #version, #message);

            #(#items)*
            #(#services)*
            #(#forwards)*
            #(#clients)*
        };
        let file: syn::File = syn::parse2(tokens).map_err(|e| GenerateError {
            message: format!("internal error: generated code does not parse: {e}"),
        })?;
        Ok(format!(
            "{HEADER}\n{}",
            spaced(&prettyplease::unparse(&file))
        ))
    }
}

/// The version of the contract between generated code and the runtime's `codegen` module.
const GENERATED_CODE_VERSION: u32 = 5;

fn minor_version() -> String {
    let v = env!("CARGO_PKG_VERSION");
    let mut parts = v.split('.');
    match (parts.next(), parts.next()) {
        (Some(major), Some(minor)) => format!("{major}.{minor}"),
        _ => v.to_owned(),
    }
}

/// Whether any Rust type of the package names `BTreeMap`.
fn uses_map(types: &[&TypeDef], services: &[(&Service, ServiceListings)]) -> bool {
    let type_types = types.iter().flat_map(|t| -> Vec<&Type> {
        match t {
            TypeDef::Record(r) => r.fields.iter().map(|f| &f.ty).collect(),
            TypeDef::Enum(_) => Vec::new(),
            TypeDef::Alias(a) => vec![&a.ty],
            TypeDef::Union(u) => u.variants.iter().map(|v| &v.ty).collect(),
        }
    });
    let service_types = services.iter().flat_map(|(s, _)| {
        s.members.iter().flat_map(|m| {
            let returns = match &m.returns {
                Returns::Value { ty } => Some(ty),
                _ => None,
            };
            m.params.iter().map(|f| &f.ty).chain(returns)
        })
    });
    type_types.chain(service_types).any(has_map)
}

fn has_map(ty: &Type) -> bool {
    match ty {
        Type::Map { .. } => true,
        Type::List { item, .. } | Type::Set { item, .. } => has_map(item),
        Type::Nullable { inner } => has_map(inner),
        _ => false,
    }
}

/// A blank line between consecutive items (prettyplease leaves none), as a person writes.
fn spaced(code: &str) -> String {
    const STARTS: &[&str] = &[
        "///", "#[", "pub ", "fn ", "impl", "const ", "static ", "struct ", "enum ", "trait ",
    ];
    let mut out = String::with_capacity(code.len() + code.len() / 16);
    let mut previous = "";
    for line in code.lines() {
        let indent = line.len() - line.trim_start().len();
        let prev_indent = previous.len() - previous.trim_start().len();
        let trimmed = line.trim_start();
        let ends_item = previous.trim() == "}" || previous.trim_end().ends_with(';');
        let prev_is_item_end = ends_item && prev_indent == indent;
        let starts_item = STARTS.iter().any(|s| trimmed.starts_with(s));
        let after_use = previous.starts_with("use ") && !line.starts_with("use ");
        if (prev_is_item_end && starts_item) || after_use {
            out.push('\n');
        }
        out.push_str(line);
        out.push('\n');
        previous = line;
    }
    out
}
