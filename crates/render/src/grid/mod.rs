//! Polyform puzzles and solutions: letter grids for the terminal, SVG
//! pictures.
//!
//! **Text.** The letter grid of [`jigsolve_grid::letter_layers`] (each cell
//! shows the name of the piece covering it, `.` a hole); on the cube lattice
//! the layers are printed one after another under `z = k:` captions.
//!
//! **Pictures.** Each cell is a square filled with the colour of the piece
//! covering it ([`palette::piece_fill`]: Paul Tol's light colours, with a
//! pattern for pieces past the ninth); thick dark lines run along piece
//! boundaries and thin ones between the cells of a piece; each piece carries
//! its name in the upper part of one of its cells, and a legend under the
//! board names the pieces. On a coloured board (Atwood's checkerboard) each
//! cell has a small triangle in its lower right corner in its board colour
//! (colour 0 dark grey, the last white), so the checkerboard shows under the
//! pieces while the middle of every cell keeps the piece's colour. Solids are
//! drawn layer by layer, `z = 0` on the left, side by side and labelled.
//! Rows go down the page as in the files. In the picture of a puzzle its
//! pinned pieces lie on the board in their colours, named and outlined.
//!
//! One concern a file: `frame` places cells in the picture (squares and
//! cubes in rows and layers, triangles and hexagons by their corners),
//! `cells` draws a set of cells (fills, board colours, lines, labels),
//! `puzzle` draws the puzzle itself and `heat` the heat map of open cells;
//! this file holds the letter grid and the solution pictures.

mod cells;
mod frame;
mod heat;
mod puzzle;

use crate::legend::{Legend, Swatch};
use crate::palette::{self, Fill};
use crate::svg::{text_width, Svg, MARGIN};
use cells::{draw_cells, layer_captions, patterns, Drawn, Style};
use jigsolve_grid::{letter_layers, Cell, Lattice, Puzzle};
use std::collections::{BTreeSet, HashMap};

pub(crate) use cells::halo;
pub use frame::{solution_frame, Frame, Plane, Point};
pub use heat::heat_map_svg;
pub use puzzle::puzzle_svg;

