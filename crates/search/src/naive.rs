//! The naive search space: how many complete arrangements a method without
//! any pruning would lay down, stated with its formula.
//!
//! The seeds explain a search by this number ("the naive method would lay
//! the tiles down 9! x 4^9 = 95,126,814,720 ways"). Each family knows what
//! its naive method is and builds the number factor by factor; this type
//! keeps the formula as text next to the value, so that the number is never
//! shown without what it counts.
//!
//! The value is exact as a `u128` while it fits; past that (a 10 x 10 tile
//! puzzle is 100! x 4^100, about 10^218) only its base-10 logarithm is kept,
//! as an `f64`, which is always computed, so every comparison works on it.

use std::fmt;

/// A naive search space: its formula and its size.
#[derive(Clone, Debug, PartialEq)]
pub struct NaiveSpace {
    formula: Vec<String>,
    exact: Option<u128>,
    log10: f64,
    means: String,
}

impl NaiveSpace {
    /// The space of one arrangement (the empty product), counting what
    /// `means` says ("the ways to lay every tile on every cell in every
    /// rotation").
    pub fn new(means: impl Into<String>) -> NaiveSpace {
        NaiveSpace {
            formula: Vec::new(),
            exact: Some(1),
            log10: 0.0,
            means: means.into(),
        }
    }

    /// Multiplies by `n!`.
    pub fn factorial(mut self, n: u64) -> NaiveSpace {
        if n > 1 {
            self.formula.push(format!("{n}!"));
        }
        for i in 2..=n {
            self.mul(i as u128);
        }
        self
    }

    /// Multiplies by `base^exp`.
    pub fn power(self, base: u64, exp: u64) -> NaiveSpace {
        self.named_power("", base, exp)
    }

    /// Multiplies by `base^exp`, the factor written with `name` in front
    /// ("F:256" for piece F's 256 placements).
    pub fn named_power(mut self, name: &str, base: u64, exp: u64) -> NaiveSpace {
        if exp == 0 || (base == 1 && name.is_empty()) {
            return self;
        }
        let prefix = if name.is_empty() {
            String::new()
        } else {
            format!("{name}:")
        };
        self.formula.push(if exp == 1 {
            format!("{prefix}{base}")
        } else {
            format!("{prefix}{base}^{exp}")
        });
        if base == 0 {
            self.exact = Some(0);
            self.log10 = f64::NEG_INFINITY;
            return self;
        }
        self.log10 += exp as f64 * (base as f64).log10();
        self.exact = self
            .exact
            .and_then(|v| (0..exp).try_fold(v, |v, _| v.checked_mul(base as u128)));
        self
    }

    /// Multiplies by `n`, written as `label` in the formula (a piece's
    /// name and its count, say).
    pub fn times(mut self, n: u64, label: impl Into<String>) -> NaiveSpace {
        self.formula.push(label.into());
        self.mul(n as u128);
        self
    }

    fn mul(&mut self, n: u128) {
        if n == 0 {
            self.exact = Some(0);
            self.log10 = f64::NEG_INFINITY;
            return;
        }
        self.log10 += (n as f64).log10();
        self.exact = self.exact.and_then(|v| v.checked_mul(n));
    }

    /// The formula, factors joined by " x " ("1" for the empty product).
    pub fn formula(&self) -> String {
        if self.formula.is_empty() {
            "1".into()
        } else {
            self.formula.join(" x ")
        }
    }

    /// What the space counts.
    pub fn means(&self) -> &str {
        &self.means
    }

    /// The size, when it fits in a `u128`.
    pub fn exact(&self) -> Option<u128> {
        self.exact
    }

    /// The base-10 logarithm of the size (minus infinity for an empty space).
    pub fn log10(&self) -> f64 {
        self.log10
    }

    /// The share of the space a search that visited `nodes` nodes did not
    /// visit: `1 - nodes / size`, computed through logarithms so that it
    /// works past `u128`, and 0 when the search visited at least as many
    /// nodes as the space has arrangements (a tiny puzzle, whose inner
    /// nodes outnumber its arrangements).
    pub fn pruned_share(&self, nodes: u64) -> f64 {
        if nodes == 0 {
            return 1.0;
        }
        let ratio = ((nodes as f64).log10() - self.log10).min(0.0);
        if ratio.is_nan() {
            return 0.0;
        }
        (1.0 - 10f64.powf(ratio)).max(0.0)
    }

    /// The size as people read it: digits grouped by thousands while it is
    /// exact, else "about 10^218.3".
    pub fn value_text(&self) -> String {
        match self.exact {
            Some(v) => group(v),
            None => format!("about 10^{:.1}", self.log10),
        }
    }
}

impl fmt::Display for NaiveSpace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} = {}", self.formula(), self.value_text())
    }
}

fn group(v: u128) -> String {
    let digits = v.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn impuzzable_is_nine_factorial_times_four_to_the_nine() {
        let s = NaiveSpace::new("tiles").factorial(9).power(4, 9);
        assert_eq!(s.exact(), Some(95_126_814_720));
        assert_eq!(s.to_string(), "9! x 4^9 = 95,126,814,720");
        assert!((s.log10() - 95_126_814_720f64.log10()).abs() < 1e-9);
    }

    #[test]
    fn overflow_keeps_the_logarithm() {
        let s = NaiveSpace::new("tiles").factorial(100).power(4, 100);
        assert_eq!(s.exact(), None);
        // log10(100!) = 157.97, 100 log10 4 = 60.21.
        assert!((s.log10() - 218.18).abs() < 0.01, "{}", s.log10());
        assert_eq!(s.value_text(), "about 10^218.2");
        assert!(s.pruned_share(1_000_000) > 0.999_999);
    }

    #[test]
    fn pruned_share_is_one_minus_the_ratio_and_never_negative() {
        let s = NaiveSpace::new("x").times(1000, "1000");
        assert!((s.pruned_share(10) - 0.99).abs() < 1e-12);
        assert_eq!(s.pruned_share(5000), 0.0);
        assert_eq!(NaiveSpace::new("x").formula(), "1");
        let empty = NaiveSpace::new("x").times(0, "0");
        assert_eq!(empty.exact(), Some(0));
        assert_eq!(empty.pruned_share(3), 0.0);
    }
}
