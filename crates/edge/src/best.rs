//! The best board when no full solution can be found: the placement of
//! tiles with the most matching inner edges.
//!
//! A board's score counts the inner edges (sides shared by two cells) whose
//! marks fit; an empty cell fits nothing, so the most is `2RC - R - C`
//! (480 for Eternity II's 16 x 16). Boards this large are never searched to
//! the end; the search here is the record holders' method:
//!
//! - **A fixed scan order** (Blackwood's: rows from the top-left corner but
//!   the last rows in short columns; plain rows; or the frame first and then
//!   the rows inside it). Each cell's candidates come from a
//!   table keyed by the marks of the sides already placed (the west and
//!   north neighbours in a row scan), so a node costs a table lookup and a
//!   "tile still free?" test.
//! - **Breaks late.** Up to a depth (`breaks_after`) every placed side must
//!   fit. Past it, a tile may mismatch one placed side (a "break"), with a
//!   cumulative budget that grows with the depth up to `max_breaks`; a tile
//!   never carries two breaks and a break never touches a tile that already
//!   has one. Tiles that fit every side are tried before breaking ones. The
//!   early, exact part keeps the tree narrow; the breaks let the search go
//!   on past the depth where exact boards die out, which is where the score
//!   is made.
//! - **Colour quotas** (optional). Tiles showing the chosen colours are
//!   the ones that leave a board short at the end, so they are used early:
//!   until 62.5% of the depth, a partial board whose tiles show fewer sides
//!   of those colours than a growing quota is cut, and tiles rich in them
//!   are tried first. The quota curve is Blackwood's (his colours 13, 16
//!   and 10 on Eternity II), scaled to the puzzle's depth and to the number
//!   of such sides among its tiles. They are a heuristic: a worker whose
//!   whole tree they cut (a small puzzle) searches it again without them.
//! - **Polishing.** A completed board close to the best is improved on a
//!   copy by swapping two tiles of the scan's last part (each in its best
//!   turn) or turning one while that raises the score: the greedy
//!   completion leaves misfits that a swap repairs. The tiles on the board
//!   and their fit to the frame never change.
//! - **Restarts.** Each restart shuffles every candidate list with the
//!   worker's generator and searches depth first until it has visited
//!   `restart_nodes` nodes; a new shuffle then gives different early choices,
//!   which matter most. A restart that has walked `stall_nodes` nodes
//!   without reaching the positions where breaks may be made is given up
//!   early: its shuffle led the exact part into a subtree with no way
//!   through. A seed makes a run reproducible (one thread, a node limit
//!   instead of a time limit).
//!
//! Threads run their own restarts with their own seed streams; the best
//! board of all is kept, and every improvement is handed to a sink as it is
//! found (the caller decides what to print). Hints are placed before the
//! search and never move. The score is the running sum of what each
//! placement adds; [`crate::score::score`] recomputes it from the placements
//! alone, and debug builds assert that the two agree on every improvement.

use crate::model::{MarkId, Placement, Puzzle};
use jigsolve_search::estimate::SplitMix64 as SplitMix;
use jigsolve_search::{Control, StopReason, Ticker};
use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// The cell order of the best-board search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum BestOrder {
    /// Row by row from the top-left corner.
    Rows,
    /// The frame clockwise from the top-left corner, then the inside row by
    /// row.
    BorderFirst,
    /// Rows, but the last rows (5 of 16) are filled in short columns:
    /// Blackwood's order. The cells left open at any time then form a
    /// short front, so the breaks late in the scan have fewer cells to ruin.
    #[default]
    ColumnsLast,
}

impl BestOrder {
    /// The name used on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            BestOrder::Rows => "rows",
            BestOrder::BorderFirst => "border-first",
            BestOrder::ColumnsLast => "columns-last",
        }
    }
}

impl fmt::Display for BestOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for BestOrder {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "rows" => Ok(BestOrder::Rows),
            "border-first" | "frame" => Ok(BestOrder::BorderFirst),
            "columns-last" => Ok(BestOrder::ColumnsLast),
            other => Err(format!(
                "unknown order '{other}': expected rows, border-first or columns-last"
            )),
        }
    }
}

/// How the best-board search runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BestOptions {
    /// The cell order.
    pub order: BestOrder,
    /// The first depth (tiles placed by the search, from 0) at which a break
    /// may be made; `None`: 78.5% of the cells to place (Blackwood's 201 of
    /// 256).
    pub breaks_after: Option<usize>,
    /// The most breaks on one board; `None`: one per 25.5 cells to place
    /// (10 for Eternity II).
    pub max_breaks: Option<usize>,
    /// Nodes per restart before the candidate lists are shuffled anew.
    pub restart_nodes: u64,
    /// A restart that has walked this many nodes without placing a tile at
    /// the depth where breaks begin is given up early; `None`: never.
    pub stall_nodes: Option<u64>,
    /// The seed of the first worker's generator; the others are derived.
    pub seed: u64,
    /// Worker threads, at least 1.
    pub threads: usize,
    /// Colour quotas on these marks (empty: none).
    pub quota_marks: Vec<MarkId>,
    /// Completed boards within this many points of the best are improved
    /// by swapping and turning tiles late in the scan; `None`: never.
    pub polish: Option<u32>,
    /// Whether a break may fall on an edge between two frame cells.
    pub frame_breaks: bool,
}

impl Default for BestOptions {
    fn default() -> Self {
        BestOptions {
            order: BestOrder::ColumnsLast,
            breaks_after: None,
            max_breaks: None,
            restart_nodes: DEFAULT_RESTART_NODES,
            stall_nodes: Some(DEFAULT_STALL_NODES),
            seed: 0,
            threads: 1,
            quota_marks: Vec::new(),
            polish: Some(DEFAULT_POLISH),
            frame_breaks: true,
        }
    }
}

/// Completed boards this close to the best are polished (see BENCHMARKS.md).
pub const DEFAULT_POLISH: u32 = 3;

/// The node cap per restart when none is given (see BENCHMARKS.md).
pub const DEFAULT_RESTART_NODES: u64 = 50_000_000;

/// The nodes after which a restart still short of the break zone is given
/// up (see BENCHMARKS.md): an exact early part whose shuffle led into a
/// subtree with no way through to the breaks can hold a restart for its
/// whole cap, far below the scores of the others.
pub const DEFAULT_STALL_NODES: u64 = 5_000_000;

