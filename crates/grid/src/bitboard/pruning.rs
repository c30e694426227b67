//! Dead-region checks: refusing a placement that leaves a region no
//! remaining pieces can fill.
//!
//! A pocket of empty cells whose size no sub-multiset of the pieces left
//! can make would only be discovered many levels down, after every way of
//! filling the rest has been tried; checking when the pocket closes cuts
//! those subtrees off at their root. The checks are bounded in steps and
//! only ever give up by keeping a placement, so the pruning is sound.

use super::growth::{lowest_tightest_in, Grow};
use super::lists::Avail;
use super::shapes::Shapes;
use super::tables::BitTables;
use super::CellChoice;
use crate::bits::Bits;

/// What the dead-region check reads about the node whose children it
/// checks: its full cells, the key of the remaining pieces, the empty
/// cells' difference of colours, the types left, and the 64-bit window of
/// a wider board that holds its empty cells (with its lowest cell), if one
/// does (see [`window`](super::growth::window)).
pub(super) struct Parent<'a, B, N> {
    pub(super) filled: B,
    pub(super) key: u32,
    pub(super) imbalance: i32,
    pub(super) left: Left<'a>,
    pub(super) narrow: Option<(usize, N)>,
}

/// Whether placing `p` below `parent` leaves the empty cells in two
/// colours the remaining pieces can balance, and every region it touches
/// fillable by them.
#[inline(always)]
pub(super) fn child_ok<B: Bits, G: Grow<B>>(
    t: &BitTables<B>,
    g: &G,
    parent: &Parent<'_, B, G::Narrow>,
    p: usize,
) -> bool {
    let Parent {
        filled,
        key,
        imbalance,
        left,
        ref narrow,
    } = *parent;
    if t.cap == 0 {
        return true;
    }
    let info = &t.info[p];
    let key = (key - info.dk) as usize;
    let empty = t.full & !(filled | info.mask);
    let size = empty.count();
    let placed = Used::one(info.ty as usize);
    // The exact checks below branch on one empty cell; with the tightest-
    // cell choice, on the tightest (fewest candidates), as the search does:
    // on the lowest they tried more placements than the nodes they saved
    // (hexiamonds in the 6 x 6 rhombus: 84.55 M instructions against
    // 77.32 M on the tightest, 84.43 M without the three-piece check).
    let pick = |e: B| match t.choice {
        CellChoice::Tightest => lowest_tightest_in(g, narrow, e),
        CellChoice::First | CellChoice::Fewest => e.lowest(),
    };
    // While cells may still be left open, a small region may be pieces and
    // open cells: the checks that count pieces wait until none is left.
    let opens_left = t.open_types != 0 && left.after(placed) & t.open_types != 0;
    if size < t.endgame && !opens_left {
        return endgame_ok(t, empty, left, placed, pick);
    }
    // (The colour check is never on with the first empty cell.)
    let imbalance = imbalance - info.imbalance as i32;
    if t.balanced && !balance_ok(t.balances[key], imbalance) {
        return false;
    }
    // Three pieces from the end the exact check decides alone: what the
    // floods refuse it refuses too, and they cost more than they saved it
    // (polyhex-hexagon 4.3% fewer instructions without them).
    if size < t.endgame_three && !opens_left {
        return three_ok(t, empty, left, placed, pick);
    }
    let one = One {
        shapes: &t.shapes,
        opens: &t.opens,
        open_cells: if opens_left { t.open_cells } else { B::ZERO },
        left,
        placed,
    };
    match t.choice {
        CellChoice::First => {
            let behind = empty & !info.near;
            behind.is_empty()
                || behind_ok(g, behind, empty & info.near, t.feasible[key], t.cap, one)
        }
        CellChoice::Fewest | CellChoice::Tightest => {
            let seeds = info.near & empty;
            if seeds.is_empty() {
                return true;
            }
            let feasible = t.feasible[key];
            match narrow {
                Some((lo, n)) => {
                    let lo = *lo;
                    let (seeds, empty) = (seeds.word(lo), empty.word(lo));
                    seeds_ok(n, seeds, empty, t.cap, |r| {
                        let r = B::from_word(r, lo);
                        one.fits(feasible, r) && one.ok(r)
                    })
                }
                None => seeds_ok(g, seeds, empty, t.cap, |r| {
                    one.fits(feasible, r) && one.ok(r)
                }),
            }
        }
    }
}

