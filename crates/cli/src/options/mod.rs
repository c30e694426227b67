//! The command line's options, parsed and checked once.
//!
//! clap reads the words into the `*Args` structs, turning each value into
//! the libraries' own types through their `FromStr` (the libraries know
//! nothing of clap); [`SolveArgs::options`] then checks what clap cannot
//! (options that only make sense together) and hands back [`SolveOptions`],
//! the typed form every later step reads. [`EngineArgs`] is the one list
//! of the flags that shape the search tree; [`EngineArgs::options`] gives
//! them as the session crate's [`EngineOptions`], from which `split`, shard
//! results and `merge` all take them.

use crate::pictures::{PictureFiles, Pictures};
use crate::source::InputError;
use anyhow::{bail, Result};
use clap::Args;

mod best;
mod generate;

pub use best::BestArgs;
pub use generate::{EdgeSpec, GenerateArgs, GenerateKind, GridColouring, GridSpec, PolygonSpec};
use jigsolve_edge::ScanOrder;
use jigsolve_grid::EngineChoice;
use jigsolve_search::{Control, RunConfig, Shard};
use jigsolve_session::engine::EngineOptions;
use jigsolve_session::text::positive;
use jigsolve_session::tree::{tree_nodes, DEFAULT_TREE_NODES};
use std::path::PathBuf;

/// The longest time any option accepts: a year. Longer ones are refused
/// rather than overflow a `Duration`.
pub const MAX_SECONDS: f64 = 365.0 * 24.0 * 3600.0;

/// The most shards a split may have. Each shard gets 16 subtrees of the cut,
/// and the cut is planned in memory.
pub const MAX_SHARDS: usize = 100_000;

/// The most worker threads `--threads` accepts.
pub const MAX_THREADS: usize = 1024;

/// Parses a number of seconds: finite, 0 or more, at most [`MAX_SECONDS`].
fn seconds(text: &str) -> Result<f64, String> {
    let value: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a number of seconds"))?;
    if !value.is_finite() || value < 0.0 {
        return Err(format!("'{text}' is not a number of seconds, 0 or more"));
    }
    if value > MAX_SECONDS {
        return Err(format!(
            "{text} seconds is more than a year; at most {MAX_SECONDS} (365 days) are accepted"
        ));
    }
    Ok(value)
}

/// Parses a thread count: 0 (every core) to [`MAX_THREADS`].
fn threads(text: &str) -> Result<usize, String> {
    let n: usize = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a number of threads (0 means every core)"))?;
    if n > MAX_THREADS {
        return Err(format!("{n} threads: at most {MAX_THREADS} are supported"));
    }
    Ok(n)
}

/// Options that choose the puzzle's format and shape its search tree. Every
/// shard of a split must use the same ones.
#[derive(Args, Clone, Debug, Default)]
pub struct EngineArgs {
    /// The file's format when it cannot be told from the file: toml; for edge matching also wh (a `W H` line, then four numbers per tile) and hints (a hint count, the hints, then the tiles).
    #[arg(long, value_name = "FORMAT")]
    pub format: Option<String>,
    /// List every distinct solution instead of one per symmetry class (the counts are the same).
    #[arg(long)]
    pub no_symmetry: bool,
    /// Edge matching only: the cell order: auto, rows, frame or spiral.
    #[arg(long, value_name = "ORDER")]
    pub order: Option<ScanOrder>,
    /// Polyforms only: the engine: auto, bitboard (tightest cell), bitboard-first (first empty cell), bitboard-mrv (fewest placements) or dlx (dancing links).
    #[arg(long = "engine", value_name = "ENGINE")]
    pub engine_choice: Option<EngineChoice>,
    /// Polygons only: every piece may flip, whatever the file says.
    #[arg(long, conflicts_with = "no_flip")]
    pub flip: bool,
    /// Polygons only: no piece may flip, whatever the file says.
    #[arg(long)]
    pub no_flip: bool,
    /// Polygons only: solve in floating point with a tolerance even when exact numbers would do (the output then says approximate).
    #[arg(long)]
    pub approximate: bool,
}

impl EngineArgs {
    /// The options as the libraries take them.
    pub fn options(&self) -> EngineOptions {
        let EngineArgs {
            format,
            no_symmetry,
            order,
            engine_choice,
            flip,
            no_flip,
            approximate,
        } = self;
        EngineOptions {
            format: format.clone(),
            no_symmetry: *no_symmetry,
            order: *order,
            engine_choice: *engine_choice,
            flip: *flip,
            no_flip: *no_flip,
            approximate: *approximate,
            count_tried: false,
            deadline: None,
        }
    }
}

