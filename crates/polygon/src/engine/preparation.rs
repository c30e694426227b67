//! What does not change during a search: piece types (identical pieces
//! merged), their orientation classes and corner orbits, the region's
//! symmetry group, the subset-sum and side-length tables.

use super::memo::SharedMemo;
use super::pruning::SideTable;
use super::region::{cw_angle_f, Poly, V};
use super::solver::{Solver, Status};
use super::Options;
use crate::geom::{area2, Pt};
use crate::model::Puzzle;
use crate::num::{Num, Scalar};
use crate::symmetry::{congruence, corner_orbits, directions, mirrored, region_group, Iso};
use std::cmp::Ordering;
use std::sync::atomic::{AtomicBool, Ordering as AtomicOrdering};
use std::sync::Arc;

/// One orientation class of a piece type.
#[derive(Clone, Debug)]
pub(super) struct Form<S> {
    pub(super) mirror: bool,
    /// Corners, counter-clockwise, in the type representative's frame.
    pub(super) q: Vec<Pt<S>>,
    /// Unit direction of side i (corner i to i+1).
    pub(super) e: Vec<Pt<S>>,
    /// Exact side lengths.
    pub(super) len: Vec<S>,
    pub(super) len_f: Vec<f64>,
    /// Interior angle at corner i: (cos, sin) and float.
    pub(super) cos: Vec<S>,
    pub(super) sin: Vec<S>,
    pub(super) ang_f: Vec<f64>,
    /// Corners to try: one per orbit of the piece's own rotations.
    pub(super) reps: Vec<usize>,
}

/// Identical pieces.
#[derive(Clone, Debug)]
pub(super) struct Type<S> {
    /// Pieces of this type, in puzzle order.
    pub(super) members: Vec<usize>,
    /// For each member, the isometry from its own frame to the
    /// representative's frame.
    pub(super) to_rep: Vec<Iso<S>>,
    pub(super) area: S,
    pub(super) area_f: f64,
    pub(super) forms: Vec<Form<S>>,
    pub(super) min_side: S,
    pub(super) min_side_f: f64,
    /// The type a reflection turns this type into.
    pub(super) mirror: Option<usize>,
}

/// Everything about a puzzle that does not change during the search; shared
/// by all threads.
#[derive(Debug)]
pub struct Prepared<S> {
    pub(super) puzzle: Puzzle,
    pub(super) options: Options,
    pub(super) types: Vec<Type<S>>,
    /// Type indices, largest area first (Lynning: big pieces first).
    pub(super) order: Vec<usize>,
    pub(super) counts: Vec<u32>,
    pub(super) region: Vec<Arc<Poly<S>>>,
    /// The group acting on tilings (for unique counts).
    pub(super) group: Vec<Iso<S>>,
    /// Rotations only, reflections included: sizes for the summary.
    pub(super) rotations: usize,
    pub(super) reflections: usize,
    pub(super) mirror_closed: bool,
    pub(super) multiplier: u128,
    /// Subset-sum data: each type's area in units, and units per area.
    pub(super) units: Option<(Num, Vec<u64>)>,
    /// Side-length data (exact puzzles): the radicands of piece side lengths
    /// with, for each, the units per length; and each type's sides as
    /// (radicand index, length in units).
    pub(super) sides: Option<SideTable>,
    pub(super) n_pieces: usize,
    pub(super) overflow: AtomicBool,
    /// The piece type whose placings are kept only in their least pose
    /// under the group (symmetry broken in the search; see `breaker_candidates`).
    pub(super) breaker: Option<usize>,
    /// Each type's place in the order in which the leaf compares tilings
    /// piece by piece: the breaker first, then the others in type order.
    pub(super) rank: Vec<usize>,
    /// The memo of impossible regions, shared by every thread.
    pub(super) memo: SharedMemo,
    /// Regions, where they lie, in which no tiling has the symmetry-breaking
    /// piece in its least pose (keys from `placed_key`), shared likewise.
    pub(super) memo_placed: SharedMemo,
}

/// Why a puzzle cannot be prepared in the requested number system.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PrepareError {
    /// A side whose length is not in any supported exact field.
    #[error("a side of {0} has a length whose square root jigsolve cannot represent exactly")]
    Inexact(String),
}

fn to_s<S: Scalar>(p: &Pt<Num>) -> Pt<S> {
    Pt::new(S::from_num(&p.x), S::from_num(&p.y))
}

