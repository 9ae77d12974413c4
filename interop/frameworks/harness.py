"""What the framework programs (agents_sdk.py, pydanticai.py) share: the command line, the
runs and the checks, driven by the servers' spec files (interop/servers/*.json) as the
clients are.

    PROGRAM [-v] --run SERVER SPEC TRANSPORT PROFILE TARGET [--run ...]

TARGET is a URL or a command line (split like a shell's). One process does every run it is
given, so the framework is imported once. Each run is checked in the framework's own terms
(what its `connect` yields, below). After each run the program prints `RUN SERVER TRANSPORT
PROFILE SECONDS: N passed, M failed, K known` on stdout, and its failed checks on stderr after
a `== SERVER TRANSPORT PROFILE` line; it exits 1 when a check failed. Known failures are the
spec's `known` entries whose `clients` name the framework.
"""

from __future__ import annotations

import argparse
import json
import re
import secrets
import shlex
import sys
import time
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any, Callable

import anyio

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "python"))
from client import Checks, checked_run, compact, expand, subset  # noqa: E402

# A framework: connects to TARGET serving PROFILE and yields an object with
#   tools(c) -> names               lists the tools and converts them (its own checks on c)
#   call(name, arguments) -> text   runs one tool through the framework: what the model sees;
#                                   `refused` is the framework's reason when it refused the
#                                   arguments itself and sent nothing (None otherwise)
#   read(uri) -> (mime, text)       or None where the framework reads no resources (mime ...
#                                   where it gives none)
#   prompt(name, arguments) -> text or None where it gets no prompts
Connect = Callable[[str, str, str, Checks], AbstractAsyncContextManager[Any]]


def target_of(target: str) -> str | list[str]:
    return target if target.startswith("http") else shlex.split(target)


def selected(entries: list[dict[str, Any]], transport: str) -> list[dict[str, Any]]:
    """The entries for this run (the frameworks use the handshake: legacy mode)."""
    return [e for e in entries if "legacy" in e.get("modes", ["legacy"])
            and transport in e.get("transports", [transport])]


async def run_one(connect: Connect, name: str, spec: dict[str, Any], transport: str, profile: str,
                  target: str, c: Checks) -> None:
    # `${run}`: short enough for the tags made of it (notes: at most 32 characters).
    short = {"standard": "std", "openai-strict": "strict"}.get(profile, profile)
    vars_: dict[str, Any] = {"run": f"{name.replace('-', '')[:6]}-{short}-{secrets.token_hex(2)}"}
    async with connect(target, profile, transport, c) as fw:
        names = await fw.tools(c)
        if "tools" in spec:
            c.equal("tools listed and converted", names, spec["tools"])
        for name_ in spec.get("toolsInclude", []):
            c.check(f"tools converted: {name_}", name_ in names, f"converted: {names}")

        async def through(entry: dict[str, Any]) -> tuple[str, dict[str, Any], Any]:
            """The entry's check label, the entry expanded, and what the model sees of its call
            (None, a failed check, when the framework raised)."""
            label, call = f"{entry['name']} {compact(entry['arguments'])}", expand(entry, vars_)
            try:
                seen = await fw.call(call["name"], call["arguments"])
            except Exception as e:  # noqa: BLE001 - any exception is a failed check
                c.check(label, False, f"raised {type(e).__name__}: {e}")
                return label, call, None
            c.check(f"{label}: the model is given a result", seen is not None, "none")
            return label, call, seen

        # Good arguments: what the model sees is the spec's text (or its structured result, as
        # JSON); `save` keeps that JSON for later entries.
        for entry in selected(spec.get("calls", []), transport):
            label, call, seen = await through(entry)
            if seen is None:
                continue
            if "text" in call:
                c.equal(f"{label}: the model sees the text", seen, call["text"])
            if "structuredSubset" in call or "save" in call:
                try:
                    value = json.loads(seen)
                except (TypeError, ValueError):
                    value = None
                if "structuredSubset" in call:
                    c.check(f"{label}: the model sees the result", subset(value, call["structuredSubset"]),
                            f"saw {seen!r}, want at least {call['structuredSubset']!r}")
                if "save" in call:
                    vars_[call["save"]] = value

        # Bad arguments and a tool's own errors: the server's text reaches the model.
        for entry in selected(spec.get("toolErrors", []), transport):
            label, call, seen = await through(entry)
            if seen is None:
                continue
            refused = getattr(fw, "refused", None)
            argument = re.match(r"Argument '([^']*)' is not valid", call["text"])
            if refused and argument:
                # The framework checked the arguments itself and did not send the call: it must
                # have refused them for the same argument.
                c.check(f"{label}: refused by the framework for {argument[1]!r}",
                        re.search(rf"\b{re.escape(argument[1])}\b", refused) is not None, f"refused: {refused}")
            else:
                c.check(f"{label}: the model sees the error", call["text"] in (seen or ""),
                        f"saw {seen!r}, want {call['text']!r} in it")

        for entry in [r for r in selected(spec.get("reads", []), transport) if "code" not in r]:
            read = expand(entry, vars_)
            got = await fw.read(read["uri"])
            if got is None:
                break
            mime, text = got
            if mime is not ...:  # ... where the framework gives no MIME type
                c.equal(f"resource {entry['uri']}: MIME type", mime, read.get("mimeType"))
            for part in read.get("textContains", [read.get("text")]):
                c.check(f"resource {entry['uri']}: text has {compact(part)}", part in (text or ""), f"text {text!r}")

        for entry in [g for g in selected(spec.get("gets", []), transport) if "code" not in g]:
            get = expand(entry, vars_)
            text = await fw.prompt(get["name"], get["arguments"])
            if text is None:
                break
            c.equal(f"prompt {get['name']} {compact(entry['arguments'])}", text, get["text"])


async def timed(*args: Any) -> None:
    with anyio.fail_after(120):
        await run_one(*args)


def main(framework: str, connect: Connect) -> int:
    p = argparse.ArgumentParser(prog=framework)
    p.add_argument("--run", nargs=5, action="append", required=True,
                   metavar=("SERVER", "SPEC", "TRANSPORT", "PROFILE", "TARGET"))
    p.add_argument("-v", "--verbose", action="store_true")
    args = p.parse_args()
    failed = False
    for server, spec_file, transport, profile, target in args.run:
        spec = json.loads(Path(spec_file).read_text(encoding="utf-8"))
        # The spec's known failures that name this framework (`clients`) and transport.
        known = [k for k in spec.get("known", []) if framework in k.get("clients", [])
                 and transport in k.get("transports", [transport])]
        c = Checks(args.verbose, known)
        print(f"== {server} {transport} {profile}", file=sys.stderr)
        start = time.monotonic()
        checked_run(c, args.verbose, timed, connect, framework, spec, transport, profile, target, c)
        seconds = time.monotonic() - start
        print(f"RUN {server} {transport} {profile} {seconds:.1f}: {c.passed} passed, {c.failed} failed, {c.known} known",
              flush=True)
        failed = failed or c.failed > 0
    return 1 if failed else 0
