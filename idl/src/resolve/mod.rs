//! AST → [`Model`]: loads imports, declares names, resolves types, checks every attribute,
//! constraint and default, and collects every diagnostic of every file on the way.

mod attrs;
mod constraints;
mod cycles;
mod loading;
mod members;
mod names;
mod scope;
mod types;
mod values;

use std::collections::{BTreeMap, HashMap, HashSet};

use heck::ToLowerCamelCase;

use crate::ast::{self, FieldDecl, Ident, Item, Literal, LiteralKind, MemberDecl, Span, TypeExpr};
use crate::diagnostics::{self, Diagnostic, suggest};
use crate::locations::Locations;
use crate::model::*;
use crate::parser;
use crate::source::{FileId, SourceId, SourceLoader, SourceMap};
use attrs::{AttrChecker, Attrs, Site, TextSpec, compare, int_number};
use loading::*;
use scope::*;
use types::*;
use values::*;

/// What compiling one root file produced.
#[derive(Debug)]
pub struct Output {
    /// The resolved model; `None` when any file has an error.
    pub model: Option<Model>,
    /// Errors and warnings of every loaded file, in file (load) order then position.
    pub diagnostics: Vec<Diagnostic>,
    /// Every file loaded: the root first, then its imports in load order.
    pub sources: SourceMap,
    /// Where each declared name of every parsed file stands (for generator diagnostics).
    pub locations: Locations,
}

impl Output {
    /// True when any diagnostic is an error (then `model` is `None`).
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// All diagnostics, rendered; empty when there are none.
    pub fn render(&self) -> String {
        diagnostics::render_all(&self.diagnostics, &self.sources)
    }
}

/// Compiles the root file `root` (whose text is `text`), loading its imports through `loader`.
pub fn compile(loader: &dyn SourceLoader, root: SourceId, text: String) -> Output {
    let mut loading = Loading {
        loader,
        sources: SourceMap::default(),
        files: Vec::new(),
        diagnostics: Vec::new(),
        stack: Vec::new(),
    };
    loading.load(root, text);
    let Loading {
        sources,
        files,
        mut diagnostics,
        ..
    } = loading;

    let world = World::declare(&files, &sources, &mut diagnostics);
    let scopes: Vec<Scope> = (0..files.len())
        .map(|i| Scope::new(FileId(i), &files, &world))
        .collect();
    let resolved: Vec<Option<ResolvedFile>> = (0..files.len())
        .map(|i| {
            let file = FileId(i);
            files[i].ast.as_ref().map(|ast| {
                Resolver {
                    world: &world,
                    files: &files,
                    sources: &sources,
                    file,
                    scopes: &scopes,
                    scope: &scopes[i],
                    diagnostics: &mut diagnostics,
                    skip_defaults: false,
                    aliases: Vec::new(),
                    sub: false,
                    dialect: None,
                }
                .file(ast)
            })
        })
        .collect();

    let mut locations = Locations::default();
    for (i, file) in files.iter().enumerate() {
        if let Some(ast) = &file.ast {
            locations.add_file(FileId(i), &file.package, ast);
        }
    }
    diagnostics::sort(&mut diagnostics);
    let model = if diagnostics.iter().any(Diagnostic::is_error) {
        None
    } else {
        Some(assemble(&files, resolved))
    };
    Output {
        model,
        diagnostics,
        sources,
        locations,
    }
}

fn assemble(files: &[LoadedFile], resolved: Vec<Option<ResolvedFile>>) -> Model {
    let mut types: Vec<TypeDef> = Vec::new();
    let mut services = Vec::new();
    for (i, file) in resolved.into_iter().enumerate() {
        let Some(file) = file else { continue };
        // `Model::new` keeps the first of two types with one package and name.
        types.extend(file.types);
        if i == 0 {
            services = file.services;
        }
    }
    let mut imports: Vec<String> = Vec::new();
    for edge in files[0].imports.iter().flatten() {
        let package = &files[edge.0].package;
        if !imports.contains(package) {
            imports.push(package.clone());
        }
    }
    Model::new(files[0].package.clone(), imports, types, services)
}

// ---------------------------------------------------------------------------------------
// Resolution of one file

struct ResolvedFile {
    types: Vec<TypeDef>,
    services: Vec<Service>,
}

