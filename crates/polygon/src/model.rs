//! A polygonal jigsaw: a region made of one or more polygons, and pieces.
//!
//! Orientation is normalised on the way in, as Lynning does: region polygons
//! clockwise, pieces counter-clockwise (y pointing up; a file written with y
//! pointing down is the mirror image of the same puzzle, region and pieces
//! alike, which changes no count).

use crate::geom::{area2, check_simple, locate, segments_meet, tidy, Inside, NotSimple, Pt};
use crate::num::{Num, Scalar};
use crate::symmetry::Iso;

/// One piece (copies are listed separately, each with its own name).
#[derive(Clone, Debug, PartialEq)]
pub struct Piece {
    /// The name as written, with `#k` appended for the k-th of several copies.
    pub name: String,
    /// Vertices, counter-clockwise.
    pub vertices: Vec<Pt<Num>>,
    /// May be turned over.
    pub flip: bool,
    /// Line of the piece in its file (0 when not from a file).
    pub line: usize,
}

/// A puzzle.
#[derive(Clone, Debug, PartialEq)]
pub struct Puzzle {
    /// Its name.
    pub name: String,
    /// The region: polygons, each clockwise.
    pub region: Vec<Vec<Pt<Num>>>,
    /// The pieces.
    pub pieces: Vec<Piece>,
}

/// What is wrong with a puzzle (the parser adds file and line).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ModelError {
    /// A polygon that is not simple or has no area.
    #[error("{what} is not a simple polygon: {why}")]
    NotSimple {
        /// "piece A", "region polygon 2".
        what: String,
        /// Why.
        why: String,
    },
    /// A polygon with more corners than the stated limit.
    #[error("{what} has {corners} corners; at most {MAX_CORNERS} are supported")]
    TooManyCorners {
        /// "piece A", "region polygon 2".
        what: String,
        /// How many it has.
        corners: usize,
    },
    /// Exact arithmetic overflowed while judging a polygon's shape, so it
    /// cannot be judged exactly.
    #[error("{what} cannot be judged exactly: its coordinates are too fine or too large for exact arithmetic (a product of two of them needs more than 128 bits); write them in a coarser unit, for example times 1000")]
    TooFine {
        /// "piece A", "region polygon 2".
        what: String,
    },
    /// Two region polygons overlap or touch other than at a shared corner.
    #[error("region polygons {0} and {1} overlap (they may share corners, nothing more)")]
    RegionOverlap(usize, usize),
    /// No pieces, or no region.
    #[error("{0}")]
    Missing(String),
    /// The pieces' total area differs from the region's.
    #[error("the pieces' total area is {pieces} but the region's is {region}; they must be equal")]
    Area {
        /// Total piece area.
        pieces: String,
        /// Region area.
        region: String,
    },
}

/// Describes why a polygon is not simple.
pub fn not_simple_text(e: &NotSimple, n: usize) -> String {
    match e {
        NotSimple::TooFew => "it has fewer than 3 distinct corners".into(),
        NotSimple::ZeroArea => "its area is zero (all corners on one line)".into(),
        NotSimple::Crossing(i, j) => format!(
            "side {} (corner {} to {}) meets side {} (corner {} to {}): the outline crosses or touches itself",
            i + 1,
            i + 1,
            (i + 1) % n + 1,
            j + 1,
            j + 1,
            (j + 1) % n + 1
        ),
        NotSimple::Repeated(i) => format!("corner {} repeats an earlier corner", i + 1),
    }
}

/// The most corners one polygon (a piece or a region polygon) may have.
/// Checking that an outline does not cross itself compares every pair of
/// sides, so the limit keeps that check (and the engine's work per corner)
/// to a fraction of a second.
pub const MAX_CORNERS: usize = 1_000;

/// Tidies a polygon, checks it is simple, and orients it (`ccw` true for
/// counter-clockwise).
pub fn normalise(poly: &[Pt<Num>], ccw: bool, what: &str) -> Result<Vec<Pt<Num>>, ModelError> {
    if poly.len() > MAX_CORNERS {
        return Err(ModelError::TooManyCorners {
            what: what.to_string(),
            corners: poly.len(),
        });
    }
    // Judged on a clean flag: an overflow here means the orientation tests
    // were not exact, and whatever they said cannot be trusted.
    let earlier = crate::num::take_overflow();
    let mut v = tidy(poly);
    let simple = check_simple(&v);
    if crate::num::take_overflow() {
        return Err(ModelError::TooFine {
            what: what.to_string(),
        });
    }
    if earlier {
        crate::num::flag_overflow();
    }
    simple.map_err(|e| ModelError::NotSimple {
        what: what.to_string(),
        why: not_simple_text(&e, v.len()),
    })?;
    if (area2(&v).signum() > 0) != ccw {
        v.reverse();
    }
    Ok(v)
}

