//! Lynning's engine: place a piece at a convex corner of the smallest
//! polygon of the region, splice the outlines, tidy, split, repeat.
//!
//! # One node
//!
//! The region is a list of clockwise polygons; each corner carries the unit
//! direction of the side leaving it, so that turning a piece onto a side is a
//! product of unit vectors and never a square root. At a node the engine
//!
//! 1. picks the polygon of least area (Lynning's MINIMAL AREA) and in it the
//!    convex corner `v` where the fewest piece corners pass a float angle and
//!    length filter, then the smallest angle, then the shortest sides (BEST
//!    VERTEX, sharpened into a cheap minimum-remaining-values choice: on the
//!    Stomachion it shrinks the tree from 1.8 million nodes to 280 thousand);
//! 2. for every available piece type (largest first), every orientation class
//!    (the piece and, when it may flip and is not its own mirror image, its
//!    mirror image) and every corner `k` of the piece up to the piece's own
//!    rotations (so a square is tried at one corner, not four), checks that
//!    the piece's angle at `k` fits in the angle at `v` (ANGLE CHECK), turns
//!    the piece so that corner `k` sits on `v` and its side `k → k−1` runs
//!    along the side leaving `v`, and builds the pseudo-polygon
//!    `v, q_{k+1}, …, q_{k−1}, v, p_{j+1}, …, p_{j−1}` (PLACE);
//! 3. applies σ: drops repeated points and points on a line through their
//!    neighbours (straight-through corners and spikes), until none is left;
//! 4. rejects the placing if two sides cross at a point inside both (a
//!    strong intersection); otherwise inserts every corner that touches the
//!    inside of another side into that side (the weak intersections), splits
//!    the walk into loops at repeated points, applies σ to each loop, and
//!    accepts the placing when every loop left is clockwise (nil loops, a
//!    point or a spike, vanish). Lynning's appendix proves this test exact;
//!    with exact numbers it is.
//!
//! Every tiling is found exactly once: the corner `v` is convex, so exactly
//! one piece covers the sector just inside the side leaving `v`, with one of
//! its corners at `v` and one of its sides along that side, in exactly one
//! orientation class and one corner orbit.
//!
//! # Pruning
//!
//! A node is a dead end (no children are generated) when the region has a
//! polygon smaller than every remaining piece, when a polygon's area is not
//! a sum of remaining piece areas (a subset-sum test on rational areas), when
//! a side between two convex corners is shorter than every side of every
//! remaining piece (Lynning's tests 1 and 2), or when the memo says the region
//! with these pieces was already found impossible (Lynning's test 3). The memo
//! key is exact: each polygon in its canonical position (a corner at the
//! origin, its side along +x, the least such exact corner list over every
//! corner and, when every remaining piece may flip, both mirror images), the
//! polygons sorted, and the remaining piece counts. Regions are impossible or
//! not whatever the search order, so the memo never changes what is found.
//!
//! # Counting
//!
//! Identical pieces (congruent by the motions their flip rule allows) form a
//! type with a count, so each distinct tiling is found once; raw counts
//! multiply by the factorials of the counts. Unique tilings are counted by
//! comparing each tiling with its images under the region's symmetry group
//! (rotations, and reflections when the piece set is closed under mirroring):
//! only the least image is reported, with the size of its orbit.

use crate::geom::{area2, Pt};
use crate::model::Puzzle;
use crate::num::{Num, Scalar};
use crate::symmetry::{
    cmp_points, congruence, corner_orbits, directions, mirrored, region_group, Iso,
};
use jigsolve_search::{fraction_of, NoSuchNode, NodeKind, NodeStats, Sink, Ticker, Tree, Weight};
use std::cmp::Ordering;
use std::collections::HashSet;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering as AtomicOrdering};
use std::sync::Arc;

/// How to search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Report one tiling per symmetry class (the least image). When false,
    /// every distinct tiling is reported; unique counts are still computed.
    pub symmetry: bool,
    /// Use the memo of impossible regions.
    pub memo: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            symmetry: true,
            memo: true,
        }
    }
}

/// One placed piece: the piece's vertices as listed in the puzzle (after
/// orientation to counter-clockwise) are mirrored in the x axis when
/// `flipped`, turned by the unit vector `rot`, and shifted by `shift`.
#[derive(Clone, Debug, PartialEq)]
pub struct Placement<S> {
    /// Index of the piece in the puzzle, from 0.
    pub piece: usize,
    /// Mirrored first.
    pub flipped: bool,
    /// The turn `(cos θ, sin θ)`.
    pub rot: Pt<S>,
    /// The shift.
    pub shift: Pt<S>,
}

impl<S: Scalar> Placement<S> {
    /// The isometry of this placement.
    pub fn iso(&self) -> Iso<S> {
        Iso {
            w: self.rot.clone(),
            mirror: self.flipped,
            s: self.shift.clone(),
        }
    }

    /// The placed corners.
    pub fn corners(&self, puzzle: &Puzzle) -> Vec<Pt<S>> {
        let g = self.iso();
        puzzle.pieces[self.piece]
            .vertices
            .iter()
            .map(|p| g.apply(&Pt::new(S::from_num(&p.x), S::from_num(&p.y))))
            .collect()
    }

    /// The turn in degrees, counter-clockwise, in [0, 360).
    pub fn degrees(&self) -> f64 {
        let d = self.rot.y.to_f64().atan2(self.rot.x.to_f64()).to_degrees();
        let d = if d < -1e-9 { d + 360.0 } else { d.max(0.0) };
        if (d - 360.0).abs() < 1e-9 {
            0.0
        } else {
            d
        }
    }
}

/// A corner of a region polygon, with the side leaving it.
#[derive(Clone, Debug)]
struct V<S> {
    p: Pt<S>,
    /// Unit direction of the side leaving this corner.
    d: Pt<S>,
    /// The corner in floats (the filter for orientation tests).
    f: [f64; 2],
}

impl<S: Scalar> V<S> {
    fn new(p: Pt<S>, d: Pt<S>) -> V<S> {
        let f = p.to_f64();
        V { p, d, f }
    }
}