/// `jigsolve solve` options. Family-specific options are marked in their
/// help; a family rejects options that are not its own rather than
/// ignoring them.
#[derive(Args, Clone, Debug, Default)]
pub struct SolveArgs {
    /// The puzzle: a file or a catalog name.
    pub puzzle: String,
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Count the solutions without listing them.
    #[arg(long)]
    pub count: bool,
    /// Stop after N solutions (with --count: after counting N).
    #[arg(long, value_name = "N", value_parser = positive)]
    pub limit: Option<u64>,
    /// Print JSON Lines: one object per solution, then a summary object.
    #[arg(long)]
    pub json: bool,
    /// Add the number of nodes at each depth of the search tree to the summary.
    #[arg(long)]
    pub stats: bool,
    /// Worker threads (default: every core).
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = threads)]
    pub threads: usize,
    /// Stop after this many seconds (counts are then partial; exit code 3).
    #[arg(long, value_name = "SECONDS", value_parser = seconds, allow_negative_numbers = true)]
    pub time_limit: Option<f64>,
    /// Stop after about this many nodes (counts are then partial; exit code 3).
    #[arg(long, value_name = "N")]
    pub node_limit: Option<u64>,
    /// With --limit: search in one fixed order instead of randomized restarts.
    #[arg(long)]
    pub no_restarts: bool,
    /// Search only share I of N (I from 0 to N-1) and write a result file for `jigsolve merge`.
    #[arg(long, value_name = "I/N", value_parser = parse_shard)]
    pub shard: Option<Shard>,
    /// With --shard: where to write the result (default: NAME.shard-I-of-N.json).
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Save the progress to FILE every --checkpoint-every seconds and when stopped (Ctrl-C, SIGTERM, a limit); the same command run again resumes from it.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// With --checkpoint: seconds between two saves (default 60).
    #[arg(long, value_name = "SECONDS", value_parser = seconds)]
    pub checkpoint_every: Option<f64>,
    /// Never show the progress bar (it is shown on standard error only when that is a terminal).
    #[arg(long)]
    pub no_progress: bool,
    /// Write an SVG picture of each listed solution into DIR (created if missing): NAME-0001.svg, NAME-0002.svg, ...
    #[arg(long, value_name = "DIR")]
    pub svg: Option<PathBuf>,
    /// Write a PNG picture of each listed solution into DIR (created if missing): NAME-0001.png, ...
    #[arg(long, value_name = "DIR")]
    pub png: Option<PathBuf>,
    /// Leave exactly these cells open (a calendar's date), by name, comma-separated: --open "Jan,25".
    #[arg(long, value_name = "CELLS")]
    pub open: Option<String>,
    /// Count the solutions of every goal (which cells stay open: every date of a calendar) in one search, as a table (or JSON Lines with --json).
    #[arg(long)]
    pub by_open: bool,
    /// With --by-open: draw the board with how many solutions leave each cell open, as SVG or PNG (by FILE's extension).
    #[arg(long, value_name = "FILE")]
    pub heat_map: Option<PathBuf>,
}

impl SolveArgs {
    /// The options, checked together: what clap cannot check alone.
    pub fn options(&self) -> Result<SolveOptions> {
        if self.heat_map.is_some() && !self.by_open {
            bail!(InputError(
                "--heat-map draws the counts of --by-open: it goes with --by-open".into()
            ));
        }
        if self.by_open && self.limit.is_some() && !self.json {
            bail!(InputError(
                "--by-open --limit N puts each goal's first N solutions in its JSON line: add --json".into()
            ));
        }
        if self.by_open && self.open.is_some() {
            bail!(InputError(
                "--by-open counts every goal and --open solves one: give one or the other".into()
            ));
        }
        if self.by_open && (self.svg.is_some() || self.png.is_some()) {
            bail!(InputError(
                "--by-open lists no solutions to draw: --svg and --png go without it (--heat-map draws its counts)".into()
            ));
        }
        if self.by_open && self.limit.is_some() && self.checkpoint.is_some() {
            bail!(InputError(
                "--by-open --checkpoint saves each goal's counts but not its first solutions: leave out --limit (or --checkpoint)".into()
            ));
        }
        if self.output.is_some() && self.shard.is_none() {
            bail!(InputError(
                "--output names the shard result file: it goes with --shard".into()
            ));
        }
        let pictures = Pictures {
            svg: self.svg.clone(),
            png: self.png.clone(),
        };
        if self.count && pictures.wanted() {
            bail!(InputError(format!(
                "{} draws the solutions that are listed, and --count lists none: leave out --count (use --limit N to draw the first N)",
                if self.svg.is_some() { "--svg" } else { "--png" }
            )));
        }
        if self.checkpoint_every.is_some() && self.checkpoint.is_none() {
            bail!(InputError(
                "--checkpoint-every says how often to save the --checkpoint FILE: it goes with --checkpoint".into()
            ));
        }
        let checkpoint_every = self.checkpoint_every.unwrap_or(60.0);
        if checkpoint_every < 0.1 {
            bail!(InputError(format!(
                "--checkpoint-every {checkpoint_every}: at least 0.1 seconds between two saves"
            )));
        }
        Ok(SolveOptions {
            checkpoint: self.checkpoint.clone(),
            checkpoint_every: std::time::Duration::from_secs_f64(checkpoint_every),
            count: self.count,
            limit: self.limit,
            json: self.json,
            stats: self.stats,
            threads: self.threads,
            time_limit: self.time_limit,
            node_limit: self.node_limit,
            restarts: !self.no_restarts,
            shard: self.shard,
            output: self.output.clone(),
            progress: !self.no_progress,
            pictures,
        })
    }
}

