//! The field: sums of rational multiples of square roots of square-free
//! integers, with exact signs.

use super::overflow;
use super::rational::Q;
use smallvec::SmallVec;
use std::cmp::Ordering;
use std::fmt;

/// One term `c·√rad` (`rad` square-free, `rad = 1` for the rational part).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Term {
    /// The square-free radicand.
    pub rad: u64,
    /// The rational coefficient (never zero inside a [`Num`]).
    pub c: Q,
}

/// An exact real number `Σ cᵢ·√radᵢ`.
///
/// The representation is canonical (terms sorted by radicand, no zero
/// coefficients, a plain rational stored inline, an irrational number stored
/// inline as a [`Pair`] whenever it fits one and boxed only otherwise), so
/// structural equality and hashing are equality and hashing of the numbers.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Num {
    /// A rational number.
    R(Q),
    /// At least one irrational term, at most two terms, every coefficient's
    /// numerator and denominator in 64 bits and every radicand in 32: on
    /// the Stomachion 98% of the irrational numbers, which then cost no
    /// allocation (and the enum stays 48 bytes, as with the box alone).
    P(Pair),
    /// At least one irrational term, not fitting a [`Pair`]; sorted by
    /// radicand.
    X(Box<[Term]>),
}

/// One or two terms of an irrational [`Num`] in narrow integers, sorted by
/// radicand; a single term has `rad[1] == 0` (no radicand is 0) and zeros
/// in its second place, so that equal numbers have equal pairs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pair {
    n: [i64; 2],
    d: [i64; 2],
    rad: [u32; 2],
}

impl Pair {
    /// The pair holding `t` (canonical terms: sorted, merged, non-zero, at
    /// least one irrational), when they fit.
    #[inline]
    fn pack(t: &[Term]) -> Option<Pair> {
        let narrow = |x: &Term| -> Option<(i64, i64, u32)> {
            Some((
                i64::try_from(x.c.n).ok()?,
                i64::try_from(x.c.d).ok()?,
                u32::try_from(x.rad).ok()?,
            ))
        };
        match t {
            [x] => {
                let (n, d, rad) = narrow(x)?;
                Some(Pair {
                    n: [n, 0],
                    d: [d, 0],
                    rad: [rad, 0],
                })
            }
            [x, y] => {
                let (n0, d0, r0) = narrow(x)?;
                let (n1, d1, r1) = narrow(y)?;
                Some(Pair {
                    n: [n0, n1],
                    d: [d0, d1],
                    rad: [r0, r1],
                })
            }
            _ => None,
        }
    }

    /// The number of terms (1 or 2).
    #[inline]
    fn len(&self) -> usize {
        1 + (self.rad[1] != 0) as usize
    }

    /// The terms in the wide form (the first [`Pair::len`] of them count).
    #[inline]
    fn unpack(&self) -> [Term; 2] {
        let t = |i: usize| Term {
            rad: self.rad[i] as u64,
            c: Q {
                n: self.n[i] as i128,
                d: self.d[i] as i128,
            },
        };
        [t(0), t(1)]
    }
}

impl Default for Num {
    fn default() -> Self {
        Num::R(Q::ZERO)
    }
}

#[allow(clippy::should_implement_trait)]
impl Num {
    /// Zero.
    pub const ZERO: Num = Num::R(Q::ZERO);
    /// One.
    pub const ONE: Num = Num::R(Q::ONE);

    /// An integer.
    pub fn int(n: i64) -> Num {
        Num::R(Q::int(n as i128))
    }

    /// A fraction.
    pub fn frac(n: i64, d: i64) -> Num {
        Num::R(Q::new(n as i128, d as i128))
    }

    /// `c·√m` for any positive integer `m` (its square part is taken out).
    pub fn sqrt_int(c: Q, m: u64) -> Option<Num> {
        let (s, r) = square_part(m as u128)?;
        let c = c.mul(Q::int(s as i128));
        Some(Num::from_terms(vec![Term { rad: r as u64, c }]))
    }