/// Exact angle comparison for angles given by (cos, sin) of unit vectors.
pub(super) fn cmp_angle<S: Scalar>(c1: &S, s1: &S, c2: &S, s2: &S) -> Ordering {
    let half = |c: &S, s: &S| -> u8 {
        let ss = s.signum();
        if ss > 0 || (ss == 0 && c.signum() > 0) {
            0
        } else {
            1
        }
    };
    let (h1, h2) = (half(c1, s1), half(c2, s2));
    if h1 != h2 {
        return h1.cmp(&h2);
    }
    let o = c1.cmp_s(c2);
    if h1 == 0 {
        o.reverse()
    } else {
        o
    }
}

impl<S: Scalar> Prepared<S> {
    /// Prepares `puzzle`. Fails when a side length has no exact square root
    /// in the number type (use [`Approx`](crate::num::Approx) then).
    pub fn new(puzzle: &Puzzle, options: Options) -> Result<Prepared<S>, PrepareError> {
        crate::num::take_overflow();
        let pieces: Vec<Vec<Pt<S>>> = puzzle
            .pieces
            .iter()
            .map(|p| p.vertices.iter().map(to_s).collect())
            .collect();
        // Types: congruent under the motions the (equal) flip rules allow.
        let mut types: Vec<Type<S>> = Vec::new();
        let mut reps: Vec<usize> = Vec::new();
        for (i, poly) in pieces.iter().enumerate() {
            let flip = puzzle.pieces[i].flip;
            let found = reps.iter().position(|&r| {
                puzzle.pieces[r].flip == flip && congruence(poly, &pieces[r], flip).is_some()
            });
            match found {
                Some(t) => {
                    let iso = congruence(poly, &pieces[reps[t]], flip).expect("checked above");
                    types[t].members.push(i);
                    types[t].to_rep.push(iso);
                }
                None => {
                    let name = &puzzle.pieces[i].name;
                    let forms = forms_of(poly, flip)
                        .ok_or_else(|| PrepareError::Inexact(format!("piece {name}")))?;
                    let area = area2(poly).half();
                    let min_side = forms[0]
                        .len
                        .iter()
                        .min_by(|a, b| a.cmp_s(b))
                        .cloned()
                        .unwrap_or_else(S::zero);
                    types.push(Type {
                        members: vec![i],
                        to_rep: vec![Iso::identity()],
                        area_f: area.to_f64(),
                        area,
                        min_side_f: min_side.to_f64(),
                        min_side,
                        forms,
                        mirror: None,
                    });
                    reps.push(i);
                }
            }
        }
        // Mirror partners.
        for t in 0..types.len() {
            let r = reps[t];
            let flip = puzzle.pieces[r].flip;
            types[t].mirror = if flip {
                Some(t)
            } else {
                let m = mirrored(&pieces[r]);
                (0..types.len()).find(|&u| {
                    !puzzle.pieces[reps[u]].flip
                        && types[u].members.len() == types[t].members.len()
                        && congruence(&m, &pieces[reps[u]], false).is_some()
                })
            };
        }
        let mirror_closed = types.iter().all(|t| t.mirror.is_some());
        let mut order: Vec<usize> = (0..types.len()).collect();
        order.sort_by(|&a, &b| types[b].area.cmp_s(&types[a].area).then_with(|| a.cmp(&b)));
        let counts: Vec<u32> = types.iter().map(|t| t.members.len() as u32).collect();
        let multiplier = counts
            .iter()
            .map(|&c| (1..=c as u128).product::<u128>())
            .fold(1u128, |a, b| a.saturating_mul(b));

        let region_s: Vec<Vec<Pt<S>>> = puzzle
            .region
            .iter()
            .map(|p| p.iter().map(to_s).collect())
            .collect();
        let mut region = Vec::new();
        for poly in &region_s {
            let dirs =
                directions(poly).ok_or_else(|| PrepareError::Inexact("the region".to_string()))?;
            let v: Vec<V<S>> = poly
                .iter()
                .zip(dirs)
                .map(|(p, d)| V::new(p.clone(), d))
                .collect();
            let area = area2(poly).neg().half();
            region.push(Arc::new(Poly::new(v, area)));
        }
        let full = region_group(&region_s, true);
        let rotations = full.iter().filter(|g| !g.mirror).count();
        let reflections = full.len() - rotations;
        let group: Vec<Iso<S>> = full
            .into_iter()
            .filter(|g| !g.mirror || mirror_closed)
            .collect();

        // Subset sums over rational areas.
        let units = if S::EXACT {
            let areas: Option<Vec<crate::num::Q>> = puzzle
                .pieces
                .iter()
                .map(|p| area2(&p.vertices).as_rational())
                .collect();
            areas.and_then(|areas| {
                // twice-areas; common denominator
                let mut lcm: i128 = 1;
                for a in &areas {
                    let d = a.denom();
                    let g = gcd_i(lcm, d);
                    lcm = lcm.checked_mul(d / g)?;
                }
                let scale = Num::R(crate::num::Q::new(2 * lcm, 1));
                let per_type: Option<Vec<u64>> = reps
                    .iter()
                    .map(|&r| {
                        let a = area2(&puzzle.pieces[r].vertices).as_rational()?;
                        u64::try_from(a.numer() * (lcm / a.denom())).ok()
                    })
                    .collect();
                let per_type = per_type?;
                let total: u64 = per_type
                    .iter()
                    .zip(&counts)
                    .map(|(a, &c)| a * c as u64)
                    .sum();
                (total <= 1 << 22).then_some((scale, per_type))
            })
        } else {
            None
        };

        let sides = if S::EXACT {
            let lengths: Vec<Vec<Num>> = reps
                .iter()
                .map(|&r| {
                    let v = &puzzle.pieces[r].vertices;
                    let n = v.len();
                    (0..n)
                        .map(|i| {
                            let d = v[(i + 1) % n].sub(&v[i]);
                            d.dot(&d).sqrt().unwrap_or_default()
                        })
                        .collect()
                })
                .collect();
            SideTable::build(&lengths, &counts)
        } else {
            None
        };

        if crate::num::take_overflow() {
            return Err(PrepareError::Inexact(
                "the puzzle (exact coefficients overflowed 128 bits)".into(),
            ));
        }
        let candidates = breaker_candidates(&types, &group, options);
        let prep = Prepared {
            rank: (0..types.len()).collect(),
            memo: SharedMemo::default(),
            memo_placed: SharedMemo::default(),
            breaker: None,
            puzzle: puzzle.clone(),
            sides,
            options,
            n_pieces: puzzle.pieces.len(),
            types,
            order,
            counts,
            region,
            group,
            rotations,
            reflections,
            mirror_closed,
            multiplier,
            units,
            overflow: AtomicBool::new(false),
        };
        Ok(prep.choose_breaker(&candidates))
    }

