//! The tables prepared once per problem and shared by every thread.
//!
//! Everything the search would otherwise recompute per node is worked out
//! here once: each placement's mask and the cells where a dead region can
//! start, the candidate lists indexed by a cell and the occupancy next to
//! it (so most placements that cannot fit are never looked at), and, for
//! every multiset of remaining piece sizes that can occur, the region sizes
//! those pieces can fill (so a dead-region check is a table look-up).
//! The multiset keys with their region sizes and colour sums are worked
//! out in `keys`, the second breakers below the representatives in
//! `seconds`.

use super::growth::{axes, pairs, AnyGrow, Layout};
use super::keys::Keys;
use super::lists::Lists;
use super::seconds::{second_cuts, SecondCut};
use super::shapes::Shapes;
use super::{pext, CellChoice};
use crate::bits::Bits;
use crate::lattice::Lattice;
use crate::problem::Problem;
use crate::symmetry::Plan;
use std::sync::Arc;

/// Cells after the first empty one whose occupancy indexes its candidates.
pub(super) const WINDOW: u32 = 6;

/// What the search reads about a placement, in one place.
#[derive(Clone, Copy, Debug)]
pub(super) struct Info<B> {
    pub(super) mask: B,
    /// For `First`: the cells after the placement's last cell. For the other
    /// choices: the cells next to it, where a dead region can start.
    pub(super) near: B,
    pub(super) ty: u16,
    /// Its cells of the first colour minus those of the second (0 when
    /// the colour check is off).
    pub(super) imbalance: i16,
    /// How much the key of the remaining pieces drops when the placement
    /// is made.
    pub(super) dk: u32,
}

/// The tables of the bitboard engine for one problem; shared by all threads.
#[derive(Debug)]
pub struct BitTables<B: Bits> {
    pub(super) problem: Arc<Problem>,
    pub(super) plan: Arc<Plan>,
    pub(super) choice: CellChoice,
    pub(super) layout: Layout<B>,
    pub(super) full: B,
    pub(super) info: Vec<Info<B>>,
    /// For `Fewest` and `Tightest`: per bit, its neighbours' bits (the
    /// first `degree` entries, in increasing order).
    pub(super) nb: Vec<[u8; 6]>,
    pub(super) degree: Vec<u8>,
    /// With `pext_keys`: per bit, the lowest of its neighbours' bits and
    /// the neighbours as a word from there, so that a cover list's key is
    /// one PEXT of the full cells (see `cover_list`).
    pub(super) near: Vec<(u32, u64)>,
    pub(super) pext_keys: bool,
    /// Per bit, its first list in `lists`: a cell with k neighbours has 2^k
    /// lists, one per occupancy of its neighbours, of the placements that
    /// cover it and avoid the full ones.
    pub(super) cover_base: Vec<u32>,
    /// For `First`: list `(bit << WINDOW) + key` holds the placements
    /// anchored at the bit that avoid the full cells of the window after
    /// it. For the other choices: the cover lists.
    pub(super) lists: Lists<B>,
    /// Neighbours of each bit (for the compact layout).
    pub(super) nbr: Vec<B>,
    /// The scan position of each bit (`u32::MAX` for a bit that is no cell).
    pub(super) cell_of_bit: Vec<u32>,
    /// Per key, the sizes of regions the remaining pieces can fill, cells
    /// left open not counted (see `opens`).
    pub(super) feasible: Vec<u128>,
    /// Per type of cells left open, the type and the cells it may leave
    /// open: a closed region may hold as many open cells as it has cells of
    /// each such type, up to the copies of it left. (Counted with the
    /// pieces, one-cell open "pieces" would make every region size
    /// feasible, and the check would refuse nothing.)
    pub(super) opens: Vec<(u32, B)>,
    /// The types of `opens`, a bit each (none when there are more than 64
    /// types: the checks then take cells to be left open to the end).
    pub(super) open_types: u64,
    /// The cells of all `opens`.
    pub(super) open_cells: B,
    /// Whether the colour check is on (see `Balance`).
    pub(super) balanced: bool,
    /// Per key, the sums the remaining pieces' signed colour differences
    /// can make (bit `BALANCE_ZERO + v` for the sum v).
    pub(super) balances: Vec<u128>,
    /// The key of all the pieces.
    pub(super) key0: u32,
    /// The board's difference of colours.
    pub(super) imbalance0: i32,
    pub(super) cap: u32,
    /// The placements' shapes, for regions only one piece can fill.
    pub(super) shapes: Shapes<B>,
    /// Fewer empty cells than this (three of the smallest piece) hold at
    /// most two pieces, and are checked whole (0: never).
    pub(super) endgame: u32,
    /// Fewer empty cells than this (four of the smallest piece) hold at
    /// most three pieces, and are checked whole instead of by the region
    /// checks (0: never; only with the tightest-cell choice).
    pub(super) endgame_three: u32,
    /// A node with fewer empty cells than this has every child checked
    /// whole (fewer than `endgame_three` cells are left once its smallest
    /// piece is placed), and branches on the lowest of its tightest cells
    /// without counting the others' candidates (0: never; never on
    /// squares). The counting would only spare checks of children: with
    /// it, hexiamonds in the 6 x 6 rhombus tried 13,684 placements at
    /// depth 8 instead of 23,525, but ran 7% more instructions.
    pub(super) decided_below: u32,
    /// Per representative of the breaker, the second breaker below it
    /// (see [`Second`]), if a symmetry fixes it and a type qualifies.
    pub(super) seconds: Vec<Option<SecondCut>>,
    /// For `Tightest`: when the best of the tightest cells has at least
    /// this many placements, the cells of the next class of empty-neighbour
    /// counts compete too (`usize::MAX`: never).
    pub(super) next_class_from: usize,
    pub(super) hi: Vec<u32>,
    /// The most children a node can have.
    pub(super) widest: usize,
    pub(super) slack: Vec<u32>,
    pub(super) any_optional: bool,
    /// Whether the processor has the bit-manipulation instructions the
    /// fast copy of the search loop is compiled for.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(super) bmi: bool,
}

