#!/usr/bin/env bash
# tools/call add over Streamable HTTP: toolidl's weather example against an rmcp server.
#
# Builds (release) examples/weather in the root workspace and this crate (its own
# workspace, target in bench/http/target), then for each row starts a fresh server on a
# loopback port (127.0.0.1 only), runs `load` with 1, 16 and 64 keep-alive clients for
# BENCH_SECS seconds each (default 5), stops the server and reads its peak RSS (VmHWM from
# /proc/PID/status just before stopping it) and its CPU time per request (user + system, all
# threads, from /proc/PID/stat around each point). Prints a table at the end.
#
# Environment: BENCH_SECS (5), BENCH_CLIENTS (1,16,64), BENCH_PORT (18931; a free port is
# needed there), BENCH_PIN=1 (server on CPU 0, load generator on CPU 1, with taskset, so the
# two do not compete for a core; default: unpinned).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
SECS=${BENCH_SECS:-5}
CLIENTS=${BENCH_CLIENTS:-1,16,64}
PORT=${BENCH_PORT:-18931}
URL=http://127.0.0.1:$PORT/mcp
PIN_SERVER=()
PIN_LOAD=()
if [ "${BENCH_PIN:-0}" = 1 ]; then
    PIN_SERVER=(taskset -c 0)
    PIN_LOAD=(taskset -c 1)
fi

echo "== building (release)"
(cd "$ROOT" && cargo build --release -p weather-example)
(cd "$HERE" && cargo build --release --bins)
TOOLIDL=$ROOT/target/release/weather-example
RMCP=$HERE/target/release/rmcp-add
LOAD=$HERE/target/release/load

if (: </dev/tcp/127.0.0.1/"$PORT") 2>/dev/null; then
    echo "port $PORT is in use; set BENCH_PORT" >&2
    exit 1
fi

results=$(mktemp)
server_pid=
cleanup() {
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
    rm -f "$results"
}
trap cleanup EXIT

# row SERVER_NAME MODE LOAD_MODE -- COMMAND...
row() {
    local name=$1 mode=$2 load_mode=$3
    shift 4
    "${PIN_SERVER[@]}" "$@" 2>/dev/null &
    server_pid=$!
    for _ in $(seq 1 100); do
        (: </dev/tcp/127.0.0.1/"$PORT") 2>/dev/null && break
        sleep 0.05
    done
    echo "== $name, $mode"
    local out status=0
    out=$("${PIN_LOAD[@]}" "$LOAD" "$URL" --mode "$load_mode" --secs "$SECS" --clients "$CLIENTS" --label "$name $mode" \
        --server-pid "$server_pid" --clk-tck "$(getconf CLK_TCK)") || status=$?
    grep -v '^RESULT' <<<"$out"
    local rss
    rss=$(awk '/^VmHWM:/ {print $2}' "/proc/$server_pid/status")
    kill "$server_pid"
    wait "$server_pid" 2>/dev/null || true
    server_pid=
    grep '^RESULT' <<<"$out" | while IFS=$'\t' read -r _ _ clients rps p50 p99 errors cpu; do
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$mode" "$clients" "$rps" "$p50" "$p99" "$errors" "$rss" "$cpu" >>"$results"
    done
    if [ "$status" != 0 ]; then
        echo "load failed against $name $mode (status $status)" >&2
        exit 1
    fi
    sleep 0.3 # the port is free again before the next server binds it
}

row toolidl "session 2025-11-25" session -- "$TOOLIDL" --http "127.0.0.1:$PORT"
row toolidl "stateless 2025-11-25" stateless -- "$TOOLIDL" --http "127.0.0.1:$PORT" --stateless
row toolidl "2026-07-28" 2026 -- "$TOOLIDL" --http "127.0.0.1:$PORT" --stateless
row rmcp "session 2025-11-25" session -- "$RMCP" "127.0.0.1:$PORT"
row rmcp "stateless JSON 2025-11-25" stateless -- "$RMCP" "127.0.0.1:$PORT" --stateless
row rmcp "2026-07-28" 2026 -- "$RMCP" "127.0.0.1:$PORT" --stateless

echo
pinning="unpinned"
[ "${BENCH_PIN:-0}" = 1 ] && pinning="server pinned to CPU 0, load generator to CPU 1"
echo "tools/call add, ${SECS} s per point, $(nproc) CPUs, load generator on the same machine ($pinning);"
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| server | mode | clients | req/s | p50 ms | p99 ms | errors | peak RSS (VmHWM) | server CPU µs/req |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|"
while IFS=$'\t' read -r name mode clients rps p50 p99 errors rss cpu; do
    printf '| %s | %s | %s | %s | %s | %s | %s | %s MiB | %s |\n' "$name" "$mode" "$clients" "$rps" "$p50" "$p99" "$errors" \
        "$(awk -v k="$rss" 'BEGIN {printf "%.1f", k / 1024}')" "$cpu"
done <"$results"
echo
# toolidl / rmcp at the largest client count, mode by mode (rows pair up in order).
max=${CLIENTS##*,}
echo "toolidl / rmcp requests/s at $max clients:"
awk -F'\t' -v max="$max" '
    $3 == max && $1 == "toolidl" { t[++nt] = $4; m[nt] = $2 }
    $3 == max && $1 == "rmcp" { r[++nr] = $4; rm[nr] = $2 }
    END { for (i = 1; i <= nt && i <= nr; i++) printf "  %s vs rmcp %s: %.2fx\n", m[i], rm[i], t[i] / r[i] }
' "$results"
echo "rmcp / toolidl server CPU time per request at $max clients (how much less CPU toolidl spends):"
awk -F'\t' -v max="$max" '
    $3 == max && $1 == "toolidl" { t[++nt] = $9; m[nt] = $2 }
    $3 == max && $1 == "rmcp" { r[++nr] = $9; rm[nr] = $2 }
    END { for (i = 1; i <= nt && i <= nr; i++) if (t[i] > 0) printf "  %s vs rmcp %s: %.1f / %.1f us = %.2fx\n", m[i], rm[i], r[i], t[i], r[i] / t[i] }
' "$results"
