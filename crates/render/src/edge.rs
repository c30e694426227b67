//! Edge-matching puzzles and solutions: text for the terminal, SVG
//! pictures.
//!
//! **Text.** Each cell is a box with the tile's four marks on its four sides and, in
//! the middle, the tile number and its rotation (`#7 r2`: tile 7 turned two
//! quarter turns clockwise). Neighbouring marks face each other across the
//! box walls, so a reader can check each join by eye.
//!
//! **Pictures.** Each tile is a square with a half-disc on each side, in the
//! colour of the mark's base (Okabe–Ito colours, or the colour a name like
//! `blue` says; patterns past seven bases). With complementary marks the
//! `+` / head / in half is solid and the `-` / tail / out half hollow (a
//! ring), so a matched join shows one disc, half solid and half hollow, of
//! one colour; with equal marks both halves are solid. The border mark is
//! not a disc: the sides that show it are drawn thick and dark, as the
//! frame. The tile number is written small in the middle (hovering over a
//! tile in an SVG viewer also says its rotation), and a legend names every
//! mark.

use crate::legend::{Legend, Swatch};
use crate::palette::{self, cue_fill, Fill};
use crate::svg::{num, text_width, Anchor, Svg, INK, MARGIN};
use jigsolve_edge::{split_polarity, MarkId, Matching, Polarity};
use jigsolve_edge::{Placement, Puzzle};

/// The solution as a grid of boxes.
pub fn solution_text(puzzle: &Puzzle, placements: &[Placement]) -> String {
    let board: Vec<Option<Placement>> = placements.iter().copied().map(Some).collect();
    board_text(puzzle, &board)
}

