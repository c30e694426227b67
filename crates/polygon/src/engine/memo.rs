//! The memo of impossible regions (Lynning's test 3): an exact key made of
//! each polygon in canonical position and the remaining piece counts.

use super::region::{Poly, FUZZ};
use super::solver::Solver;
use crate::geom::Pt;
use crate::num::Scalar;
use crate::symmetry::cmp_points;
use std::cmp::Ordering;

/// The memo stops growing past this many bytes of keys.
pub(super) const MEMO_BYTES: usize = 256 << 20;

impl<S: Scalar> Solver<S> {
    pub(super) fn memo_key(&self, region: &[Poly<S>]) -> Box<[u8]> {
        let prep = &*self.prep;
        let flips = self
            .avail
            .iter()
            .enumerate()
            .all(|(t, &c)| c == 0 || prep.types[t].mirror == Some(t));
        let mut polys: Vec<Vec<i128>> = region.iter().map(|p| canonical(p, flips)).collect();
        polys.sort();
        encode(&self.avail, polys)
    }
}

impl<S: Scalar> Solver<S> {
    /// The key of the region where it lies (no motion applied) and the
    /// remaining piece counts: for subtrees where the symmetry-breaking
    /// piece was cut, whose outcome depends on the region's position.
    pub(super) fn placed_key(&self, region: &[Poly<S>]) -> Box<[u8]> {
        let mut polys: Vec<Vec<i128>> = region
            .iter()
            .map(|p| {
                let n = p.v.len();
                let start = (1..n).fold(0, |best, i| {
                    if p.v[i].p.cmp_xy(&p.v[best].p) == Ordering::Less {
                        i
                    } else {
                        best
                    }
                });
                let mut out = Vec::with_capacity(4 * n);
                for j in 0..n {
                    let q = &p.v[(start + j) % n].p;
                    q.x.key(&mut out);
                    q.y.key(&mut out);
                }
                out
            })
            .collect();
        polys.sort();
        encode(&self.avail, polys)
    }
}

fn encode(avail: &[u32], polys: Vec<Vec<i128>>) -> Box<[u8]> {
    let mut out = Vec::with_capacity(64);
    for c in avail {
        push_varint(&mut out, *c as i128);
    }
    for p in polys {
        out.push(0xFF);
        for x in p {
            push_varint(&mut out, x);
        }
    }
    out.into_boxed_slice()
}

fn push_varint(out: &mut Vec<u8>, x: i128) {
    // zig-zag, then 7 bits at a time
    let mut z = ((x << 1) ^ (x >> 127)) as u128;
    loop {
        let b = (z & 0x7F) as u8;
        z >>= 7;
        if z == 0 {
            out.push(b);
            break;
        }
        out.push(b | 0x80);
    }
}

/// The canonical exact image of a polygon: over every corner (and, with
/// `mirrors`, both mirror images), move the corner to the origin and its side
/// onto +x; keep the least corner list. Float signatures pick the candidate
/// corners so that only near-ties are computed exactly.
pub(super) fn canonical<S: Scalar>(p: &Poly<S>, mirrors: bool) -> Vec<i128> {
    let n = p.v.len();
    // Candidates: (mirrored, start) with the least float signature.
    let sig = |mirror: bool, i: usize, j: usize| -> (f64, f64) {
        if mirror {
            // Walking the mirror image forwards is walking p backwards.
            let a = (i + n - j) % n;
            let side = p.f[(a + n - 1) % n].len;
            (side, p.f[a].ang)
        } else {
            let a = (i + j) % n;
            (p.f[a].len, p.f[a].ang)
        }
    };
    let cmp_sig = |x: (bool, usize), y: (bool, usize)| -> Ordering {
        for j in 0..n {
            let (a, b) = (sig(x.0, x.1, j), sig(y.0, y.1, j));
            if (a.0 - b.0).abs() > FUZZ {
                return a.0.total_cmp(&b.0);
            }
            if (a.1 - b.1).abs() > FUZZ {
                return a.1.total_cmp(&b.1);
            }
        }
        Ordering::Equal
    };
    let mut cands: Vec<(bool, usize)> = Vec::new();
    for mirror in [false, true] {
        if mirror && !mirrors {
            break;
        }
        for i in 0..n {
            let c = (mirror, i);
            match cands.first().map(|&b| cmp_sig(c, b)) {
                None | Some(Ordering::Equal) => cands.push(c),
                Some(Ordering::Less) => {
                    cands.clear();
                    cands.push(c);
                }
                Some(Ordering::Greater) => {}
            }
        }
    }
    // The corners seen from corner i along side i: (Δ·(p_j − p_i), Δ×(p_j − p_i))
    // with Δ = p_{i+1} − p_i. This fixes the polygon up to rotation and
    // translation (|Δ|² is the first entry) without any square root.
    let image = |(mirror, i): (bool, usize)| -> Vec<Pt<S>> {
        let at = |j: usize| -> Pt<S> {
            if mirror {
                p.v[(i + n - j) % n].p.conj()
            } else {
                p.v[(i + j) % n].p.clone()
            }
        };
        let o = at(0);
        let delta = at(1).sub(&o);
        (1..n)
            .map(|j| {
                let r = at(j).sub(&o);
                Pt::new(delta.dot(&r), delta.cross(&r))
            })
            .collect()
    };
    let mut best = image(cands[0]);
    for &c in &cands[1..] {
        let img = image(c);
        if cmp_points(&img, &best) == Ordering::Less {
            best = img;
        }
    }
    let mut out = Vec::with_capacity(4 * n);
    for q in &best {
        q.x.key(&mut out);
        q.y.key(&mut out);
    }
    out
}
