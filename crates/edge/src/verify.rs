//! An independent check of a solution.
//!
//! This module shares nothing with the engine but the puzzle itself: it
//! rotates tiles with [`Tile::rotated`](crate::model::Tile::rotated) and asks
//! [`Marks::fits`](crate::model::Marks::fits) about every shared side, so a bug
//! in the engine's tables cannot hide here.

use crate::model::{Placement, Puzzle, EAST, SIDE_NAMES, SOUTH};
use serde::{Deserialize, Serialize};

/// Why a solution is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    /// The grid has the wrong shape.
    #[error("the solution is {found_rows} x {found_cols}, but the board is {rows} x {cols}")]
    Shape {
        /// Rows in the solution.
        found_rows: usize,
        /// Columns in the solution (of its widest row).
        found_cols: usize,
        /// Board rows.
        rows: usize,
        /// Board columns.
        cols: usize,
    },
    /// A tile number outside the puzzle.
    #[error("row {row}, column {col}: there is no tile {tile}")]
    NoSuchTile {
        /// Row, from 1.
        row: usize,
        /// Column, from 1.
        col: usize,
        /// Tile number as given, from 1.
        tile: usize,
    },
    /// A rotation outside 0..=3.
    #[error("row {row}, column {col}: rotation {rotation} is not 0, 1, 2 or 3")]
    Rotation {
        /// Row, from 1.
        row: usize,
        /// Column, from 1.
        col: usize,
        /// Rotation as given.
        rotation: u64,
    },
    /// A tile used twice.
    #[error("tile {tile} is used twice")]
    Reused {
        /// Tile number, from 1.
        tile: usize,
    },
    /// Two neighbours that do not fit.
    #[error(
        "row {row}, column {col}: its {side} mark '{mark}' does not fit the neighbour's '{other}'"
    )]
    Mismatch {
        /// Row, from 1.
        row: usize,
        /// Column, from 1.
        col: usize,
        /// Which side.
        side: &'static str,
        /// This tile's mark.
        mark: String,
        /// The neighbour's mark.
        other: String,
    },
    /// A border rule broken.
    #[error("row {row}, column {col}: its {side} side {problem}")]
    Border {
        /// Row, from 1.
        row: usize,
        /// Column, from 1.
        col: usize,
        /// Which side.
        side: &'static str,
        /// What is wrong.
        problem: String,
    },
    /// A hint not respected.
    #[error("hint {hint} puts tile {tile} at row {row}, column {col} turned {rotation}, but the solution does not")]
    Hint {
        /// Hint number, from 1.
        hint: usize,
        /// Tile number, from 1.
        tile: usize,
        /// Row, from 1.
        row: usize,
        /// Column, from 1.
        col: usize,
        /// Rotation.
        rotation: u8,
    },
}

/// One cell of a solution as files and JSON write it: tile numbers from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CellRecord {
    /// Tile number, from 1.
    pub tile: usize,
    /// Quarter turns clockwise.
    pub rotation: u64,
}

/// A solution as files and JSON write it: rows of cells.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GridRecord {
    /// Rows of cells, from the top; cells from the left.
    pub cells: Vec<Vec<CellRecord>>,
}

impl GridRecord {
    /// The record of a solution given as row-major placements.
    pub fn of(puzzle: &Puzzle, placements: &[Placement]) -> GridRecord {
        GridRecord {
            cells: placements
                .chunks(puzzle.cols.max(1))
                .map(|row| {
                    row.iter()
                        .map(|p| CellRecord {
                            tile: p.tile as usize + 1,
                            rotation: p.rotation as u64,
                        })
                        .collect()
                })
                .collect(),
        }
    }

    /// Checks the record's shape and numbers and turns it into placements.
    pub fn placements(&self, puzzle: &Puzzle) -> Result<Vec<Placement>, VerifyError> {
        let found_cols = self.cells.iter().map(Vec::len).max().unwrap_or(0);
        if self.cells.len() != puzzle.rows || self.cells.iter().any(|r| r.len() != puzzle.cols) {
            return Err(VerifyError::Shape {
                found_rows: self.cells.len(),
                found_cols,
                rows: puzzle.rows,
                cols: puzzle.cols,
            });
        }
        let mut out = Vec::with_capacity(puzzle.cells());
        for (r, row) in self.cells.iter().enumerate() {
            for (c, cell) in row.iter().enumerate() {
                if cell.tile == 0 || cell.tile > puzzle.tiles.len() {
                    return Err(VerifyError::NoSuchTile {
                        row: r + 1,
                        col: c + 1,
                        tile: cell.tile,
                    });
                }
                if cell.rotation > 3 {
                    return Err(VerifyError::Rotation {
                        row: r + 1,
                        col: c + 1,
                        rotation: cell.rotation,
                    });
                }
                out.push(Placement {
                    tile: (cell.tile - 1) as u16,
                    rotation: cell.rotation as u8,
                });
            }
        }
        Ok(out)
    }
}