/// The options of `solve` that every family shares, checked.
#[derive(Clone, Debug, Default)]
pub struct SolveOptions {
    /// Count without listing.
    pub count: bool,
    /// Stop after this many listed solutions.
    pub limit: Option<u64>,
    /// JSON Lines output.
    pub json: bool,
    /// Nodes per depth in the summary.
    pub stats: bool,
    /// Worker threads (0: all cores).
    pub threads: usize,
    /// Stop after this many seconds, counted from the start of the command.
    pub time_limit: Option<f64>,
    /// Stop after about this many nodes.
    pub node_limit: Option<u64>,
    /// With a limit, a family may look for the first solutions by
    /// randomized restarts (`--no-restarts` turns this off).
    pub restarts: bool,
    /// Search only this share of the tree.
    pub shard: Option<Shard>,
    /// Where to write the shard result.
    pub output: Option<PathBuf>,
    /// Show a progress bar when standard error is a terminal.
    pub progress: bool,
    /// Where to write a picture of each listed solution (`--svg`, `--png`).
    pub pictures: Pictures,
    /// Where to save the progress, to resume from it.
    pub checkpoint: Option<PathBuf>,
    /// Time between two saves of the checkpoint.
    pub checkpoint_every: std::time::Duration,
}

impl SolveOptions {
    /// Threads to use: as asked, or every core.
    pub fn thread_count(&self) -> usize {
        if self.threads > 0 {
            self.threads
        } else {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        }
    }

    /// How the tree is run: threads, shard, and whether solutions are
    /// passed out (a limit needs to see them even when none is printed).
    pub fn run_config(&self) -> RunConfig {
        RunConfig {
            threads: self.thread_count(),
            shard: self.shard,
            want_solutions: !self.count || self.limit.is_some(),
        }
    }

    /// True when the search only looks for the first `--limit` solutions
    /// of the whole tree, where randomized restarts may find them sooner.
    pub fn first_solutions_only(&self) -> bool {
        // A resumable run walks the tree in order: restarts have no subtrees
        // to record as finished.
        self.limit.is_some() && self.restarts && self.shard.is_none() && self.checkpoint.is_none()
    }

    /// The control for a search with these limits.
    pub fn control(&self) -> Control {
        let mut control = Control::new().with_progress();
        if let Some(n) = self.node_limit {
            control = control.with_node_limit(n);
        }
        if let Some(s) = self.time_limit {
            control = control.with_time_limit(crate::clock::left_of(s));
        }
        control
    }
}

/// Parses `I/N` (the value of `--shard`).
pub fn parse_shard(text: &str) -> Result<Shard, String> {
    let bad = || "expected I/N, shard I of N with I from 0 to N-1 (for example 0/4)".to_string();
    let (i, n) = text.split_once('/').ok_or_else(bad)?;
    let i: usize = i.trim().parse().map_err(|_| bad())?;
    let n: usize = n.trim().parse().map_err(|_| bad())?;
    if n == 0 {
        return Err("the number of shards must be at least 1".into());
    }
    if n > MAX_SHARDS {
        return Err(format!("at most {MAX_SHARDS} shards are supported"));
    }
    Shard::new(i, n).ok_or_else(|| {
        format!(
            "shard {i} does not exist; with {n} shards they are 0 to {}",
            n - 1
        )
    })
}

