//! `jigsolve merge`: adding up the results of a split search, or keeping
//! the best board of several `best` runs ([`super::merge_best`]).

use crate::exit;
use crate::source::{
    read_file_limited, text_of, InputError, MAX_RESULT_BYTES, MAX_SOLUTIONS_BYTES,
};
use crate::text::{group_digits, plural};
use anyhow::{anyhow, Result};
use jigsolve_search::shard::{merge, ShardResult};
use serde_json::json;
use std::io::Write as _;
use std::path::PathBuf;

/// Reads the result files, merges them and prints the sum, or what is
/// missing. Exit 0 when every shard is there and complete, 1 when some are
/// missing or incomplete (they are listed, to be run again), 2 when the
/// files cannot be read or do not belong together. Files written by
/// `best --json` are merged by [`super::merge_best`] instead (`puzzle`:
/// the puzzle file to recount their boards against, when it is not in the
/// catalog).
pub fn merge_command(paths: &[PathBuf], puzzle: Option<&str>, as_json: bool) -> Result<u8> {
    let mut texts = Vec::with_capacity(paths.len());
    for path in paths {
        let label = path.display().to_string();
        // Best-board files hold a board per improvement: larger than a
        // shard result, so they get the solution files' limit.
        let bytes = read_file_limited(&label, path, MAX_SOLUTIONS_BYTES)?;
        texts.push(text_of(&label, bytes)?);
    }
    let best: Vec<bool> = texts
        .iter()
        .map(|t| super::merge_best::is_best_file(t))
        .collect();
    if best.iter().any(|&b| b) {
        if let Some(i) = best.iter().position(|&b| !b) {
            let shard_result = serde_json::from_str::<serde_json::Value>(&texts[i])
                .ok()
                .and_then(|v| v.get("format")?.as_str().map(str::to_string))
                .is_some_and(|f| f.starts_with("jigsolve-shard-result"));
            let other = paths[best.iter().position(|&b| b).unwrap_or(0)].display();
            return Err(anyhow!(InputError(if shard_result {
                format!(
                    "{}: a shard's count result, but {other} is a file of `best --json`: best boards and shard count results cannot be merged together",
                    paths[i].display()
                )
            } else {
                format!(
                    "{}:1: not a file of `best --json` like {other} (its first line is not a best board or summary line)",
                    paths[i].display()
                )
            })));
        }
        return super::merge_best::merge_best(paths, &texts, puzzle, as_json);
    }
    if let Some(path) = puzzle.and(paths.first()) {
        return Err(anyhow!(InputError(format!(
            "{}: --puzzle is for merging the files of `best --json`; shard count results carry their puzzle's hash",
            path.display()
        ))));
    }
    let mut results = Vec::with_capacity(paths.len());
    for (path, text) in paths.iter().zip(texts) {
        let label = path.display().to_string();
        if text.len() as u64 > MAX_RESULT_BYTES {
            return Err(anyhow!(InputError(format!(
                "{label}: larger than a shard result can be ({} bytes at most)",
                MAX_RESULT_BYTES
            ))));
        }
        let result: ShardResult = serde_json::from_str(&text).map_err(|e| {
            anyhow!(InputError(format!(
                "{label}:{}: not a shard result: {e}",
                e.line().max(1)
            )))
        })?;
        results.push(result);
    }
    let merged = merge(&results).map_err(|e| {
        // Name files rather than positions.
        anyhow!(InputError(format!(
            "{e} (results are numbered in the order given: {})",
            paths
                .iter()
                .enumerate()
                .map(|(i, p)| format!("{} = {}", i + 1, p.display()))
                .collect::<Vec<_>>()
                .join(", ")
        )))
    })?;
    let complete = merged.complete();
    // Shards counted by goal (`solve --by-open --shard`): each goal's
    // counts added up, first.
    if !merged.goals.is_empty() {
        let stdout = std::io::stdout();
        let mut out = std::io::BufWriter::new(stdout.lock());
        let printed = crate::goals::print_goals(
            &mut out,
            &merged.goals,
            &[],
            &crate::goals::FirstSolutions::new(),
            as_json,
        )
        .and_then(|_| {
            if !as_json {
                writeln!(out)?;
            }
            out.flush()
        });
        if let Err(e) = printed {
            crate::exit::stdout_failed(e);
        }
    }
    if as_json {
        let value = json!({
            "type": "merge",
            "family": merged.family,
            "puzzle": merged.puzzle,
            "puzzle_hash": merged.puzzle_hash,
            "split": merged.split,
            "shards": merged.shards,
            "raw": merged.counts.raw,
            "distinct": merged.counts.distinct,
            "unique": merged.counts.unique,
            "listed": merged.reported,
            "nodes": merged.nodes,
            "seconds": merged.seconds,
            "complete": complete,
            "missing": merged.missing,
            "incomplete": merged.incomplete,
        });
        crate::exit::outln!("{value}");
    } else {
        let count = |n: Option<u128>| n.map_or("-".to_string(), group_digits);
        crate::exit::outln!(
            "{}: {} of {} shard{} merged{}",
            merged.puzzle,
            merged.shards - merged.missing.len(),
            merged.shards,
            plural(merged.shards as u64),
            if complete { ", all complete" } else { "" }
        );
        crate::exit::outln!("  raw       {}", count(merged.counts.raw));
        crate::exit::outln!("  distinct  {}", count(merged.counts.distinct));
        crate::exit::outln!("  unique    {}", count(merged.counts.unique));
        crate::exit::outln!(
            "  nodes     {} in {:.3} s of shard time",
            group_digits(merged.nodes as u128),
            merged.seconds
        );
        if !merged.missing.is_empty() {
            crate::exit::outln!(
                "  missing   shard{} {} (run again with {})",
                if merged.missing.len() == 1 { "" } else { "s" },
                list(&merged.missing),
                rerun(&merged.missing, merged.shards)
            );
        }
        if !merged.incomplete.is_empty() {
            crate::exit::outln!(
                "  incomplete shard{} {} (stopped early; run again with {})",
                if merged.incomplete.len() == 1 {
                    ""
                } else {
                    "s"
                },
                list(&merged.incomplete),
                rerun(&merged.incomplete, merged.shards)
            );
        }
        if !complete {
            crate::exit::outln!("  the counts above are partial");
        }
    }
    Ok(if complete { exit::FOUND } else { exit::NONE })
}

fn rerun(v: &[usize], shards: usize) -> String {
    v.iter()
        .map(|i| format!("--shard {i}/{shards}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn list(v: &[usize]) -> String {
    v.iter()
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}
