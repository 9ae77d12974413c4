"""Builds the fuzz targets' seed corpora from the repository (scripts/fuzz.sh runs it).

    python3 fuzz/seeds.py OUT

writes OUT/<target>/<name>, one file per seed, from what the repository holds rather than
committed copies: every `.tool` file (compiler; and as the document of an LSP session), the
saved listings of the goldens (import_listing), and MCP messages built from the calls, reads,
prompts and completions that scripts/interop.sh checks against examples/weather
(`interop/servers/*.json`: connection, http). Standard library only.
"""

import hashlib
import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
LATEST = "2025-11-25"
STATELESS = "2026-07-28"


def tracked(*patterns):
    out = subprocess.run(
        ["git", "ls-files", "-z", "--", *patterns],
        cwd=ROOT,
        check=True,
        capture_output=True,
    ).stdout
    return sorted(ROOT / p for p in out.decode().split("\0") if p)


def write(out, target, data):
    """One seed, named by its content (the same bytes once)."""
    if isinstance(data, str):
        data = data.encode()
    folder = out / target
    folder.mkdir(parents=True, exist_ok=True)
    (folder / hashlib.sha1(data).hexdigest()).write_bytes(data)


def line(message):
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


def interop():
    """The requests interop clients make of examples/weather and examples/manual."""
    requests = [
        ("ping", {}),
        ("tools/list", {}),
        ("tools/list", {"cursor": "0"}),
        ("resources/list", {}),
        ("resources/templates/list", {}),
        ("prompts/list", {}),
        ("logging/setLevel", {"level": "debug"}),
        ("resources/subscribe", {"uri": "weather://cities/Oslo"}),
    ]
    for name in ["weather", "manual"]:
        checks = json.loads((ROOT / "interop/servers" / f"{name}.json").read_text())
        for call in checks.get("calls", []) + checks.get("toolErrors", []) + checks.get(
            "callErrors", []
        ):
            requests.append(
                ("tools/call", {"name": call["name"], "arguments": call["arguments"]})
            )
        for read in checks.get("reads", []):
            requests.append(("resources/read", {"uri": read["uri"]}))
        for get in checks.get("gets", []):
            requests.append(
                ("prompts/get", {"name": get["name"], "arguments": get["arguments"]})
            )
        for completion in checks.get("completions", []):
            requests.append(
                (
                    "completion/complete",
                    {"ref": completion["ref"], "argument": completion["argument"]},
                )
            )
    return requests


def request(i, method, params, stateless=False):
    params = dict(params)
    if stateless:
        params["_meta"] = {
            "io.modelcontextprotocol/protocolVersion": STATELESS,
            "io.modelcontextprotocol/clientCapabilities": {},
        }
    return {"jsonrpc": "2.0", "id": i, "method": method, "params": params}


INITIALIZE = request(
    0,
    "initialize",
    {
        "protocolVersion": LATEST,
        "capabilities": {"elicitation": {}, "sampling": {}, "roots": {}},
        "clientInfo": {"name": "seed", "version": "0"},
    },
)
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


def connection(out, requests):
    """Lines for `Connection::handle_bytes` (the target initializes one connection itself)."""
    for i, (method, params) in enumerate(requests, 1):
        write(out, "connection", line(request(i, method, params)))
        write(out, "connection", line(request(i, method, params, stateless=True)))
    session = [INITIALIZE, INITIALIZED] + [
        request(i, m, p) for i, (m, p) in enumerate(requests, 1)
    ]
    write(out, "connection", "\n".join(line(m) for m in session))
    write(out, "connection", line({"jsonrpc": "2.0", "id": 1, "method": "server/discover"}))
    cancel = {
        "jsonrpc": "2.0",
        "method": "notifications/cancelled",
        "params": {"requestId": 1, "reason": "seed"},
    }
    write(out, "connection", line(request(1, "ping", {})) + "\n" + line(cancel))


