//! The edge-matching engine.
//!
//! The shape of every fast edge-matching solver (see the field notes):
//!
//! - A fixed scan order in which each new cell has its constraining
//!   neighbours already placed. For each position the marks it must show on
//!   those sides form a key, and a precomputed table maps the key to the
//!   pre-rotated `(tile type, rotation)` entries that show exactly those marks
//!   and respect the frame (border mark out, no border mark in). Positions
//!   that constrain the same sides the same way share a table. No rotation
//!   work happens in the loop.
//! - Identical tiles are one type with a count, so the engine walks a
//!   multiset and never produces two solutions that differ only by swapping
//!   identical tiles.
//! - An iterative loop over an explicit stack of "next entry to try", with no
//!   allocation per node.
//! - Board symmetry is broken inside the search: one tile that occurs once
//!   and looks different in all four rotations (the *breaker*) may take only
//!   one rotation per orbit of the board's rotation group. Every orbit of
//!   solutions is then found exactly once and stands for |G| distinct
//!   solutions. When no such tile exists, every canonical solution is kept
//!   and weighted by its orbit size (a post-check on solutions only).
//!
//! Hints are placed first, as positions whose table holds a single entry.
//!
//! A search that only counts (its sink offers a counter) in the frame order
//! may count each complete frame's completions by meeting in the middle: the
//! inside is cut into two halves, the bottom halves are filed by the tiles
//! and seam marks a top half needs, and each top half walked adds the bottom
//! halves filed under its own (see `Solver::count_halves`). Random probes
//! decide whether that walks fewer nodes than the plain walk.

use crate::model::{MarkId, Placement, Puzzle, EAST, NORTH, SOUTH, WEST};
use crate::order::{self, ScanOrder};
use crate::symmetry::{BoardGroup, TileTypes};
use jigsolve_search::estimate::{estimate, SplitMix64};
use jigsolve_search::{
    fraction_of, NoSuchNode, NodeKind, NodeStats, Probe, Prune, Sink, Ticker, Tree, Weight,
};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::ops::ControlFlow;
use std::sync::Arc;
use std::time::Instant;

/// How to search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Cell order.
    pub order: ScanOrder,
    /// Break board symmetry inside the search (report one solution per
    /// orbit). When false every distinct solution is reported; unique counts
    /// are still computed, by checking each solution against its images.
    pub symmetry: bool,
    /// Shuffle the candidates that share a table bucket with this seed (0:
    /// keep them in tile order). Different seeds explore the same tree in a
    /// different order: the counts are the same, the time to the first
    /// solution is not.
    pub seed: u64,
    /// Run the portable copy of the inner loop even on a processor that has
    /// the bit-manipulation instructions the faster copy uses (for tests and
    /// comparisons: both must count the same).
    pub portable: bool,
    /// Count the candidates tried at each depth and those whose marks did
    /// not fit (see [`NodeStats::tried`]). Off, the inner loop is compiled
    /// without the counting, which costs it several percent.
    pub tried: bool,
    /// When the sink only counts (see [`jigsolve_search::Sink::counter`])
    /// and the frame order leaves the inside of the frame for last, count
    /// the completions of each complete frame by meeting in the middle
    /// instead of walking every one: `Some(true)` whenever the puzzle allows
    /// it, `Some(false)` never, `None` (the default) when random probes
    /// estimate that it walks fewer nodes.
    pub halves: Option<bool>,
    /// When preparing must end: the random probes that choose the order
    /// for [`ScanOrder::Auto`] and decide on counting by halves stop here
    /// and decide on what they have (a puzzle of thousands of tiles probes
    /// for seconds). The search itself is bounded by its `Control`.
    pub deadline: Option<std::time::Instant>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            order: ScanOrder::Auto,
            symmetry: true,
            seed: 0,
            portable: false,
            tried: false,
            halves: None,
            deadline: None,
        }
    }
}

/// How the engine accounts for board symmetry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymmetryMode {
    /// The puzzle has no symmetry (or the board is 1 x 1).
    None,
    /// Tile type `breaker` is restricted to one rotation per orbit.
    Breaker {
        /// The restricted tile type.
        breaker: usize,
    },
    /// Only canonical solutions are reported, weighted by their orbit size.
    PostCheck,
    /// Symmetry breaking switched off: every distinct solution is reported.
    Off,
}

#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    ty: u16,
    rot: u8,
    /// Marks shown on each side.
    shown: [MarkId; 4],
    /// For each side, the mark a neighbour on that side must show.
    req: [MarkId; 4],
}

/// A neighbour placed earlier: at `depth`, its side `side` faces our side `own`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
struct Link {
    depth: u16,
    side: u8,
    own: u8,
}

#[derive(Clone, Copy, Debug, Default)]
struct Step {
    /// Index of the table's first offset in `Prepared::offsets`.
    table: u32,
    keys: [Link; 4],
    strides: [u32; 4],
    n_keys: u8,
    checks: [Link; 4],
    n_checks: u8,
    /// A hint's position (or the pinned breaker's): one candidate only.
    forced: bool,
}

/// Everything about a puzzle that does not change during the search; shared
/// by all threads.
#[derive(Debug)]
pub struct Prepared {
    puzzle: Puzzle,
    types: TileTypes,
    order: ScanOrder,
    options: Options,
    cells: Vec<usize>,
    steps: Vec<Step>,
    entries: Vec<Entry>,
    /// The type of each entry, apart: the inner loop reads a block of them
    /// at a time (4% more placements per second than reading them from
    /// `entries`, on Owen's 6 x 6).
    entry_types: Vec<u16>,
    offsets: Vec<u32>,
    avail: Vec<u16>,
    periods: Vec<u8>,
    /// Per type: the candidates it gives a cell while it has a copy left,
    /// its distinct rotations (for the breaker, those the symmetry
    /// breaking allows).
    rotations: Vec<u32>,
    /// Per depth: the specific tile of a hint position, if it is one.
    hint_tile: Vec<Option<usize>>,
    /// Per type: its tiles that are not hinted, in list order.
    free_members: Vec<Vec<usize>>,
    group: BoardGroup,
    mode: SymmetryMode,
    pinned: Option<usize>,
    multiplier: u128,
    /// How the inside of a complete frame is cut in two for counting.
    halves: Option<Halves>,
}

/// The inside of a complete frame cut into a top and a bottom half, for
/// counting by meeting in the middle (see [`Solver`]).
#[derive(Debug)]
struct Halves {
    /// The depth at which the frame is complete: every cell from here on is
    /// inside it (and none is a hint's).
    at: usize,
    /// The first depth of the bottom half.
    mid: usize,
    /// The steps of depths `mid..`: the bottom half filled from the far end
    /// back (the main order reversed), each cell checked against the frame
    /// and the bottom cells placed before it. Below `mid`, the main steps.
    steps: Vec<Step>,
    /// The sides a top cell and a bottom cell share.
    seams: Vec<Seam>,
    /// The number of marks (the base in which the seams' marks are packed).
    marks: u64,
}

