//! The bitboard engine: for boards of at most 64 or 128 cells.
//!
//! The board is one machine word, a bit per cell in scan order (the short
//! side of the board varies fastest), and so is every placement. A node of
//! the search is a partial cover; its children are the placements that
//! cover the *chosen cell* and leave no dead region:
//!
//! - **Chosen cell.** One of three rules. The *first empty cell*: the
//!   placement must cover it with its own first cell (all earlier cells are
//!   full), so the candidates come from a table indexed by that cell and by
//!   the occupancy of the next few cells, which drops most placements that
//!   cannot fit before they are looked at. The *most constrained cell*: the
//!   empty cell with the fewest fitting placements, counted from per-cell
//!   tables indexed by the occupancy of the cell's neighbours (a cell hemmed
//!   in by full neighbours has a short list). The *tightest cell*: the same
//!   count, but only over the empty cells with the fewest empty neighbours,
//!   found for the whole board at once with bit-sliced counters; nearly as
//!   small a tree as the most constrained cell at a fraction of the cost.
//!   On large boxes in space (the Bedlam cube) the cells of the next class
//!   of empty-neighbour counts compete too when the tightest cells all
//!   have many placements, and a cell with one placement ends the count.
//! - **Used-up types cost little.** The search keeps a mask of the types
//!   with copies left. Deep in the tree most types are used up, yet a
//!   candidate list holds placements of them all. Every list of at most 64
//!   placements keeps, per type, a word marking where that type's
//!   placements sit in it: the words of the types left are or-ed together,
//!   and only the placements so marked are tested against the board (about
//!   a quarter of the list on 6 x 10 pentominoes, half on hexiamonds in the
//!   6 x 6 rhombus). For the first empty cell every list is that short; the
//!   per-cell lists of the other choices are when some neighbours are full,
//!   which is where the tightest cells are. Those are indexed on triangles
//!   and hexagons only: on squares and cubes reading a per-cell list whole
//!   with a branch-free test per placement measured faster (the ends of
//!   the loops over marked places are mispredicted), as are the longer
//!   lists everywhere. The cells competing to be chosen are only counted,
//!   and the winner's list is written once.
//! - **Dead regions.** A region of empty cells that closes up with a size
//!   that no sub-multiset of the remaining pieces can make (5 or 10 cells
//!   are fine for pentominoes, 7 is not) is a dead end, and a placement
//!   that leaves one is not a child at all. The sizes that can be made are
//!   precomputed for every multiset of remaining piece sizes that can
//!   occur. Two checks, one per kind of cell choice:
//!   - *Behind the frontier* (first empty cell). Every cell before the
//!     chosen one is full, so a new pocket lies among the few empty cells
//!     before the piece's last cell. The cells after it almost always form
//!     one big region; the pocket cells are those that cannot reach it,
//!     found by growing the reachable part from the big side a step at a
//!     time (a few steps). Most placements close no pocket, and they pass
//!     without counting cells (population counts are slow on processors
//!     without the POPCNT instruction, which portable builds do not use).
//!     Otherwise the pockets together, and then each on its own, must have
//!     feasible sizes: if their union has a size no sub-multiset makes,
//!     they cannot all be filled.
//!   - *In the lists* (first empty cell). A placement that closes a region
//!     smaller than the smallest piece among the cells its list knows (the
//!     full cells before the chosen one and the window after it) is left
//!     out of that list when the tables are built, and costs nothing.
//!   - *Around the piece* (the other choices). A flood from each empty
//!     neighbour of the piece; one that has not closed up after a few steps
//!     is taken to be open.
//!
//!   - *Colours* (the other choices). On a board coloured in two so that
//!     neighbours differ (squares, cubes, up and down triangles) each
//!     piece covers a fixed number more of one colour than of the other,
//!     with a sign that depends on where it lies; when every piece must be
//!     placed, the empty cells' difference must be a signed sum of the
//!     remaining pieces' differences, tabulated per multiset as the sizes
//!     are.
//!
//!   Giving up on a flood only ever keeps a placement, so the pruning is
//!   sound. The floods shift the whole word along each axis at once, with
//!   one code path per number of axes so that the masks stay in registers.
//! - **Symmetry.** With a breaker (see [`crate::symmetry`]) the root's
//!   children are the breaker's representative placements, so the breaker
//!   is placed first and everything below sees one placement per orbit.
//!   Below a representative that a symmetry fixes, a second type is
//!   restricted the same way under that symmetry (see
//!   [`Second`](crate::symmetry::Second)); the search loop is compiled with
//!   and without that test, so problems without such representatives do
//!   not pay for it.
//!
//! The children of a node are gathered before the first is entered, so the
//! number of children is known (paths, progress) and the loop over them is
//! a plain slice walk.
//!
//! The code follows those concerns, one file each: `lists` holds the
//! candidate lists and the mask of types left, `growth` how cells sit in
//! the word and how sets of cells grow to their neighbours, `tables` what
//! is prepared once per problem (with `keys`, the tables read per multiset
//! of remaining pieces, and `seconds`, the second breakers' tables),
//! `pruning` the dead-region checks, `children` the partial cover and the
//! gathering of a node's children, and `solver` the search loop behind
//! [`jigsolve_search::Tree`].

