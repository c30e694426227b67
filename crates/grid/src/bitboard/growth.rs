//! How cells sit in the word, and growing sets of cells to their neighbours.
//!
//! Dead-region floods and the tightest-cell choice both ask "which cells
//! are next to these?" for a whole set at once. When the board's bounding
//! box fits in the word, a cell's bit is its position in the box, so the
//! answer is a few shifts and masks per axis; one variant per number of
//! axes keeps the loops unrolled and the masks in registers. On triangles
//! and hexagons a neighbour is not a step along an axis of the box, but
//! it is still a fixed distance away in the word (a hexagon's six
//! neighbours sit at ±1, ±W and ±(W - 1)), so the same shifts work there
//! with a mask on every side. Boards whose box does not fit fall back to a
//! neighbour table, a cell at a time.

use crate::bits::Bits;

/// How cells sit in the word.
#[derive(Clone, Debug)]
pub(super) enum Layout<B> {
    /// Bit = position in the board's bounding box (holes stay full), so a
    /// step along an axis is a shift. One variant per number of axes, so
    /// that floods and neighbour counts unroll with their masks in
    /// registers.
    Line(Axes<B, 1>),
    /// Two axes (boards in the plane).
    Plane(Axes<B, 2>),
    /// Three axes (boxes in space).
    Space(Axes<B, 3>),
    /// Bit = position in the box, neighbours two distances apart in the
    /// word (triangles, whose box has a turn axis of 2 fastest).
    Pairs2(Pairs<B, 2>),
    /// Three distances (hexagons; triangles in an unusual box).
    Pairs3(Pairs<B, 3>),
    /// Bit = scan position (the box does not fit); neighbours by table.
    Compact,
}

/// The axes of a boxed layout, fastest first: the shift of a step along
/// each, and the cells that have a neighbour after and before along it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Axes<B, const N: usize> {
    stride: [u32; N],
    not_last: [B; N],
    not_first: [B; N],
}

