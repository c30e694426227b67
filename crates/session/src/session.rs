//! A puzzle made ready to search, as any front end drives it.
//!
//! A family turns a loaded puzzle and the options that shape its tree into
//! a [`Session`]: it says what its counts mean ([`Described`]), runs the
//! search and hands every solution to a callback as a [`Found`] that can
//! show itself as text, JSON or a picture, estimates the tree by random
//! probes and cuts it for shards. A session prints nothing and knows no
//! command-line option: the command line chooses its printer once and
//! feeds it, and a long-running server can drive the same session, stop it
//! through the [`Control`] and stream what it finds.
//!
//! Most of a session is the same for every search tree; a family writes an
//! [`Engine`] (how to make its tree and show its solutions) and
//! [`EngineSession`] does the rest.

use crate::source::Family;
use jigsolve_search::drive::{plan, Plan, Subtree};
use jigsolve_search::estimate::{estimate_until, Estimate, SplitMix64};
use jigsolve_search::trace::{trace, SearchTrace, TraceLimits};
use jigsolve_search::ByKey;
use jigsolve_search::{
    count_solutions, run, run_resumable, Branch, Checkpoints, Control, NaiveSpace, NoSuchNode,
    Progress, Report, ResumeError, RunConfig, Shard, Tree, Weight,
};
use serde_json::Value;
use std::collections::HashMap;
use std::ops::ControlFlow;

/// What the summary says about a puzzle and what its counts mean.
#[derive(Clone, Debug)]
pub struct Described {
    /// The family.
    pub family: Family,
    /// The puzzle's name.
    pub puzzle: String,
    /// What "raw" counts for this family.
    pub raw_means: String,
    /// What "distinct" counts.
    pub distinct_means: String,
    /// What "unique" counts, e.g. "board rotations removed too (4 symmetries)".
    pub unique_means: String,
    /// What one listed solution is, e.g. "one per unique solution".
    pub listed_means: String,
    /// Family-specific facts for the summary (scan order, symmetry handling).
    pub extras: Vec<(&'static str, Value)>,
    /// A hash of the puzzle's normalised content (see [`content_hash`]).
    pub puzzle_hash: String,
    /// The engine options that shape the search tree, for shard results.
    pub split: String,
    /// Whether the share of the tree done means anything while the search
    /// runs (it does not for randomized restarts).
    pub fraction_known: bool,
    /// The search space a method without pruning would walk, with its
    /// formula (what `--stats` compares the nodes with).
    pub naive: NaiveSpace,
}

/// A stable hash of a puzzle's normalised content: SHA-256, hex, shortened
/// to 16 bytes (collisions between puzzles are not a concern at that size).
pub fn content_hash(normalised: &str) -> String {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(normalised.as_bytes());
    digest[..16].iter().map(|b| format!("{b:02x}")).collect()
}

/// What one run is asked to do.
#[derive(Clone, Debug)]
pub struct Job {
    /// Worker threads (at least 1).
    pub threads: usize,
    /// Search only this share of the tree.
    pub shard: Option<Shard>,
    /// Whether solutions are passed to the callback (a count without a
    /// limit needs none).
    pub want_solutions: bool,
    /// Only the first solutions are wanted: a family may search for them
    /// by randomized restarts instead of walking the tree in order.
    pub first_solutions_only: bool,
}

impl Job {
    /// A walk of the whole tree on one thread: what describing, estimating
    /// and cutting a tree assume.
    pub fn whole_tree() -> Job {
        Job {
            threads: 1,
            shard: None,
            want_solutions: false,
            first_solutions_only: false,
        }
    }

