//! An independent check of a solution.
//!
//! This module shares nothing with the engines: no placement tables, no
//! scan order, no piece types. It takes the puzzle as the file describes it
//! and a solution as "which piece copy covers each board cell", and checks
//! from scratch that every cell is covered, that each copy's cells are its
//! piece moved by a motion the piece may make (trying every motion of the
//! lattice and a translation), that colours agree, and that every copy that
//! is not optional is used, and that every pin is honoured: some copy of
//! the pinned piece covers exactly the pinned cells. A bug in the engines
//! cannot hide here.

use crate::lattice::Cell;
use crate::model::{cell_text, Puzzle, Sides};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// Why a solution is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    /// The solution does not have one entry per board cell.
    #[error("the solution has {found} cells, but the board has {board}")]
    Length {
        /// Entries in the solution.
        found: usize,
        /// Board cells.
        board: usize,
    },
    /// A copy number outside the puzzle.
    #[error("cell {cell}: there is no piece copy number {copy}")]
    NoSuchCopy {
        /// The cell.
        cell: String,
        /// The copy number as given.
        copy: usize,
    },
    /// A record names a piece the puzzle does not have.
    #[error("there is no piece called '{0}'")]
    NoSuchPiece(String),
    /// A record names a copy beyond the piece's copies.
    #[error("piece '{piece}' has {copies} cop{}, so there is no copy {copy}", if *copies == 1 { "y" } else { "ies" })]
    CopyRange {
        /// The piece.
        piece: String,
        /// Its copies.
        copies: u32,
        /// The copy asked for (from 1).
        copy: usize,
    },
    /// A record puts a piece on a cell that is not on the board.
    #[error("piece '{piece}' covers {cell}, which is not a board cell")]
    OffBoard {
        /// The piece.
        piece: String,
        /// The cell.
        cell: String,
    },
    /// A cell covered twice.
    #[error("cell {cell} is covered by '{first}' and by '{second}'")]
    Overlap {
        /// The cell.
        cell: String,
        /// One piece.
        first: String,
        /// The other.
        second: String,
    },
    /// A cell nobody covers.
    #[error("cell {0} is not covered")]
    Uncovered(String),
    /// A mandatory copy not used.
    #[error("piece '{piece}' (copy {copy}) is not used, and it is not optional")]
    Unused {
        /// The piece.
        piece: String,
        /// The copy, from 1.
        copy: u32,
    },
    /// The cells of a copy are not its piece.
    #[error("the cells given to piece '{piece}' (copy {copy}) are not that piece turned{}", if *flips { " or turned over" } else { "" })]
    Shape {
        /// The piece.
        piece: String,
        /// The copy, from 1.
        copy: u32,
        /// Whether the piece may be turned over.
        flips: bool,
    },
    /// Colours that do not agree.
    #[error(
        "piece '{piece}' (copy {copy}) fits its cells only with a colour on the wrong board colour"
    )]
    Colour {
        /// The piece.
        piece: String,
        /// The copy, from 1.
        copy: u32,
    },
    /// Fewer copies of a piece used than its range asks for.
    #[error("piece '{piece}' is used {used} times, but at least {least} copies must be")]
    TooFew {
        /// The piece.
        piece: String,
        /// Copies used.
        used: u32,
        /// The least its range allows.
        least: u32,
    },
    /// A cell left open outside its open group.
    #[error("cell {cell} is left open as part of '{group}', which does not hold it")]
    OpenElsewhere {
        /// The open group (or the hole limit's "holes").
        group: String,
        /// The cell.
        cell: String,
    },
    /// A pin not honoured.
    #[error("piece '{piece}' is pinned on {cells}, but no copy of it covers exactly those cells")]
    Pin {
        /// The piece.
        piece: String,
        /// The pinned cells, as written in messages.
        cells: String,
    },
}

/// One placed piece copy as files and JSON write it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlacedRecord {
    /// The piece's name.
    pub piece: String,
    /// Which copy, from 1.
    pub copy: usize,
    /// Its cells: `[x, y]` or `[x, y, z]`.
    pub cells: Vec<Vec<i32>>,
}

