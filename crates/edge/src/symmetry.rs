//! Identical tiles, self-symmetric tiles, and the symmetries of the board.
//!
//! Three things make naive counts disagree with what a person sees:
//!
//! - **Identical tiles** (Hunde-Spiel has two). Tiles that are rotations of
//!   each other form one *type* with a multiplicity; the engine draws from
//!   the multiset, so every distinct solution is found once. A distinct
//!   solution stands for ∏ m! raw ones (the copies told apart).
//! - **Self-symmetric tiles** (marks `a b a b`, or one mark all round) look
//!   the same in several rotations; the engine tries only the rotations that
//!   look different. Raw counts follow the naive programs of the seeds, which
//!   try all four rotations of every tile, so each tile with `k` look-alike
//!   rotations multiplies the raw count by `k`.
//! - **Board symmetry.** Turning the whole board maps solutions to solutions:
//!   a square board has 4 rotations, any other rectangle 2 (hints may leave
//!   fewer). Tiles are not flipped, so there are no reflections. Unique
//!   counts count orbits.

use crate::model::{Puzzle, Tile};

/// Tiles that are rotations of each other, counted once with a multiplicity.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TileType {
    /// The marks of the type's canonical rotation (the smallest of the four).
    pub marks: Tile,
    /// Tiles of this type (indices into the puzzle's list), in list order.
    pub members: Vec<usize>,
    /// Rotations that look different: 4, 2 or 1.
    pub period: u8,
}

/// The puzzle's tiles grouped into types.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TileTypes {
    /// The types, in order of first appearance.
    pub types: Vec<TileType>,
    /// For each tile, its type.
    pub type_of: Vec<usize>,
    /// For each tile, the rotation that turns the type's canonical marks into
    /// the tile's own marks as listed.
    pub offset: Vec<u8>,
}

impl TileTypes {
    /// Groups the tiles of `puzzle`.
    pub fn of(puzzle: &Puzzle) -> TileTypes {
        let mut types: Vec<TileType> = Vec::new();
        let mut type_of = Vec::with_capacity(puzzle.tiles.len());
        let mut offset = Vec::with_capacity(puzzle.tiles.len());
        for (i, tile) in puzzle.tiles.iter().enumerate() {
            let canonical = (0..4).map(|r| tile.rotated(r)).min().unwrap_or(tile.sides);
            let canonical = Tile { sides: canonical };
            // tile = canonical rotated by `off`
            let off = (0..4u8)
                .find(|&r| canonical.rotated(r) == tile.sides)
                .unwrap_or(0);
            let t = match types.iter().position(|t| t.marks == canonical) {
                Some(t) => t,
                None => {
                    types.push(TileType {
                        marks: canonical,
                        members: Vec::new(),
                        period: 4 / canonical.self_symmetry(),
                    });
                    types.len() - 1
                }
            };
            types[t].members.push(i);
            type_of.push(t);
            offset.push(off % types[t].period);
        }
        TileTypes {
            types,
            type_of,
            offset,
        }
    }

    /// Raw solutions per distinct one: ∏ over types of f! where f is the
    /// number of copies not pinned by a hint (free copies can be told apart
    /// and swapped; a hint names its tile), times ∏ over tiles of their
    /// look-alike rotations.
    pub fn raw_multiplier(&self, hinted: &[usize]) -> u128 {
        let mut m: u128 = 1;
        for t in &self.types {
            let copies = t.members.len() as u128;
            let free = t.members.iter().filter(|x| !hinted.contains(x)).count() as u128;
            for k in 1..=free {
                m = m.saturating_mul(k);
            }
            let alike = (4 / t.period) as u128;
            for _ in 0..copies {
                m = m.saturating_mul(alike);
            }
        }
        m
    }

    /// The rotation of the type's canonical marks shown by `tile` turned by
    /// `rotation` quarter turns, reduced modulo the type's period.
    pub fn visible_rotation(&self, tile: usize, rotation: u8) -> u8 {
        let t = &self.types[self.type_of[tile]];
        (self.offset[tile] + rotation) % t.period
    }
}

/// The rotations of the board that map the puzzle to itself, as quarter
/// turns clockwise (always containing 0).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardGroup {
    /// Quarter turns: `[0]`, `[0, 2]` or `[0, 1, 2, 3]`.
    pub turns: Vec<u8>,
    rows: usize,
    cols: usize,
}

impl BoardGroup {
    /// The rotations of the board that keep its shape and its hints (a hint
    /// must map onto a hint of an identical tile in the same visible rotation).
    pub fn of(puzzle: &Puzzle, types: &TileTypes) -> BoardGroup {
        let (rows, cols) = (puzzle.rows, puzzle.cols);
        let candidates: &[u8] = if rows == cols { &[0, 1, 2, 3] } else { &[0, 2] };
        let shape = BoardGroup {
            turns: candidates.to_vec(),
            rows,
            cols,
        };
        let hint_key = |tile: usize, cell: usize, rotation: u8| {
            (
                types.type_of[tile],
                cell,
                types.visible_rotation(tile, rotation),
            )
        };
        let hints: Vec<_> = puzzle
            .hints
            .iter()
            .map(|h| hint_key(h.tile, h.row * cols + h.col, h.rotation))
            .collect();
        let turns = candidates
            .iter()
            .copied()
            .filter(|&q| {
                puzzle.hints.iter().all(|h| {
                    let cell = shape.map_cell(q, h.row * cols + h.col);
                    hints.contains(&hint_key(h.tile, cell, h.rotation + q))
                })
            })
            .collect();
        BoardGroup { turns, rows, cols }
    }

    /// The trivial group (for searches that ignore symmetry).
    pub fn trivial(rows: usize, cols: usize) -> BoardGroup {
        BoardGroup {
            turns: vec![0],
            rows,
            cols,
        }
    }

    /// Number of symmetries.
    pub fn order(&self) -> usize {
        self.turns.len()
    }

    /// Where cell `cell` (row-major) goes when the board turns `q` quarter
    /// turns clockwise.
    pub fn map_cell(&self, q: u8, cell: usize) -> usize {
        let (r, c) = (cell / self.cols, cell % self.cols);
        let (rows, cols) = (self.rows, self.cols);
        match q % 4 {
            0 => cell,
            // Only square boards turn by a quarter: (r, c) -> (c, n-1-r).
            1 => c * cols + (rows - 1 - r),
            2 => (rows - 1 - r) * cols + (cols - 1 - c),
            _ => (cols - 1 - c) * cols + r,
        }
    }

    /// Applies the turn `q` to a solution given as (type, visible rotation)
    /// per cell, row-major.
    pub fn apply(&self, q: u8, cells: &[(usize, u8)], periods: &[u8], out: &mut [(usize, u8)]) {
        for (cell, &(t, r)) in cells.iter().enumerate() {
            out[self.map_cell(q, cell)] = (t, (r + q) % periods[t]);
        }
    }

    /// Whether `cells` is the least of its images under the group (so that
    /// each orbit has exactly one canonical member), and the number of
    /// symmetries that fix it.
    pub fn canonical(&self, cells: &[(usize, u8)], periods: &[u8]) -> (bool, usize) {
        let mut image = vec![(0usize, 0u8); cells.len()];
        let mut fixed = 0;
        for &q in &self.turns {
            self.apply(q, cells, periods, &mut image);
            match image.as_slice().cmp(cells) {
                std::cmp::Ordering::Less => return (false, 0),
                std::cmp::Ordering::Equal => fixed += 1,
                std::cmp::Ordering::Greater => {}
            }
        }
        (true, fixed)
    }
}
