//! One search on the caller's thread, in every mode the page offers: a
//! solve or a count (or one shard of it), every goal counted, the best
//! board (one worker's share: its own seed), the search tree recorded.

use crate::{source_of, Emit};
use jigsolve_edge::best::{search_best, BestOptions, Improvement};
use jigsolve_search::{Control, Shard, Weight};
use jigsolve_session::puzzle::Loaded;
use jigsolve_session::request::{mode_of, open_names, options_of, Mode, Options};
use jigsolve_session::session::{Found, Job};
use jigsolve_session::source::Source;
use jigsolve_session::{best, family, goals, report, tree};
use serde_json::{json, Value};
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// How often a running search says how far it is.
const PROGRESS_EVERY: Duration = Duration::from_millis(250);

pub(crate) fn search(body: &Value, emit: &Emit) -> Result<Value, String> {
    let mode = mode_of(body)?;
    let options = options_of(body, mode, 1, "one thread a worker")?;
    let shard = shard_of(body)?;
    let source = source_of(body)?;
    match mode {
        Mode::Solve | Mode::Count => {
            let keep = body.get("keep").and_then(Value::as_u64).unwrap_or(1000);
            solve(&source, mode, &options, shard, keep, emit)
        }
        Mode::ByOpen => by_open(&source, &options, shard, emit),
        Mode::Best => {
            let seed = body
                .get("seed")
                .and_then(Value::as_u64)
                .ok_or("a best-board search in a browser needs a \"seed\" (a whole number)")?;
            best_board(&source, seed, emit)
        }
        Mode::Tree => search_tree(&source, &options),
    }
}

/// The shard of a request, `"shard": [I, N]`, or the whole tree.
fn shard_of(body: &Value) -> Result<Option<Shard>, String> {
    let Some(given) = body.get("shard").filter(|v| !v.is_null()) else {
        return Ok(None);
    };
    let pair = given
        .as_array()
        .filter(|a| a.len() == 2)
        .and_then(|a| Some((a[0].as_u64()?, a[1].as_u64()?)));
    pair.and_then(|(i, n)| Shard::new(usize::try_from(i).ok()?, usize::try_from(n).ok()?))
        .map(Some)
        .ok_or_else(|| format!("\"shard\" must be [I, N] with 0 <= I < N, not {given}"))
}

/// The puzzle of `source`, read and checked against the engine options
/// (an option its family does not take is an error, as on the command
/// line).
fn checked(source: &Source, options: &Options) -> Result<Box<dyn Loaded>, String> {
    let puzzle = family::load(source, None).map_err(|e| e.to_string())?;
    jigsolve_session::puzzle::check_engine_options(puzzle.as_ref(), &options.engine)
        .map_err(|e| e.to_string())?;
    Ok(puzzle)
}

/// A control whose heartbeat sends the progress event, with the solutions
/// listed so far from `listed`.
fn watched(emit: &Emit, listed: &Arc<AtomicU64>) -> Control {
    let (emit, listed) = (Arc::clone(emit), Arc::clone(listed));
    Control::new().with_progress().with_heartbeat(
        PROGRESS_EVERY,
        Arc::new(move |control: &Control| {
            let event = json!({
                "type": "progress",
                "nodes": control.nodes(),
                "solutions": listed.load(Ordering::Relaxed),
                "seconds": control.elapsed().as_secs_f64(),
                "fraction": control.fraction_done(),
            });
            emit(&event.to_string());
        }),
    )
}

fn solve(
    source: &Source,
    mode: Mode,
    options: &Options,
    shard: Option<Shard>,
    keep: u64,
    emit: &Emit,
) -> Result<Value, String> {
    let mut puzzle = checked(source, options)?;
    if let Some(open) = &options.open {
        puzzle = puzzle
            .with_open(&open_names(open))
            .map_err(|e| e.to_string())?;
    }
    let session = puzzle.session(&options.engine).map_err(|e| e.to_string())?;
    let job = Job {
        threads: 1,
        shard,
        want_solutions: true,
        // Randomized restarts race on threads of their own, which a worker
        // has not: the first solution comes from the tree walked in order.
        first_solutions_only: false,
    };
    let described = session.described(&job);
    let listed = Arc::new(AtomicU64::new(0));
    let control = watched(emit, &listed);
    let mut found = |found: &dyn Found, weight: Weight| {
        let n = listed.fetch_add(1, Ordering::Relaxed) + 1;
        if n <= keep {
            let event = json!({
                "type": "solution",
                "solution": found.json(),
                "weight": report::weight_json(weight),
            });
            emit(&event.to_string());
        }
        match mode {
            Mode::Solve => ControlFlow::Break(()),
            _ => ControlFlow::Continue(()),
        }
    };
    let ran = session.run(&job, &control, &mut found).map_err(|e| {
        format!("the search tree was cut at a path that does not exist (a bug): {e}")
    })?;
    let summary = report::summary_json(&ran.report, &described, shard, false);
    Ok(json!({
        "summary": summary,
        "counts_mean": report::counts_mean_json(&described),
        "error": ran.fault,
    }))
}

