//! The tables the dead-region and colour checks read per multiset of
//! remaining pieces ([`Keys`]), and the board's colouring in two.

use super::pruning::BALANCE_ZERO;
use super::CellChoice;
use crate::problem::Problem;

/// Largest number of remaining-size multisets for which dead-region sizes
/// are tabulated per multiset (else one table for the whole piece set).
const MAX_KEYS: usize = 1 << 15;

/// The sums that sub-multisets of `(size, count)` pairs can make, below 128.
fn sums(classes: impl Iterator<Item = (usize, u32)>) -> u128 {
    let mut reach: u128 = 1;
    for (size, count) in classes {
        for _ in 0..count {
            if size >= 128 {
                break;
            }
            let next = reach | (reach << size);
            if next == reach {
                break;
            }
            reach = next;
        }
    }
    reach
}

/// What the pruning tabulates per multiset of remaining pieces, and the key
/// that indexes it: the pieces are put in classes by size and colour
/// difference, and the key counts the pieces left in each class (mixed
/// radix), so that placing a piece subtracts its class's stride.
///
/// - **Region sizes**: the sizes a sub-multiset of the remaining pieces can
///   fill (a closed region of any other size is dead).
/// - **Colour sums** (the colour check). On a board whose cells can be
///   coloured in two so that neighbours always differ (a checkerboard in
///   the plane and in space; up and down triangles), every piece covers a
///   fixed number more of one colour than of the other, only the sign
///   depends on where it lies (its cells are connected, so its colouring
///   is fixed up to a swap). When every piece must be placed, the empty
///   cells' difference of colours must be a sum of the remaining pieces'
///   differences with some signs: a partial cover that leaves, say, 4 more
///   empty cells of one colour than of the other for two pieces of
///   difference 1 is dead however its regions look.
pub(super) struct Keys {
    /// Per type, its class's stride.
    pub(super) stride: Vec<u32>,
    pub(super) key0: u32,
    pub(super) feasible: Vec<u128>,
    /// Whether the colour check is on.
    pub(super) balanced: bool,
    /// Per cell, +1 or -1 (all 0 when the colour check is off).
    colour: Vec<i32>,
    /// The board's difference of colours.
    pub(super) board: i32,
    pub(super) balances: Vec<u128>,
}

impl Keys {
    pub(super) fn new(problem: &Problem, choice: CellChoice) -> Keys {
        let colours = colour_differences(problem, choice);
        if let Some((colour, diff)) = colours {
            if let Some(keys) = Keys::with(problem, &diff, colour) {
                return keys;
            }
        }
        let none = vec![0; problem.types.len()];
        Keys::with(problem, &none, vec![0; problem.cells()]).unwrap_or_else(|| {
            // Too many multisets: one table for the whole piece set.
            let all = problem
                .types
                .iter()
                .filter(|t| !t.open)
                .map(|t| (t.size, t.hi));
            Keys {
                stride: none,
                key0: 0,
                feasible: vec![sums(all)],
                balanced: false,
                colour: vec![0; problem.cells()],
                board: 0,
                balances: vec![!0],
            }
        })
    }

    /// The keys for types of colour differences `diff` (all 0: no colour
    /// check); `None` when there would be more than `MAX_KEYS`.
    fn with(problem: &Problem, diff: &[u32], colour: Vec<i32>) -> Option<Keys> {
        // Open cells are a class of their own (a one-cell piece of the set
        // is not), and fill no region size (see `BitTables::opens`).
        let of = |t: usize| (problem.types[t].size, diff[t], problem.types[t].open);
        let mut classes: Vec<(usize, u32, bool)> = (0..diff.len()).map(of).collect();
        classes.sort_unstable();
        classes.dedup();
        let total: Vec<u32> = classes
            .iter()
            .map(|&c| {
                (0..diff.len())
                    .filter(|&t| of(t) == c)
                    .map(|t| problem.types[t].hi)
                    .sum()
            })
            .collect();
        let keys = total.iter().try_fold(1usize, |k, &h| {
            k.checked_mul(h as usize + 1).filter(|&k| k <= MAX_KEYS)
        })?;
        let mut class_stride = Vec::with_capacity(classes.len());
        let mut s = 1u32;
        for &h in &total {
            class_stride.push(s);
            s *= h + 1;
        }
        let counts = |key: usize| {
            total
                .iter()
                .zip(&class_stride)
                .map(move |(&h, &st)| (key as u32 / st) % (h + 1))
        };
        let balanced = diff.iter().any(|&d| d > 0);
        Some(Keys {
            stride: (0..diff.len())
                .map(|t| class_stride[classes.binary_search(&of(t)).unwrap_or(0)])
                .collect(),
            key0: total.iter().zip(&class_stride).map(|(&h, &s)| h * s).sum(),
            feasible: (0..keys)
                .map(|key| {
                    let sizes = classes.iter().map(|c| if c.2 { 128 } else { c.0 });
                    sums(sizes.zip(counts(key)))
                })
                .collect(),
            balances: match balanced {
                true => (0..keys)
                    .map(|key| signed_sums(classes.iter().map(|c| c.1).zip(counts(key))))
                    .collect(),
                false => vec![!0],
            },
            balanced,
            board: colour.iter().sum(),
            colour,
        })
    }

    /// A placement's signed colour difference.
    pub(super) fn imbalance(&self, cells: &[u32]) -> i16 {
        cells.iter().map(|&c| self.colour[c as usize]).sum::<i32>() as i16
    }
}

