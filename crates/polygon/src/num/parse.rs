//! Reading numbers as people write them: integers, decimals, fractions,
//! `sqrt(...)`, sums, products and parentheses, nested at most
//! [`MAX_NESTING`] deep.

use super::field::{sqrt_rational, Num};
use super::rational::Q;
use super::{overflow, take_overflow};
use std::str::FromStr;

/// Why a number does not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{text}' is not a number jigsolve reads exactly: {why} (write numbers like 3, -1/2, 0.25, 2*sqrt2, sqrt(5)/5, 1 + sqrt2)")]
pub struct NumError {
    /// The text as written.
    pub text: String,
    /// What went wrong.
    pub why: String,
}

impl FromStr for Num {
    type Err = NumError;
    fn from_str(s: &str) -> Result<Num, NumError> {
        // Only an overflow while parsing `s` makes it too large; one flagged
        // earlier on this thread is kept for whoever asked.
        let earlier = take_overflow();
        let parsed = parse_num(s);
        if earlier {
            overflow();
        }
        parsed
    }
}

/// How deep parentheses, signs and square roots may nest in one number.
/// Real coordinates nest two or three deep; the limit keeps a hostile file
/// from overflowing the stack of this recursive reader.
pub const MAX_NESTING: usize = 64;

fn parse_num(s: &str) -> Result<Num, NumError> {
    let mut p = Parser {
        s: s.as_bytes(),
        i: 0,
        depth: 0,
    };
    let fail = |why: String| NumError {
        text: s.to_string(),
        why,
    };
    let v = p.expr().map_err(fail)?;
    p.skip();
    if p.i != p.s.len() {
        return Err(fail(format!(
            "unexpected '{}'",
            String::from_utf8_lossy(&p.s[p.i..])
        )));
    }
    if take_overflow() {
        return Err(fail("too large".into()));
    }
    Ok(v)
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
    /// Operands being read, one inside another.
    depth: usize,
}

impl Parser<'_> {
    fn skip(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip();
        self.s.get(self.i).copied()
    }

    fn expr(&mut self) -> Result<Num, String> {
        let mut v = self.term()?;
        while let Some(c @ (b'+' | b'-')) = self.peek() {
            self.i += 1;
            let t = self.term()?;
            v = if c == b'+' { v.add(&t) } else { v.sub(&t) };
        }
        Ok(v)
    }

    fn term(&mut self) -> Result<Num, String> {
        let mut v = self.unary()?;
        loop {
            match self.peek() {
                Some(b'*') => {
                    self.i += 1;
                    v = v.mul(&self.unary()?);
                }
                Some(b'/') => {
                    self.i += 1;
                    let d = self.unary()?;
                    match d.as_rational() {
                        Some(q) if q.n != 0 => v = v.scale(q.recip()),
                        Some(_) => return Err("division by zero".into()),
                        None => return Err("division by an irrational number".into()),
                    }
                }
                // Juxtaposition: `2sqrt2`, `3√5`.
                Some(b's' | 0xE2) => v = v.mul(&self.unary()?),
                _ => return Ok(v),
            }
        }
    }

    fn unary(&mut self) -> Result<Num, String> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(format!(
                "parentheses, signs or square roots nested more than {MAX_NESTING} deep"
            ));
        }
        let value = self.unary_within();
        self.depth -= 1;
        value
    }

    fn unary_within(&mut self) -> Result<Num, String> {
        match self.peek() {
            Some(b'-') => {
                self.i += 1;
                Ok(self.unary()?.neg())
            }
            Some(b'+') => {
                self.i += 1;
                self.unary()
            }
            _ => self.atom(),
        }
    }

    fn atom(&mut self) -> Result<Num, String> {
        match self.peek() {
            None => Err("a number is missing".into()),
            Some(b'(') => {
                self.i += 1;
                let v = self.expr()?;
                if self.peek() != Some(b')') {
                    return Err("a ')' is missing".into());
                }
                self.i += 1;
                Ok(v)
            }
            Some(c) if c.is_ascii_digit() || c == b'.' => self.decimal(),
            Some(_) => {
                let rest = &self.s[self.i..];
                let skip = if rest.starts_with(b"sqrt") {
                    4
                } else if rest.starts_with("√".as_bytes()) {
                    "√".len()
                } else {
                    return Err(format!(
                        "unexpected '{}'",
                        String::from_utf8_lossy(&rest[..rest.len().min(8)])
                    ));
                };
                self.i += skip;
                let arg = if self.peek() == Some(b'(') {
                    self.atom()?
                } else {
                    self.decimal()?
                };
                let q = arg
                    .as_rational()
                    .ok_or("the square root of an irrational number")?;
                if q.n < 0 {
                    return Err("the square root of a negative number".into());
                }
                sqrt_rational(q).ok_or_else(|| "a square root too large to factor".into())
            }
        }
    }

    fn decimal(&mut self) -> Result<Num, String> {
        self.skip();
        let start = self.i;
        while self.i < self.s.len() && (self.s[self.i].is_ascii_digit() || self.s[self.i] == b'.') {
            self.i += 1;
        }
        let text = std::str::from_utf8(&self.s[start..self.i]).unwrap_or("");
        if text.is_empty() {
            return Err("a number is missing".into());
        }
        let (int, frac) = match text.split_once('.') {
            Some((a, b)) => (a, b),
            None => (text, ""),
        };
        if frac.contains('.') || (int.is_empty() && frac.is_empty()) {
            return Err(format!("'{text}' is not a number"));
        }
        let digits = format!("{int}{frac}");
        let n: i128 = digits
            .parse()
            .map_err(|_| format!("'{text}' is too long"))?;
        let d = 10i128
            .checked_pow(frac.len() as u32)
            .ok_or_else(|| format!("'{text}' has too many decimals"))?;
        Ok(Num::R(Q::new(n, d)))
    }
}
