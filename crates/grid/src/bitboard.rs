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
//! - **Used-up types cost little.** The search keeps a mask of the types
//!   with copies left. Deep in the tree most types are used up, yet a
//!   candidate list holds placements of them all. For the first empty cell
//!   the lists are short (at most 64), and each keeps, per type, a word
//!   marking where that type's placements sit in it: the words of the
//!   types left are or-ed together, and only the placements so marked are
//!   tested against the board (about a quarter of the list on 6 x 10
//!   pentominoes). The long per-cell lists of the other choices are read
//!   whole with a branch-free test per placement, which measured faster
//!   than skipping runs of used-up types (the ends of short runs are
//!   mispredicted); the cells competing to be chosen are only counted,
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
//!   - *Around the piece* (the other choices). A flood from each empty
//!     neighbour of the piece; one that has not closed up after a few steps
//!     is taken to be open.
//!
//!   Giving up on a flood only ever keeps a placement, so the pruning is
//!   sound. The floods shift the whole word along each axis at once, with
//!   one code path per number of axes so that the masks stay in registers.
//! - **Symmetry.** With a breaker (see [`crate::symmetry`]) the root's
//!   children are the breaker's representative placements, so the breaker
//!   is placed first and everything below sees one placement per orbit.
//!
//! The children of a node are gathered before the first is entered, so the
//! number of children is known (paths, progress) and the loop over them is
//! a plain slice walk.

use crate::bits::Bits;
use crate::problem::Problem;
use crate::symmetry::{Canon, Mode, Plan};
use jigsolve_search::{fraction_of, NoSuchNode, NodeKind, NodeStats, Probe, Sink, Ticker, Weight};
use std::ops::ControlFlow;
use std::sync::Arc;

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

/// Largest number of remaining-size multisets for which dead-region sizes
/// are tabulated per multiset (else one table for the whole piece set).
const MAX_KEYS: usize = 1 << 15;
/// Nodes between two polls of the control.
const POLL_EVERY: u64 = 1 << 14;
/// Cells after the first empty one whose occupancy indexes its candidates.
const WINDOW: u32 = 6;

/// What the search reads about a placement, in one place.
#[derive(Clone, Copy, Debug)]
struct Info<B> {
    mask: B,
    /// For `First`: the cells after the placement's last cell. For the other
    /// choices: the cells next to it, where a dead region can start.
    near: B,
    ty: u32,
    /// How much the dead-region key drops when the placement is made.
    dk: u32,
}

/// A placement in a candidate list: its cells, type and index.
#[derive(Clone, Copy, Debug)]
struct Cand<B> {
    mask: B,
    ty: u32,
    placement: u32,
}

/// Candidate lists: list `i` is `cands[start[i]..start[i + 1]]`.
#[derive(Clone, Debug, Default)]
struct Lists<B> {
    start: Vec<u32>,
    cands: Vec<Cand<B>>,
    /// For the first-empty-cell lists, when every list is at most 64 long
    /// and there are at most 64 types: per list and type, the positions of
    /// that type's candidates in the list, a bit each
    /// (`by_type[list * types + ty]`); else empty.
    by_type: Vec<u64>,
    types: usize,
}

impl<B: Bits> Lists<B> {
    /// Appends a list.
    fn push(&mut self, placements: impl Iterator<Item = usize>, info: &[Info<B>]) {
        self.start.push(self.cands.len() as u32);
        self.cands.extend(placements.map(|p| Cand {
            mask: info[p].mask,
            ty: info[p].ty,
            placement: p as u32,
        }));
    }

    /// Closes the last list; `types` is the number of piece types, and
    /// `index` asks for the positions by type (see `marked`).
    fn finish(&mut self, types: usize, index: bool) {
        self.start.push(self.cands.len() as u32);
        if index && types <= 64 && self.longest() <= 64 {
            self.types = types;
            self.by_type = vec![0; (self.start.len() - 1) * types];
            for (i, w) in self.start.windows(2).enumerate() {
                for (k, e) in self.cands[w[0] as usize..w[1] as usize].iter().enumerate() {
                    self.by_type[i * types + e.ty as usize] |= 1 << k;
                }
            }
        }
    }

    /// The positions in list `i` of the candidates whose type is in
    /// `avail` and which avoid `filled`, a bit each; `None` when the lists
    /// are not indexed by type. Only the candidates of the types left are
    /// looked at.
    #[inline(always)]
    fn marked(&self, i: usize, filled: B, avail: &Avail) -> Option<u64> {
        let (Avail::One(a), false) = (avail, self.by_type.is_empty()) else {
            return None;
        };
        let list = &self.cands[self.start[i] as usize..];
        let by_type = &self.by_type[i * self.types..(i + 1) * self.types];
        let mut left = *a;
        let mut of_types = 0;
        while left != 0 {
            of_types |= by_type[left.trailing_zeros() as usize];
            left &= left - 1;
        }
        let mut marked = 0;
        let mut rest = of_types;
        while rest != 0 {
            let k = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            marked |= ((list[k].mask & filled).is_empty() as u64) << k;
        }
        Some(marked)
    }

