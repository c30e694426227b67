//! `jigsolve solve`: read the puzzle, prepare its session, choose the
//! printer, run under the limits and signals, then report.

use crate::exit;
use crate::family;
use crate::options::SolveArgs;
use crate::printer::{self, Style};
use crate::puzzle::check_engine_options;
use crate::report::{exit_code, write_shard_result};
use crate::running::{watch_signals, with_progress};
use crate::session::Job;
use crate::source;
use anyhow::{anyhow, Context, Result};
use std::io;
use std::ops::ControlFlow;
use std::sync::Arc;

/// Solves the puzzle and prints as `args` say; returns the exit code.
pub fn solve_command(args: &SolveArgs) -> Result<u8> {
    let options = args.options()?;
    let source = source::read(&args.puzzle)?;
    let puzzle = family::load(&source, args.engine.format.as_deref())?;
    check_engine_options(puzzle.as_ref(), &args.engine)?;
    let session = puzzle.session(&args.engine)?;
    let config = options.run_config();
    let job = Job {
        threads: config.threads,
        shard: config.shard,
        want_solutions: config.want_solutions,
        first_solutions_only: options.first_solutions_only(),
    };
    let described = session.described(&job);
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
    let mut listed = 0u64;
    let mut failed: Option<anyhow::Error> = None;
    let ran = with_progress(&control, options.progress, described.fraction_known, || {
        session.run(&job, &control, &mut |found, weight| {
            listed += 1;
            if let Err(e) = printer.solution(listed, found, weight) {
                failed = Some(e);
                return ControlFlow::Break(());
            }
            if options.limit.is_some_and(|n| listed >= n) {
                return ControlFlow::Break(());
            }
            ControlFlow::Continue(())
        })
    })
    .context("the search tree was cut at a path that does not exist (a bug)")?;

    if let Some(e) = failed {
        return quiet_on_closed_pipe(e);
    }
    if let Some(shard) = options.shard {
        write_shard_result(&ran.report, &described, shard, options.output.as_ref())?;
    }
    if let Err(e) = printer.summary(&ran.report, options.shard, options.stats) {
        return quiet_on_closed_pipe(e);
    }
    if let Some(fault) = ran.fault {
        return Err(anyhow!(fault));
    }
    Ok(exit_code(&ran.report))
}

/// A reader that closed the pipe ends the command quietly; any other
/// failure is an error.
fn quiet_on_closed_pipe(error: anyhow::Error) -> Result<u8> {
    if exit::is_broken_pipe(&error) {
        Ok(exit::FOUND)
    } else {
        Err(error)
    }
}
