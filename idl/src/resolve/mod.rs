//! AST → [`Model`]: loads imports, declares names, resolves types, checks every attribute,
//! constraint and default, and collects every diagnostic of every file on the way.

mod attrs;
mod names;
mod values;

use std::collections::{BTreeMap, HashMap};

use heck::ToLowerCamelCase;

use crate::ast::{
    self, FieldDecl, Ident, Item, Literal, LiteralKind, MemberDecl, MemberKind, Span, TypeExpr,
};
use crate::diagnostics::{self, Diagnostic, suggest};
use crate::model::*;
use crate::parser;
use crate::source::{FileId, SourceId, SourceLoader, SourceMap};
use attrs::{AttrChecker, Attrs, Site, compare, int_number};
use values::*;

/// Imports nested deeper than this are refused (a loader could otherwise serve ever new files).
const MAX_IMPORT_DEPTH: usize = 64;

/// What compiling one root file produced.
#[derive(Debug)]
pub struct Output {
    /// The resolved model; `None` when any file has an error.
    pub model: Option<Model>,
    /// Errors and warnings of every loaded file, in file (load) order then position.
    pub diagnostics: Vec<Diagnostic>,
    /// Every file loaded: the root first, then its imports in load order.
    pub sources: SourceMap,
}

impl Output {
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
    let resolved: Vec<Option<ResolvedFile>> = (0..files.len())
        .map(|i| {
            let file = FileId(i);
            files[i].ast.as_ref().map(|ast| {
                Resolver {
                    world: &world,
                    files: &files,
                    sources: &sources,
                    file,
                    scope: Scope::new(file, &files, &world),
                    diagnostics: &mut diagnostics,
                }
                .file(ast)
            })
        })
        .collect();

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
    }
}

fn assemble(files: &[LoadedFile], resolved: Vec<Option<ResolvedFile>>) -> Model {
    let mut types: Vec<TypeDef> = Vec::new();
    let mut services = Vec::new();
    for (i, file) in resolved.into_iter().enumerate() {
        let Some(file) = file else { continue };
        for ty in file.types {
            if types
                .iter()
                .all(|t| t.package() != ty.package() || t.name() != ty.name())
            {
                types.push(ty);
            }
        }
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
    Model {
        package: files[0].package.clone(),
        imports,
        types,
        services,
    }
}

// ---------------------------------------------------------------------------------------
// Loading

struct LoadedFile {
    ast: Option<ast::File>,
    package: String,
    /// One entry per `import` of the file, in order; `None` when it failed.
    imports: Vec<Option<FileId>>,
    /// A direct import failed to load or parse: unknown names are then not reported.
    incomplete: bool,
}

struct Loading<'a> {
    loader: &'a dyn SourceLoader,
    sources: SourceMap,
    files: Vec<LoadedFile>,
    diagnostics: Vec<Diagnostic>,
    stack: Vec<FileId>,
}

impl Loading<'_> {
    fn load(&mut self, id: SourceId, text: String) -> FileId {
        let file = self.sources.add(id.clone(), text);
        let parsed = parser::parse(file, &self.sources.get(file).text);
        self.diagnostics.extend(parsed.diagnostics);
        let package = parsed
            .file
            .as_ref()
            .and_then(|f| f.package.as_ref())
            .map(|p| join_path(&p.path))
            .unwrap_or_else(|| id.stem().to_string());
        self.files.push(LoadedFile {
            ast: None,
            package,
            imports: Vec::new(),
            incomplete: parsed.file.is_none(),
        });
        let Some(ast) = parsed.file else {
            return file;
        };
        self.stack.push(file);
        let mut edges = Vec::new();
        let mut incomplete = false;
        for import in &ast.imports {
            let edge = self.import(file, &id, import);
            incomplete |= edge.is_none_or(|f| self.files[f.0].ast.is_none());
            edges.push(edge);
        }
        self.stack.pop();
        let loaded = &mut self.files[file.0];
        loaded.ast = Some(ast);
        loaded.imports = edges;
        loaded.incomplete = incomplete;
        file
    }

    fn import(&mut self, file: FileId, id: &SourceId, import: &ast::Import) -> Option<FileId> {
        let error =
            |code, message: String| Diagnostic::error(code, message).at(file, import.path_span);
        match self.loader.load(id, &import.path) {
            Err(e) => {
                self.diagnostics.push(
                    error(
                        "E1001",
                        format!("cannot read import \"{}\": {}", import.path, e.message),
                    )
                    .help("import paths are relative to the importing file"),
                );
                None
            }
            Ok((imported, text)) => match self.sources.find(&imported.key) {
                Some(existing) if self.stack.contains(&existing) => {
                    let start = self.stack.iter().position(|f| *f == existing).unwrap_or(0);
                    let chain: Vec<&str> = self.stack[start..]
                        .iter()
                        .chain([&existing])
                        .map(|f| self.sources.get(*f).id.name.as_str())
                        .collect();
                    self.diagnostics.push(
                        error("E1002", format!("import cycle: {}", chain.join(" → ")))
                            .help("move the shared types into a file that both import"),
                    );
                    None
                }
                Some(existing) => Some(existing),
                None if self.stack.len() >= MAX_IMPORT_DEPTH => {
                    self.diagnostics.push(error(
                        "E1001",
                        format!("cannot read import \"{}\": imports nested deeper than {MAX_IMPORT_DEPTH} files", import.path),
                    ));
                    None
                }
                None => Some(self.load(imported, text)),
            },
        }
    }
}

