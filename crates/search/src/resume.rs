//! Runs that survive being killed: checkpoints and resume.
//!
//! A resumable run cuts the tree the same way every time: into at least
//! [`RESUMABLE_SUBTREES`] subtrees in path order (below the shard's own cut
//! when the run is one shard of a split), whatever the number of threads, so
//! that a subtree is named by its index in the cut. Workers report each
//! subtree they finish with what it held (weight, solutions, nodes); the run
//! hands its [`Progress`] to a save callback every so often and once more at
//! the end, whatever ended it. Run again from the saved progress, it skips
//! the finished subtrees and reruns the unfinished ones from their start, so
//! nothing is counted twice. A kill therefore loses at most the work since
//! the last save and the unfinished parts of the subtrees that were running,
//! at most one per thread, each on average 1/4,096 of the tree by Knuth's
//! measure.
//!
//! A listing run records, for each unfinished subtree, how many of its
//! solutions were already handed out. A subtree is explored depth first by
//! one worker, so its solutions come in the same order every time, and a
//! resumed run skips that many of them (still counting their weight, since
//! the subtree is counted again from its start) before it hands any out.

use crate::clock::Instant;
use crate::drive::{join_workers, plan_until, shard_plan, CountingSink, Subtree, Tally};
use crate::tree::Sink;
use crate::{
    Control, Counts, NoSuchNode, NodeStats, Report, RunConfig, Shard, StopReason, Ticker, Tree,
    Weight,
};
use std::borrow::Borrow;
use std::collections::{BTreeMap, HashMap};
use std::hash::Hash;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

/// Subtrees of the cut a resumable run makes (at least; fewer when the tree
/// is smaller).
pub const RESUMABLE_SUBTREES: usize = 4096;

/// What a resumable run has done, over all its runs so far.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Progress {
    /// For each subtree of the cut, whether it is finished; empty before the
    /// first run.
    pub finished: Vec<bool>,
    /// The weights of the solutions of the finished subtrees.
    pub weight: Weight,
    /// Solutions found in the finished subtrees.
    pub found: u64,
    /// Nodes of the finished subtrees and of the cut above them.
    pub nodes: NodeStats,
    /// For subtrees not finished, the solutions already handed out.
    pub handed_out: BTreeMap<u32, u64>,
    /// Solutions handed out in all runs so far.
    pub delivered: u64,
    /// Seconds spent in all runs so far, up to the last save.
    pub seconds: f64,
}

impl Progress {
    /// Subtrees finished.
    pub fn finished_count(&self) -> usize {
        self.finished.iter().filter(|&&f| f).count()
    }

    /// True when every subtree of the cut is finished.
    pub fn is_complete(&self) -> bool {
        !self.finished.is_empty() && self.finished.iter().all(|&f| f)
    }
}

/// What goes wrong resuming.
#[derive(Debug, thiserror::Error)]
pub enum ResumeError {
    /// The engine was asked for a node it does not have.
    #[error(transparent)]
    Tree(#[from] NoSuchNode),
    /// The saved progress is of a cut of another size: another tree.
    #[error("the checkpoint was made for a cut into {saved} subtrees, but this search cuts its tree into {now}: it belongs to another puzzle or other options")]
    OtherCut {
        /// Subtrees in the saved progress.
        saved: usize,
        /// Subtrees in this run's cut.
        now: usize,
    },
    /// The save callback failed; the search was stopped.
    #[error("{0}")]
    Save(String),
}

/// How a resumable run saves its progress.
pub struct Checkpoints<'a> {
    /// The progress to start from ([`Progress::default`] for a new run).
    pub progress: Progress,
    /// Time between two saves.
    pub every: Duration,
    /// Saves the progress; an error stops the search.
    pub save: &'a mut dyn FnMut(&Progress) -> Result<(), String>,
}

/// What a worker tells the calling thread.
enum Message<S, P> {
    /// A solution of subtree `index` (listing runs only).
    Solution(usize, S, Weight),
    /// Subtree `index` ended, searched to its end or not, with the
    /// solutions (counting runs) and nodes it held, and what was gathered
    /// of its solutions (see [`Gather`]).
    Ended {
        index: usize,
        finished: bool,
        tally: Tally,
        part: P,
    },
}

