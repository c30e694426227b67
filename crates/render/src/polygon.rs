//! Polygonal jigsaw solutions as text.
//!
//! One line per placed piece: its number and name, whether it is flipped
//! (mirrored in the x axis before turning), the turn (degrees, and the exact
//! cosine and sine), the shift, and the corners where the piece lands. With
//! exact puzzles every number is printed exactly (`sqrt2/2`, `3/5`), so a
//! reader can check a placement by hand.

use jigsolve_polygon::{Placement, Puzzle, Scalar};

/// The solution as one line per piece, in the puzzle's piece order.
pub fn solution_text<S: Scalar>(puzzle: &Puzzle, placements: &[Placement<S>]) -> String {
    let name_width = placements
        .iter()
        .map(|p| puzzle.pieces[p.piece].name.chars().count())
        .max()
        .unwrap_or(1);
    let mut out = String::new();
    for p in placements {
        let corners: Vec<String> = p
            .corners(puzzle)
            .iter()
            .map(|c| format!("({}, {})", c.x, c.y))
            .collect();
        out.push_str(&format!(
            "  {:>2} {:<name_width$}  {}  turn {:>7.3}° (cos {}, sin {})  shift ({}, {})  at {}\n",
            p.piece + 1,
            puzzle.pieces[p.piece].name,
            if p.flipped { "flipped" } else { "       " },
            p.degrees(),
            p.rot.x,
            p.rot.y,
            p.shift.x,
            p.shift.y,
            corners.join(" ")
        ));
    }
    out
}
