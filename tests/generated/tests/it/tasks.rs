//! `@task` in a `.tool` file: the generated service declares its task tools, and the server
//! runs them as tasks for a client that declares the tasks extension.

use std::sync::Arc;

use serde_json::{Value, json};
use toolidl_generated_tests::codegen::tasks::{
    BuildArgs, DeployArgs, Jobs, JobsServer, StatusArgs, TestArgs,
};
use toolidl_runtime::codegen::{RequestContext, Service, ToolError};
use toolidl_runtime::{Server, tasks::TASKS_EXTENSION, tasks::TaskSupport, transport::Connection};

struct Impl;

impl Jobs for Impl {
    async fn build(
        &self,
        _: RequestContext,
        BuildArgs { target, .. }: BuildArgs,
    ) -> Result<String, ToolError> {
        Ok(format!("built {target}"))
    }
    async fn test(
        &self,
        _: RequestContext,
        TestArgs { target, .. }: TestArgs,
    ) -> Result<String, ToolError> {
        Ok(format!("tested {target}"))
    }
    async fn deploy(&self, _: RequestContext, _: DeployArgs) -> Result<(), ToolError> {
        Ok(())
    }
    async fn status(&self, _: RequestContext, _: StatusArgs) -> Result<String, ToolError> {
        Ok("fine".into())
    }
}

#[test]
fn the_generated_service_declares_its_task_tools() {
    let service = JobsServer::new(Impl);
    assert_eq!(service.task_support("build"), Some(TaskSupport::Optional));
    assert_eq!(service.task_support("test"), Some(TaskSupport::Optional));
    assert_eq!(service.task_support("deploy"), Some(TaskSupport::Required));
    assert_eq!(service.task_support("status"), None);
    assert_eq!(service.task_support("nope"), None);
}

fn call(id: i64, name: &str, arguments: Value, extensions: Value) -> String {
    json!({
        "jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {
            "name": name, "arguments": arguments,
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "1"},
                "io.modelcontextprotocol/clientCapabilities": {"extensions": extensions},
            }
        }
    })
    .to_string()
}

#[tokio::test]
async fn a_task_tool_becomes_a_task_and_a_required_one_needs_the_extension() {
    let server = Server::builder("jobs", "1")
        .service(Arc::new(JobsServer::new(Impl)))
        .build();
    let (conn, mut outbox) = Connection::new(&server, tokio::runtime::Handle::current());
    let mut reply = async |line: String| -> Value {
        conn.handle_line(&line);
        serde_json::from_str(&outbox.recv().await.unwrap()).unwrap()
    };
    let with = json!({ TASKS_EXTENSION: {} });
    let r = reply(call(1, "build", json!({"target": "x"}), with.clone())).await;
    assert_eq!(r["result"]["resultType"], "task", "{r}");
    let r = reply(call(2, "build", json!({"target": "x"}), json!({}))).await;
    assert_eq!(r["result"]["content"][0]["text"], "built x", "{r}");
    let r = reply(call(3, "deploy", json!({"environment": "prod"}), json!({}))).await;
    assert_eq!(r["error"]["code"], -32021, "{r}");
    let r = reply(call(4, "status", json!({}), with)).await;
    assert_eq!(r["result"]["content"][0]["text"], "fine", "{r}");
}

/// The generated client's methods call task tools like any other: under 2026-07-28, with
/// the tasks extension declared, the transport (here the in-process client) waits for the
/// task and returns its typed result; without it a task-only tool is refused.
#[tokio::test]
async fn the_generated_client_waits_for_its_tasks() {
    use toolidl_generated_tests::codegen::tasks::JobsClient;
    use toolidl_runtime::client::ClientError;
    use toolidl_runtime::protocol::Revision;
    use toolidl_runtime::testing::Client;

    let server = Server::builder("jobs", "1")
        .service(Arc::new(JobsServer::new(Impl)))
        .build();
    let with = Client::builder()
        .revision(Revision::V2026_07_28)
        .capabilities(json!({"extensions": {TASKS_EXTENSION: {}}}))
        .connect(&server)
        .await
        .unwrap();
    let jobs = JobsClient::new(with);
    jobs.deploy(DeployArgs {
        environment: "prod".into(),
    })
    .await
    .unwrap();
    let built = jobs.build(BuildArgs { target: "x".into() }).await.unwrap();
    assert_eq!(built, "built x");
    let without = Client::builder()
        .revision(Revision::V2026_07_28)
        .connect(&server)
        .await
        .unwrap();
    let outcome = JobsClient::new(without)
        .deploy(DeployArgs {
            environment: "prod".into(),
        })
        .await;
    assert!(
        matches!(&outcome, Err(ClientError::Protocol(e)) if e.code == -32021),
        "{outcome:?}"
    );
}
