//! A search run to its end on its own thread: the solving, counting by
//! goal, tree-recording and best-board runs, and the C allocator kept small
//! between them.

use super::{
    kept_bytes, open_names, reserve_kept, BestBoard, Limits, Mode, Phase, Search, State, TreeShown,
    KEPT_BYTES_IN_ALL, KEPT_BYTES_PER_SEARCH,
};
use jigsolve_edge::best::{max_score, search_best, BestOptions, Improvement};
use jigsolve_search::{Control, Weight};
use jigsolve_session::best;
use jigsolve_session::family;
use jigsolve_session::goals;
use jigsolve_session::report::summary_json;
use jigsolve_session::session::{Found, Job};
use jigsolve_session::source::Source;
use jigsolve_session::tree;
use serde_json::{json, Value};
use std::ops::ControlFlow;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Instant;

/// Keeps the C allocator to a few arenas. By default glibc gives threads up
/// to eight arenas per core, and a server whose search threads come and go
/// keeps what each arena once held, growing with every burst of searches.
pub fn few_arenas() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        extern "C" {
            fn mallopt(
                param: std::os::raw::c_int,
                value: std::os::raw::c_int,
            ) -> std::os::raw::c_int;
        }
        /// glibc's `M_ARENA_MAX`.
        const M_ARENA_MAX: std::os::raw::c_int = -8;
        // SAFETY: mallopt only sets a tuning value of glibc's allocator;
        // it takes no pointers and may be called at any time.
        unsafe {
            mallopt(M_ARENA_MAX, 2);
        }
    }
}

/// Gives the memory the searches freed back to the system once the server
/// is idle. The C allocator keeps what freed threads used in arenas of its
/// own, so a server that has served fifty searches at once would otherwise
/// stay at that size for good.
pub(super) fn release_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        extern "C" {
            fn malloc_trim(pad: usize) -> std::os::raw::c_int;
        }
        // SAFETY: malloc_trim only returns free memory of glibc's own
        // arenas to the system; it takes no pointers and is thread-safe.
        unsafe {
            malloc_trim(0);
        }
    }
}

/// Runs one search to its end; an error is a message for the page.
pub(super) fn run(search: &Search, limits: &Limits) -> Result<(), String> {
    let source = Source {
        label: search.label.clone(),
        text: search.text.clone(),
    };
    match search.mode {
        Mode::Best => return run_best(search, limits, &source),
        Mode::Tree => return run_tree(search, limits, &source),
        Mode::ByOpen => return run_by_open(search, limits, &source),
        Mode::Solve | Mode::Count => {}
    }
    let mut puzzle = family::load(&source, None).map_err(|e| format!("{e:#}"))?;
    if let Some(open) = &search.options.open {
        puzzle = puzzle
            .with_open(&open_names(open))
            .map_err(|e| format!("{e:#}"))?;
    }
    jigsolve_session::puzzle::check_engine_options(puzzle.as_ref(), &search.options.engine)
        .map_err(|e| format!("{e:#}"))?;
    let session = puzzle
        .session(&search.options.engine)
        .map_err(|e| format!("{e:#}"))?;
    let job = Job {
        threads: search.options.threads,
        shard: None,
        want_solutions: true,
        first_solutions_only: search.mode == Mode::Solve,
    };
    let described = session.described(&job);
    let control = start_running(search, limits, |state| state.described(&described));
    let started = Instant::now();
    let keep = limits.solutions;
    let mode = search.mode;
    let mut found = |found: &dyn Found, weight: Weight| {
        let mut state = search.state();
        state.listed += 1;
        // A forgotten search keeps nothing more (its bytes are given back
        // under the same lock).
        if state.kept.len() < keep && !state.forgotten {
            let text = found.json().to_string();
            let n = text.len();
            // Kept only while it fits in the search's share and the
            // server's; the counts go on either way.
            let fits = state.kept_bytes + n <= KEPT_BYTES_PER_SEARCH && reserve_kept(n);
            if fits {
                state.kept_bytes += n;
                state.kept.push((text, weight));
            }
        }
        match mode {
            Mode::Solve => ControlFlow::Break(()),
            Mode::Count | Mode::Best | Mode::Tree | Mode::ByOpen => ControlFlow::Continue(()),
        }
    };
    let ran = session.run(&job, &control, &mut found).map_err(|e| {
        format!("the search tree was cut at a path that does not exist (a bug): {e}")
    })?;
    let warning =
        jigsolve_session::threads::threads_made(&control).map_err(|e| format!("{e:#}"))?;
    let mut summary = summary_json(&ran.report, &described, None, false);
    summary["server_seconds"] = json!(started.elapsed().as_secs_f64());
    let mut state = search.state();
    state.summary = Some(summary);
    state.warning = warning;
    if let Some(fault) = ran.fault {
        state.error = Some(fault);
    }
    Ok(())
}

