//! A contract test kit for engines (feature `testkit`).
//!
//! Every engine promises the drivers the same things: the counts and node
//! totals do not depend on how many threads walk the tree or on how it is
//! cut into shards; [`Tree::probe`] walks the same tree [`Tree::node`]
//! describes; and every solution it reports is a real one. [`check`] runs
//! a tree through all of these and says which promise broke. Each family's
//! tests call it on each of their engines with the family's independent
//! verifier, so a new engine is checked the day it is written.

use crate::estimate::SplitMix64;
use crate::{run, Control, Counts, NoSuchNode, NodeKind, Report, RunConfig, Shard, Tree, Weight};
use std::ops::ControlFlow;

/// What [`check`] runs.
#[derive(Clone, Debug)]
pub struct Contract {
    /// Thread counts from 1 to this are compared with one thread.
    pub max_threads: usize,
    /// Each of these shard counts is run shard by shard and the shards
    /// added up.
    pub shard_counts: Vec<usize>,
    /// Random probes compared with the walk [`Tree::node`] describes.
    pub probes: u32,
    /// Seed of the probes' choices.
    pub seed: u64,
    /// Whether node totals must match too. They must for an engine whose
    /// tree depends only on the puzzle; an engine that learns while it
    /// runs (a memo of impossible regions, one per thread) prunes more or
    /// less depending on how the tree was cut, and only its counts must
    /// match.
    pub same_nodes: bool,
}

impl Default for Contract {
    fn default() -> Self {
        Contract {
            max_threads: 4,
            shard_counts: vec![1, 2, 3, 7],
            probes: 100,
            seed: 1,
            same_nodes: true,
        }
    }
}

/// A promise of the [`Tree`] contract that an engine broke.
#[derive(Debug, thiserror::Error)]
pub enum Violation {
    /// A run did not finish.
    #[error("{run}: the search did not finish")]
    Incomplete {
        /// Which run.
        run: String,
    },
    /// Counts differ from the one-thread run's.
    #[error("{run}: counts {got:?}, one thread counted {expected:?}")]
    Counts {
        /// Which run.
        run: String,
        /// The one-thread counts.
        expected: Box<Counts>,
        /// This run's.
        got: Box<Counts>,
    },
    /// Node totals differ from the one-thread run's.
    #[error("{run}: {got} nodes, one thread visited {expected}")]
    Nodes {
        /// Which run.
        run: String,
        /// The one-thread total.
        expected: u64,
        /// This run's.
        got: u64,
    },
    /// The number of solutions passed out differs.
    #[error("{run}: {got} solutions passed out, one thread passed {expected}")]
    Reported {
        /// Which run.
        run: String,
        /// The one-thread number.
        expected: u64,
        /// This run's.
        got: u64,
    },
    /// A solution the verifier refused.
    #[error("{run}: a reported solution is wrong: {why}")]
    Wrong {
        /// Which run.
        run: String,
        /// The verifier's reason.
        why: String,
    },
    /// A solution reported with weight zero (a duplicate must not be reported).
    #[error("{run}: a solution was reported with weight zero")]
    ZeroWeight {
        /// Which run.
        run: String,
    },
    /// A probe saw another tree than `node` describes.
    #[error("probe {probe}: {why}")]
    Probe {
        /// Which probe, from 0.
        probe: u32,
        /// What differed.
        why: String,
    },
    /// A path the engine itself produced was refused.
    #[error(transparent)]
    NoSuchNode(#[from] NoSuchNode),
}

/// Runs the tree made by `make` through the contract: one thread, then
/// 2..=`max_threads` threads, then each shard count; every solution passed
/// out is checked by `verify` (an independent verifier: `Err` says why a
/// solution is wrong), and `probes` random probes are replayed with
/// [`Tree::node`]. Returns the one-thread report.
pub fn check<T, M, V>(make: M, verify: V, contract: &Contract) -> Result<Report, Violation>
where
    T: Tree,
    M: Fn() -> T + Sync,
    <T::Solution as ToOwned>::Owned: Send,
    V: Fn(&T::Solution) -> Result<(), String>,
{
    let whole = checked_run(&make, &verify, "one thread", 1, None)?;
    for threads in 2..=contract.max_threads {
        let run_name = format!("{threads} threads");
        let report = checked_run(&make, &verify, &run_name, threads, None)?;
        compare(
            &run_name,
            &whole,
            &report.counts,
            contract.same_nodes.then(|| report.nodes.total()),
            report.reported,
        )?;
    }
    for &count in &contract.shard_counts {
        let mut weight = Weight::default();
        let mut nodes = 0u64;
        let mut reported = 0u64;
        for index in 0..count {
            let shard = Shard::new(index, count).expect("index below count");
            let run_name = format!("shard {index} of {count}");
            let report = checked_run(&make, &verify, &run_name, 2, Some(shard))?;
            weight += weight_of(&report.counts);
            nodes += report.nodes.total();
            reported += report.reported;
        }
        let kinds = make().count_kinds();
        let merged = Counts::from_weight(weight, kinds);
        compare(
            &format!("{count} shards added up"),
            &whole,
            &merged,
            contract.same_nodes.then_some(nodes),
            reported,
        )?;
    }
    check_probes(&make, contract)?;
    Ok(whole)
}

/// A run's report and the solutions it passed out.
pub type Solved<T> = (Report, Vec<<<T as Tree>::Solution as ToOwned>::Owned>);

/// Runs the tree made by `make` on `threads` threads under `control`
/// with every solution checked by `verify` (and refused with weight zero),
/// and returns the report and the solutions: what a family's tests use to
/// look at solutions one by one.
pub fn solve_verified<T, M, V>(
    make: M,
    verify: V,
    threads: usize,
    control: &Control,
) -> Result<Solved<T>, Violation>
where
    T: Tree,
    M: Fn() -> T + Sync,
    <T::Solution as ToOwned>::Owned: Send,
    V: Fn(&T::Solution) -> Result<(), String>,
{
    let mut found = Vec::new();
    let report = verified_run(&make, &verify, "the run", threads, None, control, |s| {
        found.push(s.to_owned())
    })?;
    Ok((report, found))
}

/// The (raw, distinct, unique) counts of a complete report, what the
/// literature's figures are compared with. Panics, naming what is missing,
/// when the run stopped early or a count is unknown: a test that asks for
/// exact counts has no use for partial ones.
pub fn complete_counts(report: &Report) -> (u128, u128, u128) {
    assert!(
        report.complete,
        "the run stopped before the end of the tree"
    );
    let known = |count: Option<u128>, what: &str| {
        count.unwrap_or_else(|| panic!("the run did not count {what} solutions"))
    };
    (
        known(report.counts.raw, "raw"),
        known(report.counts.distinct, "distinct"),
        known(report.counts.unique, "unique"),
    )
}

/// The workspace root, where the puzzles and the benchmark data live (the
/// search crate sits two folders below it).
pub fn workspace_root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The text of a file named relative to the workspace root; panics with the
/// path when it cannot be read.
pub fn workspace_file(path: &str) -> String {
    let full = workspace_root().join(path);
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()))
}

