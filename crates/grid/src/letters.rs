//! A solution as letters: each board cell shows the name of the piece copy
//! covering it, so a piece is the region of its letter.
//!
//! This is the form a person reads in a terminal and the `grid` field of
//! `solve --json`: rows go down the page as in the files (y grows
//! downwards), `.` marks a hole of the board, and when a name is longer than
//! one character every cell is padded to the longest name and cells are
//! separated by spaces (Atwood's pieces are numbered 0 to 11). On the cube
//! lattice there is one list of rows per layer, `z = 0` first.

use crate::lattice::bounding_box;
use crate::model::Puzzle;

/// The rows of each layer of the solution `copies` (the piece copy covering
/// each board cell, as in [`Puzzle::instances`]): `layers[z][y]`. A cell whose
/// copy is out of range shows `?` rather than failing, so a damaged record
/// still prints.
pub fn letter_layers(puzzle: &Puzzle, copies: &[u16]) -> Vec<Vec<String>> {
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
            .map_or("?", |&(p, _)| puzzle.pieces[p].name.as_str());
        grid[(c[2] - lo[2]) as usize][(c[1] - lo[1]) as usize][(c[0] - lo[0]) as usize] =
            Some(name);
    }
    let width = puzzle
        .pieces
        .iter()
        .map(|p| p.name.chars().count())
        .max()
        .unwrap_or(1)
        .max(1);
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
