//! `jigsolve`: find every solution of apictorial puzzles, and show them.
//!
//! The binary is thin: it reads puzzles (files or the built-in catalog),
//! turns options into the family libraries' options, runs the shared search
//! driver and prints what comes back. Exit codes: 0 solutions found, 1 the
//! search was complete and found none, 2 bad input or another error, 3 a
//! time or node limit stopped the search, 130 interrupted.

mod exit;

mod args;
mod catalog;
mod family;
mod merge;
mod pictures;
mod solve;
mod source;

use anyhow::{anyhow, bail, Result};
use args::{EstimateArgs, SolveArgs, SplitArgs};
use clap::{Parser, Subcommand};
use serde_json::Value;
use source::InputError;
use std::io::Write;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "jigsolve",
    version,
    about = "Find every solution of apictorial puzzles (edge matching, polyforms, polygons) and show them",
    long_about = None,
    after_help = "PUZZLE is a file or the name of a puzzle in the built-in catalog (see `jigsolve list`).\n\
                  Exit codes: 0 solutions found, 1 complete search found none, 2 error, 3 stopped by a limit, 130 interrupted."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List the puzzles shipped inside the binary.
    List,
    /// Print a catalog puzzle's file, to copy and edit.
    Show {
        /// Catalog name.
        name: String,
    },
    /// Find the solutions of a puzzle.
    Solve(SolveArgs),
    /// Estimate the size of a puzzle's search tree, its solutions and the time a full search takes (Knuth's random probes).
    Estimate(EstimateArgs),
    /// Print the commands that split a search into N shards for several machines (see `solve --shard`).
    Split(SplitArgs),
    /// Add up the result files of the shards of one split; list the shards that are missing or incomplete.
    Merge {
        /// Shard result files (written by `solve --shard`).
        #[arg(required = true)]
        results: Vec<std::path::PathBuf>,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Write a puzzle as an exact-cover problem in Knuth's DLX format (polyforms), to standard output.
    Export {
        /// Knuth's DLX text format (for his programs DLX1, DLX2, DLX3).
        #[arg(long, required = true)]
        dlx: bool,
        /// The puzzle: a file or a catalog name.
        puzzle: String,
    },
    /// Draw a puzzle, or one of its solutions (from `solve --json`), as SVG or PNG.
    Render(pictures::RenderArgs),
    /// Check solutions (the JSON printed by `solve --json`) against a puzzle, independently of the solver.
    Verify {
        /// The puzzle: a file or a catalog name.
        puzzle: String,
        /// A file of solutions: JSON Lines from `solve --json`, or one solution object. `-` reads standard input.
        solution: String,
        /// The puzzle file's format (see `solve --format`).
        #[arg(long)]
        format: Option<String>,
    },
}

/// When the command started: `--time-limit` counts from here, so that
/// reading and preparing a huge puzzle is inside the limit too.
static STARTED: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();

/// Time since the command started.
pub fn since_start() -> std::time::Duration {
    STARTED.get_or_init(std::time::Instant::now).elapsed()
}

fn main() -> ExitCode {
    since_start();
    let cli = Cli::parse();
    // The command runs on a thread with a search thread's stack: with one
    // thread the search runs there, and a board tens of thousands of
    // pieces deep recurses deeper than a main thread's stack allows.
    let command = std::thread::Builder::new()
        .name("jigsolve".into())
        .stack_size(jigsolve_search::SEARCH_STACK_BYTES)
        .spawn(move || dispatch(cli));
    let result = match command {
        Ok(handle) => match handle.join() {
            Ok(result) => result,
            Err(panic) => std::panic::resume_unwind(panic),
        },
        Err(e) => Err(anyhow!("cannot start the command's thread: {e}")),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(e) => ExitCode::from(exit::code_of(&e)),
    }
}

fn dispatch(cli: Cli) -> Result<u8> {
    match cli.command {
        Command::List => list(),
        Command::Show { name } => show(&name),
        Command::Solve(args) => solve_command(&args),
        Command::Estimate(args) => {
            let source = source::read(&args.puzzle)?;
            let puzzle = family::load(&source, args.engine.format.as_deref())?;
            check_engine_options(puzzle.as_ref(), &args.engine)?;
            puzzle.estimate(&args)
        }
        Command::Split(args) => {
            let source = source::read(&args.puzzle)?;
            let puzzle = family::load(&source, args.engine.format.as_deref())?;
            check_engine_options(puzzle.as_ref(), &args.engine)?;
            puzzle.split(&args)
        }
        Command::Merge { results, json } => merge::merge_command(&results, json),
        Command::Export { dlx: _, puzzle } => export_command(&puzzle),
        Command::Render(args) => pictures::render_command(&args),
        Command::Verify {
            puzzle,
            solution,
            format,
        } => verify_command(&puzzle, &solution, format.as_deref()),
    }
}

