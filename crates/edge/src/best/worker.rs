//! One worker: restarts, each a depth-first walk of the shuffled
//! candidate lists that may break a placed side past a depth and within a
//! budget, given up after a node cap or when it stalls short of the breaks.

use super::plan::{Plan, Pos};
use super::reassign::Reassigner;
use super::search::Shared;
use super::tables::Table;
use super::{EMPTY, NONE, OPPOSITE};
use crate::model::Puzzle;
use jigsolve_search::estimate::SplitMix64 as SplitMix;
use jigsolve_search::{Control, StopReason, Ticker};
use std::sync::atomic::Ordering;

/// A dead end past the start of the breaks is completed when its score plus
/// this share (in percent) of the edges still open beats the best board.
/// Since the scan matches nearly every edge before its breaks begin, the
/// share sets how deep a dead end must be: with Eternity II's best near 455
/// of 480, at 70% about 80 edges may still be open (50 at half), and more
/// deep dead ends completed give polishing more boards near the best.
const COMPLETE_SHARE: u32 = 70;

/// The same share for a dead end in the exact early part, where most
/// restarts die: completing those at 70% while the best was low (a test
/// with late breaks and no pin breaks, best near 370) or at 85% on
/// Eternity II took the scan's whole time, one restart never ending (see
/// BENCHMARKS.md, "The completion bar").
const COMPLETE_SHARE_EXACT: u32 = 50;

/// Nodes between two polls of the control.
const POLL: u64 = 1 << 14;

/// When a restart ends: after `restart` nodes, or after `stall` nodes if
/// it has not reached the positions where breaks may be made.
#[derive(Clone, Copy)]
pub(super) struct Caps {
    pub(super) restart: u64,
    pub(super) stall: u64,
}

pub(super) struct Worker<'p> {
    pub(super) puzzle: &'p Puzzle,
    pub(super) plan: &'p Plan,
    pub(super) thread: usize,
    rng: SplitMix,
    pub(super) reassigner: Reassigner,
    pub(super) tables: Vec<Table>,
    /// Per cell: the orientation there, or `EMPTY`.
    pub(super) orient: Vec<u32>,
    /// Per cell: whether one of its sides is a break.
    broken: Vec<bool>,
    pub(super) used: Vec<bool>,
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
    pub(super) filled: Vec<usize>,
    /// A copy of the board for polishing.
    pub(super) scratch: Vec<u32>,
    pub(super) score: u32,
    breaks: u32,
    /// Sides of the quota colours shown by the tiles placed.
    quota_sides: u32,
    /// Whether the quotas still apply (they are dropped once they have cut
    /// the whole tree).
    quotas: bool,
    /// The best score this worker has seen (its own or another's).
    pub(super) best: u32,
    reported_any: bool,
    /// The restart running: its best score (a completion's included) and
    /// the most positions it filled.
    pub(super) restart_top: u32,
    restart_deepest: usize,
    /// The restart's best board so far (kept only when polishing is on:
    /// it is polished when the restart ends) and its score.
    restart_board: Vec<u32>,
    restart_board_score: u32,
    /// Every restart ended: how many ended with each best score, and with
    /// each number of positions filled at most.
    pub(super) restarts: Restarts,
}

/// How the restarts of a best-board search ended: counts by their best
/// score (index: the score) and by the most positions they filled (index:
/// positions), to see where restarts die and how good they get.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Restarts {
    /// Restarts by best score.
    pub by_score: Vec<u64>,
    /// Restarts by the most positions filled in scan order.
    pub by_depth: Vec<u64>,
    /// The positions a restart fills (the cells not pinned).
    pub positions: usize,
    /// The first position (from 0) where breaks may be made, pins' own
    /// breaks aside.
    pub breaks_from: usize,
}

impl Restarts {
    fn note(&mut self, score: u32, depth: usize) {
        let bump = |v: &mut Vec<u64>, i: usize| {
            if v.len() <= i {
                v.resize(i + 1, 0);
            }
            v[i] += 1;
        };
        bump(&mut self.by_score, score as usize);
        bump(&mut self.by_depth, depth);
    }

