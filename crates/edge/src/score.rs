//! The score of a partial board, checked independently, and the link of the
//! community's board viewer.
//!
//! Like [`mod@crate::verify`] this shares nothing with the search but the
//! puzzle: it turns tiles with [`Tile::rotated`](crate::Tile::rotated) and
//! asks [`Marks::fits`](crate::Marks::fits) about every inner edge, so a bug
//! in the search's tables or running score cannot hide here.
//!
//! The viewer at e2.bucas.name reads a board from its address:
//! `#puzzle=NAME&board_w=W&board_h=H&board_edges=...`, where `board_edges`
//! gives, row by row from the top-left, four letters per cell for the marks
//! on the top, right, bottom and left sides; `a` is colour 0 (the border)
//! and an empty cell is `aaaa`. For puzzles whose marks are the numbers 0 to
//! 25 (Eternity II and the computer-made sets) the letter is `a` plus the
//! number; for others the border mark is `a` and the other marks take `b`,
//! `c`, ... in the order the puzzle lists them, which the viewer shows but
//! cannot match by its own rules.

use crate::model::{MarkId, Placement, Puzzle};

/// Why a board cannot be scored against a puzzle.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// The board has the wrong number of cells.
    #[error("the board has {found} cells, but the puzzle's {rows} x {cols} board has {}", rows * cols)]
    Size {
        /// Cells given.
        found: usize,
        /// Board rows.
        rows: usize,
        /// Board columns.
        cols: usize,
    },
    /// A tile number outside the puzzle.
    #[error("row {row}, column {col}: there is no tile {tile} (the puzzle has {tiles})")]
    NoSuchTile {
        /// Row, from 1.
        row: usize,
        /// Column, from 1.
        col: usize,
        /// Tile number, from 1.
        tile: usize,
        /// Tiles in the puzzle.
        tiles: usize,
    },
    /// A rotation outside 0..=3.
    #[error("row {row}, column {col}: rotation {rotation} is not 0, 1, 2 or 3")]
    Rotation {
        /// Row, from 1.
        row: usize,
        /// Column, from 1.
        col: usize,
        /// Rotation given.
        rotation: u8,
    },
    /// A tile placed twice.
    #[error("tile {tile} is placed twice")]
    Reused {
        /// Tile number, from 1.
        tile: usize,
    },
    /// A hint not honoured.
    #[error("hint {hint} puts tile {tile} at row {row}, column {col} turned {rotation}, but the board does not")]
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

/// The number of inner edges of `board` (row by row, `None` for an empty
/// cell) whose two marks fit, after checking that every tile exists, is
/// placed at most once and every hint is honoured. A border mark on an inner
/// edge never fits: it belongs on the frame.
pub fn score(puzzle: &Puzzle, board: &[Option<Placement>]) -> Result<u32, BoardError> {
    let (rows, cols) = (puzzle.rows, puzzle.cols);
    if board.len() != rows * cols {
        return Err(BoardError::Size {
            found: board.len(),
            rows,
            cols,
        });
    }
    let mut used = vec![false; puzzle.tiles.len()];
    let mut shown: Vec<Option<[MarkId; 4]>> = Vec::with_capacity(board.len());
    for (i, cell) in board.iter().enumerate() {
        let (row, col) = (i / cols + 1, i % cols + 1);
        let Some(p) = cell else {
            shown.push(None);
            continue;
        };
        let t = p.tile as usize;
        if t >= puzzle.tiles.len() {
            return Err(BoardError::NoSuchTile {
                row,
                col,
                tile: t + 1,
                tiles: puzzle.tiles.len(),
            });
        }
        if p.rotation > 3 {
            return Err(BoardError::Rotation {
                row,
                col,
                rotation: p.rotation,
            });
        }
        if std::mem::replace(&mut used[t], true) {
            return Err(BoardError::Reused { tile: t + 1 });
        }
        shown.push(Some(puzzle.tiles[t].rotated(p.rotation)));
    }
    for (i, h) in puzzle.hints.iter().enumerate() {
        let ok = board[h.row * cols + h.col].is_some_and(|p| {
            p.tile as usize == h.tile
                && puzzle.tiles[h.tile].rotated(p.rotation)
                    == puzzle.tiles[h.tile].rotated(h.rotation)
        });
        if !ok {
            return Err(BoardError::Hint {
                hint: i + 1,
                tile: h.tile + 1,
                row: h.row + 1,
                col: h.col + 1,
                rotation: h.rotation,
            });
        }
    }
    let fits = |a: MarkId, b: MarkId| {
        puzzle.marks.fits(a, b) && puzzle.border.is_none_or(|x| a != x && b != x)
    };
    let mut total = 0;
    for r in 0..rows {
        for c in 0..cols {
            let Some(here) = shown[r * cols + c] else {
                continue;
            };
            if c + 1 < cols {
                if let Some(right) = shown[r * cols + c + 1] {
                    total += u32::from(fits(here[1], right[3]));
                }
            }
            if r + 1 < rows {
                if let Some(below) = shown[(r + 1) * cols + c] {
                    total += u32::from(fits(here[2], below[0]));
                }
            }
        }
    }
    Ok(total)
}

