//! A puzzle turned into an exact-cover problem: piece types, placements,
//! the scan order of the cells, and the board's symmetries.
//!
//! Both engines start from this, so they search the same problem and can be
//! checked against each other:
//!
//! - **Piece types.** Pieces that are the same shape under their moves (the
//!   same set of orientations, colours included) are one type with a
//!   multiplicity range `lo..=hi`: `lo` copies must be used, at most `hi`
//!   may be. Engines draw from this multiset, so two solutions that differ
//!   only by swapping identical copies are one *distinct* solution.
//! - **Placements.** Every orientation of every type at every position where
//!   all its cells lie on the board and every coloured cell meets a board
//!   cell of its colour. Colours act as a filter here and nowhere else.
//! - **Scan order.** Cells are numbered so that the shortest side of the
//!   board's bounding box varies fastest. Engines that fill the first empty
//!   cell then sweep the board along its short side, which keeps the frontier
//!   short, and a board gives the same search in any orientation (3 x 20 and
//!   20 x 3 are the same problem to the engines).
//! - **Symmetries.** The motions of the lattice that map the board onto itself
//!   with its colours, each with the relabelling of piece types it induces. A
//!   motion counts only when every type maps onto a type with the same
//!   multiplicity: for two-sided pieces every board symmetry does; for
//!   one-sided pieces the mirrors count only when the piece set is closed
//!   under mirroring (the Soma cube: pieces A and B are mirror images), and
//!   then a mirror swaps the mirrored types.
//! - **Pins.** A pinned copy ([`crate::Pin`]) is forced by the placements
//!   alone: the only placement kept that covers a pinned cell is the pin
//!   itself, so the pinned cells can only be filled by it (and a type whose
//!   copies are all pinned keeps only its pins). The engines need to know
//!   nothing else; the board, the scan order and the solutions stay those
//!   of the whole puzzle. A pinned copy of an optional piece is used, so it
//!   counts as mandatory in the type's `lo`. A motion is a symmetry only
//!   when it maps each pin onto a pin of the same piece (or, for a mirror
//!   that swaps mirror-image one-sided pieces, of the swapped piece), so
//!   the placements kept are the same after it. Copies stay identical for
//!   the distinct count; the raw count tells them apart with the pins
//!   holding copies of their own piece ([`PieceType::labellings`]).

use crate::lattice::{bounding_box, Cell, Lattice};
use crate::model::{Puzzle, Site, Warning};
use std::collections::HashMap;

/// Pieces that are the same shape, searched as one multiset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceType {
    /// The listed pieces of this shape (indices into the puzzle's pieces).
    pub members: Vec<usize>,
    /// The copies of this shape as solution instances: mandatory copies first,
    /// then optional ones, each in file order.
    pub instances: Vec<u16>,
    /// Copies that must be used.
    pub lo: u32,
    /// Copies that may be used.
    pub hi: u32,
    /// Cells of one copy.
    pub size: usize,
    /// Its distinct orientations (normal form), sorted.
    pub orientations: Vec<Vec<Site>>,
    /// How many of its copies are pinned (their instances come first in
    /// `instances`, in pin order).
    pub pinned: u32,
    /// The ways to give the pinned placements copies of their own pieces:
    /// for each member piece with r pins and c copies, c!/(c-r)!. 1 without
    /// pins.
    pub pin_ways: u128,
    /// Cells left open (one open piece of the puzzle, [`crate::Piece::open`]):
    /// its placements lie on its cells only, and its copies are never told
    /// apart (an open cell is not a piece).
    pub open: bool,
}

