//! An independent check of a solution.
//!
//! Nothing here is shared with the engine's placing, splicing or splitting:
//! the verifier moves each piece by its placement, then checks with plain
//! exact predicates (orientation, point on segment, point in polygon) that
//!
//! 1. every piece is used exactly once, turned by a unit vector, and flipped
//!    only when it may be;
//! 2. the placed pieces' areas add up to the region's area;
//! 3. every placed piece lies inside the region: no side of it crosses a side
//!    of the region, each stretch of its sides between the points where it
//!    meets region corners lies inside the region or along a region side with
//!    the region on the same side, and no region corner lies inside it;
//! 4. no two placed pieces overlap: the same test between each pair, with
//!    "inside" now meaning a collision.
//!
//! Areas add up, pieces lie inside and do not overlap: the pieces cover the
//! region exactly.

use crate::geom::{area2, locate, on_segment, orient, Inside, Pt};
use crate::model::Placement;
use crate::model::Puzzle;
use crate::num::{Num, Scalar};
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;

/// Why a solution is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    /// A piece index outside the puzzle.
    #[error("there is no piece {0}")]
    NoSuchPiece(usize),
    /// A piece placed twice or not at all.
    #[error("piece {name} is placed {times} times; every piece is placed once")]
    Count {
        /// The piece.
        name: String,
        /// Times placed.
        times: usize,
    },
    /// A turn that is not a rotation.
    #[error("piece {0}: its rotation (cos, sin) is not a unit vector")]
    NotUnit(String),
    /// A flip of a piece that may not flip.
    #[error("piece {0} may not be flipped")]
    Flip(String),
    /// Areas do not add up.
    #[error("the placed pieces cover an area of {pieces}, the region has {region}")]
    Area {
        /// Sum of piece areas.
        pieces: String,
        /// Region area.
        region: String,
    },
    /// A piece sticking out of the region.
    #[error("piece {0} is not inside the region")]
    Outside(String),
    /// Two pieces overlapping.
    #[error("pieces {0} and {1} overlap")]
    Overlap(String, String),
    /// A vertex list that does not match the placement.
    #[error("piece {0}: the listed vertices are not where its placement puts them")]
    Vertices(String),
    /// A record that cannot be read.
    #[error("{0}")]
    Record(String),
}

fn midpoint<S: Scalar>(a: &Pt<S>, b: &Pt<S>) -> Pt<S> {
    Pt::new(a.x.add(&b.x).half(), a.y.add(&b.y).half())
}

/// True when the open segments `ab` and `cd` cross at one point inside both.
fn proper_cross<S: Scalar>(a: &Pt<S>, b: &Pt<S>, c: &Pt<S>, d: &Pt<S>) -> bool {
    orient(a, b, c) * orient(a, b, d) < 0 && orient(c, d, a) * orient(c, d, b) < 0
}

/// The pieces of side `a → b` between the points of `cuts` that lie on it,
/// as midpoints.
fn stretch_midpoints<S: Scalar>(a: &Pt<S>, b: &Pt<S>, cuts: &[Pt<S>]) -> Vec<Pt<S>> {
    let ab = b.sub(a);
    let len2 = ab.dot(&ab);
    let mut ts: Vec<(S, Pt<S>)> = vec![(S::zero(), a.clone()), (len2.clone(), b.clone())];
    for c in cuts {
        if on_segment(c, a, b) {
            let t = c.sub(a).dot(&ab);
            if t.signum() > 0 && t.cmp_s(&len2) == Ordering::Less {
                ts.push((t, c.clone()));
            }
        }
    }
    ts.sort_by(|x, y| x.0.cmp_s(&y.0));
    ts.windows(2)
        .filter(|w| w[0].0.cmp_s(&w[1].0) != Ordering::Equal)
        .map(|w| midpoint(&w[0].1, &w[1].1))
        .collect()
}

/// Where a point is relative to a union of counter-clockwise polygons, and
/// for boundary points whether a side through it runs in direction `dir`.
enum Near {
    In,
    Out,
    /// On a side running the same way as `dir`.
    Along,
    /// On a side running the other way.
    Against,
}