impl<B: Bits> BitTables<B> {
    /// The tables with the second breakers of `plan` (for the tests).
    #[cfg(test)]
    pub(crate) fn new(
        problem: Arc<Problem>,
        plan: Arc<Plan>,
        choice: CellChoice,
        cap: u32,
        fast: bool,
    ) -> Option<BitTables<B>> {
        let mut t = BitTables::without_seconds(problem, Arc::clone(&plan), choice, cap, fast)?;
        t.set_plan(plan);
        Some(t)
    }

    /// Builds the tables; `None` when the board does not fit in `B`.
    /// `cap` bounds the dead-region floods, in steps (0 switches the check
    /// off); `fast` allows the copy of the search loop that uses the
    /// processor's bit-manipulation instructions, when it has them. The
    /// second breakers are left out, for a plan that may still change:
    /// [`set_plan`](Self::set_plan) adds them (building them for a breaker
    /// that is then replaced cost hexiamonds in the 6 x 6 rhombus 4.4 M
    /// instructions, 4% of the whole command).
    pub(crate) fn without_seconds(
        problem: Arc<Problem>,
        plan: Arc<Plan>,
        choice: CellChoice,
        cap: u32,
        fast: bool,
    ) -> Option<BitTables<B>> {
        let n = problem.cells();
        if n > B::CAPACITY {
            return None;
        }
        let extents: Vec<u32> = problem.scan_axes.iter().map(|&(_, e)| e).collect();
        let volume: u64 = extents.iter().map(|&e| e as u64).product();
        let boxed = volume <= B::CAPACITY as u64 && (1..=3).contains(&extents.len());
        let box_bits: Vec<usize> = problem.boxed.iter().map(|&b| b as usize).collect();
        let (layout, bit_of, bits): (Layout<B>, Vec<usize>, usize) = match () {
            // Steps along the axes of the box are neighbours on squares and
            // cubes.
            _ if boxed && problem.lattice().axis_neighbours() => {
                let v = volume as usize;
                let layout = match extents.len() {
                    1 => Layout::Line(axes(&extents, v)),
                    2 => Layout::Plane(axes(&extents, v)),
                    _ => Layout::Space(axes(&extents, v)),
                };
                (layout, box_bits, v)
            }
            // On triangles and hexagons they are a few fixed distances.
            _ if boxed => {
                let v = volume as usize;
                if let Some(p) = pairs(&problem.neighbours, &box_bits) {
                    (Layout::Pairs2(p), box_bits, v)
                } else if let Some(p) = pairs(&problem.neighbours, &box_bits) {
                    (Layout::Pairs3(p), box_bits, v)
                } else {
                    (Layout::Compact, (0..n).collect(), n)
                }
            }
            _ => (Layout::Compact, (0..n).collect(), n),
        };
        // The tightest-cell choice counts neighbours with shifts.
        let choice = match (&layout, choice) {
            (Layout::Compact, CellChoice::Tightest) => CellChoice::Fewest,
            (_, c) => c,
        };
        let mask_of = |cells: &[u32]| {
            cells
                .iter()
                .fold(B::ZERO, |m, &c| m | B::bit(bit_of[c as usize]))
        };
        let full = mask_of(&(0..n as u32).collect::<Vec<_>>());
        let mut nbr = vec![B::ZERO; bits];
        for (c, v) in problem.neighbours.iter().enumerate() {
            nbr[bit_of[c]] = mask_of(v);
        }

        // Region sizes and colour sums, per multiset of remaining pieces.
        let keys = Keys::new(&problem, choice);

        // What the search reads about each placement. For `First` the
        // cells after its last cell; otherwise its empty-able neighbours.
        let info: Vec<Info<B>> = problem
            .placements
            .iter()
            .map(|p| {
                let mask = mask_of(&p.cells);
                let near = match choice {
                    CellChoice::First => {
                        let last = p
                            .cells
                            .iter()
                            .map(|&c| bit_of[c as usize])
                            .max()
                            .unwrap_or(0);
                        full & !B::low(last + 1)
                    }
                    CellChoice::Fewest | CellChoice::Tightest => {
                        p.cells
                            .iter()
                            .fold(B::ZERO, |h, &c| h | nbr[bit_of[c as usize]])
                            & !mask
                    }
                };
                Info {
                    mask,
                    near,
                    ty: p.ty,
                    imbalance: keys.imbalance(&p.cells),
                    dk: keys.stride[p.ty as usize],
                }
            })
            .collect();

        // Candidate lists. A first-empty-cell list knows more than which
        // placements fit: every cell before its cell is full and it knows
        // the window after it, so a placement that closes a region there
        // smaller than the smallest piece (a U around a cell, an L against
        // the edge) can never be completed and is left out of the list
        // (only where the dead-region check is on, whose floods would
        // refuse it at every node that tries it: 6 x 10 pentominoes 19%
        // fewer instructions). The same on the cover lists of the other
        // choices (a cell's neighbours closed in by the placement and the
        // full neighbours) took out so little that it lost: the trees
        // changed, 1 to 3% more instructions on hexiamonds in the 6 x 6
        // rhombus, the 8 x 8 with a hole and Atwood's checkerboard.
        let local = cap > 0 && choice == CellChoice::First;
        // The fewest cells anything covers, a cell left open included: a
        // pocket smaller than that is a hole.
        let smallest_cover = problem
            .types
            .iter()
            .filter(|t| t.hi > 0)
            .map(|t| t.size as u32)
            .min()
            .unwrap_or(1);
        // The checks of small regions and of the last pieces count pieces,
        // not cells left open: they are made only once no cell is left to
        // leave open (see `opens`), and then a one-cell open "piece" is no
        // piece.
        let smallest = problem
            .types
            .iter()
            .filter(|t| t.hi > 0 && !t.open)
            .map(|t| t.size as u32)
            .min()
            .unwrap_or(smallest_cover);
        // A region smaller than two of the smallest pieces holds one piece.
        let below = if cap > 0 { 2 * smallest } else { 0 };
        let shapes = Shapes::new(info.iter().map(|i| (i.mask, i.ty as usize)), below);
        let endgame = if shapes.below > 0 { 3 * smallest } else { 0 };
        // Three pieces are checked whole only where the check can branch on
        // the tightest cell: on the first empty cell it saved nodes but not
        // instructions (6 x 10 pentominoes 1.3% more).
        let endgame_three = if shapes.below > 0 && choice == CellChoice::Tightest {
            4 * smallest
        } else {
            0
        };
        // Measured on the catalog (instructions of a count): 1.4% fewer
        // with hexiamonds and sides in their rhombus, 1.5% with polyhexes
        // in the hexagon, 1.6% with the Soma cube, 7% with hexiamonds in the
        // 6 x 6 rhombus; on squares 4.8% more with pentominoes in 8 x 8
        // minus the centre and the same with Atwood's checkerboard, so not
        // on squares.
        let decided_below = match endgame_three {
            e if e > 0 && problem.lattice() != Lattice::Square => e + smallest,
            _ => 0,
        };
        let hole = |known_full: B, seeds: B| {
            local && hole_left(&nbr, full, known_full, seeds, smallest_cover)
        };
        let mut lists = Lists::default();
        let (mut nb, mut degree, mut cover_base) = (Vec::new(), Vec::new(), Vec::new());
        let (mut near, mut pext_keys) = (Vec::new(), false);
        let bmi = fast && jigsolve_search::cpu::has_bmi();
        let fast_pdep = bmi && jigsolve_search::cpu::has_fast_pdep();
        match choice {
            CellChoice::Fewest | CellChoice::Tightest => {
                let per_bit = by_bit(
                    bits,
                    problem
                        .placements
                        .iter()
                        .map(|p| p.cells.iter().map(|&c| bit_of[c as usize])),
                );
                nb = vec![[u8::MAX; 6]; bits];
                degree = vec![0u8; bits];
                for (c, v) in problem.neighbours.iter().enumerate() {
                    for (j, &d) in v.iter().take(6).enumerate() {
                        nb[bit_of[c]][j] = bit_of[d as usize] as u8;
                    }
                    degree[bit_of[c]] = v.len().min(6) as u8;
                    // In increasing order, the order of their bits in a
                    // key taken with PEXT.
                    nb[bit_of[c]][..v.len().min(6)].sort_unstable();
                }
                // Each bit's neighbours as a word from the lowest of them,
                // or `None` where they span 64 bits or more; taken only when
                // every bit has one and PEXT is fast.
                let spans = (0..bits).map(|b| {
                    let of = &nb[b][..degree[b] as usize];
                    let lo = of.first().map_or(0, |&x| x as u32);
                    of.iter()
                        .map(|&x| x as u32 - lo)
                        .try_fold(0u64, |w, d| (d < 64).then(|| w | 1 << d))
                        .map(|word| (lo, word))
                });
                if fast_pdep {
                    if let Some(spans) = spans.collect::<Option<Vec<_>>>() {
                        (near, pext_keys) = (spans, true);
                    }
                }
                lists.reserve((0..bits).map(|b| per_bit.of(b).len() << degree[b]).sum());
                for b in 0..bits {
                    let list = per_bit.of(b);
                    cover_base.push(lists.pushed() as u32);
                    let d = degree[b] as usize;
                    for key in 0..1usize << d {
                        let full_near = (0..d)
                            .filter(|&j| key >> j & 1 == 1)
                            .fold(B::ZERO, |m, j| m | B::bit(nb[b][j] as usize));
                        lists.push(
                            &info,
                            list.iter()
                                .map(|&p| p as usize)
                                .filter(|&p| (info[p].mask & full_near).is_empty()),
                        );
                    }
                }
            }
            CellChoice::First => {
                // Placements anchored at each bit (their first cell).
                let anchored = by_bit(
                    bits,
                    problem
                        .placements
                        .iter()
                        .map(|p| std::iter::once(bit_of[p.cells[0] as usize])),
                );
                lists.reserve(problem.placements.len() << WINDOW);
                for b in 0..bits {
                    let list = anchored.of(b);
                    let window = (b + 1..b + 1 + WINDOW as usize)
                        .filter(|&x| x < B::CAPACITY)
                        .fold(B::ZERO, |m, x| m | B::bit(x))
                        & full;
                    for key in 0..1usize << WINDOW {
                        let window_full = (0..WINDOW as usize)
                            .filter(|&j| key >> j & 1 == 1 && b + 1 + j < B::CAPACITY)
                            .fold(B::ZERO, |m, j| m | B::bit(b + 1 + j));
                        lists.push(
                            &info,
                            list.iter().map(|&p| p as usize).filter(|&p| {
                                let m = info[p].mask;
                                m.window(b + 1, WINDOW) & key == 0
                                    && !hole(
                                        B::low(b) | window_full | m,
                                        window & !window_full & !m,
                                    )
                            }),
                        );
                    }
                }
            }
        }
        // Reading a cover list only at the places of the types left costs a
        // third fewer instructions on triangles and hexagons but more
        // mispredicted branches: measured faster there (hexiamonds in the
        // 6 x 6 rhombus) and slower on squares (Atwood's checkerboard 12%
        // slower for 2% fewer instructions), so squares and cubes read
        // them whole.
        let by_type = choice == CellChoice::First || !problem.lattice().axis_neighbours();
        lists.finish(problem.types.len(), by_type, fast_pdep);

        let widest = lists.longest().max(plan.reps.len()).max(1);
        let mut cell_of_bit = vec![u32::MAX; bits];
        for (c, &b) in bit_of.iter().enumerate() {
            cell_of_bit[b] = c as u32;
        }
        // The tightest cells alone make a tree twice the most constrained
        // cell's on the Bedlam cube (41.3 M nodes against 20.7 M), counting
        // every cell's list costs five times as much per node; counting
        // the next class of empty-neighbour counts too when the tightest
        // cells' best has at least 6 placements (and stopping at a forced
        // cell) gives 25.4 M nodes for 1.32 times less CPU time. On the Soma
        // cube (27 cells) it cost 3.5% more instructions, on squares 10 to
        // 15% (pentominoes in 8 x 8 minus the centre, Atwood's
        // checkerboard): so boxes in space of more than 32 cells only.
        let next_class_from = match (&layout, choice) {
            (Layout::Space(_), CellChoice::Tightest) if n > 32 => 6,
            _ => usize::MAX,
        };
        let opens = problem
            .types
            .iter()
            .enumerate()
            .filter(|(_, ty)| ty.open)
            .map(|(t, _)| {
                let cells = problem.by_type[t]
                    .clone()
                    .fold(B::ZERO, |m, p| m | info[p].mask);
                (t as u32, cells)
            })
            .collect::<Vec<(u32, B)>>();
        let open_types = match problem.types.len() {
            n if n <= 64 => opens.iter().fold(0, |m, &(t, _)| m | 1u64 << t),
            _ if opens.is_empty() => 0,
            _ => !0,
        };
        let open_cells = opens.iter().fold(B::ZERO, |m, &(_, c)| m | c);
        Some(BitTables {
            open_types,
            open_cells,
            seconds: Vec::new(),
            cell_of_bit,
            widest,
            choice,
            layout,
            full,
            info,
            nb,
            degree,
            near,
            pext_keys,
            cover_base,
            lists,
            nbr,
            balanced: keys.balanced,
            key0: keys.key0,
            imbalance0: keys.board,
            feasible: keys.feasible,
            opens,
            balances: keys.balances,
            cap,
            shapes,
            endgame,
            endgame_three,
            decided_below,
            next_class_from,
            hi: problem.types.iter().map(|t| t.hi).collect(),
            slack: problem.types.iter().map(|t| t.hi - t.lo).collect(),
            any_optional: problem.types.iter().any(|t| t.lo < t.hi),
            bmi,
            problem,
            plan,
        })
    }

