//! Candidate lists: the placements a node may try, laid out for the scan.
//!
//! A node's children are read from a precomputed list rather than
//! generated, so the cost of a node is a walk over a short slice of
//! (mask, type, index) triples kept side by side. Which copies are left is
//! a bit per type, so a candidate is kept by a branch-free test (fits the
//! board, type left) and the lists never change during the search. A list
//! of at most 64 placements also keeps a word per type marking that type's
//! places in it, so deep in the tree, where most types are used up, only
//! the placements of the types left are looked at.

use super::tables::Info;
use crate::bits::Bits;

/// A placement in a candidate list: its cells, type and index.
#[derive(Clone, Copy, Debug)]
pub(super) struct Cand<B> {
    mask: B,
    ty: u32,
    pub(super) placement: u32,
}

/// Candidate lists: list `i` is `cands[start[i]..start[i + 1]]`.
#[derive(Clone, Debug, Default)]
pub(super) struct Lists<B> {
    pub(super) start: Vec<u32>,
    pub(super) cands: Vec<Cand<B>>,
    /// When asked for and there are at most 64 types: per list and type,
    /// the positions of that type's candidates in the list, a bit each
    /// (`by_type[list * types + ty]`), for the lists at most 64 long (0 for
    /// the others); else empty.
    by_type: Vec<u64>,
    types: usize,
    /// Whether every list is indexed by type.
    all_indexed: bool,
}

impl<B: Bits> Lists<B> {
    /// Appends a list.
    pub(super) fn push(&mut self, placements: impl Iterator<Item = usize>, info: &[Info<B>]) {
        self.start.push(self.cands.len() as u32);
        self.cands.extend(placements.map(|p| Cand {
            mask: info[p].mask,
            ty: info[p].ty as u32,
            placement: p as u32,
        }));
    }

    /// Closes the last list; `types` is the number of piece types, and
    /// `index` asks for the positions by type (see `by_type`).
    pub(super) fn finish(&mut self, types: usize, index: bool) {
        self.start.push(self.cands.len() as u32);
        if index && types <= 64 {
            self.types = types;
            self.all_indexed = self.longest() <= 64;
            self.by_type = vec![0; (self.start.len() - 1) * types];
            for (i, w) in self.start.windows(2).enumerate() {
                if w[1] - w[0] > 64 {
                    continue;
                }
                for (k, e) in self.cands[w[0] as usize..w[1] as usize].iter().enumerate() {
                    self.by_type[i * types + e.ty as usize] |= 1 << k;
                }
            }
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
        let list = &self.cands[self.start[i] as usize..];
        let mut marked = 0;
        let mut rest = self.of_types(i, *a);
        while rest != 0 {
            let k = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            marked |= ((list[k].mask & filled).is_empty() as u64) << k;
        }
        Some(marked)
    }

    /// Whether list `i` is indexed by type.
    #[inline(always)]
    fn indexed(&self, i: usize) -> bool {
        !self.by_type.is_empty() && self.start[i + 1] - self.start[i] <= 64
    }

    /// The positions in list `i` of the candidates of the types in `a`.
    #[inline(always)]
    fn of_types(&self, i: usize, a: u64) -> u64 {
        let by_type = &self.by_type[i * self.types..(i + 1) * self.types];
        let mut left = a;
        let mut of_types = 0;
        while left != 0 {
            of_types |= by_type[left.trailing_zeros() as usize];
            left &= left - 1;
        }
        of_types
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
        const BLOCK: usize = 8;
        let list = &self.cands[self.start[i] as usize..self.start[i + 1] as usize];
        let fits = |e: &Cand<B>| -> usize {
            let left = match avail {
                Avail::One(a) => a >> e.ty,
                Avail::Many(words) => words[e.ty as usize / 64] >> (e.ty % 64),
            };
            ((e.mask & filled).is_empty() as u64 & left) as usize
        };
        if let (Avail::One(a), true) = (avail, self.indexed(i)) {
            let list = &self.cands[self.start[i] as usize..];
            let mut rest = self.of_types(i, *a);
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
        let mut n = 0;
        for block in list.chunks(BLOCK) {
            n += block.iter().map(fits).sum::<usize>();
            if n >= bound {
                break;
            }
        }
        n
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
        let list = &self.cands[self.start[i] as usize..self.start[i + 1] as usize];
        if let (Avail::One(a), true) = (avail, self.indexed(i)) {
            let list = &self.cands[self.start[i] as usize..];
            let mut rest = self.of_types(i, *a);
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