struct Resolver<'a> {
    world: &'a World,
    files: &'a [LoadedFile],
    sources: &'a SourceMap,
    file: FileId,
    /// The names each file can use, by file.
    scopes: &'a [Scope],
    /// This file's: `scopes[file]`.
    scope: &'a Scope,
    diagnostics: &'a mut Vec<Diagnostic>,
    /// Resolving a record only to check a default written for it elsewhere: its own
    /// defaults are not needed (and could refer back to it).
    skip_defaults: bool,
    /// The named types whose declarations are being resolved, outermost first: one that
    /// names itself (`type A = list<A>;`) is refused rather than expanded forever.
    aliases: Vec<(String, String)>,
    /// A resolver of another declaration than the one being reported on: checks that look
    /// across declarations (recursive unions) are left to the declaration's own resolution.
    sub: bool,
    /// `@schema_dialect` of the file's package declaration.
    dialect: Option<String>,
}

fn collapse(text: &str) -> Option<String> {
    let collapsed = text.split_whitespace().collect::<Vec<_>>().join(" ");
    (!collapsed.is_empty()).then_some(collapsed)
}

/// "field" or "parameter", for messages.
fn site_noun(site: Site) -> &'static str {
    if site == Site::Field {
        "field"
    } else {
        "parameter"
    }
}

/// A type expression as written in the source.
fn type_written(text: &str, te: &TypeExpr) -> String {
    text.get(te.span.start..te.span.end)
        .map_or_else(|| te.path_text(), |t| t.trim_end().to_owned())
}

fn description(attrs: &Attrs, doc: &ast::Doc) -> Option<String> {
    attrs
        .description
        .clone()
        .or_else(|| collapse(&doc.lines.join(" ")))
}

impl<'a> Resolver<'a> {
    /// The declaration of the record, enum or named type `package.name`, and its file.
    fn declaration(&self, package: &str, name: &str) -> Option<(FileId, &'a Item)> {
        let def = self
            .world
            .defs
            .get(&(package.to_owned(), name.to_owned()))?;
        let files: &'a [LoadedFile] = self.files;
        let item = files[def.file.0].ast.as_ref()?.items.get(def.item)?;
        Some((def.file, item))
    }
}

