//! The children of a node: the placings of every remaining piece at the
//! chosen corner of the smallest polygon, in a fixed order.

use super::preparation::cmp_angle;
use super::pruning::SideSums;
use super::region::{Poly, FUZZ};
use super::solver::{Child, Solver};
use super::splice::place;
use crate::geom::Pt;
use crate::num::Scalar;
use crate::symmetry::{cmp_points, Iso};
use std::cell::OnceCell;
use std::cmp::Ordering;
use std::sync::Arc;

impl<S: Scalar> Solver<S> {
    /// The corner the children of this node fill: the polygon of the
    /// region with the least area and, on it, a convex corner (indices of
    /// the polygon and of its corner); `None` when it has no convex corner.
    pub(super) fn corner(&self, region: &[Arc<Poly<S>>]) -> Option<(usize, usize)> {
        let prep = &*self.prep;
        // MINIMAL AREA.
        let pi = (0..region.len())
            .min_by(|&a, &b| {
                region[a]
                    .area_f
                    .total_cmp(&region[b].area_f)
                    .then(a.cmp(&b))
            })
            .expect("a region polygon");
        let poly = &region[pi];
        let n = poly.v.len();
        // BEST VERTEX: the convex corner where the fewest piece corners pass
        // the float angle and length filters (a cheap count of the children
        // to come), then the smallest angle, then the shortest sides.
        let quick = |i: usize| -> usize {
            let ang = poly.f[i].ang;
            let out_len = poly.f[i].len;
            let in_len = poly.f[(i + n - 1) % n].len;
            let mut count = 0;
            for &t in &prep.order {
                if self.avail[t] == 0 {
                    continue;
                }
                for form in &prep.types[t].forms {
                    let m = form.q.len();
                    for &k in &form.reps {
                        let pang = form.ang_f[k];
                        if pang > ang + FUZZ {
                            continue;
                        }
                        if form.len_f[(k + m - 1) % m] > out_len + FUZZ
                            && ang < std::f64::consts::PI
                        {
                            // Only a filter: the next corner may be reflex.
                            if poly.f[(i + 1) % n].ang < std::f64::consts::PI - FUZZ {
                                continue;
                            }
                        }
                        if (pang - ang).abs() <= FUZZ
                            && form.len_f[k] > in_len + FUZZ
                            && poly.f[(i + n - 1) % n].ang < std::f64::consts::PI - FUZZ
                        {
                            continue;
                        }
                        count += 1;
                    }
                }
            }
            count
        };
        let mut best: Option<(usize, usize)> = None;
        for i in 0..n {
            if !poly.convex(i) {
                continue;
            }
            let c = quick(i);
            let key = |j: usize| {
                let a = poly.f[(j + n - 1) % n].len;
                let b = poly.f[j].len;
                (poly.f[j].ang, a.min(b), a.max(b))
            };
            best = match best {
                None => Some((i, c)),
                Some((b, cb)) => {
                    let (ka, kb) = (key(i), key(b));
                    let better = if c != cb {
                        c < cb
                    } else if (ka.0 - kb.0).abs() > FUZZ {
                        ka.0 < kb.0
                    } else if (ka.1 - kb.1).abs() > FUZZ {
                        ka.1 < kb.1
                    } else {
                        ka.2 < kb.2 - FUZZ
                    };
                    Some(if better { (i, c) } else { (b, cb) })
                }
            };
        }
        best.map(|(i, _)| (pi, i))
    }

