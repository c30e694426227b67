//! `jigsolve solve PUZZLE --by-open`: every goal of a puzzle that leaves
//! cells open (each date of a calendar) counted in one search.
//!
//! The open cells are pieces to the engines ([`jigsolve_grid::Piece::open`]),
//! so one walk of the whole tree meets every solution of every goal: each
//! worker tallies the solutions it finds under the cells they leave open
//! ([`jigsolve_search::count_by`]). Symmetry is not broken in this search (a
//! representative's goal is not its images' goal), so the counts are per
//! goal as the board is drawn. A shard writes its goals' counts into its
//! result file, and `merge` adds them up ([`print_goals`] prints both).

use crate::exit;
use crate::options::{EngineArgs, SolveArgs};
use crate::outputs::{self, Output};
use crate::puzzle::Loaded;
use crate::report::{
    exit_code, shard_result_path, summary_json, summary_text, weight_json,
    write_shard_result_with_goals,
};
use crate::running::{watch_signals, with_progress};
use crate::source::InputError;
use crate::text::group_digits;
use anyhow::{anyhow, bail, Context, Result};
use jigsolve_search::shard::GoalCount;
use jigsolve_search::{Counts, Report, Weight};
use serde_json::{json, Map, Value};
use std::collections::{HashMap, HashSet};
use std::io::Write;
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
    let engine = EngineArgs {
        no_symmetry: true,
        deadline: options
            .time_limit
            .map(|s| std::time::Instant::now() + crate::clock::left_of(s)),
        ..args.engine.clone()
    };
    let session = puzzle.session(&engine)?;
    let mut described = session.described(&crate::session::Job {
        threads: options.run_config().threads,
        shard: options.shard,
        want_solutions: false,
        first_solutions_only: false,
    });
    // Shards counted by goal merge only with each other.
    described.split.push_str(" goals=by-open");
    let shard_result = options
        .shard
        .map(|s| shard_result_path(&described.puzzle, s, options.output.as_ref()));
    let mut outs = Vec::new();
    if let Some(path) = &args.heat_map {
        heat_map_format(path)?;
        outs.push(Output {
            option: "--heat-map",
            path,
            what: "the heat map",
        });
    }
    if let Some(path) = &shard_result {
        outs.push(Output {
            option: "--output",
            path,
            what: "the shard's result",
        });
    }
    outputs::check(&outs, &[("the puzzle", Path::new(&args.puzzle))])?;
    // Each cell's group and place in it, to sort goals in the groups' order.
    let place: HashMap<&str, (u32, u32, &str)> = groups
        .iter()
        .enumerate()
        .flat_map(|(g, (group, cells))| {
            cells
                .iter()
                .enumerate()
                .map(move |(k, name)| (name.as_str(), (g as u32, k as u32, group.as_str())))
        })
        .collect();

    let control = Arc::new(options.control());
    watch_signals(&control);
    let (ran, table) = with_progress(&control, options.progress, described.fraction_known, || {
        session.count_by_goal(options.run_config().threads, options.shard, &control)
    })
    .ok_or_else(|| anyhow!("{} has no goals to count by (a bug)", puzzle.name()))?
    .map_err(|e| {
        anyhow!(e).context("the search tree was cut at a path that does not exist (a bug)")
    })?;
    crate::running::threads_made(&control)?;
    if let Some(fault) = ran.fault {
        return Err(anyhow!(fault));
    }
    let report = ran.report;
    let mut goals: Vec<GoalCount> = table
        .into_iter()
        .map(|(goal, w)| {
            let open = session.goal_names(&goal);
            let mut order = Vec::with_capacity(2 * open.len());
            let mut in_groups = Vec::with_capacity(open.len());
            for name in &open {
                let (g, k, group) = place
                    .get(name.as_str())
                    .copied()
                    .unwrap_or((u32::MAX, 0, "?"));
                order.extend([g, k]);
                in_groups.push(group.to_string());
            }
            GoalCount {
                open,
                groups: in_groups,
                order,
                counts: counts_of(w),
            }
        })
        .collect();
    goals.sort_by(|a, b| a.order.cmp(&b.order));

    // A shard's goals are partial: only the whole search lists the goals
    // no solution reaches.
    let empty = if options.shard.is_none() && report.complete {
        unreached(&groups, &goals)
    } else {
        Vec::new()
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let written = (|| -> std::io::Result<()> {
        print_goals(&mut out, &goals, &empty, options.json)?;
        if options.json {
            let mut summary = summary_json(&report, &described, options.shard, false);
            summary["goals"] = json!({
                "with_solutions": goals.len(),
                "without": empty.len(),
            });
            writeln!(out, "{summary}")?;
        } else {
            writeln!(out)?;
            write!(
                out,
                "{}",
                summary_text(&report, &described, options.shard, false)
            )?;
        }
        out.flush()
    })();
    if let Err(e) = written {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            return Ok(exit::FOUND);
        }
        return Err(anyhow!(e).context("cannot write to standard output"));
    }
    if let (Some(shard), Some(path)) = (options.shard, &shard_result) {
        write_shard_result_with_goals(&report, &described, shard, path, goals.clone())?;
    }
    if let Some(path) = &args.heat_map {
        write_heat_map(puzzle, &report, &goals, path)?;
    }
    Ok(exit_code(&report))
}