/// Float shadows of a polygon's corners, for ordering heuristics and filters.
#[derive(Clone, Debug)]
struct VF {
    /// Length of the side leaving the corner.
    len: f64,
    /// Interior angle at the corner, in (0, 2π).
    ang: f64,
}

/// A clockwise polygon of the region.
#[derive(Clone, Debug)]
struct Poly<S> {
    v: Vec<V<S>>,
    f: Vec<VF>,
    /// Area (positive).
    area: S,
    area_f: f64,
}

const TAU: f64 = std::f64::consts::TAU;
/// Float filter width for angles and lengths: decisions closer than this go
/// to the exact path.
const FUZZ: f64 = 1e-7;

fn cw_angle_f(a: [f64; 2], b: [f64; 2]) -> f64 {
    // clockwise angle from a to b: cos = a·b, sin = -(a×b)
    let c = a[0] * b[0] + a[1] * b[1];
    let s = -(a[0] * b[1] - a[1] * b[0]);
    let t = s.atan2(c);
    if t < 0.0 {
        t + TAU
    } else {
        t
    }
}

impl<S: Scalar> Poly<S> {
    fn new(v: Vec<V<S>>, area: S) -> Poly<S> {
        let n = v.len();
        let pf: Vec<[f64; 2]> = v.iter().map(|x| x.f).collect();
        let df: Vec<[f64; 2]> = v.iter().map(|x| x.d.to_f64()).collect();
        let f = (0..n)
            .map(|i| {
                let nx = pf[(i + 1) % n];
                let len = ((nx[0] - pf[i][0]).powi(2) + (nx[1] - pf[i][1]).powi(2)).sqrt();
                let prev = df[(i + n - 1) % n];
                let ang = cw_angle_f(df[i], [-prev[0], -prev[1]]);
                VF { len, ang }
            })
            .collect();
        let area_f = area.to_f64();
        Poly { v, f, area, area_f }
    }

    /// Exact: is the corner convex (interior angle below π)?
    fn convex(&self, i: usize) -> bool {
        let ang = self.f[i].ang;
        if ang < std::f64::consts::PI - FUZZ {
            return true;
        }
        if ang > std::f64::consts::PI + FUZZ {
            return false;
        }
        let n = self.v.len();
        // a = d_i, b = -d_{i-1}; convex iff sin > 0 iff a × b < 0 iff d_{i-1} × d_i > 0... (clockwise polygon)
        let a = &self.v[i].d;
        let b = self.v[(i + n - 1) % n].d.neg();
        a.cross(&b).signum() < 0
    }

    /// Exact length of side i.
    fn side(&self, i: usize) -> S {
        let n = self.v.len();
        self.v[(i + 1) % n].p.sub(&self.v[i].p).dot(&self.v[i].d)
    }
}

/// One orientation class of a piece type.
#[derive(Clone, Debug)]
struct Form<S> {
    mirror: bool,
    /// Corners, counter-clockwise, in the type representative's frame.
    q: Vec<Pt<S>>,
    /// Unit direction of side i (corner i to i+1).
    e: Vec<Pt<S>>,
    /// Exact side lengths.
    len: Vec<S>,
    len_f: Vec<f64>,
    /// Interior angle at corner i: (cos, sin) and float.
    cos: Vec<S>,
    sin: Vec<S>,
    ang_f: Vec<f64>,
    /// Corners to try: one per orbit of the piece's own rotations.
    reps: Vec<usize>,
}

/// Identical pieces.
#[derive(Clone, Debug)]
struct Type<S> {
    /// Pieces of this type, in puzzle order.
    members: Vec<usize>,
    /// For each member, the isometry from its own frame to the
    /// representative's frame.
    to_rep: Vec<Iso<S>>,
    area: S,
    area_f: f64,
    forms: Vec<Form<S>>,
    min_side: S,
    min_side_f: f64,
    /// The type a reflection turns this type into.
    mirror: Option<usize>,
}

/// Everything about a puzzle that does not change during the search; shared
/// by all threads.
#[derive(Debug)]
pub struct Prepared<S> {
    puzzle: Puzzle,
    options: Options,
    types: Vec<Type<S>>,
    /// Type indices, largest area first (Lynning: big pieces first).
    order: Vec<usize>,
    counts: Vec<u32>,
    region: Vec<Poly<S>>,
    /// The group acting on tilings (for unique counts).
    group: Vec<Iso<S>>,
    /// Rotations only, reflections included: sizes for the summary.
    rotations: usize,
    reflections: usize,
    mirror_closed: bool,
    multiplier: u128,
    /// Subset-sum data: each type's area in units, and units per area.
    units: Option<(Num, Vec<u64>)>,
    /// Side-length data (exact puzzles): the radicands of piece side lengths
    /// with, for each, the units per length; and each type's sides as
    /// (radicand index, length in units).
    sides: Option<SideTable>,
    n_pieces: usize,
    overflow: AtomicBool,
}

/// Piece side lengths split by radicand: a side of length `r·√m` is `r`
/// times `scale[m]` units of radicand `m`.
#[derive(Debug, Clone)]
struct SideTable {
    rads: Vec<u64>,
    scale: Vec<crate::num::Q>,
    per_type: Vec<Vec<(usize, u64)>>,
    /// Largest sum of units per radicand.
    cap: Vec<u64>,
}

