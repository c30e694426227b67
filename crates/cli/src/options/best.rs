//! The options of `jigsolve best`: limits, seeds, and the break, quota,
//! restart and polishing rules of the best-board search.

use super::{every_core_unless, parse_shard, seconds, threads};
use crate::pictures::PictureFiles;
use clap::Args;
use jigsolve_search::{Control, Shard};
use jigsolve_session::text::positive;
use std::path::PathBuf;

/// `jigsolve best` options.
#[derive(Args, Clone, Debug)]
pub struct BestArgs {
    /// The edge-matching puzzle: a file or a catalog name.
    pub puzzle: String,
    /// The file's format when it cannot be told from the file: toml, wh or hints.
    #[arg(long, value_name = "FORMAT")]
    pub format: Option<String>,
    /// Stop after this many seconds, counted from the start of the command (exit code 3).
    #[arg(long, value_name = "SECONDS", value_parser = seconds, allow_negative_numbers = true)]
    pub time_limit: Option<f64>,
    /// Stop after about N nodes (tiles placed) over all threads (exit code 3).
    #[arg(long, value_name = "N")]
    pub node_limit: Option<u64>,
    /// Seed of the random early choices (default: taken from the clock and printed); with --threads 1 and --node-limit the same seed gives the same run.
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// Worker threads, each with its own restarts and seed stream (default 0: every core).
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = threads)]
    pub threads: usize,
    /// The cell order: columns-last (rows, the last 5 of 16 in short columns: Blackwood's order), rows (row by row from the top-left corner) or border-first (the frame clockwise, then the rows inside).
    #[arg(long, value_name = "ORDER", default_value = "columns-last")]
    pub order: jigsolve_edge::best::BestOrder,
    /// The first depth (tiles placed, from 0) at which a mismatched edge (a break) is allowed (default: 78.5% of the tiles to place, 201 for Eternity II; 65% when more than one tile is pinned, 164 for Eternity II with its five clues).
    #[arg(long, value_name = "DEPTH")]
    pub breaks_after: Option<usize>,
    /// The most breaks on one board, reached in steps up to 93.5% of the depth (default: one per 25.5 tiles to place, 10 for Eternity II; one per 21.3 when more than one tile is pinned, 12 for Eternity II with its five clues).
    #[arg(long, value_name = "N")]
    pub max_breaks: Option<usize>,
    /// Nodes per restart before the candidate lists are shuffled anew.
    #[arg(long, value_name = "N", default_value_t = jigsolve_edge::best::DEFAULT_RESTART_NODES, value_parser = positive)]
    pub restart_nodes: u64,
    /// Give up a restart early when it has walked N nodes without placing a tile where breaks begin (stuck in its exact early part); `off` for never.
    #[arg(long, value_name = "N|off", default_value_t = OrOff(Some(jigsolve_edge::best::DEFAULT_STALL_NODES)), value_parser = stall_nodes)]
    pub stall_nodes: OrOff<u64>,
    /// Colour quotas: until 62.5% of the depth, cut boards whose tiles show too few sides of these colours (names as in the puzzle, comma-separated), and try tiles rich in them first; `none` for no quotas (default: 13,16,10 on Eternity II's tiles, none on other puzzles).
    #[arg(long, value_name = "COLOURS")]
    pub quota_colours: Option<String>,
    /// Polish completed boards (and each restart's best board) within N points of the best: swap and turn tiles late in the scan, then reassign them (see --reassign); `off` for never.
    #[arg(long, value_name = "N|off", default_value = "3", value_parser = polish_margin)]
    pub polish: OrOff<u32>,
    /// Polishing also reassigns tiles: a random set of cells that share no side, their tiles put back the best way at once (an exact assignment), round after round until N rounds in a row gain nothing; `off` for swaps and turns only.
    #[arg(long, value_name = "N|off", default_value_t = OrOff(Some(jigsolve_edge::best::DEFAULT_REASSIGN)), value_parser = reassign_rounds)]
    pub reassign: OrOff<u32>,
    /// Whether a break may fall on an edge between two frame cells: on or off.
    #[arg(long, value_name = "on|off", default_value = "on", value_parser = on_off, action = clap::ArgAction::Set)]
    pub frame_breaks: bool,
    /// Whether each pinned tile (a hint) allows one break of its own near it, also before the breaks begin: on, off, or auto (on when more than one tile is pinned, as with Eternity II's five clues).
    #[arg(long, value_name = "auto|on|off", default_value = "auto", value_parser = pin_breaks)]
    pub pin_breaks: PinBreaks,
    /// After the summary, how the restarts ended: their best scores and how many positions they filled (with --json: as a `restarts` object in the summary).
    #[arg(long)]
    pub stats: bool,
    /// Run shard I of N (I from 0): its threads take seed streams no other shard takes.
    #[arg(long, value_name = "I/N", value_parser = parse_shard)]
    pub shard: Option<Shard>,
    /// Print JSON Lines: one object per improvement (type "best", with an integer score), then a summary.
    #[arg(long)]
    pub json: bool,
    /// Write an SVG picture of the best board to FILE at the end.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Write the same picture as a PNG (twice the SVG's size) to FILE.
    #[arg(long, value_name = "FILE")]
    pub png: Option<PathBuf>,
}