/// A side shared by the two halves: the top cell at depth `top` (main
/// order) meets with its side `top_side` the bottom cell at depth `bottom`
/// (reversed order) and its side `bottom_side`.
#[derive(Clone, Copy, Debug)]
struct Seam {
    top: u16,
    top_side: u8,
    bottom: u16,
    bottom_side: u8,
}

impl Halves {
    /// The cut of the cells left once the outer ring is placed, or `None`
    /// when there is no useful one: fewer than two such cells, more than 64
    /// (a tile mask is 64 bits), a forced one among them, or too many seams
    /// to pack their marks in 64 bits. The cut balances the halves first and
    /// shares as few sides as it can then (a row boundary on a rectangle).
    fn of(
        builder: &mut TableBuilder<'_>,
        cells: &[usize],
        depth_of: &[usize],
        steps: &[Step],
    ) -> Option<Halves> {
        let (rows, cols) = (builder.puzzle.rows, builder.puzzle.cols);
        let n = cells.len();
        let on_ring = |c: usize| {
            let (r, c) = (c / cols, c % cols);
            r == 0 || c == 0 || r + 1 == rows || c + 1 == cols
        };
        let at = cells.iter().rposition(|&c| on_ring(c)).map_or(0, |i| i + 1);
        let inside = n - at;
        if !(2..=64).contains(&inside) || steps[at..].iter().any(|s| s.forced) {
            return None;
        }
        let neighbours = |cell: usize| {
            let (r, c) = (cell / cols, cell % cols);
            [
                (r > 0).then(|| cell - cols),
                (c + 1 < cols).then(|| cell + 1),
                (r + 1 < rows).then(|| cell + cols),
                (c > 0).then(|| cell - 1),
            ]
        };
        let seams_at = |mid: usize| -> Vec<Seam> {
            let bottom_depth = |d: usize| mid + (n - 1 - d);
            let mut seams = Vec::new();
            for (top, &cell) in cells.iter().enumerate().take(mid).skip(at) {
                for (side, nc) in neighbours(cell).into_iter().enumerate() {
                    if let Some(nc) = nc.filter(|&nc| depth_of[nc] >= mid) {
                        seams.push(Seam {
                            top: top as u16,
                            top_side: side as u8,
                            bottom: bottom_depth(depth_of[nc]) as u16,
                            bottom_side: ((side + 2) % 4) as u8,
                        });
                    }
                }
            }
            seams
        };
        let mid = (at + 1..n).min_by_key(|&m| ((m - at).max(n - m), seams_at(m).len()))?;
        let seams = seams_at(mid);
        let marks = builder.puzzle.marks.len().max(1) as u64;
        marks.checked_pow(seams.len() as u32)?;
        let mut half_steps = steps[..mid].to_vec();
        for d in mid..n {
            let cell = cells[n - 1 - (d - mid)];
            // Placed before it: the ring, and the bottom cells later in the
            // main order.
            let placed_at = |nc: usize| {
                let main = depth_of[nc];
                if main < at {
                    Some(main)
                } else if main >= mid && mid + (n - 1 - main) < d {
                    Some(mid + (n - 1 - main))
                } else {
                    None
                }
            };
            half_steps.push(builder.step(cell, placed_at, None));
        }
        Some(Halves {
            at,
            mid,
            steps: half_steps,
            seams,
            marks,
        })
    }
}

/// Largest table of offsets per position kind (keys beyond it are checked in
/// the loop instead of indexed).
const MAX_TABLE: u64 = 1 << 20;
/// Placements between two polls of the control.
const POLL_EVERY: u32 = 1 << 16;

impl Prepared {
    /// Prepares `puzzle` for searching. `ScanOrder::Auto` is resolved here by
    /// estimating each order's tree with random probes.
    pub fn new(puzzle: &Puzzle, options: Options) -> Prepared {
        match options.order {
            ScanOrder::Auto => auto_order(puzzle, options),
            order => Prepared::with_order(puzzle, options, order),
        }
    }

    fn with_order(puzzle: &Puzzle, options: Options, order: ScanOrder) -> Prepared {
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
    fn steps_for(&self, bottom: bool) -> &[Step] {
        match &self.halves {
            Some(h) if bottom => &h.steps,
            _ => &self.steps,
        }
    }
}

/// What makes two positions share a table: indexed sides, frame sides, and
/// the entry a hint forces.
type TableKey = (Vec<u8>, [bool; 4], Option<(usize, u8)>);

struct TableBuilder<'a> {
    puzzle: &'a Puzzle,
    types: &'a TileTypes,
    mode: SymmetryMode,
    breaker_rots: &'a [u8],
    seed: u64,
    entries: Vec<Entry>,
    offsets: Vec<u32>,
    memo: HashMap<TableKey, u32>,
}

