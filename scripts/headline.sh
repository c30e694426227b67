#!/usr/bin/env bash
# The headline figures of BENCHMARKS.md, measured again: every headline workload run by
# jigsolve and, where the peer is at hand, by the peer in the same sitting, runs of the
# two alternating so that both see the same machine. Writes target/bench/headline.md;
# with --write, also puts it at the top of BENCHMARKS.md (between the headline markers).
#
#   bash scripts/headline.sh                     # jigsolve's side, about 3 minutes on 2 cores
#   DLX1=/path/to/dlx1 bash scripts/headline.sh  # with Knuth's DLX1 on the same exact covers
#   bash scripts/headline.sh --write             # and update BENCHMARKS.md
#   LONG=1 bash scripts/headline.sh              # adds the 5 minutes of Eternity II best boards
#
# DLX1 is not packaged anywhere: build it from Knuth's dlx1.w and gb_flip.w with ctangle
# (Debian's texlive-binaries) and gcc -O3. Peers that are not given are left out of the
# table, which says so.
set -euo pipefail
export LC_ALL=C
cd "$(dirname "$0")/.."
cargo build --release --locked -p jigsolve
mkdir -p target/bench
python3 - "$@" <<'PY'
import json, os, statistics, subprocess, sys, tempfile, time

JIG = "target/release/jigsolve"
DLX1 = os.environ.get("DLX1")
LONG = os.environ.get("LONG") == "1"
WRITE = "--write" in sys.argv[1:]


def timed(cmd, stdin=None, check=True):
    """Wall time of one run of cmd (output discarded), and its stdout."""
    start = time.perf_counter()
    out = subprocess.run(cmd, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         check=check).stdout
    return time.perf_counter() - start, out


def summary(out):
    return json.loads(out.decode().strip().splitlines()[-1])


def side_by_side(runs, ours, peer=None, peer_input=None):
    """Medians of alternating runs: (ours, its last summary, peer or None)."""
    mine, theirs, last = [], [], None
    for _ in range(runs):
        t, out = timed(ours)
        mine.append(t)
        last = summary(out)
        if peer:
            with open(peer_input) as f:
                t, _ = timed(peer, stdin=f)
            theirs.append(t)
    return statistics.median(mine), last, (statistics.median(theirs) if peer else None)


def ms(t):
    return f"{t * 1000:.1f} ms" if t < 1 else f"{t:.2f} s"


rows = []
count = [JIG, "solve", None, "--count", "--threads", "1", "--json", "--no-progress"]

# Exact covers, against DLX1 on jigsolve's export of the same problem (symmetry broken
# the same way, so both count the unique solutions).
for name, runs in [("hexiamond-6x6", 15), ("pentomino-6x10", 9), ("bedlam", 3)]:
    cmd = count[:2] + [name] + count[3:]
    peer, dlx = None, None
    if DLX1 and (name != "bedlam" or LONG):
        dlx = tempfile.NamedTemporaryFile("w", suffix=".dlx", delete=False)
        subprocess.run([JIG, "export", "--dlx", "--break-symmetry", name], stdout=dlx,
                       check=True)
        dlx.close()
        peer = [DLX1]
    t, s, p = side_by_side(runs, cmd, peer, dlx.name if dlx else None)
    what = f"{name}, all {s['unique']:,} unique"
    peer_text = f"DLX1 {ms(p)} ({p / t:.1f} times as long)" if p else "DLX1 not run"
    rows.append((what, ms(t), f"{s['nodes']:,}", f"{s['nodes'] / t / 1e6:.1f} M", peer_text))

for what, puzzle, runs in [
    ("Stomachion, all 536 unique", "stomachion", 3),
    ("Owen's 6 x 6 edge puzzle, counted", "data/edge/owen-set2/pieces_06x06.txt", 9),
    ("Eternity II clue 1, counted", "data/edge/heule/clue1.txt", 3),
]:
    t, s, _ = side_by_side(runs, count[:2] + [puzzle] + count[3:])
    rows.append((what, ms(t), f"{s['nodes']:,}", f"{s['nodes'] / t / 1e6:.1f} M",
                 "no peer at hand"))

# Every date of A-Puzzle-A-Day: one search against 366 separate runs (calendar-bench.sh).
env = dict(os.environ, JIGSOLVE_BIN=JIG)
out = subprocess.run(["bash", "scripts/calendar-bench.sh"], env=env, stdout=subprocess.PIPE,
                     stderr=subprocess.DEVNULL, check=True).stdout.decode()
one = next(l for l in out.splitlines() if "solve --by-open" in l).split()
sep = next(l for l in out.splitlines() if "separate solve runs" in l).split()
t_one = float(one[one.index("s") - 1])
t_sep = float(sep[sep.index("s") - 1])
nodes = int(one[one.index("s") + 1])
rows.append(("A-Puzzle-A-Day, every date in one search", ms(t_one), f"{nodes:,}",
             f"{nodes / t_one / 1e6:.1f} M",
             f"366 separate jigsolve runs {ms(t_sep)} ({t_sep / t_one:.0f} times as long)"))

if LONG:
    scores = []
    for seed in range(1, 6):
        # (A run that ends on its time limit exits with 3.)
        _, out = timed([JIG, "best", "eternity2", "--threads", "1", "--time-limit", "60",
                        "--seed", str(seed), "--json"], check=False)
        scores.append(summary(out)["score"])
    rows.append(("Eternity II best board, 60 s, seeds 1-5", f"mean {statistics.mean(scores):.1f}",
                 "", "", "Blackwood's solver: run by hand (see the best-board rounds)"))

cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")),
           "unknown processor")
head = (f"Measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} by "
        f"`bash scripts/headline.sh` on {os.cpu_count()} cores ({cpu}); release build, one "
        f"thread, medians of alternating runs, the peer in the same sitting.\n\n")
table = ["| workload | jigsolve | nodes | nodes/s | peer, same sitting |", "|---|---|---|---|---|"]
table += ["| " + " | ".join(r) + " |" for r in rows]
text = head + "\n".join(table) + "\n"
open("target/bench/headline.md", "w").write(text)
print(text)
if WRITE:
    doc = open("BENCHMARKS.md").read()
    start, end = "<!-- headline:start -->\n", "<!-- headline:end -->"
    a, b = doc.index(start) + len(start), doc.index(end)
    open("BENCHMARKS.md", "w").write(doc[:a] + text + doc[b:])
    print("BENCHMARKS.md updated")
PY
