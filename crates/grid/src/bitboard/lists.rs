//! Candidate lists: the placements a node may try, laid out for the scan.
//!
//! A node's children are read from a precomputed list rather than
//! generated, so the cost of a node is a walk over a short slice of
//! (mask, type, index) triples kept side by side. Which copies are left is
//! a bit per type, so a candidate is kept by a branch-free test (fits the
//! board, type left) and the lists never change during the search. A list
//! of at most 64 placements, kept in type order, also knows where each
//! type's run of candidates lies in it, so deep in the tree, where most
//! types are used up, only the placements of the types left are looked at.

use super::tables::Info;
use super::{pdep, pext};
use crate::bits::Bits;

/// A placement in a candidate list: its cells (as a set of type `M`), type
/// and index.
#[derive(Clone, Copy, Debug)]
pub(super) struct Cand<M> {
    mask: M,
    ty: u32,
    placement: u32,
}

/// Candidate lists: list `i` holds candidates `start[i]..start[i + 1]`.
///
/// On a board wider than 64 cells the cells of a list's placements (all of
/// which cover one cell) usually lie within 64 consecutive bits; then every
/// mask is kept as a 64-bit word relative to its list's lowest cell
/// (`narrow`, `base`), and a node shifts its full cells once per list read.
/// That halves the lists' memory (16 bytes a candidate instead of 32 for
/// 128-bit masks) and makes each fit test one 64-bit `and`.
#[derive(Clone, Debug, Default)]
pub(super) struct Lists<B> {
    pub(super) start: Vec<u32>,
    /// The candidates with whole masks, when not `narrow`.
    wide: Vec<Cand<B>>,
    /// The candidates with masks relative to `base` of their list, when
    /// every list fits in 64 bits of a wider board; else empty.
    narrow: Vec<Cand<u64>>,
    /// Per list, the lowest cell of its placements (with `narrow`).
    base: Vec<u32>,
    /// On a board wider than 64 cells, whether some list spans 64 bits or
    /// more, so that every list keeps whole masks (`wide`).
    whole: bool,
    /// The placements of the list being pushed (with `narrow`).
    scratch: Vec<u32>,
    /// When asked for and there are at most 64 types: per list, the runs
    /// of its types, for the lists at most 64 long (none for the others);
    /// else empty.
    runs: Vec<Runs>,
    /// Whether every list is indexed by type.
    all_indexed: bool,
    /// Whether the positions of the types left are found with PEXT and
    /// PDEP (see `of_types`): only on processors where they are fast.
    pdep: bool,
}

/// Where each type's candidates lie in a list kept in type order: the
/// list's types (`present`, a bit per type) and a bit at the first and at
/// the last position of each type's run (`starts`, `lasts`), the runs in
/// type order, so that the `k`th type of `present` has the `k`th run.
#[derive(Clone, Copy, Debug, Default)]
struct Runs {
    present: u64,
    starts: u64,
    lasts: u64,
}

impl Runs {
    /// The runs of the types of a list of at most 64 candidates, given in
    /// list order (each type's candidates together).
    fn of(types: impl Iterator<Item = u32>) -> Runs {
        let mut runs = Runs::default();
        let mut previous = None;
        let mut len = 0;
        for (k, ty) in types.enumerate() {
            if previous != Some(ty) {
                runs.present |= 1 << ty;
                runs.starts |= 1 << k;
                if k > 0 {
                    runs.lasts |= 1 << (k - 1);
                }
                previous = Some(ty);
            }
            len = k + 1;
        }
        if len > 0 {
            runs.lasts |= 1 << (len - 1);
        }
        runs
    }
}

impl<B: Bits> Lists<B> {
    /// Makes room for `n` candidates in the lists still to be pushed, so
    /// that pushing them moves nothing: an upper bound costs no more than
    /// the exact number, since the pages never written are never touched
    /// (each growth by doubling copied into fresh pages; with the buffers
    /// of `ByBit` in the tables, sizing first took hexiamonds in the 6 x 6
    /// rhombus from 635 page faults a run to 594).
    /// A bound too large to reserve only leaves the lists to grow as they
    /// are pushed.
    pub(super) fn reserve(&mut self, n: usize) {
        let _ = match self.is_narrow() {
            true => self.narrow.try_reserve(n),
            false => self.wide.try_reserve(n),
        };
    }

