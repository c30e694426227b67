//! Pinned pieces against a brute force that knows nothing of the engines.
//!
//! The brute force lists every raw solution of the *unpinned* puzzle (each
//! piece copy told apart) by plain backtracking over copies and motions;
//! the solutions that honour the pins are filtered out of that list. Their
//! number is the raw count of the pinned puzzle, their number with copies
//! of one shape merged the distinct count, and (when every piece is
//! two-sided, so any motion maps a solution to a solution) their number up
//! to the motions that keep the board and the pins the unique count. Every
//! engine, with symmetry breaking and without, must give those counts, and
//! every solution it lists must pass the verifier.

mod common;
use common::*;
use jigsolve_grid::generate::{planted, Colouring, Spec};
use jigsolve_grid::{bounding_box, verify, Cell, EngineChoice, Lattice, Piece, Pin, Puzzle, Sides};
use jigsolve_search::estimate::SplitMix64;
use std::collections::{BTreeSet, HashMap};

const ENGINES: [EngineChoice; 3] = [
    EngineChoice::BitboardFirst,
    EngineChoice::BitboardTight,
    EngineChoice::Dlx,
];

/// Raw solutions above this many are not brute-forced.
const RAW_LIMIT: usize = 20_000;

type Site = (Cell, Option<u8>);

/// Every way to put `piece` on the board, as sorted board indices.
fn placements(puzzle: &Puzzle, piece: &Piece) -> Vec<Vec<usize>> {
    let lattice = puzzle.lattice;
    let motions = match piece.sides {
        Sides::One => lattice.rotations(),
        Sides::Two => lattice.motions(),
    };
    let mut out = BTreeSet::new();
    for m in 0..motions {
        let moved: Vec<Site> = piece
            .shape
            .iter()
            .map(|&(c, k)| (lattice.apply(m, c), k))
            .collect();
        let first = moved.iter().map(|s| s.0).min().expect("pieces have cells");
        for &(b, _) in &puzzle.board {
            let mut cells = Vec::new();
            for &(c, k) in &moved {
                let at = [
                    c[0] - first[0] + b[0],
                    c[1] - first[1] + b[1],
                    c[2] - first[2] + b[2],
                ];
                match puzzle.board_index(at) {
                    Some(i) => {
                        let bk = puzzle.board[i].1;
                        if k.is_some() && bk.is_some() && k != bk {
                            break;
                        }
                        cells.push(i);
                    }
                    None => break,
                }
            }
            if cells.len() == moved.len() {
                cells.sort_unstable();
                out.insert(cells);
            }
        }
    }
    out.into_iter().collect()
}

/// Every raw solution of `puzzle` (pins ignored), or `None` past the limit.
fn brute(puzzle: &Puzzle) -> Option<Vec<Vec<u16>>> {
    let instances = puzzle.instances();
    let per_piece: Vec<Vec<Vec<usize>>> = puzzle
        .pieces
        .iter()
        .map(|p| placements(puzzle, p))
        .collect();
    let mut cover: Vec<Option<u16>> = vec![None; puzzle.cells()];
    let mut used = vec![false; instances.len()];
    let mut out = Vec::new();
    #[allow(clippy::too_many_arguments)]
    fn go(
        puzzle: &Puzzle,
        instances: &[(usize, u32)],
        per_piece: &[Vec<Vec<usize>>],
        cover: &mut Vec<Option<u16>>,
        used: &mut Vec<bool>,
        out: &mut Vec<Vec<u16>>,
    ) -> bool {
        let Some(first) = cover.iter().position(Option::is_none) else {
            let all_mandatory = instances
                .iter()
                .zip(used.iter())
                .all(|(&(p, _), &u)| u || puzzle.pieces[p].optional);
            if all_mandatory {
                out.push(cover.iter().map(|c| c.expect("covered")).collect());
            }
            return out.len() <= RAW_LIMIT;
        };
        for (i, &(p, _)) in instances.iter().enumerate() {
            if used[i] {
                continue;
            }
            for pl in &per_piece[p] {
                if !pl.contains(&first) || pl.iter().any(|&c| cover[c].is_some()) {
                    continue;
                }
                used[i] = true;
                for &c in pl {
                    cover[c] = Some(i as u16);
                }
                let more = go(puzzle, instances, per_piece, cover, used, out);
                for &c in pl {
                    cover[c] = None;
                }
                used[i] = false;
                if !more {
                    return false;
                }
            }
        }
        true
    }
    go(
        puzzle, &instances, &per_piece, &mut cover, &mut used, &mut out,
    )
    .then_some(out)
}

