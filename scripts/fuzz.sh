#!/usr/bin/env bash
# Fuzzes the jigsolve binary for as long as one likes:
#   bash scripts/fuzz.sh --seconds 1800 --seed 7
# (options: --seed N, --seconds S, --out DIR for failing inputs; see
# crates/fuzz/src/main.rs). Builds the release binary first.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --locked -p jigsolve -p jigsolve-fuzz
exec target/release/jigsolve-fuzz --bin target/release/jigsolve "$@"
