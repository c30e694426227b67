//! The catalog puzzles give the published counts (see README, Polyforms).
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