    /// The driver's configuration for a walk of the whole tree.
    pub fn run_config(&self) -> RunConfig {
        RunConfig {
            threads: self.threads,
            shard: self.shard,
            want_solutions: self.want_solutions,
        }
    }
}

/// A solution as the session hands it out: it shows itself.
pub trait Found {
    /// As text, as `solve` prints it.
    fn text(&self) -> String;
    /// As the `solution` object of a JSON line (what `verify` reads).
    fn json(&self) -> Value;
    /// As an SVG picture under `caption`.
    fn svg(&self, caption: &str) -> String;
}

/// The cells a solution leaves open (a calendar's date), as the engine
/// numbers them (see [`Session::goal_names`]).
pub type Goal = Vec<u32>;

/// The outcome of [`Session::run`].
#[derive(Debug)]
pub struct Ran {
    /// Counts, nodes, time and how the run ended.
    pub report: Report,
    /// Something that went wrong inside the engine and makes the counts
    /// untrustworthy (exact arithmetic that overflowed), to be reported
    /// after the summary.
    pub fault: Option<String>,
}

/// Receives each solution and its weight; `Break` stops the search.
pub type FoundSink<'a> = dyn FnMut(&dyn Found, Weight) -> ControlFlow<()> + 'a;

/// A puzzle prepared for searching with one set of tree-shaping options.
pub trait Session: Send + Sync {
    /// What the counts of `job` will mean, and how the engine searches.
    fn described(&self, job: &Job) -> Described;

    /// Runs `job` under `control`, passing solutions to `found`.
    fn run(
        &self,
        job: &Job,
        control: &Control,
        found: &mut FoundSink<'_>,
    ) -> Result<Ran, NoSuchNode>;

    /// Runs `job` as [`run`](Session::run) does, walking the tree in order
    /// from the progress in `checkpoints` and saving progress through it;
    /// returns the progress last saved too.
    fn run_resumable(
        &self,
        job: &Job,
        control: &Control,
        checkpoints: Checkpoints<'_>,
        found: &mut FoundSink<'_>,
    ) -> Result<(Ran, Progress), ResumeError>;

    /// Knuth's estimate of the tree from at most `probes` random probes
    /// seeded with `seed`, asking `stop` before each probe.
    fn estimate(
        &self,
        probes: u64,
        seed: u64,
        stop: &dyn Fn() -> bool,
    ) -> Result<Estimate, NoSuchNode>;

    /// Counts on one thread under `control`: how fast the tree is walked.
    fn measure(&self, control: &Control) -> Result<Report, NoSuchNode>;

    /// The tree cut into at least `subtrees` subtrees (when it has them).
    fn plan(&self, subtrees: usize) -> Result<Plan, NoSuchNode>;

    /// The search tree recorded within `limits` on one thread, folded
    /// subtrees searched under `control`.
    fn trace(&self, limits: TraceLimits, control: &Control) -> Result<SearchTrace, NoSuchNode>;

    /// What the search chooses at each depth, when that is fixed before
    /// the search ("cell row 1, column 2" for a scan order); empty when the
    /// engine chooses anew at every node.
    fn level_labels(&self) -> Vec<String>;

    /// What a node of the trace branches on, named for the user ("cell
    /// (2, 0)", "piece F", "corner (1, 0.5)").
    fn branch_name(&self, branch: &Branch) -> String;

    /// Counts every solution of the whole tree (or of `shard`) under the
    /// cells it leaves open, each worker on its own, keeping the first
    /// `keep` solutions of each goal as JSON (`solve --by-open --limit`);
    /// `None` when the puzzle leaves no cells open.
    #[allow(clippy::type_complexity)]
    fn count_by_goal(
        &self,
        threads: usize,
        shard: Option<Shard>,
        keep: usize,
        control: &Control,
    ) -> Option<Result<(Ran, HashMap<Goal, ByKey<Value>>), NoSuchNode>>;

    /// Counts as [`count_by_goal`](Session::count_by_goal) does (keeping
    /// no first solutions), resuming from and saving to `checkpoints`;
    /// each subtree's table of goals goes to `ended` on this thread as it
    /// ends (see [`jigsolve_search::count_by_resumable`]). `None` when the
    /// puzzle leaves no cells open.
    #[allow(clippy::type_complexity)]
    fn count_by_goal_resumable(
        &self,
        job: &Job,
        control: &Control,
        checkpoints: Checkpoints<'_>,
        ended: &mut dyn FnMut(HashMap<Goal, Weight>, bool),
    ) -> Option<Result<(Ran, Progress), ResumeError>>;

