//! `jigsolve solve PUZZLE --by-open`: every goal of a puzzle that leaves
//! cells open (each date of a calendar) counted in one search.
//!
//! The open cells are pieces to the engines ([`jigsolve_grid::Piece::open`]),
//! so one walk of the whole tree meets every solution of every goal: each
//! solution is tallied under the names of the cells it leaves open. Symmetry
//! is not broken in this search (a representative's goal is not its images'
//! goal), so the counts are per goal as the board is drawn.

use crate::exit;
use crate::options::{EngineArgs, SolveArgs};
use crate::outputs::{self, Output};
use crate::puzzle::Loaded;
use crate::report::{exit_code, summary_json, summary_text, weight_json};
use crate::running::{watch_signals, with_progress};
use crate::session::Job;
use crate::source::InputError;
use crate::text::group_digits;
use anyhow::{anyhow, bail, Context, Result};
use jigsolve_search::Weight;
use serde_json::{json, Map, Value};
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

/// The most goals listed with no solution: the combinations of one cell
/// from each group (a calendar's 372 month-day pairs, 2,604 with weekdays).
const MOST_EMPTY_GOALS: usize = 1 << 20;

/// Counts every goal of `puzzle` as `args` say; returns the exit code.
pub fn by_open_command(args: &SolveArgs, puzzle: &dyn Loaded) -> Result<u8> {
    let options = args.options()?;
    let groups = puzzle.open_groups();
    if groups.is_empty() {
        bail!(InputError(format!(
            "{} leaves no cells open: --by-open is for puzzles with [[open]] groups or holes",
            puzzle.name()
        )));
    }
    if let Some(path) = &args.heat_map {
        heat_map_format(path)?;
        outputs::check(
            &[Output {
                option: "--heat-map",
                path,
                what: "the heat map",
            }],
            &[("the puzzle", Path::new(&args.puzzle))],
        )?;
    }
    let engine = EngineArgs {
        no_symmetry: true,
        deadline: options
            .time_limit
            .map(|s| std::time::Instant::now() + crate::clock::left_of(s)),
        ..args.engine.clone()
    };
    let session = puzzle.session(&engine)?;
    let job = Job {
        threads: options.run_config().threads,
        shard: None,
        want_solutions: true,
        first_solutions_only: false,
    };
    let described = session.described(&job);
    // Each cell's place in its group, to list goals in the groups' order.
    let place: HashMap<&str, (usize, usize)> = groups
        .iter()
        .enumerate()
        .flat_map(|(g, (_, cells))| {
            cells
                .iter()
                .enumerate()
                .map(move |(k, name)| (name.as_str(), (g, k)))
        })
        .collect();

    let control = Arc::new(options.control());
    watch_signals(&control);
    let (ran, table) = with_progress(&control, options.progress, described.fraction_known, || {
        session.count_by_goal(job.threads, &control)
    })
    .ok_or_else(|| anyhow!("{} has no goals to count by (a bug)", puzzle.name()))?
    .map_err(|e| {
        anyhow!(e).context("the search tree was cut at a path that does not exist (a bug)")
    })?;
    crate::running::threads_made(&control)?;
    let goals: HashMap<Vec<String>, Weight> = table
        .into_iter()
        .map(|(goal, w)| (session.goal_names(&goal), w))
        .collect();
    if let Some(fault) = ran.fault {
        return Err(anyhow!(fault));
    }
    let report = ran.report;

    let key = |goal: &Vec<String>| -> Vec<(usize, usize)> {
        goal.iter()
            .map(|n| place.get(n.as_str()).copied().unwrap_or((usize::MAX, 0)))
            .collect()
    };
    let mut listed: Vec<(Vec<String>, Weight)> = goals.into_iter().collect();
    listed.sort_by_key(|(g, _)| key(g));
    // Goals of one cell per group that no solution reaches, when the
    // groups each leave one cell open and the combinations are few.
    let mut empty: Vec<Vec<String>> = Vec::new();
    let singles = puzzle.open_groups().len() == groups.len()
        && listed.iter().all(|(g, _)| g.len() == groups.len());
    let combinations = groups
        .iter()
        .try_fold(1usize, |n, (_, cells)| n.checked_mul(cells.len()));
    if report.complete && singles && combinations.is_some_and(|n| n <= MOST_EMPTY_GOALS) {
        let reached: std::collections::HashSet<&Vec<String>> =
            listed.iter().map(|(g, _)| g).collect();
        let mut goal: Vec<usize> = vec![0; groups.len()];
        'all: loop {
            let names: Vec<String> = goal
                .iter()
                .zip(&groups)
                .map(|(&k, (_, cells))| cells[k].clone())
                .collect();
            if !reached.contains(&names) {
                empty.push(names);
            }
            for g in (0..goal.len()).rev() {
                goal[g] += 1;
                if goal[g] < groups[g].1.len() {
                    continue 'all;
                }
                goal[g] = 0;
            }
            break;
        }
    }

    let out = std::io::stdout();
    let mut out = std::io::BufWriter::new(out.lock());
    use std::io::Write as _;
    let written = (|| -> std::io::Result<()> {
        if options.json {
            for (goal, weight) in &listed {
                writeln!(out, "{}", goal_json(&groups, goal, Some(*weight)))?;
            }
            for goal in &empty {
                writeln!(out, "{}", goal_json(&groups, goal, None))?;
            }
            let mut summary = summary_json(&report, &described, None, false);
            summary["goals"] = json!({
                "with_solutions": listed.len(),
                "without": empty.len(),
            });
            writeln!(out, "{summary}")?;
        } else {
            let width = listed
                .iter()
                .map(|(g, _)| g.join(" ").chars().count())
                .max()
                .unwrap_or(4)
                .max(4);
            writeln!(out, "{:width$}  {:>10}  {:>10}", "open", "distinct", "raw")?;
            for (goal, w) in &listed {
                writeln!(
                    out,
                    "{:width$}  {:>10}  {:>10}",
                    goal.join(" "),
                    group_digits(w.distinct),
                    group_digits(w.raw)
                )?;
            }
            writeln!(out)?;
            writeln!(
                out,
                "{} goal{} with solutions{}",
                group_digits(listed.len() as u128),
                if listed.len() == 1 { "" } else { "s" },
                match listed
                    .iter()
                    .map(|(_, w)| w.distinct)
                    .min()
                    .zip(listed.iter().map(|(_, w)| w.distinct).max())
                {
                    Some((lo, hi)) => format!(
                        ": {} to {} distinct solutions each (fewest: {}; most: {})",
                        group_digits(lo),
                        group_digits(hi),
                        names_with(&listed, lo),
                        names_with(&listed, hi)
                    ),
                    None => String::new(),
                }
            )?;
            if !empty.is_empty() {
                let shown: Vec<String> = empty.iter().take(40).map(|g| g.join(" ")).collect();
                writeln!(
                    out,
                    "{} goal{} without a solution: {}{}",
                    group_digits(empty.len() as u128),
                    if empty.len() == 1 { "" } else { "s" },
                    shown.join(", "),
                    if empty.len() > 40 {
                        ", ... (--json lists them all)"
                    } else {
                        ""
                    }
                )?;
            }
            writeln!(out)?;
            write!(out, "{}", summary_text(&report, &described, None, false))?;
        }
        out.flush()
    })();
    if let Err(e) = written {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            return Ok(exit::FOUND);
        }
        return Err(anyhow!(e).context("cannot write to standard output"));
    }

    if let Some(path) = &args.heat_map {
        let mut per_cell: HashMap<String, u128> = HashMap::new();
        for (goal, w) in &listed {
            for name in goal {
                *per_cell.entry(name.clone()).or_default() += w.distinct;
            }
        }
        let counts: Vec<(String, u128)> = per_cell.into_iter().collect();
        let caption = format!(
            "{}: distinct solutions leaving each cell open{}",
            puzzle.name(),
            if report.complete { "" } else { " (partial)" }
        );
        let svg = puzzle
            .heat_map_svg(&counts, &caption)
            .ok_or_else(|| anyhow!("{} has no heat map (a bug)", puzzle.name()))?;
        let bytes = match heat_map_format(path)? {
            Picture::Svg => svg.into_bytes(),
            Picture::Png => jigsolve_render::png::png(&svg, 2.0).map_err(|e| anyhow!("{e}"))?,
        };
        std::fs::write(path, bytes)
            .with_context(|| format!("cannot write the heat map to {}", path.display()))?;
        eprintln!("jigsolve: heat map written to {}", path.display());
    }
    Ok(exit_code(&report))
}