def http(out, requests):
    """Requests in the `http` target's format (fuzz/src/lib.rs, `HttpInput`)."""

    def post(body, version=LATEST, session=True):
        head = [
            "POST /mcp",
            "host: localhost",
            "content-type: application/json",
            "accept: application/json, text/event-stream",
            f"mcp-protocol-version: {version}",
        ]
        if session:
            head.append("mcp-session-id: $session")
        return "\n".join(head) + "\n\n" + body

    for i, (method, params) in enumerate(requests, 1):
        write(out, "http", post(line(request(i, method, params))))
        write(
            out,
            "http",
            post(line(request(i, method, params, stateless=True)), STATELESS, False),
        )
    write(out, "http", post(line(INITIALIZE), session=False))
    write(
        out,
        "http",
        "GET /mcp\nhost: localhost\naccept: text/event-stream\nmcp-session-id: $session\n"
        f"mcp-protocol-version: {LATEST}\n\n"
        + "\n%%\n"
        + "DELETE /mcp\nhost: localhost\nmcp-session-id: $session\n\n",
    )
    write(
        out,
        "http",
        "OPTIONS /mcp\nhost: localhost\norigin: http://localhost:6274\n"
        "access-control-request-method: POST\n\n",
    )


def lsp(out, tools):
    """Frames of an editor's session: initialize, a document opened, requests about it."""

    def frame(message):
        body = line(message).encode()
        return b"Content-Length: %d\r\n\r\n" % len(body) + body

    start = frame(request(1, "initialize", {"capabilities": {}})) + frame(
        {"jsonrpc": "2.0", "method": "initialized", "params": {}}
    )
    for path in tools[:40]:
        uri = "file:///w/" + path.name
        doc = {"uri": uri, "languageId": "toolidl", "version": 1, "text": path.read_text()}
        at = {"textDocument": {"uri": uri}, "position": {"line": 1, "character": 2}}
        write(
            out,
            "lsp_framing",
            start
            + frame({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": doc}})
            + frame(request(2, "textDocument/hover", at))
            + frame(request(3, "shutdown", {})),
        )
    # The malformed frames of toolidl-cli/tests/it/lsp_frames.rs.
    for bad in [
        b"Content-Length: 5\r\n\r\n{oops",
        b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}",
        b"Content-Length: abc\r\n\r\n{}",
        b"Content-Length: 4\r\n\r\n\xff\xfe{}",
        b"Content-Length: 10000000000\r\n\r\n",
        b"Content-Length: 100\r\n\r\n" + line(INITIALIZED).encode(),
        b"content-length:2\r\nX: y\r\n\r\n[]",
    ]:
        write(out, "lsp_framing", bad + frame(request(9, "shutdown", {})))


def listings(out):
    """Saved listings, as `toolidl import` reads them: `toolidl schema` output, a tools/list
    result, a JSON-RPC response holding one, pages in an array."""
    files = [
        p
        for p in tracked("tests/golden/schema/*.json", "tests/golden/servers/*.json")
        if not p.name.endswith((".instances.json", ".original.json"))
    ]
    files += tracked("examples/notes/tests/golden/listing.json")
    for path in files:
        text = path.read_text()
        write(out, "import_listing", text)
        listing = json.loads(text)
        if isinstance(listing, dict) and "tools" in listing:
            wrapped = {"jsonrpc": "2.0", "id": 1, "result": {"tools": listing["tools"]}}
            write(out, "import_listing", line(wrapped))
            write(out, "import_listing", line([{"tools": listing["tools"][:1]}, listing]))


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: seeds.py OUT")
    out = pathlib.Path(sys.argv[1])
    tools = tracked("*.tool")
    for path in tools:
        write(out, "compiler", path.read_bytes())
    requests = interop()
    connection(out, requests)
    http(out, requests)
    lsp(out, tools)
    listings(out)
    for folder in sorted(out.iterdir()):
        print(f"seeds: {folder.name}: {len(list(folder.iterdir()))}")


main()
