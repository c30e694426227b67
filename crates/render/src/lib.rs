//! Pictures of puzzles and solutions: text grids for the terminal (and, as the
//! families land, SVG and PNG).
//!
//! Rendering knows every family; no family knows rendering. Each module takes
//! a puzzle and a solution as the family's library represents them and
//! returns a string, so the command-line tool decides where it goes.

#![warn(missing_docs)]

pub mod edge;
pub mod grid;
pub mod polygon;
