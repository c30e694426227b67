//! A board is as fast however it is written: every motion of the lattice
//! applied to a catalog puzzle (board, cells left open, labels and pins
//! moved together) gives the same counts, solutions that pass the
//! verifier, and a tree of the same size within a small factor. Before
//! the scan was laid out on a canonical turn, the 6 x 6 rhombus of
//! hexiamonds written turned by a sixth took 214,415 nodes against 22,394.

mod common;
use common::*;
use jigsolve_grid::{EngineChoice, Pin, Puzzle};

/// The nodes of a turned board may differ from the written one's by this
/// factor at most (the symmetry breaker's representatives depend on the
/// order in which pieces' orientations are listed, which turns change).
const FACTOR: f64 = 1.25;

/// `puzzle` with everything on its board moved by lattice motion `m`.
fn turned(puzzle: &Puzzle, m: usize) -> Puzzle {
    let lattice = puzzle.lattice;
    let go = |c| lattice.apply(m, c);
    let board = puzzle.board.iter().map(|&(c, k)| (go(c), k)).collect();
    let mut pieces = puzzle.pieces.clone();
    for p in &mut pieces {
        if let Some(open) = &mut p.open {
            for c in open.iter_mut() {
                *c = go(*c);
            }
        }
    }
    let labels = puzzle
        .labels
        .iter()
        .map(|(c, l)| (go(*c), l.clone()))
        .collect();
    let pins = puzzle
        .pins
        .iter()
        .map(|p| Pin {
            piece: p.piece,
            cells: p.cells.iter().map(|&c| go(c)).collect(),
        })
        .collect();
    Puzzle::new(
        puzzle.name.clone(),
        lattice,
        puzzle.colours.clone(),
        board,
        pieces,
    )
    .expect("a turned puzzle is a puzzle")
    .with_labels(labels)
    .expect("turned labels")
    .with_pins(pins)
    .map_err(|e| e.0)
    .expect("turned pins")
}

fn every_turn_alike(path: &str) {
    let puzzle = load(path);
    let written = count(&puzzle, options(EngineChoice::Auto, true));
    let nodes = written.nodes.total() as f64;
    for m in 1..puzzle.lattice.motions() {
        let t = turned(&puzzle, m);
        let (report, _) = solve(&t, options(EngineChoice::Auto, true), 1);
        assert_eq!(counts(&report), counts(&written), "{path} turned by {m}");
        let ratio = report.nodes.total() as f64 / nodes;
        assert!(
            (1.0 / FACTOR..=FACTOR).contains(&ratio),
            "{path} turned by {m}: {} nodes against {nodes} as written",
            report.nodes.total()
        );
    }
}

#[test]
fn hexiamonds_in_the_rhombus_are_as_fast_turned() {
    every_turn_alike("puzzles/grid/hexiamond-6x6.toml");
    every_turn_alike("puzzles/grid/hexiamond-6x6-sides.toml");
}

#[test]
fn hexiamonds_in_parallelograms_are_as_fast_turned() {
    every_turn_alike("puzzles/grid/hexiamond-4x9.toml");
    every_turn_alike("puzzles/grid/hexiamond-3x12.toml");
}

#[test]
fn hexagon_boards_are_as_fast_turned() {
    every_turn_alike("puzzles/grid/polyhex-hexagon.toml");
    every_turn_alike("puzzles/grid/tetrahex-4x7.toml");
    every_turn_alike("puzzles/grid/tetrahex-4x7-colours.toml");
}

#[test]
fn square_boards_are_as_fast_turned() {
    every_turn_alike("puzzles/grid/pentomino-6x10.toml");
    every_turn_alike("puzzles/grid/pentomino-8x8-hole.toml");
    every_turn_alike("puzzles/grid/atwood.toml");
}

#[test]
fn the_calendar_is_as_fast_turned() {
    every_turn_alike("puzzles/grid/a-puzzle-a-day.toml");
}

#[test]
fn the_soma_cube_is_as_fast_turned() {
    every_turn_alike("puzzles/grid/soma.toml");
}