enum Picture {
    Svg,
    Png,
}

/// The picture format `path`'s extension asks for.
fn heat_map_format(path: &Path) -> Result<Picture> {
    match path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
    {
        Some(e) if e == "svg" => Ok(Picture::Svg),
        Some(e) if e == "png" => Ok(Picture::Png),
        _ => bail!(InputError(format!(
            "--heat-map {}: name a .svg or .png file",
            path.display()
        ))),
    }
}

/// The goals whose distinct count is `n`, at most five named.
fn names_with(listed: &[(Vec<String>, Weight)], n: u128) -> String {
    let with: Vec<String> = listed
        .iter()
        .filter(|(_, w)| w.distinct == n)
        .map(|(g, _)| g.join(" "))
        .collect();
    let more = with.len().saturating_sub(5);
    let mut text = with.into_iter().take(5).collect::<Vec<_>>().join(", ");
    if more > 0 {
        text.push_str(&format!(" and {more} more"));
    }
    text
}

/// One goal's JSON line: its open cells by group and its counts (`null`
/// when no solution reaches it).
fn goal_json(groups: &[(String, Vec<String>)], goal: &[String], weight: Option<Weight>) -> Value {
    let mut open = Map::new();
    for name in goal {
        let group = groups
            .iter()
            .find(|(_, cells)| cells.contains(name))
            .map_or("?", |(g, _)| g.as_str());
        match open.get_mut(group) {
            Some(Value::Array(a)) => a.push(json!(name)),
            Some(v) => *v = json!([v.clone(), name]),
            None => {
                open.insert(group.to_string(), json!(name));
            }
        }
    }
    json!({
        "type": "goal",
        "open": open,
        "counts": weight.map_or(json!({"raw": 0, "distinct": 0, "unique": 0}), weight_json),
    })
}
