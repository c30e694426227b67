//! Lattices: where cells are, which cells touch, and how the lattice can be
//! turned and mirrored.
//!
//! A cell is three integer coordinates `[x, y, z]`; the square lattice keeps
//! `z = 0`. Everything else in the crate asks the [`Lattice`] about geometry
//! and never looks at coordinates itself, so a new lattice is one new variant
//! here:
//!
//! - **hexagons** fit as they are: axial coordinates `[q, r, 0]`, six
//!   neighbours, and a point group of twelve integer matrices (six turns, six
//!   mirrors);
//! - **triangles** need the third coordinate for the cell's orientation (up or
//!   down): translations then move `x, y` only and the twelve motions act on
//!   all three, which is why motions are applied through [`Lattice::apply`]
//!   rather than handed out as matrices, and why shapes are normalised by
//!   [`Lattice::normalize`].
//!
//! The point group of each lattice is listed with the identity first, then
//! the other rotations (motions that keep handedness), then the mirrors, so
//! that "rotations only" is a prefix of the list.

use std::fmt;

/// A cell of a lattice: `[x, y, z]` (`z = 0` on the square lattice).
pub type Cell = [i32; 3];

/// The least and greatest corner of the smallest box holding `cells`, or
/// `None` when there are none.
pub fn bounding_box(cells: impl IntoIterator<Item = Cell>) -> Option<(Cell, Cell)> {
    let mut cells = cells.into_iter();
    let first = cells.next()?;
    Some(cells.fold((first, first), |(mut lo, mut hi), c| {
        for k in 0..3 {
            lo[k] = lo[k].min(c[k]);
            hi[k] = hi[k].max(c[k]);
        }
        (lo, hi)
    }))
}

/// The lattices puzzles live on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Lattice {
    /// Unit squares in the plane (polyominoes).
    #[default]
    Square,
    /// Unit cubes in space (polycubes).
    Cube,
    /// Equilateral triangles in the plane (polyiamonds): `[x, y, z]` with
    /// `z = 0` for a triangle pointing down and `z = 1` for one pointing up
    /// (see [`Lattice::art_cell`] for the picture).
    Triangle,
    /// Regular hexagons in the plane (polyhexes): axial `[q, r, 0]`.
    Hexagon,
}

/// A 3 x 3 integer matrix acting on cells as column vectors.
type Matrix = [[i32; 3]; 3];

const SQUARE_GROUP: [Matrix; 8] = square_group();
const CUBE_GROUP: [Matrix; 48] = cube_group();
const HEX_GROUP: [Matrix; 12] = hex_group();

/// The product `a·b` (first `b`, then `a`).
const fn mul(a: &Matrix, b: &Matrix) -> Matrix {
    let mut out = [[0i32; 3]; 3];
    let mut i = 0;
    while i < 3 {
        let mut j = 0;
        while j < 3 {
            let mut k = 0;
            while k < 3 {
                out[i][j] += a[i][k] * b[k][j];
                k += 1;
            }
            j += 1;
        }
        i += 1;
    }
    out
}

/// The twelve motions of the triangular lattice fixing a lattice point, in
/// the oblique basis `a = (1, 0)`, `b = (1/2, √3/2)` (so that whole
/// coordinates are the lattice points, and hexagon centres in axial
/// coordinates): the six turns by multiples of 60°, then the mirror that
/// swaps `a` and `b` followed by each turn.
const fn hex_group() -> [Matrix; 12] {
    // A turn by 60° takes a to b and b to b - a: (u, v) -> (-v, u + v).
    const TURN: Matrix = [[0, -1, 0], [1, 1, 0], [0, 0, 1]];
    const MIRROR: Matrix = [[0, 1, 0], [1, 0, 0], [0, 0, 1]];
    let mut out = [[[0i32; 3]; 3]; 12];
    let mut m: Matrix = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
    let mut k = 0;
    while k < 6 {
        out[k] = m;
        out[k + 6] = mul(&MIRROR, &m);
        m = mul(&TURN, &m);
        k += 1;
    }
    out
}

/// The eight motions of the square fixing the origin: the identity, quarter
/// turns, then the four mirrors.
const fn square_group() -> [Matrix; 8] {
    // (x, y) -> rows of the 2 x 2 part.
    const fn m(a: i32, b: i32, c: i32, d: i32) -> Matrix {
        [[a, b, 0], [c, d, 0], [0, 0, 1]]
    }
    [
        m(1, 0, 0, 1),   // identity
        m(0, -1, 1, 0),  // quarter turn
        m(-1, 0, 0, -1), // half turn
        m(0, 1, -1, 0),  // three quarters
        m(-1, 0, 0, 1),  // mirror x
        m(1, 0, 0, -1),  // mirror y
        m(0, 1, 1, 0),   // mirror in the diagonal
        m(0, -1, -1, 0), // mirror in the antidiagonal
    ]
}