    /// How many lists have been pushed so far (the index the next one gets;
    /// only meaningful before `finish`).
    fn pushed(&self) -> usize {
        self.start.len()
    }

    /// The longest list.
    fn longest(&self) -> usize {
        self.start
            .windows(2)
            .map(|w| (w[1] - w[0]) as usize)
            .max()
            .unwrap_or(0)
    }

    /// How many candidates of list `i` avoid `filled` and have a type with
    /// copies left.
    #[inline(always)]
    fn count(&self, i: usize, filled: B, avail: &Avail) -> usize {
        let list = &self.cands[self.start[i] as usize..self.start[i + 1] as usize];
        match avail {
            Avail::One(a) => list
                .iter()
                .map(|e| ((e.mask & filled).is_empty() as u64 & (a >> e.ty)) as usize)
                .sum(),
            Avail::Many(words) => list
                .iter()
                .map(|e| {
                    let left = words[e.ty as usize / 64] >> (e.ty % 64);
                    ((e.mask & filled).is_empty() as u64 & left) as usize
                })
                .sum(),
        }
    }

    /// Writes the candidates of list `i` that avoid `filled` and whose type
    /// has copies left (`avail`) to `out`, and returns how many there are.
    ///
    /// The whole list is read, including the placements of types used up:
    /// a test per placement costs less than branching per type, whose
    /// mispredictions cost more than the placements skipped (measured on
    /// Atwood's checkerboard: 6.2 ms against 5.1 ms with runs per type).
    #[inline(always)]
    fn scan(&self, i: usize, filled: B, avail: &Avail, out: &mut [u32]) -> usize {
        let list = &self.cands[self.start[i] as usize..self.start[i + 1] as usize];
        let mut kept = 0;
        match avail {
            Avail::One(a) => {
                for e in list {
                    // Written unconditionally, kept by the count: no branch
                    // on the data.
                    out[kept] = e.placement;
                    kept += ((e.mask & filled).is_empty() as u64 & (a >> e.ty)) as usize;
                }
            }
            Avail::Many(words) => {
                for e in list {
                    out[kept] = e.placement;
                    let left = words[e.ty as usize / 64] >> (e.ty % 64);
                    kept += ((e.mask & filled).is_empty() as u64 & left) as usize;
                }
            }
        }
        kept
    }
}

/// The types with copies left, a bit per type.
#[derive(Clone, Debug)]
enum Avail {
    /// At most 64 types.
    One(u64),
    /// More.
    Many(Vec<u64>),
}

impl Avail {
    fn new(types: usize) -> Avail {
        if types <= 64 {
            Avail::One(0)
        } else {
            Avail::Many(vec![0; types.div_ceil(64)])
        }
    }

    #[inline(always)]
    fn set(&mut self, ty: usize, on: bool) {
        let (word, bit) = match self {
            Avail::One(a) => (a, ty),
            Avail::Many(w) => (&mut w[ty / 64], ty % 64),
        };
        if on {
            *word |= 1 << bit;
        } else {
            *word &= !(1 << bit);
        }
    }
}

/// How cells sit in the word.
#[derive(Clone, Debug)]
enum Layout<B> {
    /// Bit = position in the board's bounding box (holes stay full), so a
    /// step along an axis is a shift. One variant per number of axes, so
    /// that floods and neighbour counts unroll with their masks in
    /// registers.
    Line(Axes<B, 1>),
    /// Two axes (boards in the plane).
    Plane(Axes<B, 2>),
    /// Three axes (boxes in space).
    Space(Axes<B, 3>),
    /// Bit = scan position (the box does not fit); neighbours by table.
    Compact,
}

/// The axes of a boxed layout, fastest first: the shift of a step along
/// each, and the cells that have a neighbour after and before along it.
#[derive(Clone, Copy, Debug)]
struct Axes<B, const N: usize> {
    stride: [u32; N],
    not_last: [B; N],
    not_first: [B; N],
}

/// The axes of the box `extents` (fastest first) laid out in `B`.
fn axes<B: Bits, const N: usize>(extents: &[u32], volume: usize) -> Axes<B, N> {
    let mut a = Axes {
        stride: [0; N],
        not_last: [B::ZERO; N],
        not_first: [B::ZERO; N],
    };
    let mut stride = 1u32;
    for (k, &e) in extents.iter().enumerate() {
        for i in 0..volume {
            let coord = (i as u32 / stride) % e;
            if coord + 1 < e {
                a.not_last[k] |= B::bit(i);
            }
            if coord > 0 {
                a.not_first[k] |= B::bit(i);
            }
        }
        a.stride[k] = stride;
        stride *= e;
    }
    a
}