    /// Appends a list of `placements` (whose cells and types are in
    /// `info`). The candidates are written where they stay: keeping the
    /// placements of every list and laying the candidates out at the end
    /// took 4 bytes a candidate more, 54 page faults a run on hexiamonds in
    /// the 6 x 6 rhombus.
    pub(super) fn push(&mut self, info: &[Info<B>], placements: impl Iterator<Item = usize>) {
        let cand = |p: u32| Cand {
            mask: info[p as usize].mask,
            ty: info[p as usize].ty as u32,
            placement: p,
        };
        let first = self.len();
        self.start.push(first as u32);
        // Each type's candidates together, in type order (see `Runs`). The
        // placements come type by type, so this keeps their order; the
        // sort (stable) only makes sure of it, and runs only when they do
        // not: a stable sort takes a buffer even for a sorted list (0.7% of
        // the instructions of counting the hexiamonds in the 6 x 6 rhombus).
        if !self.is_narrow() {
            self.wide.extend(placements.map(|p| cand(p as u32)));
            let list = &mut self.wide[first..];
            if !list.is_sorted_by_key(|c| c.ty) {
                list.sort_by_key(|c| c.ty);
            }
            return;
        }
        self.scratch.clear();
        self.scratch.extend(placements.map(|p| p as u32));
        if !self.scratch.is_sorted_by_key(|&p| info[p as usize].ty) {
            self.scratch.sort_by_key(|&p| info[p as usize].ty);
        }
        let cells = self
            .scratch
            .iter()
            .fold(B::ZERO, |u, &p| u | info[p as usize].mask);
        let lo = match cells.is_empty() {
            true => Some(0),
            false => {
                let lo = cells.lowest();
                (cells.highest() - lo < 64).then_some(lo)
            }
        };
        match lo {
            Some(lo) => {
                self.base.push(lo as u32);
                self.narrow.extend(self.scratch.iter().map(|&p| Cand {
                    mask: info[p as usize].mask.word(lo),
                    ty: info[p as usize].ty as u32,
                    placement: p,
                }));
            }
            None => {
                // A list spans 64 bits or more: every list keeps whole masks.
                self.whole = true;
                let narrow = std::mem::take(&mut self.narrow);
                self.wide = narrow.iter().map(|c| cand(c.placement)).collect();
                self.wide.extend(self.scratch.iter().map(|&p| cand(p)));
                self.base = Vec::new();
            }
        }
    }

    /// How many candidates the lists pushed hold.
    fn len(&self) -> usize {
        match self.is_narrow() {
            true => self.narrow.len(),
            false => self.wide.len(),
        }
    }

    /// Closes the last list; `types` is the number of piece types, `index`
    /// asks for the runs by type (see `runs`), and `pdep` says whether the
    /// processor has fast PEXT and PDEP (see `of_types`).
    pub(super) fn finish(&mut self, types: usize, index: bool, pdep: bool) {
        self.start.push(self.len() as u32);
        if index && types <= 64 {
            self.all_indexed = self.longest() <= 64;
            self.pdep = pdep;
            self.runs = (0..self.start.len() - 1)
                .map(|i| match self.range(i) {
                    r if r.len() > 64 => Runs::default(),
                    r => Runs::of(r.map(|c| match self.is_narrow() {
                        true => self.narrow[c].ty,
                        false => self.wide[c].ty,
                    })),
                })
                .collect();
        }
    }

    /// Whether the candidates are kept in `narrow`; always false on boards
    /// of at most 64 cells, known when compiling.
    #[inline(always)]
    fn is_narrow(&self) -> bool {
        B::CAPACITY > 64 && !self.whole
    }

    /// Candidate `k` of all the lists (`start[i] + j` is the `j`th of list
    /// `i`): its placement.
    #[inline(always)]
    pub(super) fn placement(&self, k: usize) -> u32 {
        match self.is_narrow() {
            true => self.narrow[k].placement,
            false => self.wide[k].placement,
        }
    }

    /// The candidates of list `i`.
    #[inline(always)]
    fn range(&self, i: usize) -> std::ops::Range<usize> {
        self.start[i] as usize..self.start[i + 1] as usize
    }

