//! Breaking the board's symmetry inside the search.
//!
//! Let G be the problem's symmetry group ([`Problem::group`]). Every
//! symmetry maps solutions to solutions, so the solutions fall into orbits
//! (classes), and the *unique* count is the number of orbits. Enumerating
//! every solution and dividing is slow and wrong whenever a solution is
//! symmetric; instead one piece, the *breaker*, is restricted:
//!
//! - The breaker is a type with exactly one copy that every symmetry maps
//!   to itself. Its placements fall into orbits under G; the search allows
//!   only one placement per orbit, the *representative* r.
//! - A solution orbit meets the representatives exactly once: its members
//!   that put the breaker on r are the images of one of them under the
//!   stabiliser H of r. When H is trivial (the usual case: X anywhere on
//!   6 x 10) exactly one member is found, its orbit has |G| members, and it
//!   is reported with `distinct = |G|` and `unique = 1`.
//! - When H is not trivial (the X pentomino on the centre line of 5 x 12,
//!   where a mirror maps it to itself) the found members form one orbit of H,
//!   so each is post-checked against the few symmetries in H only: it is
//!   kept when it is the least of its images, with `distinct = |G| / |Stab|`
//!   where Stab ⊆ H is the set of symmetries that fix it. The bitboard
//!   engine goes further there: a second breaker ([`Second`]) restricts a
//!   second piece to one placement per orbit under H, so most of those
//!   members are not searched at all.
//!
//! When no type can break the symmetry (every type has several copies or is
//! swapped with another by a mirror), every solution is checked against its
//! images under all of G. With symmetry breaking switched off every distinct
//! solution is reported and `unique = 1` marks the least member of each
//! orbit, so the counts are the same either way.
//!
//! Solutions are compared through a label per cell: the piece type and the
//! first cell of the placement covering it. Two solutions are the same
//! exactly when their labels are, including when two copies of one type
//! touch (the first cells tell them apart).

use crate::problem::Problem;
use jigsolve_search::Weight;
use std::cmp::Ordering;

/// How the engines account for the board's symmetry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The problem has no symmetry but the identity.
    None,
    /// One type is restricted to one placement per orbit.
    Breaker {
        /// The restricted type.
        ty: usize,
    },
    /// No type can break the symmetry: every solution is checked against all
    /// of its images.
    PostCheck,
    /// Symmetry breaking switched off: every distinct solution is reported.
    Off,
}

/// A representative placement of the breaker and its stabiliser.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rep {
    /// The placement (an index into [`Problem::placements`]).
    pub placement: usize,
    /// The symmetries other than the identity that fix it (indices into
    /// [`Problem::group`]); empty for most.
    pub stabiliser: Vec<usize>,
}

/// The symmetry plan of a problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// How symmetry is handled.
    pub mode: Mode,
    /// With a breaker: the placements it may take, one per orbit, ascending.
    pub reps: Vec<Rep>,
    /// With a breaker: how many placements it has in all.
    pub breaker_placements: usize,
}

impl Plan {
    /// Chooses how to handle the symmetry of `problem`. Without `symmetry`
    /// (the `--no-symmetry` option) every distinct solution is searched.
    ///
    /// The breaker is the eligible type with the fewest orbits of
    /// placements (so the first level of the search is smallest), then the
    /// fewest orbits with a non-trivial stabiliser (so the fewest solutions
    /// need a post-check), then the earliest. That is the plan of the
    /// dancing-links engine; the bitboard engine starts from it and may
    /// take another of the [`candidates`](Plan::candidates), the one whose
    /// first two levels of its own search promise the smallest tree
    /// ([`Prepared`](crate::Prepared) says which it took).
    pub fn new(problem: &Problem, symmetry: bool) -> Plan {
        let g = problem.group.len();
        let none = |mode| Plan {
            mode,
            reps: Vec::new(),
            breaker_placements: 0,
        };
        if g <= 1 {
            return none(Mode::None);
        }
        if !symmetry {
            return none(Mode::Off);
        }
        Plan::fewest_orbits(problem, Plan::candidates(problem))
    }

