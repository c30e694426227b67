//! Dead ends found before any child is generated: Lynning's tests 1 and 2
//! (a polygon smaller than every piece, a side shorter than every piece
//! side, in its exact form a side that is no sum of piece sides) and the
//! subset-sum test on areas.

use super::preparation::gcd_i;
use super::region::{Poly, FUZZ};
use super::solver::{Solver, Status};
use crate::num::{Num, Scalar};
use std::cmp::Ordering;
use std::sync::Arc;

/// Piece side lengths split by radicand: a side of length `r·√m` is `r`
/// times `scale[m]` units of radicand `m`.
#[derive(Debug, Clone)]
pub(super) struct SideTable {
    pub(super) rads: Vec<u64>,
    pub(super) scale: Vec<crate::num::Q>,
    pub(super) per_type: Vec<Vec<(usize, u64)>>,
    /// Largest sum of units per radicand.
    pub(super) cap: Vec<u64>,
}

impl SideTable {
    pub(super) fn build(lengths: &[Vec<Num>], counts: &[u32]) -> Option<SideTable> {
        let mut rads: Vec<u64> = Vec::new();
        let mut dens: Vec<i128> = Vec::new();
        for ls in lengths {
            for l in ls {
                let [t] = &l.terms()[..] else { return None };
                let at = match rads.iter().position(|&r| r == t.rad) {
                    Some(i) => i,
                    None => {
                        rads.push(t.rad);
                        dens.push(1);
                        rads.len() - 1
                    }
                };
                let d = t.c.denom();
                dens[at] = dens[at].checked_mul(d / gcd_i(dens[at], d))?;
            }
        }
        let scale: Vec<crate::num::Q> = dens.iter().map(|&d| crate::num::Q::int(d)).collect();
        let mut cap = vec![0u64; rads.len()];
        let mut per_type = Vec::new();
        for (t, ls) in lengths.iter().enumerate() {
            let mut v = Vec::new();
            for l in ls {
                let term = l.terms()[0];
                let at = rads.iter().position(|&r| r == term.rad)?;
                let units = term.c.mul(scale[at]);
                if units.denom() != 1 || units.numer() <= 0 {
                    return None;
                }
                let u = u64::try_from(units.numer()).ok()?;
                cap[at] = cap[at].checked_add(u.checked_mul(counts[t] as u64)?)?;
                v.push((at, u));
            }
            per_type.push(v);
        }
        if cap.iter().any(|&c| c > 1 << 16) {
            return None;
        }
        Some(SideTable {
            rads,
            scale,
            per_type,
            cap,
        })
    }
}