    /// The positions in list `i` of the candidates whose type is in
    /// `avail` and which avoid `filled`, a bit each; `None` when not every
    /// list is indexed by type (more than 64 types or a longer list). Only
    /// the candidates of the types left are looked at.
    #[inline(always)]
    pub(super) fn marked(&self, i: usize, filled: B, avail: &Avail) -> Option<u64> {
        let (Avail::One(a), true) = (avail, self.all_indexed) else {
            return None;
        };
        let of_types = self.of_types(i, *a);
        Some(match self.is_narrow() {
            true => {
                let filled = filled.word(self.base[i] as usize);
                marked_in(&self.narrow[self.range(i)], of_types, filled)
            }
            false => marked_in(&self.wide[self.range(i)], of_types, filled),
        })
    }

    /// Whether list `i` is indexed by type.
    #[inline(always)]
    fn indexed(&self, i: usize) -> bool {
        !self.runs.is_empty() && self.start[i + 1] - self.start[i] <= 64
    }

    /// The positions in list `i` of the candidates of the types in `a`.
    ///
    /// A run from position `s` to `l` is the word `2^(l+1) - 2^s`, and the
    /// runs are disjoint and in order, so the runs of the types left add
    /// up to the sum of their `2^(l+1)` less the sum of their `2^s`
    /// (modulo 2^64: a run ending at bit 63 reads `2^64` as 0). PEXT picks
    /// the types left among the list's, PDEP puts them on the runs' ends:
    /// three instructions where the loop below reads every type left. (A
    /// loop over the types left that read a word per type took 4.6% of the
    /// search's instructions on hexiamonds in the 6 x 6 rhombus; with this
    /// and the cover lists' keys taken with PEXT the search took 7.9%
    /// fewer.)
    #[inline(always)]
    fn of_types(&self, i: usize, a: u64) -> u64 {
        let r = self.runs[i];
        if self.pdep {
            // SAFETY: `pdep` is set only when the processor has BMI2.
            unsafe {
                let left = pext(a, r.present);
                return (pdep(left, r.lasts) << 1).wrapping_sub(pdep(left, r.starts));
            }
        }
        let (mut types, mut starts, mut lasts) = (r.present, r.starts, r.lasts);
        let mut of_types = 0;
        while types != 0 {
            let run =
                ((lasts & lasts.wrapping_neg()) << 1).wrapping_sub(starts & starts.wrapping_neg());
            of_types |= run & 0u64.wrapping_sub(a >> types.trailing_zeros() & 1);
            types &= types - 1;
            starts &= starts - 1;
            lasts &= lasts - 1;
        }
        of_types
    }

    /// For list `i` and the types left: the positions of their candidates
    /// when the list is indexed by type.
    #[inline(always)]
    fn typed(&self, i: usize, avail: &Avail) -> Option<u64> {
        match (avail, self.indexed(i)) {
            (Avail::One(a), true) => Some(self.of_types(i, *a)),
            _ => None,
        }
    }

    /// How many lists have been pushed so far (the index the next one gets;
    /// only meaningful before `finish`).
    pub(super) fn pushed(&self) -> usize {
        self.start.len()
    }

    /// The longest list.
    pub(super) fn longest(&self) -> usize {
        self.start
            .windows(2)
            .map(|w| (w[1] - w[0]) as usize)
            .max()
            .unwrap_or(0)
    }

    /// How many candidates of list `i` avoid `filled` and have a type with
    /// copies left, or some number at least `bound` when there are that
    /// many: the count stops early, for a list indexed by type at the
    /// candidate that reaches `bound`, for a longer one a block of
    /// candidates at a time (a test per block keeps the counting inside a
    /// block free of branches).
    #[inline(always)]
    pub(super) fn count_below(&self, i: usize, filled: B, avail: &Avail, bound: usize) -> usize {
        let typed = self.typed(i, avail);
        match self.is_narrow() {
            true => {
                let filled = filled.word(self.base[i] as usize);
                count_in(&self.narrow[self.range(i)], typed, filled, avail, bound)
            }
            false => count_in(&self.wide[self.range(i)], typed, filled, avail, bound),
        }
    }

