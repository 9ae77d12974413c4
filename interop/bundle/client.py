"""Starts the server of an unpacked MCP Bundle as a host does, from its manifest.json, and
drives a session with the official MCP Python SDK client (PyPI `mcp` 2.x): scripts/bundle.sh.

    client.py --bundle DIR [--user-config KEY=VALUE]...

The command, arguments and environment are the manifest's `server.mcp_config` (the
`platform_overrides` entry of this platform first) with `${__dirname}` replaced by DIR and
`${user_config.KEY}` by the value given (else the option's default). Checks: the server
starts from the unpacked folder and answers `initialize`; `tools/list` names exactly the
manifest's tools and `prompts/list` its prompts; `create_note` and `search_notes` work.
Prints `N passed, M failed` and exits 1 when a check failed.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import warnings

import anyio
from mcp import Client, StdioServerParameters

warnings.simplefilter("ignore")

PLATFORM = {"darwin": "darwin", "win32": "win32"}.get(sys.platform, "linux")


def substitute(text: str, dirname: str, answers: dict[str, str], options: dict) -> str:
    def value(m: re.Match) -> str:
        key = m.group(1)
        if key in answers:
            return answers[key]
        default = options.get(key, {}).get("default")
        return "" if default is None else str(default)

    return re.sub(r"\$\{user_config\.([A-Za-z0-9_]+)\}", value, text.replace("${__dirname}", dirname))


async def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--bundle", required=True)
    parser.add_argument("--user-config", action="append", default=[])
    args = parser.parse_args()
    dirname = os.path.abspath(args.bundle)
    manifest = json.load(open(os.path.join(dirname, "manifest.json")))
    answers = dict(a.split("=", 1) for a in args.user_config)
    options = manifest.get("user_config", {})
    config = manifest["server"]["mcp_config"]
    command = config.get("platform_overrides", {}).get(PLATFORM, {}).get("command", config["command"])
    sub = lambda t: substitute(t, dirname, answers, options)  # noqa: E731
    env = {k: sub(v) for k, v in config.get("env", {}).items()}
    # The host's environment is not the developer's: only PATH and HOME besides the bundle's.
    env.update({k: os.environ[k] for k in ("PATH", "HOME") if k in os.environ})
    params = StdioServerParameters(command=sub(command), args=[sub(a) for a in config.get("args", [])], env=env)

    passed = failed = 0

    def check(name: str, ok: bool, detail: str = "") -> None:
        nonlocal passed, failed
        if ok:
            passed += 1
            print(f"  ok {name}", file=sys.stderr)
        else:
            failed += 1
            print(f"  FAIL {name}: {detail}", file=sys.stderr)

    with anyio.fail_after(60):
        async with Client(params, mode="legacy", cache=None, read_timeout_seconds=30) as client:
            check("initialize", client.protocol_version is not None)
            tools = (await client.list_tools()).tools
            want = [t["name"] for t in manifest.get("tools", [])]
            check("tools/list names the manifest's tools", [t.name for t in tools] == want, f"{[t.name for t in tools]} != {want}")
            prompts = (await client.list_prompts()).prompts
            want = [p["name"] for p in manifest.get("prompts", [])]
            check("prompts/list names the manifest's prompts", [p.name for p in prompts] == want, f"{[p.name for p in prompts]}")
            created = await client.call_tool("create_note", {"title": "Shipped", "body": "from the bundle", "tags": ["mcpb"]})
            check("create_note", not created.is_error, str(created.content))
            found = await client.call_tool("search_notes", {"tag": "mcpb"})
            text = " ".join(getattr(c, "text", "") for c in found.content)
            check("search_notes finds it", not found.is_error and "Shipped" in text, text[:200])
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(anyio.run(main))