const fn det(m: &Matrix) -> i32 {
    m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
        - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
        + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
}

/// The 48 signed permutation matrices: the identity first, then the other
/// 23 rotations of the cube, then the 24 motions that mirror it.
const fn cube_group() -> [Matrix; 48] {
    const PERMS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut all = [[[0i32; 3]; 3]; 48];
    let mut n = 0;
    let mut p = 0;
    while p < 6 {
        let mut signs = 0;
        while signs < 8 {
            let mut m = [[0i32; 3]; 3];
            let mut row = 0;
            while row < 3 {
                m[row][PERMS[p][row]] = if signs & (1 << row) != 0 { -1 } else { 1 };
                row += 1;
            }
            all[n] = m;
            n += 1;
            signs += 1;
        }
        p += 1;
    }
    // Stable partition: proper motions (det +1) first. The identity is the
    // first proper one generated (permutation 0, no sign changes).
    let mut out = [[[0i32; 3]; 3]; 48];
    let mut k = 0;
    let mut pass = 0;
    while pass < 2 {
        let mut i = 0;
        while i < 48 {
            let proper = det(&all[i]) > 0;
            if proper == (pass == 0) {
                out[k] = all[i];
                k += 1;
            }
            i += 1;
        }
        pass += 1;
    }
    out
}

