//! Reassignment: the best way to put back the tiles of many cells at once.
//!
//! Take a set of cells no two of which share a side (and none pinned), all
//! of one kind (inner, edge or corner), and lift their tiles. Each tile's
//! matches at each of those cells, in its best turn, depend only on the
//! neighbours, which stay; so the way of putting the tiles back that
//! matches the most edges is a maximum-weight assignment of tiles to
//! cells, found exactly by the Hungarian algorithm in `O(n^3)`. That is a
//! neighbourhood of `n!` boards searched at once (Schaus and Deville's
//! "very large neighbourhood" for Eternity II), where the polishing's swaps
//! see two tiles at a time. A depth-first scan leaves its misfits in its
//! last rows with the tiles that were left over; a reassignment moves tiles
//! from anywhere on the board to where they fit.
//!
//! Rounds take a fresh random set each; ties are broken at random (a noise
//! too small to outweigh one edge), so rounds that gain nothing still move
//! the board across its plateau. The tiles on the board and their fit to
//! the frame never change.

use super::completion::{fitting_sides, turns_at};
use super::plan::Plan;
use super::EMPTY;
use jigsolve_search::estimate::SplitMix64 as SplitMix;
use jigsolve_search::Control;

/// The most cells of a round: the Hungarian algorithm's `n^3` stays near
/// two million steps (a round of Eternity II's inner cells takes about 100,
/// so it is never cut there; a 64 x 64 board's would take 2,000).
const MOST_CELLS: usize = 128;

/// One edge in the assignment's weights; the random tie-breaks of a round
/// add up to less than this.
const EDGE: i64 = 1 << 24;

/// What rounds of reassignment need besides the board, kept between calls
/// so that a round allocates nothing, and a generator of its own (so that
/// the restarts' shuffles are the same with and without it).
pub(super) struct Reassigner {
    rng: SplitMix,
    cells: Vec<usize>,
    taken: Vec<bool>,
    tiles: Vec<u32>,
    /// Per tile and cell of the round: the weight, and the best turn.
    weight: Vec<i64>,
    turn: Vec<u32>,
    hungarian: Hungarian,
}

impl Reassigner {
    pub(super) fn new(seed: u64) -> Reassigner {
        Reassigner {
            rng: SplitMix::new(seed ^ 0x5245_4153_5349_474E),
            cells: Vec::new(),
            taken: Vec::new(),
            tiles: Vec::new(),
            weight: Vec::new(),
            turn: Vec::new(),
            hungarian: Hungarian::default(),
        }
    }

    /// Rounds of reassignment on `board` until `stale` rounds in a row
    /// have gained nothing or `control` stops the search; returns the
    /// points gained.
    pub(super) fn improve(
        &mut self,
        plan: &Plan,
        board: &mut [u32],
        stale: u32,
        control: &Control,
    ) -> u32 {
        // Inner cells and edge cells alike often, the four corners seldom
        // (their one set is the same every round): a kind drawn from this
        // list, of the kinds with at least two cells.
        let kinds: Vec<usize> = [0, 0, 1, 1, 2]
            .into_iter()
            .filter(|&k| plan.reassign_cells[k].len() >= 2)
            .collect();
        if kinds.is_empty() {
            return 0;
        }
        let mut gained = 0;
        let mut idle = 0;
        while idle < stale && !control.should_stop() {
            let kind = kinds[self.rng.below(kinds.len() as u32) as usize];
            let g = self.round(plan, board, kind);
            gained += g;
            idle = if g > 0 { 0 } else { idle + 1 };
        }
        gained
    }

