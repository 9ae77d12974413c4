#!/usr/bin/env bash
# Runs every command of README.md's ```sh blocks, as written, from the repository root, and
# checks every ```tool block with `toolidl check`, so that the README cannot promise a
# command or show a file that does not work.
#
#   scripts/readme.sh
#
# A command that another part of CI already runs, or that a test runs in a scratch folder,
# is listed in COVERED with where it runs, and is not run twice. Every other command is run
# with `bash -c`; one that exits non-zero fails the script. Files a command leaves in the
# checkout (none should) are reported and fail it too.
set -euo pipefail
cd "$(dirname "$0")/.."

# "an extended regex matching a command@@where it runs"
COVERED=(
    '^cargo test --workspace$@@.ci/run (the test command)'
    '^bash scripts/(conformance|loadbalance|interop|editors|auth)\.sh$@@.ci/run'
    '^bash scripts/readme\.sh$@@.ci/run (this script)'
    '^cargo run -p toolidl-cli -- new @@toolidl-cli/tests/new_cli.rs (builds and runs the scaffold in a scratch folder)'
    '^cd @@a step of a walk-through, not a command on its own'
    '^cargo install @@installs into ~/.cargo; the same binary is run through cargo run here'
    'bench/http/run\.sh@@a benchmark (minutes; not in CI)'
    '^cargo run --release -p (manual-example|toolidl-bench) @@a benchmark (release build; not in CI)'
    '^(INSTA_UPDATE|TOOLIDL_BLESS)=@@blesses golden files (rewrites them)'
)

commands=$(awk '
    /^[[:space:]]*```sh[[:space:]]*$/ { inside = 1; next }
    /^[[:space:]]*```/ { inside = 0; next }
    inside { print }
' README.md)

before=$(git status --porcelain --untracked-files=all)
ran=0
covered=0
failed=0
while IFS= read -r line; do
    command=${line%%  #*}                      # a trailing "  # comment"
    command=$(sed -e 's/[[:space:]]*$//' -e 's/^[[:space:]]*//' <<<"$command")
    [ -z "$command" ] && continue
    [[ $command == \#* ]] && continue
    where=""
    for entry in "${COVERED[@]}"; do
        pattern=${entry%%@@*}
        if grep -qE "$pattern" <<<"$command"; then
            where=${entry#*@@}
            break
        fi
    done
    if [ -n "$where" ]; then
        echo "readme: covered: $command  ($where)"
        covered=$((covered + 1))
        continue
    fi
    echo "readme: running: $command"
    log=$(mktemp)
    if bash -c "$command" >"$log" 2>&1; then
        ran=$((ran + 1))
    else
        status=$?
        tail -n 30 "$log" >&2
        echo "readme: FAILED ($status): $command" >&2
        failed=$((failed + 1))
    fi
    rm -f "$log"
done <<<"$commands"

# Every ```tool block is a complete file that checks clean as pasted.
cargo build --quiet -p toolidl-cli
toolidl=${CARGO_TARGET_DIR:-target}/debug/toolidl
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
awk -v dir="$scratch" '
    /^[[:space:]]*```tool[[:space:]]*$/ { inside = 1; n++; indent = match($0, /[^ ]/) - 1; next }
    /^[[:space:]]*```/ { inside = 0; next }
    inside { print substr($0, indent + 1) > (dir "/block-" n ".tool") }
' README.md
for block in "$scratch"/block-*.tool; do
    [ -e "$block" ] || continue
    name=$(basename "$block")
    if out=$("$toolidl" check "$block" 2>&1); then
        echo "readme: checked: the \`\`\`tool block ${name#block-} ($(tail -n1 <<<"$out" | sed 's/^[^:]*: //'))"
        ran=$((ran + 1))
    else
        echo "$out" >&2
        echo "readme: FAILED: the \`\`\`tool block ${name#block-} does not check clean" >&2
        failed=$((failed + 1))
    fi
done

after=$(git status --porcelain --untracked-files=all)
if [ "$before" != "$after" ]; then
    echo "readme: the commands changed the checkout:" >&2
    diff <(echo "$before") <(echo "$after") >&2 || true
    failed=$((failed + 1))
fi
echo "readme: $ran passed, $failed failed ($covered covered elsewhere)"
[ "$failed" = 0 ]
