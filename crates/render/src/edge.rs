//! Edge-matching solutions as text.
//!
//! Each cell is a box with the tile's four marks on its four sides and, in
//! the middle, the tile number and its rotation (`#7 r2`: tile 7 turned two
//! quarter turns clockwise). Neighbouring marks face each other across the
//! box walls, so a reader can check each join by eye.

use jigsolve_edge::{Placement, Puzzle};

/// The solution as a grid of boxes.
pub fn solution_text(puzzle: &Puzzle, placements: &[Placement]) -> String {
    let cols = puzzle.cols.max(1);
    let marks_of = |p: &Placement| puzzle.tiles[p.tile as usize].rotated(p.rotation);
    let name = |m: u16| puzzle.marks.name(m);
    let widest_mark = (0..puzzle.marks.len())
        .map(|m| name(m as u16).chars().count())
        .max()
        .unwrap_or(1);
    let label = |p: &Placement| format!("#{} r{}", p.tile + 1, p.rotation);
    let widest_label = placements.iter().map(|p| label(p).len()).max().unwrap_or(4);
    // | left  label  right |
    let inner = (2 * widest_mark + widest_label + 4).max(widest_mark + 2);
    let rule: String = {
        let mut s = String::from("+");
        for _ in 0..cols {
            s.push_str(&"-".repeat(inner));
            s.push('+');
        }
        s
    };
    let mut out = String::new();
    for row in placements.chunks(cols) {
        out.push_str(&rule);
        out.push('\n');
        let mut top = String::from("|");
        let mut middle = String::from("|");
        let mut bottom = String::from("|");
        for p in row {
            let m = marks_of(p);
            top.push_str(&centre(name(m[0]), inner));
            top.push('|');
            bottom.push_str(&centre(name(m[2]), inner));
            bottom.push('|');
            let left = name(m[3]);
            let right = name(m[1]);
            let lab = label(p);
            let gap = inner - 2 - left.chars().count() - right.chars().count();
            middle.push(' ');
            middle.push_str(left);
            middle.push_str(&centre(&lab, gap));
            middle.push_str(right);
            middle.push(' ');
            middle.push('|');
        }
        for line in [top, middle, bottom] {
            out.push_str(&line);
            out.push('\n');
        }
    }
    out.push_str(&rule);
    out.push('\n');
    out
}

fn centre(s: &str, width: usize) -> String {
    let len = s.chars().count();
    if len >= width {
        return s.to_string();
    }
    let left = (width - len) / 2;
    format!(
        "{}{}{}",
        " ".repeat(left),
        s,
        " ".repeat(width - len - left)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_face_their_neighbours() {
        let text = "rows = 1\ncols = 2\ntiles = [\"+1 +2 -1 +3\", \"-4 -1 +4 -2\"]\n";
        let puzzle = jigsolve_edge::parse::parse(text, "t.toml", None).unwrap();
        let placements = [
            Placement {
                tile: 0,
                rotation: 0,
            },
            Placement {
                tile: 1,
                rotation: 0,
            },
        ];
        let out = solution_text(&puzzle, &placements);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 5);
        // Tile 1's right mark +2 sits just left of the wall, tile 2's left
        // mark -2 just right of it.
        assert!(lines[2].contains("+2 | -2"), "{out}");
        assert!(lines[2].contains("#1 r0") && lines[2].contains("#2 r0"));
        assert!(lines[1].contains("+1") && lines[3].contains("-1"));
    }
}
