//! What a finished search reports: the summary (text or the last JSON
//! line) and a shard's result file for `merge`. The counts
//! are always explained by what the session says they mean.

use crate::error::{Error, Result};
use crate::session::Described;
use crate::text::{count_text, file_stem, group_digits};
use jigsolve_search::shard::{ShardResult, FORMAT};
use jigsolve_search::{NaiveSpace, NodeStats, Report, Shard, StopReason, Weight};
use serde_json::{json, Map, Value};
use std::path::{Path, PathBuf};

/// What each count of a summary means for this puzzle (the page shows it
/// beside the counts).
pub fn counts_mean_json(described: &Described) -> Value {
    json!({
        "raw": described.raw_means,
        "distinct": described.distinct_means,
        "unique": described.unique_means,
        "listed": described.listed_means,
    })
}

/// The caption of kept solution `index` (from 1) of `puzzle` drawn on
/// the page: what it stands for.
pub fn solution_caption(puzzle: &str, index: u64, weight: Weight) -> String {
    format!(
        "{puzzle}: solution {index} (stands for {} raw, {} distinct)",
        weight.raw, weight.distinct
    )
}

/// A solution's weight as JSON.
pub fn weight_json(w: Weight) -> Value {
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
        let pruned: Map<String, Value> = report
            .nodes
            .pruned()
            .iter()
            .map(|(rule, counts)| (rule.as_str().to_string(), json!(counts)))
            .collect();
        m.insert("pruned_per_depth".into(), Value::Object(pruned));
        if report.nodes.counts_tried() {
            m.insert("tried_per_depth".into(), json!(report.nodes.tried()));
            let rejected: Map<String, Value> = report
                .nodes
                .rejected()
                .iter()
                .map(|(rule, counts)| (rule.as_str().to_string(), json!(counts)))
                .collect();
            m.insert("rejected_per_depth".into(), Value::Object(rejected));
        }
        m.insert("naive_space".into(), naive_json(&described.naive));
        m.insert(
            "pruned_share".into(),
            json!(described.naive.pruned_share(report.nodes.total())),
        );
    }
    Value::Object(m)
}

/// A naive search space for JSON: its formula, what it counts, its size
/// exactly while it fits in 128 bits (`null` past that) and always its
/// base-10 logarithm.
pub fn naive_json(naive: &NaiveSpace) -> Value {
    json!({
        "formula": naive.formula(),
        "means": naive.means(),
        "exact": naive.exact(),
        "log10": naive.log10(),
    })
}

/// The `--stats` lines about the naive space: its formula and size, and
/// the share of it a search of `nodes` nodes never visited.
pub fn naive_text(naive: &NaiveSpace, nodes: u64) -> String {
    format!(
        "  naive space  {naive}
               ({})
  pruned       {} of it never visited ({} nodes visited)
",
        naive.means(),
        share_text(naive, nodes),
        group_digits(nodes as u128)
    )
}

/// The share of `naive` that `nodes` nodes left unvisited, as people
/// read it: a percentage with the digits that show it is not 100%, or for
/// tiny fractions "all but 1 in 10^x" (the logarithm, since the ratio can
/// be far below what a percentage shows).
pub fn share_text(naive: &NaiveSpace, nodes: u64) -> String {
    let ratio_log10 = (nodes.max(1) as f64).log10() - naive.log10();
    if ratio_log10 < -6.0 {
        return format!("all but 1 in 10^{:.1}", -ratio_log10);
    }
    let share = naive.pruned_share(nodes);
    let left = 1.0 - share;
    // Digits down to the first significant one of what is left.
    let digits = ((-left.log10()).ceil().max(0.0) as usize).saturating_sub(1);
    format!("{:.*}%", digits, share * 100.0)
}