/// Options the best-board search cannot run with.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BestError {
    /// No worker thread.
    #[error("the search needs at least one thread")]
    NoThreads,
    /// A zero node cap per restart.
    #[error("the node cap per restart must be at least 1")]
    NoRestartNodes,
    /// The system refused a worker thread.
    #[error("cannot start a search thread: {0}")]
    Spawn(String),
    /// Breaks that would start past the last cell.
    #[error("breaks after depth {after}: the search places only {cells} tiles")]
    BreaksAfter {
        /// The depth asked for.
        after: usize,
        /// Tiles the search places (cells without a hint).
        cells: usize,
    },
}

/// A board better than every one reported before it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Improvement {
    /// Matching inner edges.
    pub score: u32,
    /// The most possible: `2RC - R - C`.
    pub max: u32,
    /// Row by row from the top-left; `None` for an empty cell.
    pub placements: Vec<Option<Placement>>,
    /// Nodes visited by all workers when it was found (as far as published).
    pub nodes: u64,
    /// Time since the search's control was made.
    pub elapsed: Duration,
    /// The worker that found it, from 0.
    pub thread: usize,
    /// Its restart, from 0.
    pub restart: u64,
}

/// Why a best-board search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BestEnd {
    /// A board with every inner edge matching was found.
    FullScore,
    /// Every worker searched its whole tree under the break rules without a
    /// full score (small puzzles only).
    Exhausted,
    /// The control stopped it (limit or cancel).
    Stopped(StopReason),
}

/// What a best-board search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BestReport {
    /// The best board, if any tile was placed (or hints give one).
    pub best: Option<Improvement>,
    /// Nodes visited by all workers.
    pub nodes: u64,
    /// Restarts begun by all workers.
    pub restarts: u64,
    /// Why it ended.
    pub end: BestEnd,
}

/// The most matching inner edges a `rows x cols` board can have.
pub fn max_score(rows: usize, cols: usize) -> u32 {
    (2 * rows * cols - rows - cols) as u32
}

/// The seed of worker `index` of a run seeded with `seed`: distinct streams
/// for distinct workers (and shards, which pass their own index range).
pub fn worker_seed(seed: u64, index: u64) -> u64 {
    SplitMix::new(seed ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03)).next_u64()
}

const NONE: u8 = 4;
const EMPTY: u32 = u32::MAX;
const OPPOSITE: [usize; 4] = [2, 3, 0, 1];

/// One cell of the scan order and what constrains it.
#[derive(Clone, Debug)]
struct Pos {
    cell: usize,
    table: usize,
    /// The two sides whose marks key the table (`NONE` when fewer sides are
    /// placed), and the cell across each.
    key: [u8; 2],
    across: [usize; 2],
    /// Further placed sides, checked one by one: (side, cell across).
    extra: Vec<(u8, usize)>,
    /// Placed sides in all: what a tile adds to the score when it fits all.
    sides: u8,
}

/// Candidate lists of one (frame shape, key sides) class, indexed by the
/// marks shown on the two key sides (`wild` for "any"): `a * width + b`.
///
/// With few marks (Eternity II has 23) every key has its list, read
/// directly. With many, most of the `width * width` keys have no tile: a
/// list per key took 400 MB a table on a board of 4,096 marks (6.5 GB in
/// all), so only the keys that have tiles get a list, found through `at`.
#[derive(Clone, Debug)]
struct Table {
    lists: Vec<Vec<u32>>,
    at: Option<HashMap<usize, u32>>,
}

/// Most keys (`width * width`) for which a table keeps a list per key.
const DENSE_KEYS: usize = 1 << 16;

impl Table {
    /// The candidates of key `key`.
    #[inline]
    fn list(&self, key: usize) -> &[u32] {
        match &self.at {
            None => &self.lists[key],
            Some(at) => at.get(&key).map_or(&[], |&i| &self.lists[i as usize]),
        }
    }
}

/// Everything the workers share, built once.
struct Plan {
    cells: usize,
    /// Looks of orientation `tile * 4 + rotation`.
    looks: Vec<[MarkId; 4]>,
    partner: Vec<MarkId>,
    positions: Vec<Pos>,
    tables: Vec<Table>,
    /// Cumulative breaks allowed once position `k` is placed.
    budget: Vec<u32>,
    /// The first position at which a break may be made.
    breaks_from: usize,
    /// Inner edges still to be closed from position `k` on (at most what a
    /// completion from there can add).
    rest: Vec<u32>,
    hinted: Vec<(usize, u32)>,
    /// Per tile: its sides showing a quota colour; per position: the fewest
    /// such sides the tiles placed up to it may show (0: no quota).
    tile_quota: Vec<u32>,
    quota: Vec<u32>,
    width: usize,
    wild: usize,
    max: u32,
    base_score: u32,
    /// Per cell: the cells across its four sides (`usize::MAX` off the
    /// board) and its sides on the frame (a bit per side; 0 everywhere on a
    /// puzzle without a border mark).
    neighbour: Vec<[usize; 4]>,
    frame: Vec<u8>,
    /// Per orientation: its sides showing the border mark.
    border_sides: Vec<u8>,
    /// The cells polishing may swap (those of the scan's last part), and
    /// the margin to the best within which a completed board is polished.
    polish_cells: Vec<usize>,
    polish: Option<u32>,
    /// Per cell: whether it is on the frame (a break between two such
    /// cells is refused when frame breaks are off).
    frame_cell: Vec<bool>,
    frame_breaks: bool,
}

