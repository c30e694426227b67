//! Rationals `n/d` over `i128`, every operation checked: an overflow
//! raises the thread's flag and gives a well-formed number.

use super::overflow;
use std::fmt;

#[inline]
pub(super) fn cmul(a: i128, b: i128) -> i128 {
    a.checked_mul(b).unwrap_or_else(overflow)
}

#[inline]
pub(super) fn cadd(a: i128, b: i128) -> i128 {
    a.checked_add(b).unwrap_or_else(overflow)
}

pub(super) fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    // Coefficients are almost always small: 128-bit division is a library
    // call, ten times a 64-bit one, and the binary gcd needs none.
    if a <= u64::MAX as u128 && b <= u64::MAX as u128 {
        return gcd_u64(a as u64, b as u64) as i128;
    }
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    i128::try_from(a).unwrap_or_else(|_| overflow())
}

/// Stein's binary gcd.
#[inline]
fn gcd_u64(a: u64, b: u64) -> u64 {
    // Most denominators met are 1 or equal (sums of coordinates over one
    // denominator): no loop for those.
    if a == 1 || b == 1 {
        return 1;
    }
    if a == b || b == 0 {
        return a;
    }
    if a == 0 {
        return b;
    }
    gcd_loop(a, b)
}

fn gcd_loop(mut a: u64, mut b: u64) -> u64 {
    let shift = (a | b).trailing_zeros();
    a >>= a.trailing_zeros();
    loop {
        b >>= b.trailing_zeros();
        if a > b {
            std::mem::swap(&mut a, &mut b);
        }
        b -= a;
        if b == 0 {
            return a << shift;
        }
    }
}

/// `a / b` in 64 bits when both fit (the common case; see [`gcd`]).
#[inline]
fn div(a: i128, b: i128) -> i128 {
    match (i64::try_from(a), i64::try_from(b)) {
        (Ok(x), Ok(y)) if y > 0 => (x / y) as i128,
        _ => a / b,
    }
}

/// The four values in 64 bits, when they all fit (the common case).
#[inline]
fn small(v: [i128; 4]) -> Option<[i64; 4]> {
    let [a, b, c, d] = v;
    Some([
        i64::try_from(a).ok()?,
        i64::try_from(b).ok()?,
        i64::try_from(c).ok()?,
        i64::try_from(d).ok()?,
    ])
}

/// A rational number `n/d` in lowest terms with `d > 0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Q {
    pub(super) n: i128,
    pub(super) d: i128,
}

// Named methods rather than operators: every one may set the overflow flag,
// and a reader should see where exact arithmetic happens.
#[allow(clippy::should_implement_trait)]
impl Q {
    /// Zero.
    pub const ZERO: Q = Q { n: 0, d: 1 };
    /// One.
    pub const ONE: Q = Q { n: 1, d: 1 };

    /// `n/d` reduced; `d` must not be zero (a zero denominator gives zero and
    /// sets the overflow flag, so nothing panics).
    pub fn new(n: i128, d: i128) -> Q {
        if d == 0 {
            overflow();
            return Q::ZERO;
        }
        if n == 0 {
            return Q::ZERO;
        }
        let (mut n, mut d) = if d < 0 {
            let Some(d) = d.checked_neg() else {
                overflow();
                return Q::ZERO;
            };
            (n.checked_neg().unwrap_or_else(overflow), d)
        } else {
            (n, d)
        };
        if d != 1 {
            let g = gcd(n, d);
            if g > 1 {
                n = div(n, g);
                d = div(d, g);
            }
        }
        Q { n, d }
    }

    /// An integer.
    pub const fn int(n: i128) -> Q {
        Q { n, d: 1 }
    }

    /// Numerator.
    pub fn numer(&self) -> i128 {
        self.n
    }

    /// Denominator (positive).
    pub fn denom(&self) -> i128 {
        self.d
    }

