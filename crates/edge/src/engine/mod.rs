//! The edge-matching engine.
//!
//! The shape of every fast edge-matching solver (see the field notes):
//!
//! - A fixed scan order in which each new cell has its constraining
//!   neighbours already placed. For each position the marks it must show on
//!   those sides form a key, and a precomputed table maps the key to the
//!   pre-rotated `(tile type, rotation)` entries that show exactly those marks
//!   and respect the frame (border mark out, no border mark in). Positions
//!   that constrain the same sides the same way share a table. No rotation
//!   work happens in the loop.
//! - Identical tiles are one type with a count, so the engine walks a
//!   multiset and never produces two solutions that differ only by swapping
//!   identical tiles.
//! - An iterative loop over an explicit stack of "next entry to try", with no
//!   allocation per node.
//! - Board symmetry is broken inside the search: one tile that occurs once
//!   and looks different in all four rotations (the *breaker*) may take only
//!   one rotation per orbit of the board's rotation group. Every orbit of
//!   solutions is then found exactly once and stands for |G| distinct
//!   solutions. When no such tile exists, every canonical solution is kept
//!   and weighted by its orbit size (a post-check on solutions only).
//!
//! Hints are placed first, as positions whose table holds a single entry.
//!
//! A search that only counts (its sink offers a counter) in the frame order
//! may count each complete frame's completions by meeting in the middle: the
//! inside is cut into two halves, the bottom halves are filed by the tiles
//! and seam marks a top half needs, and each top half walked adds the bottom
//! halves filed under its own (see `Solver::count_halves`). Random probes
//! decide whether that walks fewer nodes than the plain walk.
//!
//! The code follows those concerns, one file each: `tables` holds the
//! table entries, the steps that index them and how the tables are built,
//! `prepared` what is prepared once per puzzle ([`Prepared`]: the symmetry
//! mode and its breaker, the cell order, a step per cell), `orders` the
//! choice of a scan order by random probes, `solver` the state of one
//! search ([`Solver`]) and the [`jigsolve_search::Tree`] contract,
//! `descent` the depth-first search loop and its inner loop, and `halves`
//! counting by meeting in the middle.

mod descent;
mod halves;
mod orders;
mod prepared;
mod solver;
mod tables;

pub use orders::rank_orders;
pub use prepared::Prepared;
pub use solver::Solver;

use crate::order::ScanOrder;

/// How to search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Cell order.
    pub order: ScanOrder,
    /// Break board symmetry inside the search (report one solution per
    /// orbit). When false every distinct solution is reported; unique counts
    /// are still computed, by checking each solution against its images.
    pub symmetry: bool,
    /// Shuffle the candidates that share a table bucket with this seed (0:
    /// keep them in tile order). Different seeds explore the same tree in a
    /// different order: the counts are the same, the time to the first
    /// solution is not.
    pub seed: u64,
    /// Run the portable copy of the inner loop even on a processor that has
    /// the bit-manipulation instructions the faster copy uses (for tests and
    /// comparisons: both must count the same).
    pub portable: bool,
    /// Count the candidates tried at each depth and those whose marks did
    /// not fit (see
    /// [`NodeStats::tried`](jigsolve_search::NodeStats::tried)). Off, the
    /// inner loop is compiled without the counting, which costs it several
    /// percent.
    pub tried: bool,
    /// When the sink only counts (see [`jigsolve_search::Sink::counter`])
    /// and the frame order leaves the inside of the frame for last, count
    /// the completions of each complete frame by meeting in the middle
    /// instead of walking every one: `Some(true)` whenever the puzzle allows
    /// it, `Some(false)` never, `None` (the default) when random probes
    /// estimate that it walks fewer nodes.
    pub halves: Option<bool>,
    /// When preparing must end: the random probes that choose the order
    /// for [`ScanOrder::Auto`] and decide on counting by halves stop here
    /// and decide on what they have (a puzzle of thousands of tiles probes
    /// for seconds). The search itself is bounded by its `Control`.
    pub deadline: Option<jigsolve_search::clock::Instant>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            order: ScanOrder::Auto,
            symmetry: true,
            seed: 0,
            portable: false,
            tried: false,
            halves: None,
            deadline: None,
        }
    }
}

/// How the engine accounts for board symmetry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymmetryMode {
    /// The puzzle has no symmetry (or the board is 1 x 1).
    None,
    /// Tile type `breaker` is restricted to one rotation per orbit.
    Breaker {
        /// The restricted tile type.
        breaker: usize,
    },
    /// Only canonical solutions are reported, weighted by their orbit size.
    PostCheck,
    /// Symmetry breaking switched off: every distinct solution is reported.
    Off,
}