impl TableBuilder<'_> {
    /// The step of the position at `cell`, whose neighbours placed before
    /// it are those `placed_at` gives a depth for, forced to one entry or not.
    fn step(
        &mut self,
        cell: usize,
        placed_at: impl Fn(usize) -> Option<usize>,
        forced: Option<(usize, u8)>,
    ) -> Step {
        let (rows, cols) = (self.puzzle.rows, self.puzzle.cols);
        let k = self.puzzle.marks.len() as u64;
        let (r, c) = (cell / cols, cell % cols);
        let neighbour = |side: usize| -> Option<usize> {
            match side {
                NORTH => (r > 0).then(|| cell - cols),
                EAST => (c + 1 < cols).then(|| cell + 1),
                SOUTH => (r + 1 < rows).then(|| cell + cols),
                _ => (c > 0).then(|| cell - 1),
            }
        };
        let mut frame = [false; 4];
        let mut links = Vec::new();
        for side in [NORTH, EAST, SOUTH, WEST] {
            match neighbour(side) {
                None => frame[side] = true,
                Some(nc) => {
                    if let Some(depth) = placed_at(nc) {
                        links.push(Link {
                            depth: depth as u16,
                            side: ((side + 2) % 4) as u8,
                            own: side as u8,
                        });
                    }
                }
            }
        }
        // Index by as many known sides as keep the table small; check the rest.
        let mut n_keys = 0;
        let mut size = 1u64;
        while n_keys < links.len() && size.saturating_mul(k.max(1)) <= MAX_TABLE {
            size *= k.max(1);
            n_keys += 1;
        }
        let key_sides: Vec<u8> = links[..n_keys].iter().map(|l| l.own).collect();
        let table = self.table(&key_sides, frame, forced);
        let mut step = Step {
            table,
            n_keys: n_keys as u8,
            n_checks: (links.len() - n_keys) as u8,
            forced: forced.is_some(),
            ..Step::default()
        };
        let mut stride = 1u32;
        for (i, l) in links[..n_keys].iter().enumerate() {
            step.keys[i] = *l;
            step.strides[i] = stride;
            stride = stride.saturating_mul(k as u32);
        }
        for (i, l) in links[n_keys..].iter().enumerate() {
            step.checks[i] = *l;
        }
        step
    }

    /// The table for a position whose `key_sides` are indexed, whose `frame`
    /// sides face the board's edge, and which may be forced to one entry.
    fn table(&mut self, key_sides: &[u8], frame: [bool; 4], forced: Option<(usize, u8)>) -> u32 {
        let memo_key = (key_sides.to_vec(), frame, forced);
        if let Some(&t) = self.memo.get(&memo_key) {
            return t;
        }
        let k = self.puzzle.marks.len().max(1);
        let border = self.puzzle.border;
        let marks = &self.puzzle.marks;
        let mut candidates: Vec<(usize, Entry)> = Vec::new();
        for (ty, t) in self.types.types.iter().enumerate() {
            for rot in 0..t.period {
                if let Some(f) = forced {
                    if f != (ty, rot) {
                        continue;
                    }
                }
                if let SymmetryMode::Breaker { breaker } = self.mode {
                    if ty == breaker && !self.breaker_rots.contains(&rot) {
                        continue;
                    }
                }
                let shown = t.marks.rotated(rot);
                if !fits_frame(&shown, frame, border) {
                    continue;
                }
                let mut key = 0usize;
                let mut stride = 1usize;
                for &s in key_sides {
                    key += shown[s as usize] as usize * stride;
                    stride *= k;
                }
                let req = std::array::from_fn(|s| marks.partner(shown[s]));
                candidates.push((
                    key,
                    Entry {
                        ty: ty as u16,
                        rot,
                        shown,
                        req,
                    },
                ));
            }
        }
        let buckets = k.pow(key_sides.len() as u32);
        let base = self.offsets.len() as u32;
        let mut counts = vec![0u32; buckets + 1];
        for (key, _) in &candidates {
            counts[key + 1] += 1;
        }
        let start = self.entries.len() as u32;
        let mut acc = start;
        for c in counts.iter_mut() {
            acc += *c;
            *c = acc;
        }
        // counts[i] is now the end of bucket i-1 = start of bucket i.
        if self.seed != 0 {
            let mut rng = SplitMix64::new(self.seed ^ u64::from(base).wrapping_mul(0x9E37_79B9));
            for i in (1..candidates.len()).rev() {
                let j = rng.below(i as u32 + 1) as usize;
                candidates.swap(i, j);
            }
        }
        let mut fill: Vec<u32> = counts.clone();
        self.entries
            .resize(self.entries.len() + candidates.len(), Entry::default());
        for (key, e) in candidates {
            self.entries[fill[key] as usize] = e;
            fill[key] += 1;
        }
        self.offsets.extend_from_slice(&counts);
        self.memo.insert(memo_key, base);
        base
    }
}

/// Which sides of `cell` face the edge of the board.
fn frame_sides(cell: usize, rows: usize, cols: usize) -> [bool; 4] {
    let (r, c) = (cell / cols, cell % cols);
    [r == 0, c + 1 == cols, r + 1 == rows, c == 0]
}

/// Whether marks `shown` respect the border rule at a cell whose `frame`
/// sides face the edge: the border mark out, and nowhere else.
fn fits_frame(shown: &[MarkId; 4], frame: [bool; 4], border: Option<MarkId>) -> bool {
    (0..4).all(|s| match (border, frame[s]) {
        (Some(b), true) => shown[s] == b,
        (Some(b), false) => shown[s] != b,
        (None, _) => true,
    })
}

/// The concrete scan orders with the size of their search trees as random
/// probes estimate it (Knuth's estimator, a fixed seed), smallest first.
pub fn rank_orders(puzzle: &Puzzle, options: Options) -> Vec<(ScanOrder, f64)> {
    let mut ranked: Vec<(ScanOrder, f64)> = ScanOrder::CONCRETE
        .iter()
        .map(|&order| {
            (
                order,
                estimated_size(Prepared::with_order(puzzle, options, order)),
            )
        })
        .collect();
    ranked.sort_by(|a, b| a.1.total_cmp(&b.1));
    ranked
}

fn estimated_size(prep: Prepared) -> f64 {
    const PROBES: u64 = 256;
    probed_size(&mut Solver::new(Arc::new(prep)), PROBES, 0)
}

/// Knuth's estimate of the tree's size from `probes` random probes, with
/// the random numbers of a fixed seed moved on by `round` (so that a second
/// round of probes walks other paths than the first).
fn probed_size(solver: &mut Solver, probes: u64, round: u64) -> f64 {
    probed_size_until(solver, probes, round, None)
}

