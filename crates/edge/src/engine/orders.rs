//! Choosing the scan order: every concrete order is prepared and the size
//! of its search tree estimated from random probes (Knuth's estimator); the
//! smallest wins, after more probes when the two best are close.

use super::{Options, Prepared, Solver};
use crate::model::Puzzle;
use crate::order::ScanOrder;
use jigsolve_search::clock::Instant;
use jigsolve_search::estimate::{estimate, SplitMix64};
use std::sync::Arc;

/// The concrete scan orders with the size of their search trees as random
/// probes estimate it (Knuth's estimator, a fixed seed), smallest first.
pub fn rank_orders(puzzle: &Puzzle, options: Options) -> Vec<(ScanOrder, f64)> {
    let mut ranked: Vec<(ScanOrder, f64)> = ScanOrder::CONCRETE
        .iter()
        .map(|&order| {
            (
                order,
                estimated_size(Prepared::with_order(puzzle, options, order)),
            )
        })
        .collect();
    ranked.sort_by(|a, b| a.1.total_cmp(&b.1));
    ranked
}

fn estimated_size(prep: Prepared) -> f64 {
    const PROBES: u64 = 256;
    probed_size(&mut Solver::new(Arc::new(prep)), PROBES, 0)
}

/// Knuth's estimate of the tree's size from `probes` random probes, with
/// the random numbers of a fixed seed moved on by `round` (so that a second
/// round of probes walks other paths than the first).
fn probed_size(solver: &mut Solver, probes: u64, round: u64) -> f64 {
    probed_size_until(solver, probes, round, None)
}

/// [`probed_size`], in batches of 16 probes, stopping after the batch in
/// which `deadline` passes (the mean of the probes walked; at least one
/// batch). The same probes in the same order as one call: the estimate is
/// the mean of the probes, and every batch draws from the one generator.
fn probed_size_until(
    solver: &mut Solver,
    probes: u64,
    round: u64,
    deadline: Option<Instant>,
) -> f64 {
    const BATCH: u64 = 16;
    let mut rng = SplitMix64::new(0x005e_ed0f_ed6e ^ round.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    // Without a deadline, one batch of every probe: the estimate as it
    // always was, from one call site (so that it inlines as it did).
    let batch = if deadline.is_some() { BATCH } else { probes };
    let (mut sum, mut walked) = (0.0, 0u64);
    loop {
        let n = batch.min(probes - walked);
        let mean = match estimate(solver, n, &mut rng) {
            Ok(est) => est.nodes.mean,
            Err(_) => return f64::INFINITY,
        };
        if walked == 0 && n == probes {
            return mean;
        }
        sum += mean * n as f64;
        walked += n;
        if walked >= probes || deadline.is_some_and(|d| Instant::now() >= d) {
            return sum / walked as f64;
        }
    }
}

/// Probes per order in the first round of [`auto_order`], and at most in all.
const AUTO_PROBES: (u64, u64) = (256, 16384);

/// Picks the order whose search tree random probes estimate to be smallest.
///
/// Knuth's estimate is noisy on few colours, where the two best orders'
/// trees are often within a factor of two or three: with 256 probes each the
/// row order was picked for five of six generated 6 x 6 boards of 4 colours
/// whose frame-first trees were 1.4 to 2.8 times smaller (BENCHMARKS.md,
/// issue 15). So while the two best estimates are within a factor of 16
/// and the probes walked (probes times cells) are still small against the
/// best tree (under 1/256 of it), the two are probed again with 3 times as
/// many probes as they had (16,384 each at most), each new round averaged
/// in by its weight. The first round is [`rank_orders`]'s (the same seed),
/// so a clear choice is the same as there.
pub(super) fn auto_order(puzzle: &Puzzle, options: Options) -> Prepared {
    let (first, most) = AUTO_PROBES;
    let past = || options.deadline.is_some_and(|d| Instant::now() >= d);
    let mut ranked: Vec<(ScanOrder, f64, Solver)> = Vec::new();
    for order in ScanOrder::CONCRETE {
        // Past the deadline the orders probed so far decide (the first is
        // always prepared: the search needs one).
        if !ranked.is_empty() && past() {
            break;
        }
        let mut solver = Solver::new(Arc::new(Prepared::with_order(puzzle, options, order)));
        let size = probed_size_until(&mut solver, first, 0, options.deadline);
        ranked.push((order, size, solver));
    }
    let cells = (puzzle.rows * puzzle.cols) as f64;
    let mut probes = first;
    loop {
        ranked.sort_by(|a, b| a.1.total_cmp(&b.1));
        if ranked.len() < 2 || past() {
            break;
        }
        let (best, second) = (ranked[0].1, ranked[1].1);
        let walked = probes as f64 * cells;
        if second >= 16.0 * best || probes >= most || walked * 256.0 > best {
            break;
        }
        for (_, size, solver) in &mut ranked[..2] {
            let more = probed_size_until(solver, 3 * probes, probes, options.deadline);
            *size = (*size + 3.0 * more) / 4.0;
        }
        probes *= 4;
    }
    let (_, _, solver) = ranked.swap_remove(0);
    drop(ranked);
    let mut prep = Arc::try_unwrap(solver.prep).expect("the probing solver held the only copy");
    prep.options = options;
    prep
}
