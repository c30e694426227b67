//! Counting solutions by a key, every thread on its own (the goals of a
//! puzzle that leaves cells open: each date of a calendar).
//!
//! [`run`](crate::run) hands every solution to one consumer on the calling
//! thread, through a channel: millions of solutions then cost more in the
//! hand-over than in the search (the weekday calendar's 4.9 million: 22 s
//! on two threads, where the count alone takes 12). Here each worker keys
//! the solutions it finds and adds their weights in a table of its own; the
//! tables are added up at the end.

use crate::clock::Instant;
use crate::drive::{join_workers, plan_until, shard_roots, Shard, SUBTREES_PER_THREAD};
use crate::{Control, Counts, NoSuchNode, NodeStats, Report, StopReason, Ticker, Tree, Weight};
use std::collections::HashMap;
use std::hash::Hash;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// One key's share of a search counted by key: its weights, and the first
/// solutions found under it, as shown (at most the number asked for).
#[derive(Clone, Debug)]
pub struct ByKey<V> {
    /// The weights of its solutions, added.
    pub weight: Weight,
    /// The first solutions found under it (which ones depends on the
    /// threads: each worker keeps its first).
    pub first: Vec<V>,
}

// (Not derived: that would ask `V: Default`, which an empty list does not need.)
impl<V> Default for ByKey<V> {
    fn default() -> Self {
        ByKey {
            weight: Weight::default(),
            first: Vec::new(),
        }
    }
}

/// Counts every solution under `key(solution)` on `threads` threads, one
/// engine per worker from `make`, keeping the first `keep` solutions of
/// each key as `show` shows them. The report counts every solution; the
/// table says how the weights share out among the keys.
#[allow(clippy::type_complexity, clippy::too_many_arguments)]
pub fn count_by<T, M, K, F, V, S>(
    make: M,
    threads: usize,
    shard: Option<Shard>,
    control: &Control,
    key: F,
    keep: usize,
    show: S,
) -> Result<(Report, HashMap<K, ByKey<V>>), NoSuchNode>
where
    T: Tree,
    M: Fn() -> T + Sync,
    K: Eq + Hash + Send,
    F: Fn(&T::Solution) -> K + Sync,
    V: Send,
    S: Fn(&T::Solution) -> V + Sync,
{
    let started = Instant::now();
    let threads = threads.max(1);
    let mut tree = make();
    let kinds = tree.count_kinds();
    let mut nodes = NodeStats::new();
    let stop = || control.should_stop();
    let start = shard_roots(&mut tree, shard, control, &mut nodes)?;
    let roots = if threads == 1 {
        start
    } else {
        let (p, _) = plan_until(&mut tree, start, threads * SUBTREES_PER_THREAD, &stop)?;
        nodes.merge(&p.above);
        control.add_done(p.dead_span);
        p.subtrees
    };
    drop(tree);
    let next = AtomicUsize::new(0);
    let incomplete = AtomicBool::new(false);
    let workers = threads.min(roots.len()).max(1);
    let work = || -> Result<(HashMap<K, ByKey<V>>, NodeStats, u64), NoSuchNode> {
        let mut tree = make();
        let mut ticker = Ticker::new(control);
        let mut table: HashMap<K, ByKey<V>> = HashMap::new();
        let mut stats = NodeStats::new();
        let mut found = 0u64;
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(subtree) = roots.get(i) else { break };
            if control.should_stop() {
                incomplete.store(true, Ordering::Relaxed);
                break;
            }
            ticker.enter(subtree.span);
            let mut sink = |s: &T::Solution, w: Weight| {
                let entry = table.entry(key(s)).or_default();
                entry.weight += w;
                if entry.first.len() < keep {
                    entry.first.push(show(s));
                }
                found += 1;
                control.add_solutions(1);
                ControlFlow::Continue(())
            };
            if tree
                .explore(&subtree.path, &mut sink, &mut ticker, &mut stats)?
                .is_break()
            {
                incomplete.store(true, Ordering::Relaxed);
                break;
            }
            ticker.leave();
        }
        Ok((table, stats, found))
    };
    let results = if workers == 1 {
        vec![work()?]
    } else {
        std::thread::scope(|scope| {
            let handles = crate::spawn_search_threads(scope, workers, control, |_| &work);
            join_workers(handles)
        })?
    };
    let mut table: HashMap<K, ByKey<V>> = HashMap::new();
    let mut total = Weight::default();
    let mut reported = 0;
    for (part, stats, found) in results {
        nodes.merge(&stats);
        reported += found;
        for (k, part) in part {
            total += part.weight;
            match table.get_mut(&k) {
                Some(entry) => {
                    entry.weight += part.weight;
                    let room = keep.saturating_sub(entry.first.len());
                    entry.first.extend(part.first.into_iter().take(room));
                }
                None => {
                    table.insert(k, part);
                }
            }
        }
    }
    let stopped = control.stop_reason();
    let complete = !incomplete.load(Ordering::Relaxed)
        && stopped.is_none()
        && control.fewer_threads().is_none_or(|(_, made)| made > 0);
    Ok((
        Report {
            counts: Counts::from_weight(total, kinds),
            reported,
            nodes,
            elapsed: started.elapsed(),
            complete,
            stopped: stopped.filter(|r| *r != StopReason::SolutionLimit),
            subtrees: roots.len().max(1),
            threads: workers,
            attempts: 0,
        },
        table,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::drive::tests::Toy;

    /// The toy tree's solutions (paths whose sum is divisible by 3) keyed by
    /// their first step: every thread count gives the table a brute count
    /// gives.
    #[test]
    fn the_table_is_the_brute_count_by_key() {
        let (depth, fanout) = (4usize, 3u32);
        let mut want: HashMap<u32, u128> = HashMap::new();
        for n in 0..fanout.pow(depth as u32) {
            let path: Vec<u32> = (0..depth)
                .map(|k| n / fanout.pow(k as u32) % fanout)
                .collect();
            if path.iter().sum::<u32>() % 3 == 0 {
                *want.entry(path[0]).or_default() += 1;
            }
        }
        for threads in [1, 2, 5] {
            let control = Control::new();
            let (report, table) = count_by(
                || Toy { depth, fanout },
                threads,
                None,
                &control,
                |s: &[u32]| s[0],
                2,
                |s: &[u32]| s.to_vec(),
            )
            .unwrap();
            assert!(report.complete);
            // The first solutions kept are solutions of their key.
            for (k, by) in &table {
                assert!(by.first.len() == 2.min(by.weight.raw as usize));
                assert!(by
                    .first
                    .iter()
                    .all(|s| s[0] == *k && s.iter().sum::<u32>() % 3 == 0));
            }
            let got: HashMap<u32, u128> =
                table.into_iter().map(|(k, w)| (k, w.weight.raw)).collect();
            assert_eq!(got, want, "{threads} threads");
            assert_eq!(report.counts.raw, Some(want.values().sum()));
        }
        // Shards' tables add up to the whole one.
        for count in [1, 3, 7] {
            let mut sum: HashMap<u32, u128> = HashMap::new();
            for index in 0..count {
                let shard = Shard::new(index, count);
                let (report, table) = count_by(
                    || Toy { depth, fanout },
                    2,
                    shard,
                    &Control::new(),
                    |s: &[u32]| s[0],
                    0,
                    |_: &[u32]| (),
                )
                .unwrap();
                assert!(report.complete);
                for (k, by) in table {
                    *sum.entry(k).or_default() += by.weight.raw;
                }
            }
            assert_eq!(sum, want, "{count} shards");
        }
    }
}
