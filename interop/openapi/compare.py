"""Compares the tools toolidl imports from OpenAPI documents with those of FastMCP's OpenAPI
provider and of openapi-mcp-generator, on the same documents (scripts/openapi.sh runs it).

    python compare.py TOOLIDL NODE GENERATOR_DIR OUT_DIR NAME=DOCUMENT...

For each document: toolidl's tools (`toolidl import --openapi` with `--forward`, or the
import scripts/openapi.sh made of it in OUT_DIR: NAME.tool, NAME.forward.json and
NAME.warnings.txt; then `toolidl schema`, the forward binding giving each tool's operationId), FastMCP's
(`FastMCP.from_openapi`, every route a tool, listed by an in-memory client) and
openapi-mcp-generator's (`getToolsFromOpenApi`, its programmatic API, dereferencing as its command does). Tools are matched by
operationId (case and punctuation aside). For each matched tool, the input schema's
properties and `required` list are compared; every difference is put in a class that says
why (`WHY`), and a difference no class explains is listed as it is.

Writes OUT_DIR/compare.md (the table) and OUT_DIR/compare.json (every difference); prints
the table. Exit status 0; 1 (an exception) when toolidl fails to import a document. A failure
of another implementation on a document is a cell of the table.
"""

import asyncio
import json
import re
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

WHY = {
    "body-wrapped": "openapi-mcp-generator puts the whole request body under one `requestBody` "
    "property; toolidl (and FastMCP) give each member of an object body its own parameter",
    "clash-renamed": "a body member or parameter named like another location's: toolidl names "
    "the later one `NAME_LOCATION`, FastMCP `NAME__LOCATION`",
    "ignored-header": "OpenAPI says `Accept`, `Content-Type` and `Authorization` header "
    "parameters SHALL be ignored; toolidl leaves them out",
    "read-only": "a `readOnly` member: toolidl leaves it out of requests, as OpenAPI says",
    "optional-body": "members required by an optional body: toolidl makes them optional (the "
    "body may be left out), the others keep them required",
    "default-not-required": "a parameter with a default: toolidl's is optional (its default is "
    "written), the other lists it as required",
    "body-value": "a body that is not a plain object (an array, a scalar, an object with "
    "`oneOf`/`anyOf` constraints between its members): toolidl keeps it whole as one `body` "
    "parameter, so the constraint is checked; the others flatten it or name it otherwise",
    "body-missing": "a request body given by `$ref` to `components.requestBodies`: "
    "openapi-mcp-generator gives the tool no parameter for it",
    "other": "not classified: see compare.json",
}

NODE_LIST = r"""
const { getToolsFromOpenApi } = require(process.argv[2] + "/dist/api.js");
getToolsFromOpenApi(process.argv[1], { dereference: true, maxToolNameLength: 1000 })
  .then((tools) => {
    const out = tools.map((t) => ({ name: t.name, operationId: t.operationId, inputSchema: t.inputSchema }));
    process.stdout.write(JSON.stringify(out));
  })
  .catch((e) => { process.stderr.write(String(e && e.stack || e)); process.exit(1); });
"""


def key(operation_id):
    return re.sub(r"[^a-z0-9]", "", (operation_id or "").lower())


def toolidl_tools(toolidl, document, scratch, imported):
    """toolidl's tools; `imported` is the folder and name of this document's import made
    earlier by scripts/openapi.sh (NAME.tool, NAME.forward.json, NAME.warnings.txt), used
    when all three are there (GitHub's document takes a while to import), or else None."""
    made = [imported[0] / f"{imported[1]}{suffix}" for suffix in (".tool", ".forward.json", ".warnings.txt")]
    if all(path.is_file() for path in made):
        tool, binding, warnings_file = made
        warnings = warnings_file.read_text().count("warning:")
    else:
        tool = scratch / "imported.tool"
        binding = scratch / "imported.forward.json"
        run = subprocess.run(
            [toolidl, "import", "--openapi", document, "-o", tool, "--forward", binding],
            capture_output=True, text=True,
        )
        if run.returncode != 0:
            raise RuntimeError(run.stderr)
        warnings = run.stderr.count("warning:")
    schema = subprocess.run([toolidl, "schema", tool], capture_output=True, text=True, check=True)
    listing = json.loads(schema.stdout)
    operations = json.loads(binding.read_text())["operations"]
    ids = {op["tool"]: op.get("operation_id") or op["tool"] for op in operations}
    body = {}
    for op in operations:
        fields = (op.get("body") or {}).get("fields") or []
        body[op["tool"]] = {argument for argument, _ in fields}
    out = {}
    for t in listing["tools"]:
        out[key(ids.get(t["name"], t["name"]))] = (t["name"], t["inputSchema"])
    return out, warnings, body