fn join_path(path: &[Ident]) -> String {
    path.iter()
        .map(|i| i.name.as_str())
        .collect::<Vec<_>>()
        .join(".")
}

// ---------------------------------------------------------------------------------------
// Declarations

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum DeclKind {
    Record,
    Enum,
    Service,
}

struct DefInfo {
    kind: DefKind,
    variants: Vec<String>,
}

/// Every declared name of every file, checked for duplicates.
struct World {
    /// Per file: its top-level names.
    locals: Vec<HashMap<String, DeclKind>>,
    /// Records and enums by (package, name).
    defs: HashMap<(String, String), DefInfo>,
}

const RESERVED: &[&str] = &["list", "set", "map", "content", "call_result"];

impl World {
    fn declare(
        files: &[LoadedFile],
        sources: &SourceMap,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> World {
        let mut locals = Vec::new();
        let mut defs: HashMap<(String, String), DefInfo> = HashMap::new();
        let mut def_sites: HashMap<(String, String), FileId> = HashMap::new();
        for (i, loaded) in files.iter().enumerate() {
            let file = FileId(i);
            let mut local: HashMap<String, DeclKind> = HashMap::new();
            let mut first_span: HashMap<String, Span> = HashMap::new();
            for item in loaded.ast.iter().flat_map(|a| &a.items) {
                let name = item.name();
                if primitive_named(&name.name).is_some() || RESERVED.contains(&name.name.as_str()) {
                    diagnostics.push(
                        Diagnostic::error(
                            "E0207",
                            format!("`{}` is a built-in type name", name.name),
                        )
                        .at(file, name.span)
                        .help("choose another name"),
                    );
                    continue;
                }
                if let Some(first) = first_span.get(&name.name) {
                    let (line, col) = sources.get(file).line_col(first.start);
                    diagnostics.push(
                        Diagnostic::error(
                            "E0201",
                            format!("the name `{}` is declared twice", name.name),
                        )
                        .at(file, name.span)
                        .note(format!(
                            "first declared at {}:{line}:{col}",
                            sources.get(file).id.name
                        ))
                        .help("records, enums and services of a file share one namespace"),
                    );
                    continue;
                }
                first_span.insert(name.name.clone(), name.span);
                let (kind, def) = match item {
                    Item::Record(_) => (DeclKind::Record, Some(DefKind::Record)),
                    Item::Enum(_) => (DeclKind::Enum, Some(DefKind::Enum)),
                    Item::Service(_) => (DeclKind::Service, None),
                };
                local.insert(name.name.clone(), kind);
                let Some(def) = def else { continue };
                let key = (loaded.package.clone(), name.name.clone());
                if let Some(other) = def_sites.get(&key) {
                    diagnostics.push(
                        Diagnostic::error(
                            "E1003",
                            format!(
                                "type `{}.{}` is also declared in {}",
                                key.0,
                                key.1,
                                sources.get(*other).id.name
                            ),
                        )
                        .at(file, name.span)
                        .help("two files share this package: give one of them its own `package`"),
                    );
                    continue;
                }
                def_sites.insert(key.clone(), file);
                let variants = match item {
                    Item::Enum(e) => e.variants.iter().map(|v| v.name.name.clone()).collect(),
                    _ => Vec::new(),
                };
                defs.insert(
                    key,
                    DefInfo {
                        kind: def,
                        variants,
                    },
                );
            }
            locals.push(local);
        }
        World { locals, defs }
    }
}

/// The names a file can use.
struct Scope {
    package: String,
    /// Short names of records and enums of direct imports → every (package, kind) declaring it.
    imported: BTreeMap<String, Vec<(String, DefKind)>>,
    /// Packages that qualified names may use: the file's own and its direct imports'.
    packages: Vec<String>,
    incomplete: bool,
}

impl Scope {
    fn new(file: FileId, files: &[LoadedFile], world: &World) -> Scope {
        let own = &files[file.0];
        let mut imported: BTreeMap<String, Vec<(String, DefKind)>> = BTreeMap::new();
        let mut packages = vec![own.package.clone()];
        for edge in own.imports.iter().flatten() {
            let package = &files[edge.0].package;
            if !packages.contains(package) {
                packages.push(package.clone());
            }
            for (name, kind) in &world.locals[edge.0] {
                let def = match kind {
                    DeclKind::Record => DefKind::Record,
                    DeclKind::Enum => DefKind::Enum,
                    DeclKind::Service => continue,
                };
                let entry = imported.entry(name.clone()).or_default();
                if !entry.iter().any(|(p, _)| p == package) {
                    entry.push((package.clone(), def));
                }
            }
        }
        Scope {
            package: own.package.clone(),
            imported,
            packages,
            incomplete: own.incomplete,
        }
    }
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
    scope: Scope,
    diagnostics: &'a mut Vec<Diagnostic>,
}

/// Where a type expression stands.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Position {
    /// A field, a parameter, or inside another type.
    Value,
    /// A tool's result: `content` and `call_result` are allowed.
    ToolResult,
}