impl Puzzle {
    /// Builds and checks a puzzle: every polygon simple with non-zero area,
    /// region polygons disjoint but for shared corners, and the pieces'
    /// total area equal to the region's. Errors carry the index of the
    /// offending region polygon (`Err((Some(i), _))`) or piece (`Err((None, _))`
    /// with the piece's line inside).
    pub fn new(
        name: String,
        region: Vec<Vec<Pt<Num>>>,
        pieces: Vec<Piece>,
    ) -> Result<Puzzle, (Where, ModelError)> {
        if region.is_empty() {
            return Err((
                Where::Region(0),
                ModelError::Missing("the region has no polygon".into()),
            ));
        }
        if pieces.is_empty() {
            return Err((
                Where::Puzzle,
                ModelError::Missing("there are no pieces".into()),
            ));
        }
        let mut reg = Vec::new();
        for (i, p) in region.iter().enumerate() {
            let what = if region.len() == 1 {
                "the region".to_string()
            } else {
                format!("region polygon {}", i + 1)
            };
            reg.push(normalise(p, false, &what).map_err(|e| (Where::Region(i), e))?);
        }
        for i in 0..reg.len() {
            for j in 0..i {
                if overlap(&reg[i], &reg[j]) {
                    return Err((Where::Region(i), ModelError::RegionOverlap(j + 1, i + 1)));
                }
            }
        }
        let mut ps = Vec::new();
        for (k, p) in pieces.into_iter().enumerate() {
            let v = normalise(&p.vertices, true, &format!("piece {}", p.name))
                .map_err(|e| (Where::Piece(k), e))?;
            ps.push(Piece { vertices: v, ..p });
        }
        let region_area = reg
            .iter()
            .fold(Num::ZERO, |a, p| a.sub(&area2(p)))
            .scale(crate::num::Q::new(1, 2));
        let piece_area = ps
            .iter()
            .fold(Num::ZERO, |a, p| a.add(&area2(&p.vertices)))
            .scale(crate::num::Q::new(1, 2));
        if region_area != piece_area {
            return Err((
                Where::Region(0),
                ModelError::Area {
                    pieces: piece_area.to_string(),
                    region: region_area.to_string(),
                },
            ));
        }
        Ok(Puzzle {
            name,
            region: reg,
            pieces: ps,
        })
    }

    /// The region's area.
    pub fn area(&self) -> Num {
        self.region
            .iter()
            .fold(Num::ZERO, |a, p| a.sub(&area2(p)))
            .scale(crate::num::Q::new(1, 2))
    }
}

/// Which part of a puzzle an error is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Where {
    /// The puzzle as a whole.
    Puzzle,
    /// Region polygon i.
    Region(usize),
    /// Piece i.
    Piece(usize),
}

/// True when two simple polygons share more than corners: a crossing, a
/// corner on the other's side, a shared stretch of side, or one inside the
/// other.
fn overlap<S: Scalar>(a: &[Pt<S>], b: &[Pt<S>]) -> bool {
    let (n, m) = (a.len(), b.len());
    for i in 0..n {
        let (p, q) = (&a[i], &a[(i + 1) % n]);
        for j in 0..m {
            let (r, s) = (&b[j], &b[(j + 1) % m]);
            if !segments_meet(p, q, r, s) {
                continue;
            }
            // Allowed: exactly one shared endpoint, and no other endpoint on
            // the other side (which also catches collinear sides that
            // overlap beyond the shared corner).
            let shared = [(p, r), (p, s), (q, r), (q, s)]
                .iter()
                .filter(|(x, y)| x.same(y))
                .count();
            if shared != 1 {
                return true;
            }
            let touching = [(p, r, s), (q, r, s)]
                .iter()
                .any(|(x, r, s)| !x.same(r) && !x.same(s) && crate::geom::on_segment(x, r, s))
                || [(r, p, q), (s, p, q)]
                    .iter()
                    .any(|(x, p, q)| !x.same(p) && !x.same(q) && crate::geom::on_segment(x, p, q));
            if touching {
                return true;
            }
        }
    }
    let inside = |x: &[Pt<S>], y: &[Pt<S>]| x.iter().any(|p| locate(p, y) == Inside::In);
    // Corners could all be shared or on sides; then test a side midpoint.
    let mid_inside = |x: &[Pt<S>], y: &[Pt<S>]| {
        (0..x.len()).any(|i| {
            let mid = Pt::new(
                x[i].x.add(&x[(i + 1) % x.len()].x).half(),
                x[i].y.add(&x[(i + 1) % x.len()].y).half(),
            );
            locate(&mid, y) == Inside::In
        })
    };
    inside(a, b) || inside(b, a) || mid_inside(a, b) || mid_inside(b, a)
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