    /// The terms, the rational part first.
    pub fn terms(&self) -> Vec<Term> {
        match self {
            Num::R(q) if q.n == 0 => Vec::new(),
            Num::R(q) => vec![Term { rad: 1, c: *q }],
            Num::P(_) | Num::X(_) => self.with_terms(|t| t.to_vec()),
        }
    }

    /// Calls `f` with the terms, sorted by radicand (the rational part, if
    /// any, first), without allocating as [`Num::terms`] does.
    #[inline]
    pub fn with_terms<R>(&self, f: impl FnOnce(&[Term]) -> R) -> R {
        match self {
            Num::R(q) if q.n == 0 => f(&[]),
            Num::R(q) => f(&[Term { rad: 1, c: *q }]),
            Num::P(p) => f(&p.unpack()[..p.len()]),
            Num::X(t) => f(t),
        }
    }

    /// Builds a number from terms in any order (equal radicands are added).
    pub fn from_terms(mut t: Vec<Term>) -> Num {
        Num::merged(&mut t)
    }

    /// The number whose terms, in any order, are `t` (reordered in place).
    fn merged(t: &mut [Term]) -> Num {
        t.sort_unstable_by_key(|x| x.rad);
        let mut kept = 0;
        for i in 0..t.len() {
            if kept > 0 && t[kept - 1].rad == t[i].rad {
                t[kept - 1].c = t[kept - 1].c.add(t[i].c);
            } else {
                t[kept] = t[i];
                kept += 1;
            }
        }
        let mut nonzero = 0;
        for i in 0..kept {
            if t[i].c.n != 0 {
                t[nonzero] = t[i];
                nonzero += 1;
            }
        }
        Num::canonical(&t[..nonzero])
    }

    /// The number of terms already sorted, merged and non-zero; the one
    /// allocation an irrational result costs is its own box.
    fn canonical(t: &[Term]) -> Num {
        match t {
            [] => Num::ZERO,
            [x] if x.rad == 1 => Num::R(x.c),
            _ => Pair::pack(t).map_or_else(|| Num::X(t.into()), Num::P),
        }
    }

    /// The rational value, if the number is rational.
    pub fn as_rational(&self) -> Option<Q> {
        match self {
            Num::R(q) => Some(*q),
            Num::P(_) | Num::X(_) => None,
        }
    }

    /// True for zero.
    #[inline]
    pub fn is_zero(&self) -> bool {
        matches!(self, Num::R(q) if q.n == 0)
    }

    /// Sum.
    #[inline]
    pub fn add(&self, o: &Num) -> Num {
        if let (Num::R(a), Num::R(b)) = (self, o) {
            return Num::R(a.add(*b));
        }
        self.with_terms(|a| o.with_terms(|b| add_terms(a, b, false)))
    }

    /// Difference.
    #[inline]
    pub fn sub(&self, o: &Num) -> Num {
        if let (Num::R(a), Num::R(b)) = (self, o) {
            return Num::R(a.add(b.neg()));
        }
        self.with_terms(|a| o.with_terms(|b| add_terms(a, b, true)))
    }

    /// Product.
    #[inline]
    pub fn mul(&self, o: &Num) -> Num {
        match (self, o) {
            (Num::R(a), Num::R(b)) => Num::R(a.mul(*b)),
            (Num::R(q), x) | (x, Num::R(q)) => {
                if q.n == 0 {
                    return Num::ZERO;
                }
                if q.d == 1 && q.n.abs() == 1 {
                    return if q.n == 1 { x.clone() } else { x.neg() };
                }
                x.with_terms(|t| {
                    let t: Scratch = t
                        .iter()
                        .map(|x| Term {
                            rad: x.rad,
                            c: x.c.mul(*q),
                        })
                        .collect();
                    Num::canonical(&t)
                })
            }
            _ => self.with_terms(|a| o.with_terms(|b| Num::merged(&mut mul_terms(a, b)))),
        }
    }

