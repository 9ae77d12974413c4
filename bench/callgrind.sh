#!/usr/bin/env bash
# Instructions per request under callgrind, which the machine's load does not move:
#   stdio: `bench --serve` (hand-written) and `bench --serve-generated`, stdin a file of
#          `initialize`, `notifications/initialized` and N `tools/call add`;
#   http:  `weather-example --http ADDR --stateless`, one kept-alive client posting N
#          2026-07-28 `tools/call add`.
# Per request = (total at the larger N - total at the smaller) / their difference.
#
#   cargo build --release -p manual-example --bin bench -p weather-example
#   bash bench/callgrind.sh target/release            # or a folder with an older build
set -euo pipefail
bin=${1:?the folder holding bench and weather-example}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
port=${CALLGRIND_PORT:-18931}

total() { grep -m1 '^summary:' "$1" | cut -d' ' -f2; }

init='{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"callgrind","version":"1"}}}'
for n in 2000 12000; do
  {
    echo "$init"
    echo '{"jsonrpc":"2.0","method":"notifications/initialized"}'
    for ((i = 1; i <= n; i++)); do
      echo "{\"jsonrpc\":\"2.0\",\"id\":$i,\"method\":\"tools/call\",\"params\":{\"name\":\"add\",\"arguments\":{\"a\":$i,\"b\":1}}}"
    done
  } > "$work/in$n"
done
for mode in serve serve-generated; do
  for n in 2000 12000; do
    valgrind --tool=callgrind --callgrind-out-file="$work/$mode.$n" "$bin/bench" "--$mode" \
      < "$work/in$n" > /dev/null 2> /dev/null
  done
  echo "stdio --$mode: $(( ($(total "$work/$mode.12000") - $(total "$work/$mode.2000")) / 10000 )) instructions per call"
done

for n in 300 1300; do
  valgrind --tool=callgrind --callgrind-out-file="$work/http.$n" "$bin/weather-example" \
    --http "127.0.0.1:$port" --stateless > /dev/null 2> /dev/null &
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
echo "http stateless: $(( ($(total "$work/http.1300") - $(total "$work/http.300")) / 1000 )) instructions per request"