impl Plan {
    fn new(puzzle: &Puzzle, options: &BestOptions) -> Result<Plan, BestError> {
        let (rows, cols) = (puzzle.rows, puzzle.cols);
        let cells = rows * cols;
        let neighbour: Vec<[usize; 4]> = (0..cells)
            .map(|c| {
                let (r, k) = (c / cols, c % cols);
                [
                    if r > 0 { c - cols } else { usize::MAX },
                    if k + 1 < cols { c + 1 } else { usize::MAX },
                    if r + 1 < rows { c + cols } else { usize::MAX },
                    if k > 0 { c - 1 } else { usize::MAX },
                ]
            })
            .collect();
        let looks: Vec<[MarkId; 4]> = puzzle
            .tiles
            .iter()
            .flat_map(|t| (0..4).map(|r| t.rotated(r)))
            .collect();
        let partner: Vec<MarkId> = (0..puzzle.marks.len())
            .map(|m| puzzle.marks.partner(m as MarkId))
            .collect();
        let mut placed = vec![false; cells];
        let mut hinted = Vec::new();
        let mut hinted_tile = vec![false; puzzle.tiles.len()];
        for h in &puzzle.hints {
            let cell = h.row * cols + h.col;
            placed[cell] = true;
            hinted_tile[h.tile] = true;
            hinted.push((cell, (h.tile * 4 + h.rotation as usize) as u32));
        }
        let order: Vec<usize> = scan_order(rows, cols, options.order)
            .into_iter()
            .filter(|&c| !placed[c])
            .collect();
        let wild = puzzle.marks.len();
        let width = wild + 1;
        let mut classes: HashMap<(u8, u8, u8), usize> = HashMap::new();
        let mut tables = Vec::new();
        let mut positions = Vec::with_capacity(order.len());
        for &cell in &order {
            let frame = (0..4).fold(0u8, |m, s| {
                m | (u8::from(neighbour[cell][s] == usize::MAX) << s)
            });
            // West and north first: the row scan's two keys.
            let mut sides: Vec<u8> = [3u8, 0, 1, 2]
                .into_iter()
                .filter(|&s| {
                    let n = neighbour[cell][s as usize];
                    n != usize::MAX && placed[n]
                })
                .collect();
            let extra: Vec<(u8, usize)> = sides
                .split_off(sides.len().min(2))
                .into_iter()
                .map(|s| (s, neighbour[cell][s as usize]))
                .collect();
            let key = [
                sides.first().copied().unwrap_or(NONE),
                sides.get(1).copied().unwrap_or(NONE),
            ];
            let across = key.map(|s| {
                if s == NONE {
                    usize::MAX
                } else {
                    neighbour[cell][s as usize]
                }
            });
            let table = *classes.entry((frame, key[0], key[1])).or_insert_with(|| {
                tables.push(build_table(
                    puzzle,
                    &looks,
                    &hinted_tile,
                    frame,
                    key,
                    width,
                    wild,
                ));
                tables.len() - 1
            });
            positions.push(Pos {
                cell,
                table,
                key,
                across,
                sides: (sides.len() + extra.len()) as u8,
                extra,
            });
            placed[cell] = true;
        }
        let n = positions.len();
        let after = match options.breaks_after {
            Some(a) if a > n => return Err(BestError::BreaksAfter { after: a, cells: n }),
            Some(a) => a,
            None => (n * 785).div_ceil(1000),
        };
        // 10 breaks on Eternity II's 255 cells to place (Blackwood's count)
        // scored best at equal nodes in his order (8 to 14 measured; in a
        // plain row scan 14 did: BENCHMARKS.md).
        let most = options.max_breaks.unwrap_or((n * 10 + 128) / 256) as u64;
        // The budget grows by one every few cells from `after` to 93.5% of
        // the depth (Blackwood: 201 to 239 of 256), then stays.
        let end = ((n * 935).div_ceil(1000)).max(after + 1);
        let span = (end - after) as u64;
        let budget = (0..n)
            .map(|k| {
                if k < after || most == 0 {
                    0
                } else {
                    (1 + (k - after) as u64 * most / span).min(most) as u32
                }
            })
            .collect();
        let mut rest = vec![0u32; n + 1];
        for k in (0..n).rev() {
            rest[k] = rest[k + 1] + positions[k].sides as u32;
        }
        let tile_quota: Vec<u32> = puzzle
            .tiles
            .iter()
            .map(|t| {
                t.sides
                    .iter()
                    .filter(|m| options.quota_marks.contains(m))
                    .count() as u32
            })
            .collect();
        let to_place: u32 = (0..puzzle.tiles.len())
            .filter(|&t| !hinted_tile[t])
            .map(|t| tile_quota[t])
            .sum();
        let quota = (0..n)
            .map(|k| (f64::from(to_place) * quota_share(k as f64 / n as f64)) as u32)
            .collect();
        let mut base_score = 0;
        for &(cell, o) in &hinted {
            for s in [1usize, 2] {
                let n = neighbour[cell][s];
                if let Some(&(_, other)) = hinted.iter().find(|&&(c, _)| c == n) {
                    let (a, b) = (looks[o as usize][s], looks[other as usize][OPPOSITE[s]]);
                    if fits_inner(puzzle, a, b) {
                        base_score += 1;
                    }
                }
            }
        }
        let frame: Vec<u8> = (0..cells)
            .map(|c| {
                if puzzle.border.is_none() {
                    return 0;
                }
                (0..4).fold(0u8, |m, s| {
                    m | (u8::from(neighbour[c][s] == usize::MAX) << s)
                })
            })
            .collect();
        let border_sides: Vec<u8> = looks
            .iter()
            .map(|look| {
                (0..4).fold(0u8, |m, s| {
                    m | (u8::from(puzzle.border == Some(look[s])) << s)
                })
            })
            .collect();
        // The cells a row above the first break and later: where the breaks
        // and a completion's misfits are.
        let polish_cells = positions[after.saturating_sub(cols)..]
            .iter()
            .map(|p| p.cell)
            .collect();
        let frame_cell = (0..cells)
            .map(|c| neighbour[c].contains(&usize::MAX))
            .collect();
        Ok(Plan {
            cells,
            looks,
            partner,
            positions,
            tables,
            budget,
            breaks_from: after,
            rest,
            hinted,
            tile_quota,
            quota,
            width,
            wild,
            max: max_score(rows, cols),
            base_score,
            neighbour,
            frame,
            border_sides,
            polish_cells,
            polish: options.polish,
            frame_cell,
            frame_breaks: options.frame_breaks,
        })
    }
}

/// The share of the quota colours' sides that the tiles placed by depth
/// `x` (a fraction of the depth) must show: Blackwood's heuristic array for
/// Eternity II (at his scan index 26 of 256, 28 of the 122 sides of colours
/// 13, 16 and 10; at 56, 70; at 76, 89; at 102, 105; at 160, 119; none
/// before 16 or after 160), as fractions of the depth and of the sides, in
/// straight lines between those points.
fn quota_share(x: f64) -> f64 {
    const POINTS: [(f64, f64); 6] = [
        (16.0, 0.0),
        (26.0, 28.0),
        (56.0, 70.0),
        (76.0, 89.0),
        (102.0, 105.0),
        (160.0, 119.0),
    ];
    let (i, total) = (x * 256.0, 122.0);
    if i > POINTS[5].0 {
        return 0.0;
    }
    POINTS.windows(2).find(|w| i <= w[1].0).map_or(0.0, |w| {
        let ((x0, y0), (x1, y1)) = (w[0], w[1]);
        (y0 + (y1 - y0) * ((i - x0) / (x1 - x0)).max(0.0)) / total
    })
}

/// Two marks on an inner edge fit: the matching rule says so and neither is
/// the border mark (which belongs on the frame).
fn fits_inner(puzzle: &Puzzle, a: MarkId, b: MarkId) -> bool {
    puzzle.marks.fits(a, b) && puzzle.border.is_none_or(|x| a != x && b != x)
}