/// Growing sets of cells to their neighbours.
trait Grow<B: Bits> {
    /// The cells of `region` and their neighbours (possibly with some cells
    /// off the board, which callers drop with `& empty`).
    fn expand(&self, region: B) -> B;

    /// The empty cells with the fewest empty neighbours.
    fn tightest(&self, empty: B) -> B;

    /// Grows `region` inside `empty` one step at a time; returns whether it
    /// closed up within `steps` steps without meeting `big`, and the region
    /// grown so far. (Bounding steps rather than cells keeps the loop free
    /// of population counts, which are slow without the POPCNT instruction.)
    #[inline(always)]
    fn flood(&self, mut region: B, empty: B, big: B, steps: u32) -> (bool, B) {
        for _ in 0..steps {
            let next = self.expand(region) & empty;
            if next == region {
                return (true, region);
            }
            if !(next & big).is_empty() {
                return (false, next);
            }
            region = next;
        }
        (false, region)
    }
}

impl<B: Bits, const N: usize> Grow<B> for Axes<B, N> {
    /// Along the slowest axis no mask is needed: a step past either end
    /// leaves the box or the word.
    #[inline(always)]
    fn expand(&self, region: B) -> B {
        let mut next = region;
        for i in 0..N {
            let s = self.stride[i];
            if i + 1 == N {
                next |= region.up(s) | region.down(s);
            } else {
                next |= (region & self.not_last[i]).up(s) | (region & self.not_first[i]).down(s);
            }
        }
        next
    }

    /// Counted for all cells at once in bit-sliced counters.
    #[inline(always)]
    fn tightest(&self, empty: B) -> B {
        let (mut c0, mut c1, mut c2) = (B::ZERO, B::ZERO, B::ZERO);
        let mut add = |x: B| {
            let carry0 = c0 & x;
            c0 = (c0 | x) & !carry0;
            let carry1 = c1 & carry0;
            c1 = (c1 | carry0) & !carry1;
            c2 |= carry1;
        };
        for i in 0..N {
            let s = self.stride[i];
            if i + 1 == N {
                add(empty.down(s));
                add(empty.up(s));
            } else {
                add(empty.down(s) & self.not_last[i]);
                add(empty.up(s) & self.not_first[i]);
            }
        }
        // Classes by count, smallest first.
        for k in 0..8u32 {
            let pick = |bit: u32, c: B| if k >> bit & 1 == 1 { c } else { !c };
            let class = empty & pick(0, c0) & pick(1, c1) & pick(2, c2);
            if !class.is_empty() {
                return class;
            }
        }
        empty
    }
}

/// Neighbours by table, for the compact layout: a cell at a time.
struct Table<'a, B>(&'a [B]);

impl<B: Bits> Grow<B> for Table<'_, B> {
    #[inline(always)]
    fn expand(&self, region: B) -> B {
        let mut next = region;
        let mut rest = region;
        while !rest.is_empty() {
            next |= self.0[rest.lowest()];
            rest = rest.without_lowest();
        }
        next
    }

    /// Not used: the compact layout chooses among all empty cells.
    fn tightest(&self, empty: B) -> B {
        empty
    }
}

/// The tables of the bitboard engine for one problem; shared by all threads.
#[derive(Debug)]
pub struct BitTables<B: Bits> {
    problem: Arc<Problem>,
    plan: Arc<Plan>,
    choice: CellChoice,
    layout: Layout<B>,
    full: B,
    info: Vec<Info<B>>,
    /// For `Fewest` and `Tightest`: per bit, its neighbours' bits (the
    /// first `degree` entries).
    nb: Vec<[u8; 6]>,
    degree: Vec<u8>,
    /// Per bit, its first list in `lists`: a cell with k neighbours has 2^k
    /// lists, one per occupancy of its neighbours, of the placements that
    /// cover it and avoid the full ones.
    cover_base: Vec<u32>,
    /// For `First`: list `(bit << WINDOW) + key` holds the placements
    /// anchored at the bit that avoid the full cells of the window after
    /// it. For the other choices: the cover lists.
    lists: Lists<B>,
    /// Neighbours of each bit (for the compact layout).
    nbr: Vec<B>,
    feasible: Vec<u128>,
    key0: u32,
    cap: u32,
    hi: Vec<u32>,
    /// The most children a node can have.
    widest: usize,
    slack: Vec<u32>,
    any_optional: bool,
    /// Whether the processor has the bit-manipulation instructions the
    /// fast copy of the search loop is compiled for.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    bmi: bool,
}

