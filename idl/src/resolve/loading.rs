//! Loading: the root file and, depth first, every file it imports, each parsed once.

use super::*;

/// Imports nested deeper than this are refused (a loader could otherwise serve ever new files).
pub(super) const MAX_IMPORT_DEPTH: usize = 64;

pub(super) struct LoadedFile {
    pub(super) ast: Option<ast::File>,
    pub(super) package: String,
    /// One entry per `import` of the file, in order; `None` when it failed.
    pub(super) imports: Vec<Option<FileId>>,
    /// A direct import failed to load or parse: unknown names are then not reported.
    pub(super) incomplete: bool,
}

pub(super) struct Loading<'a> {
    pub(super) loader: &'a dyn SourceLoader,
    pub(super) sources: SourceMap,
    pub(super) files: Vec<LoadedFile>,
    pub(super) diagnostics: Vec<Diagnostic>,
    pub(super) stack: Vec<FileId>,
}

impl Loading<'_> {
    pub(super) fn load(&mut self, id: SourceId, text: String) -> FileId {
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

    pub(super) fn import(
        &mut self,
        file: FileId,
        id: &SourceId,
        import: &ast::Import,
    ) -> Option<FileId> {
        let error =
            |code, message: String| Diagnostic::error(code, message).at(file, import.path_span);
        match self.loader.load(id, &import.path) {
            Err(e) => {
                let (dir, name) = match import.path.rsplit_once('/') {
                    Some((dir, name)) => (format!("{dir}/"), name),
                    None => (String::new(), import.path.as_str()),
                };
                let help = match crate::diagnostics::suggest(
                    name,
                    e.siblings.iter().map(String::as_str),
                ) {
                    Some(close) => format!(
                        "did you mean \"{dir}{close}\"? (import paths are relative to the importing file)"
                    ),
                    None => "import paths are relative to the importing file".into(),
                };
                self.diagnostics.push(
                    error(
                        "E1001",
                        format!("cannot read import \"{}\": {}", import.path, e.message),
                    )
                    .help(help),
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

pub(super) fn join_path(path: &[Ident]) -> String {
    path.iter()
        .map(|i| i.name.as_str())
        .collect::<Vec<_>>()
        .join(".")
}
