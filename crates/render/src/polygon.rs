//! Polygonal jigsaws and their solutions: text for the terminal, SVG
//! pictures.
//!
//! **Text.** One line per placed piece: its number and name, whether it is flipped
//! (mirrored in the x axis before turning), the turn (degrees, and the exact
//! cosine and sine), the shift, and the corners where the piece lands. With
//! exact puzzles every number is printed exactly (`sqrt2/2`, `3/5`), so a
//! reader can check a placement by hand.
//!
//! **Pictures.** The region is drawn with a thick outline; each placed piece
//! is filled with its own colour ([`palette::piece_fill`]; dots or another
//! pattern past the ninth piece), outlined, and labelled with its name at the
//! point of the piece farthest from its sides. A flipped piece is hatched
//! with diagonal lines and the legend says so. Exact coordinates (in Q(√2,
//! √5, ...)) are drawn through their floating-point values. The y axis
//! points up, as the polygon library reads coordinates (so a file written
//! with y pointing down, like the Stomachion's, is drawn mirrored, which is
//! the same puzzle).

use crate::legend::{Legend, Swatch};
use crate::palette::{self, cue_fill, Cue, Fill};
use crate::svg::{text_width, Anchor, Svg, INK, MARGIN};
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

type Pt = (f64, f64);

/// True when `p` is inside the polygon (even-odd rule).
fn inside(poly: &[Pt], p: Pt) -> bool {
    let n = poly.len();
    let mut odd = false;
    for i in 0..n {
        let (a, b) = (poly[i], poly[(i + 1) % n]);
        if (a.1 > p.1) != (b.1 > p.1) {
            let x = a.0 + (p.1 - a.1) / (b.1 - a.1) * (b.0 - a.0);
            if x > p.0 {
                odd = !odd;
            }
        }
    }
    odd
}

