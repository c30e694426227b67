//! `jigsolve merge` of best-board runs: the files `best --json` writes on
//! several machines (or shards), reduced to the best board of all, with the
//! seed, shard and file that found it.
//!
//! Nothing is taken on trust: every board of every file is scored again by
//! the independent scorer against the puzzle (the catalog puzzle the files
//! name, or the file given with `--puzzle`), whose content hash must be the
//! one the files carry. A file of another puzzle, a line that is not a best
//! board, or a board whose claimed score the recount does not give is an
//! input error naming the file and line.

use crate::exit;
use crate::family;
use crate::source::{self, InputError};
use crate::text::group_digits;
use anyhow::{anyhow, bail, Result};
use serde_json::{json, Value};
use std::path::PathBuf;

/// Whether `text` is the output of `best --json`: its first line is a whole
/// JSON object of type `best` or `summary` (a shard count result is one
/// object written over many lines).
pub fn is_best_file(text: &str) -> bool {
    text.lines()
        .find(|l| !l.trim().is_empty())
        .and_then(|l| serde_json::from_str::<Value>(l).ok())
        .and_then(|v| v.get("type").and_then(Value::as_str).map(str::to_string))
        .is_some_and(|t| t == "best" || t == "summary")
}

/// One run's file: its best board and what its summary says.
struct Run {
    file: String,
    /// The line of its best board and the board's record.
    line: usize,
    record: Value,
    score: u64,
    nodes: u64,
    seconds: f64,
}

/// The puzzle every line must belong to, with where it was first seen.
struct Seen {
    name: String,
    hash: String,
    at: String,
}

