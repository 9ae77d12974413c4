"""The memory server's listing and a 17-call session, as the official MCP Python SDK client
(PyPI `mcp` 2.x) sees them: scripts/memory.sh.

    session.py capture --out DIR -- COMMAND ARGS...
    session.py compare --original DIR --differences FILE [--out DIR] -- COMMAND ARGS...

Each run starts COMMAND twice over stdio, each time with MEMORY_FILE_PATH naming a file in a
fresh temporary folder:

1. raw JSON-RPC (no SDK, so nothing is parsed away): `initialize` (2025-11-25),
   `notifications/initialized`, `tools/list`, `resources/list`; the results are kept exactly,
   members in the order the server sent them;
2. the SDK's `Client` (`mode="legacy"`, the `initialize` handshake): the calls of SESSION in
   order, each result's `content`, `structuredContent` and `isError` kept, then the contents
   of `resources/read` of the graph's resource, and the memory file as the server left it.

`capture` writes them to DIR: `tools-list.json`, `resources-list.json`, `session.json`,
`resource-read.json`, `memory.jsonl`. `compare`
runs COMMAND the same way and compares with the captures in DIR (interop/memory/compare.py:
the equivalences it relies on, and the expected differences FILE lists); it prints one line
per difference and `N equal, M expected differences, K unexpected` and exits 1 on an
unexpected difference or an expected one that did not happen. With `--out` it also writes
what COMMAND answered there, as `capture` does.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import warnings
from typing import Any

import anyio
from mcp import Client, StdioServerParameters

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402

warnings.simplefilter("ignore")

PROTOCOL = "2025-11-25"
GRAPH_URI = "memory://knowledge-graph"

# The session: every tool, reads after each kind of write, the original's error path (an
# observation for an entity that does not exist, which also leaves the graph unchanged) and
# its quirks (duplicates inside one request, relations to entities that do not exist,
# deleting what is not there), and text that JSON escapes or that lower-cases in more than one
# way.
SESSION: list[tuple[str, dict[str, Any]]] = [
    ("read_graph", {}),
    ("create_entities", {"entities": [
        {"name": "Alice", "entityType": "person", "observations": ["likes tea", "lives in Oslo"]},
        {"name": "Bob", "entityType": "person", "observations": ["works at Acme"]},
        {"name": "Acme", "entityType": "company", "observations": []},
    ]}),
    ("create_entities", {"entities": [
        {"name": "Alice", "entityType": "robot", "observations": ["a duplicate"]},
        {"name": "Oslo", "entityType": "city", "observations": ["capital of Norway"]},
    ]}),
    ("create_relations", {"relations": [
        {"from": "Alice", "to": "Bob", "relationType": "knows"},
        {"from": "Bob", "to": "Acme", "relationType": "works_at"},
        {"from": "Alice", "to": "Oslo", "relationType": "lives_in"},
    ]}),
    ("create_relations", {"relations": [
        {"from": "Alice", "to": "Bob", "relationType": "knows"},
        {"from": "Alice", "to": "Carol", "relationType": "likes"},
    ]}),
    ("add_observations", {"observations": [
        {"entityName": "Alice", "contents": ["likes tea", "plays chess", "plays chess"]},
        {"entityName": "Acme", "contents": ["founded in 1990"]},
    ]}),
    ("add_observations", {"observations": [
        {"entityName": "Oslo", "contents": ["never saved"]},
        {"entityName": "Zed", "contents": ["unknown"]},
    ]}),
    ("read_graph", {}),
    ("search_nodes", {"query": "ACME"}),
    ("open_nodes", {"names": ["Alice", "Nobody"]}),
    ("delete_observations", {"deletions": [
        {"entityName": "Alice", "observations": ["likes tea", "not there"]},
        {"entityName": "Nobody", "observations": ["x"]},
    ]}),
    ("delete_relations", {"relations": [
        {"from": "Alice", "to": "Carol", "relationType": "likes"},
        {"from": "Bob", "to": "Acme", "relationType": "works_at"},
        {"from": "Oslo", "to": "Alice", "relationType": "never"},
    ]}),
    ("delete_entities", {"entityNames": ["Bob", "Nobody"]}),
    ("create_entities", {"entities": [
        {"name": "Zoë", "entityType": "ΣΊΣΥΦΟΣ", "observations": ["said \"hi\"\n\tthen \\left\u0001", "🙂 ünïcödé"]},
    ]}),
    ("search_nodes", {"query": "σίσυφος"}),
    ("open_nodes", {"names": ["Zoë", "Alice", "Oslo"]}),
    ("read_graph", {}),
]


def server_env(memory_file: str) -> dict[str, str]:
    env = {k: os.environ[k] for k in ("PATH", "HOME", "RUST_LOG") if k in os.environ}
    env["MEMORY_FILE_PATH"] = memory_file
    return env


def raw_listing(command: list[str], memory_file: str) -> tuple[Any, Any]:
    """`tools/list`'s and `resources/list`'s results as sent, over a raw stdio exchange."""
    with subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          env=server_env(memory_file)) as proc:
        assert proc.stdin is not None and proc.stdout is not None

        def request(id: int, method: str, params: dict[str, Any] | None = None) -> Any:
            message: dict[str, Any] = {"jsonrpc": "2.0", "id": id, "method": method}
            if params is not None:
                message["params"] = params
            proc.stdin.write((json.dumps(message) + "\n").encode())
            proc.stdin.flush()
            while True:
                line = proc.stdout.readline()
                if not line:
                    raise RuntimeError(f"the server ended before answering {method}")
                answer = json.loads(line)
                if answer.get("id") == id:
                    if "error" in answer:
                        raise RuntimeError(f"{method}: {answer['error']}")
                    return answer["result"]

        request(1, "initialize", {"protocolVersion": PROTOCOL, "capabilities": {},
                                  "clientInfo": {"name": "toolidl-memory-session", "version": "1"}})
        proc.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        proc.stdin.flush()
        tools = request(2, "tools/list")
        resources = request(3, "resources/list")
        proc.stdin.close()
        proc.wait(timeout=30)
        return tools, resources


async def session(command: list[str], memory_file: str) -> tuple[list[dict[str, Any]], Any]:
    params = StdioServerParameters(command=command[0], args=command[1:], env=server_env(memory_file))
    calls = []
    with anyio.fail_after(120):
        async with Client(params, mode="legacy", cache=None, read_timeout_seconds=30) as client:
            await client.list_tools()
            for tool, arguments in SESSION:
                result = await client.call_tool(tool, arguments)
                calls.append({
                    "tool": tool,
                    "arguments": arguments,
                    "isError": bool(result.is_error),
                    "content": [c.model_dump(mode="json", by_alias=True, exclude_none=True) for c in result.content],
                    "structuredContent": result.structured_content,
                })
            read = await client.read_resource(GRAPH_URI)
            contents = [c.model_dump(mode="json", by_alias=True, exclude_none=True) for c in read.contents]
    return calls, contents


def run(command: list[str]) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        tools, resources = raw_listing(command, os.path.join(folder, "listing.jsonl"))
        memory_file = os.path.join(folder, "memory.jsonl")
        calls, contents = anyio.run(session, command, memory_file)
        with open(memory_file, encoding="utf-8") as f:
            memory = f.read()
    return {"tools-list.json": tools, "resources-list.json": resources, "session.json": calls,
            "resource-read.json": contents, "memory.jsonl": memory}


def write(out: str, captured: dict[str, Any]) -> None:
    os.makedirs(out, exist_ok=True)
    for name, value in captured.items():
        with open(os.path.join(out, name), "w", encoding="utf-8") as f:
            if isinstance(value, str):
                f.write(value)
            else:
                f.write(json.dumps(value, indent=2, ensure_ascii=False) + "\n")


FILES = ("tools-list.json", "resources-list.json", "session.json", "resource-read.json", "memory.jsonl")


def read(folder: str) -> dict[str, Any]:
    captured: dict[str, Any] = {}
    for name in FILES:
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            captured[name] = f.read() if name.endswith(".jsonl") else json.load(f)
    return captured


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["capture", "compare"])
    parser.add_argument("--out")
    parser.add_argument("--original")
    parser.add_argument("--differences")
    argv = sys.argv[1:]
    split = argv.index("--") if "--" in argv else len(argv)
    args = parser.parse_args(argv[:split])
    command = argv[split + 1:]
    if not command:
        parser.error("the server's command is missing (after --)")
    captured = run(command)
    if args.out:
        write(args.out, captured)
    if args.mode == "capture":
        if not args.out:
            parser.error("capture needs --out")
        print(f"captured {len(captured['tools-list.json']['tools'])} tools and {len(captured['session.json'])} calls")
        return 0
    if not args.original or not args.differences:
        parser.error("compare needs --original and --differences")
    with open(args.differences, encoding="utf-8") as f:
        expected = json.load(f)
    return compare.report(read(args.original), captured, expected)


if __name__ == "__main__":
    sys.exit(main())
