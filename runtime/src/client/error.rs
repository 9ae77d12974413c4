//! What a client call can fail with.

use serde_json::Value;

use crate::protocol::RpcError;

/// Why a client call did not produce the value it declares.
///
/// The variants keep apart what a caller reacts to differently: a tool that ran and said
/// no ([`Tool`](ClientError::Tool)), a request the server refused
/// ([`Protocol`](ClientError::Protocol)), a connection that broke
/// ([`Transport`](ClientError::Transport)), a server that wants authorization the client
/// cannot give ([`Authorization`](ClientError::Authorization)), a server whose reply
/// breaks its own declaration ([`Mismatch`](ClientError::Mismatch)), and a request for
/// input (2026-07-28) the client did not answer ([`Input`](ClientError::Input)).
#[derive(Debug, Clone, PartialEq)]
pub enum ClientError {
    /// The tool's own error result (`isError: true`), as the server sent it.
    Tool {
        /// The text of the result's text blocks, joined by newlines.
        text: String,
        /// The result's content blocks.
        content: Vec<Value>,
    },
    /// A JSON-RPC error reply: code, message and data as the server sent them.
    Protocol(RpcError),
    /// The connection failed: the server went away, or sent something that is not JSON-RPC.
    Transport(String),
    /// The server refused the request for want of authorization (HTTP 401 or 403), and the
    /// client has none to give or could not get it: no credentials configured, the
    /// authorization server refused, or what it gave failed a check (an issuer or audience
    /// that is not the expected one). The text says which.
    Authorization(String),
    /// The reply does not match what the `.tool` file declares: the result type of a tool,
    /// resource or prompt, or the shape of its result object.
    Mismatch {
        /// What was called, as the message names it: ``tool `locate` ``,
        /// ``resource `weather://cities/Oslo` ``, ``prompt `summarize` ``.
        call: String,
        /// What was wrong.
        problem: String,
    },
    /// Under 2026-07-28 the server answered `input_required`, asking for something the
    /// client's request handler did not give (no handler, or its error): the call ends
    /// here, as the protocol has no way to send the server an error for it.
    Input {
        /// The server's key for the request, in `inputRequests`.
        key: String,
        /// What the server asked for: `elicitation/create`, `sampling/createMessage`,
        /// `roots/list`.
        method: String,
        /// Why it was not answered: the handler's error, or -32601 without a handler.
        error: Box<RpcError>,
    },
}

impl std::fmt::Display for ClientError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ClientError::Tool { text, .. } => write!(f, "the tool failed: {text}"),
            ClientError::Protocol(error) => write!(f, "the server refused the request: {error}"),
            ClientError::Transport(problem) => write!(f, "the connection failed: {problem}"),
            ClientError::Authorization(problem) => {
                write!(f, "the server requires authorization: {problem}")
            }
            ClientError::Mismatch { call, problem } => write!(
                f,
                "the result of {call} does not match its declaration: {problem}"
            ),
            ClientError::Input { key, method, error } => write!(
                f,
                "the server asked for `{method}` (input `{key}`), which the client did not answer: {error}"
            ),
        }
    }
}

impl std::error::Error for ClientError {}

impl From<RpcError> for ClientError {
    fn from(error: RpcError) -> Self {
        ClientError::Protocol(error)
    }
}