impl PieceType {
    /// The ways to tell apart the copies when `k` of them are used: choose
    /// which optional copies are used, then assign labels to the `k`:
    /// C(hi - lo, k - lo) * k!. For a mandatory piece (`k = lo = hi = m`) it is m!.
    ///
    /// With `p` pins the pinned placements first take copies of their own
    /// pieces (`pin_ways`), and the other `k - p` placements share out the
    /// `hi - p` copies left, of which `lo - p` must be used (pinned copies
    /// of optional pieces are counted in `lo`): for a type of one piece
    /// this is the same k! as without pins.
    pub fn labellings(&self, k: u32) -> u128 {
        if k < self.lo || k > self.hi {
            return 0;
        }
        if self.open {
            return 1;
        }
        let p = self.pinned;
        let (lo, hi, k) = (self.lo - p, self.hi - p, k - p);
        let mut r: u128 = self.pin_ways;
        // C(hi - lo, k - lo)
        let (n, c) = ((hi - lo) as u128, (k - lo) as u128);
        for i in 0..c {
            r = r.saturating_mul(n - i) / (i + 1);
        }
        for i in 1..=k as u128 {
            r = r.saturating_mul(i);
        }
        r
    }
}

/// One way to put one copy of a type on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    /// The piece type.
    pub ty: u16,
    /// The cells covered, as scan positions, ascending.
    pub cells: Vec<u32>,
}

/// A motion that maps the puzzle onto itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symmetry {
    /// The lattice motion (an index into its point group).
    pub motion: usize,
    /// Where each cell goes (scan position to scan position).
    pub cells: Vec<u32>,
    /// Which type each type becomes (the identity except for mirrors of
    /// one-sided piece sets that are closed under mirroring).
    pub types: Vec<u16>,
}

impl Symmetry {
    /// Whether this symmetry relabels some piece type.
    pub fn relabels(&self) -> bool {
        self.types.iter().enumerate().any(|(t, &u)| t != u as usize)
    }
}

/// The exact-cover problem of a puzzle.
#[derive(Clone, Debug)]
pub struct Problem {
    /// The puzzle.
    pub puzzle: Puzzle,
    /// Scan position to board index (into `puzzle.board`).
    pub order: Vec<usize>,
    /// Board index to scan position.
    pub rank: Vec<u32>,
    /// For each scan position, the scan positions of its neighbours on the board.
    pub neighbours: Vec<Vec<u32>>,
    /// The piece types.
    pub types: Vec<PieceType>,
    /// For each listed piece, its type.
    pub type_of: Vec<usize>,
    /// Every placement, grouped by type.
    pub placements: Vec<Placement>,
    /// The placements of each type: `placements[by_type[t].clone()]`.
    pub by_type: Vec<std::ops::Range<usize>>,
    /// The board's symmetries (the identity first).
    pub group: Vec<Symmetry>,
    /// Suspicious things found on the way.
    pub warnings: Vec<Warning>,
    /// The placement of each pin of the puzzle (an index into
    /// `placements`, in the order of [`Puzzle::pins`]); `None` for a pin
    /// that is not a placement (a puzzle built without
    /// [`Puzzle::with_pins`]: nothing then covers its cells, so there is no
    /// solution).
    pub pin_placements: Vec<Option<usize>>,
    /// The board's bounding box in scan terms: the axes from fastest to
    /// slowest varying, and each one's extent; with `boxed[i]` the position
    /// of scan position `i` in that box (`Σ coordinate·stride`).
    pub scan_axes: Vec<(usize, u32)>,
    /// For each scan position, its index in the bounding box.
    pub boxed: Vec<u64>,
}

impl Problem {
    /// Builds the problem of `puzzle`, with the scan laid out on the
    /// board's [`scan_turn`]: however the board is written, the engines
    /// meet its cells in the same order.
    pub fn new(puzzle: &Puzzle) -> Problem {
        Problem::turned(puzzle, scan_turn(puzzle))
    }