/// One complete run with every solution verified.
fn checked_run<T, M, V>(
    make: &M,
    verify: &V,
    run_name: &str,
    threads: usize,
    shard: Option<Shard>,
) -> Result<Report, Violation>
where
    T: Tree,
    M: Fn() -> T + Sync,
    <T::Solution as ToOwned>::Owned: Send,
    V: Fn(&T::Solution) -> Result<(), String>,
{
    let report = verified_run(
        make,
        verify,
        run_name,
        threads,
        shard,
        &Control::new(),
        |_| {},
    )?;
    if !report.complete {
        return Err(Violation::Incomplete {
            run: run_name.into(),
        });
    }
    Ok(report)
}

/// A run with every solution verified and then passed to `keep`.
fn verified_run<T, M, V>(
    make: &M,
    verify: &V,
    run_name: &str,
    threads: usize,
    shard: Option<Shard>,
    control: &Control,
    mut keep: impl FnMut(&T::Solution),
) -> Result<Report, Violation>
where
    T: Tree,
    M: Fn() -> T + Sync,
    <T::Solution as ToOwned>::Owned: Send,
    V: Fn(&T::Solution) -> Result<(), String>,
{
    let mut problem: Option<Violation> = None;
    let config = RunConfig {
        threads,
        shard,
        want_solutions: true,
    };
    let report = run(make, &config, control, |s: &T::Solution, w: Weight| {
        let broken = if w.is_zero() {
            Some(Violation::ZeroWeight {
                run: run_name.into(),
            })
        } else {
            verify(s).err().map(|why| Violation::Wrong {
                run: run_name.into(),
                why,
            })
        };
        match broken {
            Some(v) => {
                problem = Some(v);
                ControlFlow::Break(())
            }
            None => {
                keep(s);
                ControlFlow::Continue(())
            }
        }
    })?;
    match problem {
        Some(v) => Err(v),
        None => Ok(report),
    }
}

fn weight_of(c: &Counts) -> Weight {
    Weight {
        raw: c.raw.unwrap_or(0),
        distinct: c.distinct.unwrap_or(0),
        unique: c.unique.unwrap_or(0),
    }
}

fn compare(
    run_name: &str,
    whole: &Report,
    counts: &Counts,
    nodes: Option<u64>,
    reported: u64,
) -> Result<(), Violation> {
    if *counts != whole.counts {
        return Err(Violation::Counts {
            run: run_name.into(),
            expected: Box::new(whole.counts),
            got: Box::new(*counts),
        });
    }
    if let Some(nodes) = nodes.filter(|&n| n != whole.nodes.total()) {
        return Err(Violation::Nodes {
            run: run_name.into(),
            expected: whole.nodes.total(),
            got: nodes,
        });
    }
    if reported != whole.reported {
        return Err(Violation::Reported {
            run: run_name.into(),
            expected: whole.reported,
            got: reported,
        });
    }
    Ok(())
}

