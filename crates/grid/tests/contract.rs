//! Every polyform engine keeps the search contract (`jigsolve_search::
//! testkit`): the same counts and node totals on 1 to 4 threads and on 1,
//! 2, 3 and 7 shards added up, probes that walk the tree `node` describes,
//! and every solution passing the independent verifier.

mod common;

use common::{load, options};
use jigsolve_grid::generate::{planted, Colouring, Spec};
use jigsolve_grid::{verify, EngineChoice, Lattice, Prepared, Puzzle, Solver};
use jigsolve_search::testkit::{check, Contract};

const ENGINES: [EngineChoice; 4] = [
    EngineChoice::BitboardFirst,
    EngineChoice::BitboardTight,
    EngineChoice::BitboardMrv,
    EngineChoice::Dlx,
];

fn keeps_the_contract(puzzle: &Puzzle, engine: EngineChoice, symmetry: bool) -> u128 {
    let prep = Prepared::new(puzzle, options(engine, symmetry));
    let report = check(
        || Solver::new(&prep),
        |s: &[u16]| verify(puzzle, s).map_err(|e| e.to_string()),
        &Contract::default(),
    )
    .unwrap_or_else(|e| panic!("{} with {engine:?}: {e}", puzzle.name));
    report.counts.unique.expect("unique is counted")
}

#[test]
fn every_engine_on_a_board_and_a_box() {
    // 3 x 20 pentominoes: 2 solutions; the Soma cube: 240.
    for (path, unique) in [
        ("puzzles/grid/pentomino-3x20.toml", 2),
        ("puzzles/grid/soma.toml", 240),
    ] {
        let puzzle = load(path);
        for engine in ENGINES {
            assert_eq!(
                keeps_the_contract(&puzzle, engine, true),
                unique,
                "{path} {engine:?}"
            );
        }
        assert_eq!(
            keeps_the_contract(&puzzle, EngineChoice::Auto, false),
            unique,
            "{path} without symmetry breaking"
        );
    }
}

#[test]
fn the_128_bit_bitboard_and_coloured_boards() {
    // 12 x 10 = 120 cells: too wide for 64-bit words.
    let spec = Spec {
        lattice: Lattice::Square,
        size: [12, 10, 1],
        holes: 0.0,
        min_piece: 4,
        max_piece: 9,
        colouring: Colouring::Random(3),
        one_sided: 0.5,
    };
    let (puzzle, _) = planted(spec, 7);
    let prep = Prepared::new(&puzzle, options(EngineChoice::Auto, true));
    assert!(
        prep.engine().describe().contains("128-bit"),
        "{}",
        prep.engine().describe()
    );
    for engine in [EngineChoice::Auto, EngineChoice::Dlx] {
        assert!(keeps_the_contract(&puzzle, engine, true) >= 1);
    }
}
