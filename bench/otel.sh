#!/usr/bin/env bash
# What feature `otel` costs a server (docs/telemetry.md): weather-example built with it (its
# default) and without (`--no-default-features`), each `tools/call add` over stdio and over
# Streamable HTTP (2026-07-28, stateless), in three settings:
#   plain   without the feature;
#   otel    with it and no exporter (no OTEL_EXPORTER_OTLP_ENDPOINT: spans and histograms
#           are made and go nowhere);
#   export  with it, 100% sampling (OTEL_TRACES_SAMPLER=always_on), every span and metric
#           sent over OTLP/HTTP to a receiver on this machine (a Python HTTP server that
#           answers 200 and counts what it got).
# Figures: callgrind instructions per call, which the machine's load does not move (stdio:
# (total at 12,000 calls - total at 2,000) / 10,000; HTTP: (1,300 - 300) / 1,000), and the
# wall time of 200,000 pipelined stdio calls read from a file (best of 3).
#
#   cargo build --release -p weather-example && cp target/release/weather-example DIR/weather-otel
#   cargo build --release -p weather-example --no-default-features \
#       && cp target/release/weather-example DIR/weather-plain
#   bash bench/otel.sh DIR
set -euo pipefail
dir=${1:?the folder holding weather-otel and weather-plain}
work=$(mktemp -d)
port=${OTEL_BENCH_PORT:-18951}
receiver_port=${OTEL_BENCH_RECEIVER_PORT:-18952}
receiver=
cleanup() {
  if [ -n "$receiver" ]; then kill "$receiver" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

total() { grep -m1 '^summary:' "$1" | cut -d' ' -f2; }

# The receiver: answers every POST with 200 and an empty protobuf body; prints what it got
# when stopped.
python3 - "$receiver_port" > "$work/received" 2>&1 <<'EOF' &
import http.server, signal, sys
got = {"requests": 0, "bytes": 0}
class Handler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        n = int(self.headers.get("Content-Length", 0))
        self.rfile.read(n)
        got["requests"] += 1
        got["bytes"] += n
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", "0")
        self.end_headers()
    def log_message(self, *args):
        pass
def stop(*_):
    print(f"receiver: {got['requests']} exports, {got['bytes']} bytes", flush=True)
    sys.exit(0)
signal.signal(signal.SIGTERM, stop)
http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
EOF
receiver=$!

init='{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"otel-bench","version":"1"}}}'
for n in 2000 12000 200000; do
  {
    echo "$init"
    echo '{"jsonrpc":"2.0","method":"notifications/initialized"}'
    for ((i = 1; i <= n; i++)); do
      echo "{\"jsonrpc\":\"2.0\",\"id\":$i,\"method\":\"tools/call\",\"params\":{\"name\":\"add\",\"arguments\":{\"a\":$i,\"b\":1}}}"
    done
  } > "$work/in$n"
done

# Runs the setting's binary under its environment, after the command given before `--`:
# `(run SETTING [COMMAND...] -- ARGS...)` (COMMAND: valgrind and its options, or nothing),
# in a subshell that becomes the process (so that `$!` is the server's).
run() {
  local setting=$1 bin
  shift
  local prefix=()
  while [ "$1" != "--" ]; do prefix+=("$1"); shift; done
  shift
  case $setting in
    plain) bin=$dir/weather-plain ;;
    *) bin=$dir/weather-otel ;;
  esac
  case $setting in
    export)
      exec env OTEL_EXPORTER_OTLP_ENDPOINT="http://127.0.0.1:$receiver_port" \
        OTEL_TRACES_SAMPLER=always_on OTEL_METRIC_EXPORT_INTERVAL=1000 OTEL_SERVICE_NAME=otel-bench \
        "${prefix[@]}" "$bin" "$@" ;;
    *) exec env -u OTEL_EXPORTER_OTLP_ENDPOINT "${prefix[@]}" "$bin" "$@" ;;
  esac
}

echo "instructions per call (callgrind):"
for setting in plain otel export; do
  for n in 2000 12000; do
    (run "$setting" valgrind --tool=callgrind --callgrind-out-file="$work/$setting.$n" -- \
      < "$work/in$n" > "$work/out.$setting.$n" 2> /dev/null)
    replies=$(grep -c '"result"' "$work/out.$setting.$n")
    [ "$replies" -eq $((n + 1)) ] || { echo "$setting: $replies replies to $n calls" >&2; exit 1; }
  done
  echo "  stdio $setting: $(( ($(total "$work/$setting.12000") - $(total "$work/$setting.2000")) / 10000 ))"
done

for setting in plain otel export; do
  for n in 300 1300; do
    (run "$setting" valgrind --tool=callgrind --callgrind-out-file="$work/http.$setting.$n" -- \
      --http "127.0.0.1:$port" --stateless > /dev/null 2> /dev/null) &
    server=$!
    for _ in $(seq 1 120); do
      python3 -c "import socket,sys; sys.exit(socket.socket().connect_ex(('127.0.0.1',$port)))" && break
      sleep 1
    done
    python3 - "$port" "$n" <<'EOF'
import http.client, json, sys
port, n = int(sys.argv[1]), int(sys.argv[2])
c = http.client.HTTPConnection("127.0.0.1", port)
meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}}
headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
           "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "add"}
for i in range(n):
    body = json.dumps({"jsonrpc": "2.0", "id": i, "method": "tools/call",
                       "params": {"_meta": meta, "name": "add", "arguments": {"a": i, "b": 1}}})
    c.request("POST", "/mcp", body, headers)
    r = c.getresponse()
    text = r.read().decode()
    if r.status != 200 or f'"text":"{i + 1}"' not in text:
        sys.exit(f"request {i}: {r.status} {text[:300]}")
EOF
    kill -TERM "$server"
    wait "$server" || true
  done
  echo "  http $setting: $(( ($(total "$work/http.$setting.1300") - $(total "$work/http.$setting.300")) / 1000 ))"
done

echo "wall time of 200,000 pipelined stdio calls (best of 3):"
for setting in plain otel export; do
  best=
  for _ in 1 2 3; do
    start=$(date +%s%N)
    (run "$setting" -- < "$work/in200000" > "$work/out.wall" 2> /dev/null)
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
  done
  replies=$(grep -c '"result"' "$work/out.wall")
  [ "$replies" -eq 200001 ] || { echo "$setting: $replies replies" >&2; exit 1; }
  echo "  stdio $setting: ${best} ms ($(( 200000 * 1000 / best )) calls/s)"
done

kill -TERM "$receiver"
wait "$receiver" || true
receiver=
cat "$work/received"