/// Reads best-board files (already read into `texts`), checks and recounts
/// them, and prints the best board. Exit 0.
pub fn merge_best(
    paths: &[PathBuf],
    texts: &[String],
    puzzle_arg: Option<&str>,
    as_json: bool,
) -> Result<u8> {
    // The same run given twice would count its nodes and time twice.
    let mut files = std::collections::HashMap::new();
    for path in paths {
        let key = path.canonicalize().unwrap_or_else(|_| path.clone());
        if let Some(first) = files.insert(key, path) {
            bail!(InputError(format!(
                "{}: given twice (also as {}); each run's file counts once",
                path.display(),
                first.display()
            )));
        }
    }
    let mut seen: Option<Seen> = None;
    let mut runs = Vec::with_capacity(paths.len());
    for (path, text) in paths.iter().zip(texts) {
        let file = path.display().to_string();
        let mut best: Option<(usize, Value, u64)> = None;
        let mut summary: Option<Value> = None;
        let mut last_nodes = 0;
        let mut last_seconds = 0.0;
        let lines = text.lines().count();
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let at = format!("{file}:{}", i + 1);
            let value: Value = match serde_json::from_str(line) {
                Ok(value) => value,
                // A run killed while writing leaves its last line unfinished
                // (no line break after it): the boards before it stand.
                Err(_) if i + 1 == lines && !text.ends_with('\n') => {
                    eprintln!(
                        "jigsolve merge: {at}: an unfinished last line (a run stopped while writing it) is left out"
                    );
                    continue;
                }
                Err(e) => bail!(InputError(format!("{at}: not JSON: {e}"))),
            };
            let kind = value.get("type").and_then(Value::as_str).unwrap_or("");
            if kind != "best" && kind != "summary" {
                bail!(InputError(format!(
                    "{at}: not a line of `best --json` (type {:?}); a shard count result cannot be merged with best boards",
                    value.get("type").unwrap_or(&Value::Null)
                )));
            }
            let text_field = |name: &str| -> Result<String> {
                value
                    .get(name)
                    .and_then(Value::as_str)
                    .map(str::to_string)
                    .ok_or_else(|| anyhow!(InputError(format!("{at}: no \"{name}\" text"))))
            };
            let (name, hash) = (text_field("puzzle")?, text_field("puzzle_hash")?);
            match &seen {
                None => {
                    seen = Some(Seen {
                        name,
                        hash,
                        at: at.clone(),
                    })
                }
                Some(s) if s.hash != hash || s.name != name => bail!(InputError(format!(
                    "{at}: a board of {name} (puzzle hash {hash}), but {} is of {} (puzzle hash {}): runs of different puzzles cannot be merged",
                    s.at, s.name, s.hash
                ))),
                Some(_) => {}
            }
            if kind == "summary" {
                summary = Some(value);
                continue;
            }
            let number = |name: &str| -> Result<u64> {
                value.get(name).and_then(Value::as_u64).ok_or_else(|| {
                    anyhow!(InputError(format!("{at}: no \"{name}\" (a whole number)")))
                })
            };
            let score = number("score")?;
            number("seed")?;
            last_nodes = number("nodes")?;
            last_seconds = value.get("seconds").and_then(Value::as_f64).unwrap_or(0.0);
            // The first board of the best score is kept: it was found first.
            if best.as_ref().is_none_or(|(_, _, s)| score > *s) {
                best = Some((i + 1, value, score));
            }
        }
        let Some((line, record, score)) = best else {
            bail!(InputError(format!(
                "{file}: no best board in the file (`best --json` writes one line per improvement)"
            )));
        };
        let from_summary = |name: &str| summary.as_ref().and_then(|s| s.get(name).cloned());
        runs.push(Run {
            file,
            line,
            record,
            score,
            nodes: from_summary("nodes")
                .and_then(|v| v.as_u64())
                .unwrap_or(last_nodes),
            seconds: from_summary("seconds")
                .and_then(|v| v.as_f64())
                .unwrap_or(last_seconds),
        });
    }
    let Some(seen) = seen else {
        bail!(InputError("no best board in the files".into()));
    };
    let puzzle = load_puzzle(&seen, puzzle_arg)?;
    let max = jigsolve_edge::best::max_score(puzzle.rows, puzzle.cols);
    // Every board of every file is recounted, not only the best ones: a
    // wrong claim anywhere means the file cannot be trusted.
    for (path, text) in paths.iter().zip(texts) {
        for (i, line) in text.lines().enumerate() {
            let Ok(value) = serde_json::from_str::<Value>(line) else {
                continue;
            };
            if value.get("type").and_then(Value::as_str) != Some("best") {
                continue;
            }
            let at = format!("{}:{}", path.display(), i + 1);
            let board = family::edge_board_of(&puzzle, &value)
                .map_err(|e| anyhow!(InputError(format!("{at}: {e}"))))?;
            let recount = jigsolve_edge::score::score(&puzzle, &board)
                .map_err(|e| anyhow!(InputError(format!("{at}: {e}"))))?;
            let claimed = value.get("score").and_then(Value::as_u64).unwrap_or(0);
            if claimed != u64::from(recount) {
                bail!(InputError(format!(
                    "{at}: the board claims score {claimed}, but {recount} of its {max} inner edges match"
                )));
            }
        }
    }
    let winner = runs
        .iter()
        .enumerate()
        .max_by_key(|(i, r)| (r.score, std::cmp::Reverse(*i)))
        .map(|(_, r)| r)
        .expect("at least one run");
    let nodes: u64 = runs.iter().map(|r| r.nodes).sum();
    let seconds: f64 = runs.iter().map(|r| r.seconds).sum();
    let field = |name: &str| winner.record.get(name).cloned().unwrap_or(Value::Null);
    if as_json {
        let mut record = winner.record.clone();
        if let Some(map) = record.as_object_mut() {
            map.insert("file".into(), json!(winner.file));
            map.insert("line".into(), json!(winner.line));
            map.insert(
                "runs".into(),
                json!(runs
                    .iter()
                    .map(|r| json!({
                        "file": r.file,
                        "score": r.score,
                        "seed": r.record.get("seed"),
                        "shard": r.record.get("shard"),
                        "nodes": r.nodes,
                        "seconds": r.seconds,
                    }))
                    .collect::<Vec<_>>()),
            );
            map.insert("total_nodes".into(), json!(nodes));
            map.insert("total_seconds".into(), json!(seconds));
        }
        exit::outln!("{record}");
        return Ok(exit::FOUND);
    }
    let board = family::edge_board_of(&puzzle, &winner.record)
        .map_err(|e| anyhow!(InputError(format!("{}:{}: {e}", winner.file, winner.line))))?;
    exit::outln!(
        "{}: the best of {} run{}: {} of {max} inner edges match (every board recounted)",
        puzzle.name,
        runs.len(),
        crate::text::plural(runs.len() as u64),
        winner.score
    );
    let shard = match field("shard") {
        Value::String(s) => format!(", shard {s}"),
        _ => String::new(),
    };
    exit::outln!(
        "  found by  {} line {}: seed {}{shard}, thread {}, restart {}, after {:.1} s",
        winner.file,
        winner.line,
        field("seed"),
        field("thread"),
        field("restart"),
        field("seconds").as_f64().unwrap_or(0.0)
    );
    exit::outln!(
        "  runs      {}",
        runs.iter()
            .map(|r| format!("{} {}", r.file, r.score))
            .collect::<Vec<_>>()
            .join(", ")
    );
    exit::outln!(
        "  nodes     {} in {:.1} s of run time",
        group_digits(nodes as u128),
        seconds
    );
    exit::out!("{}", jigsolve_render::edge::board_text(&puzzle, &board));
    match jigsolve_edge::score::link(&puzzle, &board) {
        Ok(link) => exit::outln!("{link}"),
        Err(e) => exit::outln!("(no viewer link: {e})"),
    }
    Ok(exit::FOUND)
}

/// The puzzle the boards are recounted against: `--puzzle` if given, else
/// the catalog puzzle the files name; its hash must be theirs.
fn load_puzzle(seen: &Seen, puzzle_arg: Option<&str>) -> Result<jigsolve_edge::Puzzle> {
    let spec = match puzzle_arg {
        Some(p) => p,
        None if crate::catalog::find(&seen.name).is_some() => seen.name.as_str(),
        None => bail!(InputError(format!(
            "{}: the boards are of {}, which is not a catalog puzzle: give its file with --puzzle FILE so that they can be recounted",
            seen.at, seen.name
        ))),
    };
    let source = source::read(spec)?;
    let puzzle = family::load_edge(&source, None, "merge")?;
    let hash = family::edge_puzzle_hash(&puzzle);
    if hash != seen.hash {
        bail!(InputError(format!(
            "{}: the boards are of a puzzle with hash {}, but {} has hash {hash} (another puzzle, or an edited file)",
            seen.at, seen.hash, source.label
        )));
    }
    Ok(puzzle)
}