/// Whether `empty`, fewer cells than three of the smallest piece, can be
/// filled by the pieces left once the placements of `used` are made
/// (`left` before them). It holds at most two pieces, so it must be one
/// placement of a type left, or a placement covering the cell `pick`
/// chooses and one of a type left after that: an exact answer in a scan of
/// one list and a probe of the shapes per placement that fits, where the
/// floods see only the sizes of regions that close around the piece
/// (hexiamonds in the 6 x 6 rhombus: 3,860 nodes with two pieces left, of
/// which 224 had a child).
#[inline(always)]
fn endgame_ok<B: Bits>(
    t: &BitTables<B>,
    empty: B,
    left: Left<'_>,
    used: Used,
    pick: impl Fn(B) -> usize,
) -> bool {
    if empty.is_empty() {
        return true;
    }
    let types = left.after(used);
    if t.shapes.filled_by_one(empty, types) {
        return true;
    }
    let filled = t.full & !empty;
    let list = t.lowest_cell_list(pick(empty), filled);
    t.lists.any_fit(list, filled, types, |q, tq| {
        let rest = empty & !t.info[q as usize].mask;
        t.shapes.filled_by_one(rest, left.after(used.and(tq)))
    })
}

/// Whether `empty`, fewer cells than four of the smallest piece, can be
/// filled by the pieces left once the placements of `used` are made: one
/// placement of a type left, or a placement covering the cell `pick`
/// chooses and then at most two pieces ([`endgame_ok`] on the rest). Exact,
/// where the region checks only see sizes and shapes of one piece: on
/// hexiamonds in the 6 x 6 rhombus, of the 7,150 nodes with three pieces
/// left that the region checks let through, 156 have a child. So it runs
/// without them.
#[inline(always)]
fn three_ok<B: Bits>(
    t: &BitTables<B>,
    empty: B,
    left: Left<'_>,
    used: Used,
    pick: impl Fn(B) -> usize + Copy,
) -> bool {
    let types = left.after(used);
    if t.shapes.filled_by_one(empty, types) {
        return true;
    }
    let filled = t.full & !empty;
    let list = t.lowest_cell_list(pick(empty), filled);
    t.lists.any_fit(list, filled, types, |q, tq| {
        endgame_ok(
            t,
            empty & !t.info[q as usize].mask,
            left,
            used.and(tq),
            pick,
        )
    })
}

/// The types of the placements made below a node (at most three), to tell
/// which types are left after them (see [`Left::after`]).
#[derive(Clone, Copy)]
struct Used {
    ty: [u32; 3],
    n: u32,
}

impl Used {
    #[inline(always)]
    fn one(ty: usize) -> Used {
        Used {
            ty: [ty as u32, 0, 0],
            n: 1,
        }
    }

    /// These and one of `ty`.
    #[inline(always)]
    fn and(self, ty: usize) -> Used {
        let mut used = self;
        used.ty[used.n as usize] = ty as u32;
        used.n += 1;
        used
    }
}

/// The types with copies left before a placement: a bit per type, and
/// the copies left of each.
#[derive(Clone, Copy)]
pub(super) struct Left<'a> {
    avail: u64,
    remaining: &'a [u32],
}

impl Left<'_> {
    /// The types left once the placements of `used` are made: a type is
    /// used up when it had no more copies than `used` takes.
    #[inline(always)]
    fn after(&self, used: Used) -> u64 {
        let mut types = self.avail;
        for i in 0..used.n as usize {
            let a = used.ty[i];
            // The copies of `a` up to this one: the last of them counts
            // them all, and a type used up by fewer stays used up.
            let copies = 1 + used.ty[..i].iter().filter(|&&b| b == a).count() as u32;
            types &= !(((self.remaining[a as usize] <= copies) as u64) << a);
        }
        types
    }
}

