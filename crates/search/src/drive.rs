//! Running a search on one core, on every core, or as one shard of many.
//!
//! The tree is cut by *paths*: [`plan`] expands the top of the tree level by
//! level until there are many more subtrees than workers, then each subtree is
//! explored on its own. Over-decomposition (64 subtrees per thread) stands in
//! for work stealing: a worker that finishes early takes the next subtree from
//! a shared counter, so one huge subtree at the end is the only imbalance left.
//!
//! Sharding uses the same cut. For `N` shards the tree is expanded until it
//! has at least `16·N` subtrees (or cannot be expanded further) and subtree `j`
//! in path order belongs to shard `j mod N`. The cut depends only on the tree
//! and `N`, so shards run on different machines, at different times, with
//! different thread counts, partition the tree exactly; nodes above the cut
//! are counted by shard 0 alone, so the node counts add up too.

use crate::clock::Instant;
use crate::{
    Control, Counter, Counts, NoSuchNode, NodeKind, NodeStats, Report, Sink, StopReason, Ticker,
    Tree, Weight,
};
use std::borrow::Borrow;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

/// Subtrees per worker thread when the tree is cut for threads.
pub const SUBTREES_PER_THREAD: usize = 64;
/// Subtrees per shard when the tree is cut for shards.
pub const SUBTREES_PER_SHARD: usize = 16;

/// A subtree, named by the path to its root.
#[derive(Clone, Debug, PartialEq)]
pub struct Subtree {
    /// Child indices from the root of the whole tree.
    pub path: Vec<u32>,
    /// Its share of the tree by Knuth's measure: the product of 1/d over the
    /// choices on its path.
    pub span: f64,
}

impl Subtree {
    /// The whole tree.
    pub fn root() -> Subtree {
        Subtree {
            path: Vec::new(),
            span: 1.0,
        }
    }
}

/// The tree cut into subtrees.
#[derive(Clone, Debug, Default)]
pub struct Plan {
    /// The subtrees, in path order (the order a depth-first search meets them).
    pub subtrees: Vec<Subtree>,
    /// Nodes expanded while cutting (all above the subtrees).
    pub above: NodeStats,
    /// Share of the tree in dead ends met while cutting.
    pub dead_span: f64,
}

/// Expands `roots` level by level until there are at least `min_subtrees`
/// subtrees or nothing is left to expand. Solutions met on the way stay in the
/// plan as one-node subtrees; dead ends are dropped (and counted in `above`).
pub fn plan<T: Tree + ?Sized>(
    tree: &mut T,
    roots: Vec<Subtree>,
    min_subtrees: usize,
) -> Result<Plan, NoSuchNode> {
    Ok(plan_until(tree, roots, min_subtrees, &|| false)?.0)
}

/// [`plan`], asking `stop` before each node it expands: on a big board one
/// node can take milliseconds to reach, and a plan of many subtrees must not
/// outlast a time limit or Ctrl-C. When `stop` says so the expansion ends
/// where it is, and the plan is still an exact cut of the tree (the subtrees
/// not yet expanded stay whole); the flag returned says it stopped early.
pub fn plan_until<T: Tree + ?Sized>(
    tree: &mut T,
    roots: Vec<Subtree>,
    min_subtrees: usize,
    stop: &dyn Fn() -> bool,
) -> Result<(Plan, bool), NoSuchNode> {
    // (subtree, known to be a leaf)
    let mut frontier: Vec<(Subtree, bool)> = roots.into_iter().map(|s| (s, false)).collect();
    let mut above = NodeStats::new();
    let mut dead_span = 0.0;
    let mut stopped = false;
    while !stopped && frontier.len() < min_subtrees && frontier.iter().any(|(_, leaf)| !leaf) {
        let mut next = Vec::with_capacity(frontier.len() * 4);
        let mut expanded_any = false;
        let mut rest = frontier.into_iter();
        while let Some((subtree, leaf)) = rest.next() {
            if !leaf && stop() {
                next.push((subtree, leaf));
                next.extend(rest.by_ref());
                stopped = true;
                break;
            }
            if leaf {
                next.push((subtree, true));
                continue;
            }
            match tree.node_counted(&subtree.path, &mut above)? {
                NodeKind::Inner(d) => {
                    expanded_any = true;
                    above.add(subtree.path.len(), 1);
                    let span = subtree.span / d as f64;
                    for k in 0..d {
                        let mut path = Vec::with_capacity(subtree.path.len() + 1);
                        path.extend_from_slice(&subtree.path);
                        path.push(k);
                        next.push((Subtree { path, span }, false));
                    }
                }
                NodeKind::Solution(_) => next.push((subtree, true)),
                NodeKind::DeadEnd => {
                    above.add(subtree.path.len(), 1);
                    dead_span += subtree.span;
                }
            }
        }
        frontier = next;
        if !expanded_any {
            break;
        }
    }
    let mut subtrees: Vec<Subtree> = frontier.into_iter().map(|(s, _)| s).collect();
    subtrees.sort_by(|a, b| a.path.cmp(&b.path));
    Ok((
        Plan {
            subtrees,
            above,
            dead_span,
        },
        stopped,
    ))
}

