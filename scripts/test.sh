#!/usr/bin/env bash
# Runs every test of jigsolve on a fresh machine: installs what the tests
# need that cargo does not fetch itself, then the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# The WebAssembly build, which the browser test of the engines opens
# (installs Debian's wasm toolchain when missing; about 2 minutes on 2 cores).
bash scripts/site.sh
# The browser tests of `jigsolve serve` must run here, not skip. The build
# is the `ci` profile (Cargo.toml): optimised like a release, but without
# link-time optimisation, so the test binaries build faster.
JIGSOLVE_BROWSER_TESTS=1 cargo test --workspace --profile ci --locked "$@"
# A short, seeded fuzz pass over every reader (the same inputs on every
# machine for the seed; `bash scripts/fuzz.sh --seconds N` runs longer), on
# the very binary the tests ran.
JIGSOLVE_PROFILE=ci JIGSOLVE_BIN=target/ci/jigsolve bash scripts/fuzz.sh --seed 1 --seconds 60
# And 30 seconds of malformed and hostile requests to a running server.
JIGSOLVE_PROFILE=ci JIGSOLVE_BIN=target/ci/jigsolve bash scripts/fuzz.sh --http --seed 1 --seconds 30
