//! What is prepared once per puzzle and shared by every thread: the tile
//! types, the symmetry mode and its breaker (pinned to one cell and placed
//! first when its allowed rotations leave it one), the cells in the order
//! they are filled (hints first), a step per cell over the shared tables,
//! and the cut for counting by halves when probes say that it pays.

use super::halves::{keep_halves_if_they_pay, Halves};
use super::orders::auto_order;
use super::tables::{fits_frame, frame_sides, Entry, Step, TableBuilder};
use super::{Options, SymmetryMode};
use crate::model::Puzzle;
use crate::order::{self, ScanOrder};
use crate::symmetry::{BoardGroup, TileTypes};
use jigsolve_search::clock::Instant;
use std::collections::HashMap;

/// Everything about a puzzle that does not change during the search; shared
/// by all threads.
#[derive(Debug)]
pub struct Prepared {
    puzzle: Puzzle,
    pub(super) types: TileTypes,
    order: ScanOrder,
    pub(super) options: Options,
    pub(super) cells: Vec<usize>,
    steps: Vec<Step>,
    pub(super) entries: Vec<Entry>,
    /// The type of each entry, apart: the inner loop reads a block of them
    /// at a time (4% more placements per second than reading them from
    /// `entries`, on Owen's 6 x 6).
    pub(super) entry_types: Vec<u16>,
    pub(super) offsets: Vec<u32>,
    pub(super) avail: Vec<u16>,
    pub(super) periods: Vec<u8>,
    /// Per type: the candidates it gives a cell while it has a copy left,
    /// its distinct rotations (for the breaker, those the symmetry
    /// breaking allows).
    pub(super) rotations: Vec<u32>,
    /// Per depth: the specific tile of a hint position, if it is one.
    pub(super) hint_tile: Vec<Option<usize>>,
    /// Per type: its tiles that are not hinted, in list order.
    pub(super) free_members: Vec<Vec<usize>>,
    pub(super) group: BoardGroup,
    pub(super) mode: SymmetryMode,
    pinned: Option<usize>,
    pub(super) multiplier: u128,
    /// How the inside of a complete frame is cut in two for counting.
    pub(super) halves: Option<Halves>,
}

impl Prepared {
    /// Prepares `puzzle` for searching. `ScanOrder::Auto` is resolved here by
    /// estimating each order's tree with random probes.
    pub fn new(puzzle: &Puzzle, options: Options) -> Prepared {
        match options.order {
            ScanOrder::Auto => auto_order(puzzle, options),
            order => Prepared::with_order(puzzle, options, order),
        }
    }