/// One share of a search split for several machines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shard {
    /// Which share, from 0.
    pub index: usize,
    /// How many shares.
    pub count: usize,
}

impl Shard {
    /// A shard; `None` unless `index < count`.
    pub fn new(index: usize, count: usize) -> Option<Shard> {
        (index < count).then_some(Shard { index, count })
    }
}

/// Cuts the tree for `shard.count` shards and keeps the subtrees of `shard`.
/// The nodes above the cut are kept only in shard 0's plan. `stop` is asked
/// before each node expanded; a cut it interrupts is not the one every shard
/// computes, so the plan is then empty (the caller's control says why).
pub fn shard_plan<T: Tree + ?Sized>(
    tree: &mut T,
    shard: Shard,
    stop: &dyn Fn() -> bool,
) -> Result<Plan, NoSuchNode> {
    let (whole, stopped) = plan_until(
        tree,
        vec![Subtree::root()],
        shard.count.saturating_mul(SUBTREES_PER_SHARD),
        stop,
    )?;
    if stopped {
        return Ok(Plan::default());
    }
    let subtrees = whole
        .subtrees
        .into_iter()
        .enumerate()
        .filter(|(j, _)| j % shard.count == shard.index)
        .map(|(_, s)| s)
        .collect();
    Ok(Plan {
        subtrees,
        above: if shard.index == 0 {
            whole.above
        } else {
            NodeStats::new()
        },
        dead_span: if shard.index == 0 {
            whole.dead_span
        } else {
            0.0
        },
    })
}

/// How to run a search.
#[derive(Clone, Debug)]
pub struct RunConfig {
    /// Worker threads (at least 1).
    pub threads: usize,
    /// Run only this share of the tree.
    pub shard: Option<Shard>,
    /// Pass solutions to the consumer; when false only their weights are summed.
    pub want_solutions: bool,
}

impl Default for RunConfig {
    fn default() -> Self {
        RunConfig {
            threads: 1,
            shard: None,
            want_solutions: true,
        }
    }
}

/// What the sinks of one worker (or of one subtree) gathered.
#[derive(Default)]
pub(crate) struct Tally {
    pub(crate) weight: Weight,
    pub(crate) reported: u64,
    pub(crate) nodes: NodeStats,
    pub(crate) incomplete: bool,
}

impl Tally {
    /// Adds the solutions and nodes of `other`.
    pub(crate) fn add(&mut self, other: &Tally) {
        self.weight += other.weight;
        self.reported += other.reported;
        self.nodes.merge(&other.nodes);
    }
}

/// The sink of a search that only counts: it adds weights and never looks at
/// a solution, so it offers engines its [`Counter`].
pub(crate) struct CountingSink<'a> {
    pub(crate) weight: &'a mut Weight,
    pub(crate) reported: &'a mut u64,
    pub(crate) control: &'a Control,
}

impl<S: ?Sized> Sink<S> for CountingSink<'_> {
    fn solution(&mut self, _: &S, weight: Weight) -> ControlFlow<()> {
        self.add(1, weight)
    }

    fn counter(&mut self) -> Option<&mut dyn Counter> {
        Some(self)
    }
}

