//! Choosing an engine and running it behind the shared search contract.
//!
//! [`Prepared`] holds everything about a puzzle that does not change during
//! the search (the exact-cover problem, the symmetry plan, the engine's
//! tables) and is shared by every thread; [`Solver`] is one thread's search
//! and implements [`jigsolve_search::Tree`]. A solution is lent to sinks as
//! one `u16` per board cell (in the order of [`Puzzle::board`]): the piece
//! copy covering it, numbered as in [`Puzzle::instances`].
//!
//! The engine is chosen automatically: the bitboard engine when the board
//! fits in a machine word (64 or 128 cells), dancing links otherwise. Both
//! can be asked for by name, and the tests run them against each other.

use crate::bitboard::{choose_breaker, BitSolver, BitTables, CellChoice};
use crate::dlx::{DlxSolver, DlxTables};
use crate::model::Puzzle;
use crate::problem::Problem;
use crate::symmetry::{Mode, Plan};
use jigsolve_search::{
    Branch, CountKinds, NoSuchNode, NodeKind, NodeStats, Probe, Sink, Ticker, Tree,
};
use std::fmt;
use std::ops::ControlFlow;
use std::str::FromStr;
use std::sync::Arc;

/// Which engine to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum EngineChoice {
    /// The bitboard engine when the board fits in 128 bits (first empty cell
    /// on a plain rectangle, tightest cell otherwise), else dancing links.
    #[default]
    Auto,
    /// The bitboard engine, filling the first empty cell.
    BitboardFirst,
    /// The bitboard engine, filling the tightest cell: among the empty cells
    /// with the fewest empty neighbours, the one with the fewest fitting
    /// placements.
    BitboardTight,
    /// The bitboard engine, filling the empty cell with the fewest placements.
    BitboardMrv,
    /// Dancing links with the minimum-remaining-values choice.
    Dlx,
}

impl EngineChoice {
    /// The name used on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            EngineChoice::Auto => "auto",
            EngineChoice::BitboardFirst => "bitboard-first",
            EngineChoice::BitboardTight => "bitboard",
            EngineChoice::BitboardMrv => "bitboard-mrv",
            EngineChoice::Dlx => "dlx",
        }
    }
}

impl fmt::Display for EngineChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An engine name that is not one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown engine '{0}': expected auto, bitboard, bitboard-first, bitboard-mrv or dlx")]
pub struct UnknownEngine(pub String);

impl FromStr for EngineChoice {
    type Err = UnknownEngine;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "auto" => Ok(EngineChoice::Auto),
            "bitboard" | "bitboard-tight" => Ok(EngineChoice::BitboardTight),
            "bitboard-first" => Ok(EngineChoice::BitboardFirst),
            "bitboard-mrv" => Ok(EngineChoice::BitboardMrv),
            "dlx" => Ok(EngineChoice::Dlx),
            other => Err(UnknownEngine(other.to_string())),
        }
    }
}

/// How to search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Which engine.
    pub engine: EngineChoice,
    /// Break board symmetry inside the search (one solution per class).
    /// When false every distinct solution is reported; unique counts are
    /// still computed, by comparing each solution with its images.
    pub symmetry: bool,
    /// Most steps the bitboard engine grows a region when looking for dead
    /// regions (`None`: the default, as many as the largest piece has cells
    /// and at least 6; 0: no dead-region check).
    pub region_cap: Option<u32>,
    /// Run the portable copy of the bitboard search loop even on a
    /// processor that has the bit-manipulation instructions the faster copy
    /// uses (for tests and comparisons: both must count the same).
    pub portable: bool,
    /// Run the copy of the bitboard search loop that serves every board
    /// layout even where the board's layout has a copy of its own (for
    /// tests and comparisons: both must search the same tree).
    pub any_layout: bool,
    /// Count the placements tried at each depth and those the dead-region
    /// check refused (see [`NodeStats::tried`]). The bitboard engine pays a
    /// branch per node for it, and only that when off; dancing links count
    /// what they try either way (it costs them nothing measurable).
    pub tried: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            engine: EngineChoice::Auto,
            symmetry: true,
            region_cap: None,
            portable: false,
            any_layout: false,
            tried: false,
        }
    }
}

/// The engine actually used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// Bitboard in a 64-bit word.
    Bits64(CellChoice),
    /// Bitboard in a 128-bit word.
    Bits128(CellChoice),
    /// Dancing links.
    Dlx,
}