/// The cells (sorted) of each copy in a raw solution.
fn copies_cells(puzzle: &Puzzle, s: &[u16]) -> HashMap<u16, Vec<Cell>> {
    let mut m: HashMap<u16, Vec<Cell>> = HashMap::new();
    for (b, &i) in s.iter().enumerate() {
        m.entry(i).or_default().push(puzzle.board[b].0);
    }
    m.values_mut().for_each(|v| v.sort_unstable());
    m
}

/// Whether a raw solution puts a copy of each pinned piece on its pin.
fn honours(puzzle: &Puzzle, pins: &[Pin], s: &[u16]) -> bool {
    let instances = puzzle.instances();
    let cells = copies_cells(puzzle, s);
    pins.iter().all(|pin| {
        let mut want = pin.cells.clone();
        want.sort_unstable();
        cells
            .iter()
            .any(|(&i, c)| instances[i as usize].0 == pin.piece && *c == want)
    })
}

/// A label per board cell that forgets which copy of a shape is where: the
/// shape (its set of orientations) and the least cell of the copy.
fn distinct_key(puzzle: &Puzzle, s: &[u16]) -> Vec<(usize, Cell)> {
    let instances = puzzle.instances();
    let mut shapes: Vec<Vec<Vec<Site>>> = Vec::new();
    let shape_of: Vec<usize> = puzzle
        .pieces
        .iter()
        .map(|p| {
            let o = p.orientations(puzzle.lattice);
            match shapes.iter().position(|x| *x == o) {
                Some(i) => i,
                None => {
                    shapes.push(o);
                    shapes.len() - 1
                }
            }
        })
        .collect();
    let cells = copies_cells(puzzle, s);
    s.iter()
        .map(|&i| (shape_of[instances[i as usize].0], cells[&i][0]))
        .collect()
}

/// The motions (with their translations) that map the board onto itself
/// with its colours and each pin onto a pin of the same piece.
fn symmetries(puzzle: &Puzzle) -> Vec<Box<dyn Fn(Cell) -> Cell + '_>> {
    let lattice = puzzle.lattice;
    let (lo, _) = bounding_box(puzzle.board.iter().map(|s| s.0)).expect("a board");
    let mut out: Vec<Box<dyn Fn(Cell) -> Cell + '_>> = Vec::new();
    for m in 0..lattice.motions() {
        let (mlo, _) =
            bounding_box(puzzle.board.iter().map(|s| lattice.apply(m, s.0))).expect("a board");
        let f = move |c: Cell| {
            let d = lattice.apply(m, c);
            [
                d[0] - mlo[0] + lo[0],
                d[1] - mlo[1] + lo[1],
                d[2] - mlo[2] + lo[2],
            ]
        };
        let board_kept = puzzle
            .board
            .iter()
            .all(|&(c, k)| puzzle.board_index(f(c)).map(|b| puzzle.board[b].1) == Some(k));
        let pins_kept = puzzle.pins.iter().all(|pin| {
            let mut image: Vec<Cell> = pin.cells.iter().map(|&c| f(c)).collect();
            image.sort_unstable();
            puzzle.pins.iter().any(|q| {
                let mut qc = q.cells.clone();
                qc.sort_unstable();
                q.piece == pin.piece && qc == image
            })
        });
        if board_kept && pins_kept {
            out.push(Box::new(f));
        }
    }
    out
}

