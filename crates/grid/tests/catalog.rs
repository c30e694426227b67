//! The catalog puzzles give the published counts (see docs/polyforms.md).
//! Every solution any of these searches lists passes the independent
//! verifier (see `common::solve`).

mod common;
use common::*;
use jigsolve_grid::EngineChoice;

fn check(path: &str, expected: (u128, u128, u128)) {
    let puzzle = load(path);
    let (report, solutions) = solve(&puzzle, options(EngineChoice::Auto, true), 1);
    assert_eq!(counts(&report), expected, "{path}");
    // One listed solution per unique class.
    assert_eq!(solutions.len() as u128, expected.2, "{path}");
}

#[test]
fn pentominoes_6x10_have_2339_unique_and_9356_raw() {
    check("puzzles/grid/pentomino-6x10.toml", (9356, 9356, 2339));
}

#[test]
fn pentominoes_5x12_have_1010_unique() {
    check("puzzles/grid/pentomino-5x12.toml", (4040, 4040, 1010));
}

#[test]
fn pentominoes_4x15_have_368_unique() {
    check("puzzles/grid/pentomino-4x15.toml", (1472, 1472, 368));
}

#[test]
fn pentominoes_3x20_have_2_unique() {
    check("puzzles/grid/pentomino-3x20.toml", (8, 8, 2));
}

#[test]
fn pentominoes_on_8x8_without_the_centre_have_65_unique() {
    check("puzzles/grid/pentomino-8x8-hole.toml", (520, 520, 65));
}

#[test]
fn soma_has_240_up_to_rotation_and_mirror_image() {
    check("puzzles/grid/soma.toml", (11520, 11520, 240));
}

#[test]
fn atwood_has_44_raw_22_distinct_11_unique() {
    check("puzzles/grid/atwood.toml", (44, 22, 11));
}

#[test]
fn bedlam_has_19186_up_to_rotation() {
    let puzzle = load("puzzles/grid/bedlam.toml");
    let report = count(&puzzle, options(EngineChoice::Auto, true));
    assert_eq!(counts(&report), (460_464, 460_464, 19_186));
}

/// Every engine, with and without symmetry breaking, on a puzzle of the
/// triangle or hexagon lattice (every listed solution verified).
fn check_all_engines(path: &str, expected: (u128, u128, u128)) {
    let puzzle = load(path);
    for engine in [
        EngineChoice::Auto,
        EngineChoice::BitboardFirst,
        EngineChoice::BitboardTight,
        EngineChoice::Dlx,
    ] {
        for symmetry in [true, false] {
            let (report, solutions) = solve(&puzzle, options(engine, symmetry), 1);
            assert_eq!(counts(&report), expected, "{path} {engine} {symmetry}");
            let listed = if symmetry { expected.2 } else { expected.1 };
            assert_eq!(solutions.len() as u128, listed, "{path} {engine}");
        }
    }
}

#[test]
fn hexiamonds_6x6_have_156_unique_and_624_raw() {
    check_all_engines("puzzles/grid/hexiamond-6x6.toml", (624, 624, 156));
}

#[test]
fn hexiamonds_4x9_have_74_unique() {
    check_all_engines("puzzles/grid/hexiamond-4x9.toml", (148, 148, 74));
}

#[test]
fn hexiamonds_3x12_have_none() {
    check_all_engines("puzzles/grid/hexiamond-3x12.toml", (0, 0, 0));
}

#[test]
fn tetrahexes_4x7_have_9_unique() {
    check_all_engines("puzzles/grid/tetrahex-4x7.toml", (18, 18, 9));
}

#[test]
fn coloured_plane_puzzles() {
    check_all_engines("puzzles/grid/hexiamond-6x6-sides.toml", (12, 12, 6));
    check_all_engines("puzzles/grid/tetrahex-4x7-colours.toml", (3, 3, 3));
}

#[test]
fn trihexes_and_tetrahexes_in_a_hexagon_have_12290_unique() {
    // The hexagon keeps all twelve motions of the lattice.
    check(
        "puzzles/grid/polyhex-hexagon.toml",
        (147_480, 147_480, 12_290),
    );
}

/// A-Puzzle-A-Day with its month and day left open: every month-day pair
/// together, with every engine (each solution verified, its open cells in
/// their groups).
#[test]
fn a_puzzle_a_day_has_25061_coverings_of_all_month_day_pairs() {
    check_all_engines("puzzles/grid/a-puzzle-a-day.toml", (25_061, 25_061, 25_061));
}
