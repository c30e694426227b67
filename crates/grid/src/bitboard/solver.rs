//! One thread's search with the bitboard engine, behind the search contract.
//!
//! The drivers name nodes by paths and ask for nodes, subtrees and random
//! walks; the solver replays a path from the root, then runs an explicit
//! loop over a stack of frames rather than recursing, so that a subtree of
//! any depth costs no call stack and the loop can poll the control every so
//! often. The loop is compiled twice, the faster copy for processors with
//! the bit-manipulation instructions, chosen when the program runs.

use super::children::{reset, State};
use super::growth::Grow;
#[cfg(target_arch = "x86_64")]
use super::growth::{Axes, Layout, Pairs};
use super::lists::{Avail, SPARE};
use super::tables::BitTables;
use crate::bits::Bits;
use crate::symmetry::{Canon, Plan, Rep};
use jigsolve_search::{
    fraction_of, Branch, NoSuchNode, NodeKind, NodeStats, Probe, Prune, Sink, Ticker, Tree, Weight,
};
use std::ops::ControlFlow;
use std::sync::Arc;

/// Nodes between two polls of the control.
const POLL_EVERY: u64 = 1 << 14;

/// Chooses the symmetry breaker among `candidates` (each eligible type and
/// its orbit representatives; `plan` restricts the one with the fewest
/// orbits) by the search's own first two levels: with a breaker whose `d1`
/// representatives pass the root's checks and have `d2` children in all,
/// the tree is estimated as `d1 · (d2 / d1)³`, the breaker's
/// representatives times the cube of the branching below them. The fewest
/// orbits make the narrowest root, but below a compact piece that fits
/// anywhere (the hexiamond J, a hexagon) the rest branches widely; an
/// awkward piece (the X pentomino, the hexiamond B) leaves tight cells
/// behind it. Measured with every eligible piece forced on the catalog (see
/// BENCHMARKS.md, "Round five"): the estimate never picks a larger tree
/// than the fewest orbits did, and hexiamonds in the 6 x 6 rhombus take
/// 34,618 nodes instead of 61,315. Ties keep the fewest orbits. `tables`
/// come without second breakers ([`BitTables::without_seconds`]); returns
/// them with those of the chosen plan, and the plan.
pub(crate) fn choose_breaker<B: Word>(
    tables: BitTables<B>,
    plan: Arc<Plan>,
    candidates: Vec<(usize, Vec<Rep>)>,
) -> (BitTables<B>, Arc<Plan>) {
    let Some(current) = plan.breaker().filter(|_| candidates.len() > 1) else {
        let mut tables = tables;
        tables.set_plan(Arc::clone(&plan));
        return (tables, plan);
    };
    let shared = Arc::new(tables);
    let mut solver = BitSolver::new(Arc::clone(&shared), false);
    // d2³ / d1² compared without division (0 when no representative passes:
    // then there is no solution and nothing to search).
    let score = |(d1, d2): (u64, u64)| -> (u128, u128) {
        let (d1, d2) = (d1 as u128, d2 as u128);
        (d2 * d2 * d2, (d1 * d1).max(1))
    };
    let better = |a: (u128, u128), b: (u128, u128)| a.0 * b.1 < b.0 * a.1;
    let mut best = solver
        .breaker_trial(&plan.reps, |_, _| false)
        .map_or((0, 1), score);
    let mut choice = None;
    for (i, (ty, reps)) in candidates.iter().enumerate() {
        if *ty == current {
            continue;
        }
        // The score only grows with the children counted, so a candidate
        // stops being counted once it cannot win: the same choice for less
        // (the trials of the hexiamonds in the 6 x 6 rhombus took 2.87 M
        // instructions, 3.8% of the run, and take 2.44 M).
        let beaten = |d1, d2| !better(score((d1, d2)), best);
        if let Some(s) = solver.breaker_trial(reps, beaten).map(score) {
            if better(s, best) {
                (best, choice) = (s, Some(i));
            }
        }
    }
    drop(solver);
    // The trial's solver is gone, so the tables have one owner again.
    let mut tables = Arc::into_inner(shared).expect("the breaker trial's solver is dropped");
    let plan = match choice {
        Some(i) => {
            let (ty, reps) = candidates.into_iter().nth(i).unwrap_or_default();
            Arc::new(Plan::with_breaker(&tables.problem, ty, reps))
        }
        None => plan,
    };
    tables.set_plan(Arc::clone(&plan));
    (tables, plan)
}