impl Counter for CountingSink<'_> {
    fn add(&mut self, solutions: u64, each: Weight) -> ControlFlow<()> {
        *self.weight += each.times(solutions);
        *self.reported += solutions;
        self.control.add_solutions(solutions);
        ControlFlow::Continue(())
    }
}

/// Runs a search as `config` says, creating one engine per worker with `make`.
///
/// Solutions go to `consumer` on the calling thread, in depth-first order with
/// one thread and in the order found with several; `Break` from the consumer
/// stops every worker. Counts are the sums of the weights of the solutions the
/// consumer received (or, without `want_solutions`, of all solutions found), so
/// they are identical for any number of threads.
pub fn run<T, M, C>(
    make: M,
    config: &RunConfig,
    control: &Control,
    mut consumer: C,
) -> Result<Report, NoSuchNode>
where
    T: Tree,
    M: Fn() -> T + Sync,
    <T::Solution as ToOwned>::Owned: Send,
    C: FnMut(&T::Solution, Weight) -> ControlFlow<()>,
{
    let started = Instant::now();
    let threads = config.threads.max(1);
    let mut tree = make();
    let kinds = tree.count_kinds();
    let mut tally = Tally::default();

    let mut roots = shard_roots(&mut tree, config.shard, control, &mut tally.nodes)?;

    let subtree_count;
    if threads == 1 {
        subtree_count = roots.len();
        explore_all(
            &mut tree,
            &roots,
            config.want_solutions,
            control,
            &mut tally,
            &mut consumer,
        )?;
    } else {
        let (p, _) = plan_until(&mut tree, roots, threads * SUBTREES_PER_THREAD, &|| {
            control.should_stop()
        })?;
        tally.nodes.merge(&p.above);
        control.add_done(p.dead_span);
        roots = p.subtrees;
        subtree_count = roots.len();
        drop(tree);
        run_parallel(
            &make,
            &roots,
            threads,
            config.want_solutions,
            control,
            &mut tally,
            &mut consumer,
        )?;
    }

    let stopped = control.stop_reason();
    Ok(Report {
        counts: Counts::from_weight(tally.weight, kinds),
        reported: tally.reported,
        nodes: tally.nodes,
        elapsed: started.elapsed(),
        complete: !tally.incomplete && stopped.is_none(),
        stopped,
        subtrees: subtree_count.max(1),
        threads,
        attempts: 0,
    })
}

/// The subtrees a search of `shard` starts from (the root for the whole
/// tree), with progress counted within the shard; the nodes above the
/// shard's cut go to `nodes`.
pub(crate) fn shard_roots<T: Tree + ?Sized>(
    tree: &mut T,
    shard: Option<Shard>,
    control: &Control,
    nodes: &mut NodeStats,
) -> Result<Vec<Subtree>, NoSuchNode> {
    let Some(shard) = shard else {
        return Ok(vec![Subtree::root()]);
    };
    let p = shard_plan(tree, shard, &|| control.should_stop())?;
    nodes.merge(&p.above);
    let total: f64 = p.subtrees.iter().map(|s| s.span).sum();
    let mut subtrees = p.subtrees;
    if total > 0.0 {
        for s in &mut subtrees {
            s.span /= total;
        }
    }
    Ok(subtrees)
}

/// Counts every solution on `threads` threads under `control`, passing none
/// out (what `solve --count` asks of [`run`]).
pub fn count_solutions<T, M>(
    make: M,
    threads: usize,
    control: &Control,
) -> Result<Report, NoSuchNode>
where
    T: Tree,
    M: Fn() -> T + Sync,
    <T::Solution as ToOwned>::Owned: Send,
{
    let config = RunConfig {
        threads,
        shard: None,
        want_solutions: false,
    };
    run(make, &config, control, |_, _| ControlFlow::Continue(()))
}

