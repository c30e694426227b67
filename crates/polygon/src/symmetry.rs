//! Isometries, congruence of pieces, and the symmetry group of a region.
//!
//! All exact: two polygons are compared by their *signatures*. The signature
//! of a counter-clockwise polygon from corner `i` is the list of its other
//! corners after moving corner `i` to the origin and turning side `i` onto
//! the positive x axis. Turning by a unit direction is multiplication by its
//! conjugate, so signatures are exact, and two polygons are congruent by a
//! rotation exactly when some of their signatures are equal.

use crate::geom::Pt;
use crate::num::Scalar;
use std::cmp::Ordering;

/// An isometry of the plane: `p ↦ w·(p or conj p) + s` with `|w| = 1`.
#[derive(Clone, Debug, PartialEq)]
pub struct Iso<S> {
    /// The turn (a unit vector).
    pub w: Pt<S>,
    /// Mirror first (in the x axis).
    pub mirror: bool,
    /// The shift.
    pub s: Pt<S>,
}

impl<S: Scalar> Iso<S> {
    /// The identity.
    pub fn identity() -> Self {
        Iso {
            w: Pt::new(S::int(1), S::zero()),
            mirror: false,
            s: Pt::zero(),
        }
    }

    /// The image of `p`.
    pub fn apply(&self, p: &Pt<S>) -> Pt<S> {
        let q = if self.mirror { p.conj() } else { p.clone() };
        self.w.cmul(&q).add(&self.s)
    }

    /// The same motion (exactly, or within the tolerance).
    pub fn same(&self, o: &Iso<S>) -> bool {
        self.mirror == o.mirror && self.w.same(&o.w) && self.s.same(&o.s)
    }

    /// `self ∘ h`: first `h`, then `self`.
    pub fn compose(&self, h: &Iso<S>) -> Iso<S> {
        if self.mirror {
            Iso {
                w: self.w.cmul(&h.w.conj()),
                mirror: !h.mirror,
                s: self.w.cmul(&h.s.conj()).add(&self.s),
            }
        } else {
            Iso {
                w: self.w.cmul(&h.w),
                mirror: h.mirror,
                s: self.w.cmul(&h.s).add(&self.s),
            }
        }
    }
}

/// Unit directions of the sides of a polygon (side i joins corner i and i+1).
pub fn directions<S: Scalar>(poly: &[Pt<S>]) -> Option<Vec<Pt<S>>> {
    let n = poly.len();
    (0..n)
        .map(|i| poly[(i + 1) % n].sub(&poly[i]).unit())
        .collect()
}

/// The signature of `poly` from corner `i` (see the module docs).
pub fn signature<S: Scalar>(poly: &[Pt<S>], dirs: &[Pt<S>], i: usize) -> Vec<Pt<S>> {
    let n = poly.len();
    let turn = dirs[i].conj();
    (1..n)
        .map(|j| turn.cmul(&poly[(i + j) % n].sub(&poly[i])))
        .collect()
}

/// Exact lexicographic order of point lists.
pub fn cmp_points<S: Scalar>(a: &[Pt<S>], b: &[Pt<S>]) -> Ordering {
    for (x, y) in a.iter().zip(b) {
        let o = x.cmp_xy(y);
        if o != Ordering::Equal {
            return o;
        }
    }
    a.len().cmp(&b.len())
}

fn same_points<S: Scalar>(a: &[Pt<S>], b: &[Pt<S>]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.same(y))
}

/// The mirror image of a counter-clockwise polygon, counter-clockwise again.
pub fn mirrored<S: Scalar>(poly: &[Pt<S>]) -> Vec<Pt<S>> {
    poly.iter().rev().map(|p| p.conj()).collect()
}

