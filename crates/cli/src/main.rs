//! `jigsolve`: find every solution of apictorial puzzles, and show them.
//!
//! The binary is thin: it reads puzzles (files or the built-in catalog),
//! turns options into the family libraries' options, runs the shared search
//! driver and prints what comes back. Exit codes: 0 solutions found, 1 the
//! search was complete and found none, 2 bad input or another error, 3 a
//! time or node limit stopped the search, 130 interrupted.

//!
//! The way through is one way: `main` parses the options ([`options`]),
//! a command ([`commands`]) asks a family ([`family`]) for a session
//! ([`session`]) and chooses the output ([`printer`], [`report`]). No
//! module imports one above it; `tests/module_graph.rs` checks that.

mod clock;
mod commands;
mod exit;
mod family;
mod generated;
mod options;
mod outputs;
mod pictures;
mod printer;
mod running;
mod seek;
mod solutions;

// What the command line shares with the web server lives in the session
// crate; its modules are named here as if they were the binary's own.
use jigsolve_session::{
    best as best_board, catalog, checkpoint, engine, goals, puzzle, report, session, source, text,
    tree as tree_views,
};

use anyhow::{anyhow, Context, Result};
use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};
use commands::{
    best, catalog as listing, estimate, export, generate, hints, merge, render, serve as serving,
    solve, split, tree, unique, verify,
};
use options::{
    BestArgs, EstimateArgs, HintsArgs, RenderArgs, ServeArgs, SolveArgs, SplitArgs, TreeArgs,
    UniqueArgs, VerifyArgs,
};
use std::ffi::OsString;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "jigsolve",
    version,
    about = "Find every solution of apictorial puzzles (edge matching, polyforms, polygons) and show them",
    long_about = None,
    after_help = "PUZZLE is a file or the name of a puzzle in the built-in catalog (see `jigsolve list`).\n\
                  Exit codes: 0 solutions found, 1 complete search found none, 2 error, 3 stopped by a limit, 130 interrupted\n\
                  (unique: 0 unique, 1 none, 4 several)."
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
    /// The board with the most matching inner edges, for edge puzzles too large to solve (Eternity II): reports each improvement until a limit, Ctrl-C or a full score.
    Best(BestArgs),
    /// Is the solution unique? Stops at the second solution up to symmetry and shows the two side by side.
    Unique(UniqueArgs),
    /// The fewest hints (tiles or pieces pinned in place) that leave exactly one solution; writes the puzzle with them.
    Hints(HintsArgs),
    /// Make a puzzle with a planted solution (edge, grid or polygon); --unique keeps only puzzles with one solution.
    #[command(subcommand)]
    Generate(options::GenerateKind),
    /// Estimate the size of a puzzle's search tree, its solutions and the time a full search takes (Knuth's random probes).
    Estimate(EstimateArgs),
    /// Draw the search tree: nodes by outcome, the paths to solutions, deep subtrees folded; counts per depth.
    Tree(TreeArgs),
    /// Print the commands that split a search into N shards for several machines (see `solve --shard`).
    Split(SplitArgs),
    /// Add up the result files of the shards of one split and list the shards that are missing or incomplete; or keep the best board of several `best --json` runs.
    Merge {
        /// Shard result files (written by `solve --shard`), or the output files of `best --json`.
        #[arg(required = true)]
        results: Vec<std::path::PathBuf>,
        /// The puzzle to recount best boards against, when the files name one that is not in the catalog.
        #[arg(long, value_name = "PUZZLE")]
        puzzle: Option<String>,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Write a puzzle as an exact-cover problem in Knuth's DLX format (polyforms), to standard output.
    Export {
        /// Knuth's DLX text format (for his programs DLX1, DLX2, DLX3).
        #[arg(long, required = true)]
        dlx: bool,
        /// Break the board's symmetry as the search does (one option per orbit for one piece), so that the solutions are the unique ones; refused, with the reason, where that cannot be exact.
        #[arg(long)]
        break_symmetry: bool,
        /// The puzzle: a file or a catalog name.
        puzzle: String,
    },
    /// Draw a puzzle, or one of its solutions (from `solve --json`), as SVG or PNG.
    Render(RenderArgs),
    /// Check solutions (the JSON printed by `solve --json`) against a puzzle, independently of the solver.
    Verify(VerifyArgs),
    /// A local web page to enter a puzzle, watch its search and browse its solutions (http://127.0.0.1:8040/ by default).
    Serve(ServeArgs),
    /// Print the completion script of a shell (bash, zsh, fish, elvish, powershell) to standard output.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print the manual (roff: the command's page, then each subcommand's) to standard output: `jigsolve man | man -l -`.
    Man,
}