/// A solution as files and JSON write it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SolutionRecord {
    /// The placed copies.
    pub placements: Vec<PlacedRecord>,
}

impl SolutionRecord {
    /// The record of a solution given as the copy covering each board cell.
    pub fn of(puzzle: &Puzzle, copies: &[u16]) -> SolutionRecord {
        let instances = puzzle.instances();
        let dim = puzzle.lattice.dim();
        let mut cells: Vec<Vec<Vec<i32>>> = vec![Vec::new(); instances.len()];
        for (b, &i) in copies.iter().enumerate() {
            if let (Some(list), Some(site)) = (cells.get_mut(i as usize), puzzle.board.get(b)) {
                list.push(site.0[..dim].to_vec());
            }
        }
        let placements = instances
            .iter()
            .zip(cells)
            .filter(|(_, c)| !c.is_empty())
            .map(|(&(p, k), cells)| PlacedRecord {
                piece: puzzle.pieces[p].name.clone(),
                copy: k as usize + 1,
                cells,
            })
            .collect();
        SolutionRecord { placements }
    }

    /// Checks the record's names and cells and turns it into the copy
    /// covering each board cell.
    pub fn copies(&self, puzzle: &Puzzle) -> Result<Vec<u16>, VerifyError> {
        let mut first = HashMap::new();
        let mut next = 0usize;
        for p in &puzzle.pieces {
            first.insert(p.name.as_str(), next);
            next += p.copies as usize;
        }
        let mut out: Vec<Option<u16>> = vec![None; puzzle.cells()];
        for r in &self.placements {
            let start = *first
                .get(r.piece.as_str())
                .ok_or_else(|| VerifyError::NoSuchPiece(r.piece.clone()))?;
            let piece = puzzle
                .pieces
                .iter()
                .find(|p| p.name == r.piece)
                .expect("found above");
            if r.copy == 0 || r.copy > piece.copies as usize {
                return Err(VerifyError::CopyRange {
                    piece: r.piece.clone(),
                    copies: piece.copies,
                    copy: r.copy,
                });
            }
            let id = (start + r.copy - 1) as u16;
            for c in &r.cells {
                let cell: Cell = [
                    c.first().copied().unwrap_or(0),
                    c.get(1).copied().unwrap_or(0),
                    c.get(2).copied().unwrap_or(0),
                ];
                let text = cell_text(puzzle.lattice, cell);
                let b = match puzzle.board_index(cell) {
                    Some(b) if c.len() == puzzle.lattice.dim() => b,
                    _ => {
                        return Err(VerifyError::OffBoard {
                            piece: r.piece.clone(),
                            cell: text,
                        })
                    }
                };
                if let Some(other) = out[b] {
                    let (p, k) = puzzle.instances()[other as usize];
                    return Err(VerifyError::Overlap {
                        cell: text,
                        first: format!("{} copy {}", puzzle.pieces[p].name, k + 1),
                        second: format!("{} copy {}", r.piece, r.copy),
                    });
                }
                out[b] = Some(id);
            }
        }
        out.iter()
            .enumerate()
            .map(|(b, c)| {
                c.ok_or_else(|| {
                    VerifyError::Uncovered(cell_text(puzzle.lattice, puzzle.board[b].0))
                })
            })
            .collect()
    }
}