    /// The valid placings at this node, in a fixed order.
    pub(super) fn children(&self, region: &[Arc<Poly<S>>]) -> Vec<Child<S>> {
        let prep = &*self.prep;
        let mut out = Vec::new();
        let Some((pi, vi)) = self.corner(region) else {
            return out;
        };
        let poly = &region[pi];
        let n = poly.v.len();
        let v = &poly.v[vi];
        let prev = &poly.v[(vi + n - 1) % n];
        // Region angle at v: clockwise from a = d_v to b = -d_prev.
        let a = &v.d;
        let b = prev.d.neg();
        let rc = a.dot(&b);
        let rs = a.cross(&b).neg();
        let rang = poly.f[vi].ang;
        let out_len_f = poly.f[vi].len;
        let next_convex = poly.convex((vi + 1) % n);
        let in_len_f = poly.f[(vi + n - 1) % n].len;
        let prev_convex = poly.convex((vi + n - 1) % n);
        let mut sums = SideSums::default();
        // The exact lengths of the two sides at v, computed once per node
        // when some candidate needs them (every candidate did its own).
        let out_side = OnceCell::new();
        let in_side = OnceCell::new();
        let out_side = || out_side.get_or_init(|| poly.side(vi));
        let in_side = || in_side.get_or_init(|| poly.side((vi + n - 1) % n));

        for &t in &prep.order {
            if self.avail[t] == 0 {
                continue;
            }
            let ty = &prep.types[t];
            if ty.area_f > poly.area_f + FUZZ {
                continue;
            }
            for form in &ty.forms {
                let m = form.q.len();
                for &k in &form.reps {
                    // ANGLE CHECK.
                    let pang = form.ang_f[k];
                    let cmp = if (pang - rang).abs() > FUZZ {
                        pang.total_cmp(&rang)
                    } else {
                        cmp_angle(&form.cos[k], &form.sin[k], &rc, &rs)
                    };
                    if cmp == Ordering::Greater {
                        continue;
                    }
                    // The side k -> k-1 runs along the side leaving v: it
                    // may not pass a convex corner.
                    let kp = (k + m - 1) % m;
                    if next_convex && too_long(form.len_f[kp], &form.len[kp], out_len_f, out_side) {
                        continue;
                    }
                    if cmp == Ordering::Equal
                        && prev_convex
                        && too_long(form.len_f[k], &form.len[k], in_len_f, in_side)
                    {
                        continue;
                    }
                    // What is left of the side leaving v must be a sum of
                    // piece sides when its far end is convex.
                    if next_convex && prep.sides.is_some() {
                        let left = out_side().sub(&form.len[kp]);
                        if !left.is_zero() && !self.side_fits(&left, &mut sums) {
                            continue;
                        }
                    }
                    if cmp == Ordering::Equal && prev_convex && prep.sides.is_some() {
                        let left = in_side().sub(&form.len[k]);
                        if !left.is_zero() && !self.side_fits(&left, &mut sums) {
                            continue;
                        }
                    }
                    // PLACE: turn u maps the piece direction k -> k-1 onto d_v.
                    let f = form.e[kp].neg();
                    let u = v.d.cmul(&f.conj());
                    let shift = v.p.sub(&u.cmul(&form.q[k]));
                    if let Some(polys) = place(poly, vi, form, k, &u, &shift, &ty.area) {
                        let iso = Iso {
                            w: u,
                            mirror: form.mirror,
                            s: shift,
                        };
                        if prep.breaker == Some(t) && !self.least_pose(t, &iso) {
                            self.sym_cuts.set(self.sym_cuts.get() + 1);
                            continue;
                        }
                        out.push(Child {
                            ty: t,
                            iso,
                            poly: pi,
                            polys,
                        });
                    }
                }
            }
        }
        out
    }
}

impl<S: Scalar> Solver<S> {
    /// True when the piece of type `t` placed by `iso` is in the least of its
    /// poses under the region's group (corners sorted, compared as the leaf
    /// compares whole tilings), so that a reported tiling may contain it.
    fn least_pose(&self, t: usize, iso: &Iso<S>) -> bool {
        let prep = &*self.prep;
        // The placed corners once; each motion of the group then moves them
        // (the group's motions are cheap: quarter turns and mirrors).
        let placed: Vec<Pt<S>> = prep.types[t].forms[0]
            .q
            .iter()
            .map(|p| iso.apply(p))
            .collect();
        let corners = |g: &Iso<S>| -> Vec<Pt<S>> {
            let mut pts: Vec<Pt<S>> = placed.iter().map(|p| g.apply(p)).collect();
            pts.sort_by(|a, b| a.cmp_xy(b));
            pts
        };
        let mine = corners(&prep.group[0]);
        prep.group[1..]
            .iter()
            .all(|g| cmp_points(&corners(g), &mine) != Ordering::Less)
    }
}

/// True when a piece side of length `piece` (float `piece_f`) is longer than
/// a region side of float length `region_f` (exact on demand).
fn too_long<'a, S: Scalar>(
    piece_f: f64,
    piece: &S,
    region_f: f64,
    region: impl Fn() -> &'a S,
) -> bool {
    if piece_f > region_f + FUZZ {
        return true;
    }
    if piece_f < region_f - FUZZ {
        return false;
    }
    piece.cmp_s(region()) == Ordering::Greater
}
