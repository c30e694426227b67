//! The partial cover, and gathering the children of a node.
//!
//! A node's children are the placements that cover the chosen cell, fit,
//! have copies left and pass the dead-region check. They are gathered into
//! one buffer, a stack of lists, before the first is entered, so the
//! number of children is known (for paths and progress) and the search
//! walks a plain slice. Choosing the cell with the fewest children only
//! counts the competing lists and writes the winner's once.

use super::growth::{lowest_tightest_in, tightest_in, tightest_two_in, window, Grow};
use super::lists::Avail;
use super::pruning::{child_ok, Left, Parent};
use super::tables::BitTables;
use super::CellChoice;
use crate::bits::Bits;
use crate::symmetry::Rep;

/// The partial cover of a search and the lists of children above it.
#[derive(Debug)]
pub(super) struct State<B> {
    pub(super) filled: B,
    /// Copies left of each type.
    pub(super) remaining: Vec<u32>,
    /// The types with copies left.
    pub(super) avail: Avail,
    /// The key of the remaining pieces (see `Keys`).
    pub(super) key: u32,
    /// The empty cells' difference of colours (see `Keys`).
    pub(super) imbalance: i32,
    /// The placement made at each depth.
    pub(super) chosen: Vec<usize>,
    pub(super) depth: usize,
    /// The representative of the breaker placed, when it has a second
    /// breaker (see `SecondCut`).
    pub(super) second: Option<usize>,
    /// The children of every open node, in one buffer (a stack of lists).
    pub(super) cands: Vec<u32>,
    pub(super) top: usize,
}

impl<B: Bits> State<B> {
    /// Places `p` as the next piece.
    #[inline(always)]
    pub(super) fn place(&mut self, t: &BitTables<B>, p: usize) {
        let info = &t.info[p];
        let ty = info.ty as usize;
        self.filled |= info.mask;
        self.remaining[ty] -= 1;
        if self.remaining[ty] == 0 {
            self.avail.set(ty, false);
        }
        self.key -= info.dk;
        self.imbalance -= info.imbalance as i32;
        self.chosen[self.depth] = p;
        self.depth += 1;
    }

    /// Takes back the last piece placed.
    #[inline(always)]
    pub(super) fn unplace(&mut self, t: &BitTables<B>) {
        self.depth -= 1;
        let info = &t.info[self.chosen[self.depth]];
        let ty = info.ty as usize;
        self.filled &= !info.mask;
        self.remaining[ty] += 1;
        self.avail.set(ty, true);
        self.key += info.dk;
        self.imbalance += info.imbalance as i32;
    }

    /// The first two levels of the search below an empty root if a
    /// breaker were restricted to `reps`: how many of them pass the root's
    /// checks, and how many children those have together (second breakers
    /// left out). The children are counted one representative at a time,
    /// and the count stops with `None` once `beaten` says of the two
    /// numbers so far that no larger second number can win. Leaves the
    /// state as it found it.
    pub(super) fn trial<G: Grow<B>>(
        &mut self,
        t: &BitTables<B>,
        g: &G,
        reps: &[Rep],
        beaten: impl Fn(u64, u64) -> bool,
    ) -> Option<(u64, u64)> {
        let parent = Parent {
            filled: self.filled,
            key: self.key,
            imbalance: self.imbalance,
            left: Left::of(&self.avail, &self.remaining),
            narrow: None,
        };
        let passed: Vec<usize> = reps
            .iter()
            .map(|r| r.placement)
            .filter(|&p| (t.info[p].mask & self.filled).is_empty() && child_ok(t, g, &parent, p))
            .collect();
        let first = passed.len() as u64;
        let mut second = 0;
        for p in passed {
            self.place(t, p);
            second += self.gather_all(t, g, None).0 as u64;
            self.unplace(t);
            if beaten(first, second) {
                return None;
            }
        }
        Some((first, second))
    }

    /// Writes the children of the current node at `cands[top..]` and
    /// returns how many there are, and how many placements were tried: the
    /// children and the placements the dead-region check refused (those
    /// that cover the chosen cell, fit and have copies left). Below a
    /// representative with a second breaker, that type's placements other
    /// than its representatives are no children and are not tried: they
    /// are set aside before the dead-region check, so that what it refuses
    /// does not depend on the order of the two.
    #[inline(always)]
    pub(super) fn gather<G: Grow<B>>(&mut self, t: &BitTables<B>, g: &G) -> (usize, usize) {
        let cut = self
            .second
            .filter(|_| self.depth > 0)
            .and_then(|i| t.seconds[i].as_ref());
        self.gather_all(t, g, cut.map(|c| c.allowed.as_slice()))
    }