/// `jigsolve estimate` options.
#[derive(Args, Clone, Debug)]
pub struct EstimateArgs {
    /// The puzzle: a file or a catalog name.
    pub puzzle: String,
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Random probes to average.
    #[arg(long, default_value_t = 10_000, value_parser = positive)]
    pub probes: u64,
    /// Seed of the probes' random choices (the same seed gives the same estimate).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Stop probing after this many seconds and estimate from the probes walked so far (exit code 3).
    #[arg(long, value_name = "SECONDS", value_parser = seconds, allow_negative_numbers = true)]
    pub time_limit: Option<f64>,
    /// Seconds of real search used to measure the node rate for the time estimate.
    #[arg(long, default_value_t = 0.5, value_name = "SECONDS", value_parser = seconds, allow_negative_numbers = true)]
    pub measure: f64,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// `jigsolve unique` options.
#[derive(Args, Clone, Debug)]
pub struct UniqueArgs {
    /// The puzzle: a file or a catalog name.
    pub puzzle: String,
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Worker threads (default: every core).
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = threads)]
    pub threads: usize,
    /// Stop after this many seconds (the answer is then "unknown"; exit code 3).
    #[arg(long, value_name = "SECONDS", value_parser = seconds, allow_negative_numbers = true)]
    pub time_limit: Option<f64>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Never show the progress bar.
    #[arg(long)]
    pub no_progress: bool,
    /// Write an SVG picture to FILE: two solutions side by side with their differences marked, or the one solution (none when there is none or the answer is unknown).
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Write the same picture as a PNG (twice the SVG's size) to FILE.
    #[arg(long, value_name = "FILE")]
    pub png: Option<PathBuf>,
}

impl UniqueArgs {
    /// Where the picture goes (`--svg FILE`, `--png FILE`).
    pub fn pictures(&self) -> PictureFiles {
        PictureFiles {
            svg: self.svg.clone(),
            png: self.png.clone(),
        }
    }

    /// Threads to use: as asked, or every core.
    pub fn thread_count(&self) -> usize {
        every_core_unless(self.threads)
    }
}

/// `jigsolve tree` options.
#[derive(Args, Clone, Debug)]
pub struct TreeArgs {
    /// The puzzle: a file or a catalog name.
    pub puzzle: String,
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Record the first N levels below the root node by node (at least 1); deeper subtrees are searched and drawn folded, as triangles (default: as deep as --max-nodes allows).
    #[arg(long, value_name = "N", value_parser = positive)]
    pub depth: Option<u64>,
    /// Record at most N nodes: the first level that would pass N is folded instead (1 to 100,000).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_TREE_NODES, value_parser = tree_nodes)]
    pub max_nodes: usize,
    /// Write the tree as an SVG picture to FILE.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Write the tree as a PNG picture (twice the SVG's size) to FILE.
    #[arg(long, value_name = "FILE")]
    pub png: Option<PathBuf>,
    /// Print the counts per depth as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Stop searching the folded subtrees after this many seconds (their counts are then partial; exit code 3).
    #[arg(long, value_name = "SECONDS", value_parser = seconds, allow_negative_numbers = true)]
    pub time_limit: Option<f64>,
}

impl TreeArgs {
    /// Where the picture goes (`--svg FILE` or `--png FILE`).
    pub fn pictures(&self) -> PictureFiles {
        PictureFiles {
            svg: self.svg.clone(),
            png: self.png.clone(),
        }
    }
}

/// `jigsolve hints` options.
#[derive(Args, Clone, Debug)]
pub struct HintsArgs {
    /// The puzzle: a file or a catalog name.
    pub puzzle: String,
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Write the puzzle with its hints to FILE (`-`: standard output; default NAME-hints.toml).
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Worker threads (default: every core).
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = threads)]
    pub threads: usize,
    /// Write an SVG picture of the puzzle with its hints to FILE.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Write a PNG picture of the puzzle with its hints to FILE.
    #[arg(long, value_name = "FILE")]
    pub png: Option<PathBuf>,
    /// Stop after this many seconds with the fewest hints known to work, not proven smallest (exit code 3).
    #[arg(long, value_name = "SECONDS", value_parser = seconds, allow_negative_numbers = true)]
    pub time_limit: Option<f64>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Never show the progress bar.
    #[arg(long)]
    pub no_progress: bool,
}

