#!/usr/bin/env bash
# Fuzzes the jigsolve binary for as long as one likes:
#   bash scripts/fuzz.sh --seconds 1800 --seed 7
# (options: --seed N, --seconds S, --out DIR for failing inputs; see
# crates/fuzz/src/main.rs). Builds the release binary first (or the binary
# of the Cargo profile named by JIGSOLVE_PROFILE; the test script uses its
# own, `ci`).
set -euo pipefail
cd "$(dirname "$0")/.."
profile=${JIGSOLVE_PROFILE:-release}
cargo build --profile "$profile" --locked -p jigsolve -p jigsolve-fuzz
exec "target/$profile/jigsolve-fuzz" --bin "target/$profile/jigsolve" "$@"
