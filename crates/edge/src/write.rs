//! A puzzle written back as jigsolve's TOML format.
//!
//! Generated puzzles and puzzles given new hints leave the program as files
//! a person can read, edit and hand back: the same format the catalog uses,
//! one tile per line with its number in a comment, hints counted from 1.
//! Reading the text back gives the same puzzle (tested below and on every
//! generated puzzle in the command line's tests).

use crate::model::{Matching, Puzzle};
use std::fmt::Write as _;

/// A TOML string literal (quoted and escaped as TOML needs).
fn quoted(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

/// The puzzle as a TOML file, starting with `comments` (each line gets a
/// `# `). Marks keep their names; complementary marks are written with the
/// names they had (`+3`, `brown-head`), which read back the same way.
pub fn to_toml(puzzle: &Puzzle, comments: &[String]) -> String {
    let mut out = String::new();
    for c in comments {
        let _ = writeln!(out, "# {c}");
    }
    let _ = writeln!(out, "family = \"edge\"");
    let _ = writeln!(out, "name = {}", quoted(&puzzle.name));
    let _ = writeln!(out, "rows = {}", puzzle.rows);
    let _ = writeln!(out, "cols = {}", puzzle.cols);
    let matching = match puzzle.matching {
        Matching::Complementary => "complementary",
        Matching::Equal => "equal",
    };
    let _ = writeln!(out, "matching = \"{matching}\"");
    if let Some(b) = puzzle.border {
        let _ = writeln!(out, "border = {}", quoted(puzzle.marks.name(b)));
    }
    let _ = writeln!(out, "tiles = [");
    for t in 0..puzzle.tiles.len() {
        let _ = writeln!(out, "  {},  # {}", quoted(&puzzle.tile_text(t)), t + 1);
    }
    let _ = writeln!(out, "]");
    for h in &puzzle.hints {
        let _ = writeln!(
            out,
            "\n[[hints]]\ntile = {}\nrow = {}\ncol = {}\nrotation = {}",
            h.tile + 1,
            h.row + 1,
            h.col + 1,
            h.rotation
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{planted, Spec};
    use crate::model::Hint;
    use crate::parse::parse;

    fn same(a: &Puzzle, b: &Puzzle) {
        assert_eq!((a.rows, a.cols, a.matching), (b.rows, b.cols, b.matching));
        assert_eq!(a.tiles.len(), b.tiles.len());
        for t in 0..a.tiles.len() {
            assert_eq!(a.tile_text(t), b.tile_text(t), "tile {t}");
        }
        assert_eq!(a.hints, b.hints);
        assert_eq!(
            a.border.map(|m| a.marks.name(m).to_string()),
            b.border.map(|m| b.marks.name(m).to_string())
        );
        assert_eq!(a.name, b.name);
    }

    #[test]
    fn generated_puzzles_read_back_the_same() {
        for seed in 0..40u64 {
            let spec = Spec {
                rows: 2 + (seed % 4) as usize,
                cols: 2 + (seed % 3) as usize,
                colours: 1 + (seed % 5) as usize,
                frame_colours: (seed % 3) as usize,
                border: seed % 2 == 0,
                matching: if seed % 3 == 0 {
                    Matching::Equal
                } else {
                    Matching::Complementary
                },
            };
            let (mut puzzle, solution) = planted(spec, seed);
            if seed % 4 == 1 {
                puzzle.hints.push(Hint {
                    tile: solution[0].tile as usize,
                    row: 0,
                    col: 0,
                    rotation: solution[0].rotation,
                });
            }
            let text = to_toml(&puzzle, &["generated".to_string()]);
            let back = parse(&text, "back.toml", None).unwrap_or_else(|e| panic!("{e}\n{text}"));
            same(&puzzle, &back);
        }
    }
}
