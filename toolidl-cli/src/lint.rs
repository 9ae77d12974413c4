//! `toolidl lint [--profile NAME] [--published] FILE...`

use std::path::{Path, PathBuf};

use toolidl::diagnostics::{self, Diagnostic};
use toolidl::locations::{Location, Locations};
use toolidl::model::{Field, Member, Model, Type, TypeDef};
use toolidl_build::compile::load;
use toolidl_codegen::profile::{self, Finding, Profile, Severity};
use toolidl_codegen::{SchemaOptions, listings};

pub struct Args {
    pub files: Vec<PathBuf>,
    pub profile: Profile,
    /// Lint what the profile publishes (`toolidl schema --profile`), not the standard listing.
    pub published: bool,
}

/// Prints each finding as a diagnostic, at the declaration it concerns, and a summary per
/// file on stdout; exit 1 when a file does not compile or has a finding that is an error
/// for the profile, else 0.
pub fn run(args: &Args) -> i32 {
    let mut code = 0;
    for file in &args.files {
        if !lint_file(file, args) {
            code = 1;
        }
    }
    code
}

fn lint_file(file: &Path, args: &Args) -> bool {
    let shown = file.display();
    let output = load(Path::new(""), file).output;
    let model = match &output.model {
        Some(model) if !output.has_errors() => model,
        _ => {
            crate::print_diagnostics(&output.render());
            return false;
        }
    };
    let mut listings = match listings(model, &SchemaOptions::default()) {
        Ok(listings) => listings,
        Err(error) => {
            eprintln!("error: {shown}: {error}");
            return false;
        }
    };
    // What the variant narrows is found against the standard listing.
    let standard = args.published.then(|| listings.clone());
    if args.published {
        profile::publish(&mut listings, args.profile);
    }
    let mut found = Vec::new();
    for service in &listings.services {
        let declared = model.services.iter().find(|s| s.name == service.name);
        for tool in &service.tools {
            found.extend(profile::lint(&tool.entry, args.profile));
            let before = standard
                .iter()
                .flat_map(|l| &l.services)
                .filter(|s| s.name == service.name)
                .flat_map(|s| &s.tools)
                .find(|t| t.ident == tool.ident);
            if let Some(before) = before {
                found.extend(profile::narrowing(&before.entry, &tool.entry, args.profile));
            }
            // What only the model tells (a result that may be null), after the listing's findings.
            let decl = declared.and_then(|s| s.tools().find(|(t, _)| t.ident == tool.ident));
            let name = tool.entry.get("name").and_then(|n| n.as_str());
            if let (Some((decl, _)), Some(name)) = (decl, name) {
                found.extend(profile::lint_result(decl, name));
            }
        }
    }
    // `name: T? = null` writes no `default`, so the listing alone cannot tell it from
    // `name?: T?`: there `null` means what leaving it out means, nothing is narrowed.
    found.retain(|f| {
        f.code != "L0315"
            || resolve(f, model, &output.locations, args)
                .1
                .is_none_or(|field| field.default.is_none())
    });
    let errors = found
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .count();
    let warnings = found.len() - errors;
    let rendered: Vec<Diagnostic> = found
        .iter()
        .map(|f| diagnostic(f, model, &output.locations, args))
        .collect();
    print!("{}", diagnostics::render_all(&rendered, &output.sources));
    if !rendered.is_empty() {
        println!();
    }
    let what = if args.published {
        "published"
    } else {
        "standard"
    };
    let profile = args.profile;
    match (errors, warnings) {
        (0, 0) => println!("{shown}: ok (profile {profile}, {what} listing)"),
        _ => println!(
            "{shown}: {errors} error{}, {warnings} warning{} (profile {profile}, {what} listing)",
            plural(errors),
            plural(warnings)
        ),
    }
    errors == 0
}

/// A finding as a diagnostic: at the parameter or field its pointer leads to (else the
/// tool), with what to change, and, for a rule the profile's variant avoids, that the
/// variant is what a build serves.
fn diagnostic(f: &Finding, model: &Model, locations: &Locations, args: &Args) -> Diagnostic {
    let at = if f.pointer.is_empty() {
        String::new()
    } else {
        format!(" {}", f.pointer)
    };
    let message = format!("tool `{}`{at}: {}", f.tool, f.message);
    let mut d = match f.severity {
        Severity::Error => Diagnostic::error(f.code, message),
        Severity::Warning => Diagnostic::warning(f.code, message),
    }
    .help(f.help());
    if let Some((file, span)) = locate(f, model, locations, args) {
        d = d.at(file, span);
    }
    if !args.published && f.avoided_by_variant(args.profile) {
        let (name, rust) = (args.profile.name(), args.profile.rust_name());
        d = d.note(format!(
            "the {name} variant of the listing avoids this, and it is what a build with `toolidl_build::configure().profile(Profile::{rust})` serves: check it with `toolidl lint --profile {name} --published`"
        ));
    }
    d
}

/// The declaration a finding is about: the deepest parameter or record field its JSON
/// pointer names (`/inputSchema/properties/place/properties/zip/format` → field `zip` of the
/// record of `place`), else the tool.
fn locate(f: &Finding, model: &Model, locations: &Locations, args: &Args) -> Option<Location> {
    resolve(f, model, locations, args).0
}

