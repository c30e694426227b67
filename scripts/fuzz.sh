#!/usr/bin/env bash
# Fuzzes the jigsolve binary for as long as one likes:
#   bash scripts/fuzz.sh --seconds 1800 --seed 7
# (options: --seed N, --seconds S, --out DIR for failing inputs; see
# crates/fuzz/src/main.rs). Builds the release binary first, or fuzzes the
# binary named by JIGSOLVE_BIN as it is; JIGSOLVE_PROFILE names another Cargo
# profile to build in (the test script fuzzes the `ci` binary its tests ran).
set -euo pipefail
cd "$(dirname "$0")/.."
profile=${JIGSOLVE_PROFILE:-release}
bin=${JIGSOLVE_BIN:-}
if [ -z "$bin" ]; then
    cargo build --profile "$profile" --locked -p jigsolve
    bin=target/$profile/jigsolve
fi
# The harness alone: it has no dependencies, so this takes seconds (building
# `jigsolve` here too would rebuild it with other features than the tests').
cargo build --profile "$profile" --locked -p jigsolve-fuzz
exec "target/$profile/jigsolve-fuzz" --bin "$bin" "$@"