    /// Builds the problem of `puzzle` with the scan laid out on its board
    /// turned by lattice motion `turn`: the placements, symmetries and
    /// solutions are the puzzle's own, only the order in which the engines
    /// meet the cells (and the box the bitboard lays them out in) follow
    /// the turned coordinates.
    pub fn turned(puzzle: &Puzzle, turn: usize) -> Problem {
        let lattice = puzzle.lattice;
        let n = puzzle.board.len();
        let (lo, hi) = bounds(puzzle.board.iter().map(|s| s.0));
        let seen: Vec<Cell> = puzzle
            .board
            .iter()
            .map(|s| lattice.apply(turn, s.0))
            .collect();

        // Scan order: sort by coordinates, most significant first, where the
        // axes are taken from the longest extent to the shortest.
        let (slo, shi) = bounds(seen.iter().copied());
        let extent: Vec<i32> = (0..3).map(|k| shi[k] - slo[k] + 1).collect();
        let mut axes = [0usize, 1, 2];
        // Stable: ties keep z, y, x significance (row-major for squares).
        axes.sort_by_key(|&k| (std::cmp::Reverse(extent[k]), std::cmp::Reverse(k)));
        let key = |c: Cell| [c[axes[0]], c[axes[1]], c[axes[2]]];
        // Fastest first, skipping axes the board does not extend along.
        let scan_axes: Vec<(usize, u32)> = axes
            .iter()
            .rev()
            .filter(|&&k| extent[k] > 1)
            .map(|&k| (k, extent[k] as u32))
            .collect();
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&i| key(seen[i]));
        let mut rank = vec![0u32; n];
        for (pos, &i) in order.iter().enumerate() {
            rank[i] = pos as u32;
        }
        let lookup = Sites::new(puzzle, &rank, lo, hi);
        let neighbours = order
            .iter()
            .map(|&i| {
                let mut v: Vec<u32> = lattice
                    .neighbours(puzzle.board[i].0)
                    .filter_map(|c| lookup.get(c).map(|(r, _)| r))
                    .collect();
                v.sort_unstable();
                v
            })
            .collect();

        // Types.
        let mut types: Vec<PieceType> = Vec::new();
        let mut type_of = Vec::with_capacity(puzzle.pieces.len());
        let mut instance_start = Vec::with_capacity(puzzle.pieces.len());
        let mut next = 0u32;
        for p in &puzzle.pieces {
            instance_start.push(next);
            next += p.copies;
        }
        for (i, p) in puzzle.pieces.iter().enumerate() {
            let o = p.orientations(lattice);
            // Each open piece is a type of its own: it lies on its cells
            // only, and a real piece of one cell is not an open cell.
            let same = |t: &PieceType| t.orientations == o && !t.open && p.open.is_none();
            let t = match types.iter().position(same) {
                Some(t) => t,
                None => {
                    types.push(PieceType {
                        members: Vec::new(),
                        instances: Vec::new(),
                        lo: 0,
                        hi: 0,
                        size: p.size(),
                        orientations: o,
                        pinned: 0,
                        pin_ways: 1,
                        open: p.open.is_some(),
                    });
                    types.len() - 1
                }
            };
            let ty = &mut types[t];
            ty.members.push(i);
            ty.hi += p.copies;
            ty.lo += p.fewest();
            type_of.push(t);
        }
        // Pinned copies: the first copies of their pieces, in pin order.
        let mut pins_of_piece = vec![0u32; puzzle.pieces.len()];
        for pin in &puzzle.pins {
            let Some(ty) = type_of.get(pin.piece).map(|&t| &mut types[t]) else {
                continue;
            };
            let m = pin.piece;
            let p = &puzzle.pieces[m];
            if pins_of_piece[m] >= p.copies {
                continue;
            }
            ty.instances
                .push((instance_start[m] + pins_of_piece[m]) as u16);
            ty.pin_ways = ty
                .pin_ways
                .saturating_mul((p.copies - pins_of_piece[m]) as u128);
            pins_of_piece[m] += 1;
            ty.pinned += 1;
            // A pinned copy is used: it counts towards the least unless
            // the least copies were all counted already.
            if p.optional && pins_of_piece[m] > p.least.min(p.copies) {
                ty.lo += 1;
            }
        }
        for ty in &mut types {
            for optional in [false, true] {
                for &m in &ty.members {
                    let p = &puzzle.pieces[m];
                    if p.optional == optional {
                        ty.instances.extend(
                            (pins_of_piece[m]..p.copies).map(|k| (instance_start[m] + k) as u16),
                        );
                    }
                }
            }
        }

