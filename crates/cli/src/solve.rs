//! Running a search and printing what it finds: the part of `solve` that is
//! the same for every family.

use crate::source::{Family, InputError};
use anyhow::{anyhow, Context, Result};
use jigsolve_search::shard::{ShardResult, FORMAT};
use jigsolve_search::{
    count_solutions, run, Control, NoSuchNode, Report, RunConfig, Shard, StopReason, Tree, Weight,
};
use serde_json::{json, Map, Value};
use std::io::{self, IsTerminal, Write};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Exit codes: what a script can tell from `jigsolve solve` without parsing.
use crate::exit;

/// The options of `solve` that every family shares.
#[derive(Clone, Debug, Default)]
pub struct Common {
    /// Count without listing.
    pub count: bool,
    /// Stop after this many listed solutions.
    pub limit: Option<u64>,
    /// JSON Lines output.
    pub json: bool,
    /// Nodes per depth in the summary.
    pub stats: bool,
    /// Worker threads (0: all cores).
    pub threads: usize,
    /// Stop after this many seconds.
    pub time_limit: Option<f64>,
    /// Stop after about this many nodes.
    pub node_limit: Option<u64>,
    /// Search only this share of the tree.
    pub shard: Option<Shard>,
    /// Where to write the shard result.
    pub output: Option<PathBuf>,
    /// Show a progress bar when standard error is a terminal.
    pub progress: bool,
    /// Where to write a picture of each listed solution (`--svg`, `--png`).
    pub pictures: crate::pictures::Pictures,
}

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
}

/// A stable hash of a puzzle's normalised content: SHA-256, hex, shortened
/// to 16 bytes (collisions between puzzles are not a concern at that size).
pub fn content_hash(normalised: &str) -> String {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(normalised.as_bytes());
    digest[..16].iter().map(|b| format!("{b:02x}")).collect()
}

impl Common {
    /// Threads to use: as asked, or every core.
    pub fn thread_count(&self) -> usize {
        if self.threads > 0 {
            self.threads
        } else {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        }
    }

    /// The control for a search with these limits.
    pub fn control(&self) -> Control {
        let mut control = Control::new().with_progress();
        if let Some(n) = self.node_limit {
            control = control.with_node_limit(n);
        }
        if let Some(s) = self.time_limit {
            // The limit counts from the start of the command: what reading
            // and preparing the puzzle took is already spent.
            let limit = Duration::from_secs_f64(s.max(0.0)).saturating_sub(crate::since_start());
            control = control.with_time_limit(limit);
        }
        control
    }
}

/// A search strategy: given the control and a consumer of solutions, runs
/// and reports.
pub struct Search<'a, S: ?Sized> {
    /// Runs the search.
    #[allow(clippy::type_complexity)]
    pub run: Box<
        dyn FnOnce(
                &Control,
                &mut dyn FnMut(&S, Weight) -> ControlFlow<()>,
            ) -> Result<Report, NoSuchNode>
            + 'a,
    >,
    /// Whether the progress fraction means anything (not for restarts).
    pub measures_fraction: bool,
}

/// The plain strategy: the whole tree (or one shard of it, or what the
/// limits allow) on `common.threads` threads, cut into subtrees.
pub fn whole_tree<'a, T, M>(make: M, common: &Common) -> Search<'a, T::Solution>
where
    T: Tree + 'a,
    M: Fn() -> T + Sync + 'a,
    <T::Solution as ToOwned>::Owned: Send,
{
    let config = RunConfig {
        threads: common.thread_count(),
        shard: common.shard,
        // A limit needs to see solutions even when they are not printed.
        want_solutions: !common.count || common.limit.is_some(),
    };
    Search {
        run: Box::new(move |control, consumer| run(make, &config, control, consumer)),
        measures_fraction: true,
    }
}

