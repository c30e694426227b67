//! The best board when no full solution can be found: the placement of
//! tiles with the most matching inner edges.
//!
//! A board's score counts the inner edges (sides shared by two cells) whose
//! marks fit; an empty cell fits nothing, so the most is `2RC - R - C`
//! (480 for Eternity II's 16 x 16). Boards this large are never searched to
//! the end; the search here is the record holders' method:
//!
//! - **A fixed scan order** (Blackwood's: rows from the top-left corner but
//!   the last rows in short columns; plain rows; or the frame first and then
//!   the rows inside it). Each cell's candidates come from a
//!   table keyed by the marks of the sides already placed (the west and
//!   north neighbours in a row scan), so a node costs a table lookup and a
//!   "tile still free?" test.
//! - **Breaks late.** Up to a depth (`breaks_after`) every placed side must
//!   fit. Past it, a tile may mismatch one placed side (a "break"), with a
//!   cumulative budget that grows with the depth up to `max_breaks`; a tile
//!   never carries two breaks and a break never touches a tile that already
//!   has one. Tiles that fit every side are tried before breaking ones. The
//!   early, exact part keeps the tree narrow; the breaks let the search go
//!   on past the depth where exact boards die out, which is where the score
//!   is made.
//! - **Colour quotas** (optional). Tiles showing the chosen colours are
//!   the ones that leave a board short at the end, so they are used early:
//!   until 62.5% of the depth, a partial board whose tiles show fewer sides
//!   of those colours than a growing quota is cut, and tiles rich in them
//!   are tried first. The quota curve is Blackwood's (his colours 13, 16
//!   and 10 on Eternity II), scaled to the puzzle's depth and to the number
//!   of such sides among its tiles. They are a heuristic: a worker whose
//!   whole tree they cut (a small puzzle) searches it again without them.
//! - **Dead ends completed.** Where the board cannot grow under the rules
//!   and its score plus 70% of the edges still open (half, before the
//!   breaks begin) beats the best, the
//!   cells left are filled greedily with the tiles left, so most boards
//!   reported are whole boards; the share decides how deep a dead end must
//!   be, and with it how much of the time goes to completing.
//! - **Polishing.** A completed board close to the best (and each
//!   restart's best board, when it ends that close) is improved on a copy
//!   by swapping two tiles of the scan's last part (each in its best turn)
//!   or turning one while that raises the score: the greedy completion
//!   leaves misfits that a swap repairs. Then *reassignment*: rounds that
//!   lift the tiles of a random set of cells sharing no side and put them
//!   back the best way at once (an exact assignment, see `reassign`),
//!   which moves tiles from anywhere on the board to where they fit. The
//!   tiles on the board and their fit to the frame never change. A
//!   polished board is reported, but the bar the workers' rules measure
//!   against stays the scan's own best: raised by polishing's points, it
//!   left fewer dead ends completed, and the mean best fell.
//! - **Restarts.** Each restart shuffles every candidate list with the
//!   worker's generator and searches depth first until it has visited
//!   `restart_nodes` nodes; a new shuffle then gives different early choices,
//!   which matter most. A restart that has walked `stall_nodes` nodes
//!   without reaching the positions where breaks may be made is given up
//!   early: its shuffle led the exact part into a subtree with no way
//!   through. A seed makes a run reproducible (one thread, a node limit
//!   instead of a time limit).
//!
//! Threads run their own restarts with their own seed streams; the best
//! board of all is kept, and every improvement is handed to a sink as it is
//! found (the caller decides what to print). Hints are placed before the
//! search and never move. The score is the running sum of what each
//! placement adds; [`crate::score::score`] recomputes it from the placements
//! alone, and debug builds assert that the two agree on every improvement.
//!
//! The code follows those steps, one file each: `options` holds the options
//! and the errors they can give, `scan` the cell orders, `tables` the
//! candidate lists, `plan` what is built once and shared by the workers
//! (the positions, the break budget, the quotas), `worker` one worker's
//! restarts and its depth-first walk with breaks, `completion` the greedy
//! completion of dead ends and the polishing, `reassign` the reassignment
//! of tiles, and `search` the threads,
//! the best board they share and what a search reports.

mod completion;
mod options;
mod plan;
mod reassign;
mod scan;
mod search;
mod tables;
mod worker;

pub use options::{
    BestError, BestOptions, BestOrder, DEFAULT_POLISH, DEFAULT_REASSIGN, DEFAULT_RESTART_NODES,
    DEFAULT_STALL_NODES,
};
pub use search::{
    max_score, search_best, search_best_from, worker_seed, BestEnd, BestReport, Improvement,
};
pub use worker::Restarts;

/// A key side that is not there (fewer sides of the cell are placed).
const NONE: u8 = 4;
/// The orientation of an empty cell.
const EMPTY: u32 = u32::MAX;
/// Per side, the side of the cell across that faces it.
const OPPOSITE: [usize; 4] = [2, 3, 0, 1];
