//! Polyform solutions as letter grids.
//!
//! Each cell shows the name of the piece covering it, so a piece is the
//! region of its letter; rows go down the page as in the files (y grows
//! downwards), `.` marks a hole of the board. When a name is longer than
//! one character every cell is padded to the longest name and cells are
//! separated by spaces (Atwood's pieces are numbered 0 to 11). On the cube
//! lattice the layers are printed one after another, `z = 0` first.

use jigsolve_grid::{Lattice, Puzzle};

/// The name shown in each board cell of a solution (the piece copy
/// covering it, as in [`Puzzle::instances`]), and the grid as rows of cells
/// per layer: `layers[z][y][x]`, `None` off the board.
fn layout(puzzle: &Puzzle, copies: &[u16]) -> Vec<Vec<Vec<Option<String>>>> {
    let instances = puzzle.instances();
    let mut lo = [i32::MAX; 3];
    let mut hi = [i32::MIN; 3];
    for (c, _) in &puzzle.board {
        for k in 0..3 {
            lo[k] = lo[k].min(c[k]);
            hi[k] = hi[k].max(c[k]);
        }
    }
    let size = |k: usize| (hi[k] - lo[k] + 1).max(0) as usize;
    let mut grid = vec![vec![vec![None; size(0)]; size(1)]; size(2)];
    for (b, (c, _)) in puzzle.board.iter().enumerate() {
        let name = copies
            .get(b)
            .and_then(|&i| instances.get(i as usize))
            .map_or_else(|| "?".to_string(), |&(p, _)| puzzle.pieces[p].name.clone());
        grid[(c[2] - lo[2]) as usize][(c[1] - lo[1]) as usize][(c[0] - lo[0]) as usize] =
            Some(name);
    }
    grid
}

/// The rows of each layer as text.
pub fn layers(puzzle: &Puzzle, copies: &[u16]) -> Vec<Vec<String>> {
    let grid = layout(puzzle, copies);
    let width = puzzle
        .pieces
        .iter()
        .map(|p| p.name.chars().count())
        .max()
        .unwrap_or(1)
        .max(1);
    grid.iter()
        .map(|layer| {
            layer
                .iter()
                .map(|row| {
                    let cells: Vec<String> = row
                        .iter()
                        .map(|c| {
                            let s = c.as_deref().unwrap_or(".");
                            format!("{s:>width$}")
                        })
                        .collect();
                    cells
                        .join(if width > 1 { " " } else { "" })
                        .trim_end()
                        .to_string()
                })
                .collect()
        })
        .collect()
}

/// The solution as text: the letter grid, layer by layer in 3D.
pub fn solution_text(puzzle: &Puzzle, copies: &[u16]) -> String {
    let mut out = String::new();
    let all = layers(puzzle, copies);
    let solid = puzzle.lattice == Lattice::Cube && all.len() > 1;
    for (z, rows) in all.iter().enumerate() {
        if solid {
            out.push_str(&format!("z = {z}:\n"));
        }
        for r in rows {
            out.push_str(r);
            out.push('\n');
        }
        if solid && z + 1 < all.len() {
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_show_as_their_letters() {
        let text = "board = \"\"\"\n###\n#.#\n\"\"\"\n[[piece]]\nname = \"U\"\nshape = \"\"\"\n#.#\n###\n\"\"\"\n";
        let puzzle = jigsolve_grid::parse::parse(text, "u.toml").unwrap().puzzle;
        let out = solution_text(&puzzle, &[0; 5]);
        assert_eq!(out, "UUU\nU.U\n");
    }

    #[test]
    fn layers_are_printed_one_after_another() {
        let text = "lattice = \"cube\"\nboard = { size = [1, 1, 2] }\n[[piece]]\nname = \"10\"\ncells = \"000 001\"\n";
        let puzzle = jigsolve_grid::parse::parse(text, "t.toml").unwrap().puzzle;
        let out = solution_text(&puzzle, &[0, 0]);
        assert_eq!(out, "z = 0:\n10\n\nz = 1:\n10\n");
    }
}