    /// One round on a random set of cells of `kind` (by frame sides):
    /// returns the points gained (never negative: putting every tile back
    /// where it was is one of the assignments).
    fn round(&mut self, plan: &Plan, board: &mut [u32], kind: usize) -> u32 {
        let rng = &mut self.rng;
        let pool = &plan.reassign_cells[kind];
        self.cells.clear();
        self.cells
            .extend(pool.iter().copied().filter(|&c| board[c] != EMPTY));
        rng.shuffle(&mut self.cells);
        self.taken.clear();
        self.taken.resize(plan.cells, false);
        let mut kept = 0;
        for i in 0..self.cells.len() {
            let c = self.cells[i];
            if self.taken[c] {
                continue;
            }
            self.taken[c] = true;
            for &n in &plan.neighbour[c] {
                if n != usize::MAX {
                    self.taken[n] = true;
                }
            }
            self.cells[kept] = c;
            kept += 1;
            if kept == MOST_CELLS {
                break;
            }
        }
        self.cells.truncate(kept);
        let n = self.cells.len();
        if n < 2 {
            return 0;
        }
        self.tiles.clear();
        self.tiles.extend(self.cells.iter().map(|&c| board[c] / 4));
        let before: u32 = self
            .cells
            .iter()
            .map(|&c| fitting_sides(plan, board, c, board[c], usize::MAX))
            .sum();
        // Weights: matches times EDGE, plus a tie-break below EDGE / n so
        // that the whole round's tie-breaks stay below one edge.
        let noise = (EDGE / (n as i64 + 1)) as u32;
        self.weight.clear();
        self.weight.resize(n * n, i64::MIN);
        self.turn.clear();
        self.turn.resize(n * n, EMPTY);
        for (a, &tile) in self.tiles.iter().enumerate() {
            for (c, &cell) in self.cells.iter().enumerate() {
                if let Some((fit, o)) = turns_at(plan, cell, tile)
                    .map(|o| (fitting_sides(plan, board, cell, o, usize::MAX), o))
                    .max_by_key(|&(fit, _)| fit)
                {
                    self.weight[a * n + c] =
                        i64::from(fit) * EDGE + i64::from(rng.below(noise.max(1)));
                    self.turn[a * n + c] = o;
                }
            }
        }
        let owner = self.hungarian.max_weight(n, &self.weight);
        let after: u32 = (0..n)
            .map(|c| {
                let a = owner[c];
                (self.weight[a * n + c] / EDGE) as u32
            })
            .sum();
        if after < before {
            // Cannot happen (see above); kept as a guard, not a move.
            return 0;
        }
        for c in 0..n {
            let a = owner[c];
            board[self.cells[c]] = self.turn[a * n + c];
        }
        after - before
    }
}

/// The Hungarian algorithm (shortest augmenting paths with potentials, one
/// row at a time) for a square matrix, with its buffers.
#[derive(Default)]
struct Hungarian {
    u: Vec<i64>,
    v: Vec<i64>,
    /// Per column (from 1): the row (from 1) assigned to it, 0 for none.
    row_of: Vec<usize>,
    way: Vec<usize>,
    min: Vec<i64>,
    used: Vec<bool>,
    owner: Vec<usize>,
}