/// Installs the Ctrl-C / SIGTERM handler once per process: the first signal
/// asks the running search to stop (it then prints what it found), a second
/// one exits at once.
fn watch_signals(control: &Arc<Control>) {
    static INSTALLED: AtomicBool = AtomicBool::new(false);
    if INSTALLED.swap(true, Ordering::SeqCst) {
        return;
    }
    let control = Arc::clone(control);
    let signalled = AtomicBool::new(false);
    let _ = ctrlc::set_handler(move || {
        if signalled.swap(true, Ordering::SeqCst) {
            std::process::exit(exit::CANCELLED as i32);
        }
        control.cancel();
    });
}

/// Shows nodes, solutions, rate, fraction of the tree done and an ETA on
/// standard error until `done` is set.
fn show_progress(control: &Control, done: &AtomicBool, fraction: bool) {
    use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
    let bar = ProgressBar::with_draw_target(Some(10_000), ProgressDrawTarget::stderr());
    let template = if fraction {
        "{elapsed_precise} [{bar:30}] {percent:>3}% {msg}"
    } else {
        "{elapsed_precise} {spinner} {msg}"
    };
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style.progress_chars("=> "));
    }
    // Stay quiet for short searches.
    let mut waited = Duration::ZERO;
    let step = Duration::from_millis(100);
    while !done.load(Ordering::Relaxed) {
        std::thread::sleep(step);
        waited += step;
        if waited < Duration::from_millis(500) {
            continue;
        }
        let secs = control.elapsed().as_secs_f64().max(1e-9);
        let nodes = control.nodes();
        let mut msg = format!(
            "{} nodes ({}/s), {} solutions",
            group_digits(nodes as u128),
            group_digits((nodes as f64 / secs) as u128),
            group_digits(control.solutions() as u128)
        );
        if fraction {
            let f = control.fraction_done();
            bar.set_position((f * 10_000.0) as u64);
            if f > 0.0 {
                let eta = secs * (1.0 - f) / f;
                msg.push_str(&format!(", ETA {}", human_duration(eta)));
            }
        }
        bar.set_message(msg);
        bar.tick();
    }
    bar.finish_and_clear();
}

/// 3725 -> "1 h 2 min".
pub fn human_duration(secs: f64) -> String {
    if !secs.is_finite() {
        return "unknown".into();
    }
    let s = secs.round() as u64;
    match s {
        0..=59 => format!("{s} s"),
        60..=3599 => format!("{} min {} s", s / 60, s % 60),
        3600..=86_399 => format!("{} h {} min", s / 3600, (s % 3600) / 60),
        _ => format!("{} days", s / 86_400),
    }
}