impl<B: Bits> BitTables<B> {
    /// Builds the tables; `None` when the board does not fit in `B`.
    /// `cap` bounds the dead-region floods, in steps (0 switches the check
    /// off); `fast` allows the copy of the search loop that uses the
    /// processor's bit-manipulation instructions, when it has them.
    pub fn new(
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
        let (layout, bit_of, bits): (Layout<B>, Vec<usize>, usize) =
            if volume <= B::CAPACITY as u64 && (1..=3).contains(&extents.len()) {
                let v = volume as usize;
                let layout = match extents.len() {
                    1 => Layout::Line(axes(&extents, v)),
                    2 => Layout::Plane(axes(&extents, v)),
                    _ => Layout::Space(axes(&extents, v)),
                };
                let bit_of = problem.boxed.iter().map(|&b| b as usize).collect();
                (layout, bit_of, v)
            } else {
                (Layout::Compact, (0..n).collect(), n)
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

        // Dead-region sizes, per multiset of remaining piece sizes.
        let mut sizes: Vec<usize> = problem.types.iter().map(|t| t.size).collect();
        sizes.sort_unstable();
        sizes.dedup();
        let class_total: Vec<u32> = sizes
            .iter()
            .map(|&s| {
                problem
                    .types
                    .iter()
                    .filter(|t| t.size == s)
                    .map(|t| t.hi)
                    .sum()
            })
            .collect();
        let keys = class_total.iter().try_fold(1usize, |k, &h| {
            k.checked_mul(h as usize + 1).filter(|&k| k <= MAX_KEYS)
        });
        let (class_stride, feasible) = match keys {
            Some(keys) => {
                let mut stride = Vec::with_capacity(sizes.len());
                let mut s = 1u32;
                for &h in &class_total {
                    stride.push(s);
                    s *= h + 1;
                }
                let feasible = (0..keys)
                    .map(|key| {
                        let counts = class_total
                            .iter()
                            .zip(&stride)
                            .map(|(&h, &st)| (key as u32 / st) % (h + 1));
                        sums(sizes.iter().copied().zip(counts))
                    })
                    .collect();
                (stride, feasible)
            }
            None => (
                vec![0; sizes.len()],
                vec![sums(sizes.iter().copied().zip(class_total.iter().copied()))],
            ),
        };
        let key0 = class_total
            .iter()
            .zip(&class_stride)
            .map(|(&h, &s)| h * s)
            .sum();

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
                let ty = p.ty as usize;
                Info {
                    mask,
                    near,
                    ty: p.ty as u32,
                    dk: class_stride[sizes.binary_search(&problem.types[ty].size).unwrap_or(0)],
                }
            })
            .collect();

        // Candidate lists.
        let mut lists = Lists::default();
        let (mut nb, mut degree, mut cover_base) = (Vec::new(), Vec::new(), Vec::new());
        match choice {
            CellChoice::Fewest | CellChoice::Tightest => {
                let mut per_bit: Vec<Vec<usize>> = vec![Vec::new(); bits];
                for (i, p) in problem.placements.iter().enumerate() {
                    for &c in &p.cells {
                        per_bit[bit_of[c as usize]].push(i);
                    }
                }
                nb = vec![[u8::MAX; 6]; bits];
                degree = vec![0u8; bits];
                for (c, v) in problem.neighbours.iter().enumerate() {
                    for (j, &d) in v.iter().take(6).enumerate() {
                        nb[bit_of[c]][j] = bit_of[d as usize] as u8;
                    }
                    degree[bit_of[c]] = v.len().min(6) as u8;
                }
                for (b, list) in per_bit.iter().enumerate() {
                    cover_base.push(lists.pushed() as u32);
                    let d = degree[b] as usize;
                    for key in 0..1usize << d {
                        let full_near = (0..d)
                            .filter(|&j| key >> j & 1 == 1)
                            .fold(B::ZERO, |m, j| m | B::bit(nb[b][j] as usize));
                        lists.push(
                            list.iter()
                                .copied()
                                .filter(|&p| (info[p].mask & full_near).is_empty()),
                            &info,
                        );
                    }
                }
            }
            CellChoice::First => {
                // Placements anchored at each bit (their first cell).
                let mut anchored: Vec<Vec<usize>> = vec![Vec::new(); bits];
                for (i, p) in problem.placements.iter().enumerate() {
                    anchored[bit_of[p.cells[0] as usize]].push(i);
                }
                for (b, list) in anchored.iter().enumerate() {
                    for key in 0..1usize << WINDOW {
                        lists.push(
                            list.iter()
                                .copied()
                                .filter(|&p| info[p].mask.window(b + 1, WINDOW) & key == 0),
                            &info,
                        );
                    }
                }
            }
        }
        lists.finish(problem.types.len(), choice == CellChoice::First);

