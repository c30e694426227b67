//! Planted solutions on boards too big to cross-check every engine: the
//! automatic engine must find the solution the puzzle was cut from.

mod common;
use common::*;
use jigsolve_grid::generate::{planted, Colouring, Spec};
use jigsolve_grid::{verify, EngineChoice, Lattice, Options, Prepared, Solver};
use jigsolve_search::{run, Control, RunConfig};
use proptest::prelude::*;
use std::ops::ControlFlow;

/// Searches until the planted solution turns up (or the search ends).
fn finds(puzzle: &jigsolve_grid::Puzzle, planted: &[u16], engine: EngineChoice) -> bool {
    let want = canonical(puzzle, planted);
    let prep = Prepared::new(
        puzzle,
        Options {
            engine,
            symmetry: false,
            region_cap: None,
            portable: false,
            any_layout: false,
            tried: false,
        },
    );
    let mut found = false;
    run(
        || Solver::new(&prep),
        &RunConfig::default(),
        &Control::new().with_node_limit(50_000_000),
        |s: &[u16], _| {
            verify(puzzle, s).expect("every solution verifies");
            if canonical(puzzle, s) == want {
                found = true;
                return ControlFlow::Break(());
            }
            ControlFlow::Continue(())
        },
    )
    .expect("paths are valid");
    found
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, .. ProptestConfig::default() })]

    #[test]
    fn the_planted_solution_is_found_on_a_square_board(seed in any::<u64>(), colours in 3u8..5, dlx in any::<bool>()) {
        let spec = Spec { lattice: Lattice::Square, size: [9, 8, 1], holes: 0.1, min_piece: 3, max_piece: 7, colouring: Colouring::Random(colours), one_sided: 0.5 };
        let (puzzle, solution) = planted(spec, seed);
        verify(&puzzle, &solution).expect("the planted solution verifies");
        let engine = if dlx { EngineChoice::Dlx } else { EngineChoice::Auto };
        prop_assert!(finds(&puzzle, &solution, engine));
    }

    #[test]
    fn the_planted_solution_is_found_in_a_box(seed in any::<u64>(), colours in 3u8..5) {
        let spec = Spec { lattice: Lattice::Cube, size: [4, 4, 3], holes: 0.0, min_piece: 3, max_piece: 5, colouring: Colouring::Random(colours), one_sided: 1.0 };
        let (puzzle, solution) = planted(spec, seed);
        verify(&puzzle, &solution).expect("the planted solution verifies");
        prop_assert!(finds(&puzzle, &solution, EngineChoice::Auto));
    }

    #[test]
    fn boards_wider_than_a_word_use_128_bits_or_dancing_links(seed in any::<u64>()) {
        // 12 x 10 = 120 cells (128-bit words); 13 x 11 = 143 (dancing links).
        for size in [[12, 10, 1], [13, 11, 1]] {
            let spec = Spec { lattice: Lattice::Square, size, holes: 0.0, min_piece: 4, max_piece: 9, colouring: Colouring::Random(3), one_sided: 0.5 };
            let (puzzle, solution) = planted(spec, seed);
            prop_assert!(finds(&puzzle, &solution, EngineChoice::Auto));
        }
    }
}
