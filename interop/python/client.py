"""Drives one server with the official MCP Python SDK client (PyPI `mcp` 2.x) and checks
what it answers against a spec file (interop/servers/*.json).

    client.py --spec FILE --mode legacy|auto|2026-07-28 [--transport NAME] [-v] (--url URL | -- COMMAND ARGS...)

`--mode` is the SDK's `Client(mode=...)`: `legacy` runs the `initialize` handshake
(2025-11-25), `auto` probes `server/discover` and falls back to the handshake, a version
adopts it without a probe. Prints one line per failed check on stderr, `ok`/`FAIL` lines with
-v, known failures (the spec's `known` entries for this client, transport and mode) as
`KNOWN`, and at the end `N passed, M failed, K known` on stdout; exits 1 when a check failed
or the client could not run.
"""

from __future__ import annotations

import argparse
import json
import re
import secrets
import sys
import traceback
import warnings
from typing import Any

import anyio
from mcp import Client, MCPError, StdioServerParameters
import mcp_types as types
from mcp_types import PromptReference, ResourceTemplateReference

warnings.simplefilter("ignore")  # deprecation notices about logging/ping are not ours


class Checks:
    """Counts checks. A failed check whose name contains the `check` of one of `known` is a
    known failure (counted apart, not failing the run); a known failure that did not happen
    fails the run at `finish` (unless the entry says `"flaky": true`, a race that may go
    either way), so the spec is updated when a bug is fixed."""

    def __init__(self, verbose: bool, known: list[dict[str, Any]]) -> None:
        self.passed = 0
        self.failed = 0
        self.known = 0
        self.verbose = verbose
        self.known_entries = known
        self.known_seen: set[int] = set()

    def check(self, name: str, ok: bool, detail: str = "") -> bool:
        if ok:
            self.passed += 1
            if self.verbose:
                print(f"  ok   {name}", file=sys.stderr)
            return ok
        for i, k in enumerate(self.known_entries):
            if k["check"] in name:
                self.known += 1
                self.known_seen.add(i)
                print(f"  KNOWN {name}: {detail} [{k['reason']}]", file=sys.stderr)
                return ok
        self.failed += 1
        print(f"  FAIL {name}: {detail}", file=sys.stderr)
        return ok

    def finish(self) -> None:
        for i, k in enumerate(self.known_entries):
            if i not in self.known_seen and not k.get("flaky"):
                self.check(f"known failure '{k['check']}' did not happen", False,
                           f"fixed? update the spec's known list [{k['reason']}]")

    def equal(self, name: str, got: Any, want: Any) -> bool:
        return self.check(name, got == want, f"got {got!r}, want {want!r}")


def selected(entries: list[dict[str, Any]], args: argparse.Namespace) -> list[dict[str, Any]]:
    """The entries for this run: those without `modes`/`transports`, or that list this one."""
    return [e for e in entries if args.mode in e.get("modes", [args.mode])
            and args.transport in e.get("transports", [args.transport])]


def calls_of(spec: dict[str, Any], args: argparse.Namespace) -> list[dict[str, Any]]:
    return selected(spec.get("calls", []), args)