    pub(super) fn with_order(puzzle: &Puzzle, options: Options, order: ScanOrder) -> Prepared {
        let types = TileTypes::of(puzzle);
        let periods: Vec<u8> = types.types.iter().map(|t| t.period).collect();
        let full_group = BoardGroup::of(puzzle, &types);
        let hinted: Vec<usize> = puzzle.hints.iter().map(|h| h.tile).collect();

        let mode = if full_group.order() == 1 {
            SymmetryMode::None
        } else if !options.symmetry {
            SymmetryMode::Off
        } else {
            // A tile that occurs once, looks different in every rotation and
            // is not hinted. Prefer a corner tile when there is a border:
            // fixing its rotation pins it to one corner.
            let border = puzzle.border;
            let candidates: Vec<usize> = (0..types.types.len())
                .filter(|&t| {
                    let ty = &types.types[t];
                    ty.members.len() == 1 && ty.period == 4 && !hinted.contains(&ty.members[0])
                })
                .collect();
            let border_sides = |t: usize| {
                border.map_or(0, |b| {
                    types.types[t]
                        .marks
                        .sides
                        .iter()
                        .filter(|&&m| m == b)
                        .count()
                })
            };
            match candidates
                .iter()
                .copied()
                .max_by_key(|&t| (border_sides(t), usize::MAX - t))
            {
                Some(breaker) => SymmetryMode::Breaker { breaker },
                None => SymmetryMode::PostCheck,
            }
        };

        // One rotation per orbit for the breaker: the group adds its turns to
        // the breaker's rotation, so any `step` consecutive rotations (step =
        // the smallest non-zero turn) hold one member of each orbit. Choose
        // the window that pins the breaker to a single cell if one does (a
        // corner tile on a bordered square board), and then place it there
        // first, like a hint: the other corners are never tried there.
        let (rows, cols) = (puzzle.rows, puzzle.cols);
        let scan = order::cells(order, rows, cols);
        let mut breaker_rots: Vec<u8> = Vec::new();
        let mut forced_breaker: Option<(usize, u8)> = None;
        if let SymmetryMode::Breaker { breaker } = mode {
            let step = full_group
                .turns
                .iter()
                .copied()
                .filter(|&q| q > 0)
                .min()
                .unwrap_or(4);
            let marks = types.types[breaker].marks;
            let mut best: Option<(usize, u8)> = None; // (scan position, window start)
            for start in 0..4u8 {
                let window: Vec<u8> = (0..step).map(|i| (start + i) % 4).collect();
                let cells_fitting: Vec<usize> = (0..rows * cols)
                    .filter(|&cell| {
                        let frame = frame_sides(cell, rows, cols);
                        window
                            .iter()
                            .any(|&r| fits_frame(&marks.rotated(r), frame, puzzle.border))
                    })
                    .collect();
                if let [only] = cells_fitting[..] {
                    let at = scan.iter().position(|&c| c == only).unwrap_or(usize::MAX);
                    if best.is_none_or(|(b, _)| at < b) {
                        best = Some((at, start));
                    }
                }
            }
            let start = best.map_or(0, |(_, s)| s);
            breaker_rots = (0..step).map(|i| (start + i) % 4).collect();
            if let Some((at, _)) = best {
                let cell = scan[at];
                let frame = frame_sides(cell, rows, cols);
                let rot = breaker_rots
                    .iter()
                    .copied()
                    .find(|&r| fits_frame(&marks.rotated(r), frame, puzzle.border))
                    .expect("the window fits this cell");
                forced_breaker = Some((cell, rot));
            }
        }

        // Hints first (and the pinned breaker), then the other cells in scan order.
        let mut cells: Vec<usize> = puzzle.hints.iter().map(|h| h.row * cols + h.col).collect();
        let mut hint_tile: Vec<Option<usize>> = puzzle.hints.iter().map(|h| Some(h.tile)).collect();
        let mut forced: Vec<Option<(usize, u8)>> = puzzle
            .hints
            .iter()
            .map(|h| {
                Some((
                    types.type_of[h.tile],
                    types.visible_rotation(h.tile, h.rotation),
                ))
            })
            .collect();
        if let (Some((cell, rot)), SymmetryMode::Breaker { breaker }) = (forced_breaker, mode) {
            cells.push(cell);
            hint_tile.push(None);
            forced.push(Some((breaker, rot)));
        }
        for c in scan {
            if !cells.contains(&c) {
                cells.push(c);
                hint_tile.push(None);
                forced.push(None);
            }
        }
        let mut depth_of = vec![usize::MAX; rows * cols];
        for (d, &c) in cells.iter().enumerate() {
            depth_of[c] = d;
        }

        let mut builder = TableBuilder {
            puzzle,
            types: &types,
            mode,
            breaker_rots: &breaker_rots,
            seed: options.seed,
            entries: Vec::new(),
            offsets: Vec::new(),
            memo: HashMap::new(),
        };
        let mut steps = Vec::with_capacity(cells.len());
        for (d, &cell) in cells.iter().enumerate() {
            let placed_at = |nc: usize| (depth_of[nc] < d).then_some(depth_of[nc]);
            steps.push(builder.step(cell, placed_at, forced[d]));
        }
        let halves = match mode {
            SymmetryMode::None | SymmetryMode::Breaker { .. } if order == ScanOrder::Frame => {
                Halves::of(&mut builder, &cells, &depth_of, &steps)
            }
            _ => None,
        };
        let (entries, offsets) = (builder.entries, builder.offsets);
        let entry_types = entries.iter().map(|e| e.ty).collect();

        // Hinted copies are consumed by their hint positions like any other.
        let avail: Vec<u16> = types.types.iter().map(|t| t.members.len() as u16).collect();
        let free_members = types
            .types
            .iter()
            .map(|t| {
                t.members
                    .iter()
                    .copied()
                    .filter(|m| !hinted.contains(m))
                    .collect()
            })
            .collect();
        let multiplier = types.raw_multiplier(&hinted);
        let rotations = periods
            .iter()
            .enumerate()
            .map(|(ty, &p)| match mode {
                SymmetryMode::Breaker { breaker } if ty == breaker => breaker_rots.len() as u32,
                _ => u32::from(p),
            })
            .collect();
        let prep = Prepared {
            puzzle: puzzle.clone(),
            types,
            order,
            options,
            cells,
            steps,
            entries,
            entry_types,
            offsets,
            avail,
            periods,
            rotations,
            hint_tile,
            free_members,
            group: full_group,
            mode,
            pinned: forced_breaker.map(|(cell, _)| cell),
            multiplier,
            halves,
        };
        // Past the deadline the search stops at once: no probes to decide.
        let past = options.deadline.is_some_and(|d| Instant::now() >= d);
        if prep.halves.is_some() && options.halves.is_none() && !past {
            keep_halves_if_they_pay(prep)
        } else {
            prep
        }
    }

    /// The puzzle.
    pub fn puzzle(&self) -> &Puzzle {
        &self.puzzle
    }

    /// The scan order used (never `Auto`).
    pub fn order(&self) -> ScanOrder {
        self.order
    }

    /// The options the puzzle was prepared with.
    pub fn options(&self) -> Options {
        self.options
    }

    /// How symmetry is handled.
    pub fn symmetry_mode(&self) -> SymmetryMode {
        self.mode
    }

    /// The cell the symmetry breaker is pinned to, when its allowed
    /// rotations leave it one cell (a corner tile on a bordered square board).
    pub fn pinned_breaker(&self) -> Option<usize> {
        self.pinned
    }

    /// The board's symmetry group (rotations that keep shape and hints).
    pub fn group(&self) -> &BoardGroup {
        &self.group
    }

    /// The tile types.
    pub fn types(&self) -> &TileTypes {
        &self.types
    }

    /// Raw solutions per distinct solution.
    pub fn raw_multiplier(&self) -> u128 {
        self.multiplier
    }

    /// Cells in the order they are filled (hints first).
    pub fn cells(&self) -> &[usize] {
        &self.cells
    }

    /// Number of table entries (pre-rotated candidates) over all tables.
    pub fn table_entries(&self) -> usize {
        self.entries.len()
    }

    /// Where a count by halves cuts the search: the depth at which the frame
    /// is complete and the first depth of the bottom half (`None` when this
    /// order and symmetry mode do not allow one, or [`Options::halves`] is off).
    pub fn halves(&self) -> Option<(usize, usize)> {
        self.halves
            .as_ref()
            .filter(|_| self.options.halves != Some(false))
            .map(|h| (h.at, h.mid))
    }

    /// The steps of the main order, or those of the bottom half's.
    #[inline(always)]
    pub(super) fn steps_for(&self, bottom: bool) -> &[Step] {
        match &self.halves {
            Some(h) if bottom => &h.steps,
            _ => &self.steps,
        }
    }
}
