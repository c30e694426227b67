//! The region as the search sees it: clockwise polygons whose corners
//! carry the direction of the side leaving them and float shadows of their
//! lengths and angles, so most decisions never touch exact numbers.

use crate::geom::Pt;
use crate::num::Scalar;
use std::sync::{Arc, OnceLock};

/// A corner of a region polygon, with the side leaving it.
#[derive(Clone, Debug)]
pub(super) struct V<S> {
    pub(super) p: Pt<S>,
    /// Unit direction of the side leaving this corner.
    pub(super) d: Pt<S>,
    /// The corner in floats (the filter for orientation tests).
    pub(super) f: [f64; 2],
}

impl<S: Scalar> V<S> {
    pub(super) fn new(p: Pt<S>, d: Pt<S>) -> V<S> {
        let f = p.to_f64();
        V { p, d, f }
    }
}

/// Float shadows of a polygon's corners, for ordering heuristics and filters.
#[derive(Clone, Debug)]
pub(super) struct VF {
    /// Length of the side leaving the corner.
    pub(super) len: f64,
    /// Interior angle at the corner, in (0, 2π).
    pub(super) ang: f64,
}

/// A clockwise polygon of the region.
#[derive(Clone, Debug)]
pub(super) struct Poly<S> {
    pub(super) v: Vec<V<S>>,
    pub(super) f: Vec<VF>,
    /// Area (positive).
    pub(super) area: S,
    pub(super) area_f: f64,
    /// The memo's canonical image of the polygon, without and with mirror
    /// images, computed when first asked for: a polygon that a placement
    /// leaves alone is shared with the child, key and all, so that each
    /// polygon is put in canonical position once, not once per node below it.
    pub(super) canon: [OnceLock<Arc<[i128]>>; 2],
}

const TAU: f64 = std::f64::consts::TAU;
/// Float filter width for angles and lengths: decisions closer than this go
/// to the exact path.
pub(super) const FUZZ: f64 = 1e-7;

pub(super) fn cw_angle_f(a: [f64; 2], b: [f64; 2]) -> f64 {
    // clockwise angle from a to b: cos = a·b, sin = -(a×b)
    let c = a[0] * b[0] + a[1] * b[1];
    let s = -(a[0] * b[1] - a[1] * b[0]);
    let t = s.atan2(c);
    if t < 0.0 {
        t + TAU
    } else {
        t
    }
}

impl<S: Scalar> Poly<S> {
    pub(super) fn new(v: Vec<V<S>>, area: S) -> Poly<S> {
        let n = v.len();
        // One pass, no scratch vectors: the previous corner's direction is
        // carried along (each direction converted to floats once).
        let mut prev = v[n - 1].d.to_f64();
        let f = (0..n)
            .map(|i| {
                let (p, nx) = (v[i].f, v[(i + 1) % n].f);
                let len = ((nx[0] - p[0]).powi(2) + (nx[1] - p[1]).powi(2)).sqrt();
                let d = v[i].d.to_f64();
                let ang = cw_angle_f(d, [-prev[0], -prev[1]]);
                prev = d;
                VF { len, ang }
            })
            .collect();
        let area_f = area.to_f64();
        Poly {
            v,
            f,
            area,
            area_f,
            canon: Default::default(),
        }
    }

    /// Exact: is the corner convex (interior angle below π)?
    pub(super) fn convex(&self, i: usize) -> bool {
        let ang = self.f[i].ang;
        if ang < std::f64::consts::PI - FUZZ {
            return true;
        }
        if ang > std::f64::consts::PI + FUZZ {
            return false;
        }
        let n = self.v.len();
        // a = d_i, b = -d_{i-1}; convex iff sin > 0 iff a × b < 0 iff d_{i-1} × d_i > 0... (clockwise polygon)
        let a = &self.v[i].d;
        let b = self.v[(i + n - 1) % n].d.neg();
        a.cross(&b).signum() < 0
    }

    /// Exact length of side i.
    pub(super) fn side(&self, i: usize) -> S {
        let n = self.v.len();
        self.v[(i + 1) % n].p.sub(&self.v[i].p).dot(&self.v[i].d)
    }
}