/// The solution as text: the letter grid, layer by layer in 3D.
pub fn solution_text(puzzle: &Puzzle, copies: &[u16]) -> String {
    let mut out = String::new();
    let all = letter_layers(puzzle, copies);
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

/// The fill of piece `piece` (an index into `puzzle.pieces`) in pictures.
pub fn piece_fill(piece: usize) -> Fill {
    palette::piece_fill(piece)
}

/// The legend: the pieces, then the board colours.
fn legend(puzzle: &Puzzle) -> Legend {
    let mut legend = Legend::new();
    // Open cells are drawn blank and named where they are.
    for (i, p) in puzzle
        .pieces
        .iter()
        .enumerate()
        .filter(|(_, p)| p.open.is_none())
    {
        let mut name = p.name.clone();
        if p.copies > 1 {
            name.push_str(&format!(" \u{d7}{}", p.copies));
        }
        if p.optional && p.least > 0 {
            name.push_str(&format!(" ({} to {})", p.least, p.copies));
        } else if p.optional {
            name.push_str(" (optional)");
        }
        legend.add(Swatch::Piece(piece_fill(i)), name);
    }
    let colours = puzzle.colours.len();
    if colours > 0 && puzzle.board.iter().any(|s| s.1.is_some()) {
        for (k, c) in puzzle.colours.iter().enumerate() {
            legend.add(
                Swatch::Corner(palette::board_shade(k, colours)),
                format!("board colour {c}"),
            );
        }
    }
    legend
}

/// A picture of a solution: the board with each cell in the colour of the
/// piece covering it, `copies[b]` being the piece copy on board cell `b` (as
/// in [`Puzzle::instances`]), under `caption`.
pub fn solution_svg(puzzle: &Puzzle, copies: &[u16], caption: &str) -> String {
    solution_picture(puzzle, copies, caption, &[]).finish()
}

/// The picture of [`solution_svg`], not yet finished, with the board cells
/// whose indices are in `marked` (indices into `puzzle.board`) marked as
/// differing from another solution ([`crate::differ`]); on a solid the
/// marks are in the cells' layers.
pub fn solution_picture(puzzle: &Puzzle, copies: &[u16], caption: &str, marked: &[usize]) -> Svg {
    let frame = solution_frame(puzzle);
    let instances = puzzle.instances();
    let piece_of = |g: usize| instances.get(g).map(|&(p, _)| p);
    let legend = legend(puzzle);
    let inner = frame
        .width()
        .max(legend.min_width())
        .max(text_width(caption, 15.0))
        .max(240.0);
    let width = inner + 2.0 * MARGIN;
    let legend_top = frame.origins[0].1 + frame.height() + 14.0;
    let height = legend_top + legend.height(inner) + MARGIN;
    let mut svg = Svg::new(width, height, caption);
    let prefix = "p";
    let is_marked: BTreeSet<usize> = marked.iter().copied().collect();
    let cells: Vec<Drawn> = puzzle
        .board
        .iter()
        .enumerate()
        .map(|(b, &(cell, colour))| Drawn {
            cell,
            group: copies.get(b).map_or(usize::MAX, |&g| g as usize),
            colour,
            marked: is_marked.contains(&b),
        })
        .collect();
    // A cell left open is blank, named as the board names it (a date).
    let open_cell: HashMap<usize, Cell> = copies
        .iter()
        .enumerate()
        .filter(|&(_, &g)| piece_of(g as usize).is_some_and(|p| puzzle.pieces[p].open.is_some()))
        .map(|(b, &g)| (g as usize, puzzle.board[b].0))
        .collect();
    let fill = |g: usize| match piece_of(g) {
        Some(p) if !open_cell.contains_key(&g) => piece_fill(p),
        _ => Fill {
            colour: "#ffffff".into(),
            cue: None,
        },
    };
    let label = |g: usize| match open_cell.get(&g) {
        Some(&c) => Some(puzzle.cell_name(c)),
        None => piece_of(g).map(|p| puzzle.pieces[p].name.clone()),
    };
    let used = cells
        .iter()
        .filter(|d| !open_cell.contains_key(&d.group))
        .filter_map(|d| piece_of(d.group))
        .filter_map(|p| piece_fill(p).cue);
    patterns(&mut svg, prefix, used, &frame);
    svg.heading(caption, None);
    layer_captions(&mut svg, &frame);
    draw_cells(
        &mut svg,
        &frame,
        &cells,
        &Style {
            fill: &fill,
            label: &label,
            colours: puzzle.colours.len(),
            prefix,
        },
    );
    legend.draw(&mut svg, MARGIN, legend_top, inner);
    svg
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
    fn pinned_pieces_are_drawn_on_the_board() {
        let text = "board = \"####\"\n[[piece]]\nname = \"Q\"\nshape = \"##\"\ncopies = 2\n[[pin]]\npiece = \"Q\"\ncells = [[2,0],[3,0]]\n";
        let puzzle = jigsolve_grid::parse::parse(text, "q.toml").unwrap().puzzle;
        let fill = piece_fill(0).colour;
        let unpinned = {
            let mut p = puzzle.clone();
            p.pins.clear();
            puzzle_svg(&p)
        };
        let pinned = puzzle_svg(&puzzle);
        // The piece's colour fills two more cells, and its name is written
        // on the board (the picture of the pieces writes "Q ×2").
        let fills = |svg: &str| svg.matches(&format!("fill=\"{fill}\"")).count();
        assert_eq!(fills(&pinned), fills(&unpinned) + 2);
        assert!(pinned.contains(">Q<"), "{pinned}");
        assert!(!unpinned.contains(">Q<"));
    }

    #[test]
    fn layers_are_printed_one_after_another() {
        let text = "lattice = \"cube\"\nboard = { size = [1, 1, 2] }\n[[piece]]\nname = \"10\"\ncells = \"000 001\"\n";
        let puzzle = jigsolve_grid::parse::parse(text, "t.toml").unwrap().puzzle;
        let out = solution_text(&puzzle, &[0, 0]);
        assert_eq!(out, "z = 0:\n10\n\nz = 1:\n10\n");
    }
}