    /// Whether any representative has a second breaker.
    #[cfg(test)]
    pub(super) fn any_second(&self) -> bool {
        self.seconds.iter().any(Option::is_some)
    }

    /// The growth of the board's layout, told apart at each step: what the
    /// copy of the search loop that serves every layout runs with.
    pub(super) fn any_grow(&self) -> AnyGrow<'_, B> {
        AnyGrow::of(&self.layout, &self.nbr)
    }

    /// Replaces the symmetry plan (another breaker; the tables that depend
    /// on it, the second breakers and the widest list, are rebuilt).
    pub(crate) fn set_plan(&mut self, plan: Arc<Plan>) {
        self.seconds = second_cuts(&self.problem, &plan);
        self.widest = self.lists.longest().max(plan.reps.len()).max(1);
        self.plan = plan;
    }

    /// The cell choice.
    pub fn choice(&self) -> CellChoice {
        self.choice
    }

    /// The list of the placements that cover `cell` and avoid its full
    /// neighbours: the key is the occupancy of the neighbours, in the order
    /// of their bits, read with one PEXT where it is fast (a bit test per
    /// neighbour took 3.7% of the search's instructions on hexiamonds in
    /// the 6 x 6 rhombus).
    #[inline(always)]
    pub(super) fn cover_list(&self, cell: usize, filled: B) -> usize {
        if self.pext_keys {
            let (lo, word) = self.near[cell];
            // SAFETY: `pext_keys` is set only when the processor has BMI2.
            let key = unsafe { pext(filled.word(lo as usize), word) };
            return self.cover_base[cell] as usize + key as usize;
        }
        let mut key = 0;
        for (j, &x) in self.nb[cell][..self.degree[cell] as usize]
            .iter()
            .enumerate()
        {
            key |= (filled.has(x as usize) as usize) << j;
        }
        self.cover_base[cell] as usize + key
    }

    /// A list that holds every placement avoiding `filled` that covers
    /// `cell`, the lowest cell not in `filled`: with the first empty cell,
    /// the placements anchored there; else its cover list.
    #[inline(always)]
    pub(super) fn lowest_cell_list(&self, cell: usize, filled: B) -> usize {
        match self.choice {
            CellChoice::First => (cell << WINDOW) + filled.window(cell + 1, WINDOW),
            CellChoice::Fewest | CellChoice::Tightest => self.cover_list(cell, filled),
        }
    }
}