        let widest = lists.longest().max(plan.reps.len()).max(1);
        Some(BitTables {
            widest,
            choice,
            layout,
            full,
            info,
            nb,
            degree,
            cover_base,
            lists,
            nbr,
            feasible,
            key0,
            cap,
            hi: problem.types.iter().map(|t| t.hi).collect(),
            slack: problem.types.iter().map(|t| t.hi - t.lo).collect(),
            any_optional: problem.types.iter().any(|t| t.lo < t.hi),
            bmi: fast && jigsolve_search::cpu::has_bmi(),
            problem,
            plan,
        })
    }

    /// The cell choice.
    pub fn choice(&self) -> CellChoice {
        self.choice
    }

    /// The list of the placements that cover `cell` and avoid its full
    /// neighbours.
    #[inline(always)]
    fn cover_list(&self, cell: usize, filled: B) -> usize {
        let mut key = 0;
        for (j, &x) in self.nb[cell][..self.degree[cell] as usize]
            .iter()
            .enumerate()
        {
            key |= (filled.has(x as usize) as usize) << j;
        }
        self.cover_base[cell] as usize + key
    }
}

/// The sums that sub-multisets of `(size, count)` pairs can make, below 128.
fn sums(classes: impl Iterator<Item = (usize, u32)>) -> u128 {
    let mut reach: u128 = 1;
    for (size, count) in classes {
        for _ in 0..count {
            if size >= 128 {
                break;
            }
            let next = reach | (reach << size);
            if next == reach {
                break;
            }
            reach = next;
        }
    }
    reach
}

#[derive(Clone, Copy, Debug, Default)]
struct Frame {
    /// First candidate of this node in `cands`.
    start: u32,
    /// One past its last candidate.
    end: u32,
    /// The next candidate to try.
    next: u32,
}

/// The partial cover of a search and the lists of children above it.
#[derive(Debug)]
struct State<B> {
    filled: B,
    /// Copies left of each type.
    remaining: Vec<u32>,
    /// The types with copies left.
    avail: Avail,
    /// The dead-region key of the remaining pieces.
    key: u32,
    /// The placement made at each depth.
    chosen: Vec<usize>,
    depth: usize,
    /// The children of every open node, in one buffer (a stack of lists).
    cands: Vec<u32>,
    top: usize,
}

impl<B: Bits> State<B> {
    /// Places `p` as the next piece.
    #[inline(always)]
    fn place(&mut self, t: &BitTables<B>, p: usize) {
        let info = &t.info[p];
        let ty = info.ty as usize;
        self.filled |= info.mask;
        self.remaining[ty] -= 1;
        if self.remaining[ty] == 0 {
            self.avail.set(ty, false);
        }
        self.key -= info.dk;
        self.chosen[self.depth] = p;
        self.depth += 1;
    }

    /// Takes back the last piece placed.
    #[inline(always)]
    fn unplace(&mut self, t: &BitTables<B>) {
        self.depth -= 1;
        let info = &t.info[self.chosen[self.depth]];
        let ty = info.ty as usize;
        self.filled &= !info.mask;
        self.remaining[ty] += 1;
        self.avail.set(ty, true);
        self.key += info.dk;
    }

    /// Writes the children of the current node at `cands[top..]` and
    /// returns how many there are.
    #[inline(always)]
    fn gather<G: Grow<B>>(&mut self, t: &BitTables<B>, g: &G) -> usize {
        let filled = self.filled;
        let key = self.key;
        let buf = &mut self.cands[self.top..];
        if self.depth == 0 && t.plan.breaker().is_some() {
            let mut n = 0;
            for r in &t.plan.reps {
                let p = r.placement;
                if (t.info[p].mask & filled).is_empty() && regions_ok(t, g, filled, key, p) {
                    buf[n] = p as u32;
                    n += 1;
                }
            }
            return n;
        }
        let empty = t.full & !filled;
        if empty.is_empty() {
            return 0;
        }
        // First pass: the placements that fit and whose type is left.
        let kept = match t.choice {
            CellChoice::First => {
                let cell = empty.lowest();
                let list = (cell << WINDOW) + filled.window(cell + 1, WINDOW);
                if let Some(mut marked) = t.lists.marked(list, filled, &self.avail) {
                    // Only the marked candidates get the dead-region check.
                    let first = t.lists.start[list] as usize;
                    let mut n = 0;
                    while marked != 0 {
                        let p = t.lists.cands[first + marked.trailing_zeros() as usize].placement;
                        marked &= marked - 1;
                        buf[n] = p;
                        n += regions_ok(t, g, filled, key, p as usize) as usize;
                    }
                    return n;
                }
                t.lists.scan(list, filled, &self.avail, buf)
            }
            CellChoice::Fewest | CellChoice::Tightest => {
                let among = match t.choice {
                    CellChoice::Tightest => g.tightest(empty),
                    _ => empty,
                };
                match fewest(t, filled, &self.avail, among, buf) {
                    Some(kept) => kept,
                    None => return 0,
                }
            }
        };
        // Second pass: the dead-region check.
        if t.cap == 0 {
            return kept;
        }
        let mut n = 0;
        for r in 0..kept {
            let p = buf[r];
            buf[n] = p;
            n += regions_ok(t, g, filled, key, p as usize) as usize;
        }
        n
    }
}

