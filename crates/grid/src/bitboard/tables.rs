//! The tables prepared once per problem and shared by every thread.
//!
//! Everything the search would otherwise recompute per node is worked out
//! here once: each placement's mask and the cells where a dead region can
//! start, the candidate lists indexed by a cell and the occupancy next to
//! it (so most placements that cannot fit are never looked at), and, for
//! every multiset of remaining piece sizes that can occur, the region sizes
//! those pieces can fill (so a dead-region check is a table look-up).

use super::growth::{axes, pairs, Layout};
use super::lists::Lists;
use super::CellChoice;
use crate::bits::Bits;
use crate::problem::Problem;
use crate::symmetry::Plan;
use std::sync::Arc;

/// Largest number of remaining-size multisets for which dead-region sizes
/// are tabulated per multiset (else one table for the whole piece set).
const MAX_KEYS: usize = 1 << 15;

/// Cells after the first empty one whose occupancy indexes its candidates.
pub(super) const WINDOW: u32 = 6;

/// What the search reads about a placement, in one place.
#[derive(Clone, Copy, Debug)]
pub(super) struct Info<B> {
    pub(super) mask: B,
    /// For `First`: the cells after the placement's last cell. For the other
    /// choices: the cells next to it, where a dead region can start.
    pub(super) near: B,
    pub(super) ty: u32,
    /// How much the dead-region key drops when the placement is made.
    pub(super) dk: u32,
}

/// The tables of the bitboard engine for one problem; shared by all threads.
#[derive(Debug)]
pub struct BitTables<B: Bits> {
    pub(super) problem: Arc<Problem>,
    pub(super) plan: Arc<Plan>,
    pub(super) choice: CellChoice,
    pub(super) layout: Layout<B>,
    pub(super) full: B,
    pub(super) info: Vec<Info<B>>,
    /// For `Fewest` and `Tightest`: per bit, its neighbours' bits (the
    /// first `degree` entries).
    pub(super) nb: Vec<[u8; 6]>,
    pub(super) degree: Vec<u8>,
    /// Per bit, its first list in `lists`: a cell with k neighbours has 2^k
    /// lists, one per occupancy of its neighbours, of the placements that
    /// cover it and avoid the full ones.
    pub(super) cover_base: Vec<u32>,
    /// For `First`: list `(bit << WINDOW) + key` holds the placements
    /// anchored at the bit that avoid the full cells of the window after
    /// it. For the other choices: the cover lists.
    pub(super) lists: Lists<B>,
    /// Neighbours of each bit (for the compact layout).
    pub(super) nbr: Vec<B>,
    /// The scan position of each bit (`u32::MAX` for a bit that is no cell).
    pub(super) cell_of_bit: Vec<u32>,
    pub(super) feasible: Vec<u128>,
    pub(super) key0: u32,
    pub(super) cap: u32,
    pub(super) hi: Vec<u32>,
    /// The most children a node can have.
    pub(super) widest: usize,
    pub(super) slack: Vec<u32>,
    pub(super) any_optional: bool,
    /// Whether the processor has the bit-manipulation instructions the
    /// fast copy of the search loop is compiled for.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(super) bmi: bool,
}