/// The cells in the order the search fills them.
fn scan_order(rows: usize, cols: usize, order: BestOrder) -> Vec<usize> {
    let all = rows * cols;
    match order {
        BestOrder::Rows => (0..all).collect(),
        BestOrder::BorderFirst => {
            let mut seen = vec![false; all];
            let mut out = Vec::with_capacity(all);
            let mut push = |c: usize, out: &mut Vec<usize>| {
                if !seen[c] {
                    seen[c] = true;
                    out.push(c);
                }
            };
            for c in 0..cols {
                push(c, &mut out);
            }
            for r in 1..rows {
                push(r * cols + cols - 1, &mut out);
            }
            for c in (0..cols).rev() {
                push((rows - 1) * cols + c, &mut out);
            }
            for r in (1..rows).rev() {
                push(r * cols, &mut out);
            }
            for c in 0..all {
                push(c, &mut out);
            }
            out
        }
        BestOrder::ColumnsLast => {
            // Every cell still has its west and north neighbours placed
            // before it, so the same tables serve.
            let tail = ((rows * 5 + 8) / 16).clamp(1, rows);
            let top = rows - tail;
            let mut out: Vec<usize> = (0..top * cols).collect();
            // The first `tail` columns of the tail row by row, then columns
            // top down until `tail - 1` are left, then the corner block
            // peeled a row and a column at a time.
            let left = tail.min(cols);
            let right = cols.saturating_sub(tail - 1).max(left);
            for r in top..rows {
                out.extend((0..left).map(|c| r * cols + c));
            }
            for c in left..right {
                out.extend((top..rows).map(|r| r * cols + c));
            }
            let (mut r0, mut c0) = (top, right);
            while r0 < rows && c0 < cols {
                out.extend((c0..cols).map(|c| r0 * cols + c));
                r0 += 1;
                out.extend((r0..rows).map(|r| r * cols + c0));
                c0 += 1;
            }
            out
        }
    }
}

/// The candidate lists for cells with frame sides `frame` and key sides
/// `key`: every orientation of a free tile that shows the border mark on the
/// frame sides and nowhere else, under its exact key and under each key
/// with one side (or both) replaced by "any" (for breaks).
fn build_table(
    puzzle: &Puzzle,
    looks: &[[MarkId; 4]],
    hinted_tile: &[bool],
    frame: u8,
    key: [u8; 2],
    width: usize,
    wild: usize,
) -> Table {
    let dense = width.saturating_mul(width) <= DENSE_KEYS;
    let mut lists: Vec<Vec<u32>> = if dense {
        vec![Vec::new(); width * width]
    } else {
        Vec::new()
    };
    let mut at: HashMap<usize, u32> = HashMap::new();
    for (o, look) in looks.iter().enumerate() {
        if hinted_tile[o / 4] {
            continue;
        }
        if let Some(b) = puzzle.border {
            if (0..4).any(|s| (look[s] == b) != (frame >> s & 1 == 1)) {
                continue;
            }
        }
        // A tile that looks the same turned is listed in one rotation only.
        let tile = &puzzle.tiles[o / 4];
        let r = (o % 4) as u8;
        if (0..r).any(|earlier| tile.rotated(earlier) == *look) {
            continue;
        }
        let mark = |s: u8| {
            if s == NONE {
                wild
            } else {
                look[s as usize] as usize
            }
        };
        let (a, b) = (mark(key[0]), mark(key[1]));
        let mut keys = vec![a * width + b, a * width + wild, wild * width + b];
        keys.push(wild * width + wild);
        keys.sort_unstable();
        keys.dedup();
        for k in keys {
            let i = if dense {
                k
            } else {
                *at.entry(k).or_insert_with(|| {
                    lists.push(Vec::new());
                    lists.len() as u32 - 1
                }) as usize
            };
            lists[i].push(o as u32);
        }
    }
    Table {
        lists,
        at: (!dense).then_some(at),
    }
}

/// The matching sides of orientation `o` at `cell` on `board`, leaving
/// out the side towards `skip`.
fn fitting_sides(plan: &Plan, board: &[u32], cell: usize, o: u32, skip: usize) -> u32 {
    let look = &plan.looks[o as usize];
    let mut fit = 0;
    for (s, &n) in plan.neighbour[cell].iter().enumerate() {
        if n == usize::MAX || n == skip || board[n] == EMPTY {
            continue;
        }
        let other = plan.looks[board[n] as usize][OPPOSITE[s]];
        fit += u32::from(look[s] == plan.partner[other as usize]);
    }
    fit
}

/// The turns of `tile` that put the border mark on exactly the frame sides
/// of `cell`.
fn turns_at(plan: &Plan, cell: usize, tile: u32) -> impl Iterator<Item = u32> + '_ {
    (tile * 4..tile * 4 + 4).filter(move |&o| plan.border_sides[o as usize] == plan.frame[cell])
}

/// Local search on a whole or partial board: swaps two tiles of the
/// polishing cells (each in its best turn) or turns one when that raises
/// the score, until no such move does. Returns the points gained. The set
/// of tiles on the board never changes, and every tile stays in a turn that
/// fits its cell's frame, so the board stays one the search could make.
fn polish(plan: &Plan, board: &mut [u32]) -> u32 {
    let cells = &plan.polish_cells;
    let mut gained = 0;
    // A few passes get nearly all of it; the cap bounds the cost.
    for _ in 0..8 {
        let mut better = false;
        for (i, &a) in cells.iter().enumerate() {
            let oa = board[a];
            if oa == EMPTY {
                continue;
            }
            // Turning the tile in place.
            let now = fitting_sides(plan, board, a, oa, usize::MAX);
            if let Some((fit, o)) = turns_at(plan, a, oa / 4)
                .map(|o| (fitting_sides(plan, board, a, o, usize::MAX), o))
                .max()
            {
                if fit > now {
                    board[a] = o;
                    gained += fit - now;
                    better = true;
                }
            }
            for &b in &cells[i + 1..] {
                let (oa, ob) = (board[a], board[b]);
                if ob == EMPTY {
                    continue;
                }
                let before = fitting_sides(plan, board, a, oa, b)
                    + fitting_sides(plan, board, b, ob, usize::MAX);
                let mut best = (before, oa, ob);
                for na in turns_at(plan, a, ob / 4) {
                    board[a] = na;
                    let fa = fitting_sides(plan, board, a, na, b);
                    for nb in turns_at(plan, b, oa / 4) {
                        let fit = fa + fitting_sides(plan, board, b, nb, usize::MAX);
                        if fit > best.0 {
                            best = (fit, na, nb);
                        }
                    }
                }
                board[a] = best.1;
                board[b] = best.2;
                if best.0 > before {
                    gained += best.0 - before;
                    better = true;
                }
            }
        }
        if !better {
            break;
        }
    }
    gained
}