/// A machine word the bitboard engine runs in, and the layouts whose
/// boards have a copy of the search loop of their own in it.
///
/// Each copy is the whole loop with everything it calls inlined, some
/// seconds of build time; the layouts listed are those the catalog's
/// puzzles spend their time in, and the copy that tells the layouts apart
/// at each step serves the rest. To give another layout its own copy, add
/// it here, show in BENCHMARKS.md what it buys, and raise the budget in
/// `scripts/build-guard.sh`.
pub(crate) trait Word: Bits {
    /// Runs the search loop compiled for the bit-manipulation
    /// instructions, in the copy for the board's layout.
    ///
    /// # Safety
    ///
    /// The processor must have BMI1, BMI2, POPCNT and LZCNT.
    #[cfg(target_arch = "x86_64")]
    unsafe fn run_bmi(
        s: &mut BitSolver<Self>,
        sink: &mut dyn Sink<[u16]>,
        ticker: &mut Ticker<'_>,
    ) -> ControlFlow<()>;
}

impl Word for u64 {
    #[cfg(target_arch = "x86_64")]
    unsafe fn run_bmi(
        s: &mut BitSolver<u64>,
        sink: &mut dyn Sink<[u16]>,
        ticker: &mut Ticker<'_>,
    ) -> ControlFlow<()> {
        let t = Arc::clone(&s.t);
        // SAFETY: passed on from the caller.
        unsafe {
            match &t.layout {
                // Squares: pentominoes, Atwood's checkerboard.
                Layout::Plane(a) => s.run_bmi_with::<Axes<u64, 2>>(a, sink, ticker),
                // Cubes: the Soma and Bedlam cubes.
                Layout::Space(a) => s.run_bmi_with::<Axes<u64, 3>>(a, sink, ticker),
                // Hexagons: tetrahexes, the polyhex hexagon.
                Layout::Pairs3(p) => s.run_bmi_with::<Pairs<u64, 3>>(p, sink, ticker),
                _ => s.run_bmi_any(sink, ticker),
            }
        }
    }
}

impl Word for u128 {
    #[cfg(target_arch = "x86_64")]
    unsafe fn run_bmi(
        s: &mut BitSolver<u128>,
        sink: &mut dyn Sink<[u16]>,
        ticker: &mut Ticker<'_>,
    ) -> ControlFlow<()> {
        let t = Arc::clone(&s.t);
        // SAFETY: passed on from the caller.
        unsafe {
            match &t.layout {
                // Triangles: the hexiamonds' 72 cells.
                Layout::Pairs2(p) => s.run_bmi_with::<Pairs<u128, 2>>(p, sink, ticker),
                _ => s.run_bmi_any(sink, ticker),
            }
        }
    }
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
    s: State<B>,
    frames: Vec<Frame>,
    counts: Vec<u64>,
    /// Per depth: the placements tried at its nodes, and of them those the
    /// dead-region check refused (added once per node, not per placement).
    tried: Vec<[u64; 2]>,
    /// Whether to count them.
    count_tried: bool,
    /// Run the copy of the search loop that serves every layout, even
    /// where the board's layout has one of its own (tests, comparisons).
    any_layout: bool,
    rep: Option<usize>,
    canon: Canon,
    out: Vec<u16>,
    next_copy: Vec<usize>,
}