/// Every goal of a puzzle that leaves cells open counted in one search, as
/// `solve --by-open` counts them: the summary, a line per goal (as `solve
/// --by-open --json` prints them) and the heat map as SVG (of this shard's
/// counts when the request is a shard).
fn by_open(
    source: &Source,
    options: &Options,
    shard: Option<Shard>,
    emit: &Emit,
) -> Result<Value, String> {
    let puzzle = checked(source, options)?;
    let groups = goals::goal_groups(puzzle.as_ref(), "mode by-open").map_err(|e| e.to_string())?;
    let session = puzzle
        .session(&goals::goal_engine(&options.engine))
        .map_err(|e| e.to_string())?;
    let job = Job {
        threads: 1,
        shard,
        want_solutions: false,
        first_solutions_only: false,
    };
    let described = session.described(&job);
    let control = watched(emit, &Arc::new(AtomicU64::new(0)));
    let goals::Counted {
        ran, goals, empty, ..
    } = goals::count_goals(session.as_ref(), &groups, 1, shard, 0, &control)
        .map_err(|e| e.to_string())?;
    let heat_map =
        goals::heat_map(puzzle.as_ref(), &ran.report, &goals).map_err(|e| e.to_string())?;
    let mut summary = report::summary_json(&ran.report, &described, shard, false);
    summary["goals"] = json!({"with_solutions": goals.len(), "without": empty.len()});
    let lines: Vec<Value> = goals
        .iter()
        .chain(&empty)
        .map(|g| goals::goal_json(g, &[]))
        .collect();
    Ok(json!({
        "summary": summary,
        "counts_mean": report::counts_mean_json(&described),
        "goals": lines,
        "heat_map": heat_map,
        "error": ran.fault,
    }))
}

/// A best-board search as `jigsolve best --threads 1 --seed S` runs it,
/// until a full score or the page stops the worker; each better board is
/// an event.
fn best_board(source: &Source, seed: u64, emit: &Emit) -> Result<Value, String> {
    let puzzle =
        family::load_edge(source, None, "the best-board search").map_err(|e| e.to_string())?;
    let quota_marks = best::quota_marks(&puzzle, None, &source.label).map_err(|e| e.to_string())?;
    let options = BestOptions {
        seed,
        threads: 1,
        quota_marks,
        ..BestOptions::default()
    };
    let hash = family::edge_puzzle_hash(&puzzle);
    let control = watched(emit, &Arc::new(AtomicU64::new(0)));
    let sink = |found: &Improvement| {
        let line = best::improvement_json(&puzzle, &hash, found, seed, None);
        emit(&json!({ "type": "best", "line": line }).to_string());
    };
    let report = search_best(&puzzle, &options, &control, &sink)
        .map_err(|e| format!("{}: {e}", source.label))?;
    let seconds = control.elapsed().as_secs_f64();
    Ok(json!({ "summary": best::summary_json(&puzzle, &hash, &report, seconds, seed) }))
}

/// The search tree recorded, counted and drawn as `jigsolve tree` does.
fn search_tree(source: &Source, options: &Options) -> Result<Value, String> {
    let puzzle = checked(source, options)?;
    let session = puzzle
        .session(&tree::traced_engine(&options.engine))
        .map_err(|e| e.to_string())?;
    let described = session.described(&Job::whole_tree());
    let control = Control::new();
    let trace = session
        .trace(options.tree, &control)
        .map_err(|e| format!("the search tree could not be walked (a bug): {e}"))?;
    let shown = tree::shown(&trace, session.as_ref(), puzzle.name(), &described);
    Ok(json!({ "tree": shown.json, "naive": shown.naive, "svg": shown.svg }))
}
