//! How cells sit in the word, and growing sets of cells to their neighbours.
//!
//! Dead-region floods and the tightest-cell choice both ask "which cells
//! are next to these?" for a whole set at once. When the board's bounding
//! box fits in the word, a cell's bit is its position in the box, so the
//! answer is a few shifts and masks per axis; one variant per number of
//! axes keeps the loops unrolled and the masks in registers. Boards whose
//! box does not fit fall back to a neighbour table, a cell at a time.

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

/// Growing sets of cells to their neighbours.
pub(super) trait Grow<B: Bits> {
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
pub(super) struct Table<'a, B>(pub(super) &'a [B]);

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
