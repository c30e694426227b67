//! Helpers shared by the grid tests: load a puzzle, solve it with a given
//! engine, verify every solution independently.

#![allow(dead_code)]

use jigsolve_grid::{parse, verify, EngineChoice, Options, Prepared, Puzzle, Solver};
#[allow(unused_imports)] // not every test file counts
pub use jigsolve_search::testkit::complete_counts as counts;
use jigsolve_search::testkit::{solve_verified, workspace_file};
use jigsolve_search::{count_solutions, Control, Report};

/// Reads a puzzle file relative to the repository root.
pub fn load(path: &str) -> Puzzle {
    let text = workspace_file(path);
    parse::parse(&text, path)
        .unwrap_or_else(|e| panic!("{e}"))
        .puzzle
}

/// Options for an engine, with or without symmetry breaking.
pub fn options(engine: EngineChoice, symmetry: bool) -> Options {
    Options {
        engine,
        symmetry,
        region_cap: None,
        portable: false,
        any_layout: false,
        tried: false,
    }
}

/// Solves `puzzle`, verifies every solution independently, and returns the
/// report and the solutions (the copy covering each cell).
pub fn solve(puzzle: &Puzzle, options: Options, threads: usize) -> (Report, Vec<Vec<u16>>) {
    let prep = Prepared::new(puzzle, options);
    let (report, found) = solve_verified(
        || Solver::new(&prep),
        |s: &[u16]| verify(puzzle, s).map_err(|e| e.to_string()),
        threads,
        &Control::new(),
    )
    .unwrap_or_else(|e| panic!("{}: {e}", puzzle.name));
    assert!(report.complete);
    (report, found)
}

/// Counts only (no solutions passed out).
pub fn count(puzzle: &Puzzle, options: Options) -> Report {
    let prep = Prepared::new(puzzle, options);
    let report =
        count_solutions(|| Solver::new(&prep), 1, &Control::new()).expect("paths are valid");
    assert!(report.complete);
    report
}

/// A solution in a form that does not depend on how copies of one type
/// were numbered: for each cell, the piece type's first member and the
/// first cell of the copy covering it.
pub fn canonical(puzzle: &Puzzle, s: &[u16]) -> Vec<(usize, usize)> {
    let problem = jigsolve_grid::Problem::new(puzzle);
    let inst = puzzle.instances();
    let mut first = std::collections::HashMap::new();
    for (b, &i) in s.iter().enumerate() {
        first.entry(i).or_insert(b);
    }
    s.iter()
        .map(|&i| {
            let piece = inst[i as usize].0;
            let ty = problem.type_of[piece];
            (problem.types[ty].members[0], first[&i])
        })
        .collect()
}
