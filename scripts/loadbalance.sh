#!/usr/bin/env bash
# Runs the MCP conformance suite (--requirements 2026-07-28) through nginx in front of two
# stateless instances of examples/conformance: the deployment shape of a server that has
# outgrown one process, behind an ordinary, unmodified load balancer.
#
#   scripts/loadbalance.sh [--redis [--sessions]] [--allow-failures] [SERVER_BINARY]
#
# --redis: three instances on one Redis server instead (Debian's redis-server, installed when
# missing and started on a free loopback port by scripts/redis.sh), each with
# `--redis redis://127.0.0.1:PORT` and no task directory: tasks, resource updates and the
# dynamic tool and prompt are shared through Redis, so the run must also show 0 warnings.
# --sessions (with --redis): the instances in session mode (no --stateless) and the
# 2025-11-25 requirement set: a session's requests that reach another instance than the one
# holding it are forwarded there (the session directory in Redis), so the suite's sessions
# work through round robin without affinity.
#
# 1. Installs nginx from Debian when missing (apt-get update, then `nginx-light`, else
#    `nginx`; needs root) and, as scripts/conformance.sh does, Node 22 and
#    @modelcontextprotocol/conformance into .cache/conformance/ (scripts/lib.sh).
# 2. Builds the server once (or takes SERVER_BINARY) and starts two instances with
#    `--http 127.0.0.1:PORT --stateless` on two free loopback ports, with the same
#    CONFORMANCE_STATE_KEY (a requestState sealed by one must open on the other) and one
#    task directory (`--task-dir`: a task created through one is served by both).
# 3. Writes an nginx config to .cache/conformance/loadbalance/ (ignored by git): round robin
#    over the two ports, HTTP/1.1 with kept-alive upstream connections, no response
#    buffering (SSE), the client's Host and every other header passed through; nginx runs
#    in the foreground (not the system service) on a third loopback port. Its access log
#    records, per request, the instance that answered ($upstream_addr) and the MCP method.
# 4. Runs `conformance server --url http://127.0.0.1:NGINX_PORT/mcp --requirements 2026-07-28`,
#    prints its `Total:` line, every failed check, every warning (checks that two
#    instances can turn from passed into warnings: list_changed on a listen stream and the
#    tool list between probes, where a tool list changed at run time is per process) and
#    the requests (and tools/call requests) each instance answered, counted from nginx's
#    access log; stops nginx and both instances (also on error).
#
# Exit status: 0 when the suite reports 0 failed checks (every scenario counts, scored or
# not) and both instances answered tools/call requests; 1 otherwise. --allow-failures: 0
# despite failed checks (still printed), for looking at a deployment change; a missing
# Total line or an instance that served no call still fails.
#
# Environment: CONFORMANCE_STATE_KEY (default: 32 random bytes, hex, per run),
# CONFORMANCE_CACHE (install folder, as for scripts/conformance.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
# NODE_VERSION, SUITE_VERSION, CACHE, NODE, SUITE, conformance_install, free_port,
# conformance_checks.
source scripts/lib.sh

REQUIREMENTS=2026-07-28

allow_failures=0
server=""
use_redis=0
sessions=0
for arg in "$@"; do
    case $arg in
        --sessions) sessions=1 ;;
        --allow-failures) allow_failures=1 ;;
        --redis) use_redis=1 ;;
        -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
        -*) echo "loadbalance.sh: unknown option $arg" >&2; exit 2 ;;
        *) server=$arg ;;
    esac
done

# --- 1. Install (idempotent) --------------------------------------------------------------
nginx_path loadbalance
echo "loadbalance: using $("$NGINX" -v 2>&1) ($NGINX)"
conformance_install
if [ "$sessions" = 1 ] && [ "$use_redis" = 0 ]; then
    echo "loadbalance: --sessions needs --redis" >&2
    exit 2
fi
mode=(--stateless)
if [ "$sessions" = 1 ]; then
    REQUIREMENTS=2025-11-25
    mode=()
fi
INSTANCES=2
if [ "$use_redis" = 1 ]; then
    INSTANCES=3
    # redis_install, redis_start, redis_stop, REDIS_PID, REDIS_URL.
    source scripts/redis.sh
    redis_install
fi

# --- 2. Two stateless instances on loopback ports -----------------------------------------
if [ -z "$server" ]; then
    cargo build --quiet -p conformance-example
    server=${CARGO_TARGET_DIR:-$ROOT/target}/debug/conformance-example
fi
[ -x "$server" ] || { echo "loadbalance: no server binary at $server" >&2; exit 1; }

