//! `jigsolve solve PUZZLE --by-open`: every goal of a puzzle that leaves
//! cells open (each date of a calendar) counted in one search.
//!
//! The open cells are pieces to the engines ([`jigsolve_grid::Piece::open`]),
//! so one walk of the whole tree meets every solution of every goal: each
//! worker tallies the solutions it finds under the cells they leave open
//! ([`jigsolve_search::count_by`]). Symmetry is not broken in this search (a
//! representative's goal is not its images' goal), so the counts are per
//! goal as the board is drawn. A shard writes its goals' counts into its
//! result file, and `merge` adds them up ([`crate::goals`] prints both).

use crate::checkpoint;
use crate::engine::EngineOptions;
use crate::exit;
use crate::exit::exit_code;
use crate::goals::{
    count_goals, count_goals_resumable, goal_engine, goal_groups, heat_map, print_goals, Counted,
    SPLIT_BY_GOAL,
};
use crate::options::SolveArgs;
use crate::outputs::{self, Output};
use crate::puzzle::Loaded;
use crate::report::{shard_result_path, summary_json, summary_text, write_shard_result_with_goals};
use crate::running::{watch_signals, with_progress};
use crate::session::Job;
use crate::source::InputError;
use anyhow::{anyhow, bail, Context, Result};
use jigsolve_search::shard::GoalCount;
use jigsolve_search::Report;
use serde_json::json;
use std::io::Write;
use std::path::Path;
use std::sync::Arc;

/// Counts every goal of `puzzle` as `args` say; returns the exit code.
pub fn by_open_command(args: &SolveArgs, puzzle: &dyn Loaded) -> Result<u8> {
    let options = args.options()?;
    let groups = goal_groups(puzzle, "--by-open")?;
    // A checkpointed run counts what it tries even without --stats, as
    // `solve` does, so that a resumed run with --stats has the whole.
    let engine = EngineOptions {
        count_tried: options.stats || options.checkpoint.is_some(),
        deadline: options
            .time_limit
            .map(|s| std::time::Instant::now() + crate::clock::left_of(s)),
        ..goal_engine(&args.engine.options())
    };
    let session = puzzle.session(&engine)?;
    let threads = options.run_config().threads;
    let job = Job {
        threads,
        shard: options.shard,
        want_solutions: false,
        first_solutions_only: false,
    };
    let mut described = session.described(&job);
    described.split.push_str(SPLIT_BY_GOAL);
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
    if let Some(path) = &options.checkpoint {
        outs.push(Output {
            option: "--checkpoint",
            path,
            what: "the checkpoint",
        });
    }
    outputs::check(&outs, &[("the puzzle", Path::new(&args.puzzle))])?;
    let saved = match &options.checkpoint {
        Some(path) => {
            let saved = checkpoint::load_with_goals(path, &described, options.shard)?;
            let progress = saved.as_ref().map(|(p, _)| p);
            described.extras.push((
                "checkpoint",
                checkpoint::resumed_text(path, progress).into(),
            ));
            saved
        }
        None => None,
    };
    let tried_partial = saved
        .as_ref()
        .is_some_and(|(p, _)| checkpoint::lacks_tried(p));

    // --limit N: each goal's first N solutions in its JSON line.
    let keep = options
        .limit
        .map_or(0, |n| usize::try_from(n).unwrap_or(usize::MAX));
    let control = Arc::new(options.control());
    watch_signals(&control);
    let counted =
        with_progress(
            &control,
            options.progress,
            described.fraction_known,
            || match &options.checkpoint {
                Some(path) => count_goals_resumable(
                    session.as_ref(),
                    &groups,
                    &job,
                    &control,
                    (path, options.checkpoint_every),
                    &described,
                    saved,
                ),
                None => count_goals(
                    session.as_ref(),
                    &groups,
                    threads,
                    options.shard,
                    keep,
                    &control,
                ),
            },
        )?;
    let Counted {
        ran,
        goals,
        first,
        empty,
        fewer_threads,
    } = counted;
    if let Some(warning) = fewer_threads {
        eprintln!("jigsolve: {warning}");
    }
    if let Some(fault) = ran.fault {
        return Err(anyhow!(fault));
    }
    let mut report = ran.report;
    if tried_partial {
        report.nodes.forget_tried();
    }
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let written = (|| -> std::io::Result<()> {
        print_goals(&mut out, &goals, &empty, &first, options.json)?;
        if options.json {
            let mut summary = summary_json(&report, &described, options.shard, options.stats);
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
                summary_text(&report, &described, options.shard, options.stats)
            )?;
        }
        out.flush()
    })();
    if let Err(e) = written {
        return exit::quiet_on_closed_pipe(anyhow!(e).context("cannot write to standard output"));
    }
    if let (Some(shard), Some(path)) = (options.shard, &shard_result) {
        write_shard_result_with_goals(&report, &described, shard, path, goals.clone())?;
    }
    if let Some(path) = &args.heat_map {
        write_heat_map(puzzle, &report, &goals, path)?;
    }
    Ok(exit_code(&report))
}

/// Draws the heat map of `goals` to `path` (SVG or PNG by its extension).
pub fn write_heat_map(
    puzzle: &dyn Loaded,
    report: &Report,
    goals: &[GoalCount],
    path: &Path,
) -> Result<()> {
    let svg = heat_map(puzzle, report, goals)?;
    let bytes = match heat_map_format(path)? {
        Picture::Svg => svg.into_bytes(),
        Picture::Png => jigsolve_render::png::png(&svg, 2.0).map_err(|e| anyhow!("{e}"))?,
    };
    std::fs::write(path, bytes)
        .with_context(|| format!("cannot write the heat map to {}", path.display()))?;
    eprintln!("jigsolve: heat map written to {}", path.display());
    Ok(())
}

/// The picture format of a heat map file.
pub enum Picture {
    /// SVG.
    Svg,
    /// PNG.
    Png,
}

/// The picture format `path`'s extension asks for.
pub fn heat_map_format(path: &Path) -> Result<Picture> {
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