    /// Whether `f` holds for some candidate of list `i` that avoids
    /// `filled` and whose type is in `types` (a bit per type, at most 64
    /// types); `f` is given its placement and type, in list order, until
    /// it holds.
    #[inline(always)]
    pub(super) fn any_fit(
        &self,
        i: usize,
        filled: B,
        types: u64,
        f: impl FnMut(u32, usize) -> bool,
    ) -> bool {
        let of_types = self.indexed(i).then(|| self.of_types(i, types));
        match self.is_narrow() {
            true => {
                let filled = filled.word(self.base[i] as usize);
                any_fit_in(&self.narrow[self.range(i)], of_types, filled, types, f)
            }
            false => any_fit_in(&self.wide[self.range(i)], of_types, filled, types, f),
        }
    }

    /// Writes the candidates of list `i` that avoid `filled` and whose type
    /// has copies left (`avail`) to `out`, and returns how many there are.
    ///
    /// A list indexed by type is read only at the places of the types
    /// left; a longer one is read whole, including the placements of types
    /// used up: a test per placement costs less than branching per type,
    /// whose mispredictions cost more than the placements skipped (measured
    /// on Atwood's checkerboard: 6.2 ms against 5.1 ms with runs per type).
    #[inline(always)]
    pub(super) fn scan(&self, i: usize, filled: B, avail: &Avail, out: &mut [u32]) -> usize {
        let typed = self.typed(i, avail);
        match self.is_narrow() {
            true => {
                let filled = filled.word(self.base[i] as usize);
                scan_in(&self.narrow[self.range(i)], typed, filled, avail, out)
            }
            false => scan_in(&self.wide[self.range(i)], typed, filled, avail, out),
        }
    }
}

/// [`Lists::marked`] on one list: `of_types` are the positions of the
/// types left.
#[inline(always)]
fn marked_in<M: Bits>(list: &[Cand<M>], of_types: u64, filled: M) -> u64 {
    let mut marked = 0;
    let mut rest = of_types;
    while rest != 0 {
        let k = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        marked |= ((list[k].mask & filled).is_empty() as u64) << k;
    }
    marked
}

/// [`Lists::count_below`] on one list; `typed`: the positions of the types
/// left when the list is indexed by type.
#[inline(always)]
fn count_in<M: Bits>(
    list: &[Cand<M>],
    typed: Option<u64>,
    filled: M,
    avail: &Avail,
    bound: usize,
) -> usize {
    const BLOCK: usize = 8;
    if let Some(mut rest) = typed {
        let mut n = 0;
        while rest != 0 {
            let k = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            n += (list[k].mask & filled).is_empty() as usize;
            if n >= bound {
                break;
            }
        }
        return n;
    }
    let fits = |e: &Cand<M>| -> usize {
        let left = match avail {
            Avail::One(a) => a >> e.ty,
            Avail::Many(words) => words[e.ty as usize / 64] >> (e.ty % 64),
        };
        ((e.mask & filled).is_empty() as u64 & left) as usize
    };
    let mut n = 0;
    for block in list.chunks(BLOCK) {
        n += block.iter().map(fits).sum::<usize>();
        if n >= bound {
            break;
        }
    }
    n
}

/// [`Lists::any_fit`] on one list; `of_types` are the positions of the
/// types of `types` when the list is indexed by type.
#[inline(always)]
fn any_fit_in<M: Bits>(
    list: &[Cand<M>],
    of_types: Option<u64>,
    filled: M,
    types: u64,
    mut f: impl FnMut(u32, usize) -> bool,
) -> bool {
    let mut try_one = |e: &Cand<M>| (e.mask & filled).is_empty() && f(e.placement, e.ty as usize);
    match of_types {
        Some(mut rest) => {
            while rest != 0 {
                let k = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                if try_one(&list[k]) {
                    return true;
                }
            }
            false
        }
        None => list.iter().filter(|e| types >> e.ty & 1 == 1).any(try_one),
    }
}

