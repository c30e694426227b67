//! The contract between an engine and the drivers.

use crate::{CountKinds, NodeStats, Ticker, Weight};
use std::ops::ControlFlow;

/// Receives the solutions of a search.
///
/// The engine lends the solution (usually a slice of its own state), so a sink
/// that only counts costs nothing per solution. Returning `Break` stops the
/// search.
pub trait Sink<S: ?Sized> {
    /// One solution and what it stands for.
    fn solution(&mut self, solution: &S, weight: Weight) -> ControlFlow<()>;

    /// The sink's counter, when the sink never looks at a solution and only
    /// adds up weights (`solve --count`). An engine may then count solutions
    /// it never builds, many at once (the edge engine's meet in the middle
    /// does). `None`, the default: every solution comes through
    /// [`solution`](Sink::solution).
    fn counter(&mut self) -> Option<&mut dyn Counter> {
        None
    }
}

/// Adds up solutions without seeing them (see [`Sink::counter`]).
pub trait Counter {
    /// `solutions` solutions, each standing for `each`.
    fn add(&mut self, solutions: u64, each: Weight) -> ControlFlow<()>;
}

impl<S: ?Sized, F> Sink<S> for F
where
    F: FnMut(&S, Weight) -> ControlFlow<()>,
{
    fn solution(&mut self, solution: &S, weight: Weight) -> ControlFlow<()> {
        self(solution, weight)
    }
}

/// What the node at a path is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// A partial assembly with this many children (at least one).
    Inner(u32),
    /// A complete assembly, standing for this weight (zero when a symmetry
    /// post-check rejects it as a duplicate).
    Solution(Weight),
    /// A partial assembly that cannot be extended.
    DeadEnd,
}

/// What a node branches on: the thing every one of its children places.
///
/// Engines name their own cells and pieces by index; the front end that
/// knows the puzzle turns them into coordinates and names.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Branch {
    /// The cell with this index in the engine's own numbering (for the
    /// polyform engines: the position in the board's scan order).
    Cell(u32),
    /// The piece type with this index: the children are its placements
    /// (a symmetry breaker placed first).
    Piece(u32),
    /// The corner of the region at this point of the plane.
    Corner(f64, f64),
}

/// A path that does not name a node of the tree.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the path {path:?} names no node of this search tree")]
pub struct NoSuchNode {
    /// The offending path.
    pub path: Vec<u32>,
}

/// A backtracking search whose nodes are named by paths.
///
/// The children of a node are numbered `0..d` in the order the engine tries
/// them; a path lists the child index taken at each level from the root. The
/// order must be deterministic for a given puzzle and options, since shards on
/// different machines name subtrees by path.
///
/// Node counting: [`explore`](Tree::explore) counts every node of the subtree
/// it explores, its root included, at the node's depth (the root of the whole
/// tree is depth 0), so that a tree cut into subtrees counts each node once.
pub trait Tree {
    /// A solution as the engine lends it to sinks.
    type Solution: ?Sized + ToOwned;

    /// Which of raw, distinct and unique the weights are meaningful for.
    fn count_kinds(&self) -> CountKinds {
        CountKinds::ALL
    }

    /// Says what the node at `path` is, without exploring below it.
    fn node(&mut self, path: &[u32]) -> Result<NodeKind, NoSuchNode>;

    /// Says what the node at `path` is, like [`node`](Tree::node), and adds
    /// to `stats` the placements tried and rejected there (see
    /// [`NodeStats`]) for an engine that counts them; the node itself is
    /// the caller's to count. The drivers use it for the nodes above the
    /// subtrees they cut, so that those counts add up as the nodes do.
    fn node_counted(
        &mut self,
        path: &[u32],
        stats: &mut NodeStats,
    ) -> Result<NodeKind, NoSuchNode> {
        let _ = stats;
        self.node(path)
    }

    /// What the inner node at `path` branches on (the cell or corner its
    /// children fill), for engines that choose it anew at every node;
    /// `None` for a leaf, or when the engine does not say.
    fn branch(&mut self, path: &[u32]) -> Result<Option<Branch>, NoSuchNode> {
        let _ = path;
        Ok(None)
    }

    /// Explores the whole subtree at `path`, reporting each solution to `sink`
    /// and polling `ticker` every so often. Returns `Break` when the sink or
    /// the ticker stopped it before the subtree was finished.
    fn explore(
        &mut self,
        path: &[u32],
        sink: &mut dyn Sink<Self::Solution>,
        ticker: &mut Ticker<'_>,
        stats: &mut NodeStats,
    ) -> Result<ControlFlow<()>, NoSuchNode>;

    /// Walks one random path from the root to a leaf, choosing each child with
    /// `pick(d)` (which returns a number in `0..d`), and returns the number of
    /// children seen at each level and the leaf reached. Engines may override
    /// this with an incremental walk; the default replays every prefix.
    fn probe(&mut self, pick: &mut dyn FnMut(u32) -> u32) -> Result<Probe, NoSuchNode> {
        let mut path = Vec::new();
        let mut degrees = Vec::new();
        loop {
            match self.node(&path)? {
                NodeKind::Inner(d) => {
                    degrees.push(d);
                    path.push(pick(d));
                }
                leaf => {
                    return Ok(Probe { degrees, leaf });
                }
            }
        }
    }
}

/// One random walk from the root to a leaf.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Probe {
    /// Number of children at each level walked through, from the root.
    pub degrees: Vec<u32>,
    /// The leaf reached: a solution or a dead end.
    pub leaf: NodeKind,
}