    /// The types that can break the symmetry (one copy, mapped to itself by
    /// every symmetry, with placements), each with its orbit
    /// representatives; empty when the problem has no symmetry.
    pub fn candidates(problem: &Problem) -> Vec<(usize, Vec<Rep>)> {
        if problem.group.len() <= 1 {
            return Vec::new();
        }
        breakers(problem).collect()
    }

    /// The plan of [`Plan::new`] (with symmetry on and more than the
    /// identity) among `candidates`: the fewest orbits, then the fewest
    /// representatives a symmetry fixes, then the earliest type.
    pub fn fewest_orbits(problem: &Problem, candidates: Vec<(usize, Vec<Rep>)>) -> Plan {
        let best = candidates
            .into_iter()
            .min_by_key(|(t, reps)| (reps.len(), special(reps), *t));
        match best {
            Some((ty, reps)) => Plan::breaking(problem, ty, reps),
            None => Plan {
                mode: Mode::PostCheck,
                reps: Vec::new(),
                breaker_placements: 0,
            },
        }
    }

    /// The plan that restricts type `ty` to the representatives `reps` (one
    /// of the [`candidates`](Plan::candidates)).
    pub fn with_breaker(problem: &Problem, ty: usize, reps: Vec<Rep>) -> Plan {
        Plan::breaking(problem, ty, reps)
    }

    /// A plan whose breaker alone leaves one solution per orbit, with no
    /// representative placement fixed by a symmetry (so no solution needs a
    /// post-check): what an exact-cover file can express by leaving options
    /// out. The breaker is the eligible type with the fewest orbits among
    /// those; `None` when the board has no symmetry or no type qualifies.
    pub fn exact(problem: &Problem) -> Option<Plan> {
        breakers(problem)
            .filter(|(_, reps)| special(reps) == 0)
            .min_by_key(|(t, reps)| (reps.len(), *t))
            .map(|(ty, reps)| Plan::breaking(problem, ty, reps))
    }

    /// The breaker type, if there is one.
    pub fn breaker(&self) -> Option<usize> {
        match self.mode {
            Mode::Breaker { ty } => Some(ty),
            _ => None,
        }
    }

    /// Representatives with a non-trivial stabiliser (their solutions are post-checked).
    pub fn special_reps(&self) -> usize {
        special(&self.reps)
    }

    fn breaking(problem: &Problem, ty: usize, reps: Vec<Rep>) -> Plan {
        Plan {
            mode: Mode::Breaker { ty },
            reps,
            breaker_placements: problem.by_type[ty].len(),
        }
    }
}

/// The types that can break the symmetry (one copy, mapped to itself by
/// every symmetry, with placements) and their orbit representatives.
fn breakers(problem: &Problem) -> impl Iterator<Item = (usize, Vec<Rep>)> + '_ {
    let all: Vec<usize> = (0..problem.group.len()).collect();
    (0..problem.types.len())
        .filter(move |&t| can_break(problem, t, &all))
        .map(|t| (t, orbit_reps(problem, t)))
        .filter(|(_, reps)| !reps.is_empty())
}

/// Whether type `t` can be restricted to one placement per orbit of the
/// symmetries `syms` (indices into the group): it has exactly one copy and
/// each of them maps it to itself.
fn can_break(problem: &Problem, t: usize, syms: &[usize]) -> bool {
    let ty = &problem.types[t];
    ty.lo == 1
        && ty.hi == 1
        && syms
            .iter()
            .all(|&k| problem.group[k].types[t] as usize == t)
}

/// How many representatives a symmetry other than the identity fixes.
fn special(reps: &[Rep]) -> usize {
    reps.iter().filter(|r| !r.stabiliser.is_empty()).count()
}

/// One placement per orbit of type `t`'s placements (the least index), with
/// its stabiliser.
fn orbit_reps(problem: &Problem, t: usize) -> Vec<Rep> {
    let all: Vec<usize> = (0..problem.group.len()).collect();
    orbit_reps_under(problem, t, &all)
}

