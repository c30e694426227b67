//! Where a picture puts cells: the frame of a set of cells, and the size
//! and place of a solution picture's board.

use crate::svg::MARGIN;
use jigsolve_grid::{bounding_box, Cell, Lattice, Puzzle};

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