OUT=$CACHE/loadbalance
[ "$use_redis" = 0 ] || OUT=$CACHE/loadbalance-redis
[ "$sessions" = 0 ] || OUT=$CACHE/loadbalance-redis-sessions
rm -rf "$OUT"
mkdir -p "$OUT/nginx/logs" "$OUT/nginx/tmp"

pids=()
stop_all() { # nginx first (it stops sending), then the instances
    local i
    for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
        if kill -0 "${pids[i]}" 2>/dev/null; then
            kill -TERM "${pids[i]}" 2>/dev/null || true
            wait "${pids[i]}" 2>/dev/null || true
        fi
    done
    pids=()
    [ "$use_redis" = 0 ] || redis_stop
}
trap stop_all EXIT

# Waits until PID listens on PORT; on failure prints LOG and exits.
wait_listening() { # name pid port log
    local _
    for _ in $(seq 100); do
        if ! kill -0 "$2" 2>/dev/null; then
            cat "$4" >&2
            echo "loadbalance: $1 exited before listening on 127.0.0.1:$3" >&2
            exit 1
        fi
        if (: </dev/tcp/127.0.0.1/"$3") 2>/dev/null; then
            return 0
        fi
        sleep 0.1
    done
    cat "$4" >&2
    echo "loadbalance: $1 did not listen on 127.0.0.1:$3 within 10 s" >&2
    exit 1
}

