//! A puzzle written back as jigsolve's TOML format.
//!
//! Generated puzzles leave the program as files a person can read, edit
//! and hand back: the region and every piece as lists of exact corners
//! (`(0,0) (3/2,0) (1/2 + sqrt3/2,1)`), in the format the catalog uses.
//! Copies are written as separate pieces; reading the file back recognises
//! congruent pieces as identical again, so the counts do not change.

use crate::geom::Pt;
use crate::model::Puzzle;
use crate::num::Num;
use std::fmt::Write as _;

fn quoted(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

/// Corners as the format writes them: `"(x,y) (x,y) ..."`.
fn corners(points: &[Pt<Num>]) -> String {
    let text: Vec<String> = points
        .iter()
        .map(|p| format!("({},{})", p.x, p.y))
        .collect();
    quoted(&text.join(" "))
}

/// The puzzle as a TOML file, starting with `comments` (each line gets a
/// `# `).
pub fn to_toml(puzzle: &Puzzle, comments: &[String]) -> String {
    let mut out = String::new();
    for c in comments {
        let _ = writeln!(out, "# {c}");
    }
    let _ = writeln!(out, "family = \"polygon\"");
    let _ = writeln!(out, "name = {}", quoted(&puzzle.name));
    if let [only] = puzzle.region.as_slice() {
        let _ = writeln!(out, "region = {}", corners(only));
    } else {
        let _ = writeln!(out, "region = [");
        for polygon in &puzzle.region {
            let _ = writeln!(out, "  {},", corners(polygon));
        }
        let _ = writeln!(out, "]");
    }
    for piece in &puzzle.pieces {
        let _ = writeln!(out, "\n[[pieces]]");
        let _ = writeln!(out, "name = {}", quoted(&piece.name));
        let _ = writeln!(out, "vertices = {}", corners(&piece.vertices));
        let _ = writeln!(out, "flip = {}", piece.flip);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::planted;
    use crate::parse::parse;

    #[test]
    fn generated_puzzles_read_back_the_same() {
        for seed in 0..30u64 {
            let planted = planted(1 + (seed % 6) as usize, seed);
            crate::verify(&planted.puzzle, &planted.placements)
                .unwrap_or_else(|e| panic!("seed {seed}: the planted solution fails: {e}"));
            let puzzle = planted.puzzle;
            let text = to_toml(&puzzle, &[]);
            let back = parse(&text, "back.toml").unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(back.region, puzzle.region, "{text}");
            assert_eq!(back.pieces.len(), puzzle.pieces.len());
            for (a, b) in back.pieces.iter().zip(&puzzle.pieces) {
                assert_eq!(
                    (&a.name, &a.vertices, a.flip),
                    (&b.name, &b.vertices, b.flip)
                );
            }
        }
    }
}