def compact(value: Any) -> str:
    """JSON as JavaScript's JSON.stringify writes it, so check names match the TS client's."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def texts(content: list[Any]) -> list[str]:
    return [c.text for c in content if getattr(c, "type", None) == "text"]


# `${NAME}` and `${NAME.FIELD...}` in a spec entry's strings (keys too): `run`, a token unique
# to this client run (`CLIENT-MODE-XXXX`, also a valid tag name), or a field of the
# structuredContent an earlier call saved (`"save": NAME`). A string that is exactly one
# reference becomes the value itself (a number stays a number); an unknown one stays as it is.
VAR = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\}")
MISSING = object()


def lookup(path: str, vars_: dict[str, Any]) -> Any:
    value: Any = vars_
    for part in path.split("."):
        if not isinstance(value, dict) or part not in value:
            return MISSING
        value = value[part]
    return value


def expand(value: Any, vars_: dict[str, Any]) -> Any:
    def text(s: str) -> str:
        def one(m: re.Match[str]) -> str:
            v = lookup(m.group(1), vars_)
            return m.group(0) if v is MISSING else v if isinstance(v, str) else compact(v)

        return VAR.sub(one, s)

    if isinstance(value, str):
        whole = VAR.fullmatch(value)
        if whole and lookup(whole.group(1), vars_) is not MISSING:
            return lookup(whole.group(1), vars_)
        return text(value)
    if isinstance(value, list):
        return [expand(v, vars_) for v in value]
    if isinstance(value, dict):
        return {text(k): expand(v, vars_) for k, v in value.items()}
    return value


def subset(got: Any, want: Any) -> bool:
    """`structuredSubset`: objects have the wanted keys (recursively), arrays the same length
    item by item, anything else is equal."""
    if isinstance(want, dict):
        return isinstance(got, dict) and all(k in got and subset(got[k], v) for k, v in want.items())
    if isinstance(want, list):
        return isinstance(got, list) and len(got) == len(want) and all(subset(g, w) for g, w in zip(got, want))
    return got == want and isinstance(got, bool) == isinstance(want, bool)


# What the client answers when the server asks (a request to the client under the handshake
# revisions, an input_required result under 2026-07-28): the same in every client program.
SAMPLING_TEXT = "Paris"
ELICIT_STRING = "Ada"
ROOT = {"uri": "file:///projects/interop", "name": "interop"}


async def on_sampling(_ctx: Any, _params: types.CreateMessageRequestParams) -> types.CreateMessageResult:
    return types.CreateMessageResult(role="assistant", content=types.TextContent(type="text", text=SAMPLING_TEXT),
                                     model="interop")


async def on_elicitation(_ctx: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
    """Accepts, with "Ada" for each string property, true for each boolean, 1 for a number."""
    schema = getattr(params, "requested_schema", None) or {}
    if not isinstance(schema, dict):
        schema = schema.model_dump(by_alias=True, exclude_none=True)
    answers = {"string": ELICIT_STRING, "boolean": True, "number": 1, "integer": 1}
    content = {k: answers.get(v.get("type"), ELICIT_STRING) for k, v in schema.get("properties", {}).items()}
    return types.ElicitResult(action="accept", content=content)


async def on_list_roots(_ctx: Any) -> types.ListRootsResult:
    return types.ListRootsResult(roots=[types.Root(**ROOT)])


async def run(spec: dict[str, Any], args: argparse.Namespace, c: Checks) -> None:
    target: Any = args.url if args.url else StdioServerParameters(command=args.command[0], args=args.command[1:])
    want_version = "2025-11-25" if args.mode == "legacy" else "2026-07-28"
    # No response cache: every call must reach the server.
    logged: list[Any] = []
    vars_: dict[str, Any] = {"run": f"python-{args.mode}-{secrets.token_hex(2)}"}
    notified: list[tuple[str, str | None]] = []  # (method, uri) of notifications outside calls

    async def on_message(message: Any) -> None:
        method = getattr(message, "method", None)
        if method in ("notifications/tools/list_changed", "notifications/resources/updated"):
            params = getattr(message, "params", None)
            notified.append((method, str(params.uri) if params is not None and hasattr(params, "uri") else None))

    async def on_log(params: types.LoggingMessageNotificationParams) -> None:
        logged.append(params)

    # log_level: under 2026-07-28 every request asks for log messages at this level (in its
    # _meta); under the handshake revisions logging/setLevel does (below).
    async with Client(target, mode=args.mode, cache=None, read_timeout_seconds=30, sampling_callback=on_sampling,
                      elicitation_callback=on_elicitation, list_roots_callback=on_list_roots,
                      logging_callback=on_log, log_level="info", message_handler=on_message) as client:
        c.equal("negotiated protocol version", client.protocol_version, want_version)

        # tools/list, all pages.
        tools = []
        cursor = None
        while True:
            page = await client.list_tools(cursor=cursor)
            tools += page.tools
            cursor = page.next_cursor
            if not cursor:
                break
        names = [t.name for t in tools]
        if "tools" in spec:
            c.equal("tools/list names", names, spec["tools"])
        for name in spec.get("toolsInclude", []):
            c.check(f"tools/list has {name}", name in names, f"listed: {names}")

        # tools/call with good arguments: not an error, the exact text (and structure).
        called = set()
        for call in selected(spec.get("calls", []), args):
            label = f"tools/call {call['name']} {compact(call['arguments'])}"
            call = expand(call, vars_)
            try:
                r = await client.call_tool(call["name"], call["arguments"])
            except Exception as e:  # noqa: BLE001 - any exception is a failed check
                c.check(label, False, f"raised {type(e).__name__}: {e}")
                continue
            called.add(call["name"])
            ok = c.check(f"{label}: no isError", not r.is_error, f"isError with {texts(r.content)}")
            if ok and "text" in call:
                c.equal(f"{label}: text", texts(r.content), [call["text"]])
            if ok and "structured" in call:
                c.equal(f"{label}: structuredContent", r.structured_content, call["structured"])
            if ok and "structuredSubset" in call:
                c.check(f"{label}: structuredContent", subset(r.structured_content, call["structuredSubset"]),
                        f"got {r.structured_content!r}, want at least {call['structuredSubset']!r}")
                got = texts(r.content)
                c.check(f"{label}: text is the structuredContent", len(got) == 1 and json.loads(got[0]) == r.structured_content,
                        f"text {got!r}")
            if "save" in call:
                vars_[call["save"]] = r.structured_content
        if spec.get("everyToolCalled", "tools" in spec):
            missing = [n for n in names if n not in called]
            c.check("every listed tool called with good arguments", not missing, f"not called: {missing}")

        # tools/call with bad arguments: an isError result with the exact text.
        for call in selected(spec.get("toolErrors", []), args):
            label = f"tools/call {call['name']} {compact(call['arguments'])}"
            call = expand(call, vars_)
            try:
                r = await client.call_tool(call["name"], call["arguments"])
            except Exception as e:  # noqa: BLE001
                c.check(label, False, f"raised {type(e).__name__}: {e}")
                continue
            if c.check(f"{label}: isError", r.is_error, f"no isError: {texts(r.content)}"):
                c.equal(f"{label}: error text", texts(r.content), [call["text"]])

        # tools/call answered with a JSON-RPC error.
        for call in selected(spec.get("callErrors", []), args):
            label = f"tools/call {call['name']}"
            call = expand(call, vars_)
            try:
                r = await client.call_tool(call["name"], call["arguments"])
                c.check(f"{label}: JSON-RPC error", False, f"answered {r!r}")
            except MCPError as e:
                c.equal(f"{label}: error", (e.code, e.message), (call["code"], call["message"]))

        # Progress: the tool's notifications arrive with the call.
        for call in selected(spec.get("progress", []), args):
            label = f"progress of {call['name']}"
            call = expand(call, vars_)
            seen: list[tuple[float, float | None, str | None]] = []

            async def on_progress(progress: float, total: float | None, message: str | None) -> None:
                seen.append((progress, total, message))

            try:
                r = await client.call_tool(call["name"], call["arguments"], progress_callback=on_progress)
                c.check(f"{label}: no isError", not r.is_error, f"isError with {texts(r.content)}")
            except Exception as e:  # noqa: BLE001
                c.check(label, False, f"raised {type(e).__name__}: {e}")
                continue
            c.equal(f"{label}: values", [p for p, _, _ in seen], call["values"])
            if "total" in call:
                c.equal(f"{label}: totals", {t for _, t, _ in seen}, {call["total"]})

        # Tools that ask the client (sampling, elicitation, roots) before they answer.
        for call in selected(spec.get("inputs", []), args):
            label = f"tools/call {call['name']} {compact(call['arguments'])} (asks the client)"
            call = expand(call, vars_)
            try:
                r = await client.call_tool(call["name"], call["arguments"])
            except Exception as e:  # noqa: BLE001
                c.check(label, False, f"raised {type(e).__name__}: {e}")
                continue
            if c.check(f"{label}: no isError", not r.is_error, f"isError with {texts(r.content)}"):
                c.equal(f"{label}: text", texts(r.content), [call["text"]])

        # Log messages a tool sends while it runs.
        logging = selected(spec.get("logging", []), args)
        if logging and args.mode == "legacy":
            await client.set_logging_level("info")
        for call in logging:
            label = f"log messages of {call['name']}"
            call = expand(call, vars_)
            logged.clear()
            try:
                r = await client.call_tool(call["name"], call["arguments"])
                c.check(f"{label}: no isError", not r.is_error, f"isError with {texts(r.content)}")
            except Exception as e:  # noqa: BLE001
                c.check(label, False, f"raised {type(e).__name__}: {e}")
                continue
            c.equal(f"{label}: data", [m.data for m in logged], call["messages"])
            c.equal(f"{label}: levels", sorted({m.level for m in logged}), [call["level"]])

        # Change notifications: a changed tool list and an updated resource the client
        # subscribed to (resources/subscribe and unsolicited notifications under the handshake
        # revisions, on the GET stream over HTTP; subscriptions/listen under 2026-07-28).
        for note in selected([spec["notifications"]] if "notifications" in spec else [], args):
            uri = note["uri"]
            want = [("notifications/tools/list_changed", None), ("notifications/resources/updated", uri)]

            async def trigger() -> None:
                # The tool change tool flips a tool in and out: twice leaves the server as it was.
                for tool in (note["toolChange"], note["resourceUpdate"], note["toolChange"]):
                    r = await client.call_tool(tool, {})
                    c.check(f"notifications: {tool}: no isError", not r.is_error, f"isError with {texts(r.content)}")

            try:
                if args.mode == "legacy":
                    notified.clear()
                    await client.subscribe_resource(uri)
                    await anyio.sleep(0.2)  # over HTTP the GET stream opens after initialize
                    await trigger()
                    with anyio.move_on_after(5):
                        while not all(w in notified for w in want):
                            await anyio.sleep(0.05)
                    await client.unsubscribe_resource(uri)
                    seen = [w for w in want if w in notified]
                else:
                    seen = []
                    async with client.listen(tools_list_changed=True, resource_subscriptions=[uri]) as sub:
                        c.equal("notifications: honored subscriptions", sub.honored.resource_subscriptions, [uri])
                        await trigger()
                        with anyio.move_on_after(5):
                            async for event in sub:
                                name = type(event).__name__
                                if name == "ToolsListChanged":
                                    seen.append(want[0])
                                elif name == "ResourceUpdated" and event.uri == uri:
                                    seen.append(want[1])
                                if all(w in seen for w in want):
                                    break
                c.equal("notifications: received", sorted(set(seen)), sorted(want, key=str))
            except Exception as e:  # noqa: BLE001
                c.check("notifications", False, f"raised {type(e).__name__}: {e}")

        # A call the client gives up on: it cancels (notifications/cancelled, or under
        # 2026-07-28 over HTTP by closing the response), and the server goes on serving.
        for call in selected(spec.get("cancel", []), args):
            label = f"cancelled call of {call['name']}"
            try:
                r = await client.call_tool(call["name"], call["arguments"], read_timeout_seconds=call["afterSeconds"])
                c.check(f"{label}: times out", False, f"answered {texts(r.content)}")
            except MCPError as e:
                c.check(f"{label}: times out", "timed out" in e.message, f"error {e.code} {e.message}")
            except Exception as e:  # noqa: BLE001
                c.check(f"{label}: times out", False, f"raised {type(e).__name__}: {e}")
            after = calls_of(spec, args)[:1]
            for call2 in after:
                r = await client.call_tool(call2["name"], call2["arguments"])
                c.equal(f"{label}: the next call is answered", texts(r.content), [call2["text"]])

        # Resources.
        if "resources" in spec:
            listed = (await client.list_resources()).resources
            c.equal("resources/list uris", [str(r.uri) for r in listed], spec["resources"])
        if "templates" in spec:
            listed_t = (await client.list_resource_templates()).resource_templates
            c.equal("resources/templates/list", [t.uri_template for t in listed_t], spec["templates"])
        for read in selected(spec.get("reads", []), args):
            label = f"resources/read {read['uri']}"
            read = expand(read, vars_)
            try:
                r = await client.read_resource(read["uri"])
                if "code" in read:
                    c.check(f"{label}: JSON-RPC error", False, f"answered {r!r}")
                    continue
                got_read = [(str(x.uri), x.mime_type, getattr(x, "text", None)) for x in r.contents]
                if "textContains" in read:
                    c.equal(f"{label}: uri and MIME type", [g[:2] for g in got_read], [(read["uri"], read.get("mimeType"))])
                    for part in read["textContains"]:
                        c.check(f"{label}: text contains {compact(part)}", any(part in (g[2] or "") for g in got_read),
                                f"text {[g[2] for g in got_read]!r}")
                else:
                    c.equal(f"{label}: contents", got_read, [(read["uri"], read.get("mimeType"), read["text"])])
            except MCPError as e:
                if "code" in read:
                    c.equal(f"{label}: error", (e.code, e.message), (read["code"], read["message"]))
                else:
                    c.check(label, False, f"error {e.code} {e.message}")

        # Prompts.
        if "prompts" in spec:
            c.equal("prompts/list names", [p.name for p in (await client.list_prompts()).prompts], spec["prompts"])
        for get in selected(spec.get("gets", []), args):
            label = f"prompts/get {get['name']} {compact(get['arguments'])}"
            get = expand(get, vars_)
            try:
                r = await client.get_prompt(get["name"], get["arguments"])
                if "code" in get:
                    c.check(f"{label}: JSON-RPC error", False, f"answered {r!r}")
                    continue
                c.equal(f"{label}: messages", [(m.role, getattr(m.content, "text", None)) for m in r.messages],
                        [("user", get["text"])])
            except MCPError as e:
                if "code" in get:
                    c.equal(f"{label}: error", (e.code, e.message), (get["code"], get["message"]))
                else:
                    c.check(label, False, f"error {e.code} {e.message}")

        # Completion.
        for comp in selected(spec.get("completions", []), args):
            ref_spec = comp["ref"]
            ref: Any = (PromptReference(type="ref/prompt", name=ref_spec["name"]) if ref_spec["type"] == "ref/prompt"
                        else ResourceTemplateReference(type="ref/resource", uri=ref_spec["uri"]))
            label = f"completion/complete {ref_spec.get('name') or ref_spec.get('uri')} {comp['argument']}"
            comp = expand(comp, vars_)
            try:
                r = await client.complete(ref, comp["argument"])
                c.equal(f"{label}: values", r.completion.values, comp["values"])
            except Exception as e:  # noqa: BLE001
                c.check(label, False, f"raised {type(e).__name__}: {e}")


async def timed(spec: dict[str, Any], args: argparse.Namespace, c: Checks) -> None:
    with anyio.fail_after(120):
        await run(spec, args, c)


def checked_run(c: Checks, verbose: bool, function: Any, *args: Any) -> None:
    """anyio.run(function, *args), then the known failures that did not happen; a run that
    cannot finish is a failed check."""
    try:
        anyio.run(function, *args)
    except BaseException as e:  # noqa: BLE001 - a client that cannot finish is a failed check
        c.check("session", False, f"{type(e).__name__}: {e}")
        if verbose:
            traceback.print_exc()
    else:
        c.finish()


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--spec", required=True)
    p.add_argument("--mode", required=True)
    p.add_argument("--url")
    p.add_argument("--transport", default="stdio", help="the transport's name, for the spec's known failures")
    p.add_argument("-v", "--verbose", action="store_true")
    p.add_argument("command", nargs="*")
    args = p.parse_args()
    if bool(args.url) == bool(args.command):
        p.error("give either --url or a command")
    with open(args.spec, encoding="utf-8") as f:
        spec = json.load(f)
    # The spec's known failures that apply to this client and transport.
    known = [k for k in spec.get("known", [])
             if "python" in k.get("clients", ["python"]) and args.transport in k.get("transports", [args.transport])
             and args.mode in k.get("modes", [args.mode])]
    c = Checks(args.verbose, known)
    checked_run(c, args.verbose, timed, spec, args, c)
    print(f"{c.passed} passed, {c.failed} failed, {c.known} known")
    return 1 if c.failed else 0


if __name__ == "__main__":
    sys.exit(main())
