//! Polygonal jigsaws after Lynning (1973), with exact arithmetic.
//!
//! A puzzle is a region (one or more polygons) and a set of polygonal pieces
//! that move, turn and, when allowed, flip. The engine ([`Solver`]) is
//! Lynning's method: place a piece at a convex corner of the smallest
//! polygon left, splice the outlines, tidy with his σ operator, split at weak intersections, reject
//! strong ones and wrongly oriented parts; it implements the shared
//! [`jigsolve_search::Tree`] contract. Coordinates are exact numbers
//! ([`num::Num`]: sums of rational multiples of square roots) whenever the
//! pieces' side lengths allow it, which covers integer and rational
//! coordinates and tangram-style coordinates with √2; other puzzles are
//! solved in floating point ([`num::Approx`]) and said to be approximate.
//! [`mod@verify`] checks solutions independently of the engine, and
//! [`generate`] makes puzzles with a planted solution by cutting up a polygon.
//!
//! ```
//! use jigsolve_polygon::{parse, solve_all};
//!
//! let text = r#"
//! region = "(0,0) (2,0) (2,1) (0,1)"
//! [[pieces]]
//! vertices = "(0,0) (1,0) (1,1) (0,1)"
//! copies = 2
//! "#;
//! let puzzle = parse::parse(text, "domino.toml").unwrap();
//! let result = solve_all(&puzzle, Default::default());
//! // Two unit squares fill a 2 x 1 rectangle one way; the squares are
//! // identical (distinct 1) but told apart in raw counts (2).
//! assert_eq!((result.raw, result.distinct, result.unique), (2, 1, 1));
//! assert!(!result.approximate);
//! ```

#![warn(missing_docs)]

mod engine;
pub mod generate;
pub mod geom;
mod model;
pub mod num;
pub mod parse;
mod symmetry;
pub mod verify;
pub mod write;

pub use engine::{Options, PrepareError, Prepared, Solver};
pub use model::{Piece, Placement, Puzzle};
pub use num::{Approx, Num, Scalar};
pub use symmetry::{cmp_points, Iso};
pub use verify::verify;

use jigsolve_search::{count_solutions, Control};
use std::sync::Arc;

/// The counts of a complete one-thread search, for tests and examples.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counted {
    /// Pieces told apart, every orientation of the region.
    pub raw: u128,
    /// Identical pieces merged.
    pub distinct: u128,
    /// Region symmetries removed too.
    pub unique: u128,
    /// Solutions reported.
    pub listed: u64,
    /// Search tree nodes.
    pub nodes: u64,
    /// Solved in floating point.
    pub approximate: bool,
}

/// Which number system a puzzle is solved in.
#[derive(Clone, Debug)]
pub enum Engine {
    /// Exact numbers.
    Exact(Arc<Prepared<Num>>),
    /// Floating point with a tolerance.
    Approx(Arc<Prepared<Approx>>),
}

/// Prepares `puzzle` exactly when its side lengths allow it, else in floating point.
pub fn prepare(puzzle: &Puzzle, options: Options) -> Engine {
    match Prepared::<Num>::new(puzzle, options) {
        Ok(p) => Engine::Exact(Arc::new(p)),
        Err(_) => Engine::Approx(Arc::new(
            Prepared::<Approx>::new(puzzle, options).expect("floats always have square roots"),
        )),
    }
}

fn count_with<S: Scalar>(prep: &Arc<Prepared<S>>) -> (jigsolve_search::Report, bool) {
    let report = count_solutions(|| Solver::new(Arc::clone(prep)), 1, &Control::new())
        .expect("paths are valid");
    (report, prep.overflowed())
}

/// Counts every solution on one thread, exactly when possible. Falls back to
/// floating point (and says so) when a side length has no exact square root
/// in the supported fields, or when exact coefficients overflow 128 bits.
pub fn solve_all(puzzle: &Puzzle, options: Options) -> Counted {
    let (report, approximate) = match prepare(puzzle, options) {
        Engine::Exact(p) => {
            let (r, overflowed) = count_with(&p);
            if overflowed {
                let a = Arc::new(Prepared::<Approx>::new(puzzle, options).expect("floats"));
                (count_with(&a).0, true)
            } else {
                (r, false)
            }
        }
        Engine::Approx(p) => (count_with(&p).0, true),
    };
    Counted {
        raw: report.counts.raw.unwrap_or(0),
        distinct: report.counts.distinct.unwrap_or(0),
        unique: report.counts.unique.unwrap_or(0),
        listed: report.reported,
        nodes: report.nodes.total(),
        approximate,
    }
}