fn counts_of(w: Weight) -> Counts {
    Counts {
        raw: Some(w.raw),
        distinct: Some(w.distinct),
        unique: Some(w.unique),
    }
}

/// The goals of one cell per group that no solution reaches, when each
/// group leaves one cell open and the combinations are few enough.
fn unreached(groups: &[(String, Vec<String>)], goals: &[GoalCount]) -> Vec<GoalCount> {
    let singles = goals.iter().all(|g| g.open.len() == groups.len());
    let combinations = groups
        .iter()
        .try_fold(1usize, |n, (_, cells)| n.checked_mul(cells.len()));
    if !singles || combinations.is_none_or(|n| n > MOST_EMPTY_GOALS) {
        return Vec::new();
    }
    let reached: HashSet<&Vec<String>> = goals.iter().map(|g| &g.open).collect();
    let mut empty = Vec::new();
    let mut pick: Vec<usize> = vec![0; groups.len()];
    'all: loop {
        let open: Vec<String> = pick
            .iter()
            .zip(groups)
            .map(|(&k, (_, cells))| cells[k].clone())
            .collect();
        if !reached.contains(&open) {
            empty.push(GoalCount {
                open,
                groups: groups.iter().map(|(g, _)| g.clone()).collect(),
                order: pick
                    .iter()
                    .enumerate()
                    .flat_map(|(g, &k)| [g as u32, k as u32])
                    .collect(),
                counts: Counts {
                    raw: Some(0),
                    distinct: Some(0),
                    unique: Some(0),
                },
            });
        }
        for g in (0..pick.len()).rev() {
            pick[g] += 1;
            if pick[g] < groups[g].1.len() {
                continue 'all;
            }
            pick[g] = 0;
        }
        return empty;
    }
}

/// Prints goals with their counts: with `json` one line each (`{"type":
/// "goal", "open": {"month": "Jan", "day": "25"}, "counts": ...}`), else a
/// table, the goals with the fewest and the most solutions, and `empty`,
/// the goals no solution reaches. `solve --by-open` and `merge` of its
/// shards print the same.
pub fn print_goals(
    out: &mut dyn Write,
    goals: &[GoalCount],
    empty: &[GoalCount],
    json: bool,
) -> std::io::Result<()> {
    if json {
        for g in goals.iter().chain(empty) {
            writeln!(out, "{}", goal_json(g))?;
        }
        return Ok(());
    }
    let distinct = |g: &GoalCount| g.counts.distinct.unwrap_or(0);
    let width = goals
        .iter()
        .map(|g| g.open.join(" ").chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    writeln!(out, "{:width$}  {:>10}  {:>10}", "open", "distinct", "raw")?;
    for g in goals {
        let shown = |n: Option<u128>| n.map_or("-".to_string(), group_digits);
        writeln!(
            out,
            "{:width$}  {:>10}  {:>10}",
            g.open.join(" "),
            shown(g.counts.distinct),
            shown(g.counts.raw)
        )?;
    }
    writeln!(out)?;
    let range = goals
        .iter()
        .map(distinct)
        .min()
        .zip(goals.iter().map(distinct).max());
    writeln!(
        out,
        "{} goal{} with solutions{}",
        group_digits(goals.len() as u128),
        if goals.len() == 1 { "" } else { "s" },
        match range {
            Some((lo, hi)) => format!(
                ": {} to {} distinct solutions each (fewest: {}; most: {})",
                group_digits(lo),
                group_digits(hi),
                names_with(goals, lo),
                names_with(goals, hi)
            ),
            None => String::new(),
        }
    )?;
    if !empty.is_empty() {
        let shown: Vec<String> = empty.iter().take(40).map(|g| g.open.join(" ")).collect();
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
    Ok(())
}

/// Draws the heat map of `goals` to `path` (SVG or PNG by its extension).
fn write_heat_map(
    puzzle: &dyn Loaded,
    report: &Report,
    goals: &[GoalCount],
    path: &Path,
) -> Result<()> {
    let mut per_cell: HashMap<String, u128> = HashMap::new();
    for g in goals {
        for name in &g.open {
            *per_cell.entry(name.clone()).or_default() += g.counts.distinct.unwrap_or(0);
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
    Ok(())
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
fn names_with(goals: &[GoalCount], n: u128) -> String {
    let with: Vec<String> = goals
        .iter()
        .filter(|g| g.counts.distinct == Some(n))
        .map(|g| g.open.join(" "))
        .collect();
    let more = with.len().saturating_sub(5);
    let mut text = with.into_iter().take(5).collect::<Vec<_>>().join(", ");
    if more > 0 {
        text.push_str(&format!(" and {more} more"));
    }
    text
}

/// One goal's JSON line: its open cells by group (a list where a group
/// leaves several open) and its counts.
fn goal_json(g: &GoalCount) -> Value {
    let mut open = Map::new();
    for (name, group) in g.open.iter().zip(&g.groups) {
        match open.get_mut(group) {
            Some(Value::Array(a)) => a.push(json!(name)),
            Some(v) => *v = json!([v.clone(), name]),
            None => {
                open.insert(group.clone(), json!(name));
            }
        }
    }
    let w = Weight {
        raw: g.counts.raw.unwrap_or(0),
        distinct: g.counts.distinct.unwrap_or(0),
        unique: g.counts.unique.unwrap_or(0),
    };
    json!({
        "type": "goal",
        "open": open,
        "counts": weight_json(w),
    })
}
