#!/usr/bin/env bash
# Runs every command of README.md's ```sh blocks, as written, from the repository root, and
# checks every ```tool block with `toolidl check`, so that the README cannot promise a
# command or show a file that does not work; and that the weather blocks of README.md and
# docs/ are excerpts of examples/weather/tools/weather.tool, the one weather example.
#
#   scripts/readme.sh
#
# A command that another part of CI already runs, or that a test runs in a scratch folder,
# is listed in COVERED with where it runs, and is not run twice. Every other command is run
# with `bash -c`; one that exits non-zero fails the script. Files a command leaves in the
# checkout (none should) are reported and fail it too.
#
# A block after the line `<!-- readme.sh: one script -->` is a walk-through: its lines are
# run in order as one script (`set -e`: a `cd` carries to the next line), as a new user
# would type them, from the repository root, with stdin at end of input. `cargo install`
# installs into a scratch folder put first on PATH, and `mktemp` makes its folders there, so
# the walk-through runs outside the checkout and leaves nothing behind.
#
# A block after `<!-- readme.sh: one script, registry -->` is the walk-through of a user of
# the crates.io releases. Nothing is published yet, so it runs against the packages that
# `cargo package` makes of this checkout (what crates.io would serve): unpacked into the
# scratch folder, whose `.cargo/config.toml` patches crates.io's `toolidl*` crates with them
# (`[patch.crates-io]`; every other crate comes from crates.io), and `cargo install
# toolidl-cli` installs the packaged CLI. The README's `toml` lines that depend on
# `toolidl-runtime` or `toolidl-build` must be the lines `toolidl new --crates-io` writes, so
# that the walk-through tests them.
set -euo pipefail
cd "$(dirname "$0")/.."

# "an extended regex matching a command@@where it runs"
COVERED=(
    '^cargo test --workspace$@@.ci/run (the test command)'
    '^bash scripts/(conformance|loadbalance|interop|editors|auth|crates|bundle)\.sh$@@.ci/run'
    '^bash scripts/readme\.sh$@@.ci/run (this script)'
    '^cd @@a step of a walk-through, not a command on its own'
    '^cargo install @@installs into ~/.cargo; the same binary is run through cargo run here'
    'bench/http/run\.sh@@a benchmark (minutes; not in CI)'
    '^cargo run --release -p (manual-example|toolidl-bench) @@a benchmark (release build; not in CI)'
    '^(INSTA_UPDATE|TOOLIDL_BLESS|TRYBUILD)=@@blesses golden files (rewrites them)'
)