/// The image of a raw solution under a motion of the board.
fn image(puzzle: &Puzzle, s: &[u16], f: &dyn Fn(Cell) -> Cell) -> Vec<u16> {
    let mut out = vec![0u16; s.len()];
    for (b, &i) in s.iter().enumerate() {
        let to = puzzle
            .board_index(f(puzzle.board[b].0))
            .expect("a symmetry keeps the board");
        out[to] = i;
    }
    out
}

/// (raw, distinct, unique) of `pinned` by brute force (unique only when
/// every piece is two-sided), or `None` when there are too many solutions.
fn oracle(pinned: &Puzzle) -> Option<(u128, u128, Option<u128>)> {
    let mut unpinned = pinned.clone();
    unpinned.pins.clear();
    let all = brute(&unpinned)?;
    let kept: Vec<&Vec<u16>> = all
        .iter()
        .filter(|s| honours(pinned, &pinned.pins, s))
        .collect();
    for s in &kept {
        verify(pinned, s).unwrap_or_else(|e| panic!("the verifier rejects a good solution: {e}"));
    }
    // And the verifier rejects those that break a pin.
    for s in all.iter().filter(|s| !honours(pinned, &pinned.pins, s)) {
        assert!(
            matches!(
                verify(pinned, s),
                Err(jigsolve_grid::VerifyError::Pin { .. })
            ),
            "the verifier accepts a solution that breaks a pin"
        );
    }
    let keys: BTreeSet<Vec<(usize, Cell)>> = kept.iter().map(|s| distinct_key(pinned, s)).collect();
    let unique = pinned
        .pieces
        .iter()
        .all(|p| p.sides == Sides::Two)
        .then(|| {
            let group = symmetries(pinned);
            let mut seen: BTreeSet<Vec<(usize, Cell)>> = BTreeSet::new();
            let mut orbits = 0u128;
            for s in &kept {
                let k = distinct_key(pinned, s);
                if seen.contains(&k) {
                    continue;
                }
                orbits += 1;
                for f in &group {
                    seen.insert(distinct_key(pinned, &image(pinned, s, f.as_ref())));
                }
            }
            orbits
        });
    Some((kept.len() as u128, keys.len() as u128, unique))
}

/// Checks every engine on `pinned` against the brute force; false when the
/// puzzle has too many solutions to brute-force.
fn check(pinned: &Puzzle) -> bool {
    let Some((raw, distinct, unique)) = oracle(pinned) else {
        return false;
    };
    for engine in ENGINES {
        for symmetry in [false, true] {
            // `solve` verifies every solution it is given.
            let (report, listed) = solve(pinned, options(engine, symmetry), 1);
            let c = counts(&report);
            let at = format!("{engine}, symmetry {symmetry}, {pinned:?}");
            assert_eq!(c.0, raw, "raw: {at}");
            assert_eq!(c.1, distinct, "distinct: {at}");
            if let Some(u) = unique {
                assert_eq!(c.2, u, "unique: {at}");
            }
            if !symmetry {
                assert_eq!(listed.len() as u128, distinct, "listed: {at}");
                for s in &listed {
                    assert!(honours(pinned, &pinned.pins, s), "a pin broken: {at}");
                }
            }
        }
    }
    true
}

/// Pins the copies of a few random pieces where `solution` has them.
fn pin_some(puzzle: &Puzzle, solution: &[u16], rng: &mut SplitMix64, how_many: usize) -> Puzzle {
    let instances = puzzle.instances();
    let cells = copies_cells(puzzle, solution);
    let mut ids: Vec<u16> = cells.keys().copied().collect();
    ids.sort_unstable();
    let mut pins = Vec::new();
    for _ in 0..how_many.min(ids.len()) {
        let k = rng.below(ids.len() as u32) as usize;
        let id = ids.swap_remove(k);
        pins.push(Pin {
            piece: instances[id as usize].0,
            cells: cells[&id].clone(),
        });
    }
    puzzle
        .clone()
        .with_pins(pins)
        .unwrap_or_else(|e| panic!("pins from a solution are valid: {e:?}"))
}

