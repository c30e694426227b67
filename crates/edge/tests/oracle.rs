//! The engine against an independent brute-force oracle on small boards.
//!
//! The oracle shares nothing with the engine but the puzzle model: it tries
//! every tile in every rotation cell by cell, checks the joins with
//! `Marks::fits`, and computes every count from first principles: raw is the
//! number of (tile, rotation) assignments; distinct the number of different
//! grids of shown marks (swapping identical tiles or turning a look-alike tile
//! shows the same marks); unique the number of those grids up to the board
//! rotations that keep the board and its hints.

mod common;
use common::*;
use jigsolve_edge::generate::{planted, Spec};
use jigsolve_edge::{Hint, Matching, Options, Puzzle};
use proptest::prelude::*;
use std::collections::BTreeSet;

type Shown = Vec<[u16; 4]>;

struct Oracle {
    raw: u128,
    grids: BTreeSet<Shown>,
}

fn oracle(p: &Puzzle) -> Oracle {
    let n = p.rows * p.cols;
    let mut o = Oracle {
        raw: 0,
        grids: BTreeSet::new(),
    };
    let mut used = vec![false; p.tiles.len()];
    let mut shown: Shown = Vec::with_capacity(n);
    fill(p, &mut used, &mut shown, &mut o);
    o
}

fn fill(p: &Puzzle, used: &mut [bool], shown: &mut Shown, o: &mut Oracle) {
    let cell = shown.len();
    if cell == p.rows * p.cols {
        o.raw += 1;
        o.grids.insert(shown.clone());
        return;
    }
    let (r, c) = (cell / p.cols, cell % p.cols);
    for t in 0..p.tiles.len() {
        if used[t] {
            continue;
        }
        for rot in 0..4 {
            if let Some(h) = p.hints.iter().find(|h| h.row == r && h.col == c) {
                // The hinted tile itself, in any rotation that looks like the
                // hint's (look-alike rotations count apart in raw counts).
                if h.tile != t || p.tiles[t].rotated(rot) != p.tiles[t].rotated(h.rotation) {
                    continue;
                }
            } else if p.hints.iter().any(|h| h.tile == t) {
                continue;
            }
            let m = p.tiles[t].rotated(rot);
            if c > 0 && !p.marks.fits(shown[cell - 1][1], m[3]) {
                continue;
            }
            if r > 0 && !p.marks.fits(shown[cell - p.cols][2], m[0]) {
                continue;
            }
            if let Some(b) = p.border {
                let frame = [r == 0, c + 1 == p.cols, r + 1 == p.rows, c == 0];
                if (0..4).any(|s| (m[s] == b) != frame[s]) {
                    continue;
                }
            }
            used[t] = true;
            shown.push(m);
            fill(p, used, shown, o);
            shown.pop();
            used[t] = false;
        }
    }
}

/// The rotations that keep the board and map each hint onto a hint showing
/// the same marks.
fn symmetries(p: &Puzzle) -> Vec<usize> {
    let candidates: Vec<usize> = if p.rows == p.cols {
        vec![0, 1, 2, 3]
    } else {
        vec![0, 2]
    };
    candidates
        .into_iter()
        .filter(|&q| {
            p.hints.iter().all(|h| {
                let (r, c) = (h.row, h.col);
                let (nr, nc) = match q {
                    0 => (r, c),
                    1 => (c, p.rows - 1 - r),
                    2 => (p.rows - 1 - r, p.cols - 1 - c),
                    _ => (p.cols - 1 - c, r),
                };
                let marks = p.tiles[h.tile].rotated(h.rotation);
                let turned: [u16; 4] = std::array::from_fn(|s| marks[(s + 4 - q) % 4]);
                p.hints.iter().any(|g| {
                    g.row == nr && g.col == nc && p.tiles[g.tile].rotated(g.rotation) == turned
                })
            })
        })
        .collect()
}

fn oracle_counts(p: &Puzzle) -> (u128, u128, u128, BTreeSet<Shown>) {
    let o = oracle(p);
    let group = symmetries(p);
    let unique: BTreeSet<Shown> = o
        .grids
        .iter()
        .map(|g| {
            group
                .iter()
                .map(|&q| turned(p.rows, p.cols, g, q))
                .min()
                .unwrap()
        })
        .collect();
    (o.raw, o.grids.len() as u128, unique.len() as u128, o.grids)
}