fn explore_all<T, C>(
    tree: &mut T,
    roots: &[Subtree],
    want_solutions: bool,
    control: &Control,
    tally: &mut Tally,
    consumer: &mut C,
) -> Result<(), NoSuchNode>
where
    T: Tree,
    C: FnMut(&T::Solution, Weight) -> ControlFlow<()>,
{
    let mut ticker = Ticker::new(control);
    let mut weight = Weight::default();
    let mut reported = 0u64;
    for subtree in roots {
        // Asks the clock too: many small subtrees may pass without a poll.
        if control.should_stop() {
            tally.incomplete = true;
            break;
        }
        ticker.enter(subtree.span);
        let flow = if want_solutions {
            let mut sink = |s: &T::Solution, w: Weight| {
                weight += w;
                reported += 1;
                control.add_solutions(1);
                if consumer(s, w).is_break() {
                    control.stop(StopReason::SolutionLimit);
                    return ControlFlow::Break(());
                }
                ControlFlow::Continue(())
            };
            tree.explore(&subtree.path, &mut sink, &mut ticker, &mut tally.nodes)?
        } else {
            let mut sink = CountingSink {
                weight: &mut weight,
                reported: &mut reported,
                control,
            };
            tree.explore(&subtree.path, &mut sink, &mut ticker, &mut tally.nodes)?
        };
        if flow.is_break() {
            tally.incomplete = true;
            break;
        }
        ticker.leave();
    }
    tally.weight += weight;
    tally.reported += reported;
    Ok(())
}

fn run_parallel<T, M, C>(
    make: &M,
    roots: &[Subtree],
    threads: usize,
    want_solutions: bool,
    control: &Control,
    tally: &mut Tally,
    consumer: &mut C,
) -> Result<(), NoSuchNode>
where
    T: Tree,
    M: Fn() -> T + Sync,
    <T::Solution as ToOwned>::Owned: Send,
    C: FnMut(&T::Solution, Weight) -> ControlFlow<()>,
{
    let next = AtomicUsize::new(0);
    let incomplete = AtomicBool::new(false);
    let workers = threads.min(roots.len()).max(1);
    let (tx, rx) = mpsc::sync_channel::<(<T::Solution as ToOwned>::Owned, Weight)>(256);

    std::thread::scope(|scope| -> Result<(), NoSuchNode> {
        let handles = crate::spawn_search_threads(scope, workers, control, |_| {
            let tx = tx.clone();
            let next = &next;
            let incomplete = &incomplete;
            move || -> Result<Tally, NoSuchNode> {
                let mut tree = make();
                let mut ticker = Ticker::new(control);
                let mut local = Tally::default();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(subtree) = roots.get(i) else { break };
                    if control.should_stop() {
                        incomplete.store(true, Ordering::Relaxed);
                        break;
                    }
                    ticker.enter(subtree.span);
                    let flow = if want_solutions {
                        let mut sink = |s: &T::Solution, w: Weight| {
                            if tx.send((s.to_owned(), w)).is_err() {
                                return ControlFlow::Break(());
                            }
                            ControlFlow::Continue(())
                        };
                        tree.explore(&subtree.path, &mut sink, &mut ticker, &mut local.nodes)?
                    } else {
                        let mut sink = CountingSink {
                            weight: &mut local.weight,
                            reported: &mut local.reported,
                            control,
                        };
                        tree.explore(&subtree.path, &mut sink, &mut ticker, &mut local.nodes)?
                    };
                    if flow.is_break() {
                        incomplete.store(true, Ordering::Relaxed);
                        break;
                    }
                    ticker.leave();
                }
                Ok(local)
            }
        });
        drop(tx);

        // Deliver solutions on this thread; after a Break keep draining so
        // that no worker blocks on a full channel.
        let mut consuming = true;
        for (solution, weight) in rx.iter() {
            if !consuming {
                continue;
            }
            tally.weight += weight;
            tally.reported += 1;
            control.add_solutions(1);
            if consumer(solution.borrow(), weight).is_break() {
                control.stop(StopReason::SolutionLimit);
                consuming = false;
            }
        }

        for local in join_workers(handles)? {
            tally.add(&local);
        }
        Ok(())
    })?;
    if incomplete.load(Ordering::Relaxed) {
        tally.incomplete = true;
    }
    Ok(())
}