/// Checks that `copies` (the piece copy covering each board cell, in the
/// order of [`Puzzle::board`], numbered as [`Puzzle::instances`]) solves
/// `puzzle`.
pub fn verify(puzzle: &Puzzle, copies: &[u16]) -> Result<(), VerifyError> {
    if copies.len() != puzzle.board.len() {
        return Err(VerifyError::Length {
            found: copies.len(),
            board: puzzle.board.len(),
        });
    }
    let instances = puzzle.instances();
    let mut cells_of: Vec<Vec<usize>> = vec![Vec::new(); instances.len()];
    for (b, &i) in copies.iter().enumerate() {
        match cells_of.get_mut(i as usize) {
            Some(list) => list.push(b),
            None => {
                return Err(VerifyError::NoSuchCopy {
                    cell: cell_text(puzzle.lattice, puzzle.board[b].0),
                    copy: i as usize,
                })
            }
        }
    }
    let lattice = puzzle.lattice;
    let mut used = vec![0u32; puzzle.pieces.len()];
    for (i, &(p, _)) in instances.iter().enumerate() {
        used[p] += u32::from(!cells_of[i].is_empty());
    }
    for (p, piece) in puzzle.pieces.iter().enumerate() {
        if piece.optional && used[p] < piece.least {
            return Err(VerifyError::TooFew {
                piece: piece.name.clone(),
                used: used[p],
                least: piece.least,
            });
        }
    }
    for (i, &(p, k)) in instances.iter().enumerate() {
        let piece = &puzzle.pieces[p];
        if let Some(allowed) = &piece.open {
            if let Some(&b) = cells_of[i]
                .iter()
                .find(|&&b| !allowed.contains(&puzzle.board[b].0))
            {
                return Err(VerifyError::OpenElsewhere {
                    group: piece.name.clone(),
                    cell: cell_text(lattice, puzzle.board[b].0),
                });
            }
        }
        let copy = k + 1;
        let cells = &cells_of[i];
        if cells.is_empty() {
            if piece.optional {
                continue;
            }
            return Err(VerifyError::Unused {
                piece: piece.name.clone(),
                copy,
            });
        }
        let mut target: Vec<(Cell, Option<u8>)> = cells.iter().map(|&b| puzzle.board[b]).collect();
        target.sort();
        let motions = match piece.sides {
            Sides::One => lattice.rotations(),
            Sides::Two => lattice.motions(),
        };
        let mut shape_fits = false;
        let mut colours_fit = false;
        if target.len() == piece.shape.len() {
            for m in 0..motions {
                let mut moved: Vec<(Cell, Option<u8>)> = piece
                    .shape
                    .iter()
                    .map(|&(c, col)| (lattice.apply(m, c), col))
                    .collect();
                moved.sort();
                // Translate the least moved cell onto the least target cell.
                let (a, t) = (moved[0].0, target[0].0);
                let shift = [t[0] - a[0], t[1] - a[1], t[2] - a[2]];
                let same = lattice.is_translation(shift)
                    && moved.iter().zip(&target).all(|((c, _), (tc, _))| {
                        [c[0] + shift[0], c[1] + shift[1], c[2] + shift[2]] == *tc
                    });
                if same {
                    shape_fits = true;
                    if moved
                        .iter()
                        .zip(&target)
                        .all(|((_, pc), (_, bc))| pc.is_none() || bc.is_none() || pc == bc)
                    {
                        colours_fit = true;
                        break;
                    }
                }
            }
        }
        if !shape_fits {
            return Err(VerifyError::Shape {
                piece: piece.name.clone(),
                copy,
                flips: piece.sides == Sides::Two,
            });
        }
        if !colours_fit {
            return Err(VerifyError::Colour {
                piece: piece.name.clone(),
                copy,
            });
        }
    }
    for pin in &puzzle.pins {
        let mut want = pin.cells.clone();
        want.sort_unstable();
        let honoured = instances.iter().enumerate().any(|(i, &(p, _))| {
            if p != pin.piece {
                return false;
            }
            let mut have: Vec<Cell> = cells_of[i].iter().map(|&b| puzzle.board[b].0).collect();
            have.sort_unstable();
            have == want
        });
        if !honoured {
            return Err(VerifyError::Pin {
                piece: puzzle
                    .pieces
                    .get(pin.piece)
                    .map_or_else(|| format!("number {}", pin.piece), |p| p.name.clone()),
                cells: want.iter().map(|&c| cell_text(puzzle.lattice, c)).collect(),
            });
        }
    }
    Ok(())
}