fn shown_grid(p: &Puzzle, s: &[jigsolve_edge::Placement]) -> Shown {
    s.iter()
        .map(|pl| p.tiles[pl.tile as usize].rotated(pl.rotation))
        .collect()
}

fn check_against_oracle(p: &Puzzle) {
    let (raw, distinct, unique, grids) = oracle_counts(p);
    for order in orders() {
        // Both copies of the inner loop (portable, and for processors with
        // the bit-manipulation instructions) against the oracle.
        for (symmetry, portable) in [(true, false), (false, false), (false, true)] {
            let (report, solutions) = solve(
                p,
                Options {
                    order,
                    symmetry,
                    portable,
                    ..Options::default()
                },
                1,
            );
            assert_eq!(
                counts(&report),
                (raw, distinct, unique),
                "{}: order {order}, symmetry {symmetry}, portable {portable}\n{p:?}",
                p.name
            );
            if !symmetry {
                let found: BTreeSet<Shown> = solutions.iter().map(|s| shown_grid(p, s)).collect();
                assert_eq!(found, grids, "{}: the distinct solutions differ", p.name);
                assert_eq!(
                    solutions.len(),
                    grids.len(),
                    "a distinct solution listed twice"
                );
            }
        }
    }
}

/// A small random puzzle: a planted board with few colours (so duplicates,
/// look-alike tiles and many solutions are common), and maybe hints taken
/// from the planted solution.
fn small_puzzle(
    rows: usize,
    cols: usize,
    colours: usize,
    border: bool,
    equal: bool,
    hints: usize,
    seed: u64,
) -> Puzzle {
    let matching = if equal {
        Matching::Equal
    } else {
        Matching::Complementary
    };
    let (mut p, solution) = planted(
        Spec {
            frame_colours: 0,
            rows,
            cols,
            colours,
            border,
            matching,
        },
        seed,
    );
    for i in 0..hints.min(rows * cols) {
        let cell = (i * 7 + seed as usize) % (rows * cols);
        if p.hints.iter().any(|h| h.row * cols + h.col == cell) {
            continue;
        }
        let pl = solution[cell];
        p.hints.push(Hint {
            tile: pl.tile as usize,
            row: cell / cols,
            col: cell % cols,
            rotation: pl.rotation,
        });
    }
    p
}

#[test]
fn seeds_agree_with_the_oracle() {
    for path in [
        "puzzles/edge/impuzzable.toml",
        "puzzles/edge/scramble.toml",
        "puzzles/edge/hunde-spiel.toml",
    ] {
        let p = load(path);
        let (raw, distinct, unique, _) = oracle_counts(&p);
        let (report, _) = solve(&p, Options::default(), 1);
        assert_eq!(counts(&report), (raw, distinct, unique), "{path}");
    }
}

#[test]
fn one_colour_boards_are_full_of_symmetry() {
    // Every tile alike and symmetric: the hardest case for counting.
    // (3 x 3 would be 9! x 4^9 raw solutions: too many for the oracle.)
    for (rows, cols) in [(1, 1), (1, 3), (2, 2), (2, 3)] {
        for equal in [true, false] {
            let p = small_puzzle(rows, cols, 1, false, equal, 0, 1);
            check_against_oracle(&p);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn engine_agrees_with_the_oracle(
        rows in 1usize..=3,
        cols in 1usize..=3,
        colours in 1usize..=3,
        border: bool,
        equal: bool,
        hints in 0usize..=2,
        seed: u64,
    ) {
        // Keep the oracle's raw enumeration small: one colour only on small
        // boards or with a border or hints, 3 x 3 with at least two colours.
        let colours = if rows * cols > 6 && !border && hints == 0 { colours.max(2) } else { colours };
        let colours = if rows * cols == 9 { colours.max(2) } else { colours };
        let p = small_puzzle(rows, cols, colours, border, equal, hints, seed);
        check_against_oracle(&p);
    }
}
