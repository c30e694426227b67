//! Polyform puzzles and solutions: letter grids for the terminal, SVG
//! pictures.
//!
//! **Text.** The letter grid of [`jigsolve_grid::letter_layers`] (each cell
//! shows the name of the piece covering it, `.` a hole); on the cube lattice
//! the layers are printed one after another under `z = k:` captions.
//!
//! **Pictures.** Each cell is a square filled with the colour of the piece
//! covering it ([`palette::piece_fill`]: Paul Tol's light colours, with a
//! pattern for pieces past the ninth); thick dark lines run along piece
//! boundaries and thin ones between the cells of a piece; each piece carries
//! its name in the upper part of one of its cells, and a legend under the
//! board names the pieces. On a coloured board (Atwood's checkerboard) each
//! cell has a small triangle in its lower right corner in its board colour
//! (colour 0 dark grey, the last white), so the checkerboard shows under the
//! pieces while the middle of every cell keeps the piece's colour. Solids are
//! drawn layer by layer, `z = 0` on the left, side by side and labelled.
//! Rows go down the page as in the files. In the picture of a puzzle its
//! pinned pieces lie on the board in their colours, named and outlined.

use crate::legend::{Legend, Swatch};
use crate::palette::{self, cue_fill, Cue, Fill};
use crate::svg::{text_width, Anchor, Segments, Svg, INK, MARGIN};
use jigsolve_grid::{bounding_box, letter_layers, Cell, Lattice, Puzzle};
use std::collections::{BTreeSet, HashMap};

/// The solution as text: the letter grid, layer by layer in 3D.
pub fn solution_text(puzzle: &Puzzle, copies: &[u16]) -> String {
    let mut out = String::new();
    let all = letter_layers(puzzle, copies);
    let solid = puzzle.lattice == Lattice::Cube && all.len() > 1;
    for (z, rows) in all.iter().enumerate() {
        if solid {
            out.push_str(&format!("z = {z}:\n"));
        }
        for r in rows {
            out.push_str(r);
            out.push('\n');
        }
        if solid && z + 1 < all.len() {
            out.push('\n');
        }
    }
    out
}

/// Where a picture puts a set of cells: layer by layer (`z` from low to
/// high), side by side, one cell apart.
#[derive(Clone, Debug, PartialEq)]
pub struct Frame {
    /// The side of a cell in pixels.
    pub cell: f64,
    /// The least x, y and z of the cells.
    pub lo: [i32; 3],
    /// How many cells the frame spans along x, y and z.
    pub size: [usize; 3],
    /// The top-left corner of each layer, lowest `z` first.
    pub origins: Vec<(f64, f64)>,
    /// On triangles and hexagons: the lattice and the least corner and
    /// extent of the cells in the picture plane (in sides); cells are then
    /// drawn as the lattice's polygons ([`Lattice::corners`]) in one layer.
    pub plane: Option<Plane>,
}

/// A point or an extent in the picture plane.
pub type Point = (f64, f64);

/// How a frame lays out a plane lattice: the lattice, the least corner of
/// the cells and their extent (in sides).
pub type Plane = (Lattice, Point, Point);

impl Frame {
    /// The frame of `cells` with cells `cell` pixels wide, the first layer's
    /// corner at `origin`, layers `gap` cells apart.
    pub fn new(
        cells: impl IntoIterator<Item = Cell>,
        cell: f64,
        origin: (f64, f64),
        gap: f64,
    ) -> Frame {
        let (lo, hi) = bounding_box(cells).unwrap_or(([0; 3], [0; 3]));
        let size: [usize; 3] = std::array::from_fn(|k| (hi[k] - lo[k] + 1) as usize);
        let step = (size[0] as f64 + gap) * cell;
        let origins = (0..size[2])
            .map(|z| (origin.0 + z as f64 * step, origin.1))
            .collect();
        Frame {
            cell,
            lo,
            size,
            origins,
            plane: None,
        }
    }

