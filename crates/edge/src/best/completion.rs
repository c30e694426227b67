//! Whole boards out of dead ends: the greedy completion of the cells left
//! (worth it only where it can beat the best), and the polishing of a
//! completed board close to the best by swapping and turning tiles late in
//! the scan.

use super::plan::Plan;
use super::search::Shared;
use super::worker::Worker;
use super::{EMPTY, NONE, OPPOSITE};
use jigsolve_search::Control;

/// The matching sides of orientation `o` at `cell` on `board`, leaving
/// out the side towards `skip`.
pub(super) fn fitting_sides(plan: &Plan, board: &[u32], cell: usize, o: u32, skip: usize) -> u32 {
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
pub(super) fn turns_at(plan: &Plan, cell: usize, tile: u32) -> impl Iterator<Item = u32> + '_ {
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

impl Worker<'_> {
    /// Fills positions `k..` greedily (for each cell, the free tile that
    /// fits most of its placed neighbours among the first free one of each
    /// candidate list), reports the board if it is the best, and empties
    /// those cells again.
    pub(super) fn complete(
        &mut self,
        k: usize,
        shared: &Shared,
        control: &Control,
        nodes: u64,
        restart: u64,
    ) {
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
        self.note_board();
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

    /// Improves a copy of the board (see [`Worker::improve_and_report`]);
    /// the board itself is left as it was for the search to go on.
    fn polish_and_report(&mut self, shared: &Shared, control: &Control, nodes: u64, restart: u64) {
        let mut board = std::mem::take(&mut self.scratch);
        board.clear();
        board.extend_from_slice(&self.orient);
        self.scratch = self.improve_and_report(board, self.score, shared, control, nodes, restart);
    }

    /// Polishes `board` (scoring `score`): swaps two tiles of the scan's
    /// last part (each turned its best way) or turns one while that raises
    /// the score, and with reassignment on, reassigns its tiles (then
    /// swaps again). Reports it if it then beats every board reported.
    /// Returns the board (its buffer, for reuse).
    pub(super) fn improve_and_report(
        &mut self,
        mut board: Vec<u32>,
        score: u32,
        shared: &Shared,
        control: &Control,
        nodes: u64,
        restart: u64,
    ) -> Vec<u32> {
        let mut gained = polish(self.plan, &mut board);
        if let Some(stale) = self.plan.reassign {
            let more = self
                .reassigner
                .improve(self.plan, &mut board, stale, control);
            if more > 0 {
                gained += more + polish(self.plan, &mut board);
            }
        }
        if gained > 0 {
            let saved = self.score;
            std::mem::swap(&mut self.orient, &mut board);
            self.score = score + gained;
            self.report_polished(shared, control, nodes, restart);
            std::mem::swap(&mut self.orient, &mut board);
            self.score = saved;
        }
        board
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::best::BestOptions;
    use crate::model::{Placement, Puzzle};

    /// Eternity II (starter only) and its plan with the default options.
    pub(in crate::best) fn eternity2() -> (Puzzle, Plan) {
        let puzzle = crate::parse::parse(
            include_str!("../../../../puzzles/edge/eternity2.toml"),
            "eternity2.toml",
            None,
        )
        .unwrap();
        let plan = Plan::new(&puzzle, &BestOptions::default()).unwrap();
        (puzzle, plan)
    }

    /// The tiles in a board order that fits the frame (each in its first
    /// turn that does) but matches few inner edges; the hints in place.
    pub(in crate::best) fn poor_board(plan: &Plan, tiles: usize) -> Vec<u32> {
        let mut board = vec![EMPTY; plan.cells];
        let mut used = vec![false; tiles];
        for &(cell, o) in &plan.hinted {
            board[cell] = o;
            used[o as usize / 4] = true;
        }
        for (cell, slot) in board.iter_mut().enumerate() {
            if *slot != EMPTY {
                continue;
            }
            let tile = (0..tiles as u32)
                .find(|&t| !used[t as usize] && turns_at(plan, cell, t).next().is_some())
                .unwrap();
            used[tile as usize] = true;
            *slot = turns_at(plan, cell, tile).next().unwrap();
        }
        board
    }

    /// The independent scorer's count of a whole board.
    pub(in crate::best) fn rescore(puzzle: &Puzzle, board: &[u32]) -> u32 {
        let placements: Vec<Option<Placement>> = board
            .iter()
            .map(|&o| {
                Some(Placement {
                    tile: (o / 4) as u16,
                    rotation: (o % 4) as u8,
                })
            })
            .collect();
        crate::score::score(puzzle, &placements).unwrap()
    }

    #[test]
    fn polishing_gains_what_the_scorer_recounts() {
        let (puzzle, plan) = eternity2();
        let mut board = poor_board(&plan, puzzle.tiles.len());
        let before = rescore(&puzzle, &board);
        let gained = polish(&plan, &mut board);
        assert!(
            gained > 10,
            "swaps find matches on a random board: {gained}"
        );
        assert_eq!(rescore(&puzzle, &board), before + gained);
        // The hint never moves.
        assert_eq!(board[plan.hinted[0].0], plan.hinted[0].1);
    }
}
