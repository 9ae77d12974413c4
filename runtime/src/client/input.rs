//! 2026-07-28 multi round-trip requests from the client side: a `tools/call`,
//! `prompts/get` or `resources/read` answered `input_required` is retried, as a new
//! request, with the answers to its `inputRequests` and its `requestState` echoed back,
//! until the server answers something else.
//!
//! The server's requests go to the same [`RequestHandler`](super::RequestHandler) that
//! answers them in a handshake session's event stream, so a caller sees one behaviour
//! whichever revision the transport speaks.

use std::future::Future;

use serde_json::{Map, Value};

use super::ClientError;
use crate::protocol::{RpcError, code};

/// How many `input_required` answers in a row one call accepts before giving up: a server
/// may ask again (an answer it could not use), but not forever.
pub const MAX_INPUT_ROUNDS: usize = 16;

/// What answers the server's requests: a [`RequestHandler`](super::RequestHandler), or
/// the in-process client's responder.
type Answer = crate::testing::Respond;

/// The methods a server may answer `input_required` (the specification's list).
const RETRIED: [&str; 3] = ["tools/call", "prompts/get", "resources/read"];

/// Sends `params` with `send`; while the result is `input_required`, answers its
/// `inputRequests` with `answer` and sends again.
///
/// The retry is built from the caller's `params` each round, so only the last round's
/// `inputResponses` and `requestState` are sent (and no `requestState` when the server
/// gave none). A request the handler cannot answer ends the call: an answer cannot carry
/// an error back to the server.
pub(super) async fn answering<F, Fut>(
    method: &str,
    params: Value,
    answer: Option<&Answer>,
    send: F,
) -> Result<Value, ClientError>
where
    F: Fn(Value) -> Fut,
    Fut: Future<Output = Result<Value, ClientError>>,
{
    if !RETRIED.contains(&method) {
        return send(params).await;
    }
    let mut round = params.clone();
    for _ in 0..MAX_INPUT_ROUNDS {
        let result = send(round).await?;
        if result.get("resultType").and_then(Value::as_str) != Some("input_required") {
            return Ok(result);
        }
        round = retry(&params, &result, answer)?;
    }
    Err(ClientError::Transport(format!(
        "the server answered `{method}` with `input_required` {MAX_INPUT_ROUNDS} times in a row"
    )))
}

/// The retry of `params` after the `input_required` result `asked`.
fn retry(params: &Value, asked: &Value, answer: Option<&Answer>) -> Result<Value, ClientError> {
    let mut retry = match params {
        Value::Object(params) => params.clone(),
        _ => Map::new(),
    };
    retry.remove("inputResponses");
    retry.remove("requestState");
    if let Some(requests) = asked.get("inputRequests") {
        let Value::Object(requests) = requests else {
            return Err(ClientError::Transport(format!(
                "the server's `inputRequests` is not an object: {requests}"
            )));
        };
        let mut responses = Map::new();
        for (key, request) in requests {
            let method = request.get("method").and_then(Value::as_str).unwrap_or("");
            let params = request.get("params").unwrap_or(&Value::Null);
            let result = ask(answer, method, params).map_err(|error| ClientError::Input {
                key: key.clone(),
                method: method.to_owned(),
                error: Box::new(error),
            })?;
            responses.insert(key.clone(), result);
        }
        retry.insert("inputResponses".into(), Value::Object(responses));
    }
    if let Some(state) = asked.get("requestState") {
        retry.insert("requestState".into(), state.clone());
    }
    Ok(Value::Object(retry))
}