/// Checks that `placements` (row-major, one per cell) solve `puzzle`: every
/// tile once, every shared side fitting, the border mark on every frame side
/// and nowhere else, every hint respected.
pub fn verify(puzzle: &Puzzle, placements: &[Placement]) -> Result<(), VerifyError> {
    let (rows, cols) = (puzzle.rows, puzzle.cols);
    if placements.len() != rows * cols {
        return Err(VerifyError::Shape {
            found_rows: placements.len() / cols.max(1),
            found_cols: cols,
            rows,
            cols,
        });
    }
    let mut used = vec![false; puzzle.tiles.len()];
    let mut shown = Vec::with_capacity(placements.len());
    for (i, p) in placements.iter().enumerate() {
        let (row, col) = (i / cols + 1, i % cols + 1);
        let t = p.tile as usize;
        if t >= puzzle.tiles.len() {
            return Err(VerifyError::NoSuchTile {
                row,
                col,
                tile: t + 1,
            });
        }
        if p.rotation > 3 {
            return Err(VerifyError::Rotation {
                row,
                col,
                rotation: p.rotation as u64,
            });
        }
        if std::mem::replace(&mut used[t], true) {
            return Err(VerifyError::Reused { tile: t + 1 });
        }
        shown.push(puzzle.tiles[t].rotated(p.rotation));
    }
    for (i, marks) in shown.iter().enumerate() {
        let (r, c) = (i / cols, i % cols);
        if c + 1 < cols {
            let other = shown[i + 1][3];
            if !puzzle.marks.fits(marks[EAST], other) {
                return Err(mismatch(puzzle, r, c, EAST, marks[EAST], other));
            }
        }
        if r + 1 < rows {
            let other = shown[i + cols][0];
            if !puzzle.marks.fits(marks[SOUTH], other) {
                return Err(mismatch(puzzle, r, c, SOUTH, marks[SOUTH], other));
            }
        }
        if let Some(b) = puzzle.border {
            for (side, &mark) in marks.iter().enumerate() {
                let on_frame = match side {
                    0 => r == 0,
                    1 => c + 1 == cols,
                    2 => r + 1 == rows,
                    _ => c == 0,
                };
                let problem = if on_frame && mark != b {
                    Some(format!(
                        "faces the frame but shows '{}', not the border mark '{}'",
                        puzzle.marks.name(mark),
                        puzzle.marks.name(b)
                    ))
                } else if !on_frame && mark == b {
                    Some(format!(
                        "shows the border mark '{}' inside the board",
                        puzzle.marks.name(b)
                    ))
                } else {
                    None
                };
                if let Some(problem) = problem {
                    return Err(VerifyError::Border {
                        row: r + 1,
                        col: c + 1,
                        side: SIDE_NAMES[side],
                        problem,
                    });
                }
            }
        }
    }
    for (i, h) in puzzle.hints.iter().enumerate() {
        let p = placements[h.row * cols + h.col];
        // A hint is respected when the hinted tile is there and shows the
        // same marks (a symmetric tile may be turned by a look-alike rotation).
        let ok = p.tile as usize == h.tile
            && puzzle.tiles[h.tile].rotated(p.rotation) == puzzle.tiles[h.tile].rotated(h.rotation);
        if !ok {
            return Err(VerifyError::Hint {
                hint: i + 1,
                tile: h.tile + 1,
                row: h.row + 1,
                col: h.col + 1,
                rotation: h.rotation,
            });
        }
    }
    Ok(())
}

fn mismatch(puzzle: &Puzzle, r: usize, c: usize, side: usize, a: u16, b: u16) -> VerifyError {
    VerifyError::Mismatch {
        row: r + 1,
        col: c + 1,
        side: SIDE_NAMES[side],
        mark: puzzle.marks.name(a).to_string(),
        other: puzzle.marks.name(b).to_string(),
    }
}