commands=$(awk '
    /<!-- readme.sh: one script(, registry)? -->/ { script = 1; next }
    /^[[:space:]]*```sh[[:space:]]*$/ { inside = !script; script = 0; next }
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

# One weather example: every ```tool block of README.md and docs/ that declares `package
# acme.weather;` is an excerpt of examples/weather/tools/weather.tool, its lines (but for a
# `// …` line marking a cut) lines of that file in the same order. Quick: no build needed.
if python3 - README.md docs/*.md <<'EOF'
import re, sys
canonical = open("examples/weather/tools/weather.tool", encoding="utf-8").read().splitlines()
blocks = failed = 0
for path in sys.argv[1:]:
    lines = open(path, encoding="utf-8").read().splitlines()
    i = 0
    while i < len(lines):
        fence = re.match(r"^(\s*)```tool\s*$", lines[i])
        i += 1
        if not fence:
            continue
        indent, first, block = len(fence.group(1)), i + 1, []
        while i < len(lines) and not re.match(r"^\s*```", lines[i]):
            block.append(lines[i][indent:])
            i += 1
        if "package acme.weather;" not in block:
            continue
        blocks += 1
        at = 0
        for n, line in enumerate(block):
            if line.strip().startswith("// …"):
                continue
            try:
                at = canonical.index(line, at) + 1
            except ValueError:
                print(f"readme: FAILED: {path}:{first + n}: `{line.strip()}` is not the next "
                      "line of examples/weather/tools/weather.tool", file=sys.stderr)
                failed += 1
                break
print(f"readme: checked: {blocks} weather blocks are excerpts of examples/weather/tools/weather.tool")
sys.exit(1 if failed else 0)
EOF
then
    ran=$((ran + 1))
else
    failed=$((failed + 1))
fi

# The walk-throughs, each as one script.
walkthroughs=$(mktemp -d)
awk -v dir="$walkthroughs" '
    /<!-- readme.sh: one script -->/ { script = 1; kind = ""; next }
    /<!-- readme.sh: one script, registry -->/ { script = 1; kind = ".registry"; next }
    script && /^[[:space:]]*```sh[[:space:]]*$/ { inside = 1; script = 0; n++; indent = match($0, /[^ ]/) - 1; next }
    inside && /^[[:space:]]*```/ { inside = 0; next }
    inside { print substr($0, indent + 1) > (dir "/walkthrough-" n kind ".sh") }
' README.md
target_dir=$(realpath -m "${CARGO_TARGET_DIR:-target}")
PUBLISHED=(toolidl toolidl-formats toolidl-codegen toolidl-runtime toolidl-build toolidl-cli)
version=$(cargo metadata --no-deps --format-version 1 --locked |
    python3 -c 'import json, sys; print(next(p["version"] for p in json.load(sys.stdin)["packages"] if p["name"] == "toolidl-runtime"))')
# registry_setup SCRATCH: the packages unpacked into SCRATCH/crates and patched in by
# SCRATCH/.cargo/config.toml; prints that file's path.
registry_setup() {
    local scratch=$1 p args=()
    for p in "${PUBLISHED[@]}"; do args+=(-p "$p"); done
    cargo package --quiet --no-verify --locked "${args[@]}" 2>/dev/null
    mkdir -p "$scratch/crates" "$scratch/.cargo"
    echo "[patch.crates-io]" >"$scratch/.cargo/config.toml"
    for p in "${PUBLISHED[@]}"; do
        tar -xzf "$target_dir/package/$p-$version.crate" -C "$scratch/crates"
        echo "$p = { path = \"$scratch/crates/$p-$version\" }" >>"$scratch/.cargo/config.toml"
    done
    echo "$scratch/.cargo/config.toml"
}
cargo build --quiet -p toolidl-cli
for walkthrough in "$walkthroughs"/walkthrough-*.sh; do
    [ -e "$walkthrough" ] || continue
    name=$(basename "$walkthrough")
    scratch_home=$(mktemp -d)
    log=$(mktemp)
    echo "readme: running the walk-through ${name#walkthrough-} as one script:"
    sed 's/^/readme:   /' "$walkthrough"
    if [[ $name == *.registry.sh ]]; then
        config=$(registry_setup "$scratch_home")
        echo "readme:   (against the packages of this checkout: $(grep -c 'path =' "$config") crates patched in)"
        # `cargo install toolidl-cli` from crates.io: the packaged CLI instead.
        sed -i "s#^cargo install toolidl-cli\\b#cargo --config $config install --path $scratch_home/crates/toolidl-cli-$version#" "$walkthrough"
        # The README's dependency lines are the scaffold's.
        "${CARGO_TARGET_DIR:-target}/debug/toolidl" new probe --crates-io --path "$scratch_home/probe" >/dev/null
        while IFS= read -r line; do
            if ! grep -qxF "$line" "$scratch_home/probe/Cargo.toml"; then
                echo "readme: FAILED: README.md's \`$line\` is not what \`toolidl new --crates-io\` writes" >&2
                failed=$((failed + 1))
            fi
        done < <(awk '/^[[:space:]]*```toml/ { t = 1; next } /^[[:space:]]*```/ { t = 0 } t && /^[[:space:]]*toolidl-(runtime|build) = /' README.md | sed 's/^[[:space:]]*//')
        rm -rf "$scratch_home/probe"
    fi
    if (
        export CARGO_INSTALL_ROOT="$scratch_home/install" TMPDIR="$scratch_home"
        export PATH="$scratch_home/install/bin:$PATH"
        # What is checked is that the steps work, not how fast the installed binary runs: the
        # release profile unoptimized builds in a third of the time; and the scaffold's
        # dependencies are the ones toolidl-cli/tests/it/new_cli.rs built, in the target folder
        # it uses (same sources, same lock: cargo builds only the new crate).
        export CARGO_PROFILE_RELEASE_OPT_LEVEL=0 CARGO_PROFILE_RELEASE_CODEGEN_UNITS=256
        export CARGO_TARGET_DIR="$target_dir/tmp/scaffold-target"
        bash -euo pipefail -x "$walkthrough" </dev/null
    ) >"$log" 2>&1; then
        echo "readme: walk-through ${name#walkthrough-} passed ($(grep -c '^test result: ok' "$log") test runs ok)"
        ran=$((ran + 1))
    else
        status=$?
        tail -n 40 "$log" >&2
        echo "readme: FAILED ($status): the walk-through ${name#walkthrough-}" >&2
        failed=$((failed + 1))
    fi
    rm -rf "$scratch_home" "$log"
done
rm -rf "$walkthroughs"

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