        // Placements.
        let mut placements = Vec::new();
        let mut by_type = Vec::with_capacity(types.len());
        for (t, ty) in types.iter().enumerate() {
            let start = placements.len();
            let only: Option<std::collections::HashSet<Cell>> = ty
                .members
                .first()
                .and_then(|&m| puzzle.pieces[m].open.as_ref())
                .map(|cells| cells.iter().copied().collect());
            for o in &ty.orientations {
                let first = o[0].0;
                for &(b, _) in &puzzle.board {
                    if only.as_ref().is_some_and(|only| !only.contains(&b)) {
                        continue;
                    }
                    let shift = [b[0] - first[0], b[1] - first[1], b[2] - first[2]];
                    if !lattice.is_translation(shift) {
                        continue;
                    }
                    let mut cells = Vec::with_capacity(o.len());
                    let fits = o.iter().all(|&(c, k)| {
                        let at = [c[0] + shift[0], c[1] + shift[1], c[2] + shift[2]];
                        match lookup.get(at) {
                            Some((rank, bk)) if k.is_none() || bk.is_none() || k == bk => {
                                cells.push(rank);
                                true
                            }
                            _ => false,
                        }
                    });
                    if fits {
                        cells.sort_unstable();
                        placements.push(Placement {
                            ty: t as u16,
                            cells,
                        });
                    }
                }
            }
            // Orientations are distinct, so placements are too; sort them
            // by their cells so that the order does not depend on the file.
            placements[start..].sort_by(|a, b| a.cells.cmp(&b.cells));
            by_type.push(start..placements.len());
        }

        // Warnings are about the file's pieces and board, before pins take
        // placements away.
        let mut warnings = puzzle.congruences();
        for (t, r) in by_type.iter().enumerate() {
            if r.is_empty() {
                warnings.push(Warning::FitsNowhere {
                    pieces: types[t].members.clone(),
                });
            }
        }

        let pins: Vec<(usize, Vec<u32>)> = puzzle
            .pins
            .iter()
            .map(|pin| {
                // Checked pins lie on the board; the cells of one that does
                // not (built without checks) are blocked all the same.
                let mut cells: Vec<u32> = pin
                    .cells
                    .iter()
                    .filter_map(|&c| lookup.get(c).map(|(r, _)| r))
                    .collect();
                cells.sort_unstable();
                (pin.piece, cells)
            })
            .collect();
        let mut pin_placements = vec![None; puzzle.pins.len()];
        if !puzzle.pins.is_empty() {
            (placements, by_type) = keep_pins(
                puzzle,
                &types,
                &type_of,
                &pins,
                placements,
                &by_type,
                &mut pin_placements,
            );
        }

        let mut group = symmetries(puzzle, &types, &lookup, lo);
        if !pins.is_empty() {
            group.retain(|s| keeps_pins(s, &type_of, &pins));
        }
        let boxed = order
            .iter()
            .map(|&i| {
                let c = seen[i];
                let mut at = 0u64;
                let mut stride = 1u64;
                for &(k, e) in &scan_axes {
                    at += (c[k] - slo[k]) as u64 * stride;
                    stride *= e as u64;
                }
                at
            })
            .collect();

        Problem {
            puzzle: puzzle.clone(),
            order,
            rank,
            neighbours,
            types,
            type_of,
            placements,
            by_type,
            group,
            warnings,
            pin_placements,
            scan_axes,
            boxed,
        }
    }

    /// Writes the solution made of the placements `chosen` as the copy
    /// covering each board cell (`out`, in the order of the puzzle's
    /// board). Copies of a type are handed out in the order of
    /// `instances`, except that a pinned placement takes its pin's copy;
    /// `next` (one entry per type) is scratch space.
    pub fn fill_solution(&self, chosen: &[usize], next: &mut [usize], out: &mut [u16]) {
        next.iter_mut().for_each(|x| *x = 0);
        for &p in chosen {
            let pl = &self.placements[p];
            let ty = &self.types[pl.ty as usize];
            let slot = match self.pinned_slot(p, ty) {
                Some(s) => s,
                None => {
                    let n = &mut next[pl.ty as usize];
                    *n += 1;
                    ty.pinned as usize + *n - 1
                }
            };
            let inst = ty.instances[slot];
            for &c in &pl.cells {
                out[self.order[c as usize]] = inst;
            }
        }
    }

    /// The slot in its type's instances of a pinned placement: the pin's
    /// rank among the type's pins.
    fn pinned_slot(&self, p: usize, ty: &PieceType) -> Option<usize> {
        if ty.pinned == 0 {
            return None;
        }
        let ty_index = self.placements[p].ty as usize;
        self.pin_placements
            .iter()
            .enumerate()
            .filter(|&(i, _)| self.type_of[self.puzzle.pins[i].piece] == ty_index)
            .position(|(_, &q)| q == Some(p))
    }

    /// Number of cells.
    pub fn cells(&self) -> usize {
        self.order.len()
    }

    /// Raw solutions per distinct solution that uses `used[t]` copies of
    /// each type t: the product of the types' labellings.
    pub fn labellings(&self, used: impl Iterator<Item = u32>) -> u128 {
        self.types
            .iter()
            .zip(used)
            .fold(1u128, |acc, (t, k)| acc.saturating_mul(t.labellings(k)))
    }

    /// Whether some symmetry relabels piece types (a mirror-closed one-sided set).
    pub fn mirror_closed(&self) -> bool {
        self.group.iter().any(Symmetry::relabels)
    }

    /// The lattice.
    pub fn lattice(&self) -> Lattice {
        self.puzzle.lattice
    }
}

