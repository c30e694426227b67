//! The options of the best-board search, their defaults, and the errors
//! of options it cannot run with.

use crate::model::MarkId;
use std::fmt;
use std::str::FromStr;

/// The cell order of the best-board search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum BestOrder {
    /// Row by row from the top-left corner.
    Rows,
    /// The frame clockwise from the top-left corner, then the inside row by
    /// row.
    BorderFirst,
    /// Rows, but the last rows (5 of 16) are filled in short columns:
    /// Blackwood's order. The cells left open at any time then form a
    /// short front, so the breaks late in the scan have fewer cells to ruin.
    #[default]
    ColumnsLast,
}

impl BestOrder {
    /// The name used on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            BestOrder::Rows => "rows",
            BestOrder::BorderFirst => "border-first",
            BestOrder::ColumnsLast => "columns-last",
        }
    }
}

impl fmt::Display for BestOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for BestOrder {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "rows" => Ok(BestOrder::Rows),
            "border-first" | "frame" => Ok(BestOrder::BorderFirst),
            "columns-last" => Ok(BestOrder::ColumnsLast),
            other => Err(format!(
                "unknown order '{other}': expected rows, border-first or columns-last"
            )),
        }
    }
}

/// How the best-board search runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BestOptions {
    /// The cell order.
    pub order: BestOrder,
    /// The first depth (tiles placed by the search, from 0) at which a break
    /// may be made; `None`: 78.5% of the cells to place (Blackwood's 201 of
    /// 256).
    pub breaks_after: Option<usize>,
    /// The most breaks on one board; `None`: one per 25.5 cells to place
    /// (10 for Eternity II).
    pub max_breaks: Option<usize>,
    /// Nodes per restart before the candidate lists are shuffled anew.
    pub restart_nodes: u64,
    /// A restart that has walked this many nodes without placing a tile at
    /// the depth where breaks begin is given up early; `None`: never.
    pub stall_nodes: Option<u64>,
    /// The seed of the first worker's generator; the others are derived.
    pub seed: u64,
    /// Worker threads, at least 1.
    pub threads: usize,
    /// Colour quotas on these marks (empty: none).
    pub quota_marks: Vec<MarkId>,
    /// Completed boards within this many points of the best are improved
    /// by swapping and turning tiles late in the scan; `None`: never.
    pub polish: Option<u32>,
    /// Polishing also reassigns tiles among sets of cells that share no
    /// side (each set put back the best way at once), round after round
    /// until this many rounds in a row gain nothing; `None`: never.
    pub reassign: Option<u32>,
    /// Whether a break may fall on an edge between two frame cells.
    pub frame_breaks: bool,
    /// Whether a pinned tile (a hint) brings a break of its own: from the
    /// first cell of the scan next to a pin, one more break is allowed for
    /// each pin met so far (up to `max_breaks`), also before the breaks
    /// begin. An exact early part must otherwise match every pin it runs
    /// into, and restarts die there. `None`: when the puzzle pins more than
    /// one tile (Eternity II's five clues: mean 440.6 against 427.2 in 60 s;
    /// its starter alone: 459.4 against 461.0, so off; BENCHMARKS.md).
    pub pin_breaks: Option<bool>,
}

impl Default for BestOptions {
    fn default() -> Self {
        BestOptions {
            order: BestOrder::ColumnsLast,
            breaks_after: None,
            max_breaks: None,
            restart_nodes: DEFAULT_RESTART_NODES,
            stall_nodes: Some(DEFAULT_STALL_NODES),
            seed: 0,
            threads: 1,
            quota_marks: Vec::new(),
            polish: Some(DEFAULT_POLISH),
            reassign: Some(DEFAULT_REASSIGN),
            frame_breaks: true,
            pin_breaks: None,
        }
    }
}

/// Completed boards this close to the best are polished (see BENCHMARKS.md).
pub const DEFAULT_POLISH: u32 = 3;

/// Rounds of reassignment without a gain before polishing stops (see
/// BENCHMARKS.md).
pub const DEFAULT_REASSIGN: u32 = 20;

/// The node cap per restart when none is given (see BENCHMARKS.md).
pub const DEFAULT_RESTART_NODES: u64 = 50_000_000;

/// The nodes after which a restart still short of the break zone is given
/// up (see BENCHMARKS.md): an exact early part whose shuffle led into a
/// subtree with no way through to the breaks can hold a restart for its
/// whole cap, far below the scores of the others.
pub const DEFAULT_STALL_NODES: u64 = 5_000_000;

/// Options the best-board search cannot run with.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BestError {
    /// No worker thread.
    #[error("the search needs at least one thread")]
    NoThreads,
    /// A zero node cap per restart.
    #[error("the node cap per restart must be at least 1")]
    NoRestartNodes,
    /// The system refused a worker thread.
    #[error("cannot start a search thread: {0}")]
    Spawn(String),
    /// Breaks that would start past the last cell.
    #[error("breaks after depth {after}: the search places only {cells} tiles")]
    BreaksAfter {
        /// The depth asked for.
        after: usize,
        /// Tiles the search places (cells without a hint).
        cells: usize,
    },
}