impl SideTable {
    fn build(lengths: &[Vec<Num>], counts: &[u32]) -> Option<SideTable> {
        let mut rads: Vec<u64> = Vec::new();
        let mut dens: Vec<i128> = Vec::new();
        for ls in lengths {
            for l in ls {
                let [t] = &l.terms()[..] else { return None };
                let at = match rads.iter().position(|&r| r == t.rad) {
                    Some(i) => i,
                    None => {
                        rads.push(t.rad);
                        dens.push(1);
                        rads.len() - 1
                    }
                };
                let d = t.c.denom();
                dens[at] = dens[at].checked_mul(d / gcd_i(dens[at], d))?;
            }
        }
        let scale: Vec<crate::num::Q> = dens.iter().map(|&d| crate::num::Q::int(d)).collect();
        let mut cap = vec![0u64; rads.len()];
        let mut per_type = Vec::new();
        for (t, ls) in lengths.iter().enumerate() {
            let mut v = Vec::new();
            for l in ls {
                let term = l.terms()[0];
                let at = rads.iter().position(|&r| r == term.rad)?;
                let units = term.c.mul(scale[at]);
                if units.denom() != 1 || units.numer() <= 0 {
                    return None;
                }
                let u = u64::try_from(units.numer()).ok()?;
                cap[at] = cap[at].checked_add(u.checked_mul(counts[t] as u64)?)?;
                v.push((at, u));
            }
            per_type.push(v);
        }
        if cap.iter().any(|&c| c > 1 << 16) {
            return None;
        }
        Some(SideTable {
            rads,
            scale,
            per_type,
            cap,
        })
    }
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
fn cmp_angle<S: Scalar>(c1: &S, s1: &S, c2: &S, s2: &S) -> Ordering {
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
            region.push(Poly::new(v, area));
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
        Ok(Prepared {
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
        })
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

fn gcd_i(a: i128, b: i128) -> i128 {
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

/// A child of a node: a valid placing.
#[derive(Clone, Debug)]
struct Child<S> {
    ty: usize,
    iso: Iso<S>,
    /// The polygon replaced and the polygons replacing it.
    poly: usize,
    polys: Vec<Poly<S>>,
}

/// How a node stands before its children are generated.
enum Status {
    Open,
    Dead,
    Leaf,
}

/// A search over one prepared puzzle; one per thread.
#[derive(Debug)]
pub struct Solver<S> {
    prep: Arc<Prepared<S>>,
    avail: Vec<u32>,
    placed: Vec<(usize, Iso<S>)>,
    counts: Vec<u64>,
    /// Per depth: (child index, children) for the progress measure.
    pos: Vec<(u32, u32)>,
    memo: HashSet<Box<[u8]>>,
    since_poll: u64,
    solution: Vec<Placement<S>>,
    /// Bytes of memo keys stored.
    memo_bytes: usize,
}

/// Nodes between two polls of the control.
const POLL_EVERY: u64 = 1 << 12;
/// The memo stops growing past this many bytes of keys.
const MEMO_BYTES: usize = 256 << 20;

/// Why a search stopped early.
struct Stop;

impl<S: Scalar> Solver<S> {
    /// A solver for a prepared puzzle.
    pub fn new(prep: Arc<Prepared<S>>) -> Solver<S> {
        let n = prep.n_pieces;
        Solver {
            avail: prep.counts.clone(),
            placed: Vec::with_capacity(n),
            counts: vec![0; n + 1],
            pos: vec![(0, 1); n + 1],
            memo: HashSet::new(),
            since_poll: 0,
            solution: Vec::with_capacity(n),
            memo_bytes: 0,
            prep,
        }
    }

    /// The prepared puzzle.
    pub fn prepared(&self) -> &Arc<Prepared<S>> {
        &self.prep
    }

    /// Entries in the memo of impossible regions.
    pub fn memo_len(&self) -> usize {
        self.memo.len()
    }

    fn remaining(&self) -> usize {
        self.avail.iter().map(|&c| c as usize).sum()
    }

    /// Lynning's dead-region tests and the subset-sum test.
    fn status(&self, region: &[Poly<S>]) -> Status {
        let prep = &*self.prep;
        if self.remaining() == 0 {
            return if region.is_empty() {
                Status::Leaf
            } else {
                Status::Dead
            };
        }
        if region.is_empty() {
            return Status::Dead;
        }
        let avail_types = || prep.order.iter().copied().filter(|&t| self.avail[t] > 0);
        // Test 1: a polygon smaller than the smallest piece.
        let smallest_piece = avail_types()
            .map(|t| &prep.types[t])
            .min_by(|a, b| a.area_f.total_cmp(&b.area_f))
            .expect("some piece remains");
        for p in region {
            if p.area_f < smallest_piece.area_f - FUZZ
                || (p.area_f < smallest_piece.area_f + FUZZ
                    && p.area.cmp_s(&smallest_piece.area) == Ordering::Less)
            {
                return Status::Dead;
            }
        }
        // Subset sums: every polygon's area is a sum of remaining pieces' areas.
        if region.len() > 1 {
            if let Some((scale, per)) = &prep.units {
                let total: u64 = avail_types().map(|t| per[t] * self.avail[t] as u64).sum();
                let words = (total as usize) / 64 + 1;
                let mut reach = vec![0u64; words];
                reach[0] = 1;
                for t in avail_types() {
                    for _ in 0..self.avail[t] {
                        shift_or(&mut reach, per[t] as usize);
                    }
                }
                for p in region {
                    let ok = match S::from_num(scale).mul(&p.area).as_int() {
                        Some(a) if a >= 0 && (a as u64) <= total => {
                            let a = a as usize;
                            reach[a / 64] >> (a % 64) & 1 == 1
                        }
                        _ => false,
                    };
                    if !ok {
                        return Status::Dead;
                    }
                }
            }
        }
        // Test 2: a side between convex corners shorter than every side of
        // every remaining piece.
        let (min_side_f, min_side) = avail_types()
            .map(|t| &prep.types[t])
            .min_by(|a, b| a.min_side_f.total_cmp(&b.min_side_f))
            .map(|t| (t.min_side_f, &t.min_side))
            .expect("some piece remains");
        for p in region {
            let n = p.v.len();
            for i in 0..n {
                if p.f[i].len >= min_side_f + FUZZ {
                    continue;
                }
                if !p.convex(i) || !p.convex((i + 1) % n) {
                    continue;
                }
                if p.f[i].len < min_side_f - FUZZ || p.side(i).cmp_s(min_side) == Ordering::Less {
                    return Status::Dead;
                }
            }
        }
        // Test 2, exact form: a side between convex corners is covered by
        // piece sides laid end to end, so its length is a sum of remaining
        // piece side lengths, radicand by radicand (square roots of distinct
        // square-free numbers are linearly independent over Q).
        if prep.sides.is_some() {
            let mut cache = SideSums::default();
            for p in region {
                let n = p.v.len();
                for i in 0..n {
                    if !p.convex(i) || !p.convex((i + 1) % n) {
                        continue;
                    }
                    if !self.side_fits(&p.side(i), &mut cache) {
                        return Status::Dead;
                    }
                }
            }
        }
        Status::Open
    }

    /// True when `len` is a sum of sides of the remaining pieces (exact
    /// puzzles with a side table; always true otherwise).
    fn side_fits(&self, len: &S, cache: &mut SideSums) -> bool {
        let Some(table) = &self.prep.sides else {
            return true;
        };
        let Some(num) = len.as_num() else {
            return true;
        };
        for t in num.terms() {
            let Some(at) = table.rads.iter().position(|&r| r == t.rad) else {
                return false;
            };
            let units = t.c.mul(table.scale[at]);
            if units.denom() != 1 || units.numer() <= 0 || units.numer() > table.cap[at] as i128 {
                return false;
            }
            let reach = cache.reach(at, table, &self.avail);
            let u = units.numer() as usize;
            if reach[u / 64] >> (u % 64) & 1 == 0 {
                return false;
            }
        }
        true
    }

    /// The valid placings at this node, in a fixed order.
    fn children(&self, region: &[Poly<S>]) -> Vec<Child<S>> {
        let prep = &*self.prep;
        let mut out = Vec::new();
        // MINIMAL AREA.
        let pi = (0..region.len())
            .min_by(|&a, &b| {
                region[a]
                    .area_f
                    .total_cmp(&region[b].area_f)
                    .then(a.cmp(&b))
            })
            .expect("a region polygon");
        let poly = &region[pi];
        let n = poly.v.len();
        // BEST VERTEX: the convex corner where the fewest piece corners pass
        // the float angle and length filters (a cheap count of the children
        // to come), then the smallest angle, then the shortest sides.
        let quick = |i: usize| -> usize {
            let ang = poly.f[i].ang;
            let out_len = poly.f[i].len;
            let in_len = poly.f[(i + n - 1) % n].len;
            let mut count = 0;
            for &t in &prep.order {
                if self.avail[t] == 0 {
                    continue;
                }
                for form in &prep.types[t].forms {
                    let m = form.q.len();
                    for &k in &form.reps {
                        let pang = form.ang_f[k];
                        if pang > ang + FUZZ {
                            continue;
                        }
                        if form.len_f[(k + m - 1) % m] > out_len + FUZZ
                            && ang < std::f64::consts::PI
                        {
                            // Only a filter: the next corner may be reflex.
                            if poly.f[(i + 1) % n].ang < std::f64::consts::PI - FUZZ {
                                continue;
                            }
                        }
                        if (pang - ang).abs() <= FUZZ
                            && form.len_f[k] > in_len + FUZZ
                            && poly.f[(i + n - 1) % n].ang < std::f64::consts::PI - FUZZ
                        {
                            continue;
                        }
                        count += 1;
                    }
                }
            }
            count
        };
        let mut best: Option<(usize, usize)> = None;
        for i in 0..n {
            if !poly.convex(i) {
                continue;
            }
            let c = quick(i);
            let key = |j: usize| {
                let a = poly.f[(j + n - 1) % n].len;
                let b = poly.f[j].len;
                (poly.f[j].ang, a.min(b), a.max(b))
            };
            best = match best {
                None => Some((i, c)),
                Some((b, cb)) => {
                    let (ka, kb) = (key(i), key(b));
                    let better = if c != cb {
                        c < cb
                    } else if (ka.0 - kb.0).abs() > FUZZ {
                        ka.0 < kb.0
                    } else if (ka.1 - kb.1).abs() > FUZZ {
                        ka.1 < kb.1
                    } else {
                        ka.2 < kb.2 - FUZZ
                    };
                    Some(if better { (i, c) } else { (b, cb) })
                }
            };
        }
        let best = best.map(|(i, _)| i);
        let Some(vi) = best else {
            return out;
        };
        let v = &poly.v[vi];
        let prev = &poly.v[(vi + n - 1) % n];
        // Region angle at v: clockwise from a = d_v to b = -d_prev.
        let a = &v.d;
        let b = prev.d.neg();
        let rc = a.dot(&b);
        let rs = a.cross(&b).neg();
        let rang = poly.f[vi].ang;
        let out_len_f = poly.f[vi].len;
        let next_convex = poly.convex((vi + 1) % n);
        let in_len_f = poly.f[(vi + n - 1) % n].len;
        let prev_convex = poly.convex((vi + n - 1) % n);
        let mut sums = SideSums::default();

        for &t in &prep.order {
            if self.avail[t] == 0 {
                continue;
            }
            let ty = &prep.types[t];
            if ty.area_f > poly.area_f + FUZZ {
                continue;
            }
            for form in &ty.forms {
                let m = form.q.len();
                for &k in &form.reps {
                    // ANGLE CHECK.
                    let pang = form.ang_f[k];
                    let cmp = if (pang - rang).abs() > FUZZ {
                        pang.total_cmp(&rang)
                    } else {
                        cmp_angle(&form.cos[k], &form.sin[k], &rc, &rs)
                    };
                    if cmp == Ordering::Greater {
                        continue;
                    }
                    // The side k -> k-1 runs along the side leaving v: it
                    // may not pass a convex corner.
                    let kp = (k + m - 1) % m;
                    if next_convex
                        && too_long(form.len_f[kp], &form.len[kp], out_len_f, || poly.side(vi))
                    {
                        continue;
                    }
                    if cmp == Ordering::Equal
                        && prev_convex
                        && too_long(form.len_f[k], &form.len[k], in_len_f, || {
                            poly.side((vi + n - 1) % n)
                        })
                    {
                        continue;
                    }
                    // What is left of the side leaving v must be a sum of
                    // piece sides when its far end is convex.
                    if next_convex && prep.sides.is_some() {
                        let left = poly.side(vi).sub(&form.len[kp]);
                        if !left.is_zero() && !self.side_fits(&left, &mut sums) {
                            continue;
                        }
                    }
                    if cmp == Ordering::Equal && prev_convex && prep.sides.is_some() {
                        let left = poly.side((vi + n - 1) % n).sub(&form.len[k]);
                        if !left.is_zero() && !self.side_fits(&left, &mut sums) {
                            continue;
                        }
                    }
                    // PLACE: turn u maps the piece direction k -> k-1 onto d_v.
                    let f = form.e[kp].neg();
                    let u = v.d.cmul(&f.conj());
                    let shift = v.p.sub(&u.cmul(&form.q[k]));
                    if let Some(polys) = place(poly, vi, form, k, &u, &shift, &ty.area) {
                        out.push(Child {
                            ty: t,
                            iso: Iso {
                                w: u,
                                mirror: form.mirror,
                                s: shift,
                            },
                            poly: pi,
                            polys,
                        });
                    }
                }
            }
        }
        out
    }

    fn apply(&mut self, region: &[Poly<S>], child: &Child<S>) -> Vec<Poly<S>> {
        self.avail[child.ty] -= 1;
        self.placed.push((child.ty, child.iso.clone()));
        let mut next = Vec::with_capacity(region.len() + child.polys.len());
        for (i, p) in region.iter().enumerate() {
            if i != child.poly {
                next.push(p.clone());
            }
        }
        next.extend(child.polys.iter().cloned());
        next
    }

    fn undo(&mut self) {
        if let Some((t, _)) = self.placed.pop() {
            self.avail[t] += 1;
        }
    }

    fn reset(&mut self) {
        self.avail.copy_from_slice(&self.prep.counts);
        self.placed.clear();
    }

    /// Replays `path` from the root; returns the region there.
    fn descend(&mut self, path: &[u32]) -> Result<Vec<Poly<S>>, NoSuchNode> {
        self.reset();
        let mut region = self.prep.region.clone();
        for (d, &k) in path.iter().enumerate() {
            let missing = || NoSuchNode {
                path: path.to_vec(),
            };
            if !matches!(self.status(&region), Status::Open) {
                return Err(missing());
            }
            let kids = self.children(&region);
            let child = kids.get(k as usize).ok_or_else(missing)?;
            self.pos[d] = (k, kids.len() as u32);
            region = self.apply(&region, child);
        }
        Ok(region)
    }

    /// The weight of the tiling now placed (zero when it is not the least
    /// of its images and symmetry is on), and fills `self.solution`.
    fn leaf(&mut self) -> Weight {
        let prep = &*self.prep;
        // Assign copies of a type in the order they were placed.
        let mut next_copy = vec![0usize; prep.types.len()];
        self.solution.clear();
        for (t, iso) in &self.placed {
            let ty = &prep.types[*t];
            let member = next_copy[*t];
            next_copy[*t] += 1;
            let g = iso.compose(&ty.to_rep[member]);
            self.solution.push(Placement {
                piece: ty.members[member],
                flipped: g.mirror,
                rot: g.w,
                shift: g.s,
            });
        }
        self.solution.sort_by_key(|p| p.piece);
        let g = prep.group.len() as u128;
        if g == 1 {
            return Weight {
                raw: prep.multiplier,
                distinct: 1,
                unique: 1,
            };
        }
        // Compare with the images under the group.
        let encode = |g: &Iso<S>| -> Vec<(usize, Vec<Pt<S>>)> {
            let mut pieces: Vec<(usize, Vec<Pt<S>>)> = self
                .placed
                .iter()
                .map(|(t, iso)| {
                    let ty = &prep.types[*t];
                    let form0 = &ty.forms[0];
                    let t2 = if g.mirror {
                        ty.mirror.unwrap_or(*t)
                    } else {
                        *t
                    };
                    // Corners of the placed piece, from the representative.
                    let mut pts: Vec<Pt<S>> =
                        form0.q.iter().map(|p| g.apply(&iso.apply(p))).collect();
                    pts.sort_by(|a, b| a.cmp_xy(b));
                    (t2, pts)
                })
                .collect();
            pieces.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| cmp_points(&a.1, &b.1)));
            pieces
        };
        let cmp_enc = |a: &[(usize, Vec<Pt<S>>)], b: &[(usize, Vec<Pt<S>>)]| -> Ordering {
            for (x, y) in a.iter().zip(b) {
                let o = x.0.cmp(&y.0).then_with(|| cmp_points(&x.1, &y.1));
                if o != Ordering::Equal {
                    return o;
                }
            }
            Ordering::Equal
        };
        let me = encode(&prep.group[0]);
        let mut fixed = 1u128;
        let mut canonical = true;
        for g in &prep.group[1..] {
            let img = encode(g);
            match cmp_enc(&img, &me) {
                Ordering::Less => {
                    canonical = false;
                    if prep.options.symmetry {
                        break;
                    }
                }
                Ordering::Equal => fixed += 1,
                Ordering::Greater => {}
            }
        }
        if !prep.options.symmetry {
            // Every distinct tiling is reported; the least member of each
            // orbit carries the orbit's one unique tiling.
            return Weight {
                raw: prep.multiplier,
                distinct: 1,
                unique: canonical as u128,
            };
        }
        if !canonical {
            return Weight::default();
        }
        let orbit = g / fixed;
        Weight {
            raw: prep.multiplier.saturating_mul(orbit),
            distinct: orbit,
            unique: 1,
        }
    }

    fn memo_key(&self, region: &[Poly<S>]) -> Box<[u8]> {
        let prep = &*self.prep;
        let flips = self
            .avail
            .iter()
            .enumerate()
            .all(|(t, &c)| c == 0 || prep.types[t].mirror == Some(t));
        let mut polys: Vec<Vec<i128>> = region.iter().map(|p| canonical(p, flips)).collect();
        polys.sort();
        let mut out = Vec::with_capacity(64);
        for c in &self.avail {
            push_varint(&mut out, *c as i128);
        }
        for p in polys {
            out.push(0xFF);
            for x in p {
                push_varint(&mut out, x);
            }
        }
        out.into_boxed_slice()
    }

    fn poll(&mut self, ticker: &mut Ticker<'_>, depth: usize, base: usize) -> Result<(), Stop> {
        let nodes = std::mem::take(&mut self.since_poll);
        let pos = &self.pos;
        let flow = ticker.poll(nodes, || fraction_of(pos[base..depth].iter().copied()));
        if flow.is_break() {
            Err(Stop)
        } else {
            Ok(())
        }
    }

    /// Depth-first search below the node at `depth` with `region`; returns
    /// the number of tilings found (of any weight).
    fn dfs(
        &mut self,
        region: &[Poly<S>],
        depth: usize,
        base: usize,
        sink: &mut dyn Sink<[Placement<S>]>,
        ticker: &mut Ticker<'_>,
    ) -> Result<u64, Stop> {
        self.counts[depth] += 1;
        self.since_poll += 1;
        if self.since_poll >= POLL_EVERY {
            self.poll(ticker, depth, base)?;
        }
        match self.status(region) {
            Status::Dead => return Ok(0),
            Status::Leaf => {
                let w = self.leaf();
                if !w.is_zero() && sink.solution(&self.solution, w).is_break() {
                    return Err(Stop);
                }
                return Ok(1);
            }
            Status::Open => {}
        }
        let use_memo = self.prep.options.memo && depth > base && self.remaining() > 1;
        let key = if use_memo {
            let key = self.memo_key(region);
            if self.memo.contains(&key) {
                return Ok(0);
            }
            Some(key)
        } else {
            None
        };
        let kids = self.children(region);
        if S::EXACT && S::lost() {
            self.prep.overflow.store(true, AtomicOrdering::Relaxed);
            crate::num::take_overflow();
            return Err(Stop);
        }
        let mut found = 0;
        let d = kids.len() as u32;
        for (k, child) in kids.iter().enumerate() {
            self.pos[depth] = (k as u32, d);
            let next = self.apply(region, child);
            let r = self.dfs(&next, depth + 1, base, sink, ticker);
            self.undo();
            found += r?;
        }
        if found == 0 {
            if let Some(key) = key {
                if self.memo_bytes < MEMO_BYTES {
                    self.memo_bytes += key.len() + 32;
                    self.memo.insert(key);
                }
            }
        }
        Ok(found)
    }
}

/// Per node: the reachable sums of remaining piece sides, per radicand.
#[derive(Default)]
struct SideSums {
    sets: Vec<Option<Vec<u64>>>,
}

impl SideSums {
    fn reach(&mut self, at: usize, table: &SideTable, avail: &[u32]) -> &[u64] {
        if self.sets.len() < table.rads.len() {
            self.sets.resize(table.rads.len(), None);
        }
        self.sets[at].get_or_insert_with(|| {
            let mut bits = vec![0u64; table.cap[at] as usize / 64 + 1];
            bits[0] = 1;
            for (t, sides) in table.per_type.iter().enumerate() {
                for _ in 0..avail[t] {
                    for &(r, u) in sides {
                        if r == at {
                            shift_or(&mut bits, u as usize);
                        }
                    }
                }
            }
            bits
        })
    }
}

fn shift_or(bits: &mut [u64], by: usize) {
    let (words, rem) = (by / 64, by % 64);
    for i in (0..bits.len()).rev() {
        let mut v = 0u64;
        if i >= words {
            v = bits[i - words] << rem;
            if rem > 0 && i > words {
                v |= bits[i - words - 1] >> (64 - rem);
            }
        }
        bits[i] |= v;
    }
}

fn push_varint(out: &mut Vec<u8>, x: i128) {
    // zig-zag, then 7 bits at a time
    let mut z = ((x << 1) ^ (x >> 127)) as u128;
    loop {
        let b = (z & 0x7F) as u8;
        z >>= 7;
        if z == 0 {
            out.push(b);
            break;
        }
        out.push(b | 0x80);
    }
}

/// The canonical exact image of a polygon: over every corner (and, with
/// `mirrors`, both mirror images), move the corner to the origin and its side
/// onto +x; keep the least corner list. Float signatures pick the candidate
/// corners so that only near-ties are computed exactly.
fn canonical<S: Scalar>(p: &Poly<S>, mirrors: bool) -> Vec<i128> {
    let n = p.v.len();
    // Candidates: (mirrored, start) with the least float signature.
    let sig = |mirror: bool, i: usize, j: usize| -> (f64, f64) {
        if mirror {
            // Walking the mirror image forwards is walking p backwards.
            let a = (i + n - j) % n;
            let side = p.f[(a + n - 1) % n].len;
            (side, p.f[a].ang)
        } else {
            let a = (i + j) % n;
            (p.f[a].len, p.f[a].ang)
        }
    };
    let cmp_sig = |x: (bool, usize), y: (bool, usize)| -> Ordering {
        for j in 0..n {
            let (a, b) = (sig(x.0, x.1, j), sig(y.0, y.1, j));
            if (a.0 - b.0).abs() > FUZZ {
                return a.0.total_cmp(&b.0);
            }
            if (a.1 - b.1).abs() > FUZZ {
                return a.1.total_cmp(&b.1);
            }
        }
        Ordering::Equal
    };
    let mut cands: Vec<(bool, usize)> = Vec::new();
    for mirror in [false, true] {
        if mirror && !mirrors {
            break;
        }
        for i in 0..n {
            let c = (mirror, i);
            match cands.first().map(|&b| cmp_sig(c, b)) {
                None | Some(Ordering::Equal) => cands.push(c),
                Some(Ordering::Less) => {
                    cands.clear();
                    cands.push(c);
                }
                Some(Ordering::Greater) => {}
            }
        }
    }
    // The corners seen from corner i along side i: (Δ·(p_j − p_i), Δ×(p_j − p_i))
    // with Δ = p_{i+1} − p_i. This fixes the polygon up to rotation and
    // translation (|Δ|² is the first entry) without any square root.
    let image = |(mirror, i): (bool, usize)| -> Vec<Pt<S>> {
        let at = |j: usize| -> Pt<S> {
            if mirror {
                p.v[(i + n - j) % n].p.conj()
            } else {
                p.v[(i + j) % n].p.clone()
            }
        };
        let o = at(0);
        let delta = at(1).sub(&o);
        (1..n)
            .map(|j| {
                let r = at(j).sub(&o);
                Pt::new(delta.dot(&r), delta.cross(&r))
            })
            .collect()
    };
    let mut best = image(cands[0]);
    for &c in &cands[1..] {
        let img = image(c);
        if cmp_points(&img, &best) == Ordering::Less {
            best = img;
        }
    }
    let mut out = Vec::with_capacity(4 * n);
    for q in &best {
        q.x.key(&mut out);
        q.y.key(&mut out);
    }
    out
}

/// True when a piece side of length `piece` (float `piece_f`) is longer than
/// a region side of float length `region_f` (exact on demand).
fn too_long<S: Scalar>(piece_f: f64, piece: &S, region_f: f64, region: impl Fn() -> S) -> bool {
    if piece_f > region_f + FUZZ {
        return true;
    }
    if piece_f < region_f - FUZZ {
        return false;
    }
    piece.cmp_s(&region()) == Ordering::Greater
}

/// Places `form` with corner `k` on corner `vi` of `poly` (turn `u`, shift
/// `shift`) and returns the polygons that replace `poly`, or `None` when the
/// piece does not fit.
fn place<S: Scalar>(
    poly: &Poly<S>,
    vi: usize,
    form: &Form<S>,
    k: usize,
    u: &Pt<S>,
    shift: &Pt<S>,
    piece_area: &S,
) -> Option<Vec<Poly<S>>> {
    // Exact area test first: the piece cannot be larger than the polygon.
    let rest = poly.area.sub(piece_area);
    let rest_sign = rest.signum();
    if rest_sign < 0 {
        return None;
    }
    let n = poly.v.len();
    let m = form.q.len();
    // The pseudo-polygon: v, q_{k+1}, ..., q_{k-1}, v, p_{j+1}, ..., p_{j-1}.
    let mut w: Vec<V<S>> = Vec::with_capacity(n + m);
    for j in 0..m {
        let i = (k + j) % m;
        let p = if j == 0 {
            poly.v[vi].p.clone()
        } else {
            u.cmul(&form.q[i]).add(shift)
        };
        w.push(V::new(p, u.cmul(&form.e[i])));
    }
    for j in 0..n {
        w.push(poly.v[(vi + j) % n].clone());
    }
    sigma(&mut w);
    if w.is_empty() {
        // The piece is exactly the polygon.
        return (rest_sign == 0).then(Vec::new);
    }
    if rest_sign == 0 {
        return None;
    }
    let l = w.len();
    let wf: Vec<[f64; 2]> = w.iter().map(|x| x.f).collect();
    // Weak intersections to insert: (edge, vertex).
    let mut ins: Vec<(usize, usize)> = Vec::new();
    for i in 0..l {
        let i1 = (i + 1) % l;
        let (a, b) = (wf[i], wf[i1]);
        let (ax0, ax1) = (a[0].min(b[0]) - FUZZ, a[0].max(b[0]) + FUZZ);
        let (ay0, ay1) = (a[1].min(b[1]) - FUZZ, a[1].max(b[1]) + FUZZ);
        for j in i + 2..l {
            let j1 = (j + 1) % l;
            if j1 == i {
                continue; // adjacent through the wrap
            }
            let (c, d) = (wf[j], wf[j1]);
            if c[0].max(d[0]) < ax0
                || c[0].min(d[0]) > ax1
                || c[1].max(d[1]) < ay0
                || c[1].min(d[1]) > ay1
            {
                continue;
            }
            let (pa, pb, pc, pd) = (&w[i].p, &w[i1].p, &w[j].p, &w[j1].p);
            let o1 = orient_f(pa, pb, pc, a, b, c);
            let o2 = orient_f(pa, pb, pd, a, b, d);
            if o1 * o2 > 0 {
                continue;
            }
            let o3 = orient_f(pc, pd, pa, c, d, a);
            let o4 = orient_f(pc, pd, pb, c, d, b);
            if o1 * o2 < 0 && o3 * o4 < 0 {
                return None; // strong intersection
            }
            if o1 == 0 && strictly_inside(pc, pa, pb, &w[i].d) {
                ins.push((i, j));
            }
            if o2 == 0 && strictly_inside(pd, pa, pb, &w[i].d) {
                ins.push((i, j1));
            }
            if o3 == 0 && strictly_inside(pa, pc, pd, &w[j].d) {
                ins.push((j, i));
            }
            if o4 == 0 && strictly_inside(pb, pc, pd, &w[j].d) {
                ins.push((j, i1));
            }
        }
    }
    let w = if ins.is_empty() {
        w
    } else {
        let mut out = Vec::with_capacity(l + ins.len());
        for i in 0..l {
            out.push(w[i].clone());
            let mut here: Vec<(S, usize)> = ins
                .iter()
                .filter(|(e, _)| *e == i)
                .map(|&(_, x)| (w[x].p.sub(&w[i].p).dot(&w[(i + 1) % l].p.sub(&w[i].p)), x))
                .collect();
            if here.is_empty() {
                continue;
            }
            here.sort_by(|a, b| a.0.cmp_s(&b.0));
            here.dedup_by(|a, b| a.1 == b.1 || w[a.1].p.same(&w[b.1].p));
            for (_, x) in here {
                out.push(V {
                    p: w[x].p.clone(),
                    d: w[i].d.clone(),
                    f: w[x].f,
                });
            }
        }
        out
    };
    // Repeated points?
    let l = w.len();
    let mut repeated = false;
    'outer: for i in 0..l {
        for j in i + 1..l {
            if w[i].p.same(&w[j].p) {
                repeated = true;
                break 'outer;
            }
        }
    }
    if !repeated {
        // One simple loop; its signed area is -(area(P) - area(Q)) < 0.
        return Some(vec![Poly::new(w, rest)]);
    }
    // The same side walked twice in the same direction: the piece lies
    // outside along it.
    for i in 0..l {
        for j in i + 1..l {
            if w[i].p.same(&w[j].p) && w[(i + 1) % l].p.same(&w[(j + 1) % l].p) {
                return None;
            }
        }
    }
    // Split at repeated points.
    let mut loops: Vec<Vec<V<S>>> = Vec::new();
    let mut stack: Vec<V<S>> = Vec::with_capacity(l);
    for x in w {
        if let Some(s) = stack.iter().position(|y| y.p.same(&x.p)) {
            let lp = stack.split_off(s);
            loops.push(lp);
        }
        stack.push(x);
    }
    loops.push(stack);
    let mut out = Vec::new();
    for mut lp in loops {
        sigma(&mut lp);
        if lp.is_empty() {
            continue;
        }
        let pts: Vec<Pt<S>> = lp.iter().map(|x| x.p.clone()).collect();
        let a2 = area2(&pts);
        if a2.signum() >= 0 {
            return None; // counter-clockwise: the piece sticks out
        }
        out.push(Poly::new(lp, a2.neg().half()));
    }
    Some(out)
}

