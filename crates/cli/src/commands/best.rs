//! `jigsolve best`: the board with the most matching inner edges, for edge
//! puzzles too large to solve. The library searches and hands over every
//! improvement; this command prints each as it comes (a line of text or a
//! JSON line), and at the end the best board as text, its viewer link and
//! its picture.

use crate::best_board::{
    clock_seed, end_words, improvement_json, quota_marks, restarts_json, restarts_text,
    summary_json as best_summary_json,
};
use crate::exit;
use crate::family;
use crate::options::BestArgs;
use crate::running::watch_signals;
use crate::source::{self, InputError};
use crate::text::group_digits;
use anyhow::{anyhow, Result};
use jigsolve_edge::best::{search_best_from, BestEnd, BestOptions, Improvement};
use jigsolve_search::StopReason;
use serde_json::json;
use std::sync::Arc;

/// Seed streams per shard: more than any shard has threads (`--threads` is
/// at most 1,024), so shards never share a stream.
const STREAMS_PER_SHARD: u64 = 1 << 10;

/// Runs the search and prints as `args` say; returns the exit code: 0 a
/// full score, 1 the whole tree searched under the break rules without
/// one, 3 a limit, 130 interrupted.
pub fn best_command(args: &BestArgs) -> Result<u8> {
    let source = source::read(&args.puzzle)?;
    let puzzle = family::load_edge(&source, args.format.as_deref(), "best")?;
    args.pictures().prepare()?;
    let seed = args.seed.unwrap_or_else(clock_seed);
    let quota_marks = quota_marks(&puzzle, args.quota_colours.as_deref(), &source.label)?;
    let options = BestOptions {
        order: args.order,
        breaks_after: args.breaks_after,
        max_breaks: args.max_breaks,
        restart_nodes: args.restart_nodes,
        stall_nodes: args.stall_nodes.0,
        seed,
        threads: args.thread_count(),
        quota_marks,
        polish: args.polish.0,
        reassign: args.reassign.0,
        frame_breaks: args.frame_breaks,
        pin_breaks: args.pin_breaks.0,
    };
    let first_stream = args.shard.map_or(0, |s| s.index as u64 * STREAMS_PER_SHARD);
    let control = Arc::new(args.control());
    watch_signals(&control);
    let json = args.json;
    let hash = family::edge_puzzle_hash(&puzzle);
    let shard = args.shard.map(|s| format!("{}/{}", s.index, s.count));
    let sink = |found: &Improvement| {
        if json {
            exit::outln!(
                "{}",
                improvement_json(&puzzle, &hash, found, seed, shard.as_deref())
            );
        } else {
            exit::outln!(
                "score {}/{}  nodes {}  {:.2} s  (thread {}, restart {})",
                found.score,
                found.max,
                group_digits(found.nodes as u128),
                found.elapsed.as_secs_f64(),
                found.thread,
                found.restart
            );
        }
    };
    let report = search_best_from(&puzzle, &options, first_stream, &control, &sink)
        .map_err(|e| anyhow!(InputError(format!("{}: {e}", source.label))))?;
    let seconds = control.elapsed().as_secs_f64();
    let code = match report.end {
        BestEnd::FullScore | BestEnd::Stopped(StopReason::SolutionLimit) => exit::FOUND,
        BestEnd::Exhausted => exit::NONE,
        BestEnd::Stopped(StopReason::Cancelled) => exit::CANCELLED,
        BestEnd::Stopped(StopReason::TimeLimit | StopReason::NodeLimit) => exit::LIMIT,
    };
    let ended = end_words(report.end);
    let max = jigsolve_edge::best::max_score(puzzle.rows, puzzle.cols);
    let score = report.best.as_ref().map(|b| b.score);
    if let Some(best) = &report.best {
        if args.pictures().wanted() {
            let caption = format!(
                "{}: best board, {} of {max} inner edges match (seed {seed})",
                puzzle.name, best.score
            );
            let svg = jigsolve_render::edge::board_svg(&puzzle, &best.placements, &caption);
            args.pictures().write(&svg)?;
        }
    }
    let rate = report.nodes as f64 / seconds.max(1e-9);
    if json {
        let mut summary = best_summary_json(&puzzle, &hash, &report, seconds, seed);
        summary["shard"] = json!(shard);
        if args.stats {
            summary["restarts_ended"] = restarts_json(&report.restart_ends);
        }
        exit::outln!("{summary}");
    } else {
        if let Some(best) = &report.best {
            exit::out!(
                "{}",
                jigsolve_render::edge::board_text(&puzzle, &best.placements)
            );
            match jigsolve_edge::score::link(&puzzle, &best.placements) {
                Ok(link) => exit::outln!("{link}"),
                Err(e) => exit::outln!("(no viewer link: {e})"),
            }
        }
        exit::outln!(
            "best {} of {max} inner edges; {} nodes in {:.1} s ({}/s), {} restarts, seed {seed}; ended: {ended}",
            score.map_or("none".to_string(), |s| s.to_string()),
            group_digits(report.nodes as u128),
            seconds,
            group_digits(rate as u128),
            report.restarts,
        );
        if args.stats {
            exit::out!("{}", restarts_text(&report.restart_ends));
        }
    }
    Ok(code)
}
