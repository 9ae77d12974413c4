//! The binary over stdio, called through `toolidl_runtime::client`'s child-process
//! transport: the handshake, typed results, the tool's own error and a protocol error.

use serde_json::json;
use tokio::process::Command;
use toolidl_runtime::client::{ClientError, StdioTransport, call_tool};
use toolidl_runtime::codegen::Decode;
use weather_example::acme::common::Coordinates;

async fn spawn() -> Result<StdioTransport, ClientError> {
    let mut command = Command::new(env!("CARGO_BIN_EXE_weather-example"));
    command.stderr(std::process::Stdio::null());
    StdioTransport::spawn(command).await
}

#[tokio::test]
async fn the_handshake_negotiates_a_revision_and_close_waits_for_a_clean_exit()
-> Result<(), ClientError> {
    let server = spawn().await?;
    assert_eq!(
        server.initialize_result()["protocolVersion"],
        server.revision().as_str()
    );
    assert!(server.close().await?.success());
    Ok(())
}

#[tokio::test]
async fn a_structured_result_decodes_as_the_generated_type() -> Result<(), ClientError> {
    let server = spawn().await?;
    // Read by the generated decoder, constraints checked (generated types have no serde
    // `Deserialize`).
    let oslo = call_tool(&server, "locate", json!({"city": "Oslo"}))
        .await?
        .structured_with(Coordinates::read)?;
    assert_eq!((oslo.latitude, oslo.longitude), (59.91, 10.75));
    Ok(())
}

#[tokio::test]
async fn a_text_result_is_its_text() -> Result<(), ClientError> {
    let server = spawn().await?;
    let reply = call_tool(&server, "get_weather", json!({"city": "Lisbon"})).await?;
    assert_eq!(reply.text(), "Lisbon: 19.0°C");
    Ok(())
}

#[tokio::test]
async fn the_tools_own_error_keeps_the_servers_text() -> Result<(), ClientError> {
    let server = spawn().await?;
    let result = call_tool(&server, "get_weather", json!({"city": "Atlantis"})).await;
    assert!(
        matches!(&result, Err(ClientError::Tool { text, .. }) if text == "No weather known for Atlantis."),
        "{result:?}"
    );
    Ok(())
}

#[tokio::test]
async fn an_unknown_tool_is_a_protocol_error() -> Result<(), ClientError> {
    let server = spawn().await?;
    let result = call_tool(&server, "no_such_tool", json!({})).await;
    assert!(
        matches!(&result, Err(ClientError::Protocol(e)) if e.code == -32602),
        "{result:?}"
    );
    Ok(())
}
