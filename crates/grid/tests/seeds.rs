//! Seed 004 (Atwood's checkerboard): Figure 3 of the paper is one of the
//! solutions, and so is Figure 4 (pieces 4 and 10 swapped), which is the
//! same distinct solution with the two identical copies told apart.

mod common;
use common::*;
use jigsolve_grid::{verify, EngineChoice};

const FIGURE_3: &str = "4 4 4 4 2 2 2 2
4 7 7 7 7 7 2 2
4 7 3 3 3 6 5 5
9 9 3 3 6 6 5 5
1 9 9 8 6 10 0 5
1 1 9 8 6 10 0 5
11 8 8 8 6 10 0 5
11 11 11 11 11 10 10 10";

/// The figure as the copy covering each board cell: Atwood's piece 10 is
/// the second copy of the catalog's piece "4".
fn figure(swap: bool) -> (jigsolve_grid::Puzzle, Vec<u16>) {
    let puzzle = load("puzzles/grid/atwood.toml");
    let inst = puzzle.instances();
    let copy_of = |name: &str| -> u16 {
        let (piece, copy) = match name {
            "10" => ("4", if swap { 0 } else { 1 }),
            "4" => ("4", if swap { 1 } else { 0 }),
            n => (n, 0),
        };
        let p = puzzle.pieces.iter().position(|x| x.name == piece).unwrap();
        inst.iter().position(|&(q, k)| q == p && k == copy).unwrap() as u16
    };
    let rows: Vec<Vec<&str>> = FIGURE_3
        .lines()
        .map(|l| l.split_whitespace().collect())
        .collect();
    let copies = puzzle
        .board
        .iter()
        .map(|(c, _)| copy_of(rows[c[1] as usize][c[0] as usize]))
        .collect();
    (puzzle, copies)
}

#[test]
fn figures_3_and_4_are_solutions() {
    for swap in [false, true] {
        let (puzzle, copies) = figure(swap);
        verify(&puzzle, &copies)
            .unwrap_or_else(|e| panic!("figure {}: {e}", if swap { 4 } else { 3 }));
    }
}

#[test]
fn figure_3_is_found() {
    let (puzzle, copies) = figure(false);
    let want = canonical(&puzzle, &copies);
    let (report, listed) = solve(&puzzle, options(EngineChoice::Auto, false), 1);
    assert_eq!(counts(&report), (44, 22, 11));
    assert!(listed.iter().any(|s| canonical(&puzzle, s) == want));
}

#[test]
fn board_orientation_does_not_matter() {
    // 3 x 20 and 20 x 3 are the same problem to the engines: the same
    // counts and the same search tree (nodes), whichever way the board lies.
    let wide = load("puzzles/grid/pentomino-3x20.toml");
    let text = jigsolve_search::testkit::workspace_file("puzzles/grid/pentomino-3x20.toml");
    let tall_board = format!("board = \"\"\"\n{}\"\"\"", "###\n".repeat(20));
    let start = text.find("board = \"\"\"").unwrap();
    let end = start + text[start..].find("\n\"\"\"").unwrap() + 4;
    let tall_text = format!("{}{}{}", &text[..start], tall_board, &text[end..]);
    let tall = jigsolve_grid::parse::parse(&tall_text, "tall.toml")
        .unwrap()
        .puzzle;
    assert_eq!(tall.cells(), 60);
    for engine in [
        EngineChoice::BitboardFirst,
        EngineChoice::BitboardTight,
        EngineChoice::Dlx,
    ] {
        let a = count(&wide, options(engine, true));
        let b = count(&tall, options(engine, true));
        assert_eq!(counts(&a), (8, 8, 2), "{engine}");
        assert_eq!(counts(&a), counts(&b), "{engine}");
        assert_eq!(
            a.nodes.total(),
            b.nodes.total(),
            "{engine}: the trees differ"
        );
    }
}