    /// The frame of `cells` of `lattice`: as [`Frame::new`] on squares and
    /// cubes; on triangles and hexagons one layer holding the cells'
    /// polygons, its top-left corner at `origin`.
    pub fn of(
        lattice: Lattice,
        cells: impl IntoIterator<Item = Cell>,
        cell: f64,
        origin: (f64, f64),
        gap: f64,
    ) -> Frame {
        if !matches!(lattice, Lattice::Triangle | Lattice::Hexagon) {
            return Frame::new(cells, cell, origin, gap);
        }
        let cells: Vec<Cell> = cells.into_iter().collect();
        let mut frame = Frame::new(cells.iter().copied(), cell, origin, gap);
        let points: Vec<(f64, f64)> = cells.iter().flat_map(|&c| lattice.corners(c)).collect();
        let least = |f: fn(&(f64, f64)) -> f64| points.iter().map(f).fold(f64::INFINITY, f64::min);
        let most =
            |f: fn(&(f64, f64)) -> f64| points.iter().map(f).fold(f64::NEG_INFINITY, f64::max);
        let (x0, y0) = (least(|p| p.0), least(|p| p.1));
        let span = ((most(|p| p.0) - x0).max(0.0), (most(|p| p.1) - y0).max(0.0));
        frame.size = [span.0.ceil() as usize, span.1.ceil() as usize, 1];
        frame.origins = vec![origin];
        frame.plane = Some((lattice, (x0, y0), span));
        frame
    }

    /// A point of the picture plane of a plane lattice, in pixels.
    fn at(&self, (x, y): (f64, f64)) -> (f64, f64) {
        let (_, (x0, y0), _) = self
            .plane
            .unwrap_or((Lattice::Square, (0.0, 0.0), (0.0, 0.0)));
        let (ox, oy) = self.origins[0];
        (ox + (x - x0) * self.cell, oy + (y - y0) * self.cell)
    }

    /// The corners of cell `c` in pixels, in order around it.
    pub fn polygon(&self, c: Cell) -> Vec<(f64, f64)> {
        match self.plane {
            Some((lattice, ..)) => lattice.corners(c).into_iter().map(|p| self.at(p)).collect(),
            None => {
                let (x, y) = self.corner(c);
                let s = self.cell;
                vec![(x, y), (x + s, y), (x + s, y + s), (x, y + s)]
            }
        }
    }

    /// The top-left corner of cell `c` (of its bounding box on triangles
    /// and hexagons).
    pub fn corner(&self, c: Cell) -> (f64, f64) {
        if self.plane.is_some() {
            let p = self.polygon(c);
            let x = p.iter().map(|q| q.0).fold(f64::INFINITY, f64::min);
            let y = p.iter().map(|q| q.1).fold(f64::INFINITY, f64::min);
            return (x, y);
        }
        let (ox, oy) = self.origins[(c[2] - self.lo[2]) as usize];
        (
            ox + (c[0] - self.lo[0]) as f64 * self.cell,
            oy + (c[1] - self.lo[1]) as f64 * self.cell,
        )
    }

    /// The centre of cell `c`.
    pub fn centre(&self, c: Cell) -> (f64, f64) {
        if let Some((lattice, ..)) = self.plane {
            return self.at(lattice.centre(c));
        }
        let (x, y) = self.corner(c);
        (x + self.cell / 2.0, y + self.cell / 2.0)
    }

    /// The width from the first layer's left side to the last one's right.
    pub fn width(&self) -> f64 {
        if let Some((_, _, span)) = self.plane {
            return span.0 * self.cell;
        }
        match (self.origins.first(), self.origins.last()) {
            (Some(a), Some(b)) => b.0 - a.0 + self.size[0] as f64 * self.cell,
            _ => 0.0,
        }
    }