impl<S: Scalar> Solver<S> {
    /// Lynning's dead-region tests and the subset-sum test.
    pub(super) fn status(&self, region: &[Arc<Poly<S>>]) -> Status {
        let prep = &*self.prep;
        if self.remaining() == 0 {
            return if region.is_empty() {
                Status::Leaf
            } else {
                Status::Dead
            };
        }
        if region.is_empty() {
            return Status::Dead;
        }
        let avail_types = || prep.order.iter().copied().filter(|&t| self.avail[t] > 0);
        // Test 1: a polygon smaller than the smallest piece.
        let smallest_piece = avail_types()
            .map(|t| &prep.types[t])
            .min_by(|a, b| a.area_f.total_cmp(&b.area_f))
            .expect("some piece remains");
        for p in region {
            if p.area_f < smallest_piece.area_f - FUZZ
                || (p.area_f < smallest_piece.area_f + FUZZ
                    && p.area.cmp_s(&smallest_piece.area) == Ordering::Less)
            {
                return Status::Dead;
            }
        }
        // Subset sums: every polygon's area is a sum of remaining pieces' areas.
        if region.len() > 1 {
            if let Some((scale, per)) = &prep.units {
                let total: u64 = avail_types().map(|t| per[t] * self.avail[t] as u64).sum();
                let words = (total as usize) / 64 + 1;
                let mut reach = vec![0u64; words];
                reach[0] = 1;
                for t in avail_types() {
                    for _ in 0..self.avail[t] {
                        shift_or(&mut reach, per[t] as usize);
                    }
                }
                for p in region {
                    let ok = match S::from_num(scale).mul(&p.area).as_int() {
                        Some(a) if a >= 0 && (a as u64) <= total => {
                            let a = a as usize;
                            reach[a / 64] >> (a % 64) & 1 == 1
                        }
                        _ => false,
                    };
                    if !ok {
                        return Status::Dead;
                    }
                }
            }
        }
        // Test 2: a side between convex corners shorter than every side of
        // every remaining piece.
        let (min_side_f, min_side) = avail_types()
            .map(|t| &prep.types[t])
            .min_by(|a, b| a.min_side_f.total_cmp(&b.min_side_f))
            .map(|t| (t.min_side_f, &t.min_side))
            .expect("some piece remains");
        for p in region {
            let n = p.v.len();
            for i in 0..n {
                if p.f[i].len >= min_side_f + FUZZ {
                    continue;
                }
                if !p.convex(i) || !p.convex((i + 1) % n) {
                    continue;
                }
                if p.f[i].len < min_side_f - FUZZ || p.side(i).cmp_s(min_side) == Ordering::Less {
                    return Status::Dead;
                }
            }
        }
        // Test 2, exact form: a side between convex corners is covered by
        // piece sides laid end to end, so its length is a sum of remaining
        // piece side lengths, radicand by radicand (square roots of distinct
        // square-free numbers are linearly independent over Q).
        if prep.sides.is_some() {
            let mut cache = SideSums::default();
            for p in region {
                let n = p.v.len();
                for i in 0..n {
                    if !p.convex(i) || !p.convex((i + 1) % n) {
                        continue;
                    }
                    if !self.side_fits(&p.side(i), &mut cache) {
                        return Status::Dead;
                    }
                }
            }
        }
        Status::Open
    }

    /// True when `len` is a sum of sides of the remaining pieces (exact
    /// puzzles with a side table; always true otherwise).
    pub(super) fn side_fits(&self, len: &S, cache: &mut SideSums) -> bool {
        let Some(table) = &self.prep.sides else {
            return true;
        };
        let Some(num) = len.as_num() else {
            return true;
        };
        // The terms in place: `terms()` would allocate a vector per call.
        num.with_terms(|terms| {
            terms.iter().all(|t| {
                let Some(at) = table.rads.iter().position(|&r| r == t.rad) else {
                    return false;
                };
                let units = t.c.mul(table.scale[at]);
                if units.denom() != 1 || units.numer() <= 0 || units.numer() > table.cap[at] as i128
                {
                    return false;
                }
                let reach = cache.reach(at, table, &self.avail);
                let u = units.numer() as usize;
                reach[u / 64] >> (u % 64) & 1 != 0
            })
        })
    }
}

/// Per node: the reachable sums of remaining piece sides, per radicand.
#[derive(Default)]
pub(super) struct SideSums {
    pub(super) sets: Vec<Option<Vec<u64>>>,
}

impl SideSums {
    pub(super) fn reach(&mut self, at: usize, table: &SideTable, avail: &[u32]) -> &[u64] {
        if self.sets.len() < table.rads.len() {
            self.sets.resize(table.rads.len(), None);
        }
        self.sets[at].get_or_insert_with(|| {
            let mut bits = vec![0u64; table.cap[at] as usize / 64 + 1];
            bits[0] = 1;
            for (t, sides) in table.per_type.iter().enumerate() {
                for _ in 0..avail[t] {
                    for &(r, u) in sides {
                        if r == at {
                            shift_or(&mut bits, u as usize);
                        }
                    }
                }
            }
            bits
        })
    }
}

fn shift_or(bits: &mut [u64], by: usize) {
    let (words, rem) = (by / 64, by % 64);
    for i in (0..bits.len()).rev() {
        let mut v = 0u64;
        if i >= words {
            v = bits[i - words] << rem;
            if rem > 0 && i > words {
                v |= bits[i - words - 1] >> (64 - rem);
            }
        }
        bits[i] |= v;
    }
}