/// What a counting run gathers from each subtree's solutions besides their
/// weights: nothing for a plain count, the weights per key for a count by
/// key. A part goes to the calling thread with its subtree's end, so the
/// caller's sum of the finished subtrees' parts always matches the
/// progress it saves.
trait Gather<S: ?Sized>: Sync {
    /// What one subtree's solutions give.
    type Part: Send;
    /// Whether the solutions must be seen one by one (otherwise an engine
    /// may count many at once without building them).
    const SEES_SOLUTIONS: bool;
    /// An empty part.
    fn part(&self) -> Self::Part;
    /// Adds one solution to `part`.
    fn add(&self, part: &mut Self::Part, solution: &S, weight: Weight);
}

/// Gathers nothing (a plain count).
struct Nothing;

impl<S: ?Sized> Gather<S> for Nothing {
    type Part = ();
    const SEES_SOLUTIONS: bool = false;
    fn part(&self) {}
    fn add(&self, _: &mut (), _: &S, _: Weight) {}
}

/// Gathers the weights of the solutions under each key.
struct ByKeys<F>(F);

impl<S: ?Sized, K: Eq + Hash + Send, F: Fn(&S) -> K + Sync> Gather<S> for ByKeys<F> {
    type Part = HashMap<K, Weight>;
    const SEES_SOLUTIONS: bool = true;
    fn part(&self) -> HashMap<K, Weight> {
        HashMap::new()
    }
    fn add(&self, part: &mut HashMap<K, Weight>, solution: &S, weight: Weight) {
        *part.entry((self.0)(solution)).or_default() += weight;
    }
}

/// Runs a search as [`run`](crate::run) does, resuming from and saving to
/// `checkpoints` (see the module docs). Returns this run's report, whose
/// counts, nodes and time include those of earlier runs, and the progress
/// last saved.
pub fn run_resumable<T, M, C>(
    make: M,
    config: &RunConfig,
    control: &Control,
    checkpoints: Checkpoints<'_>,
    consumer: C,
) -> Result<(Report, Progress), ResumeError>
where
    T: Tree,
    M: Fn() -> T + Sync,
    <T::Solution as ToOwned>::Owned: Send,
    C: FnMut(&T::Solution, Weight) -> ControlFlow<()>,
{
    resumable(
        make,
        config,
        control,
        checkpoints,
        consumer,
        &Nothing,
        |(), _| {},
    )
}

/// Counts every solution under `key(solution)` as
/// [`count_by`](crate::count_by) does (without keeping first solutions),
/// resuming from and saving to `checkpoints`. Each worker tallies a
/// subtree's solutions by key and hands the table to `ended` on the
/// calling thread when the subtree ends (`true`: searched to its end), the
/// thread that saves the progress: the caller keeps the finished subtrees'
/// tables with the progress it saves and adds the others only to what
/// this run shows. Returns this run's report and the progress last saved.
pub fn count_by_resumable<T, M, K, F, E>(
    make: M,
    threads: usize,
    shard: Option<Shard>,
    control: &Control,
    checkpoints: Checkpoints<'_>,
    key: F,
    ended: E,
) -> Result<(Report, Progress), ResumeError>
where
    T: Tree,
    M: Fn() -> T + Sync,
    <T::Solution as ToOwned>::Owned: Send,
    K: Eq + Hash + Send,
    F: Fn(&T::Solution) -> K + Sync,
    E: FnMut(HashMap<K, Weight>, bool),
{
    let config = RunConfig {
        threads,
        shard,
        want_solutions: false,
    };
    let consumer = |_: &T::Solution, _| ControlFlow::Continue(());
    resumable(
        make,
        &config,
        control,
        checkpoints,
        consumer,
        &ByKeys(key),
        ended,
    )
}

