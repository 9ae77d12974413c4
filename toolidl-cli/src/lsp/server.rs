//! The loop: the initialize handshake, documents, debounced checks, request dispatch.

use std::collections::{BTreeSet, HashMap};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use crossbeam_channel::RecvTimeoutError;
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::{self as notif, Notification as _};
use lsp_types::request::{self as req, Request as _};
use lsp_types::*;
use serde_json::{Value, json};
use toolidl_codegen::profile::Profile;

use super::analysis::{Analysis, analyze};
use super::index::Indexes;
use super::workspace::{OpenDoc, Workspace, key_of};
use super::{actions, completion, format, hover, navigate, symbols, tokens};

const DEFAULT_DEBOUNCE: Duration = Duration::from_millis(25);

struct Server<'c> {
    connection: &'c Connection,
    workspace: Workspace,
    profile: Option<Profile>,
    debounce: Duration,
    /// The latest compile of each open document.
    analyses: HashMap<String, Analysis>,
    /// Open documents to re-check when the debounce ends.
    dirty: BTreeSet<String>,
    deadline: Option<Instant>,
}

fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Options(
            TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::FULL),
                save: Some(TextDocumentSyncSaveOptions::Supported(true)),
                ..Default::default()
            },
        )),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        rename_provider: Some(OneOf::Right(RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: Default::default(),
        })),
        document_formatting_provider: Some(OneOf::Left(true)),
        document_symbol_provider: Some(OneOf::Left(true)),
        folding_range_provider: Some(FoldingRangeProviderCapability::Simple(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec!["@".into(), ":".into(), "\"".into(), "/".into()]),
            ..Default::default()
        }),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![CodeActionKind::QUICKFIX]),
            ..Default::default()
        })),
        semantic_tokens_provider: Some(SemanticTokensServerCapabilities::SemanticTokensOptions(
            SemanticTokensOptions {
                legend: tokens::legend(),
                full: Some(SemanticTokensFullOptions::Bool(true)),
                ..Default::default()
            },
        )),
        ..Default::default()
    }
}

pub fn serve(connection: &Connection) -> Result<(), String> {
    let (id, params) = connection.initialize_start().map_err(|e| e.to_string())?;
    let params: InitializeParams = serde_json::from_value(params).unwrap_or_default();
    let result = json!({
        "capabilities": capabilities(),
        "serverInfo": { "name": "toolidl", "version": env!("CARGO_PKG_VERSION") },
    });
    connection
        .initialize_finish(id, result)
        .map_err(|e| e.to_string())?;
    let mut server = Server {
        connection,
        workspace: Workspace {
            root: root_of(&params),
            open: Default::default(),
        },
        profile: None,
        debounce: DEFAULT_DEBOUNCE,
        analyses: HashMap::new(),
        dirty: BTreeSet::new(),
        deadline: None,
    };
    if let Some(options) = &params.initialization_options {
        server.configure(options);
    }
    server.run()
}

#[allow(deprecated)] // `root_uri` and `root_path`: older clients send only those.
fn root_of(params: &InitializeParams) -> Option<PathBuf> {
    let uri = params
        .workspace_folders
        .as_ref()
        .and_then(|f| f.first())
        .map(|f| f.uri.clone())
        .or_else(|| params.root_uri.clone());
    let path = match uri {
        Some(uri) => uri.to_file_path().ok()?,
        None => PathBuf::from(params.root_path.clone()?),
    };
    Some(std::fs::canonicalize(&path).unwrap_or(path))
}

