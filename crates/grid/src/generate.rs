//! Puzzles with a planted solution, for tests.
//!
//! Cut a random board into random connected pieces, turn (and, for
//! two-sided pieces, maybe mirror) each one, and list them in random
//! order: the result has at least the solution it was cut from, so an
//! engine that misses it is wrong (the varisat trick). Boards are random
//! connected sets of cells in a box (holes allowed), optionally coloured
//! like a checkerboard or at random.

use crate::lattice::{Cell, Lattice};
use crate::model::{ModelError, Piece, Puzzle, Sides, Site};
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
    let colours: Vec<String> = match spec.colouring {
        Colouring::None => Vec::new(),
        Colouring::Checker => vec!["b".into(), "w".into()],
        Colouring::Random(k) => (0..k.max(1))
            .map(|i| ((b'a' + i % 26) as char).to_string())
            .collect(),
    };
    let cutting = Cutting {
        min_piece: spec.min_piece,
        max_piece: spec.max_piece,
        one_sided: spec.one_sided,
    };
    cut_with(
        &mut rng,
        format!("planted-{seed}"),
        lattice,
        colours,
        board,
        cutting,
    )
    .expect("a cut-up board is a consistent puzzle")
}

/// How [`cut`] cuts a board into pieces.
#[derive(Clone, Copy, Debug)]
pub struct Cutting {
    /// Smallest piece size aimed at (a piece boxed in by others may end smaller).
    pub min_piece: usize,
    /// Largest piece size.
    pub max_piece: usize,
    /// Pieces are one-sided with this probability.
    pub one_sided: f64,
}

/// Cuts a given board (cells with their colours, named by `colours`) into
/// random connected pieces, each turned (and maybe mirrored) at random and
/// listed in random order: a puzzle whose planted solution is the cut.
/// Returns the puzzle and, for each board cell (in the order of
/// [`Puzzle::board`]), the piece covering it; `Err` when the board is not a
/// valid puzzle board (empty, too big, a colour out of range).
pub fn cut(
    name: String,
    lattice: Lattice,
    colours: Vec<String>,
    board: Vec<Site>,
    cutting: Cutting,
    seed: u64,
) -> Result<(Puzzle, Vec<u16>), ModelError> {
    let mut rng = SplitMix64::new(seed);
    if board.is_empty() {
        return Err(ModelError::EmptyBoard);
    }
    cut_with(&mut rng, name, lattice, colours, board, cutting)
}