    /// Adds another worker's restarts.
    pub fn add(&mut self, other: &Restarts) {
        self.positions = self.positions.max(other.positions);
        self.breaks_from = self.breaks_from.max(other.breaks_from);
        for (mine, theirs) in [
            (&mut self.by_score, &other.by_score),
            (&mut self.by_depth, &other.by_depth),
        ] {
            if mine.len() < theirs.len() {
                mine.resize(theirs.len(), 0);
            }
            for (m, t) in mine.iter_mut().zip(theirs) {
                *m += t;
            }
        }
    }
}

impl<'p> Worker<'p> {
    pub(super) fn new(puzzle: &'p Puzzle, plan: &'p Plan, thread: usize, seed: u64) -> Worker<'p> {
        let n = plan.positions.len();
        let mut w = Worker {
            puzzle,
            plan,
            thread,
            rng: SplitMix::new(seed),
            reassigner: Reassigner::new(seed),
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
            restart_top: 0,
            restart_board: Vec::new(),
            restart_board_score: 0,
            restart_deepest: 0,
            restarts: Restarts {
                positions: n,
                breaks_from: plan.breaks_from,
                ..Restarts::default()
            },
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
                self.rng.shuffle(list);
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
    pub(super) fn run(
        &mut self,
        caps: Caps,
        control: &Control,
        shared: &Shared,
    ) -> (u64, u64, bool) {
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
            self.restart_top = self.score;
            self.restart_deepest = 0;
            self.restart_board_score = 0;
            self.restart_board.clear();
            let descent = self.descend(caps, &mut nodes, restarts, &mut ticker, control, shared);
            self.restarts.note(self.restart_top, self.restart_deepest);
            if !matches!(descent, Descent::Stopped) {
                self.improve_restart_best(shared, control, nodes, restarts);
            }
            match descent {
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

    /// Notes a leaf of the restart's tree: the board as it is, with
    /// `filled` positions filled.
    #[inline(always)]
    fn note_leaf(&mut self, filled: usize) {
        self.note_board();
        self.restart_deepest = self.restart_deepest.max(filled);
    }

    /// Notes the board as it is (a leaf, or a completed dead end) among the
    /// restart's boards: its best score, and with polishing a copy of its
    /// best board.
    #[inline(always)]
    pub(super) fn note_board(&mut self) {
        self.restart_top = self.restart_top.max(self.score);
        if self.score > self.restart_board_score && self.plan.polish.is_some() {
            self.restart_board_score = self.score;
            self.restart_board.clone_from(&self.orient);
        }
    }

    /// Polishes (and reassigns) the restart's best board when it is within
    /// the polishing margin of the best: a restart's best is a whole board
    /// more often than not, and many are a few points below the best.
    fn improve_restart_best(
        &mut self,
        shared: &Shared,
        control: &Control,
        nodes: u64,
        restart: u64,
    ) {
        let Some(margin) = self.plan.polish else {
            return;
        };
        self.best = self.best.max(shared.score.load(Ordering::Relaxed));
        if self.restart_board.is_empty() || self.restart_board_score + margin <= self.best {
            return;
        }
        let board = std::mem::take(&mut self.restart_board);
        let score = self.restart_board_score;
        self.restart_board = self.improve_and_report(board, score, shared, control, nodes, restart);
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
    pub(super) fn wanted(&self, pos: &Pos) -> [usize; 2] {
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
                        self.note_leaf(k + 1);
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
                    self.note_leaf(n);
                    self.remove(k);
                }
            } else {
                // A dead end: the board cannot grow here without more
                // breaks than allowed. Filling the rest greedily with the
                // tiles left gives a whole board, often better than any
                // partial one; worth the work only where it can win.
                if !self.placed_any[k] {
                    // The score only grows along a path, so a restart's
                    // best and deepest boards are at its leaves: noted
                    // there, not at every placement.
                    self.note_leaf(k);
                    let share = if k >= self.plan.breaks_from {
                        COMPLETE_SHARE
                    } else {
                        COMPLETE_SHARE_EXACT
                    };
                    if self.score + self.plan.rest[k] * share / 100 > self.best {
                        self.complete(k, shared, control, *nodes + here, restart);
                        since_poll += n as u64;
                    }
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
                    self.note_leaf(k);
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

    /// Empties the board down from position `k` (for a new restart).
    fn clear(&mut self, k: usize) {
        for j in (0..=k.min(self.plan.positions.len() - 1)).rev() {
            self.remove(j);
        }
    }
}

enum Descent {
    Capped,
    Exhausted,
    Stopped,
}
