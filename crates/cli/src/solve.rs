//! Running a search and printing what it finds: the part of `solve` that is
//! the same for every family.

use crate::source::Family;
use anyhow::{Context, Result};
use jigsolve_search::{run, Control, Report, RunConfig, StopReason, Tree, Weight};
use serde_json::{json, Map, Value};
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::time::Duration;

/// Exit codes: what a script can tell from `jigsolve solve` without parsing.
pub mod exit {
    /// Solutions were found (or the asked-for number of them).
    pub const FOUND: u8 = 0;
    /// The whole tree was searched and there is no solution.
    pub const NONE: u8 = 1;
    /// Bad input or another error.
    pub const ERROR: u8 = 2;
    /// A --time-limit or --node-limit stopped the search first.
    pub const LIMIT: u8 = 3;
    /// Ctrl-C or SIGTERM stopped the search.
    pub const CANCELLED: u8 = 130;
}

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
        let mut control = Control::new();
        if let Some(n) = self.node_limit {
            control = control.with_node_limit(n);
        }
        if let Some(s) = self.time_limit {
            control = control.with_time_limit(Duration::from_secs_f64(s.max(0.0)));
        }
        control
    }
}

/// Runs the search built by `make`, prints each solution with `text` or
/// `json` as the options say, then the summary; returns the exit code.
pub fn execute<T, M>(
    make: M,
    common: &Common,
    described: &Described,
    text: impl Fn(&T::Solution) -> String,
    to_json: impl Fn(&T::Solution) -> Value,
) -> Result<u8>
where
    T: Tree,
    M: Fn() -> T + Sync,
    <T::Solution as ToOwned>::Owned: Send,
{
    let control = common.control();
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let mut listed = 0u64;
    let mut write_error: Option<io::Error> = None;
    let config = RunConfig {
        threads: common.thread_count(),
        shard: None,
        want_solutions: !common.count,
    };
    let report = run(
        make,
        &config,
        &control,
        |solution: &T::Solution, weight: Weight| {
            listed += 1;
            let written = if common.json {
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
            if common.limit.is_some_and(|n| listed >= n) {
                return ControlFlow::Break(());
            }
            ControlFlow::Continue(())
        },
    )
    .context("the search tree was cut at a path that does not exist (a bug)")?;

    if let Some(e) = write_error {
        if e.kind() == io::ErrorKind::BrokenPipe {
            return Ok(exit::FOUND);
        }
        return Err(e).context("cannot write to standard output");
    }
    let summary = if common.json {
        summary_json(&report, described, common.stats).to_string() + "\n"
    } else {
        summary_text(&report, described, common.stats)
    };
    match out.write_all(summary.as_bytes()).and_then(|_| out.flush()) {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(exit::FOUND),
        other => other.context("cannot write to standard output")?,
    }
    Ok(exit_code(&report))
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
    json!({ "raw": w.raw, "distinct": w.distinct, "unique": w.unique })
}

/// The last JSON line: counts, nodes, time, completeness.
pub fn summary_json(report: &Report, described: &Described, stats: bool) -> Value {
    let mut m = Map::new();
    m.insert("type".into(), json!("summary"));
    m.insert("family".into(), json!(described.family.as_str()));
    m.insert("puzzle".into(), json!(described.puzzle));
    m.insert("raw".into(), json!(report.counts.raw));
    m.insert("distinct".into(), json!(report.counts.distinct));
    m.insert("unique".into(), json!(report.counts.unique));
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
    n.map_or_else(|| "-".to_string(), group_digits)
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
pub fn summary_text(report: &Report, described: &Described, stats: bool) -> String {
    let mut s = String::new();
    let state = if report.complete {
        "complete search".to_string()
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
        "  nodes    {} in {secs:.3} s ({} nodes/s, {} thread{})\n",
        group_digits(report.nodes.total() as u128),
        group_digits(report.nodes_per_second().round() as u128),
        report.threads,
        if report.threads == 1 { "" } else { "s" },
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