impl Engine {
    /// A description for summaries.
    pub fn describe(self) -> String {
        let cell = |c: CellChoice| match c {
            CellChoice::First => "first empty cell",
            CellChoice::Fewest => "most constrained cell",
            CellChoice::Tightest => "most constrained of the tightest cells",
        };
        match self {
            Engine::Bits64(c) => {
                format!("bitboard, 64-bit words, {}, dead-region pruning", cell(c))
            }
            Engine::Bits128(c) => {
                format!("bitboard, 128-bit words, {}, dead-region pruning", cell(c))
            }
            Engine::Dlx => "dancing links, fewest options first".into(),
        }
    }
}

#[derive(Debug)]
enum Tables {
    Bits64(Arc<BitTables<u64>>),
    Bits128(Arc<BitTables<u128>>),
    Dlx(Arc<DlxTables>),
}

/// Everything about a puzzle that does not change during the search.
#[derive(Debug)]
pub struct Prepared {
    problem: Arc<Problem>,
    plan: Arc<Plan>,
    options: Options,
    engine: Engine,
    tables: Tables,
}

/// The cell choice of the automatic engine, from measurements on the
/// catalog (nodes, then time): on a full rectangle without colours the
/// first empty cell wins (the scan along the short side keeps a straight
/// frontier: 6 x 10 pentominoes take 0.77 M nodes against 0.60 M for the
/// tightest cell, at half the cost per node); with holes, colours or a
/// third dimension the tightest cell wins by far (8 x 8 minus the centre
/// 2.7 times fewer nodes, Atwood's checkerboard 3.7, the Bedlam cube 6.7).
/// On triangles and hexagons the bitboard grows regions by shifts too
/// (neighbours are a few fixed distances apart in the word), and the same
/// split holds with the line of the scan as the measure: on a full
/// parallelogram without colours whose scan lines are at most 8 cells the
/// first empty cell wins (hexiamonds in 4 x 9: 5 ms against 20 ms; in
/// 3 x 12: 1 ms against 5 ms), beyond that the tightest cell wins
/// (hexiamonds in the 6 x 6 rhombus, lines of 12 triangles: 76 K nodes in
/// 46 ms against 360 K in 176 ms; with coloured sides 2 ms against 9;
/// tetrahexes and trihexes in a hexagon 133 ms against 298, under load).
/// When the box does not fit in 128 bits the tightest cell is not
/// available there and the most constrained cell costs ten times as much
/// per node by a neighbour table, so the first empty cell is taken.
/// A fixed rule keeps the tree, and so every path, the same on every run.
fn auto_cell_choice(problem: &Problem) -> CellChoice {
    let volume: u64 = problem.scan_axes.iter().map(|&(_, e)| e as u64).product();
    let full_box = volume == problem.cells() as u64;
    let coloured = problem.puzzle.board.iter().any(|s| s.1.is_some());
    let first = if problem.lattice().axis_neighbours() {
        problem.lattice() == crate::Lattice::Square && full_box && !coloured
    } else {
        let slowest = problem.scan_axes.last().map_or(1, |&(_, e)| e as u64);
        let line = volume / slowest;
        volume > u128::BITS as u64 || (full_box && !coloured && line <= 8)
    };
    if first {
        CellChoice::First
    } else {
        CellChoice::Tightest
    }
}

/// The default cap on dead-region floods: the largest piece, at least 6
/// steps. (Twice the largest piece, at least 8, closed a few more regions
/// but cost more than it saved: hexiamonds in the 6 x 6 rhombus 4.3% fewer
/// instructions, Atwood's checkerboard 5.6%, the two-tone hexiamonds 5.9%,
/// Bedlam 1.5% less time, the first-empty-cell pentominoes 0.2% more.)
fn default_cap(problem: &Problem) -> u32 {
    let largest = problem.types.iter().map(|t| t.size).max().unwrap_or(1) as u32;
    largest.max(6)
}

impl Prepared {
    /// Prepares `puzzle`. Asking for the bitboard engine on a board of more
    /// than 128 cells falls back to dancing links.
    pub fn new(puzzle: &Puzzle, options: Options) -> Prepared {
        Prepared::from_problem(Problem::new(puzzle), options)
    }

