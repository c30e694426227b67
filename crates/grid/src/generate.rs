//! Puzzles with a planted solution, for tests.
//!
//! Cut a random board into random connected pieces, turn (and, for
//! two-sided pieces, maybe mirror) each one, and list them in random
//! order: the result has at least the solution it was cut from, so an
//! engine that misses it is wrong (the varisat trick). Boards are random
//! connected sets of cells in a box (holes allowed), optionally coloured
//! like a checkerboard or at random.

use crate::lattice::{Cell, Lattice};
use crate::model::{Piece, Puzzle, Sides, Site};
use jigsolve_search::estimate::SplitMix64;
use std::collections::{HashMap, HashSet};

/// How the board is coloured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Colouring {
    /// No colours.
    None,
    /// Two colours in a checkerboard pattern.
    Checker,
    /// Each cell one of this many colours at random (few placements fit,
    /// so even big boards search quickly).
    Random(u8),
}

/// What to generate.
#[derive(Clone, Copy, Debug)]
pub struct Spec {
    /// The lattice.
    pub lattice: Lattice,
    /// The box the board lies in: `[x, y, z]` extents (z = 1 on the square lattice).
    pub size: [i32; 3],
    /// Fraction of the box's cells to drop as holes (0.0 for a full box).
    pub holes: f64,
    /// Smallest piece size aimed at (a piece boxed in by others may end smaller).
    pub min_piece: usize,
    /// Largest piece size.
    pub max_piece: usize,
    /// How the board is coloured (the pieces take the colours of the cells
    /// they were cut from).
    pub colouring: Colouring,
    /// Pieces are one-sided with this probability.
    pub one_sided: f64,
}

/// A puzzle and a solution planted in it: for each board cell (in the
/// order of [`Puzzle::board`]) the piece copy covering it.
pub fn planted(spec: Spec, seed: u64) -> (Puzzle, Vec<u16>) {
    let mut rng = SplitMix64::new(seed);
    let lattice = spec.lattice;
    let [sx, sy, sz] = spec.size;
    let sz = if lattice == Lattice::Square {
        1
    } else {
        sz.max(1)
    };
    let mut cells: Vec<Cell> = Vec::new();
    for z in 0..sz {
        for y in 0..sy.max(1) {
            for x in 0..sx.max(1) {
                cells.push([x, y, z]);
            }
        }
    }
    // Drop holes, keeping the board connected: remove random cells whose
    // removal keeps the rest in one part.
    let target = ((cells.len() as f64) * spec.holes.clamp(0.0, 0.6)) as usize;
    let mut tries = 0;
    let mut removed = 0;
    while removed < target && tries < 20 * cells.len() && cells.len() > 1 {
        tries += 1;
        let i = rng.below(cells.len() as u32) as usize;
        let mut rest = cells.clone();
        rest.swap_remove(i);
        if crate::model::parts(lattice, &rest) == 1 {
            cells = rest;
            removed += 1;
        }
    }
    cells.sort();
    // Grow pieces: repeatedly start a piece at a random uncovered cell and
    // add random uncovered neighbours up to a random size.
    let on_board: HashSet<Cell> = cells.iter().copied().collect();
    let mut owner: HashMap<Cell, usize> = HashMap::new();
    let mut pieces_cells: Vec<Vec<Cell>> = Vec::new();
    let mut order: Vec<Cell> = cells.clone();
    for i in (1..order.len()).rev() {
        let j = rng.below(i as u32 + 1) as usize;
        order.swap(i, j);
    }
    for &start in &order {
        if owner.contains_key(&start) {
            continue;
        }
        let lo = spec.min_piece.clamp(1, spec.max_piece.max(1));
        let want = lo + rng.below((spec.max_piece.max(lo) - lo + 1) as u32) as usize;
        let id = pieces_cells.len();
        let mut piece = vec![start];
        owner.insert(start, id);
        while piece.len() < want {
            let frontier: Vec<Cell> = piece
                .iter()
                .flat_map(|&c| lattice.neighbours(c).collect::<Vec<_>>())
                .filter(|n| on_board.contains(n) && !owner.contains_key(n))
                .collect();
            if frontier.is_empty() {
                break;
            }
            let next = frontier[rng.below(frontier.len() as u32) as usize];
            owner.insert(next, id);
            piece.push(next);
        }
        pieces_cells.push(piece);
    }
    let random: HashMap<Cell, u8> = match spec.colouring {
        Colouring::Random(k) => cells
            .iter()
            .map(|&c| (c, rng.below(k.max(1) as u32) as u8))
            .collect(),
        _ => HashMap::new(),
    };
    let colour = |c: Cell| -> Option<u8> {
        match spec.colouring {
            Colouring::None => None,
            Colouring::Checker => Some(((c[0] + c[1] + c[2]).rem_euclid(2)) as u8),
            Colouring::Random(_) => random.get(&c).copied(),
        }
    };
    let board: Vec<Site> = cells.iter().map(|&c| (c, colour(c))).collect();
    // Each piece: its cells with colours, moved by a random allowed motion.
    let mut listed: Vec<(usize, Piece)> = pieces_cells
        .iter()
        .enumerate()
        .map(|(i, pc)| {
            let one = (rng.below(1000) as f64) < spec.one_sided * 1000.0;
            let sides = if one { Sides::One } else { Sides::Two };
            let motions = if one {
                lattice.rotations()
            } else {
                lattice.motions()
            };
            let m = rng.below(motions as u32) as usize;
            let shape: Vec<Site> = pc
                .iter()
                .map(|&c| (lattice.apply(m, c), colour(c)))
                .collect();
            (
                i,
                Piece {
                    name: String::new(),
                    shape,
                    copies: 1,
                    optional: false,
                    sides,
                },
            )
        })
        .collect();
    for i in (1..listed.len()).rev() {
        let j = rng.below(i as u32 + 1) as usize;
        listed.swap(i, j);
    }
    let mut slot_of = vec![0usize; listed.len()];
    for (slot, (orig, p)) in listed.iter_mut().enumerate() {
        p.name = format!("P{}", slot + 1);
        slot_of[*orig] = slot;
    }
    let colours: Vec<String> = match spec.colouring {
        Colouring::None => Vec::new(),
        Colouring::Checker => vec!["b".into(), "w".into()],
        Colouring::Random(k) => (0..k.max(1))
            .map(|i| ((b'a' + i % 26) as char).to_string())
            .collect(),
    };
    let pieces: Vec<Piece> = listed.into_iter().map(|(_, p)| p).collect();
    let puzzle = Puzzle::new(format!("planted-{seed}"), lattice, colours, board, pieces)
        .expect("a cut-up board is a consistent puzzle");
    let solution = puzzle
        .board
        .iter()
        .map(|(c, _)| slot_of[owner[c]] as u16)
        .collect();
    (puzzle, solution)
}