/// Why a viewer link cannot be made or read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LinkError {
    /// More marks than letters.
    #[error("the puzzle has {marks} marks, more than the 26 letters of the viewer's format")]
    TooManyMarks {
        /// Marks in the puzzle.
        marks: usize,
    },
    /// A parameter missing or not a number.
    #[error("the link has no valid {0} parameter")]
    Missing(&'static str),
    /// A link for another board.
    #[error(
        "the link is for a {w} x {h} board (columns x rows), but the puzzle is {cols} x {rows}"
    )]
    Size {
        /// Columns in the link.
        w: usize,
        /// Rows in the link.
        h: usize,
        /// Puzzle columns.
        cols: usize,
        /// Puzzle rows.
        rows: usize,
    },
    /// `board_edges` of the wrong length or with a foreign letter.
    #[error("board_edges must be 4 letters per cell ({expected} letters) from the puzzle's marks: {problem}")]
    Edges {
        /// Letters expected.
        expected: usize,
        /// What is wrong.
        problem: String,
    },
    /// A cell whose four marks no free tile shows.
    #[error("row {row}, column {col}: no unused tile shows the marks '{letters}'")]
    NoTile {
        /// Row, from 1.
        row: usize,
        /// Column, from 1.
        col: usize,
        /// The cell's letters.
        letters: String,
    },
}

/// The viewer letter of each mark (see the module documentation).
pub fn mark_letters(puzzle: &Puzzle) -> Result<Vec<char>, LinkError> {
    let n = puzzle.marks.len();
    let numbers: Option<Vec<u32>> = (0..n)
        .map(|m| {
            puzzle
                .marks
                .name(m as MarkId)
                .parse::<u32>()
                .ok()
                .filter(|&v| v < 26)
        })
        .collect();
    if let Some(numbers) = numbers {
        let distinct = {
            let mut v = numbers.clone();
            v.sort_unstable();
            v.dedup();
            v.len() == numbers.len()
        };
        if distinct && puzzle.border.is_none_or(|b| numbers[b as usize] == 0) {
            return Ok(numbers.iter().map(|&v| (b'a' + v as u8) as char).collect());
        }
    }
    let needed = n + usize::from(puzzle.border.is_none());
    if needed > 26 {
        return Err(LinkError::TooManyMarks { marks: n });
    }
    let mut next = b'b';
    Ok((0..n)
        .map(|m| {
            if puzzle.border == Some(m as MarkId) {
                'a'
            } else {
                let c = next as char;
                next += 1;
                c
            }
        })
        .collect())
}

