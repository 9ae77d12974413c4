#!/usr/bin/env bash
# The published crates as crates.io would receive them, and their public API against the
# baseline (docs/shipping.md, "The crates").
#
#   scripts/crates.sh [--package-only | --semver-only | --install-only]
#
# 1. `cargo package --locked` of the six published crates: each packed with only what its
#    `include` lists and built from its package alone, in dependency order, against a local
#    registry of the others' packages. The packages stay in target/package/ (readme.sh's
#    registry walk-through uses them).
# 2. cargo-semver-checks (installed once with `cargo install --locked` into SEMVER_CACHE,
#    default ${XDG_CACHE_HOME:-$HOME/.cache}/toolidl/semver) checks the five library crates
#    against SEMVER_BASELINE, a commit of main: the crates' API at the last release (0.1.0,
#    unpublished: the API frozen for it, CHANGELOG.md). With the workspace version
#    unchanged or a patch higher, any breaking change fails; raising it to the next 0.y.0
#    allows them (and CHANGELOG.md lists them). After a release, set SEMVER_BASELINE to its
#    commit.
#
# --install-only installs cargo-semver-checks and stops (.ci/run's background lane builds it
# there, so a cold run does not wait for it at the end).
#
# Exit status 0 when both pass.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

SEMVER_CHECKS_VERSION=0.51.0
# The release the API is compared with: 0.1.0, unpublished (the API frozen for it on main;
# CHANGELOG.md says why it moved once before the first release).
SEMVER_BASELINE=${SEMVER_BASELINE:-00d0ccac435e297ada05e3268d263f2d054fbf20}
LIBRARIES=(toolidl toolidl-formats toolidl-codegen toolidl-runtime toolidl-build)
PUBLISHED=("${LIBRARIES[@]}" toolidl-cli)

package=1
semver=1
install_only=0
for arg in "$@"; do
    case $arg in
        --package-only) semver=0 ;;
        --semver-only) package=0 ;;
        --install-only) package=0 install_only=1 ;;
        -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
        *) echo "crates.sh: unknown argument $arg" >&2; exit 2 ;;
    esac
done

if [ "$package" = 1 ]; then
    # cargo verifies each package against a local registry of the others, unpacked into
    # $CARGO_HOME/registry/src/<that registry's id>/NAME-VERSION, and it reuses a folder found
    # there: an earlier run's packages of the same version (another commit's code) would be
    # built instead of this checkout's. Those unpacked copies (never crates.io's) go first.
    version=$(cargo metadata --no-deps --format-version 1 --locked |
        python3 -c 'import json, sys; print(next(p["version"] for p in json.load(sys.stdin)["packages"] if p["name"] == "toolidl-runtime"))')
    for p in "${PUBLISHED[@]}"; do
        for unpacked in "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/"$p-$version"; do
            case $(basename "$(dirname "$unpacked")") in
                index.crates.io-*) ;;
                *) rm -rf "$unpacked" ;;
            esac
        done
    done
    args=()
    for p in "${PUBLISHED[@]}"; do args+=(-p "$p"); done
    # And the builds of those packages: cargo takes a registry crate's version for its
    # content, so an earlier run's build of toolidl-codegen 0.1.0 from that registry would be
    # linked. `cargo clean -p` removes every build of the six (this checkout's are rebuilt in
    # a few minutes by the steps after this one).
    cargo clean --quiet "${args[@]}"
    # The tests are left out of the packages on purpose (they read the workspace's goldens):
    # cargo's warning for each is noise here.
    cargo package --locked "${args[@]}" 2>&1 | grep -v '^warning: ignoring test' || exit 1
    echo "crates: ${#PUBLISHED[@]} packages built from their package alone"
    for p in "${PUBLISHED[@]}"; do
        ls "${CARGO_TARGET_DIR:-target}/package/$p-"*.crate >/dev/null
    done
fi

if [ "$semver" = 1 ]; then
    SCACHE=${SEMVER_CACHE:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/toolidl/semver}
    BIN=$SCACHE/bin/cargo-semver-checks
    if [ -x "$BIN" ] && [ "$("$BIN" --version)" = "cargo-semver-checks $SEMVER_CHECKS_VERSION" ]; then
        echo "crates: using cargo-semver-checks $SEMVER_CHECKS_VERSION"
    else
        echo "crates: installing cargo-semver-checks $SEMVER_CHECKS_VERSION from crates.io (several minutes, once)"
        CARGO_TARGET_DIR=$SCACHE/build cargo install --quiet --locked --root "$SCACHE" \
            "cargo-semver-checks@$SEMVER_CHECKS_VERSION"
        rm -rf "$SCACHE/build"
    fi
    if [ "$install_only" = 1 ]; then
        exit 0
    fi
    if ! git cat-file -e "$SEMVER_BASELINE^{commit}" 2>/dev/null; then
        echo "crates: the baseline $SEMVER_BASELINE is not in this clone (a shallow clone? fetch the history)" >&2
        exit 1
    fi
    args=()
    for p in "${LIBRARIES[@]}"; do args+=(-p "$p"); done
    # The baseline is built in the target folder's semver-checks/ from a checkout of the
    # commit; rustdoc's JSON of both sides is compared, every feature but the unstable ones.
    "$BIN" semver-checks check-release --baseline-rev "$SEMVER_BASELINE" "${args[@]}"
    echo "crates: the public API of ${LIBRARIES[*]} keeps semver against $(git rev-parse --short "$SEMVER_BASELINE")"
fi
cd "$ROOT"