/// The handler's answer to the server's request `method`, or -32601 without a handler:
/// what every transport replies, or sends back as an input response.
pub(super) fn ask(
    answer: Option<&Answer>,
    method: &str,
    params: &Value,
) -> Result<Value, RpcError> {
    match answer {
        Some(answer) => answer(method, params),
        None => Err(RpcError::new(
            code::METHOD_NOT_FOUND,
            format!("this client does not handle `{method}`"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use serde_json::json;

    use super::*;

    /// Runs `answering` against a server that answers from `replies` in turn, recording
    /// what it was sent.
    fn run(
        method: &str,
        replies: Vec<Value>,
        answer: Option<&Answer>,
    ) -> (Result<Value, ClientError>, Vec<Value>) {
        let sent = Mutex::new(Vec::new());
        let replies = Mutex::new(replies.into_iter());
        let send = |params: Value| {
            sent.lock().unwrap().push(params);
            let reply = replies.lock().unwrap().next();
            async move { reply.ok_or_else(|| ClientError::Transport("no more replies".into())) }
        };
        let params = json!({"name": "t", "arguments": {"a": 1}});
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let outcome = runtime.block_on(answering(method, params, answer, send));
        (outcome, sent.into_inner().unwrap())
    }

    fn asked(requests: Option<Value>, state: Option<&str>) -> Value {
        let mut result = json!({"resultType": "input_required"});
        if let Some(requests) = requests {
            result["inputRequests"] = requests;
        }
        if let Some(state) = state {
            result["requestState"] = state.into();
        }
        result
    }

    fn elicit(_: &str, params: &Value) -> Result<Value, RpcError> {
        Ok(json!({"action": "accept", "content": {"name": params["message"]}}))
    }

    #[test]
    fn each_round_sends_only_its_own_answers_and_state() {
        let first = asked(
            Some(json!({"a": {"method": "elicitation/create", "params": {"message": "one"}}})),
            Some("s1"),
        );
        let second = asked(
            Some(json!({"b": {"method": "elicitation/create", "params": {"message": "two"}}})),
            None,
        );
        let done = json!({"resultType": "complete", "content": []});
        let (outcome, sent) = run(
            "tools/call",
            vec![first, second, done.clone()],
            Some(&elicit),
        );
        assert_eq!(outcome.unwrap(), done);
        assert_eq!(sent[0], json!({"name": "t", "arguments": {"a": 1}}));
        assert_eq!(
            sent[1],
            json!({"name": "t", "arguments": {"a": 1}, "requestState": "s1",
                   "inputResponses": {"a": {"action": "accept", "content": {"name": "one"}}}})
        );
        // No state this time, so none is sent; the first round's answer is not repeated.
        assert_eq!(
            sent[2],
            json!({"name": "t", "arguments": {"a": 1},
                   "inputResponses": {"b": {"action": "accept", "content": {"name": "two"}}}})
        );
    }

    #[test]
    fn state_alone_is_retried_at_once_without_answers() {
        let (outcome, sent) = run(
            "prompts/get",
            vec![asked(None, Some("later")), json!({"messages": []})],
            None,
        );
        assert_eq!(outcome.unwrap(), json!({"messages": []}));
        assert_eq!(sent[1]["requestState"], "later");
        assert!(sent[1].get("inputResponses").is_none(), "{}", sent[1]);
    }

    #[test]
    fn a_request_nobody_answers_ends_the_call_naming_it() {
        let ask = asked(
            Some(json!({"login": {"method": "elicitation/create", "params": {}}})),
            None,
        );
        let (outcome, sent) = run("tools/call", vec![ask], None);
        let Err(ClientError::Input { key, method, error }) = outcome else {
            panic!("{outcome:?}");
        };
        assert_eq!(
            (key.as_str(), method.as_str()),
            ("login", "elicitation/create")
        );
        assert_eq!(error.code, code::METHOD_NOT_FOUND);
        assert_eq!(sent.len(), 1);
    }

    #[test]
    fn a_server_that_keeps_asking_is_given_up_on() {
        let replies = vec![asked(None, Some("again")); MAX_INPUT_ROUNDS + 1];
        let (outcome, sent) = run("resources/read", replies, None);
        assert!(
            matches!(&outcome, Err(ClientError::Transport(m)) if m.contains("16 times")),
            "{outcome:?}"
        );
        assert_eq!(sent.len(), MAX_INPUT_ROUNDS);
    }

    #[test]
    fn other_methods_are_sent_once_whatever_they_answer() {
        let ask = asked(None, Some("x"));
        let (outcome, sent) = run("tools/list", vec![ask.clone()], None);
        assert_eq!(outcome.unwrap(), ask);
        assert_eq!(sent.len(), 1);
    }
}
