//! Finding some solutions fast: randomized restarts.
//!
//! The time a backtracking search takes to reach its first solution is
//! heavy-tailed: the same puzzle may take milliseconds with one candidate
//! order and hours with another, because an early mistake is only found out
//! deep in the tree (Gomes, Selman and Kautz 1998; the field notes report 2 s
//! against more than 60 s on one Eternity II puzzle). The remedy is to give
//! up on an attempt after a budget of nodes and start again in a different
//! order. [`run_restarts`] makes attempt `k` with a tree built by `make(k)`
//! (the engine shuffles its candidates with a seed derived from `k`) and a
//! budget of `base × luby(k + 1)` nodes (Luby, Sinclair and Zuckerman's
//! universal schedule: 1, 1, 2, 1, 1, 2, 4, …), so no budget is too small
//! for ever. Threads take attempts from a shared counter, a portfolio.
//!
//! A solution found twice (in two attempts) is delivered once. An attempt
//! that explores its whole tree within its budget has seen every solution,
//! so the search is then complete and its counts exact.

use crate::clock::Instant;
use crate::drive::join_workers;
use crate::{Control, Counts, NoSuchNode, NodeStats, Report, StopReason, Ticker, Tree, Weight};
use std::borrow::Borrow;
use std::collections::HashSet;
use std::hash::Hash;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;

/// The `i`-th term (from 1) of Luby's sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, …
pub fn luby(i: u64) -> u64 {
    let i = i.max(1);
    // Find k with 2^k - 1 >= i.
    let mut k = 1u32;
    while (1u64 << k) - 1 < i {
        k += 1;
    }
    if (1u64 << k) - 1 == i {
        1u64 << (k - 1)
    } else {
        luby(i - ((1u64 << (k - 1)) - 1))
    }
}

/// Runs attempts `make(0)`, `make(1)`, … on `threads` threads with Luby
/// budgets of `base` nodes until the consumer has what it wants, an attempt
/// finishes its tree, or the control stops the search.
pub fn run_restarts<T, M, C>(
    make: M,
    base: u64,
    threads: usize,
    control: &Control,
    mut consumer: C,
) -> Result<Report, NoSuchNode>
where
    T: Tree,
    M: Fn(u64) -> T + Sync,
    <T::Solution as ToOwned>::Owned: Send + Hash + Eq,
    C: FnMut(&T::Solution, Weight) -> ControlFlow<()>,
{
    let started = Instant::now();
    let threads = threads.max(1);
    let next_attempt = AtomicU64::new(0);
    let finished = AtomicBool::new(false);
    let kinds = make(0).count_kinds();
    let (tx, rx) = mpsc::sync_channel::<(<T::Solution as ToOwned>::Owned, Weight)>(256);
    let mut seen: HashSet<<T::Solution as ToOwned>::Owned> = HashSet::new();
    let mut total = Weight::default();
    let mut consumer_stopped = false;
    let mut nodes = NodeStats::new();
    let mut attempts = 0u64;

    std::thread::scope(|scope| -> Result<(), NoSuchNode> {
        let handles = crate::spawn_search_threads(scope, threads, control, |_| {
            let tx = tx.clone();
            let (make, next_attempt, finished) = (&make, &next_attempt, &finished);
            move || -> Result<(NodeStats, u64), NoSuchNode> {
                let mut stats = NodeStats::new();
                let mut made = 0;
                while !control.should_stop() && !finished.load(Ordering::Relaxed) {
                    let k = next_attempt.fetch_add(1, Ordering::Relaxed);
                    let budget = base.max(1).saturating_mul(luby(k + 1));
                    let mut tree = make(k);
                    made += 1;
                    let mut ticker = Ticker::new(control)
                        .with_budget(budget)
                        .with_abort(finished);
                    let mut sink = |s: &T::Solution, w: Weight| {
                        if tx.send((s.to_owned(), w)).is_err() {
                            return ControlFlow::Break(());
                        }
                        ControlFlow::Continue(())
                    };
                    let flow = tree.explore(&[], &mut sink, &mut ticker, &mut stats)?;
                    if flow.is_continue() {
                        // This attempt saw the whole tree.
                        finished.store(true, Ordering::Relaxed);
                    }
                }
                Ok((stats, made))
            }
        });
        drop(tx);

        for (solution, weight) in rx.iter() {
            if consumer_stopped || seen.contains::<<T::Solution as ToOwned>::Owned>(&solution) {
                continue;
            }
            total += weight;
            control.add_solutions(1);
            if consumer(solution.borrow(), weight).is_break() {
                consumer_stopped = true;
                control.stop(StopReason::SolutionLimit);
            }
            seen.insert(solution);
        }

        for (stats, made) in join_workers(handles)? {
            nodes.merge(&stats);
            attempts += made;
        }
        Ok(())
    })?;

    let stopped = control.stop_reason();
    let complete = finished.load(Ordering::Relaxed) && !consumer_stopped && stopped.is_none();
    Ok(Report {
        counts: Counts::from_weight(total, kinds),
        reported: seen.len() as u64,
        nodes,
        elapsed: started.elapsed(),
        complete,
        stopped,
        subtrees: 1,
        threads,
        attempts,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::drive::tests::Toy;

    #[test]
    fn a_big_enough_budget_completes_with_exact_counts() {
        for threads in [1, 3] {
            let control = Control::new();
            let mut n = 0;
            let report = run_restarts(
                |_| Toy {
                    depth: 4,
                    fanout: 3,
                },
                1_000_000,
                threads,
                &control,
                |_: &[u32], _| {
                    n += 1;
                    ControlFlow::Continue(())
                },
            )
            .unwrap();
            assert!(report.complete);
            assert_eq!(report.counts.raw, Some(27));
            assert_eq!(n, 27);
        }
    }

    #[test]
    fn small_budgets_restart_and_never_repeat_a_solution() {
        let control = Control::new();
        let mut seen = Vec::new();
        // Each attempt sees only a few nodes, so attempts repeat the first
        // solutions; each must be delivered once, and the limit respected.
        let report = run_restarts(
            |_| Toy {
                depth: 4,
                fanout: 3,
            },
            8,
            1,
            &control,
            |s: &[u32], _| {
                seen.push(s.to_vec());
                if seen.len() == 5 {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            },
        )
        .unwrap();
        let mut unique = seen.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), seen.len());
        assert_eq!(seen.len(), 5);
        assert!(!report.complete);
        assert!(report.attempts > 1, "more than one attempt");
        assert_eq!(report.stopped, Some(StopReason::SolutionLimit));
    }

    #[test]
    fn luby_sequence() {
        let v: Vec<u64> = (1..=15).map(luby).collect();
        assert_eq!(v, vec![1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }
}
