//! Lynning's engine: place a piece at a convex corner of the smallest
//! polygon of the region, splice the outlines, tidy, split, repeat.
//!
//! # One node
//!
//! The region is a list of clockwise polygons; each corner carries the unit
//! direction of the side leaving it, so that turning a piece onto a side is a
//! product of unit vectors and never a square root. At a node the engine
//!
//! 1. picks the polygon of least area (Lynning's MINIMAL AREA) and in it the
//!    convex corner `v` where the fewest piece corners pass a float angle and
//!    length filter, then the smallest angle, then the shortest sides (BEST
//!    VERTEX, sharpened into a cheap minimum-remaining-values choice: on the
//!    Stomachion it shrinks the tree from 1.8 million nodes to 280 thousand);
//! 2. for every available piece type (largest first), every orientation class
//!    (the piece and, when it may flip and is not its own mirror image, its
//!    mirror image) and every corner `k` of the piece up to the piece's own
//!    rotations (so a square is tried at one corner, not four), checks that
//!    the piece's angle at `k` fits in the angle at `v` (ANGLE CHECK), turns
//!    the piece so that corner `k` sits on `v` and its side `k → k−1` runs
//!    along the side leaving `v`, and builds the pseudo-polygon
//!    `v, q_{k+1}, …, q_{k−1}, v, p_{j+1}, …, p_{j−1}` (PLACE);
//! 3. applies σ: drops repeated points and points on a line through their
//!    neighbours (straight-through corners and spikes), until none is left;
//! 4. rejects the placing if two sides cross at a point inside both (a
//!    strong intersection); otherwise inserts every corner that touches the
//!    inside of another side into that side (the weak intersections), splits
//!    the walk into loops at repeated points, applies σ to each loop, and
//!    accepts the placing when every loop left is clockwise (nil loops, a
//!    point or a spike, vanish). Lynning's appendix proves this test exact;
//!    with exact numbers it is.
//!
//! Every tiling is found exactly once: the corner `v` is convex, so exactly
//! one piece covers the sector just inside the side leaving `v`, with one of
//! its corners at `v` and one of its sides along that side, in exactly one
//! orientation class and one corner orbit.
//!
//! # Pruning
//!
//! A node is a dead end (no children are generated) when the region has a
//! polygon smaller than every remaining piece, when a polygon's area is not
//! a sum of remaining piece areas (a subset-sum test on rational areas), when
//! a side between two convex corners is shorter than every side of every
//! remaining piece (Lynning's tests 1 and 2), or when the memo says the region
//! with these pieces was already found impossible (Lynning's test 3). The memo
//! key is exact: each polygon in its canonical position (a corner at the
//! origin, its side along +x, the least such exact corner list over every
//! corner and, when every remaining piece may flip, both mirror images), the
//! polygons sorted, and the remaining piece counts. Regions are impossible or
//! not whatever the search order, so the memo never changes what is found.
//!
//! # Counting
//!
//! Identical pieces (congruent by the motions their flip rule allows) form a
//! type with a count, so each distinct tiling is found once; raw counts
//! multiply by the factorials of the counts. Unique tilings are counted by
//! comparing each tiling with its images under the region's symmetry group
//! (rotations, and reflections when the piece set is closed under mirroring):
//! only the least image is reported, with the size of its orbit.
//!
//! The same comparison breaks the symmetry inside the search: tilings are
//! compared piece by piece with one single piece first (the breaker, which
//! every motion of the group keeps in its own type), so a reported tiling
//! has the breaker in the least of its poses under the group, and a placing
//! of it in any other pose is cut when it is generated. A subtree with such
//! a cut may have tilings, so finding none there is memoised only for the
//! region where it lies, in a second memo, never as an impossible shape.
//! Both memos are shared by every thread.

mod children;
mod memo;
mod preparation;
mod pruning;
mod region;
mod solver;
mod splice;

pub use preparation::{PrepareError, Prepared};
pub use solver::Solver;

/// How to search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Report one tiling per symmetry class (the least image). When false,
    /// every distinct tiling is reported; unique counts are still computed.
    pub symmetry: bool,
    /// Use the memo of impossible regions.
    pub memo: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            symmetry: true,
            memo: true,
        }
    }
}
