//! Exact numbers against a brute-force reference.
//!
//! The reference knows nothing of the sign algorithm: it brackets each square
//! root between integer square roots at a scale of 10^15, adds the brackets,
//! and reads the sign off the interval. When the interval straddles zero it
//! falls back on linear independence (a sum of distinct square roots of
//! square-free numbers with rational coefficients is zero only when every
//! coefficient is), so it is exact too.

use jigsolve_polygon::num::{Num, Term, Q};
use proptest::prelude::*;

const RADS: [u64; 6] = [1, 2, 3, 5, 6, 13];
const SCALE: i128 = 1_000_000_000_000_000;

fn isqrt(n: i128) -> i128 {
    let mut x = (n as f64).sqrt() as i128;
    while x * x > n {
        x -= 1;
    }
    while (x + 1) * (x + 1) <= n {
        x += 1;
    }
    x
}

/// Sign of Σ cᵢ√mᵢ (integer cᵢ) by interval brackets.
fn reference_sign(coeffs: &[(u64, i64)]) -> i8 {
    let (mut lo, mut hi) = (0i128, 0i128);
    for &(m, c) in coeffs {
        let r = isqrt(m as i128 * SCALE * SCALE); // r <= √m·SCALE < r + 1
        let (a, b) = (c as i128 * r, c as i128 * (r + 1));
        lo += a.min(b);
        hi += a.max(b);
    }
    if lo > 0 {
        1
    } else if hi < 0 {
        -1
    } else if coeffs.iter().all(|&(_, c)| c == 0) {
        0
    } else {
        // The bracket is ~1e-15 wide and the value is not zero; the terms'
        // sizes keep |value| far above that for these small coefficients.
        panic!("reference cannot decide {coeffs:?}");
    }
}

fn num_of(coeffs: &[(u64, i64)]) -> Num {
    Num::from_terms(
        coeffs
            .iter()
            .map(|&(rad, c)| Term {
                rad,
                c: Q::int(c as i128),
            })
            .collect(),
    )
}

fn coeffs() -> impl Strategy<Value = Vec<(u64, i64)>> {
    proptest::collection::vec(-30i64..=30, RADS.len())
        .prop_map(|cs| RADS.iter().copied().zip(cs).collect())
}

proptest! {
    #[test]
    fn signs_match_the_reference(c in coeffs()) {
        prop_assert_eq!(num_of(&c).signum(), reference_sign(&c));
    }

    #[test]
    fn products_match_the_reference(a in coeffs(), b in coeffs()) {
        // Expand the product by hand: √m·√n = √(mn) reduced to square-free.
        let mut terms: Vec<(u64, i64)> = Vec::new();
        for &(m, x) in &a {
            for &(n, y) in &b {
                let mut k = m * n;
                let mut out = 1i64;
                let mut p = 2;
                while p * p <= k {
                    while k % (p * p) == 0 {
                        k /= p * p;
                        out *= p as i64;
                    }
                    p += 1;
                }
                terms.push((k, x * y * out));
            }
        }
        let prod = num_of(&a).mul(&num_of(&b));
        // Compare via the sign of the difference, and by value.
        let expected = Num::from_terms(terms.iter().map(|&(rad, c)| Term { rad, c: Q::int(c as i128) }).collect());
        prop_assert_eq!(&prod, &expected);
        let approx = num_of(&a).to_f64() * num_of(&b).to_f64();
        prop_assert!((prod.to_f64() - approx).abs() <= 1e-9 * (1.0 + approx.abs()));
    }

    #[test]
    fn field_laws(a in coeffs(), b in coeffs(), c in coeffs()) {
        let (a, b, c) = (num_of(&a), num_of(&b), num_of(&c));
        prop_assert_eq!(a.mul(&b.add(&c)), a.mul(&b).add(&a.mul(&c)));
        prop_assert_eq!(a.mul(&b).mul(&c), a.mul(&b.mul(&c)));
        prop_assert_eq!(a.sub(&a), Num::ZERO);
        if !a.is_zero() {
            prop_assert_eq!(a.mul(&a.recip().unwrap()), Num::ONE);
        }
        // Order agrees with subtraction.
        prop_assert_eq!(a.cmp_num(&b), a.sub(&b).signum().cmp(&0));
    }

    #[test]
    fn square_roots_of_squares(x in -40i64..40, y in -40i64..40) {
        // (x + y√2)² always has a square root in Q(√2): |x + y√2|.
        let v = num_of(&[(1, x), (2, y)]);
        let root = v.mul(&v).sqrt().unwrap();
        let abs = if v.signum() < 0 { v.neg() } else { v };
        prop_assert_eq!(root, abs);
    }

    #[test]
    fn parse_print_round_trip(c in coeffs(), d in 1i64..12) {
        let v = num_of(&c).scale(Q::new(1, d as i128));
        let back: Num = v.to_string().parse().unwrap();
        prop_assert_eq!(back, v);
    }
}

#[test]
fn near_misses_are_exact() {
    // Pell-equation approximations of √2 and √5 come within 1e-12.
    let r2 = |p: i64, q: i64| num_of(&[(1, -p), (2, q)]); // q√2 - p
    assert_eq!(r2(665_857, 470_832).signum(), -1); // 665857/470832 > √2
    assert_eq!(r2(1_136_689, 803_761).signum(), 1); // 1136689/803761 < √2
    let r5 = num_of(&[(1, -15_127), (5, 6_765)]); // 6765√5 - 15127 (Fibonacci/Lucas)
    assert_eq!(r5.signum(), -1);
    assert_eq!(reference_sign(&[(1, -15_127), (5, 6_765)]), -1);
}
