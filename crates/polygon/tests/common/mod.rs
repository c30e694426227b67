//! Helpers shared by the polygon tests: solve a puzzle, verify every solution.

#![allow(dead_code)]

use jigsolve_polygon::{parse, verify, Num, Options, Placement, Prepared, Puzzle, Solver};
#[allow(unused_imports)] // not every test file counts
pub use jigsolve_search::testkit::complete_counts as counts;
use jigsolve_search::testkit::{solve_verified, workspace_file};
use jigsolve_search::{Control, Report};
use std::sync::Arc;

/// Reads a puzzle file relative to the repository root.
pub fn load(path: &str, flip: Option<bool>) -> Puzzle {
    let text = workspace_file(path);
    parse::parse_with(&text, path, flip).unwrap_or_else(|e| panic!("{e}"))
}

/// Solves `puzzle` exactly, verifies every reported solution independently,
/// and returns the report and the solutions.
pub fn solve(
    puzzle: &Puzzle,
    options: Options,
    threads: usize,
    control: Control,
) -> (Report, Vec<Vec<Placement<Num>>>) {
    let prep = Arc::new(Prepared::<Num>::new(puzzle, options).expect("exact"));
    let (report, found) = solve_verified(
        || Solver::new(Arc::clone(&prep)),
        |s: &[Placement<Num>]| verify(puzzle, s).map_err(|e| e.to_string()),
        threads,
        &control,
    )
    .unwrap_or_else(|e| panic!("{}: {e}", puzzle.name));
    assert!(
        !prep.overflowed(),
        "{}: exact arithmetic overflowed",
        puzzle.name
    );
    (report, found)
}
