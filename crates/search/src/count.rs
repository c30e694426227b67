//! What one reported solution stands for, and what a search counted.
//!
//! The seeds count differently (Das verflixte Hunde-Spiel: 16 raw, 8 distinct,
//! 2 unique), so every count carries all three:
//!
//! - **raw**: pieces told apart, every orientation of the whole board;
//! - **distinct**: identical pieces merged;
//! - **unique**: board symmetries removed too.

use serde::{Deserialize, Serialize};
use std::ops::AddAssign;

/// How many raw, distinct and unique solutions one reported solution stands for.
///
/// An engine that searches every distinct solution reports each with
/// `distinct = 1`, `unique = 1` only for the canonical member of its symmetry
/// class, and `raw` the number of ways to tell identical pieces apart. An engine
/// that breaks symmetry inside the search reports one member per class with
/// `unique = 1` and `distinct` the size of the class.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Weight {
    /// Raw solutions (pieces told apart, every board orientation).
    pub raw: u128,
    /// Distinct solutions (identical pieces merged).
    pub distinct: u128,
    /// Unique solutions (board symmetries removed too).
    pub unique: u128,
}

impl Weight {
    /// A solution that stands for exactly one of each kind.
    pub const ONE: Weight = Weight {
        raw: 1,
        distinct: 1,
        unique: 1,
    };

    /// True when the solution stands for nothing (a symmetric duplicate that a
    /// post-check rejected).
    pub fn is_zero(&self) -> bool {
        self.raw == 0 && self.distinct == 0 && self.unique == 0
    }

    /// What `n` solutions of this weight stand for (saturating, like the sums).
    pub fn times(self, n: u64) -> Weight {
        let n = u128::from(n);
        Weight {
            raw: self.raw.saturating_mul(n),
            distinct: self.distinct.saturating_mul(n),
            unique: self.unique.saturating_mul(n),
        }
    }
}

impl AddAssign for Weight {
    /// Adds saturating: counts beyond 2^128 are not meaningful to anyone.
    fn add_assign(&mut self, other: Weight) {
        self.raw = self.raw.saturating_add(other.raw);
        self.distinct = self.distinct.saturating_add(other.distinct);
        self.unique = self.unique.saturating_add(other.unique);
    }
}

/// Which of the three counts a search computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CountKinds {
    /// The raw count is computed.
    pub raw: bool,
    /// The distinct count is computed.
    pub distinct: bool,
    /// The unique count is computed.
    pub unique: bool,
}

impl CountKinds {
    /// All three counts.
    pub const ALL: CountKinds = CountKinds {
        raw: true,
        distinct: true,
        unique: true,
    };
}

/// The totals of a search; `None` where that kind was not computed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    /// Pieces told apart, every board orientation.
    pub raw: Option<u128>,
    /// Identical pieces merged.
    pub distinct: Option<u128>,
    /// Board symmetries removed too.
    pub unique: Option<u128>,
}

impl Counts {
    /// The totals of a summed weight, keeping only the computed kinds.
    pub fn from_weight(total: Weight, kinds: CountKinds) -> Counts {
        Counts {
            raw: kinds.raw.then_some(total.raw),
            distinct: kinds.distinct.then_some(total.distinct),
            unique: kinds.unique.then_some(total.unique),
        }
    }

    /// Adds another search's totals (shards, threads); a kind stays known only
    /// when both sides know it.
    pub fn add(&mut self, other: &Counts) {
        fn sum(a: Option<u128>, b: Option<u128>) -> Option<u128> {
            Some(a?.saturating_add(b?))
        }
        self.raw = sum(self.raw, other.raw);
        self.distinct = sum(self.distinct, other.distinct);
        self.unique = sum(self.unique, other.unique);
    }

    /// Zero of every kind that `kinds` computes.
    pub fn zero(kinds: CountKinds) -> Counts {
        Counts::from_weight(Weight::default(), kinds)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_add_and_saturate() {
        let mut w = Weight::ONE;
        w += Weight {
            raw: 2,
            distinct: 1,
            unique: 0,
        };
        assert_eq!(
            w,
            Weight {
                raw: 3,
                distinct: 2,
                unique: 1
            }
        );
        w += Weight {
            raw: u128::MAX,
            distinct: 0,
            unique: 0,
        };
        assert_eq!(w.raw, u128::MAX);
    }

    #[test]
    fn counts_keep_unknown_kinds_unknown() {
        let kinds = CountKinds {
            raw: true,
            distinct: true,
            unique: false,
        };
        let mut a = Counts::from_weight(Weight::ONE, kinds);
        a.add(&Counts::from_weight(Weight::ONE, CountKinds::ALL));
        assert_eq!(a.raw, Some(2));
        assert_eq!(a.unique, None);
    }
}
