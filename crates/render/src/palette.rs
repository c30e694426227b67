//! Colours that stay apart for colour-blind viewers, and patterns as a
//! second cue when a picture needs more colours than a palette has.
//!
//! - Pieces (polyforms, polygons) are filled with Paul Tol's *light* scheme,
//!   nine pale colours made for filled areas with dark labels on them that
//!   stay distinct under the common colour-vision deficiencies. Piece 10 and
//!   on reuse the colours with a pattern on top: dots for pieces 10 to 18,
//!   small squares for 19 to 27, a lattice of diamonds for 28 to 36, then
//!   plain again; each piece is also labelled with its name, so neighbours
//!   never depend on colour alone.
//! - Edge marks use the Okabe–Ito colours (seven saturated colours, black
//!   left out since outlines are dark), with patterns past seven. A mark
//!   whose name is a colour word (`red`, `blue`, `brown`, ...) gets a
//!   colour-blind-safe version of that colour, so a Scramble Squares mark
//!   called "blue" is blue.
//! - Flipped polygon pieces are hatched with diagonal lines, a pattern no
//!   unflipped piece uses.
//!
//! Every pattern leaves the middle of its tile free: on a polyform board the
//! tiles are half a cell and start at a cell corner, so the centre of every
//! cell shows the piece's own colour (a test reads it back from the PNG).

use crate::svg::{num, INK};

/// Paul Tol's light scheme (light blue, orange, light yellow, pink, light
/// cyan, mint, pear, olive, pale grey).
pub const PIECES: [&str; 9] = [
    "#77aadd", "#ee8866", "#eedd88", "#ffaabb", "#99ddff", "#44bb99", "#bbcc33", "#aaaa00",
    "#dddddd",
];

/// The Okabe–Ito colours without black (orange, sky blue, bluish green,
/// yellow, blue, vermillion, reddish purple).
pub const MARKS: [&str; 7] = [
    "#e69f00", "#56b4e9", "#009e73", "#f0e442", "#0072b2", "#d55e00", "#cc79a7",
];

/// A pattern drawn over a colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Cue {
    /// A dot in the middle of each quarter cell.
    Dots,
    /// A small square outline in the middle of each quarter cell.
    Squares,
    /// Diamonds whose corners are the middles of a quarter cell's sides.
    Diamonds,
    /// Diagonal hatching (flipped polygon pieces).
    Hatch,
}

/// The patterns that wrap around a palette, in order.
const WRAP: [Option<Cue>; 4] = [
    None,
    Some(Cue::Dots),
    Some(Cue::Squares),
    Some(Cue::Diamonds),
];

impl Cue {
    /// The pattern's id suffix and how the legend names it.
    pub fn name(self) -> &'static str {
        match self {
            Cue::Dots => "dots",
            Cue::Squares => "squares",
            Cue::Diamonds => "diamonds",
            Cue::Hatch => "hatch",
        }
    }
}

/// A fill: a colour, and maybe a pattern over it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fill {
    /// `#rrggbb`.
    pub colour: String,
    /// The pattern drawn over the colour.
    pub cue: Option<Cue>,
}

/// The fill of piece `i` (from 0).
pub fn piece_fill(i: usize) -> Fill {
    Fill {
        colour: PIECES[i % PIECES.len()].to_string(),
        cue: WRAP[(i / PIECES.len()) % WRAP.len()],
    }
}

/// A colour-blind-safe colour for a mark named with a colour word.
pub fn colour_word(name: &str) -> Option<&'static str> {
    let n = name.to_ascii_lowercase();
    Some(match n.as_str() {
        "red" => "#d55e00",
        "orange" => "#e69f00",
        "yellow" => "#f0e442",
        "green" => "#009e73",
        "blue" => "#0072b2",
        "cyan" | "sky" | "skyblue" | "lightblue" => "#56b4e9",
        "purple" | "violet" => "#aa3377",
        "pink" | "magenta" => "#cc79a7",
        "brown" => "#8c510a",
        "grey" | "gray" => "#999999",
        "black" => "#333333",
        "white" => "#ffffff",
        _ => return None,
    })
}

/// Fills for mark bases, in the order given: colour words first take their
/// colour, the others the Okabe–Ito colours not taken yet, then the colours
/// again with patterns.
pub fn mark_fills(bases: &[&str]) -> Vec<Fill> {
    let taken: Vec<&str> = bases.iter().filter_map(|b| colour_word(b)).collect();
    let free: Vec<&str> = MARKS
        .iter()
        .copied()
        .filter(|c| !taken.contains(c))
        .collect();
    let mut next = 0usize;
    bases
        .iter()
        .map(|b| match colour_word(b) {
            Some(c) => Fill {
                colour: c.to_string(),
                cue: None,
            },
            None => {
                let k = next;
                next += 1;
                if k < free.len() {
                    Fill {
                        colour: free[k].to_string(),
                        cue: None,
                    }
                } else {
                    let j = k - free.len();
                    Fill {
                        colour: MARKS[j % MARKS.len()].to_string(),
                        cue: WRAP[(1 + j / MARKS.len()) % WRAP.len()].or(Some(Cue::Dots)),
                    }
                }
            }
        })
        .collect()
}