fn cut_with(
    rng: &mut SplitMix64,
    name: String,
    lattice: Lattice,
    colours: Vec<String>,
    board: Vec<Site>,
    cutting: Cutting,
) -> Result<(Puzzle, Vec<u16>), ModelError> {
    let cells: Vec<Cell> = board.iter().map(|&(c, _)| c).collect();
    let colour_of: HashMap<Cell, Option<u8>> = board.iter().copied().collect();
    let colour = |c: Cell| colour_of[&c];
    // Grow pieces: repeatedly start a piece at a random uncovered cell and
    // add random uncovered neighbours up to a random size.
    let on_board: HashSet<Cell> = cells.iter().copied().collect();
    let mut owner: HashMap<Cell, usize> = HashMap::new();
    let mut pieces_cells: Vec<Vec<Cell>> = Vec::new();
    let mut order: Vec<Cell> = cells.clone();
    rng.shuffle(&mut order);
    for &start in &order {
        if owner.contains_key(&start) {
            continue;
        }
        let lo = cutting.min_piece.clamp(1, cutting.max_piece.max(1));
        let want = lo + rng.below((cutting.max_piece.max(lo) - lo + 1) as u32) as usize;
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
    // Each piece: its cells with colours, moved by a random allowed motion.
    let mut listed: Vec<(usize, Piece)> = pieces_cells
        .iter()
        .enumerate()
        .map(|(i, pc)| {
            let one = (rng.below(1000) as f64) < cutting.one_sided * 1000.0;
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
            (i, Piece::new(String::new(), shape, sides))
        })
        .collect();
    rng.shuffle(&mut listed);
    let mut slot_of = vec![0usize; listed.len()];
    for (slot, (orig, p)) in listed.iter_mut().enumerate() {
        p.name = format!("P{}", slot + 1);
        slot_of[*orig] = slot;
    }
    let pieces: Vec<Piece> = listed.into_iter().map(|(_, p)| p).collect();
    let puzzle = Puzzle::new(name, lattice, colours, board, pieces).map_err(|(e, _)| e)?;
    let solution = puzzle
        .board
        .iter()
        .map(|(c, _)| slot_of[owner[c]] as u16)
        .collect();
    Ok((puzzle, solution))
}

/// The puzzle with pieces of the same shape (under the moves they may
/// make, colours included) listed once with their copies added up, and the
/// solution renumbered to match: a generated cut often makes two equal
/// small pieces, and a file that lists them apart draws a warning.
pub fn merge_congruent(
    puzzle: &Puzzle,
    solution: &[u16],
) -> Result<(Puzzle, Vec<u16>), ModelError> {
    let lattice = puzzle.lattice;
    // Groups of (original piece indices), in order of first appearance.
    // Equal orientation sets mean the same moves too, whatever the sides.
    let mut groups: Vec<(Vec<Vec<Site>>, bool, Vec<usize>)> = Vec::new();
    for (i, p) in puzzle.pieces.iter().enumerate() {
        let shape = p.orientations(lattice);
        match groups
            .iter_mut()
            .find(|(o, optional, _)| *o == shape && *optional == p.optional)
        {
            Some((_, _, members)) => members.push(i),
            None => groups.push((shape, p.optional, vec![i])),
        }
    }
    // Old instance number -> new one: each group's copies follow each other.
    let old_instances = puzzle.instances();
    let mut first_old: Vec<usize> = Vec::new();
    let mut at = 0;
    for p in &puzzle.pieces {
        first_old.push(at);
        at += p.copies as usize;
    }
    let mut new_of_old = vec![0u16; old_instances.len()];
    let mut pieces = Vec::new();
    let mut next = 0u16;
    for (_, _, members) in &groups {
        let mut piece = puzzle.pieces[members[0]].clone();
        piece.copies = members.iter().map(|&m| puzzle.pieces[m].copies).sum();
        for &m in members {
            for k in 0..puzzle.pieces[m].copies as usize {
                new_of_old[first_old[m] + k] = next;
                next += 1;
            }
        }
        pieces.push(piece);
    }
    let merged = Puzzle::new(
        puzzle.name.clone(),
        lattice,
        puzzle.colours.clone(),
        puzzle.board.clone(),
        pieces,
    )
    .map_err(|(e, _)| e)?;
    let solution = solution.iter().map(|&c| new_of_old[c as usize]).collect();
    Ok((merged, solution))
}

/// A random region that `pieces` (every copy of each) fill exactly: the
/// pieces are laid one by one in random order, each turned by a random
/// motion it may make and put where it touches the pieces already laid the
/// most (ties broken at random), so the region comes out compact. The board
/// takes the colours of the piece cells that cover it. Returns the puzzle
/// and, for each board cell, the piece copy covering it (numbered as
/// [`Puzzle::instances`] lists them).
pub fn region_for(
    name: String,
    lattice: Lattice,
    colours: Vec<String>,
    pieces: Vec<Piece>,
    seed: u64,
) -> Result<(Puzzle, Vec<u16>), ModelError> {
    let mut rng = SplitMix64::new(seed);
    // Copies in instance order: piece i's copies are consecutive.
    let mut copies: Vec<usize> = Vec::new();
    for (i, p) in pieces.iter().enumerate() {
        copies.extend(std::iter::repeat_n(i, p.copies as usize));
    }
    if copies.is_empty() {
        return Err(ModelError::NoPieces);
    }
    let mut order: Vec<usize> = (0..copies.len()).collect();
    rng.shuffle(&mut order);
    let mut owner: HashMap<Cell, (usize, Option<u8>)> = HashMap::new();
    for &instance in &order {
        let piece = &pieces[copies[instance]];
        let motions: Vec<usize> = piece.motions(lattice).collect();
        let m = motions[rng.below(motions.len() as u32) as usize];
        let shape: Vec<Site> = piece
            .shape
            .iter()
            .map(|&(c, k)| (lattice.apply(m, c), k))
            .collect();
        if owner.is_empty() {
            for &(c, k) in &shape {
                owner.insert(c, (instance, k));
            }
            continue;
        }
        // Every shift that lays one of the piece's cells on a free
        // neighbour of the region, scored by the region cells it touches.
        let free: HashSet<Cell> = owner
            .keys()
            .flat_map(|&c| lattice.neighbours(c).collect::<Vec<_>>())
            .filter(|n| !owner.contains_key(n))
            .collect();
        let mut free: Vec<Cell> = free.into_iter().collect();
        free.sort();
        let mut best: Vec<Cell> = Vec::new();
        let mut best_score = 0;
        let mut seen: HashSet<Cell> = HashSet::new();
        for &target in &free {
            for &(c, _) in &shape {
                let shift = [target[0] - c[0], target[1] - c[1], target[2] - c[2]];
                // On triangles a shift that turns cells over is no move.
                if !lattice.is_translation(shift) || !seen.insert(shift) {
                    continue;
                }
                let moved = shape
                    .iter()
                    .map(|&(c, _)| [c[0] + shift[0], c[1] + shift[1], c[2] + shift[2]]);
                let mut score = 0;
                let mut fits = true;
                for cell in moved {
                    if owner.contains_key(&cell) || !lattice.contains(cell) {
                        fits = false;
                        break;
                    }
                    score += lattice
                        .neighbours(cell)
                        .filter(|n| owner.contains_key(n))
                        .count();
                }
                if !fits {
                    continue;
                }
                if score > best_score {
                    best_score = score;
                    best.clear();
                }
                if score == best_score {
                    best.push(shift);
                }
            }
        }
        // A shape with a free neighbour always fits somewhere next to it
        // (the region is finite), so `best` is never empty.
        let shift = best[rng.below(best.len() as u32) as usize];
        for &(c, k) in &shape {
            owner.insert(
                [c[0] + shift[0], c[1] + shift[1], c[2] + shift[2]],
                (instance, k),
            );
        }
    }
    // Shift the region to start at the origin, as drawn boards do.
    let low = |axis: usize| owner.keys().map(|c| c[axis]).min().unwrap_or(0);
    // (Triangles keep their orientation coordinate.)
    let origin = [
        low(0),
        low(1),
        if lattice == Lattice::Triangle {
            0
        } else {
            low(2)
        },
    ];
    let owner: HashMap<Cell, (usize, Option<u8>)> = owner
        .into_iter()
        .map(|(c, v)| ([c[0] - origin[0], c[1] - origin[1], c[2] - origin[2]], v))
        .collect();
    let mut board: Vec<Site> = owner.iter().map(|(&c, &(_, k))| (c, k)).collect();
    board.sort();
    let puzzle = Puzzle::new(name, lattice, colours, board, pieces).map_err(|(e, _)| e)?;
    let solution = puzzle
        .board
        .iter()
        .map(|(c, _)| owner[c].0 as u16)
        .collect();
    Ok((puzzle, solution))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::verify;

    fn pieces(lattice: Lattice, seed: u64) -> Vec<Piece> {
        // The pieces of a random cut, with a second copy of the first.
        let spec = Spec {
            lattice,
            size: [5, 4, 2],
            holes: 0.0,
            min_piece: 3,
            max_piece: 5,
            colouring: Colouring::Checker,
            one_sided: 0.3,
        };
        let mut pieces = planted(spec, seed).0.pieces;
        pieces[0].copies = 2;
        pieces
    }

    #[test]
    fn regions_for_a_piece_set_hold_their_planted_solution() {
        for seed in 0..40 {
            let lattice = if seed % 2 == 0 {
                Lattice::Square
            } else {
                Lattice::Cube
            };
            let colours = vec!["b".to_string(), "w".to_string()];
            let (puzzle, solution) =
                region_for("r".into(), lattice, colours, pieces(lattice, seed), seed).unwrap();
            verify(&puzzle, &solution).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            assert!(puzzle.board.iter().all(|(c, _)| c.iter().all(|&x| x >= 0)));
            assert_eq!(
                crate::model::parts(
                    lattice,
                    &puzzle.board.iter().map(|s| s.0).collect::<Vec<_>>()
                ),
                1
            );
        }
    }

    #[test]
    fn merging_congruent_pieces_keeps_the_planted_solution() {
        for seed in 0..60 {
            let spec = Spec {
                lattice: Lattice::Square,
                size: [5, 4, 1],
                holes: 0.0,
                min_piece: 1,
                max_piece: 3,
                colouring: Colouring::None,
                one_sided: 0.3,
            };
            let (puzzle, solution) = planted(spec, seed);
            let (merged, renumbered) = merge_congruent(&puzzle, &solution).unwrap();
            verify(&merged, &renumbered).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            assert!(merged.congruences().is_empty(), "seed {seed}");
            let copies = |p: &Puzzle| p.pieces.iter().map(|p| p.copies).sum::<u32>();
            assert_eq!(copies(&merged), copies(&puzzle));
        }
    }

    #[test]
    fn a_given_board_is_cut_into_its_planted_solution() {
        for seed in 0..40 {
            let board: Vec<Site> = (0..6)
                .flat_map(|y| (0..10).map(move |x| ([x, y, 0], Some(((x + y) % 2) as u8))))
                .collect();
            let cutting = Cutting {
                min_piece: 4,
                max_piece: 6,
                one_sided: 0.5,
            };
            let colours = vec!["b".to_string(), "w".to_string()];
            let (puzzle, solution) = cut(
                "c".into(),
                Lattice::Square,
                colours,
                board.clone(),
                cutting,
                seed,
            )
            .unwrap();
            let mut sorted = board.clone();
            sorted.sort();
            assert_eq!(puzzle.board, sorted);
            verify(&puzzle, &solution).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        }
    }
}