/// Runs `search`, prints each solution with `text` or `json` as the options
/// say (and, with `--svg` or `--png`, writes its `picture`, an SVG drawn
/// under a caption), then the summary (and, for a shard, writes its result
/// file); returns the exit code.
pub fn execute<S: ?Sized>(
    search: Search<'_, S>,
    common: &Common,
    described: &Described,
    text: impl Fn(&S) -> String,
    to_json: impl Fn(&S) -> Value,
    picture: impl Fn(&S, &str) -> String,
) -> Result<u8> {
    common.pictures.prepare()?;
    let mut picture_error: Option<anyhow::Error> = None;
    let control = Arc::new(common.control());
    watch_signals(&control);
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let mut listed = 0u64;
    let mut write_error: Option<io::Error> = None;
    let mut consumer = |solution: &S, weight: Weight| {
        listed += 1;
        let written = if common.count {
            Ok(())
        } else if common.json {
            let mut line = Map::new();
            line.insert("type".into(), json!("solution"));
            line.insert("family".into(), json!(described.family.as_str()));
            line.insert("puzzle".into(), json!(described.puzzle));
            line.insert("index".into(), json!(listed));
            line.insert("weight".into(), weight_json(weight));
            line.insert("solution".into(), to_json(solution));
            writeln!(out, "{}", Value::Object(line))
        } else {
            writeln!(
                out,
                "solution {listed} (stands for {} raw, {} distinct)\n{}",
                weight.raw,
                weight.distinct,
                text(solution)
            )
        };
        if let Err(e) = written {
            write_error = Some(e);
            return ControlFlow::Break(());
        }
        if common.pictures.wanted() {
            let caption = format!(
                "{}: solution {listed} (stands for {} raw, {} distinct)",
                described.puzzle, weight.raw, weight.distinct
            );
            let svg = picture(solution, &caption);
            if let Err(e) = common.pictures.write(&described.puzzle, listed, &svg) {
                picture_error = Some(e);
                return ControlFlow::Break(());
            }
        }
        if common.limit.is_some_and(|n| listed >= n) {
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    };
    let show = common.progress && io::stderr().is_terminal();
    let done = AtomicBool::new(false);
    let measures_fraction = search.measures_fraction;
    let report = std::thread::scope(|scope| {
        if show {
            scope.spawn(|| show_progress(&control, &done, measures_fraction));
        }
        let report = (search.run)(&control, &mut consumer);
        done.store(true, Ordering::Relaxed);
        report
    })
    .context("the search tree was cut at a path that does not exist (a bug)")?;

    if let Some(e) = picture_error {
        return Err(e);
    }
    if let Some(e) = write_error {
        if e.kind() == io::ErrorKind::BrokenPipe {
            return Ok(exit::FOUND);
        }
        return Err(e).context("cannot write to standard output");
    }
    if let Some(shard) = common.shard {
        write_shard_result(&report, described, shard, common.output.as_ref())?;
    }
    let summary = if common.json {
        summary_json(&report, described, common.shard, common.stats).to_string() + "\n"
    } else {
        summary_text(&report, described, common.shard, common.stats)
    };
    match out.write_all(summary.as_bytes()).and_then(|_| out.flush()) {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(exit::FOUND),
        other => other.context("cannot write to standard output")?,
    }
    Ok(exit_code(&report))
}

/// Writes the result file of one shard (also when it was stopped early, so
/// that `merge` can say it is incomplete).
fn write_shard_result(
    report: &Report,
    described: &Described,
    shard: Shard,
    output: Option<&PathBuf>,
) -> Result<()> {
    let result = ShardResult {
        format: FORMAT.into(),
        family: described.family.as_str().into(),
        puzzle: described.puzzle.clone(),
        puzzle_hash: described.puzzle_hash.clone(),
        split: described.split.clone(),
        shards: shard.count,
        shard: shard.index,
        subtrees: report.subtrees,
        counts: report.counts,
        reported: report.reported,
        nodes: report.nodes.total(),
        seconds: report.elapsed.as_secs_f64(),
        complete: report.complete,
        stopped: report.stopped.map(|s| s.as_str().to_string()),
        checksum: String::new(),
    }
    .seal();
    let path = output.cloned().unwrap_or_else(|| {
        PathBuf::from(format!(
            "{}.shard-{}-of-{}.json",
            described.puzzle, shard.index, shard.count
        ))
    });
    let text = serde_json::to_string_pretty(&result)? + "\n";
    // Write then rename, so a killed shard leaves no half-written result.
    let tmp = path.with_extension("json.partial");
    std::fs::write(&tmp, text)
        .and_then(|_| std::fs::rename(&tmp, &path))
        .map_err(|e| {
            anyhow!(InputError(format!(
                "{}: cannot write the shard result: {e}",
                path.display()
            )))
        })?;
    Ok(())
}

/// The exit code for a finished search.
pub fn exit_code(report: &Report) -> u8 {
    match report.stopped {
        Some(StopReason::Cancelled) => exit::CANCELLED,
        Some(StopReason::TimeLimit | StopReason::NodeLimit) => exit::LIMIT,
        _ if report.reported > 0 => exit::FOUND,
        _ => exit::NONE,
    }
}

fn weight_json(w: Weight) -> Value {
    json!({
        "raw": count_json(Some(w.raw)),
        "distinct": count_json(Some(w.distinct)),
        "unique": count_json(Some(w.unique)),
    })
}

/// The last JSON line: counts, nodes, time, completeness.
///
/// A shard's summary names the shard and says its counts are that shard's
/// share, so that nobody takes them for the puzzle's.
pub fn summary_json(
    report: &Report,
    described: &Described,
    shard: Option<Shard>,
    stats: bool,
) -> Value {
    let mut m = Map::new();
    m.insert("type".into(), json!("summary"));
    m.insert("family".into(), json!(described.family.as_str()));
    m.insert("puzzle".into(), json!(described.puzzle));
    m.insert("puzzle_hash".into(), json!(described.puzzle_hash));
    m.insert("split".into(), json!(described.split));
    if let Some(shard) = shard {
        m.insert(
            "shard".into(),
            json!({
                "index": shard.index,
                "count": shard.count,
                "counts_are": format!(
                    "the share of shard {} of {} (numbered from 0); jigsolve merge adds the shards up",
                    shard.index, shard.count
                ),
            }),
        );
    }
    m.insert("raw".into(), count_json(report.counts.raw));
    m.insert("distinct".into(), count_json(report.counts.distinct));
    m.insert("unique".into(), count_json(report.counts.unique));
    let overflow: Vec<&str> = [
        ("raw", report.counts.raw),
        ("distinct", report.counts.distinct),
        ("unique", report.counts.unique),
    ]
    .iter()
    .filter(|(_, n)| *n == Some(u128::MAX))
    .map(|(k, _)| *k)
    .collect();
    if !overflow.is_empty() {
        m.insert("overflow".into(), json!(overflow));
    }
    m.insert("listed".into(), json!(report.reported));
    m.insert("nodes".into(), json!(report.nodes.total()));
    m.insert("placements".into(), json!(report.nodes.placements()));
    m.insert("seconds".into(), json!(report.elapsed.as_secs_f64()));
    m.insert(
        "nodes_per_second".into(),
        json!(report.nodes_per_second().round()),
    );
    m.insert("complete".into(), json!(report.complete));
    m.insert("stopped".into(), json!(report.stopped.map(|s| s.as_str())));
    m.insert("threads".into(), json!(report.threads));
    m.insert("subtrees".into(), json!(report.subtrees));
    if report.attempts > 0 {
        m.insert("attempts".into(), json!(report.attempts));
    }
    m.insert(
        "counts_mean".into(),
        json!({
            "raw": described.raw_means,
            "distinct": described.distinct_means,
            "unique": described.unique_means,
            "listed": described.listed_means,
        }),
    );
    for (k, v) in &described.extras {
        m.insert((*k).into(), v.clone());
    }
    if stats {
        m.insert("nodes_per_depth".into(), json!(report.nodes.per_depth()));
    }
    Value::Object(m)
}

fn count_text(n: Option<u128>) -> String {
    match n {
        None => "-".to_string(),
        Some(u128::MAX) => "over 2^128".to_string(),
        Some(n) => group_digits(n),
    }
}

/// A count for JSON: saturated counts (2^128 and more) are `null`, with the
/// kind listed under `"overflow"`.
fn count_json(n: Option<u128>) -> Value {
    match n {
        Some(u128::MAX) | None => Value::Null,
        Some(n) => json!(n),
    }
}

/// 1234567 -> "1,234,567".
pub fn group_digits(n: u128) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The human summary printed after the solutions.
pub fn summary_text(
    report: &Report,
    described: &Described,
    shard: Option<Shard>,
    stats: bool,
) -> String {
    let mut s = String::new();
    let state = if report.complete {
        match shard {
            Some(shard) => format!(
                "shard {} of {} (numbered from 0) searched to the end; the counts below are this shard's share only, jigsolve merge adds the shards up",
                shard.index, shard.count
            ),
            None => "complete search".to_string(),
        }
    } else if let Some(shard) = shard {
        format!(
            "shard {} of {} (numbered from 0) {}",
            shard.index,
            shard.count,
            match report.stopped {
                Some(StopReason::TimeLimit) => "stopped by the time limit",
                Some(StopReason::NodeLimit) => "stopped by the node limit",
                Some(StopReason::Cancelled) => "interrupted",
                Some(StopReason::SolutionLimit) => "stopped at the solution limit",
                None => "not searched to the end",
            }
        ) + " (counts are a partial share of this shard)"
    } else {
        match report.stopped {
            Some(StopReason::SolutionLimit) => {
                "stopped at the solution limit (counts are partial)".into()
            }
            Some(StopReason::TimeLimit) => "stopped by the time limit (counts are partial)".into(),
            Some(StopReason::NodeLimit) => "stopped by the node limit (counts are partial)".into(),
            Some(StopReason::Cancelled) => "interrupted (counts are partial)".into(),
            None => "incomplete search (counts are partial)".into(),
        }
    };
    s.push_str(&format!("{}: {state}\n", described.puzzle));
    let rows = [
        ("raw", count_text(report.counts.raw), &described.raw_means),
        (
            "distinct",
            count_text(report.counts.distinct),
            &described.distinct_means,
        ),
        (
            "unique",
            count_text(report.counts.unique),
            &described.unique_means,
        ),
        (
            "listed",
            group_digits(report.reported as u128),
            &described.listed_means,
        ),
    ];
    let width = rows.iter().map(|r| r.1.len()).max().unwrap_or(1);
    for (name, value, means) in rows {
        s.push_str(&format!("  {name:<9}{value:>width$}  {means}\n"));
    }
    let secs = report.elapsed.as_secs_f64();
    s.push_str(&format!(
        "  nodes    {} in {secs:.3} s ({} nodes/s, {} thread{}{})\n",
        group_digits(report.nodes.total() as u128),
        group_digits(report.nodes_per_second().round() as u128),
        report.threads,
        if report.threads == 1 { "" } else { "s" },
        if report.attempts > 0 {
            format!(
                ", {} attempt{}",
                report.attempts,
                if report.attempts == 1 { "" } else { "s" }
            )
        } else {
            String::new()
        },
    ));
    for (k, v) in &described.extras {
        let v = match v {
            Value::String(x) => x.clone(),
            other => other.to_string(),
        };
        s.push_str(&format!("  {k:<8} {v}\n"));
    }
    if stats {
        s.push_str("  nodes per depth:\n");
        for (d, n) in report.nodes.per_depth().iter().enumerate() {
            s.push_str(&format!("    {d:>4}  {}\n", group_digits(*n as u128)));
        }
    }
    s
}

/// `jigsolve estimate`: Knuth's random probes, and a short real search to
/// turn the node estimate into time.
pub fn estimate_command<T, M>(
    make: M,
    args: &crate::args::EstimateArgs,
    described: &Described,
) -> Result<u8>
where
    T: Tree,
    M: Fn() -> T + Sync,
    <T::Solution as ToOwned>::Owned: Send,
{
    use jigsolve_search::estimate::{estimate_until, SplitMix64};
    // One control for the whole command: Ctrl-C and --time-limit stop the
    // probes (the estimate is then made of those walked) and the measuring.
    let mut whole = Control::new();
    if let Some(s) = args.time_limit {
        whole =
            whole.with_time_limit(Duration::from_secs_f64(s).saturating_sub(crate::since_start()));
    }
    let whole = Arc::new(whole);
    watch_signals(&whole);
    let mut tree = make();
    let est = estimate_until(
        &mut tree,
        args.probes,
        &mut SplitMix64::new(args.seed),
        &|| whole.should_stop(),
    )
    .context("a probe followed a path that does not exist (a bug)")?;
    drop(tree);
    if est.probes == 0 {
        return Err(anyhow!(InputError(format!(
            "{}: {} before the first probe finished: no estimate",
            described.puzzle,
            if whole.stop_reason() == Some(StopReason::Cancelled) {
                "interrupted"
            } else {
                "the time limit ran out"
            }
        ))));
    }
    let stopped = whole.stop_reason();
    let measure = if stopped.is_some() { 0.0 } else { args.measure };
    let control = Control::new().with_time_limit(Duration::from_secs_f64(measure));
    let measured = count_solutions(make, 1, &control)
        .context("the search tree was cut at a path that does not exist (a bug)")?;
    let code = match stopped {
        None => exit::FOUND,
        Some(StopReason::Cancelled) => exit::CANCELLED,
        Some(_) => exit::LIMIT,
    };
    let stopped_text = stopped.map(|reason| {
        format!(
            "{} after {} of {} probes; the estimate is made of those",
            if reason == StopReason::Cancelled {
                "interrupted"
            } else {
                "stopped by the time limit"
            },
            est.probes,
            args.probes
        )
    });
    let rate = measured.nodes_per_second();
    let seconds = if rate > 0.0 {
        est.nodes.mean / rate
    } else {
        f64::NAN
    };
    let (n_lo, n_hi) = est.nodes.interval();
    let (s_lo, s_hi) = est.solutions.interval();
    if args.json {
        let mut m = Map::new();
        m.insert("type".into(), json!("estimate"));
        m.insert("family".into(), json!(described.family.as_str()));
        m.insert("puzzle".into(), json!(described.puzzle));
        m.insert("probes".into(), json!(est.probes));
        m.insert("seed".into(), json!(args.seed));
        m.insert("nodes".into(), json!(est.nodes.mean));
        m.insert("nodes_std_error".into(), json!(est.nodes.std_error));
        m.insert("nodes_95".into(), json!([n_lo, n_hi]));
        m.insert("solutions".into(), json!(est.solutions.mean));
        m.insert("solutions_std_error".into(), json!(est.solutions.std_error));
        m.insert("solutions_95".into(), json!([s_lo, s_hi]));
        m.insert("raw_solutions".into(), json!(est.raw_solutions.mean));
        m.insert(
            "probes_reaching_a_solution".into(),
            json!(est.probes_reaching_a_solution),
        );
        m.insert("nodes_per_depth".into(), json!(est.nodes_per_depth));
        m.insert("measured_nodes_per_second".into(), json!(rate.round()));
        m.insert("seconds_one_core".into(), json!(seconds));
        if measured.complete {
            m.insert("exact_nodes".into(), json!(measured.nodes.total()));
            m.insert("exact_unique".into(), json!(measured.counts.unique));
        }
        for (k, v) in &described.extras {
            m.insert((*k).into(), v.clone());
        }
        m.insert("complete".into(), json!(stopped.is_none()));
        m.insert("stopped".into(), json!(stopped.map(|s| s.as_str())));
        crate::exit::outln!("{}", Value::Object(m));
        return Ok(code);
    }
    let f = |x: f64| {
        if x >= 1e15 {
            format!("{x:.3e}")
        } else {
            group_digits(x.round() as u128)
        }
    };
    let mut s = format!(
        "{}: estimated from {} random probes (Knuth 1975; seed {})\n",
        described.puzzle, est.probes, args.seed
    );
    if let Some(text) = &stopped_text {
        s.push_str(&format!("  stopped    {text}\n"));
    }
    s.push_str(&format!(
        "  nodes      {} (95%: {} to {}; standard error {})\n",
        f(est.nodes.mean),
        f(n_lo),
        f(n_hi),
        f(est.nodes.std_error)
    ));
    s.push_str(&format!(
        "  solutions  {} listed (95%: {} to {}), {} raw; {} of {} probes reached one\n",
        f(est.solutions.mean),
        f(s_lo),
        f(s_hi),
        f(est.raw_solutions.mean),
        est.probes_reaching_a_solution,
        est.probes
    ));
    s.push_str(&format!(
        "  time       about {} on one core at {} nodes/s (measured by {:.1} s of search)\n",
        human_duration(seconds),
        group_digits(rate.round() as u128),
        measured.elapsed.as_secs_f64()
    ));
    if measured.complete {
        s.push_str(&format!(
            "  exact      the measuring search finished: {} nodes, {} unique solutions\n",
            group_digits(measured.nodes.total() as u128),
            count_text(measured.counts.unique)
        ));
    }
    for (k, v) in &described.extras {
        let v = match v {
            Value::String(x) => x.clone(),
            other => other.to_string(),
        };
        s.push_str(&format!("  {k:<9}  {v}\n"));
    }
    s.push_str(
        "  how sure   the interval assumes probes vary normally; backtrack trees are heavy-tailed, so with\n             few probes reaching deep levels the true size can lie well outside it (more --probes narrows it)\n",
    );
    crate::exit::out!("{s}");
    Ok(code)
}

/// `jigsolve split`: the cut of the tree for `shards` machines, and the
/// command each shard runs.
pub fn split_command<T: Tree>(
    tree: &mut T,
    args: &crate::args::SplitArgs,
    described: &Described,
) -> Result<u8> {
    use jigsolve_search::drive::{plan, Subtree, SUBTREES_PER_SHARD};
    let shards = args.shards as usize;
    let whole = plan(
        tree,
        vec![Subtree::root()],
        shards.saturating_mul(SUBTREES_PER_SHARD),
    )
    .context("the search tree was cut at a path that does not exist (a bug)")?;
    let depth = whole
        .subtrees
        .iter()
        .map(|s| s.path.len())
        .max()
        .unwrap_or(0);
    let flags: String = args
        .engine
        .to_args()
        .iter()
        .map(|w| format!(" {}", shell_word(w)))
        .collect();
    let per: Vec<usize> = (0..shards)
        .map(|i| {
            whole
                .subtrees
                .iter()
                .enumerate()
                .filter(|(j, _)| j % shards == i)
                .count()
        })
        .collect();
    let command = |i: usize| {
        format!(
            "jigsolve solve {}{flags} --count --shard {i}/{shards} --output {}.shard-{i}-of-{shards}.json",
            shell_word(&args.puzzle),
            described.puzzle
        )
    };
    if args.json {
        let plan_json = json!({
            "type": "split",
            "family": described.family.as_str(),
            "puzzle": described.puzzle,
            "puzzle_hash": described.puzzle_hash,
            "split": described.split,
            "shards": shards,
            "subtrees": whole.subtrees.len(),
            "cut_depth": depth,
            "subtrees_per_shard": per,
            "commands": (0..shards).map(command).collect::<Vec<_>>(),
        });
        crate::exit::outln!("{plan_json}");
        return Ok(exit::FOUND);
    }
    crate::exit::outln!(
        "# {}: {} shards; the tree is cut into {} subtrees down to depth {depth} ({} to {} per shard)",
        described.puzzle,
        shards,
        whole.subtrees.len(),
        per.iter().min().unwrap_or(&0),
        per.iter().max().unwrap_or(&0)
    );
    crate::exit::outln!(
        "# split: {}; merge the results with: jigsolve merge {}.shard-*-of-{shards}.json",
        described.split,
        described.puzzle
    );
    for i in 0..shards {
        crate::exit::outln!("{}", command(i));
    }
    Ok(exit::FOUND)
}

/// Quotes a word for a POSIX shell if it needs it.
fn shell_word(w: &str) -> String {
    if w.chars()
        .all(|c| c.is_ascii_alphanumeric() || "-_./=:".contains(c))
    {
        w.to_string()
    } else {
        format!("'{}'", w.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_are_grouped() {
        assert_eq!(group_digits(0), "0");
        assert_eq!(group_digits(999), "999");
        assert_eq!(group_digits(1000), "1,000");
        assert_eq!(group_digits(1234567), "1,234,567");
    }
}
