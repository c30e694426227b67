//! The bitboard engine: for boards of at most 64 or 128 cells.
//!
//! The board is one machine word, a bit per cell in scan order (the short
//! side of the board varies fastest), and so is every placement. A node of
//! the search is a partial cover; its children are the placements that
//! cover the *chosen cell* and leave no dead region:
//!
//! - **Chosen cell.** One of three rules. The *first empty cell*: the
//!   placement must cover it with its own first cell (all earlier cells are
//!   full), so the candidates come from a table indexed by that cell and by
//!   the occupancy of the next few cells, which drops most placements that
//!   cannot fit before they are looked at. The *most constrained cell*: the
//!   empty cell with the fewest fitting placements, counted from per-cell
//!   tables indexed by the occupancy of the cell's neighbours (a cell hemmed
//!   in by full neighbours has a short list). The *tightest cell*: the same
//!   count, but only over the empty cells with the fewest empty neighbours,
//!   found for the whole board at once with bit-sliced counters; nearly as
//!   small a tree as the most constrained cell at a fraction of the cost.
//! - **Dead regions.** After a placement, the empty regions it touches are
//!   flood-filled (a few cells at a time, from the placement's halo). A
//!   region that closes up with a size that no sub-multiset of the remaining
//!   pieces can make (5 or 10 cells are fine for pentominoes, 7 is not) is a
//!   dead end, and the placement is not a child at all. The sizes that can
//!   be made are precomputed for every multiset of remaining piece sizes
//!   that can occur. A flood that runs past a few steps, or (when filling
//!   the first empty cell) touches a cell after the piece's last cell, is
//!   abandoned: those regions are almost always the big open one, and the
//!   check must stay cheap. Abandoning only ever keeps a placement, so the
//!   pruning is sound.
//! - **Symmetry.** With a breaker (see [`crate::symmetry`]) the root's
//!   children are the breaker's representative placements, so the breaker
//!   is placed first and everything below sees one placement per orbit.
//!
//! The children of a node are gathered before the first is entered, so the
//! number of children is known (paths, progress) and the loop over them is
//! a plain slice walk.

use crate::bits::Bits;
use crate::problem::Problem;
use crate::symmetry::{Canon, Mode, Plan};
use jigsolve_search::{fraction_of, NoSuchNode, NodeKind, NodeStats, Probe, Sink, Ticker, Weight};
use std::ops::ControlFlow;
use std::sync::Arc;

/// Which empty cell a node branches on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CellChoice {
    /// The first empty cell in scan order.
    First,
    /// The empty cell with the fewest fitting placements (the first such).
    Fewest,
    /// Among the empty cells with the fewest empty neighbours, the one
    /// with the fewest fitting placements: nearly as good a choice as
    /// `Fewest` at a fraction of the cost (needs the box layout).
    Tightest,
}

/// A placement in a candidate list: its cells and type.
#[derive(Clone, Copy, Debug)]
struct Entry<B> {
    mask: B,
    ty: u32,
    placement: u32,
}

/// Largest number of remaining-size multisets for which dead-region sizes
/// are tabulated per multiset (else one table for the whole piece set).
const MAX_KEYS: usize = 1 << 15;
/// Nodes between two polls of the control.
const POLL_EVERY: u64 = 1 << 14;
/// Cells after the first empty one whose occupancy indexes its candidates.
const WINDOW: u32 = 6;

/// How cells sit in the word.
#[derive(Clone, Debug)]
enum Layout<B> {
    /// Bit = position in the board's bounding box (holes stay full), so a
    /// step along an axis is a shift: `(stride, cells not on the last
    /// layer, cells not on the first layer)` per axis.
    Boxed(Vec<(u32, B, B)>),
    /// Bit = scan position (the box does not fit); neighbours by table.
    Compact,
}