/// Waits for every worker; returns their results, or the first error any
/// of them met (after all have stopped). A worker's panic is re-raised.
pub(crate) fn join_workers<R>(
    handles: Vec<std::thread::ScopedJoinHandle<'_, Result<R, NoSuchNode>>>,
) -> Result<Vec<R>, NoSuchNode> {
    let mut results = Vec::with_capacity(handles.len());
    let mut first_error = None;
    for handle in handles {
        match handle.join() {
            Ok(Ok(r)) => results.push(r),
            Ok(Err(e)) => {
                first_error.get_or_insert(e);
            }
            Err(panic) => std::panic::resume_unwind(panic),
        }
    }
    match first_error {
        Some(e) => Err(e),
        None => Ok(results),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::{NodeKind, Sink};

    /// A test tree: every node at depth < `depth` has `fanout` children; a
    /// leaf is a solution when the sum of its path is divisible by 3.
    pub(crate) struct Toy {
        pub depth: usize,
        pub fanout: u32,
    }

    impl Tree for Toy {
        type Solution = [u32];

        fn node(&mut self, path: &[u32]) -> Result<NodeKind, NoSuchNode> {
            if path.len() > self.depth || path.iter().any(|&k| k >= self.fanout) {
                return Err(NoSuchNode {
                    path: path.to_vec(),
                });
            }
            if path.len() == self.depth {
                if path.iter().sum::<u32>() % 3 == 0 {
                    Ok(NodeKind::Solution(Weight::ONE))
                } else {
                    Ok(NodeKind::DeadEnd)
                }
            } else {
                Ok(NodeKind::Inner(self.fanout))
            }
        }

        fn explore(
            &mut self,
            path: &[u32],
            sink: &mut dyn Sink<[u32]>,
            ticker: &mut Ticker<'_>,
            stats: &mut NodeStats,
        ) -> Result<ControlFlow<()>, NoSuchNode> {
            let kind = self.node(path)?;
            stats.add(path.len(), 1);
            if ticker.poll(1, || 0.0).is_break() {
                return Ok(ControlFlow::Break(()));
            }
            match kind {
                NodeKind::Solution(w) => Ok(sink.solution(path, w)),
                NodeKind::DeadEnd => Ok(ControlFlow::Continue(())),
                NodeKind::Inner(d) => {
                    let mut child = path.to_vec();
                    child.push(0);
                    for k in 0..d {
                        *child.last_mut().unwrap() = k;
                        if self.explore(&child, sink, ticker, stats)?.is_break() {
                            return Ok(ControlFlow::Break(()));
                        }
                    }
                    Ok(ControlFlow::Continue(()))
                }
            }
        }
    }

    pub(crate) fn expected(depth: usize, fanout: u32) -> (u64, u64) {
        let mut solutions = 0;
        let leaves = (fanout as u64).pow(depth as u32);
        for i in 0..leaves {
            let mut x = i;
            let mut sum = 0;
            for _ in 0..depth {
                sum += x % fanout as u64;
                x /= fanout as u64;
            }
            if sum % 3 == 0 {
                solutions += 1;
            }
        }
        let nodes = (0..=depth).map(|d| (fanout as u64).pow(d as u32)).sum();
        (solutions, nodes)
    }

    fn run_toy(threads: usize, shard: Option<Shard>, want: bool) -> (Report, Vec<Vec<u32>>) {
        let control = Control::new();
        let mut seen = Vec::new();
        let report = run(
            || Toy {
                depth: 5,
                fanout: 4,
            },
            &RunConfig {
                threads,
                shard,
                want_solutions: want,
            },
            &control,
            |s: &[u32], _| {
                seen.push(s.to_vec());
                ControlFlow::Continue(())
            },
        )
        .unwrap();
        (report, seen)
    }

    #[test]
    fn counts_and_nodes_do_not_depend_on_threads() {
        let (solutions, nodes) = expected(5, 4);
        for threads in [1, 2, 3, 8] {
            for want in [true, false] {
                let (report, seen) = run_toy(threads, None, want);
                assert_eq!(
                    report.counts.raw,
                    Some(solutions as u128),
                    "threads {threads}"
                );
                assert_eq!(report.reported, solutions);
                assert_eq!(report.nodes.total(), nodes, "threads {threads}");
                assert!(report.complete);
                if want {
                    let mut seen = seen;
                    seen.sort();
                    seen.dedup();
                    assert_eq!(seen.len() as u64, solutions);
                }
            }
        }
    }

    #[test]
    fn shards_partition_the_tree() {
        let (solutions, nodes) = expected(5, 4);
        for count in [1, 2, 3, 7, 1000] {
            let mut total = 0;
            let mut total_nodes = 0;
            let mut all = Vec::new();
            for index in 0..count {
                for threads in [1, 2] {
                    let (report, seen) = run_toy(threads, Shard::new(index, count), true);
                    assert!(report.complete);
                    if threads == 1 {
                        total += report.counts.raw.unwrap();
                        total_nodes += report.nodes.total();
                        all.extend(seen);
                    }
                }
            }
            assert_eq!(total, solutions as u128, "{count} shards");
            assert_eq!(total_nodes, nodes, "{count} shards");
            all.sort();
            all.dedup();
            assert_eq!(all.len() as u64, solutions);
        }
    }

    #[test]
    fn a_consumer_break_stops_every_thread() {
        for threads in [1, 4] {
            let control = Control::new();
            let mut n = 0;
            let report = run(
                || Toy {
                    depth: 6,
                    fanout: 4,
                },
                &RunConfig {
                    threads,
                    shard: None,
                    want_solutions: true,
                },
                &control,
                |_: &[u32], _| {
                    n += 1;
                    if n == 3 {
                        ControlFlow::Break(())
                    } else {
                        ControlFlow::Continue(())
                    }
                },
            )
            .unwrap();
            assert_eq!(report.reported, 3);
            assert!(!report.complete);
            assert_eq!(report.stopped, Some(StopReason::SolutionLimit));
        }
    }

    #[test]
    fn a_plan_stopped_early_is_still_a_cut_of_the_whole_tree() {
        let (solutions, nodes) = expected(5, 4);
        for stop_after in [0, 1, 2, 5, 30] {
            let mut toy = Toy {
                depth: 5,
                fanout: 4,
            };
            let asked = std::cell::Cell::new(0);
            let stop = || {
                asked.set(asked.get() + 1);
                asked.get() > stop_after
            };
            let (p, stopped) = plan_until(&mut toy, vec![Subtree::root()], 500, &stop).unwrap();
            assert!(stopped, "stopped after {stop_after}");
            let span: f64 = p.subtrees.iter().map(|s| s.span).sum();
            assert!((span - 1.0).abs() < 1e-12);
            assert!(p.subtrees.windows(2).all(|w| w[0].path < w[1].path));
            // Exploring the subtrees finds every solution and node once.
            let control = Control::new();
            let mut ticker = Ticker::new(&control);
            let mut found = 0u64;
            let mut stats = p.above.clone();
            for s in &p.subtrees {
                let mut sink = |_: &[u32], _: Weight| {
                    found += 1;
                    ControlFlow::Continue(())
                };
                let flow = toy.explore(&s.path, &mut sink, &mut ticker, &mut stats);
                assert!(flow.unwrap().is_continue());
            }
            assert_eq!(found, solutions, "stopped after {stop_after}");
            assert_eq!(stats.total(), nodes, "stopped after {stop_after}");
        }
    }

    #[test]
    fn plan_sorts_subtrees_in_depth_first_order() {
        let mut toy = Toy {
            depth: 3,
            fanout: 3,
        };
        let p = plan(&mut toy, vec![Subtree::root()], 5).unwrap();
        assert_eq!(p.subtrees.len(), 9);
        assert!(p.subtrees.windows(2).all(|w| w[0].path < w[1].path));
        let span: f64 = p.subtrees.iter().map(|s| s.span).sum();
        assert!((span - 1.0).abs() < 1e-12);
        assert_eq!(p.above.total(), 1 + 3);
    }
}