def fastmcp_tools(document, ours):
    from fastmcp import Client, FastMCP

    text = Path(document).read_text()
    if document.endswith((".yaml", ".yml")):
        import yaml

        spec = yaml.safe_load(text)
    else:
        spec = json.loads(text)
    import httpx2

    server = FastMCP.from_openapi(openapi_spec=spec, client=httpx2.AsyncClient(base_url="http://127.0.0.1:9"))

    async def listed():
        async with Client(server) as client:
            return await client.list_tools()

    tools = asyncio.run(listed())
    paths = spec.get("paths", {})
    # FastMCP names a tool after its operationId (or the method and path): map back.
    ids = {}
    for path, item in paths.items():
        for method, operation in (item or {}).items():
            if isinstance(operation, dict) and "responses" in operation:
                ident = operation.get("operationId")
                if ident:
                    ids[key(ident)] = ident
    out = {}
    cut = []
    for t in tools:
        k = key(t.name)
        if k in ids:
            out[k] = (t.name, t.inputSchema)
        else:
            cut.append(t)
    # A name cut short (and numbered when two cut names meet): the operationId it starts
    # whose toolidl tool shares the most properties with it.
    for t in cut:
        k = key(t.name)
        stem = k if any(i.startswith(k) for i in ids) else k.rstrip("0123456789")
        candidates = [i for i in ids if i.startswith(stem) and i not in out]
        mine = set((t.inputSchema.get("properties") or {}).keys())

        def overlap(i):
            theirs = set(((ours.get(i) or ("", {}))[1].get("properties") or {}).keys())
            return (len(mine & theirs), -len(mine ^ theirs))

        if candidates:
            k = max(candidates, key=overlap)
        out[k] = (t.name, t.inputSchema)
    return out


def generator_tools(node, generator, document):
    run = subprocess.run([node, "-e", NODE_LIST, document, generator], capture_output=True, text=True)
    if run.returncode != 0:
        raise RuntimeError(run.stderr[-2000:])
    return {key(t.get("operationId") or t["name"]): (t["name"], t["inputSchema"]) for t in json.loads(run.stdout)}


def read_only_names(document):
    """The names of the members marked `readOnly` anywhere in a document."""
    text = Path(document).read_text()
    if document.endswith((".yaml", ".yml")):
        import yaml

        spec = yaml.safe_load(text)
    else:
        spec = json.loads(text)
    names = set()

    def walk(value):
        if isinstance(value, dict):
            properties = value.get("properties")
            for name, prop in properties.items() if isinstance(properties, dict) else ():
                if isinstance(prop, dict) and prop.get("readOnly") is True:
                    names.add(name)
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    walk(spec)
    return names


def classify(name, ours, theirs, side, other_schema, body_members, read_only):
    """Why property `name` is only on `side` (`ours` or `theirs`)."""
    ours_properties = ours.get("properties") or {}
    if side == "theirs" and name == "requestBody":
        return "body-wrapped"
    if side == "theirs" and "body" in ours_properties and name not in ours_properties:
        return "body-value"
    if re.search(r"_(path|query|header|cookie|body)\d*$", name) or "__" in name:
        return "clash-renamed"
    if side == "theirs" and name in read_only and name not in ours_properties:
        return "read-only"
    if side == "ours" and name in body_members and "requestBody" not in (other_schema.get("properties") or {}):
        return "body-missing"
    if side == "theirs" and name == "requestBody":
        return "body-wrapped"
    if side == "ours" and name == "body":
        return "body-value"
    if side == "theirs" and name.lower() in ("authorization", "accept", "content-type"):
        return "ignored-header"
    if re.search(r"_(path|query|header|cookie|body)\d*$", name) or "__" in name:
        return "clash-renamed"
    if side == "ours" and "requestBody" in (other_schema.get("properties") or {}):
        return "body-wrapped"
    if side == "theirs" and (other_schema.get("properties") or {}).get("body") is not None:
        return "body-value"
    return "other"


