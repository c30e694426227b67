//! What is suspicious in a puzzle but does not stop the search, and the
//! messages that say it.

use super::{Place, Puzzle, Sides, Site};

/// Something suspicious that does not stop the search. Pieces listed
/// separately that share a shape make one warning, not one per piece: a
/// file of 10,000 one-cell pieces printed 9,999.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Warning {
    /// Pieces listed separately are the same shape under the moves they may
    /// make: they are counted as identical copies of one piece.
    Congruent {
        /// The first piece of the shape (index from 0).
        first: usize,
        /// The later pieces of the same shape, in file order.
        others: Vec<usize>,
    },
    /// Pieces (of one shape) that fit nowhere on the board.
    FitsNowhere {
        /// The pieces (indices from 0), in file order.
        pieces: Vec<usize>,
    },
}

/// At most this many piece names in one warning; the rest are counted.
const NAMES_SHOWN: usize = 5;

/// `'a', 'b' and 'c'`, or `'a', 'b', 'c', 'd', 'e' and 7 more`.
fn name_list(puzzle: &Puzzle, pieces: &[usize]) -> String {
    let names: Vec<String> = pieces
        .iter()
        .take(NAMES_SHOWN)
        .map(|&i| format!("'{}'", puzzle.pieces[i].name))
        .collect();
    match (pieces.len(), names.split_last()) {
        (_, None) => String::new(),
        (1, Some((last, _))) => last.clone(),
        (n, Some((last, rest))) if n <= NAMES_SHOWN => format!("{} and {last}", rest.join(", ")),
        (n, _) => format!("{} and {} more", names.join(", "), n - NAMES_SHOWN),
    }
}

impl Warning {
    /// The piece the warning is about (for line numbers): the second of a
    /// shape, the first that fits nowhere.
    pub fn place(&self) -> Place {
        match self {
            Warning::Congruent { others, first } => Place::Piece(*others.first().unwrap_or(first)),
            Warning::FitsNowhere { pieces } => Place::Piece(pieces.first().copied().unwrap_or(0)),
        }
    }

    /// The message, naming pieces from `puzzle`.
    pub fn message(&self, puzzle: &Puzzle) -> String {
        match self {
            Warning::Congruent { first, others } => {
                let mut all = vec![*first];
                all.extend_from_slice(others);
                let one_sided = all.iter().all(|&i| puzzle.pieces[i].sides == Sides::One);
                let copies: u64 = all.iter().map(|&i| puzzle.pieces[i].copies as u64).sum();
                format!(
                    "pieces {} are the same shape under {}: they are counted as identical copies of one piece (distinct solutions merge them). If that is meant, list the piece once with copies = {}; if not, {} wrong",
                    name_list(puzzle, &all),
                    if one_sided { "rotations" } else { "the moves they may make" },
                    copies,
                    if all.len() == 2 { "one of them is" } else { "some of them are" }
                )
            }
            Warning::FitsNowhere { pieces } if pieces.len() > 1 => format!(
                "pieces {} fit nowhere on the board{}",
                name_list(puzzle, pieces),
                if pieces.iter().all(|&i| puzzle.pieces[i].optional) {
                    ""
                } else {
                    ", so the puzzle has no solution"
                }
            ),
            Warning::FitsNowhere { pieces } => format!(
                "piece {} fits nowhere on the board{}",
                name_list(puzzle, pieces),
                if pieces.iter().all(|&i| puzzle.pieces[i].optional) {
                    ""
                } else {
                    ", so the puzzle has no solution"
                }
            ),
        }
    }
}

impl Puzzle {
    /// Pieces that are the same shape under the moves they may make, as
    /// warnings (each later piece paired with the first piece of its shape).
    pub fn congruences(&self) -> Vec<Warning> {
        // (orientations, first piece, later pieces); shapes are few, so a
        // list searched in order is enough.
        let mut shapes: Vec<(Vec<Vec<Site>>, usize, Vec<usize>)> = Vec::new();
        for (i, p) in self.pieces.iter().enumerate() {
            // Open cells are not pieces: one-cell pieces are not like them.
            if p.open.is_some() {
                continue;
            }
            let o = p.orientations(self.lattice);
            match shapes.iter_mut().find(|(f, _, _)| *f == o) {
                Some((_, _, others)) => others.push(i),
                None => shapes.push((o, i, Vec::new())),
            }
        }
        shapes
            .into_iter()
            .filter(|(_, _, others)| !others.is_empty())
            .map(|(_, first, others)| Warning::Congruent { first, others })
            .collect()
    }
}
