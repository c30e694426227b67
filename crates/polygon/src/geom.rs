//! Points, orientation tests and polygon checks, generic over the number type.
//!
//! Everything here is a sign of a polynomial in the coordinates, so with
//! [`Num`](crate::num::Num) every answer is exact.

use crate::num::Scalar;
use std::cmp::Ordering;

/// A point or vector of the plane; also a complex number `x + iy` (a turn is
/// a unit vector, and turning is complex multiplication).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Pt<S> {
    /// x.
    pub x: S,
    /// y.
    pub y: S,
}

impl<S: Scalar> Pt<S> {
    /// A point.
    pub fn new(x: S, y: S) -> Self {
        Pt { x, y }
    }

    /// The origin.
    pub fn zero() -> Self {
        Pt::new(S::zero(), S::zero())
    }

    /// Sum.
    #[inline]
    pub fn add(&self, o: &Self) -> Self {
        Pt::new(self.x.add(&o.x), self.y.add(&o.y))
    }

    /// Difference.
    #[inline]
    pub fn sub(&self, o: &Self) -> Self {
        Pt::new(self.x.sub(&o.x), self.y.sub(&o.y))
    }

    /// Negation.
    pub fn neg(&self) -> Self {
        Pt::new(self.x.neg(), self.y.neg())
    }

    /// Complex product: turns `o` by `self` when `self` is a unit vector.
    #[inline]
    pub fn cmul(&self, o: &Self) -> Self {
        Pt::new(
            S::mul_add2(&self.x, &o.x, &self.y, &o.y, true),
            S::mul_add2(&self.x, &o.y, &self.y, &o.x, false),
        )
    }

    /// Complex conjugate: the mirror image in the x axis.
    pub fn conj(&self) -> Self {
        Pt::new(self.x.clone(), self.y.neg())
    }

    /// Cross product `self × o` (positive when `o` is counter-clockwise of `self`).
    #[inline]
    pub fn cross(&self, o: &Self) -> S {
        S::mul_add2(&self.x, &o.y, &self.y, &o.x, true)
    }

    /// Dot product.
    #[inline]
    pub fn dot(&self, o: &Self) -> S {
        S::mul_add2(&self.x, &o.x, &self.y, &o.y, false)
    }

    /// Equal (exactly, or within the tolerance).
    #[inline]
    pub fn same(&self, o: &Self) -> bool {
        if S::EXACT {
            self == o
        } else {
            self.x.sub(&o.x).is_zero() && self.y.sub(&o.y).is_zero()
        }
    }

    /// The unit vector along `self`, when its length is representable.
    pub fn unit(&self) -> Option<Self> {
        let len = self.dot(self).sqrt()?;
        if len.is_zero() {
            return None;
        }
        let inv = len.recip()?;
        Some(Pt::new(self.x.mul(&inv), self.y.mul(&inv)))
    }

    /// Floats.
    pub fn to_f64(&self) -> [f64; 2] {
        [self.x.to_f64(), self.y.to_f64()]
    }

    /// Lexicographic comparison (x, then y).
    pub fn cmp_xy(&self, o: &Self) -> Ordering {
        self.x.cmp_s(&o.x).then_with(|| self.y.cmp_s(&o.y))
    }
}

/// Sign of the turn a → b → c: 1 counter-clockwise, -1 clockwise, 0 collinear.
#[inline]
pub fn orient<S: Scalar>(a: &Pt<S>, b: &Pt<S>, c: &Pt<S>) -> i8 {
    b.sub(a).cross(&c.sub(a)).signum()
}

/// Twice the signed area (positive for counter-clockwise polygons).
pub fn area2<S: Scalar>(poly: &[Pt<S>]) -> S {
    let n = poly.len();
    let mut acc = S::zero();
    for i in 0..n {
        acc = acc.add(&poly[i].cross(&poly[(i + 1) % n]));
    }
    acc
}

/// True when `p` lies on the closed segment `ab` (which is not a point).
pub fn on_segment<S: Scalar>(p: &Pt<S>, a: &Pt<S>, b: &Pt<S>) -> bool {
    orient(a, b, p) == 0 && {
        let ab = b.sub(a);
        let t = p.sub(a).dot(&ab);
        t.signum() >= 0 && t.cmp_s(&ab.dot(&ab)) != Ordering::Greater
    }
}