/// [`Lists::scan`] on one list; `typed` as for [`count_in`].
#[inline(always)]
fn scan_in<M: Bits>(
    list: &[Cand<M>],
    typed: Option<u64>,
    filled: M,
    avail: &Avail,
    out: &mut [u32],
) -> usize {
    if let Some(mut rest) = typed {
        let mut kept = 0;
        while rest != 0 {
            let e = &list[rest.trailing_zeros() as usize];
            rest &= rest - 1;
            out[kept] = e.placement;
            kept += (e.mask & filled).is_empty() as usize;
        }
        return kept;
    }
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

/// The types with copies left, a bit per type.
#[derive(Clone, Debug)]
pub(super) enum Avail {
    /// At most 64 types.
    One(u64),
    /// More.
    Many(Vec<u64>),
}

impl Avail {
    pub(super) fn new(types: usize) -> Avail {
        if types <= 64 {
            Avail::One(0)
        } else {
            Avail::Many(vec![0; types.div_ceil(64)])
        }
    }

    #[inline(always)]
    pub(super) fn set(&mut self, ty: usize, on: bool) {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn info(mask: u128, ty: u16) -> Info<u128> {
        Info {
            mask,
            near: 0,
            ty,
            imbalance: 0,
            dk: 0,
        }
    }

    /// The candidates of list `i` that fit `filled` and have a type in
    /// `avail`, found the slow way from the placements: in type order, and
    /// in the order pushed within a type.
    fn kept(
        lists: &[Vec<usize>],
        info: &[Info<u128>],
        i: usize,
        filled: u128,
        avail: u64,
    ) -> Vec<u32> {
        let mut kept: Vec<usize> = lists[i]
            .iter()
            .copied()
            .filter(|&p| info[p].mask & filled == 0 && avail >> info[p].ty & 1 == 1)
            .collect();
        kept.sort_by_key(|&p| info[p].ty);
        kept.into_iter().map(|p| p as u32).collect()
    }

    /// Lists on a 128-bit board read the same whether their masks are kept
    /// whole or relative to each list's lowest cell: the relative layout is
    /// taken exactly when every list spans less than 64 bits.
    #[test]
    fn lists_relative_to_their_lowest_cell_read_as_whole_masks() {
        // Placements of three types strewn over 128 cells: bars of 3 cells
        // three cells apart, wrapping round.
        let info: Vec<Info<u128>> = (0..40)
            .map(|k| info(0b111 << (3 * k % 125), (k % 3) as u16))
            .collect();
        // Lists of placements close together, then one spanning 120 bits.
        let near: Vec<Vec<usize>> = (0..8).map(|i| (i * 4..i * 4 + 6).collect()).collect();
        let mut far = near.clone();
        far.push(vec![0, 39]);
        for (lists, narrow) in [(&near, true), (&far, false)] {
            let pdeps = [false, jigsolve_search::cpu::has_fast_pdep()];
            for (index, pdep) in [(false, false), (true, pdeps[0]), (true, pdeps[1])] {
                let mut built = Lists::default();
                for l in lists {
                    built.push(&info, l.iter().copied());
                }
                built.finish(3, index, pdep);
                assert_eq!(built.is_narrow(), narrow);
                for seed in 0..200u128 {
                    let random = |k: u128| {
                        seed.wrapping_add(k)
                            .wrapping_mul(0x9E37_79B9_7F4A_7C15_F39C_C060_5CED_C835)
                            .rotate_left(61)
                    };
                    // About a quarter of the cells full.
                    let filled = random(1) & random(2);
                    let avail = Avail::One(1 + (seed as u64 % 7));
                    let Avail::One(a) = avail else { unreachable!() };
                    for i in 0..lists.len() {
                        let want = kept(lists, &info, i, filled, a);
                        let mut out = vec![0; 64];
                        let n = built.scan(i, filled, &avail, &mut out);
                        assert_eq!(&out[..n], &want[..]);
                        assert_eq!(built.count_below(i, filled, &avail, usize::MAX), want.len());
                        let first = built.start[i] as usize;
                        if let Some(mut marked) = built.marked(i, filled, &avail) {
                            let mut got = Vec::new();
                            while marked != 0 {
                                got.push(built.placement(first + marked.trailing_zeros() as usize));
                                marked &= marked - 1;
                            }
                            assert_eq!(got, want);
                        }
                        // `any_fit` is shown the same candidates, in order.
                        let mut shown = Vec::new();
                        let found = built.any_fit(i, filled, a, |q, ty| {
                            assert_eq!(ty, info[q as usize].ty as usize);
                            shown.push(q);
                            false
                        });
                        assert!(!found);
                        assert_eq!(shown, want);
                    }
                }
            }
        }
    }
}
