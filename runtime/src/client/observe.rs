//! What a server says about requests in flight: progress for one call, and every other
//! notification (log messages, list changes, resource updates) for the whole connection.

use std::future::Future;
use std::sync::Arc;

use serde_json::{Value, json};

/// One `notifications/progress` of a request made inside [`with_progress`].
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    /// How far the request has come; it increases with every notification.
    pub progress: f64,
    /// The total `progress` counts towards, when the server knows it.
    pub total: Option<f64>,
    /// What the server is doing, when it says.
    pub message: Option<String>,
}

/// Receives the [`Progress`] of the requests made inside [`with_progress`].
pub type ProgressHandler = Arc<dyn Fn(Progress) + Send + Sync>;

/// Receives the server's notifications other than the progress of a request made inside
/// [`with_progress`]: the method and its params (`notifications/message` for log messages,
/// `notifications/tools/list_changed`, `notifications/resources/updated`, …).
pub type NotificationHandler = Arc<dyn Fn(&str, &Value) + Send + Sync>;

tokio::task_local! {
    static PROGRESS: ProgressHandler;
}

/// Runs `call` (a generated client's method, or any request through a transport of this
/// module) with `handler` receiving its progress.
///
/// Every request `call` makes carries a `progressToken` in its `_meta`, and the server's
/// `notifications/progress` for that token go to `handler`, in the order they arrive,
/// until the reply. [`StdioTransport`](super::StdioTransport) and
/// [`HttpTransport`](super::HttpTransport) honour it; a [`Transport`](super::Transport) of
/// your own reads it with [`progress_handler`].
///
/// ```no_run
/// # async fn run(transport: &dyn toolidl_runtime::client::Transport) -> Result<(), toolidl_runtime::client::ClientError> {
/// use toolidl_runtime::client::{call_tool, with_progress};
/// let reply = with_progress(
///     |p| eprintln!("{} of {:?}", p.progress, p.total),
///     call_tool(transport, "index", serde_json::json!({"path": "."})),
/// )
/// .await?;
/// # let _ = reply; Ok(()) }
/// ```
pub async fn with_progress<F: Future>(
    handler: impl Fn(Progress) + Send + Sync + 'static,
    call: F,
) -> F::Output {
    PROGRESS.scope(Arc::new(handler), call).await
}

/// The progress handler of the [`with_progress`] the caller runs inside, if any.
pub fn progress_handler() -> Option<ProgressHandler> {
    PROGRESS.try_with(Arc::clone).ok()
}

/// `params` with `_meta.progressToken` set to `token`.
pub(crate) fn with_token(params: Value, token: i64) -> Value {
    let mut params = match params {
        Value::Object(params) => params,
        Value::Null => Default::default(),
        other => return other,
    };
    let meta = params.entry("_meta").or_insert_with(|| json!({}));
    if let Value::Object(meta) = meta {
        meta.insert("progressToken".into(), token.into());
    }
    Value::Object(params)
}

/// The token and the progress of a `notifications/progress`' params; `None` when they are
/// not one (no numeric token, no numeric progress).
pub(crate) fn progress_of(params: &Value) -> Option<(i64, Progress)> {
    let token = params.get("progressToken")?.as_i64()?;
    let progress = Progress {
        progress: params.get("progress")?.as_f64()?,
        total: params.get("total").and_then(Value::as_f64),
        message: params
            .get("message")
            .and_then(Value::as_str)
            .map(str::to_owned),
    };
    Some((token, progress))
}

/// The params of the `notifications/cancelled` for request `id`.
pub(crate) fn cancelled(id: i64) -> Value {
    json!({"requestId": id, "reason": "the client stopped waiting for the reply"})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_token_joins_the_params_meta() {
        let params = with_token(json!({"name": "x", "_meta": {"k": 1}}), 7);
        assert_eq!(
            params,
            json!({"name": "x", "_meta": {"k": 1, "progressToken": 7}})
        );
        assert_eq!(
            with_token(Value::Null, 2),
            json!({"_meta": {"progressToken": 2}})
        );
    }

    #[test]
    fn progress_is_read_with_its_token() {
        let read = progress_of(&json!({"progressToken": 3, "progress": 1, "total": 4.0}));
        assert_eq!(
            read,
            Some((
                3,
                Progress {
                    progress: 1.0,
                    total: Some(4.0),
                    message: None
                }
            ))
        );
        assert_eq!(
            progress_of(&json!({"progressToken": "a", "progress": 1})),
            None
        );
    }
}