    /// `a·b + c·d`, or `a·b − c·d` with `minus`: the four terms of a dot,
    /// cross or complex product meet on the stack, so that only the result
    /// is boxed (three separate operations box both products as well).
    pub fn mul_add2(a: &Num, b: &Num, c: &Num, d: &Num, minus: bool) -> Num {
        if let (Num::R(a), Num::R(b), Num::R(c), Num::R(d)) = (a, b, c, d) {
            let cd = c.mul(*d);
            return Num::R(a.mul(*b).add(if minus { cd.neg() } else { cd }));
        }
        // Sides along the axes and quarter turns make many factors 0: one
        // product then, without the merge of the two.
        if a.is_zero() || b.is_zero() {
            let cd = c.mul(d);
            return if minus { cd.neg() } else { cd };
        }
        if c.is_zero() || d.is_zero() {
            return a.mul(b);
        }
        let mut t = SmallVec::<[Term; 8]>::new();
        a.with_terms(|x| b.with_terms(|y| push_products(x, y, false, &mut t)));
        c.with_terms(|x| d.with_terms(|y| push_products(x, y, minus, &mut t)));
        Num::merged(&mut t)
    }

    /// Product with a rational.
    pub fn scale(&self, q: Q) -> Num {
        self.mul(&Num::R(q))
    }

    /// Negation.
    #[inline]
    pub fn neg(&self) -> Num {
        match self {
            Num::R(q) => Num::R(q.neg()),
            Num::P(p) => Num::P(Pair {
                // A negated 64-bit numerator fits unless it is i64::MIN.
                n: match (p.n[0].checked_neg(), p.n[1].checked_neg()) {
                    (Some(a), Some(b)) => [a, b],
                    _ => return self.with_terms(|t| Num::canonical(&neg_terms(t))),
                },
                ..*p
            }),
            Num::X(t) => Num::canonical(&neg_terms(t)),
        }
    }

    /// -1, 0 or 1, exactly.
    #[inline]
    pub fn signum(&self) -> i8 {
        match self {
            Num::R(q) => q.signum(),
            Num::P(p) if p.len() == 1 => p.n[0].signum() as i8,
            Num::P(_) | Num::X(_) => self.with_terms(sign_terms),
        }
    }

    /// Exact comparison.
    pub fn cmp_num(&self, o: &Num) -> Ordering {
        if let (Num::R(a), Num::R(b)) = (self, o) {
            // a.n/a.d vs b.n/b.d, without overflow for the common small case.
            if a.d == b.d {
                return a.n.cmp(&b.n);
            }
        }
        self.sub(o).signum().cmp(&0)
    }

    /// Nearest float (to within a few units in the last place per term).
    pub fn to_f64(&self) -> f64 {
        match self {
            Num::R(q) => q.to_f64(),
            Num::P(_) | Num::X(_) => {
                self.with_terms(|t| t.iter().map(|x| x.c.to_f64() * (x.rad as f64).sqrt()).sum())
            }
        }
    }

    /// The square root of a non-negative number when it lies in the field: a
    /// rational's root `r·√m` always does; `a + b·√p` does when it denests
    /// (`a² − p·b²` is a rational square). `None` otherwise.
    pub fn sqrt(&self) -> Option<Num> {
        if self.signum() < 0 {
            return None;
        }
        match self {
            Num::R(q) => sqrt_rational(*q),
            Num::P(_) | Num::X(_) => {
                // a + b√p with one radical only.
                let (a, b, p) = self.with_terms(|t| match t {
                    [x] => Some((Q::ZERO, x.c, x.rad)),
                    [x, y] if x.rad == 1 => Some((x.c, y.c, y.rad)),
                    _ => None,
                })?;
                let disc = a.mul(a).add(b.mul(b).mul(Q::int(p as i128)).neg());
                if disc.signum() < 0 {
                    return None;
                }
                let c = sqrt_rational(disc)?.as_rational()?;
                let half = Q::new(1, 2);
                let x1 = sqrt_rational(a.add(c).mul(half))?;
                let x2 = sqrt_rational(a.add(c.neg()).mul(half))?;
                let root = if b.signum() >= 0 {
                    x1.add(&x2)
                } else {
                    x1.sub(&x2)
                };
                let root = if root.signum() < 0 { root.neg() } else { root };
                (root.mul(&root) == *self).then_some(root)
            }
        }
    }