impl<B: Bits> BitTables<B> {
    /// Builds the tables; `None` when the board does not fit in `B`.
    /// `cap` bounds the dead-region floods, in steps (0 switches the check
    /// off); `fast` allows the copy of the search loop that uses the
    /// processor's bit-manipulation instructions, when it has them.
    pub fn new(
        problem: Arc<Problem>,
        plan: Arc<Plan>,
        choice: CellChoice,
        cap: u32,
        fast: bool,
    ) -> Option<BitTables<B>> {
        let n = problem.cells();
        if n > B::CAPACITY {
            return None;
        }
        let extents: Vec<u32> = problem.scan_axes.iter().map(|&(_, e)| e).collect();
        let volume: u64 = extents.iter().map(|&e| e as u64).product();
        let boxed = volume <= B::CAPACITY as u64 && (1..=3).contains(&extents.len());
        let box_bits: Vec<usize> = problem.boxed.iter().map(|&b| b as usize).collect();
        let (layout, bit_of, bits): (Layout<B>, Vec<usize>, usize) = match () {
            // Steps along the axes of the box are neighbours on squares and
            // cubes.
            _ if boxed && problem.lattice().axis_neighbours() => {
                let v = volume as usize;
                let layout = match extents.len() {
                    1 => Layout::Line(axes(&extents, v)),
                    2 => Layout::Plane(axes(&extents, v)),
                    _ => Layout::Space(axes(&extents, v)),
                };
                (layout, box_bits, v)
            }
            // On triangles and hexagons they are a few fixed distances.
            _ if boxed => {
                let v = volume as usize;
                if let Some(p) = pairs(&problem.neighbours, &box_bits) {
                    (Layout::Pairs2(p), box_bits, v)
                } else if let Some(p) = pairs(&problem.neighbours, &box_bits) {
                    (Layout::Pairs3(p), box_bits, v)
                } else {
                    (Layout::Compact, (0..n).collect(), n)
                }
            }
            _ => (Layout::Compact, (0..n).collect(), n),
        };
        // The tightest-cell choice counts neighbours with shifts.
        let choice = match (&layout, choice) {
            (Layout::Compact, CellChoice::Tightest) => CellChoice::Fewest,
            (_, c) => c,
        };
        let mask_of = |cells: &[u32]| {
            cells
                .iter()
                .fold(B::ZERO, |m, &c| m | B::bit(bit_of[c as usize]))
        };
        let full = mask_of(&(0..n as u32).collect::<Vec<_>>());
        let mut nbr = vec![B::ZERO; bits];
        for (c, v) in problem.neighbours.iter().enumerate() {
            nbr[bit_of[c]] = mask_of(v);
        }

        // Dead-region sizes, per multiset of remaining piece sizes.
        let mut sizes: Vec<usize> = problem.types.iter().map(|t| t.size).collect();
        sizes.sort_unstable();
        sizes.dedup();
        let class_total: Vec<u32> = sizes
            .iter()
            .map(|&s| {
                problem
                    .types
                    .iter()
                    .filter(|t| t.size == s)
                    .map(|t| t.hi)
                    .sum()
            })
            .collect();
        let keys = class_total.iter().try_fold(1usize, |k, &h| {
            k.checked_mul(h as usize + 1).filter(|&k| k <= MAX_KEYS)
        });
        let (class_stride, feasible) = match keys {
            Some(keys) => {
                let mut stride = Vec::with_capacity(sizes.len());
                let mut s = 1u32;
                for &h in &class_total {
                    stride.push(s);
                    s *= h + 1;
                }
                let feasible = (0..keys)
                    .map(|key| {
                        let counts = class_total
                            .iter()
                            .zip(&stride)
                            .map(|(&h, &st)| (key as u32 / st) % (h + 1));
                        sums(sizes.iter().copied().zip(counts))
                    })
                    .collect();
                (stride, feasible)
            }
            None => (
                vec![0; sizes.len()],
                vec![sums(sizes.iter().copied().zip(class_total.iter().copied()))],
            ),
        };
        let key0 = class_total
            .iter()
            .zip(&class_stride)
            .map(|(&h, &s)| h * s)
            .sum();

        // What the search reads about each placement. For `First` the
        // cells after its last cell; otherwise its empty-able neighbours.
        let info: Vec<Info<B>> = problem
            .placements
            .iter()
            .map(|p| {
                let mask = mask_of(&p.cells);
                let near = match choice {
                    CellChoice::First => {
                        let last = p
                            .cells
                            .iter()
                            .map(|&c| bit_of[c as usize])
                            .max()
                            .unwrap_or(0);
                        full & !B::low(last + 1)
                    }
                    CellChoice::Fewest | CellChoice::Tightest => {
                        p.cells
                            .iter()
                            .fold(B::ZERO, |h, &c| h | nbr[bit_of[c as usize]])
                            & !mask
                    }
                };
                let ty = p.ty as usize;
                Info {
                    mask,
                    near,
                    ty: p.ty as u32,
                    dk: class_stride[sizes.binary_search(&problem.types[ty].size).unwrap_or(0)],
                }
            })
            .collect();

        // Candidate lists.
        let mut lists = Lists::default();
        let (mut nb, mut degree, mut cover_base) = (Vec::new(), Vec::new(), Vec::new());
        match choice {
            CellChoice::Fewest | CellChoice::Tightest => {
                let mut per_bit: Vec<Vec<usize>> = vec![Vec::new(); bits];
                for (i, p) in problem.placements.iter().enumerate() {
                    for &c in &p.cells {
                        per_bit[bit_of[c as usize]].push(i);
                    }
                }
                nb = vec![[u8::MAX; 6]; bits];
                degree = vec![0u8; bits];
                for (c, v) in problem.neighbours.iter().enumerate() {
                    for (j, &d) in v.iter().take(6).enumerate() {
                        nb[bit_of[c]][j] = bit_of[d as usize] as u8;
                    }
                    degree[bit_of[c]] = v.len().min(6) as u8;
                }
                for (b, list) in per_bit.iter().enumerate() {
                    cover_base.push(lists.pushed() as u32);
                    let d = degree[b] as usize;
                    for key in 0..1usize << d {
                        let full_near = (0..d)
                            .filter(|&j| key >> j & 1 == 1)
                            .fold(B::ZERO, |m, j| m | B::bit(nb[b][j] as usize));
                        lists.push(
                            list.iter()
                                .copied()
                                .filter(|&p| (info[p].mask & full_near).is_empty()),
                            &info,
                        );
                    }
                }
            }
            CellChoice::First => {
                // Placements anchored at each bit (their first cell).
                let mut anchored: Vec<Vec<usize>> = vec![Vec::new(); bits];
                for (i, p) in problem.placements.iter().enumerate() {
                    anchored[bit_of[p.cells[0] as usize]].push(i);
                }
                for (b, list) in anchored.iter().enumerate() {
                    for key in 0..1usize << WINDOW {
                        lists.push(
                            list.iter()
                                .copied()
                                .filter(|&p| info[p].mask.window(b + 1, WINDOW) & key == 0),
                            &info,
                        );
                    }
                }
            }
        }
        lists.finish(problem.types.len(), choice == CellChoice::First);

        let widest = lists.longest().max(plan.reps.len()).max(1);
        let mut cell_of_bit = vec![u32::MAX; bits];
        for (c, &b) in bit_of.iter().enumerate() {
            cell_of_bit[b] = c as u32;
        }
        Some(BitTables {
            cell_of_bit,
            widest,
            choice,
            layout,
            full,
            info,
            nb,
            degree,
            cover_base,
            lists,
            nbr,
            feasible,
            key0,
            cap,
            hi: problem.types.iter().map(|t| t.hi).collect(),
            slack: problem.types.iter().map(|t| t.hi - t.lo).collect(),
            any_optional: problem.types.iter().any(|t| t.lo < t.hi),
            bmi: fast && jigsolve_search::cpu::has_bmi(),
            problem,
            plan,
        })
    }

    /// The cell choice.
    pub fn choice(&self) -> CellChoice {
        self.choice
    }

    /// The list of the placements that cover `cell` and avoid its full
    /// neighbours.
    #[inline(always)]
    pub(super) fn cover_list(&self, cell: usize, filled: B) -> usize {
        let mut key = 0;
        for (j, &x) in self.nb[cell][..self.degree[cell] as usize]
            .iter()
            .enumerate()
        {
            key |= (filled.has(x as usize) as usize) << j;
        }
        self.cover_base[cell] as usize + key
    }
}

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
