//! Writing a puzzle as a TOML file that [`crate::parse`] reads back.
//!
//! The file reads back to an equal [`Puzzle`]: the same name, lattice,
//! colours, board (with the file's own coordinates), pieces (name, shape,
//! copies, optional, sides) and pins. Everything that has a default is
//! still written out (`lattice`, each piece's `sides`), so the file does
//! not depend on defaults.
//!
//! Boards and pieces are drawn as ASCII art when the art reads back to the
//! same cells, and listed as coordinates otherwise. Art always starts at
//! x = 0, y = 0 (its first row and column hold cells), and on the cube
//! lattice each layer is read on its own, so art serves when the cells'
//! least x and y are 0 (in every layer, for solids) and the layers run
//! from z = 0 without a gap; a board elsewhere, or a solid piece whose
//! layers are offset, is listed cell by cell. In art `#` is a cell without
//! colour and a colour's letter a cell of that colour.

use crate::lattice::{bounding_box, Lattice};
use crate::model::{Puzzle, Sides, Site};
use std::fmt::Write as _;

/// The puzzle as a TOML file in jigsolve's polyform format.
pub fn to_toml(puzzle: &Puzzle) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "family = \"grid\"");
    let _ = writeln!(out, "name = {}", quoted(&puzzle.name));
    let _ = writeln!(out, "lattice = \"{}\"", puzzle.lattice.as_str());
    if !puzzle.colours.is_empty() {
        let names: Vec<String> = puzzle.colours.iter().map(|c| quoted(c)).collect();
        let _ = writeln!(out, "colours = [{}]", names.join(", "));
    }
    let _ = writeln!(out, "board = {}", cells_value(puzzle, &puzzle.board));
    // The hole limit is the one open "piece" that is optional.
    if let Some(h) = puzzle
        .pieces
        .iter()
        .find(|p| p.open.is_some() && p.optional)
    {
        let _ = writeln!(out, "holes = {}", h.copies);
    }
    for p in &puzzle.pieces {
        let Some(cells) = &p.open else { continue };
        if p.optional {
            continue;
        }
        out.push_str("\n[[open]]\n");
        let _ = writeln!(out, "name = {}", quoted(&p.name));
        let sites: Vec<Site> = cells.iter().map(|&c| (c, None)).collect();
        let _ = writeln!(out, "cells = {}", list(puzzle, &sites));
        if p.copies != 1 {
            let _ = writeln!(out, "count = {}", p.copies);
        }
        let labels: Option<Vec<String>> = cells
            .iter()
            .map(|c| {
                puzzle
                    .labels
                    .binary_search_by(|(k, _)| k.cmp(c))
                    .ok()
                    .map(|i| quoted(&puzzle.labels[i].1))
            })
            .collect();
        if let Some(labels) = labels {
            let _ = writeln!(out, "labels = [{}]", labels.join(", "));
        }
    }
    for p in puzzle.pieces.iter().filter(|p| p.open.is_none()) {
        out.push_str("\n[[piece]]\n");
        let _ = writeln!(out, "name = {}", quoted(&p.name));
        match art(puzzle, &p.shape) {
            Some(a) => {
                let _ = writeln!(out, "shape = {a}");
            }
            None => {
                let _ = writeln!(out, "cells = {}", list(puzzle, &p.shape));
            }
        }
        if p.optional && p.least > 0 {
            let _ = writeln!(out, "copies = \"{}..{}\"", p.least, p.copies);
        } else {
            if p.copies != 1 {
                let _ = writeln!(out, "copies = {}", p.copies);
            }
            if p.optional {
                let _ = writeln!(out, "optional = true");
            }
        }
        let sides = match p.sides {
            Sides::One => "one",
            Sides::Two => "two",
        };
        let _ = writeln!(out, "sides = \"{sides}\"");
    }
    for pin in &puzzle.pins {
        out.push_str("\n[[pin]]\n");
        let name = puzzle.pieces.get(pin.piece).map_or("", |p| p.name.as_str());
        let _ = writeln!(out, "piece = {}", quoted(name));
        let sites: Vec<Site> = pin.cells.iter().map(|&c| (c, None)).collect();
        let _ = writeln!(out, "cells = {}", list(puzzle, &sites));
    }
    out
}

