// The fixture server of the official MCP conformance suite (@modelcontextprotocol/conformance),
// as far as the .tool language can describe it. Names, texts and shapes follow the suite's
// scenarios (src/scenarios/server/*.ts) and its reference server (everything-server.ts).
// What the language cannot express lives in src/extras.rs; README.md lists each gap.
package conformance;

/// What the resource template `test://template/{id}/data` returns (as JSON text).
record TemplateData {
    id: string,
    @json_name("templateTest") template_test: bool,
    data: string,
}

/// The suite's fixture tools, resources and prompts.
service Everything {
    // ---- tools-* scenarios (both requirement sets) ----

    /// Tests simple text content response
    tool test_simple_text() -> string;

    /// Tests image content response
    tool test_image_content() -> content;

    /// Tests audio content response
    tool test_audio_content() -> content;

    /// Tests embedded resource content response
    tool test_embedded_resource() -> content;

    /// Tests response with multiple content types (text, image, resource)
    tool test_multiple_content_types() -> content;

    /// Tests tool that emits log messages during execution
    tool test_tool_with_logging() -> string;

    /// Tests tool that reports progress notifications
    tool test_tool_with_progress() -> string;

    /// Tests error response handling
    tool test_error_handling() -> string;

    /// Tests SSE stream disconnection and client reconnection (SEP-1699)
    tool test_reconnection() -> string;

    // ---- server-to-client requests (2025-11-25) ----

    /// Tests server-initiated sampling (LLM completion request)
    tool test_sampling(
        /// The prompt to send to the LLM
        prompt: string,
    ) -> string;

    /// Tests server-initiated elicitation (user input request)
    tool test_elicitation(
        /// The message to show the user
        message: string,
    ) -> string;

    /// Tests elicitation with default values per SEP-1034
    tool test_elicitation_sep1034_defaults() -> string;

    /// Tests elicitation with enum schema improvements per SEP-1330
    tool test_elicitation_sep1330_enums() -> string;

    // ---- server-stateless diagnostics (2026-07-28) ----

    /// Test tool requiring sampling: -32021 when the client did not declare sampling
    tool test_missing_capability() -> string;

    /// Diagnostic logging validator tool: logs at info, which reaches only clients that asked for a level
    tool test_logging_tool() -> string;

    /// Diagnostic hook: adds or removes the tool test_dynamic_tool (notifications/tools/list_changed)
    tool test_trigger_tool_change() -> string;

    /// Diagnostic hook: adds or removes the prompt test_dynamic_prompt (notifications/prompts/list_changed)
    tool test_trigger_prompt_change() -> string;

    /// Diagnostic hook: changes test://watched-resource and sends notifications/resources/updated to its subscribers
    tool test_trigger_resource_update() -> string;

    // ---- tasks-* fixtures (io.modelcontextprotocol/tasks; served synchronously for now) ----

    /// Greets someone (sync-only)
    tool greet(
        /// Who to greet.
        name: string,
    ) -> string;

    /// Sleeps for the given number of seconds, then returns (task-supporting)
    @task
    tool slow_compute(
        /// How long to work, in seconds.
        @range(0, 3600) seconds: u32,
        /// A label echoed in the result.
        label: string? = null,
    ) -> string;

    /// Fails with a tool execution error after about a second (task support: required)
    @task(required)
    tool failing_job() -> string;

    /// Fails with a protocol error (JSON-RPC -32603), not a tool error (task-supporting)
    @task
    tool protocol_error_job() -> string;

    // ---- resources ----

    /// A static text resource for testing
    @uri("test://static-text")
    @name("static-text")
    @title("Static Text Resource")
    @mime("text/plain")
    resource static_text() -> string;

    /// A static binary resource (image) for testing
    @uri("test://static-binary")
    @name("static-binary")
    @title("Static Binary Resource")
    @mime("image/png")
    resource static_binary() -> bytes;

    /// A resource template with parameter substitution
    @uri("test://template/{id}/data")
    @name("template")
    @title("Resource Template")
    @mime("application/json")
    resource template(id: string) -> TemplateData;

    /// A resource that clients subscribe to (resources/subscribe)
    @uri("test://watched-resource")
    @name("watched-resource")
    @title("Watched Resource")
    @mime("text/plain")
    resource watched_resource() -> string;

    // ---- prompts ----

    /// A simple prompt without arguments
    @title("Simple Test Prompt")
    prompt test_simple_prompt() -> string;

    /// A prompt with required arguments
    @title("Prompt With Arguments")
    prompt test_prompt_with_arguments(
        /// First test argument
        arg1: string,
        /// Second test argument
        arg2: string,
    ) -> string;
}

/// Toggled in and out of the server by test_trigger_tool_change.
service DynamicTool {
    /// A tool that test_trigger_tool_change adds and removes
    tool test_dynamic_tool() -> string;
}

/// Toggled in and out of the server by test_trigger_prompt_change.
service DynamicPrompt {
    /// A prompt that test_trigger_prompt_change adds and removes
    prompt test_dynamic_prompt() -> string;
}
