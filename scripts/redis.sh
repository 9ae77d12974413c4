#!/usr/bin/env bash
# Redis for the scale-out tests: Debian's `redis-server`, installed when missing, and started
# (never as the system service) on a free loopback port with its own config and data folder.
#
#   bash scripts/redis.sh install      installs redis-server (apt-get; needs root) if missing
#   source scripts/redis.sh            (from another script) defines:
#     redis_install                    the same, in the caller
#     redis_start DIR PORT             starts redis-server on 127.0.0.1:PORT with DIR as its
#                                      config and data folder; sets REDIS_PID, REDIS_URL
#     redis_stop                       stops it (SIGTERM, then waits)
#
# The server keeps nothing on disk (no RDB snapshots, no AOF): a restart starts empty, which
# is what the fault tests restart it for. Environment: REDIS_SERVER (the binary; default
# redis-server from PATH or /usr/bin).

redis_binary() {
    if [ -n "${REDIS_SERVER:-}" ]; then
        echo "$REDIS_SERVER"
    elif command -v redis-server >/dev/null 2>&1; then
        command -v redis-server
    elif [ -x /usr/bin/redis-server ]; then
        echo /usr/bin/redis-server
    fi
}

redis_install() {
    [ -z "$(redis_binary)" ] || return 0
    if [ "$(id -u)" != 0 ]; then
        echo "redis: redis-server is not installed and installing it needs root" \
            "(apt-get install redis-server)" >&2
        return 1
    fi
    export DEBIAN_FRONTEND=noninteractive
    apt-get update
    echo "redis: installing redis-server"
    # The package would start the system service where nothing forbids it; the tests run
    # their own. Debian's policy-rc.d hook, if the machine has none.
    local policy=/usr/sbin/policy-rc.d status=0
    if [ -e "$policy" ]; then
        apt-get install -y --no-install-recommends redis-server || status=$?
    else
        printf '#!/bin/sh\nexit 101\n' >"$policy"
        chmod +x "$policy"
        apt-get install -y --no-install-recommends redis-server || status=$?
        rm -f "$policy"
    fi
    return "$status"
}

REDIS_PID=""
REDIS_URL=""
redis_start() { # dir port
    local dir=$1 port=$2 bin _
    bin=$(redis_binary)
    [ -n "$bin" ] || { echo "redis: no redis-server (bash scripts/redis.sh install)" >&2; return 1; }
    mkdir -p "$dir"
    cat >"$dir/redis.conf" <<EOF
# Written by scripts/redis.sh.
bind 127.0.0.1
port $port
protected-mode yes
daemonize no
dir $dir
logfile $dir/redis.log
save ""
appendonly no
EOF
    "$bin" "$dir/redis.conf" >/dev/null 2>&1 &
    REDIS_PID=$!
    REDIS_URL=redis://127.0.0.1:$port
    for _ in $(seq 100); do
        if ! kill -0 "$REDIS_PID" 2>/dev/null; then
            cat "$dir/redis.log" >&2 2>/dev/null || true
            echo "redis: redis-server exited before listening on 127.0.0.1:$port" >&2
            return 1
        fi
        if (: </dev/tcp/127.0.0.1/"$port") 2>/dev/null; then
            return 0
        fi
        sleep 0.1
    done
    echo "redis: redis-server did not listen on 127.0.0.1:$port within 10 s" >&2
    return 1
}

redis_stop() {
    if [ -n "$REDIS_PID" ] && kill -0 "$REDIS_PID" 2>/dev/null; then
        kill -TERM "$REDIS_PID" 2>/dev/null || true
        wait "$REDIS_PID" 2>/dev/null || true
    fi
    REDIS_PID=""
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    set -euo pipefail
    case ${1:-} in
        install) redis_install; echo "redis: using $("$(redis_binary)" --version)" ;;
        *) echo "usage: bash scripts/redis.sh install" >&2; exit 2 ;;
    esac
fi
