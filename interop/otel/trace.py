"""One trace from the official MCP Python SDK client (PyPI `mcp` 2.x, instrumented with
`opentelemetry-sdk`) through a toolidl server (docs/telemetry.md).

    trace.py -- COMMAND ARGS...      (e.g. -- target/debug/weather-example)

Starts an OTLP/HTTP receiver on a loopback port that decodes what it gets with the official
protobuf definitions (PyPI `opentelemetry-proto`), runs COMMAND as a stdio server with
OTEL_EXPORTER_OTLP_ENDPOINT pointing at it, and, inside a span of its own, calls the tool
`add` with the SDK's client, whose CLIENT span (`MCP send tools/call add`) injects its
context into the request's `_meta`. Then checks that the server's SERVER span
`tools/call add` is in the same trace with the client's span as its parent, and prints
`N passed, M failed`; exits 1 when a check failed.

Needs: pip install mcp==2.3.0 opentelemetry-sdk opentelemetry-proto
"""

from __future__ import annotations

import http.server
import os
import sys
import threading
import time

import anyio
from mcp import Client, StdioServerParameters
from opentelemetry import trace
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.trace.v1.trace_pb2 import Span
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

received: list[Span] = []


class Receiver(http.server.BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        if self.path == "/v1/traces":
            request = ExportTraceServiceRequest()
            request.ParseFromString(body)
            for resource in request.resource_spans:
                for scope in resource.scope_spans:
                    received.extend(scope.spans)
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


async def call(command: list[str], endpoint: str) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("OTEL_")}
    env.update({"OTEL_EXPORTER_OTLP_ENDPOINT": endpoint, "OTEL_SERVICE_NAME": "weather"})
    server = StdioServerParameters(command=command[0], args=command[1:], env=env)
    tracer = trace.get_tracer("interop")
    async with Client(server, mode="legacy", read_timeout_seconds=30) as client:
        with tracer.start_as_current_span("agent.turn"):
            result = await client.call_tool("add", {"a": 2, "b": 3})
    assert not result.is_error, result


def main() -> int:
    if "--" not in sys.argv:
        print(__doc__, file=sys.stderr)
        return 2
    command = sys.argv[sys.argv.index("--") + 1 :]
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    trace.set_tracer_provider(provider)
    receiver = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    endpoint = f"http://127.0.0.1:{receiver.server_address[1]}"
    anyio.run(call, command, endpoint)
    # The server exports its last spans as it exits, at the end of its input.
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and not any(s.name == "tools/call add" for s in received):
        time.sleep(0.2)
    receiver.shutdown()

    passed = failed = 0

    def check(name: str, ok: bool, detail: object = "") -> None:
        nonlocal passed, failed
        if ok:
            passed += 1
            print(f"ok {name}")
        else:
            failed += 1
            print(f"FAIL {name} {detail}", file=sys.stderr)

    ours = {s.name: s for s in exporter.get_finished_spans()}
    client_span = ours.get("MCP send tools/call add")
    served = next(
        (s for s in received if s.name == "tools/call add" and s.kind == Span.SPAN_KIND_SERVER),
        None,
    )
    check("the SDK client made a CLIENT span", client_span is not None, sorted(ours))
    check("the server exported a SERVER span", served is not None, [s.name for s in received])
    if client_span is not None and served is not None:
        context = client_span.get_span_context()
        check(
            "one trace",
            served.trace_id.hex() == f"{context.trace_id:032x}",
            (served.trace_id.hex(), f"{context.trace_id:032x}"),
        )
        check(
            "the client's span is the server's parent",
            served.parent_span_id.hex() == f"{context.span_id:016x}",
            (served.parent_span_id.hex(), f"{context.span_id:016x}"),
        )
        attributes = {kv.key: kv.value.string_value for kv in served.attributes}
        check("gen_ai.tool.name", attributes.get("gen_ai.tool.name") == "add", attributes)
        check("network.transport", attributes.get("network.transport") == "pipe", attributes)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