def compare(ours, theirs, body, read_only):
    """Per matched tool, the differences between two input schemas, each classified."""
    found = []
    for k in sorted(set(ours) & set(theirs)):
        (name, a), (_, b) = ours[k], theirs[k]
        members = body.get(name, set())
        pa, pb = set((a.get("properties") or {}).keys()), set((b.get("properties") or {}).keys())
        for p in sorted(pa - pb):
            found.append((name, "property only in toolidl", p, classify(p, a, b, "ours", b, members, read_only)))
        for p in sorted(pb - pa):
            found.append((name, "property only in the other", p, classify(p, a, b, "theirs", a, members, read_only)))
        renamed = any(d[0] == name and d[3] == "clash-renamed" for d in found)
        ra, rb = set(a.get("required") or []), set(b.get("required") or [])
        for p in sorted((ra - rb) & pb):
            found.append((name, "required only in toolidl", p, "clash-renamed" if renamed else "other"))
        for p in sorted((rb - ra) & pa):
            prop = (a.get("properties") or {}).get(p) or {}
            why = "default-not-required" if "default" in prop else "optional-body"
            found.append((name, "required only in the other", p, why))
    return found


def main():
    toolidl, node, generator, out_dir = sys.argv[1:5]
    documents = [a.split("=", 1) for a in sys.argv[5:]]
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    rows, details = [], {}
    for name, document in documents:
        with tempfile.TemporaryDirectory() as scratch:
            ours, warnings, body = toolidl_tools(toolidl, document, Path(scratch), (out_dir, name))
        read_only = read_only_names(document)
        row = {"document": name, "toolidl": len(ours), "warnings": warnings}
        for other, lister in (
            ("fastmcp", lambda: fastmcp_tools(document, ours)),
            ("generator", lambda: generator_tools(node, generator, document)),
        ):
            try:
                theirs = lister()
            except Exception as error:  # a failure of the other implementation, reported
                row[other] = f"failed: {str(error).strip().splitlines()[-1][:120]}"
                continue
            differences = compare(ours, theirs, body, read_only)
            details[f"{name}/{other}"] = differences
            classes = Counter(d[3] for d in differences)
            row[other] = {
                "tools": len(theirs),
                "only_toolidl": sorted(v[0] for k, v in ours.items() if k not in theirs),
                "only_other": sorted(v[0] for k, v in theirs.items() if k not in ours),
                "differing_tools": len({d[0] for d in differences}),
                "classes": dict(classes),
            }
        rows.append(row)
    (out_dir / "compare.json").write_text(json.dumps({"rows": rows, "differences": details}, indent=1))
    lines = [
        "| document | toolidl tools (warnings) | other | its tools | tools only toolidl has | tools only it has | tools whose properties or required differ | differences by class |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        for other in ("fastmcp", "generator"):
            label = {"fastmcp": "FastMCP", "generator": "openapi-mcp-generator"}[other]
            r = row.get(other)
            if isinstance(r, str):
                lines.append(f"| {row['document']} | {row['toolidl']} ({row['warnings']}) | {label} | {r} | | | | |")
                continue
            classes = ", ".join(f"{k} {v}" for k, v in sorted(r["classes"].items())) or "none"
            lines.append(
                f"| {row['document']} | {row['toolidl']} ({row['warnings']}) | {label} | {r['tools']} | "
                f"{len(r['only_toolidl'])} | {len(r['only_other'])} | {r['differing_tools']} | {classes} |"
            )
    lines.append("")
    for k, v in WHY.items():
        lines.append(f"- `{k}`: {v}")
    table = "\n".join(lines) + "\n"
    (out_dir / "compare.md").write_text(table)
    print(table)
    sys.exit(0)


if __name__ == "__main__":
    main()
