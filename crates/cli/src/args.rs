//! The options of `jigsolve solve`, shared by every family.

use crate::solve::Common;
use clap::Args;

/// `jigsolve solve` options. Family-specific options are marked in their
/// help; a family rejects options that are not its own rather than
/// ignoring them.
#[derive(Args, Clone, Debug, Default)]
pub struct SolveArgs {
    /// The puzzle: a file or a catalog name.
    pub puzzle: String,
    /// Count the solutions without listing them.
    #[arg(long)]
    pub count: bool,
    /// Stop after listing N solutions.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: Option<u64>,
    /// Print JSON Lines: one object per solution, then a summary object.
    #[arg(long)]
    pub json: bool,
    /// Add the number of nodes at each depth of the search tree to the summary.
    #[arg(long)]
    pub stats: bool,
    /// Worker threads (default: every core).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub threads: usize,
    /// Stop after this many seconds (counts are then partial; exit code 3).
    #[arg(long, value_name = "SECONDS")]
    pub time_limit: Option<f64>,
    /// Stop after about this many nodes (counts are then partial; exit code 3).
    #[arg(long, value_name = "N")]
    pub node_limit: Option<u64>,
    /// The file's format when it cannot be told from the file: toml; for edge matching also wh (a `W H` line, then four numbers per tile) and hints (a hint count, the hints, then the tiles).
    #[arg(long, value_name = "FORMAT")]
    pub format: Option<String>,
    /// List every distinct solution instead of one per symmetry class (the counts are the same).
    #[arg(long)]
    pub no_symmetry: bool,
    /// Edge matching only: the cell order: auto, rows, frame or spiral.
    #[arg(long, value_name = "ORDER")]
    pub order: Option<String>,
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

impl SolveArgs {
    /// The options every family shares.
    pub fn common(&self) -> Common {
        Common {
            count: self.count,
            limit: self.limit,
            json: self.json,
            stats: self.stats,
            threads: self.threads,
            time_limit: self.time_limit,
            node_limit: self.node_limit,
        }
    }
}