/// The orbits of the corners of `poly` under its own rotations: for each
/// corner, the least corner with the same signature.
pub fn corner_orbits<S: Scalar>(poly: &[Pt<S>], dirs: &[Pt<S>]) -> Vec<usize> {
    let sigs: Vec<Vec<Pt<S>>> = (0..poly.len()).map(|i| signature(poly, dirs, i)).collect();
    (0..poly.len())
        .map(|i| {
            (0..=i)
                .find(|&j| same_points(&sigs[j], &sigs[i]))
                .unwrap_or(i)
        })
        .collect()
}

/// An isometry (a rotation, or a reflection when `allow_mirror`) taking
/// polygon `a` onto polygon `b` (both counter-clockwise), if there is one.
pub fn congruence<S: Scalar>(a: &[Pt<S>], b: &[Pt<S>], allow_mirror: bool) -> Option<Iso<S>> {
    if a.len() != b.len() {
        return None;
    }
    let db = directions(b)?;
    let sb = signature(b, &db, 0);
    for mirror in [false, true] {
        if mirror && !allow_mirror {
            break;
        }
        let src: Vec<Pt<S>> = if mirror { mirrored(a) } else { a.to_vec() };
        let ds = directions(&src)?;
        for i in 0..src.len() {
            if same_points(&signature(&src, &ds, i), &sb) {
                // src corner i -> b corner 0, src side i -> b side 0.
                let w = db[0].cmul(&ds[i].conj());
                let s = b[0].sub(&w.cmul(&src[i]));
                if mirror {
                    // src = conj(a) reversed; as a map of a's points: p ↦ w·conj(p) + s.
                    return Some(Iso { w, mirror: true, s });
                }
                return Some(Iso {
                    w,
                    mirror: false,
                    s,
                });
            }
        }
    }
    None
}

/// Every isometry that maps the region (clockwise polygons) onto itself,
/// the identity first. Reflections only when `mirrors`.
pub fn region_group<S: Scalar>(region: &[Vec<Pt<S>>], mirrors: bool) -> Vec<Iso<S>> {
    let mut out = vec![Iso::identity()];
    let Some(p0) = region.first() else {
        return out;
    };
    let Some(d0) = directions(p0) else {
        return out;
    };
    let a = &p0[0];
    let b = &p0[1];
    let ab = b.sub(a);
    let len2 = ab.dot(&ab);
    for target in region {
        let n = target.len();
        for j in 0..n {
            for mirror in [false, true] {
                if mirror && !mirrors {
                    continue;
                }
                // a -> target[j]; b -> the next corner (or, mirrored, the previous one).
                let tb = if mirror {
                    &target[(j + n - 1) % n]
                } else {
                    &target[(j + 1) % n]
                };
                let tv = tb.sub(&target[j]);
                if !tv.dot(&tv).sub(&len2).is_zero() {
                    continue;
                }
                let Some(te) = tv.unit() else { continue };
                let src = if mirror { d0[0].conj() } else { d0[0].clone() };
                let w = te.cmul(&src.conj());
                let src_a = if mirror { a.conj() } else { a.clone() };
                let s = target[j].sub(&w.cmul(&src_a));
                let g = Iso { w, mirror, s };
                // (Compared with `same`, so that floats within the tolerance
                // count as one motion.)
                if out.iter().any(|h| h.same(&g)) {
                    continue;
                }
                if maps_onto(&g, region) {
                    out.push(g);
                }
            }
        }
    }
    out
}

/// True when `g` maps every polygon of `region` onto one of them (same
/// corners in the same cyclic order, reversed for reflections).
fn maps_onto<S: Scalar>(g: &Iso<S>, region: &[Vec<Pt<S>>]) -> bool {
    region.iter().all(|poly| {
        let mut img: Vec<Pt<S>> = poly.iter().map(|p| g.apply(p)).collect();
        if g.mirror {
            img.reverse();
        }
        region.iter().any(|other| {
            other.len() == img.len()
                && (0..other.len()).any(|r| {
                    img.iter()
                        .enumerate()
                        .all(|(i, p)| p.same(&other[(i + r) % other.len()]))
                })
        })
    })
}