/// The board's colouring and each type's colour difference (up to sign),
/// when the colour check is worth making; see [`Keys`].
fn colour_differences(problem: &Problem, choice: CellChoice) -> Option<(Vec<i32>, Vec<u32>)> {
    // Every copy must be placed (optional pieces may be left out, and then
    // the remaining pieces need not fill the empty cells).
    if problem.types.iter().any(|t| t.lo != t.hi) {
        return None;
    }
    // Behind the frontier of the first empty cell most placements pass the
    // dead-region check at once, and the colour check would add a look-up
    // to each for little (6 x 10 pentominoes: 48 nodes fewer of 763,464,
    // 13% more instructions).
    if choice == CellChoice::First {
        return None;
    }
    let colour = two_colours(&problem.neighbours)?;
    // Each type's difference, the same for all its placements up to the
    // sign. When no type's sign varies (coloured boards whose pieces have
    // coloured cells), which pieces are left fixes the difference and the
    // check could never refuse anything.
    let mut diff = vec![None; problem.types.len()];
    let mut signs_vary = false;
    for p in &problem.placements {
        let d = p.cells.iter().map(|&c| colour[c as usize]).sum::<i32>();
        match diff[p.ty as usize] {
            None => diff[p.ty as usize] = Some(d),
            Some(e) if e.abs() != d.abs() => return None,
            Some(e) => signs_vary |= e != d,
        }
    }
    let diff: Vec<u32> = diff.iter().map(|d| d.unwrap_or(0).unsigned_abs()).collect();
    // The check costs a look-up per placement tried and refuses something
    // mostly when pieces that cannot correct an imbalance (difference 0)
    // are common: hexiamonds in the 6 x 6 rhombus 13% fewer nodes, the Soma
    // cube 40%; on pentominoes (odd sizes, never 0) it refused 1 node of
    // 30,462 on the 8 x 8 with a hole for 5% more instructions, and on the
    // Bedlam cube (1 piece of 13 with 0) 2.6% of the nodes for no time.
    let zero: u32 = (0..diff.len())
        .filter(|&t| diff[t] == 0)
        .map(|t| problem.types[t].hi)
        .sum();
    let pieces: u32 = problem.types.iter().map(|t| t.hi).sum();
    (signs_vary && 4 * zero >= pieces).then_some((colour, diff))
}

/// A colouring of the cells in two (+1 and -1) in which neighbours differ;
/// `None` when there is none (hexagons). Each connected part of the board
/// starts with +1 at its first cell.
fn two_colours(neighbours: &[Vec<u32>]) -> Option<Vec<i32>> {
    let mut colour = vec![0i32; neighbours.len()];
    let mut stack = Vec::new();
    for start in 0..neighbours.len() {
        if colour[start] != 0 {
            continue;
        }
        colour[start] = 1;
        stack.push(start);
        while let Some(c) = stack.pop() {
            for &d in &neighbours[c] {
                let d = d as usize;
                if colour[d] == 0 {
                    colour[d] = -colour[c];
                    stack.push(d);
                } else if colour[d] == colour[c] {
                    return None;
                }
            }
        }
    }
    Some(colour)
}

/// The sums `±d1 ± d2 ...` over the multiset of `(difference, count)`
/// pairs, as bits `BALANCE_ZERO + sum` of a word (sums outside the word are
/// dropped; the check keeps any imbalance outside it).
fn signed_sums(classes: impl Iterator<Item = (u32, u32)>) -> u128 {
    // Exact over the whole range first, then cut to the word.
    let mut reach: Vec<bool> = vec![true];
    let mut half = 0usize;
    for (d, count) in classes {
        for _ in 0..count {
            let d = d as usize;
            let mut next = vec![false; reach.len() + 2 * d];
            for (i, &r) in reach.iter().enumerate() {
                if r {
                    next[i] = true;
                    next[i + 2 * d] = true;
                }
            }
            reach = next;
            half += d;
        }
    }
    let mut word = 0u128;
    for (i, &r) in reach.iter().enumerate() {
        let bit = i as i64 - half as i64 + BALANCE_ZERO as i64;
        if r && (0..128).contains(&bit) {
            word |= 1 << bit;
        }
    }
    word
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bits of a `signed_sums` word, as sums.
    fn values(word: u128) -> Vec<i32> {
        (0..128)
            .filter(|&b| word >> b & 1 == 1)
            .map(|b| b - BALANCE_ZERO as i32)
            .collect()
    }

    #[test]
    fn signed_sums_are_every_choice_of_signs() {
        assert_eq!(values(signed_sums([].into_iter())), [0]);
        assert_eq!(values(signed_sums([(1, 2)].into_iter())), [-2, 0, 2]);
        // ±3 ± 1: never 0 or ±2.
        assert_eq!(
            values(signed_sums([(3, 1), (1, 1)].into_iter())),
            [-4, -2, 2, 4]
        );
        // Sums past the word are dropped, those inside kept.
        let wide = values(signed_sums([(1, 100)].into_iter()));
        assert_eq!((wide[0], *wide.last().unwrap()), (-64, 62));
        assert!(wide.iter().all(|v| v % 2 == 0));
    }

    #[test]
    fn two_colours_only_where_neighbours_can_differ() {
        // A path of three cells and a lone cell: alternating colours, each
        // part starting with +1.
        let path = vec![vec![1], vec![0, 2], vec![1], vec![]];
        assert_eq!(two_colours(&path), Some(vec![1, -1, 1, 1]));
        // Three cells in a ring (three hexagons meeting at a corner).
        let ring = vec![vec![1, 2], vec![0, 2], vec![0, 1]];
        assert_eq!(two_colours(&ring), None);
    }
}
