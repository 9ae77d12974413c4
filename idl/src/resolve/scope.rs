//! Declarations: every top-level name of every file, and the names each file can use.

use super::*;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum DeclKind {
    Record,
    Enum,
    Service,
    Alias,
    Union,
}

pub(super) struct DefInfo {
    pub(super) kind: DefKind,
    pub(super) variants: Vec<String>,
    /// The file that declares it.
    pub(super) file: FileId,
    /// Its place among that file's items.
    pub(super) item: usize,
}

/// Every declared name of every file, checked for duplicates.
pub(super) struct World {
    /// Per file: its top-level names.
    pub(super) locals: Vec<HashMap<String, DeclKind>>,
    /// Records and enums by (package, name).
    pub(super) defs: HashMap<(String, String), DefInfo>,
}

pub(super) const RESERVED: &[&str] = &["list", "set", "map", "content", "call_result"];

impl World {
    pub(super) fn declare(
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
            for (index, item) in loaded.ast.iter().flat_map(|a| &a.items).enumerate() {
                let name = item.name();
                if Primitive::named(&name.name).is_some() || RESERVED.contains(&name.name.as_str())
                {
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
                    diagnostics.push(
                        Diagnostic::error(
                            "E0201",
                            format!("the name `{}` is declared twice", name.name),
                        )
                        .at(file, name.span)
                        .also(file, *first, "first declared here")
                        .help("records, enums and services of a file share one namespace"),
                    );
                    continue;
                }
                first_span.insert(name.name.clone(), name.span);
                let (kind, def) = match item {
                    Item::Record(_) => (DeclKind::Record, Some(DefKind::Record)),
                    Item::Enum(_) => (DeclKind::Enum, Some(DefKind::Enum)),
                    Item::Service(_) => (DeclKind::Service, None),
                    Item::Alias(_) => (DeclKind::Alias, Some(DefKind::Alias)),
                    Item::Union(_) => (DeclKind::Union, Some(DefKind::Union)),
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
                        file,
                        item: index,
                    },
                );
            }
            locals.push(local);
        }
        World { locals, defs }
    }
}

/// The names a file can use.
pub(super) struct Scope {
    pub(super) package: String,
    /// Short names of records and enums of direct imports → every (package, kind) declaring it.
    pub(super) imported: BTreeMap<String, Vec<(String, DefKind)>>,
    /// Packages that qualified names may use: the file's own and its direct imports'.
    pub(super) packages: Vec<String>,
    pub(super) incomplete: bool,
}

impl Scope {
    pub(super) fn new(file: FileId, files: &[LoadedFile], world: &World) -> Scope {
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
                    DeclKind::Alias => DefKind::Alias,
                    DeclKind::Union => DefKind::Union,
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