/// True when the closed segments `ab` and `cd` share at least one point.
pub fn segments_meet<S: Scalar>(a: &Pt<S>, b: &Pt<S>, c: &Pt<S>, d: &Pt<S>) -> bool {
    let o1 = orient(a, b, c);
    let o2 = orient(a, b, d);
    let o3 = orient(c, d, a);
    let o4 = orient(c, d, b);
    if o1 * o2 < 0 && o3 * o4 < 0 {
        return true;
    }
    (o1 == 0 && on_segment(c, a, b))
        || (o2 == 0 && on_segment(d, a, b))
        || (o3 == 0 && on_segment(a, c, d))
        || (o4 == 0 && on_segment(b, c, d))
}

/// Why a vertex list is not a simple polygon.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotSimple {
    /// Fewer than three distinct corners.
    TooFew,
    /// All vertices on one line (zero area).
    ZeroArea,
    /// Sides `i` and `j` (from 0: side i joins vertex i and i+1) meet.
    Crossing(usize, usize),
    /// Vertex `i` repeats an earlier vertex.
    Repeated(usize),
}

/// Removes repeated consecutive vertices and vertices on a straight line
/// between their neighbours (Lynning's σ on an input polygon).
pub fn tidy<S: Scalar>(poly: &[Pt<S>]) -> Vec<Pt<S>> {
    let mut v: Vec<Pt<S>> = poly.to_vec();
    let mut changed = true;
    while changed && v.len() >= 3 {
        changed = false;
        let n = v.len();
        for i in 0..n {
            let prev = &v[(i + n - 1) % n];
            let next = &v[(i + 1) % n];
            if v[i].same(next) || orient(prev, &v[i], next) == 0 {
                // A straight-through vertex goes; a spike (a -> b -> a)
                // also satisfies orient == 0 and is caught as a crossing
                // later if it is not a plain straight vertex.
                let straight = v[i].same(next) || {
                    let d1 = v[i].sub(prev);
                    let d2 = next.sub(&v[i]);
                    d1.dot(&d2).signum() > 0
                };
                if straight {
                    v.remove(i);
                    changed = true;
                    break;
                }
            }
        }
    }
    v
}

/// Checks that `poly` (already [`tidy`]) is a simple polygon with non-zero area.
pub fn check_simple<S: Scalar>(poly: &[Pt<S>]) -> Result<(), NotSimple> {
    let n = poly.len();
    if n < 3 {
        return Err(NotSimple::TooFew);
    }
    for i in 0..n {
        for j in 0..i {
            if poly[i].same(&poly[j]) {
                return Err(NotSimple::Repeated(i));
            }
        }
    }
    for i in 0..n {
        let (a, b) = (&poly[i], &poly[(i + 1) % n]);
        for j in i + 1..n {
            let (c, d) = (&poly[j], &poly[(j + 1) % n]);
            let adjacent = j == i + 1 || (i == 0 && j == n - 1);
            if adjacent {
                // Adjacent sides share one end; they must not fold back.
                let (shared, p, q) = if j == i + 1 { (b, a, d) } else { (a, b, c) };
                if orient(p, shared, q) == 0 && on_segment(q, shared, p) | on_segment(p, shared, q)
                {
                    return Err(NotSimple::Crossing(i, j));
                }
                continue;
            }
            if segments_meet(a, b, c, d) {
                return Err(NotSimple::Crossing(i, j));
            }
        }
    }
    if area2(poly).is_zero() {
        return Err(NotSimple::ZeroArea);
    }
    Ok(())
}

/// Whether `p` is inside, on the boundary of, or outside the simple polygon
/// `poly` (either orientation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Inside {
    /// Strictly inside.
    In,
    /// On a side.
    On,
    /// Strictly outside.
    Out,
}

/// Point in polygon by crossing parity, exactly.
pub fn locate<S: Scalar>(p: &Pt<S>, poly: &[Pt<S>]) -> Inside {
    let n = poly.len();
    let mut inside = false;
    for i in 0..n {
        let a = &poly[i];
        let b = &poly[(i + 1) % n];
        if on_segment(p, a, b) {
            return Inside::On;
        }
        // Half-open rule on y: count sides that straddle the horizontal
        // line through p, left of... strictly right of p.
        let ay = a.y.cmp_s(&p.y) == Ordering::Greater;
        let by = b.y.cmp_s(&p.y) == Ordering::Greater;
        if ay != by {
            // x of the crossing > p.x  <=>  orient sign relative to direction
            let o = orient(a, b, p);
            // If b is above a (by true), p is left of the upward side when o > 0.
            if (by && o > 0) || (!by && o < 0) {
                inside = !inside;
            }
        }
    }
    if inside {
        Inside::In
    } else {
        Inside::Out
    }
}