impl Server<'_> {
    fn run(&mut self) -> Result<(), String> {
        loop {
            let message = match self.deadline {
                Some(deadline) => {
                    let wait = deadline.saturating_duration_since(Instant::now());
                    match self.connection.receiver.recv_timeout(wait) {
                        Ok(message) => Some(message),
                        Err(RecvTimeoutError::Timeout) => None,
                        Err(RecvTimeoutError::Disconnected) => return Ok(()),
                    }
                }
                None => match self.connection.receiver.recv() {
                    Ok(message) => Some(message),
                    Err(_) => return Ok(()),
                },
            };
            match message {
                None => self.flush(),
                Some(Message::Request(request)) => {
                    if self
                        .connection
                        .handle_shutdown(&request)
                        .map_err(|e| e.to_string())?
                    {
                        return Ok(());
                    }
                    // Answers reflect every change received before the request.
                    self.flush();
                    let response = self.answer(request);
                    self.send(response.into());
                }
                Some(Message::Notification(n)) if n.method == notif::Exit::METHOD => return Ok(()),
                Some(Message::Notification(n)) => self.notification(n),
                Some(Message::Response(_)) => {}
            }
        }
    }

    fn send(&self, message: Message) {
        // A closed channel means the client is gone; the loop ends on the next receive.
        let _ = self.connection.sender.send(message);
    }

    fn notify<N: notif::Notification>(&self, params: N::Params) {
        self.send(Notification::new(N::METHOD.to_string(), params).into());
    }

    fn show(&self, typ: MessageType, message: String) {
        self.notify::<notif::ShowMessage>(ShowMessageParams { typ, message });
    }

    /// Reads `profile` and `debounceMs`; an unknown profile is reported and ignored.
    fn configure(&mut self, settings: &Value) {
        let settings = settings.get("toolidl").unwrap_or(settings);
        match settings.get("profile") {
            Some(Value::String(name)) => {
                match Profile::parse(name) {
                    Some(profile) => self.profile = Some(profile),
                    None => {
                        let names: Vec<&str> = Profile::ALL.iter().map(|p| p.name()).collect();
                        self.show(
                        MessageType::WARNING,
                        format!("toolidl: unknown profile `{name}` (one of: {}); lint findings are off", names.join(", ")),
                    );
                        self.profile = None;
                    }
                }
            }
            Some(Value::Null) => self.profile = None,
            _ => {}
        }
        if let Some(ms) = settings.get("debounceMs").and_then(Value::as_u64) {
            self.debounce = Duration::from_millis(ms.min(5_000));
        }
    }

    fn notification(&mut self, n: Notification) {
        match n.method.as_str() {
            notif::DidOpenTextDocument::METHOD => {
                let Ok(p) = serde_json::from_value::<DidOpenTextDocumentParams>(n.params) else {
                    return;
                };
                let key = key_of(&p.text_document.uri);
                self.workspace.open.insert(
                    key.clone(),
                    OpenDoc {
                        uri: p.text_document.uri,
                        text: p.text_document.text,
                        version: p.text_document.version,
                    },
                );
                self.mark_changed(&key);
                self.dirty.insert(key);
                self.flush();
            }
            notif::DidChangeTextDocument::METHOD => {
                let Ok(p) = serde_json::from_value::<DidChangeTextDocumentParams>(n.params) else {
                    return;
                };
                let key = key_of(&p.text_document.uri);
                let Some(doc) = self.workspace.open.get_mut(&key) else {
                    return;
                };
                // Full sync: the last change holds the whole text.
                if let Some(change) = p.content_changes.into_iter().last() {
                    doc.text = change.text;
                    doc.version = p.text_document.version;
                }
                self.mark_changed(&key);
                self.dirty.insert(key);
                self.deadline = Some(Instant::now() + self.debounce);
            }
            notif::DidCloseTextDocument::METHOD => {
                let Ok(p) = serde_json::from_value::<DidCloseTextDocumentParams>(n.params) else {
                    return;
                };
                let key = key_of(&p.text_document.uri);
                self.workspace.open.remove(&key);
                self.analyses.remove(&key);
                self.dirty.remove(&key);
                self.publish(p.text_document.uri, Vec::new(), None);
                // Its importers now read the saved file.
                self.mark_changed(&key);
                self.flush();
            }
            notif::DidSaveTextDocument::METHOD | notif::DidChangeWatchedFiles::METHOD => {
                self.dirty.extend(self.workspace.open.keys().cloned());
                self.flush();
            }
            notif::DidChangeConfiguration::METHOD => {
                if let Ok(p) = serde_json::from_value::<DidChangeConfigurationParams>(n.params) {
                    self.configure(&p.settings);
                }
                self.dirty.extend(self.workspace.open.keys().cloned());
                self.flush();
            }
            _ => {}
        }
    }

    /// Marks every open document whose last check read `key` (an import of it).
    fn mark_changed(&mut self, key: &str) {
        for (root, analysis) in &self.analyses {
            if root != key && analysis.files_read().any(|k| k == key) {
                self.dirty.insert(root.clone());
            }
        }
    }

    /// Checks every dirty document and publishes its diagnostics.
    fn flush(&mut self) {
        self.deadline = None;
        for key in std::mem::take(&mut self.dirty) {
            let Some(doc) = self.workspace.open.get(&key) else {
                continue;
            };
            let (uri, version) = (doc.uri.clone(), doc.version);
            let checked = catch_unwind(AssertUnwindSafe(|| {
                analyze(&self.workspace, &key, self.profile)
            }));
            let Ok(analysis) = checked else {
                // The previous diagnostics stay: better than none.
                self.show(
                    MessageType::ERROR,
                    format!(
                        "toolidl: internal error while checking {}",
                        self.workspace.display_name(&key)
                    ),
                );
                continue;
            };
            let diagnostics = analysis.diagnostics.get(&key).cloned().unwrap_or_default();
            self.publish(uri, diagnostics, Some(version));
            self.analyses.insert(key, analysis);
        }
    }

    fn publish(&self, uri: Url, diagnostics: Vec<Diagnostic>, version: Option<i32>) {
        self.notify::<notif::PublishDiagnostics>(PublishDiagnosticsParams {
            uri,
            diagnostics,
            version,
        });
    }

    fn answer(&mut self, request: Request) -> Response {
        let id = request.id.clone();
        let method = request.method.clone();
        match catch_unwind(AssertUnwindSafe(|| self.dispatch(request))) {
            Ok(response) => response,
            Err(_) => Response::new_err(
                id,
                ErrorCode::InternalError as i32,
                format!("toolidl lsp: internal error answering {method}"),
            ),
        }
    }

    fn dispatch(&mut self, request: Request) -> Response {
        let id = request.id.clone();
        match request.method.as_str() {
            req::HoverRequest::METHOD => {
                self.at_position::<req::HoverRequest, _>(request, |s, indexes, key, offset| {
                    Ok(hover::hover(indexes, s.analyses.get(key), key, offset))
                })
            }
            req::GotoDefinition::METHOD => {
                self.at_position::<req::GotoDefinition, _>(request, |_, indexes, key, offset| {
                    Ok(navigate::definition(indexes, key, offset)
                        .map(GotoDefinitionResponse::Scalar))
                })
            }
            req::References::METHOD => {
                let Some(p) = params::<ReferenceParams>(request.params.clone()) else {
                    return invalid(id);
                };
                let include = p.context.include_declaration;
                self.at_position::<req::References, _>(request, move |_, indexes, key, offset| {
                    Ok(navigate::references(indexes, key, offset, include))
                })
            }
            req::PrepareRenameRequest::METHOD => self.at_position::<req::PrepareRenameRequest, _>(
                request,
                |_, indexes, key, offset| {
                    Ok(navigate::prepare_rename(indexes, key, offset)
                        .map(PrepareRenameResponse::Range))
                },
            ),
            req::Rename::METHOD => {
                let Some(p) = params::<RenameParams>(request.params.clone()) else {
                    return invalid(id);
                };
                let new_name = p.new_name;
                self.at_position::<req::Rename, _>(request, move |s, indexes, key, offset| {
                    let renamed = navigate::rename(indexes, key, offset, &new_name)?;
                    Ok(renamed.map(|r| {
                        if let Some(warning) = r.warning {
                            s.show(MessageType::WARNING, warning);
                        }
                        r.edit
                    }))
                })
            }
            req::Completion::METHOD => {
                self.at_position::<req::Completion, _>(request, |_, indexes, key, offset| {
                    Ok(Some(CompletionResponse::Array(completion::complete(
                        indexes, key, offset,
                    ))))
                })
            }
            req::Formatting::METHOD => {
                self.on_document::<req::Formatting, _>(request, |s, _, key| {
                    let text = s.workspace.read(key)?;
                    format::format(&text).map(Some)
                })
            }
            req::DocumentSymbolRequest::METHOD => self
                .on_document::<req::DocumentSymbolRequest, _>(request, |_, indexes, key| {
                    Ok(indexes
                        .get(key)
                        .map(|f| DocumentSymbolResponse::Nested(symbols::document_symbols(&f))))
                }),
            req::FoldingRangeRequest::METHOD => self
                .on_document::<req::FoldingRangeRequest, _>(request, |_, indexes, key| {
                    Ok(indexes.get(key).map(|f| symbols::folding_ranges(&f)))
                }),
            req::SemanticTokensFullRequest::METHOD => self
                .on_document::<req::SemanticTokensFullRequest, _>(request, |_, indexes, key| {
                    Ok(indexes
                        .get(key)
                        .map(|f| SemanticTokensResult::Tokens(tokens::tokens(indexes, &f))))
                }),
            req::CodeActionRequest::METHOD => {
                let Some(p) = params::<CodeActionParams>(request.params) else {
                    return invalid(id);
                };
                let key = key_of(&p.text_document.uri);
                let mut indexes = Indexes::new(&self.workspace);
                let result: CodeActionResponse = actions::quick_fixes(
                    &mut indexes,
                    &key,
                    &p.text_document.uri,
                    &p.context.diagnostics,
                );
                Response::new_ok(id, result)
            }
            _ => Response::new_err(
                id,
                ErrorCode::MethodNotFound as i32,
                format!("toolidl lsp does not handle {}", request.method),
            ),
        }
    }

    /// A request about a position of a document: the handler gets the document's key and
    /// the position's byte offset.
    fn at_position<R, F>(&mut self, request: Request, handler: F) -> Response
    where
        R: req::Request,
        R::Params: serde::de::DeserializeOwned,
        F: FnOnce(&Server<'_>, &mut Indexes<'_>, &str, usize) -> Result<R::Result, String>,
    {
        let id = request.id.clone();
        let Some(position) = position_of(&request.params) else {
            return invalid(id);
        };
        let Some(uri) = uri_of_request(&request.params) else {
            return invalid(id);
        };
        let key = key_of(&uri);
        let Ok(text) = self.workspace.read(&key) else {
            return Response::new_ok(id, Value::Null);
        };
        let offset = super::text::LineIndex::new(&text).offset(&text, position);
        let mut indexes = Indexes::new(&self.workspace);
        respond(id, handler(self, &mut indexes, &key, offset))
    }

    fn on_document<R, F>(&mut self, request: Request, handler: F) -> Response
    where
        R: req::Request,
        F: FnOnce(&Server<'_>, &mut Indexes<'_>, &str) -> Result<R::Result, String>,
    {
        let id = request.id.clone();
        let Some(uri) = uri_of_request(&request.params) else {
            return invalid(id);
        };
        let key = key_of(&uri);
        let mut indexes = Indexes::new(&self.workspace);
        respond(id, handler(self, &mut indexes, &key))
    }
}

fn respond<T: serde::Serialize>(id: RequestId, result: Result<T, String>) -> Response {
    match result {
        Ok(value) => Response::new_ok(id, value),
        Err(message) => Response::new_err(id, ErrorCode::RequestFailed as i32, message),
    }
}

fn params<P: serde::de::DeserializeOwned>(value: Value) -> Option<P> {
    serde_json::from_value(value).ok()
}

fn invalid(id: RequestId) -> Response {
    Response::new_err(
        id,
        ErrorCode::InvalidParams as i32,
        "toolidl lsp: the request's parameters do not have the protocol's shape".into(),
    )
}

fn uri_of_request(params: &Value) -> Option<Url> {
    let uri = params.get("textDocument")?.get("uri")?.as_str()?;
    Url::parse(uri).ok()
}

fn position_of(params: &Value) -> Option<Position> {
    serde_json::from_value(params.get("position")?.clone()).ok()
}
