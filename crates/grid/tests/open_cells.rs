//! Cells left open (open groups, the hole limit) and piece ranges, on every
//! lattice and engine, against an oracle that knows nothing of them: the
//! same puzzle with the open cells taken off the board, or with an exact
//! number of copies, summed over every choice. Random planted puzzles get
//! two extra board cells, so that two cells must stay open; every
//! solution found verifies independently (and keeps its open cells in
//! their groups).

mod common;
use common::*;
use jigsolve_grid::generate::{planted, Colouring, Spec};
use jigsolve_grid::{Cell, EngineChoice, Lattice, Piece, Puzzle, Sides, Site};
use proptest::prelude::*;

const ENGINES: [EngineChoice; 4] = [
    EngineChoice::BitboardFirst,
    EngineChoice::BitboardTight,
    EngineChoice::BitboardMrv,
    EngineChoice::Dlx,
];

fn spec(lattice: Lattice) -> Spec {
    let size = match lattice {
        Lattice::Cube => [3, 2, 2],
        Lattice::Triangle => [3, 2, 1],
        _ => [4, 3, 1],
    };
    Spec {
        lattice,
        size,
        holes: 0.0,
        min_piece: 2,
        max_piece: 4,
        colouring: Colouring::None,
        one_sided: 0.0,
    }
}

/// The planted puzzle's board with up to two more cells next to it (so
/// that two cells must stay open), or `None` when it has no room.
fn grown(puzzle: &Puzzle, pick: u64) -> Option<(Vec<Site>, Vec<Cell>)> {
    let lattice = puzzle.lattice;
    let on: std::collections::BTreeSet<Cell> = puzzle.board.iter().map(|s| s.0).collect();
    let mut around: Vec<Cell> = on
        .iter()
        .flat_map(|&c| lattice.neighbours(c).collect::<Vec<_>>())
        .filter(|c| !on.contains(c))
        .collect();
    around.sort();
    around.dedup();
    if around.len() < 2 {
        return None;
    }
    let a = around[(pick % around.len() as u64) as usize];
    let b = around[((pick / 7 + 1) % around.len() as u64) as usize];
    if a == b {
        return None;
    }
    let mut board = puzzle.board.clone();
    board.push((a, None));
    board.push((b, None));
    Some((board, vec![a, b]))
}

fn open_piece(name: &str, cells: Vec<Cell>, copies: u32, optional: bool) -> Piece {
    Piece {
        name: name.into(),
        shape: vec![([0, 0, 0], None)],
        copies,
        optional,
        least: 0,
        open: Some(cells),
        sides: Sides::Two,
    }
}

fn with(puzzle: &Puzzle, board: Vec<Site>, extra: Vec<Piece>) -> Option<Puzzle> {
    let mut pieces = puzzle.pieces.clone();
    pieces.extend(extra);
    Puzzle::new("t".into(), puzzle.lattice, vec![], board, pieces).ok()
}

/// Raw and distinct counts with every engine, with and without symmetry
/// broken, all equal (every solution verified); the first engine's.
fn agreed(puzzle: &Puzzle) -> (u128, u128) {
    let mut first = None;
    for engine in ENGINES {
        for symmetry in [false, true] {
            let (report, _) = solve(puzzle, options(engine, symmetry), 1);
            let c = counts(&report);
            let got = (c.0, c.1);
            match first {
                None => first = Some(got),
                Some(f) => assert_eq!(f, got, "{engine}, symmetry {symmetry}"),
            }
        }
    }
    first.unwrap_or_default()
}

/// Raw and distinct counts of `puzzle` with the board cells `gone` taken
/// off (0 when that leaves no puzzle).
fn without(puzzle: &Puzzle, board: &[Site], gone: &[Cell]) -> (u128, u128) {
    let board: Vec<Site> = board
        .iter()
        .filter(|s| !gone.contains(&s.0))
        .copied()
        .collect();
    match Puzzle::new(
        "o".into(),
        puzzle.lattice,
        vec![],
        board,
        puzzle.pieces.clone(),
    ) {
        Ok(p) => {
            let c = counts(&count(&p, options(EngineChoice::Dlx, false)));
            (c.0, c.1)
        }
        Err(_) => (0, 0),
    }
}

fn check(lattice: Lattice, seed: u64, pick: u64, group_size: usize) {
    let (puzzle, _) = planted(spec(lattice), seed);
    let Some((board, extra)) = grown(&puzzle, pick) else {
        return;
    };
    let cells: Vec<Cell> = board.iter().map(|s| s.0).collect();

    // Any two cells may stay open: the sum over every pair taken off.
    let holes = with(
        &puzzle,
        board.clone(),
        vec![open_piece("holes", cells.clone(), 2, true)],
    )
    .expect("a valid puzzle");
    let mut want = (0, 0);
    for i in 0..cells.len() {
        for j in i + 1..cells.len() {
            let c = without(&puzzle, &board, &[cells[i], cells[j]]);
            want = (want.0 + c.0, want.1 + c.1);
        }
    }
    assert_eq!(agreed(&holes), want, "holes = 2 on {lattice}, seed {seed}");
    assert!(
        want.1 >= 1,
        "the planted solution leaves the extra cells open"
    );

    // One open cell in each of two groups: the extra cells and a few
    // board cells in one, the rest of the board in the other.
    let mut first: Vec<Cell> = extra.clone();
    first.extend(cells.iter().filter(|c| !extra.contains(c)).take(group_size));
    let second: Vec<Cell> = cells
        .iter()
        .filter(|c| !first.contains(c))
        .copied()
        .collect();
    let groups = with(
        &puzzle,
        board.clone(),
        vec![
            open_piece("a", first.clone(), 1, false),
            open_piece("b", second.clone(), 1, false),
        ],
    )
    .expect("a valid puzzle");
    let mut want = (0, 0);
    for &x in &first {
        for &y in &second {
            let c = without(&puzzle, &board, &[x, y]);
            want = (want.0 + c.0, want.1 + c.1);
        }
    }
    assert_eq!(
        agreed(&groups),
        want,
        "two open groups on {lattice}, seed {seed}"
    );

    // A range: one to three single cells fill the two extra cells; only
    // two fit, which is the puzzle with two mandatory copies.
    let mut single = Piece::new("s", vec![([0, 0, 0], None)], Sides::Two);
    single.copies = 3;
    single.optional = true;
    single.least = 1;
    if let Some(ranged) = with(&puzzle, board.clone(), vec![single.clone()]) {
        let exact = Piece {
            copies: 2,
            optional: false,
            ..single
        };
        let two = with(&puzzle, board.clone(), vec![exact]).expect("a valid puzzle");
        let distinct = |p: &Puzzle| agreed(p).1;
        assert_eq!(
            distinct(&ranged),
            distinct(&two),
            "copies \"1..3\" on {lattice}"
        );
    }
}

#[test]
fn every_lattice_keeps_two_cells_open_as_the_oracle_counts() {
    for lattice in [
        Lattice::Square,
        Lattice::Triangle,
        Lattice::Hexagon,
        Lattice::Cube,
    ] {
        for seed in 0..3 {
            check(lattice, seed, seed * 13 + 5, 2);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, .. ProptestConfig::default() })]

    #[test]
    fn open_cells_and_ranges_agree_with_the_oracle(
        seed in any::<u64>(),
        pick in any::<u64>(),
        lattice in 0usize..4,
        group_size in 0usize..4,
    ) {
        let lattice = [Lattice::Square, Lattice::Triangle, Lattice::Hexagon, Lattice::Cube][lattice];
        check(lattice, seed, pick, group_size);
    }
}
