//! `write::to_toml` reads back to an equal puzzle: random planted puzzles
//! (square and cube, coloured and not, one- and two-sided pieces, with
//! pins taken from the planted solution) and every catalog puzzle.

mod common;
use common::*;
use jigsolve_grid::generate::{planted, Colouring, Spec};
use jigsolve_grid::{parse, write, Lattice, Pin, Puzzle};
use jigsolve_search::estimate::SplitMix64;
use std::collections::BTreeMap;

fn round_trip(puzzle: &Puzzle) -> String {
    let text = write::to_toml(puzzle);
    let back = parse::parse(&text, "written.toml")
        .unwrap_or_else(|e| panic!("{e}\n{text}"))
        .puzzle;
    assert_eq!(&back, puzzle, "\n{text}");
    text
}

/// The puzzle with the copies of up to `n` random pieces of `solution` pinned.
fn with_pins(puzzle: &Puzzle, solution: &[u16], seed: u64, n: usize) -> Puzzle {
    let instances = puzzle.instances();
    let mut cells: BTreeMap<u16, Vec<_>> = BTreeMap::new();
    for (b, &i) in solution.iter().enumerate() {
        cells.entry(i).or_default().push(puzzle.board[b].0);
    }
    let mut rng = SplitMix64::new(seed);
    let mut ids: Vec<u16> = cells.keys().copied().collect();
    let mut pins = Vec::new();
    for _ in 0..n.min(ids.len()) {
        let id = ids.swap_remove(rng.below(ids.len() as u32) as usize);
        pins.push(Pin {
            piece: instances[id as usize].0,
            cells: cells[&id].clone(),
        });
    }
    puzzle
        .clone()
        .with_pins(pins)
        .expect("pins from a solution")
}

#[test]
fn planted_puzzles_with_pins_read_back_equal() {
    let mut art = 0;
    for seed in 0..24u64 {
        let lattice = if seed % 2 == 0 {
            Lattice::Square
        } else {
            Lattice::Cube
        };
        let colouring = match seed % 3 {
            0 => Colouring::None,
            1 => Colouring::Checker,
            _ => Colouring::Random(3),
        };
        let spec = Spec {
            lattice,
            size: [5, 4, 3],
            holes: (seed % 4) as f64 / 10.0,
            min_piece: 2,
            max_piece: 5,
            colouring,
            one_sided: if seed % 4 < 2 { 0.5 } else { 0.0 },
        };
        let (puzzle, solution) = planted(spec, seed);
        round_trip(&puzzle);
        let pinned = with_pins(&puzzle, &solution, seed, 1 + seed as usize % 3);
        assert!(!pinned.pins.is_empty());
        let text = round_trip(&pinned);
        art += text.contains("board = \"\"\"") as u32;
    }
    // Square boards from the origin are drawn, not listed.
    assert!(art >= 10, "only {art} boards drawn as art");
}

#[test]
fn a_board_moved_off_the_origin_reads_back_equal() {
    let (puzzle, solution) = planted(
        Spec {
            lattice: Lattice::Square,
            size: [6, 5, 1],
            holes: 0.1,
            min_piece: 3,
            max_piece: 5,
            colouring: Colouring::Checker,
            one_sided: 0.0,
        },
        7,
    );
    let moved = Puzzle::new(
        puzzle.name.clone(),
        puzzle.lattice,
        puzzle.colours.clone(),
        puzzle
            .board
            .iter()
            .map(|&(c, k)| ([c[0] - 3, c[1] + 2, 0], k))
            .collect(),
        puzzle.pieces.clone(),
    )
    .expect("a moved board");
    let text = round_trip(&moved);
    assert!(text.contains("board = [["), "{text}");
    let pinned = with_pins(&puzzle, &solution, 1, 3);
    round_trip(&pinned);
}

#[test]
fn every_catalog_puzzle_reads_back_equal() {
    let dir = jigsolve_search::testkit::workspace_root().join("puzzles/grid");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).expect("the catalog") {
        let path = entry.expect("an entry").path();
        if path.extension().and_then(|e| e.to_str()) != Some("toml") {
            continue;
        }
        let rel = format!(
            "puzzles/grid/{}",
            path.file_name().and_then(|f| f.to_str()).expect("a name")
        );
        round_trip(&load(&rel));
        n += 1;
    }
    assert!(n >= 8, "only {n} catalog puzzles");
}
