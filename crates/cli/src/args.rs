//! Command-line options shared by the commands that search.

use crate::solve::Common;
use crate::source::InputError;
use anyhow::{bail, Result};
use clap::Args;
use jigsolve_search::Shard;
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
    pub order: Option<String>,
    /// Polyforms only: the engine: auto, bitboard (tightest cell), bitboard-first (first empty cell), bitboard-mrv (fewest placements) or dlx (dancing links).
    #[arg(long = "engine", value_name = "ENGINE")]
    pub engine_choice: Option<String>,
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
    /// The options as command-line words, in one fixed order: what `split`
    /// writes into every shard command, so that each shard searches the tree
    /// the split was planned on. Every field of this struct must appear here
    /// (a test in `tests/split_options.rs` runs each one through a split).
    pub fn to_args(&self) -> Vec<String> {
        // Destructured so that a new option cannot be added without being
        // forwarded: the compiler names the missing field.
        let EngineArgs {
            format,
            no_symmetry,
            order,
            engine_choice,
            flip,
            no_flip,
            approximate,
        } = self;
        let mut words = Vec::new();
        let mut value = |flag: &str, v: &Option<String>| {
            if let Some(v) = v {
                words.push(flag.to_string());
                words.push(v.clone());
            }
        };
        value("--format", format);
        value("--order", order);
        value("--engine", engine_choice);
        for (flag, on) in [
            ("--no-symmetry", *no_symmetry),
            ("--flip", *flip),
            ("--no-flip", *no_flip),
            ("--approximate", *approximate),
        ] {
            if on {
                words.push(flag.to_string());
            }
        }
        words
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
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
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
    #[arg(long, value_name = "I/N")]
    pub shard: Option<String>,
    /// With --shard: where to write the result (default: NAME.shard-I-of-N.json).
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Never show the progress bar (it is shown on standard error only when that is a terminal).
    #[arg(long)]
    pub no_progress: bool,
    /// Write an SVG picture of each listed solution into DIR (created if missing): NAME-0001.svg, NAME-0002.svg, ...
    #[arg(long, value_name = "DIR")]
    pub svg: Option<PathBuf>,
    /// Write a PNG picture of each listed solution into DIR (created if missing): NAME-0001.png, ...
    #[arg(long, value_name = "DIR")]
    pub png: Option<PathBuf>,
}

impl SolveArgs {
    /// The options every family shares, checked.
    pub fn common(&self) -> Result<Common> {
        if let Some(t) = self.time_limit {
            if !(t >= 0.0 && t.is_finite()) {
                bail!(InputError(format!(
                    "--time-limit must be a number of seconds, 0 or more (got {t})"
                )));
            }
        }
        let shard = self.shard.as_deref().map(parse_shard).transpose()?;
        if self.output.is_some() && shard.is_none() {
            bail!(InputError(
                "--output names the shard result file: it goes with --shard".into()
            ));
        }
        let pictures = crate::pictures::Pictures {
            svg: self.svg.clone(),
            png: self.png.clone(),
        };
        if self.count && pictures.wanted() {
            bail!(InputError(format!(
                "{} draws the solutions that are listed, and --count lists none: leave out --count (use --limit N to draw the first N)",
                if self.svg.is_some() { "--svg" } else { "--png" }
            )));
        }
        Ok(Common {
            count: self.count,
            limit: self.limit,
            json: self.json,
            stats: self.stats,
            threads: self.threads,
            time_limit: self.time_limit,
            node_limit: self.node_limit,
            shard,
            output: self.output.clone(),
            progress: !self.no_progress,
            pictures,
        })
    }
}

/// Parses `I/N`.
pub fn parse_shard(text: &str) -> Result<Shard> {
    let bad = || {
        InputError(format!(
            "--shard {text}: expected I/N, shard I of N with I from 0 to N-1 (for example 0/4)"
        ))
    };
    let (i, n) = text.split_once('/').ok_or_else(bad)?;
    let i: usize = i.trim().parse().map_err(|_| bad())?;
    let n: usize = n.trim().parse().map_err(|_| bad())?;
    if n == 0 {
        bail!(InputError(format!(
            "--shard {text}: the number of shards must be at least 1"
        )));
    }
    if n > MAX_SHARDS {
        bail!(InputError(format!(
            "--shard {text}: at most {MAX_SHARDS} shards are supported"
        )));
    }
    match Shard::new(i, n) {
        Some(s) => Ok(s),
        None => bail!(InputError(format!(
            "--shard {text}: shard {i} does not exist; with {n} shards they are 0 to {}",
            n - 1
        ))),
    }
}

/// `jigsolve estimate` options.
#[derive(Args, Clone, Debug)]
pub struct EstimateArgs {
    /// The puzzle: a file or a catalog name.
    pub puzzle: String,
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Random probes to average.
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..))]
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
}
