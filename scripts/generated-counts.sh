#!/usr/bin/env bash
# Solution counts of generated edge-matching puzzles against their number of
# colours: for each colour count, SEEDS puzzles from `jigsolve generate edge`
# are counted completely (`solve --count`), and the table gives the share
# with exactly one solution up to rotation and the distribution of the
# unique counts. A count that does not finish within LIMIT seconds is shown
# as a lower bound (">=") and the row says how many did not finish.
#
#   scripts/generated-counts.sh ROWS COLS "COLOURS..." [SEEDS] [LIMIT] [generate options...]
#   scripts/generated-counts.sh 6 6 "2 3 4 5 6 8" 50 60 --frame-colours 2
set -euo pipefail
rows=${1:?rows}; cols=${2:?cols}; colours=${3:?colour counts}
seeds=${4:-50}; limit=${5:-60}
shift $(( $# < 5 ? $# : 5 ))
bin=${JIGSOLVE:-target/release/jigsolve}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
echo "| colours | puzzles | unique share | min | median | mean | max | unfinished |"
echo "|---|---|---|---|---|---|---|---|"
for c in $colours; do
  : > "$dir/counts"
  for seed in $(seq 1 "$seeds"); do
    "$bin" generate edge --rows "$rows" --cols "$cols" --colours "$c" --seed "$seed" "$@" \
      -o "$dir/p.toml" > /dev/null
    summary=$("$bin" solve "$dir/p.toml" --count --json --threads 1 --no-progress \
      --time-limit "$limit" | tail -1) || true  # exit code 3 when the limit stops it
    unique=$(grep -o '"unique":[0-9]*' <<< "$summary" | head -1 | cut -d: -f2)
    complete=$(grep -o '"complete":[a-z]*' <<< "$summary" | head -1 | cut -d: -f2)
    echo "$unique $complete" >> "$dir/counts"
  done
  sort -n "$dir/counts" | awk -v c="$c" '
    { n++; v[n] = $1; sum += $1; if ($1 == 1 && $2 == "true") one++; if ($2 != "true") open++ }
    END {
      med = (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
      printf "| %d | %d | %.0f%% | %d | %g | %.1f | %s%d | %d |\n", c, n, 100 * one / n, v[1], med, sum / n, open ? ">=" : "", v[n], open
    }'
done