/// The tables of the bitboard engine for one problem; shared by all threads.
#[derive(Debug)]
pub struct BitTables<B: Bits> {
    problem: Arc<Problem>,
    plan: Arc<Plan>,
    choice: CellChoice,
    layout: Layout<B>,
    full: B,
    masks: Vec<B>,
    halo: Vec<B>,
    /// For `First` on a boxed layout: the cells after each placement's last
    /// cell (almost always part of the big empty region).
    ahead: Vec<B>,
    ty: Vec<u16>,
    /// For `Fewest` and `Tightest`: per bit, its neighbours' bits, and per
    /// bit and occupancy of those neighbours, the covering placements that
    /// avoid the full ones.
    nb: Vec<[u8; 6]>,
    /// Per bit, where its keys start in `cover_start` (a cell with k
    /// neighbours has 2^k keys).
    cover_base: Vec<u32>,
    cover_start: Vec<u32>,
    cover: Vec<Entry<B>>,
    /// For `First`: per bit and window key, the anchored placements that
    /// avoid the window's full cells.
    window_start: Vec<u32>,
    entries: Vec<Entry<B>>,
    nbr: Vec<B>,
    stride: Vec<u32>,
    feasible: Vec<u128>,
    key0: u32,
    cap: u32,
    hi: Vec<u32>,
    /// The most children a node can have.
    widest: usize,
    avail0: Option<u64>,
    slack: Vec<u32>,
    any_optional: bool,
}