/// A count for JSON: saturated counts (2^128 and more) are `null`, with the
/// kind listed under `"overflow"`.
fn count_json(n: Option<u128>) -> Value {
    match n {
        Some(u128::MAX) | None => Value::Null,
        Some(n) => json!(n),
    }
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
        s.push_str(&naive_text(&described.naive, report.nodes.total()));
        let pruned = report.nodes.pruned();
        if pruned.is_empty() {
            s.push_str("  nodes per depth:\n");
        } else {
            // Of the nodes, those a rule cut short, one column per rule.
            let mut head = format!("{:<45}", "  nodes per depth, and of them cut short by:");
            for (rule, _) in pruned {
                head.push_str(&format!(" {:>11}", rule.as_str()));
            }
            s.push_str(&head);
            s.push('\n');
        }
        for (d, n) in report.nodes.per_depth().iter().enumerate() {
            let mut line = format!("    {d:>4}  {}", group_digits(*n as u128));
            if !pruned.is_empty() {
                line = format!("{line:<45}");
                for (_, counts) in pruned {
                    let c = counts.get(d).copied().unwrap_or(0);
                    line.push_str(&format!(" {:>11}", group_digits(c as u128)));
                }
            }
            s.push_str(line.trim_end());
            s.push('\n');
        }
        s.push_str(&tried_text(&report.nodes));
    }
    s
}

/// The `--stats` table of the placements tried at each depth and, of them,
/// those a rule rejected (one column per rule); empty when the engine does
/// not count what it tries. What a depth tried and did not reject are the
/// nodes one depth down.
fn tried_text(nodes: &NodeStats) -> String {
    if !nodes.counts_tried() {
        return String::new();
    }
    let rejected = nodes.rejected();
    let mut s = if rejected.is_empty() {
        "  placements tried per depth (none rejected):".to_string()
    } else {
        let mut head = format!("{:<45}", "  placements tried per depth, rejected by:");
        for (rule, _) in rejected {
            head.push_str(&format!(" {:>11}", rule.as_str()));
        }
        head
    };
    s.push('\n');
    for (d, n) in nodes.tried().iter().enumerate() {
        let mut line = format!("    {d:>4}  {}", group_digits(*n as u128));
        if !rejected.is_empty() {
            line = format!("{line:<45}");
            for (_, counts) in rejected {
                let c = counts.get(d).copied().unwrap_or(0);
                line.push_str(&format!(" {:>11}", group_digits(c as u128)));
            }
        }
        s.push_str(line.trim_end());
        s.push('\n');
    }
    s
}

/// Writes the result file of one shard (also when it was stopped early, so
/// that `merge` can say it is incomplete).
/// Where a shard writes its result: `output`, or `NAME.shard-I-of-N.json`
/// with the puzzle's name made a safe file name.
pub fn shard_result_path(puzzle: &str, shard: Shard, output: Option<&PathBuf>) -> PathBuf {
    output.cloned().unwrap_or_else(|| {
        PathBuf::from(format!(
            "{}.shard-{}-of-{}.json",
            file_stem(puzzle),
            shard.index,
            shard.count
        ))
    })
}

/// Writes a shard's result file at `path` (see [`shard_result_path`]).
pub fn write_shard_result(
    report: &Report,
    described: &Described,
    shard: Shard,
    path: &Path,
) -> Result<()> {
    write_shard_result_with_goals(report, described, shard, path, Vec::new())
}

/// [`write_shard_result`] of a search counted by goal, with each goal's
/// counts in this shard.
pub fn write_shard_result_with_goals(
    report: &Report,
    described: &Described,
    shard: Shard,
    path: &Path,
    goals: Vec<jigsolve_search::shard::GoalCount>,
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
        goals,
        checksum: String::new(),
    }
    .seal();
    let text = serde_json::to_string_pretty(&result)
        .map_err(|e| Error::Bug(format!("a shard result as JSON: {e}")))?
        + "\n";
    // Write then rename, so a killed shard leaves no half-written result.
    let tmp = path.with_extension("json.partial");
    std::fs::write(&tmp, text)
        .and_then(|_| std::fs::rename(&tmp, path))
        .map_err(|e| {
            Error::io(
                format!("{}: cannot write the shard result", path.display()),
                e,
            )
        })?;
    Ok(())
}