mod children;
mod growth;
mod keys;
mod lists;
mod pruning;
mod seconds;
mod shapes;
mod solver;
mod tables;

pub(crate) use solver::choose_breaker;
pub use solver::BitSolver;
pub use tables::BitTables;

/// Which empty cell a node branches on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CellChoice {
    /// The first empty cell in scan order.
    First,
    /// The empty cell with the fewest fitting placements (the first such).
    Fewest,
    /// Among the empty cells with the fewest empty neighbours, the one
    /// with the fewest fitting placements: nearly as good a choice as
    /// `Fewest` at a fraction of the cost (needs the box layout).
    Tightest,
}

/// A vector of `n` copies of `value`, written rather than taken zeroed
/// from the allocator. Fresh zeroed pages map the shared zero page on the
/// first read and fault again on the first write, so a table that is read
/// before it is written (a hash table's probes, `|=`) paid two page faults
/// a page.
pub(super) fn written<T: Clone>(n: usize, value: T) -> Vec<T> {
    let mut v = Vec::with_capacity(n);
    v.resize(n, value);
    v
}

/// The bits of `x` at the places of `mask`, packed at the bottom (PEXT).
///
/// # Safety
///
/// On x86-64 the processor must have BMI2: callers test a flag set from
/// [`jigsolve_search::cpu::has_fast_pdep`]. Inlined into the search loop's
/// BMI2 copy, this is one instruction.
#[inline(always)]
pub(super) unsafe fn pext(x: u64, mask: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: the caller's flag says the processor has BMI2.
    unsafe {
        std::arch::x86_64::_pext_u64(x, mask)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let (mut out, mut m, mut k) = (0, mask, 0);
        while m != 0 {
            out |= (x >> m.trailing_zeros() & 1) << k;
            m &= m - 1;
            k += 1;
        }
        out
    }
}

/// The low bits of `x` spread to the places of `mask` (PDEP): the inverse
/// of [`pext`] on `mask`.
///
/// # Safety
///
/// As for [`pext`].
#[inline(always)]
pub(super) unsafe fn pdep(x: u64, mask: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: the caller's flag says the processor has BMI2.
    unsafe {
        std::arch::x86_64::_pdep_u64(x, mask)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let (mut out, mut m, mut k) = (0, mask, 0);
        while m != 0 {
            out |= (x >> k & 1) << m.trailing_zeros();
            m &= m - 1;
            k += 1;
        }
        out
    }
}

/// A puzzle of the catalog as a problem (for the tests).
#[cfg(test)]
pub(super) fn catalog(name: &str) -> crate::problem::Problem {
    let path = format!(
        "{}/../../puzzles/grid/{name}.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap();
    crate::problem::Problem::new(&crate::parse::parse(&text, &path).unwrap().puzzle)
}
