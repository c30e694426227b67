//! `jigsolve estimate`: Knuth's random probes for the size of the tree,
//! and a short real search to turn the node estimate into time.

use crate::clock;
use crate::exit;
use crate::family;
use crate::options::EstimateArgs;
use crate::puzzle::check_engine_options;
use crate::running::watch_signals;
use crate::session::Job;
use crate::source::{self, InputError};
use crate::text::{count_text, group_digits, human_duration};
use anyhow::{anyhow, Context, Result};
use jigsolve_search::{Control, StopReason};
use serde_json::{json, Map, Value};
use std::sync::Arc;
use std::time::Duration;

/// Estimates the puzzle's tree and prints the estimate; returns the exit
/// code (3 or 130 when a limit or a signal cut the probes short).
pub fn estimate_command(args: &EstimateArgs) -> Result<u8> {
    let source = source::read(&args.puzzle)?;
    let puzzle = family::load(&source, args.engine.format.as_deref())?;
    check_engine_options(puzzle.as_ref(), &args.engine.options())?;
    let session = puzzle.session(&args.engine.options())?;
    let described = session.described(&Job::whole_tree());
    // One control for the whole command: Ctrl-C and --time-limit stop the
    // probes (the estimate is then made of those walked) and the measuring.
    let mut whole = Control::new();
    if let Some(s) = args.time_limit {
        whole = whole.with_time_limit(clock::left_of(s));
    }
    let whole = Arc::new(whole);
    watch_signals(&whole);
    let est = session
        .estimate(args.probes, args.seed, &|| whole.should_stop())
        .context("a probe followed a path that does not exist (a bug)")?;
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
    let measured = session
        .measure(&control)
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