impl BestArgs {
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

    /// The control for a search with these limits.
    pub fn control(&self) -> Control {
        let mut control = Control::new();
        if let Some(n) = self.node_limit {
            control = control.with_node_limit(n);
        }
        if let Some(s) = self.time_limit {
            control = control.with_time_limit(crate::clock::left_of(s));
        }
        control
    }
}

/// A number or `off` (`--polish`, `--reassign`, `--stall-nodes`): `None`
/// for `off`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OrOff<T>(pub Option<T>);

impl<T: std::fmt::Display> std::fmt::Display for OrOff<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            Some(n) => write!(f, "{n}"),
            None => f.write_str("off"),
        }
    }
}

fn stall_nodes(s: &str) -> Result<OrOff<u64>, String> {
    match s.trim() {
        "off" | "none" => Ok(OrOff(None)),
        n => match n.parse::<u64>() {
            Ok(0) | Err(_) => Err(format!("'{s}' is not a positive number of nodes or 'off'")),
            Ok(n) => Ok(OrOff(Some(n))),
        },
    }
}

/// A number, or `None` for `off` (or `none`); `what` names the number in
/// the error.
fn number_or_off(s: &str, what: &str) -> Result<Option<u32>, String> {
    match s.trim() {
        "off" | "none" => Ok(None),
        n => n
            .parse()
            .map(Some)
            .map_err(|_| format!("'{s}' is not a number of {what} or 'off'")),
    }
}

fn polish_margin(s: &str) -> Result<OrOff<u32>, String> {
    number_or_off(s, "points").map(OrOff)
}

fn reassign_rounds(s: &str) -> Result<OrOff<u32>, String> {
    match number_or_off(s, "rounds")? {
        Some(0) => Err(format!("'{s}' rounds: at least 1, or 'off'")),
        n => Ok(OrOff(n)),
    }
}

/// The `--pin-breaks` choice: `None` for `auto`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PinBreaks(pub Option<bool>);

/// Parses `--pin-breaks`: `auto`, `on` or `off`.
fn pin_breaks(s: &str) -> Result<PinBreaks, String> {
    match s.trim() {
        "auto" => Ok(PinBreaks(None)),
        "on" => Ok(PinBreaks(Some(true))),
        "off" => Ok(PinBreaks(Some(false))),
        _ => Err(format!("'{s}': expected auto, on or off")),
    }
}

fn on_off(s: &str) -> Result<bool, String> {
    match s.trim() {
        "on" => Ok(true),
        "off" => Ok(false),
        _ => Err(format!("'{s}': expected on or off")),
    }
}