    /// The height of a layer.
    pub fn height(&self) -> f64 {
        if let Some((_, _, span)) = self.plane {
            return span.1 * self.cell;
        }
        self.size[1] as f64 * self.cell
    }
}

/// The height of the caption line.
const CAPTION: f64 = 26.0;
/// The height of the layer captions of solids.
const LAYER_CAPTION: f64 = 18.0;

/// The cell size for a board of `cols` cells across (all layers) and
/// `rows` down: 36 pixels, less for big boards, at least 12; always even,
/// so that the patterns' half-cell tiles start at cell corners.
fn cell_size(cols: usize, rows: usize) -> f64 {
    let n = cols.max(rows).max(1) as f64;
    let s = (560.0 / n).clamp(12.0, 36.0);
    (s / 2.0).floor() * 2.0
}

/// The frame of a solution picture of `puzzle`: where each board cell's
/// centre is (tests read the PNG there).
pub fn solution_frame(puzzle: &Puzzle) -> Frame {
    let cells = || puzzle.board.iter().map(|s| s.0);
    if matches!(puzzle.lattice, Lattice::Triangle | Lattice::Hexagon) {
        let probe = Frame::of(puzzle.lattice, cells(), 1.0, (0.0, 0.0), 1.0);
        let s = cell_size(probe.size[0], probe.size[1]);
        return Frame::of(puzzle.lattice, cells(), s, (MARGIN, MARGIN + CAPTION), 1.0);
    }
    let probe = Frame::new(puzzle.board.iter().map(|s| s.0), 1.0, (0.0, 0.0), 1.0);
    let across = probe.size[0] * probe.size[2] + probe.size[2].saturating_sub(1);
    let s = cell_size(across, probe.size[1]);
    let solid = probe.size[2] > 1;
    let top = MARGIN + CAPTION + if solid { LAYER_CAPTION } else { 0.0 };
    Frame::new(puzzle.board.iter().map(|s| s.0), s, (MARGIN, top), 1.0)
}

/// The fill of piece `piece` (an index into `puzzle.pieces`) in pictures.
pub fn piece_fill(piece: usize) -> Fill {
    palette::piece_fill(piece)
}

/// One cell to draw: where, which group it belongs to (cells of one group
/// are one piece), its board colour, and whether it carries the mark of a
/// difference ([`crate::differ`]).
struct Drawn {
    cell: Cell,
    group: usize,
    colour: Option<u8>,
    marked: bool,
}