/// Orientation with a float filter: the float value decides when it is far
/// from zero compared with the coordinates' size.
#[inline]
fn orient_f<S: Scalar>(
    a: &Pt<S>,
    b: &Pt<S>,
    c: &Pt<S>,
    af: [f64; 2],
    bf: [f64; 2],
    cf: [f64; 2],
) -> i8 {
    let v = (bf[0] - af[0]) * (cf[1] - af[1]) - (bf[1] - af[1]) * (cf[0] - af[0]);
    let m = af[0]
        .abs()
        .max(af[1].abs())
        .max(bf[0].abs())
        .max(bf[1].abs())
        .max(cf[0].abs())
        .max(cf[1].abs())
        + 1.0;
    if S::EXACT && v.abs() > 1e-9 * m * m {
        return if v > 0.0 { 1 } else { -1 };
    }
    crate::geom::orient(a, b, c)
}

/// `p` (collinear with `a→b`, direction `d`) lies strictly between a and b.
fn strictly_inside<S: Scalar>(p: &Pt<S>, a: &Pt<S>, b: &Pt<S>, _d: &Pt<S>) -> bool {
    let ab = b.sub(a);
    let t = p.sub(a).dot(&ab);
    if t.signum() <= 0 {
        return false;
    }
    t.cmp_s(&ab.dot(&ab)) == Ordering::Less
}