    /// The names of a goal's open cells ("Jan", "25").
    fn goal_names(&self, goal: &[u32]) -> Vec<String>;
}

/// The solution type of an engine's tree.
pub type SolutionOf<E> = <<E as Engine>::Tree as Tree>::Solution;

/// What a family supplies for a session: its tree and how to show a
/// solution. [`EngineSession`] turns it into a [`Session`].
pub trait Engine: Send + Sync {
    /// The search tree.
    type Tree: Tree;

    /// A fresh tree (one per worker thread).
    fn tree(&self) -> Self::Tree;

    /// What the counts of `job` mean.
    fn described(&self, job: &Job) -> Described;

    /// A solution as text.
    fn text(&self, solution: &SolutionOf<Self>) -> String;

    /// A solution as the `solution` object of a JSON line.
    fn json(&self, solution: &SolutionOf<Self>) -> Value;

    /// A solution as an SVG picture.
    fn svg(&self, solution: &SolutionOf<Self>, caption: &str) -> String;

    /// The cells a solution leaves open, open group by open group, as
    /// numbers [`Engine::cell_name`] names; `None` when the puzzle leaves
    /// none open.
    fn goal(&self, _solution: &SolutionOf<Self>) -> Option<Goal> {
        None
    }

    /// The name of a cell a goal numbers.
    fn cell_name(&self, cell: u32) -> String {
        cell.to_string()
    }

    /// Whether solutions have goals (the puzzle leaves cells open).
    fn has_goals(&self) -> bool {
        false
    }

    /// Runs a job that wants only the first solutions in the family's own
    /// way (randomized restarts), or `None` to walk the tree in order.
    #[allow(clippy::type_complexity)]
    fn run_first(
        &self,
        _job: &Job,
        _control: &Control,
        _found: &mut dyn FnMut(&SolutionOf<Self>, Weight) -> ControlFlow<()>,
    ) -> Option<Result<Report, NoSuchNode>> {
        None
    }

    /// A fault met during the last run that makes its counts untrustworthy.
    fn fault(&self) -> Option<String> {
        None
    }

    /// What the search chooses at each depth, when fixed in advance (see
    /// [`Session::level_labels`]).
    fn level_labels(&self) -> Vec<String> {
        Vec::new()
    }

    /// What a node branches on, named for the user (see
    /// [`Session::branch_name`]); the default names the engine's indices.
    fn branch_name(&self, branch: &Branch) -> String {
        default_branch_name(branch)
    }
}

/// A branch named without knowing the puzzle: indices as the engine
/// numbers them, a corner by its coordinates.
pub fn default_branch_name(branch: &Branch) -> String {
    match *branch {
        Branch::Cell(c) => format!("cell number {c}"),
        Branch::Piece(t) => format!("piece type {t}"),
        Branch::Corner(x, y) => format!("corner ({}, {})", coordinate(x), coordinate(y)),
    }
}

/// A coordinate in at most three decimals, without trailing zeros.
fn coordinate(v: f64) -> String {
    let s = format!("{v:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".to_string()
    } else {
        s.to_string()
    }
}

/// An [`Engine`] as a [`Session`].
pub struct EngineSession<E>(pub E);

/// One solution of engine `E`, shown by `E`.
struct Shown<'a, E: Engine> {
    engine: &'a E,
    solution: &'a SolutionOf<E>,
}

impl<E: Engine> Found for Shown<'_, E> {
    fn text(&self) -> String {
        self.engine.text(self.solution)
    }
    fn json(&self) -> Value {
        self.engine.json(self.solution)
    }
    fn svg(&self, caption: &str) -> String {
        self.engine.svg(self.solution, caption)
    }
}

