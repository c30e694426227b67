use super::*;

fn n(s: &str) -> Num {
    s.parse().unwrap()
}

#[test]
fn parses_and_prints() {
    assert_eq!(n("3"), Num::int(3));
    assert_eq!(n("-1/2"), Num::frac(-1, 2));
    assert_eq!(n("0.25"), Num::frac(1, 4));
    assert_eq!(n("2*sqrt2").to_string(), "2*sqrt2");
    assert_eq!(n("sqrt(8)"), n("2*sqrt2"));
    assert_eq!(n("sqrt2/2").to_string(), "sqrt2/2");
    assert_eq!(n("1 + sqrt2").to_string(), "1 + sqrt2");
    assert_eq!(n("3√5"), n("3*sqrt5"));
    assert_eq!(n("sqrt(1/2)"), n("sqrt2/2"));
    for bad in ["", "x", "1/0", "sqrt(-1)", "1..2", "2 3", "sqrt(sqrt2)"] {
        assert!(bad.parse::<Num>().is_err(), "{bad}");
    }
    for s in ["1/2*sqrt2", "-3/4 - sqrt2 + 5/2*sqrt3", "sqrt10/2"] {
        assert_eq!(n(&n(s).to_string()), n(s), "{s}");
    }
}

#[test]
fn an_overflowing_product_sets_the_flag_and_stays_a_number() {
    let _ = take_overflow();
    let tiny = Q::new(1, i128::MAX);
    let p = tiny.mul(Q::new(1, 3));
    assert!(take_overflow(), "the denominator overflow is flagged");
    // Still a valid fraction: adding to it must not divide by zero.
    assert!(p.denom() > 0);
    let _ = p.add(Q::new(1, 5));
    let _ = take_overflow();
}

#[test]
fn the_reciprocal_of_the_most_negative_integer_is_flagged() {
    let _ = take_overflow();
    let r = Q::int(i128::MIN).recip();
    assert!(take_overflow());
    assert!(r.denom() > 0);
}

#[test]
fn an_overflowing_radicand_sets_the_flag_and_stays_a_number() {
    let _ = take_overflow();
    // Two products of distinct primes whose product passes 2^64.
    let a = Num::from_terms(vec![Term {
        rad: 4_294_967_311, // prime, just above 2^32
        c: Q::ONE,
    }]);
    let b = Num::from_terms(vec![Term {
        rad: 4_294_967_357, // prime
        c: Q::ONE,
    }]);
    let p = a.mul(&b);
    assert!(take_overflow(), "the radicand overflow is flagged");
    let _ = p.mul(&p);
    let _ = take_overflow();
}

#[test]
fn an_earlier_overflow_neither_fails_a_parse_nor_is_lost() {
    let _ = take_overflow();
    Q::new(1, i128::MAX).mul(Q::new(1, 3));
    assert_eq!(n("sqrt2/2").to_string(), "sqrt2/2");
    assert!(take_overflow(), "the earlier overflow is still flagged");
    assert!("170141183460469231731687303715884105727 * 2"
        .parse::<Num>()
        .is_err());
    assert!(!take_overflow(), "a parse that fails leaves no flag");
}

#[test]
fn radicals_multiply_and_cancel() {
    let r2 = n("sqrt2");
    assert_eq!(r2.mul(&r2), Num::int(2));
    assert_eq!(n("sqrt6"), n("sqrt2").mul(&n("sqrt3")));
    let x = n("1 + sqrt2");
    let y = n("-1 + sqrt2");
    assert_eq!(x.mul(&y), Num::int(1));
}

#[test]
fn exact_signs_near_zero() {
    // 99/70 is a close rational approximation of √2.
    assert_eq!(n("sqrt2 - 99/70").signum(), -1);
    assert_eq!(n("sqrt2 - 1393/985").signum(), 1);
    // √2 + √3 vs √(5 + 2√6): equal, so the difference is exactly 0.
    let s = n("sqrt2 + sqrt3");
    assert_eq!(s.mul(&s), n("5 + 2*sqrt6"));
    assert_eq!(n("sqrt5 + sqrt13 - sqrt17 - 2").signum(), -1);
    assert_eq!(n("sqrt5 + sqrt13 - sqrt17 - 1").signum(), 1);
}

#[test]
fn square_roots_denest() {
    assert_eq!(n("3 - 2*sqrt2").sqrt(), Some(n("sqrt2 - 1")));
    assert_eq!(n("8").sqrt(), Some(n("2*sqrt2")));
    assert_eq!(n("2 + sqrt2").sqrt(), None);
    assert_eq!(n("-1").sqrt(), None);
}

#[test]
fn one_number_has_one_form_inline_or_boxed() {
    use std::collections::hash_map::DefaultHasher;
    use std::hash::{Hash, Hasher};
    let hash = |x: &Num| {
        let mut h = DefaultHasher::new();
        x.hash(&mut h);
        h.finish()
    };
    // The inline form costs no size: the enum is as large as before it.
    assert_eq!(std::mem::size_of::<Num>(), 48);
    let big = Q::int(1 << 80);
    // Coefficients past 64 bits are boxed; brought back into range, the
    // same number must be the inline form again (equality and hashing are
    // structural).
    let wide = n("1 + sqrt2").scale(big);
    assert!(matches!(wide, Num::X(_)));
    let back = wide.scale(Q::new(1, 1 << 80));
    assert!(matches!(back, Num::P(_)));
    assert_eq!(back, n("1 + sqrt2"));
    assert_eq!(hash(&back), hash(&n("1 + sqrt2")));
    let diff = wide.sub(&n("sqrt2").scale(big));
    assert_eq!(diff, Num::R(big));
    // A single term, a pair, and three terms (boxed) agree with their floats.
    for (s, f) in [
        ("-3/7*sqrt5", -3.0 / 7.0 * 5f64.sqrt()),
        ("1/2 - sqrt3", 0.5 - 3f64.sqrt()),
        ("1 + sqrt2 + sqrt3", 1.0 + 2f64.sqrt() + 3f64.sqrt()),
    ] {
        let x = n(s);
        assert!((x.to_f64() - f).abs() < 1e-12, "{s}");
        assert_eq!(x.neg().neg(), x, "{s}");
        assert_eq!(x.add(&x.neg()), Num::ZERO, "{s}");
        assert_eq!(n(&x.to_string()), x, "{s}");
    }
    assert!(matches!(n("1 + sqrt2 + sqrt3"), Num::X(_)));
    // Radicands past 32 bits are boxed too.
    let r = Num::sqrt_int(Q::ONE, 4_294_967_311).unwrap();
    assert!(matches!(r, Num::X(_)));
    assert_eq!(r.mul(&r), Num::int(4_294_967_311));
}
