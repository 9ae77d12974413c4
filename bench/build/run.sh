#!/usr/bin/env bash
# What a user pays to build a server: `toolidl new`'s scaffold (one tool over stdio, generated
# by build.rs) against the same server written with the official Rust SDK (rmcp-hello/).
#
# Each is built from scratch into a fresh target folder, debug then release, after its
# dependencies are fetched (downloads are not timed). Prints wall-clock and CPU seconds, the
# number of crates compiled (the crate graph, build dependencies and proc macros included)
# and the release binary's size. The scaffold uses the root Cargo.lock's versions.
#
# Environment: BUILD_RUNS (1): builds of each kind; the table shows every run.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
RUNS=${BUILD_RUNS:-1}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

echo "== scaffolding with toolidl new"
(cd "$ROOT" && cargo run -q -p toolidl-cli -- new hello --path "$WORK/hello" --toolidl-path "$ROOT")
cp "$ROOT/Cargo.lock" "$WORK/hello/Cargo.lock"
cp -r "$HERE/rmcp-hello" "$WORK/rmcp-hello"

rows=()
# measure NAME DIR BINARY
measure() {
    local name=$1 dir=$2 bin=$3
    (cd "$dir" && cargo fetch -q)
    local crates
    crates=$(cd "$dir" && cargo tree -q -e normal,build --prefix none | sed 's/ (\*)$//; s/ (proc-macro)$//' | sort -u | wc -l)
    for run in $(seq 1 "$RUNS"); do
        for profile in debug release; do
            local target="$WORK/target-$name"
            rm -rf "$target"
            local flags=()
            [ "$profile" = release ] && flags=(--release)
            echo "== $name, $profile build $run"
            local TIMEFORMAT='%R %U %S' wall user sys
            # bash's `time` prints wall, user and system seconds to the group's stderr.
            read -r wall user sys < <( { time cargo build -q --manifest-path "$dir/Cargo.toml" \
                --target-dir "$target" "${flags[@]}" >/dev/null 2>&1; } 2>&1)
            if [ ! -x "$target/$profile/$bin" ]; then
                echo "the $profile build of $name failed; run it by hand in $dir" >&2
                exit 1
            fi
            local size=-
            [ "$profile" = release ] && size=$(awk -v b="$(stat -c %s "$target/release/$bin")" 'BEGIN {printf "%.1f MiB", b / 1048576}')
            rows+=("| $name | $profile | $(printf '%.1f' "$wall") | $(awk -v u="$user" -v s="$sys" 'BEGIN {printf "%.1f", u + s}') | $crates | $size |")
        done
    done
}
measure toolidl "$WORK/hello" hello
measure rmcp "$WORK/rmcp-hello" rmcp-hello

echo
echo "cold builds, $(nproc) CPUs, $(rustc --version | cut -d' ' -f1-2); load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| server | profile | wall s | CPU s | crates | release binary |"
echo "|---|---|---:|---:|---:|---:|"
printf '%s\n' "${rows[@]}"
