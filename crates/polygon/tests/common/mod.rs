//! Helpers shared by the polygon tests: solve a puzzle, verify every solution.

#![allow(dead_code)]

use jigsolve_polygon::{parse, verify, Num, Options, Placement, Prepared, Puzzle, Solver};
use jigsolve_search::testkit::solve_verified;
use jigsolve_search::{Control, Report};
use std::path::PathBuf;
use std::sync::Arc;

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Reads a puzzle file relative to the repository root.
pub fn load(path: &str, flip: Option<bool>) -> Puzzle {
    let full = root().join(path);
    let text = std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()));
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

/// (raw, distinct, unique) of a complete search.
pub fn counts(report: &Report) -> (u128, u128, u128) {
    assert!(report.complete);
    (
        report.counts.raw.unwrap(),
        report.counts.distinct.unwrap(),
        report.counts.unique.unwrap(),
    )
}
