#!/usr/bin/env bash
# Every date of A-Puzzle-A-Day, three ways, on one core:
#   1. jigsolve solve a-puzzle-a-day --by-open    (one search for all dates)
#   2. 366 runs of jigsolve solve DATE.toml --count (one file per date,
#      the date's two cells taken off the board, made here)
#   3. 366 runs of Knuth's DLX1 on the same files exported with
#      `jigsolve export --dlx` (when DLX1=/path/to/dlx1 is given)
# and checks that all three give the same count for every date.
#   bash scripts/calendar-bench.sh            # builds the release binary
#   JIGSOLVE_BIN=target/ci/jigsolve DLX1=/tmp/dlx/dlx1 bash scripts/calendar-bench.sh
set -euo pipefail
export LC_ALL=C
cd "$(dirname "$0")/.."
bin=${JIGSOLVE_BIN:-}
if [ -z "$bin" ]; then
    cargo build --release --locked -p jigsolve
    bin=target/release/jigsolve
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
now() { date +%s.%N; }
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# The median wall time of N runs of a command whose output goes to OUT:
# `median_time N OUT command...`.
median_time() {
    local rounds=$1 out=$2 t0
    shift 2
    for _ in $(seq "$rounds"); do
        t0=$(now)
        "$@" > "$out"
        echo "$(now) - $t0" | bc
    done | median
}

# 1. One search, five times; and the same on every core (the default), for reference.
median_time 5 "$work/by-open.jsonl" \
    "$bin" solve a-puzzle-a-day --by-open --json --threads 1 --no-progress > "$work/t1"
median_time 5 /dev/null "$bin" solve a-puzzle-a-day --by-open --json --no-progress > "$work/t1all"

# The per-date files: the catalog file's pieces under a board without the
# date's two cells and without open groups.
months=(Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec)
lengths=(31 29 31 30 31 30 31 31 30 31 30 31)
pieces=$("$bin" show a-puzzle-a-day | sed -n '/^\[\[piece\]\]/,/^\[expected\]/p' | grep -v '^\[expected\]')
rows=("######." "######." "#######" "#######" "#######" "#######" "###....")
for m in $(seq 0 11); do
    for d in $(seq 1 "${lengths[$m]}"); do
        r=("${rows[@]}")
        mr=$((m / 6)); mc=$((m % 6))
        r[$mr]="${r[$mr]:0:$mc}.${r[$mr]:$((mc + 1))}"
        dr=$((2 + (d - 1) / 7)); dc=$(((d - 1) % 7))
        r[$dr]="${r[$dr]:0:$dc}.${r[$dr]:$((dc + 1))}"
        {
            printf 'family = "grid"\nname = "%s-%s"\nsides = "two"\nboard = """\n' "${months[$m]}" "$d"
            printf '%s\n' "${r[@]}"
            printf '"""\n\n%s\n' "$pieces"
        } > "$work/${months[$m]}-$d.toml"
    done
done
dates=$(ls "$work"/*.toml | wc -l)

# 2. One run per date, three rounds, the median kept. Only the runs are timed:
# each writes its summary to a file read after the clock stops (reading it
# inside the loop would time the shell's pipes and helper processes too, which
# cost more than a run: the script did so until 2026-11-29, see BENCHMARKS.md).
mkdir "$work/out"
separate_runs() {
    local f name
    for f in "$work"/*.toml; do
        name=${f##*/}  # (no `basename`: a process per date would be timed too)
        "$bin" solve "$f" --count --json --threads 1 --no-progress > "$work/out/${name%.toml}.jsonl"
    done
}
t2=$(median_time 3 /dev/null separate_runs)
for f in "$work"/out/*.jsonl; do
    summary=$(tail -1 "$f")
    n=$(echo "$summary" | grep -o '"distinct":[0-9]*' | head -1 | cut -d: -f2)
    echo "$summary" | grep -o '"nodes":[0-9]*' | head -1 | cut -d: -f2 >> "$work/nodes.txt"
    echo "$(basename "$f" .jsonl) $n"
done > "$work/separate.txt"

# The counts agree, date by date.
grep '"type":"goal"' "$work/by-open.jsonl" \
    | sed 's/.*"month":"\([A-Za-z]*\)","day":"\([0-9]*\)".*"distinct":\([0-9]*\),.*/\1-\2 \3/' \
    | sort > "$work/by-open.txt"
sort "$work/separate.txt" > "$work/separate.sorted"
join "$work/separate.sorted" "$work/by-open.txt" | awk '$2 != $3 {print "differs: " $0; bad = 1} END {exit bad}'
total=$(awk '{s += $2} END {print s}' "$work/separate.txt")

echo "A-Puzzle-A-Day, $dates dates, $total solutions, one core"
one_nodes=$(tail -1 "$work/by-open.jsonl" | grep -o '"nodes":[0-9]*' | head -1 | cut -d: -f2)
printf '  solve --by-open (one search, median of 5)  %8.3f s  %10d nodes (all 372 month-day pairs)\n' "$(cat "$work/t1")" "$one_nodes"
printf '  the same on every core (%s threads)          %8.3f s  (the separate runs %.0f times as long)\n' "$(nproc)" "$(cat "$work/t1all")" "$(echo "$t2 / $(cat "$work/t1all")" | bc -l)"
printf '  %d separate solve runs (median of 3)       %8.3f s  %10d nodes  (%.0f times as long)\n' "$dates" "$t2" "$(awk '{s += $1} END {print s}' "$work/nodes.txt")" "$(echo "$t2 / $(cat "$work/t1")" | bc -l)"

# 3. DLX1 on the exported per-date problems.
if [ -n "${DLX1:-}" ]; then
    for f in "$work"/*.toml; do
        "$bin" export --dlx "$f" > "${f%.toml}.dlx"
    done
    t0=$(now)
    for f in "$work"/*.dlx; do
        "$DLX1" < "$f" > /dev/null 2> "${f%.dlx}.dlx1-err"
    done
    t3=$(echo "$(now) - $t0" | bc)
    for f in "$work"/*.dlx1-err; do
        n=$(sed -n 's/^Altogether \([0-9]*\) solution.*/\1/p' "$f")
        echo "$(basename "$f" .dlx1-err) $n"
    done > "$work/dlx1.txt"
    sort "$work/dlx1.txt" | join - "$work/by-open.txt" | awk '$2 != $3 {print "DLX1 differs: " $0; bad = 1} END {exit bad}'
    printf '  %d DLX1 runs on the exported files         %8.3f s  (%.0f times as long)\n' "$dates" "$t3" "$(echo "$t3 / $(cat "$work/t1")" | bc -l)"
fi