    /// [`gather`](State::gather) with the placements `allowed` (per
    /// placement; `None`: all).
    #[inline(always)]
    fn gather_all<G: Grow<B>>(
        &mut self,
        t: &BitTables<B>,
        g: &G,
        allowed: Option<&[bool]>,
    ) -> (usize, usize) {
        let filled = self.filled;
        // The floods and the tightest cells of the other choices run on a
        // 64-bit window of a wider board when its empty cells fit in one
        // (`narrow`, set below).
        let mut parent = Parent {
            filled,
            key: self.key,
            imbalance: self.imbalance,
            left: Left::of(&self.avail, &self.remaining),
            narrow: None,
        };
        let buf = &mut self.cands[self.top..];
        if self.depth == 0 && t.plan.breaker().is_some() {
            let (mut n, mut tried) = (0, 0);
            for r in &t.plan.reps {
                let p = r.placement;
                if (t.info[p].mask & filled).is_empty() {
                    tried += 1;
                    if child_ok(t, g, &parent, p) {
                        buf[n] = p as u32;
                        n += 1;
                    }
                }
            }
            return (n, tried);
        }
        let empty = t.full & !filled;
        if empty.is_empty() {
            return (0, 0);
        }
        // First pass: the placements that fit and whose type is left.
        let kept = match t.choice {
            CellChoice::First => {
                let list = t.lowest_cell_list(empty.lowest(), filled);
                // Below a second breaker the placements it bars are set
                // aside first, by the general path.
                let marked = match allowed {
                    None => t.lists.marked(list, filled, &self.avail),
                    Some(_) => None,
                };
                if let Some(mut marked) = marked {
                    // Only the marked candidates get the dead-region check.
                    let tried = marked.count_ones() as usize;
                    let first = t.lists.start[list] as usize;
                    let mut n = 0;
                    while marked != 0 {
                        let p = t.lists.placement(first + marked.trailing_zeros() as usize);
                        marked &= marked - 1;
                        buf[n] = p;
                        n += child_ok(t, g, &parent, p as usize) as usize;
                    }
                    return (n, tried);
                }
                t.lists.scan(list, filled, &self.avail, buf)
            }
            CellChoice::Fewest | CellChoice::Tightest => {
                parent.narrow = window(g, empty);
                let found = match t.choice {
                    // Every child is checked whole: counting the other
                    // cells' candidates to branch on the fewest costs more
                    // than the checks of the children it spares (see
                    // `decided_below`).
                    CellChoice::Tightest if empty.count() < t.decided_below => {
                        let cell = lowest_tightest_in(g, &parent.narrow, empty);
                        let n = t
                            .lists
                            .scan(t.cover_list(cell, filled), filled, &self.avail, buf);
                        (n != 0).then_some(n)
                    }
                    CellChoice::Tightest if t.next_class_from < usize::MAX => {
                        let (among, then) = tightest_two_in(g, &parent.narrow, empty);
                        fewest_of_two(t, filled, &self.avail, among, then, buf)
                    }
                    CellChoice::Tightest => {
                        let among = tightest_in(g, &parent.narrow, empty);
                        fewest(t, filled, &self.avail, among, buf)
                    }
                    _ => fewest(t, filled, &self.avail, empty, buf),
                };
                match found {
                    Some(kept) => kept,
                    None => return (0, 0),
                }
            }
        };
        // The placements a second breaker bars are no children, and not
        // tried: a pass of its own, only below such a representative, so
        // that the other nodes test nothing per placement for it.
        let kept = match allowed {
            None => kept,
            Some(allowed) => {
                let mut k = 0;
                for r in 0..kept {
                    let p = buf[r];
                    buf[k] = p;
                    k += allowed[p as usize] as usize;
                }
                k
            }
        };
        // Second pass: the dead-region check.
        if t.cap == 0 {
            return (kept, kept);
        }
        let mut n = 0;
        for r in 0..kept {
            let p = buf[r];
            buf[n] = p;
            n += child_ok(t, g, &parent, p as usize) as usize;
        }
        (n, kept)
    }
}

