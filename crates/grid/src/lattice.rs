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
}

/// A 3 x 3 integer matrix acting on cells as column vectors.
type Matrix = [[i32; 3]; 3];

const SQUARE_GROUP: [Matrix; 8] = square_group();
const CUBE_GROUP: [Matrix; 48] = cube_group();

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
        }
    }

    /// Coordinates per cell in files: 2 or 3.
    pub fn dim(self) -> usize {
        match self {
            Lattice::Square => 2,
            Lattice::Cube => 3,
        }
    }

    /// Number of motions fixing the origin (the point group): 8 or 48.
    pub fn motions(self) -> usize {
        self.group().len()
    }

    /// Number of those motions that are rotations (keep handedness): 4 or 24.
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
        }
    }

    /// Applies motion `m` (an index below [`motions`](Lattice::motions)) to a
    /// cell, about the origin.
    #[inline]
    pub fn apply(self, m: usize, c: Cell) -> Cell {
        let a = &self.group()[m];
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

    /// The cells sharing a side (square) or a face (cube) with `c`.
    pub fn neighbours(self, c: Cell) -> impl Iterator<Item = Cell> {
        const STEPS: [Cell; 6] = [
            [1, 0, 0],
            [-1, 0, 0],
            [0, 1, 0],
            [0, -1, 0],
            [0, 0, 1],
            [0, 0, -1],
        ];
        let n = match self {
            Lattice::Square => 4,
            Lattice::Cube => 6,
        };
        STEPS[..n]
            .iter()
            .map(move |s| [c[0] + s[0], c[1] + s[1], c[2] + s[2]])
    }

    /// Whether a cell is a cell of this lattice (the square lattice has `z = 0`).
    pub fn contains(self, c: Cell) -> bool {
        match self {
            Lattice::Square => c[2] == 0,
            Lattice::Cube => true,
        }
    }

    /// Translates `cells` so that their smallest coordinates are 0 and sorts
    /// them, carrying a payload (a colour) along. Two shapes are translates of
    /// each other exactly when their normal forms are equal.
    pub fn normalize<T: Ord + Copy>(self, cells: &mut [(Cell, T)]) {
        let Some((lo, _)) = bounding_box(cells.iter().map(|s| s.0)) else {
            return;
        };
        for (c, _) in cells.iter_mut() {
            for k in 0..3 {
                c[k] -= lo[k];
            }
        }
        cells.sort_unstable();
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
            .map(|&c| {
                if l == Lattice::Square {
                    [c[0], c[1], 0]
                } else {
                    c
                }
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
        assert_eq!(Lattice::Square.rotations(), 4);
        assert_eq!(Lattice::Cube.rotations(), 24);
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
