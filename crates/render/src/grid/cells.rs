//! Drawing a set of cells in a frame: fills and patterns, board colours in
//! the cells' corners, thin lines inside a piece and thick ones between
//! pieces, one label per part of a piece, and the layer captions of solids.

use super::{Frame, Point};
use crate::palette::{self, cue_fill, Cue, Fill};
use crate::svg::{Anchor, Segments, Svg, INK};
use jigsolve_grid::{Cell, Lattice};
use std::collections::{BTreeSet, HashMap};

/// One cell to draw: where, which group it belongs to (cells of one group
/// are one piece), its board colour, and whether it carries the mark of a
/// difference ([`crate::differ`]).
pub(super) struct Drawn {
    pub(super) cell: Cell,
    pub(super) group: usize,
    pub(super) colour: Option<u8>,
    pub(super) marked: bool,
}

/// How groups look: fill, and the label shown once per connected part of a
/// group in each layer.
pub(super) struct Style<'a> {
    pub(super) fill: &'a dyn Fn(usize) -> Fill,
    pub(super) label: &'a dyn Fn(usize) -> Option<String>,
    pub(super) colours: usize,
    pub(super) prefix: &'a str,
}

const SIDES: [(i32, i32); 4] = [(0, -1), (1, 0), (0, 1), (-1, 0)];

/// Draws the lines between cells of a picture whose cells are `s` units
/// across: `thin` ones faint inside pieces, `thick` ones dark between them.
fn draw_lines(svg: &mut Svg, thin: &Segments, thick: &Segments, s: f64) {
    svg.path(
        thin.data(),
        &format!(
            r#"fill="none" stroke="{INK}" stroke-opacity="0.25" stroke-width="{}""#,
            crate::svg::num((s / 36.0).max(0.5))
        ),
    );
    svg.path(
        thick.data(),
        &format!(
            r#"fill="none" stroke="{INK}" stroke-width="{}" stroke-linecap="round""#,
            crate::svg::num((s / 12.0).max(1.5))
        ),
    );
}

/// Where the labels go: for each connected part of a labelled group (cells
/// joined through `neighbours`), visited in the order of `order`'s key, the
/// group's cell, its label and the part's cell with the most neighbours in
/// the part (the first such by `order` without its leading layer key, which
/// is the same throughout a part).
fn label_places<'a, N: IntoIterator<Item = Cell>>(
    cells: &'a [Drawn],
    at: &HashMap<Cell, usize>,
    label: &dyn Fn(usize) -> Option<String>,
    neighbours: impl Fn(Cell) -> N,
    order: impl Fn(Cell) -> [i32; 3],
) -> Vec<(&'a Drawn, String, Cell)> {
    let mut seen: BTreeSet<Cell> = BTreeSet::new();
    let mut visit: Vec<&Drawn> = cells.iter().collect();
    visit.sort_by_key(|d| order(d.cell));
    let mut places = Vec::new();
    for d in visit {
        if seen.contains(&d.cell) {
            continue;
        }
        let Some(name) = label(d.group) else {
            continue;
        };
        let mut part = vec![d.cell];
        seen.insert(d.cell);
        let mut i = 0;
        while i < part.len() {
            let c = part[i];
            i += 1;
            for n in neighbours(c) {
                if at.get(&n) == Some(&d.group) && seen.insert(n) {
                    part.push(n);
                }
            }
        }
        let degree = |c: Cell| {
            neighbours(c)
                .into_iter()
                .filter(|n| at.get(n) == Some(&d.group))
                .count()
        };
        let best = part
            .iter()
            .copied()
            .max_by_key(|&c| (degree(c), std::cmp::Reverse(order(c))))
            .unwrap_or(d.cell);
        places.push((d, name, best));
    }
    places
}