impl<E: Engine> Session for EngineSession<E>
where
    <SolutionOf<E> as ToOwned>::Owned: Send,
{
    fn described(&self, job: &Job) -> Described {
        self.0.described(job)
    }

    fn run(
        &self,
        job: &Job,
        control: &Control,
        found: &mut FoundSink<'_>,
    ) -> Result<Ran, NoSuchNode> {
        let engine = &self.0;
        let mut show =
            |solution: &SolutionOf<E>, weight: Weight| found(&Shown { engine, solution }, weight);
        let first = if job.first_solutions_only {
            engine.run_first(job, control, &mut show)
        } else {
            None
        };
        let report = match first {
            Some(report) => report?,
            None => run(|| engine.tree(), &job.run_config(), control, show)?,
        };
        Ok(Ran {
            report,
            fault: engine.fault(),
        })
    }

    fn run_resumable(
        &self,
        job: &Job,
        control: &Control,
        checkpoints: Checkpoints<'_>,
        found: &mut FoundSink<'_>,
    ) -> Result<(Ran, Progress), ResumeError> {
        let engine = &self.0;
        let show =
            |solution: &SolutionOf<E>, weight: Weight| found(&Shown { engine, solution }, weight);
        let (report, progress) = run_resumable(
            || engine.tree(),
            &job.run_config(),
            control,
            checkpoints,
            show,
        )?;
        Ok((
            Ran {
                report,
                fault: engine.fault(),
            },
            progress,
        ))
    }

    fn estimate(
        &self,
        probes: u64,
        seed: u64,
        stop: &dyn Fn() -> bool,
    ) -> Result<Estimate, NoSuchNode> {
        estimate_until(&mut self.0.tree(), probes, &mut SplitMix64::new(seed), stop)
    }

    fn measure(&self, control: &Control) -> Result<Report, NoSuchNode> {
        count_solutions(|| self.0.tree(), 1, control)
    }

    fn plan(&self, subtrees: usize) -> Result<Plan, NoSuchNode> {
        plan(&mut self.0.tree(), vec![Subtree::root()], subtrees)
    }

    fn trace(&self, limits: TraceLimits, control: &Control) -> Result<SearchTrace, NoSuchNode> {
        trace(&mut self.0.tree(), limits, control)
    }

    fn level_labels(&self) -> Vec<String> {
        self.0.level_labels()
    }

    fn branch_name(&self, branch: &Branch) -> String {
        self.0.branch_name(branch)
    }

    fn count_by_goal_resumable(
        &self,
        job: &Job,
        control: &Control,
        checkpoints: Checkpoints<'_>,
        ended: &mut dyn FnMut(HashMap<Goal, Weight>, bool),
    ) -> Option<Result<(Ran, Progress), ResumeError>> {
        let engine = &self.0;
        if !engine.has_goals() {
            return None;
        }
        let counted = jigsolve_search::count_by_resumable(
            || engine.tree(),
            job.threads,
            job.shard,
            control,
            checkpoints,
            |s: &SolutionOf<E>| engine.goal(s).unwrap_or_default(),
            ended,
        );
        Some(counted.map(|(report, progress)| {
            let fault = engine.fault();
            (Ran { report, fault }, progress)
        }))
    }

    fn count_by_goal(
        &self,
        threads: usize,
        shard: Option<Shard>,
        keep: usize,
        control: &Control,
    ) -> Option<Result<(Ran, HashMap<Goal, ByKey<Value>>), NoSuchNode>> {
        let engine = &self.0;
        if !engine.has_goals() {
            return None;
        }
        Some(
            jigsolve_search::count_by(
                || engine.tree(),
                threads,
                shard,
                control,
                |s: &SolutionOf<E>| engine.goal(s).unwrap_or_default(),
                keep,
                |s: &SolutionOf<E>| engine.json(s),
            )
            .map(|(report, table)| {
                (
                    Ran {
                        report,
                        fault: engine.fault(),
                    },
                    table,
                )
            }),
        )
    }

    fn goal_names(&self, goal: &[u32]) -> Vec<String> {
        goal.iter().map(|&c| self.0.cell_name(c)).collect()
    }
}