    /// Prepares an already built problem.
    pub fn from_problem(problem: Problem, options: Options) -> Prepared {
        let problem = Arc::new(problem);
        let candidates = if options.symmetry {
            Plan::candidates(&problem)
        } else {
            Vec::new()
        };
        let plan = Arc::new(if candidates.is_empty() {
            Plan::new(&problem, options.symmetry)
        } else {
            Plan::fewest_orbits(&problem, candidates.clone())
        });
        let cap = options.region_cap.unwrap_or_else(|| default_cap(&problem));
        let fast = !options.portable;
        let choice = match options.engine {
            EngineChoice::BitboardMrv => Some(CellChoice::Fewest),
            EngineChoice::BitboardFirst => Some(CellChoice::First),
            EngineChoice::Dlx => None,
            EngineChoice::BitboardTight => Some(CellChoice::Tightest),
            EngineChoice::Auto => Some(auto_cell_choice(&problem)),
        };
        // The bitboard engine chooses its breaker by its own first levels
        // (see `choose_breaker`); dancing links keep the fewest orbits.
        let (engine, tables, plan) = match choice {
            Some(c) => {
                if let Some(t) = BitTables::<u64>::without_seconds(
                    Arc::clone(&problem),
                    Arc::clone(&plan),
                    c,
                    cap,
                    fast,
                ) {
                    let (t, plan) = choose_breaker(t, plan, candidates);
                    (
                        Engine::Bits64(t.choice()),
                        Tables::Bits64(Arc::new(t)),
                        plan,
                    )
                } else if let Some(t) = BitTables::<u128>::without_seconds(
                    Arc::clone(&problem),
                    Arc::clone(&plan),
                    c,
                    cap,
                    fast,
                ) {
                    let (t, plan) = choose_breaker(t, plan, candidates);
                    (
                        Engine::Bits128(t.choice()),
                        Tables::Bits128(Arc::new(t)),
                        plan,
                    )
                } else {
                    (
                        Engine::Dlx,
                        Tables::Dlx(Arc::new(DlxTables::new(
                            Arc::clone(&problem),
                            Arc::clone(&plan),
                        ))),
                        plan,
                    )
                }
            }
            None => (
                Engine::Dlx,
                Tables::Dlx(Arc::new(DlxTables::new(
                    Arc::clone(&problem),
                    Arc::clone(&plan),
                ))),
                plan,
            ),
        };
        Prepared {
            problem,
            plan,
            options,
            engine,
            tables,
        }
    }

    /// The exact-cover problem.
    pub fn problem(&self) -> &Problem {
        &self.problem
    }

    /// The puzzle.
    pub fn puzzle(&self) -> &Puzzle {
        &self.problem.puzzle
    }

    /// How symmetry is handled.
    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// The symmetry mode.
    pub fn mode(&self) -> Mode {
        self.plan.mode
    }

    /// The engine used.
    pub fn engine(&self) -> Engine {
        self.engine
    }

    /// The options.
    pub fn options(&self) -> Options {
        self.options
    }
}

/// What [`Solver`] holds: one engine's search, behind the shared contract.
///
/// `Send` and `Sync` keep the auto traits the old enum of engines had;
/// `Debug` keeps `Solver` printable.
trait Search: Tree<Solution = [u16]> + Send + Sync + fmt::Debug {}

impl<T: Tree<Solution = [u16]> + Send + Sync + fmt::Debug> Search for T {}

/// One thread's search.
///
/// Each engine implements [`Tree`] itself; this only holds the one the
/// puzzle was prepared for. The call through the box happens once per
/// node asked for or subtree explored, never inside an engine's loop.
#[derive(Debug)]
pub struct Solver(Box<dyn Search>);

impl Solver {
    /// A solver for a prepared puzzle.
    pub fn new(prep: &Prepared) -> Solver {
        Solver(match &prep.tables {
            Tables::Bits64(t) => Box::new(
                BitSolver::new(Arc::clone(t), prep.options.tried)
                    .with_any_layout(prep.options.any_layout),
            ),
            Tables::Bits128(t) => Box::new(
                BitSolver::new(Arc::clone(t), prep.options.tried)
                    .with_any_layout(prep.options.any_layout),
            ),
            Tables::Dlx(t) => Box::new(DlxSolver::new(Arc::clone(t))),
        })
    }
}

/// Forwards every method of [`Tree`], those with a default included, so
/// that an engine's own version is the one that runs.
impl Tree for Solver {
    type Solution = [u16];

    fn count_kinds(&self) -> CountKinds {
        self.0.count_kinds()
    }

    fn node(&mut self, path: &[u32]) -> Result<NodeKind, NoSuchNode> {
        self.0.node(path)
    }

    fn node_counted(
        &mut self,
        path: &[u32],
        stats: &mut NodeStats,
    ) -> Result<NodeKind, NoSuchNode> {
        self.0.node_counted(path, stats)
    }

    fn branch(&mut self, path: &[u32]) -> Result<Option<Branch>, NoSuchNode> {
        self.0.branch(path)
    }

    fn explore(
        &mut self,
        path: &[u32],
        sink: &mut dyn Sink<[u16]>,
        ticker: &mut Ticker<'_>,
        stats: &mut NodeStats,
    ) -> Result<ControlFlow<()>, NoSuchNode> {
        self.0.explore(path, sink, ticker, stats)
    }

    fn probe(&mut self, pick: &mut dyn FnMut(u32) -> u32) -> Result<Probe, NoSuchNode> {
        self.0.probe(pick)
    }
}