/// The viewer's address for `board` (row by row, `None` for empty).
pub fn link(puzzle: &Puzzle, board: &[Option<Placement>]) -> Result<String, LinkError> {
    let letters = mark_letters(puzzle)?;
    let mut edges = String::with_capacity(board.len() * 4);
    for cell in board {
        match cell {
            Some(p) => {
                for m in puzzle.tiles[p.tile as usize].rotated(p.rotation) {
                    edges.push(letters[m as usize]);
                }
            }
            None => edges.push_str("aaaa"),
        }
    }
    let name: String = puzzle
        .name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    Ok(format!(
        "https://e2.bucas.name/#puzzle={name}&board_w={}&board_h={}&board_edges={edges}",
        puzzle.cols, puzzle.rows
    ))
}

/// Reads a viewer address back into a board: each cell gets an unused tile
/// (the first in the puzzle's order) that shows its four marks; `aaaa` is an
/// empty cell unless the puzzle has a tile of four `a` marks left, and a
/// hinted cell gets its hint when the marks agree.
pub fn read_link(puzzle: &Puzzle, address: &str) -> Result<Vec<Option<Placement>>, LinkError> {
    let params = address.split_once('#').map_or(address, |(_, p)| p);
    let params = params.split_once('?').map_or(params, |(_, p)| p);
    let get = |key: &str| {
        params
            .split('&')
            .filter_map(|kv| kv.split_once('='))
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v)
    };
    let number = |key: &'static str| {
        get(key)
            .and_then(|v| v.parse::<usize>().ok())
            .ok_or(LinkError::Missing(key))
    };
    let (w, h) = (number("board_w")?, number("board_h")?);
    if w != puzzle.cols || h != puzzle.rows {
        return Err(LinkError::Size {
            w,
            h,
            cols: puzzle.cols,
            rows: puzzle.rows,
        });
    }
    let edges = get("board_edges").ok_or(LinkError::Missing("board_edges"))?;
    let expected = 4 * w * h;
    let letters = mark_letters(puzzle)?;
    let chars: Vec<char> = edges.chars().collect();
    if chars.len() != expected {
        return Err(LinkError::Edges {
            expected,
            problem: format!("it has {}", chars.len()),
        });
    }
    let mut marks = Vec::with_capacity(expected);
    for &c in &chars {
        match letters.iter().position(|&l| l == c) {
            Some(m) => marks.push(Some(m as MarkId)),
            None if c == 'a' => marks.push(None),
            None => {
                return Err(LinkError::Edges {
                    expected,
                    problem: format!("'{c}' is no mark of the puzzle"),
                })
            }
        }
    }
    let mut used = vec![false; puzzle.tiles.len()];
    let mut board = vec![None; w * h];
    // Hints first, so that a look-alike tile elsewhere cannot take a hint's
    // place.
    let hinted: Vec<usize> = puzzle.hints.iter().map(|x| x.row * w + x.col).collect();
    let order = hinted
        .iter()
        .copied()
        .chain((0..w * h).filter(|c| !hinted.contains(c)));
    for cell in order {
        let want = &marks[cell * 4..cell * 4 + 4];
        let text: String = chars[cell * 4..cell * 4 + 4].iter().collect();
        let shows = |t: usize, r: u8| {
            let look = puzzle.tiles[t].rotated(r);
            (0..4).all(|s| want[s] == Some(look[s]))
        };
        let hint = puzzle.hints.iter().find(|x| x.row * w + x.col == cell);
        let found = match hint {
            Some(x) if !used[x.tile] && (0..4).any(|r| shows(x.tile, r)) => {
                (0..4).find(|&r| shows(x.tile, r)).map(|r| (x.tile, r))
            }
            _ => (0..puzzle.tiles.len())
                .filter(|&t| !used[t])
                .find_map(|t| (0..4).find(|&r| shows(t, r)).map(|r| (t, r))),
        };
        match found {
            Some((t, r)) => {
                used[t] = true;
                board[cell] = Some(Placement {
                    tile: t as u16,
                    rotation: r,
                });
            }
            None if text == "aaaa" => {}
            None => {
                return Err(LinkError::NoTile {
                    row: cell / w + 1,
                    col: cell % w + 1,
                    letters: text,
                })
            }
        }
    }
    Ok(board)
}
