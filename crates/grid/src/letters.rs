//! A solution as letters: each board cell shows the name of the piece copy
//! covering it, so a piece is the region of its letter.
//!
//! This is the form a person reads in a terminal and the `grid` field of
//! `solve --json`: rows go down the page as in the files (y grows
//! downwards), `.` marks a hole of the board, and when a name is longer than
//! one character every cell is padded to the longest name and cells are
//! separated by spaces (Atwood's pieces are numbered 0 to 11). A cell
//! left open (a calendar's date) shows as `_`. On the cube
//! lattice there is one list of rows per layer, `z = 0` first. Triangles
//! and hexagons are placed as in their art ([`crate::Lattice::art_place`]):
//! triangles alternate down and up along a line, hexagons stand two
//! columns apart with a blank between.

use crate::lattice::{bounding_box, Lattice};
use crate::model::Puzzle;

/// The copy names of a plane puzzle's cells at their art places: `.` for a
/// place of the lattice off the board, a blank between hexagons.
fn plane_rows(puzzle: &Puzzle, copies: &[u16]) -> Vec<String> {
    let lattice = puzzle.lattice;
    let places: Vec<(i32, i32)> = puzzle
        .board
        .iter()
        .map(|s| lattice.art_place(s.0))
        .collect();
    let (Some(left), Some(right)) = (
        places.iter().map(|p| p.0).min(),
        places.iter().map(|p| p.0).max(),
    ) else {
        return Vec::new();
    };
    let top = places.iter().map(|p| p.1).min().unwrap_or(0);
    let bottom = places.iter().map(|p| p.1).max().unwrap_or(0);
    let instances = puzzle.instances();
    let width = name_width(puzzle);
    let mut rows: Vec<Vec<String>> = (top..=bottom)
        .map(|line| {
            (left..=right)
                .map(|col| {
                    let mark = if lattice.art_cell(col, line).is_some() {
                        "."
                    } else {
                        " "
                    };
                    format!("{mark:>width$}")
                })
                .collect()
        })
        .collect();
    for (b, &(col, line)) in places.iter().enumerate() {
        let name = copies
            .get(b)
            .and_then(|&i| instances.get(i as usize))
            .map_or("?", |&(p, _)| shown_name(puzzle, p));
        rows[(line - top) as usize][(col - left) as usize] = format!("{name:>width$}");
    }
    let separator = if width > 1 { " " } else { "" };
    // Places off the board before a line's first cell and after its last
    // are left out, as in art; those between cells show as `.`.
    rows.into_iter()
        .map(|r| {
            let line = r.join(separator);
            let line = line.trim_end_matches(['.', ' ']);
            let lead = line.len() - line.trim_start_matches(['.', ' ']).len();
            format!("{}{}", " ".repeat(lead), &line[lead..])
        })
        .collect()
}

/// The widest piece name (at least 1).
/// What a cell of piece `p` shows: its name, or [`OPEN_MARK`] for a cell
/// left open.
fn shown_name(puzzle: &Puzzle, p: usize) -> &str {
    let piece = &puzzle.pieces[p];
    if piece.open.is_some() {
        OPEN_MARK
    } else {
        piece.name.as_str()
    }
}

/// How a cell left open (by an open group or the hole limit) shows.
pub const OPEN_MARK: &str = "_";

fn name_width(puzzle: &Puzzle) -> usize {
    puzzle
        .pieces
        .iter()
        .filter(|p| p.open.is_none())
        .map(|p| p.name.chars().count())
        .max()
        .unwrap_or(1)
        .max(1)
}

/// The rows of each layer of the solution `copies` (the piece copy covering
/// each board cell, as in [`Puzzle::instances`]): `layers[z][y]`. A cell whose
/// copy is out of range shows `?` rather than failing, so a damaged record
/// still prints.
pub fn letter_layers(puzzle: &Puzzle, copies: &[u16]) -> Vec<Vec<String>> {
    if matches!(puzzle.lattice, Lattice::Triangle | Lattice::Hexagon) {
        return vec![plane_rows(puzzle, copies)];
    }
    let Some((lo, hi)) = bounding_box(puzzle.board.iter().map(|s| s.0)) else {
        return Vec::new();
    };
    let size = |k: usize| (hi[k] - lo[k] + 1) as usize;
    let mut grid: Vec<Vec<Vec<Option<&str>>>> = vec![vec![vec![None; size(0)]; size(1)]; size(2)];
    let instances = puzzle.instances();
    for (b, (c, _)) in puzzle.board.iter().enumerate() {
        let name = copies
            .get(b)
            .and_then(|&i| instances.get(i as usize))
            .map_or("?", |&(p, _)| shown_name(puzzle, p));
        grid[(c[2] - lo[2]) as usize][(c[1] - lo[1]) as usize][(c[0] - lo[0]) as usize] =
            Some(name);
    }
    let width = name_width(puzzle);
    let separator = if width > 1 { " " } else { "" };
    grid.iter()
        .map(|layer| {
            layer
                .iter()
                .map(|row| {
                    let cells: Vec<String> = row
                        .iter()
                        .map(|c| format!("{:>width$}", c.unwrap_or(".")))
                        .collect();
                    cells.join(separator).trim_end().to_string()
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holes_show_as_dots_and_long_names_are_padded() {
        // Board with a hole, filled by copies of a U; then a second puzzle
        // whose two-letter names pad and space every cell.
        let text = "board = \"\"\"\n###\n#.#\n\"\"\"\n[[piece]]\nname = \"U\"\nshape = \"\"\"\n#.#\n###\n\"\"\"\n";
        let puzzle = crate::parse::parse(text, "u.toml").unwrap().puzzle;
        assert_eq!(letter_layers(&puzzle, &[0; 5]), [["UUU", "U.U"]]);
        let text = "board = \"##\"\n[[piece]]\nname = \"A1\"\nshape = \"#\"\n[[piece]]\nname = \"B\"\nshape = \"#\"\n";
        let puzzle = crate::parse::parse(text, "ab.toml").unwrap().puzzle;
        assert_eq!(letter_layers(&puzzle, &[1, 0]), [[" B A1"]]);
        // A copy number out of range prints rather than panics.
        assert_eq!(letter_layers(&puzzle, &[9]), [[" ?  ?"]]);
    }
}
