//! Regions that only one piece can fill: is there such a piece left?
//!
//! A closed region smaller than twice the smallest piece holds at most one
//! piece, so it can be filled only if it is exactly the cells of one
//! placement of a type with copies left. The size check cannot see that (a
//! bar-shaped pocket of six triangles passes it while no hexiamond left
//! has that shape), and the search would only find out a level or more
//! further down. A hash table from the cells of every placement to the
//! types that have it answers the question in one or two probes.

use super::written;
use crate::bits::Bits;

/// The placements' cell sets, each with the types that cover exactly it.
#[derive(Clone, Debug, Default)]
pub(super) struct Shapes<B> {
    /// Open addressing with linear probing; an empty set marks a free slot
    /// (no placement is empty).
    slots: Vec<(B, u64)>,
    shift: u32,
    /// Regions of fewer cells than this are checked (0: never, as with
    /// more than 64 types).
    pub(super) below: u32,
    /// The cells of the largest placement: a larger region is none of
    /// them, and is refused without a probe.
    largest: u32,
}

impl<B: Bits> Shapes<B> {
    /// The table of `placements` (cells and type); regions smaller than
    /// `below` cells are looked up. More than 64 types turn it off.
    pub(super) fn new(placements: impl ExactSizeIterator<Item = (B, usize)>, below: u32) -> Self {
        if below == 0 {
            return Shapes::default();
        }
        let n = placements.len();
        let bits = (2 * n).max(2).next_power_of_two().trailing_zeros();
        let mut shapes = Shapes {
            // Probed before written: see `written`.
            slots: written(1 << bits, (B::ZERO, 0)),
            shift: 64 - bits,
            below,
            largest: 0,
        };
        for (mask, ty) in placements {
            if ty >= 64 {
                return Shapes::default();
            }
            shapes.largest = shapes.largest.max(mask.count());
            let slot = shapes.slot(mask);
            shapes.slots[slot].0 = mask;
            shapes.slots[slot].1 |= 1 << ty;
        }
        shapes
    }

    /// The slot that holds `mask`, or the free slot where it would go.
    #[inline(always)]
    fn slot(&self, mask: B) -> usize {
        let last = self.slots.len() - 1;
        let mut i = (mask.fold64().wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize;
        loop {
            let (m, _) = self.slots[i];
            if m == mask || m.is_empty() {
                return i;
            }
            i = (i + 1) & last;
        }
    }

    /// Whether `region` is the cell set of a placement of a type in `left`.
    /// A region larger than every placement is refused without a probe:
    /// the exact checks of the last pieces ask about many (their probes
    /// took 0.6% of the instructions of counting the hexiamonds in the 6 x 6
    /// rhombus, 2.6% on 6 x 10 pentominoes).
    #[inline(always)]
    pub(super) fn filled_by_one(&self, region: B, left: u64) -> bool {
        region.count() <= self.largest && self.slots[self.slot(region)].1 & left != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_region_is_found_only_with_a_type_left_that_covers_it_exactly() {
        let placements = [(0b111u128, 0), (0b111 << 70, 1), (0b1011, 1), (0b111, 2)];
        let shapes = Shapes::new(placements.into_iter(), 6);
        assert!(shapes.filled_by_one(0b111, 1 << 2));
        assert!(shapes.filled_by_one(0b111, 1));
        assert!(!shapes.filled_by_one(0b111, 1 << 1));
        assert!(shapes.filled_by_one(0b111 << 70, 1 << 1));
        assert!(!shapes.filled_by_one(0b110 << 70, !0));
        assert!(!shapes.filled_by_one(0b1101, !0));
        assert!(!shapes.filled_by_one(0b1111, !0));
        let many = Shapes::new([(0b1u64, 64)].into_iter(), 6);
        assert_eq!(many.below, 0);
    }
}
