//! Short searches that commands run one after another: the design commands
//! (`hints`, `generate --unique`) ask "is it unique?" and "is there a
//! solution unlike this one?" many times in one command, each a search
//! that stops early. Each search gets a fresh [`Control`] (a search that
//! stopped at the solution it wanted leaves its control stopped), all under
//! the command's one time limit and Ctrl-C.

use crate::clock;
use crate::engine::EngineOptions;
use crate::puzzle::Loaded;
use crate::running::{watch_signals, with_progress};
use crate::session::{Described, FoundSink, Job, Session};
use anyhow::{anyhow, Context, Result};
use jigsolve_search::{Control, Report, StopReason};
use serde_json::Value;
use std::ops::ControlFlow;
use std::sync::Arc;

/// What every search of one command shares.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Worker threads.
    pub threads: usize,
    /// Seconds from the start of the command after which searches stop.
    pub time_limit: Option<f64>,
    /// Show a progress bar on a terminal.
    pub progress: bool,
}

impl Limits {
    /// True once the time limit has passed or a signal stopped a search.
    pub fn out_of_time(&self) -> bool {
        self.time_limit.is_some_and(|s| clock::left_of(s).is_zero())
    }
}

/// How a search that hands its solutions to a callback ended.
pub struct Sought {
    /// Nodes, time, and why it stopped.
    pub report: Report,
    /// Set when a limit or a signal stopped it before the callback did.
    pub stopped: Option<StopReason>,
}

/// The job of every search here: all solutions passed out, the whole tree.
pub fn job(limits: &Limits) -> Job {
    Job {
        threads: limits.threads,
        shard: None,
        want_solutions: true,
        first_solutions_only: false,
    }
}

/// Runs `puzzle`'s search with `engine`'s options, handing each solution
/// record (the `solution` object of `solve --json`) to `keep` until it
/// breaks.
pub fn seek(
    puzzle: &dyn Loaded,
    engine: &EngineOptions,
    limits: &Limits,
    keep: &mut dyn FnMut(Value) -> ControlFlow<()>,
) -> Result<Sought> {
    let session = puzzle.session(engine)?;
    let described = session.described(&job(limits));
    seek_in(session.as_ref(), &described, limits, &mut |found, _| {
        keep(found.json())
    })
}

/// Runs a prepared session's search (described by `described` for the
/// [`job`] of `limits`), handing each solution and its weight to `keep`
/// until it breaks.
pub fn seek_in(
    session: &dyn Session,
    described: &Described,
    limits: &Limits,
    keep: &mut FoundSink<'_>,
) -> Result<Sought> {
    let mut control = Control::new().with_progress();
    if let Some(s) = limits.time_limit {
        control = control.with_time_limit(clock::left_of(s));
    }
    let control = Arc::new(control);
    watch_signals(&control);
    let ran = with_progress(&control, limits.progress, described.fraction_known, || {
        session.run(&job(limits), &control, keep)
    })
    .context("the search tree was cut at a path that does not exist (a bug)")?;
    crate::running::threads_made(&control)?;
    if let Some(fault) = ran.fault {
        return Err(anyhow!(Fault(fault)));
    }
    let stopped = match ran.report.stopped {
        None | Some(StopReason::SolutionLimit) => None,
        Some(reason) => Some(reason),
    };
    Ok(Sought {
        report: ran.report,
        stopped,
    })
}

/// A fault of the engine that leaves a search's answer unknown (exact
/// arithmetic that overflowed): callers that can try another puzzle
/// (`generate --unique`) tell it from other errors.
#[derive(Debug)]
pub struct Fault(pub String);

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Fault {}

/// The answer to "is it unique?".
pub enum Uniqueness {
    /// Exactly one solution (as listed: one per symmetry class unless the
    /// options say otherwise).
    Unique,
    /// No solution.
    None,
    /// At least two: the first one listed.
    Several(Value),
    /// A limit or a signal stopped the search first.
    Unknown(StopReason),
}

/// Whether `puzzle` has exactly one solution as `engine`'s options list
/// them, stopping at the second; with the nodes it took.
pub fn uniqueness(
    puzzle: &dyn Loaded,
    engine: &EngineOptions,
    limits: &Limits,
) -> Result<(Uniqueness, u64)> {
    let mut found: Vec<Value> = Vec::new();
    let sought = seek(puzzle, engine, limits, &mut |record| {
        found.push(record);
        if found.len() >= 2 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    })?;
    let nodes = sought.report.nodes.total();
    let mut found = found.into_iter();
    let answer = match (found.next(), found.next(), sought.stopped) {
        (Some(a), Some(_), _) => Uniqueness::Several(a),
        (_, _, Some(reason)) => Uniqueness::Unknown(reason),
        (Some(_), None, None) => Uniqueness::Unique,
        (None, _, None) => Uniqueness::None,
    };
    Ok((answer, nodes))
}