/// Whether some cell of `seeds` (empty cells) lies in a region too small
/// for the smallest piece, whatever the cells not in `known_full` hold:
/// the region of the cells of `full` outside `known_full` around it closes
/// up with fewer than `smallest` cells (the empty cells there can only be
/// fewer).
fn hole_left<B: Bits>(nbr: &[B], full: B, known_full: B, seeds: B, smallest: u32) -> bool {
    let free = full & !known_full;
    let mut rest = seeds & free;
    while !rest.is_empty() {
        let mut region = B::bit(rest.lowest());
        loop {
            let mut next = region;
            let mut cells = region;
            while !cells.is_empty() {
                next |= nbr[cells.lowest()];
                cells = cells.without_lowest();
            }
            next &= free;
            if next.count() >= smallest {
                break;
            }
            if next == region {
                return true;
            }
            region = next;
        }
        rest &= !region;
    }
    false
}

/// The placements by bit, in one buffer: those of bit `b` are
/// `of(b)`, in increasing order.
struct ByBit {
    start: Vec<u32>,
    placements: Vec<u32>,
}

impl ByBit {
    fn of(&self, b: usize) -> &[u32] {
        &self.placements[self.start[b] as usize..self.start[b + 1] as usize]
    }
}

/// Lists each placement under the bits `bits_of` gives it, counted first
/// and then written, so that no buffer grows by copying into fresh pages
/// (a vector per bit grew one push at a time; see `Lists::reserve`).
fn by_bit<I: IntoIterator<Item = usize>>(
    bits: usize,
    bits_of: impl Iterator<Item = I> + Clone,
) -> ByBit {
    let mut start = vec![0u32; bits + 1];
    for b in bits_of.clone().flatten() {
        start[b + 1] += 1;
    }
    for b in 0..bits {
        start[b + 1] += start[b];
    }
    let mut next = start.clone();
    let mut placements = vec![0u32; start[bits] as usize];
    for (i, of) in bits_of.enumerate() {
        for b in of {
            placements[next[b] as usize] = i as u32;
            next[b] += 1;
        }
    }
    ByBit { start, placements }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cover list holds the placements that cover its cell and avoid the
    /// cell's full neighbours, whether its key is read with PEXT or a
    /// neighbour at a time (on triangles, hexagons, squares and cubes).
    #[test]
    fn cover_lists_hold_the_placements_that_cover_the_cell_and_avoid_full_neighbours() {
        fn check<B: Bits>(name: &str) {
            let problem = Arc::new(super::super::catalog(name));
            let plan = Arc::new(Plan::new(&problem, true));
            let mut t = BitTables::<B>::new(problem, plan, CellChoice::Tightest, 16, true).unwrap();
            let pext_keys = t.pext_keys;
            let bits = t.nb.len();
            let mut state = 0x9E37_79B9_7F4A_7C15u64;
            let mut random = || {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                state >> 11
            };
            let mut checked = 0;
            for _ in 0..40 {
                // About a third of the cells full.
                let filled = (0..bits)
                    .filter(|_| random() % 3 == 0)
                    .fold(B::ZERO, |m, b| m | B::bit(b))
                    & t.full;
                for cell in (0..bits).filter(|&b| t.full.has(b) && !filled.has(b)) {
                    t.pext_keys = pext_keys;
                    let list = t.cover_list(cell, filled);
                    t.pext_keys = false;
                    assert_eq!(list, t.cover_list(cell, filled), "{name} bit {cell}");
                    let near = t.nb[cell][..t.degree[cell] as usize]
                        .iter()
                        .fold(B::ZERO, |m, &x| m | B::bit(x as usize));
                    let want: Vec<u32> = (0..t.info.len())
                        .filter(|&p| t.info[p].mask.has(cell))
                        .filter(|&p| (t.info[p].mask & near & filled).is_empty())
                        .map(|p| p as u32)
                        .collect();
                    let got: Vec<u32> = (t.lists.start[list]..t.lists.start[list + 1])
                        .map(|k| t.lists.placement(k as usize))
                        .collect();
                    assert_eq!(got, want, "{name} bit {cell}");
                    checked += 1;
                }
            }
            assert!(checked > 100, "{name}: {checked}");
        }
        check::<u128>("hexiamond-6x6");
        check::<u128>("polyhex-hexagon");
        check::<u64>("tetrahex-4x7");
        check::<u64>("pentomino-6x10");
        check::<u64>("soma");
    }

    /// A cell closed in by known full cells and the board's edge, in a
    /// region smaller than the smallest piece, is a hole; one that reaches
    /// cells whose state is unknown and makes enough of them is not.
    #[test]
    fn holes_are_regions_closed_below_the_smallest_piece() {
        // A 3 x 3 board, bit = 3 * row + column.
        let nbr: Vec<u64> = (0..9usize)
            .map(|b| {
                let (r, c) = (b / 3, b % 3);
                let mut m = 0u64;
                for (dr, dc) in [(-1i32, 0i32), (1, 0), (0, -1), (0, 1)] {
                    let (rr, cc) = (r as i32 + dr, c as i32 + dc);
                    if (0..3).contains(&rr) && (0..3).contains(&cc) {
                        m |= 1 << (3 * rr + cc);
                    }
                }
                m
            })
            .collect();
        let full = (1u64 << 9) - 1;
        let centre = 1 << 4;
        // Everything but the centre known full: a hole of one.
        assert!(hole_left(&nbr, full, full & !centre, centre, 2));
        // The centre and the cell right of it free: two cells.
        let two = centre | 1 << 5;
        assert!(hole_left(&nbr, full, full & !two, centre, 3));
        assert!(!hole_left(&nbr, full, full & !two, centre, 2));
        // A corner whose neighbours are unknown: it may grow to any size.
        assert!(!hole_left(&nbr, full, 0, 1, 5));
        // A seed that is known full is no hole.
        assert!(!hole_left(&nbr, full, full, centre, 5));
    }
}
