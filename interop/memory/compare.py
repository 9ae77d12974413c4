"""Compares what a memory server answered with what the original answered
(interop/memory/session.py compare; scripts/memory.sh).

Equal means equal as JSON values, with the equivalences below and nothing else:

- EQ-ORDER: the members of a JSON object in any order (a tool's keys, its annotations' keys,
  a schema's keywords): RFC 8259 section 4 makes an object an unordered collection of
  members, and JSON Schema gives keywords no order. Arrays keep their order (`required`,
  `enum`, the tools, the content blocks, the entities of a result: all compared in order).
- EQ-NUMBER: an integer and a float of the same value (`1` and `1.0`) are the same JSON
  number (RFC 8259 section 6; JSON Schema's `integer` accepts both).

Anything else that differs is a difference. The differences file (examples/memory/tests/
original/differences.json) lists those expected today, each tied to the language feature
that removes it: a listed difference must happen (else the list is stale), and any other one
fails. A text difference also names the form each side's text has (`original`, `ours`:
FORMS below), so a listed text difference cannot hide another one.
"""

from __future__ import annotations

import json
import re
from typing import Any

Difference = tuple[str, str, Any, Any]  # path, kind (added, removed, changed), original, ours

MISSING = object()


def same_scalar(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b  # EQ-NUMBER
    return type(a) is type(b) and a == b


def diff(original: Any, ours: Any, path: str, out: list[Difference]) -> None:
    if isinstance(original, dict) and isinstance(ours, dict):
        for key in list(original) + [k for k in ours if k not in original]:  # EQ-ORDER
            a, b = original.get(key, MISSING), ours.get(key, MISSING)
            sub = f"{path}.{key}" if path else key
            if b is MISSING:
                out.append((sub, "removed", a, None))
            elif a is MISSING:
                out.append((sub, "added", None, b))
            else:
                diff(a, b, sub, out)
    elif isinstance(original, list) and isinstance(ours, list):
        named = all(isinstance(x, dict) and "name" in x for x in original + ours) and path.endswith("tools")
        if named:
            # Tools by name, so that one missing tool is one difference; their order still counts.
            if [t["name"] for t in original] != [t["name"] for t in ours]:
                out.append((f"{path}[].name", "changed", [t["name"] for t in original], [t["name"] for t in ours]))
            theirs = {t["name"]: t for t in ours}
            for tool in original:
                if tool["name"] in theirs:
                    diff(tool, theirs[tool["name"]], f"{path}[{tool['name']}]", out)
        elif len(original) != len(ours):
            out.append((path, "changed", original, ours))
        else:
            for i, (a, b) in enumerate(zip(original, ours)):
                diff(a, b, f"{path}[{i}]", out)
    elif not same_scalar(original, ours):
        out.append((path, "changed", original, ours))


def compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def pretty(value: Any) -> str:
    # JSON.stringify(value, null, 2): two spaces, `": "`, no escaping beyond JSON's own.
    return json.dumps(value, ensure_ascii=False, indent=2)


# The forms a text block may take, computed from the call's structured content.
FORMS = {
    "compact JSON of structuredContent": compact,
    "pretty JSON of structuredContent": pretty,
    "pretty JSON of structuredContent's only member": lambda s: pretty(next(iter(s.values()))),
    "structuredContent.message": lambda s: s["message"],
}


def path_matches(pattern: str, path: str) -> bool:
    """`pattern` is a path whose `[*]` stands for any one index or tool name."""
    return re.fullmatch(re.escape(pattern).replace(re.escape("[*]"), r"\[[^\]]*\]"), path) is not None


def listed(entry: dict[str, Any], where: str, difference: Difference, calls: list[dict[str, Any]]) -> bool:
    path, kind, original, ours = difference
    if entry["where"] != where or entry["kind"] != kind or not path_matches(entry["path"], path):
        return False
    if where == "session":
        index = int(path.split("[", 1)[1].split("]", 1)[0])
        call = calls[index]
        if call["tool"] not in entry["tools"]:
            return False
        structured = call["structuredContent"]
        if structured is None:
            return False
        return FORMS[entry["original"]](structured) == original and FORMS[entry["ours"]](structured) == ours
    return True


def report(original: dict[str, Any], ours: dict[str, Any], expected: dict[str, Any]) -> int:
    entries = expected["differences"]
    for e in entries:
        if e["where"] == "session" and (e["original"] not in FORMS or e["ours"] not in FORMS):
            raise SystemExit(f"differences: {e['id']}: unknown text form")
    seen: dict[str, int] = {e["id"]: 0 for e in entries}
    unexpected = 0
    equal = 0
    structured_equal = 0
    where_of = {"tools-list.json": "listing", "resources-list.json": "resources", "session.json": "session",
                "resource-read.json": "resource read", "memory.jsonl": "memory file"}
    for name, where in where_of.items():
        found: list[Difference] = []
        if name == "session.json":
            a, b = original[name], ours[name]
            if len(a) != len(b):
                found.append(("calls", "changed", len(a), len(b)))
            for i, (x, y) in enumerate(zip(a, b)):
                if x["tool"] != y["tool"] or x["arguments"] != y["arguments"]:
                    found.append((f"calls[{i}]", "changed", x["tool"], y["tool"]))
                    continue
                before = len(found)
                for key in ("isError", "structuredContent", "content"):
                    diff(x[key], y[key], f"calls[{i}].{key}", found)
                    if key == "structuredContent":
                        structured_equal += len(found) == before
                equal += len(found) == before
        elif name == "memory.jsonl":
            if original[name] != ours[name]:
                found.append(("memory.jsonl", "changed", original[name], ours[name]))
        else:
            diff(original[name], ours[name], "", found)
        for d in found:
            owner = next((e for e in entries if listed(e, where, d, original["session.json"])), None)
            label = f"{where}: {d[0]}: {d[1]}"
            if owner is not None:
                seen[owner["id"]] += 1
                print(f"  expected [{owner['id']}] {label}")
            else:
                unexpected += 1
                print(f"  UNEXPECTED {label}: original {shown(d[2])}, ours {shown(d[3])}")
    stale = [i for i, n in seen.items() if n == 0]
    for i in stale:
        print(f"  STALE [{i}]: listed as expected but did not happen; remove it from the differences file")
    total = sum(seen.values())
    calls = len(original["session.json"])
    print(f"memory: {calls} calls, isError and structuredContent equal in {structured_equal}, "
          f"everything equal in {equal}; {total} expected differences "
          f"({len(entries) - len(stale)} kinds), {unexpected} unexpected, {len(stale)} stale")
    return 1 if unexpected or stale else 0


def shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 300 else text[:300] + "…"