/// A search over one problem with the bitboard engine; one per thread.
#[derive(Debug)]
pub struct BitSolver<B: Bits> {
    t: Arc<BitTables<B>>,
    s: State<B>,
    frames: Vec<Frame>,
    counts: Vec<u64>,
    rep: Option<usize>,
    canon: Canon,
    out: Vec<u16>,
    next_copy: Vec<usize>,
}

impl<B: Bits> BitSolver<B> {
    /// A solver for the shared tables.
    pub fn new(t: Arc<BitTables<B>>) -> BitSolver<B> {
        let depth = t.problem.types.iter().map(|x| x.hi as usize).sum::<usize>() + 2;
        let mut s = State {
            filled: B::ZERO,
            remaining: t.hi.clone(),
            avail: Avail::new(t.hi.len()),
            key: t.key0,
            chosen: vec![0; depth],
            depth: 0,
            // One more list's room than the deepest stack of lists, for
            // the trial list of the cell choice.
            cands: vec![0; t.widest * (depth + 2)],
            top: 0,
        };
        reset(&t, &mut s);
        BitSolver {
            s,
            frames: vec![Frame::default(); depth],
            counts: vec![0; depth + 1],
            rep: None,
            canon: Canon::new(&t.problem),
            out: vec![0; t.problem.cells()],
            next_copy: vec![0; t.problem.types.len()],
            t,
        }
    }

    fn reset(&mut self) {
        reset(&self.t, &mut self.s);
        self.rep = None;
    }

    /// Places `p` as the next piece.
    #[inline(always)]
    fn place(&mut self, p: usize) {
        let t = &*self.t;
        if self.s.depth == 0 && t.plan.breaker().is_some() {
            self.rep = t.plan.reps.binary_search_by_key(&p, |r| r.placement).ok();
        }
        self.s.place(t, p);
    }

    /// Takes back the last piece placed.
    #[inline(always)]
    fn unplace(&mut self) {
        self.s.unplace(&self.t);
    }

    /// Writes the children of the current node at `cands[top..]` and
    /// returns how many there are.
    #[inline(always)]
    fn gather(&mut self) -> usize {
        let t = &*self.t;
        match &t.layout {
            Layout::Line(a) => self.s.gather(t, a),
            Layout::Plane(a) => self.s.gather(t, a),
            Layout::Space(a) => self.s.gather(t, a),
            Layout::Compact => self.s.gather(t, &Table(&t.nbr)),
        }
    }

    /// Opens the node at the current depth: gathers its children.
    #[inline(always)]
    fn open(&mut self) -> usize {
        let n = self.gather();
        let start = self.s.top as u32;
        self.frames[self.s.depth] = Frame {
            start,
            end: start + n as u32,
            next: start,
        };
        self.s.top += n;
        n
    }

    fn is_complete(&self) -> bool {
        self.s.filled == self.t.full
    }

    /// A complete cover is a solution when every mandatory copy is used.
    fn mandatory_used(&self) -> bool {
        !self.t.any_optional
            || self
                .s
                .remaining
                .iter()
                .zip(&self.t.slack)
                .all(|(r, s)| r <= s)
    }

    fn leaf_weight(&mut self) -> Weight {
        if !self.mandatory_used() {
            return Weight::default();
        }
        let t = &*self.t;
        let rep = self.rep.map(|i| &t.plan.reps[i]);
        self.canon
            .weight(&t.problem, &t.plan, &self.s.chosen[..self.s.depth], rep)
    }

    fn fill_solution(&mut self) {
        let prob = &self.t.problem;
        self.next_copy.iter_mut().for_each(|x| *x = 0);
        for &p in &self.s.chosen[..self.s.depth] {
            let pl = &prob.placements[p];
            let ty = pl.ty as usize;
            let inst = prob.types[ty].instances[self.next_copy[ty]];
            self.next_copy[ty] += 1;
            for &c in &pl.cells {
                self.out[prob.order[c as usize]] = inst;
            }
        }
    }

    /// Replays `path` from the root, leaving its placements made.
    fn descend(&mut self, path: &[u32]) -> Result<(), NoSuchNode> {
        self.reset();
        for &k in path {
            let n = self.gather();
            if k as usize >= n {
                return Err(NoSuchNode {
                    path: path.to_vec(),
                });
            }
            let p = self.s.cands[self.s.top + k as usize] as usize;
            self.place(p);
        }
        Ok(())
    }

    fn position(&self, base: usize) -> f64 {
        fraction_of((base..self.s.depth).map(|d| {
            let f = self.frames[d];
            (f.next - f.start - 1, f.end - f.start)
        }))
    }

    /// Reports the complete cover now placed, if it is a solution.
    fn report(&mut self, sink: &mut dyn Sink<[u16]>) -> ControlFlow<()> {
        let w = self.leaf_weight();
        if w.is_zero() {
            return ControlFlow::Continue(());
        }
        self.fill_solution();
        sink.solution(&self.out, w)
    }

