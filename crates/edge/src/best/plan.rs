//! What is built once and shared by the workers: the cells in scan order
//! with the sides that key their candidate lists, the breaks allowed at
//! each depth, the colour quotas, and what polishing needs.

use super::options::BestOptions;
use super::scan::scan_order;
use super::search::max_score;
use super::tables::{build_table, Table};
use super::{BestError, NONE, OPPOSITE};
use crate::model::{MarkId, Puzzle};
use std::collections::HashMap;

/// One cell of the scan order and what constrains it.
#[derive(Clone, Debug)]
pub(super) struct Pos {
    pub(super) cell: usize,
    pub(super) table: usize,
    /// The two sides whose marks key the table (`NONE` when fewer sides are
    /// placed), and the cell across each.
    pub(super) key: [u8; 2],
    pub(super) across: [usize; 2],
    /// Further placed sides, checked one by one: (side, cell across).
    pub(super) extra: Vec<(u8, usize)>,
    /// Placed sides in all: what a tile adds to the score when it fits all.
    pub(super) sides: u8,
}

/// Everything the workers share, built once.
pub(super) struct Plan {
    pub(super) cells: usize,
    /// Looks of orientation `tile * 4 + rotation`.
    pub(super) looks: Vec<[MarkId; 4]>,
    pub(super) partner: Vec<MarkId>,
    pub(super) positions: Vec<Pos>,
    pub(super) tables: Vec<Table>,
    /// Cumulative breaks allowed once position `k` is placed.
    pub(super) budget: Vec<u32>,
    /// The first position at which a break may be made.
    pub(super) breaks_from: usize,
    /// Inner edges still to be closed from position `k` on (at most what a
    /// completion from there can add).
    pub(super) rest: Vec<u32>,
    pub(super) hinted: Vec<(usize, u32)>,
    /// Per tile: its sides showing a quota colour; per position: the fewest
    /// such sides the tiles placed up to it may show (0: no quota).
    pub(super) tile_quota: Vec<u32>,
    pub(super) quota: Vec<u32>,
    pub(super) width: usize,
    pub(super) wild: usize,
    pub(super) max: u32,
    pub(super) base_score: u32,
    /// Per cell: the cells across its four sides (`usize::MAX` off the
    /// board) and its sides on the frame (a bit per side; 0 everywhere on a
    /// puzzle without a border mark).
    pub(super) neighbour: Vec<[usize; 4]>,
    pub(super) frame: Vec<u8>,
    /// Per orientation: its sides showing the border mark.
    pub(super) border_sides: Vec<u8>,
    /// The cells polishing may swap (those of the scan's last part), and
    /// the margin to the best within which a completed board is polished.
    pub(super) polish_cells: Vec<usize>,
    pub(super) polish: Option<u32>,
    /// The cells reassignment may move tiles among (none pinned), by kind:
    /// inner, edge and corner cells; and the rounds without a gain after
    /// which it stops (`None`: no reassignment).
    pub(super) reassign_cells: [Vec<usize>; 3],
    pub(super) reassign: Option<u32>,
    /// Per cell: whether it is on the frame (a break between two such
    /// cells is refused when frame breaks are off).
    pub(super) frame_cell: Vec<bool>,
    pub(super) frame_breaks: bool,
}

impl Plan {
    pub(super) fn new(puzzle: &Puzzle, options: &BestOptions) -> Result<Plan, BestError> {
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
        // Pins make the exact early part hard to get through: with Eternity
        // II's five clues most restarts died in the rows below the top pins,
        // and breaks from 65% of the depth rather than 78.5% (with 12 breaks
        // rather than 10) raised the mean best in 60 s from 440.6 to about
        // 453 (BENCHMARKS.md, issue 44).
        let pinned = hinted.len() > 1;
        let after = match options.breaks_after {
            Some(a) if a > n => return Err(BestError::BreaksAfter { after: a, cells: n }),
            Some(a) => a,
            None if pinned => (n * 650).div_ceil(1000),
            None => (n * 785).div_ceil(1000),
        };
        // 10 breaks on Eternity II's 255 cells to place (Blackwood's count)
        // scored best at equal nodes in his order (8 to 14 measured; in a
        // plain row scan 14 did: BENCHMARKS.md). With the five clues and
        // the earlier start, 12 did (8, 10, 12, 14 and 16 measured).
        let per_256 = if pinned { 12 } else { 10 };
        let most = options.max_breaks.unwrap_or((n * per_256 + 128) / 256) as u64;
        // The budget grows by one every few cells from `after` to 93.5% of
        // the depth (Blackwood: 201 to 239 of 256), then stays.
        let end = ((n * 935).div_ceil(1000)).max(after + 1);
        let span = (end - after) as u64;
        let budget: Vec<u32> = (0..n)
            .map(|k| {
                if k < after || most == 0 {
                    0
                } else {
                    (1 + (k - after) as u64 * most / span).min(most) as u32
                }
            })
            .collect();
        let mut budget: Vec<u32> = budget;
        if options.pin_breaks.unwrap_or(pinned) && most > 0 {
            // A pin's break: from the first position next to each pin, one
            // more break for every pin met so far (BENCHMARKS.md, issue 44).
            let mut met = vec![false; hinted.len()];
            let mut pins_met = 0u32;
            for (k, pos) in positions.iter().enumerate() {
                for (j, &(pin, _)) in hinted.iter().enumerate() {
                    if !met[j] && neighbour[pos.cell].contains(&pin) {
                        met[j] = true;
                        pins_met += 1;
                    }
                }
                budget[k] = budget[k].max(pins_met.min(most as u32));
            }
        }
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
        let mut reassign_cells: [Vec<usize>; 3] = Default::default();
        for c in 0..cells {
            if hinted.iter().all(|&(pin, _)| pin != c) {
                reassign_cells[(frame[c].count_ones() as usize).min(2)].push(c);
            }
        }
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
            reassign_cells,
            reassign: options.reassign,
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

#[cfg(test)]
mod tests {
    use super::*;

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
            include_str!("../../../../puzzles/edge/eternity2.toml"),
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
}