impl<B: Word> BitSolver<B> {
    /// A solver for the shared tables; `count_tried` says whether it
    /// counts the placements tried and refused at each depth.
    pub fn new(t: Arc<BitTables<B>>, count_tried: bool) -> BitSolver<B> {
        let depth = t.problem.types.iter().map(|x| x.hi as usize).sum::<usize>() + 2;
        let mut s = State {
            filled: B::ZERO,
            remaining: t.hi.clone(),
            avail: Avail::new(t.hi.len()),
            key: t.key0,
            imbalance: t.imbalance0,
            chosen: vec![0; depth],
            second: None,
            depth: 0,
            // One more list's room than the deepest stack of lists, for
            // the trial list of the cell choice, and 64 places more, for
            // writing a list indexed by type without a bounds check each
            // (see `lists::SPARE`).
            cands: vec![0; t.widest * (depth + 2) + SPARE],
            top: 0,
        };
        reset(&t, &mut s);
        BitSolver {
            s,
            frames: vec![Frame::default(); depth],
            counts: vec![0; depth + 1],
            tried: vec![[0; 2]; depth + 1],
            count_tried,
            any_layout: false,
            rep: None,
            canon: Canon::new(&t.problem),
            out: vec![0; t.problem.cells()],
            next_copy: vec![0; t.problem.types.len()],
            t,
        }
    }

    /// This solver, running the copy of the search loop that serves every
    /// layout even where the board's layout has one of its own (both must
    /// search the same tree).
    pub fn with_any_layout(mut self, any_layout: bool) -> BitSolver<B> {
        self.any_layout = any_layout;
        self
    }

    fn reset(&mut self) {
        reset(&self.t, &mut self.s);
        self.rep = None;
    }

    /// The first two levels of the search if a breaker were restricted to
    /// `reps` (see `State::trial`).
    fn breaker_trial(
        &mut self,
        reps: &[Rep],
        beaten: impl Fn(u64, u64) -> bool,
    ) -> Option<(u64, u64)> {
        self.reset();
        let t = &*self.t;
        self.s.trial(t, &t.any_grow(), reps, beaten)
    }

    /// Places `p` as the next piece.
    #[inline(always)]
    fn place(&mut self, p: usize) {
        let t = &*self.t;
        if self.s.depth == 0 && t.plan.breaker().is_some() {
            self.rep = t.plan.reps.binary_search_by_key(&p, |r| r.placement).ok();
            self.s.second = self.rep.filter(|&i| t.seconds[i].is_some());
        }
        self.s.place(t, p);
    }

    /// Takes back the last piece placed.
    #[inline(always)]
    fn unplace(&mut self) {
        self.s.unplace(&self.t);
    }

