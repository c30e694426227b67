//! What the best-board search (`jigsolve best`, the web page's best board)
//! needs besides the edge crate's search: the quota colours asked for or
//! measured, a seed from the clock, and each improvement as a JSON line.

use crate::error::{Error, Result};
use crate::family;
use jigsolve_edge::best::{BestEnd, BestReport, Improvement, Restarts};
use jigsolve_edge::Puzzle;
use jigsolve_search::StopReason;
use serde_json::{json, Value};

/// One improvement as a JSON line: what `verify` scores again and `merge`
/// compares across runs.
pub fn improvement_json(
    puzzle: &Puzzle,
    hash: &str,
    found: &Improvement,
    seed: u64,
    shard: Option<&str>,
) -> Value {
    json!({
        "type": "best",
        "puzzle": puzzle.name,
        "puzzle_hash": hash,
        "score": found.score,
        "max": found.max,
        "nodes": found.nodes,
        "seconds": found.elapsed.as_secs_f64(),
        "seed": seed,
        "shard": shard,
        "thread": found.thread,
        "restart": found.restart,
        "board": family::board_json(puzzle, &found.placements),
        "link": jigsolve_edge::score::link(puzzle, &found.placements).ok(),
    })
}

/// How the restarts ended (`best --stats --json`): per best score and per
/// number of positions filled, the restarts that ended so, as objects from
/// the value to its count (values with no restart left out).
pub fn restarts_json(r: &Restarts) -> Value {
    let counts = |v: &[u64]| -> serde_json::Map<String, Value> {
        v.iter()
            .enumerate()
            .filter(|(_, &n)| n > 0)
            .map(|(i, &n)| (i.to_string(), json!(n)))
            .collect()
    };
    json!({
        "by_score": counts(&r.by_score),
        "by_depth": counts(&r.by_depth),
        "positions": r.positions,
        "breaks_from": r.breaks_from + 1,
    })
}

/// The smallest value, the median, the 90th percentile and the largest of
/// a histogram (index: value), or `None` when it is empty.
fn spread(v: &[u64]) -> Option<[usize; 4]> {
    let total: u64 = v.iter().sum();
    if total == 0 {
        return None;
    }
    let at = |share: f64| {
        let rank = ((total as f64 * share).ceil() as u64).max(1);
        let mut seen = 0;
        v.iter()
            .position(|&n| {
                seen += n;
                seen >= rank
            })
            .unwrap_or(0)
    };
    Some([at(0.0), at(0.5), at(0.9), at(1.0)])
}

/// How the restarts ended, in words (`best --stats`): their best scores
/// and how many positions they filled, with the restarts that never
/// reached the first position where breaks may be made.
pub fn restarts_text(r: &Restarts) -> String {
    let positions = r.positions;
    let n: u64 = r.by_score.iter().sum();
    let mut out = String::new();
    if let Some([lo, mid, p90, hi]) = spread(&r.by_score) {
        let top: Vec<String> = (lo..=hi)
            .rev()
            .filter(|&s| r.by_score[s] > 0)
            .take(5)
            .map(|s| format!("{s}: {}", r.by_score[s]))
            .collect();
        out.push_str(&format!(
            "restarts' best scores ({n} restarts): lowest {lo}, median {mid}, 90th percentile {p90}, highest {hi}; the highest, with their restarts: {}\n",
            top.join(", ")
        ));
    }
    if let Some([lo, mid, p90, hi]) = spread(&r.by_depth) {
        out.push_str(&format!(
            "positions filled at most, of {positions}: lowest {lo}, median {mid}, 90th percentile {p90}, highest {hi}"
        ));
        // Position `breaks_from` (from 0) reached is `breaks_from + 1` filled.
        let from = r.breaks_from + 1;
        if from <= positions {
            let short: u64 = r.by_depth.iter().take(from).sum();
            out.push_str(&format!(
                "; {short} of {n} restarts never reached position {from}, where breaks begin"
            ));
        }
        out.push('\n');
    }
    out
}

