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
        let (p, plant) = planted(Spec { rows, cols, colours, frame_colours: 0, border, matching }, seed);
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

/// Distinct solutions under the node at `path`, found by asking the engine
/// for each node's children one node at a time (the scalar candidate scan
/// that cuts the tree for threads), not by its inner loop.
fn distinct_by_nodes(tree: &mut jigsolve_edge::Solver, path: &mut Vec<u32>) -> u128 {
    use jigsolve_search::{NodeKind, Tree};
    match tree.node(path).expect("a node") {
        NodeKind::Solution(w) => w.distinct,
        NodeKind::DeadEnd => 0,
        NodeKind::Inner(d) => (0..d)
            .map(|k| {
                path.push(k);
                let n = distinct_by_nodes(tree, path);
                path.pop();
                n
            })
            .sum(),
    }
}

/// With no border and symmetry off, the first cell may take any of the 80
/// turned tiles: a table bucket longer than the 64 entries the inner loop
/// tests at once. Both copies of the loop must count what the node-by-node
/// walk counts, and find the planted solution.
#[test]
fn buckets_longer_than_a_block_are_searched_whole() {
    for seed in 0..4 {
        let spec = Spec {
            frame_colours: 0,
            rows: 4,
            cols: 5,
            colours: 12,
            border: false,
            matching: Matching::Equal,
        };
        let (p, plant) = planted(spec, seed);
        let target = shown(&p, &plant);
        let mut expected = None;
        for portable in [false, true] {
            let options = Options {
                order: ScanOrder::Rows,
                symmetry: false,
                portable,
                ..Options::default()
            };
            let (report, solutions) = solve(&p, options, 1);
            let (_, distinct, _) = counts(&report);
            assert!(
                solutions.iter().any(|s| shown(&p, s) == target),
                "seed {seed}"
            );
            let prep = std::sync::Arc::new(jigsolve_edge::Prepared::new(&p, options));
            let mut tree = jigsolve_edge::Solver::new(prep);
            let walked =
                *expected.get_or_insert_with(|| distinct_by_nodes(&mut tree, &mut Vec::new()));
            assert_eq!(distinct, walked, "seed {seed}, portable {portable}");
        }
    }
}