/// The axes of the box `extents` (fastest first) laid out in `B`.
pub(super) fn axes<B: Bits, const N: usize>(extents: &[u32], volume: usize) -> Axes<B, N> {
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

/// Neighbours as distances in the word, for lattices whose neighbours are
/// not the box's axes: per distance, the cells whose neighbour lies that
/// far after them and those whose neighbour lies that far before. Every
/// shift is masked, so a step never wraps to a cell that is not a
/// neighbour.
#[derive(Clone, Copy, Debug)]
pub(super) struct Pairs<B, const N: usize> {
    distance: [u32; N],
    after: [B; N],
    before: [B; N],
}

/// The distances in the word between the neighbouring cells of a board
/// laid out at `bit_of` (by scan position; `neighbours` by scan position
/// too), with the cells that have a neighbour at each; `None` when there
/// are more than `N` distances, or one of 64 or more (shifts by less take
/// fewer instructions on 128 bits; only boards of two very long rows have
/// one). Unused distances have empty masks.
pub(super) fn pairs<B: Bits, const N: usize>(
    neighbours: &[Vec<u32>],
    bit_of: &[usize],
) -> Option<Pairs<B, N>> {
    let mut p = Pairs {
        distance: [1; N],
        after: [B::ZERO; N],
        before: [B::ZERO; N],
    };
    let mut used = 0;
    for (c, v) in neighbours.iter().enumerate() {
        for &d in v {
            let (from, to) = (bit_of[c], bit_of[d as usize]);
            let gap = from.abs_diff(to) as u32;
            if gap >= 64 {
                return None;
            }
            let k = match p.distance[..used].iter().position(|&g| g == gap) {
                Some(k) => k,
                None if used < N => {
                    p.distance[used] = gap;
                    used += 1;
                    used - 1
                }
                None => return None,
            };
            if to > from {
                p.after[k] |= B::bit(from);
            } else {
                p.before[k] |= B::bit(from);
            }
        }
    }
    Some(p)
}

/// Growing sets of cells to their neighbours.
pub(super) trait Grow<B: Bits> {
    /// This growth on a 64-bit window of the word (see [`narrow`]).
    type Narrow: Grow<u64>;

    /// This growth on the cells `lo..lo + 64` as a 64-bit word, for a
    /// board wider than 64 cells whose empty cells all lie there (`None`
    /// for narrower boards and for the table layout). Cells that a step
    /// would take out of the window are below its lowest empty cell or
    /// above its highest, so they are never empty and dropping them
    /// changes nothing.
    fn narrow(&self, lo: usize) -> Option<Self::Narrow>;

    /// The cells of `region` and their neighbours (possibly with some cells
    /// off the board, which callers drop with `& empty`).
    fn expand(&self, region: B) -> B;

    /// The empty cells with the fewest empty neighbours.
    fn tightest(&self, empty: B) -> B;

    /// The empty cells in the smallest and the second smallest classes of
    /// empty-neighbour counts.
    fn tightest_two(&self, empty: B) -> (B, B) {
        (self.tightest(empty), B::ZERO)
    }

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

impl<B: Bits, const N: usize> Axes<B, N> {
    /// How many empty neighbours each cell has, in bit-sliced counters for
    /// all cells at once.
    #[inline(always)]
    fn empty_neighbours(&self, empty: B) -> Counts<B> {
        let mut counts = Counts::new();
        for i in 0..N {
            let s = self.stride[i];
            if i + 1 == N {
                counts.add(empty.down(s));
                counts.add(empty.up(s));
            } else {
                counts.add(empty.down(s) & self.not_last[i]);
                counts.add(empty.up(s) & self.not_first[i]);
            }
        }
        counts
    }
}

impl<B: Bits, const N: usize> Grow<B> for Axes<B, N> {
    type Narrow = Axes<u64, N>;

    #[inline(always)]
    fn narrow(&self, lo: usize) -> Option<Axes<u64, N>> {
        (B::CAPACITY > 64).then(|| Axes {
            stride: self.stride,
            not_last: self.not_last.map(|m| m.word(lo)),
            not_first: self.not_first.map(|m| m.word(lo)),
        })
    }

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
        self.empty_neighbours(empty).smallest(empty)
    }

    #[inline(always)]
    fn tightest_two(&self, empty: B) -> (B, B) {
        self.empty_neighbours(empty).smallest_two(empty)
    }
}

/// How many neighbours of a set each cell has, counted for all cells at
/// once in bit-sliced counters (up to 7).
#[derive(Clone, Copy)]
struct Counts<B> {
    c0: B,
    c1: B,
    c2: B,
}

impl<B: Bits> Counts<B> {
    fn new() -> Counts<B> {
        Counts {
            c0: B::ZERO,
            c1: B::ZERO,
            c2: B::ZERO,
        }
    }

    /// Adds one to the count of every cell of `x`.
    #[inline(always)]
    fn add(&mut self, x: B) {
        let carry0 = self.c0 & x;
        self.c0 = (self.c0 | x) & !carry0;
        let carry1 = self.c1 & carry0;
        self.c1 = (self.c1 | carry0) & !carry1;
        self.c2 |= carry1;
    }

    /// The cells of `empty` with the smallest count.
    #[inline(always)]
    fn smallest(self, empty: B) -> B {
        // Classes by count, smallest first.
        for k in 0..8u32 {
            let pick = |bit: u32, c: B| if k >> bit & 1 == 1 { c } else { !c };
            let class = empty & pick(0, self.c0) & pick(1, self.c1) & pick(2, self.c2);
            if !class.is_empty() {
                return class;
            }
        }
        empty
    }

    /// The cells of `empty` with the smallest count, and those with the
    /// next smallest.
    #[inline(always)]
    fn smallest_two(self, empty: B) -> (B, B) {
        let mut first = B::ZERO;
        for k in 0..8u32 {
            let pick = |bit: u32, c: B| if k >> bit & 1 == 1 { c } else { !c };
            let class = empty & pick(0, self.c0) & pick(1, self.c1) & pick(2, self.c2);
            if class.is_empty() {
                continue;
            }
            if !first.is_empty() {
                return (first, class);
            }
            first = class;
        }
        (first, B::ZERO)
    }
}

impl<B: Bits, const N: usize> Grow<B> for Pairs<B, N> {
    type Narrow = Pairs<u64, N>;

    #[inline(always)]
    fn narrow(&self, lo: usize) -> Option<Pairs<u64, N>> {
        (B::CAPACITY > 64).then(|| Pairs {
            distance: self.distance,
            after: self.after.map(|m| m.word(lo)),
            before: self.before.map(|m| m.word(lo)),
        })
    }

    #[inline(always)]
    fn expand(&self, region: B) -> B {
        let mut next = region;
        for i in 0..N {
            let s = self.distance[i];
            next |= (region & self.after[i]).up_short(s) | (region & self.before[i]).down_short(s);
        }
        next
    }

    /// A cell's neighbour at distance s after it is empty when the cell
    /// is among `after` and the empty set shifted down by s holds it.
    #[inline(always)]
    fn tightest(&self, empty: B) -> B {
        let mut counts = Counts::new();
        for i in 0..N {
            let s = self.distance[i];
            counts.add(empty.down_short(s) & self.after[i]);
            counts.add(empty.up_short(s) & self.before[i]);
        }
        counts.smallest(empty)
    }
}

/// The 64-bit window of `g` that holds every cell of `empty`, with its
/// lowest cell, when the board is wider than 64 cells and there is one:
/// deep in the search the empty cells of such a board usually fit, and a
/// step of a flood then takes half the instructions.
#[inline(always)]
pub(super) fn window<B: Bits, G: Grow<B>>(g: &G, empty: B) -> Option<(usize, G::Narrow)> {
    if B::CAPACITY <= 64 || empty.is_empty() {
        return None;
    }
    let lo = empty.lowest();
    if empty.highest() - lo >= 64 {
        return None;
    }
    g.narrow(lo).map(|n| (lo, n))
}

/// The tightest cells of `empty` ([`Grow::tightest`]), counted on the
/// node's 64-bit window when it has one (`narrow`, from [`window`]).
#[inline(always)]
pub(super) fn tightest_in<B: Bits, G: Grow<B>>(
    g: &G,
    narrow: &Option<(usize, G::Narrow)>,
    empty: B,
) -> B {
    match narrow {
        Some((lo, n)) => B::from_word(n.tightest(empty.word(*lo)), *lo),
        None => g.tightest(empty),
    }
}

/// The lowest of the tightest cells of `empty` (non-empty), as
/// [`tightest_in`]: on a window, the lowest bit of the window's word and
/// its offset, without making a board's set of it.
#[inline(always)]
pub(super) fn lowest_tightest_in<B: Bits, G: Grow<B>>(
    g: &G,
    narrow: &Option<(usize, G::Narrow)>,
    empty: B,
) -> usize {
    match narrow {
        Some((lo, n)) => lo + n.tightest(empty.word(*lo)).lowest(),
        None => g.tightest(empty).lowest(),
    }
}

/// The two tightest classes of `empty` ([`Grow::tightest_two`]), on the
/// node's window when it has one, as [`tightest_in`].
#[inline(always)]
pub(super) fn tightest_two_in<B: Bits, G: Grow<B>>(
    g: &G,
    narrow: &Option<(usize, G::Narrow)>,
    empty: B,
) -> (B, B) {
    match narrow {
        Some((lo, n)) => {
            let (among, then) = n.tightest_two(empty.word(*lo));
            (B::from_word(among, *lo), B::from_word(then, *lo))
        }
        None => g.tightest_two(empty),
    }
}

/// Any layout, told apart at each step: the growth of the one copy of the
/// search loop that serves every board (see `solver`: only the layouts
/// the catalog's puzzles spend their time in have a copy of their own,
/// since each copy of the loop costs seconds of build time).
#[derive(Clone, Copy, Debug)]
pub(super) enum AnyGrow<'a, B> {
    Line(Axes<B, 1>),
    Plane(Axes<B, 2>),
    Space(Axes<B, 3>),
    Pairs2(Pairs<B, 2>),
    Pairs3(Pairs<B, 3>),
    Table(&'a [B]),
}

impl<'a, B: Bits> AnyGrow<'a, B> {
    /// The growth of `layout`, with the neighbour table `nbr` for the
    /// compact one.
    pub(super) fn of(layout: &Layout<B>, nbr: &'a [B]) -> AnyGrow<'a, B> {
        match layout {
            Layout::Line(a) => AnyGrow::Line(*a),
            Layout::Plane(a) => AnyGrow::Plane(*a),
            Layout::Space(a) => AnyGrow::Space(*a),
            Layout::Pairs2(p) => AnyGrow::Pairs2(*p),
            Layout::Pairs3(p) => AnyGrow::Pairs3(*p),
            Layout::Compact => AnyGrow::Table(nbr),
        }
    }
}

impl<B: Bits> Grow<B> for AnyGrow<'_, B> {
    type Narrow = AnyGrow<'static, u64>;

    #[inline(always)]
    fn narrow(&self, lo: usize) -> Option<AnyGrow<'static, u64>> {
        match self {
            AnyGrow::Line(a) => a.narrow(lo).map(AnyGrow::Line),
            AnyGrow::Plane(a) => a.narrow(lo).map(AnyGrow::Plane),
            AnyGrow::Space(a) => a.narrow(lo).map(AnyGrow::Space),
            AnyGrow::Pairs2(p) => p.narrow(lo).map(AnyGrow::Pairs2),
            AnyGrow::Pairs3(p) => p.narrow(lo).map(AnyGrow::Pairs3),
            AnyGrow::Table(_) => None,
        }
    }

    #[inline(always)]
    fn expand(&self, region: B) -> B {
        match self {
            AnyGrow::Line(a) => a.expand(region),
            AnyGrow::Plane(a) => a.expand(region),
            AnyGrow::Space(a) => a.expand(region),
            AnyGrow::Pairs2(p) => p.expand(region),
            AnyGrow::Pairs3(p) => p.expand(region),
            AnyGrow::Table(nbr) => Table(nbr).expand(region),
        }
    }

    #[inline(always)]
    fn tightest(&self, empty: B) -> B {
        match self {
            AnyGrow::Line(a) => a.tightest(empty),
            AnyGrow::Plane(a) => a.tightest(empty),
            AnyGrow::Space(a) => a.tightest(empty),
            AnyGrow::Pairs2(p) => p.tightest(empty),
            AnyGrow::Pairs3(p) => p.tightest(empty),
            AnyGrow::Table(nbr) => Table(nbr).tightest(empty),
        }
    }

    #[inline(always)]
    fn tightest_two(&self, empty: B) -> (B, B) {
        match self {
            AnyGrow::Line(a) => a.tightest_two(empty),
            AnyGrow::Plane(a) => a.tightest_two(empty),
            AnyGrow::Space(a) => a.tightest_two(empty),
            AnyGrow::Pairs2(p) => p.tightest_two(empty),
            AnyGrow::Pairs3(p) => p.tightest_two(empty),
            AnyGrow::Table(nbr) => Table(nbr).tightest_two(empty),
        }
    }
}

