//! The order in which the engine fills the cells.
//!
//! Scan order matters more than raw speed. Every order here keeps each new
//! cell next to cells already filled, so its candidates come from a table
//! keyed by the marks it must match. Row by row wins on puzzles with many
//! colours; on puzzles with few colours and a border (the Eternity II clue
//! puzzles) the frame first is better by orders of magnitude, because the
//! frame tiles are few and strongly constrained. [`ScanOrder::Auto`] lets the
//! engine choose by estimating the size of each order's search tree with
//! random probes (see [`crate::Prepared::new`]).

use std::fmt;
use std::str::FromStr;

/// How to order the cells.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ScanOrder {
    /// Choose from the puzzle (the default).
    #[default]
    Auto,
    /// Row by row from the top-left, along the shorter side of the board
    /// (a tall board is scanned column by column).
    Rows,
    /// The outer ring clockwise from the top-left corner, then the inside row
    /// by row along its shorter side.
    Frame,
    /// From the centre outward in a square spiral (the order of seed 001).
    Spiral,
}

impl ScanOrder {
    /// Every concrete order, for [`ScanOrder::Auto`] to choose from.
    pub const CONCRETE: [ScanOrder; 3] = [ScanOrder::Rows, ScanOrder::Frame, ScanOrder::Spiral];

    /// The name used on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            ScanOrder::Auto => "auto",
            ScanOrder::Rows => "rows",
            ScanOrder::Frame => "frame",
            ScanOrder::Spiral => "spiral",
        }
    }
}

impl fmt::Display for ScanOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An order name that is not one of `auto`, `rows`, `frame`, `spiral`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown scan order '{0}': expected auto, rows, frame or spiral")]
pub struct UnknownOrder(pub String);

impl FromStr for ScanOrder {
    type Err = UnknownOrder;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "auto" => Ok(ScanOrder::Auto),
            "rows" | "row" => Ok(ScanOrder::Rows),
            "frame" => Ok(ScanOrder::Frame),
            "spiral" => Ok(ScanOrder::Spiral),
            other => Err(UnknownOrder(other.to_string())),
        }
    }
}

/// The cells (row-major indices) in the order `order` visits them.
/// `Auto` is treated as `Rows`; the engine resolves it before calling this.
pub fn cells(order: ScanOrder, rows: usize, cols: usize) -> Vec<usize> {
    match order {
        ScanOrder::Auto | ScanOrder::Rows => short_side_scan(rows, cols, 0, 0, rows, cols),
        ScanOrder::Frame => frame_first(rows, cols),
        ScanOrder::Spiral => spiral_from_centre(rows, cols),
    }
}

/// Scans the sub-rectangle at (r0, c0) of size h x w line by line along its
/// shorter side (rows when w <= h, columns otherwise).
fn short_side_scan(
    h: usize,
    w: usize,
    r0: usize,
    c0: usize,
    rows: usize,
    cols: usize,
) -> Vec<usize> {
    debug_assert!(r0 + h <= rows && c0 + w <= cols);
    let mut out = Vec::with_capacity(h * w);
    if w <= h {
        for r in r0..r0 + h {
            for c in c0..c0 + w {
                out.push(r * cols + c);
            }
        }
    } else {
        for c in c0..c0 + w {
            for r in r0..r0 + h {
                out.push(r * cols + c);
            }
        }
    }
    out
}

fn frame_first(rows: usize, cols: usize) -> Vec<usize> {
    if rows <= 2 || cols <= 2 {
        return short_side_scan(rows, cols, 0, 0, rows, cols);
    }
    let mut out = Vec::with_capacity(rows * cols);
    for c in 0..cols {
        out.push(c);
    }
    for r in 1..rows {
        out.push(r * cols + cols - 1);
    }
    for c in (0..cols - 1).rev() {
        out.push((rows - 1) * cols + c);
    }
    for r in (1..rows - 1).rev() {
        out.push(r * cols);
    }
    out.extend(short_side_scan(rows - 2, cols - 2, 1, 1, rows, cols));
    out
}

fn spiral_from_centre(rows: usize, cols: usize) -> Vec<usize> {
    let total = rows * cols;
    let mut out = Vec::with_capacity(total);
    let (mut r, mut c) = (((rows - 1) / 2) as i64, ((cols - 1) / 2) as i64);
    // Right, down, left, up: run lengths 1, 1, 2, 2, 3, 3, ...
    let dirs = [(0i64, 1i64), (1, 0), (0, -1), (-1, 0)];
    let push = |r: i64, c: i64, out: &mut Vec<usize>| {
        if r >= 0 && c >= 0 && (r as usize) < rows && (c as usize) < cols {
            out.push(r as usize * cols + c as usize);
        }
    };
    push(r, c, &mut out);
    let mut run = 1;
    let mut d = 0;
    while out.len() < total {
        for _ in 0..2 {
            let (dr, dc) = dirs[d % 4];
            for _ in 0..run {
                r += dr;
                c += dc;
                push(r, c, &mut out);
            }
            d += 1;
        }
        run += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_permutation(v: &[usize], n: usize) -> bool {
        let mut s = v.to_vec();
        s.sort();
        s == (0..n).collect::<Vec<_>>()
    }

    #[test]
    fn every_order_visits_every_cell_once() {
        for rows in 1..7 {
            for cols in 1..7 {
                for order in ScanOrder::CONCRETE {
                    let v = cells(order, rows, cols);
                    assert!(
                        is_permutation(&v, rows * cols),
                        "{order} {rows}x{cols}: {v:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn every_cell_after_the_first_touches_an_earlier_one() {
        for (rows, cols) in [(3, 3), (4, 6), (6, 4), (5, 5), (2, 7)] {
            for order in ScanOrder::CONCRETE {
                let v = cells(order, rows, cols);
                for i in 1..v.len() {
                    let (r, c) = ((v[i] / cols) as i64, (v[i] % cols) as i64);
                    let touches = v[..i].iter().any(|&p| {
                        let (pr, pc) = ((p / cols) as i64, (p % cols) as i64);
                        (pr - r).abs() + (pc - c).abs() == 1
                    });
                    assert!(touches, "{order} {rows}x{cols} at {i}");
                }
            }
        }
    }

    #[test]
    fn spiral_of_3x3_starts_in_the_centre() {
        assert_eq!(
            cells(ScanOrder::Spiral, 3, 3),
            vec![4, 5, 8, 7, 6, 3, 0, 1, 2]
        );
    }

    #[test]
    fn frame_goes_round_clockwise_first() {
        assert_eq!(
            cells(ScanOrder::Frame, 3, 4),
            vec![0, 1, 2, 3, 7, 11, 10, 9, 8, 4, 5, 6]
        );
    }
}