/// Draws cells in `frame`: fills, patterns, board-colour corners, thin lines
/// inside groups, thick lines between them, labels.
pub(super) fn draw_cells(svg: &mut Svg, frame: &Frame, cells: &[Drawn], style: &Style<'_>) {
    if let Some((lattice, ..)) = frame.plane {
        draw_plane_cells(svg, frame, lattice, cells, style);
        return;
    }
    let s = frame.cell;
    let at: HashMap<Cell, usize> = cells.iter().map(|d| (d.cell, d.group)).collect();
    for d in cells {
        let (x, y) = frame.corner(d.cell);
        let fill = (style.fill)(d.group);
        svg.rect(x, y, s, s, &format!(r#"fill="{}""#, fill.colour));
        if let Some(cue) = fill.cue {
            svg.rect(x, y, s, s, &cue_fill(style.prefix, cue));
        }
    }
    let corner_line = format!(
        r#"stroke="{INK}" stroke-opacity="0.7" stroke-width="{}""#,
        crate::svg::num((s / 40.0).max(0.5))
    );
    for d in cells {
        if let Some(k) = d.colour {
            let (x, y) = frame.corner(d.cell);
            let t = s * 0.32;
            svg.polygon(
                &[(x + s, y + s - t), (x + s, y + s), (x + s - t, y + s)],
                &format!(
                    r#"fill="{}" {corner_line}"#,
                    palette::board_shade(k as usize, style.colours)
                ),
            );
        }
    }
    let mut thin = Segments::new();
    let mut thick = Segments::new();
    for d in cells {
        let (x, y) = frame.corner(d.cell);
        let ends = [
            ((x, y), (x + s, y)),
            ((x + s, y), (x + s, y + s)),
            ((x, y + s), (x + s, y + s)),
            ((x, y), (x, y + s)),
        ];
        for (k, &(dx, dy)) in SIDES.iter().enumerate() {
            let n = [d.cell[0] + dx, d.cell[1] + dy, d.cell[2]];
            let (a, b) = ends[k];
            match at.get(&n) {
                None => thick.add(a, b),
                // Shared sides are drawn once, from the cell on their left or top.
                Some(_) if k == 0 || k == 3 => {}
                Some(&g) if g == d.group => thin.add(a, b),
                Some(_) => thick.add(a, b),
            }
        }
    }
    draw_lines(svg, &thin, &thick, s);
    // Marks inside the cells, clear of the lines between pieces, and under
    // the labels, whose halos keep them readable.
    for d in cells.iter().filter(|d| d.marked) {
        let (x, y) = frame.corner(d.cell);
        let inset = s * 0.15;
        crate::differ::rect(
            svg,
            (x + inset, y + inset),
            s - 2.0 * inset,
            s - 2.0 * inset,
            (s / 14.0).max(1.5),
        );
    }
    // Labels: one per connected part of a group in a layer, in the cell
    // with the most neighbours of its part (the first such in y, x order).
    let in_layer = |c: Cell| SIDES.map(|(dx, dy)| [c[0] + dx, c[1] + dy, c[2]]);
    for (d, name, best) in label_places(cells, &at, style.label, in_layer, |c| [c[2], c[1], c[0]]) {
        let (x, y) = frame.corner(best);
        let size = (s * 0.36).min(0.9 * s / (0.58 * name.chars().count().max(1) as f64));
        // In the upper part of the cell: the middle stays the piece's
        // colour. A halo of that colour keeps patterns off the letters.
        svg.text(
            x + s / 2.0,
            y + s * 0.38,
            size,
            Anchor::Middle,
            &halo(&(style.fill)(d.group).colour),
            &name,
        );
    }
}

/// [`draw_cells`] on triangles and hexagons: each cell its polygon, the
/// board colour in a small triangle at its first corner, lines along the
/// sides (thick between groups and round the outside, thin inside a
/// group), and a label at the centre of the cell of each part of a group
/// with the most neighbours in it.
fn draw_plane_cells(
    svg: &mut Svg,
    frame: &Frame,
    lattice: Lattice,
    cells: &[Drawn],
    style: &Style<'_>,
) {
    let s = frame.cell;
    let at: HashMap<Cell, usize> = cells.iter().map(|d| (d.cell, d.group)).collect();
    for d in cells {
        let poly = frame.polygon(d.cell);
        let fill = (style.fill)(d.group);
        svg.polygon(&poly, &format!(r#"fill="{}""#, fill.colour));
        if let Some(cue) = fill.cue {
            svg.polygon(&poly, &cue_fill(style.prefix, cue));
        }
    }
    let corner_line = format!(
        r#"stroke="{INK}" stroke-opacity="0.7" stroke-width="{}""#,
        crate::svg::num((s / 40.0).max(0.5))
    );
    for d in cells {
        if let Some(k) = d.colour {
            let poly = frame.polygon(d.cell);
            let (a, b, c) = (poly[0], poly[1], poly[poly.len() - 1]);
            let toward = |p: (f64, f64), t: f64| (a.0 + (p.0 - a.0) * t, a.1 + (p.1 - a.1) * t);
            // A triangle's corner is sharp enough for a small triangle; a
            // hexagon's wide corner takes a kite reaching toward the centre.
            let mut mark = vec![a, toward(b, 0.4)];
            if lattice == Lattice::Hexagon {
                mark.push(toward(frame.centre(d.cell), 0.5));
            }
            mark.push(toward(c, 0.4));
            svg.polygon(
                &mark,
                &format!(
                    r#"fill="{}" {corner_line}"#,
                    palette::board_shade(k as usize, style.colours)
                ),
            );
        }
    }
    // Each side once: found by its two ends (rounded to a thousandth of a
    // pixel), with the groups of the cells on it.
    let key = |p: (f64, f64)| ((p.0 * 1000.0).round() as i64, (p.1 * 1000.0).round() as i64);
    type Ends = ((i64, i64), (i64, i64));
    let mut sides: HashMap<Ends, (Point, Point, Vec<usize>)> = HashMap::new();
    for d in cells {
        let poly = frame.polygon(d.cell);
        for k in 0..poly.len() {
            let (a, b) = (poly[k], poly[(k + 1) % poly.len()]);
            let (ka, kb) = (key(a), key(b));
            let id = if ka <= kb { (ka, kb) } else { (kb, ka) };
            sides
                .entry(id)
                .or_insert((a, b, Vec::new()))
                .2
                .push(d.group);
        }
    }
    let mut ordered: Vec<_> = sides.into_iter().collect();
    ordered.sort_by_key(|e| e.0);
    let mut thin = Segments::new();
    let mut thick = Segments::new();
    for (_, (a, b, groups)) in ordered {
        if groups.len() == 2 && groups[0] == groups[1] {
            thin.add(a, b);
        } else {
            thick.add(a, b);
        }
    }
    draw_lines(svg, &thin, &thick, s);
    // Marks: the cell's outline drawn in, clear of the lines.
    for d in cells.iter().filter(|d| d.marked) {
        let (cx, cy) = frame.centre(d.cell);
        let inner: Vec<(f64, f64)> = frame
            .polygon(d.cell)
            .into_iter()
            .map(|(x, y)| (cx + (x - cx) * 0.6, cy + (y - cy) * 0.6))
            .collect();
        crate::differ::outline(svg, &inner, (s / 14.0).max(1.5));
    }
    let around = |c: Cell| lattice.neighbours(c).collect::<Vec<_>>();
    for (d, name, best) in label_places(cells, &at, style.label, around, |c| [c[1], c[0], c[2]]) {
        let (x, y) = frame.centre(best);
        // A triangle's inscribed circle is 0.29 of its side across; a
        // hexagon's 0.87.
        let room = if lattice == Lattice::Triangle {
            0.3
        } else {
            0.6
        };
        let size = (s * room).min(room * 1.6 * s / (0.58 * name.chars().count().max(1) as f64));
        svg.text(
            x,
            y + size * 0.35,
            size,
            Anchor::Middle,
            &halo(&(style.fill)(d.group).colour),
            &name,
        );
    }
}

/// Text attributes: dark letters with a halo of `colour` around them.
pub(crate) fn halo(colour: &str) -> String {
    format!(
        r#"fill="{INK}" stroke="{colour}" stroke-width="3" stroke-linejoin="round" paint-order="stroke""#
    )
}

/// Captions `z = k` over the layers of a solid.
pub(super) fn layer_captions(svg: &mut Svg, frame: &Frame) {
    if frame.size[2] < 2 {
        return;
    }
    for (z, &(x, y)) in frame.origins.iter().enumerate() {
        let label = format!("z = {}", frame.lo[2] + z as i32);
        svg.text(
            x + frame.size[0] as f64 * frame.cell / 2.0,
            y - 6.0,
            12.0,
            Anchor::Middle,
            &format!(r#"fill="{INK}""#),
            &label,
        );
    }
}

/// Pattern definitions for the cues in use, tiles half a cell wide starting
/// at a cell corner.
pub(super) fn patterns(
    svg: &mut Svg,
    prefix: &str,
    cues: impl IntoIterator<Item = Cue>,
    frame: &Frame,
) {
    let cues: BTreeSet<Cue> = cues.into_iter().collect();
    let cues: Vec<Cue> = cues.into_iter().collect();
    for def in palette::pattern_defs(prefix, &cues, frame.cell / 2.0, frame.origins[0]) {
        svg.def(&def);
    }
}