/// Each probe's choices replayed through [`Tree::node`] on a fresh tree:
/// the degrees met and the leaf reached must agree.
fn check_probes<T: Tree, M: Fn() -> T>(make: &M, contract: &Contract) -> Result<(), Violation> {
    let mut rng = SplitMix64::new(contract.seed);
    let mut prober = make();
    for probe in 0..contract.probes {
        let mut path = Vec::new();
        let walked = prober.probe(&mut |d| {
            let c = rng.below(d);
            path.push(c);
            c
        })?;
        let mut replay = make();
        let mut degrees = Vec::new();
        let mut at = Vec::new();
        let leaf = loop {
            match replay.node(&at)? {
                NodeKind::Inner(d) => {
                    degrees.push(d);
                    match path.get(at.len()) {
                        Some(&c) if c < d => at.push(c),
                        _ => {
                            return Err(Violation::Probe {
                                probe,
                                why: format!(
                                    "node says {at:?} has {d} children, and the probe went on with {:?}",
                                    path.get(at.len())
                                ),
                            })
                        }
                    }
                }
                leaf => break leaf,
            }
        };
        if degrees != walked.degrees || leaf != walked.leaf || at.len() != path.len() {
            return Err(Violation::Probe {
                probe,
                why: format!(
                    "the probe met degrees {:?} and leaf {:?}, node describes {degrees:?} and {leaf:?} along {path:?}",
                    walked.degrees, walked.leaf
                ),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::drive::tests::Toy;
    use crate::{NodeStats, Probe, Sink, Ticker};

    fn toy() -> Toy {
        Toy {
            depth: 4,
            fanout: 3,
        }
    }

    fn sum_divisible_by_3(s: &[u32]) -> Result<(), String> {
        if s.iter().sum::<u32>() % 3 == 0 {
            Ok(())
        } else {
            Err(format!("{s:?} does not sum to a multiple of 3"))
        }
    }

    #[test]
    fn a_sound_tree_keeps_the_contract() {
        let report = check(toy, sum_divisible_by_3, &Contract::default()).unwrap();
        assert_eq!(report.counts.raw, Some(27));
        assert_eq!(report.nodes.total(), 1 + 3 + 9 + 27 + 81);
    }

    #[test]
    fn a_wrong_solution_is_caught() {
        let refuse_leading_two = |s: &[u32]| {
            if s[0] == 2 {
                Err("starts with 2".to_string())
            } else {
                Ok(())
            }
        };
        let err = check(toy, refuse_leading_two, &Contract::default()).unwrap_err();
        assert!(matches!(err, Violation::Wrong { .. }), "{err}");
    }

    /// Toy whose probe claims one child fewer at the root than `node` says.
    struct LyingProbe(Toy);

    impl Tree for LyingProbe {
        type Solution = [u32];
        fn node(&mut self, path: &[u32]) -> Result<NodeKind, NoSuchNode> {
            self.0.node(path)
        }
        fn explore(
            &mut self,
            path: &[u32],
            sink: &mut dyn Sink<[u32]>,
            ticker: &mut Ticker<'_>,
            stats: &mut NodeStats,
        ) -> Result<ControlFlow<()>, NoSuchNode> {
            self.0.explore(path, sink, ticker, stats)
        }
        fn probe(&mut self, pick: &mut dyn FnMut(u32) -> u32) -> Result<Probe, NoSuchNode> {
            let mut probe = self.0.probe(pick)?;
            probe.degrees[0] -= 1;
            Ok(probe)
        }
    }

    #[test]
    fn a_probe_that_disagrees_with_node_is_caught() {
        let err = check(
            || LyingProbe(toy()),
            sum_divisible_by_3,
            &Contract::default(),
        )
        .unwrap_err();
        assert!(matches!(err, Violation::Probe { .. }), "{err}");
    }

    /// Toy whose explore skips the last child of the root when it explores
    /// from the root: one thread sees fewer nodes than a cut tree.
    struct ForgetfulExplore(Toy);

    impl Tree for ForgetfulExplore {
        type Solution = [u32];
        fn node(&mut self, path: &[u32]) -> Result<NodeKind, NoSuchNode> {
            self.0.node(path)
        }
        fn explore(
            &mut self,
            path: &[u32],
            sink: &mut dyn Sink<[u32]>,
            ticker: &mut Ticker<'_>,
            stats: &mut NodeStats,
        ) -> Result<ControlFlow<()>, NoSuchNode> {
            if path.is_empty() {
                stats.add(0, 1);
                for k in 0..self.0.fanout - 1 {
                    if self.0.explore(&[k], sink, ticker, stats)?.is_break() {
                        return Ok(ControlFlow::Break(()));
                    }
                }
                return Ok(ControlFlow::Continue(()));
            }
            self.0.explore(path, sink, ticker, stats)
        }
    }

    #[test]
    fn counts_that_depend_on_the_cut_are_caught() {
        let err = check(
            || ForgetfulExplore(toy()),
            sum_divisible_by_3,
            &Contract::default(),
        )
        .unwrap_err();
        assert!(
            matches!(err, Violation::Counts { .. } | Violation::Nodes { .. }),
            "{err}"
        );
    }
}
