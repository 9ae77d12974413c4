"""Does an imported `.tool` file accept and refuse the arguments its original server does?

    check.py NAME ORIGINAL.json IMPORTED.json DIFFERENCES.json

ORIGINAL is the listing `toolidl import --save-listing` read from the live server, IMPORTED
the listing `toolidl schema` prints for the imported file. For every tool, instances are
generated from both input schemas with hypothesis-jsonschema (derandomized: the same ones
every run), then mutated (each required member removed, each member replaced by a value of
every other JSON kind, a member neither declares added); each instance is validated against
both schemas (the original in the draft its `$schema` names, else 2020-12; formats asserted
in both). The output schemas, where the original has one, are compared the same way (the
tool named `NAME result` below). A disagreement passes only when DIFFERENCES lists it:
`{"<server>": [{"tool": "...", "member": "...", "why": "..."}]}`, matched on the tool and
the top-level member the refusing schema names.
A listed difference that no instance shows is reported too, so a closed gap is noticed.

Prints one line per server; exit status 1 on an unlisted disagreement.
"""

import json
import sys
import warnings

import jsonschema
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import NonInteractiveExampleWarning
from hypothesis_jsonschema import from_schema

warnings.filterwarnings("ignore", category=NonInteractiveExampleWarning)

import os

# Instances drawn per schema (scripts/import.sh draws fewer for the corpus of saved listings).
EXAMPLES = int(os.environ.get("CHECK_EXAMPLES", "30"))
KINDS = [None, True, 12345, -1.5, "text", [], {}]


def validator(schema):
    draft = schema.get("$schema", "") if isinstance(schema, dict) else ""
    cls = jsonschema.Draft7Validator if "draft-07" in draft else jsonschema.Draft202012Validator
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


def generated(schema):
    """Instances hypothesis-jsonschema draws from `schema`, the same ones every run."""
    found = []

    @settings(
        max_examples=EXAMPLES,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(from_schema(schema))
    def collect(instance):
        found.append(instance)

    collect()
    return found


def mutations(instance, schema):
    if not isinstance(instance, dict):
        return []
    out = []
    for key in schema.get("required", []):
        if key in instance:
            out.append({k: v for k, v in instance.items() if k != key})
    for key in list(instance) + list(schema.get("properties", {})):
        for value in KINDS:
            changed = dict(instance)
            changed[key] = value
            out.append(changed)
    # A member no schema declares: an open object and a closed one part here.
    out.append({**instance, "undeclaredMember": 1})
    return out


def member(validator_, instance):
    """The top-level member the first error is about ('' for the object itself)."""
    for error in validator_.iter_errors(instance):
        path = list(error.absolute_path)
        if path:
            return str(path[0])
        # A missing required member or an unknown one: named in the message.
        if error.validator == "required":
            return error.message.split("'")[1] if "'" in error.message else ""
        return ""
    return None


def compare(label, a_schema, b_schema, listed, seen, failures):
    """Validates instances drawn from both schemas against both; returns how many."""
    a, b = validator(a_schema), validator(b_schema)
    instances = []
    for schema in (a_schema, b_schema):
        drawn = generated(schema) if isinstance(schema, dict) else []
        if not drawn:
            failures.append(f"{label}: no instances drawn from {json.dumps(schema)[:200]}")
        for instance in drawn:
            instances.append(instance)
            instances.extend(mutations(instance, a_schema))
    for instance in instances:
        ours, theirs_ok = b.is_valid(instance), a.is_valid(instance)
        if ours == theirs_ok:
            continue
        refusing = b if not ours else a
        key = (label, member(refusing, instance))
        if key in listed:
            seen.add(key)
            continue
        failures.append(
            f"{label}: {json.dumps(instance)[:300]}: the original "
            f"{'accepts' if theirs_ok else 'refuses'} it, the import "
            f"{'accepts' if ours else 'refuses'} it (member {key[1]!r})"
        )
    return len(instances)


def main():
    name, original_path, imported_path, differences_path = sys.argv[1:5]
    original = json.load(open(original_path))
    imported = json.load(open(imported_path))
    differences = json.load(open(differences_path)).get(name, [])
    listed = {(d["tool"], d["member"]) for d in differences}
    seen = set()
    theirs = {t["name"]: t for t in imported.get("tools", [])}
    failures = []
    checked = 0
    for tool in original.get("tools", []):
        tool_name = tool["name"]
        if tool_name not in theirs:
            failures.append(f"{tool_name}: not in the imported listing")
            continue
        sides = [(tool_name, tool.get("inputSchema", {"type": "object"}), theirs[tool_name]["inputSchema"])]
        if "outputSchema" in tool:
            sides.append(
                (f"{tool_name} result", tool["outputSchema"], theirs[tool_name].get("outputSchema", True))
            )
        for label, a_schema, b_schema in sides:
            checked += compare(label, a_schema, b_schema, listed, seen, failures)
    for key in sorted(listed - seen):
        failures.append(f"{key[0]}: the listed difference on {key[1]!r} was not seen (closed?)")
    for failure in sorted(set(failures))[:40]:
        print(f"  {name}: {failure}")
    status = "ok" if not failures else f"{len(set(failures))} disagreements"
    print(
        f"import {name}: {len(original.get('tools', []))} tools, {checked} instances, "
        f"{len(seen)} documented differences seen: {status}"
    )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