    /// Writes the children of the current node at `cands[top..]` and
    /// returns how many there are, and how many placements were tried. Off
    /// the search loop's path (replaying paths, probes, single nodes), so
    /// one copy serves every layout, compiled like the loop for the
    /// processor's instructions.
    fn gather(&mut self) -> (usize, usize) {
        #[cfg(target_arch = "x86_64")]
        if self.t.bmi {
            // SAFETY: `bmi` is true only when the processor has the
            // features `gather_bmi` is compiled for (detected in `new`).
            return unsafe { self.gather_bmi() };
        }
        self.gather_any()
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi1,bmi2,popcnt,lzcnt")]
    unsafe fn gather_bmi(&mut self) -> (usize, usize) {
        self.gather_any()
    }

    #[inline(always)]
    fn gather_any(&mut self) -> (usize, usize) {
        let t = &*self.t;
        self.s.gather(t, &t.any_grow())
    }

    /// Opens the node at the current depth: gathers its children and
    /// counts what was tried there when asked to (a branch per node, not
    /// per placement; the whole commands took at most 1.2% more
    /// instructions than with the loop compiled with and without it, which
    /// doubled the copies to build).
    #[inline(always)]
    fn open<G: Grow<B>>(&mut self, g: &G) -> usize {
        let (n, tried) = self.s.gather(&self.t, g);
        if self.count_tried {
            let counted = &mut self.tried[self.s.depth];
            counted[0] += tried as u64;
            counted[1] += (tried - n) as u64;
        }
        let start = self.s.top as u32;
        self.frames[self.s.depth] = Frame {
            start,
            end: start + n as u32,
            next: start,
        };
        self.s.top += n;
        n
    }

    fn is_complete(&self) -> bool {
        self.s.filled == self.t.full
    }

    /// A complete cover is a solution when every mandatory copy is used.
    fn mandatory_used(&self) -> bool {
        !self.t.any_optional
            || self
                .s
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
        let second = self
            .s
            .second
            .and_then(|i| t.seconds[i].as_ref())
            .map(|c| &c.second);
        self.canon.weight_second(
            &t.problem,
            &t.plan,
            &self.s.chosen[..self.s.depth],
            rep,
            second,
        )
    }

    fn fill_solution(&mut self) {
        self.t.problem.fill_solution(
            &self.s.chosen[..self.s.depth],
            &mut self.next_copy,
            &mut self.out,
        );
    }

    /// Replays `path` from the root, leaving its placements made.
    fn descend(&mut self, path: &[u32]) -> Result<(), NoSuchNode> {
        self.reset();
        for &k in path {
            let (n, _) = self.gather();
            if k as usize >= n {
                return Err(NoSuchNode {
                    path: path.to_vec(),
                });
            }
            let p = self.s.cands[self.s.top + k as usize] as usize;
            self.place(p);
        }
        Ok(())
    }

    /// The bit of the cell the current node branches on (see
    /// `State::chosen_bit`).
    fn chosen_bit(&self) -> Option<usize> {
        let t = &*self.t;
        self.s.chosen_bit(t, &t.any_grow())
    }

    fn position(&self, base: usize) -> f64 {
        fraction_of((base..self.s.depth).map(|d| {
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
    ///
    /// On processors with the bit-manipulation instructions (BMI1/2,
    /// POPCNT, LZCNT: every x86-64 from about 2013) the loop is compiled
    /// for them, chosen when the program runs: portable builds cannot
    /// assume them, yet the search is made of lowest-bit, population-count
    /// and variable-shift operations that they do in one instruction each
    /// (measured 10% faster on 6 x 10 pentominoes), and PEXT and PDEP read
    /// the cover lists. There, the layouts of the catalog's puzzles have a
    /// copy of the loop of their own (see [`Word`]) and every other board
    /// runs the one copy that tells the layouts apart at each step
    /// ([`BitTables::any_grow`]); so does every board on other processors. Each copy
    /// of the loop costs seconds of build time, so a layout gets its own
    /// only where a benchmark shows that it pays (BENCHMARKS.md, "Build in
    /// minutes"; the CI guard `scripts/build-guard.sh` counts them).
    fn run(&mut self, sink: &mut dyn Sink<[u16]>, ticker: &mut Ticker<'_>) -> ControlFlow<()> {
        #[cfg(target_arch = "x86_64")]
        if self.t.bmi {
            // SAFETY: `bmi` is true only when the processor has the
            // features the loop's fast copies are compiled for (detected
            // in `new`).
            return unsafe {
                match self.any_layout {
                    true => self.run_bmi_any(sink, ticker),
                    false => B::run_bmi(self, sink, ticker),
                }
            };
        }
        let t = Arc::clone(&self.t);
        self.run_loop(&t.any_grow(), sink, ticker)
    }

    /// The loop compiled for the bit-manipulation instructions, with the
    /// growth `g`.
    ///
    /// # Safety
    ///
    /// The processor must have BMI1, BMI2, POPCNT and LZCNT.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi1,bmi2,popcnt,lzcnt")]
    unsafe fn run_bmi_with<G: Grow<B>>(
        &mut self,
        g: &G,
        sink: &mut dyn Sink<[u16]>,
        ticker: &mut Ticker<'_>,
    ) -> ControlFlow<()> {
        self.run_loop(g, sink, ticker)
    }

    /// [`run_bmi_with`](Self::run_bmi_with) on any layout.
    ///
    /// # Safety
    ///
    /// As for `run_bmi_with`.
    #[cfg(target_arch = "x86_64")]
    unsafe fn run_bmi_any(
        &mut self,
        sink: &mut dyn Sink<[u16]>,
        ticker: &mut Ticker<'_>,
    ) -> ControlFlow<()> {
        let t = Arc::clone(&self.t);
        // SAFETY: passed on from the caller.
        unsafe { self.run_bmi_with(&t.any_grow(), sink, ticker) }
    }

    #[inline(always)]
    fn run_loop<G: Grow<B>>(
        &mut self,
        g: &G,
        sink: &mut dyn Sink<[u16]>,
        ticker: &mut Ticker<'_>,
    ) -> ControlFlow<()> {
        let base = self.s.depth;
        self.counts[base] += 1;
        if self.is_complete() {
            return self.report(sink);
        }
        self.open(g);
        let mut since_poll: u64 = 1;
        loop {
            let f = &mut self.frames[self.s.depth];
            if f.next == f.end {
                // Every child tried: back up.
                self.s.top = f.start as usize;
                if self.s.depth == base {
                    let _ = ticker.poll(since_poll, || 1.0);
                    return ControlFlow::Continue(());
                }
                self.unplace();
                continue;
            }
            let p = self.s.cands[f.next as usize] as usize;
            f.next += 1;
            self.place(p);
            self.counts[self.s.depth] += 1;
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
            self.open(g);
        }
    }
}

impl<B: Word> Tree for BitSolver<B> {
    type Solution = [u16];

    /// One random walk from the root (Knuth's estimator), placing as it goes.
    fn probe(&mut self, pick: &mut dyn FnMut(u32) -> u32) -> Result<Probe, NoSuchNode> {
        self.reset();
        let mut degrees = Vec::new();
        loop {
            if self.is_complete() {
                return Ok(Probe {
                    degrees,
                    leaf: NodeKind::Solution(self.leaf_weight()),
                });
            }
            let n = self.gather().0 as u32;
            if n == 0 {
                return Ok(Probe {
                    degrees,
                    leaf: NodeKind::DeadEnd,
                });
            }
            degrees.push(n);
            let k = pick(n).min(n - 1) as usize;
            let p = self.s.cands[self.s.top + k] as usize;
            self.place(p);
        }
    }

    /// What the node at `path` is.
    fn node(&mut self, path: &[u32]) -> Result<NodeKind, NoSuchNode> {
        self.node_counted(path, &mut NodeStats::new())
    }

    /// What the node at `path` is, counting what was tried there.
    fn node_counted(
        &mut self,
        path: &[u32],
        stats: &mut NodeStats,
    ) -> Result<NodeKind, NoSuchNode> {
        self.descend(path)?;
        if self.is_complete() {
            return Ok(NodeKind::Solution(self.leaf_weight()));
        }
        let (n, tried) = self.gather();
        if self.count_tried {
            stats.add_tried(path.len(), tried as u64);
            stats.add_rejected(Prune::DeadRegion, path.len(), (tried - n) as u64);
        }
        Ok(if n == 0 {
            NodeKind::DeadEnd
        } else {
            NodeKind::Inner(n as u32)
        })
    }

    /// The breaker's type at the root of a symmetry-broken search (its
    /// representative placements are the children), else the chosen cell.
    fn branch(&mut self, path: &[u32]) -> Result<Option<Branch>, NoSuchNode> {
        self.descend(path)?;
        if self.is_complete() || self.gather().0 == 0 {
            return Ok(None);
        }
        let t = &*self.t;
        if let (0, Some(ty)) = (self.s.depth, t.plan.breaker()) {
            return Ok(Some(Branch::Piece(ty as u32)));
        }
        Ok(self.chosen_bit().map(|b| Branch::Cell(t.cell_of_bit[b])))
    }

    /// Explores the subtree at `path`.
    fn explore(
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
        for (d, [tried, refused]) in self.tried.iter_mut().enumerate() {
            stats.add_tried(d, std::mem::take(tried));
            stats.add_rejected(Prune::DeadRegion, d, std::mem::take(refused));
        }
        Ok(flow)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{catalog, CellChoice};
    use super::*;
    use crate::symmetry::Plan;

    /// A candidate's trial stops once it cannot win, yet the breaker chosen
    /// is the one a full count of every candidate picks: the first with
    /// the smallest d2³ / d1², the fewest orbits first.
    #[test]
    fn stopping_a_losing_trial_keeps_the_choice() {
        for name in [
            "hexiamond-6x6",
            "pentomino-8x8-hole",
            "soma",
            "tetrahex-4x7",
        ] {
            let problem = Arc::new(catalog(name));
            let candidates = Plan::candidates(&problem);
            assert!(candidates.len() > 1, "{name}");
            let plan = Arc::new(Plan::fewest_orbits(&problem, candidates.clone()));
            let tables = || {
                BitTables::<u128>::without_seconds(
                    Arc::clone(&problem),
                    Arc::clone(&plan),
                    CellChoice::Tightest,
                    16,
                    false,
                )
                .unwrap()
            };
            let (_, chosen) = choose_breaker(tables(), Arc::clone(&plan), candidates.clone());
            let mut solver = BitSolver::new(Arc::new(tables()), false);
            let full = |solver: &mut BitSolver<u128>, reps: &[Rep]| {
                let (d1, d2) = solver.breaker_trial(reps, |_, _| false).unwrap();
                (d1 as f64, d2 as f64)
            };
            let current = plan.breaker().unwrap();
            let (d1, d2) = full(&mut solver, &plan.reps);
            let mut best = (d2.powi(3) / d1.max(1.0).powi(2), current);
            for (ty, reps) in &candidates {
                if *ty != current {
                    let (d1, d2) = full(&mut solver, reps);
                    let score = d2.powi(3) / d1.max(1.0).powi(2);
                    if score < best.0 {
                        best = (score, *ty);
                    }
                }
            }
            assert_eq!(chosen.breaker(), Some(best.1), "{name}");
        }
    }

    /// The cell a node names as its branch is empty there and covered by
    /// every child's placement (for the first empty cell: every cell
    /// before it in scan order is full); the symmetry breaker's root names
    /// the breaker, whose placements the children are.
    #[test]
    fn every_child_covers_the_chosen_cell() {
        for name in ["pentomino-3x20", "tetrahex-4x7", "soma"] {
            let problem = Arc::new(catalog(name));
            for symmetry in [false, true] {
                let plan = Arc::new(Plan::new(&problem, symmetry));
                for choice in [CellChoice::First, CellChoice::Fewest, CellChoice::Tightest] {
                    let t = BitTables::<u64>::new(
                        Arc::clone(&problem),
                        Arc::clone(&plan),
                        choice,
                        16,
                        false,
                    )
                    .unwrap();
                    let mut s = BitSolver::new(Arc::new(t), false);
                    let mut level: Vec<Vec<u32>> = vec![Vec::new()];
                    let mut checked = 0;
                    for _ in 0..6 {
                        let mut next = Vec::new();
                        for path in &level {
                            let kind = s.node(path).unwrap();
                            let branch = s.branch(path).unwrap();
                            let NodeKind::Inner(d) = kind else {
                                assert_eq!(branch, None, "{name} {path:?}");
                                continue;
                            };
                            s.descend(path).unwrap();
                            let (n, _) = s.gather();
                            assert_eq!(n as u32, d);
                            let kids: Vec<usize> = s.s.cands[s.s.top..s.s.top + n]
                                .iter()
                                .map(|&p| p as usize)
                                .collect();
                            match branch {
                                Some(Branch::Piece(ty)) => {
                                    assert!(path.is_empty() && symmetry);
                                    assert!(kids.iter().all(|&p| u32::from(s.t.info[p].ty) == ty));
                                }
                                Some(Branch::Cell(c)) => {
                                    let bit = s.t.cell_of_bit.iter().position(|&x| x == c).unwrap();
                                    assert!(!s.s.filled.has(bit), "{name} {path:?}");
                                    for &p in &kids {
                                        assert!(s.t.info[p].mask.has(bit), "{name} {path:?}");
                                    }
                                    if s.t.choice == CellChoice::First {
                                        for b in 0..bit {
                                            let cell = s.t.cell_of_bit[b];
                                            assert!(cell == u32::MAX || s.s.filled.has(b));
                                        }
                                    }
                                }
                                other => panic!("{name} {path:?}: {other:?}"),
                            }
                            checked += 1;
                            for k in 0..d.min(3) {
                                let mut child = path.clone();
                                child.push(k);
                                next.push(child);
                            }
                        }
                        level = next;
                    }
                    assert!(checked > 10, "{name} {choice:?}: {checked}");
                }
            }
        }
    }

    /// What a node tries is every placement that covers its cell, fits and
    /// has a copy left, less those a second breaker bars there, whatever
    /// the dead-region check makes of them: counted by brute force over
    /// the placements at every node of the tree, against the engine's own
    /// count. The first empty cell's lists leave out, when the check is on,
    /// placements that close a hole at once, so that choice runs without
    /// it.
    #[test]
    fn placements_a_second_breaker_bars_are_not_tried() {
        use jigsolve_search::{Control, Ticker};
        fn walk<B: Word>(s: &mut BitSolver<B>, path: &mut Vec<u32>, tried: &mut Vec<u64>) {
            let t = Arc::clone(&s.t);
            s.descend(path).unwrap();
            let depth = path.len();
            if s.is_complete() {
                return;
            }
            // The root of a broken search tries the breaker's
            // representatives instead; a dead end counts too.
            if depth > 0 || t.plan.breaker().is_none() {
                let bit = s.chosen_bit().unwrap();
                let cut =
                    s.s.second
                        .filter(|_| depth > 0)
                        .and_then(|i| t.seconds[i].as_ref());
                let n = (0..t.info.len())
                    .filter(|&p| {
                        let info = &t.info[p];
                        info.mask.has(bit)
                            && (info.mask & s.s.filled).is_empty()
                            && s.s.remaining[info.ty as usize] > 0
                            && cut.is_none_or(|c| c.allowed[p])
                    })
                    .count() as u64;
                if tried.len() <= depth {
                    tried.resize(depth + 1, 0);
                }
                tried[depth] += n;
            }
            let (kids, _) = s.gather();
            for k in 0..kids as u32 {
                path.push(k);
                walk(s, path, tried);
                path.pop();
            }
        }
        for name in ["pentomino-3x20", "soma"] {
            let problem = Arc::new(catalog(name));
            let plan = Arc::new(Plan::new(&problem, true));
            for choice in [CellChoice::First, CellChoice::Fewest, CellChoice::Tightest] {
                let cap = if choice == CellChoice::First { 0 } else { 16 };
                let t = BitTables::<u64>::new(
                    Arc::clone(&problem),
                    Arc::clone(&plan),
                    choice,
                    cap,
                    false,
                )
                .unwrap();
                assert!(t.any_second(), "{name}: no second breaker");
                let t = Arc::new(t);
                let mut s = BitSolver::new(Arc::clone(&t), true);
                let mut stats = NodeStats::default();
                let control = Control::new();
                let mut sink = |_: &[u16], _: Weight| ControlFlow::Continue(());
                let _ = s
                    .explore(&[], &mut sink, &mut Ticker::new(&control), &mut stats)
                    .unwrap();
                let mut expected = Vec::new();
                walk(
                    &mut BitSolver::new(t, false),
                    &mut Vec::new(),
                    &mut expected,
                );
                let engine = stats.tried();
                let from = usize::from(plan.breaker().is_some());
                let end = engine.len().max(expected.len());
                for d in from..end {
                    assert_eq!(
                        engine.get(d).copied().unwrap_or(0),
                        expected.get(d).copied().unwrap_or(0),
                        "{name} {choice:?} at depth {d}"
                    );
                }
            }
        }
    }

    /// Below the representatives a symmetry fixes, the second breaker
    /// restricts a second piece; the counts are those of the search
    /// without any symmetry breaking (every distinct solution, each orbit
    /// marked once by its least member), with every cell choice.
    #[test]
    fn second_breakers_keep_the_counts() {
        use jigsolve_search::{count_solutions, Control};
        for name in ["pentomino-3x20", "soma", "pentomino-8x8-hole"] {
            let problem = Arc::new(catalog(name));
            for choice in [CellChoice::First, CellChoice::Fewest, CellChoice::Tightest] {
                let count = |symmetry: bool| {
                    let plan = Arc::new(Plan::new(&problem, symmetry));
                    let t = BitTables::<u64>::new(Arc::clone(&problem), plan, choice, 16, false)
                        .unwrap();
                    let any_second = t.any_second();
                    let t = Arc::new(t);
                    let report = count_solutions(
                        || BitSolver::new(Arc::clone(&t), false),
                        1,
                        &Control::new(),
                    )
                    .unwrap();
                    (any_second, report.counts, report.nodes.total())
                };
                let (second, broken, nodes) = count(true);
                let (_, all, all_nodes) = count(false);
                assert!(second, "{name} {choice:?}: no second breaker");
                assert_eq!(broken, all, "{name} {choice:?}");
                assert!(nodes < all_nodes, "{name} {choice:?}");
            }
        }
    }
}