/// Lynning's σ on a closed walk: drop repeated points and points on a line
/// through their neighbours, until none is left. A walk of fewer than three
/// points is the nil polygon (emptied).
fn sigma<S: Scalar>(w: &mut Vec<V<S>>) {
    // Collinearity is tested on the corners (rational on lattice puzzles)
    // rather than on the unit directions (which carry square roots).
    loop {
        let mut changed = false;
        let mut i = 0;
        while i < w.len() {
            let n = w.len();
            if n < 3 {
                w.clear();
                return;
            }
            let nx = (i + 1) % n;
            if w[i].p.same(&w[nx].p) {
                // Zero-length side: the previous side now ends at w[nx].
                w.remove(i);
                changed = true;
                i = i.saturating_sub(1);
                continue;
            }
            let pv = (i + n - 1) % n;
            if !w[pv].p.same(&w[i].p)
                && orient_f(&w[pv].p, &w[i].p, &w[nx].p, w[pv].f, w[i].f, w[nx].f) == 0
            {
                // Straight through, or a spike: the side from pv now runs to nx.
                let back = w[i].p.sub(&w[pv].p);
                let straight = back.dot(&w[nx].p.sub(&w[i].p)).signum() > 0;
                if !straight && w[nx].p.sub(&w[pv].p).dot(&back).signum() < 0 {
                    w[pv].d = w[pv].d.neg();
                }
                w.remove(i);
                changed = true;
                i = i.saturating_sub(1);
                continue;
            }
            i += 1;
        }
        if !changed {
            break;
        }
    }
    if w.len() < 3 {
        w.clear();
    }
}