    /// Sum.
    #[inline]
    pub fn add(self, o: Q) -> Q {
        // Integers inline; fractions in a call (inlining them everywhere
        // left the whole function out of line).
        if self.d == 1 && o.d == 1 {
            return Q::int(cadd(self.n, o.n));
        }
        self.add_fractions(o)
    }

    #[inline(never)]
    fn add_fractions(self, o: Q) -> Q {
        if let Some([an, ad, bn, bd]) = small([self.n, self.d, o.n, o.d]) {
            // Products of 64-bit values cannot overflow 128 bits, nor can
            // the sum of two of them: no checks needed.
            let g = gcd_u64(ad as u64, bd as u64) as i64;
            let (a, b) = if g == 1 { (ad, bd) } else { (ad / g, bd / g) };
            let n = an as i128 * b as i128 + bn as i128 * a as i128;
            return Q::new(n, a as i128 * bd as i128);
        }
        let g = gcd(self.d, o.d);
        let (a, b) = (div(self.d, g), div(o.d, g));
        Q::new(cadd(cmul(self.n, b), cmul(o.n, a)), cmul(a, o.d))
    }

    /// Product.
    #[inline]
    pub fn mul(self, o: Q) -> Q {
        // Integers inline, in 64 bits when they fit (a checked 128-bit
        // product is a long sequence); fractions in a call.
        if self.d == 1 && o.d == 1 {
            return Q::int(match (i64::try_from(self.n), i64::try_from(o.n)) {
                (Ok(a), Ok(b)) => a as i128 * b as i128,
                _ => cmul(self.n, o.n),
            });
        }
        self.mul_fractions(o)
    }

    #[inline(never)]
    fn mul_fractions(self, o: Q) -> Q {
        if self.n == 0 || o.n == 0 {
            return Q::ZERO;
        }
        if let Some([an, ad, bn, bd]) = small([self.n, self.d, o.n, o.d]) {
            // As below, in 64 bits; the products cannot overflow 128.
            let g1 = gcd_u64(an.unsigned_abs(), bd as u64) as i64;
            let g2 = gcd_u64(bn.unsigned_abs(), ad as u64) as i64;
            // A division is tens of cycles; most gcds here are 1.
            let cut = |x: i64, g: i64| if g == 1 { x } else { x / g };
            return Q {
                n: cut(an, g1) as i128 * cut(bn, g2) as i128,
                d: cut(ad, g2) as i128 * cut(bd, g1) as i128,
            };
        }
        // Cross-reduce first to keep the numbers small.
        let g1 = gcd(self.n, o.d);
        let g2 = gcd(o.n, self.d);
        let d = cmul(div(self.d, g2), div(o.d, g1));
        if d == 0 {
            // The denominator overflowed (the flag is set): keep `d > 0`,
            // as `Q::new` does, so that later operations do not divide by 0.
            return Q::ZERO;
        }
        Q {
            n: cmul(div(self.n, g1), div(o.n, g2)),
            d,
        }
    }

    /// Negation.
    #[inline]
    pub fn neg(self) -> Q {
        Q {
            n: self.n.checked_neg().unwrap_or_else(overflow),
            d: self.d,
        }
    }

    /// `1/self`; zero has none (gives zero and sets the overflow flag).
    pub fn recip(self) -> Q {
        Q::new(self.d, self.n)
    }

    /// -1, 0 or 1.
    pub fn signum(self) -> i8 {
        self.n.signum() as i8
    }

    /// Nearest float.
    pub fn to_f64(self) -> f64 {
        if let (Ok(n), Ok(d)) = (i64::try_from(self.n), i64::try_from(self.d)) {
            return n as f64 / d as f64;
        }
        self.n as f64 / self.d as f64
    }
}

impl fmt::Display for Q {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.d == 1 {
            write!(f, "{}", self.n)
        } else {
            write!(f, "{}/{}", self.n, self.d)
        }
    }
}