    /// `1/self`, exactly: `1/(A + B√p) = (A − B√p)/(A² − p·B²)`, repeated
    /// until the denominator is rational. `None` for zero.
    pub fn recip(&self) -> Option<Num> {
        match self {
            Num::R(q) if q.n == 0 => None,
            Num::R(q) => Some(Num::R(q.recip())),
            Num::P(_) | Num::X(_) => {
                let t = self.terms();
                let p = t
                    .iter()
                    .rev()
                    .find(|x| x.rad != 1)
                    .map(|x| smallest_prime_factor(x.rad))?;
                let conj: Vec<Term> = t
                    .iter()
                    .map(|x| Term {
                        rad: x.rad,
                        c: if x.rad % p == 0 { x.c.neg() } else { x.c },
                    })
                    .collect();
                let conj = Num::from_terms(conj);
                let den = self.mul(&conj);
                Some(conj.mul(&den.recip()?))
            }
        }
    }

    /// The square-free radicands used (1 excluded).
    pub fn radicands(&self) -> Vec<u64> {
        self.terms()
            .into_iter()
            .filter(|t| t.rad != 1)
            .map(|t| t.rad)
            .collect()
    }
}

/// The terms of an intermediate result: on the stack while there are few
/// (four terms: a field with two radicals has that many; larger sums and
/// products spill to the heap, which measured slower when made the rule), so
/// that an operation on irrationals allocates only the result's box.
type Scratch = SmallVec<[Term; 4]>;

fn neg_terms(t: &[Term]) -> Scratch {
    t.iter()
        .map(|x| Term {
            rad: x.rad,
            c: x.c.neg(),
        })
        .collect()
}

/// The sum (or difference) of two numbers' terms, as a number: the terms
/// meet in a scratch buffer that stays in this frame (returned, its 200
/// bytes were copied out on every sum).
fn add_terms(a: &[Term], b: &[Term], negate_b: bool) -> Num {
    let mut out = Scratch::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    let nb = |x: &Term| if negate_b { x.c.neg() } else { x.c };
    while i < a.len() || j < b.len() {
        if j == b.len() || (i < a.len() && a[i].rad < b[j].rad) {
            out.push(a[i]);
            i += 1;
        } else if i == a.len() || b[j].rad < a[i].rad {
            out.push(Term {
                rad: b[j].rad,
                c: nb(&b[j]),
            });
            j += 1;
        } else {
            let c = a[i].c.add(nb(&b[j]));
            if c.n != 0 {
                out.push(Term { rad: a[i].rad, c });
            }
            i += 1;
            j += 1;
        }
    }
    Num::canonical(&out)
}

