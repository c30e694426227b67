# Where a best board of an edge puzzle breaks: its mismatched inner edges
# by kind (frame-frame, frame-inner, inner-inner), by row, and by distance
# to the nearest pinned tile (BENCHMARKS.md, issue 44).
#   jigsolve show eternity2-clues > clues.toml
#   jigsolve best eternity2-clues --json --time-limit 60 > best.jsonl
#   python3 scripts/best-breaks.py clues.toml best.jsonl
import json, sys, tomllib
puzzle = tomllib.load(open(sys.argv[1], 'rb'))
tiles = [t.split() for t in puzzle['tiles']]
pins = [(h['row'] - 1, h['col'] - 1) for h in puzzle.get('hints', [])]
lines = [json.loads(l) for l in open(sys.argv[2]) if '"type":"best"' in l.replace(' ', '')]
best = max(lines, key=lambda l: l['score'])
board = best['board']
R, C = len(board), len(board[0])
def marks(cell):
    if cell is None: return None
    m = tiles[cell['tile'] - 1]
    r = cell['rotation'] % 4
    # r quarter turns clockwise: the top shows what was on the left, ...
    return [m[(i - r) % 4] for i in range(4)]
def frame(r, c): return r in (0, R - 1) or c in (0, C - 1)
kinds, rows, dist = {}, {}, {}
bad = 0
for r in range(R):
    for c in range(C):
        for dr, dc, s, o in ((0, 1, 1, 3), (1, 0, 2, 0)):
            r2, c2 = r + dr, c + dc
            if r2 >= R or c2 >= C: continue
            a, b = marks(board[r][c]), marks(board[r2][c2])
            if a is not None and b is not None and a[s] == b[o]: continue
            bad += 1
            k = {0: 'inner-inner', 1: 'frame-inner', 2: 'frame-frame'}[frame(r, c) + frame(r2, c2)]
            kinds[k] = kinds.get(k, 0) + 1
            rows[r + 1] = rows.get(r + 1, 0) + 1
            d = min([max(abs(r - pr), abs(c - pc)) for pr, pc in pins] + [99])
            dist[d] = dist.get(d, 0) + 1
print(f"score {best['score']} of {best['max']}: {bad} edges do not match")
print("by kind:", dict(sorted(kinds.items())))
print("by row (of the upper or left cell, from 1):", dict(sorted(rows.items())))
print("by distance to the nearest pin (cells, king moves):", dict(sorted(dist.items())))
