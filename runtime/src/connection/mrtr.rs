//! 2026-07-28 multi round-trip requests (`tools/call`, `prompts/get`, `resources/read`): the
//! `requestState` a retry presents is opened and checked before its handler runs, and the
//! one a handler returns is sealed on its way out ([`crate::seal`]). With single use, the
//! presented state's nonce is recorded in the task store before the handler starts. Under
//! the handshake revisions both fields are ignored.

use std::time::SystemTime;

use serde_json::Value;
use serde_json::value::RawValue;

use super::Connection;
use super::params::Params;
use crate::peer::CallState;
use crate::protocol::Method;
use crate::protocol::{Revision, RpcError};
use crate::seal::Origin;
use crate::server::Server;
use crate::service::{BoxFuture, ToolError, ToolOutput, ToolResult};

/// What a request brings back from an earlier `input_required`, checked.
#[derive(Default)]
pub(super) struct Retry {
    /// `inputResponses` (an object).
    pub responses: Option<Value>,
    /// The handler's own state, opened.
    pub state: Option<String>,
    /// The request, to seal the state of its next `input_required` for.
    pub origin: Option<Origin>,
    /// With single use: the presented state, to record before the handler runs.
    pub once: Option<Once>,
}

/// A presented state's nonce and expiry, to record once ([`after_use`]).
pub(super) struct Once {
    nonce: String,
    expires: SystemTime,
}

impl Connection {
    /// The `inputResponses` and `requestState` of a `method` request for `target` (a tool or
    /// prompt name, a resource URI) with `arguments`, checked. Under the handshake revisions
    /// both are ignored (the handler sees neither). Under 2026-07-28, `inputResponses` must
    /// be an object, and a `requestState` must be one this server sealed for this very
    /// request and principal, unexpired, that asked every key `inputResponses` answers:
    /// else -32602, before any handler runs.
    pub(super) fn retry(
        &self,
        rev: Revision,
        method: Method,
        target: &str,
        arguments: Option<&RawValue>,
        p: &mut Params<'_>,
    ) -> Result<Retry, RpcError> {
        let responses = p.input_responses.take();
        let state = p.request_state.take();
        if !rev.is_stateless() {
            return Ok(Retry::default());
        }
        if responses.as_ref().is_some_and(|r| !r.is_object()) {
            return Err(RpcError::invalid_params(
                "Invalid params: inputResponses must be an object.",
            ));
        }
        let origin = Origin::new(
            method.name(),
            target,
            arguments.map(RawValue::get),
            self.identity().principal(),
        );
        let Some(sealed) = state else {
            // Nothing was asked that the runtime knows of: the handler judges the answers
            // (MRTR: a server SHOULD ignore what it does not recognize).
            return Ok(Retry {
                responses,
                origin: Some(origin),
                ..Retry::default()
            });
        };
        let sealer = &self.server.shared.sealer;
        let opened = sealer.open(&sealed, &origin, responses.as_ref(), SystemTime::now())?;
        let once = sealer.single_use.then_some(Once {
            nonce: opened.nonce,
            expires: opened.expires,
        });
        Ok(Retry {
            responses,
            state: opened.state,
            origin: Some(origin),
            once,
        })
    }
}

/// A tool's `input_required` outcome with its `requestState` sealed: the handler's state (if
/// any) with the keys it asked, for a retry of this very request. Anything else as it is.
pub(super) fn seal_output(server: &Server, call: &CallState, result: ToolResult) -> ToolResult {
    let Some(origin) = &call.origin else {
        return result;
    };
    match result {
        Ok(ToolOutput::InputRequired { requests, state })
            if !requests.is_empty() || state.is_some() =>
        {
            let sealer = &server.shared.sealer;
            match sealer.seal(origin, requests.keys(), state, SystemTime::now()) {
                Ok(sealed) => Ok(ToolOutput::InputRequired {
                    requests,
                    state: Some(sealed),
                }),
                Err(e) => Err(ToolError::internal(e)),
            }
        }
        other => other,
    }
}

/// A prompt's or resource's result: an `input_required` one with its `requestState` sealed
/// as [`seal_output`] does; -32603 when its `requestState` is not a string or cannot be
/// sealed.
pub(super) fn seal_value(
    server: &Server,
    call: &CallState,
    value: Value,
) -> Result<Value, RpcError> {
    let Some(origin) = &call.origin else {
        return Ok(value);
    };
    let Value::Object(mut result) = value else {
        return Ok(value);
    };
    if result.get("resultType").and_then(Value::as_str) != Some("input_required") {
        return Ok(Value::Object(result));
    }
    let failed = |why: &dyn std::fmt::Display| {
        tracing::error!(request = %call.request_id, error = %why, "input_required not sent");
        RpcError::internal("Internal error.")
    };
    let state = match result.shift_remove("requestState") {
        None => None,
        Some(Value::String(s)) => Some(s),
        Some(_) => return Err(failed(&"requestState is not a string")),
    };
    let asked: Vec<String> = match result.get("inputRequests") {
        Some(Value::Object(requests)) => requests.keys().cloned().collect(),
        _ => Vec::new(),
    };
    if asked.is_empty() && state.is_none() {
        return Ok(Value::Object(result));
    }
    let sealed = server
        .shared
        .sealer
        .seal(origin, asked.iter(), state, SystemTime::now())
        .map_err(|e| failed(&e))?;
    result.insert("requestState".into(), sealed.into());
    Ok(Value::Object(result))
}

/// The future `start` makes, started only once the presented state's nonce is recorded as
/// used (single use); a state used before is refused with -32602 (`refused` makes the
/// future's output of the error), and the handler never runs.
pub(super) fn after_use<T: Send + 'static>(
    server: &Server,
    once: Once,
    refused: fn(RpcError) -> T,
    start: impl FnOnce() -> BoxFuture<T> + Send + 'static,
) -> BoxFuture<T> {
    let server = server.clone();
    Box::pin(async move {
        match use_once(&server, &once).await {
            Ok(()) => start().await,
            Err(e) => refused(e),
        }
    })
}

/// Records `once` in the task store: -32602 when it was recorded before, -32603 when the
/// store cannot say.
pub(super) async fn use_once(server: &Server, once: &Once) -> Result<(), RpcError> {
    let store = &server.shared.tasks.store;
    match store.use_once(&once.nonce, once.expires).await {
        Ok(true) => Ok(()),
        Ok(false) => Err(RpcError::invalid_params(
            "Invalid params: requestState was already used.",
        )),
        Err(e) => {
            tracing::error!(error = %e, "a single-use requestState could not be recorded");
            Err(RpcError::internal(
                "Server busy: the requestState could not be checked; retry later.",
            ))
        }
    }
}