impl State {
    /// What the search says of its puzzle and counts before it runs.
    fn described(&mut self, described: &jigsolve_session::session::Described) {
        self.puzzle = described.puzzle.clone();
        self.family = described.family.as_str().to_string();
        self.fraction_known = described.fraction_known;
        self.counts_mean = jigsolve_session::report::counts_mean_json(described);
    }
}

/// The control of a search about to run, with its time limit and Stop
/// (a Stop that came while it waited in the queue stops it at once); the
/// search's state, filled by `fill`, says it runs.
fn start_running(search: &Search, limits: &Limits, fill: impl FnOnce(&mut State)) -> Arc<Control> {
    let control = Arc::new(
        Control::new()
            .with_progress()
            .with_time_limit(limits.time_limit),
    );
    let mut state = search.state();
    fill(&mut state);
    if search.cancelled.load(Ordering::SeqCst) {
        control.cancel();
    }
    state.control = Some(Arc::clone(&control));
    state.phase = Phase::Running;
    control
}

/// Counts every goal as `solve --by-open` does; keeps each goal's line and
/// the heat map (a few hundred KB for the weekday calendar's 2,604 goals).
fn run_by_open(search: &Search, limits: &Limits, source: &Source) -> Result<(), String> {
    let puzzle = family::load(source, None).map_err(|e| format!("{e:#}"))?;
    jigsolve_session::puzzle::check_engine_options(puzzle.as_ref(), &search.options.engine)
        .map_err(|e| format!("{e:#}"))?;
    let groups =
        goals::goal_groups(puzzle.as_ref(), "mode by-open").map_err(|e| format!("{e:#}"))?;
    let session = puzzle
        .session(&goals::goal_engine(&search.options.engine))
        .map_err(|e| format!("{e:#}"))?;
    let threads = search.options.threads;
    let described = session.described(&Job {
        threads,
        shard: None,
        want_solutions: false,
        first_solutions_only: false,
    });
    let control = start_running(search, limits, |state| state.described(&described));
    let started = Instant::now();
    let goals::Counted {
        ran,
        goals,
        empty,
        fewer_threads,
        ..
    } = goals::count_goals(session.as_ref(), &groups, threads, None, 0, &control)
        .map_err(|e| format!("{e:#}"))?;
    let heat_map =
        goals::heat_map(puzzle.as_ref(), &ran.report, &goals).map_err(|e| format!("{e:#}"))?;
    let lines: Vec<Value> = goals
        .iter()
        .chain(&empty)
        .map(|g| goals::goal_json(g, &[]))
        .collect();
    let mut summary = summary_json(&ran.report, &described, None, false);
    summary["server_seconds"] = json!(started.elapsed().as_secs_f64());
    summary["goals"] = json!({"with_solutions": goals.len(), "without": empty.len()});
    let mut state = search.state();
    state.summary = Some(summary);
    state.warning = fewer_threads;
    if !state.forgotten {
        state.goals = Some((lines, heat_map));
    }
    if let Some(fault) = ran.fault {
        state.error = Some(fault);
    }
    Ok(())
}