fn spec(w: i32, h: i32, colouring: Colouring, one_sided: f64) -> Spec {
    Spec {
        lattice: Lattice::Square,
        size: [w, h, 1],
        holes: 0.0,
        min_piece: 2,
        max_piece: 4,
        colouring,
        one_sided,
    }
}

#[test]
fn pinned_counts_match_the_brute_force_on_planted_puzzles() {
    let mut checked = 0;
    for seed in 0..30u64 {
        let (w, h) = [(4, 3), (4, 4), (5, 3), (3, 3)][seed as usize % 4];
        let colouring = if seed % 3 == 0 {
            Colouring::Checker
        } else {
            Colouring::None
        };
        let one_sided = if seed % 5 == 1 { 0.6 } else { 0.0 };
        let (puzzle, solution) = planted(spec(w, h, colouring, one_sided), seed);
        let mut rng = SplitMix64::new(seed ^ 0x9e37);
        for n in 1..=2 {
            let pinned = pin_some(&puzzle, &solution, &mut rng, n);
            checked += check(&pinned) as u32;
        }
    }
    assert!(checked >= 40, "only {checked} pinned puzzles were checked");
}

/// Builds a small puzzle from art rows and pieces given as cell lists.
fn puzzle(w: i32, h: i32, pieces: Vec<Piece>) -> Puzzle {
    let board = (0..w)
        .flat_map(|x| (0..h).map(move |y| ([x, y, 0], None)))
        .collect();
    Puzzle::new("t".into(), Lattice::Square, vec![], board, pieces).expect("a valid puzzle")
}

fn piece(name: &str, cells: &[(i32, i32)], copies: u32, optional: bool) -> Piece {
    Piece {
        name: name.into(),
        shape: cells.iter().map(|&(x, y)| ([x, y, 0], None)).collect(),
        copies,
        optional,
        least: 0,
        open: None,
        sides: Sides::Two,
    }
}

#[test]
fn pins_of_copies_and_of_congruent_and_optional_pieces_count_right() {
    let domino = [(0, 0), (1, 0)];
    let cases = [
        // Four identical dominoes on 2 x 4, one or two pinned.
        puzzle(4, 2, vec![piece("D", &domino, 4, false)]),
        // Two pieces of one shape (merged for distinct counts), one of
        // them optional, plus a spare optional copy.
        puzzle(
            3,
            2,
            vec![piece("A", &domino, 2, false), piece("B", &domino, 2, true)],
        ),
        // Monominoes and dominoes, some optional.
        puzzle(
            3,
            2,
            vec![
                piece("M", &[(0, 0)], 3, true),
                piece("D", &domino, 2, false),
            ],
        ),
    ];
    for (i, p) in cases.iter().enumerate() {
        let all = brute(p).expect("small");
        let mut rng = SplitMix64::new(i as u64);
        for round in 0..6 {
            let s = &all[rng.below(all.len() as u32) as usize];
            let pinned = pin_some(p, s, &mut rng, 1 + round % 2);
            assert!(check(&pinned), "case {i} is small");
        }
    }
}

#[test]
fn a_symmetric_pin_keeps_the_symmetries_that_map_it_onto_itself() {
    // An I tromino pinned in the middle row of a 3 x 3 board with two more
    // I trominoes: the board's 8 symmetries shrink to the 4 that keep the
    // middle row (the identity, both mirrors, the half turn).
    let i3 = [(0, 0), (1, 0), (2, 0)];
    let p = puzzle(3, 3, vec![piece("I", &i3, 3, false)])
        .with_pins(vec![Pin {
            piece: 0,
            cells: vec![[0, 1, 0], [1, 1, 0], [2, 1, 0]],
        }])
        .expect("a valid pin");
    let problem = jigsolve_grid::Problem::new(&p);
    assert_eq!(problem.group.len(), 4);
    assert!(check(&p));
}