/// One placement per orbit of type `t`'s placements under the symmetries
/// `syms` (indices into the group, a subgroup with the identity, 0,
/// first), the least index of each, with the symmetries of `syms` other
/// than the identity that fix it.
fn orbit_reps_under(problem: &Problem, t: usize, syms: &[usize]) -> Vec<Rep> {
    let range = problem.by_type[t].clone();
    // The placements by their (sorted) cells, sorted, for a binary search:
    // cheaper than hashing each image's cells.
    let mut index: Vec<(&[u32], usize)> = range
        .clone()
        .map(|p| (problem.placements[p].cells.as_slice(), p))
        .collect();
    index.sort_unstable();
    let mut seen = vec![false; range.len()];
    let mut reps = Vec::new();
    let mut image = Vec::new();
    for p in range.clone() {
        if seen[p - range.start] {
            continue;
        }
        let mut stabiliser = Vec::new();
        for &k in syms {
            let s = &problem.group[k];
            image.clear();
            image.extend(
                problem.placements[p]
                    .cells
                    .iter()
                    .map(|&c| s.cells[c as usize]),
            );
            image.sort_unstable();
            let Ok(i) = index.binary_search_by(|&(cells, _)| cells.cmp(image.as_slice())) else {
                unreachable!(
                    "a symmetry of the board maps a placement of a type it keeps to another"
                )
            };
            let q = index[i].1;
            seen[q - range.start] = true;
            if q == p && k != 0 {
                stabiliser.push(k);
            }
        }
        reps.push(Rep {
            placement: p,
            stabiliser,
        });
    }
    reps
}

/// A second breaker, for the solutions below a representative `r` of the
/// first one that a symmetry fixes.
///
/// Those solutions come in orbits of the stabiliser H of r (r's
/// `stabiliser` and the identity), which the post-check would otherwise
/// sort out at the leaves, after searching every member. A second type with
/// one copy that every symmetry of H keeps in its type can be restricted
/// the same way: one placement per orbit of its placements under H. An
/// H-orbit of solutions meets those placements exactly once, in the members
/// that put the second type on its representative q; they are the images
/// of one under the symmetries of H that fix q, so a solution found is
/// checked against those only (none, for most q), and the symmetries that
/// fix it are among them (one that fixes a solution fixes r and q).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Second {
    /// The second restricted type.
    pub ty: usize,
    /// Its placements allowed below r, one per orbit under H, ascending,
    /// each with the symmetries of H other than the identity that fix it.
    pub reps: Vec<Rep>,
}

impl Second {
    /// The second breaker for the solutions below `rep` (a representative
    /// of the first breaker `first`): the eligible type whose placements
    /// fall into the fewest orbits under the stabiliser of `rep`, then the
    /// fewest fixed by one of its symmetries, then the earliest. `None` when
    /// no symmetry fixes `rep` or no type qualifies.
    pub fn new(problem: &Problem, first: usize, rep: &Rep) -> Option<Second> {
        if rep.stabiliser.is_empty() {
            return None;
        }
        let h: Vec<usize> = std::iter::once(0)
            .chain(rep.stabiliser.iter().copied())
            .collect();
        (0..problem.types.len())
            .filter(|&t| t != first && can_break(problem, t, &h))
            .map(|t| (t, orbit_reps_under(problem, t, &h)))
            .filter(|(_, reps)| !reps.is_empty())
            .min_by_key(|(t, reps)| (reps.len(), special(reps), *t))
            .map(|(ty, reps)| Second { ty, reps })
    }

    /// The representative the solution `chosen` puts the second type on.
    fn rep_in(&self, problem: &Problem, chosen: &[usize]) -> Option<&Rep> {
        let p = *chosen
            .iter()
            .find(|&&p| problem.placements[p].ty as usize == self.ty)?;
        let i = self.reps.binary_search_by_key(&p, |r| r.placement).ok()?;
        Some(&self.reps[i])
    }
}

/// Compares a solution with its images; keeps its buffers between calls.
#[derive(Clone, Debug, Default)]
pub struct Canon {
    label: Vec<u32>,
    image: Vec<u32>,
    used: Vec<u32>,
}

impl Canon {
    /// A checker for solutions of `problem`.
    pub fn new(problem: &Problem) -> Canon {
        Canon {
            label: vec![0; problem.cells()],
            image: vec![0; problem.cells()],
            used: vec![0; problem.types.len()],
        }
    }