impl Hungarian {
    /// For an `n x n` matrix of weights (row-major, `i64::MIN` for a pair
    /// that may not be assigned), an assignment of rows to columns with
    /// the largest total weight: the row of each column. Some assignment
    /// must be allowed.
    fn max_weight(&mut self, n: usize, weight: &[i64]) -> &[usize] {
        // Minimise the cost `top - weight`, all costs at least 0; a pair
        // not allowed costs more than any whole assignment of allowed ones.
        let top = weight.iter().copied().max().unwrap_or(0);
        let bottom = weight
            .iter()
            .copied()
            .filter(|&w| w != i64::MIN)
            .min()
            .unwrap_or(0);
        let barred = (top - bottom + 1).saturating_mul(n as i64 + 1);
        let cost = |i: usize, j: usize| {
            let w = weight[(i - 1) * n + (j - 1)];
            if w == i64::MIN {
                barred
            } else {
                top - w
            }
        };
        let inf = i64::MAX / 4;
        for b in [&mut self.u, &mut self.v] {
            b.clear();
            b.resize(n + 1, 0);
        }
        self.row_of.clear();
        self.row_of.resize(n + 1, 0);
        self.way.clear();
        self.way.resize(n + 1, 0);
        for i in 1..=n {
            self.row_of[0] = i;
            let mut j0 = 0;
            self.min.clear();
            self.min.resize(n + 1, inf);
            self.used.clear();
            self.used.resize(n + 1, false);
            loop {
                self.used[j0] = true;
                let i0 = self.row_of[j0];
                let mut delta = inf;
                let mut j1 = 0;
                for j in 1..=n {
                    if self.used[j] {
                        continue;
                    }
                    let reduced = cost(i0, j) - self.u[i0] - self.v[j];
                    if reduced < self.min[j] {
                        self.min[j] = reduced;
                        self.way[j] = j0;
                    }
                    if self.min[j] < delta {
                        delta = self.min[j];
                        j1 = j;
                    }
                }
                for j in 0..=n {
                    if self.used[j] {
                        self.u[self.row_of[j]] += delta;
                        self.v[j] -= delta;
                    } else {
                        self.min[j] -= delta;
                    }
                }
                j0 = j1;
                if self.row_of[j0] == 0 {
                    break;
                }
            }
            // Flip the augmenting path back to the root.
            loop {
                let j1 = self.way[j0];
                self.row_of[j0] = self.row_of[j1];
                j0 = j1;
                if j0 == 0 {
                    break;
                }
            }
        }
        self.owner.clear();
        self.owner.extend((1..=n).map(|j| self.row_of[j] - 1));
        &self.owner
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::best::completion::tests::{eternity2, poor_board, rescore};

    #[test]
    fn reassignment_gains_what_the_scorer_recounts_and_moves_no_pin() {
        let (puzzle, plan) = eternity2();
        let mut board = poor_board(&plan, puzzle.tiles.len());
        let before = rescore(&puzzle, &board);
        let mut tiles_before: Vec<u32> = board.iter().map(|o| o / 4).collect();
        let gained = Reassigner::new(1).improve(&plan, &mut board, 5, &Control::new());
        // A board that fits only its frame has far more to gain than a
        // few edges: whole sets of tiles go where they match.
        assert!(gained > 100, "reassignment gained {gained} from {before}");
        assert_eq!(rescore(&puzzle, &board), before + gained);
        let mut tiles_after: Vec<u32> = board.iter().map(|o| o / 4).collect();
        tiles_before.sort_unstable();
        tiles_after.sort_unstable();
        assert_eq!(tiles_before, tiles_after, "the same tiles, each once");
        for (cell, &o) in board.iter().enumerate() {
            assert_eq!(
                plan.border_sides[o as usize], plan.frame[cell],
                "cell {cell}: the tile's border sides on the frame"
            );
        }
        for &(cell, o) in &plan.hinted {
            assert_eq!(board[cell], o, "the pin at cell {cell} stays");
        }
    }

    /// The best total of every assignment, tried one by one.
    fn brute(n: usize, weight: &[i64]) -> Option<i64> {
        fn go(n: usize, w: &[i64], col: usize, used: &mut Vec<bool>) -> Option<i64> {
            if col == n {
                return Some(0);
            }
            let mut best = None;
            for row in 0..n {
                if used[row] || w[row * n + col] == i64::MIN {
                    continue;
                }
                used[row] = true;
                if let Some(rest) = go(n, w, col + 1, used) {
                    let total = rest + w[row * n + col];
                    best = Some(best.map_or(total, |b: i64| b.max(total)));
                }
                used[row] = false;
            }
            best
        }
        go(n, weight, 0, &mut vec![false; n])
    }

    #[test]
    fn the_hungarian_algorithm_finds_the_brute_forces_best() {
        let mut rng = SplitMix::new(7);
        let mut h = Hungarian::default();
        for trial in 0..400 {
            let n = 1 + trial % 7;
            let mut w: Vec<i64> = (0..n * n).map(|_| i64::from(rng.below(9))).collect();
            // Some pairs barred, but never the diagonal: an assignment exists.
            for r in 0..n {
                for c in 0..n {
                    if r != c && rng.below(4) == 0 {
                        w[r * n + c] = i64::MIN;
                    }
                }
            }
            let owner = h.max_weight(n, &w).to_vec();
            let mut seen = vec![false; n];
            for &r in &owner {
                assert!(!seen[r], "a row assigned twice: {owner:?}");
                seen[r] = true;
            }
            let total: i64 = (0..n)
                .map(|c| {
                    let x = w[owner[c] * n + c];
                    assert_ne!(x, i64::MIN, "a barred pair assigned");
                    x
                })
                .sum();
            assert_eq!(Some(total), brute(n, &w), "{n} x {n}: {w:?}");
        }
    }
}