impl HintsArgs {
    /// Threads to use: as asked, or every core.
    pub fn thread_count(&self) -> usize {
        every_core_unless(self.threads)
    }
}

/// `threads`, or every core when it is 0.
fn every_core_unless(threads: usize) -> usize {
    if threads > 0 {
        threads
    } else {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    }
}

/// `jigsolve split` options.
#[derive(Args, Clone, Debug)]
pub struct SplitArgs {
    /// The puzzle: a file or a catalog name.
    pub puzzle: String,
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Number of shards (1 to 100,000).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=MAX_SHARDS as u64))]
    pub shards: u64,
    /// Print the plan as JSON.
    #[arg(long)]
    pub json: bool,
    /// Shards that count every goal (`solve --by-open --shard`), for a puzzle that leaves cells open.
    #[arg(long)]
    pub by_open: bool,
}

/// `jigsolve render` options.
#[derive(Args, Clone, Debug)]
pub struct RenderArgs {
    /// The puzzle: a file or a catalog name.
    pub puzzle: String,
    /// Draw a solution from FILE (the JSON Lines of `solve --json`, or one solution object; `-` reads standard input) instead of the puzzle.
    #[arg(long, value_name = "FILE")]
    pub solution: Option<String>,
    /// With --solution: draw the N-th solution of the file (default: the first).
    #[arg(long, value_name = "N", value_parser = positive)]
    pub index: Option<u64>,
    /// Write the SVG picture to FILE (`-`: standard output). Without --svg or --png the SVG goes to standard output.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Write a PNG picture (twice the SVG's size) to FILE (`-`: standard output).
    #[arg(long, value_name = "FILE")]
    pub png: Option<PathBuf>,
    /// The puzzle file's format (see `solve --format`).
    #[arg(long, value_name = "FORMAT")]
    pub format: Option<String>,
}

/// `jigsolve verify` options.
#[derive(Args, Clone, Debug)]
pub struct VerifyArgs {
    /// The puzzle: a file or a catalog name.
    pub puzzle: String,
    /// A file of solutions: JSON Lines from `solve --json`, or one solution object. `-` reads standard input.
    pub solution: String,
    /// The puzzle file's format (see `solve --format`).
    #[arg(long)]
    pub format: Option<String>,
}

/// `jigsolve serve` options.
#[derive(Args, Clone, Debug)]
pub struct ServeArgs {
    /// The port to listen on (0: any free port; the address is printed).
    #[arg(long, default_value_t = 8040)]
    pub port: u16,
    /// The address to listen on. Anything but a loopback address lets other machines use the server.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1")]
    pub listen: std::net::IpAddr,
    /// Start the system's web browser on the page.
    #[arg(long)]
    pub open: bool,
    /// Threads all searches may use at once (default: every core); a search takes the threads it asks for, 1 to this many, and waits in a queue until they are free.
    #[arg(long, value_name = "N", value_parser = threads, default_value_t = 0)]
    pub threads: usize,
    /// Searches that may wait for a thread; more are refused with a message.
    #[arg(long, value_name = "N", default_value_t = 64, value_parser = clap::value_parser!(u32).range(0..=10_000))]
    pub queue: u32,
    /// The longest a search may run, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 3600.0, value_parser = seconds)]
    pub time_limit: f64,
    /// How long a new search waits for its page to listen to its progress before it is forgotten, in seconds (0.1 to 3,600).
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0, value_parser = connect_seconds)]
    pub connect_timeout: f64,
    /// Solutions kept per search for browsing and download (0 to 100,000); the counts go on past them.
    #[arg(long, value_name = "N", default_value_t = 1000, value_parser = kept_solutions, allow_negative_numbers = true)]
    pub kept_solutions: u32,
}

/// Parses `serve --kept-solutions`: each kept solution is memory held for
/// an open page, so their number is bounded.
fn kept_solutions(text: &str) -> Result<u32, String> {
    match text.trim().parse::<u32>() {
        Ok(n) if n <= 100_000 => Ok(n),
        _ => Err(format!(
            "'{text}' is not a number of solutions from 0 to 100000"
        )),
    }
}

/// Parses `serve --connect-timeout`: a page needs some time to connect,
/// and a search waiting longer than an hour for one is a leak.
fn connect_seconds(text: &str) -> Result<f64, String> {
    let value = seconds(text)?;
    if !(0.1..=3600.0).contains(&value) {
        return Err(format!(
            "{text} seconds: the connect timeout must be from 0.1 to 3600 seconds"
        ));
    }
    Ok(value)
}
