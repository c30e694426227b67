//! Placing a piece on a corner: splice its outline into the polygon's,
//! tidy with σ, split at weak intersections and reject strong ones.

use super::preparation::Form;
use super::region::{Poly, FUZZ, V};
use crate::geom::{area2, Pt};
use crate::num::Scalar;
use std::cmp::Ordering;
use std::sync::Arc;

/// Places `form` with corner `k` on corner `vi` of `poly` (turn `u`, shift
/// `shift`) and returns the polygons that replace `poly` (shared, as the
/// region holds them), or `None` when the piece does not fit.
pub(super) fn place<S: Scalar>(
    poly: &Poly<S>,
    vi: usize,
    form: &Form<S>,
    k: usize,
    u: &Pt<S>,
    shift: &Pt<S>,
    piece_area: &S,
) -> Option<Vec<Arc<Poly<S>>>> {
    // Exact area test first: the piece cannot be larger than the polygon.
    let rest = poly.area.sub(piece_area);
    let rest_sign = rest.signum();
    if rest_sign < 0 {
        return None;
    }
    let n = poly.v.len();
    let m = form.q.len();
    // The pseudo-polygon: v, q_{k+1}, ..., q_{k-1}, v, p_{j+1}, ..., p_{j-1}.
    let mut w: Vec<V<S>> = Vec::with_capacity(n + m);
    for j in 0..m {
        let i = (k + j) % m;
        let p = if j == 0 {
            poly.v[vi].p.clone()
        } else {
            u.cmul(&form.q[i]).add(shift)
        };
        w.push(V::new(p, u.cmul(&form.e[i])));
    }
    for j in 0..n {
        w.push(poly.v[(vi + j) % n].clone());
    }
    sigma(&mut w);
    if w.is_empty() {
        // The piece is exactly the polygon.
        return (rest_sign == 0).then(Vec::new);
    }
    if rest_sign == 0 {
        return None;
    }
    let l = w.len();
    // Weak intersections to insert: (edge, vertex).
    let mut ins: Vec<(usize, usize)> = Vec::new();
    for i in 0..l {
        let i1 = (i + 1) % l;
        let (a, b) = (w[i].f, w[i1].f);
        let (ax0, ax1) = (a[0].min(b[0]) - FUZZ, a[0].max(b[0]) + FUZZ);
        let (ay0, ay1) = (a[1].min(b[1]) - FUZZ, a[1].max(b[1]) + FUZZ);
        for j in i + 2..l {
            let j1 = (j + 1) % l;
            if j1 == i {
                continue; // adjacent through the wrap
            }
            let (c, d) = (w[j].f, w[j1].f);
            if c[0].max(d[0]) < ax0
                || c[0].min(d[0]) > ax1
                || c[1].max(d[1]) < ay0
                || c[1].min(d[1]) > ay1
            {
                continue;
            }
            let (pa, pb, pc, pd) = (&w[i].p, &w[i1].p, &w[j].p, &w[j1].p);
            let o1 = orient_f(pa, pb, pc, a, b, c);
            let o2 = orient_f(pa, pb, pd, a, b, d);
            if o1 * o2 > 0 {
                continue;
            }
            let o3 = orient_f(pc, pd, pa, c, d, a);
            let o4 = orient_f(pc, pd, pb, c, d, b);
            if o1 * o2 < 0 && o3 * o4 < 0 {
                return None; // strong intersection
            }
            if o1 == 0 && strictly_inside(pc, pa, pb, &w[i].d) {
                ins.push((i, j));
            }
            if o2 == 0 && strictly_inside(pd, pa, pb, &w[i].d) {
                ins.push((i, j1));
            }
            if o3 == 0 && strictly_inside(pa, pc, pd, &w[j].d) {
                ins.push((j, i));
            }
            if o4 == 0 && strictly_inside(pb, pc, pd, &w[j].d) {
                ins.push((j, i1));
            }
        }
    }
    let w = if ins.is_empty() {
        w
    } else {
        let mut out = Vec::with_capacity(l + ins.len());
        for i in 0..l {
            out.push(w[i].clone());
            let mut here: Vec<(S, usize)> = ins
                .iter()
                .filter(|(e, _)| *e == i)
                .map(|&(_, x)| (w[x].p.sub(&w[i].p).dot(&w[(i + 1) % l].p.sub(&w[i].p)), x))
                .collect();
            if here.is_empty() {
                continue;
            }
            here.sort_by(|a, b| a.0.cmp_s(&b.0));
            here.dedup_by(|a, b| a.1 == b.1 || w[a.1].p.same(&w[b.1].p));
            for (_, x) in here {
                out.push(V {
                    p: w[x].p.clone(),
                    d: w[i].d.clone(),
                    f: w[x].f,
                });
            }
        }
        out
    };
    // Repeated points?
    let l = w.len();
    let mut repeated = false;
    'outer: for i in 0..l {
        for j in i + 1..l {
            if w[i].p.same(&w[j].p) {
                repeated = true;
                break 'outer;
            }
        }
    }
    if !repeated {
        // One simple loop; its signed area is -(area(P) - area(Q)) < 0.
        return Some(vec![Arc::new(Poly::new(w, rest))]);
    }
    // The same side walked twice in the same direction: the piece lies
    // outside along it.
    for i in 0..l {
        for j in i + 1..l {
            if w[i].p.same(&w[j].p) && w[(i + 1) % l].p.same(&w[(j + 1) % l].p) {
                return None;
            }
        }
    }
    // Split at repeated points.
    let mut loops: Vec<Vec<V<S>>> = Vec::new();
    let mut stack: Vec<V<S>> = Vec::with_capacity(l);
    for x in w {
        if let Some(s) = stack.iter().position(|y| y.p.same(&x.p)) {
            let lp = stack.split_off(s);
            loops.push(lp);
        }
        stack.push(x);
    }
    loops.push(stack);
    let mut out = Vec::new();
    for mut lp in loops {
        sigma(&mut lp);
        if lp.is_empty() {
            continue;
        }
        let pts: Vec<Pt<S>> = lp.iter().map(|x| x.p.clone()).collect();
        let a2 = area2(&pts);
        if a2.signum() >= 0 {
            return None; // counter-clockwise: the piece sticks out
        }
        out.push(Arc::new(Poly::new(lp, a2.neg().half())));
    }
    Some(out)
}

