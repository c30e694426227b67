#!/usr/bin/env bash
# Whole-command benchmarks with hyperfine: the 2-thread speed-up of `solve --count`
# over 1 thread, and the time to a first solution of Heule's few-colour puzzles.
# Runs of the compared commands are interleaved by hyperfine's warm-up and repeated,
# and the medians and ratios come from the same run. Results go to target/bench/
# (markdown and JSON, one file per comparison). BENCHMARKS.md says what they were.
#
#   bash scripts/bench.sh            # everything (about 10 minutes on 2 cores)
#   bash scripts/bench.sh threads    # only the thread speed-ups
#   bash scripts/bench.sh first      # only the first-solution times
#   bash scripts/bench.sh compare OLD  # this build against the binary OLD, same run, one thread
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v hyperfine >/dev/null; then
    sudo_if_needed() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
    sudo_if_needed apt-get install -y hyperfine
fi

cargo build --release --locked -p jigsolve
jig=target/release/jigsolve
out=target/bench
mkdir -p "$out"
what=${1:-all}

# This build against an older binary (a change's before and after), one thread, the
# headline workloads; the runs of the two binaries alternate, so both see the same machine.
if [ "$what" = compare ]; then
    old=${2:?usage: bash scripts/bench.sh compare OLD_BINARY}
    while read -r name puzzle runs; do
        hyperfine --style basic --warmup 1 --runs "$runs" \
            --export-markdown "$out/compare-$name.md" --export-json "$out/compare-$name.json" \
            -n "$name, old" "$old solve $puzzle --count --threads 1 --no-progress" \
            -n "$name, new" "$jig solve $puzzle --count --threads 1 --no-progress"
        $jig solve "$puzzle" --count --threads 1 --json --no-progress | tail -1 |
            python3 -c 'import json, sys; s = json.load(sys.stdin); print("%s: %d nodes, raw %s, unique %s, %.0f nodes/s" % (sys.argv[1], s["nodes"], s["raw"], s["unique"], s["nodes_per_second"]))' "$name" |
            tee "$out/compare-$name.nodes"
    done <<'LIST'
pentomino-6x10 pentomino-6x10 20
atwood atwood 10
owen-6x6 data/edge/owen-set2/pieces_06x06.txt 20
stomachion stomachion 3
bedlam bedlam 3
LIST
    for f in "$out"/compare-*.md; do echo "== $f"; cat "$f"; done
    exit 0
fi

# Speed-up with 2 threads over 1: every solution counted, no output but the summary.
threads() {
    local name=$1 puzzle=$2 runs=$3
    hyperfine --style basic --warmup 1 --runs "$runs" \
        --export-markdown "$out/threads-$name.md" --export-json "$out/threads-$name.json" \
        -n "$name, 1 thread" "$jig solve $puzzle --count --threads 1 --no-progress" \
        -n "$name, 2 threads" "$jig solve $puzzle --count --threads 2 --no-progress"
    # Node counts, which do not depend on the machine, for the nodes/s figures.
    $jig solve "$puzzle" --count --threads 1 --json --no-progress | tail -1 |
        python3 -c 'import json, sys; s = json.load(sys.stdin); print("%s: %d nodes, raw %s, unique %s" % (sys.argv[1], s["nodes"], s["raw"], s["unique"]))' "$name" |
        tee "$out/threads-$name.nodes"
}

if [ "$what" = all ] || [ "$what" = threads ]; then
    threads owen-6x6 data/edge/owen-set2/pieces_06x06.txt 20
    threads pentomino-6x10 pentomino-6x10 20
    threads stomachion stomachion 3
    threads bedlam bedlam 3
fi

# Time to the first solution, one thread, randomized restarts (the default with --limit).
if [ "$what" = all ] || [ "$what" = first ]; then
    cmds=()
    for f in data/edge/heule/clue*.txt data/edge/heule/em_*.txt; do
        n=$(basename "$f" .txt)
        cmds+=(-n "$n" "$jig solve $f --limit 1 --threads 1 --no-progress")
    done
    hyperfine --style basic --warmup 1 --runs 10 \
        --export-markdown "$out/first.md" --export-json "$out/first.json" "${cmds[@]}"
fi

for f in "$out"/*.md; do
    echo "== $f"
    cat "$f"
done
