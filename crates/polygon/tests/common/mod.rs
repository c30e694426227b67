//! Helpers shared by the polygon tests: solve a puzzle, verify every solution.

#![allow(dead_code)]

use jigsolve_polygon::{parse, verify, Num, Options, Placement, Prepared, Puzzle, Solver};
use jigsolve_search::{run, Control, Report, RunConfig};
use std::ops::ControlFlow;
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
    let mut found = Vec::new();
    let report = run(
        || Solver::new(Arc::clone(&prep)),
        &RunConfig {
            threads,
            shard: None,
            want_solutions: true,
        },
        &control,
        |s: &[Placement<Num>], _| {
            if let Err(e) = verify(puzzle, s) {
                panic!(
                    "{}: engine produced a wrong solution: {e}\n{s:?}",
                    puzzle.name
                );
            }
            found.push(s.to_vec());
            ControlFlow::Continue(())
        },
    )
    .expect("paths are valid");
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
