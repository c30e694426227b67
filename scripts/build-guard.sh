#!/usr/bin/env bash
# Fails when the grid crate's build grows back (issue 42: its search loop
# was once compiled 96 times and the crate alone took 25 minutes to build).
#
# Two deterministic measures of the crate's unoptimised LLVM IR, from
# `cargo llvm-lines` (installed from crates.io if missing):
#   - the copies of `BitSolver::run_loop`, the search loop that everything
#     in it is inlined into: one per (word, layout) with a copy of its own,
#     plus one per word for every other layout (see `Word` in
#     crates/grid/src/bitboard/solver.rs);
#   - the IR lines of the whole crate.
#
# To raise a budget: give the new copy (or the code) its row in
# BENCHMARKS.md ("Build in minutes") showing what it buys at run time and
# what it costs to build, then change the number below in the same commit.
set -euo pipefail
cd "$(dirname "$0")/.."

RUN_LOOP_COPIES=6      # u64: squares, cubes, hexagons, any; u128: triangles, any
GRID_IR_LINES=420000   # 360,631 when the budget was set (rustc 1.95)

if ! command -v cargo-llvm-lines >/dev/null 2>&1; then
  echo "build-guard: installing cargo-llvm-lines from crates.io" >&2
  cargo install --locked --quiet cargo-llvm-lines --version 0.4.48
fi

out=$(cargo llvm-lines -p jigsolve-grid --lib --profile ci --locked 2>/dev/null)
total=$(awk '$NF == "(TOTAL)" {print $1}' <<<"$out")
copies=$(awk '$NF == "jigsolve_grid::bitboard::solver::BitSolver<B>::run_loop" {print $4}' <<<"$out")
if [ -z "$total" ] || [ -z "$copies" ]; then
  echo "build-guard: could not read cargo llvm-lines' table:" >&2
  head -5 <<<"$out" >&2
  exit 1
fi
echo "build-guard: run_loop copies $copies (budget $RUN_LOOP_COPIES), grid IR lines $total (budget $GRID_IR_LINES)"
status=0
if [ "$copies" -gt "$RUN_LOOP_COPIES" ]; then
  echo "build-guard: the search loop is compiled $copies times, over its budget of $RUN_LOOP_COPIES" >&2
  status=1
fi
if [ "$total" -gt "$GRID_IR_LINES" ]; then
  echo "build-guard: the grid crate makes $total lines of LLVM IR, over its budget of $GRID_IR_LINES" >&2
  status=1
fi
exit $status