/// How a best-board search ended, in the words of the page's summary.
pub fn end_words(end: BestEnd) -> &'static str {
    match end {
        BestEnd::FullScore | BestEnd::Stopped(StopReason::SolutionLimit) => "full score",
        BestEnd::Exhausted => "searched to the end under the break rules",
        BestEnd::Stopped(StopReason::Cancelled) => "cancelled",
        BestEnd::Stopped(StopReason::TimeLimit) => "time-limit",
        BestEnd::Stopped(StopReason::NodeLimit) => "node-limit",
    }
}

/// The summary a best-board search on the page ends with: the best score,
/// nodes, rate, restarts, seed and how it ended.
pub fn summary_json(
    puzzle: &Puzzle,
    hash: &str,
    report: &BestReport,
    seconds: f64,
    seed: u64,
) -> Value {
    json!({
        "type": "summary",
        "puzzle": puzzle.name,
        "puzzle_hash": hash,
        "score": report.best.as_ref().map(|b| b.score),
        "max": jigsolve_edge::best::max_score(puzzle.rows, puzzle.cols),
        "nodes": report.nodes,
        "nodes_per_second": (report.nodes as f64 / seconds.max(1e-9)).round() as u64,
        "restarts": report.restarts,
        "seconds": seconds,
        "seed": seed,
        "shard": null,
        "end": end_words(report.end),
    })
}

/// The board of a best-board line (as `best --json` prints it) drawn,
/// its empty cells blank.
pub fn board_svg(puzzle: &Puzzle, line: &Value) -> std::result::Result<String, String> {
    let placements = family::edge_board_of(puzzle, line)?;
    let caption = format!(
        "{}: best board, {} of {} inner edges match",
        puzzle.name, line["score"], line["max"]
    );
    Ok(jigsolve_render::edge::board_svg(
        puzzle,
        &placements,
        &caption,
    ))
}

/// The quota colours measured on Eternity II's tiles: Blackwood's 13, 16
/// and 10 (see BENCHMARKS.md).
const ETERNITY_II_QUOTA_COLOURS: &str = "13,16,10";

/// The marks named by `--quota-colours` (`none`: no quotas); when the
/// option is not given, Eternity II's measured colours for a puzzle with
/// Eternity II's tiles (with any hints), else none. A name the puzzle does
/// not have is an input error.
pub fn quota_marks(
    puzzle: &Puzzle,
    colours: Option<&str>,
    label: &str,
) -> Result<Vec<jigsolve_edge::MarkId>> {
    let colours = match colours {
        Some(c) => c,
        None if has_eternity_ii_tiles(puzzle) => ETERNITY_II_QUOTA_COLOURS,
        None => "none",
    };
    if colours.trim() == "none" {
        return Ok(Vec::new());
    }
    let list = colours;
    list.split(',')
        .map(|name| {
            let name = name.trim();
            match puzzle.marks.id(name) {
                Some(m) if Some(m) != puzzle.border => Ok(m),
                Some(_) => Err(Error::input(format!(
                    "--quota-colours: '{name}' is the border mark of {label}, not a colour of its inner edges"
                ))),
                None => Err(Error::input(format!(
                    "--quota-colours: {label} has no colour '{name}'"
                ))),
            }
        })
        .collect()
}

/// Whether `puzzle` is Eternity II's board and tiles (the catalog's
/// `eternity2`, whatever its hints and name).
fn has_eternity_ii_tiles(puzzle: &Puzzle) -> bool {
    let Some(entry) = crate::catalog::find("eternity2") else {
        return false;
    };
    let Ok(e2) = jigsolve_edge::parse::parse(entry.text, entry.name, None) else {
        return false;
    };
    (e2.rows, e2.cols, e2.tiles.len()) == (puzzle.rows, puzzle.cols, puzzle.tiles.len())
        && (0..e2.tiles.len()).all(|t| e2.tile_text(t) == puzzle.tile_text(t))
}

/// A seed from the clock, for runs that do not give one (it is printed, so
/// a good run can be repeated).
pub fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}
