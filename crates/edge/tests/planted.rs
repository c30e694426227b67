//! Cut a random board into tiles, shuffle and turn them: the engine must find
//! the planted solution (up to a board rotation), and everything it finds
//! must verify.

mod common;
use common::*;
use jigsolve_edge::generate::{planted, Spec};
use jigsolve_edge::{verify, Matching, Options, Placement, Puzzle, ScanOrder};
use proptest::prelude::*;

fn shown(p: &Puzzle, s: &[Placement]) -> Vec<[u16; 4]> {
    s.iter()
        .map(|pl| p.tiles[pl.tile as usize].rotated(pl.rotation))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn the_planted_solution_is_found(
        rows in 2usize..=6,
        cols in 2usize..=6,
        extra_colours in 0usize..=4,
        border: bool,
        equal: bool,
        order in prop::sample::select(vec![ScanOrder::Auto, ScanOrder::Rows, ScanOrder::Frame, ScanOrder::Spiral]),
        seed: u64,
    ) {
        // Enough colours that the solutions stay few enough to list.
        let colours = (rows * cols) / 3 + 4 + extra_colours;
        let matching = if equal { Matching::Equal } else { Matching::Complementary };
        let (p, plant) = planted(Spec { rows, cols, colours, border, matching }, seed);
        prop_assert!(verify(&p, &plant).is_ok(), "the generator planted a wrong solution");
        // Spiral from the centre meets the frame last, and a frame-first
        // order without a border mark has nothing to hold the ring: each
        // makes trees orders of magnitude larger where it does not fit, so
        // keep spiral to frameless boards and frame to bordered ones.
        let order = match order {
            ScanOrder::Spiral if border => ScanOrder::Frame,
            ScanOrder::Frame if !border => ScanOrder::Spiral,
            other => other,
        };
        let (report, solutions) = solve(&p, Options { order, symmetry: true, ..Options::default() }, 1);
        prop_assert!(report.counts.unique.unwrap() >= 1);
        let target = shown(&p, &plant);
        let turns: &[usize] = if rows == cols { &[0, 1, 2, 3] } else { &[0, 2] };
        let found = solutions.iter().any(|s| {
            let g = shown(&p, s);
            turns.iter().any(|&q| turned(p.rows, p.cols, &g, q) == target)
        });
        prop_assert!(found, "planted solution not found among {} unique", solutions.len());
    }
}