/// The board shared by the workers: its score (for a cheap test) and the
/// lock under which improvements are reported in order.
struct Shared<'s> {
    score: AtomicU32,
    best: Mutex<Option<Improvement>>,
    sink: &'s (dyn Fn(&Improvement) + Sync),
}

/// Searches `puzzle` for the board with the most matching inner edges,
/// handing every improvement to `sink` (under a lock, so in increasing
/// order of score) until `control` stops it, every worker has searched its
/// whole tree, or a full score is found.
pub fn search_best(
    puzzle: &Puzzle,
    options: &BestOptions,
    control: &Control,
    sink: &(dyn Fn(&Improvement) + Sync),
) -> Result<BestReport, BestError> {
    search_best_from(puzzle, options, 0, control, sink)
}

/// [`search_best`] whose workers take the seed streams `first_stream`,
/// `first_stream + 1`, ...: shards of one run pass disjoint ranges.
pub fn search_best_from(
    puzzle: &Puzzle,
    options: &BestOptions,
    first_stream: u64,
    control: &Control,
    sink: &(dyn Fn(&Improvement) + Sync),
) -> Result<BestReport, BestError> {
    if options.threads == 0 {
        return Err(BestError::NoThreads);
    }
    if options.restart_nodes == 0 {
        return Err(BestError::NoRestartNodes);
    }
    let plan = Plan::new(puzzle, options)?;
    let shared = Shared {
        score: AtomicU32::new(0),
        best: Mutex::new(None),
        sink,
    };
    let results: Vec<(u64, u64, bool)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..options.threads)
            .map(|t| {
                let plan = &plan;
                let shared = &shared;
                let seed = worker_seed(options.seed, first_stream + t as u64);
                std::thread::Builder::new()
                    .name(format!("best-{t}"))
                    .stack_size(1 << 20)
                    .spawn_scoped(scope, move || {
                        let mut worker = Worker::new(puzzle, plan, t, seed);
                        let caps = Caps {
                            restart: options.restart_nodes,
                            stall: options.stall_nodes.unwrap_or(u64::MAX),
                        };
                        worker.run(caps, control, shared)
                    })
            })
            .collect();
        let mut results = Vec::with_capacity(handles.len());
        let mut failed = None;
        for handle in handles {
            match handle {
                // A worker's panic (a failed check in a debug build) is a
                // bug: passed on, never hidden.
                Ok(h) => match h.join() {
                    Ok(r) => results.push(r),
                    Err(panic) => std::panic::resume_unwind(panic),
                },
                Err(e) => {
                    // Stop the workers already started, then say why.
                    control.cancel();
                    failed = Some(e.to_string());
                }
            }
        }
        match failed {
            Some(why) => Err(BestError::Spawn(why)),
            None => Ok(results),
        }
    })?;
    let best = shared.best.into_inner().unwrap_or_else(|e| e.into_inner());
    let nodes = results.iter().map(|r| r.0).sum();
    let restarts = results.iter().map(|r| r.1).sum();
    let end = if best.as_ref().is_some_and(|b| b.score == plan.max) {
        BestEnd::FullScore
    } else if results.iter().all(|r| r.2) {
        BestEnd::Exhausted
    } else {
        BestEnd::Stopped(control.stop_reason().unwrap_or(StopReason::Cancelled))
    };
    Ok(BestReport {
        best,
        nodes,
        restarts,
        end,
    })
}

/// A dead end is completed when its score plus this share (in percent) of
/// the edges still open beats the best board (see BENCHMARKS.md).
const COMPLETE_SHARE: u32 = 50;

/// Nodes between two polls of the control.
const POLL: u64 = 1 << 14;

/// When a restart ends: after `restart` nodes, or after `stall` nodes if
/// it has not reached the positions where breaks may be made.
#[derive(Clone, Copy)]
struct Caps {
    restart: u64,
    stall: u64,
}

struct Worker<'p> {
    puzzle: &'p Puzzle,
    plan: &'p Plan,
    thread: usize,
    rng: SplitMix,
    tables: Vec<Table>,
    /// Per cell: the orientation there, or `EMPTY`.
    orient: Vec<u32>,
    /// Per cell: whether one of its sides is a break.
    broken: Vec<bool>,
    used: Vec<bool>,
    /// Per position: the stage (0 exact, 1 and 2 a break on key side 1 or
    /// 0), the next index in the stage's list, the marks wanted on the key
    /// sides, and what the placement added (score, breaks, broken cell).
    stage: Vec<u8>,
    next: Vec<u32>,
    want: Vec<[usize; 2]>,
    added: Vec<(u32, u32, usize)>,
    /// Per position: whether a tile was placed there since it was entered.
    placed_any: Vec<bool>,
    /// Cells filled by a completion, to empty again.
    filled: Vec<usize>,
    /// A copy of the board for polishing.
    scratch: Vec<u32>,
    score: u32,
    breaks: u32,
    /// Sides of the quota colours shown by the tiles placed.
    quota_sides: u32,
    /// Whether the quotas still apply (they are dropped once they have cut
    /// the whole tree).
    quotas: bool,
    /// The best score this worker has seen (its own or another's).
    best: u32,
    reported_any: bool,
}