/// Grey shades for the colours of a polyform board: colour 0 darkest, the
/// last white (a two-colour checkerboard: dark grey and white).
pub fn board_shade(k: usize, count: usize) -> String {
    if count <= 1 {
        return "#333333".into();
    }
    let t = k.min(count - 1) as f64 / (count - 1) as f64;
    let v = (0x33 as f64 + t * (0xff - 0x33) as f64).round() as u8;
    format!("#{v:02x}{v:02x}{v:02x}")
}

/// The `<pattern>` definitions for `cues`, with tiles `period` pixels wide
/// starting at `origin`, ids `{prefix}-{name}`.
pub fn pattern_defs(prefix: &str, cues: &[Cue], period: f64, origin: (f64, f64)) -> Vec<String> {
    let p = period;
    let h = p / 2.0;
    cues.iter()
        .map(|&cue| {
            let inner = match cue {
                Cue::Dots => format!(
                    r#"<circle cx="{}" cy="{}" r="{}" fill="{INK}" fill-opacity="0.55"/>"#,
                    num(h),
                    num(h),
                    num(p * 0.14)
                ),
                Cue::Squares => format!(
                    r#"<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="{INK}" stroke-opacity="0.6" stroke-width="{}"/>"#,
                    num(h - p * 0.18),
                    num(h - p * 0.18),
                    num(p * 0.36),
                    num(p * 0.36),
                    num(p * 0.07)
                ),
                Cue::Diamonds => format!(
                    r#"<path d="M{h} 0L{p} {h}L{h} {p}L0 {h}Z" fill="none" stroke="{INK}" stroke-opacity="0.5" stroke-width="{}"/>"#,
                    num(p * 0.07),
                    h = num(h),
                    p = num(p)
                ),
                Cue::Hatch => format!(
                    r#"<path d="M0 {p}L{p} 0M{m} {e}L{e} {m}M{q} {r}L{r} {q}" stroke="{INK}" stroke-opacity="0.6" stroke-width="{}"/>"#,
                    num(p * 0.12),
                    p = num(p),
                    m = num(-p * 0.25),
                    e = num(p * 0.25),
                    q = num(p * 0.75),
                    r = num(p * 1.25)
                ),
            };
            format!(
                r#"<pattern id="{prefix}-{}" patternUnits="userSpaceOnUse" x="{}" y="{}" width="{}" height="{}">{inner}</pattern>"#,
                cue.name(),
                num(origin.0),
                num(origin.1),
                num(p),
                num(p)
            )
        })
        .collect()
}

/// The fill attribute that paints pattern `cue` of a picture.
pub fn cue_fill(prefix: &str, cue: Cue) -> String {
    format!(r#"fill="url(#{prefix}-{})""#, cue.name())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_past_the_palette_get_a_pattern() {
        assert_eq!(piece_fill(0).cue, None);
        assert_eq!(piece_fill(8).cue, None);
        assert_eq!(piece_fill(9).colour, piece_fill(0).colour);
        assert_eq!(piece_fill(9).cue, Some(Cue::Dots));
        assert_eq!(piece_fill(18).cue, Some(Cue::Squares));
        assert_eq!(piece_fill(27).cue, Some(Cue::Diamonds));
        // Within 36 pieces, no two share colour and pattern.
        let all: Vec<Fill> = (0..36).map(piece_fill).collect();
        for i in 0..all.len() {
            for j in 0..i {
                assert_ne!(all[i], all[j], "pieces {i} and {j}");
            }
        }
    }

    #[test]
    fn colour_words_keep_their_colour_and_others_fill_in() {
        let fills = mark_fills(&["blue", "spotted", "red", "umber"]);
        assert_eq!(fills[0].colour, "#0072b2");
        assert_eq!(fills[2].colour, "#d55e00");
        // The others take Okabe–Ito colours that the words did not take.
        assert_eq!(fills[1].colour, "#e69f00");
        assert_eq!(fills[3].colour, "#56b4e9");
        let many: Vec<String> = (0..20).map(|i| i.to_string()).collect();
        let names: Vec<&str> = many.iter().map(String::as_str).collect();
        let fills = mark_fills(&names);
        for i in 0..fills.len() {
            for j in 0..i {
                assert_ne!(fills[i], fills[j], "marks {i} and {j}");
            }
        }
    }

    #[test]
    fn board_shades_run_from_dark_to_white() {
        assert_eq!(board_shade(0, 2), "#333333");
        assert_eq!(board_shade(1, 2), "#ffffff");
        assert_eq!(board_shade(0, 1), "#333333");
    }
}