/// The placements left once pins are forced: a placement that covers a
/// pinned cell is kept only when it is a pin of its type, and a type whose
/// copies are all pinned keeps only its pins (its other placements could
/// never be used). Records each pin's placement in `pin_placements`.
fn keep_pins(
    puzzle: &Puzzle,
    types: &[PieceType],
    type_of: &[usize],
    pins: &[(usize, Vec<u32>)],
    placements: Vec<Placement>,
    by_type: &[std::ops::Range<usize>],
    pin_placements: &mut [Option<usize>],
) -> (Vec<Placement>, Vec<std::ops::Range<usize>>) {
    let cells = puzzle.board.len();
    let mut pinned = vec![false; cells];
    for (_, c) in pins {
        for &x in c {
            pinned[x as usize] = true;
        }
    }
    let mut kept = Vec::with_capacity(placements.len());
    let mut ranges = Vec::with_capacity(by_type.len());
    let mut placements = placements.into_iter();
    for (t, r) in by_type.iter().enumerate() {
        let start = kept.len();
        let full = types[t].pinned == types[t].hi;
        for pl in placements.by_ref().take(r.len()) {
            let pin = pins
                .iter()
                .position(|(piece, c)| type_of[*piece] == t && *c == pl.cells);
            match pin {
                Some(_) => {
                    // Pins of one type have different cells (they do not
                    // overlap), so this is the only pin with these cells.
                    for (i, (piece, c)) in pins.iter().enumerate() {
                        if type_of[*piece] == t && *c == pl.cells {
                            pin_placements[i] = Some(kept.len());
                        }
                    }
                    kept.push(pl);
                }
                None if full || pl.cells.iter().any(|&c| pinned[c as usize]) => {}
                None => kept.push(pl),
            }
        }
        ranges.push(start..kept.len());
    }
    (kept, ranges)
}

/// Whether symmetry `s` maps every pin onto a pin of the same piece (of a
/// piece of the image type when `s` swaps types): only then does it map
/// the solutions of the pinned puzzle onto themselves.
fn keeps_pins(s: &Symmetry, type_of: &[usize], pins: &[(usize, Vec<u32>)]) -> bool {
    let mut image = Vec::new();
    pins.iter().all(|(piece, cells)| {
        image.clear();
        image.extend(cells.iter().map(|&c| s.cells[c as usize]));
        image.sort_unstable();
        let t = type_of[*piece];
        let u = s.types[t] as usize;
        pins.iter()
            .any(|(q, c)| *c == image && if u == t { q == piece } else { type_of[*q] == u })
    })
}

/// The board's cells by position: each one's scan position and colour.
/// Building placements looks up every cell of every orientation at every
/// board cell, so the common case, a bounding box not much bigger than the
/// board, is an array over the box; a board spread thinly over a huge box
/// (possible with coordinate lists) falls back to a hash map.
struct Sites {
    lo: Cell,
    extent: [i64; 3],
    dense: Vec<Option<(u32, Option<u8>)>>,
    sparse: HashMap<Cell, (u32, Option<u8>)>,
}

