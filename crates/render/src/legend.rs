//! Legends: a swatch and a name per entry, laid out in rows under a picture.

use crate::palette::{cue_fill, pattern_defs, Cue, Fill};
use crate::svg::{text_width, Anchor, Svg, INK};

/// What an entry shows next to its name.
#[derive(Clone, Debug, PartialEq)]
pub enum Swatch {
    /// A square filled like a piece.
    Piece(Fill),
    /// A white square with a corner triangle of this shade (a board colour).
    Corner(String),
    /// An edge mark: a half-disc of this fill, solid or hollow.
    Mark {
        /// The colour and pattern.
        fill: Fill,
        /// Solid (`+`, head, in) or hollow (`-`, tail, out).
        solid: bool,
    },
    /// A thick dark line: the frame (the border mark).
    Frame,
    /// The mark of [`crate::differ`]: a dashed box.
    Differs,
}

/// Entries in order.
#[derive(Clone, Debug, Default)]
pub struct Legend {
    entries: Vec<(Swatch, String)>,
}

const SIZE: f64 = 14.0;
const FONT: f64 = 12.0;
const ROW: f64 = 20.0;
const GAP: f64 = 18.0;
/// The id prefix of the legend's patterns.
const PREFIX: &str = "legend";

impl Legend {
    /// An empty legend.
    pub fn new() -> Legend {
        Legend::default()
    }

    /// Adds an entry.
    pub fn add(&mut self, swatch: Swatch, name: impl Into<String>) {
        self.entries.push((swatch, name.into()));
    }

    /// The `<pattern>` definitions the swatches use (their own, at the
    /// swatches' scale).
    fn defs(&self) -> Vec<String> {
        let mut cues: Vec<Cue> = self
            .entries
            .iter()
            .filter_map(|(s, _)| match s {
                Swatch::Piece(f) | Swatch::Mark { fill: f, .. } => f.cue,
                _ => None,
            })
            .collect();
        cues.sort();
        cues.dedup();
        pattern_defs(PREFIX, &cues, SIZE / 2.0, (0.0, 0.0))
    }

    fn entry_width(name: &str) -> f64 {
        SIZE + 6.0 + text_width(name, FONT) + GAP
    }

    /// Where each entry goes in rows at most `width` wide.
    fn rows(&self, width: f64) -> Vec<(f64, usize)> {
        let mut out = Vec::new();
        let (mut x, mut row) = (0.0, 0usize);
        for (_, name) in &self.entries {
            let w = Self::entry_width(name);
            if x > 0.0 && x + w - GAP > width {
                x = 0.0;
                row += 1;
            }
            out.push((x, row));
            x += w;
        }
        out
    }

    /// The widest single entry (the legend is never narrower).
    pub fn min_width(&self) -> f64 {
        self.entries
            .iter()
            .map(|(_, n)| Self::entry_width(n) - GAP)
            .fold(0.0, f64::max)
    }

    /// The height of the legend laid out in `width`.
    pub fn height(&self, width: f64) -> f64 {
        match self.rows(width).last() {
            None => 0.0,
            Some(&(_, row)) => (row + 1) as f64 * ROW,
        }
    }

    /// Draws the legend with its top-left corner at `(x, y)`, in rows at
    /// most `width` wide, and adds the patterns its swatches use to the
    /// picture's `<defs>`.
    pub fn draw(&self, svg: &mut Svg, x: f64, y: f64, width: f64) {
        for def in self.defs() {
            svg.def(&def);
        }
        let prefix = PREFIX;
        for ((swatch, name), (dx, row)) in self.entries.iter().zip(self.rows(width)) {
            let sx = x + dx;
            let sy = y + row as f64 * ROW + 2.0;
            let outline = format!(r#"stroke="{INK}" stroke-width="1""#);
            match swatch {
                Swatch::Piece(fill) => {
                    svg.rect(sx, sy, SIZE, SIZE, &format!(r#"fill="{}""#, fill.colour));
                    if let Some(cue) = fill.cue {
                        svg.rect(sx, sy, SIZE, SIZE, &cue_fill(prefix, cue));
                    }
                    svg.rect(sx, sy, SIZE, SIZE, &format!(r#"fill="none" {outline}"#));
                }
                Swatch::Corner(shade) => {
                    svg.rect(
                        sx,
                        sy,
                        SIZE,
                        SIZE,
                        &format!(r##"fill="#ffffff" {outline}"##),
                    );
                    let t = SIZE * 0.6;
                    svg.polygon(
                        &[
                            (sx + SIZE, sy + SIZE - t),
                            (sx + SIZE, sy + SIZE),
                            (sx + SIZE - t, sy + SIZE),
                        ],
                        &format!(r#"fill="{shade}" {outline}"#),
                    );
                }
                Swatch::Mark { fill, solid } => {
                    let r = SIZE / 2.0;
                    let (cx, cy) = (sx + r, sy + SIZE);
                    crate::edge::half_disc(svg, (cx, cy), r, 2, fill, *solid, prefix);
                }
                Swatch::Frame => {
                    svg.rect(sx, sy + SIZE - 4.0, SIZE, 4.0, &format!(r#"fill="{INK}""#));
                }
                Swatch::Differs => {
                    crate::differ::swatch(svg, (sx + 1.0, sy + 1.0), SIZE - 2.0);
                }
            }
            svg.text(
                sx + SIZE + 6.0,
                sy + SIZE - 2.0,
                FONT,
                Anchor::Start,
                &format!(r#"fill="{INK}""#),
                name,
            );
        }
    }
}
