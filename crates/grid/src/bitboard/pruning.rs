//! Dead-region checks: refusing a placement that leaves a region no
//! remaining pieces can fill.
//!
//! A pocket of empty cells whose size no sub-multiset of the pieces left
//! can make would only be discovered many levels down, after every way of
//! filling the rest has been tried; checking when the pocket closes cuts
//! those subtrees off at their root. The checks are bounded in steps and
//! only ever give up by keeping a placement, so the pruning is sound.

use super::growth::Grow;
use super::tables::BitTables;
use super::CellChoice;
use crate::bits::Bits;

/// Whether placing `p` on top of `filled` leaves the empty cells in two
/// colours the remaining pieces can balance, and every region it touches
/// fillable by them (`key` and `imbalance` are the key of the remaining
/// pieces and the empty cells' difference of colours before placing it).
#[inline(always)]
pub(super) fn child_ok<B: Bits, G: Grow<B>>(
    t: &BitTables<B>,
    g: &G,
    filled: B,
    key: u32,
    imbalance: i32,
    p: usize,
) -> bool {
    if t.cap == 0 {
        return true;
    }
    let info = &t.info[p];
    let key = (key - info.dk) as usize;
    let empty = t.full & !(filled | info.mask);
    match t.choice {
        CellChoice::First => {
            let behind = empty & !info.near;
            if behind.is_empty() {
                return true;
            }
            behind_ok(g, behind, empty & info.near, t.feasible[key], t.cap)
        }
        CellChoice::Fewest | CellChoice::Tightest => {
            // (The colour check is never on with the first empty cell.)
            let imbalance = imbalance - info.imbalance as i32;
            if t.balanced && !balance_ok(t.balances[key], imbalance) {
                return false;
            }
            let seeds = info.near & empty;
            if seeds.is_empty() {
                return true;
            }
            seeds_ok(g, seeds, empty, t.feasible[key], t.cap)
        }
    }
}

/// Whether the remaining pieces, whose signed colour differences can sum
/// to the values marked in `balances` (bit `64 + v` for the value v), can
/// make `imbalance`; values out of the word's range are kept (sound).
#[inline(always)]
fn balance_ok(balances: u128, imbalance: i32) -> bool {
    let bit = (imbalance + BALANCE_ZERO as i32) as u32;
    bit >= 128 || balances >> bit & 1 == 1
}

/// The bit of `balances` words that stands for a sum of 0.
pub(super) const BALANCE_ZERO: u32 = 64;

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