/// Records, counts and draws the search tree as `jigsolve tree` does, on
/// one thread; the folded subtrees are searched under the time limit and
/// Stop (their counts are then partial, as `tree --time-limit` says).
fn run_tree(search: &Search, limits: &Limits, source: &Source) -> Result<(), String> {
    let puzzle = family::load(source, None).map_err(|e| format!("{e:#}"))?;
    jigsolve_session::puzzle::check_engine_options(puzzle.as_ref(), &search.options.engine)
        .map_err(|e| format!("{e:#}"))?;
    let session = puzzle
        .session(&tree::traced_engine(&search.options.engine))
        .map_err(|e| format!("{e:#}"))?;
    let described = session.described(&Job::whole_tree());
    let control = start_running(search, limits, |state| {
        state.puzzle = described.puzzle.clone();
        state.family = described.family.as_str().to_string();
    });
    let trace = session
        .trace(search.options.tree, &control)
        .map_err(|e| format!("the search tree could not be walked (a bug): {e}"))?;
    let drawn = tree::shown(&trace, session.as_ref(), puzzle.name(), &described);
    let shown = TreeShown {
        nodes: drawn.json["nodes"].as_u64().unwrap_or(0),
        solutions: drawn.json["solutions"].clone(),
        json: drawn.json.to_string().into(),
        naive: drawn.naive,
        svg: drawn.svg.into(),
    };
    drop(trace);
    let n = shown.bytes();
    let mut state = search.state();
    // A forgotten search keeps nothing (its bytes were given back under
    // this lock).
    if state.forgotten {
        return Ok(());
    }
    if n > KEPT_BYTES_PER_SEARCH || !reserve_kept(n) {
        return Err(format!(
            "the tree's record and picture take {} MiB, more than the server keeps (at most {} \
             MiB a search, {} MiB for all searches together, {} MiB kept now); draw fewer nodes \
             or run `jigsolve tree`",
            n.div_ceil(1 << 20),
            KEPT_BYTES_PER_SEARCH >> 20,
            KEPT_BYTES_IN_ALL >> 20,
            kept_bytes() >> 20
        ));
    }
    state.kept_bytes += n;
    state.tree = Some(shown);
    Ok(())
}

/// Runs a best-board search as `jigsolve best` runs it (seed from the clock,
/// the same default quotas), keeping each improvement as its JSON line.
fn run_best(search: &Search, limits: &Limits, source: &Source) -> Result<(), String> {
    let puzzle =
        family::load_edge(source, None, "the best-board search").map_err(|e| format!("{e:#}"))?;
    let quota_marks =
        best::quota_marks(&puzzle, None, &source.label).map_err(|e| format!("{e:#}"))?;
    let seed = best::clock_seed();
    let options = BestOptions {
        seed,
        threads: search.options.threads,
        quota_marks,
        ..BestOptions::default()
    };
    let hash = family::edge_puzzle_hash(&puzzle);
    let max = max_score(puzzle.rows, puzzle.cols);
    let control = start_running(search, limits, |state| {
        state.puzzle = puzzle.name.clone();
        state.family = "edge".to_string();
        state.counts_mean = json!({
            "best": format!(
                "inner edges whose marks fit, of the {max} a {} x {} board has",
                puzzle.rows, puzzle.cols
            ),
        });
    });
    let sink = |found: &Improvement| {
        let line = best::improvement_json(&puzzle, &hash, found, seed, None);
        let mut state = search.state();
        let improvements = state.best.as_ref().map_or(0, |b| b.improvements) + 1;
        state.best = Some(BestBoard { line, improvements });
    };
    let report = search_best(&puzzle, &options, &control, &sink)
        .map_err(|e| format!("{}: {e}", source.label))?;
    let seconds = control.elapsed().as_secs_f64();
    let summary = best::summary_json(&puzzle, &hash, &report, seconds, seed);
    search.state().summary = Some(summary);
    Ok(())
}