    fn labels(&mut self, problem: &Problem, chosen: &[usize]) {
        let n = problem.cells() as u32;
        for &p in chosen {
            let pl = &problem.placements[p];
            let l = pl.ty as u32 * n + pl.cells[0];
            for &c in &pl.cells {
                self.label[c as usize] = l;
            }
        }
    }

    /// Compares the image of the labelled solution under symmetry `k` with it.
    fn compare(&mut self, problem: &Problem, chosen: &[usize], k: usize) -> Ordering {
        let n = problem.cells() as u32;
        let s = &problem.group[k];
        for &p in chosen {
            let pl = &problem.placements[p];
            let anchor = pl
                .cells
                .iter()
                .map(|&c| s.cells[c as usize])
                .min()
                .unwrap_or(0);
            let l = s.types[pl.ty as usize] as u32 * n + anchor;
            for &c in &pl.cells {
                self.image[s.cells[c as usize] as usize] = l;
            }
        }
        self.image.cmp(&self.label)
    }

    /// Whether the solution made of the placements `chosen` is the least of
    /// its images under the symmetries `syms` (indices into the group), and
    /// how many of them fix it.
    pub fn check(&mut self, problem: &Problem, chosen: &[usize], syms: &[usize]) -> (bool, u128) {
        self.check_each(problem, chosen, syms.iter().copied())
    }

    /// The same for every symmetry but the identity.
    pub fn check_all(&mut self, problem: &Problem, chosen: &[usize]) -> (bool, u128) {
        self.check_each(problem, chosen, 1..problem.group.len())
    }

    fn check_each(
        &mut self,
        problem: &Problem,
        chosen: &[usize],
        syms: impl Iterator<Item = usize>,
    ) -> (bool, u128) {
        self.labels(problem, chosen);
        let mut fixed = 0;
        for k in syms {
            match self.compare(problem, chosen, k) {
                Ordering::Less => return (false, 0),
                Ordering::Equal => fixed += 1,
                Ordering::Greater => {}
            }
        }
        (true, fixed)
    }

    /// What the complete solution `chosen` stands for. `rep` is the
    /// representative the breaker took, when there is a breaker.
    pub fn weight(
        &mut self,
        problem: &Problem,
        plan: &Plan,
        chosen: &[usize],
        rep: Option<&Rep>,
    ) -> Weight {
        self.weight_second(problem, plan, chosen, rep, None)
    }

    /// [`weight`](Canon::weight) for a search that also restricted the
    /// second breaker `second` of `rep` (see [`Second`]).
    pub fn weight_second(
        &mut self,
        problem: &Problem,
        plan: &Plan,
        chosen: &[usize],
        rep: Option<&Rep>,
        second: Option<&Second>,
    ) -> Weight {
        self.used.iter_mut().for_each(|u| *u = 0);
        for &p in chosen {
            self.used[problem.placements[p].ty as usize] += 1;
        }
        let labellings = problem.labellings(self.used.iter().copied());
        let g = problem.group.len() as u128;
        let (distinct, unique) = match plan.mode {
            Mode::None => (1, 1),
            Mode::Breaker { .. } => match (rep, second) {
                (Some(_), Some(sec)) => {
                    let Some(q) = sec.rep_in(problem, chosen) else {
                        // Not a placement the search allows: not counted.
                        return Weight::default();
                    };
                    match self.check(problem, chosen, &q.stabiliser) {
                        (true, fixed) => (g / (fixed + 1), 1),
                        (false, _) => return Weight::default(),
                    }
                }
                (Some(r), None) if !r.stabiliser.is_empty() => {
                    match self.check(problem, chosen, &r.stabiliser) {
                        (true, fixed) => (g / (fixed + 1), 1),
                        (false, _) => return Weight::default(),
                    }
                }
                _ => (g, 1),
            },
            Mode::PostCheck => match self.check_all(problem, chosen) {
                (true, fixed) => (g / (fixed + 1), 1),
                (false, _) => return Weight::default(),
            },
            Mode::Off => (1, self.check_all(problem, chosen).0 as u128),
        };
        Weight {
            raw: distinct.saturating_mul(labellings),
            distinct,
            unique,
        }
    }
}