fn near<S: Scalar>(p: &Pt<S>, dir: &Pt<S>, polys: &[Vec<Pt<S>>]) -> Near {
    for poly in polys {
        match locate(p, poly) {
            Inside::In => return Near::In,
            Inside::Out => continue,
            Inside::On => {
                let n = poly.len();
                for i in 0..n {
                    let (a, b) = (&poly[i], &poly[(i + 1) % n]);
                    if on_segment(p, a, b) && orient(a, b, &p.add(dir)) == 0 {
                        return if b.sub(a).dot(dir).signum() > 0 {
                            Near::Along
                        } else {
                            Near::Against
                        };
                    }
                }
                // On a corner only, crossing the boundary there: the
                // stretch's midpoint is never a corner unless the stretch
                // touches the boundary in a point; treat as outside.
                return Near::Out;
            }
        }
    }
    Near::Out
}

/// True when the interiors of two counter-clockwise simple polygons meet.
pub fn interiors_meet<S: Scalar>(a: &[Pt<S>], b: &[Pt<S>]) -> bool {
    let (n, m) = (a.len(), b.len());
    for i in 0..n {
        for j in 0..m {
            if proper_cross(&a[i], &a[(i + 1) % n], &b[j], &b[(j + 1) % m]) {
                return true;
            }
        }
    }
    for (x, y) in [(a, b), (b, a)] {
        let k = x.len();
        let others = vec![y.to_vec()];
        for i in 0..k {
            let (p, q) = (&x[i], &x[(i + 1) % k]);
            let dir = q.sub(p);
            for mid in stretch_midpoints(p, q, y) {
                match near(&mid, &dir, &others) {
                    Near::In | Near::Along => return true,
                    Near::Out | Near::Against => {}
                }
            }
        }
    }
    false
}

/// True when the counter-clockwise polygon `a` lies inside the union of the
/// counter-clockwise polygons `region` (which meet at most in corners).
pub fn inside_region<S: Scalar>(a: &[Pt<S>], region: &[Vec<Pt<S>>]) -> bool {
    let n = a.len();
    let corners: Vec<Pt<S>> = region.iter().flatten().cloned().collect();
    for poly in region {
        let m = poly.len();
        for i in 0..n {
            for j in 0..m {
                if proper_cross(&a[i], &a[(i + 1) % n], &poly[j], &poly[(j + 1) % m]) {
                    return false;
                }
            }
        }
    }
    for i in 0..n {
        let (p, q) = (&a[i], &a[(i + 1) % n]);
        let dir = q.sub(p);
        for mid in stretch_midpoints(p, q, &corners) {
            match near(&mid, &dir, region) {
                Near::In | Near::Along => {}
                Near::Out | Near::Against => return false,
            }
        }
    }
    !corners.iter().any(|c| locate(c, a) == Inside::In)
}

/// Checks that `placements` tile the puzzle's region.
pub fn verify<S: Scalar>(puzzle: &Puzzle, placements: &[Placement<S>]) -> Result<(), VerifyError> {
    let mut times = vec![0usize; puzzle.pieces.len()];
    for p in placements {
        *times
            .get_mut(p.piece)
            .ok_or(VerifyError::NoSuchPiece(p.piece + 1))? += 1;
    }
    for (i, &t) in times.iter().enumerate() {
        if t != 1 {
            return Err(VerifyError::Count {
                name: puzzle.pieces[i].name.clone(),
                times: t,
            });
        }
    }
    let conv = |p: &Pt<Num>| Pt::new(S::from_num(&p.x), S::from_num(&p.y));
    let mut placed: Vec<(String, Vec<Pt<S>>)> = Vec::new();
    let mut total = S::zero();
    for p in placements {
        let piece = &puzzle.pieces[p.piece];
        if !p.rot.dot(&p.rot).sub(&S::int(1)).is_zero() {
            return Err(VerifyError::NotUnit(piece.name.clone()));
        }
        if p.flipped && !piece.flip {
            return Err(VerifyError::Flip(piece.name.clone()));
        }
        let mut pts: Vec<Pt<S>> = piece
            .vertices
            .iter()
            .map(|v| {
                let v = conv(v);
                let v = if p.flipped { v.conj() } else { v };
                p.rot.cmul(&v).add(&p.shift)
            })
            .collect();
        let a = area2(&pts);
        if a.signum() < 0 {
            pts.reverse();
        }
        total = total.add(&area2(&pts));
        placed.push((piece.name.clone(), pts));
    }
    let region: Vec<Vec<Pt<S>>> = puzzle
        .region
        .iter()
        .map(|poly| {
            let mut v: Vec<Pt<S>> = poly.iter().map(conv).collect();
            if area2(&v).signum() < 0 {
                v.reverse();
            }
            v
        })
        .collect();
    let region_total = region.iter().fold(S::zero(), |acc, p| acc.add(&area2(p)));
    if !total.sub(&region_total).is_zero() {
        return Err(VerifyError::Area {
            pieces: total.half().to_string(),
            region: region_total.half().to_string(),
        });
    }
    for (name, pts) in &placed {
        if !inside_region(pts, &region) {
            return Err(VerifyError::Outside(name.clone()));
        }
    }
    for i in 0..placed.len() {
        for j in 0..i {
            if interiors_meet(&placed[i].1, &placed[j].1) {
                return Err(VerifyError::Overlap(
                    placed[j].0.clone(),
                    placed[i].0.clone(),
                ));
            }
        }
    }
    Ok(())
}

