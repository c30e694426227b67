//! `jigsolve split`: the cut of the tree for N machines, and the command
//! each shard runs. The shard commands carry every option that shapes the
//! tree, from [`jigsolve_session::engine::EngineOptions::to_args`].

use crate::exit;
use crate::family;
use crate::options::SplitArgs;
use crate::puzzle::check_engine_options;
use crate::session::Job;
use crate::source;
use crate::text::{file_stem, one_line, plural, shell_word};
use anyhow::{Context, Result};
use jigsolve_search::drive::SUBTREES_PER_SHARD;
use serde_json::json;

/// Prints the plan of a split and each shard's command.
pub fn split_command(args: &SplitArgs) -> Result<u8> {
    let source = source::read(&args.puzzle)?;
    let puzzle = family::load(&source, args.engine.format.as_deref())?;
    check_engine_options(puzzle.as_ref(), &args.engine.options())?;
    // The plan of a search by goal is of its own tree (symmetry unbroken).
    let engine = if args.by_open {
        crate::goals::goal_groups(puzzle.as_ref(), "--by-open")?;
        crate::goals::goal_engine(&args.engine.options())
    } else {
        args.engine.options()
    };
    let session = puzzle.session(&engine)?;
    let shards = args.shards as usize;
    let mut described = session.described(&Job::whole_tree());
    if args.by_open {
        described.split.push_str(crate::goals::SPLIT_BY_GOAL);
    }
    let mode = if args.by_open { "--by-open" } else { "--count" };
    let whole = session
        .plan(shards.saturating_mul(SUBTREES_PER_SHARD))
        .context("the search tree was cut at a path that does not exist (a bug)")?;
    let depth = whole
        .subtrees
        .iter()
        .map(|s| s.path.len())
        .max()
        .unwrap_or(0);
    let flags: String = engine
        .to_args()
        .iter()
        .map(|w| format!(" {}", shell_word(w)))
        .collect();
    let per: Vec<usize> = (0..shards)
        .map(|i| {
            whole
                .subtrees
                .iter()
                .enumerate()
                .filter(|(j, _)| j % shards == i)
                .count()
        })
        .collect();
    // The result files are named after the puzzle, which a file from a
    // stranger names: made a safe file name, and quoted all the same.
    let stem = file_stem(&described.puzzle);
    let command = |i: usize| {
        format!(
            "jigsolve solve {}{flags} {mode} --shard {i}/{shards} --output {}",
            shell_word(&args.puzzle),
            shell_word(&format!("{stem}.shard-{i}-of-{shards}.json"))
        )
    };
    if args.json {
        let plan_json = json!({
            "type": "split",
            "family": described.family.as_str(),
            "puzzle": described.puzzle,
            "puzzle_hash": described.puzzle_hash,
            "split": described.split,
            "shards": shards,
            "subtrees": whole.subtrees.len(),
            "cut_depth": depth,
            "subtrees_per_shard": per,
            "commands": (0..shards).map(command).collect::<Vec<_>>(),
        });
        crate::exit::outln!("{plan_json}");
        return Ok(exit::FOUND);
    }
    crate::exit::outln!(
        "# {}: {} shard{}; the tree is cut into {} subtrees down to depth {depth} ({} to {} per shard)",
        one_line(&described.puzzle),
        shards,
        plural(shards as u64),
        whole.subtrees.len(),
        per.iter().min().unwrap_or(&0),
        per.iter().max().unwrap_or(&0)
    );
    crate::exit::outln!(
        "# split: {}; merge the results with: jigsolve merge {stem}.shard-*-of-{shards}.json",
        described.split,
    );
    for i in 0..shards {
        crate::exit::outln!("{}", command(i));
    }
    Ok(exit::FOUND)
}