fn collapse(text: &str) -> Option<String> {
    let collapsed = text.split_whitespace().collect::<Vec<_>>().join(" ");
    (!collapsed.is_empty()).then_some(collapsed)
}

fn description(attrs: &Attrs, doc: &ast::Doc) -> Option<String> {
    attrs
        .description
        .clone()
        .or_else(|| collapse(&doc.lines.join(" ")))
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
            self.attrs(&package.attrs, Site::Package);
        }
        for import in &ast.imports {
            self.attrs(&import.attrs, Site::Import);
        }
        let mut types = Vec::new();
        let mut services = Vec::new();
        let mut seen = Vec::new();
        for item in &ast.items {
            // A duplicate or reserved name was reported when declaring; resolve the first only.
            let name = &item.name().name;
            if seen.contains(name) || !self.world.locals[self.file.0].contains_key(name) {
                continue;
            }
            seen.push(name.clone());
            match item {
                Item::Record(r) => types.push(TypeDef::Record(self.record(r))),
                Item::Enum(e) => types.push(TypeDef::Enum(self.enumeration(e))),
                Item::Service(s) => services.push(self.service(s)),
            }
        }
        self.infinite_records(ast, &types);
        ResolvedFile { types, services }
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
        }
    }

    fn enumeration(&mut self, decl: &ast::EnumDecl) -> Enum {
        let attrs = self.attrs(&decl.attrs, Site::Enum);
        let mut variants: Vec<Variant> = Vec::new();
        for v in &decl.variants {
            self.attrs(&v.attrs, Site::Variant);
            if variants.iter().any(|x| x.name == v.name.name) {
                self.error(
                    "E0205",
                    v.name.span,
                    format!("enum member `{}` is declared twice", v.name.name),
                )
                .help = Some("remove one of them".into());
                continue;
            }
            variants.push(Variant {
                name: v.name.name.clone(),
                doc: v.doc.lines.clone(),
            });
        }
        Enum {
            package: self.scope.package.clone(),
            name: decl.name.name.clone(),
            doc: decl.doc.lines.clone(),
            description: description(&attrs, &decl.doc),
            variants,
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
                self.error(
                    code,
                    decl.name.span,
                    format!("{what} `{}` is declared twice", field.name),
                )
                .help = Some("rename or remove one of them".into());
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
        let constraints = match &ty {
            Some(ty) => self.constraints(&attrs, ty),
            None => Constraints::default(),
        };
        let default = match (&decl.default, &ty) {
            (Some(lit), Some(ty)) => self.default(lit, ty, &constraints),
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
            description: description(&attrs, &decl.doc),
            ty: ty.unwrap_or(Type::Primitive {
                name: Primitive::Json,
            }),
            default,
            required: decl.default.is_none(),
            constraints,
        }
    }

    // ---- types ----

    fn resolve_type(&mut self, te: &TypeExpr, position: Position) -> Option<Type> {
        if te.nullable.len() > 1 {
            let span = te.nullable[1].to(*te.nullable.last().expect("two or more"));
            self.error(
                "E0105",
                span,
                format!("`{}` is nullable more than once", te.path_text()),
            )
            .help = Some("a type is nullable at most once: write a single `?`".into());
        }
        let base = self.resolve_base(te, position)?;
        Some(if te.nullable.is_empty() {
            base
        } else {
            Type::Nullable {
                inner: Box::new(base),
            }
        })
    }

    fn resolve_base(&mut self, te: &TypeExpr, position: Position) -> Option<Type> {
        let name = te.path_text();
        let generic = te.path.len() == 1 && matches!(name.as_str(), "list" | "set" | "map");
        if generic {
            let arity = if name == "map" { 2 } else { 1 };
            let usage = if name == "map" {
                "map<string, T>".to_string()
            } else {
                format!("{name}<T>")
            };
            let Some(args) = &te.args else {
                self.error(
                    "E0103",
                    te.path_span(),
                    format!("`{name}` needs type arguments"),
                )
                .help = Some(format!("write `{usage}`"));
                return None;
            };
            if args.args.len() != arity {
                let message = format!(
                    "`{name}` takes {} type argument{}, found {}",
                    arity,
                    if arity == 1 { "" } else { "s" },
                    args.args.len()
                );
                self.error("E0103", args.span, message).help = Some(format!("write `{usage}`"));
                return None;
            }
            let items: Vec<Option<Type>> = args
                .args
                .iter()
                .map(|a| self.resolve_type(a, Position::Value))
                .collect();
            if name == "map" {
                let key = items[0].as_ref();
                if let Some(key) = key
                    && *key
                        != (Type::Primitive {
                            name: Primitive::String,
                        })
                {
                    let message = format!("map keys must be `string`, found `{}`", type_text(key));
                    self.error("E0104", args.args[0].span, message).help =
                        Some("JSON object keys are strings: write `map<string, T>`".into());
                    return None;
                }
                key?;
            }
            let item = Box::new(items.into_iter().next_back()??);
            return Some(match name.as_str() {
                "list" => Type::List { item },
                "set" => Type::Set { item },
                _ => Type::Map { value: item },
            });
        }
        if let Some(args) = &te.args {
            self.error(
                "E0103",
                args.span,
                format!("`{name}` takes no type arguments"),
            );
            return None;
        }
        if te.path.len() == 1 {
            if let Some(p) = primitive_named(&name) {
                return Some(Type::Primitive { name: p });
            }
            if name == "content" || name == "call_result" {
                let message = if position == Position::ToolResult {
                    format!("`{name}` cannot be nullable or nested")
                } else {
                    format!("`{name}` can only be the result of a tool")
                };
                self.error("E0106", te.span, message).help =
                    Some(format!("write `-> {name}` as a tool's whole result"));
                return None;
            }
        }
        let (package, name, def) = self.lookup(te)?;
        Some(Type::Named { package, name, def })
    }

    fn lookup(&mut self, te: &TypeExpr) -> Option<(String, String, DefKind)> {
        let span = te.path_span();
        let name = te.path.last()?.name.clone();
        if te.path.len() > 1 {
            let package = join_path(&te.path[..te.path.len() - 1]);
            if !self.scope.packages.contains(&package) {
                if self.scope.incomplete {
                    return None;
                }
                let loaded = self.files.iter().any(|f| f.package == package);
                let help = if loaded {
                    format!(
                        "package `{package}` is not imported by this file: import the file that declares it"
                    )
                } else {
                    format!("packages in scope: {}", self.scope.packages.join(", "))
                };
                self.error("E0101", span, format!("unknown package `{package}`"))
                    .help = Some(help);
                return None;
            }
            return match self.world.defs.get(&(package.clone(), name.clone())) {
                Some(def) => Some((package, name, def.kind)),
                None => {
                    if !self.scope.incomplete {
                        let text = te.path_text();
                        let d = self.error("E0101", span, format!("unknown type `{text}`"));
                        d.help = Some(format!(
                            "package `{package}` declares no record or enum `{name}`"
                        ));
                    }
                    None
                }
            };
        }
        match self.world.locals[self.file.0].get(&name) {
            Some(DeclKind::Record) => {
                return Some((self.scope.package.clone(), name, DefKind::Record));
            }
            Some(DeclKind::Enum) => return Some((self.scope.package.clone(), name, DefKind::Enum)),
            Some(DeclKind::Service) => {
                self.error("E0101", span, format!("`{name}` is a service, not a type"));
                return None;
            }
            None => {}
        }
        match self.scope.imported.get(&name).map(Vec::as_slice) {
            Some([(package, def)]) => Some((package.clone(), name, *def)),
            Some(many) => {
                let options: Vec<String> =
                    many.iter().map(|(p, _)| format!("`{p}.{name}`")).collect();
                let packages: Vec<&str> = many.iter().map(|(p, _)| p.as_str()).collect();
                let message = format!(
                    "`{name}` is ambiguous: packages {} declare it",
                    packages.join(" and ")
                );
                self.error("E0102", span, message).help =
                    Some(format!("write {}", options.join(" or ")));
                None
            }
            None => {
                if !self.scope.incomplete {
                    let mut candidates: Vec<&str> = PRIMITIVES.iter().map(|(n, _)| *n).collect();
                    candidates.extend(["list", "set", "map"]);
                    let locals: Vec<String> =
                        self.world.locals[self.file.0].keys().cloned().collect();
                    candidates.extend(locals.iter().map(String::as_str));
                    let imported: Vec<String> = self.scope.imported.keys().cloned().collect();
                    candidates.extend(imported.iter().map(String::as_str));
                    let hint = suggest(&name, candidates).map(|s| format!("did you mean `{s}`?"));
                    self.error("E0101", span, format!("unknown type `{name}`"))
                        .help = hint;
                }
                None
            }
        }
    }

    // ---- constraints and defaults ----

    fn constraints(&mut self, attrs: &Attrs, ty: &Type) -> Constraints {
        let base = match ty {
            Type::Nullable { inner } => inner.as_ref(),
            other => other,
        };
        let prim = match base {
            Type::Primitive { name } => Some(*name),
            _ => None,
        };
        let is_string = prim == Some(Primitive::String);
        let mut out = Constraints::default();
        let not_applicable = |this: &mut Self, span: Span, attr: &str, applies: &str| {
            let message = format!("`@{attr}` does not apply to `{}`", type_text(ty));
            this.error("E0601", span, message).help =
                Some(format!("`@{attr}` applies to {applies}"));
        };
        if let Some((bounds, span, float_span)) = &attrs.range {
            match prim {
                Some(p) if integer_range(p).is_some() => {
                    if let Some(float_span) = float_span {
                        let message = format!(
                            "`{}` is an integer type, but a `@range` bound is a float",
                            primitive_name(p)
                        );
                        self.error("E0604", *float_span, message).help =
                            Some("write integer bounds, or use f32/f64".into());
                    } else {
                        // Bounds wider than the type are allowed: generators intersect them.
                        out.range = Some(*bounds);
                    }
                }
                Some(p) if is_float(p) => out.range = Some(*bounds),
                _ => not_applicable(self, *span, "range", "integer and float types"),
            }
        }
        if let Some((bounds, span)) = &attrs.length {
            if is_string || matches!(base, Type::List { .. } | Type::Set { .. }) {
                out.length = Some(*bounds);
            } else {
                not_applicable(self, *span, "length", "string, list and set");
            }
        }
        if let Some((pattern, span)) = &attrs.pattern {
            if !is_string {
                not_applicable(self, *span, "pattern", "string");
            } else if let Err(e) = compile_pattern(pattern) {
                self.error("E0603", *span, format!("invalid regular expression: {e}"))
                    .help = Some(
                    "`@pattern` takes an ECMA-262 regular expression, as JSON Schema does".into(),
                );
            } else {
                out.pattern = Some(pattern.clone());
            }
        }
        for (given, attr) in [(attrs.email, "email"), (attrs.url, "url")] {
            let Some(span) = given else { continue };
            if !is_string {
                not_applicable(self, span, attr, "string");
            } else if attr == "email" {
                out.email = true;
            } else {
                out.url = true;
            }
        }
        out
    }

    fn default(&mut self, lit: &Literal, ty: &Type, constraints: &Constraints) -> Option<Value> {
        let (base, nullable) = match ty {
            Type::Nullable { inner } => (inner.as_ref(), true),
            other => (other, false),
        };
        let shown = type_text(ty);
        if lit.kind == LiteralKind::Null {
            if nullable {
                return Some(Value::Null);
            }
            self.error(
                "E0503",
                lit.span,
                format!("`null` is not a value of `{shown}`"),
            )
            .help = Some(format!("make the type nullable: `{shown}?`"));
            return None;
        }
        if let LiteralKind::List(_) = lit.kind {
            self.error("E0501", lit.span, "a default cannot be a list")
                .help = Some("list literals are only allowed in attribute arguments".into());
            return None;
        }
        let value = match base {
            Type::Primitive { name } => self.primitive_default(lit, *name, &shown)?,
            Type::Named {
                package,
                name,
                def: DefKind::Enum,
            } => {
                let members = self
                    .world
                    .defs
                    .get(&(package.clone(), name.clone()))
                    .map(|d| d.variants.clone())
                    .unwrap_or_default();
                match &lit.kind {
                    LiteralKind::Ident(member) if members.contains(member) => {
                        Value::Enum(member.clone())
                    }
                    LiteralKind::Ident(member) => {
                        let help = match suggest(member, members.iter().map(String::as_str)) {
                            Some(s) => format!("did you mean `{s}`?"),
                            None => format!("members of `{name}`: {}", members.join(", ")),
                        };
                        self.error(
                            "E0501",
                            lit.span,
                            format!("`{member}` is not a member of enum `{name}`"),
                        )
                        .help = Some(help);
                        return None;
                    }
                    other => {
                        let help = match other {
                            LiteralKind::String(s) if members.contains(s) => {
                                format!("write the member without quotes: `{s}`")
                            }
                            _ => format!("members of `{name}`: {}", members.join(", ")),
                        };
                        let message =
                            format!("expected a member of `{name}`, found {}", other.describe());
                        self.error("E0501", lit.span, message).help = Some(help);
                        return None;
                    }
                }
            }
            _ => {
                self.error(
                    "E0501",
                    lit.span,
                    format!("a value of type `{shown}` cannot have a default"),
                )
                .help = Some(if nullable {
                    "the only default such a type can have is `= null`".into()
                } else {
                    "defaults are literals: bools, numbers, strings, chars and enum members".into()
                });
                return None;
            }
        };
        self.check_default_constraints(lit, &value, constraints);
        Some(value)
    }

    fn primitive_default(&mut self, lit: &Literal, p: Primitive, shown: &str) -> Option<Value> {
        let mismatch = |this: &mut Self, expected: &str, help: Option<String>| {
            let message = format!(
                "expected {expected} for `{shown}`, found {}",
                lit.kind.describe()
            );
            this.error("E0501", lit.span, message).help = help;
            None
        };
        match (&lit.kind, p) {
            (LiteralKind::Bool(b), Primitive::Bool) => Some(Value::Bool(*b)),
            (_, Primitive::Bool) => mismatch(self, "`true` or `false`", None),
            (LiteralKind::Int(n), _) if integer_range(p).is_some() => {
                let (lo, hi) = integer_range(p).expect("integer");
                if (lo..=hi).contains(n) {
                    Some(Value::Number(int_number(*n)))
                } else {
                    let message =
                        format!("default {n} is out of range for `{shown}` ({lo} to {hi})");
                    self.error("E0501", lit.span, message);
                    None
                }
            }
            (_, _) if integer_range(p).is_some() => mismatch(self, "an integer", None),
            (LiteralKind::Int(n), _) if is_float(p) => Some(Value::Number(int_number(*n))),
            (LiteralKind::Float(f), _) if is_float(p) => {
                if p == Primitive::F32 && f.abs() > f32::MAX as f64 {
                    self.error(
                        "E0501",
                        lit.span,
                        format!("default {f} is out of range for `f32`"),
                    );
                    return None;
                }
                Some(Value::Number(Number::Float(*f)))
            }
            (_, _) if is_float(p) => mismatch(self, "a number", None),
            (LiteralKind::Char(c), Primitive::Char) => Some(Value::Char(*c)),
            (LiteralKind::String(s), Primitive::Char) if s.chars().count() == 1 => mismatch(
                self,
                "a char",
                Some(format!("write a char in single quotes: '{s}'")),
            ),
            (_, Primitive::Char) => mismatch(self, "a char", None),
            (LiteralKind::String(s), _) if is_string_like(p) || p == Primitive::Bytes => {
                if let Err(expected) = check_format(p, s) {
                    let message = format!("default \"{s}\" is not a valid `{}`", primitive_name(p));
                    self.error("E0504", lit.span, message).help =
                        Some(format!("expected {expected}"));
                    return None;
                }
                Some(Value::String(s.clone()))
            }
            (other, _) if is_string_like(p) || p == Primitive::Bytes => {
                let help = match other {
                    LiteralKind::Ident(word) | LiteralKind::String(word) => {
                        Some(format!("write strings in double quotes: \"{word}\""))
                    }
                    LiteralKind::Char(c) => {
                        Some(format!("write strings in double quotes: \"{c}\""))
                    }
                    _ => None,
                };
                mismatch(self, "a string", help)
            }
            (LiteralKind::String(s), Primitive::Json) => Some(Value::String(s.clone())),
            (LiteralKind::Int(n), Primitive::Json) => Some(Value::Number(int_number(*n))),
            (LiteralKind::Float(f), Primitive::Json) => Some(Value::Number(Number::Float(*f))),
            (LiteralKind::Bool(b), Primitive::Json) => Some(Value::Bool(*b)),
            (_, Primitive::Json) => mismatch(self, "a string, number or bool", None),
            _ => {
                self.error(
                    "E0501",
                    lit.span,
                    format!("a value of type `{shown}` cannot have a default"),
                )
                .help = Some(
                    "defaults are literals: bools, numbers, strings, chars and enum members".into(),
                );
                None
            }
        }
    }

    fn check_default_constraints(&mut self, lit: &Literal, value: &Value, c: &Constraints) {
        let broken = |this: &mut Self, message: String| {
            this.error("E0502", lit.span, message).help =
                Some("a default must satisfy the constraints of its own field".into());
        };
        if let (Some(range), Value::Number(n)) = (&c.range, value) {
            if let Some(min) = range.min
                && compare(*n, min).is_lt()
            {
                broken(
                    self,
                    format!(
                        "default {} is below the `@range` minimum {}",
                        number_text(*n),
                        number_text(min)
                    ),
                );
            }
            if let Some(max) = range.max
                && compare(*n, max).is_gt()
            {
                broken(
                    self,
                    format!(
                        "default {} is above the `@range` maximum {}",
                        number_text(*n),
                        number_text(max)
                    ),
                );
            }
        }
        let Value::String(s) = value else { return };
        if let Some(length) = &c.length {
            let count = s.chars().count() as u64;
            if length.min.is_some_and(|m| count < m) || length.max.is_some_and(|m| count > m) {
                let bounds = match (length.min, length.max) {
                    (Some(a), Some(b)) => format!("{a} to {b}"),
                    (Some(a), None) => format!("at least {a}"),
                    (None, Some(b)) => format!("at most {b}"),
                    (None, None) => String::new(),
                };
                let unit = if count == 1 {
                    "character"
                } else {
                    "characters"
                };
                broken(
                    self,
                    format!("default \"{s}\" has {count} {unit}; `@length` allows {bounds}"),
                );
            }
        }
        if let Some(pattern) = &c.pattern
            && let Ok(regex) = compile_pattern(pattern)
            && regex.find(s).is_none()
        {
            broken(
                self,
                format!("default \"{s}\" does not match `@pattern(\"{pattern}\")`"),
            );
        }
        if c.email && !is_email(s) {
            broken(
                self,
                format!("default \"{s}\" is not an e-mail address (`@email`)"),
            );
        }
        if c.url && !is_uri(s) {
            broken(
                self,
                format!("default \"{s}\" is not an absolute URL (`@url`)"),
            );
        }
    }

    // ---- services ----

    fn service(&mut self, decl: &ast::ServiceDecl) -> Service {
        self.attrs(&decl.attrs, Site::Service);
        let mut service = Service {
            name: decl.name.name.clone(),
            doc: decl.doc.lines.clone(),
            tools: Vec::new(),
            resources: Vec::new(),
            prompts: Vec::new(),
        };
        let mut idents: Vec<(&str, Span)> = Vec::new();
        let mut wire: Vec<(MemberKind, String)> = Vec::new();
        for member in &decl.members {
            if let Some((_, first)) = idents.iter().find(|(n, _)| *n == member.name.name) {
                let at = self.position_text(*first);
                let d = self.error(
                    "E0202",
                    member.name.span,
                    format!(
                        "service `{}` declares `{}` twice",
                        decl.name.name, member.name.name
                    ),
                );
                d.note = Some(format!("first declared at {at}"));
                d.help =
                    Some("tools, resources and prompts of a service share one namespace".into());
                continue;
            }
            idents.push((&member.name.name, member.name.span));
            let name = match member.kind {
                MemberKind::Tool => {
                    let tool = self.tool(member);
                    let name = tool.name.clone();
                    service.tools.push(tool);
                    name
                }
                MemberKind::Resource => {
                    let resource = self.resource(member);
                    let name = resource.name.clone();
                    service.resources.push(resource);
                    name
                }
                MemberKind::Prompt => {
                    let prompt = self.prompt(member);
                    let name = prompt.name.clone();
                    service.prompts.push(prompt);
                    name
                }
            };
            let key = (member.kind, name);
            if wire.contains(&key) {
                let kind = member.kind.keyword();
                let message = format!(
                    "two {kind}s of service `{}` are named \"{}\" on the wire",
                    decl.name.name, key.1
                );
                self.error("E0202", member.name.span, message).help =
                    Some("give one of them another name with @name(\"…\")".into());
            }
            wire.push(key);
        }
        service
    }

    fn returns(&mut self, te: Option<&TypeExpr>, tool: bool) -> Returns {
        let Some(te) = te else {
            return Returns::Nothing;
        };
        if tool && te.path.len() == 1 && te.args.is_none() && te.nullable.is_empty() {
            match te.path[0].name.as_str() {
                "content" => return Returns::Content,
                "call_result" => return Returns::CallResult,
                _ => {}
            }
        }
        let position = if tool {
            Position::ToolResult
        } else {
            Position::Value
        };
        match self.resolve_type(te, position) {
            Some(ty) => Returns::Value { ty },
            None => Returns::Nothing,
        }
    }

    fn tool(&mut self, decl: &MemberDecl) -> Tool {
        let attrs = self.attrs(&decl.attrs, Site::Tool);
        let params = self.fields(&decl.params, Site::Param, None, "E0203", "parameter");
        let returns = self.returns(decl.returns.as_ref(), true);
        let (name, span, derived) = match &attrs.name {
            Some((name, span)) => (name.clone(), *span, false),
            None => (
                names::derived_tool_name(&decl.name.name),
                decl.name.span,
                true,
            ),
        };
        match names::check_tool_name(&name) {
            Err(reason) => {
                let help = if derived {
                    "tool names are 1 to 128 of A-Z a-z 0-9 _ . -; set one with @name(\"…\")"
                } else {
                    "tool names are 1 to 128 of A-Z a-z 0-9 _ . -"
                };
                self.error(
                    "E0401",
                    span,
                    format!("invalid tool name \"{name}\": {reason}"),
                )
                .help = Some(help.into());
            }
            Ok(warnings) => {
                for (code, message) in warnings {
                    self.warning(code, span, message).help = Some(
                        "a name of at most 64 of A-Z a-z 0-9 _ - is accepted everywhere".into(),
                    );
                }
            }
        }
        Tool {
            ident: decl.name.name.clone(),
            name,
            title: attrs.title.clone(),
            doc: decl.doc.lines.clone(),
            description: description(&attrs, &decl.doc),
            params,
            returns,
            annotations: Annotations {
                title: attrs.title.clone(),
                read_only: attrs.read_only,
                destructive: attrs.destructive,
                idempotent: attrs.idempotent,
                open_world: attrs.open_world,
            },
            ui: attrs.ui.clone(),
        }
    }

    fn resource(&mut self, decl: &MemberDecl) -> Resource {
        let attrs = self.attrs(&decl.attrs, Site::Resource);
        let params = self.fields(&decl.params, Site::Param, None, "E0203", "parameter");
        self.text_like(decl, &params);
        let returns = self.returns(decl.returns.as_ref(), false);
        let mut is_template = false;
        let uri = match &attrs.uri {
            None => {
                self.error("E0801", decl.name.span, format!("resource `{}` has no `@uri`", decl.name.name))
                    .help = Some("add @uri(\"scheme://path\"), or a template such as @uri(\"scheme://items/{id}\")".into());
                String::new()
            }
            Some((uri, span)) => {
                match names::template_variables(uri) {
                    Err(reason) => {
                        self.error("E0805", *span, format!("invalid URI template: {reason}"))
                            .help =
                            Some("template variables are written `{name}` (RFC 6570)".into());
                    }
                    Ok(vars) => {
                        is_template = !vars.is_empty();
                        for var in &vars {
                            if !params.iter().any(|p| p.json_name == *var) {
                                self.error(
                                    "E0802",
                                    *span,
                                    format!("URI template variable `{{{var}}}` has no parameter of that name"),
                                )
                                .help = Some(format!("add a parameter `{var}: string`"));
                            }
                        }
                        for (param, p) in decl.params.iter().zip(&params) {
                            if !vars.contains(&p.json_name) {
                                let message = format!(
                                    "parameter `{}` does not appear in the URI \"{uri}\"",
                                    p.name
                                );
                                self.error("E0803", param.name.span, message).help = Some(format!(
                                    "add `{{{}}}` to the URI template, or remove the parameter",
                                    p.json_name
                                ));
                            }
                        }
                    }
                }
                uri.clone()
            }
        };
        Resource {
            ident: decl.name.name.clone(),
            name: attrs
                .name
                .as_ref()
                .map_or_else(|| decl.name.name.clone(), |(n, _)| n.clone()),
            title: attrs.title.clone(),
            doc: decl.doc.lines.clone(),
            description: description(&attrs, &decl.doc),
            uri,
            is_template,
            mime_type: attrs.mime.clone(),
            params,
            returns,
        }
    }

    fn prompt(&mut self, decl: &MemberDecl) -> Prompt {
        let attrs = self.attrs(&decl.attrs, Site::Prompt);
        let params = self.fields(&decl.params, Site::Param, None, "E0203", "parameter");
        self.text_like(decl, &params);
        Prompt {
            ident: decl.name.name.clone(),
            name: attrs
                .name
                .as_ref()
                .map_or_else(|| decl.name.name.clone(), |(n, _)| n.clone()),
            title: attrs.title.clone(),
            doc: decl.doc.lines.clone(),
            description: description(&attrs, &decl.doc),
            params,
            returns: self.returns(decl.returns.as_ref(), false),
        }
    }

    /// Resource and prompt parameters arrive as text: each must have a text-like type.
    fn text_like(&mut self, decl: &MemberDecl, params: &[Field]) {
        for param in params {
            let Some(pdecl) = decl.params.iter().find(|p| p.name.name == param.name) else {
                continue;
            };
            let is_enum = |t: &Type| {
                matches!(
                    t,
                    Type::Named {
                        def: DefKind::Enum,
                        ..
                    }
                )
            };
            // A type that failed to resolve was reported already (and left as `json`).
            let unresolved = pdecl.ty.path_text() != "json"
                && param.ty
                    == (Type::Primitive {
                        name: Primitive::Json,
                    });
            if unresolved || is_text_like(&param.ty, is_enum) {
                continue;
            }
            let kind = decl.kind.keyword();
            let message = format!(
                "parameter `{}` of {kind} `{}` has type `{}`, which is not text-like",
                param.name,
                decl.name.name,
                type_text(&param.ty)
            );
            self.error("E0804", pdecl.ty.span, message).help = Some(
                "resource and prompt parameters arrive as text: use string, bool, an integer or float, uuid, date, datetime, time, duration, uri, char or an enum (or one of these with `?`)".into(),
            );
        }
    }

    // ---- infinite records ----

    /// Reports each cycle of records linked by non-nullable direct record fields: such a
    /// record can only be satisfied by an infinite value.
    fn infinite_records(&mut self, ast: &ast::File, types: &[TypeDef]) {
        let records: Vec<&Record> = types
            .iter()
            .filter_map(|t| match t {
                TypeDef::Record(r) => Some(r),
                TypeDef::Enum(_) => None,
            })
            .collect();
        let index = |name: &str| records.iter().position(|r| r.name == name);
        let edges: Vec<Vec<(usize, &str)>> = records
            .iter()
            .map(|r| {
                r.fields
                    .iter()
                    .filter_map(|f| match &f.ty {
                        Type::Named {
                            package,
                            name,
                            def: DefKind::Record,
                        } if *package == self.scope.package => {
                            index(name).map(|i| (i, f.name.as_str()))
                        }
                        _ => None,
                    })
                    .collect()
            })
            .collect();
        let mut reported = vec![false; records.len()];
        for start in 0..records.len() {
            if reported[start] {
                continue;
            }
            // Breadth-first from `start`, remembering how each record was reached.
            let mut came_from: Vec<Option<(usize, &str)>> = vec![None; records.len()];
            let mut queue = std::collections::VecDeque::from([start]);
            let mut closing = None;
            while let Some(at) = queue.pop_front() {
                for &(to, field) in &edges[at] {
                    if to == start {
                        closing = Some((at, field));
                        queue.clear();
                        break;
                    }
                    if came_from[to].is_none() && to != start {
                        came_from[to] = Some((at, field));
                        queue.push_back(to);
                    }
                }
            }
            let Some((last, last_field)) = closing else {
                continue;
            };
            let mut steps = vec![(last, last_field)];
            let mut at = last;
            while at != start {
                let (prev, field) = came_from[at].expect("reached");
                steps.push((prev, field));
                at = prev;
            }
            steps.reverse();
            let mut path: Vec<String> = Vec::new();
            for &(from, field) in &steps {
                reported[from] = true;
                path.push(format!("{}.{field}", records[from].name));
            }
            path.push(records[start].name.clone());
            let name = &records[start].name;
            let span = ast
                .items
                .iter()
                .find(|i| matches!(i, Item::Record(_)) && i.name().name == *name)
                .map_or(Span::default(), |i| i.name().span);
            let d = self.error(
                "E0901",
                span,
                format!("record `{name}` can only be satisfied by an infinite value"),
            );
            d.note = Some(format!(
                "cycle of required record fields: {}",
                path.join(" → ")
            ));
            d.help = Some("make one of these fields nullable (`T?`), or hold the record in a list, set or map".into());
        }
    }
}

fn number_text(n: Number) -> String {
    match n {
        Number::UInt(u) => u.to_string(),
        Number::Int(i) => i.to_string(),
        Number::Float(f) => f.to_string(),
    }
}

/// Compiles an ECMA-262 pattern: accepted in either regress mode (plain or `u`), since JSON
/// Schema validators differ on the flag.
fn compile_pattern(pattern: &str) -> Result<regress::Regex, String> {
    regress::Regex::new(pattern)
        .or_else(|plain| regress::Regex::with_flags(pattern, "u").map_err(|_| plain.to_string()))
}
