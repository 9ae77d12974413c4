#!/usr/bin/env bash
# Scale-out through nginx at 64 clients: 1 instance against 3 instances on one Redis, and what
# the shared task store costs per task against the in-memory one.
#
#   bench/scaleout.sh
#
# 1. Starts redis-server (scripts/redis.sh: installed from Debian when missing, a free loopback
#    port, its own folder) and builds, in release, weather-example and toolidl-bench (root
#    workspace) and bench/http's `load` (its own workspace).
# 2. For 1 and 3 instances of `weather-example --http ADDR --stateless` behind nginx (round
#    robin, no affinity), runs `load URL --mode 2026 --clients 64` (2026-07-28 `tools/call
#    add`) with Redis's pid as `--server-pid`: the CPU column is Redis's CPU per call (a
#    stateless call of an ordinary tool does not touch Redis, so the instances need no
#    --redis here). Then session mode (`--mode session`, 2025-11-25): one instance, and three
#    on Redis (`--redis`: a session lives on the instance that opened it, and the others
#    forward its requests there, so round robin needs no affinity).
# 3. Runs `cargo run --release -p toolidl-bench --bin task_store` on that Redis: a task's
#    life (create, get, complete, get) in MemoryTaskStore, DirTaskStore and RedisTaskStore.
#
# Environment: BENCH_SECS (5 s per point).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
SECS=${BENCH_SECS:-5}
source scripts/redis.sh
redis_install

echo "== building (release)"
cargo build --release --quiet -p weather-example --features weather-example/redis -p toolidl-bench
(cd bench/http && cargo build --release --quiet --bin load)
SERVER=$ROOT/target/release/weather-example
LOAD=$ROOT/bench/http/target/release/load
NGINX=$(command -v nginx || echo /usr/sbin/nginx)

OUT=$(mktemp -d)
pids=()
stop() {
    local p
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
    pids=()
}
trap 'stop; redis_stop; rm -rf "$OUT"' EXIT

port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
listening() { local _; for _ in $(seq 200); do (: </dev/tcp/127.0.0.1/"$1") 2>/dev/null && return 0; sleep 0.05; done; return 1; }

redis_start "$OUT/redis" "$(port)"
echo "redis-server at $REDIS_URL (pid $REDIS_PID)"

# point LABEL MODE INSTANCES [--stateless]
point() {
    local label=$1 mode=$2 n=$3
    shift 3
    local ports=() i p
    for i in $(seq "$n"); do
        p=$(port)
        "$SERVER" --http "127.0.0.1:$p" "$@" 2>/dev/null &
        pids+=($!)
        ports+=("$p")
        listening "$p"
    done
    local lb
    lb=$(port)
    mkdir -p "$OUT/nginx/logs"
    cat >"$OUT/nginx/nginx.conf" <<EOF
worker_processes 1;
pid $OUT/nginx/nginx.pid;
error_log $OUT/nginx/logs/error.log;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path $OUT/nginx/body;
    proxy_temp_path $OUT/nginx/proxy;
    upstream mcp {
$(for p in "${ports[@]}"; do echo "        server 127.0.0.1:$p;"; done)
        keepalive 64;
        keepalive_requests 10000000;
    }
    # The load generator keeps one connection per client for the whole run.
    keepalive_requests 10000000;
    keepalive_timeout 300s;
    server {
        listen 127.0.0.1:$lb;
        location / {
            proxy_pass http://mcp;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host \$http_host;
            proxy_buffering off;
        }
    }
}
EOF
    "$NGINX" -p "$OUT/nginx" -c "$OUT/nginx/nginx.conf" -e "$OUT/nginx/logs/error.log" -g 'daemon off;' &
    pids+=($!)
    listening "$lb"
    "$LOAD" "http://127.0.0.1:$lb/mcp" --mode "$mode" --secs "$SECS" --clients 64 --label "$label" \
        --server-pid "$REDIS_PID" --clk-tck "$(getconf CLK_TCK)" | grep -v '^RESULT'
    stop
}

echo "== through nginx, 64 clients (CPU column: Redis's CPU per call)"
point "1 instance, 2026-07-28 (stateless)" 2026 1 --stateless
point "3 instances, 2026-07-28 (stateless)" 2026 3 --stateless
point "1 instance, session 2025-11-25" session 1
point "3 instances, session 2025-11-25 (Redis)" session 3 --redis "$REDIS_URL"

echo "== task store, a task's life"
cargo run --release --quiet -p toolidl-bench --bin task_store -- "$REDIS_URL" 4000 "$REDIS_PID"
