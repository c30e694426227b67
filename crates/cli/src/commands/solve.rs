//! `jigsolve solve`: read the puzzle, prepare its session, choose the
//! printer, run under the limits and signals, then report.

use crate::checkpoint;
use crate::engine::EngineOptions;
use crate::exit;
use crate::exit::exit_code;
use crate::family;
use crate::options::SolveArgs;
use crate::outputs::{self, Output};
use crate::printer::{self, Style};
use crate::puzzle::check_engine_options;
use crate::report::{shard_result_path, write_shard_result};
use crate::running::{watch_signals, with_progress};
use crate::session::Found;
use crate::session::Job;
use crate::source;
use crate::source::InputError;
use anyhow::{anyhow, bail, Result};
use jigsolve_search::{Checkpoints, Progress};
use std::io;
use std::ops::ControlFlow;
use std::path::Path;
use std::sync::Arc;

/// Solves the puzzle and prints as `args` say; returns the exit code.
pub fn solve_command(args: &SolveArgs) -> Result<u8> {
    let options = args.options()?;
    let source = source::read(&args.puzzle)?;
    let mut puzzle = family::load(&source, args.engine.format.as_deref())?;
    check_engine_options(puzzle.as_ref(), &args.engine.options())?;
    if let Some(open) = &args.open {
        let names: Vec<String> = open.split(',').map(|n| n.trim().to_string()).collect();
        puzzle = puzzle.with_open(&names)?;
    }
    if args.by_open {
        return crate::commands::by_open::by_open_command(args, puzzle.as_ref());
    }
    // A checkpointed run counts what it tries even without --stats, so that
    // a resumed run with --stats has the counts of the whole search.
    let engine = EngineOptions {
        count_tried: options.stats || options.checkpoint.is_some(),
        deadline: options
            .time_limit
            .map(|s| std::time::Instant::now() + crate::clock::left_of(s)),
        ..args.engine.options()
    };
    let session = puzzle.session(&engine)?;
    let config = options.run_config();
    let job = Job {
        threads: config.threads,
        shard: config.shard,
        want_solutions: config.want_solutions,
        first_solutions_only: options.first_solutions_only(),
    };
    let mut described = session.described(&job);
    // Before the search: its files can be written, and none overwrites
    // another or the puzzle.
    let shard_result = options
        .shard
        .map(|s| shard_result_path(&described.puzzle, s, options.output.as_ref()));
    let mut outs = Vec::new();
    if let Some(path) = &options.checkpoint {
        outs.push(Output {
            option: "--checkpoint",
            path,
            what: "the checkpoint",
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
    let resume_from = match &options.checkpoint {
        Some(path) => {
            let saved = checkpoint::load(path, &described, options.shard)?;
            described.extras.push((
                "checkpoint",
                checkpoint::resumed_text(path, saved.as_ref()).into(),
            ));
            Some(saved.unwrap_or_default())
        }
        None => None,
    };
    let tried_partial = resume_from.as_ref().is_some_and(checkpoint::lacks_tried);
    options.pictures.prepare()?;
    let style = if options.json {
        Style::Json
    } else {
        Style::Text
    };
    let stdout = io::stdout();
    let mut printer = printer::choose(
        style,
        options.count,
        &options.pictures,
        &described,
        io::BufWriter::new(stdout.lock()),
    );

    let control = Arc::new(options.control());
    watch_signals(&control);
    // A resumed listing run goes on numbering where the last one stopped.
    let mut listed = resume_from.as_ref().map_or(0, |p| p.delivered);
    if options.limit.is_some_and(|n| listed >= n) {
        bail!(InputError(format!(
            "{}: {listed} solution{} already listed, which meets --limit; raise the limit to list more",
            options.checkpoint.as_ref().map_or(String::new(), |p| p.display().to_string()),
            if listed == 1 { " was" } else { "s were" }
        )));
    }
    let mut failed: Option<anyhow::Error> = None;
    let bug = "the search tree was cut at a path that does not exist (a bug)";
    let ran = with_progress(&control, options.progress, described.fraction_known, || {
        let mut found = |found: &dyn Found, weight| {
            listed += 1;
            if let Err(e) = printer.solution(listed, found, weight) {
                failed = Some(e);
                return ControlFlow::Break(());
            }
            if options.limit.is_some_and(|n| listed >= n) {
                return ControlFlow::Break(());
            }
            ControlFlow::Continue(())
        };
        match (&options.checkpoint, resume_from) {
            (Some(path), Some(progress)) => {
                let mut save = |p: &Progress| checkpoint::save(path, &described, options.shard, p);
                let checkpoints = Checkpoints {
                    progress,
                    every: options.checkpoint_every,
                    save: &mut save,
                };
                session
                    .run_resumable(&job, &control, checkpoints, &mut found)
                    .map(|(ran, _)| ran)
                    .map_err(|e| anyhow!(checkpoint::resume_error(path, e)))
            }
            _ => session
                .run(&job, &control, &mut found)
                .map_err(|e| anyhow!(e).context(bug)),
        }
    })?;
    let mut ran = ran;
    crate::running::threads_made(&control)?;
    if tried_partial {
        ran.report.nodes.forget_tried();
    }

    if let Some(e) = failed {
        return exit::quiet_on_closed_pipe(e);
    }
    if let (Some(shard), Some(path)) = (options.shard, &shard_result) {
        write_shard_result(&ran.report, &described, shard, path)?;
    }
    if let Err(e) = printer.summary(&ran.report, options.shard, options.stats) {
        return exit::quiet_on_closed_pipe(e);
    }
    if let Some(fault) = ran.fault {
        return Err(anyhow!(fault));
    }
    // The process ends with this command: the kernel takes the puzzle's
    // tables back whole, where dropping them frees thousands of small
    // allocations one by one (about 1% of a run of ten milliseconds).
    std::mem::forget(session);
    std::mem::forget(puzzle);
    Ok(exit_code(&ran.report))
}
