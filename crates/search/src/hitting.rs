//! The smallest hitting set: the fewest elements that meet every set of a
//! family.
//!
//! This is the core of `jigsolve hints`. Fix one solution S of a puzzle;
//! a set of hints (placements of S) leaves S as the only solution exactly
//! when every other solution X misses at least one hint, that is when the
//! hints meet every set "placements of S that X does not have". The fewest
//! hints are the smallest hitting set of those sets, one per other
//! solution. Enumerating every other solution is out of reach for most
//! puzzles, so the caller adds the sets lazily (the *implicit hitting set*
//! method): solve for the sets known so far, ask the solver for a solution
//! the answer does not exclude, add its set, repeat. The smallest hitting
//! set of some of the sets is never larger than that of all of them, so
//! when no other solution remains the answer is proven smallest.
//!
//! The search is branch and bound: take the unmet set with the fewest
//! elements, try each of its elements in turn (the elements tried before
//! are then banned, so no set of elements is reached twice), and cut a
//! branch when the hints chosen plus a lower bound for the rest (sets that
//! share no element, each needing its own) reach the best size known.

/// The answer of [`smallest_hitting_set`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HittingSet {
    /// The elements chosen, sorted.
    pub elements: Vec<usize>,
    /// True when no smaller set meets every set; false when `stop` cut the
    /// search short (the set still meets every set).
    pub proven: bool,
}

/// The smallest set of elements (numbered `0..universe`) that meets every
/// set in `sets`. `stop` is polled now and then; once it says true the
/// best set found so far is returned, unproven. A set with no element can
/// never be met: it is ignored (the caller's "other solution" equals S
/// then, which it should not add).
pub fn smallest_hitting_set(
    sets: &[Vec<usize>],
    universe: usize,
    stop: &dyn Fn() -> bool,
) -> HittingSet {
    let sets: Vec<Vec<usize>> = sets
        .iter()
        .filter(|s| !s.is_empty())
        .map(|s| {
            let mut s: Vec<usize> = s.iter().copied().filter(|&e| e < universe).collect();
            s.sort_unstable();
            s.dedup();
            s
        })
        .filter(|s| !s.is_empty())
        .collect();
    let mut search = Search {
        sets: &sets,
        chosen: vec![false; universe],
        banned: vec![false; universe],
        path: Vec::new(),
        best: greedy(&sets, universe),
        stop,
        polls: 0,
        stopped: false,
    };
    search.branch();
    let mut elements = search.best;
    elements.sort_unstable();
    HittingSet {
        elements,
        proven: !search.stopped,
    }
}

/// A first answer to beat: repeatedly the element that meets the most
/// unmet sets.
fn greedy(sets: &[Vec<usize>], universe: usize) -> Vec<usize> {
    let mut met = vec![false; sets.len()];
    let mut picked = Vec::new();
    loop {
        let mut tally = vec![0usize; universe];
        for (s, set) in sets.iter().enumerate() {
            if !met[s] {
                for &e in set {
                    tally[e] += 1;
                }
            }
        }
        let Some((e, &n)) = tally
            .iter()
            .enumerate()
            .max_by_key(|&(e, n)| (*n, usize::MAX - e))
        else {
            return picked;
        };
        if n == 0 {
            return picked;
        }
        picked.push(e);
        for (s, set) in sets.iter().enumerate() {
            if set.contains(&e) {
                met[s] = true;
            }
        }
    }
}

struct Search<'a> {
    sets: &'a [Vec<usize>],
    chosen: Vec<bool>,
    banned: Vec<bool>,
    path: Vec<usize>,
    best: Vec<usize>,
    stop: &'a dyn Fn() -> bool,
    polls: u32,
    stopped: bool,
}