/// Neighbours by table, for the compact layout: a cell at a time.
pub(super) struct Table<'a, B>(pub(super) &'a [B]);

impl<B: Bits> Grow<B> for Table<'_, B> {
    type Narrow = Axes<u64, 1>;

    fn narrow(&self, _: usize) -> Option<Axes<u64, 1>> {
        None
    }

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Piece, Puzzle, Sides, Site};
    use crate::problem::Problem;
    use crate::Lattice;
    use jigsolve_search::estimate::SplitMix64;

    /// A random connected board of `n` cells (with holes in its box).
    fn board(lattice: Lattice, n: usize, rng: &mut SplitMix64) -> Vec<Site> {
        let mut cells = vec![[0, 0, 0]];
        while cells.len() < n {
            let from = cells[rng.below(cells.len() as u32) as usize];
            let next: Vec<_> = lattice
                .neighbours(from)
                .filter(|c| !cells.contains(c))
                .collect();
            if !next.is_empty() {
                cells.push(next[rng.below(next.len() as u32) as usize]);
            }
        }
        cells.into_iter().map(|c| (c, None)).collect()
    }

    /// On random triangle and hexagon boards, growing a random set by
    /// shifts reaches exactly the board neighbours the lattice lists, and
    /// the tightest cells are those with the fewest empty neighbours by
    /// that list.
    #[test]
    fn shifts_grow_to_exactly_the_lattice_neighbours() {
        let mut rng = SplitMix64::new(7);
        let mut checked = 0;
        for (lattice, n) in [(Lattice::Triangle, 40), (Lattice::Hexagon, 30)] {
            for _ in 0..20 {
                let cells = board(lattice, n, &mut rng);
                let one = Piece {
                    name: "m".into(),
                    shape: vec![([0, 0, 0], None)],
                    copies: n as u32,
                    optional: false,
                    least: 0,
                    open: None,
                    sides: Sides::Two,
                };
                let puzzle = Puzzle::new("t".into(), lattice, vec![], cells, vec![one]).unwrap();
                let problem = Problem::new(&puzzle);
                let volume: u64 = problem.scan_axes.iter().map(|&(_, e)| e as u64).product();
                if volume > 128 {
                    continue;
                }
                let bit: Vec<usize> = problem.boxed.iter().map(|&b| b as usize).collect();
                let g = pairs::<u128, 3>(&problem.neighbours, &bit).expect("three distances");
                checked += 1;
                let of = |cells: &mut dyn Iterator<Item = usize>| {
                    cells.fold(0u128, |m, c| m | 1 << bit[c])
                };
                for _ in 0..20 {
                    let set: Vec<usize> = (0..n).filter(|_| rng.below(3) == 0).collect();
                    let empty = of(&mut (0..n).filter(|_| rng.below(2) == 0));
                    let want = of(&mut set
                        .iter()
                        .flat_map(|&c| problem.neighbours[c].iter().map(|&d| d as usize))
                        .chain(set.iter().copied()));
                    let region = of(&mut set.iter().copied());
                    let board = of(&mut (0..n));
                    assert_eq!(g.expand(region) & board, want, "{lattice}");
                    let free = |c: usize| {
                        problem.neighbours[c]
                            .iter()
                            .filter(|&&d| empty >> bit[d as usize] & 1 == 1)
                            .count()
                    };
                    let empties: Vec<usize> =
                        (0..n).filter(|&c| empty >> bit[c] & 1 == 1).collect();
                    if let Some(least) = empties.iter().map(|&c| free(c)).min() {
                        let tight = of(&mut empties.iter().copied().filter(|&c| free(c) == least));
                        assert_eq!(g.tightest(empty), tight, "{lattice}");
                    }
                }
            }
        }
        assert!(checked >= 20, "only {checked} boards fit in 128 bits");
    }

    /// Random sets of the cells `lo..lo + 64` of `board` grow and count
    /// their neighbours in the 64-bit window of `g` as in the whole word.
    fn check_window<G: Grow<u128>>(g: &G, board: u128, rng: &mut SplitMix64) {
        for _ in 0..40 {
            let lo = board.lowest() + rng.below(40) as usize;
            let span = u128::low(64) << lo & board;
            let random =
                |rng: &mut SplitMix64| (0..128).fold(0u128, |m, i| m | (rng.below(2) as u128) << i);
            let (empty, region) = (random(rng) & span, random(rng) & span);
            let Some((at, n)) = window(g, empty) else {
                assert!(empty.is_empty() || empty.highest() - empty.lowest() >= 64);
                continue;
            };
            assert_eq!(at, empty.lowest());
            let region = region & empty;
            let grown = u128::from_word(n.expand(region.word(at)) & empty.word(at), at);
            assert_eq!(grown, g.expand(region) & empty);
            assert_eq!(
                u128::from_word(n.tightest(empty.word(at)), at),
                g.tightest(empty)
            );
        }
    }

    /// On boards wider than 64 cells, the floods and the tightest cells
    /// of a window that holds every empty cell are those of the whole word.
    #[test]
    fn a_window_grows_and_counts_as_the_whole_word() {
        let mut rng = SplitMix64::new(11);
        let boards = [
            (Lattice::Triangle, 6, 6),
            (Lattice::Triangle, 4, 12),
            (Lattice::Triangle, 8, 8),
            (Lattice::Hexagon, 9, 9),
            (Lattice::Hexagon, 8, 12),
            (Lattice::Square, 9, 10),
            (Lattice::Square, 11, 11),
        ];
        for (lattice, w, h) in boards {
            let turns = if lattice == Lattice::Triangle { 2 } else { 1 };
            let cells: Vec<Site> = (0..h)
                .flat_map(|y| (0..w).flat_map(move |x| (0..turns).map(move |t| [x, y, t])))
                .map(|c| (c, None))
                .collect();
            let one = Piece {
                name: "m".into(),
                shape: vec![([0, 0, 0], None)],
                copies: cells.len() as u32,
                optional: false,
                least: 0,
                open: None,
                sides: Sides::Two,
            };
            let puzzle = Puzzle::new("t".into(), lattice, vec![], cells, vec![one]).unwrap();
            let problem = Problem::new(&puzzle);
            let extents: Vec<u32> = problem.scan_axes.iter().map(|&(_, e)| e).collect();
            let volume: usize = extents.iter().map(|&e| e as usize).product();
            assert!(
                (65..=128).contains(&volume),
                "{lattice} {w} x {h}: {volume} bits"
            );
            let bit: Vec<usize> = problem.boxed.iter().map(|&b| b as usize).collect();
            let board = bit.iter().fold(0u128, |m, &b| m | 1 << b);
            if lattice == Lattice::Square {
                check_window(&axes::<u128, 2>(&extents, volume), board, &mut rng);
            } else {
                let g = pairs::<u128, 3>(&problem.neighbours, &bit).expect("three distances");
                check_window(&g, board, &mut rng);
            }
        }
    }
}