impl<S: Scalar> Tree for Solver<S> {
    type Solution = [Placement<S>];

    fn node(&mut self, path: &[u32]) -> Result<NodeKind, NoSuchNode> {
        crate::num::take_overflow();
        let region = self.descend(path)?;
        match self.status(&region) {
            Status::Dead => Ok(NodeKind::DeadEnd),
            Status::Leaf => Ok(NodeKind::Solution(self.leaf())),
            Status::Open => {
                let kids = self.children(&region);
                Ok(if kids.is_empty() {
                    NodeKind::DeadEnd
                } else {
                    NodeKind::Inner(kids.len() as u32)
                })
            }
        }
    }

    fn explore(
        &mut self,
        path: &[u32],
        sink: &mut dyn Sink<[Placement<S>]>,
        ticker: &mut Ticker<'_>,
        stats: &mut NodeStats,
    ) -> Result<ControlFlow<()>, NoSuchNode> {
        crate::num::take_overflow();
        let region = self.descend(path)?;
        if S::EXACT && S::lost() {
            self.prep.overflow.store(true, AtomicOrdering::Relaxed);
            crate::num::take_overflow();
            return Ok(ControlFlow::Break(()));
        }
        let base = path.len();
        let r = self.dfs(&region, base, base, sink, ticker);
        // Overflow in a dead-end test or a leaf's symmetry check shows only
        // here: the counts may be wrong, so the search counts as stopped.
        let r = if S::EXACT && crate::num::take_overflow() {
            self.prep.overflow.store(true, AtomicOrdering::Relaxed);
            Err(Stop)
        } else {
            r
        };
        let nodes = std::mem::take(&mut self.since_poll);
        let _ = ticker.poll(nodes, || 1.0);
        stats.add_profile(0, &self.counts);
        self.counts.iter_mut().for_each(|c| *c = 0);
        Ok(match r {
            Ok(_) => ControlFlow::Continue(()),
            Err(Stop) => ControlFlow::Break(()),
        })
    }
}
