//! Edge-matching puzzles: square tiles with a mark on each side, laid on a
//! board so that every shared side matches.
//!
//! Impuzzable, Scramble Squares and Das verflixte Hunde-Spiel match
//! *complementary* marks (`+3` fits `-3`, a dog's head fits its tail);
//! Eternity II and most computer-made puzzles match *equal* colours and have a
//! border colour that must face the frame. Both are one model here
//! ([`Puzzle`], [`Tile`], [`Matching`]), read from TOML or the plain formats
//! in the wild ([`parse`]), searched by one engine ([`Solver`]) that
//! implements the shared [`jigsolve_search::Tree`] contract, and checked by
//! an independent verifier ([`mod@verify`]); [`generate`] makes puzzles with
//! a planted solution; [`best`] searches for the board with the most
//! matching edges when no full solution can be found, and [`score`] checks
//! such boards. The modules `model`, `order` (scan orders),
//! `symmetry` and `engine` are private; what other crates need is
//! re-exported here.
//!
//! ```
//! use jigsolve_edge::{parse, Options, Prepared, Solver};
//! use jigsolve_search::{count_solutions, Control};
//! use std::sync::Arc;
//!
//! let text = r#"
//! rows = 1
//! cols = 2
//! tiles = ["+1 +2 -1 +3", "-4 -1 +4 -2"]
//! "#;
//! let puzzle = parse::parse(text, "two.toml", None).unwrap();
//! let prepared = Arc::new(Prepared::new(&puzzle, Options::default()));
//! let report = count_solutions(|| Solver::new(Arc::clone(&prepared)), 1, &Control::new()).unwrap();
//! assert!(report.complete);
//! // Tile 1's +2 or +1 can meet tile 2's -2 or -1, with either tile on the
//! // left: four raw solutions, two when the board's half turn is removed.
//! assert_eq!(report.counts.raw, Some(4));
//! assert_eq!(report.counts.unique, Some(2));
//! ```

#![warn(missing_docs)]

pub mod best;
mod engine;
pub mod generate;
mod model;
mod order;
pub mod parse;
pub mod score;
mod symmetry;
pub mod verify;
pub mod write;

pub use engine::{rank_orders, Options, Prepared, Solver, SymmetryMode};
pub use model::{split_polarity, Hint, MarkId, Marks, Matching, Placement, Polarity, Puzzle, Tile};
pub use order::ScanOrder;
pub use verify::{verify, VerifyError};