impl Sites {
    fn new(puzzle: &Puzzle, rank: &[u32], lo: Cell, hi: Cell) -> Sites {
        let extent: [i64; 3] = std::array::from_fn(|k| (hi[k] as i64 - lo[k] as i64 + 1).max(0));
        let volume = extent.iter().product::<i64>();
        let cells = puzzle
            .board
            .iter()
            .enumerate()
            .map(|(i, s)| (s.0, (rank[i], s.1)));
        let mut sites = Sites {
            lo,
            extent,
            dense: Vec::new(),
            sparse: HashMap::new(),
        };
        if volume <= 64 * puzzle.board.len() as i64 + 4096 {
            sites.dense = vec![None; volume as usize];
            for (c, v) in cells {
                let at = sites
                    .slot(c)
                    .expect("a board cell lies in its bounding box");
                sites.dense[at] = Some(v);
            }
        } else {
            sites.sparse = cells.collect();
        }
        sites
    }

    /// The index of `c` in the dense array, if it lies in the box.
    fn slot(&self, c: Cell) -> Option<usize> {
        let mut at = 0i64;
        for k in (0..3).rev() {
            let x = c[k] as i64 - self.lo[k] as i64;
            if x < 0 || x >= self.extent[k] {
                return None;
            }
            at = at * self.extent[k] + x;
        }
        Some(at as usize)
    }

    /// The scan position and colour of the board cell at `c`.
    fn get(&self, c: Cell) -> Option<(u32, Option<u8>)> {
        if self.dense.is_empty() {
            self.sparse.get(&c).copied()
        } else {
            self.dense[self.slot(c)?]
        }
    }
}

/// The motion of the lattice that the scan is laid out on: the one that
/// puts the board in the smallest bounding box and, among those, the first
/// of the turned boards (cells with their colours, moved to the origin and
/// sorted row by row) in lexicographic order.
///
/// The box decides what the engines can do: a board that fills its box
/// lets the first-empty-cell choice sweep a straight frontier, and a box
/// of at most 128 cells lets the bitboard grow regions by shifts. Written
/// turned by a sixth of a full turn, the 6 x 6 rhombus of hexiamonds sits
/// in a 6 x 12 box of 144 triangles: counted in that box it took 214,415
/// nodes, in its own 6 x 6 box 22,394. Among the turns with the smallest
/// box the engines' trees differed little on the catalog boards measured
/// (within 10%: A-Puzzle-A-Day 687 K to 757 K nodes, Atwood's checkerboard
/// 11.3 K to 12.2 K), so the rest of the key only makes the choice the
/// same for every way of writing the board: the turned boards of two
/// writings are the same set, and so is their first.
pub fn scan_turn(puzzle: &Puzzle) -> usize {
    let lattice = puzzle.lattice;
    let turned = |m: usize| {
        let moved: Vec<Site> = puzzle
            .board
            .iter()
            .map(|s| (lattice.apply(m, s.0), s.1))
            .collect();
        let (lo, hi) = bounds(moved.iter().map(|s| s.0));
        let volume: u64 = (0..3).map(|k| (hi[k] - lo[k] + 1) as u64).product();
        // Triangles keep their orientation coordinate. Rows first (the
        // last coordinate most significant), so that a board written as
        // rows, the way people draw it, is its own first turn.
        let dims = if lattice == Lattice::Triangle { 2 } else { 3 };
        let mut sites: Vec<([i32; 3], Option<u8>)> = moved
            .iter()
            .map(|&(mut c, k)| {
                for d in 0..dims {
                    c[d] -= lo[d];
                }
                ([c[2], c[1], c[0]], k)
            })
            .collect();
        sites.sort_unstable();
        (volume, sites)
    };
    let mut best = (0, turned(0));
    for m in 1..lattice.motions() {
        let t = turned(m);
        if t < best.1 {
            best = (m, t);
        }
    }
    best.0
}

/// The bounding box of a board (never empty: the model refuses an empty
/// board).
fn bounds(cells: impl Iterator<Item = Cell>) -> (Cell, Cell) {
    bounding_box(cells).unwrap_or(([0; 3], [0; 3]))
}

