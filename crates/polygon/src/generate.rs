//! Puzzles with a planted solution, for tests and benchmarks.
//!
//! Take a random convex polygon with integer corners, cut it with random
//! chords (between rational points of two sides) into convex pieces, then
//! move each piece by a random motion: a quarter turn, a Pythagorean turn
//! (3/5, 4/5), or an eighth turn with √2, a mirror, a shift. The puzzle
//! "put the pieces back" has at least the planted solution, so a solver that
//! misses it is wrong (the varisat trick).

use crate::geom::{area2, Pt};
use crate::model::{Piece, Placement, Puzzle};
use crate::num::{Num, Q};
use jigsolve_search::estimate::SplitMix64;

/// A puzzle and, for each piece, the polygon it was cut as (where it must go).
#[derive(Clone, Debug)]
pub struct Planted {
    /// The puzzle.
    pub puzzle: Puzzle,
    /// Piece i's corners in the region, as cut.
    pub home: Vec<Vec<Pt<Num>>>,
    /// The planted solution: piece i moved back to its home.
    pub placements: Vec<Placement<Num>>,
}

fn pt(x: i64, y: i64) -> Pt<Num> {
    Pt::new(Num::int(x), Num::int(y))
}

fn turns() -> Vec<Pt<Num>> {
    let h: Num = "sqrt2/2".parse().expect("a number");
    vec![
        pt(1, 0),
        pt(0, 1),
        pt(-1, 0),
        pt(0, -1),
        Pt::new(Num::frac(3, 5), Num::frac(4, 5)),
        Pt::new(Num::frac(-4, 5), Num::frac(3, 5)),
        Pt::new(h.clone(), h.clone()),
        Pt::new(h.neg(), h),
    ]
}

/// Cuts a random convex polygon into `pieces` pieces (at least 1).
pub fn planted(pieces: usize, seed: u64) -> Planted {
    let mut rng = SplitMix64::new(seed);
    let w = 2 + rng.below(5) as i64;
    let h = 2 + rng.below(5) as i64;
    // A rectangle, perhaps with a corner cut off (still convex).
    let mut region = vec![pt(0, 0), pt(w, 0), pt(w, h), pt(0, h)];
    if rng.below(2) == 0 {
        let c = 1 + rng.below(w.min(h) as u32 - 1) as i64;
        region = vec![pt(0, 0), pt(w, 0), pt(w, h - c), pt(w - c, h), pt(0, h)];
    }
    let mut parts: Vec<Vec<Pt<Num>>> = vec![region.clone()];
    let fractions = [Q::new(1, 3), Q::new(1, 2), Q::new(2, 3)];
    while parts.len() < pieces.max(1) {
        // Cut the largest part.
        let (at, _) = parts
            .iter()
            .enumerate()
            .map(|(i, p)| (i, area2(p).to_f64()))
            .fold((0, f64::MIN), |b, x| if x.1 > b.1 { x } else { b });
        let poly = parts.swap_remove(at);
        let n = poly.len();
        let i = rng.below(n as u32) as usize;
        let j = (i + 1 + rng.below(n as u32 - 1) as usize) % n;
        let (i, j) = (i.min(j), i.max(j));
        let on = |k: usize, rng: &mut SplitMix64| {
            let t = fractions[rng.below(3) as usize];
            let a = &poly[k];
            let b = &poly[(k + 1) % n];
            a.add(&Pt::new(b.x.sub(&a.x).scale(t), b.y.sub(&a.y).scale(t)))
        };
        let pi = on(i, &mut rng);
        let pj = on(j, &mut rng);
        // Part one: pi, corners i+1..=j, pj. Part two: pj, corners j+1..=i (wrapping), pi.
        let mut one = vec![pi.clone()];
        one.extend(poly[i + 1..=j].iter().cloned());
        one.push(pj.clone());
        let mut two = vec![pj];
        two.extend(poly[j + 1..].iter().cloned());
        two.extend(poly[..=i].iter().cloned());
        two.push(pi);
        parts.push(crate::geom::tidy(&one));
        parts.push(crate::geom::tidy(&two));
    }
    let turns = turns();
    let mut list = Vec::new();
    let mut placements = Vec::new();
    for (k, home) in parts.iter().enumerate() {
        let w = &turns[rng.below(turns.len() as u32) as usize];
        let mirror = rng.below(2) == 0;
        let shift = pt(rng.below(7) as i64 - 3, rng.below(7) as i64 - 3);
        let moved: Vec<Pt<Num>> = home
            .iter()
            .map(|p| {
                let p = if mirror { p.conj() } else { p.clone() };
                w.cmul(&p).add(&shift)
            })
            .collect();
        // Undo v = w·m(p) + shift: p = conj(w)·(v - shift) unmirrored,
        // p = w·conj(v - shift) mirrored (w is a unit, so conj(w) = 1/w).
        let back = if mirror {
            Placement {
                piece: k,
                flipped: true,
                rot: w.clone(),
                shift: w.cmul(&shift.conj()).neg(),
            }
        } else {
            Placement {
                piece: k,
                flipped: false,
                rot: w.conj(),
                shift: w.conj().cmul(&shift).neg(),
            }
        };
        placements.push(back);
        list.push(Piece {
            name: format!("P{}", k + 1),
            vertices: moved,
            flip: true,
            line: 0,
        });
    }
    let puzzle = Puzzle::new(format!("planted-{pieces}-{seed}"), vec![region], list)
        .expect("a cut-up convex polygon is a consistent puzzle");
    Planted {
        puzzle,
        home: parts,
        placements,
    }
}