/// Orientation with a float filter: the float value decides when it is far
/// from zero compared with the coordinates' size.
#[inline]
fn orient_f<S: Scalar>(
    a: &Pt<S>,
    b: &Pt<S>,
    c: &Pt<S>,
    af: [f64; 2],
    bf: [f64; 2],
    cf: [f64; 2],
) -> i8 {
    let v = (bf[0] - af[0]) * (cf[1] - af[1]) - (bf[1] - af[1]) * (cf[0] - af[0]);
    let m = af[0]
        .abs()
        .max(af[1].abs())
        .max(bf[0].abs())
        .max(bf[1].abs())
        .max(cf[0].abs())
        .max(cf[1].abs())
        + 1.0;
    if S::EXACT && v.abs() > 1e-9 * m * m {
        return if v > 0.0 { 1 } else { -1 };
    }
    crate::geom::orient(a, b, c)
}

/// `p` (collinear with `a→b`, direction `d`) lies strictly between a and b.
fn strictly_inside<S: Scalar>(p: &Pt<S>, a: &Pt<S>, b: &Pt<S>, _d: &Pt<S>) -> bool {
    let ab = b.sub(a);
    let t = p.sub(a).dot(&ab);
    if t.signum() <= 0 {
        return false;
    }
    t.cmp_s(&ab.dot(&ab)) == Ordering::Less
}

/// Lynning's σ on a closed walk: drop repeated points and points on a line
/// through their neighbours, until none is left. A walk of fewer than three
/// points is the nil polygon (emptied).
fn sigma<S: Scalar>(w: &mut Vec<V<S>>) {
    // Collinearity is tested on the corners (rational on lattice puzzles)
    // rather than on the unit directions (which carry square roots).
    loop {
        let mut changed = false;
        let mut i = 0;
        while i < w.len() {
            let n = w.len();
            if n < 3 {
                w.clear();
                return;
            }
            let nx = (i + 1) % n;
            if w[i].p.same(&w[nx].p) {
                // Zero-length side: the previous side now ends at w[nx].
                w.remove(i);
                changed = true;
                i = i.saturating_sub(1);
                continue;
            }
            let pv = (i + n - 1) % n;
            if !w[pv].p.same(&w[i].p)
                && orient_f(&w[pv].p, &w[i].p, &w[nx].p, w[pv].f, w[i].f, w[nx].f) == 0
            {
                // Straight through, or a spike: the side from pv now runs to nx.
                let back = w[i].p.sub(&w[pv].p);
                let straight = back.dot(&w[nx].p.sub(&w[i].p)).signum() > 0;
                if !straight && w[nx].p.sub(&w[pv].p).dot(&back).signum() < 0 {
                    w[pv].d = w[pv].d.neg();
                }
                w.remove(i);
                changed = true;
                i = i.saturating_sub(1);
                continue;
            }
            i += 1;
        }
        if !changed {
            break;
        }
    }
    if w.len() < 3 {
        w.clear();
    }
}