impl<'p> Worker<'p> {
    fn new(puzzle: &'p Puzzle, plan: &'p Plan, thread: usize, seed: u64) -> Worker<'p> {
        let n = plan.positions.len();
        let mut w = Worker {
            puzzle,
            plan,
            thread,
            rng: SplitMix::new(seed),
            tables: plan.tables.clone(),
            orient: vec![EMPTY; plan.cells],
            broken: vec![false; plan.cells],
            used: vec![false; puzzle.tiles.len()],
            stage: vec![0; n],
            next: vec![0; n],
            want: vec![[0; 2]; n],
            added: vec![(0, 0, usize::MAX); n],
            placed_any: vec![false; n],
            filled: Vec::with_capacity(n),
            scratch: Vec::with_capacity(plan.cells),
            score: plan.base_score,
            breaks: 0,
            quota_sides: 0,
            quotas: plan.quota.iter().any(|&q| q > 0),
            best: 0,
            reported_any: false,
        };
        for &(cell, o) in &plan.hinted {
            w.orient[cell] = o;
            w.used[o as usize / 4] = true;
        }
        w
    }

    fn shuffle(&mut self) {
        let quota = &self.plan.tile_quota;
        let quotas = self.quotas;
        for table in &mut self.tables {
            for list in &mut table.lists {
                for i in (1..list.len()).rev() {
                    let j = self.rng.below(i as u32 + 1) as usize;
                    list.swap(i, j);
                }
                // Tiles rich in the quota colours first (Blackwood's order),
                // random among equals: a list then fails its quota from
                // some point on, and is cut there.
                if quotas {
                    list.sort_by_key(|&o| std::cmp::Reverse(quota[o as usize / 4]));
                }
            }
        }
    }

    /// Runs restarts until stopped; returns (nodes, restarts, exhausted).
    fn run(&mut self, caps: Caps, control: &Control, shared: &Shared) -> (u64, u64, bool) {
        let mut ticker = Ticker::new(control);
        let mut nodes = 0u64;
        let mut restarts = 0u64;
        if self.plan.positions.is_empty() {
            self.report(shared, control, 0, 0);
            return (0, 0, true);
        }
        loop {
            if control.is_stopped() {
                return (nodes, restarts, false);
            }
            self.shuffle();
            match self.descend(caps, &mut nodes, restarts, &mut ticker, control, shared) {
                Descent::Stopped => return (nodes, restarts + 1, false),
                // Quotas are a heuristic: a tree they cut to nothing is
                // searched again without them.
                Descent::Exhausted if self.quotas => {
                    self.quotas = false;
                    restarts += 1;
                }
                Descent::Exhausted => return (nodes, restarts + 1, true),
                Descent::Capped => restarts += 1,
            }
        }
    }

    fn enter(&mut self, k: usize) {
        let pos = &self.plan.positions[k];
        self.stage[k] = 0;
        self.next[k] = 0;
        self.placed_any[k] = false;
        self.want[k] = self.wanted(pos);
    }

    /// The marks `pos` needs on its two key sides to fit the tiles across
    /// them (`wild` for a side without a key or with an empty cell across).
    fn wanted(&self, pos: &Pos) -> [usize; 2] {
        let plan = self.plan;
        std::array::from_fn(|i| {
            let o = if pos.key[i] == NONE {
                EMPTY
            } else {
                self.orient[pos.across[i]]
            };
            if o == EMPTY {
                plan.wild
            } else {
                let s = pos.key[i] as usize;
                plan.partner[plan.looks[o as usize][OPPOSITE[s]] as usize] as usize
            }
        })
    }

    fn remove(&mut self, k: usize) {
        let cell = self.plan.positions[k].cell;
        let o = self.orient[cell];
        if o == EMPTY {
            return;
        }
        self.orient[cell] = EMPTY;
        self.used[o as usize / 4] = false;
        let (inc, br, other) = self.added[k];
        self.quota_sides -= self.plan.tile_quota[o as usize / 4];
        self.score -= inc;
        self.breaks -= br;
        if br > 0 {
            self.broken[cell] = false;
            self.broken[other] = false;
        }
    }

    /// Places the next candidate at position `k`; false when there is none.
    fn place_next(&mut self, k: usize) -> bool {
        let plan = self.plan;
        let pos = &plan.positions[k];
        let [wa, wb] = self.want[k];
        let (w, wild) = (plan.width, plan.wild);
        let may_break = self.breaks < plan.budget[k];
        let short = if self.quotas {
            plan.quota[k].saturating_sub(self.quota_sides)
        } else {
            0
        };
        loop {
            let stage = self.stage[k];
            // Stage 0: every key side fits. Stage 1: key side 0 fits, side 1
            // breaks. Stage 2: side 1 fits, side 0 breaks.
            let (index, broken_key) = match stage {
                0 => (wa * w + wb, None),
                1 if may_break && pos.key[1] != NONE => (wa * w + wild, Some(1)),
                1 if may_break && pos.key[0] != NONE => (wild * w + wild, Some(0)),
                2 if may_break && pos.key[1] != NONE => (wild * w + wb, Some(0)),
                _ => return false,
            };
            let list = self.tables[pos.table].list(index);
            let mut i = self.next[k] as usize;
            while i < list.len() {
                let o = list[i];
                i += 1;
                if self.used[o as usize / 4] {
                    continue;
                }
                if plan.tile_quota[o as usize / 4] < short {
                    // The list is in falling order of quota sides.
                    i = list.len();
                    continue;
                }
                let look = &plan.looks[o as usize];
                let mut mism = 0u32;
                let mut across = usize::MAX;
                if let Some(b) = broken_key {
                    let s = pos.key[b] as usize;
                    let want = if b == 0 { wa } else { wb };
                    if look[s] as usize == want {
                        continue; // tried in an earlier stage
                    }
                    mism = 1;
                    across = pos.across[b];
                }
                for &(s, n) in &pos.extra {
                    let other = plan.looks[self.orient[n] as usize][OPPOSITE[s as usize]];
                    if look[s as usize] != plan.partner[other as usize] {
                        mism += 1;
                        across = n;
                    }
                }
                if mism > 1 || (mism == 1 && (!may_break || self.broken[across])) {
                    continue;
                }
                if mism == 1
                    && !plan.frame_breaks
                    && plan.frame_cell[pos.cell]
                    && plan.frame_cell[across]
                {
                    continue;
                }
                self.next[k] = i as u32;
                self.orient[pos.cell] = o;
                self.used[o as usize / 4] = true;
                self.quota_sides += plan.tile_quota[o as usize / 4];
                let inc = pos.sides as u32 - mism;
                self.score += inc;
                self.breaks += mism;
                if mism > 0 {
                    self.broken[pos.cell] = true;
                    self.broken[across] = true;
                }
                self.added[k] = (inc, mism, across);
                self.placed_any[k] = true;
                return true;
            }
            self.stage[k] += 1;
            self.next[k] = 0;
        }
    }

    fn descend(
        &mut self,
        caps: Caps,
        nodes: &mut u64,
        restart: u64,
        ticker: &mut Ticker,
        control: &Control,
        shared: &Shared,
    ) -> Descent {
        let n = self.plan.positions.len();
        let mut k = 0usize;
        let mut here = 0u64;
        let mut unpublished = 0u64;
        // Work since the last poll: steps of the loop, and the cells a
        // greedy completion fills. Nodes alone undercount it on big boards
        // of many marks, where dead ends and completions are most of the
        // work (a 64 x 64 board of 4,096 marks placed 2,858 tiles a second,
        // and polled once in 5.7 s).
        let mut since_poll = 0u64;
        // Whether this restart has placed a tile where breaks may be made.
        let mut reached_breaks = false;
        self.enter(0);
        loop {
            since_poll += 1;
            if self.place_next(k) {
                here += 1;
                unpublished += 1;
                reached_breaks |= k >= self.plan.breaks_from;
                if self.score > self.best || !self.reported_any {
                    self.reported_any = true;
                    self.report(shared, control, *nodes + here, restart);
                    if self.score == self.plan.max {
                        control.stop(StopReason::SolutionLimit);
                        self.clear(k);
                        *nodes += here;
                        let _ = ticker.poll(unpublished, || 0.0);
                        return Descent::Stopped;
                    }
                }
                if k + 1 < n {
                    k += 1;
                    self.enter(k);
                } else {
                    // A full board with breaks: take the last tile back and
                    // try the next one.
                    self.remove(k);
                }
            } else {
                // A dead end: the board cannot grow here without more
                // breaks than allowed. Filling the rest greedily with the
                // tiles left gives a whole board, often better than any
                // partial one; worth the work only where it can win.
                if !self.placed_any[k]
                    && self.score + self.plan.rest[k] * COMPLETE_SHARE / 100 > self.best
                {
                    self.complete(k, shared, control, *nodes + here, restart);
                    since_poll += n as u64;
                }
                if k == 0 {
                    *nodes += here;
                    let _ = ticker.poll(unpublished, || 0.0);
                    return Descent::Exhausted;
                }
                k -= 1;
                self.remove(k);
            }
            if unpublished >= POLL || since_poll >= POLL {
                let flow = ticker.poll(unpublished, || 0.0);
                unpublished = 0;
                since_poll = 0;
                let stop = flow.is_break();
                let stalled = here >= caps.stall && !reached_breaks;
                if stop || here >= caps.restart || stalled {
                    self.clear(k);
                    *nodes += here;
                    return if stop {
                        Descent::Stopped
                    } else {
                        Descent::Capped
                    };
                }
                // Another worker's improvement raises the bar here too.
                self.best = self.best.max(shared.score.load(Ordering::Relaxed));
            }
        }
    }

    /// Fills positions `k..` greedily (for each cell, the free tile that
    /// fits most of its placed neighbours among the first free one of each
    /// candidate list), reports the board if it is the best, and empties
    /// those cells again.
    fn complete(&mut self, k: usize, shared: &Shared, control: &Control, nodes: u64, restart: u64) {
        let plan = self.plan;
        let saved = self.score;
        let (w, wild) = (plan.width, plan.wild);
        self.filled.clear();
        for j in k..plan.positions.len() {
            let pos = &plan.positions[j];
            let want = self.wanted(pos);
            let table = &self.tables[pos.table];
            let mut chosen = EMPTY;
            let mut gain_of_chosen = 0;
            for index in [
                want[0] * w + want[1],
                want[0] * w + wild,
                wild * w + want[1],
                wild * w + wild,
            ] {
                let Some(&o) = table
                    .list(index)
                    .iter()
                    .find(|&&o| !self.used[o as usize / 4])
                else {
                    continue;
                };
                let look = &plan.looks[o as usize];
                let mut gain = 0;
                for (s, n) in pos
                    .key
                    .iter()
                    .zip(pos.across)
                    .filter(|(s, _)| **s != NONE)
                    .map(|(&s, n)| (s, n))
                    .chain(pos.extra.iter().copied())
                {
                    let other = self.orient[n];
                    if other != EMPTY
                        && look[s as usize]
                            == plan.partner
                                [plan.looks[other as usize][OPPOSITE[s as usize]] as usize]
                    {
                        gain += 1;
                    }
                }
                if chosen == EMPTY || gain > gain_of_chosen {
                    chosen = o;
                    gain_of_chosen = gain;
                }
            }
            if chosen != EMPTY {
                self.orient[pos.cell] = chosen;
                self.used[chosen as usize / 4] = true;
                self.score += gain_of_chosen;
                self.filled.push(pos.cell);
            }
        }
        if self.score > self.best {
            self.report(shared, control, nodes, restart);
        }
        if let Some(margin) = plan.polish {
            if self.score + margin > self.best {
                self.polish_and_report(shared, control, nodes, restart);
            }
        }
        for i in 0..self.filled.len() {
            let cell = self.filled[i];
            self.used[self.orient[cell] as usize / 4] = false;
            self.orient[cell] = EMPTY;
        }
        self.score = saved;
    }

    /// Improves a copy of the board by swapping two tiles of the scan's last
    /// part (each turned its best way) or turning one, while that raises
    /// the score, and reports it if it beats the best. The board itself is
    /// left as it was for the search to go on.
    fn polish_and_report(&mut self, shared: &Shared, control: &Control, nodes: u64, restart: u64) {
        let saved = self.score;
        self.scratch.clear();
        self.scratch.extend_from_slice(&self.orient);
        let mut board = std::mem::take(&mut self.scratch);
        let gained = polish(self.plan, &mut board);
        if saved + gained > self.best {
            std::mem::swap(&mut self.orient, &mut board);
            self.score = saved + gained;
            self.report(shared, control, nodes, restart);
            std::mem::swap(&mut self.orient, &mut board);
            self.score = saved;
        }
        self.scratch = board;
    }

    /// Empties the board down from position `k` (for a new restart).
    fn clear(&mut self, k: usize) {
        for j in (0..=k.min(self.plan.positions.len() - 1)).rev() {
            self.remove(j);
        }
    }

    fn report(&mut self, shared: &Shared, control: &Control, nodes: u64, restart: u64) {
        self.best = self.best.max(self.score);
        let mut best = match shared.best.lock() {
            Ok(b) => b,
            Err(e) => e.into_inner(),
        };
        if best.as_ref().is_some_and(|b| b.score >= self.score) {
            return;
        }
        let placements: Vec<Option<Placement>> = self
            .orient
            .iter()
            .map(|&o| {
                (o != EMPTY).then_some(Placement {
                    tile: (o / 4) as u16,
                    rotation: (o % 4) as u8,
                })
            })
            .collect();
        debug_assert_eq!(
            crate::score::score(self.puzzle, &placements).ok(),
            Some(self.score),
            "the running score disagrees with the checker"
        );
        let found = Improvement {
            score: self.score,
            max: self.plan.max,
            placements,
            nodes: control.nodes().max(nodes),
            elapsed: control.elapsed(),
            thread: self.thread,
            restart,
        };
        shared.score.fetch_max(self.score, Ordering::Relaxed);
        (shared.sink)(&found);
        *best = Some(found);
    }
}

