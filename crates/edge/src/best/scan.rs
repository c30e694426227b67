//! The cell orders of the best-board search. In each, every cell has its
//! west and north neighbours placed before it (the frame order's first row
//! and column aside), so the row scan's tables serve them all.

use super::BestOrder;

/// The cells in the order the search fills them.
pub(super) fn scan_order(rows: usize, cols: usize, order: BestOrder) -> Vec<usize> {
    let all = rows * cols;
    match order {
        BestOrder::Rows => (0..all).collect(),
        BestOrder::BorderFirst => {
            let mut seen = vec![false; all];
            let mut out = Vec::with_capacity(all);
            let mut push = |c: usize, out: &mut Vec<usize>| {
                if !seen[c] {
                    seen[c] = true;
                    out.push(c);
                }
            };
            for c in 0..cols {
                push(c, &mut out);
            }
            for r in 1..rows {
                push(r * cols + cols - 1, &mut out);
            }
            for c in (0..cols).rev() {
                push((rows - 1) * cols + c, &mut out);
            }
            for r in (1..rows).rev() {
                push(r * cols, &mut out);
            }
            for c in 0..all {
                push(c, &mut out);
            }
            out
        }
        BestOrder::ColumnsLast => {
            // Every cell still has its west and north neighbours placed
            // before it, so the same tables serve.
            let tail = ((rows * 5 + 8) / 16).clamp(1, rows);
            let top = rows - tail;
            let mut out: Vec<usize> = (0..top * cols).collect();
            // The first `tail` columns of the tail row by row, then columns
            // top down until `tail - 1` are left, then the corner block
            // peeled a row and a column at a time.
            let left = tail.min(cols);
            let right = cols.saturating_sub(tail - 1).max(left);
            for r in top..rows {
                out.extend((0..left).map(|c| r * cols + c));
            }
            for c in left..right {
                out.extend((top..rows).map(|r| r * cols + c));
            }
            let (mut r0, mut c0) = (top, right);
            while r0 < rows && c0 < cols {
                out.extend((c0..cols).map(|c| r0 * cols + c));
                r0 += 1;
                out.extend((r0..rows).map(|r| r * cols + c0));
                c0 += 1;
            }
            out
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn border_first_visits_every_cell_once() {
        for (r, c) in [(1, 1), (1, 4), (2, 2), (3, 5), (6, 6)] {
            let mut order = scan_order(r, c, BestOrder::BorderFirst);
            assert_eq!(order[..c.min(order.len())], (0..c).collect::<Vec<_>>()[..]);
            order.sort_unstable();
            assert_eq!(order, (0..r * c).collect::<Vec<_>>());
        }
    }

    #[test]
    fn columns_last_places_west_and_north_first_in_blackwoods_order() {
        for (r, c) in [(1, 1), (1, 4), (2, 2), (3, 5), (6, 6), (16, 16), (7, 3)] {
            let order = scan_order(r, c, BestOrder::ColumnsLast);
            let mut at = vec![usize::MAX; r * c];
            for (i, &cell) in order.iter().enumerate() {
                assert_eq!(at[cell], usize::MAX, "{r}x{c}: cell {cell} twice");
                at[cell] = i;
            }
            assert!(
                at.iter().all(|&i| i != usize::MAX),
                "{r}x{c}: a cell left out"
            );
            for cell in 0..r * c {
                if cell % c > 0 {
                    assert!(at[cell - 1] < at[cell], "{r}x{c}: west of {cell}");
                }
                if cell >= c {
                    assert!(at[cell - c] < at[cell], "{r}x{c}: north of {cell}");
                }
            }
        }
        // Eternity II: rows 0 to 10, then his tail (his scan indices 176 on,
        // his board turned upside down to start at the top), but for the
        // order of his cells 253 and 254.
        let order = scan_order(16, 16, BestOrder::ColumnsLast);
        let at = |r: usize, c: usize| order.iter().position(|&x| x == r * 16 + c).unwrap();
        assert_eq!(order[..176], (0..176).collect::<Vec<_>>()[..]);
        assert_eq!(
            (at(11, 4), at(15, 4), at(11, 5), at(15, 5)),
            (180, 200, 201, 205)
        );
        assert_eq!(
            (at(11, 11), at(15, 11), at(11, 12), at(11, 15)),
            (231, 235, 236, 239)
        );
        assert_eq!(
            (at(15, 12), at(12, 15), at(15, 13), at(14, 14)),
            (243, 246, 249, 252)
        );
    }
}