impl Lattice {
    /// The name used in files.
    pub fn as_str(self) -> &'static str {
        match self {
            Lattice::Square => "square",
            Lattice::Cube => "cube",
            Lattice::Triangle => "triangle",
            Lattice::Hexagon => "hexagon",
        }
    }

    /// The lattice called `name` in files.
    pub fn from_name(name: &str) -> Option<Lattice> {
        [
            Lattice::Square,
            Lattice::Cube,
            Lattice::Triangle,
            Lattice::Hexagon,
        ]
        .into_iter()
        .find(|l| l.as_str() == name)
    }

    /// Whether the lattice lies in the plane (every lattice but the cube).
    pub fn is_plane(self) -> bool {
        self != Lattice::Cube
    }

    /// Whether a step to a neighbour is a unit step along one axis (square
    /// and cube), which lets the bitboard engine grow regions by shifts.
    pub fn axis_neighbours(self) -> bool {
        matches!(self, Lattice::Square | Lattice::Cube)
    }

    /// Coordinates per cell in files: 2 (square, hexagon) or 3 (cube, and
    /// triangle, whose third coordinate is its orientation).
    pub fn dim(self) -> usize {
        match self {
            Lattice::Square | Lattice::Hexagon => 2,
            Lattice::Cube | Lattice::Triangle => 3,
        }
    }

    /// Number of motions fixing the origin (the point group): 8, 48 or 12.
    pub fn motions(self) -> usize {
        self.group().len()
    }

    /// Number of those motions that are rotations (keep handedness): 4, 24
    /// or 6.
    /// They come first: motion `m` is a rotation exactly when `m < rotations()`.
    pub fn rotations(self) -> usize {
        self.motions() / 2
    }

    /// Whether motion `m` is a rotation.
    pub fn is_rotation(self, m: usize) -> bool {
        m < self.rotations()
    }

    fn group(self) -> &'static [Matrix] {
        match self {
            Lattice::Square => &SQUARE_GROUP,
            Lattice::Cube => &CUBE_GROUP,
            Lattice::Triangle | Lattice::Hexagon => &HEX_GROUP,
        }
    }

    /// Applies motion `m` (an index below [`motions`](Lattice::motions)) to a
    /// cell, about the origin.
    #[inline]
    pub fn apply(self, m: usize, c: Cell) -> Cell {
        let a = &self.group()[m];
        if self == Lattice::Triangle {
            // Motions fixing a lattice point map triangles to triangles; a
            // triangle is found by its centre, which in thirds of the basis
            // is (3x + 1, 3y + 1) pointing down and (3x + 2, 3y + 2) up.
            let (u, v) = (3 * c[0] + 1 + c[2], 3 * c[1] + 1 + c[2]);
            let u2 = a[0][0] * u + a[0][1] * v;
            let v2 = a[1][0] * u + a[1][1] * v;
            let z = (u2 - 1).rem_euclid(3);
            return [(u2 - 1 - z).div_euclid(3), (v2 - 1 - z).div_euclid(3), z];
        }
        [
            a[0][0] * c[0] + a[0][1] * c[1] + a[0][2] * c[2],
            a[1][0] * c[0] + a[1][1] * c[1] + a[1][2] * c[2],
            a[2][0] * c[0] + a[2][1] * c[1] + a[2][2] * c[2],
        ]
    }

    /// The index of the motion that undoes `m`.
    pub fn inverse(self, m: usize) -> usize {
        let probe: [Cell; 3] = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
        (0..self.motions())
            .find(|&k| probe.iter().all(|&c| self.apply(k, self.apply(m, c)) == c))
            .expect("a group has inverses")
    }

    /// The cells sharing a side (square, triangle, hexagon) or a face
    /// (cube) with `c`.
    pub fn neighbours(self, c: Cell) -> impl Iterator<Item = Cell> {
        const AXES: [Cell; 6] = [
            [1, 0, 0],
            [-1, 0, 0],
            [0, 1, 0],
            [0, -1, 0],
            [0, 0, 1],
            [0, 0, -1],
        ];
        // Axial steps: along a, along b, and along b - a.
        const HEX: [Cell; 6] = [
            [1, 0, 0],
            [-1, 0, 0],
            [0, 1, 0],
            [0, -1, 0],
            [1, -1, 0],
            [-1, 1, 0],
        ];
        // A triangle pointing down (z = 0) touches the up triangles of its
        // own rhombus, of the one to its left and of the one above; a
        // triangle pointing up those of its own, the right and the lower one.
        const DOWN: [Cell; 6] = [[0, 0, 1], [-1, 0, 1], [0, -1, 1], [0; 3], [0; 3], [0; 3]];
        const UP: [Cell; 6] = [[0, 0, -1], [1, 0, -1], [0, 1, -1], [0; 3], [0; 3], [0; 3]];
        let (steps, n) = match self {
            Lattice::Square => (&AXES, 4),
            Lattice::Cube => (&AXES, 6),
            Lattice::Hexagon => (&HEX, 6),
            Lattice::Triangle if c[2] == 0 => (&DOWN, 3),
            Lattice::Triangle => (&UP, 3),
        };
        steps[..n]
            .iter()
            .map(move |s| [c[0] + s[0], c[1] + s[1], c[2] + s[2]])
    }

    /// Whether a cell is a cell of this lattice (the square and hexagon
    /// lattices have `z = 0`, triangles `z` of 0 or 1).
    pub fn contains(self, c: Cell) -> bool {
        match self {
            Lattice::Square | Lattice::Hexagon => c[2] == 0,
            Lattice::Cube => true,
            Lattice::Triangle => c[2] == 0 || c[2] == 1,
        }
    }

    /// Whether moving every cell by `shift` is a translation of the lattice:
    /// always on squares, cubes and hexagons; on triangles only when it keeps
    /// the orientation (`z`) of every cell.
    pub fn is_translation(self, shift: Cell) -> bool {
        self != Lattice::Triangle || shift[2] == 0
    }

    /// Translates `cells` so that their smallest coordinates are 0 and sorts
    /// them, carrying a payload (a colour) along. Two shapes are translates of
    /// each other exactly when their normal forms are equal. On triangles the
    /// third coordinate is the orientation, which translations keep, so only
    /// `x` and `y` move.
    pub fn normalize<T: Ord + Copy>(self, cells: &mut [(Cell, T)]) {
        let Some((mut lo, _)) = bounding_box(cells.iter().map(|s| s.0)) else {
            return;
        };
        if self == Lattice::Triangle {
            lo[2] = 0;
        }
        for (c, _) in cells.iter_mut() {
            for k in 0..3 {
                c[k] -= lo[k];
            }
        }
        cells.sort_unstable();
    }

    /// The cell drawn at column `col` of line `line` of plane art, or `None`
    /// when that place is not a cell of the lattice (only on hexagons).
    ///
    /// Squares: `[col, line, 0]`. Hexagons sit two columns apart in a line,
    /// each line shifted one column from the one above, so the places with
    /// `col + line` odd fall between hexagons:
    ///
    /// ```text
    /// col:  0 1 2 3 4 5          axial [q, r]:
    /// line 0  H . H . H          [0,0] [1,0] [2,0]
    /// line 1  . H . H . H           [0,1] [1,1] [2,1]
    /// ```
    ///
    /// Triangles alternate down and up along a line like a chessboard, so
    /// that a triangle pointing up shares its base with the one pointing
    /// down below it (a triangle pointing down over one pointing up touches
    /// it only at a corner): the place is a triangle pointing down (`z = 0`) when `col + line` is even
    /// and up (`z = 1`) when it is odd, and `x = (col - line - z) / 2`:
    ///
    /// ```text
    /// col:  0 1 2 3 4 5
    /// line 0  ▽ △ ▽ △ ▽ △        [0,0,0] [0,0,1] [1,0,0] [1,0,1] ...
    /// line 1  △ ▽ △ ▽ △ ▽        [-1,1,1] [0,1,0] [0,1,1] [1,1,0] ...
    /// ```
    pub fn art_cell(self, col: i32, line: i32) -> Option<Cell> {
        match self {
            Lattice::Square | Lattice::Cube => Some([col, line, 0]),
            Lattice::Hexagon => {
                ((col + line).rem_euclid(2) == 0).then(|| [(col - line).div_euclid(2), line, 0])
            }
            Lattice::Triangle => {
                let z = (col + line).rem_euclid(2);
                Some([(col - line - z).div_euclid(2), line, z])
            }
        }
    }

    /// Where art draws a plane cell: `(col, line)`, the inverse of
    /// [`Lattice::art_cell`].
    pub fn art_place(self, c: Cell) -> (i32, i32) {
        match self {
            Lattice::Square | Lattice::Cube => (c[0], c[1]),
            Lattice::Hexagon => (2 * c[0] + c[1], c[1]),
            Lattice::Triangle => (2 * c[0] + c[1] + c[2], c[1]),
        }
    }

    /// The centre of a plane cell in the picture plane, in units of the
    /// cell's side (squares and hexagons) or the triangle's side, with y
    /// growing downwards as in art. Used to draw cells.
    pub fn centre(self, c: Cell) -> (f64, f64) {
        const H: f64 = 0.866_025_403_784_438_6; // √3 / 2
        let (x, y) = (f64::from(c[0]), f64::from(c[1]));
        match self {
            Lattice::Square | Lattice::Cube => (x + 0.5, y + 0.5),
            // Hexagons of side 1 with flat sides left and right: centres √3
            // apart along a line, lines 1.5 apart.
            Lattice::Hexagon => ((2.0 * x + y) * H, 1.5 * y),
            Lattice::Triangle => {
                let z = f64::from(c[2]);
                // Vertex (i, j) sits at (i + j/2, j·√3/2).
                let third = (1.0 + z) / 3.0;
                (x + third + (y + third) / 2.0, (y + third) * H)
            }
        }
    }

    /// The corners of a plane cell in the picture plane (see
    /// [`Lattice::centre`]), in order around it.
    pub fn corners(self, c: Cell) -> Vec<(f64, f64)> {
        const H: f64 = 0.866_025_403_784_438_6;
        let (x, y) = (f64::from(c[0]), f64::from(c[1]));
        let vertex = |i: f64, j: f64| (i + j / 2.0, j * H);
        match self {
            Lattice::Square | Lattice::Cube => {
                vec![(x, y), (x + 1.0, y), (x + 1.0, y + 1.0), (x, y + 1.0)]
            }
            Lattice::Hexagon => {
                let (cx, cy) = self.centre(c);
                (0..6)
                    .map(|k| {
                        let a = std::f64::consts::PI / 3.0 * k as f64 + std::f64::consts::PI / 6.0;
                        (cx + a.cos(), cy + a.sin())
                    })
                    .collect()
            }
            Lattice::Triangle if c[2] == 0 => {
                vec![vertex(x, y), vertex(x + 1.0, y), vertex(x, y + 1.0)]
            }
            Lattice::Triangle => vec![
                vertex(x + 1.0, y),
                vertex(x + 1.0, y + 1.0),
                vertex(x, y + 1.0),
            ],
        }
    }
}