impl Search<'_> {
    fn met(&self, set: &[usize]) -> bool {
        set.iter().any(|&e| self.chosen[e])
    }

    /// Unmet sets that share no element, picked smallest first: each needs
    /// an element of its own.
    fn lower_bound(&self, unmet: &[usize]) -> usize {
        let mut order: Vec<usize> = unmet.to_vec();
        order.sort_by_key(|&s| self.sets[s].len());
        let mut used = vec![false; self.chosen.len()];
        let mut bound = 0;
        for s in order {
            let set = &self.sets[s];
            if set.iter().all(|&e| !used[e]) {
                bound += 1;
                for &e in set {
                    used[e] = true;
                }
            }
        }
        bound
    }

    fn branch(&mut self) {
        self.polls += 1;
        if self.polls % 256 == 1 && (self.stop)() {
            self.stopped = true;
        }
        if self.stopped {
            return;
        }
        let unmet: Vec<usize> = (0..self.sets.len())
            .filter(|&s| !self.met(&self.sets[s]))
            .collect();
        if unmet.is_empty() {
            if self.path.len() < self.best.len() {
                self.best = self.path.clone();
            }
            return;
        }
        if self.path.len() + self.lower_bound(&unmet) >= self.best.len() {
            return;
        }
        // The unmet set with the fewest elements still allowed.
        let allowed = |s: usize| self.sets[s].iter().filter(|&&e| !self.banned[e]).count();
        let Some(&pick) = unmet.iter().min_by_key(|&&s| allowed(s)) else {
            return;
        };
        let options: Vec<usize> = self.sets[pick]
            .iter()
            .copied()
            .filter(|&e| !self.banned[e])
            .collect();
        let mut banned_here = Vec::new();
        for e in options {
            self.chosen[e] = true;
            self.path.push(e);
            self.branch();
            self.path.pop();
            self.chosen[e] = false;
            // Every set holding e was tried with e; the rest do without it.
            self.banned[e] = true;
            banned_here.push(e);
        }
        for e in banned_here {
            self.banned[e] = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The oracle: every subset of the universe, smallest first.
    fn brute_force(sets: &[Vec<usize>], universe: usize) -> usize {
        let meets = |mask: u32| {
            sets.iter()
                .filter(|s| !s.is_empty())
                .all(|s| s.iter().any(|&e| mask >> e & 1 == 1))
        };
        (0u32..1 << universe)
            .filter(|&m| meets(m))
            .map(|m| m.count_ones() as usize)
            .min()
            .unwrap_or(0)
    }

    proptest! {
        #[test]
        fn smallest_equals_brute_force(
            universe in 1usize..11,
            raw in prop::collection::vec(prop::collection::vec(0usize..11, 0..5), 0..14),
        ) {
            let sets: Vec<Vec<usize>> = raw
                .into_iter()
                .map(|s| s.into_iter().filter(|&e| e < universe).collect())
                .collect();
            let found = smallest_hitting_set(&sets, universe, &|| false);
            prop_assert!(found.proven);
            for s in sets.iter().filter(|s| !s.is_empty()) {
                prop_assert!(s.iter().any(|e| found.elements.contains(e)), "{s:?} unmet by {:?}", found.elements);
            }
            prop_assert_eq!(found.elements.len(), brute_force(&sets, universe));
        }
    }

    #[test]
    fn a_stopped_search_still_meets_every_set_but_is_not_proven() {
        let sets: Vec<Vec<usize>> = (0..40)
            .map(|i| vec![i % 30, (i * 7 + 3) % 30, (i * 11 + 5) % 30])
            .collect();
        let found = smallest_hitting_set(&sets, 30, &|| true);
        assert!(!found.proven);
        assert!(sets
            .iter()
            .all(|s| s.iter().any(|e| found.elements.contains(e))));
    }

    #[test]
    fn no_sets_need_no_elements() {
        let found = smallest_hitting_set(&[], 5, &|| false);
        assert_eq!(
            found,
            HittingSet {
                elements: vec![],
                proven: true
            }
        );
    }
}
