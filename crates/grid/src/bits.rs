//! Machine words as sets of cells.

use std::fmt::Debug;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not};

/// A set of up to [`Bits::CAPACITY`] cells in one machine word.
pub trait Bits:
    Copy
    + Eq
    + Default
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
{
    /// How many cells fit.
    const CAPACITY: usize;
    /// The empty set.
    const ZERO: Self;
    /// The set of one cell.
    fn bit(i: usize) -> Self;
    /// The set of cells `0..n`.
    fn low(n: usize) -> Self;
    /// The smallest cell (undefined for the empty set).
    fn lowest(self) -> usize;
    /// The set without its smallest cell.
    fn without_lowest(self) -> Self;
    /// Number of cells.
    fn count(self) -> u32;
    /// True for the empty set.
    fn is_empty(self) -> bool;
    /// The set moved up by `k` cells (cells past the end drop out).
    fn up(self, k: u32) -> Self;
    /// The set moved down by `k` cells.
    fn down(self, k: u32) -> Self;
    /// [`up`](Bits::up) for `k` below 64, which a 128-bit word does with
    /// fewer instructions than a shift by any `k` (no test for `k >= 64`).
    #[inline(always)]
    fn up_short(self, k: u32) -> Self {
        self.up(k & 63)
    }
    /// [`down`](Bits::down) for `k` below 64.
    #[inline(always)]
    fn down_short(self, k: u32) -> Self {
        self.down(k & 63)
    }
    /// The cells `i..i + width` as a number (bit `j` is cell `i + j`).
    fn window(self, i: usize, width: u32) -> usize;
    /// The largest cell (undefined for the empty set).
    fn highest(self) -> usize;
    /// The cells `lo..lo + 64` as a 64-bit word (bit `j` is cell `lo + j`).
    fn word(self, lo: usize) -> u64;
    /// The cells of the 64-bit word `w` put back at `lo` (bit `j` becomes
    /// cell `lo + j`): the inverse of [`word`](Bits::word) on those cells.
    fn from_word(w: u64, lo: usize) -> Self;
    /// The set folded to 64 bits (for hashing).
    fn fold64(self) -> u64;
    /// Whether cell `i` is in the set.
    fn has(self, i: usize) -> bool {
        !(self & Self::bit(i)).is_empty()
    }
}

macro_rules! impl_bits {
    ($t:ty) => {
        impl Bits for $t {
            const CAPACITY: usize = <$t>::BITS as usize;
            const ZERO: Self = 0;
            #[inline(always)]
            fn bit(i: usize) -> Self {
                1 << i
            }
            #[inline(always)]
            fn low(n: usize) -> Self {
                if n >= Self::CAPACITY {
                    !0
                } else {
                    (1 << n) - 1
                }
            }
            #[inline(always)]
            fn lowest(self) -> usize {
                self.trailing_zeros() as usize
            }
            #[inline(always)]
            fn without_lowest(self) -> Self {
                self & self.wrapping_sub(1)
            }
            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn up(self, k: u32) -> Self {
                self << k
            }
            #[inline(always)]
            fn down(self, k: u32) -> Self {
                self >> k
            }
            #[inline(always)]
            fn window(self, i: usize, width: u32) -> usize {
                if i >= Self::CAPACITY {
                    0
                } else {
                    ((self >> i) as usize) & ((1usize << width) - 1)
                }
            }
            #[inline(always)]
            fn highest(self) -> usize {
                (<$t>::BITS - 1 - self.leading_zeros()) as usize
            }
            #[inline(always)]
            fn word(self, lo: usize) -> u64 {
                (self >> lo) as u64
            }
            #[inline(always)]
            fn from_word(w: u64, lo: usize) -> Self {
                (w as Self) << lo
            }
            #[inline(always)]
            fn fold64(self) -> u64 {
                // Two shifts: one by the width would overflow a 64-bit word.
                self as u64 ^ (self >> 32 >> 32) as u64
            }
            #[inline(always)]
            fn is_empty(self) -> bool {
                self == 0
            }
        }
    };
}

impl_bits!(u64);
impl_bits!(u128);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_behave_as_sets() {
        let s = u64::bit(3) | u64::bit(9);
        assert_eq!(s.lowest(), 3);
        assert_eq!(s.without_lowest(), u64::bit(9));
        assert_eq!(s.count(), 2);
        assert_eq!(u64::low(64), !0);
        assert_eq!(u128::low(3), 7);
        assert!(u128::bit(100).has(100));
        let wide = u128::bit(70) | u128::bit(9);
        assert_eq!((wide.lowest(), wide.highest()), (9, 70));
        assert_eq!(wide.word(9), 1 | 1 << 61);
        assert_eq!(u128::from_word(wide.word(9), 9), wide);
        assert_eq!(u64::bit(63).highest(), 63);
    }
}