fn list() -> Result<u8> {
    let mut out = std::io::stdout().lock();
    let w = catalog::ENTRIES
        .iter()
        .map(|e| e.name.len())
        .max()
        .unwrap_or(0)
        .max(16);
    for entry in catalog::ENTRIES {
        let title = catalog::field(entry, "title").unwrap_or_default();
        let about = catalog::field(entry, "about").unwrap_or_default();
        writeln!(out, "{:<w$} {:<8} {title}", entry.name, entry.family)?;
        if !about.is_empty() {
            writeln!(out, "{:<w$} {:<8} {about}", "", "")?;
        }
        if let Some(expected) = catalog::expected(entry) {
            writeln!(out, "{:<w$} {:<8} published counts: {expected}", "", "")?;
        }
    }
    Ok(exit::FOUND)
}

fn show(name: &str) -> Result<u8> {
    let entry = catalog::find(name).ok_or_else(|| {
        let names: Vec<&str> = catalog::ENTRIES.iter().map(|e| e.name).collect();
        anyhow!(InputError(format!(
            "no catalog puzzle named '{name}' (the catalog has: {})",
            names.join(", ")
        )))
    })?;
    crate::exit::out!("{}", entry.text);
    Ok(exit::FOUND)
}

fn solve_command(args: &SolveArgs) -> Result<u8> {
    args.common()?;
    let source = source::read(&args.puzzle)?;
    let puzzle = family::load(&source, args.engine.format.as_deref())?;
    check_engine_options(puzzle.as_ref(), &args.engine)?;
    puzzle.solve(args)
}

/// Rejects engine options that do not apply to the puzzle's family.
fn check_engine_options(puzzle: &dyn family::Loaded, engine: &args::EngineArgs) -> Result<()> {
    family::reject_option(
        puzzle.name(),
        "--order",
        engine.order.is_some() && puzzle.family() != source::Family::Edge,
        "edge-matching",
    )?;
    family::reject_option(
        puzzle.name(),
        "--engine",
        engine.engine_choice.is_some() && puzzle.family() != source::Family::Grid,
        "polyform (grid)",
    )?;
    family::reject_option(
        puzzle.name(),
        if engine.flip { "--flip" } else { "--no-flip" },
        (engine.flip || engine.no_flip) && puzzle.family() != source::Family::Polygon,
        "polygon",
    )?;
    family::reject_option(
        puzzle.name(),
        "--approximate",
        engine.approximate && puzzle.family() != source::Family::Polygon,
        "polygon",
    )
}

/// Writes the puzzle in Knuth's DLX format to standard output.
fn export_command(spec: &str) -> Result<u8> {
    let source = source::read(spec)?;
    let puzzle = family::load(&source, None)?;
    let text = puzzle.export_dlx()?;
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(exit::FOUND)
}

/// Checks every solution in `solution_path` against the puzzle. Exit 0 when
/// all hold, 1 when one does not (the message names its line), 2 when the
/// files cannot be read.
fn verify_command(puzzle_spec: &str, solution_path: &str, format: Option<&str>) -> Result<u8> {
    let source = source::read(puzzle_spec)?;
    let puzzle = family::load(&source, format)?;
    let text = source::read_solutions_text(solution_path)?;
    let mut checked = 0;
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        if line.trim().is_empty() {
            continue;
        }
        let value: Value = serde_json::from_str(line).map_err(|e| {
            anyhow!(InputError(format!(
                "{solution_path}:{line_no}: not JSON: {e}"
            )))
        })?;
        let record = match value.get("type").and_then(Value::as_str) {
            Some("summary") => continue,
            Some("solution") => value
                .get("solution")
                .ok_or_else(|| {
                    anyhow!(InputError(format!(
                        "{solution_path}:{line_no}: a solution line without a \"solution\" object"
                    )))
                })?
                .clone(),
            _ => value.get("solution").cloned().unwrap_or(value),
        };
        if let Err(why) = puzzle.verify(&record) {
            eprintln!(
                "{solution_path}:{line_no}: not a solution of {}: {why}",
                source.label
            );
            return Ok(exit::NONE);
        }
        checked += 1;
    }
    if checked == 0 {
        bail!(InputError(format!(
            "{solution_path}: no solution in the file"
        )));
    }
    crate::exit::outln!(
        "ok: {checked} solution{} of {} verified",
        if checked == 1 { "" } else { "s" },
        source.label
    );
    Ok(exit::FOUND)
}
