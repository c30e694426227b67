//! Goals: the cells a solution leaves open (each date of a calendar
//! puzzle), and what is shown of them by `solve --by-open`, `merge` of its
//! shards and the web page: the sorted goals with their counts, their JSON
//! lines, the table, and the heat map.

use crate::checkpoint::{self, GoalWeights};
use crate::engine::EngineOptions;
use crate::error::{Error, Result};
use crate::puzzle::Loaded;
use crate::report::weight_json;
use crate::session::{Goal, Job, Ran, Session};
use crate::text::group_digits;
use jigsolve_search::shard::GoalCount;
use jigsolve_search::{ByKey, Checkpoints, Control, Counts, Progress, Report, Shard, Weight};
use serde_json::{json, Map, Value};
use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::path::Path;

/// The most goals listed with no solution: the combinations of one cell
/// from each group (a calendar's 372 month-day pairs, 2,604 with weekdays).
const MOST_EMPTY_GOALS: usize = 1 << 20;

/// What the split of a search counted by goal adds to its engine's, so
/// that its shards merge only with each other.
pub const SPLIT_BY_GOAL: &str = " goals=by-open";

/// The engine options of a search counted by goal: `engine`'s, with the
/// symmetry never broken (a representative's goal is not its images').
pub fn goal_engine(engine: &EngineOptions) -> EngineOptions {
    EngineOptions {
        no_symmetry: true,
        ..engine.clone()
    }
}

/// The open groups of `puzzle` (each group's name and its cells' names),
/// or the error that it leaves no cells open, for `asked` (`--by-open`).
pub fn goal_groups(puzzle: &dyn Loaded, asked: &str) -> Result<Vec<(String, Vec<String>)>> {
    let groups = puzzle.open_groups();
    if groups.is_empty() {
        return Err(Error::input(format!(
            "{} leaves no cells open: {asked} is for puzzles with [[open]] groups or holes",
            puzzle.name()
        )));
    }
    Ok(groups)
}

/// A search counted by goal, ended: its run, its goals in order with the
/// first solutions kept of each, and (for a whole search that completed)
/// the goals no solution reaches.
pub struct Counted {
    /// The run: its report and any fault.
    pub ran: Ran,
    /// The goals with solutions, in the groups' order.
    pub goals: Vec<GoalCount>,
    /// Their first solutions, when some were asked for.
    pub first: FirstSolutions,
    /// The goals no solution reaches: the combinations of one cell per
    /// group that no solution leaves open, when they are few enough to list.
    pub empty: Vec<GoalCount>,
    /// What to say when the system refused some of the search threads
    /// asked for (see [`crate::threads::threads_made`]).
    pub fewer_threads: Option<String>,
}

/// Counts every goal of `session` (prepared with [`goal_engine`]) on
/// `threads` threads under `control`, or of `shard`, keeping the first
/// `keep` solutions of each.
pub fn count_goals(
    session: &dyn Session,
    groups: &[(String, Vec<String>)],
    threads: usize,
    shard: Option<Shard>,
    keep: usize,
    control: &Control,
) -> Result<Counted> {
    let (ran, table) = session
        .count_by_goal(threads, shard, keep, control)
        .ok_or_else(|| Error::Bug("the puzzle has no goals to count by".into()))?
        .map_err(|e| {
            Error::Bug(format!(
                "the search tree was cut at a path that does not exist: {e}"
            ))
        })?;
    counted(session, groups, shard, ran, table, control)
}

/// As [`count_goals`], resuming from and saving to the checkpoint `path`
/// (loaded as `saved`) as the search goes; keeps no first solutions. The
/// finished subtrees' goals are saved with the progress; the unfinished
/// ones' of this run are shown but not saved (a resumed run counts them
/// again).
pub fn count_goals_resumable(
    session: &dyn Session,
    groups: &[(String, Vec<String>)],
    job: &Job,
    control: &Control,
    (path, every): (&Path, std::time::Duration),
    described: &crate::session::Described,
    saved: Option<(Progress, GoalWeights)>,
) -> Result<Counted> {
    let (progress, goals) = saved.unwrap_or_default();
    let finished = std::cell::RefCell::new(goals);
    let mut unfinished = GoalWeights::new();
    let mut save = |p: &Progress| {
        checkpoint::save_with_goals(path, described, job.shard, p, &finished.borrow())
    };
    let checkpoints = Checkpoints {
        progress,
        every,
        save: &mut save,
    };
    let mut ended = |part: HashMap<Goal, Weight>, done: bool| {
        let mut finished = finished.borrow_mut();
        let into = if done {
            &mut *finished
        } else {
            &mut unfinished
        };
        for (goal, weight) in part {
            *into.entry(goal).or_default() += weight;
        }
    };
    let run = session
        .count_by_goal_resumable(job, control, checkpoints, &mut ended)
        .ok_or_else(|| Error::Bug("the puzzle has no goals to count by".into()))?;
    let (ran, _) = run.map_err(|e| checkpoint::resume_error(path, e))?;
    let mut table: HashMap<Goal, ByKey<Value>> = HashMap::new();
    for (goal, weight) in finished.into_inner().into_iter().chain(unfinished) {
        table.entry(goal).or_default().weight += weight;
    }
    counted(session, groups, job.shard, ran, table, control)
}