/// The motions that map board and colours onto themselves and the piece
/// types onto types of the same multiplicity.
fn symmetries(puzzle: &Puzzle, types: &[PieceType], lookup: &Sites, lo: Cell) -> Vec<Symmetry> {
    let lattice = puzzle.lattice;
    let mut group = Vec::new();
    'motion: for m in 0..lattice.motions() {
        let moved: Vec<Cell> = puzzle.board.iter().map(|s| lattice.apply(m, s.0)).collect();
        let (mlo, _) = bounds(moved.iter().copied());
        let shift = [lo[0] - mlo[0], lo[1] - mlo[1], lo[2] - mlo[2]];
        if !lattice.is_translation(shift) {
            continue 'motion;
        }
        let mut cells = vec![0u32; puzzle.board.len()];
        for (s, c) in puzzle.board.iter().zip(&moved) {
            let at = [c[0] + shift[0], c[1] + shift[1], c[2] + shift[2]];
            match (lookup.get(s.0), lookup.get(at)) {
                (Some((from, _)), Some((to, k))) if k == s.1 => cells[from as usize] = to,
                _ => continue 'motion,
            }
        }
        // Labelled cells keep their names, and open cells their groups:
        // a motion that moves a date elsewhere is no symmetry of the
        // calendar.
        let label = |c: Cell| {
            puzzle
                .labels
                .binary_search_by(|(k, _)| k.cmp(&c))
                .ok()
                .map(|i| &puzzle.labels[i].1)
        };
        for (s, c) in puzzle.board.iter().zip(&moved) {
            let at = [c[0] + shift[0], c[1] + shift[1], c[2] + shift[2]];
            if label(s.0) != label(at) {
                continue 'motion;
            }
        }
        for ty in types.iter().filter(|ty| ty.open) {
            let Some(cells) = ty
                .members
                .first()
                .and_then(|&m| puzzle.pieces[m].open.as_ref())
            else {
                continue;
            };
            let set: std::collections::HashSet<Cell> = cells.iter().copied().collect();
            let keeps = cells.iter().all(|&c| {
                let d = lattice.apply(m, c);
                set.contains(&[d[0] + shift[0], d[1] + shift[1], d[2] + shift[2]])
            });
            if !keeps {
                continue 'motion;
            }
        }
        let mut image = vec![u16::MAX; types.len()];
        let mut taken = vec![false; types.len()];
        for (t, ty) in types.iter().enumerate() {
            if ty.open {
                taken[t] = true;
                image[t] = t as u16;
                continue;
            }
            let mut set: Vec<Vec<Site>> = ty
                .orientations
                .iter()
                .map(|o| {
                    let mut v: Vec<Site> =
                        o.iter().map(|&(c, k)| (lattice.apply(m, c), k)).collect();
                    lattice.normalize(&mut v);
                    v
                })
                .collect();
            set.sort();
            let found = types.iter().enumerate().position(|(u, tu)| {
                !taken[u] && !tu.open && tu.lo == ty.lo && tu.hi == ty.hi && tu.orientations == set
            });
            match found {
                Some(u) => {
                    taken[u] = true;
                    image[t] = u as u16;
                }
                None => continue 'motion,
            }
        }
        group.push(Symmetry {
            motion: m,
            cells,
            types: image,
        });
    }
    group
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Piece, Sides};

    fn rect(w: i32, h: i32) -> Vec<Site> {
        (0..w)
            .flat_map(|x| (0..h).map(move |y| ([x, y, 0], None)))
            .collect()
    }

    fn piece(name: &str, cells: &[(i32, i32)], sides: Sides) -> Piece {
        Piece {
            name: name.into(),
            shape: cells.iter().map(|&(x, y)| ([x, y, 0], None)).collect(),
            copies: 1,
            optional: false,
            least: 0,
            open: None,
            sides,
        }
    }

    #[test]
    fn labellings_count_ways_to_tell_copies_apart() {
        let t = |lo, hi| PieceType {
            members: vec![],
            instances: vec![],
            lo,
            hi,
            size: 1,
            orientations: vec![],
            pinned: 0,
            pin_ways: 1,
            open: false,
        };
        assert_eq!(t(2, 2).labellings(2), 2);
        assert_eq!(t(3, 3).labellings(3), 6);
        // Two optional copies, one used: either copy.
        assert_eq!(t(0, 2).labellings(1), 2);
        // One mandatory and one optional copy, both used: 2 labellings; one
        // used: it must be the mandatory one.
        assert_eq!(t(1, 2).labellings(2), 2);
        assert_eq!(t(1, 2).labellings(1), 1);
        assert_eq!(t(1, 2).labellings(0), 0);
    }

    #[test]
    fn a_rectangle_has_four_symmetries_and_a_square_eight() {
        let domino = piece("D", &[(0, 0), (1, 0)], Sides::Two);
        for (w, h, g) in [(2, 4, 4), (4, 4, 8)] {
            let mut d = domino.clone();
            d.copies = (w * h / 2) as u32;
            let p = Puzzle::new("t".into(), Lattice::Square, vec![], rect(w, h), vec![d]).unwrap();
            let prob = Problem::new(&p);
            assert_eq!(prob.group.len(), g, "{w}x{h}");
            assert!(!prob.mirror_closed());
        }
    }

    #[test]
    fn one_sided_chiral_pieces_drop_mirrors_unless_the_set_is_mirror_closed() {
        let a = piece("A", &[(0, 0), (1, 0), (2, 0), (0, 1)], Sides::One);
        let b = piece("B", &[(0, 0), (1, 0), (2, 0), (2, 1)], Sides::One);
        // L4 and J4 (mirror images), one-sided, on a 4 x 2 board.
        let p = Puzzle::new(
            "t".into(),
            Lattice::Square,
            vec![],
            rect(4, 2),
            vec![a.clone(), b],
        )
        .unwrap();
        let prob = Problem::new(&p);
        assert_eq!(prob.group.len(), 4);
        assert!(prob.mirror_closed());
        // Two copies of one chiral piece: only rotations remain.
        let mut a2 = a;
        a2.copies = 2;
        let p = Puzzle::new("t".into(), Lattice::Square, vec![], rect(4, 2), vec![a2]).unwrap();
        assert_eq!(Problem::new(&p).group.len(), 2);
    }

    #[test]
    fn a_board_spread_over_a_huge_box_is_looked_up_like_a_compact_one() {
        let mut domino = piece("D", &[(0, 0), (1, 0)], Sides::Two);
        domino.copies = 2;
        // Two pairs of cells with a gap of 1, then of 100,000 (too big a box
        // for the array, so the hash map serves).
        for gap in [1, 100_000] {
            let board = [0, 1, 2 + gap, 3 + gap]
                .iter()
                .map(|&x| ([x, 0, 0], None))
                .collect();
            let p = Puzzle::new(
                "t".into(),
                Lattice::Square,
                vec![],
                board,
                vec![domino.clone()],
            )
            .unwrap();
            let prob = Problem::new(&p);
            assert_eq!(prob.placements.len(), 2, "gap {gap}");
            assert!(prob.neighbours.iter().all(|v| v.len() == 1), "gap {gap}");
            assert_eq!(prob.group.len(), 4, "gap {gap}");
        }
    }

    #[test]
    fn the_scan_runs_along_the_short_side() {
        let mono = Piece {
            copies: 6,
            ..piece("M", &[(0, 0)], Sides::Two)
        };
        for (w, h) in [(3, 2), (2, 3)] {
            let p = Puzzle::new(
                "t".into(),
                Lattice::Square,
                vec![],
                rect(w, h),
                vec![mono.clone()],
            )
            .unwrap();
            let prob = Problem::new(&p);
            let first: Vec<Cell> = prob.order[..2].iter().map(|&i| p.board[i].0).collect();
            // The first two cells are neighbours across the short side.
            let d: i32 = (0..3).map(|k| (first[0][k] - first[1][k]).abs()).sum();
            assert_eq!(d, 1);
            let short = if w < h { 0 } else { 1 };
            assert_ne!(first[0][short], first[1][short]);
        }
    }
}
