//! Helpers shared by the edge tests: solve a puzzle, verify every solution.

#![allow(dead_code)]

use jigsolve_edge::{verify, Options, Placement, Prepared, Puzzle, ScanOrder, Solver};
#[allow(unused_imports)] // not every test file counts
pub use jigsolve_search::testkit::complete_counts as counts;
use jigsolve_search::testkit::{solve_verified, workspace_file};
use jigsolve_search::{Control, Report};
use std::sync::Arc;

/// Reads a puzzle file relative to the repository root.
pub fn load(path: &str) -> Puzzle {
    let text = workspace_file(path);
    jigsolve_edge::parse::parse(&text, path, None).unwrap_or_else(|e| panic!("{e}"))
}

/// Solves `puzzle`, verifies every solution independently, and returns the
/// report and the solutions.
pub fn solve(puzzle: &Puzzle, options: Options, threads: usize) -> (Report, Vec<Vec<Placement>>) {
    let prep = Arc::new(Prepared::new(puzzle, options));
    let (report, found) = solve_verified(
        || Solver::new(Arc::clone(&prep)),
        |s: &[Placement]| verify(puzzle, s).map_err(|e| e.to_string()),
        threads,
        &Control::new(),
    )
    .unwrap_or_else(|e| panic!("{}: {e}", puzzle.name));
    assert!(report.complete);
    (report, found)
}

/// Every concrete scan order.
pub fn orders() -> [ScanOrder; 3] {
    ScanOrder::CONCRETE
}

/// A grid of shown marks (row-major) turned `q` quarter turns clockwise
/// (odd `q` only on square boards): written from the definition, not the
/// engine's symmetry code.
pub fn turned(rows: usize, cols: usize, grid: &[[u16; 4]], q: usize) -> Vec<[u16; 4]> {
    let mut out = grid.to_vec();
    for (cell, m) in grid.iter().enumerate() {
        let (r, c) = (cell / cols, cell % cols);
        let to = match q {
            0 => cell,
            1 => c * cols + (rows - 1 - r),
            2 => (rows - 1 - r) * cols + (cols - 1 - c),
            _ => (cols - 1 - c) * cols + r,
        };
        out[to] = std::array::from_fn(|s| m[(s + 4 - q) % 4]);
    }
    out
}
