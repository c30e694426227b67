//! What the geometry asks of a number type, for the exact [`Num`] and the
//! floating-point [`Approx`].

use super::field::Num;
use super::overflowed;
use super::rational::Q;
use std::cmp::Ordering;
use std::fmt;

/// What the geometry needs from a number type: exact [`Num`] or the
/// approximate [`Approx`].
pub trait Scalar: Clone + fmt::Debug + fmt::Display + PartialEq + Send + Sync + 'static {
    /// True for exact types.
    const EXACT: bool;
    /// Zero.
    fn zero() -> Self;
    /// An integer.
    fn int(n: i64) -> Self;
    /// From an exact number.
    fn from_num(n: &Num) -> Self;
    /// Sum.
    fn add(&self, o: &Self) -> Self;
    /// Difference.
    fn sub(&self, o: &Self) -> Self;
    /// Product.
    fn mul(&self, o: &Self) -> Self;
    /// Negation.
    fn neg(&self) -> Self;
    /// `a·b + c·d`, or `a·b − c·d` with `minus` (dot, cross and complex
    /// products), which an exact type may compute in one step.
    #[inline]
    fn mul_add2(a: &Self, b: &Self, c: &Self, d: &Self, minus: bool) -> Self {
        let cd = c.mul(d);
        if minus {
            a.mul(b).sub(&cd)
        } else {
            a.mul(b).add(&cd)
        }
    }
    /// Half.
    fn half(&self) -> Self;
    /// -1, 0 or 1 (exact, or within the tolerance for approximate numbers).
    fn signum(&self) -> i8;
    /// Nearest float.
    fn to_f64(&self) -> f64;
    /// The square root, when it is representable.
    fn sqrt(&self) -> Option<Self>;
    /// The reciprocal (`None` for zero).
    fn recip(&self) -> Option<Self>;
    /// Feeds a hashable image of the number into `out` (for memo keys).
    fn key(&self, out: &mut Vec<i128>);
    /// The exact number, for exact types.
    fn as_num(&self) -> Option<&Num> {
        None
    }
    /// The value as an integer, when it is one exactly (exact types only).
    fn as_int(&self) -> Option<i128> {
        None
    }
    /// True when zero (exact, or within the tolerance).
    #[inline]
    fn is_zero(&self) -> bool {
        self.signum() == 0
    }
    /// Comparison (exact, or within the tolerance).
    fn cmp_s(&self, o: &Self) -> Ordering {
        self.sub(o).signum().cmp(&0)
    }
    /// True when the last operations on this thread lost exactness.
    fn lost() -> bool {
        false
    }
}

impl Scalar for Num {
    const EXACT: bool = true;
    fn zero() -> Self {
        Num::ZERO
    }
    fn int(n: i64) -> Self {
        Num::int(n)
    }
    fn from_num(n: &Num) -> Self {
        n.clone()
    }
    #[inline]
    fn add(&self, o: &Self) -> Self {
        Num::add(self, o)
    }
    #[inline]
    fn sub(&self, o: &Self) -> Self {
        Num::sub(self, o)
    }
    #[inline]
    fn mul(&self, o: &Self) -> Self {
        Num::mul(self, o)
    }
    #[inline]
    fn neg(&self) -> Self {
        Num::neg(self)
    }
    #[inline]
    fn mul_add2(a: &Self, b: &Self, c: &Self, d: &Self, minus: bool) -> Self {
        Num::mul_add2(a, b, c, d, minus)
    }
    fn half(&self) -> Self {
        self.scale(Q::new(1, 2))
    }
    #[inline]
    fn signum(&self) -> i8 {
        Num::signum(self)
    }
    #[inline]
    fn is_zero(&self) -> bool {
        Num::is_zero(self)
    }
    fn to_f64(&self) -> f64 {
        Num::to_f64(self)
    }
    fn sqrt(&self) -> Option<Self> {
        Num::sqrt(self)
    }
    fn recip(&self) -> Option<Self> {
        Num::recip(self)
    }
    fn key(&self, out: &mut Vec<i128>) {
        match self {
            Num::R(q) => {
                out.push(q.n);
                out.push(q.d);
            }
            Num::P(_) | Num::X(_) => self.with_terms(|t| {
                out.push(-(t.len() as i128) - 1);
                for x in t {
                    out.push(x.rad as i128);
                    out.push(x.c.n);
                    out.push(x.c.d);
                }
            }),
        }
    }
    fn cmp_s(&self, o: &Self) -> Ordering {
        self.cmp_num(o)
    }
    fn lost() -> bool {
        overflowed()
    }
    fn as_num(&self) -> Option<&Num> {
        Some(self)
    }
    fn as_int(&self) -> Option<i128> {
        match self {
            Num::R(q) if q.d == 1 => Some(q.n),
            _ => None,
        }
    }
}

/// A float with a tolerance, for puzzles whose angles leave every exact
/// number system jigsolve supports. Two values closer than
/// [`Approx::TOLERANCE`] (relative to the puzzle's scale, which parsing
/// normalises to about 1..100) compare equal.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Approx(pub f64);

impl Approx {
    /// Values within this distance are equal.
    pub const TOLERANCE: f64 = 1e-7;
}

impl fmt::Display for Approx {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl Scalar for Approx {
    const EXACT: bool = false;
    fn zero() -> Self {
        Approx(0.0)
    }
    fn int(n: i64) -> Self {
        Approx(n as f64)
    }
    fn from_num(n: &Num) -> Self {
        Approx(n.to_f64())
    }
    fn add(&self, o: &Self) -> Self {
        Approx(self.0 + o.0)
    }
    fn sub(&self, o: &Self) -> Self {
        Approx(self.0 - o.0)
    }
    fn mul(&self, o: &Self) -> Self {
        Approx(self.0 * o.0)
    }
    fn neg(&self) -> Self {
        Approx(-self.0)
    }
    fn half(&self) -> Self {
        Approx(self.0 * 0.5)
    }
    fn signum(&self) -> i8 {
        if self.0 > Self::TOLERANCE {
            1
        } else if self.0 < -Self::TOLERANCE {
            -1
        } else {
            0
        }
    }
    fn to_f64(&self) -> f64 {
        self.0
    }
    fn sqrt(&self) -> Option<Self> {
        (self.0 >= -Self::TOLERANCE).then(|| Approx(self.0.max(0.0).sqrt()))
    }
    fn recip(&self) -> Option<Self> {
        (self.0 != 0.0).then(|| Approx(1.0 / self.0))
    }
    fn key(&self, out: &mut Vec<i128>) {
        // Quantised: equal regions usually land on the same key; a miss only
        // costs a search, a false hit needs two regions closer than 1e-5.
        out.push((self.0 * 1e5).round() as i128);
    }
}