impl Resolver<'_> {
    fn error(
        &mut self,
        code: &'static str,
        span: Span,
        message: impl Into<String>,
    ) -> &mut Diagnostic {
        self.diagnostics
            .push(Diagnostic::error(code, message).at(self.file, span));
        self.diagnostics.last_mut().expect("just pushed")
    }

    /// E0205: `what` (an enum member, a union variant) named like an earlier one at `first`.
    fn declared_twice(&mut self, what: &str, name: &ast::Ident, first: Span) {
        let file = self.file;
        let d = self.error(
            "E0205",
            name.span,
            format!("{what} `{}` is declared twice", name.name),
        );
        d.help = Some("remove one of them".into());
        d.secondary = Some((file, first, "first declared here".into()));
    }

    fn warning(
        &mut self,
        code: &'static str,
        span: Span,
        message: impl Into<String>,
    ) -> &mut Diagnostic {
        self.diagnostics
            .push(Diagnostic::warning(code, message).at(self.file, span));
        self.diagnostics.last_mut().expect("just pushed")
    }

    fn attrs(&mut self, attrs: &[ast::Attribute], site: Site) -> Attrs {
        AttrChecker {
            file: self.file,
            diagnostics: self.diagnostics,
        }
        .check(attrs, site)
    }

    fn position_text(&self, span: Span) -> String {
        let file = self.sources.get(self.file);
        let (line, col) = file.line_col(span.start);
        format!("{}:{line}:{col}", file.id.name)
    }

    fn file(mut self, ast: &ast::File) -> ResolvedFile {
        if let Some(package) = &ast.package {
            self.dialect = self.attrs(&package.attrs, Site::Package).schema_dialect;
        }
        for import in &ast.imports {
            self.attrs(&import.attrs, Site::Import);
        }
        let mut types = Vec::new();
        let mut services = Vec::new();
        let mut seen = HashSet::new();
        for item in &ast.items {
            // A duplicate or reserved name was reported when declaring; resolve the first only.
            let name = &item.name().name;
            if !self.world.locals[self.file.0].contains_key(name) || !seen.insert(name) {
                continue;
            }
            match item {
                Item::Record(r) => types.push(TypeDef::Record(self.record(r))),
                Item::Enum(e) => types.push(TypeDef::Enum(self.enumeration(e))),
                Item::Service(s) => services.push(self.service(s)),
                Item::Alias(a) => types.push(TypeDef::Alias(self.alias(a))),
                Item::Union(u) => types.push(TypeDef::Union(self.union(u))),
            }
        }
        self.tools_shared_across_services(ast, &services);
        self.views_not_declared(ast, &services);
        self.infinite_records(ast, &types);
        ResolvedFile { types, services }
    }

    /// `toolidl schema` lists the tools of every service of a file in one `tools` array, and
    /// a server given several services keeps only the first of two tools with one name: a
    /// tool name shared by two services of a file is worth a warning.
    fn tools_shared_across_services(&mut self, ast: &ast::File, services: &[Service]) {
        let mut first: HashMap<&str, &str> = HashMap::new();
        for service in services {
            for (tool, _) in service.tools() {
                let Some(&owner) = first.get(tool.name.as_str()) else {
                    first.insert(&tool.name, &service.name);
                    continue;
                };
                if owner == service.name {
                    continue;
                }
                let span = ast
                    .items
                    .iter()
                    .filter_map(|item| match item {
                        Item::Service(s) if s.name.name == service.name => Some(s),
                        _ => None,
                    })
                    .flat_map(|s| &s.members)
                    .find(|m| m.kind == Keyword::Tool && m.name.name == tool.ident)
                    .map(|m| m.name.span);
                let Some(span) = span else { continue };
                let message = format!(
                    "tool name \"{}\" is also used by service `{owner}`; a server given both services keeps only the first",
                    tool.name
                );
                self.warning("W0403", span, message).help = Some(
                    "give one of them another name with @name(\"…\") unless the services are never served together".into(),
                );
            }
        }
    }

    /// A tool's `@ui("ui://…")` names a view the server must serve (MCP Apps): in a file that
    /// declares views (`ui://` resources), one it names that none of them is (a typo, most
    /// often) is worth a warning. A file without views may leave them to another file or to
    /// hand-written code, and is not told.
    fn views_not_declared(&mut self, ast: &ast::File, services: &[Service]) {
        let views: Vec<(&str, bool)> = services
            .iter()
            .flat_map(|s| s.resources())
            .filter(|(_, r)| r.uri.starts_with("ui://"))
            .map(|(m, r)| (r.uri.as_str(), m.is_template()))
            .collect();
        if views.is_empty() {
            return;
        }
        for service in services {
            for (tool, part) in service.tools() {
                let Some(uri) = part.ui.as_ref().and_then(|ui| ui.resource_uri.as_deref()) else {
                    continue;
                };
                let declared = views.iter().any(|&(view, template)| {
                    if template {
                        names::template_matches(view, uri)
                    } else {
                        view == uri
                    }
                });
                if declared {
                    continue;
                }
                let span = ast
                    .items
                    .iter()
                    .filter_map(|item| match item {
                        Item::Service(s) if s.name.name == service.name => Some(s),
                        _ => None,
                    })
                    .flat_map(|s| &s.members)
                    .filter(|m| m.kind == Keyword::Tool && m.name.name == tool.ident)
                    .flat_map(|m| &m.attrs)
                    .filter(|a| a.name.name == "ui")
                    .find_map(|a| a.args.as_deref()?.iter().find(|arg| arg.name.is_none()))
                    .map(|arg| arg.value.span);
                let Some(span) = span else { continue };
                let known: Vec<String> = views.iter().map(|(v, _)| format!("\"{v}\"")).collect();
                let message = format!(
                    "the view \"{uri}\" is not a resource of this file, which declares its views"
                );
                let help = match suggest(uri, views.iter().map(|(v, _)| *v)) {
                    Some(close) => format!("did you mean \"{close}\"?"),
                    None => format!(
                        "the file's views: {}; declare it (`@uri(\"{uri}\") resource …`), or name one of them",
                        known.join(", ")
                    ),
                };
                self.warning("W0407", span, message).help = Some(help);
            }
        }
    }

    /// A resolver of `file` that reports into `diagnostics` and resolves records only to
    /// check defaults written for them.
    fn sub_resolver<'b>(
        &'b self,
        file: FileId,
        diagnostics: &'b mut Vec<Diagnostic>,
    ) -> Resolver<'b> {
        Resolver {
            world: self.world,
            files: self.files,
            sources: self.sources,
            file,
            scopes: self.scopes,
            scope: &self.scopes[file.0],
            diagnostics,
            skip_defaults: true,
            aliases: self.aliases.clone(),
            sub: true,
            dialect: self.dialect.clone(),
        }
    }

    /// `union Name { variant: T, … }`, tagged with `@tag("kind")` or untagged.
    pub(super) fn union(&mut self, decl: &ast::UnionDecl) -> Union {
        let attrs = self.attrs(&decl.attrs, Site::Union);
        let tag = attrs.tag.as_ref().map(|(t, _)| t.clone());
        if decl.variants.is_empty() {
            let message = format!("union `{}` has no variants", decl.name.name);
            self.error("E0206", decl.name.span, message).help =
                Some("list at least one variant: `union Name { first: A, second: B }`".into());
        }
        let mut variants: Vec<UnionVariant> = Vec::new();
        for v in &decl.variants {
            self.attrs(&v.attrs, Site::UnionVariant);
            if variants.iter().any(|x| x.name == v.name.name) {
                let first = first_span(decl.variants.iter().map(|x| &x.name), &v.name);
                self.declared_twice("union variant", &v.name, first);
                continue;
            }
            let Some((ty, constraints)) = self.resolve_item(&v.ty) else {
                continue;
            };
            if !self.union_variant_fits(decl, v, &ty, tag.as_deref()) {
                continue;
            }
            variants.push(UnionVariant {
                name: v.name.name.clone(),
                doc: v.doc.lines.clone(),
                ty,
                constraints,
            });
        }
        let union = Union {
            package: self.scope.package.clone(),
            name: decl.name.name.clone(),
            doc: decl.doc.lines.clone(),
            description: description(&attrs, &decl.doc),
            tag,
            variants,
        };
        if !self.sub {
            let own = (union.package.clone(), union.name.clone());
            let mut seen = Vec::new();
            if union
                .variants
                .iter()
                .any(|v| self.reaches(&v.ty, &own, &mut seen))
            {
                let message = format!("union `{}` contains itself", decl.name.name);
                self.error("E0902", decl.name.span, message).help = Some(
                    "a union cannot be reached from its own variants (recursive unions are not supported yet)".into(),
                );
            }
        }
        union
    }

    /// A tagged union's variant is a record without a property named like the tag; no
    /// variant is nullable (the union's own use may be: `Shape?`).
    fn union_variant_fits(
        &mut self,
        decl: &ast::UnionDecl,
        v: &ast::UnionVariantDecl,
        ty: &Type,
        tag: Option<&str>,
    ) -> bool {
        let union = &decl.name.name;
        if matches!(ty, Type::Nullable { .. }) {
            self.error(
                "E0210",
                v.ty.span,
                format!("variant `{}` of union `{union}` is nullable", v.name.name),
            )
            .help = Some(format!(
                "make the use of the union nullable instead: `{union}?`"
            ));
            return false;
        }
        let Some(tag) = tag else { return true };
        let Type::Named {
            package,
            name,
            def: DefKind::Record,
        } = ty
        else {
            self.error(
                "E0210",
                v.ty.span,
                format!(
                    "variant `{}` of tagged union `{union}` is not a record",
                    v.name.name
                ),
            )
            .help = Some(format!(
                "each variant of a union with @tag(\"{tag}\") is a record, which gets the `{tag}` property; drop @tag for a union of other types"
            ));
            return false;
        };
        let clash = self
            .resolved_fields(package, name, false)
            .unwrap_or_default()
            .into_iter()
            .find(|f| f.json_name == tag);
        if let Some(field) = clash {
            self.error(
                "E0211",
                v.ty.span,
                format!("record `{name}` has a property \"{tag}\", the tag of union `{union}`"),
            )
            .help = Some(format!(
                "rename field `{}` or choose another @tag",
                field.name
            ));
            return false;
        }
        true
    }

    /// Whether a value of `ty` can hold union `target` (through records, lists, sets, maps,
    /// `?` and other unions).
    fn reaches(
        &mut self,
        ty: &Type,
        target: &(String, String),
        seen: &mut Vec<(String, String)>,
    ) -> bool {
        match ty {
            Type::Primitive { .. } => false,
            Type::List { item, .. } | Type::Set { item, .. } => self.reaches(item, target, seen),
            Type::Map { value, .. } => self.reaches(value, target, seen),
            Type::Nullable { inner } => self.reaches(inner, target, seen),
            Type::Named { package, name, def } => {
                let key = (package.clone(), name.clone());
                if key == *target && *def == DefKind::Union {
                    return true;
                }
                if seen.contains(&key) {
                    return false;
                }
                seen.push(key);
                let inner: Vec<Type> = match def {
                    DefKind::Record => self
                        .resolved_fields(package, name, false)
                        .unwrap_or_default()
                        .into_iter()
                        .map(|f| f.ty)
                        .collect(),
                    DefKind::Union => self
                        .union_def(package, name)
                        .map_or_else(Vec::new, |u| u.variants.into_iter().map(|v| v.ty).collect()),
                    _ => Vec::new(),
                };
                inner.iter().any(|t| self.reaches(t, target, seen))
            }
        }
    }

    /// Union `package.name`, resolved in its own file without diagnostics.
    fn union_def(&mut self, package: &str, name: &str) -> Option<Union> {
        let (file, Item::Union(decl)) = self.declaration(package, name)? else {
            return None;
        };
        let mut scratch = Vec::new();
        Some(self.sub_resolver(file, &mut scratch).union(decl))
    }

    /// Enum `package.name`, resolved in its own file without diagnostics.
    fn enum_def(&mut self, package: &str, name: &str) -> Option<Enum> {
        let (file, Item::Enum(decl)) = self.declaration(package, name)? else {
            return None;
        };
        let mut scratch = Vec::new();
        Some(self.sub_resolver(file, &mut scratch).enumeration(decl))
    }

    /// `type Name = @constraints T;`
    fn alias(&mut self, decl: &ast::AliasDecl) -> Alias {
        let attrs = self.attrs(&decl.attrs, Site::Alias);
        let type_attrs = self.attrs(&decl.type_attrs, Site::AliasType);
        self.aliases
            .push((self.scope.package.clone(), decl.name.name.clone()));
        let ty = self.resolve_type(&decl.ty, Position::Value);
        // `type B = @length(max: 5) A;`: B holds A's constraints and its own.
        let inner = ty.as_ref().and_then(|_| self.field_alias(&decl.ty));
        self.aliases.pop();
        let constraints = match &ty {
            Some(ty) => {
                let own = self.constraints(&type_attrs, ty);
                match &inner {
                    Some(inner) => {
                        self.merge_constraints(&inner.name, &inner.constraints, own, &type_attrs)
                    }
                    None => own,
                }
            }
            None => Constraints::default(),
        };
        Alias {
            package: self.scope.package.clone(),
            name: decl.name.name.clone(),
            doc: decl.doc.lines.clone(),
            description: description(&attrs, &decl.doc),
            ty: ty.unwrap_or(Type::Primitive {
                name: Primitive::Json,
            }),
            constraints,
        }
    }

    fn record(&mut self, decl: &ast::RecordDecl) -> Record {
        let attrs = self.attrs(&decl.attrs, Site::Record);
        let fields = self.fields(
            &decl.fields,
            Site::Field,
            attrs.rename_all,
            "E0204",
            "field",
        );
        Record {
            package: self.scope.package.clone(),
            name: decl.name.name.clone(),
            doc: decl.doc.lines.clone(),
            description: description(&attrs, &decl.doc),
            rename_all: attrs.rename_all,
            fields,
            open: attrs.open,
            open_input: attrs.open_input,
        }
    }

    fn enumeration(&mut self, decl: &ast::EnumDecl) -> Enum {
        let attrs = self.attrs(&decl.attrs, Site::Enum);
        if decl.variants.is_empty() {
            // No value has this type: a field of it could never be given.
            let message = format!("enum `{}` has no members", decl.name.name);
            self.error("E0206", decl.name.span, message).help =
                Some("list at least one member: `enum Name { first, second }`".into());
        }
        let mut variants: Vec<Variant> = Vec::new();
        for v in &decl.variants {
            let variant_attrs = self.attrs(&v.attrs, Site::Variant);
            if variants.iter().any(|x| x.name == v.name.name) {
                let first = first_span(decl.variants.iter().map(|x| &x.name), &v.name);
                self.declared_twice("enum member", &v.name, first);
                continue;
            }
            let value_span = variant_attrs.value.as_ref().map(|(_, s)| *s);
            let value = variant_attrs.value.map(|(value, _)| value);
            let wire = value.as_deref().unwrap_or(&v.name.name);
            if let Some(other) = variants.iter().find(|x| x.wire() == wire) {
                let span = value_span.unwrap_or(v.name.span);
                let message = format!(
                    "enum members `{}` and `{}` have the same wire value \"{wire}\"",
                    other.name, v.name.name
                );
                self.error("E0205", span, message).help =
                    Some("give one of them another value with @value(\"…\")".into());
                continue;
            }
            variants.push(Variant {
                name: v.name.name.clone(),
                doc: v.doc.lines.clone(),
                value,
            });
        }
        Enum {
            package: self.scope.package.clone(),
            name: decl.name.name.clone(),
            doc: decl.doc.lines.clone(),
            description: description(&attrs, &decl.doc),
            variants,
            document_members: attrs.document_members,
        }
    }

    /// Fields of a record or parameters of a member, checked for duplicate names and wire names.
    fn fields(
        &mut self,
        decls: &[FieldDecl],
        site: Site,
        rename: Option<RenamePolicy>,
        code: &'static str,
        what: &str,
    ) -> Vec<Field> {
        let mut out: Vec<Field> = Vec::new();
        for decl in decls {
            let field = self.field(decl, site, rename);
            if out.iter().any(|f| f.name == field.name) {
                let first = first_span(decls.iter().map(|d| &d.name), &decl.name);
                let file = self.file;
                let d = self.error(
                    code,
                    decl.name.span,
                    format!("{what} `{}` is declared twice", field.name),
                );
                d.help = Some("rename or remove one of them".into());
                d.secondary = Some((file, first, "first declared here".into()));
                continue;
            }
            if let Some(other) = out.iter().find(|f| f.json_name == field.json_name) {
                let message = format!(
                    "{what} `{}` has the same wire name as `{}`: \"{}\"",
                    field.name, other.name, field.json_name
                );
                self.error(code, decl.name.span, message).help =
                    Some("give one of them another name with @json_name(\"…\")".into());
                continue;
            }
            out.push(field);
        }
        out
    }

    fn field(&mut self, decl: &FieldDecl, site: Site, rename: Option<RenamePolicy>) -> Field {
        let attrs = self.attrs(&decl.attrs, site);
        let ty = self.resolve_type(&decl.ty, Position::Value);
        let alias = ty.as_ref().and_then(|_| self.field_alias(&decl.ty));
        let constraints = match &ty {
            Some(ty) => {
                let own = self.constraints(&attrs, ty);
                match &alias {
                    Some(alias) => {
                        self.merge_constraints(&alias.name, &alias.constraints, own, &attrs)
                    }
                    None => own,
                }
            }
            None => Constraints::default(),
        };
        let constraints = Constraints {
            title: attrs.title.clone(),
            deprecated: attrs.deprecated.is_some(),
            ..constraints
        };
        let default = match (&decl.default, &ty, decl.optional) {
            (Some(lit), _, Some(_)) => {
                let message = format!(
                    "optional {} `{}` cannot have a default",
                    site_noun(site),
                    decl.name.name
                );
                let written = type_written(&self.sources.get(self.file).text, &decl.ty);
                let name = &decl.name.name;
                self.error("E0505", lit.span, message).help = Some(format!(
                    "an optional {noun} is left out when absent, so it never takes a default: write `{name}: {written} = …` to fill in a default, or `{name}?: {written}` without one",
                    noun = site_noun(site)
                ));
                None
            }
            (Some(_), _, None) if self.skip_defaults => None,
            (Some(lit), Some(ty), None) => self.default(lit, ty, &constraints),
            _ => None,
        };
        let json_name = match (&attrs.json_name, rename) {
            (Some((name, _)), _) => name.clone(),
            (None, Some(RenamePolicy::CamelCase)) => decl.name.name.to_lower_camel_case(),
            (None, None) => decl.name.name.clone(),
        };
        Field {
            name: decl.name.name.clone(),
            json_name,
            doc: decl.doc.lines.clone(),
            description: description(&attrs, &decl.doc)
                .or_else(|| alias.and_then(|a| a.description)),
            ty: ty.unwrap_or(Type::Primitive {
                name: Primitive::Json,
            }),
            default,
            required: decl.default.is_none() && decl.optional.is_none(),
            constraints,
        }
    }
}

/// The span of the first of `names` spelled like `name` (`name`'s own if none is earlier).
fn first_span<'a>(names: impl Iterator<Item = &'a ast::Ident>, name: &ast::Ident) -> Span {
    names
        .take_while(|n| n.span != name.span)
        .find(|n| n.name == name.name)
        .map_or(name.span, |n| n.span)
}