/// The distance from `p` to the nearest side of the polygon.
fn clearance(poly: &[Pt], p: Pt) -> f64 {
    let n = poly.len();
    (0..n)
        .map(|i| {
            let (a, b) = (poly[i], poly[(i + 1) % n]);
            let (dx, dy) = (b.0 - a.0, b.1 - a.1);
            let len2 = dx * dx + dy * dy;
            let t = if len2 > 0.0 {
                (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / len2).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let (qx, qy) = (a.0 + t * dx - p.0, a.1 + t * dy - p.1);
            (qx * qx + qy * qy).sqrt()
        })
        .fold(f64::INFINITY, f64::min)
}

/// The largest label size (from 6 to 13 pixels) at which `name`, centred
/// at `p`, stays inside the polygon (tested at points around its box), or
/// `None` when not even the smallest fits.
fn fitting_size(poly: &[Pt], p: Pt, name: &str) -> Option<f64> {
    let fits = |size: f64| {
        let hw = text_width(name, size) / 2.0 + 2.0;
        let hh = size * 0.5 + 1.0;
        (0..=8).all(|i| {
            let x = p.0 - hw + 2.0 * hw * i as f64 / 8.0;
            inside(poly, (x, p.1 - hh)) && inside(poly, (x, p.1 + hh))
        }) && inside(poly, (p.0 - hw, p.1))
            && inside(poly, (p.0 + hw, p.1))
    };
    let mut size = 13.0;
    while size >= 6.0 {
        if fits(size) {
            return Some(size);
        }
        size -= 0.5;
    }
    None
}

/// Where to write `name` in the polygon and how big: the point of a grid
/// over the polygon (or its centroid) where the largest label fits, the
/// one farthest from the sides among those; the point farthest from the
/// sides at 6 pixels when no label fits.
fn label_spot(poly: &[Pt], name: &str) -> (Pt, f64) {
    let n = poly.len();
    if n == 0 {
        return ((0.0, 0.0), 6.0);
    }
    let (mut lo, mut hi) = (
        (f64::INFINITY, f64::INFINITY),
        (f64::NEG_INFINITY, f64::NEG_INFINITY),
    );
    for &(x, y) in poly {
        lo = (lo.0.min(x), lo.1.min(y));
        hi = (hi.0.max(x), hi.1.max(y));
    }
    let centroid = (
        poly.iter().map(|p| p.0).sum::<f64>() / n as f64,
        poly.iter().map(|p| p.1).sum::<f64>() / n as f64,
    );
    const STEPS: usize = 24;
    let mut candidates = vec![centroid];
    for i in 1..STEPS {
        for j in 1..STEPS {
            candidates.push((
                lo.0 + (hi.0 - lo.0) * i as f64 / STEPS as f64,
                lo.1 + (hi.1 - lo.1) * j as f64 / STEPS as f64,
            ));
        }
    }
    // (size, clearance, point); sizes are compared first.
    let mut best: Option<(f64, f64, Pt)> = None;
    let mut roomiest: Option<(f64, Pt)> = None;
    for p in candidates {
        if !inside(poly, p) {
            continue;
        }
        let c = clearance(poly, p);
        if roomiest.is_none_or(|(rc, _)| c > rc) {
            roomiest = Some((c, p));
        }
        if let Some(size) = fitting_size(poly, p, name) {
            if best.is_none_or(|(bs, bc, _)| size > bs || (size == bs && c > bc)) {
                best = Some((size, c, p));
            }
        }
    }
    match (best, roomiest) {
        (Some((size, _, p)), _) => (p, size),
        (None, Some((_, p))) => (p, 6.0),
        (None, None) => (centroid, 6.0),
    }
}

/// From puzzle coordinates (y up) to picture pixels (y down).
#[derive(Clone, Copy, Debug)]
struct View {
    scale: f64,
    min_x: f64,
    max_y: f64,
    origin: Pt,
}

impl View {
    fn of(points: &[Pt], size: f64, origin: Pt) -> View {
        let (mut lo, mut hi) = (
            (f64::INFINITY, f64::INFINITY),
            (f64::NEG_INFINITY, f64::NEG_INFINITY),
        );
        for &(x, y) in points {
            lo = (lo.0.min(x), lo.1.min(y));
            hi = (hi.0.max(x), hi.1.max(y));
        }
        let extent = (hi.0 - lo.0).max(hi.1 - lo.1);
        let scale = if extent > 0.0 && extent.is_finite() {
            size / extent
        } else {
            1.0
        };
        View {
            scale,
            min_x: if lo.0.is_finite() { lo.0 } else { 0.0 },
            max_y: if hi.1.is_finite() { hi.1 } else { 0.0 },
            origin,
        }
    }

    fn at(&self, (x, y): Pt) -> Pt {
        (
            self.origin.0 + (x - self.min_x) * self.scale,
            self.origin.1 + (self.max_y - y) * self.scale,
        )
    }
}

/// The size in pixels of a picture's region (its longer side).
const REGION: f64 = 420.0;

fn extent(points: &[Pt]) -> (f64, f64) {
    let (mut lo, mut hi) = (
        (f64::INFINITY, f64::INFINITY),
        (f64::NEG_INFINITY, f64::NEG_INFINITY),
    );
    for &(x, y) in points {
        lo = (lo.0.min(x), lo.1.min(y));
        hi = (hi.0.max(x), hi.1.max(y));
    }
    if lo.0 > hi.0 {
        return (0.0, 0.0);
    }
    (hi.0 - lo.0, hi.1 - lo.1)
}

fn region_points(puzzle: &Puzzle) -> Vec<Vec<Pt>> {
    puzzle
        .region
        .iter()
        .map(|poly| poly.iter().map(|p| (p.x.to_f64(), p.y.to_f64())).collect())
        .collect()
}

/// A filled, outlined piece with its label; `hatched` marks a flipped piece.
fn piece(svg: &mut Svg, points: &[Pt], fill: &Fill, hatched: bool, name: &str, prefix: &str) {
    let outline = format!(r#"stroke="{INK}" stroke-width="1.5" stroke-linejoin="round""#);
    if fill.cue.is_none() && !hatched {
        svg.polygon(points, &format!(r#"fill="{}" {outline}"#, fill.colour));
    } else {
        svg.polygon(points, &format!(r#"fill="{}""#, fill.colour));
        if let Some(cue) = fill.cue {
            svg.polygon(points, &cue_fill(prefix, cue));
        }
        if hatched {
            svg.polygon(points, &cue_fill(prefix, Cue::Hatch));
        }
        svg.polygon(points, &format!(r#"fill="none" {outline}"#));
    }
    let ((x, y), size) = label_spot(points, name);
    svg.text(
        x,
        y + size * 0.35,
        size,
        Anchor::Middle,
        &crate::grid::halo(&fill.colour),
        name,
    );
}

fn patterns(svg: &mut Svg, prefix: &str, cues: impl IntoIterator<Item = Cue>) {
    let mut cues: Vec<Cue> = cues.into_iter().collect();
    cues.sort();
    cues.dedup();
    for def in palette::pattern_defs(prefix, &cues, 8.0, (0.0, 0.0)) {
        svg.def(&def);
    }
}

/// A picture of a solution under `caption`: the region, each piece in its
/// colour where the placement puts it, flipped pieces hatched.
pub fn solution_svg<S: Scalar>(
    puzzle: &Puzzle,
    placements: &[Placement<S>],
    caption: &str,
) -> String {
    solution_picture(puzzle, placements, caption, &[]).finish()
}

/// The picture of [`solution_svg`], not yet finished, with the placed
/// pieces whose indices (into `placements`) are in `marked` outlined as
/// differing from another solution ([`crate::differ`]). The marks are drawn
/// last, over the region's outline and the neighbouring pieces, so that the
/// whole outline of a marked piece shows.
pub fn solution_picture<S: Scalar>(
    puzzle: &Puzzle,
    placements: &[Placement<S>],
    caption: &str,
    marked: &[usize],
) -> Svg {
    let region = region_points(puzzle);
    let all: Vec<Pt> = region.iter().flatten().copied().collect();
    let (w, h) = extent(&all);
    let view = View::of(&all, REGION, (MARGIN, MARGIN + 26.0));
    let (pw, ph) = (w * view.scale, h * view.scale);
    let mut legend = Legend::new();
    for (i, p) in puzzle.pieces.iter().enumerate() {
        let flipped = placements.iter().any(|q| q.piece == i && q.flipped);
        let name = if flipped {
            format!("{} (flipped)", p.name)
        } else {
            p.name.clone()
        };
        legend.add(Swatch::Piece(palette::piece_fill(i)), name);
    }
    let any_flipped = placements.iter().any(|q| q.flipped);
    if any_flipped {
        legend.add(
            Swatch::Piece(Fill {
                colour: "#ffffff".into(),
                cue: Some(Cue::Hatch),
            }),
            "hatched: flipped (mirrored, then turned)",
        );
    }
    let inner = pw
        .max(legend.min_width())
        .max(text_width(caption, 15.0))
        .max(240.0);
    let legend_top = MARGIN + 26.0 + ph + 16.0;
    let height = legend_top + legend.height(inner) + MARGIN;
    let mut svg = Svg::new(inner + 2.0 * MARGIN, height, caption);
    let prefix = "q";
    patterns(
        &mut svg,
        prefix,
        placements
            .iter()
            .filter_map(|q| palette::piece_fill(q.piece).cue)
            .chain(placements.iter().any(|q| q.flipped).then_some(Cue::Hatch)),
    );
    svg.heading(caption, None);
    for poly in &region {
        let pts: Vec<Pt> = poly.iter().map(|&p| view.at(p)).collect();
        svg.polygon(&pts, r##"fill="#eeeeee""##);
    }
    for q in placements {
        let Some(p) = puzzle.pieces.get(q.piece) else {
            continue;
        };
        let pts: Vec<Pt> = q
            .corners(puzzle)
            .iter()
            .map(|c| view.at((c.x.to_f64(), c.y.to_f64())))
            .collect();
        svg.begin_group(&format!(
            "{}{}, turned {:.3}\u{b0}",
            p.name,
            if q.flipped { ", flipped" } else { "" },
            q.degrees()
        ));
        piece(
            &mut svg,
            &pts,
            &palette::piece_fill(q.piece),
            q.flipped,
            &p.name,
            prefix,
        );
        svg.end_group();
    }
    for poly in &region {
        let pts: Vec<Pt> = poly.iter().map(|&p| view.at(p)).collect();
        svg.polygon(
            &pts,
            &format!(r#"fill="none" stroke="{INK}" stroke-width="3" stroke-linejoin="round""#),
        );
    }
    for q in marked.iter().filter_map(|&i| placements.get(i)) {
        if q.piece >= puzzle.pieces.len() {
            continue;
        }
        let pts: Vec<Pt> = q
            .corners(puzzle)
            .iter()
            .map(|c| view.at((c.x.to_f64(), c.y.to_f64())))
            .collect();
        crate::differ::outline(&mut svg, &pts, 3.0);
    }
    legend.draw(&mut svg, MARGIN, legend_top, inner);
    svg
}

/// A picture of the puzzle itself: the region, and under it every piece as
/// the file gives it, at the same scale, laid apart.
pub fn puzzle_svg(puzzle: &Puzzle) -> String {
    let region = region_points(puzzle);
    let all: Vec<Pt> = region.iter().flatten().copied().collect();
    let (w, h) = extent(&all);
    let flips: Vec<&str> = puzzle
        .pieces
        .iter()
        .filter(|p| p.flip)
        .map(|p| p.name.as_str())
        .collect();
    let caption = format!("{}: {} pieces", puzzle.name, puzzle.pieces.len());
    let rule = if flips.len() == puzzle.pieces.len() {
        "every piece may turn and flip".to_string()
    } else if flips.is_empty() {
        "pieces turn but never flip".to_string()
    } else {
        format!("pieces turn; these may also flip: {}", flips.join(", "))
    };
    let probe = View::of(&all, REGION, (0.0, 0.0));
    let scale = probe.scale;
    let (pw, ph) = (w * scale, h * scale);
    let mut legend = Legend::new();
    for (i, p) in puzzle.pieces.iter().enumerate() {
        legend.add(Swatch::Piece(palette::piece_fill(i)), p.name.clone());
    }
    let inner_min = pw
        .max(legend.min_width())
        .max(text_width(&caption, 15.0))
        .max(text_width(&rule, 11.0))
        .max(240.0);
    let shapes: Vec<Vec<Pt>> = puzzle
        .pieces
        .iter()
        .map(|p| {
            p.vertices
                .iter()
                .map(|v| (v.x.to_f64(), v.y.to_f64()))
                .collect()
        })
        .collect();
    // The pieces at 0.6 of the region's scale (sizes still compare), in
    // rows as wide as the region or 640 pixels.
    let piece_scale = scale * 0.6;
    let gap = 16.0;
    let row_limit = inner_min.max(640.0);
    let mut placed = Vec::new();
    let (mut x, mut y, mut row_h, mut widest) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
    for shape in &shapes {
        let (sw, sh) = extent(shape);
        let (sw, sh) = (sw * piece_scale, sh * piece_scale);
        if x > 0.0 && x + sw > row_limit {
            x = 0.0;
            y += row_h + gap;
            row_h = 0.0;
        }
        placed.push((x, y));
        x += sw + gap;
        widest = widest.max(x - gap);
        row_h = row_h.max(sh);
    }
    let inner = inner_min.max(widest);
    let top = MARGIN + 40.0;
    let pieces_top = top + ph + 2.0 * gap;
    let legend_top = pieces_top + y + row_h + 16.0;
    let height = legend_top + legend.height(inner) + MARGIN;
    let mut svg = Svg::new(inner + 2.0 * MARGIN, height, &caption);
    let prefix = "q";
    patterns(
        &mut svg,
        prefix,
        (0..puzzle.pieces.len()).filter_map(|i| palette::piece_fill(i).cue),
    );
    svg.heading(&caption, Some(&rule));
    let view = View::of(&all, REGION, (MARGIN, top));
    for poly in &region {
        let pts: Vec<Pt> = poly.iter().map(|&p| view.at(p)).collect();
        svg.polygon(
            &pts,
            &format!(r##"fill="#eeeeee" stroke="{INK}" stroke-width="3" stroke-linejoin="round""##),
        );
    }
    for (i, (shape, (px, py))) in shapes.iter().zip(placed).enumerate() {
        let v = View {
            scale: piece_scale,
            ..View::of(shape, 1.0, (MARGIN + px, pieces_top + py))
        };
        let pts: Vec<Pt> = shape.iter().map(|&p| v.at(p)).collect();
        piece(
            &mut svg,
            &pts,
            &palette::piece_fill(i),
            false,
            &puzzle.pieces[i].name,
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
    fn labels_sit_inside_away_from_the_sides() {
        // An L with arms 1 wide and 4 long (in pixels x 40): the label fits
        // in an arm, not at the centroid's corner.
        let l: Vec<Pt> = [
            (0.0, 0.0),
            (4.0, 0.0),
            (4.0, 1.0),
            (1.0, 1.0),
            (1.0, 4.0),
            (0.0, 4.0),
        ]
        .iter()
        .map(|&(x, y)| (x * 40.0, y * 40.0))
        .collect();
        let ((x, y), size) = label_spot(&l, "L");
        assert!(inside(&l, (x, y)));
        assert_eq!(size, 13.0);
        assert!(clearance(&l, (x, y)) >= 9.0, "({x}, {y})");
        // A long name shrinks to fit a small rectangle.
        let rect = [(0.0, 0.0), (70.0, 0.0), (70.0, 40.0), (0.0, 40.0)];
        let (_, size) = label_spot(&rect, "parallelogram");
        assert!((6.0..13.0).contains(&size), "{size}");
        assert!(text_width("parallelogram", size) <= 70.0);
        let sq = [(0.0, 0.0), (40.0, 0.0), (40.0, 40.0), (0.0, 40.0)];
        // Too long for any size: the roomiest point, smallest size.
        let ((x, y), size) = label_spot(&sq, &"x".repeat(40));
        assert_eq!(size, 6.0);
        assert!(
            (x - 20.0).abs() <= 2.0 && (y - 20.0).abs() <= 2.0,
            "({x}, {y})"
        );
    }
}