/// A board that may have empty cells (`None`, drawn as blank boxes) as a
/// grid of boxes, like [`solution_text`].
pub fn board_text(puzzle: &Puzzle, placements: &[Option<Placement>]) -> String {
    let cols = puzzle.cols.max(1);
    let marks_of = |p: &Placement| puzzle.tiles[p.tile as usize].rotated(p.rotation);
    let name = |m: u16| puzzle.marks.name(m);
    let widest_mark = (0..puzzle.marks.len())
        .map(|m| name(m as u16).chars().count())
        .max()
        .unwrap_or(1);
    let label = |p: &Placement| format!("#{} r{}", p.tile + 1, p.rotation);
    let widest_label = placements
        .iter()
        .flatten()
        .map(|p| label(p).len())
        .max()
        .unwrap_or(4);
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
        for cell in row {
            let Some(p) = cell else {
                let blank = " ".repeat(inner);
                for line in [&mut top, &mut middle, &mut bottom] {
                    line.push_str(&blank);
                    line.push('|');
                }
                continue;
            };
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

/// How a mark is drawn.
#[derive(Clone, Debug, PartialEq)]
pub enum Look {
    /// The border mark: the side is drawn thick and dark, as the frame.
    Frame,
    /// A half-disc.
    Disc {
        /// The colour (and pattern) of the mark's base.
        fill: Fill,
        /// Solid (`+`, head, in, or any mark of an equal-matching puzzle) or
        /// hollow (`-`, tail, out).
        solid: bool,
    },
}

/// How each mark of `puzzle` is drawn (indexed by mark id), and the legend
/// that names them: base by base in order of first appearance, the solid
/// half first.
pub fn looks(puzzle: &Puzzle) -> (Vec<Look>, Legend) {
    let n = puzzle.marks.len();
    let mut bases: Vec<String> = Vec::new();
    let mut of: Vec<Option<(usize, bool)>> = Vec::with_capacity(n);
    for m in 0..n {
        let id = m as MarkId;
        if puzzle.border == Some(id) {
            of.push(None);
            continue;
        }
        let name = puzzle.marks.name(id);
        let (base, solid) = match puzzle.matching {
            Matching::Equal => (name.to_string(), true),
            Matching::Complementary => match split_polarity(name) {
                Some((base, pol)) => (base, pol == Polarity::Plus),
                None => (name.to_string(), true),
            },
        };
        let k = match bases.iter().position(|b| *b == base) {
            Some(k) => k,
            None => {
                bases.push(base);
                bases.len() - 1
            }
        };
        of.push(Some((k, solid)));
    }
    // Numbered bases (Impuzzable's 1 to 4, Eternity II's colours) in
    // numeric order; named ones in order of first appearance.
    let mut order: Vec<usize> = (0..bases.len()).collect();
    if bases.iter().all(|b| b.parse::<i64>().is_ok()) {
        order.sort_by_key(|&k| bases[k].parse::<i64>().unwrap_or(0));
    }
    let mut rank = vec![0; bases.len()];
    for (pos, &k) in order.iter().enumerate() {
        rank[k] = pos;
    }
    let of: Vec<Option<(usize, bool)>> = of
        .into_iter()
        .map(|o| o.map(|(k, solid)| (rank[k], solid)))
        .collect();
    let names: Vec<&str> = order.iter().map(|&k| bases[k].as_str()).collect();
    let fills = palette::mark_fills(&names);
    let looks: Vec<Look> = of
        .iter()
        .map(|o| match o {
            None => Look::Frame,
            Some((k, solid)) => Look::Disc {
                fill: fills[*k].clone(),
                solid: *solid,
            },
        })
        .collect();
    let mut legend = Legend::new();
    for (k, fill) in fills.iter().enumerate() {
        for solid in [true, false] {
            for (m, o) in of.iter().enumerate() {
                if *o == Some((k, solid)) {
                    legend.add(
                        Swatch::Mark {
                            fill: fill.clone(),
                            solid,
                        },
                        puzzle.marks.name(m as MarkId),
                    );
                }
            }
        }
    }
    if let Some(b) = puzzle.border {
        legend.add(
            Swatch::Frame,
            format!("border {}: the frame", puzzle.marks.name(b)),
        );
    }
    (looks, legend)
}

/// A half-disc of radius `r` on the side of a tile whose midpoint is
/// `mid`, bulging into the tile: `side` 0 is the top side (the disc hangs
/// down), 1 the right, 2 the bottom, 3 the left. Hollow discs are rings.
pub(crate) fn half_disc(
    svg: &mut Svg,
    mid: (f64, f64),
    r: f64,
    side: usize,
    fill: &Fill,
    solid: bool,
    prefix: &str,
) {
    // Into the tile from each side.
    let d = [(0.0, 1.0), (-1.0, 0.0), (0.0, -1.0), (1.0, 0.0)][side % 4];
    // Along the side, so that the arc from mid + r*t to mid - r*t turns
    // counter-clockwise on the screen through mid + r*d.
    let t = (-d.1, d.0);
    let p = |k: f64| (num(mid.0 + k * t.0), num(mid.1 + k * t.1));
    let (ax, ay) = p(r);
    let (bx, by) = p(-r);
    let rr = num(r);
    let data = if solid {
        format!("M{ax} {ay}A{rr} {rr} 0 0 0 {bx} {by}Z")
    } else {
        let ri = r * 0.5;
        let (cx, cy) = p(-ri);
        let (ex, ey) = p(ri);
        let ri = num(ri);
        format!("M{ax} {ay}A{rr} {rr} 0 0 0 {bx} {by}L{cx} {cy}A{ri} {ri} 0 0 1 {ex} {ey}Z")
    };
    let outline = format!(r#"stroke="{INK}" stroke-width="1" stroke-linejoin="round""#);
    match fill.cue {
        None => svg.path(&data, &format!(r#"fill="{}" {outline}"#, fill.colour)),
        Some(cue) => {
            svg.path(&data, &format!(r#"fill="{}""#, fill.colour));
            svg.path(&data, &format!("{} {outline}", cue_fill(prefix, cue)));
        }
    }
}

/// Draws a tile showing `marks` (top, right, bottom, left) in the square at
/// `(x, y)` of side `t`, with `number` in the middle.
fn tile(
    svg: &mut Svg,
    (x, y): (f64, f64),
    t: f64,
    marks: [MarkId; 4],
    looks: &[Look],
    number: usize,
    prefix: &str,
) {
    svg.rect(
        x,
        y,
        t,
        t,
        r##"fill="#f7f7f7" stroke="#aaaaaa" stroke-width="1""##,
    );
    let mids = [
        (x + t / 2.0, y),
        (x + t, y + t / 2.0),
        (x + t / 2.0, y + t),
        (x, y + t / 2.0),
    ];
    let w = (t * 0.08).max(2.0);
    for side in 0..4 {
        match looks.get(marks[side] as usize) {
            Some(Look::Frame) => {
                let (rx, ry, rw, rh) = match side {
                    0 => (x, y, t, w),
                    1 => (x + t - w, y, w, t),
                    2 => (x, y + t - w, t, w),
                    _ => (x, y, w, t),
                };
                svg.rect(rx, ry, rw, rh, &format!(r#"fill="{INK}""#));
            }
            Some(Look::Disc { fill, solid }) => {
                half_disc(svg, mids[side], t * 0.22, side, fill, *solid, prefix);
            }
            None => {}
        }
    }
    svg.text(
        x + t / 2.0,
        y + t / 2.0 + t * 0.07,
        (t * 0.2).max(7.0),
        Anchor::Middle,
        r##"fill="#555555""##,
        &number.to_string(),
    );
}

/// The side of a tile in pixels for a board of `rows` x `cols`.
fn tile_size(rows: usize, cols: usize) -> f64 {
    (540.0 / rows.max(cols).max(1) as f64)
        .clamp(24.0, 84.0)
        .floor()
}

/// What the picture's second line says about matching.
fn rule(puzzle: &Puzzle) -> String {
    let mut s = match puzzle.matching {
        Matching::Complementary => {
            "a solid half-disc fits the hollow one of its colour".to_string()
        }
        Matching::Equal => "a mark fits the same mark".to_string(),
    };
    if puzzle.border.is_some() {
        s.push_str("; thick sides face the frame");
    }
    s
}

/// Pattern definitions for the marks' cues.
fn patterns(svg: &mut Svg, prefix: &str, looks: &[Look]) {
    let mut cues: Vec<_> = looks
        .iter()
        .filter_map(|l| match l {
            Look::Disc { fill, .. } => fill.cue,
            Look::Frame => None,
        })
        .collect();
    cues.sort();
    cues.dedup();
    for def in palette::pattern_defs(prefix, &cues, 6.0, (0.0, 0.0)) {
        svg.def(&def);
    }
}

fn tooltip(p: &Placement) -> String {
    match p.rotation {
        0 => format!("tile {}, not turned", p.tile + 1),
        1 => format!("tile {}, turned a quarter turn clockwise", p.tile + 1),
        r => format!("tile {}, turned {r} quarter turns clockwise", p.tile + 1),
    }
}

/// Where a picture puts the board: its top-left corner and the side of a
/// tile, in pixels (row `r`, column `c` is the square at
/// `origin + (c, r) * tile`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layout {
    /// The board's top-left corner.
    pub origin: (f64, f64),
    /// The side of a tile.
    pub tile: f64,
}

/// Where [`solution_svg`] puts the board of `puzzle`.
pub fn layout(puzzle: &Puzzle) -> Layout {
    Layout {
        origin: (MARGIN, MARGIN + 40.0),
        tile: tile_size(puzzle.rows.max(1), puzzle.cols.max(1)),
    }
}

/// A picture of a board that may have empty cells (`None`, left blank
/// inside the board's outline) under `caption`: the best board of a search
/// that found no full solution.
pub fn board_svg(puzzle: &Puzzle, placements: &[Option<Placement>], caption: &str) -> String {
    // A tile index past the puzzle's tiles is drawn as nothing by
    // solution_picture, which is what an empty cell is.
    let cells: Vec<Placement> = placements
        .iter()
        .map(|p| {
            p.unwrap_or(Placement {
                tile: u16::MAX,
                rotation: 0,
            })
        })
        .collect();
    solution_picture(puzzle, &cells, caption, &[]).finish()
}

/// A picture of a solution (placements row by row) under `caption`.
pub fn solution_svg(puzzle: &Puzzle, placements: &[Placement], caption: &str) -> String {
    solution_picture(puzzle, placements, caption, &[]).finish()
}

/// The picture of [`solution_svg`], not yet finished, with the board cells
/// whose indices (row by row, as the placements) are in `marked` marked as
/// differing from another solution ([`crate::differ`]): a dashed box
/// around the tile's number, inside the half-discs, so that the marks
/// stay readable.
pub fn solution_picture(
    puzzle: &Puzzle,
    placements: &[Placement],
    caption: &str,
    marked: &[usize],
) -> Svg {
    let (rows, cols) = (puzzle.rows.max(1), puzzle.cols.max(1));
    let Layout {
        origin: (_, top),
        tile: t,
    } = layout(puzzle);
    let (looks, legend) = looks(puzzle);
    let rule = rule(puzzle);
    let inner = (cols as f64 * t)
        .max(legend.min_width())
        .max(text_width(caption, 15.0))
        .max(text_width(&rule, 11.0))
        .max(240.0);
    let legend_top = top + rows as f64 * t + 14.0;
    let height = legend_top + legend.height(inner) + MARGIN;
    let mut svg = Svg::new(inner + 2.0 * MARGIN, height, caption);
    let prefix = "m";
    patterns(&mut svg, prefix, &looks);
    svg.heading(caption, Some(&rule));
    for (i, p) in placements.iter().enumerate() {
        let (r, c) = (i / cols, i % cols);
        let Some(tl) = puzzle.tiles.get(p.tile as usize) else {
            continue;
        };
        svg.begin_group(&tooltip(p));
        tile(
            &mut svg,
            (MARGIN + c as f64 * t, top + r as f64 * t),
            t,
            tl.rotated(p.rotation),
            &looks,
            p.tile as usize + 1,
            prefix,
        );
        if marked.contains(&i) {
            // The half-discs reach 0.22 of a tile in from each side.
            let inset = t * 0.27;
            crate::differ::rect(
                &mut svg,
                (MARGIN + c as f64 * t + inset, top + r as f64 * t + inset),
                t - 2.0 * inset,
                t - 2.0 * inset,
                (t * 0.05).max(2.0),
            );
        }
        svg.end_group();
    }
    svg.rect(
        MARGIN,
        top,
        cols as f64 * t,
        rows as f64 * t,
        &format!(r#"fill="none" stroke="{INK}" stroke-width="2""#),
    );
    legend.draw(&mut svg, MARGIN, legend_top, inner);
    svg
}

/// A picture of the puzzle itself: the empty board (with its hints in
/// place), and under it every tile unturned, numbered, laid apart.
pub fn puzzle_svg(puzzle: &Puzzle) -> String {
    let (rows, cols) = (puzzle.rows.max(1), puzzle.cols.max(1));
    let t = tile_size(rows, cols);
    let gap = (t * 0.25).round();
    let (looks, legend) = looks(puzzle);
    let caption = format!(
        "{}: {} tiles for a {} x {} board",
        puzzle.name,
        puzzle.tiles.len(),
        puzzle.rows,
        puzzle.cols
    );
    let rule = rule(puzzle);
    let per_row = cols.min(puzzle.tiles.len()).max(1);
    let tile_rows = puzzle.tiles.len().div_ceil(per_row);
    let tiles_width = per_row as f64 * (t + gap) - gap;
    let inner = (cols as f64 * t)
        .max(tiles_width)
        .max(legend.min_width())
        .max(text_width(&caption, 15.0))
        .max(text_width(&rule, 11.0))
        .max(240.0);
    let top = MARGIN + 40.0;
    let tiles_top = top + rows as f64 * t + 2.0 * gap.max(12.0);
    let legend_top = tiles_top + tile_rows as f64 * (t + gap) - gap + 14.0;
    let height = legend_top + legend.height(inner) + MARGIN;
    let mut svg = Svg::new(inner + 2.0 * MARGIN, height, &caption);
    let prefix = "m";
    patterns(&mut svg, prefix, &looks);
    svg.heading(&caption, Some(&rule));
    // The board: empty cells, hints in place.
    for r in 0..rows {
        for c in 0..cols {
            svg.rect(
                MARGIN + c as f64 * t,
                top + r as f64 * t,
                t,
                t,
                r##"fill="#ffffff" stroke="#bbbbbb" stroke-width="1" stroke-dasharray="4 3""##,
            );
        }
    }
    for h in &puzzle.hints {
        let Some(tl) = puzzle.tiles.get(h.tile) else {
            continue;
        };
        let p = Placement {
            tile: h.tile as u16,
            rotation: h.rotation,
        };
        svg.begin_group(&format!("hint: {}", tooltip(&p)));
        tile(
            &mut svg,
            (MARGIN + h.col as f64 * t, top + h.row as f64 * t),
            t,
            tl.rotated(h.rotation),
            &looks,
            h.tile + 1,
            prefix,
        );
        svg.end_group();
    }
    svg.rect(
        MARGIN,
        top,
        cols as f64 * t,
        rows as f64 * t,
        &format!(r#"fill="none" stroke="{INK}" stroke-width="2""#),
    );
    for (i, tl) in puzzle.tiles.iter().enumerate() {
        let (r, c) = (i / per_row, i % per_row);
        tile(
            &mut svg,
            (
                MARGIN + c as f64 * (t + gap),
                tiles_top + r as f64 * (t + gap),
            ),
            t,
            tl.sides,
            &looks,
            i + 1,
            prefix,
        );
    }
    legend.draw(&mut svg, MARGIN, legend_top, inner);
    svg.finish()
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