/// How groups look: fill, and the label shown once per connected part of a
/// group in each layer.
struct Style<'a> {
    fill: &'a dyn Fn(usize) -> Fill,
    label: &'a dyn Fn(usize) -> Option<String>,
    colours: usize,
    prefix: &'a str,
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
fn draw_cells(svg: &mut Svg, frame: &Frame, cells: &[Drawn], style: &Style<'_>) {
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
fn layer_captions(svg: &mut Svg, frame: &Frame) {
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
fn patterns(svg: &mut Svg, prefix: &str, cues: impl IntoIterator<Item = Cue>, frame: &Frame) {
    let cues: BTreeSet<Cue> = cues.into_iter().collect();
    let cues: Vec<Cue> = cues.into_iter().collect();
    for def in palette::pattern_defs(prefix, &cues, frame.cell / 2.0, frame.origins[0]) {
        svg.def(&def);
    }
}

/// The legend: the pieces, then the board colours.
fn legend(puzzle: &Puzzle) -> Legend {
    let mut legend = Legend::new();
    // Open cells are drawn blank and named where they are.
    for (i, p) in puzzle
        .pieces
        .iter()
        .enumerate()
        .filter(|(_, p)| p.open.is_none())
    {
        let mut name = p.name.clone();
        if p.copies > 1 {
            name.push_str(&format!(" \u{d7}{}", p.copies));
        }
        if p.optional && p.least > 0 {
            name.push_str(&format!(" ({} to {})", p.least, p.copies));
        } else if p.optional {
            name.push_str(" (optional)");
        }
        legend.add(Swatch::Piece(piece_fill(i)), name);
    }
    let colours = puzzle.colours.len();
    if colours > 0 && puzzle.board.iter().any(|s| s.1.is_some()) {
        for (k, c) in puzzle.colours.iter().enumerate() {
            legend.add(
                Swatch::Corner(palette::board_shade(k, colours)),
                format!("board colour {c}"),
            );
        }
    }
    legend
}

/// A picture of a solution: the board with each cell in the colour of the
/// piece covering it, `copies[b]` being the piece copy on board cell `b` (as
/// in [`Puzzle::instances`]), under `caption`.
pub fn solution_svg(puzzle: &Puzzle, copies: &[u16], caption: &str) -> String {
    solution_picture(puzzle, copies, caption, &[]).finish()
}

/// The picture of [`solution_svg`], not yet finished, with the board cells
/// whose indices are in `marked` (indices into `puzzle.board`) marked as
/// differing from another solution ([`crate::differ`]); on a solid the
/// marks are in the cells' layers.
pub fn solution_picture(puzzle: &Puzzle, copies: &[u16], caption: &str, marked: &[usize]) -> Svg {
    let frame = solution_frame(puzzle);
    let instances = puzzle.instances();
    let piece_of = |g: usize| instances.get(g).map(|&(p, _)| p);
    let legend = legend(puzzle);
    let inner = frame
        .width()
        .max(legend.min_width())
        .max(text_width(caption, 15.0))
        .max(240.0);
    let width = inner + 2.0 * MARGIN;
    let legend_top = frame.origins[0].1 + frame.height() + 14.0;
    let height = legend_top + legend.height(inner) + MARGIN;
    let mut svg = Svg::new(width, height, caption);
    let prefix = "p";
    let is_marked: BTreeSet<usize> = marked.iter().copied().collect();
    let cells: Vec<Drawn> = puzzle
        .board
        .iter()
        .enumerate()
        .map(|(b, &(cell, colour))| Drawn {
            cell,
            group: copies.get(b).map_or(usize::MAX, |&g| g as usize),
            colour,
            marked: is_marked.contains(&b),
        })
        .collect();
    // A cell left open is blank, named as the board names it (a date).
    let open_cell: HashMap<usize, Cell> = copies
        .iter()
        .enumerate()
        .filter(|&(_, &g)| piece_of(g as usize).is_some_and(|p| puzzle.pieces[p].open.is_some()))
        .map(|(b, &g)| (g as usize, puzzle.board[b].0))
        .collect();
    let fill = |g: usize| match piece_of(g) {
        Some(p) if !open_cell.contains_key(&g) => piece_fill(p),
        _ => Fill {
            colour: "#ffffff".into(),
            cue: None,
        },
    };
    let label = |g: usize| match open_cell.get(&g) {
        Some(&c) => Some(puzzle.cell_name(c)),
        None => piece_of(g).map(|p| puzzle.pieces[p].name.clone()),
    };
    let used = cells
        .iter()
        .filter(|d| !open_cell.contains_key(&d.group))
        .filter_map(|d| piece_of(d.group))
        .filter_map(|p| piece_fill(p).cue);
    patterns(&mut svg, prefix, used, &frame);
    svg.heading(caption, None);
    layer_captions(&mut svg, &frame);
    draw_cells(
        &mut svg,
        &frame,
        &cells,
        &Style {
            fill: &fill,
            label: &label,
            colours: puzzle.colours.len(),
            prefix,
        },
    );
    legend.draw(&mut svg, MARGIN, legend_top, inner);
    svg
}

/// The board as a heat map: each cell that some solution may leave open
/// shaded by `count(name)` (how many solutions leave it open, by the
/// cell's name as [`Puzzle::cell_name`] gives it) and labelled with its
/// name and count; the other cells grey. A calendar puzzle's dates, from
/// the fewest solutions (light) to the most (dark).
pub fn heat_map_svg(
    puzzle: &Puzzle,
    count: &dyn Fn(&str) -> Option<u128>,
    caption: &str,
) -> String {
    let frame = solution_frame(puzzle);
    let names: Vec<String> = puzzle.board.iter().map(|s| puzzle.cell_name(s.0)).collect();
    let open: BTreeSet<Cell> = puzzle
        .pieces
        .iter()
        .filter_map(|p| p.open.as_ref())
        .flatten()
        .copied()
        .collect();
    let counts: Vec<Option<u128>> = puzzle
        .board
        .iter()
        .zip(&names)
        .map(|(s, name)| open.contains(&s.0).then(|| count(name).unwrap_or(0)))
        .collect();
    let most = counts.iter().flatten().copied().max().unwrap_or(0).max(1);
    let inner = frame.width().max(text_width(caption, 15.0)).max(240.0);
    let width = inner + 2.0 * MARGIN;
    let height = frame.origins[0].1 + frame.height() + MARGIN;
    let mut svg = Svg::new(width, height, caption);
    let cells: Vec<Drawn> = puzzle
        .board
        .iter()
        .enumerate()
        .map(|(b, &(cell, _))| Drawn {
            cell,
            group: b,
            colour: None,
            marked: false,
        })
        .collect();
    let fill = |b: usize| Fill {
        colour: match counts.get(b).copied().flatten() {
            None => "#d0d0d0".into(),
            Some(0) => "#ffffff".into(),
            // White to deep blue by the share of the most.
            Some(n) => {
                let t = (n as f64 / most as f64).sqrt();
                let mix = |a: f64, b: f64| (a + (b - a) * t).round() as u8;
                format!(
                    "#{:02x}{:02x}{:02x}",
                    mix(240.0, 90.0),
                    mix(246.0, 150.0),
                    mix(255.0, 215.0)
                )
            }
        },
        cue: None,
    };
    let label = |b: usize| {
        let n = counts.get(b).copied().flatten()?;
        Some(format!("{} {n}", names[b]))
    };
    svg.heading(caption, None);
    layer_captions(&mut svg, &frame);
    draw_cells(
        &mut svg,
        &frame,
        &cells,
        &Style {
            fill: &fill,
            label: &label,
            colours: 0,
            prefix: "h",
        },
    );
    svg.finish()
}

/// The first group number of [`puzzle_svg`]'s named board cells (one
/// group per cell, after the pins').
const LABELLED: usize = 1 << 24;

/// A picture of the puzzle itself: the board (with its colours and its
/// pinned pieces in place), and under it each piece as the file gives it,
/// in its colour, named, laid apart.
pub fn puzzle_svg(puzzle: &Puzzle) -> String {
    let board_frame = solution_frame(puzzle);
    let s = board_frame.cell;
    let caption = format!(
        "{}: {} board cells, {} pieces",
        puzzle.name,
        puzzle.board.len(),
        puzzle
            .pieces
            .iter()
            .filter(|p| p.open.is_none())
            .map(|p| p.copies as usize)
            .sum::<usize>()
    );
    let legend = legend(puzzle);
    let inner_min = board_frame
        .width()
        .max(legend.min_width())
        .max(text_width(&caption, 15.0))
        .max(240.0);
    // The pieces, a little smaller than the board's cells, in rows as wide
    // as the board or 560 pixels; a solid piece's layers side by side, half
    // a cell apart, with small captions over them.
    let ps = ((s * 0.75 / 2.0).floor() * 2.0).max(10.0);
    let piece_frames: Vec<Frame> = puzzle
        .pieces
        .iter()
        .map(|p| {
            Frame::of(
                puzzle.lattice,
                p.shape.iter().map(|c| c.0),
                ps,
                (0.0, 0.0),
                0.5,
            )
        })
        .collect();
    let solid_pieces = piece_frames.iter().any(|f| f.size[2] > 1);
    let over = if solid_pieces { 14.0 } else { 0.0 };
    let gap = ps;
    let name_height = 16.0;
    let row_limit = inner_min.max(560.0);
    let mut placed = Vec::new();
    let (mut x, mut y, mut row_h) = (0.0f64, 0.0f64, 0.0f64);
    let mut widest: f64 = 0.0;
    for (f, p) in piece_frames.iter().zip(&puzzle.pieces) {
        // Cells left open are shown on the board, by name.
        if p.open.is_some() {
            placed.push((0.0, 0.0));
            continue;
        }
        let w = f.width().max(text_width(&p.name, 12.0) + 24.0);
        if x > 0.0 && x + w > row_limit {
            x = 0.0;
            y += row_h + gap;
            row_h = 0.0;
        }
        placed.push((x, y));
        x += w + gap;
        widest = widest.max(x - gap);
        row_h = row_h.max(over + f.height() + name_height);
    }
    let inner = inner_min.max(widest);
    let pieces_top = board_frame.origins[0].1 + board_frame.height() + s;
    let pieces_height = y + row_h;
    let legend_top = pieces_top + pieces_height + 14.0;
    let height = legend_top + legend.height(inner) + MARGIN;
    let mut svg = Svg::new(inner + 2.0 * MARGIN, height, &caption);
    let prefix = "p";
    let cues: BTreeSet<Cue> = (0..puzzle.pieces.len())
        .filter_map(|i| piece_fill(i).cue)
        .collect();
    for def in palette::pattern_defs(
        prefix,
        &cues.into_iter().collect::<Vec<_>>(),
        ps / 2.0,
        (0.0, 0.0),
    ) {
        svg.def(&def);
    }
    svg.heading(&caption, None);
    layer_captions(&mut svg, &board_frame);
    // Pinned pieces lie on the board in their colour, named and outlined
    // (a group per pin, so thick lines run round each); the rest of the
    // board is group 0.
    let pinned: HashMap<Cell, usize> = puzzle
        .pins
        .iter()
        .enumerate()
        .flat_map(|(i, pin)| pin.cells.iter().map(move |&c| (c, i + 1)))
        .collect();
    // A named cell (a calendar's date) is a group of its own, labelled.
    let named = |b: usize| LABELLED + b;
    let board: Vec<Drawn> = puzzle
        .board
        .iter()
        .enumerate()
        .map(|(b, &(cell, colour))| Drawn {
            cell,
            group: match pinned.get(&cell) {
                Some(&g) => g,
                None if puzzle
                    .labels
                    .binary_search_by(|(c, _)| c.cmp(&cell))
                    .is_ok() =>
                {
                    named(b)
                }
                None => 0,
            },
            colour,
            marked: false,
        })
        .collect();
    let pin_piece = |g: usize| {
        g.checked_sub(1)
            .and_then(|i| puzzle.pins.get(i))
            .map(|pin| pin.piece)
    };
    let board_fill = |g: usize| match pin_piece(g) {
        Some(p) => piece_fill(p),
        None => Fill {
            colour: "#f4f4f4".into(),
            cue: None,
        },
    };
    let pin_label = |g: usize| match g.checked_sub(LABELLED) {
        Some(b) => puzzle.board.get(b).map(|s| puzzle.cell_name(s.0)),
        None => pin_piece(g)
            .and_then(|p| puzzle.pieces.get(p))
            .map(|p| p.name.clone()),
    };
    let no_label = |_| None;
    let colours = puzzle.colours.len();
    draw_cells(
        &mut svg,
        &board_frame,
        &board,
        &Style {
            fill: &board_fill,
            label: &pin_label,
            colours,
            prefix,
        },
    );
    for (i, (p, (px, py))) in puzzle.pieces.iter().zip(placed).enumerate() {
        if p.open.is_some() {
            continue;
        }
        let f = &piece_frames[i];
        let frame = Frame::of(
            puzzle.lattice,
            p.shape.iter().map(|c| c.0),
            ps,
            (MARGIN + px, pieces_top + py + over),
            0.5,
        );
        if frame.size[2] > 1 {
            for (z, &(lx, ly)) in frame.origins.iter().enumerate() {
                // The layer's extent, so a lone cube shows where it sits.
                svg.rect(
                    lx,
                    ly,
                    frame.size[0] as f64 * ps,
                    frame.height(),
                    r##"fill="none" stroke="#bbbbbb" stroke-width="1" stroke-dasharray="3 2""##,
                );
                svg.text(
                    lx + frame.size[0] as f64 * ps / 2.0,
                    ly - 4.0,
                    9.0,
                    Anchor::Middle,
                    r##"fill="#555555""##,
                    &format!("z = {}", frame.lo[2] + z as i32),
                );
            }
        }
        let cells: Vec<Drawn> = p
            .shape
            .iter()
            .map(|&(cell, colour)| Drawn {
                cell,
                group: i,
                colour,
                marked: false,
            })
            .collect();
        let fill = |g: usize| piece_fill(g);
        draw_cells(
            &mut svg,
            &frame,
            &cells,
            &Style {
                fill: &fill,
                label: &no_label,
                colours,
                prefix,
            },
        );
        let mut name = p.name.clone();
        if p.copies > 1 {
            name.push_str(&format!(" \u{d7}{}", p.copies));
        }
        svg.text(
            MARGIN + px + f.width() / 2.0,
            pieces_top + py + over + f.height() + 13.0,
            12.0,
            Anchor::Middle,
            &format!(r#"fill="{INK}""#),
            &name,
        );
    }
    legend.draw(&mut svg, MARGIN, legend_top, inner);
    svg.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_show_as_their_letters() {
        let text = "board = \"\"\"\n###\n#.#\n\"\"\"\n[[piece]]\nname = \"U\"\nshape = \"\"\"\n#.#\n###\n\"\"\"\n";
        let puzzle = jigsolve_grid::parse::parse(text, "u.toml").unwrap().puzzle;
        let out = solution_text(&puzzle, &[0; 5]);
        assert_eq!(out, "UUU\nU.U\n");
    }

    #[test]
    fn pinned_pieces_are_drawn_on_the_board() {
        let text = "board = \"####\"\n[[piece]]\nname = \"Q\"\nshape = \"##\"\ncopies = 2\n[[pin]]\npiece = \"Q\"\ncells = [[2,0],[3,0]]\n";
        let puzzle = jigsolve_grid::parse::parse(text, "q.toml").unwrap().puzzle;
        let fill = piece_fill(0).colour;
        let unpinned = {
            let mut p = puzzle.clone();
            p.pins.clear();
            puzzle_svg(&p)
        };
        let pinned = puzzle_svg(&puzzle);
        // The piece's colour fills two more cells, and its name is written
        // on the board (the picture of the pieces writes "Q ×2").
        let fills = |svg: &str| svg.matches(&format!("fill=\"{fill}\"")).count();
        assert_eq!(fills(&pinned), fills(&unpinned) + 2);
        assert!(pinned.contains(">Q<"), "{pinned}");
        assert!(!unpinned.contains(">Q<"));
    }

    #[test]
    fn layers_are_printed_one_after_another() {
        let text = "lattice = \"cube\"\nboard = { size = [1, 1, 2] }\n[[piece]]\nname = \"10\"\ncells = \"000 001\"\n";
        let puzzle = jigsolve_grid::parse::parse(text, "t.toml").unwrap().puzzle;
        let out = solution_text(&puzzle, &[0, 0]);
        assert_eq!(out, "z = 0:\n10\n\nz = 1:\n10\n");
    }
}