/// A turn as written in a record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RotationRecord {
    /// cos θ, exactly.
    pub cos: String,
    /// sin θ, exactly.
    pub sin: String,
    /// θ in degrees, counter-clockwise (informative; not checked).
    pub degrees: f64,
}

/// One placed piece as written in JSON output.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PieceRecord {
    /// Piece number, from 1, in the order of the file.
    pub piece: usize,
    /// The piece's name.
    pub name: String,
    /// Mirrored in the x axis before turning.
    pub flipped: bool,
    /// The turn.
    pub rotation: RotationRecord,
    /// The shift `[x, y]`.
    pub translation: [String; 2],
    /// The placed corners `[[x, y], ...]` (checked against the placement when given).
    #[serde(default)]
    pub vertices: Vec<[String; 2]>,
}

/// A solution as written in JSON output.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SolutionRecord {
    /// The placed pieces.
    pub pieces: Vec<PieceRecord>,
}

impl SolutionRecord {
    /// The record of a solution.
    pub fn of<S: Scalar>(puzzle: &Puzzle, placements: &[Placement<S>]) -> SolutionRecord {
        SolutionRecord {
            pieces: placements
                .iter()
                .map(|p| PieceRecord {
                    piece: p.piece + 1,
                    name: puzzle.pieces[p.piece].name.clone(),
                    flipped: p.flipped,
                    rotation: RotationRecord {
                        cos: p.rot.x.to_string(),
                        sin: p.rot.y.to_string(),
                        degrees: (p.degrees() * 1e6).round() / 1e6,
                    },
                    translation: [p.shift.x.to_string(), p.shift.y.to_string()],
                    vertices: p
                        .corners(puzzle)
                        .iter()
                        .map(|c| [c.x.to_string(), c.y.to_string()])
                        .collect(),
                })
                .collect(),
        }
    }

    /// The placements of the record, with numbers read by `num` (exact
    /// numbers for exact puzzles). Listed vertices must match.
    pub fn placements<S: Scalar>(
        &self,
        puzzle: &Puzzle,
        num: impl Fn(&str) -> Result<S, String>,
    ) -> Result<Vec<Placement<S>>, VerifyError> {
        let mut out = Vec::new();
        for r in &self.pieces {
            if r.piece == 0 || r.piece > puzzle.pieces.len() {
                return Err(VerifyError::NoSuchPiece(r.piece));
            }
            let n = |s: &str| {
                num(s).map_err(|e| VerifyError::Record(format!("piece {}: {e}", r.piece)))
            };
            let p = Placement {
                piece: r.piece - 1,
                flipped: r.flipped,
                rot: Pt::new(n(&r.rotation.cos)?, n(&r.rotation.sin)?),
                shift: Pt::new(n(&r.translation[0])?, n(&r.translation[1])?),
            };
            if !r.vertices.is_empty() {
                let listed: Result<Vec<Pt<S>>, VerifyError> = r
                    .vertices
                    .iter()
                    .map(|[x, y]| Ok(Pt::new(n(x)?, n(y)?)))
                    .collect();
                let listed = listed?;
                let actual = p.corners(puzzle);
                if listed.len() != actual.len()
                    || !listed.iter().zip(&actual).all(|(a, b)| a.same(b))
                {
                    return Err(VerifyError::Vertices(r.name.clone()));
                }
            }
            out.push(p);
        }
        Ok(out)
    }
}
