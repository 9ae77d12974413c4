#!/usr/bin/env bash
# Coverage-guided fuzzing of the targets in fuzz/ (cargo-fuzz, libFuzzer; the nightly
# toolchain), one target at a time:
#
#   bash scripts/fuzz.sh --smoke                   each target for FUZZ_SMOKE_SECONDS (30)
#   bash scripts/fuzz.sh --long SECONDS [TARGET…]  each target (or those named) for SECONDS
#   bash scripts/fuzz.sh --seeds                   only rebuild the seed corpora
#
# Either run fails (exit 1) when a target crashes, panics, times out on an input or runs out
# of memory, after running the others; libFuzzer writes the input to fuzz/artifacts/TARGET/.
# Each target's corpus grows in fuzz/corpus/TARGET/ (kept between runs); its seeds are built
# from the repository into fuzz/seeds/TARGET/ each run (fuzz/seeds.py). All three folders and
# fuzz/target/ are ignored by git. After each target the script prints its figures: executions
# per second, coverage (cov: edges), features (ft), corpus size, and the run's log.
#
# cargo-fuzz is installed once into FUZZ_CACHE (default .cache/fuzz in the clone, ignored by
# git): `cargo install cargo-fuzz --locked --root FUZZ_CACHE`. Also: FUZZ_LOGS (a folder for
# each target's libFuzzer log; default a temporary one), FUZZ_SMOKE_SECONDS, FUZZ_ARGS
# (more libFuzzer options, such as -jobs=2).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"

CARGO_FUZZ_VERSION=0.13.2
TARGETS=(compiler connection http lsp_framing import_listing)
CACHE=${FUZZ_CACHE:-$ROOT/.cache/fuzz}
SMOKE_SECONDS=${FUZZ_SMOKE_SECONDS:-30}

usage() {
    sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

mode=${1:-}
case $mode in
--smoke) seconds=$SMOKE_SECONDS; shift ;;
--long)
    [ $# -ge 2 ] && [[ $2 =~ ^[0-9]+$ ]] || usage
    seconds=$2
    shift 2
    ;;
--seeds) shift ;;
*) usage ;;
esac
if [ $# -gt 0 ]; then targets=("$@"); else targets=("${TARGETS[@]}"); fi
for target in "${targets[@]}"; do
    [[ " ${TARGETS[*]} " == *" $target "* ]] || { echo "fuzz: no target $target (${TARGETS[*]})" >&2; exit 2; }
done

rm -rf fuzz/seeds
python3 fuzz/seeds.py fuzz/seeds
[ "$mode" = --seeds ] && exit 0

if ! rustup toolchain list | grep -q '^nightly'; then
    echo "fuzz: cargo-fuzz needs the nightly toolchain (rustup toolchain install nightly)" >&2
    exit 1
fi
if [ "$("$CACHE/bin/cargo-fuzz" --version 2>/dev/null)" != "cargo-fuzz $CARGO_FUZZ_VERSION" ]; then
    echo "fuzz: installing cargo-fuzz $CARGO_FUZZ_VERSION into ${CACHE#"$ROOT"/}"
    cargo install cargo-fuzz --version "$CARGO_FUZZ_VERSION" --locked --root "$CACHE"
fi
export PATH=$CACHE/bin:$PATH

# The fuzz crate is a workspace of its own, which the root's `cargo fmt --all` leaves out.
cargo fmt --manifest-path fuzz/Cargo.toml -- --check
# Release, debug assertions and overflow checks on, AddressSanitizer (cargo-fuzz's defaults).
# The runs below start the binaries themselves rather than `cargo fuzz run`, which would
# rebuild when the sources change under a long run.
cargo +nightly fuzz build
bin=fuzz/target/$(rustc +nightly -vV | sed -n 's/^host: //p')/release

logs=${FUZZ_LOGS:-$(mktemp -d)}
mkdir -p "$logs"
failed=()
for target in "${targets[@]}"; do
    mkdir -p "fuzz/corpus/$target" "fuzz/artifacts/$target"
    log=$logs/$target.log
    echo "fuzz: $target for ${seconds}s (log: $log)"
    # -timeout: an input that takes 60 s is a hang (the compiler's largest seeds take 3 s
    # under ASan, and a loaded machine made one 13 s). The corpus folder comes first: libFuzzer
    # adds the inputs it finds there, and reads the seeds as well.
    # shellcheck disable=SC2086 # FUZZ_ARGS is a list of options.
    if "$bin/$target" "fuzz/corpus/$target" "fuzz/seeds/$target" \
        -artifact_prefix="fuzz/artifacts/$target/" -max_total_time="$seconds" -timeout=60 \
        -print_final_stats=1 ${FUZZ_ARGS:-} >"$log" 2>&1; then
        status=ok
    else
        status=FAILED
        failed+=("$target")
    fi
    # The last status line (`#N DONE cov: … ft: … corp: …`) and the final stats.
    last=$(grep -E '^#[0-9]+[[:space:]].*cov: ' "$log" | tail -n 1 || true)
    cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
    ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
    corp=$(sed -n 's/.* corp: \([^ ]*\).*/\1/p' <<<"$last")
    execs=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
    units=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log" | tail -n 1)
    # Not the slow-unit-* files libFuzzer also writes there: those inputs passed.
    crashes=$(find "fuzz/artifacts/$target" -type f \( -name 'crash-*' -o -name 'timeout-*' \
        -o -name 'oom-*' -o -name 'leak-*' \) 2>/dev/null | wc -l)
    echo "fuzz: $target $status: ${execs:-?} exec/s, ${units:-?} runs, cov ${cov:-?}, ft ${ft:-?}," \
        "corpus ${corp:-?} (units/bytes), peak RSS ${rss:-?} MB, fuzz/artifacts/$target: $crashes failing input(s)"
    if [ $status = FAILED ]; then
        grep -E 'panicked at|ERROR: libFuzzer|SUMMARY|Test unit written|==[0-9]+==' "$log" | head -n 20 >&2 || true
    fi
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz: FAILED: ${failed[*]} (inputs in fuzz/artifacts/; replay one with $bin/TARGET FILE)" >&2
    exit 1
fi