CONFORMANCE_STATE_KEY=${CONFORMANCE_STATE_KEY:-$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')}
export CONFORMANCE_STATE_KEY
# One task store for all: a task created through one instance is polled, updated and
# cancelled through any. Without Redis, a task directory.
TASKS=$OUT/tasks
rm -rf "$TASKS"
shared=(--task-dir "$TASKS")
ports=()
if [ "$use_redis" = 1 ]; then
    redis_port=$(free_port)
    ports+=("$redis_port")
    redis_start "$OUT/redis" "$redis_port"
    echo "loadbalance: redis-server at $REDIS_URL (pid $REDIS_PID)"
    shared=(--redis "$REDIS_URL")
fi
instance_ports=()
for n in $(seq "$INSTANCES"); do
    port=$(free_port)
    # Distinct from the others (the OS may hand the same free port out twice).
    while [[ " ${ports[*]} " == *" $port "* ]]; do port=$(free_port); done
    ports+=("$port")
    instance_ports+=("$port")
    "$server" --http "127.0.0.1:$port" "${mode[@]}" "${shared[@]}" >"$OUT/instance-$n.log" 2>&1 &
    pids+=($!)
    wait_listening "instance $n" "$!" "$port" "$OUT/instance-$n.log"
    echo "loadbalance: instance $n at http://127.0.0.1:$port/mcp (log: ${OUT#"$ROOT"/}/instance-$n.log)"
done

# --- 3. nginx in front, round robin -------------------------------------------------------
lb_port=$(free_port)
while [[ " ${ports[*]} " == *" $lb_port "* ]]; do lb_port=$(free_port); done
conf=$OUT/nginx/nginx.conf
cat >"$conf" <<EOF
# Written by scripts/loadbalance.sh; run with nginx -p $OUT/nginx -c $conf.
worker_processes 1;
pid $OUT/nginx/nginx.pid;
error_log $OUT/nginx/logs/error.log notice;
events { worker_connections 1024; }
http {
    client_body_temp_path $OUT/nginx/tmp/body;
    proxy_temp_path $OUT/nginx/tmp/proxy;
    fastcgi_temp_path $OUT/nginx/tmp/fastcgi;
    uwsgi_temp_path $OUT/nginx/tmp/uwsgi;
    scgi_temp_path $OUT/nginx/tmp/scgi;

    # One line per request: the instance that answered, statuses, the MCP method (header and
    # body, whichever the client sent) and the tool name header.
    log_format upstream escape=json
        '\$upstream_addr\t\$upstream_status\t\$status\t\$request_method\t'
        '\$http_mcp_method\t\$http_mcp_name\t\$request_body';
    access_log $OUT/nginx/logs/access.log upstream;

    upstream conformance {
        # Round robin (nginx's default) over the instances, no session affinity.
$(for p in "${instance_ports[@]}"; do echo "        server 127.0.0.1:$p;"; done)
        keepalive 16;
    }

    server {
        listen 127.0.0.1:$lb_port;
        # The instances enforce their own 4 MiB body limit (413); the proxy must not be lower.
        client_max_body_size 8m;
        client_body_buffer_size 8m;

        location / {
            proxy_pass http://conformance;
            proxy_http_version 1.1;
            # Kept-alive upstream connections: no "Connection: close" from nginx.
            proxy_set_header Connection "";
            # The client's Host, unchanged: the instances check it (loopback names with any
            # port are allowed; anything else is refused, as without the proxy).
            proxy_set_header Host \$http_host;
            proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto \$scheme;
            # SSE: pass each event on as it comes; long-lived streams.
            proxy_buffering off;
            proxy_cache off;
            proxy_read_timeout 1h;
            proxy_send_timeout 1h;
        }
    }
}
EOF
"$NGINX" -t -q -p "$OUT/nginx" -c "$conf" -e "$OUT/nginx/logs/error.log" ||
    { cat "$OUT/nginx/logs/error.log" >&2; exit 1; }
"$NGINX" -p "$OUT/nginx" -c "$conf" -e "$OUT/nginx/logs/error.log" -g 'daemon off;' \
    >"$OUT/nginx/logs/stdout.log" 2>&1 &
pids+=($!)
wait_listening nginx "$!" "$lb_port" "$OUT/nginx/logs/error.log"
url=http://127.0.0.1:$lb_port/mcp
echo "loadbalance: nginx serving $url (config: ${conf#"$ROOT"/})"

# --- 4. The suite through nginx -----------------------------------------------------------
log=$OUT/$REQUIREMENTS.log
echo
echo "=== conformance server --requirements $REQUIREMENTS (through nginx) ==="
status=0
run_suite "$url" "$REQUIREMENTS" "$OUT/$REQUIREMENTS" "$log" || status=$?
stop_all # flushes nginx's access log
trap - EXIT

total=$(grep -E '^Total: [0-9]+ passed, [0-9]+ failed' "$log" | tail -n1 || true)
echo "$REQUIREMENTS: ${total:-no Total line (see ${log#"$ROOT"/})}"
failures=$(conformance_checks "$OUT/$REQUIREMENTS" FAILURE)
if [ -n "$failures" ]; then
    echo "failed checks:"
    echo "$failures"
fi
# Not failures, but where two instances can differ from one process: per-process state such as
# the tool list a trigger changed, or a list_changed that another instance's listen stream
# never hears about.
warnings=$(conformance_checks "$OUT/$REQUIREMENTS" WARNING)
if [ -n "$warnings" ]; then
    echo "warnings:"
    echo "$warnings"
fi

# Requests each instance answered, from nginx's record of the upstream that answered (the
# last address when nginx had to try another one).
served_ok=1
echo
for n in $(seq "$INSTANCES"); do
    addr=127.0.0.1:${instance_ports[n - 1]}
    counts=$(awk -F'\t' -v addr="$addr" '
        { n = split($1, tried, ", "); if (tried[n] != addr) next; all++ }
        $5 == "tools/call" || $7 ~ /\\"method\\":\\"tools\/call\\"/ { calls++ }
        END { printf "%d %d", all, calls }' "$OUT/nginx/logs/access.log")
    read -r requests calls <<<"$counts"
    echo "instance $n ($addr): $requests requests, $calls tools/call"
    [ "$calls" -gt 0 ] || served_ok=0
done
echo "(per request: ${OUT#"$ROOT"/}/nginx/logs/access.log; transcripts: ${OUT#"$ROOT"/}/$REQUIREMENTS/)"

if [ -z "$total" ]; then
    echo "loadbalance: FAILED: the suite printed no Total line (exit status $status; see ${log#"$ROOT"/})" >&2
    exit 1
fi
if [ "$served_ok" != 1 ]; then
    echo "loadbalance: FAILED: an instance served no tools/call request" >&2
    exit 1
fi
if [ "$use_redis" = 1 ] && [ "$sessions" = 0 ] && [ -n "$warnings" ]; then
    # Through Redis nothing is per process any more: a warning is a failure.
    echo "loadbalance: FAILED: warnings with Redis (every instance shares its state)" >&2
    [ "$allow_failures" = 1 ] || exit 1
fi
if [ "$status" != 0 ] || ! grep -qE '^Total: [0-9]+ passed, 0 failed' <<<"$total"; then
    if [ "$allow_failures" = 1 ]; then
        echo "loadbalance: checks failed (allowed by --allow-failures)"
        exit 0
    fi
    echo "loadbalance: FAILED (transcripts and results in ${OUT#"$ROOT"/})" >&2
    exit 1
fi
echo "loadbalance: passed"