/// A TOML string (quoted and escaped as TOML needs).
fn quoted(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

/// Art when it reads back to `sites`, else a coordinate list.
fn cells_value(puzzle: &Puzzle, sites: &[Site]) -> String {
    art(puzzle, sites).unwrap_or_else(|| list(puzzle, sites))
}

/// A coordinate list: `[[x, y], [x, y, "b"], ...]`.
fn list(puzzle: &Puzzle, sites: &[Site]) -> String {
    let dim = puzzle.lattice.dim();
    let cells: Vec<String> = sites
        .iter()
        .map(|&(c, k)| {
            let mut parts: Vec<String> = c[..dim].iter().map(i32::to_string).collect();
            if let Some(k) = k {
                parts.push(quoted(puzzle.colour_name(Some(k))));
            }
            format!("[{}]", parts.join(", "))
        })
        .collect();
    format!("[{}]", cells.join(", "))
}

/// The art of `sites` (a multi-line string, or a list of them for the
/// layers of a solid), when it reads back to exactly these cells and
/// colours.
fn art(puzzle: &Puzzle, sites: &[Site]) -> Option<String> {
    // A colour is drawn as its name, which must then be one letter or digit
    // (what the parser accepts as a colour anyway).
    let letters: Option<Vec<char>> = puzzle
        .colours
        .iter()
        .map(|c| {
            let mut it = c.chars();
            match (it.next(), it.next()) {
                (Some(ch), None) if ch.is_alphanumeric() => Some(ch),
                _ => None,
            }
        })
        .collect();
    let letters = letters?;
    let draw = |k: Option<u8>| match k {
        None => Some('#'),
        Some(k) => letters.get(k as usize).copied(),
    };
    if matches!(puzzle.lattice, Lattice::Triangle | Lattice::Hexagon) {
        return plane_art(puzzle.lattice, sites, draw);
    }
    let (lo, hi) = bounding_box(sites.iter().map(|s| s.0))?;
    if lo[2] != 0 {
        return None;
    }
    let layers: Vec<Vec<&Site>> = (0..=hi[2])
        .map(|z| sites.iter().filter(|s| s.0[2] == z).collect())
        .collect();
    if puzzle.lattice == Lattice::Square && layers.len() != 1 {
        return None;
    }
    let mut drawn = Vec::with_capacity(layers.len());
    for layer in &layers {
        // Each layer is read with its first row and column at 0.
        let (llo, lhi) = bounding_box(layer.iter().map(|s| s.0))?;
        if llo[0] != 0 || llo[1] != 0 {
            return None;
        }
        let (w, h) = (lhi[0] as usize + 1, lhi[1] as usize + 1);
        let mut rows = vec![vec!['.'; w]; h];
        for &&(c, k) in layer {
            rows[c[1] as usize][c[0] as usize] = draw(k)?;
        }
        drawn.push(art_block(rows));
    }
    Some(match puzzle.lattice {
        Lattice::Cube => format!("[\n{},\n]", drawn.join(",\n")),
        _ => drawn.pop()?,
    })
}

/// Rows of art as a TOML multi-line string: trailing empty cells dropped,
/// and a lone `.` for a row left with nothing, so that every row stays.
fn art_block(rows: Vec<Vec<char>>) -> String {
    let mut text = String::from("\"\"\"\n");
    for row in rows {
        let line: String = row.into_iter().collect();
        let line = line.trim_end_matches('.');
        text.push_str(if line.is_empty() { "." } else { line });
        text.push('\n');
    }
    text.push_str("\"\"\"");
    text
}

/// Art on the triangle and hexagon lattices: each cell at its place
/// ([`Lattice::art_place`]), when the first line holds a cell and no cell
/// would fall left of the first column.
fn plane_art(
    lattice: Lattice,
    sites: &[Site],
    draw: impl Fn(Option<u8>) -> Option<char>,
) -> Option<String> {
    let places: Vec<(i32, i32)> = sites.iter().map(|s| lattice.art_place(s.0)).collect();
    let lines = places.iter().map(|p| p.1).max()? + 1;
    if places.iter().any(|p| p.0 < 0) || places.iter().map(|p| p.1).min()? != 0 {
        return None;
    }
    let width = places.iter().map(|p| p.0).max()? + 1;
    let mut rows = vec![vec!['.'; width as usize]; lines as usize];
    for (&(col, line), s) in places.iter().zip(sites) {
        rows[line as usize][col as usize] = draw(s.1)?;
    }
    Some(art_block(rows))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse;

    #[test]
    fn a_board_away_from_the_origin_is_listed_and_reads_back() {
        let text = "board = [[3, 4], [4, 4], [5, 4]]\n[[piece]]\nname = \"I\"\nshape = \"###\"\n";
        let p = parse(text, "t.toml").unwrap().puzzle;
        let out = to_toml(&p);
        assert!(out.contains("board = [[3, 4]"), "{out}");
        assert!(out.contains("shape = \"\"\"\n###\n\"\"\""), "{out}");
        assert_eq!(parse(&out, "t.toml").unwrap().puzzle, p);
    }

    #[test]
    fn coloured_art_and_pins_read_back() {
        let text = r###"
name = "a \"quoted\" name"
colours = ["b", "w"]
board = """
wbw
b.b
"""
[[piece]]
name = "U"
shape = """
b.b
wbw
"""
[[piece]]
name = "D"
shape = "##"
copies = 2
optional = true
[[pin]]
piece = "U"
cells = [[0,0],[0,1],[1,0],[2,0],[2,1]]
"###;
        let p = parse(text, "t.toml").unwrap().puzzle;
        let out = to_toml(&p);
        assert!(out.contains("wbw\nb.b"), "{out}");
        assert_eq!(parse(&out, "t.toml").unwrap().puzzle, p);
    }
}