/// The declaration a finding is about ([`locate`]), and the parameter or field its pointer
/// ends at, when the walk follows the pointer to its end at a property.
fn resolve<'m>(
    f: &Finding,
    model: &'m Model,
    locations: &Locations,
    args: &Args,
) -> (Option<Location>, Option<&'m Field>) {
    let published = |tool: &Member| {
        if args.published {
            profile::published_name(&tool.name, args.profile)
        } else {
            tool.name.clone()
        }
    };
    let Some((service, tool)) = model.services.iter().find_map(|s| {
        s.tools()
            .find(|(t, _)| published(t) == f.tool)
            .map(|(t, _)| (s, t))
    }) else {
        return (None, None);
    };
    let mut best = locations.member(&model.package, &service.name, &tool.ident);
    let mut steps = f.pointer.split('/').skip(1).peekable();
    match steps.next() {
        Some("inputSchema") => {}
        // The result type after `->` (L0401).
        Some("outputSchema") => {
            let at = locations
                .result(&model.package, &service.name, &tool.ident)
                .or(best);
            return (at, None);
        }
        _ => return (best, None),
    }
    // The parameter or field the last step named.
    let mut last: Option<&Field> = None;
    // Where the walk stands: the fields an object there has, and its type.
    let mut fields: Option<Fields> = Some(Fields::Params);
    let mut ty: Option<&Type> = None;
    // Each step narrows `best`; a step the walk cannot follow ends it where it got.
    let mut walk = || -> Option<()> {
        while let Some(step) = steps.next() {
            match step {
                "properties" => {
                    let name = unescape(steps.next()?);
                    let (field, location) = match fields.take()? {
                        Fields::Params => {
                            let p = tool.params.iter().find(|p| p.json_name == name)?;
                            let at = locations.param(
                                &model.package,
                                &service.name,
                                &tool.ident,
                                &p.name,
                            );
                            (p, at)
                        }
                        Fields::Record(package, record, list) => {
                            let field = list.iter().find(|x| x.json_name == name)?;
                            (field, locations.field(package, record, &field.name))
                        }
                    };
                    best = location.or(best);
                    last = Some(field);
                    ty = Some(&field.ty);
                    fields = record_fields(model, &field.ty);
                }
                "items" | "additionalProperties" => {
                    let item = match strip(ty?) {
                        Type::List { item, .. } | Type::Set { item, .. } => item.as_ref(),
                        Type::Map { value, .. } => {
                            // A map published as `{key, value}` entries (openai-strict):
                            // `items/properties/value` is the map's value.
                            if step == "items" && steps.peek() == Some(&"properties") {
                                steps.next();
                                if steps.next() != Some("value") {
                                    return None;
                                }
                            }
                            value.as_ref()
                        }
                        _ => return None,
                    };
                    last = None;
                    ty = Some(item);
                    fields = record_fields(model, item);
                }
                "anyOf" | "oneOf" => {
                    let index: usize = steps.next()?.parse().ok()?;
                    let inner = strip(ty?);
                    let variant = match inner {
                        Type::Named { package, name, .. } => match model.lookup(package, name) {
                            Some(TypeDef::Union(u)) => u.variants.get(index).map(|v| &v.ty),
                            _ => None,
                        },
                        _ => None,
                    };
                    let next = variant.unwrap_or(inner);
                    last = None;
                    ty = Some(next);
                    fields = record_fields(model, next);
                }
                // `$defs/Folder`: a hoisted record, by its name (a key with a numeric
                // suffix is one of two records of that name: the walk stops there).
                "$defs" => {
                    let key = unescape(steps.next()?);
                    let record = model.types().iter().find_map(|t| match t {
                        TypeDef::Record(r) if r.name == key => Some(r),
                        _ => None,
                    })?;
                    best = locations.type_def(&record.package, &record.name).or(best);
                    last = None;
                    ty = None;
                    fields = Some(Fields::Record(
                        &record.package,
                        &record.name,
                        &record.fields,
                    ));
                }
                _ => return None,
            }
        }
        Some(())
    };
    let complete = walk().is_some();
    (best, if complete { last } else { None })
}

/// The fields an object schema lists: a tool's parameters, or a record's fields.
enum Fields<'m> {
    Params,
    Record(&'m str, &'m str, &'m [Field]),
}

fn record_fields<'m>(model: &'m Model, ty: &Type) -> Option<Fields<'m>> {
    let Type::Named { package, name, .. } = strip(ty) else {
        return None;
    };
    match model.lookup(package, name)? {
        TypeDef::Record(r) => Some(Fields::Record(&r.package, &r.name, &r.fields)),
        _ => None,
    }
}

fn strip(ty: &Type) -> &Type {
    match ty {
        Type::Nullable { inner } => inner,
        other => other,
    }
}

/// A JSON pointer segment's `~1` and `~0` escapes undone.
fn unescape(segment: &str) -> String {
    segment.replace("~1", "/").replace("~0", "~")
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