    /// The search loop below the current node (at depth `base`), compiled
    /// twice: for any x86-64 and for processors with the bit-manipulation
    /// instructions (BMI1/2, POPCNT, LZCNT: every x86-64 from about 2013),
    /// chosen when the program runs. Portable builds cannot assume them,
    /// yet the search is made of lowest-bit, population-count and
    /// variable-shift operations that they do in one instruction each
    /// (measured 10% faster on 6 x 10 pentominoes).
    fn run(&mut self, sink: &mut dyn Sink<[u16]>, ticker: &mut Ticker<'_>) -> ControlFlow<()> {
        #[cfg(target_arch = "x86_64")]
        if self.t.bmi {
            // SAFETY: `bmi` is true only when the processor has the
            // features `run_bmi` is compiled for (detected in `new`).
            return unsafe { self.run_bmi(sink, ticker) };
        }
        self.run_loop(sink, ticker)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi1,bmi2,popcnt,lzcnt")]
    unsafe fn run_bmi(
        &mut self,
        sink: &mut dyn Sink<[u16]>,
        ticker: &mut Ticker<'_>,
    ) -> ControlFlow<()> {
        self.run_loop(sink, ticker)
    }

    #[inline(always)]
    fn run_loop(&mut self, sink: &mut dyn Sink<[u16]>, ticker: &mut Ticker<'_>) -> ControlFlow<()> {
        let base = self.s.depth;
        self.counts[base] += 1;
        if self.is_complete() {
            return self.report(sink);
        }
        self.open();
        let mut since_poll: u64 = 1;
        loop {
            let f = &mut self.frames[self.s.depth];
            if f.next == f.end {
                // Every child tried: back up.
                self.s.top = f.start as usize;
                if self.s.depth == base {
                    let _ = ticker.poll(since_poll, || 1.0);
                    return ControlFlow::Continue(());
                }
                self.unplace();
                continue;
            }
            let p = self.s.cands[f.next as usize] as usize;
            f.next += 1;
            self.place(p);
            self.counts[self.s.depth] += 1;
            since_poll += 1;
            if since_poll >= POLL_EVERY {
                let n = std::mem::take(&mut since_poll);
                if ticker.poll(n, || self.position(base)).is_break() {
                    return ControlFlow::Break(());
                }
            }
            if self.is_complete() {
                let flow = self.report(sink);
                self.unplace();
                if flow.is_break() {
                    let _ = ticker.poll(since_poll, || 0.0);
                    return flow;
                }
                continue;
            }
            self.open();
        }
    }

    /// One random walk from the root (Knuth's estimator), placing as it goes.
    pub fn probe(&mut self, pick: &mut dyn FnMut(u32) -> u32) -> Result<Probe, NoSuchNode> {
        self.reset();
        let mut degrees = Vec::new();
        loop {
            if self.is_complete() {
                return Ok(Probe {
                    degrees,
                    leaf: NodeKind::Solution(self.leaf_weight()),
                });
            }
            let n = self.gather() as u32;
            if n == 0 {
                return Ok(Probe {
                    degrees,
                    leaf: NodeKind::DeadEnd,
                });
            }
            degrees.push(n);
            let k = pick(n).min(n - 1) as usize;
            let p = self.s.cands[self.s.top + k] as usize;
            self.place(p);
        }
    }

    /// What the node at `path` is.
    pub fn node(&mut self, path: &[u32]) -> Result<NodeKind, NoSuchNode> {
        self.descend(path)?;
        if self.is_complete() {
            return Ok(NodeKind::Solution(self.leaf_weight()));
        }
        let n = self.gather() as u32;
        Ok(if n == 0 {
            NodeKind::DeadEnd
        } else {
            NodeKind::Inner(n)
        })
    }

    /// Explores the subtree at `path`.
    pub fn explore(
        &mut self,
        path: &[u32],
        sink: &mut dyn Sink<[u16]>,
        ticker: &mut Ticker<'_>,
        stats: &mut NodeStats,
    ) -> Result<ControlFlow<()>, NoSuchNode> {
        self.descend(path)?;
        let flow = self.run(sink, ticker);
        stats.add_profile(0, &self.counts);
        self.counts.iter_mut().for_each(|c| *c = 0);
        Ok(flow)
    }

    /// The mode of the plan (for tests).
    pub fn mode(&self) -> Mode {
        self.t.plan.mode
    }
}

/// Empties the board of `s`: every copy left, nothing placed.
fn reset<B: Bits>(t: &BitTables<B>, s: &mut State<B>) {
    s.filled = B::ZERO;
    s.remaining.copy_from_slice(&t.hi);
    for (ty, &h) in t.hi.iter().enumerate() {
        s.avail.set(ty, h > 0);
    }
    s.key = t.key0;
    s.depth = 0;
    s.top = 0;
}

/// Whether placing `p` on top of `filled` leaves every region it touches
/// fillable by the pieces that would remain (`key` is the dead-region key
/// before placing it).
#[inline(always)]
fn regions_ok<B: Bits, G: Grow<B>>(t: &BitTables<B>, g: &G, filled: B, key: u32, p: usize) -> bool {
    if t.cap == 0 {
        return true;
    }
    let info = &t.info[p];
    let empty = t.full & !(filled | info.mask);
    match t.choice {
        CellChoice::First => {
            let behind = empty & !info.near;
            if behind.is_empty() {
                return true;
            }
            let feasible = t.feasible[(key - info.dk) as usize];
            behind_ok(g, behind, empty & info.near, feasible, t.cap)
        }
        CellChoice::Fewest | CellChoice::Tightest => {
            let seeds = info.near & empty;
            if seeds.is_empty() {
                return true;
            }
            let feasible = t.feasible[(key - info.dk) as usize];
            seeds_ok(g, seeds, empty, feasible, t.cap)
        }
    }
}

/// Whether `size` cells can be covered exactly by some of the pieces left.
#[inline(always)]
fn fits_size(feasible: u128, size: u32) -> bool {
    size >= 128 || feasible >> size & 1 == 1
}

/// The check behind the frontier (first empty cell): the cells of `behind`
/// (the empty cells before the piece's last cell) that cannot reach `big`
/// (the empty cells after it) form closed regions; together and one by one
/// their sizes must be feasible. The part that reaches `big` is grown from
/// the big side: when every cell behind touches it, one step settles it;
/// otherwise three steps almost always suffice, so they are taken without
/// a test. Most placements close nothing and pass without a
/// population count: testing for that first, though the branch is often
/// mispredicted, measured about 10% faster on 6 x 10 pentominoes than
/// always counting (a software population count in portable builds).
/// Growth gives up after `cap` steps.
#[inline(always)]
fn behind_ok<B: Bits, G: Grow<B>>(g: &G, behind: B, big: B, feasible: u128, cap: u32) -> bool {
    let mut open = g.expand(big) & behind;
    if open == behind {
        return true;
    }
    open = g.expand(open) & behind;
    open = g.expand(open) & behind;
    let mut next = g.expand(open) & behind;
    if next != open {
        let mut steps = 3;
        while next != open {
            steps += 1;
            if steps > cap {
                return true;
            }
            open = next;
            next = g.expand(open) & behind;
        }
    }
    let closed = behind & !open;
    if closed.is_empty() {
        return true;
    }
    fits_size(feasible, closed.count()) && regions_each_ok(g, closed, feasible, cap)
}

/// Whether each region of `closed` (a union of closed regions) is feasible
/// on its own (one that does not close within `cap` steps is kept).
fn regions_each_ok<B: Bits, G: Grow<B>>(g: &G, closed: B, feasible: u128, cap: u32) -> bool {
    let mut rest = closed;
    while !rest.is_empty() {
        let (done, region) = g.flood(B::bit(rest.lowest()), closed, B::ZERO, cap);
        if region == closed {
            // One region, already checked.
            return true;
        }
        if done && !fits_size(feasible, region.count()) {
            return false;
        }
        rest &= !region;
    }
    true
}

/// The check around a piece anywhere: a flood from each of its empty
/// neighbours (`seeds`); one that has not closed up after `cap` steps is
/// taken to be the big open region, and later floods stop when they meet it.
#[inline(always)]
fn seeds_ok<B: Bits, G: Grow<B>>(g: &G, mut seeds: B, empty: B, feasible: u128, cap: u32) -> bool {
    let mut big = B::ZERO;
    while !seeds.is_empty() {
        let (closed, region) = g.flood(B::bit(seeds.lowest()), empty, big, cap);
        if closed {
            if !fits_size(feasible, region.count()) {
                return false;
            }
        } else {
            big |= region;
        }
        seeds &= !region;
    }
    true
}

/// For the cell of `among` with the fewest fitting placements (the first
/// such), writes them to `out` and returns how many; `None` when some cell
/// has none. With several cells, each list is only counted (a loop without
/// stores) and the best one written at the end.
#[inline(always)]
fn fewest<B: Bits>(
    t: &BitTables<B>,
    filled: B,
    avail: &Avail,
    among: B,
    out: &mut [u32],
) -> Option<usize> {
    let first = t.cover_list(among.lowest(), filled);
    let mut rest = among.without_lowest();
    if rest.is_empty() {
        let n = t.lists.scan(first, filled, avail, out);
        return (n != 0).then_some(n);
    }
    let mut best_list = first;
    let mut best = t.lists.count(first, filled, avail);
    while best != 0 && !rest.is_empty() {
        let c = rest.lowest();
        rest = rest.without_lowest();
        let list = t.cover_list(c, filled);
        let n = t.lists.count(list, filled, avail);
        if n < best {
            best = n;
            best_list = list;
        }
    }
    if best == 0 {
        return None;
    }
    Some(t.lists.scan(best_list, filled, avail, out))
}
