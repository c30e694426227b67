//! Polyform puzzles: pieces made of cells, packed into a board of cells.
//!
//! Pentominoes, the Soma and Bedlam cubes and Atwood's checkerboard are all
//! the same problem: cover every cell of a board exactly once with copies of
//! the pieces, where a piece may be moved, turned, and (when two-sided)
//! turned over, and coloured cells must meet cells of their colour. That is
//! exact cover (Knuth's Algorithm X), with colours (which here only filter
//! placements) and multiplicities (several identical copies).
//!
//! The crate is split by concern; its modules are private and what other
//! crates need is re-exported here.
//!
//! - `lattice`: square cells in the plane and cubes in space, with their
//!   rotation and reflection groups ([`Lattice`], [`Cell`]; open to hexagons
//!   and triangles).
//! - `model`: boards, pieces, colours, copies, optional pieces ([`Puzzle`],
//!   [`Piece`], [`Sides`], pinned pieces [`Pin`]); what makes a puzzle invalid or suspicious
//!   ([`Warning`]).
//! - [`parse`]: TOML with ASCII art or coordinate lists.
//! - `problem`: the exact-cover problem both engines search ([`Problem`]):
//!   piece types with multiplicities, placements, scan order, symmetries.
//! - `symmetry`: breaking the board's symmetry inside the search ([`Plan`],
//!   [`Mode`]).
//! - `bitboard` and `dlx`: the two engines, each implementing
//!   [`jigsolve_search::Tree`]; `engine` chooses one ([`Prepared`],
//!   [`Solver`], [`EngineChoice`]).
//! - `letters`: a solution as the letter grid people read
//!   ([`letter_layers`]), shared by the text and JSON output.
//! - [`mod@verify`]: an independent check of a solution.
//! - [`mod@write`]: a puzzle as a TOML file that reads back to it.
//! - [`export`]: Knuth's DLX text format, to cross-check with his programs.
//! - [`generate`]: puzzles with a planted solution, for tests.
//!
//! ```
//! use jigsolve_grid::{parse, Options, Prepared, Solver};
//! use jigsolve_search::{count_solutions, Control};
//!
//! // Two L trominoes (two-sided) tile a 2 x 3 rectangle.
//! let text = r#"
//! board = { size = [3, 2] }
//! [[piece]]
//! name = "L"
//! copies = 2
//! shape = """
//! L.
//! LL
//! """
//! "#;
//! let puzzle = parse::parse(text, "l.toml").unwrap().puzzle;
//! let prepared = Prepared::new(&puzzle, Options::default());
//! let report = count_solutions(|| Solver::new(&prepared), 1, &Control::new()).unwrap();
//! // Two tilings of the rectangle, mirror images of each other: two
//! // distinct solutions, one up to the rectangle's symmetries; telling the
//! // two copies apart doubles the raw count.
//! assert_eq!(report.counts.distinct, Some(2));
//! assert_eq!(report.counts.unique, Some(1));
//! assert_eq!(report.counts.raw, Some(4));
//! ```

#![warn(missing_docs)]

mod bitboard;
mod bits;
mod dlx;
mod engine;
pub mod export;
pub mod generate;
mod lattice;
mod letters;
mod model;
pub mod parse;
mod problem;
mod symmetry;
pub mod verify;
pub mod write;

pub use engine::{Engine, EngineChoice, Options, Prepared, Solver, UnknownEngine};
pub use lattice::{bounding_box, Cell, Lattice};
pub use letters::letter_layers;
pub use model::{ModelError, Piece, Pin, Puzzle, Sides, Site, Warning, MAX_BOARD};
pub use problem::{scan_turn, Problem};
pub use symmetry::{Mode, Plan};
pub use verify::{verify, VerifyError};