impl<'a> Left<'a> {
    #[inline(always)]
    pub(super) fn of(avail: &Avail, remaining: &'a [u32]) -> Left<'a> {
        let avail = match avail {
            Avail::One(a) => *a,
            // (More than 64 types have no shape table.)
            Avail::Many(_) => !0,
        };
        Left { avail, remaining }
    }
}

/// What a closed region is checked against: the sizes the pieces left
/// can fill, the cells they may leave open, the placements' shapes (for a
/// region only one piece can fill), and the types left once the placement
/// `placed` is made.
#[derive(Clone, Copy)]
struct One<'a, B> {
    shapes: &'a Shapes<B>,
    opens: &'a [(u32, B)],
    /// The cells that may still be left open.
    open_cells: B,
    left: Left<'a>,
    placed: Used,
}

impl<B: Bits> One<'_, B> {
    /// Whether the pieces left, whose fillable sizes are `feasible`, can
    /// fill `region` once some of its cells are left open: at most as many
    /// as it has cells of each type of open cells, up to that type's
    /// copies left (per region, so sound but not exact).
    #[inline(always)]
    fn fits(&self, feasible: u128, region: B) -> bool {
        let size = region.count();
        fits_size(feasible, size) || !self.opens.is_empty() && self.fits_open(feasible, region)
    }

    #[inline(never)]
    fn fits_open(&self, feasible: u128, region: B) -> bool {
        let size = region.count();
        let mut open = 0;
        for &(t, cells) in self.opens {
            let placed = (self.placed.ty[0] == t) as u32;
            let left = self.left.remaining[t as usize].saturating_sub(placed);
            open += left.min((region & cells).count());
        }
        let open = open.min(size);
        // Some size from `size - open` to `size` is fillable.
        feasible >> (size - open) & ((2u128 << open) - 1) != 0
    }

    /// Whether the closed region `region` can be filled, as far as its
    /// shape tells: fewer cells than two of the smallest piece
    /// must be exactly one placement of a type still left.
    #[inline(always)]
    fn ok(&self, region: B) -> bool {
        if region.count() >= self.shapes.below || !(region & self.open_cells).is_empty() {
            return true;
        }
        self.shapes
            .filled_by_one(region, self.left.after(self.placed))
    }
}

/// Whether the remaining pieces, whose signed colour differences can sum
/// to the values marked in `balances` (bit `64 + v` for the value v), can
/// make `imbalance`; values out of the word's range are kept (sound).
#[inline(always)]
fn balance_ok(balances: u128, imbalance: i32) -> bool {
    let bit = (imbalance + BALANCE_ZERO as i32) as u32;
    // (The half by a shift of 0 or 64, then a 64-bit shift: fewer
    // instructions than a 128-bit shift by any amount.)
    bit >= 128 || ((balances >> (bit & 64)) as u64) >> (bit & 63) & 1 == 1
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
fn behind_ok<B: Bits, G: Grow<B>>(
    g: &G,
    behind: B,
    big: B,
    feasible: u128,
    cap: u32,
    one: One<'_, B>,
) -> bool {
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
    one.fits(feasible, closed) && regions_each_ok(g, closed, feasible, cap, one)
}

/// Whether each region of `closed` (a union of closed regions) is feasible
/// on its own (one that does not close within `cap` steps is kept).
fn regions_each_ok<B: Bits, G: Grow<B>>(
    g: &G,
    closed: B,
    feasible: u128,
    cap: u32,
    one: One<'_, B>,
) -> bool {
    let mut rest = closed;
    while !rest.is_empty() {
        let (done, region) = g.flood(B::bit(rest.lowest()), closed, B::ZERO, cap);
        if region == closed {
            // One region, whose size was checked.
            return one.ok(region);
        }
        if done && (!one.fits(feasible, region) || !one.ok(region)) {
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
fn seeds_ok<W: Bits, G: Grow<W>>(
    g: &G,
    mut seeds: W,
    empty: W,
    cap: u32,
    region_ok: impl Fn(W) -> bool,
) -> bool {
    let mut big = W::ZERO;
    while !seeds.is_empty() {
        let (closed, region) = g.flood(W::bit(seeds.lowest()), empty, big, cap);
        if closed {
            if !region_ok(region) {
                return false;
            }
        } else {
            big |= region;
        }
        seeds &= !region;
    }
    true
}
