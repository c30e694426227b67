#!/usr/bin/env bash
# Draws the pictures the README shows: the first solution of each seed
# puzzle, as jigsolve finds it on one thread without restarts (so the same
# picture every time), written to docs/pictures/NAME.svg, and the two first
# solutions of pentomino-3x20 side by side as `unique` draws them (one
# thread walks the tree in order: the same two every time), written to
# docs/pictures/unique-pentomino-3x20.svg, and the search trees of
# Impuzzable, the Hunde-Spiel, the tangram square and pentomino-3x20 as
# `jigsolve tree` draws them (recorded on one thread: the same tree every
# time), written to docs/pictures/tree-NAME.svg. Run it after a change to the
# pictures and commit the result:
#
#   bash scripts/pictures.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --locked -p jigsolve
bin=target/release/jigsolve
out=docs/pictures
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
for name in impuzzable scramble hunde-spiel atwood pentomino-6x10 soma stomachion tangram-square; do
  "$bin" solve "$name" --limit 1 --threads 1 --no-restarts --no-progress --svg "$tmp" > /dev/null
  mv "$tmp/$name-0001.svg" "$out/$name.svg"
done
# unique exits 4 for "several".
status=0
"$bin" unique pentomino-3x20 --threads 1 --no-progress --svg "$out/unique-pentomino-3x20.svg" > /dev/null || status=$?
[ "$status" -eq 4 ]
for name in impuzzable hunde-spiel tangram-square pentomino-3x20; do
  "$bin" tree "$name" --svg "$out/tree-$name.svg" > /dev/null
done
ls -l "$out"