    /// The piece kept only in the least of its poses under the region's
    /// symmetries during the search (symmetry broken in the search), by name.
    pub fn symmetry_breaker(&self) -> Option<&str> {
        let t = self.breaker?;
        Some(&self.puzzle.pieces[self.types[t].members[0]].name)
    }

    /// Entries in the shared memo of impossible regions, and the lock
    /// acquisitions on it that had to wait for another thread.
    pub fn memo_stats(&self) -> (usize, u64) {
        (
            self.memo.len() + self.memo_placed.len(),
            self.memo.contended() + self.memo_placed.contended(),
        )
    }

    /// The puzzle.
    pub fn puzzle(&self) -> &Puzzle {
        &self.puzzle
    }

    /// The options.
    pub fn options(&self) -> Options {
        self.options
    }

    /// Number of piece types (identical pieces merged).
    pub fn type_count(&self) -> usize {
        self.types.len()
    }

    /// Groups of identical pieces (piece indices), only those with several members.
    pub fn identical_groups(&self) -> Vec<Vec<usize>> {
        self.types
            .iter()
            .filter(|t| t.members.len() > 1)
            .map(|t| t.members.clone())
            .collect()
    }

    /// Size of the group acting on tilings (rotations, and reflections when
    /// the piece set is closed under mirroring).
    pub fn group_order(&self) -> usize {
        self.group.len()
    }

    /// Rotations and reflections that keep the region.
    pub fn region_symmetries(&self) -> (usize, usize) {
        (self.rotations, self.reflections)
    }

    /// True when mirroring a tiling gives a tiling (every piece may flip, or
    /// each non-flipping piece has a mirror twin).
    pub fn mirror_closed(&self) -> bool {
        self.mirror_closed
    }

    /// Raw tilings per distinct tiling that is not symmetric.
    pub fn raw_multiplier(&self) -> u128 {
        self.multiplier
    }

    /// True when exact arithmetic overflowed during a search (the results
    /// are then incomplete; solve in floating point instead).
    pub fn overflowed(&self) -> bool {
        self.overflow.load(AtomicOrdering::Relaxed)
    }

    /// Orientation classes tried per piece type: (pieces of the type, forms,
    /// corners tried per form).
    pub fn type_summary(&self) -> Vec<(Vec<usize>, usize, Vec<usize>)> {
        self.types
            .iter()
            .map(|t| {
                (
                    t.members.clone(),
                    t.forms.len(),
                    t.forms.iter().map(|f| f.reps.len()).collect(),
                )
            })
            .collect()
    }
}