fn resumable<T, M, C, G, E>(
    make: M,
    config: &RunConfig,
    control: &Control,
    checkpoints: Checkpoints<'_>,
    mut consumer: C,
    gather: &G,
    mut ended: E,
) -> Result<(Report, Progress), ResumeError>
where
    T: Tree,
    M: Fn() -> T + Sync,
    <T::Solution as ToOwned>::Owned: Send,
    C: FnMut(&T::Solution, Weight) -> ControlFlow<()>,
    G: Gather<T::Solution>,
    E: FnMut(G::Part, bool),
{
    let started = Instant::now();
    let Checkpoints {
        mut progress,
        every,
        save,
    } = checkpoints;
    let seconds_before = progress.seconds;
    let threads = config.threads.max(1);
    let mut tree = make();
    let kinds = tree.count_kinds();
    let stop = || control.should_stop();
    // The report of the run: what `total` holds, and the time of every run.
    let report = |total: &Tally, subtrees: usize, complete: bool| Report {
        counts: Counts::from_weight(total.weight, kinds),
        reported: total.reported,
        nodes: total.nodes.clone(),
        elapsed: Duration::from_secs_f64(seconds_before) + started.elapsed(),
        complete,
        stopped: if complete {
            None
        } else {
            control.stop_reason()
        },
        subtrees: subtrees.max(1),
        threads,
        attempts: 0,
    };
    let saved = |progress: &Progress| Tally {
        weight: progress.weight,
        reported: progress.found,
        nodes: progress.nodes.clone(),
        incomplete: false,
    };

    // The same cut every time: the shard's subtrees (or the root), each
    // expanded to the same depth without a stop in between.
    let (roots, shard_above) = match config.shard {
        None => (vec![Subtree::root()], NodeStats::new()),
        Some(shard) => {
            let p = shard_plan(&mut tree, shard, &stop)?;
            (p.subtrees, p.above)
        }
    };
    let (cut, interrupted) = plan_until(&mut tree, roots, RESUMABLE_SUBTREES, &stop)?;
    drop(tree);
    let subtrees = cut.subtrees;
    if control.stop_reason().is_some() || interrupted {
        // Stopped before the cut was made: nothing to save.
        return Ok((report(&saved(&progress), subtrees.len(), false), progress));
    }
    if progress.finished.is_empty() {
        progress.finished = vec![false; subtrees.len()];
        progress.nodes.merge(&shard_above);
        progress.nodes.merge(&cut.above);
    } else if progress.finished.len() != subtrees.len() {
        return Err(ResumeError::OtherCut {
            saved: progress.finished.len(),
            now: subtrees.len(),
        });
    }

    // Progress within a shard counts the shard as the whole.
    let total_span: f64 = subtrees.iter().map(|s| s.span).sum::<f64>() + cut.dead_span;
    let scale = if total_span > 0.0 {
        1.0 / total_span
    } else {
        1.0
    };
    let done_before: f64 = subtrees
        .iter()
        .zip(&progress.finished)
        .filter(|(_, &f)| f)
        .map(|(s, _)| s.span)
        .sum();
    control.add_done((done_before + cut.dead_span) * scale);
    // Saved once before any work, so that a place that cannot be written
    // is found now and not after the first interval.
    save(&progress).map_err(ResumeError::Save)?;
    let todo: Vec<usize> = (0..subtrees.len())
        .filter(|&i| !progress.finished[i])
        .collect();

    let next = AtomicUsize::new(0);
    let workers = threads.min(todo.len()).max(1);
    let want_solutions = config.want_solutions;
    let (tx, rx) = mpsc::sync_channel::<Message<<T::Solution as ToOwned>::Owned, G::Part>>(256);
    // This run's share of the subtrees that did not finish.
    let mut partial = Tally::default();
    let mut save_error: Option<String> = None;

    std::thread::scope(|scope| -> Result<(), ResumeError> {
        let handles = crate::spawn_search_threads(scope, workers, control, |_| {
            let tx = tx.clone();
            let (next, todo, subtrees, make) = (&next, &todo, &subtrees, &make);
            move || -> Result<(), NoSuchNode> {
                let mut tree = make();
                let mut ticker = Ticker::new(control);
                while let Some(&index) = todo.get(next.fetch_add(1, Ordering::Relaxed)) {
                    if control.should_stop() {
                        break;
                    }
                    let subtree = &subtrees[index];
                    ticker.enter(subtree.span * scale);
                    let mut tally = Tally::default();
                    let mut part = gather.part();
                    let flow = if want_solutions {
                        let mut sink = |s: &T::Solution, w: Weight| {
                            if tx.send(Message::Solution(index, s.to_owned(), w)).is_err() {
                                return ControlFlow::Break(());
                            }
                            ControlFlow::Continue(())
                        };
                        tree.explore(&subtree.path, &mut sink, &mut ticker, &mut tally.nodes)?
                    } else if G::SEES_SOLUTIONS {
                        let mut counting = CountingSink {
                            weight: &mut tally.weight,
                            reported: &mut tally.reported,
                            control,
                        };
                        let mut sink = |s: &T::Solution, w: Weight| {
                            gather.add(&mut part, s, w);
                            counting.solution(s, w)
                        };
                        tree.explore(&subtree.path, &mut sink, &mut ticker, &mut tally.nodes)?
                    } else {
                        let mut sink = CountingSink {
                            weight: &mut tally.weight,
                            reported: &mut tally.reported,
                            control,
                        };
                        tree.explore(&subtree.path, &mut sink, &mut ticker, &mut tally.nodes)?
                    };
                    let finished = flow.is_continue();
                    if finished {
                        ticker.leave();
                    }
                    let ended = Message::Ended {
                        index,
                        finished,
                        tally,
                        part,
                    };
                    if tx.send(ended).is_err() || !finished {
                        break;
                    }
                }
                Ok(())
            }
        });
        drop(tx);

        // Solutions handed to this thread of subtrees not yet ended.
        let mut running: BTreeMap<usize, Tally> = BTreeMap::new();
        let mut consuming = true;
        let mut last_save = Instant::now();
        let mut save_now = |progress: &mut Progress, save_error: &mut Option<String>| {
            progress.seconds = seconds_before + started.elapsed().as_secs_f64();
            if save_error.is_none() {
                if let Err(e) = save(progress) {
                    *save_error = Some(e);
                    control.cancel();
                }
            }
        };
        loop {
            let wait = every.saturating_sub(last_save.elapsed());
            match rx.recv_timeout(wait) {
                Ok(Message::Solution(index, solution, weight)) => {
                    let entry = running.entry(index).or_default();
                    entry.weight += weight;
                    entry.reported += 1;
                    control.add_solutions(1);
                    let key = index as u32;
                    let skip = progress.handed_out.get(&key).copied().unwrap_or(0);
                    if entry.reported <= skip || !consuming {
                        // Handed out before the last stop, or no longer wanted.
                        continue;
                    }
                    progress.handed_out.insert(key, entry.reported);
                    progress.delivered += 1;
                    if consumer(solution.borrow(), weight).is_break() {
                        control.stop(StopReason::SolutionLimit);
                        consuming = false;
                    }
                }
                Ok(Message::Ended {
                    index,
                    finished,
                    mut tally,
                    part,
                }) => {
                    if let Some(listed) = running.remove(&index) {
                        tally.add(&listed);
                    }
                    ended(part, finished);
                    if finished {
                        progress.finished[index] = true;
                        progress.handed_out.remove(&(index as u32));
                        progress.weight += tally.weight;
                        progress.found += tally.reported;
                        progress.nodes.merge(&tally.nodes);
                    } else {
                        partial.add(&tally);
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
            if last_save.elapsed() >= every {
                save_now(&mut progress, &mut save_error);
                last_save = Instant::now();
            }
        }
        save_now(&mut progress, &mut save_error);
        join_workers(handles)?;
        Ok(())
    })?;
    if let Some(e) = save_error {
        return Err(ResumeError::Save(e));
    }

    let mut total = saved(&progress);
    total.add(&partial);
    let report = report(&total, subtrees.len(), progress.is_complete());
    Ok((report, progress))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::drive::tests::{expected, Toy};

    /// One run from `progress` stopped after about `nodes` nodes; returns
    /// the report, every progress saved, and the solutions handed out.
    fn one_run(
        progress: &Progress,
        threads: usize,
        want_solutions: bool,
        nodes: u64,
    ) -> (Report, Vec<Progress>, Vec<Vec<u32>>) {
        let control = Control::new().with_node_limit(nodes);
        let mut saves = Vec::new();
        let mut seen = Vec::new();
        let mut save = |p: &Progress| {
            saves.push(p.clone());
            Ok(())
        };
        let (report, last) = run_resumable(
            || Toy {
                depth: 7,
                fanout: 4,
            },
            &RunConfig {
                threads,
                shard: None,
                want_solutions,
            },
            &control,
            Checkpoints {
                progress: progress.clone(),
                every: Duration::ZERO,
                save: &mut save,
            },
            |s: &[u32], _| {
                seen.push(s.to_vec());
                ControlFlow::Continue(())
            },
        )
        .unwrap();
        assert_eq!(saves.last(), Some(&last));
        (report, saves, seen)
    }

    #[test]
    fn stopped_and_resumed_runs_hand_out_every_solution_once() {
        let (solutions, nodes) = expected(7, 4);
        for threads in [1, 3] {
            let mut progress = Progress::default();
            let mut seen = Vec::new();
            let mut runs = 0;
            loop {
                runs += 1;
                let (report, saves, more) = one_run(&progress, threads, true, 3_000);
                seen.extend(more);
                progress = saves.last().unwrap().clone();
                if report.complete {
                    assert_eq!(report.counts.raw, Some(solutions as u128));
                    assert_eq!(report.nodes.total(), nodes);
                    break;
                }
                assert!(runs < 100);
            }
            assert!(runs > 3, "{runs} runs");
            let handed = seen.len();
            seen.sort();
            seen.dedup();
            assert_eq!(
                seen.len(),
                handed,
                "{threads} threads: a solution handed out twice"
            );
            assert_eq!(seen.len() as u64, solutions);
            assert_eq!(progress.delivered, solutions);
        }
    }

    #[test]
    fn a_kill_loses_only_what_came_after_the_checkpoint_it_resumes_from() {
        let (solutions, nodes) = expected(7, 4);
        for threads in [1, 2] {
            let mut progress = Progress::default();
            let mut runs = 0;
            loop {
                runs += 1;
                let (report, saves, _) = one_run(&progress, threads, false, 4_000);
                if report.complete {
                    assert_eq!(report.counts.raw, Some(solutions as u128));
                    assert_eq!(report.nodes.total(), nodes);
                    break;
                }
                // Killed: what was saved half way through is all there is.
                progress = saves[saves.len() / 2].clone();
                assert!(runs < 200);
            }
            assert!(runs > 3, "{runs} runs");
        }
    }

    #[test]
    fn a_count_by_key_stopped_and_resumed_counts_every_key_once() {
        let toy = || Toy {
            depth: 7,
            fanout: 4,
        };
        let key = |s: &[u32]| s[..2].to_vec();
        let control = Control::new();
        let (_, whole) = crate::count_by(toy, 1, None, &control, key, 0, |_| ()).unwrap();
        let whole: HashMap<Vec<u32>, u128> =
            whole.into_iter().map(|(k, v)| (k, v.weight.raw)).collect();
        assert_eq!(whole.len(), 16);
        for threads in [1, 3] {
            let mut progress = Progress::default();
            let mut finished: HashMap<Vec<u32>, Weight> = HashMap::new();
            let mut runs = 0;
            loop {
                runs += 1;
                let control = Control::new().with_node_limit(3_000);
                let table = std::cell::RefCell::new(finished.clone());
                let mut shown = HashMap::<Vec<u32>, Weight>::new();
                let mut saves = Vec::new();
                let mut save = |p: &Progress| {
                    saves.push((p.clone(), table.borrow().clone()));
                    Ok(())
                };
                let checkpoints = Checkpoints {
                    progress: progress.clone(),
                    every: Duration::ZERO,
                    save: &mut save,
                };
                let ended = |part: HashMap<Vec<u32>, Weight>, done: bool| {
                    for (k, w) in part {
                        *shown.entry(k.clone()).or_default() += w;
                        if done {
                            *table.borrow_mut().entry(k).or_default() += w;
                        }
                    }
                };
                let (report, _) =
                    count_by_resumable(toy, threads, None, &control, checkpoints, key, ended)
                        .unwrap();
                (progress, finished) = saves.last().unwrap().clone();
                // This run's table and the saved one add up to its counts.
                let saved_raw: u128 = finished.values().map(|w| w.raw).sum();
                assert_eq!(saved_raw, progress.weight.raw);
                if report.complete {
                    let got: HashMap<Vec<u32>, u128> =
                        finished.iter().map(|(k, w)| (k.clone(), w.raw)).collect();
                    assert_eq!(got, whole, "{threads} threads");
                    break;
                }
                assert!(!shown.is_empty() || runs > 1);
                assert!(runs < 100);
            }
            assert!(runs > 3, "{runs} runs");
        }
    }

    #[test]
    fn progress_of_another_tree_is_refused() {
        let progress = Progress {
            finished: vec![false; 7],
            ..Progress::default()
        };
        let control = Control::new();
        let result = run_resumable(
            || Toy {
                depth: 7,
                fanout: 4,
            },
            &RunConfig::default(),
            &control,
            Checkpoints {
                progress,
                every: Duration::from_secs(60),
                save: &mut |_| Ok(()),
            },
            |_: &[u32], _| ControlFlow::Continue(()),
        );
        assert!(matches!(
            result,
            Err(ResumeError::OtherCut {
                saved: 7,
                now: 4096
            })
        ));
    }
}