fn main() -> ExitCode {
    clock::since_start();
    // The command runs on a thread with a search thread's stack: with one
    // thread the search runs there, and a board tens of thousands of
    // pieces deep recurses deeper than a main thread's stack allows. The
    // arguments are parsed there too, so that the memory clap frees is
    // reused by the command: a thread allocates from its own arena of
    // fresh pages, and the main thread's parse left about 45 pages
    // unused for a short run (hexiamonds in the 6 x 6 rhombus: 595 page
    // faults, 550 with glibc's arenas limited to one).
    let command = std::thread::Builder::new()
        .name("jigsolve".into())
        .stack_size(jigsolve_search::SEARCH_STACK_BYTES)
        .spawn(|| dispatch(parse(std::env::args_os().collect())));
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

/// Parses the command line `args` (the program's name first), exiting
/// with clap's message for help, a version or an error.
fn parse(args: Vec<OsString>) -> Cli {
    solve_alone(&args).unwrap_or_else(|| Cli::parse_from(args))
}

/// The command line when it is a `solve` that parses cleanly, with only
/// that command's arguments built: clap builds every command's arguments
/// before it reads one, which took 0.57 M instructions and 22 page faults
/// of a count of the hexiamonds in the 6 x 6 rhombus (62 M). Anything else,
/// help and errors included, is `None`, for the whole command tree to
/// parse and word as always.
fn solve_alone(args: &[OsString]) -> Option<Cli> {
    if args.get(1)? != "solve" {
        return None;
    }
    let matches = SolveArgs::augment_args(clap::Command::new("solve"))
        .try_get_matches_from(&args[1..])
        .ok()?;
    let args = SolveArgs::from_arg_matches(&matches).ok()?;
    Some(Cli {
        command: Command::Solve(args),
    })
}

/// The manual page of `command` (named `name`) and then, one after the
/// other, those of its subcommands (`jigsolve-solve`, `jigsolve-generate-
/// grid`, ...), which its page refers to: the whole reference in one roff
/// stream.
fn manual(command: clap::Command, name: &str, out: &mut Vec<u8>) -> std::io::Result<()> {
    // Its synopsis is the command line: `jigsolve generate grid`.
    let command = command.bin_name(name.replace('-', " "));
    clap_mangen::Man::new(command.clone())
        .title(name.to_string())
        .render(out)?;
    for sub in command.get_subcommands() {
        if sub.get_name() == "help" {
            continue;
        }
        let sub_name = format!("{name}-{}", sub.get_name());
        manual(sub.clone(), &sub_name, out)?;
    }
    Ok(())
}

/// Writes `bytes` to standard output (quietly ending on a closed pipe).
fn write_out(bytes: &[u8]) -> Result<u8> {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(bytes).and_then(|_| out.flush()) {
        exit::stdout_failed(e);
    }
    Ok(exit::FOUND)
}

fn dispatch(cli: Cli) -> Result<u8> {
    match cli.command {
        Command::List => listing::list(),
        Command::Show { name } => listing::show(&name),
        Command::Solve(args) => solve::solve_command(&args),
        Command::Best(args) => best::best_command(&args),
        Command::Unique(args) => unique::unique_command(&args),
        Command::Hints(args) => hints::hints_command(&args),
        Command::Generate(kind) => generate::generate_command(&kind),
        Command::Estimate(args) => estimate::estimate_command(&args),
        Command::Split(args) => split::split_command(&args),
        Command::Tree(args) => tree::tree_command(&args),
        Command::Merge {
            results,
            puzzle,
            json,
        } => merge::merge_command(&results, puzzle.as_deref(), json),
        Command::Export {
            dlx: _,
            break_symmetry,
            puzzle,
        } => export::export_command(&puzzle, break_symmetry),
        Command::Render(args) => render::render_command(&args),
        Command::Verify(args) => verify::verify_command(&args),
        Command::Serve(args) => serving::serve_command(&args),
        Command::Completions { shell } => {
            let mut out = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "jigsolve", &mut out);
            write_out(&out)
        }
        Command::Man => {
            let mut out = Vec::new();
            manual(Cli::command(), "jigsolve", &mut out).context("cannot write the manual")?;
            write_out(&out)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<OsString> {
        line.split_whitespace().map(OsString::from).collect()
    }

    /// `solve` parsed alone gives the arguments the whole tree gives, and
    /// leaves to the whole tree every line it does not parse cleanly
    /// (help, unknown options, bad values, other commands), so that those
    /// keep clap's own messages.
    #[test]
    fn solve_alone_parses_as_the_whole_tree() {
        let clean = [
            "jigsolve solve hexiamond-6x6",
            "jigsolve solve hexiamond-6x6 --count --threads 1",
            "jigsolve solve eternity2 --limit 3 --json --no-progress",
            "jigsolve solve pentomino-6x10 --engine dlx --stats --node-limit 1000",
            "jigsolve solve impuzzable --order spiral --time-limit 2.5 --svg out",
            "jigsolve solve p.toml --format toml --shard 1/4 --output x.json",
            "jigsolve solve p --checkpoint c.json --checkpoint-every 5 --no-symmetry",
            "jigsolve solve --count -- -odd-name",
        ];
        for line in clean {
            let args = words(line);
            let whole = Cli::try_parse_from(&args).unwrap_or_else(|e| panic!("{line}: {e}"));
            let alone = solve_alone(&args).unwrap_or_else(|| panic!("{line}: not parsed alone"));
            let (Command::Solve(whole), Command::Solve(alone)) = (whole.command, alone.command)
            else {
                panic!("{line}: not a solve");
            };
            assert_eq!(format!("{whole:?}"), format!("{alone:?}"), "{line}");
        }
        let refused = [
            "jigsolve solve",
            "jigsolve solve --help",
            "jigsolve solve -h",
            "jigsolve solve --version",
            "jigsolve solve p --threads many",
            "jigsolve solve p --no-such-option",
            "jigsolve solve p q",
            "jigsolve solve p --engine warp",
        ];
        for line in refused {
            let args = words(line);
            assert!(Cli::try_parse_from(&args).is_err(), "{line}");
            assert!(solve_alone(&args).is_none(), "{line}");
        }
        for line in ["jigsolve list", "jigsolve unique p", "jigsolve --version"] {
            assert!(solve_alone(&words(line)).is_none(), "{line}");
        }
    }
}