/// [`probed_size`], in batches of 16 probes, stopping after the batch in
/// which `deadline` passes (the mean of the probes walked; at least one
/// batch). The same probes in the same order as one call: the estimate is
/// the mean of the probes, and every batch draws from the one generator.
fn probed_size_until(
    solver: &mut Solver,
    probes: u64,
    round: u64,
    deadline: Option<Instant>,
) -> f64 {
    const BATCH: u64 = 16;
    let mut rng = SplitMix64::new(0x005e_ed0f_ed6e ^ round.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    // Without a deadline, one batch of every probe: the estimate as it
    // always was, from one call site (so that it inlines as it did).
    let batch = if deadline.is_some() { BATCH } else { probes };
    let (mut sum, mut walked) = (0.0, 0u64);
    loop {
        let n = batch.min(probes - walked);
        let mean = match estimate(solver, n, &mut rng) {
            Ok(est) => est.nodes.mean,
            Err(_) => return f64::INFINITY,
        };
        if walked == 0 && n == probes {
            return mean;
        }
        sum += mean * n as f64;
        walked += n;
        if walked >= probes || deadline.is_some_and(|d| Instant::now() >= d) {
            return sum / walked as f64;
        }
    }
}

/// `prep` without its halves unless random probes estimate that counting
/// by halves walks fewer nodes than the plain walk below the middle (each
/// bottom half filed and each top half looked up counted as a node more).
/// On few colours the halves are much smaller than the subtrees below the
/// middle (Eternity II clue 1); on many colours a bottom half that does not
/// see the top is larger (Owen's 6 x 6 in frame order).
fn keep_halves_if_they_pay(prep: Prepared) -> Prepared {
    const PROBES: u32 = 512;
    let prep = Arc::new(prep);
    let mut solver = Solver::new(Arc::clone(&prep));
    let (plain, halves) = solver.estimate_halves(PROBES);
    drop(solver);
    let mut prep = Arc::try_unwrap(prep).expect("the only solver is dropped");
    if halves >= plain {
        prep.halves = None;
    }
    prep
}

/// Probes per order in the first round of [`auto_order`], and at most in all.
const AUTO_PROBES: (u64, u64) = (256, 16384);

/// Picks the order whose search tree random probes estimate to be smallest.
///
/// Knuth's estimate is noisy on few colours, where the two best orders'
/// trees are often within a factor of two or three: with 256 probes each the
/// row order was picked for five of six generated 6 x 6 boards of 4 colours
/// whose frame-first trees were 1.4 to 2.8 times smaller (BENCHMARKS.md,
/// issue 15). So while the two best estimates are within a factor of 16
/// and the probes walked (probes times cells) are still small against the
/// best tree (under 1/256 of it), the two are probed again with 3 times as
/// many probes as they had (16,384 each at most), each new round averaged
/// in by its weight. The first round is [`rank_orders`]'s (the same seed),
/// so a clear choice is the same as there.
fn auto_order(puzzle: &Puzzle, options: Options) -> Prepared {
    let (first, most) = AUTO_PROBES;
    let past = || options.deadline.is_some_and(|d| Instant::now() >= d);
    let mut ranked: Vec<(ScanOrder, f64, Solver)> = Vec::new();
    for order in ScanOrder::CONCRETE {
        // Past the deadline the orders probed so far decide (the first is
        // always prepared: the search needs one).
        if !ranked.is_empty() && past() {
            break;
        }
        let mut solver = Solver::new(Arc::new(Prepared::with_order(puzzle, options, order)));
        let size = probed_size_until(&mut solver, first, 0, options.deadline);
        ranked.push((order, size, solver));
    }
    let cells = (puzzle.rows * puzzle.cols) as f64;
    let mut probes = first;
    loop {
        ranked.sort_by(|a, b| a.1.total_cmp(&b.1));
        if ranked.len() < 2 || past() {
            break;
        }
        let (best, second) = (ranked[0].1, ranked[1].1);
        let walked = probes as f64 * cells;
        if second >= 16.0 * best || probes >= most || walked * 256.0 > best {
            break;
        }
        for (_, size, solver) in &mut ranked[..2] {
            let more = probed_size_until(solver, 3 * probes, probes, options.deadline);
            *size = (*size + 3.0 * more) / 4.0;
        }
        probes *= 4;
    }
    let (_, _, solver) = ranked.swap_remove(0);
    drop(ranked);
    let mut prep = Arc::try_unwrap(solver.prep).expect("the probing solver held the only copy");
    prep.options = options;
    prep
}

/// What the inner loop walks: the subtree under the node at depth `base`,
/// down to depth `stop` (a "leaf" when its tile at depth `stop - 1` is
/// placed), with the steps of the main order or of the bottom half's.
#[derive(Clone, Copy)]
struct Walk {
    base: usize,
    stop: usize,
    bottom: bool,
}

/// Why the inner loop returned.
enum Stop {
    /// The tile of depth `stop - 1` is placed: a complete assembly, or a
    /// partial one where the walk ends.
    Leaf,
    /// The placement budget between polls is spent.
    Budget,
    /// The subtree is exhausted.
    Exhausted,
}

#[derive(Clone, Copy, Debug, Default)]
struct Frame {
    /// One past the entry last placed (or the next to look at, for
    /// `next_valid`).
    cur: u32,
    end: u32,
    start: u32,
    /// For the inner loop: the first entry of the block of up to 64 that
    /// `fits` describes, the fitting entries of that block not yet tried (a
    /// bit each), and the first entry after the block.
    block: u32,
    fits: u64,
    next: u32,
    /// Rotations of the tile types with a copy left at this node.
    left: u32,
    /// The candidates tried at this node: `left`, or one at a forced position.
    tried: u32,
    /// The children counted at the next depth when the node was opened.
    kids_before: u64,
}

/// A search over one prepared puzzle; one per thread.
#[derive(Debug)]
pub struct Solver {
    prep: Arc<Prepared>,
    avail: Vec<u16>,
    chosen: Vec<u32>,
    frames: Vec<Frame>,
    counts: Vec<u64>,
    /// Per depth: the candidates tried at its nodes (counted when a node
    /// opens) and of them those whose marks did not fit (counted when it
    /// closes).
    tried: Vec<[u64; 2]>,
    /// Complete assemblies rejected as symmetric copies since the last
    /// flush (counted per leaf, outside the inner loop).
    duplicates: u64,
    placements: Vec<Placement>,
    scratch: Vec<(usize, u8)>,
    next_copy: Vec<usize>,
    /// Whether the inner loop may use the bit-manipulation instructions.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    bmi: bool,
    /// Per type, for the complete frame being counted by halves: the first
    /// and one past the last bit of its copies left in a tile mask.
    copy_bits: Vec<(u8, u8)>,
    /// The bottom halves of the frame being counted, by the top half that
    /// completes each (its tile mask and the marks it must show the
    /// bottom half), with how many there are.
    bottoms: HashMap<u128, u64, BuildHasherDefault<KeyHasher>>,
}

/// Hashes the keys of [`Solver::bottoms`]: tile masks and packed marks, whose
/// bits are far from random, mixed by multiplying.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_u128(&mut self, key: u128) {
        let x = (key as u64) ^ ((key >> 64) as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
        self.0 = (x ^ (x >> 29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }

    fn finish(&self) -> u64 {
        self.0 ^ (self.0 >> 32)
    }
}

impl Solver {
    /// A solver for a prepared puzzle.
    pub fn new(prep: Arc<Prepared>) -> Solver {
        let n = prep.cells.len();
        Solver {
            avail: prep.avail.clone(),
            chosen: vec![0; n],
            frames: vec![Frame::default(); n],
            counts: vec![0; n + 1],
            tried: vec![[0; 2]; n + 1],
            duplicates: 0,
            placements: vec![
                Placement {
                    tile: 0,
                    rotation: 0
                };
                n
            ],
            scratch: vec![(0, 0); n],
            next_copy: vec![0; prep.types.types.len()],
            bmi: !prep.options.portable && jigsolve_search::cpu::has_bmi(),
            copy_bits: vec![(0, 0); prep.types.types.len()],
            bottoms: HashMap::default(),
            prep,
        }
    }

    /// The prepared puzzle.
    pub fn prepared(&self) -> &Arc<Prepared> {
        &self.prep
    }

    fn reset(&mut self) {
        self.avail.copy_from_slice(&self.prep.avail);
    }

    /// Sets up the candidate range of depth `d` from the neighbours placed.
    #[inline(always)]
    fn open(&mut self, d: usize) {
        self.open_in(d, false);
    }

    /// [`open`](Solver::open) with the steps of the bottom half's order when
    /// `bottom` is set.
    #[inline(always)]
    fn open_in(&mut self, d: usize, bottom: bool) {
        let prep = &*self.prep;
        let step = &prep.steps_for(bottom)[d];
        let mut key = 0u32;
        for i in 0..step.n_keys as usize {
            let l = step.keys[i];
            let e = &prep.entries[self.chosen[l.depth as usize] as usize];
            key += e.req[l.side as usize] as u32 * step.strides[i];
        }
        let at = (step.table + key) as usize;
        let (lo, hi) = (prep.offsets[at], prep.offsets[at + 1]);
        let left = self.rotations_left();
        self.frames[d] = Frame {
            cur: lo,
            end: hi,
            start: lo,
            block: lo,
            fits: 0,
            next: lo,
            left,
            tried: if step.forced { 1 } else { left },
            kids_before: self.counts.get(d + 1).copied().unwrap_or(0),
        };
    }

    /// The rotations of the tile types with a copy left: the candidates
    /// a cell that is not forced tries.
    fn rotations_left(&self) -> u32 {
        let prep = &*self.prep;
        self.avail
            .iter()
            .zip(&prep.rotations)
            .filter(|(&a, _)| a > 0)
            .map(|(_, &r)| r)
            .sum()
    }

    /// The next entry at depth `d` whose tile is available and whose
    /// unindexed sides fit, advancing the cursor past it.
    #[inline(always)]
    fn next_valid(&mut self, d: usize) -> Option<u32> {
        self.next_valid_in(d, false)
    }

    /// [`next_valid`](Solver::next_valid) with the steps of the bottom
    /// half's order when `bottom` is set.
    #[inline(always)]
    fn next_valid_in(&mut self, d: usize, bottom: bool) -> Option<u32> {
        let prep = &*self.prep;
        let step = &prep.steps_for(bottom)[d];
        let frame = &mut self.frames[d];
        while frame.cur < frame.end {
            let i = frame.cur;
            frame.cur += 1;
            let e = &prep.entries[i as usize];
            if self.avail[e.ty as usize] == 0 {
                continue;
            }
            let mut ok = true;
            for c in &step.checks[..step.n_checks as usize] {
                let other = &prep.entries[self.chosen[c.depth as usize] as usize];
                if e.shown[c.own as usize] != other.req[c.side as usize] {
                    ok = false;
                    break;
                }
            }
            if ok {
                return Some(i);
            }
        }
        None
    }

    #[inline(always)]
    fn place(&mut self, d: usize, entry: u32) {
        self.chosen[d] = entry;
        let ty = self.prep.entries[entry as usize].ty as usize;
        self.avail[ty] -= 1;
    }

    #[inline(always)]
    fn unplace(&mut self, d: usize) {
        let ty = self.prep.entries[self.chosen[d] as usize].ty as usize;
        self.avail[ty] += 1;
    }

    /// Replays `path` from the root, leaving its tiles placed.
    fn descend(&mut self, path: &[u32]) -> Result<(), NoSuchNode> {
        self.reset();
        let n = self.prep.cells.len();
        let missing = || NoSuchNode {
            path: path.to_vec(),
        };
        if path.len() > n {
            return Err(missing());
        }
        for (d, &k) in path.iter().enumerate() {
            self.open(d);
            let mut seen = 0;
            let pick = loop {
                match self.next_valid(d) {
                    Some(e) if seen == k => break Some(e),
                    Some(_) => seen += 1,
                    None => break None,
                }
            };
            match pick {
                Some(e) => self.place(d, e),
                None => return Err(missing()),
            }
        }
        Ok(())
    }

    /// The weight of the complete assembly now placed, and whether it is
    /// reported at all (post-check rejects non-canonical members).
    fn leaf_weight(&mut self) -> Weight {
        let prep = &*self.prep;
        let g = prep.group.order() as u128;
        let m = prep.multiplier;
        match prep.mode {
            SymmetryMode::None => Weight {
                raw: m,
                distinct: 1,
                unique: 1,
            },
            SymmetryMode::Breaker { .. } => Weight {
                raw: m.saturating_mul(g),
                distinct: g,
                unique: 1,
            },
            SymmetryMode::PostCheck | SymmetryMode::Off => {
                for (d, &cell) in prep.cells.iter().enumerate() {
                    let e = &prep.entries[self.chosen[d] as usize];
                    self.scratch[cell] = (e.ty as usize, e.rot);
                }
                let (canonical, fixed) = prep.group.canonical(&self.scratch, &prep.periods);
                if prep.mode == SymmetryMode::Off {
                    Weight {
                        raw: m,
                        distinct: 1,
                        unique: canonical as u128,
                    }
                } else if canonical {
                    let distinct = g / fixed.max(1) as u128;
                    Weight {
                        raw: m.saturating_mul(distinct),
                        distinct,
                        unique: 1,
                    }
                } else {
                    Weight::default()
                }
            }
        }
    }

    /// Writes the placed assembly into `self.placements` (row-major), giving
    /// hinted tiles their cells and other copies of a type in scan order.
    fn fill_placements(&mut self) {
        let prep = &*self.prep;
        self.next_copy.iter_mut().for_each(|x| *x = 0);
        for (d, &cell) in prep.cells.iter().enumerate() {
            let e = &prep.entries[self.chosen[d] as usize];
            let ty = e.ty as usize;
            let tile = match prep.hint_tile[d] {
                Some(t) => t,
                None => {
                    let members = &prep.free_members[ty];
                    let t = members[self.next_copy[ty]];
                    self.next_copy[ty] += 1;
                    t
                }
            };
            let period = prep.periods[ty];
            let rotation = (e.rot + period - prep.types.offset[tile]) % period;
            self.placements[cell] = Placement {
                tile: tile as u16,
                rotation,
            };
        }
    }

    fn report(&mut self, sink: &mut dyn Sink<[Placement]>) -> ControlFlow<()> {
        let w = self.leaf_weight();
        if w.is_zero() {
            self.duplicates += 1;
            return ControlFlow::Continue(());
        }
        self.fill_placements();
        sink.solution(&self.placements, w)
    }

    fn position(&self, base: usize, depth: usize) -> f64 {
        fraction_of(
            (base..=depth.min(self.frames.len().saturating_sub(1))).map(|d| {
                let f = self.frames[d];
                (
                    f.cur.saturating_sub(f.start).saturating_sub(1),
                    f.end - f.start,
                )
            }),
        )
    }

    /// Knuth's estimate, from `probes` random walks, of the nodes below the
    /// middle of the plain walk and of the work counting by halves adds in
    /// their place: the bottom halves' nodes, one more per bottom half
    /// filed and one per top half looked up.
    fn estimate_halves(&mut self, probes: u32) -> (f64, f64) {
        let prep = Arc::clone(&self.prep);
        let Some(h) = prep.halves.as_ref() else {
            return (0.0, 0.0);
        };
        let n = prep.cells.len();
        let mut rng = SplitMix64::new(0x0068_a1f5_5eed);
        let (mut plain, mut halves) = (0.0f64, 0.0f64);
        let mut options = Vec::new();
        let pick = |options: &[u32], rng: &mut SplitMix64| {
            options[rng.below(options.len() as u32) as usize]
        };
        for _ in 0..probes {
            self.reset();
            let mut weight = 1.0f64;
            for d in 0..n {
                if d == h.at {
                    // A random bottom half of this frame.
                    let mut w = weight;
                    let mut placed = 0;
                    for b in h.mid..n {
                        self.open_in(b, true);
                        options.clear();
                        while let Some(e) = self.next_valid_in(b, true) {
                            options.push(e);
                        }
                        if options.is_empty() {
                            break;
                        }
                        w *= options.len() as f64;
                        halves += w;
                        let e = pick(&options, &mut rng);
                        self.place(b, e);
                        placed += 1;
                    }
                    if placed == n - h.mid {
                        halves += w;
                    }
                    for b in h.mid..h.mid + placed {
                        self.unplace(b);
                    }
                }
                if d == h.mid {
                    halves += weight;
                }
                self.open(d);
                options.clear();
                while let Some(e) = self.next_valid(d) {
                    options.push(e);
                }
                if options.is_empty() {
                    break;
                }
                weight *= options.len() as f64;
                if d >= h.mid {
                    plain += weight;
                }
                let e = pick(&options, &mut rng);
                self.place(d, e);
            }
        }
        (plain / f64::from(probes), halves / f64::from(probes))
    }

    /// The search loop below `base` (the tiles of depths < base are placed).
    ///
    /// When the sink only counts and the puzzle has [`Halves`], the walk
    /// stops at each complete frame and counts its completions by halves
    /// ([`count_halves`](Solver::count_halves)); a subtree whose root is
    /// already inside the frame is walked to its leaves.
    fn run(
        &mut self,
        base: usize,
        sink: &mut dyn Sink<[Placement]>,
        ticker: &mut Ticker<'_>,
    ) -> ControlFlow<()> {
        let n = self.prep.cells.len();
        self.counts[base] += 1;
        if base == n {
            return self.report(sink);
        }
        let frame_done = match self.prep.halves() {
            Some((at, _)) if base <= at && sink.counter().is_some() => Some(at),
            _ => None,
        };
        if frame_done == Some(base) {
            return self.count_halves(base, sink, ticker);
        }
        let stop = frame_done.unwrap_or(n);
        let walk = Walk {
            base,
            stop,
            bottom: false,
        };
        let mut d = base;
        self.open(d);
        if self.prep.options.tried {
            self.tried[d][0] += u64::from(self.frames[d].tried);
        }
        loop {
            let (why, placed) = self.advance(walk, &mut d, POLL_EVERY);
            match why {
                Stop::Leaf if stop < n => {
                    if ticker.poll(placed, || self.position(base, d)).is_break() {
                        return ControlFlow::Break(());
                    }
                    if self.count_halves(base, sink, ticker).is_break() {
                        return ControlFlow::Break(());
                    }
                    self.unplace(d);
                }
                Stop::Leaf => {
                    if self.report(sink).is_break() {
                        let _ = ticker.poll(placed, || 0.0);
                        return ControlFlow::Break(());
                    }
                    self.unplace(d);
                    if ticker.poll(placed, || self.position(base, d)).is_break() {
                        return ControlFlow::Break(());
                    }
                }
                Stop::Budget => {
                    if ticker.poll(placed, || self.position(base, d)).is_break() {
                        return ControlFlow::Break(());
                    }
                }
                Stop::Exhausted => {
                    let _ = ticker.poll(placed, || 1.0);
                    return ControlFlow::Continue(());
                }
            }
        }
    }

    /// Counts the completions of the complete frame now placed (the tiles
    /// of depths below [`Halves::at`]) by meeting in the middle, and reports
    /// them to the sink's counter in one call.
    ///
    /// The inside is cut in two. The bottom half is filled first on its own,
    /// from the far end back, against the frame only; each way to fill it is
    /// filed under what a top half must be to complete it: the tiles left
    /// for the top (the frame's leftovers less the bottom's, a bit per copy)
    /// and the marks the top must show on the seam. Then the top half is
    /// walked as the main search would, and each way to fill it adds the
    /// bottoms filed under its own tiles and seam marks. Every completion is
    /// one top and one bottom that agree on both, so the sum is the number
    /// of completions, each of the one weight every solution has when the
    /// symmetry is broken by a breaker tile or the board has none.
    ///
    /// The nodes counted are those walked: the top half's at their depths
    /// in the search tree, the bottom half's at the number of tiles on the
    /// board. The frame node itself is counted by the caller.
    fn count_halves(
        &mut self,
        base: usize,
        sink: &mut dyn Sink<[Placement]>,
        ticker: &mut Ticker<'_>,
    ) -> ControlFlow<()> {
        let prep = Arc::clone(&self.prep);
        let h = prep
            .halves
            .as_ref()
            .expect("run checks that there are halves");
        let (at, mid, n) = (h.at, h.mid, prep.cells.len());
        let mut next = 0u8;
        for (bits, &left) in self.copy_bits.iter_mut().zip(&self.avail) {
            *bits = (next, next + left as u8);
            next += left as u8;
        }
        let all = if next >= 64 {
            u64::MAX
        } else {
            (1u64 << next) - 1
        };
        let position = if base < at {
            self.position(base, at - 1)
        } else {
            0.0
        };
        let tried = prep.options.tried;
        let mut pending = 0u64;

        self.bottoms.clear();
        let walk = Walk {
            base: mid,
            stop: n,
            bottom: true,
        };
        self.open_in(mid, true);
        if tried {
            self.tried[mid][0] += u64::from(self.frames[mid].tried);
        }
        let mut d = mid;
        loop {
            let (why, placed) = self.advance(walk, &mut d, POLL_EVERY);
            pending += placed;
            if pending >= u64::from(POLL_EVERY)
                && ticker
                    .poll(std::mem::take(&mut pending), || position)
                    .is_break()
            {
                return ControlFlow::Break(());
            }
            match why {
                Stop::Leaf => {
                    let key = self.bottom_key(h, all);
                    *self.bottoms.entry(key).or_insert(0) += 1;
                    self.unplace(d);
                }
                Stop::Budget => {}
                Stop::Exhausted => break,
            }
        }
        // The bottom half's nodes and tries, moved to the number of tiles
        // on the board (the slots below `mid` hold nothing else here).
        for j in 0..n - mid {
            let nodes = std::mem::take(&mut self.counts[mid + 1 + j]);
            self.counts[at + 1 + j] += nodes;
            if tried {
                let [t, r] = std::mem::take(&mut self.tried[mid + j]);
                self.tried[at + j][0] += t;
                self.tried[at + j][1] += r;
            }
        }

        let walk = Walk {
            base: at,
            stop: mid,
            bottom: false,
        };
        self.open(at);
        if tried {
            self.tried[at][0] += u64::from(self.frames[at].tried);
        }
        let mut d = at;
        let mut total = 0u64;
        loop {
            let (why, placed) = self.advance(walk, &mut d, POLL_EVERY);
            pending += placed;
            if pending >= u64::from(POLL_EVERY)
                && ticker
                    .poll(std::mem::take(&mut pending), || position)
                    .is_break()
            {
                return ControlFlow::Break(());
            }
            match why {
                Stop::Leaf => {
                    if !self.bottoms.is_empty() {
                        let key = self.top_key(h);
                        total += self.bottoms.get(&key).copied().unwrap_or(0);
                    }
                    self.unplace(d);
                }
                Stop::Budget => {}
                Stop::Exhausted => break,
            }
        }
        if ticker.poll(pending, || position).is_break() {
            return ControlFlow::Break(());
        }
        let each = self.leaf_weight();
        match sink.counter() {
            Some(counter) if total > 0 => counter.add(total, each),
            // `run` counts by halves only for a sink with a counter.
            _ => ControlFlow::Continue(()),
        }
    }

    /// The key of the top half now placed (depths `at..mid`): its tiles, a
    /// bit per copy taken from the low end of its type's bits, and the marks
    /// the bottom half must show it on the seams.
    #[inline]
    fn top_key(&self, h: &Halves) -> u128 {
        let entries = &self.prep.entries;
        let mut mask = 0u64;
        for &chosen in &self.chosen[h.at..h.mid] {
            let mut bit = self.copy_bits[entries[chosen as usize].ty as usize].0;
            while mask & (1 << bit) != 0 {
                bit += 1;
            }
            mask |= 1 << bit;
        }
        let mut marks = 0u64;
        for seam in &h.seams {
            let e = &entries[self.chosen[seam.top as usize] as usize];
            marks = marks * h.marks + u64::from(e.req[seam.top_side as usize]);
        }
        (u128::from(mask) << 64) | u128::from(marks)
    }

    /// The key of the top half that completes the bottom half now placed
    /// (depths `mid..` in its reversed order): the copies it leaves (its own
    /// taken from the high end of each type's bits, so that what is left is
    /// the low end, as [`top_key`](Solver::top_key) takes them) and the
    /// marks it shows on the seams.
    #[inline]
    fn bottom_key(&self, h: &Halves, all: u64) -> u128 {
        let entries = &self.prep.entries;
        let mut mask = 0u64;
        for &chosen in &self.chosen[h.mid..] {
            let mut bit = self.copy_bits[entries[chosen as usize].ty as usize].1 - 1;
            while mask & (1 << bit) != 0 {
                bit -= 1;
            }
            mask |= 1 << bit;
        }
        let mut marks = 0u64;
        for seam in &h.seams {
            let e = &entries[self.chosen[seam.bottom as usize] as usize];
            marks = marks * h.marks + u64::from(e.shown[seam.bottom_side as usize]);
        }
        (u128::from(all ^ mask) << 64) | u128::from(marks)
    }

    /// The inner loop: places and backtracks until a complete assembly is
    /// placed (its last tile at depth `*d`), `budget` placements are made, or
    /// the subtree under `base` is exhausted. Works on local slices so that
    /// the state of the current depth stays in registers.
    ///
    /// The entries of a table bucket are tested a block of up to 64 at a
    /// time, without branches: a bit per entry whose tile has a copy left and
    /// whose unindexed sides fit. The fitting entries are then taken lowest
    /// bit first. Whether a tile is still free is the least predictable test
    /// of the search; as a branch per entry it was mispredicted often enough
    /// to cost more than testing every entry of the block.
    ///
    /// Compiled twice, portable and for processors with the
    /// bit-manipulation instructions (see [`jigsolve_search::cpu`]; 2 to 3%
    /// more placements per second on Owen's 6 x 6), chosen when it runs.
    ///
    /// Each copy comes with and without the counting of what is tried
    /// ([`Options::tried`]), so that a search that does not report it pays
    /// nothing for it.
    fn advance(&mut self, walk: Walk, d: &mut usize, budget: u32) -> (Stop, u64) {
        let tried = self.prep.options.tried;
        #[cfg(target_arch = "x86_64")]
        if self.bmi {
            // SAFETY: `bmi` is true only when the processor has the features
            // `advance_bmi` is compiled for (detected in `new`).
            return unsafe {
                if tried {
                    self.advance_bmi::<true>(walk, d, budget)
                } else {
                    self.advance_bmi::<false>(walk, d, budget)
                }
            };
        }
        if tried {
            self.advance_portable::<true>(walk, d, budget)
        } else {
            self.advance_portable::<false>(walk, d, budget)
        }
    }

    #[inline(never)]
    fn advance_portable<const TRIED: bool>(
        &mut self,
        walk: Walk,
        d: &mut usize,
        budget: u32,
    ) -> (Stop, u64) {
        self.advance_loop::<TRIED>(walk, d, budget)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi1,bmi2,popcnt,lzcnt")]
    #[inline(never)]
    unsafe fn advance_bmi<const TRIED: bool>(
        &mut self,
        walk: Walk,
        d: &mut usize,
        budget: u32,
    ) -> (Stop, u64) {
        self.advance_loop::<TRIED>(walk, d, budget)
    }

    #[inline(always)]
    fn advance_loop<const TRIED: bool>(
        &mut self,
        walk: Walk,
        d: &mut usize,
        budget: u32,
    ) -> (Stop, u64) {
        let Walk { base, stop, bottom } = walk;
        let Solver {
            prep,
            avail,
            chosen,
            frames,
            counts,
            tried,
            ..
        } = self;
        let prep = &**prep;
        let (entries, offsets) = (&prep.entries[..], &prep.offsets[..]);
        let steps = prep.steps_for(bottom);
        let rotations = &prep.rotations[..];
        let mut depth = *d;
        let mut placed: u32 = 0;
        let Frame {
            mut block,
            mut fits,
            mut next,
            mut end,
            mut left,
            ..
        } = frames[depth];
        // What a node closing now tried and how many of those did not fit:
        // its candidates less the children it had.
        let close = |depth: usize, frames: &[Frame], counts: &[u64], tried: &mut [[u64; 2]]| {
            let f = &frames[depth];
            let kids = counts[depth + 1] - f.kids_before;
            tried[depth][1] += u64::from(f.tried) - kids;
        };
        loop {
            if fits == 0 {
                if next < end {
                    // Test the next block of the bucket.
                    block = next;
                    next = end.min(block + 64);
                    let step = &steps[depth];
                    if step.n_checks == 0 {
                        let types = &prep.entry_types[block as usize..next as usize];
                        for (k, &ty) in types.iter().enumerate() {
                            fits |= ((avail[ty as usize] != 0) as u64) << k;
                        }
                    } else {
                        let checks = &step.checks[..step.n_checks as usize];
                        let mut want = [(0usize, 0 as MarkId); 4];
                        for (w, c) in want.iter_mut().zip(checks) {
                            let other = &entries[chosen[c.depth as usize] as usize];
                            *w = (c.own as usize, other.req[c.side as usize]);
                        }
                        let want = &want[..checks.len()];
                        let block_entries = &entries[block as usize..next as usize];
                        for (k, e) in block_entries.iter().enumerate() {
                            let mut ok = avail[e.ty as usize] != 0;
                            for &(own, mark) in want {
                                ok &= e.shown[own] == mark;
                            }
                            fits |= (ok as u64) << k;
                        }
                    }
                    let f = &mut frames[depth];
                    (f.block, f.next) = (block, next);
                    continue;
                }
                // Every entry at this depth is tried: back up one level.
                if TRIED {
                    close(depth, frames, counts, tried);
                }
                if depth == base {
                    *d = depth;
                    return (Stop::Exhausted, placed as u64);
                }
                depth -= 1;
                let ty = entries[chosen[depth] as usize].ty as usize;
                avail[ty] += 1;
                Frame {
                    block,
                    fits,
                    next,
                    end,
                    ..
                } = frames[depth];
                if TRIED {
                    left = frames[depth].left;
                }
                continue;
            }
            // Place the lowest fitting entry.
            let index = block + fits.trailing_zeros();
            fits &= fits - 1;
            let ty = entries[index as usize].ty as usize;
            let f = &mut frames[depth];
            (f.cur, f.fits) = (index + 1, fits);
            chosen[depth] = index;
            avail[ty] -= 1;
            counts[depth + 1] += 1;
            placed += 1;
            if depth + 1 == stop {
                *d = depth;
                return (Stop::Leaf, placed as u64);
            }
            depth += 1;
            let step = &steps[depth];
            let mut tries = 0;
            if TRIED {
                // The child's candidates: one type fewer when this was its
                // last copy.
                left -= if avail[ty] == 0 { rotations[ty] } else { 0 };
                tries = if step.forced { 1 } else { left };
                tried[depth][0] += u64::from(tries);
            }
            let mut key = step.table;
            for i in 0..step.n_keys as usize {
                let l = step.keys[i];
                let e = &entries[chosen[l.depth as usize] as usize];
                key += e.req[l.side as usize] as u32 * step.strides[i];
            }
            let lo = offsets[key as usize];
            end = offsets[key as usize + 1];
            (block, fits, next) = (lo, 0, lo);
            let f = &mut frames[depth];
            (f.cur, f.end, f.start, f.block, f.fits, f.next) = (lo, end, lo, block, fits, next);
            if TRIED {
                (f.left, f.tried, f.kids_before) = (left, tries, counts[depth + 1]);
            }
            if placed == budget {
                *d = depth;
                return (Stop::Budget, placed as u64);
            }
        }
    }

    fn flush(&mut self, stats: &mut NodeStats) {
        stats.add_profile(0, &self.counts);
        self.counts.iter_mut().for_each(|c| *c = 0);
        for (d, [tried, refused]) in self.tried.iter_mut().enumerate() {
            stats.add_tried(d, std::mem::take(tried));
            stats.add_rejected(Prune::Mark, d, std::mem::take(refused));
        }
        let leaves = self.prep.cells.len();
        stats.add_pruned(
            Prune::Symmetry,
            leaves,
            std::mem::take(&mut self.duplicates),
        );
    }
}

impl Tree for Solver {
    type Solution = [Placement];

    fn node(&mut self, path: &[u32]) -> Result<NodeKind, NoSuchNode> {
        self.node_counted(path, &mut NodeStats::new())
    }

    /// What the node at `path` is, counting the candidates tried there.
    fn node_counted(
        &mut self,
        path: &[u32],
        stats: &mut NodeStats,
    ) -> Result<NodeKind, NoSuchNode> {
        self.descend(path)?;
        let d = path.len();
        if d == self.prep.cells.len() {
            return Ok(NodeKind::Solution(self.leaf_weight()));
        }
        self.open(d);
        let mut children = 0;
        while self.next_valid(d).is_some() {
            children += 1;
        }
        if self.prep.options.tried {
            let tried = self.frames[d].tried;
            stats.add_tried(d, u64::from(tried));
            stats.add_rejected(Prune::Mark, d, u64::from(tried - children));
        }
        Ok(if children == 0 {
            NodeKind::DeadEnd
        } else {
            NodeKind::Inner(children)
        })
    }

    fn explore(
        &mut self,
        path: &[u32],
        sink: &mut dyn Sink<[Placement]>,
        ticker: &mut Ticker<'_>,
        stats: &mut NodeStats,
    ) -> Result<ControlFlow<()>, NoSuchNode> {
        self.descend(path)?;
        let flow = self.run(path.len(), sink, ticker);
        self.flush(stats);
        Ok(flow)
    }

    fn probe(&mut self, pick: &mut dyn FnMut(u32) -> u32) -> Result<Probe, NoSuchNode> {
        self.reset();
        let n = self.prep.cells.len();
        let mut degrees = Vec::new();
        let mut options = Vec::new();
        for d in 0..n {
            self.open(d);
            options.clear();
            while let Some(e) = self.next_valid(d) {
                options.push(e);
            }
            if options.is_empty() {
                return Ok(Probe {
                    degrees,
                    leaf: NodeKind::DeadEnd,
                });
            }
            degrees.push(options.len() as u32);
            let k = pick(options.len() as u32) as usize;
            self.place(d, options[k.min(options.len() - 1)]);
        }
        Ok(Probe {
            degrees,
            leaf: NodeKind::Solution(self.leaf_weight()),
        })
    }
}