/// The types that may break the region's symmetry in the search.
///
/// A tiling is reported only when it is the least of its images under the
/// group, and images are compared piece by piece in rank order. When the
/// type ranked first is a single piece that every motion of the group keeps
/// in its type (it may flip, or the group has no reflections), the least
/// image has that piece in the least of its own images: a placing of it in
/// any other pose leads to no reported tiling and can be cut at once. The
/// leaf still compares whole tilings, so the counts (and the orbit sizes
/// that weigh each reported tiling) are exactly those of the search without
/// the cut; only the copies that would have been found and dropped are no
/// longer searched. With `symmetry` off every distinct tiling is reported,
/// so nothing is cut.
fn breaker_candidates<S: Scalar>(
    types: &[Type<S>],
    group: &[Iso<S>],
    options: Options,
) -> Vec<usize> {
    if !options.symmetry || group.len() < 2 {
        return Vec::new();
    }
    let no_reflections = group.iter().all(|g| !g.mirror);
    (0..types.len())
        .filter(|&t| types[t].members.len() == 1 && (types[t].mirror == Some(t) || no_reflections))
        .collect()
}

impl<S: Scalar> Prepared<S> {
    /// Picks the symmetry-breaking type: of the candidates, the one with the
    /// most placings in the first two levels of the tree, where a cut saves
    /// the most and leaves the most of the tree below to the exact memo (on
    /// the Stomachion that is H: 160,556 nodes, against 193,968 for A, the
    /// first piece, 146,854 to 238,807 for the other candidates, and 279,515
    /// without a cut; BENCHMARKS.md has the table); ties go to the earlier
    /// type.
    fn choose_breaker(self, candidates: &[usize]) -> Prepared<S> {
        if candidates.is_empty() {
            return self;
        }
        let prep = std::sync::Arc::new(self);
        let mut at_root = vec![0usize; prep.types.len()];
        let mut below = vec![0usize; prep.types.len()];
        {
            let mut solver = Solver::new(std::sync::Arc::clone(&prep));
            if matches!(solver.status(&prep.region), Status::Open) {
                for child in solver.children(&prep.region) {
                    at_root[child.ty] += 1;
                    let next = solver.apply(&prep.region, &child);
                    if matches!(solver.status(&next), Status::Open) {
                        for grandchild in solver.children(&next) {
                            below[grandchild.ty] += 1;
                        }
                    }
                    solver.undo();
                }
            }
        }
        let mut prep = std::sync::Arc::into_inner(prep).expect("the only reference");
        let b = candidates
            .iter()
            .copied()
            .rev()
            .max_by_key(|&t| at_root[t] + below[t])
            .expect("a candidate");
        prep.breaker = Some(b);
        prep.rank = (0..prep.types.len())
            .map(|t| match t.cmp(&b) {
                Ordering::Equal => 0,
                Ordering::Less => t + 1,
                Ordering::Greater => t,
            })
            .collect();
        prep
    }
}

pub(super) fn gcd_i(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a.max(1)
}

fn form_of<S: Scalar>(q: Vec<Pt<S>>, mirror: bool) -> Option<Form<S>> {
    let m = q.len();
    let e = directions(&q)?;
    let len: Vec<S> = (0..m)
        .map(|i| q[(i + 1) % m].sub(&q[i]).dot(&e[i]))
        .collect();
    let len_f = len.iter().map(|x| x.to_f64()).collect();
    let mut cos = Vec::with_capacity(m);
    let mut sin = Vec::with_capacity(m);
    let mut ang_f = Vec::with_capacity(m);
    for i in 0..m {
        let f = e[(i + m - 1) % m].neg();
        let g = &e[i];
        cos.push(f.dot(g));
        sin.push(f.cross(g).neg());
        ang_f.push(cw_angle_f(f.to_f64(), g.to_f64()));
    }
    let orbits = corner_orbits(&q, &e);
    let reps = (0..m).filter(|&i| orbits[i] == i).collect();
    Some(Form {
        mirror,
        q,
        e,
        len,
        len_f,
        cos,
        sin,
        ang_f,
        reps,
    })
}

/// The orientation classes of a piece: itself, and its mirror image when it
/// may flip and is not congruent to it by a rotation.
fn forms_of<S: Scalar>(poly: &[Pt<S>], flip: bool) -> Option<Vec<Form<S>>> {
    let mut out = vec![form_of(poly.to_vec(), false)?];
    if flip {
        let m: Vec<Pt<S>> = poly.iter().map(|p| p.conj()).rev().collect();
        if congruence(&m, poly, false).is_none() {
            // Keep the mirror's corners in the order conj(q) has them
            // (reversed so that it is counter-clockwise).
            out.push(form_of(m, true)?);
        }
    }
    Some(out)
}