enum Descent {
    Capped,
    Exhausted,
    Stopped,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_is_reproducible_and_spread() {
        let mut a = SplitMix::new(7);
        let mut b = SplitMix::new(7);
        let xs: Vec<u64> = (0..5).map(|_| a.next_u64()).collect();
        let ys: Vec<u64> = (0..5).map(|_| b.next_u64()).collect();
        assert_eq!(xs, ys);
        let mut counts = [0; 4];
        for _ in 0..4000 {
            counts[a.below(4) as usize] += 1;
        }
        assert!(counts.iter().all(|&c| c > 900), "{counts:?}");
        assert_ne!(worker_seed(1, 0), worker_seed(1, 1));
    }

    #[test]
    fn border_first_visits_every_cell_once() {
        for (r, c) in [(1, 1), (1, 4), (2, 2), (3, 5), (6, 6)] {
            let mut order = scan_order(r, c, BestOrder::BorderFirst);
            assert_eq!(order[..c.min(order.len())], (0..c).collect::<Vec<_>>()[..]);
            order.sort_unstable();
            assert_eq!(order, (0..r * c).collect::<Vec<_>>());
        }
    }

    #[test]
    fn columns_last_places_west_and_north_first_in_blackwoods_order() {
        for (r, c) in [(1, 1), (1, 4), (2, 2), (3, 5), (6, 6), (16, 16), (7, 3)] {
            let order = scan_order(r, c, BestOrder::ColumnsLast);
            let mut at = vec![usize::MAX; r * c];
            for (i, &cell) in order.iter().enumerate() {
                assert_eq!(at[cell], usize::MAX, "{r}x{c}: cell {cell} twice");
                at[cell] = i;
            }
            assert!(
                at.iter().all(|&i| i != usize::MAX),
                "{r}x{c}: a cell left out"
            );
            for cell in 0..r * c {
                if cell % c > 0 {
                    assert!(at[cell - 1] < at[cell], "{r}x{c}: west of {cell}");
                }
                if cell >= c {
                    assert!(at[cell - c] < at[cell], "{r}x{c}: north of {cell}");
                }
            }
        }
        // Eternity II: rows 0 to 10, then his tail (his scan indices 176 on,
        // his board turned upside down to start at the top), but for the
        // order of his cells 253 and 254.
        let order = scan_order(16, 16, BestOrder::ColumnsLast);
        let at = |r: usize, c: usize| order.iter().position(|&x| x == r * 16 + c).unwrap();
        assert_eq!(order[..176], (0..176).collect::<Vec<_>>()[..]);
        assert_eq!(
            (at(11, 4), at(15, 4), at(11, 5), at(15, 5)),
            (180, 200, 201, 205)
        );
        assert_eq!(
            (at(11, 11), at(15, 11), at(11, 12), at(11, 15)),
            (231, 235, 236, 239)
        );
        assert_eq!(
            (at(15, 12), at(12, 15), at(15, 13), at(14, 14)),
            (243, 246, 249, 252)
        );
    }

