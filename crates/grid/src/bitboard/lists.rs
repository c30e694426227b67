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
    /// Per list, once they are all pushed: what a node reads about it,
    /// with the runs of its types when asked for, there are at most 64
    /// types and the list is at most 64 long (see `Head`).
    heads: Vec<Head>,
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

/// What the search reads about one list, side by side: where its
/// candidates are, the lowest cell its narrow masks are relative to, and,
/// when it is indexed by type, its runs. One read of one entry, where
/// separate vectors of starts, bases and runs took three, each with its
/// bounds check.
#[derive(Clone, Copy, Debug, Default)]
struct Head {
    start: u32,
    len: u32,
    base: u32,
    indexed: bool,
    runs: Runs,
}

/// Candidates that follow the last list, so that a list indexed by type
/// (at most 64 long) can be read as 64 candidates from its first, at
/// positions known to be below 64: no bounds check per candidate (1.3% of
/// the instructions of counting the hexiamonds in the 6 x 6 rhombus).
/// They are never read: the positions come from the list's own runs.
pub(super) const SPARE: usize = 64;

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
    /// asks for the runs by type (see `heads`), and `pdep` says whether the
    /// processor has fast PEXT and PDEP (see `of_types`).
    pub(super) fn finish(&mut self, types: usize, index: bool, pdep: bool) {
        self.start.push(self.len() as u32);
        let lists = self.start.len() - 1;
        let span = |i: usize| self.start[i] as usize..self.start[i + 1] as usize;
        let mut runs = vec![None; lists];
        if index && types <= 64 {
            self.all_indexed = self.longest() <= 64;
            self.pdep = pdep;
            for (i, r) in runs.iter_mut().enumerate() {
                if span(i).len() <= 64 {
                    *r = Some(Runs::of(span(i).map(|c| match self.is_narrow() {
                        true => self.narrow[c].ty,
                        false => self.wide[c].ty,
                    })));
                }
            }
        }
        self.heads = (0..lists)
            .map(|i| Head {
                start: self.start[i],
                len: self.start[i + 1] - self.start[i],
                base: self.base.get(i).copied().unwrap_or(0),
                indexed: runs[i].is_some(),
                runs: runs[i].unwrap_or_default(),
            })
            .collect();
        // (Never read: see `SPARE`.)
        match self.is_narrow() {
            true => self.narrow.extend(
                [Cand {
                    mask: 0,
                    ty: 0,
                    placement: u32::MAX,
                }; SPARE],
            ),
            false => self.wide.extend(
                [Cand {
                    mask: B::ZERO,
                    ty: 0,
                    placement: u32::MAX,
                }; SPARE],
            ),
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

    /// The positions in list `i` of the candidates whose type is in
    /// `avail` and which avoid `filled`, a bit each; `None` when not every
    /// list is indexed by type (more than 64 types or a longer list). Only
    /// the candidates of the types left are looked at.
    #[inline(always)]
    pub(super) fn marked(&self, i: usize, filled: B, avail: &Avail) -> Option<u64> {
        let (Avail::One(a), true) = (avail, self.all_indexed) else {
            return None;
        };
        let h = &self.heads[i];
        let of_types = self.of_types(h, *a);
        Some(match self.is_narrow() {
            true => {
                let filled = filled.word(h.base as usize);
                marked_in(first64(&self.narrow, h), of_types, filled)
            }
            false => marked_in(first64(&self.wide, h), of_types, filled),
        })
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
    fn of_types(&self, h: &Head, a: u64) -> u64 {
        let r = h.runs;
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

    /// For list `h` and the types left: the positions of their candidates
    /// when the list is indexed by type.
    #[inline(always)]
    fn typed(&self, h: &Head, avail: &Avail) -> Option<u64> {
        match (avail, h.indexed) {
            (Avail::One(a), true) => Some(self.of_types(h, *a)),
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
        let h = &self.heads[i];
        let typed = self.typed(h, avail);
        match self.is_narrow() {
            true => {
                let filled = filled.word(h.base as usize);
                count_in(&self.narrow, h, typed, filled, avail, bound)
            }
            false => count_in(&self.wide, h, typed, filled, avail, bound),
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
        let h = &self.heads[i];
        let of_types = h.indexed.then(|| self.of_types(h, types));
        match self.is_narrow() {
            true => {
                let filled = filled.word(h.base as usize);
                any_fit_in(&self.narrow, h, of_types, filled, types, f)
            }
            false => any_fit_in(&self.wide, h, of_types, filled, types, f),
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
        let h = &self.heads[i];
        let typed = self.typed(h, avail);
        match self.is_narrow() {
            true => {
                let filled = filled.word(h.base as usize);
                scan_in(&self.narrow, h, typed, filled, avail, out)
            }
            false => scan_in(&self.wide, h, typed, filled, avail, out),
        }
    }
}

/// The candidates of list `h` in `all` (the narrow or the wide ones).
#[inline(always)]
fn whole<'a, M>(all: &'a [Cand<M>], h: &Head) -> &'a [Cand<M>] {
    &all[h.start as usize..(h.start + h.len) as usize]
}

/// The 64 candidates of `all` from list `h`'s first on (the spare ones
/// after the last list make them 64), for a list indexed by type: read at
/// positions below 64 with no bounds check each.
#[inline(always)]
fn first64<'a, M>(all: &'a [Cand<M>], h: &Head) -> &'a [Cand<M>; SPARE] {
    all[h.start as usize..]
        .first_chunk()
        .expect("spare candidates follow the last list")
}

/// [`Lists::marked`] on one list: `of_types` are the positions of the
/// types left.
#[inline(always)]
fn marked_in<M: Bits>(list: &[Cand<M>; SPARE], of_types: u64, filled: M) -> u64 {
    let mut marked = 0;
    let mut rest = of_types;
    while rest != 0 {
        let k = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        marked |= ((list[k % SPARE].mask & filled).is_empty() as u64) << k;
    }
    marked
}

/// [`Lists::count_below`] on list `h` of `all`; `typed`: the positions of
/// the types left when the list is indexed by type.
#[inline(always)]
fn count_in<M: Bits>(
    all: &[Cand<M>],
    h: &Head,
    typed: Option<u64>,
    filled: M,
    avail: &Avail,
    bound: usize,
) -> usize {
    const BLOCK: usize = 8;
    if let Some(mut rest) = typed {
        let list = first64(all, h);
        let mut n = 0;
        while rest != 0 {
            let k = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            n += (list[k % SPARE].mask & filled).is_empty() as usize;
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
    for block in whole(all, h).chunks(BLOCK) {
        n += block.iter().map(fits).sum::<usize>();
        if n >= bound {
            break;
        }
    }
    n
}

/// [`Lists::any_fit`] on list `h` of `all`; `of_types` are the positions
/// of the types of `types` when the list is indexed by type.
#[inline(always)]
fn any_fit_in<M: Bits>(
    all: &[Cand<M>],
    h: &Head,
    of_types: Option<u64>,
    filled: M,
    types: u64,
    mut f: impl FnMut(u32, usize) -> bool,
) -> bool {
    let mut try_one = |e: &Cand<M>| (e.mask & filled).is_empty() && f(e.placement, e.ty as usize);
    match of_types {
        Some(mut rest) => {
            let list = first64(all, h);
            while rest != 0 {
                let k = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                if try_one(&list[k % SPARE]) {
                    return true;
                }
            }
            false
        }
        None => whole(all, h)
            .iter()
            .filter(|e| types >> e.ty & 1 == 1)
            .any(try_one),
    }
}

/// [`Lists::scan`] on list `h` of `all`; `typed` as for [`count_in`].
#[inline(always)]
fn scan_in<M: Bits>(
    all: &[Cand<M>],
    h: &Head,
    typed: Option<u64>,
    filled: M,
    avail: &Avail,
    out: &mut [u32],
) -> usize {
    if let Some(mut rest) = typed {
        let list = first64(all, h);
        let mut kept = 0;
        // Each write is at a position below the candidates read so far, so
        // below 64 for 64 places (which the solver's buffer has).
        if let Some(out) = out.first_chunk_mut::<SPARE>() {
            while rest != 0 {
                let e = &list[rest.trailing_zeros() as usize % SPARE];
                rest &= rest - 1;
                out[kept % SPARE] = e.placement;
                kept += (e.mask & filled).is_empty() as usize;
            }
            return kept;
        }
        while rest != 0 {
            let e = &list[rest.trailing_zeros() as usize % SPARE];
            rest &= rest - 1;
            out[kept] = e.placement;
            kept += (e.mask & filled).is_empty() as usize;
        }
        return kept;
    }
    let mut kept = 0;
    match avail {
        Avail::One(a) => {
            for e in whole(all, h) {
                // Written unconditionally, kept by the count: no branch
                // on the data.
                out[kept] = e.placement;
                kept += ((e.mask & filled).is_empty() as u64 & (a >> e.ty)) as usize;
            }
        }
        Avail::Many(words) => {
            for e in whole(all, h) {
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