impl<B: Bits> BitTables<B> {
    /// Builds the tables; `None` when the board does not fit in `B`.
    /// `cap` bounds the dead-region floods (0 switches the check off).
    pub fn new(
        problem: Arc<Problem>,
        plan: Arc<Plan>,
        choice: CellChoice,
        cap: u32,
    ) -> Option<BitTables<B>> {
        let n = problem.cells();
        if n > B::CAPACITY {
            return None;
        }
        let volume: u64 = problem.scan_axes.iter().map(|&(_, e)| e as u64).product();
        let (layout, bit_of, bits): (Layout<B>, Vec<usize>, usize) = if volume <= B::CAPACITY as u64
        {
            let mut axes = Vec::new();
            let mut stride = 1u32;
            for &(_, e) in &problem.scan_axes {
                let (mut not_last, mut not_first) = (B::ZERO, B::ZERO);
                for i in 0..volume as usize {
                    let coord = (i as u32 / stride) % e;
                    if coord + 1 < e {
                        not_last |= B::bit(i);
                    }
                    if coord > 0 {
                        not_first |= B::bit(i);
                    }
                }
                axes.push((stride, not_last, not_first));
                stride *= e;
            }
            (
                Layout::Boxed(axes),
                problem.boxed.iter().map(|&b| b as usize).collect(),
                volume as usize,
            )
        } else {
            (Layout::Compact, (0..n).collect(), n)
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
        let masks: Vec<B> = problem
            .placements
            .iter()
            .map(|p| mask_of(&p.cells))
            .collect();
        let mut nbr = vec![B::ZERO; bits];
        for (c, v) in problem.neighbours.iter().enumerate() {
            nbr[bit_of[c]] = mask_of(v);
        }
        // The cells next to a placement where a dead region can start. When
        // filling the first empty cell, a new pocket almost always holds a
        // neighbour that comes before the placement's last cell (the cells
        // behind the frontier); a pocket wholly ahead of the piece is found
        // later, when the frontier reaches it. Checking only those seeds
        // keeps the check cheap.
        let halo = problem
            .placements
            .iter()
            .zip(&masks)
            .map(|(p, &m)| {
                let around = p
                    .cells
                    .iter()
                    .fold(B::ZERO, |h, &c| h | nbr[bit_of[c as usize]])
                    & !m;
                match choice {
                    CellChoice::First => {
                        let last = p
                            .cells
                            .iter()
                            .map(|&c| bit_of[c as usize])
                            .max()
                            .unwrap_or(0);
                        around & B::low(last)
                    }
                    CellChoice::Fewest | CellChoice::Tightest => around,
                }
            })
            .collect();
        let ahead = match choice {
            CellChoice::First => problem
                .placements
                .iter()
                .map(|p| {
                    let last = p
                        .cells
                        .iter()
                        .map(|&c| bit_of[c as usize])
                        .max()
                        .unwrap_or(0);
                    full & !B::low(last + 1)
                })
                .collect(),
            _ => Vec::new(),
        };
        let ty: Vec<u16> = problem.placements.iter().map(|p| p.ty).collect();

        // Candidate tables.
        let (mut nb, mut cover_base, mut cover_start, mut cover) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let (mut window_start, mut entries) = (Vec::new(), Vec::new());
        match choice {
            CellChoice::Fewest | CellChoice::Tightest => {
                let mut per_bit: Vec<Vec<usize>> = vec![Vec::new(); bits];
                for (i, p) in problem.placements.iter().enumerate() {
                    for &c in &p.cells {
                        per_bit[bit_of[c as usize]].push(i);
                    }
                }
                nb = vec![[u8::MAX; 6]; bits];
                for (c, v) in problem.neighbours.iter().enumerate() {
                    for (j, &d) in v.iter().take(6).enumerate() {
                        nb[bit_of[c]][j] = bit_of[d as usize] as u8;
                    }
                }
                for (b, list) in per_bit.iter().enumerate() {
                    cover_base.push(cover_start.len() as u32);
                    let degree = nb[b].iter().filter(|&&x| x != u8::MAX).count();
                    for key in 0..1usize << degree {
                        cover_start.push(cover.len() as u32);
                        let full_near = nb[b]
                            .iter()
                            .enumerate()
                            .filter(|&(j, &x)| x != u8::MAX && key >> j & 1 == 1)
                            .fold(B::ZERO, |m, (_, &x)| m | B::bit(x as usize));
                        for &p in list {
                            if (masks[p] & full_near).is_empty() {
                                cover.push(Entry {
                                    mask: masks[p],
                                    ty: ty[p] as u32,
                                    placement: p as u32,
                                });
                            }
                        }
                    }
                }
                cover_base.push(cover_start.len() as u32);
                cover_start.push(cover.len() as u32);
            }
            CellChoice::First => {
                // Placements anchored at each bit (their first cell), by type.
                let mut anchored: Vec<Vec<usize>> = vec![Vec::new(); bits];
                for (i, p) in problem.placements.iter().enumerate() {
                    anchored[bit_of[p.cells[0] as usize]].push(i);
                }
                let keys = 1usize << WINDOW;
                for (b, list) in anchored.iter().enumerate() {
                    for key in 0..keys {
                        window_start.push(entries.len() as u32);
                        for &p in list {
                            if masks[p].window(b + 1, WINDOW) & key == 0 {
                                entries.push(Entry {
                                    mask: masks[p],
                                    ty: ty[p] as u32,
                                    placement: p as u32,
                                });
                            }
                        }
                    }
                }
                window_start.push(entries.len() as u32);
            }
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
        let stride: Vec<u32> = problem
            .types
            .iter()
            .map(|t| class_stride[sizes.binary_search(&t.size).unwrap_or(0)])
            .collect();
        let key0 = class_total
            .iter()
            .zip(&class_stride)
            .map(|(&h, &s)| h * s)
            .sum();

        let widest = match choice {
            CellChoice::First => window_start
                .windows(2)
                .map(|w| (w[1] - w[0]) as usize)
                .max()
                .unwrap_or(0),
            CellChoice::Fewest | CellChoice::Tightest => cover_start
                .windows(2)
                .map(|w| (w[1] - w[0]) as usize)
                .max()
                .unwrap_or(0),
        }
        .max(plan.reps.len())
        .max(1);
        Some(BitTables {
            widest,
            choice,
            layout,
            full,
            masks,
            halo,
            ahead,
            ty,
            nb,
            cover_base,
            cover_start,
            cover,
            window_start,
            entries,
            nbr,
            stride,
            feasible,
            key0,
            cap,
            hi: problem.types.iter().map(|t| t.hi).collect(),
            avail0: (problem.types.len() <= 64).then(|| {
                problem
                    .types
                    .iter()
                    .enumerate()
                    .fold(0u64, |a, (i, t)| a | ((t.hi > 0) as u64) << i)
            }),
            slack: problem.types.iter().map(|t| t.hi - t.lo).collect(),
            any_optional: problem.types.iter().any(|t| t.lo < t.hi),
            problem,
            plan,
        })
    }

    /// The cell choice.
    pub fn choice(&self) -> CellChoice {
        self.choice
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

#[derive(Clone, Copy, Debug, Default)]
struct Frame {
    /// First candidate of this node in `cands`.
    start: u32,
    /// One past its last candidate.
    end: u32,
    /// The next candidate to try.
    next: u32,
}

/// A search over one problem with the bitboard engine; one per thread.
#[derive(Debug)]
pub struct BitSolver<B: Bits> {
    t: Arc<BitTables<B>>,
    filled: B,
    remaining: Vec<u32>,
    /// Bit t set when type t has copies left (when there are at most 64 types).
    avail: Option<u64>,
    key: u32,
    /// The placement made at each depth.
    chosen: Vec<usize>,
    depth: usize,
    /// The children of every open node, in one buffer (a stack of lists).
    cands: Vec<u32>,
    top: usize,
    frames: Vec<Frame>,
    counts: Vec<u64>,
    rep: Option<usize>,
    canon: Canon,
    out: Vec<u16>,
    next_copy: Vec<usize>,
}

impl<B: Bits> BitSolver<B> {
    /// A solver for the shared tables.
    pub fn new(t: Arc<BitTables<B>>) -> BitSolver<B> {
        let depth = t.problem.types.iter().map(|x| x.hi as usize).sum::<usize>() + 2;
        BitSolver {
            filled: B::ZERO,
            remaining: t.hi.clone(),
            avail: t.avail0,
            key: t.key0,
            chosen: vec![0; depth],
            depth: 0,
            cands: vec![0; t.widest * depth + t.widest],
            top: 0,
            frames: vec![Frame::default(); depth],
            counts: vec![0; depth + 1],
            rep: None,
            canon: Canon::new(&t.problem),
            out: vec![0; t.problem.cells()],
            next_copy: vec![0; t.problem.types.len()],
            t,
        }
    }

    fn reset(&mut self) {
        self.filled = B::ZERO;
        self.remaining.copy_from_slice(&self.t.hi);
        self.avail = self.t.avail0;
        self.key = self.t.key0;
        self.depth = 0;
        self.top = 0;
        self.rep = None;
    }

    /// Places `p` as the next piece.
    #[inline(always)]
    fn place(&mut self, p: usize) {
        let t = &*self.t;
        let ty = t.ty[p] as usize;
        self.filled |= t.masks[p];
        self.remaining[ty] -= 1;
        if let Some(a) = &mut self.avail {
            if self.remaining[ty] == 0 {
                *a &= !(1 << ty);
            }
        }
        self.key -= t.stride[ty];
        if self.depth == 0 && t.plan.breaker().is_some() {
            self.rep = t.plan.reps.binary_search_by_key(&p, |r| r.placement).ok();
        }
        self.chosen[self.depth] = p;
        self.depth += 1;
    }

    /// Takes back the last piece placed.
    #[inline(always)]
    fn unplace(&mut self) {
        let t = &*self.t;
        self.depth -= 1;
        let p = self.chosen[self.depth];
        let ty = t.ty[p] as usize;
        self.filled &= !t.masks[p];
        self.remaining[ty] += 1;
        if let Some(a) = &mut self.avail {
            *a |= 1 << ty;
        }
        self.key += t.stride[ty];
    }

    /// Writes the children of the current node at `cands[top..]` and
    /// returns how many there are.
    #[inline(always)]
    fn gather(&mut self) -> usize {
        let t = &*self.t;
        let filled = self.filled;
        let buf = &mut self.cands[self.top..];
        if self.depth == 0 && t.plan.breaker().is_some() {
            let mut n = 0;
            for r in &t.plan.reps {
                let p = r.placement;
                let ty = t.ty[p] as usize;
                if (t.masks[p] & filled).is_empty()
                    && regions_ok(t, filled, key_of(self.key, t, ty), t.masks[p], p)
                {
                    buf[n] = p as u32;
                    n += 1;
                }
            }
            return n;
        }
        let empty = t.full & !filled;
        if empty.is_empty() {
            return 0;
        }
        // First pass, without branches on the data where possible: the
        // placements that fit and whose type is left.
        let mut kept = 0;
        match t.choice {
            CellChoice::First => {
                let cell = empty.lowest();
                let at = (cell << WINDOW) + filled.window(cell + 1, WINDOW);
                let list = &t.entries[t.window_start[at] as usize..t.window_start[at + 1] as usize];
                if let Some(avail) = self.avail {
                    for e in list {
                        buf[kept] = e.placement;
                        kept += ((e.mask & filled).is_empty() as u64 & (avail >> e.ty)) as usize;
                    }
                } else {
                    for e in list {
                        buf[kept] = e.placement;
                        kept += ((e.mask & filled).is_empty() && self.remaining[e.ty as usize] != 0)
                            as usize;
                    }
                }
            }
            CellChoice::Fewest | CellChoice::Tightest => {
                let among = match (&t.layout, t.choice) {
                    (Layout::Boxed(axes), CellChoice::Tightest) => tightest(axes, empty),
                    _ => empty,
                };
                let Some(cell) = fewest(t, filled, self.avail, &self.remaining, among) else {
                    return 0;
                };
                for e in cover_list(t, cell, filled) {
                    buf[kept] = e.placement;
                    kept += fits(e, filled, self.avail, &self.remaining);
                }
            }
        }
        // Second pass: the dead-region check.
        if t.cap == 0 {
            return kept;
        }
        let mut n = 0;
        for r in 0..kept {
            let p = buf[r] as usize;
            if regions_ok(
                t,
                filled,
                key_of(self.key, t, t.ty[p] as usize),
                t.masks[p],
                p,
            ) {
                buf[n] = p as u32;
                n += 1;
            }
        }
        n
    }

    /// Opens the node at the current depth: gathers its children.
    #[inline(always)]
    fn open(&mut self) -> usize {
        let n = self.gather();
        let start = self.top as u32;
        self.frames[self.depth] = Frame {
            start,
            end: start + n as u32,
            next: start,
        };
        self.top += n;
        n
    }

    fn is_complete(&self) -> bool {
        self.filled == self.t.full
    }

    /// A complete cover is a solution when every mandatory copy is used.
    fn mandatory_used(&self) -> bool {
        !self.t.any_optional
            || self
                .remaining
                .iter()
                .zip(&self.t.slack)
                .all(|(r, s)| r <= s)
    }

    fn leaf_weight(&mut self) -> Weight {
        if !self.mandatory_used() {
            return Weight::default();
        }
        let t = &*self.t;
        let rep = self.rep.map(|i| &t.plan.reps[i]);
        self.canon
            .weight(&t.problem, &t.plan, &self.chosen[..self.depth], rep)
    }

    fn fill_solution(&mut self) {
        let prob = &self.t.problem;
        self.next_copy.iter_mut().for_each(|x| *x = 0);
        for &p in &self.chosen[..self.depth] {
            let pl = &prob.placements[p];
            let ty = pl.ty as usize;
            let inst = prob.types[ty].instances[self.next_copy[ty]];
            self.next_copy[ty] += 1;
            for &c in &pl.cells {
                self.out[prob.order[c as usize]] = inst;
            }
        }
    }

    /// Replays `path` from the root, leaving its placements made.
    fn descend(&mut self, path: &[u32]) -> Result<(), NoSuchNode> {
        self.reset();
        for &k in path {
            let n = self.gather();
            if k as usize >= n {
                return Err(NoSuchNode {
                    path: path.to_vec(),
                });
            }
            let p = self.cands[self.top + k as usize] as usize;
            self.place(p);
        }
        Ok(())
    }

    fn position(&self, base: usize) -> f64 {
        fraction_of((base..self.depth).map(|d| {
            let f = self.frames[d];
            (f.next - f.start - 1, f.end - f.start)
        }))
    }

    /// Reports the complete cover now placed, if it is a solution.
    fn report(&mut self, sink: &mut dyn Sink<[u16]>) -> ControlFlow<()> {
        let w = self.leaf_weight();
        if w.is_zero() {
            return ControlFlow::Continue(());
        }
        self.fill_solution();
        sink.solution(&self.out, w)
    }

    /// The search loop below the current node (at depth `base`).
    fn run(&mut self, sink: &mut dyn Sink<[u16]>, ticker: &mut Ticker<'_>) -> ControlFlow<()> {
        let base = self.depth;
        self.counts[base] += 1;
        if self.is_complete() {
            return self.report(sink);
        }
        self.open();
        let mut since_poll: u64 = 1;
        loop {
            let f = &mut self.frames[self.depth];
            if f.next == f.end {
                // Every child tried: back up.
                self.top = f.start as usize;
                if self.depth == base {
                    let _ = ticker.poll(since_poll, || 1.0);
                    return ControlFlow::Continue(());
                }
                self.unplace();
                continue;
            }
            let p = self.cands[f.next as usize] as usize;
            f.next += 1;
            self.place(p);
            self.counts[self.depth] += 1;
            since_poll += 1;
            if since_poll >= POLL_EVERY {
                let n = std::mem::take(&mut since_poll);
                if ticker.poll(n, || self.position(base)).is_break() {
                    return ControlFlow::Break(());
                }
            }
            if self.is_complete() {
                let flow = self.report(sink);
                self.unplace();
                if flow.is_break() {
                    let _ = ticker.poll(since_poll, || 0.0);
                    return flow;
                }
                continue;
            }
            self.open();
        }
    }

    /// One random walk from the root (Knuth's estimator), placing as it goes.
    pub fn probe(&mut self, pick: &mut dyn FnMut(u32) -> u32) -> Result<Probe, NoSuchNode> {
        self.reset();
        let mut degrees = Vec::new();
        loop {
            if self.is_complete() {
                return Ok(Probe {
                    degrees,
                    leaf: NodeKind::Solution(self.leaf_weight()),
                });
            }
            let n = self.gather() as u32;
            if n == 0 {
                return Ok(Probe {
                    degrees,
                    leaf: NodeKind::DeadEnd,
                });
            }
            degrees.push(n);
            let k = pick(n).min(n - 1) as usize;
            let p = self.cands[self.top + k] as usize;
            self.place(p);
        }
    }

    /// What the node at `path` is.
    pub fn node(&mut self, path: &[u32]) -> Result<NodeKind, NoSuchNode> {
        self.descend(path)?;
        if self.is_complete() {
            return Ok(NodeKind::Solution(self.leaf_weight()));
        }
        let n = self.gather() as u32;
        Ok(if n == 0 {
            NodeKind::DeadEnd
        } else {
            NodeKind::Inner(n)
        })
    }

    /// Explores the subtree at `path`.
    pub fn explore(
        &mut self,
        path: &[u32],
        sink: &mut dyn Sink<[u16]>,
        ticker: &mut Ticker<'_>,
        stats: &mut NodeStats,
    ) -> Result<ControlFlow<()>, NoSuchNode> {
        self.descend(path)?;
        let flow = self.run(sink, ticker);
        stats.add_profile(0, &self.counts);
        self.counts.iter_mut().for_each(|c| *c = 0);
        Ok(flow)
    }

    /// The mode of the plan (for tests).
    pub fn mode(&self) -> Mode {
        self.t.plan.mode
    }
}

/// The dead-region key after using one more copy of type `ty`.
#[inline(always)]
fn key_of<B: Bits>(key: u32, t: &BitTables<B>, ty: usize) -> usize {
    (key - t.stride[ty]) as usize
}

/// Whether placing `mask` (placement `p`) on top of `filled` leaves every
/// region it touches fillable by the pieces that would remain (whose
/// dead-region key is `key`).
#[inline(always)]
fn regions_ok<B: Bits>(t: &BitTables<B>, filled: B, key: usize, mask: B, p: usize) -> bool {
    if t.cap == 0 {
        return true;
    }
    let empty = t.full & !(filled | mask);
    let mut seeds = t.halo[p] & empty;
    if seeds.is_empty() {
        return true;
    }
    let feasible = t.feasible[key];
    // The cells after the piece's last cell almost always belong to the big
    // empty region: a flood that touches them stops there.
    let mut big = match t.ahead.get(p) {
        Some(&a) => a & empty,
        None => B::ZERO,
    };
    while !seeds.is_empty() {
        let s = seeds.lowest();
        let (closed, region) = match &t.layout {
            Layout::Boxed(axes) => flood_shifts(axes, B::bit(s), empty, big, t.cap),
            Layout::Compact => flood_table(&t.nbr, B::bit(s), empty, big, t.cap),
        };
        if closed {
            let size = region.count();
            if size < 128 && feasible >> size & 1 == 0 {
                return false;
            }
        } else {
            big |= region;
        }
        seeds &= !region;
    }
    true
}

/// The cells of `region` and their neighbours.
#[inline(always)]
fn expand<B: Bits>(axes: &[(u32, B, B)], region: B) -> B {
    let mut next = region;
    for &(stride, not_last, not_first) in axes {
        next |= (region & not_last).up(stride) | (region & not_first).down(stride);
    }
    next
}

/// Grows `region` inside `empty` one step at a time along every axis at
/// once; returns whether it closed up within `steps` steps without meeting
/// `big`, and the region grown so far. (Bounding steps rather than cells
/// keeps the loop free of population counts, which are slow without the
/// POPCNT instruction.)
#[inline(always)]
fn flood_shifts<B: Bits>(
    axes: &[(u32, B, B)],
    mut region: B,
    empty: B,
    big: B,
    steps: u32,
) -> (bool, B) {
    for _ in 0..steps {
        let next = expand(axes, region) & empty;
        if next == region {
            return (true, region);
        }
        if !(next & big).is_empty() {
            return (false, next);
        }
        region = next;
    }
    (false, region)
}

/// The same with a neighbour table, a cell at a time.
#[inline(always)]
fn flood_table<B: Bits>(nbr: &[B], start: B, empty: B, big: B, cap: u32) -> (bool, B) {
    let mut region = start;
    let mut frontier = start;
    let mut size = 1;
    while !frontier.is_empty() {
        let c = frontier.lowest();
        frontier = frontier.without_lowest();
        let new = nbr[c] & empty & !region;
        if !(new & big).is_empty() {
            return (false, region | new);
        }
        region |= new;
        frontier |= new;
        size += new.count();
        if size > cap {
            return (false, region);
        }
    }
    (true, region)
}

/// The empty cells with the fewest empty neighbours (counted for all cells
/// at once in bit-sliced counters).
#[inline(always)]
fn tightest<B: Bits>(axes: &[(u32, B, B)], empty: B) -> B {
    let (mut c0, mut c1, mut c2) = (B::ZERO, B::ZERO, B::ZERO);
    let mut add = |x: B| {
        let carry0 = c0 & x;
        c0 = (c0 | x) & !carry0;
        let carry1 = c1 & carry0;
        c1 = (c1 | carry0) & !carry1;
        c2 |= carry1;
    };
    for &(stride, not_last, not_first) in axes {
        add(empty.down(stride) & not_last);
        add(empty.up(stride) & not_first);
    }
    // Classes by count, smallest first.
    for k in 0..8u32 {
        let pick = |bit: u32, c: B| if k >> bit & 1 == 1 { c } else { !c };
        let class = empty & pick(0, c0) & pick(1, c1) & pick(2, c2);
        if !class.is_empty() {
            return class;
        }
    }
    empty
}

/// The covering placements of `cell` that avoid its full neighbours.
#[inline(always)]
fn cover_list<B: Bits>(t: &BitTables<B>, cell: usize, filled: B) -> &[Entry<B>] {
    let mut key = 0;
    for (j, &x) in t.nb[cell].iter().enumerate() {
        if x != u8::MAX && filled.has(x as usize) {
            key |= 1 << j;
        }
    }
    let at = t.cover_base[cell] as usize + key;
    &t.cover[t.cover_start[at] as usize..t.cover_start[at + 1] as usize]
}

/// 1 when the entry fits and its type has copies left, else 0.
#[inline(always)]
fn fits<B: Bits>(e: &Entry<B>, filled: B, avail: Option<u64>, remaining: &[u32]) -> usize {
    match avail {
        Some(a) => ((e.mask & filled).is_empty() as u64 & (a >> e.ty)) as usize,
        None => ((e.mask & filled).is_empty() && remaining[e.ty as usize] != 0) as usize,
    }
}

/// The cell of `among` with the fewest fitting placements (the first such);
/// `None` when some cell has none.
fn fewest<B: Bits>(
    t: &BitTables<B>,
    filled: B,
    avail: Option<u64>,
    remaining: &[u32],
    among: B,
) -> Option<usize> {
    let mut best = usize::MAX;
    let mut best_cell = among.lowest();
    let mut rest = among;
    while !rest.is_empty() {
        let c = rest.lowest();
        rest = rest.without_lowest();
        let n: usize = cover_list(t, c, filled)
            .iter()
            .map(|e| fits(e, filled, avail, remaining))
            .sum();
        if n == 0 {
            return None;
        }
        if n < best {
            best = n;
            best_cell = c;
        }
    }
    Some(best_cell)
}