/// The goals of a search counted by goal that ended as `ran` with `table`.
fn counted(
    session: &dyn Session,
    groups: &[(String, Vec<String>)],
    shard: Option<Shard>,
    ran: Ran,
    table: HashMap<Goal, ByKey<Value>>,
    control: &Control,
) -> Result<Counted> {
    let fewer_threads = crate::threads::threads_made(control)?;
    let (goals, first) = goal_counts(session, groups, table);
    // A shard's goals are partial: only the whole search knows the goals
    // no solution reaches.
    let empty = if shard.is_none() && ran.report.complete {
        unreached(groups, &goals)
    } else {
        Vec::new()
    };
    Ok(Counted {
        ran,
        goals,
        first,
        empty,
        fewer_threads,
    })
}

/// The first solutions kept of each goal (by its open cells' names), as
/// the JSON of `solve --json`'s solution objects.
pub type FirstSolutions = HashMap<Vec<String>, Vec<Value>>;

/// The table of a search counted by goal as goals named and sorted in the
/// open groups' order (`groups`: each group's name and its cells' names),
/// and the first solutions kept of each.
fn goal_counts(
    session: &dyn Session,
    groups: &[(String, Vec<String>)],
    table: HashMap<Goal, ByKey<Value>>,
) -> (Vec<GoalCount>, FirstSolutions) {
    // Each cell's group and place in it.
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
    let mut first = FirstSolutions::new();
    let mut goals: Vec<GoalCount> = table
        .into_iter()
        .map(|(goal, by)| {
            let open = session.goal_names(&goal);
            if !by.first.is_empty() {
                first.insert(open.clone(), by.first);
            }
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
                counts: counts_of(by.weight),
            }
        })
        .collect();
    goals.sort_by(|a, b| a.order.cmp(&b.order));
    (goals, first)
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
    first: &FirstSolutions,
    json: bool,
) -> std::io::Result<()> {
    if json {
        for g in goals.iter().chain(empty) {
            let kept = first.get(&g.open).map_or(&[][..], Vec::as_slice);
            writeln!(out, "{}", goal_json(g, kept))?;
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

/// The heat map of `goals`: the board with the distinct solutions that
/// leave each cell open, as SVG.
pub fn heat_map(puzzle: &dyn Loaded, report: &Report, goals: &[GoalCount]) -> Result<String> {
    let cells = goals
        .iter()
        .map(|g| (g.open.clone(), g.counts.distinct.unwrap_or(0)));
    heat_map_of(puzzle, cells, report.complete)
}

/// The heat map of goal lines as [`goal_json`] writes them (the shards of
/// one search added up by goal, in a browser): each open cell's distinct
/// solutions; `complete` says whether the counts are the whole tree's.
pub fn heat_map_of_lines(puzzle: &dyn Loaded, lines: &[Value], complete: bool) -> Result<String> {
    let mut cells = Vec::with_capacity(lines.len());
    for line in lines {
        let mut open = Vec::new();
        for names in line["open"]
            .as_object()
            .into_iter()
            .flat_map(|o| o.values())
        {
            match names {
                Value::Array(many) => {
                    open.extend(many.iter().filter_map(Value::as_str).map(String::from))
                }
                Value::String(one) => open.push(one.clone()),
                _ => {}
            }
        }
        let distinct = &line["counts"]["distinct"];
        let distinct = distinct
            .as_u64()
            .map(u128::from)
            .or_else(|| distinct.to_string().parse().ok())
            .ok_or_else(|| Error::input(format!("a goal line without a distinct count: {line}")))?;
        cells.push((open, distinct));
    }
    heat_map_of(puzzle, cells.into_iter(), complete)
}

fn heat_map_of(
    puzzle: &dyn Loaded,
    goals: impl Iterator<Item = (Vec<String>, u128)>,
    complete: bool,
) -> Result<String> {
    let mut per_cell: HashMap<String, u128> = HashMap::new();
    for (open, distinct) in goals {
        for name in open {
            *per_cell.entry(name).or_default() += distinct;
        }
    }
    let caption = format!(
        "{}: distinct solutions leaving each cell open{}",
        puzzle.name(),
        if complete { "" } else { " (partial)" }
    );
    puzzle
        .heat_map_svg(&per_cell, &caption)
        .ok_or_else(|| Error::Bug(format!("{} has no heat map", puzzle.name())))
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
/// leaves several open), its counts and, when some were kept, its first
/// `solutions` (each a `solution` object of `solve --json`).
pub fn goal_json(g: &GoalCount, first: &[Value]) -> Value {
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
    let mut line = json!({
        "type": "goal",
        "open": open,
        "counts": weight_json(w),
    });
    if !first.is_empty() {
        line["solutions"] = json!(first);
    }
    line
}