impl<B: Bits> State<B> {
    /// The bit of the cell whose covers are the children of this node, as
    /// [`gather`](State::gather) chooses it: not on the search's path (a
    /// trace asks it once per recorded node), so it counts each competing
    /// cell's list whole, with the same tie-break. `None` on a full board.
    pub(super) fn chosen_bit<G: Grow<B>>(&self, t: &BitTables<B>, g: &G) -> Option<usize> {
        let empty = t.full & !self.filled;
        if empty.is_empty() {
            return None;
        }
        let mut among = match t.choice {
            CellChoice::First => return Some(empty.lowest()),
            CellChoice::Tightest if empty.count() < t.decided_below => {
                return Some(g.tightest(empty).lowest());
            }
            CellChoice::Tightest if t.next_class_from < usize::MAX => {
                let (among, then) = g.tightest_two(empty);
                return Some(most_constrained_of_two(t, self.filled, &self.avail, among, then).0);
            }
            CellChoice::Tightest => g.tightest(empty),
            CellChoice::Fewest => empty,
        };
        let mut best: Option<(usize, usize)> = None;
        while !among.is_empty() {
            let c = among.lowest();
            among = among.without_lowest();
            let n = t.lists.count_below(
                t.cover_list(c, self.filled),
                self.filled,
                &self.avail,
                usize::MAX,
            );
            if best.is_none_or(|(_, b)| n < b) {
                best = Some((c, n));
            }
        }
        best.map(|(c, _)| c)
    }
}

/// Empties the board of `s`: every copy left, nothing placed.
pub(super) fn reset<B: Bits>(t: &BitTables<B>, s: &mut State<B>) {
    s.filled = B::ZERO;
    s.remaining.copy_from_slice(&t.hi);
    for (ty, &h) in t.hi.iter().enumerate() {
        s.avail.set(ty, h > 0);
    }
    (s.key, s.imbalance) = (t.key0, t.imbalance0);
    s.depth = 0;
    s.top = 0;
    s.second = None;
}

/// For the cell of `among` with the fewest fitting placements (the first
/// such), writes them to `out` and returns how many; `None` when some cell
/// has none. With several cells, each list is only counted (a loop without
/// stores, which stops once it reaches the best count so far) and the best
/// one written at the end.
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
    let mut best = t.lists.count_below(first, filled, avail, usize::MAX);
    while best != 0 && !rest.is_empty() {
        let c = rest.lowest();
        rest = rest.without_lowest();
        let list = t.cover_list(c, filled);
        // Only a smaller count matters, so counting stops at `best`.
        let n = t.lists.count_below(list, filled, avail, best);
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

/// [`fewest`] over the tightest cells `among` and, when their best has at
/// least `t.next_class_from` placements, the cells of the next class of
/// empty-neighbour counts `then` (see [`most_constrained_of_two`]). A
/// separate path, so that the other choices keep their loop (the shared
/// one cost Atwood's checkerboard 2.6% more instructions).
#[inline(always)]
fn fewest_of_two<B: Bits>(
    t: &BitTables<B>,
    filled: B,
    avail: &Avail,
    among: B,
    then: B,
    out: &mut [u32],
) -> Option<usize> {
    let (_, list, best) = most_constrained_of_two(t, filled, avail, among, then);
    if best == 0 {
        return None;
    }
    let n = t.lists.scan(list, filled, avail, out);
    (n != 0).then_some(n)
}

/// The cell of `among` with the fewest fitting placements (the first such),
/// its list and that number (`usize::MAX` when it is the only cell and was
/// not counted). The cells of `then` are counted too when the best of
/// `among` has at least `t.next_class_from` placements; a cell with one
/// placement or none ends the count (a smaller one cannot be found, or the
/// node is dead).
#[inline(always)]
fn most_constrained_of_two<B: Bits>(
    t: &BitTables<B>,
    filled: B,
    avail: &Avail,
    among: B,
    then: B,
) -> (usize, usize, usize) {
    let cell = among.lowest();
    let first = t.cover_list(cell, filled);
    let mut rest = among.without_lowest();
    if rest.is_empty() && then.is_empty() {
        return (cell, first, usize::MAX);
    }
    let mut best_cell = cell;
    let mut best_list = first;
    let mut best = t.lists.count_below(first, filled, avail, usize::MAX);
    let mut then = then;
    while best > 1 {
        if rest.is_empty() {
            if then.is_empty() || best < t.next_class_from {
                break;
            }
            (rest, then) = (then, B::ZERO);
        }
        let c = rest.lowest();
        rest = rest.without_lowest();
        let list = t.cover_list(c, filled);
        // Only a smaller count matters, so counting stops at `best`.
        let n = t.lists.count_below(list, filled, avail, best);
        if n < best {
            best = n;
            best_cell = c;
            best_list = list;
        }
    }
    (best_cell, best_list, best)
}
