//! Edge-matching puzzles: square tiles with a mark on each side, laid on a
//! board so that every shared side matches.
//!
//! Impuzzable, Scramble Squares and Das verflixte Hunde-Spiel match
//! *complementary* marks (`+3` fits `-3`, a dog's head fits its tail);
//! Eternity II and most computer-made puzzles match *equal* colours and have a
//! border colour that must face the frame. Both are one model here
//! ([`model`]), read from TOML or the plain formats in the wild ([`parse`]),
//! searched by one engine ([`engine`]) that implements the shared
//! [`jigsolve_search::Tree`] contract, and checked by an independent
//! verifier ([`mod@verify`]).
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

pub mod engine;
pub mod generate;
pub mod model;
pub mod order;
pub mod parse;
pub mod symmetry;
pub mod verify;

pub use engine::{Options, Prepared, Solver, SymmetryMode};
pub use model::Placement;
pub use model::{Hint, Marks, Matching, Puzzle, Tile};
pub use order::ScanOrder;
pub use verify::{verify, VerifyError};
