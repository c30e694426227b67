//! The search as a whole: the worker threads, each with its own seed
//! stream, the best board they share (its score for a cheap test, and a
//! lock under which improvements are reported in order), and what the
//! search reports.

use super::plan::Plan;
use super::worker::{Caps, Restarts, Worker};
use super::{BestError, BestOptions, EMPTY};
use crate::model::{Placement, Puzzle};
use jigsolve_search::estimate::SplitMix64 as SplitMix;
use jigsolve_search::{Control, StopReason};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Mutex;
use std::time::Duration;

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
    /// How its restarts ended: their best scores and how far they got.
    pub restart_ends: Restarts,
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

/// The board shared by the workers: the bar (the best score the scan
/// itself reached, for a cheap test) and the lock under which improvements
/// are reported in order.
pub(super) struct Shared<'s> {
    /// The scan's best score, polishing aside: what the workers' rules
    /// (completions, polishing margins) measure against. A polished board
    /// is reported but does not raise it (see [`Worker::report_polished`]).
    pub(super) score: AtomicU32,
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
    let run_worker = |t: usize| {
        let seed = worker_seed(options.seed, first_stream + t as u64);
        let mut worker = Worker::new(puzzle, &plan, t, seed);
        let caps = Caps {
            restart: options.restart_nodes,
            stall: options.stall_nodes.unwrap_or(u64::MAX),
        };
        let (nodes, restarts, exhausted) = worker.run(caps, control, &shared);
        (
            nodes,
            restarts,
            exhausted,
            std::mem::take(&mut worker.restarts),
        )
    };
    // One worker runs on the calling thread: a host without threads (a
    // browser's Web Worker) searches too.
    let results: Vec<(u64, u64, bool, Restarts)> = if options.threads == 1 {
        vec![run_worker(0)]
    } else {
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..options.threads)
                .map(|t| {
                    let run_worker = &run_worker;
                    std::thread::Builder::new()
                        .name(format!("best-{t}"))
                        .stack_size(1 << 20)
                        .spawn_scoped(scope, move || run_worker(t))
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
        })?
    };
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
    let mut restart_ends = Restarts::default();
    for r in &results {
        restart_ends.add(&r.3);
    }
    Ok(BestReport {
        best,
        nodes,
        restarts,
        end,
        restart_ends,
    })
}

impl Worker<'_> {
    /// Reports the board as it is, a board the scan made (a path or a
    /// greedy completion), if it beats every board reported, and raises
    /// the bar to its score.
    pub(super) fn report(&mut self, shared: &Shared, control: &Control, nodes: u64, restart: u64) {
        self.best = self.best.max(self.score);
        shared.score.fetch_max(self.score, Ordering::Relaxed);
        self.report_board(shared, control, nodes, restart);
    }

    /// Reports the board as it is, a polished one, if it beats every board
    /// reported, leaving the bar where the scan put it: raised by the
    /// points polishing gains, the bar let fewer dead ends be completed and
    /// polished, and the mean best of 60 s fell (BENCHMARKS.md, issue 44's
    /// fourth step). A full score stops the search.
    pub(super) fn report_polished(
        &mut self,
        shared: &Shared,
        control: &Control,
        nodes: u64,
        restart: u64,
    ) {
        self.report_board(shared, control, nodes, restart);
        if self.score == self.plan.max {
            control.stop(StopReason::SolutionLimit);
        }
    }

    fn report_board(&mut self, shared: &Shared, control: &Control, nodes: u64, restart: u64) {
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
        (shared.sink)(&found);
        *best = Some(found);
    }
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
    fn max_score_counts_inner_edges() {
        assert_eq!(max_score(16, 16), 480);
        assert_eq!(max_score(1, 1), 0);
        assert_eq!(max_score(6, 6), 60);
    }
}
