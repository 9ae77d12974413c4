//! The MCP methods: lifecycle, discovery, listings, and the calls that reach services.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::Ordering;

use serde_json::Value;

use super::drive::{Panicked, report_panic};
use super::mrtr::{self, Retry};
use super::params::{Params, arguments_object, completion_json, completion_request};
use super::{Connection, PER_REQUEST_REVISIONS, Reply, plain, tasks};
use crate::args::Arguments;
use crate::context::RequestContext;
use crate::output::{self, Body, finish_result, render_tool_result};
use crate::peer::{CallState, ListKind, Session, Subscription, lock, send_routed};
use crate::protocol::LogLevel;
use crate::protocol::Method;
use crate::protocol::Revision;
use crate::protocol::{self, RpcError, code, error_message, result_message};
use crate::server::{Kind, Registry, ResultCache, ToolGate, middleware};
use crate::service::{BoxFuture, Completion, Service, ToolError, ToolOutput, ToolResult};

impl Connection {
    pub(super) fn initialize(
        &self,
        p: &Params<'_>,
        registry: &Registry,
    ) -> Result<Reply, RpcError> {
        let requested = p.protocol_version.as_deref().and_then(Revision::parse);
        let revision = requested
            .filter(|r| !r.is_stateless())
            .unwrap_or(Revision::NEWEST_HANDSHAKE);
        let session = Session {
            revision,
            client_info: p.client_info.clone().unwrap_or(Value::Null),
            client_capabilities: p
                .capabilities
                .clone()
                .unwrap_or_else(|| Value::Object(Default::default())),
        };
        if self.shared.session.set(session).is_err() {
            return Err(RpcError::new(
                code::INVALID_REQUEST,
                "Invalid request: already initialized.",
            ));
        }
        let mut out = String::with_capacity(256);
        out.push_str(r#"{"protocolVersion":""#);
        out.push_str(revision.as_str());
        out.push_str(r#"","capabilities":"#);
        out.push_str(&self.capabilities(registry, revision));
        out.push_str(r#","serverInfo":"#);
        // `Implementation.title` exists from 2025-06-18.
        let info = if revision >= Revision::V2025_06_18 {
            &self.server.shared.info_json
        } else {
            &self.server.shared.info_json_untitled
        };
        out.push_str(info);
        self.push_instructions(&mut out);
        out.push('}');
        Ok(Reply(
            Body {
                json: out,
                has_meta: false,
            },
            false,
        ))
    }

    pub(super) fn discover(&self, registry: &Registry) -> Reply {
        let mut out = String::with_capacity(256);
        out.push_str(r#"{"supportedVersions":"#);
        out.push_str(&serde_json::json!(PER_REQUEST_REVISIONS).to_string());
        out.push_str(r#","capabilities":"#);
        out.push_str(&self.capabilities(registry, Revision::V2026_07_28));
        self.push_instructions(&mut out);
        out.push('}');
        Reply(
            Body {
                json: out,
                has_meta: false,
            },
            true,
        )
    }

    pub(super) fn push_instructions(&self, out: &mut String) {
        if let Some(text) = &self.server.shared.instructions {
            out.push_str(r#","instructions":"#);
            protocol::push_json_string(out, text);
        }
    }

    /// Capabilities for what the services have; `listChanged` only when run-time changes are
    /// on; `resources.subscribe` when a resource is subscribable (and, under a handshake
    /// revision, the connection outlives the request: not in stateless HTTP).
    pub(super) fn capabilities(&self, registry: &Registry, rev: Revision) -> String {
        let changes = if self.server.shared.list_changed {
            r#"{"listChanged":true}"#
        } else {
            "{}"
        };
        let mut parts = vec![r#""logging":{}"#.to_owned()];
        if registry.has_completions() && rev >= Revision::V2025_03_26 {
            parts.push(r#""completions":{}"#.to_owned());
        }
        if registry.has_prompts() {
            parts.push(format!(r#""prompts":{changes}"#));
        }
        if registry.has_resources() {
            let subscribe = self.server.has_subscriptions(registry)
                && (rev.is_stateless() || !self.shared.ephemeral.load(Ordering::Relaxed));
            let resources = match (subscribe, self.server.shared.list_changed) {
                (true, true) => r#"{"subscribe":true,"listChanged":true}"#,
                (true, false) => r#"{"subscribe":true}"#,
                (false, _) => changes,
            };
            parts.push(format!(r#""resources":{resources}"#));
        }
        if registry.has_tools() {
            parts.push(format!(r#""tools":{changes}"#));
        }
        // Extensions (SEP-2133): MCP Apps on every revision (hosts look for it before
        // reading `_meta.ui`), tasks under 2026-07-28 (a core capability before).
        let mut extensions = Vec::new();
        if registry.has_views() {
            extensions.push(format!(
                r#""{}":{{"mimeTypes":["{}"]}}"#,
                crate::protocol::APPS_EXTENSION,
                crate::protocol::MCP_APP_MIME
            ));
        }
        if rev.is_stateless() && self.server.has_task_tools(registry) {
            extensions.push(format!(r#""{}":{{}}"#, crate::tasks::TASKS_EXTENSION));
        }
        if !extensions.is_empty() {
            parts.push(format!(r#""extensions":{{{}}}"#, extensions.join(",")));
        }
        format!("{{{}}}", parts.join(","))
    }

    /// 2026-07-28 `subscriptions/listen`: acknowledges the list changes this server can
    /// announce (only with `list_changed(true)`, only for lists it has) and the subscribable
    /// URIs of `resourceSubscriptions`, and keeps the request open; it ends when the client
    /// cancels it or the connection closes. When it honors nothing, it is answered with its
    /// completion result right after the acknowledgment.
    pub(super) fn listen(&self, id: &str, p: &Params<'_>, registry: &Registry) {
        let Some(filter) = p.notifications.as_ref().filter(|f| f.is_object()) else {
            return self.reply_error(
                id,
                &RpcError::invalid_params("Invalid params: notifications is required."),
            );
        };
        let available = [
            (ListKind::Tools, registry.has_tools()),
            (ListKind::Resources, registry.has_resources()),
            (ListKind::Prompts, registry.has_prompts()),
        ];
        let kinds: Vec<ListKind> = available
            .into_iter()
            .filter(|&(k, has)| {
                has && self.server.shared.list_changed && filter[k.filter_key()] == true
            })
            .map(|(k, _)| k)
            .collect();
        let resources = match self.listened_resources(filter, registry) {
            Ok(r) => r,
            Err(e) => return self.reply_error(id, &e),
        };
        let mut honored = serde_json::Map::new();
        for k in &kinds {
            honored.insert(k.filter_key().into(), true.into());
        }
        if !resources.is_empty() {
            let uris: Vec<Value> = resources.iter().map(|u| Value::from(&**u)).collect();
            honored.insert("resourceSubscriptions".into(), uris.into());
        }
        let params = format!(
            r#"{{"_meta":{{"io.modelcontextprotocol/subscriptionId":{id}}},"notifications":{}}}"#,
            Value::Object(honored)
        );
        let route = self.route.borrow().clone();
        let ack =
            protocol::notification_message("notifications/subscriptions/acknowledged", &params);
        match &route {
            Some(route) => send_routed(route, ack, false),
            None => self.shared.send(ack),
        }
        if kinds.is_empty() && resources.is_empty() {
            // Nothing this server could ever send on it: ended at once, gracefully, rather
            // than held open for nothing.
            return self.emit(protocol::listen_complete_message(id));
        }
        lock(&self.shared.subscriptions).push(Subscription {
            id: id.into(),
            kinds,
            resources,
            route,
        });
        // A one-request connection is tracked from here on, so that changes reach it.
        if self.shared.ephemeral.load(Ordering::Relaxed) {
            self.server.track(&self.shared);
        }
    }

    /// The `resourceSubscriptions` of a listen filter that the server honors: the
    /// subscribable ones, each once, in the client's order. Not a list of strings: -32602.
    fn listened_resources(
        &self,
        filter: &Value,
        registry: &Registry,
    ) -> Result<Vec<Box<str>>, RpcError> {
        let requested = match filter.get("resourceSubscriptions") {
            None | Some(Value::Null) => return Ok(Vec::new()),
            Some(Value::Array(items)) => items,
            Some(_) => {
                return Err(RpcError::invalid_params(
                    "Invalid params: notifications.resourceSubscriptions must be an array of URIs.",
                ));
            }
        };
        let mut honored: Vec<Box<str>> = Vec::new();
        for item in requested {
            let Some(uri) = item.as_str() else {
                return Err(RpcError::invalid_params(
                    "Invalid params: notifications.resourceSubscriptions must be an array of URIs.",
                ));
            };
            if !honored.iter().any(|h| **h == *uri) && self.server.subscribable(registry, uri) {
                honored.push(uri.into());
            }
        }
        Ok(honored)
    }

    /// `resources/subscribe` (handshake revisions): remembers `uri` for this connection.
    /// A URI no service owns is -32002; one that is not subscribable, -32602.
    pub(super) fn subscribe(&self, p: &Params<'_>, registry: &Registry) -> Result<Reply, RpcError> {
        let uri = p
            .uri
            .as_deref()
            .ok_or_else(|| RpcError::invalid_params("Invalid params: uri is required."))?;
        if !self.server.subscribable(registry, uri) {
            let data = serde_json::json!({ "uri": uri });
            return Err(if registry.owns_resource(uri) {
                RpcError::invalid_params(
                    "Invalid params: this resource does not support subscriptions.",
                )
                .with_data(data)
            } else {
                RpcError::new(code::RESOURCE_NOT_FOUND, "Resource not found").with_data(data)
            });
        }
        lock(&self.shared.resource_subscriptions).insert(uri.into());
        Ok(Reply(plain("{}"), false))
    }

    /// `resources/unsubscribe`: forgets `uri` (whether or not it was subscribed).
    pub(super) fn unsubscribe(&self, p: &Params<'_>) -> Result<Reply, RpcError> {
        let uri = p
            .uri
            .as_deref()
            .ok_or_else(|| RpcError::invalid_params("Invalid params: uri is required."))?;
        lock(&self.shared.resource_subscriptions).remove(uri);
        Ok(Reply(plain("{}"), false))
    }

    pub(super) fn set_level(&self, p: &Params<'_>) -> Result<Reply, RpcError> {
        let level = p
            .level
            .as_deref()
            .and_then(LogLevel::parse)
            .ok_or_else(|| {
                RpcError::invalid_params("Invalid params: level must be a logging level.")
            })?;
        self.shared.set_log_level(Some(level));
        Ok(Reply(plain("{}"), false))
    }

    pub(super) fn list(
        &self,
        registry: &Registry,
        kind: Kind,
        rev: Revision,
        p: &Params<'_>,
        key: &str,
    ) -> Result<Reply, RpcError> {
        self.listing_page(
            registry.listing_jsons(kind, rev),
            registry.listing_scopes(kind),
            p.cursor.as_deref(),
            key,
        )
    }

    /// One page of a listing: `{"<key>":[…],"nextCursor":"…"}`; `scopes` are each item's.
    /// When the transport asked for filtered lists (feature `auth`), only the items whose
    /// scopes the request's token holds.
    pub(super) fn listing_page<S: AsRef<str>>(
        &self,
        items: &[S],
        scopes: &[&[&str]],
        cursor: Option<&str>,
        key: &str,
    ) -> Result<Reply, RpcError> {
        let size = self.page_size();
        #[cfg(feature = "auth")]
        if let Some(auth) = self.identity().listing_filter() {
            let allowed: Vec<&S> = items
                .iter()
                .zip(scopes)
                .filter(|(_, needed)| needed.iter().all(|s| auth.has_scope(s)))
                .map(|(item, _)| item)
                .collect();
            return page(&allowed, cursor, size, key);
        }
        let _ = scopes;
        page(items, cursor, size, key)
    }

    /// The context of request `id`; `retry` is what it brings back from an earlier
    /// `input_required` (nothing, for methods other than the three that may answer one).
    pub(super) fn context(
        &self,
        id: &str,
        rev: Revision,
        p: &mut Params<'_>,
        retry: Retry,
    ) -> Result<RequestContext, RpcError> {
        let meta = p.meta.take().unwrap_or_default();
        // MCP's `ProgressToken` is a string or a number; it is echoed raw in notifications.
        if let Some(t) = meta.progress_token
            && !matches!(t.get().as_bytes().first(), Some(b'"' | b'-' | b'0'..=b'9'))
        {
            return Err(RpcError::invalid_params(
                "Invalid params: _meta.progressToken must be a string or a number.",
            ));
        }
        let log_level = match meta.log_level.as_deref() {
            Some(l) => Some(LogLevel::parse(l).ok_or_else(|| {
                RpcError::invalid_params("Invalid params: unknown _meta logLevel.")
            })?),
            None => None,
        };
        Ok(RequestContext {
            state: Arc::new(CallState {
                conn: self.shared.clone(),
                revision: rev,
                request_id: id.into(),
                progress_token: meta.progress_token.map(|t| t.get().into()),
                log_level,
                client_info: meta.client_info,
                client_capabilities: meta.client_capabilities,
                input_responses: retry.responses,
                request_state: retry.state,
                origin: retry.origin,
                cancelled: Default::default(),
                cancel_signal: Default::default(),
                route: self.route.borrow().clone(),
                #[cfg(feature = "auth")]
                auth: self.identity().auth,
            }),
            server: self.server.clone(),
        })
    }

    pub(super) fn call_tool(
        &self,
        id: &str,
        rev: Revision,
        mut p: Params<'_>,
        registry: &Arc<Registry>,
    ) {
        let Some(name) = p.name.take() else {
            return self.reply_error(
                id,
                &RpcError::invalid_params("Invalid params: name is required."),
            );
        };
        let Some((service, listed)) = registry.tool(&name) else {
            let message = unknown_tool(&name, registry.tool_names());
            return self.reply_error(id, &RpcError::invalid_params(message));
        };
        let args = match arguments_object(p.arguments) {
            Ok(a) => a,
            Err(e) => return self.reply_error(id, &e),
        };
        let mut retry = match self.retry(rev, Method::CallTool, &name, Some(args), &mut p) {
            Ok(r) => r,
            Err(e) => return self.reply_error(id, &e),
        };
        let once = retry.once.take();
        let ctx = match self.context(id, rev, &mut p, retry) {
            Ok(c) => c,
            Err(e) => return self.reply_error(id, &e),
        };
        // A rate limit counts every call, tasks too.
        if let Some(gate) = &listed.gate
            && let Err(e) = gate.take_rate(|| self.identity().client_key())
        {
            return self.reply_error(id, &e);
        }
        if rev.is_stateless()
            && let Some(tool) = self.server.task_tool(registry, &name)
        {
            if tasks::declares_tasks(ctx.state.client_capabilities.as_ref()) {
                return self.start_task(registry, listed, args, ctx, tool, once);
            }
            if tool.support == crate::tasks::TaskSupport::Required {
                let e = tasks::missing_tasks_capability(&format!("The tool {name}"));
                return self.reply_error(id, &e);
            }
        }
        let state = ctx.state.clone();
        let started = if once.is_none()
            && listed.gate.is_none()
            && self.server.shared.middleware.is_empty()
        {
            // The common case: no limits, no middleware, not a single-use retry.
            catch_unwind(AssertUnwindSafe(|| listed.call(service, args, ctx)))
        } else {
            let call = Call {
                registry,
                service,
                listed,
                name,
                args,
            };
            match self.start_guarded(id, call, ctx, once) {
                Some(started) => started,
                None => return,
            }
        };
        let server = self.server.clone();
        let finish = move |outcome: Result<_, Panicked>, state: &CallState| {
            let rendered = match outcome {
                Ok(result) => {
                    let result = mrtr::seal_output(&server, state, result);
                    render_tool_result(
                        result,
                        state.revision,
                        &state.request_id,
                        server.shared.max_depth,
                    )
                }
                Err(Panicked) => Ok(output::failed_result()),
            };
            match rendered {
                Ok(body) => {
                    let r = finish_result(body, state.revision, None, &server.shared.info_json);
                    result_message(&state.request_id, &r)
                }
                Err(e) => error_message(&state.request_id, &e),
            }
        };
        match started {
            Ok(fut) => self.drive(state, fut, finish),
            Err(payload) => {
                report_panic(&state.request_id, payload.as_ref());
                self.emit(finish(Err(Panicked), &state));
            }
        }
    }

    /// Starts a call that has limits, middleware or a single-use `requestState`: its
    /// admission (a slot, a place in the queue, or a refusal, answered here: `None`), its
    /// kept result or where to keep it, its middleware, its time limit.
    fn start_guarded(
        &self,
        id: &str,
        call: Call<'_, '_>,
        ctx: RequestContext,
        once: Option<mrtr::Once>,
    ) -> Option<Started> {
        let Call {
            registry,
            service,
            listed,
            name,
            args,
        } = call;
        let admission = match listed.gate.as_ref().map(|gate| gate.admit()) {
            None => None,
            Some(Ok(admission)) => Some(admission),
            Some(Err(e)) => {
                self.reply_error(id, &e);
                return None;
            }
        };
        let gate = listed.gate.clone();
        let state = &ctx.state;
        // A read-only tool's kept result, or where to keep this one (never for a retry,
        // which carries the client's input or the handler's state).
        let fresh =
            once.is_none() && state.input_responses.is_none() && state.request_state.is_none();
        let cached = gate.as_ref().filter(|_| fresh).and_then(|gate| {
            let results = gate.results()?;
            let key = ResultCache::key(&self.identity().client_key(), args.get());
            Some((results.get(&key), gate.clone(), key))
        });
        let (kept, keep_as) = match cached {
            Some((Some(kept), ..)) => (Some(kept), None),
            Some((None, gate, key)) => (None, Some((gate, key))),
            None => (None, None),
        };
        // What the middleware sees, if there is any.
        let chain = &self.server.shared.middleware;
        let seen = (!chain.is_empty()).then(|| {
            let identity = self.identity();
            middleware::ToolCall {
                tool: name.to_string(),
                arguments: args.get().to_owned(),
                principal: identity.principal(),
                client: identity.client_key(),
                request_id: state.request_id.to_string(),
            }
        });
        let started = match once {
            // The handler does not run.
            _ if kept.is_some() => Ok(kept_result(kept)),
            None if seen.is_none() => {
                catch_unwind(AssertUnwindSafe(|| listed.call(service, args, ctx)))
            }
            // Behind middleware, the handler starts when the chain reaches it, if it does.
            None => {
                let start = deferred_call(registry, name.into_owned(), args, ctx);
                Ok(Box::pin(async move { start().await }) as BoxFuture<ToolResult>)
            }
            // Single use: the handler starts once the state is recorded as used.
            Some(once) => Ok(mrtr::after_use(
                &self.server,
                once,
                |e| Err(ToolError::Rpc(e)),
                deferred_call(registry, name.into_owned(), args, ctx),
            )),
        };
        let Ok(mut fut) = started else {
            return Some(started);
        };
        if let Some((gate, key)) = keep_as {
            fut = kept_after(fut, gate, key);
        }
        if let Some(seen) = seen {
            fut = middleware::wrap(chain, seen, fut);
        }
        if let (Some(gate), Some(admission)) = (gate, admission) {
            fut = gate.run(admission, fut);
        }
        Some(Ok(fut))
    }

    pub(super) fn read_resource(
        &self,
        id: &str,
        rev: Revision,
        mut p: Params<'_>,
        registry: &Arc<Registry>,
    ) {
        let Some(uri) = p.uri.take() else {
            return self.reply_error(
                id,
                &RpcError::invalid_params("Invalid params: uri is required."),
            );
        };
        let mut retry = match self.retry(rev, Method::ReadResource, &uri, None, &mut p) {
            Ok(r) => r,
            Err(e) => return self.reply_error(id, &e),
        };
        let once = retry.once.take();
        let ctx = match self.context(id, rev, &mut p, retry) {
            Ok(c) => c,
            Err(e) => return self.reply_error(id, &e),
        };
        let fut = match once {
            None => {
                let Some(found) =
                    self.first_service(id, registry, |s| s.read_resource(&uri, ctx.clone()))
                else {
                    return;
                };
                let Some(fut) = found else {
                    return self.reply_error(id, &resource_not_found(rev, &uri));
                };
                fut
            }
            // Single use: the service is asked once the state is recorded as used.
            Some(once) => {
                let (registry, uri, ctx) = (registry.clone(), uri.into_owned(), ctx.clone());
                mrtr::after_use(&self.server, once, Err, move || {
                    let read = |s: Arc<dyn Service>| s.read_resource(&uri, ctx.clone());
                    match registry.services.iter().cloned().find_map(read) {
                        Some(fut) => fut,
                        None => Box::pin(std::future::ready(Err(resource_not_found(rev, &uri)))),
                    }
                })
            }
        };
        // SEP-2164: under 2026-07-28 "resource not found" is -32602 (Invalid params). A
        // service that answers the handshake revisions' -32002 (`code::RESOURCE_NOT_FOUND`,
        // as generated resource methods are told to) gets it mapped, message and data kept.
        let fut: BoxFuture<Result<Value, RpcError>> = if rev.is_stateless() {
            Box::pin(async move { fut.await.map_err(modern_not_found) })
        } else if protocol::unknown_listing_keys(rev).contains(&"_meta") {
            // Contents have no `_meta` before 2025-06-18, as listed resources have none: an
            // MCP Apps view's `_meta.ui` is stripped from both for those revisions.
            Box::pin(async move { fut.await.map(without_content_meta) })
        } else {
            fut
        };
        self.drive_value(ctx, fut, true);
    }

    pub(super) fn get_prompt(
        &self,
        id: &str,
        rev: Revision,
        mut p: Params<'_>,
        registry: &Arc<Registry>,
    ) {
        let Some(name) = p.name.take() else {
            return self.reply_error(
                id,
                &RpcError::invalid_params("Invalid params: name is required."),
            );
        };
        let args = match arguments_object(p.arguments) {
            Ok(a) => a,
            Err(e) => return self.reply_error(id, &e),
        };
        let mut retry = match self.retry(rev, Method::GetPrompt, &name, Some(args), &mut p) {
            Ok(r) => r,
            Err(e) => return self.reply_error(id, &e),
        };
        let once = retry.once.take();
        let ctx = match self.context(id, rev, &mut p, retry) {
            Ok(c) => c,
            Err(e) => return self.reply_error(id, &e),
        };
        if let Some(once) = once {
            // Single use: the service is asked once the state is recorded as used.
            let (registry, name, args) = (registry.clone(), name.into_owned(), args.to_owned());
            let max_depth = self.server.shared.max_depth;
            let asked = ctx.clone();
            let fut = mrtr::after_use(&self.server, once, Err, move || {
                let args = Arguments::new(&args).with_max_depth(max_depth);
                let get = |s: Arc<dyn Service>| s.get_prompt(&name, args, asked.clone());
                match registry.services.iter().cloned().find_map(get) {
                    Some(fut) => fut,
                    None => Box::pin(std::future::ready(Err(unknown_prompt(&name)))),
                }
            });
            return self.drive_value(ctx, fut, false);
        }
        let args = Arguments::new(args).with_max_depth(self.server.shared.max_depth);
        let Some(found) =
            self.first_service(id, registry, |s| s.get_prompt(&name, args, ctx.clone()))
        else {
            return;
        };
        match found {
            Some(fut) => self.drive_value(ctx, fut, false),
            None => self.reply_error(id, &unknown_prompt(&name)),
        }
    }

    /// Asks each service in turn (`f` yields `None` for what a service does not own) and
    /// returns the first answer. If a service panics while building its future, the request
    /// is answered with -32603 (as when the future panics) and `None` is returned.
    fn first_service<T>(
        &self,
        id: &str,
        registry: &Registry,
        f: impl FnMut(Arc<dyn Service>) -> Option<T>,
    ) -> Option<Option<T>> {
        let ask = || registry.services.iter().cloned().find_map(f);
        match catch_unwind(AssertUnwindSafe(ask)) {
            Ok(v) => Some(v),
            Err(payload) => {
                report_panic(id, payload.as_ref());
                self.reply_error(id, &RpcError::internal("Internal error."));
                None
            }
        }
    }

    pub(super) fn complete(&self, id: &str, rev: Revision, mut p: Params<'_>, registry: &Registry) {
        let request = match completion_request(&p) {
            Ok(r) => r,
            Err(e) => return self.reply_error(id, &e),
        };
        let ctx = match self.context(id, rev, &mut p, Retry::default()) {
            Ok(c) => c,
            Err(e) => return self.reply_error(id, &e),
        };
        let Some(found) = self.first_service(id, registry, |s| s.complete(&request, ctx.clone()))
        else {
            return;
        };
        let fut: BoxFuture<Result<Value, RpcError>> = match found {
            Some(fut) => Box::pin(async move { fut.await.map(completion_json) }),
            None => Box::pin(async { Ok(completion_json(Completion::default())) }),
        };
        self.drive_value(ctx, fut, false);
    }
}

/// One page of `items`. Cursors are opaque offsets.
fn page<S: AsRef<str>>(
    items: &[S],
    cursor: Option<&str>,
    size: usize,
    key: &str,
) -> Result<Reply, RpcError> {
    let start = match cursor {
        None => 0,
        Some(c) => c
            .parse::<usize>()
            .ok()
            .filter(|&n| n <= items.len())
            .ok_or_else(|| RpcError::invalid_params("Invalid params: unknown cursor."))?,
    };
    let end = items.len().min(start.saturating_add(size));
    let mut out = String::with_capacity(
        64 + items[start..end]
            .iter()
            .map(|s| s.as_ref().len() + 1)
            .sum::<usize>(),
    );
    out.push_str("{\"");
    out.push_str(key);
    out.push_str("\":[");
    for (i, item) in items[start..end].iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(item.as_ref());
    }
    out.push(']');
    if end < items.len() {
        out.push_str(&format!(r#","nextCursor":"{end}""#));
    }
    out.push('}');
    Ok(Reply(
        Body {
            json: out,
            has_meta: false,
        },
        true,
    ))
}

/// "Resource not found": -32002 before 2026-07-28, -32602 (SEP-2164) from it.
fn resource_not_found(rev: Revision, uri: &str) -> RpcError {
    let code = if rev.is_stateless() {
        code::INVALID_PARAMS
    } else {
        code::RESOURCE_NOT_FOUND
    };
    RpcError::new(code, "Resource not found").with_data(serde_json::json!({ "uri": uri }))
}

fn unknown_prompt(name: &str) -> RpcError {
    RpcError::invalid_params(format!("Unknown prompt: {name}"))
}

/// A service's -32002 ("resource not found" before 2026-07-28) as 2026-07-28's -32602.
fn modern_not_found(mut e: RpcError) -> RpcError {
    if e.code == code::RESOURCE_NOT_FOUND {
        e.code = code::INVALID_PARAMS;
    }
    e
}

/// At most this many tools are named in an unknown tool's error.
const TOOLS_NAMED: usize = 8;

/// `Unknown tool: remove.`, then the closest tool's name when it looks like a typo, else the
/// tools when there are few, else where the list is: what a model needs for its next call.
fn unknown_tool(name: &str, mut tools: Vec<String>) -> String {
    tools.sort();
    tools.dedup();
    let hint = if let Some(close) =
        toolidl_formats::suggest::closest(name, tools.iter().map(String::as_str))
    {
        format!("Did you mean '{close}'?")
    } else if tools.is_empty() {
        "This server has no tools.".to_string()
    } else if tools.len() <= TOOLS_NAMED {
        let quoted: Vec<String> = tools.iter().map(|t| format!("'{t}'")).collect();
        format!("Tools: {}.", quoted.join(", "))
    } else {
        format!("tools/list lists its {} tools.", tools.len())
    };
    format!("Unknown tool: {name}. {hint}")
}

/// A handler's future, or the panic its creation raised.
type Started = Result<BoxFuture<ToolResult>, Box<dyn std::any::Any + Send>>;

/// The tool call [`Connection::start_guarded`] starts.
struct Call<'r, 'a> {
    registry: &'r Arc<Registry>,
    service: &'r Arc<dyn Service>,
    listed: &'r crate::server::ListedTool,
    name: std::borrow::Cow<'a, str>,
    args: &'a serde_json::value::RawValue,
}

/// The call of `tool` with `args`, to start later (the registry may have changed by then).
fn deferred_call(
    registry: &Arc<Registry>,
    tool: String,
    args: &serde_json::value::RawValue,
    ctx: RequestContext,
) -> impl FnOnce() -> BoxFuture<ToolResult> + Send + 'static {
    let (registry, args) = (registry.clone(), args.to_owned());
    move || match registry.tool(&tool) {
        Some((service, listed)) => listed.call(service, &args, ctx),
        None => Box::pin(std::future::ready(Err(ToolError::internal(
            "the tool left the registry",
        )))),
    }
}

/// A kept result, answered without running the handler.
fn kept_result(kept: Option<ToolOutput>) -> BoxFuture<ToolResult> {
    let result = kept.ok_or_else(|| ToolError::internal("the kept result went missing"));
    Box::pin(std::future::ready(result))
}

/// `call`, whose result `gate`'s tool keeps under `key` when it succeeds.
fn kept_after(
    call: BoxFuture<ToolResult>,
    gate: Arc<ToolGate>,
    key: String,
) -> BoxFuture<ToolResult> {
    Box::pin(async move {
        let result = call.await;
        if let (Ok(output), Some(results)) = (&result, gate.results()) {
            results.put(key, output);
        }
        result
    })
}

/// A `resources/read` result without the `_meta` of its contents.
fn without_content_meta(mut result: Value) -> Value {
    if let Some(contents) = result.get_mut("contents").and_then(Value::as_array_mut) {
        for content in contents {
            if let Some(content) = content.as_object_mut() {
                content.remove("_meta");
            }
        }
    }
    result
}

#[cfg(test)]
mod unknown_tool_tests {
    use super::unknown_tool;

    fn names(n: &[&str]) -> Vec<String> {
        n.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn names_the_closest_or_the_few_tools_or_points_at_the_list() {
        assert_eq!(
            unknown_tool("serach", names(&["search", "add"])),
            "Unknown tool: serach. Did you mean 'search'?"
        );
        assert_eq!(
            unknown_tool("remove", names(&["search", "add", "list"])),
            "Unknown tool: remove. Tools: 'add', 'list', 'search'."
        );
        let many: Vec<String> = (0..9).map(|i| format!("tool_{i}")).collect();
        assert_eq!(
            unknown_tool("remove", many),
            "Unknown tool: remove. tools/list lists its 9 tools."
        );
        assert_eq!(
            unknown_tool("remove", Vec::new()),
            "Unknown tool: remove. This server has no tools."
        );
    }
}