fn gcd_u64(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

fn mul_terms(a: &[Term], b: &[Term]) -> Scratch {
    let mut out = Scratch::with_capacity(a.len() * b.len());
    push_products(a, b, false, &mut out);
    out
}

/// Appends the terms of `a·b` (negated with `negate`), unmerged.
fn push_products<A: smallvec::Array<Item = Term>>(
    a: &[Term],
    b: &[Term],
    negate: bool,
    out: &mut SmallVec<A>,
) {
    for x in a {
        for y in b {
            // Most products have a rational factor: nothing to reduce.
            if x.rad == 1 || y.rad == 1 {
                let c = x.c.mul(y.c);
                out.push(Term {
                    rad: x.rad * y.rad,
                    c: if negate { c.neg() } else { c },
                });
                continue;
            }
            // √r·√s = g·√(r/g · s/g) with g = gcd(r, s), both square-free.
            let g = gcd_u64(x.rad, y.rad);
            // On overflow (flagged) any radicand keeps the term well
            // formed; 0 would make the next gcd 0 and a division fail.
            let rad = (x.rad / g).checked_mul(y.rad / g).unwrap_or_else(|| {
                overflow();
                1
            });
            let c = x.c.mul(y.c);
            let c = if g == 1 { c } else { c.mul(Q::int(g as i128)) };
            out.push(Term {
                rad,
                c: if negate { c.neg() } else { c },
            });
        }
    }
}

fn smallest_prime_factor(n: u64) -> u64 {
    if n % 2 == 0 {
        return 2;
    }
    let mut p = 3;
    while p * p <= n {
        if n % p == 0 {
            return p;
        }
        p += 2;
    }
    n
}

fn sign_terms(t: &[Term]) -> i8 {
    match t {
        [] => return 0,
        [x] => return x.c.signum(),
        _ => {}
    }
    // Float filter: each term is off by a few ulps of its magnitude.
    let mut value = 0.0f64;
    let mut magnitude = 0.0f64;
    for x in t {
        let v = x.c.to_f64() * (x.rad as f64).sqrt();
        value += v;
        magnitude += v.abs();
    }
    if value.abs() > magnitude * 1e-12 {
        return if value > 0.0 { 1 } else { -1 };
    }
    // Exact: x = A + B√p.
    let p = t
        .iter()
        .rev()
        .find(|x| x.rad != 1)
        .map(|x| smallest_prime_factor(x.rad))
        .unwrap_or(1);
    let mut a = Scratch::new();
    let mut b = Scratch::new();
    for x in t {
        if x.rad % p == 0 {
            b.push(Term {
                rad: x.rad / p,
                c: x.c,
            });
        } else {
            a.push(*x);
        }
    }
    b.sort_by_key(|x| x.rad);
    let sa = sign_terms(&a);
    let sb = sign_terms(&b);
    if sb == 0 {
        return sa;
    }
    if sa == 0 || sa == sb {
        return sb;
    }
    let a2 = Num::merged(&mut mul_terms(&a, &a));
    let pb2 = Num::merged(&mut mul_terms(&b, &b)).scale(Q::int(p as i128));
    sa * a2.sub(&pb2).signum()
}

/// `m = s²·r` with `r` square-free; `None` when `m` is too large to factor
/// by trial division quickly.
fn square_part(mut m: u128) -> Option<(u128, u128)> {
    if m == 0 {
        return Some((0, 1));
    }
    let mut s: u128 = 1;
    let mut r: u128 = 1;
    let mut p: u128 = 2;
    while p * p <= m {
        if p > 2_000_000 {
            return None;
        }
        let mut e = 0;
        while m % p == 0 {
            m /= p;
            e += 1;
        }
        for _ in 0..e / 2 {
            s = s.checked_mul(p)?;
        }
        if e % 2 == 1 {
            r = r.checked_mul(p)?;
        }
        p += if p == 2 { 1 } else { 2 };
    }
    r = r.checked_mul(m)?;
    Some((s, r))
}

/// √q for a rational `q ≥ 0`, as `(s/d)·√r`.
pub fn sqrt_rational(q: Q) -> Option<Num> {
    if q.n < 0 {
        return None;
    }
    if q.n == 0 {
        return Some(Num::ZERO);
    }
    // √(n/d) = √(n·d)/d
    let m = (q.n as u128).checked_mul(q.d as u128)?;
    let (s, r) = square_part(m)?;
    let c = Q::new(i128::try_from(s).ok()?, q.d);
    let r = u64::try_from(r).ok()?;
    Some(Num::canonical(&[Term { rad: r, c }]))
}

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let terms = self.terms();
        if terms.is_empty() {
            return f.write_str("0");
        }
        for (i, t) in terms.iter().enumerate() {
            let neg = t.c.signum() < 0;
            let c = if neg { t.c.neg() } else { t.c };
            if i == 0 {
                if neg {
                    f.write_str("-")?;
                }
            } else {
                f.write_str(if neg { " - " } else { " + " })?;
            }
            if t.rad == 1 {
                write!(f, "{c}")?;
            } else if c == Q::ONE {
                write!(f, "sqrt{}", t.rad)?;
            } else if c.n == 1 {
                write!(f, "sqrt{}/{}", t.rad, c.d)?;
            } else {
                write!(f, "{c}*sqrt{}", t.rad)?;
            }
        }
        Ok(())
    }
}