    #[test]
    fn polishing_gains_what_the_scorer_recounts() {
        let puzzle = crate::parse::parse(
            include_str!("../../../puzzles/edge/eternity2.toml"),
            "eternity2.toml",
            None,
        )
        .unwrap();
        let plan = Plan::new(&puzzle, &BestOptions::default()).unwrap();
        // The tiles in a board order that fits the frame (each in its first
        // turn that does) but matches few inner edges.
        let mut board = vec![EMPTY; 256];
        let mut used = vec![false; 256];
        for &(cell, o) in &plan.hinted {
            board[cell] = o;
            used[o as usize / 4] = true;
        }
        for (cell, slot) in board.iter_mut().enumerate() {
            if *slot != EMPTY {
                continue;
            }
            let tile = (0..256u32)
                .find(|&t| !used[t as usize] && turns_at(&plan, cell, t).next().is_some())
                .unwrap();
            used[tile as usize] = true;
            *slot = turns_at(&plan, cell, tile).next().unwrap();
        }
        let placements = |b: &[u32]| -> Vec<Option<Placement>> {
            b.iter()
                .map(|&o| {
                    Some(Placement {
                        tile: (o / 4) as u16,
                        rotation: (o % 4) as u8,
                    })
                })
                .collect()
        };
        let before = crate::score::score(&puzzle, &placements(&board)).unwrap();
        let gained = polish(&plan, &mut board);
        assert!(
            gained > 10,
            "swaps find matches on a random board: {gained}"
        );
        let after = crate::score::score(&puzzle, &placements(&board)).unwrap();
        assert_eq!(after, before + gained);
        // The hint never moves.
        assert_eq!(board[plan.hinted[0].0], plan.hinted[0].1);
    }

    #[test]
    fn quotas_follow_blackwoods_curve_on_eternity_ii() {
        // His array at scan indices 26, 56, 76, 102 and 160 of 256, of the
        // 122 sides of colours 13, 16 and 10.
        for (i, sides) in [(26, 28), (56, 70), (76, 89), (102, 105), (160, 119)] {
            let share = quota_share(i as f64 / 256.0);
            assert!((share * 122.0 - sides as f64).abs() < 1e-9, "{i}: {share}");
        }
        assert_eq!(quota_share(0.0), 0.0);
        assert_eq!(quota_share(0.7), 0.0, "no quota after index 160");
        let shares: Vec<f64> = (16..=160).map(|i| quota_share(i as f64 / 256.0)).collect();
        assert!(
            shares.windows(2).all(|w| w[0] <= w[1]),
            "the quota only grows"
        );

        let puzzle = crate::parse::parse(
            include_str!("../../../puzzles/edge/eternity2.toml"),
            "eternity2.toml",
            None,
        )
        .unwrap();
        let marks = ["13", "16", "10"].map(|m| puzzle.marks.id(m).unwrap());
        let options = BestOptions {
            quota_marks: marks.to_vec(),
            ..BestOptions::default()
        };
        let plan = Plan::new(&puzzle, &options).unwrap();
        // Piece 139, the starter, shows none of them: all 122 are to place.
        assert_eq!(plan.tile_quota.iter().sum::<u32>(), 122);
        assert_eq!(plan.tile_quota[138], 0);
        let n = plan.positions.len();
        // Position 55 of 255 is his index 55.2: 68.9 of the 122 sides.
        assert_eq!(plan.quota[55], 68);
        assert_eq!(plan.quota[n - 1], 0);
        assert_eq!(*plan.quota.iter().max().unwrap(), 118);
        // Without quota colours, no quota.
        let plain = Plan::new(&puzzle, &BestOptions::default()).unwrap();
        assert!(plain.quota.iter().all(|&q| q == 0));
    }

    #[test]
    fn max_score_counts_inner_edges() {
        assert_eq!(max_score(16, 16), 480);
        assert_eq!(max_score(1, 1), 0);
        assert_eq!(max_score(6, 6), 60);
    }
}