impl fmt::Display for Lattice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bounding_box_spans_every_cell() {
        let cells = [[1, 2, 0], [3, -1, 0], [2, 0, 5]];
        assert_eq!(bounding_box(cells), Some(([1, -1, 0], [3, 2, 5])));
        assert_eq!(bounding_box([[4, 4, 4]]), Some(([4, 4, 4], [4, 4, 4])));
        assert_eq!(bounding_box(std::iter::empty()), None);
    }

    fn is_group(l: Lattice) {
        let n = l.motions();
        let probe: [Cell; 3] = [[1, 2, 3], [-2, 5, 7], [4, -1, 2]];
        let probe: Vec<Cell> = probe
            .iter()
            .map(|&c| match l {
                Lattice::Square | Lattice::Hexagon => [c[0], c[1], 0],
                Lattice::Triangle => [c[0], c[1], c[2] & 1],
                Lattice::Cube => c,
            })
            .collect();
        // Closed under composition, identity first, rotations first.
        for a in 0..n {
            for b in 0..n {
                let composed: Vec<Cell> =
                    probe.iter().map(|&c| l.apply(a, l.apply(b, c))).collect();
                let k = (0..n)
                    .find(|&k| {
                        probe
                            .iter()
                            .map(|&c| l.apply(k, c))
                            .eq(composed.iter().copied())
                    })
                    .expect("closed");
                assert_eq!(l.is_rotation(k), l.is_rotation(a) == l.is_rotation(b));
            }
            assert_eq!(l.apply(l.inverse(a), l.apply(a, probe[0])), probe[0]);
        }
        assert!(probe.iter().all(|&c| l.apply(0, c) == c));
    }

    #[test]
    fn point_groups_are_groups_with_rotations_first() {
        is_group(Lattice::Square);
        is_group(Lattice::Cube);
        is_group(Lattice::Triangle);
        is_group(Lattice::Hexagon);
        assert_eq!(Lattice::Square.rotations(), 4);
        assert_eq!(Lattice::Cube.rotations(), 24);
        assert_eq!(Lattice::Triangle.motions(), 12);
        assert_eq!(Lattice::Hexagon.rotations(), 6);
    }

    /// The cells of a patch around the origin.
    fn patch(l: Lattice) -> Vec<Cell> {
        let zs: &[i32] = if l == Lattice::Triangle {
            &[0, 1]
        } else {
            &[0]
        };
        let mut v = Vec::new();
        for x in -4..=4 {
            for y in -4..=4 {
                for &z in zs {
                    v.push([x, y, z]);
                }
            }
        }
        v
    }

    #[test]
    fn plane_motions_keep_cells_on_the_lattice_and_neighbours_neighbours() {
        for l in [Lattice::Triangle, Lattice::Hexagon] {
            let cells = patch(l);
            for &c in &cells {
                // Neighbourhood is symmetric and of the right size.
                let n: Vec<Cell> = l.neighbours(c).collect();
                assert_eq!(n.len(), if l == Lattice::Triangle { 3 } else { 6 });
                for &d in &n {
                    assert!(l.contains(d));
                    assert!(l.neighbours(d).any(|e| e == c), "{l}: {c:?} {d:?}");
                }
                for m in 0..l.motions() {
                    let mc = l.apply(m, c);
                    assert!(l.contains(mc), "{l}: motion {m} takes {c:?} to {mc:?}");
                    for &d in &n {
                        assert!(l.neighbours(mc).any(|e| e == l.apply(m, d)));
                    }
                }
            }
            // Distinct motions move a cell next to the origin to places
            // that tell every motion apart (the group acts faithfully).
            let c = if l == Lattice::Triangle {
                [1, 0, 0]
            } else {
                [2, 1, 0]
            };
            let images: std::collections::HashSet<Cell> =
                (0..l.motions()).map(|m| l.apply(m, c)).collect();
            assert_eq!(images.len(), 12, "{l}");
        }
        // A turn by 60 degrees turns a triangle over; a turn by 120 does not.
        assert_eq!(Lattice::Triangle.apply(1, [0, 0, 0])[2], 1);
        assert_eq!(Lattice::Triangle.apply(2, [0, 0, 0])[2], 0);
    }

    #[test]
    fn art_places_and_cells_are_inverse() {
        for l in [Lattice::Square, Lattice::Triangle, Lattice::Hexagon] {
            for &c in &patch(l) {
                let (col, line) = l.art_place(c);
                assert_eq!(l.art_cell(col, line), Some(c), "{l} {c:?}");
            }
        }
        assert_eq!(Lattice::Hexagon.art_cell(1, 0), None);
        assert_eq!(Lattice::Triangle.art_cell(1, 0), Some([0, 0, 1]));
        assert_eq!(Lattice::Triangle.art_cell(0, 1), Some([-1, 1, 1]));
    }

    #[test]
    fn triangles_translate_without_turning_over() {
        let l = Lattice::Triangle;
        // All pointing up: normal form keeps z = 1.
        let mut a = vec![([3, 4, 1], ())];
        l.normalize(&mut a);
        assert_eq!(a, vec![([0, 0, 1], ())]);
        assert!(l.is_translation([2, -1, 0]));
        assert!(!l.is_translation([0, 0, 1]));
        assert!(Lattice::Cube.is_translation([0, 0, 1]));
    }

    #[test]
    fn normal_form_ignores_translation() {
        let l = Lattice::Square;
        let mut a = vec![([3, 4, 0], 0u8), ([2, 4, 0], 1)];
        let mut b = vec![([0, 0, 0], 1u8), ([1, 0, 0], 0)];
        l.normalize(&mut a);
        l.normalize(&mut b);
        assert_eq!(a, b);
    }
}
