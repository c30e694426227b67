//! The general engine: dancing links (Knuth's Algorithm X) with the
//! minimum-remaining-values choice, for boards of any size.
//!
//! The exact-cover matrix has one *primary* item per cell (covered exactly
//! once) and one per piece type that must be used exactly once; every other
//! piece type (several copies, or optional) is a *counter* item with a
//! capacity: an option using it lowers its count, and when the count reaches
//! zero all its remaining options are hidden, as Knuth does for secondary
//! items. So identical copies are a multiplicity, never enumerated in every
//! order, and a mandatory counter that still needs copies but has no option
//! left ends the branch. Colours never reach the matrix: options that put a
//! coloured cell on the wrong colour are not generated.
//!
//! Each node branches on the primary item with the fewest options (the
//! first such in item order: cells in scan order, then pieces). The links
//! follow TAOCP 7.2.2.1: a node per (option, item), spacers between options
//! whose up link points at the option's first node and down link at the
//! previous option's last node, so that hiding and unhiding walk an option
//! cyclically without a separate length.
//!
//! With a symmetry breaker, the breaker's options are only its
//! representative placements, so the minimum-remaining-values rule usually
//! takes the breaker first on its own.

use crate::problem::Problem;
use crate::symmetry::{Canon, Mode, Plan};
use jigsolve_search::{
    fraction_of, Branch, NoSuchNode, NodeKind, NodeStats, Probe, Sink, Ticker, Tree, Weight,
};
use std::ops::ControlFlow;
use std::sync::Arc;

/// Nodes between two polls of the control.
const POLL_EVERY: u64 = 1 << 12;
/// Items looked at while choosing, between two polls: on a board of tens of
/// thousands of cells one choice scans them all, and 4,096 such nodes took
/// a quarter of a second, long past a time limit or Ctrl-C. About a
/// millisecond of scanning.
const SCANS_PER_POLL: u64 = 1 << 20;

/// The matrix of one problem, as built before any search; shared by all threads.
#[derive(Debug)]
pub struct DlxTables {
    problem: Arc<Problem>,
    plan: Arc<Plan>,
    /// Number of primary items (items `1..=primary`).
    primary: usize,
    /// Counter items `primary+1..=primary+counters`, as type indices.
    counter_type: Vec<usize>,
    top: Vec<i32>,
    up: Vec<u32>,
    down: Vec<u32>,
    len: Vec<u32>,
    /// For option k (from spacer `-(k+1)`), its placement.
    option_placement: Vec<usize>,
}

impl DlxTables {
    /// Builds the matrix of `problem` under the symmetry `plan`.
    pub fn new(problem: Arc<Problem>, plan: Arc<Plan>) -> DlxTables {
        let n = problem.cells();
        // Item of each type: primary when exactly one copy must be used.
        let mut item_of_type = vec![0u32; problem.types.len()];
        let mut primary = n;
        for (t, ty) in problem.types.iter().enumerate() {
            if ty.lo == 1 && ty.hi == 1 {
                primary += 1;
                item_of_type[t] = primary as u32;
            }
        }
        let mut counter_type = Vec::new();
        for (t, ty) in problem.types.iter().enumerate() {
            if !(ty.lo == 1 && ty.hi == 1) {
                counter_type.push(t);
                item_of_type[t] = (primary + counter_type.len()) as u32;
            }
        }
        let items = primary + counter_type.len();
        let mut top: Vec<i32> = (0..=items as i32).collect();
        let mut up: Vec<u32> = (0..=items as u32).collect();
        let mut down: Vec<u32> = (0..=items as u32).collect();
        let mut len = vec![0u32; items + 1];
        let mut option_placement = Vec::new();

        let allowed: Vec<usize> = match plan.mode {
            Mode::Breaker { ty } => {
                let mut v: Vec<usize> = (0..problem.placements.len())
                    .filter(|&p| problem.placements[p].ty as usize != ty)
                    .collect();
                v.extend(plan.reps.iter().map(|r| r.placement));
                v.sort_unstable();
                v
            }
            _ => (0..problem.placements.len()).collect(),
        };
        // First spacer.
        top.push(0);
        up.push(0);
        down.push(0);
        for &p in &allowed {
            let pl = &problem.placements[p];
            let spacer = top.len() - 1;
            let mut option_items: Vec<u32> = pl.cells.iter().map(|&c| c + 1).collect();
            // The type's item last, so that counters are handled after cells.
            option_items.push(item_of_type[pl.ty as usize]);
            for &i in &option_items {
                let q = top.len() as u32;
                top.push(i as i32);
                let last = up[i as usize];
                up.push(last);
                down.push(i);
                down[last as usize] = q;
                up[i as usize] = q;
                len[i as usize] += 1;
            }
            let m = option_items.len() as u32;
            down[spacer] = spacer as u32 + m;
            option_placement.push(p);
            top.push(-(option_placement.len() as i32));
            up.push(top.len() as u32 - 1 - m);
            down.push(0);
        }
        DlxTables {
            problem,
            plan,
            primary,
            counter_type,
            top,
            up,
            down,
            len,
            option_placement,
        }
    }
}

/// A search over one problem with dancing links; one per thread.
#[derive(Debug)]
pub struct DlxSolver {
    t: Arc<DlxTables>,
    top: Arc<[i32]>,
    up: Vec<u32>,
    down: Vec<u32>,
    len: Vec<u32>,
    left: Vec<u32>,
    right: Vec<u32>,
    /// Remaining capacity of each counter item (indexed from 0).
    count: Vec<u32>,
    /// Copies each counter type must still have used to reach its minimum:
    /// `hi - lo` is the slack.
    slack: Vec<u32>,
    /// Per level: the item branched on and the option node taken.
    stack: Vec<(u32, u32)>,
    frames: Vec<(u32, u32)>,
    counts: Vec<u64>,
    /// Options tried per depth: every option of the item branched on is a
    /// child (conflicting options were hidden when their items were
    /// covered), so nothing tried is rejected.
    tried: Vec<u64>,
    since_poll: u64,
    /// Items scanned by `choose` since the last poll.
    scanned: u64,
    canon: Canon,
    chosen: Vec<usize>,
    out: Vec<u16>,
    next_copy: Vec<usize>,
}

impl DlxSolver {
    /// A solver for the shared matrix.
    pub fn new(t: Arc<DlxTables>) -> DlxSolver {
        let mut left = vec![0u32; t.primary + 1];
        let mut right = vec![0u32; t.primary + 1];
        for i in 0..=t.primary {
            left[i] = if i == 0 {
                t.primary as u32
            } else {
                i as u32 - 1
            };
            right[i] = if i == t.primary { 0 } else { i as u32 + 1 };
        }
        let prob = &t.problem;
        let count = t.counter_type.iter().map(|&ty| prob.types[ty].hi).collect();
        let slack = t
            .counter_type
            .iter()
            .map(|&ty| prob.types[ty].hi - prob.types[ty].lo)
            .collect();
        let depth = prob.types.iter().map(|x| x.hi as usize).sum::<usize>() + 2;
        DlxSolver {
            top: t.top.clone().into(),
            up: t.up.clone(),
            down: t.down.clone(),
            len: t.len.clone(),
            left,
            right,
            count,
            slack,
            stack: Vec::with_capacity(depth),
            frames: vec![(0, 0); depth],
            counts: vec![0; depth],
            tried: vec![0; depth],
            since_poll: 0,
            scanned: 0,
            canon: Canon::new(prob),
            chosen: Vec::with_capacity(depth),
            out: vec![0; prob.cells()],
            next_copy: vec![0; prob.types.len()],
            t,
        }
    }

    #[inline(always)]
    fn hide(&mut self, p: u32) {
        let mut q = p + 1;
        while q != p {
            let x = self.top[q as usize];
            if x <= 0 {
                q = self.up[q as usize];
            } else {
                let (u, d) = (self.up[q as usize], self.down[q as usize]);
                self.down[u as usize] = d;
                self.up[d as usize] = u;
                self.len[x as usize] -= 1;
                q += 1;
            }
        }
    }

    #[inline(always)]
    fn unhide(&mut self, p: u32) {
        let mut q = p - 1;
        while q != p {
            let x = self.top[q as usize];
            if x <= 0 {
                q = self.down[q as usize];
            } else {
                let (u, d) = (self.up[q as usize], self.down[q as usize]);
                self.down[u as usize] = q;
                self.up[d as usize] = q;
                self.len[x as usize] += 1;
                q -= 1;
            }
        }
    }

    /// Hides every option in column `i`.
    fn hide_column(&mut self, i: u32) {
        let mut p = self.down[i as usize];
        while p != i {
            self.hide(p);
            p = self.down[p as usize];
        }
    }

    fn unhide_column(&mut self, i: u32) {
        let mut p = self.up[i as usize];
        while p != i {
            self.unhide(p);
            p = self.up[p as usize];
        }
    }

    fn cover(&mut self, i: u32) {
        self.hide_column(i);
        let (l, r) = (self.left[i as usize], self.right[i as usize]);
        self.right[l as usize] = r;
        self.left[r as usize] = l;
    }

    fn uncover(&mut self, i: u32) {
        let (l, r) = (self.left[i as usize], self.right[i as usize]);
        self.right[l as usize] = i;
        self.left[r as usize] = i;
        self.unhide_column(i);
    }

    /// Covers the other items of the option at node `x`.
    fn commit(&mut self, x: u32) {
        let primary = self.t.primary as i32;
        let mut q = x + 1;
        while q != x {
            let j = self.top[q as usize];
            if j <= 0 {
                q = self.up[q as usize];
                continue;
            }
            if j <= primary {
                self.cover(j as u32);
            } else {
                let c = (j - primary - 1) as usize;
                self.count[c] -= 1;
                if self.count[c] == 0 {
                    self.hide_column(j as u32);
                }
            }
            q += 1;
        }
    }

    fn uncommit(&mut self, x: u32) {
        let primary = self.t.primary as i32;
        let mut q = x - 1;
        while q != x {
            let j = self.top[q as usize];
            if j <= 0 {
                q = self.down[q as usize];
                continue;
            }
            if j <= primary {
                self.uncover(j as u32);
            } else {
                let c = (j - primary - 1) as usize;
                if self.count[c] == 0 {
                    self.unhide_column(j as u32);
                }
                self.count[c] += 1;
            }
            q -= 1;
        }
    }

    /// The primary item with the fewest options (0 when none is left).
    #[inline(always)]
    fn choose(&mut self) -> (u32, u32) {
        let mut best = u32::MAX;
        let mut best_item = 0;
        let mut i = self.right[0];
        let mut scanned = 0u64;
        while i != 0 {
            scanned += 1;
            let l = self.len[i as usize];
            if l < best {
                best = l;
                best_item = i;
                if l == 0 {
                    break;
                }
            }
            i = self.right[i as usize];
        }
        self.scanned += scanned;
        (best_item, best)
    }

    /// A mandatory counter that needs more copies but has no option left.
    fn starved(&self) -> bool {
        let base = self.t.primary + 1;
        self.count
            .iter()
            .zip(&self.slack)
            .enumerate()
            .any(|(c, (&left, &slack))| left > slack && self.len[base + c] == 0)
    }

    fn complete(&self) -> bool {
        self.right[0] == 0
    }

    fn mandatory_used(&self) -> bool {
        self.count
            .iter()
            .zip(&self.slack)
            .all(|(left, slack)| left <= slack)
    }

    fn placement_of(&self, mut x: u32) -> usize {
        while self.top[x as usize] > 0 {
            x += 1;
        }
        self.t.option_placement[(-self.top[x as usize] - 1) as usize]
    }

    fn leaf_weight(&mut self) -> Weight {
        if !self.mandatory_used() {
            return Weight::default();
        }
        self.chosen.clear();
        for k in 0..self.stack.len() {
            let p = self.placement_of(self.stack[k].1);
            self.chosen.push(p);
        }
        // Comparing the solution with its images walks every cell of the
        // board once per image: count it as scanning, so a big board's
        // leaves are polled as often as its choices.
        self.scanned += (self.stack.len() + self.t.primary) as u64 * 4;
        let t = &*self.t;
        let rep = t.plan.breaker().and_then(|b| {
            let p = *self
                .chosen
                .iter()
                .find(|&&p| t.problem.placements[p].ty as usize == b)?;
            let i = t.plan.reps.binary_search_by_key(&p, |r| r.placement).ok()?;
            Some(&t.plan.reps[i])
        });
        self.canon.weight(&t.problem, &t.plan, &self.chosen, rep)
    }

    fn fill_solution(&mut self) {
        self.t
            .problem
            .fill_solution(&self.chosen, &mut self.next_copy, &mut self.out);
    }

    fn reset(&mut self) {
        while let Some((i, x)) = self.stack.pop() {
            self.uncommit(x);
            self.uncover(i);
        }
    }

    fn descend(&mut self, path: &[u32]) -> Result<(), NoSuchNode> {
        self.reset();
        for &k in path {
            let missing = || NoSuchNode {
                path: path.to_vec(),
            };
            if self.complete() || self.starved() {
                return Err(missing());
            }
            let (i, l) = self.choose();
            if k >= l {
                return Err(missing());
            }
            self.cover(i);
            let mut x = self.down[i as usize];
            for _ in 0..k {
                x = self.down[x as usize];
            }
            self.commit(x);
            self.stack.push((i, x));
        }
        Ok(())
    }

    /// One random walk from the root (Knuth's estimator), covering as it
    /// goes: the same choices as `descend` would make for
    /// the path picked, without replaying every prefix (a replay per level
    /// made one probe of a board 10,000 pieces deep take minutes).
    fn walk(&mut self, pick: &mut dyn FnMut(u32) -> u32) -> Probe {
        self.reset();
        let mut degrees = Vec::new();
        loop {
            if self.complete() {
                return Probe {
                    degrees,
                    leaf: NodeKind::Solution(self.leaf_weight()),
                };
            }
            if self.starved() {
                return Probe {
                    degrees,
                    leaf: NodeKind::DeadEnd,
                };
            }
            let (i, l) = self.choose();
            if l == 0 {
                return Probe {
                    degrees,
                    leaf: NodeKind::DeadEnd,
                };
            }
            degrees.push(l);
            let k = pick(l).min(l - 1);
            self.cover(i);
            let mut x = self.down[i as usize];
            for _ in 0..k {
                x = self.down[x as usize];
            }
            self.commit(x);
            self.stack.push((i, x));
        }
    }

    fn position(&self, base: usize) -> f64 {
        fraction_of(self.frames[base..self.stack.len()].iter().copied())
    }

    fn dfs(
        &mut self,
        base: usize,
        sink: &mut dyn Sink<[u16]>,
        ticker: &mut Ticker<'_>,
    ) -> ControlFlow<()> {
        if self.complete() {
            let w = self.leaf_weight();
            if w.is_zero() {
                return ControlFlow::Continue(());
            }
            self.fill_solution();
            return sink.solution(&self.out, w);
        }
        if !self.count.is_empty() && self.starved() {
            return ControlFlow::Continue(());
        }
        let (i, l) = self.choose();
        if l == 0 {
            return ControlFlow::Continue(());
        }
        let depth = self.stack.len();
        self.tried[depth] += u64::from(l);
        self.cover(i);
        let mut x = self.down[i as usize];
        let mut k = 0;
        let mut flow = ControlFlow::Continue(());
        while x != i {
            self.frames[depth] = (k, l);
            self.commit(x);
            self.stack.push((i, x));
            self.counts[depth + 1] += 1;
            self.since_poll += 1;
            if self.since_poll >= POLL_EVERY || self.scanned >= SCANS_PER_POLL {
                self.scanned = 0;
                let n = std::mem::take(&mut self.since_poll);
                if ticker.poll(n, || self.position(base)).is_break() {
                    flow = ControlFlow::Break(());
                }
            }
            if flow.is_continue() {
                flow = self.dfs(base, sink, ticker);
            }
            self.stack.pop();
            self.uncommit(x);
            if flow.is_break() {
                break;
            }
            x = self.down[x as usize];
            k += 1;
        }
        self.uncover(i);
        flow
    }
}

impl Tree for DlxSolver {
    type Solution = [u16];

    /// A random walk that covers as it goes (see `walk`).
    fn probe(&mut self, pick: &mut dyn FnMut(u32) -> u32) -> Result<Probe, NoSuchNode> {
        Ok(self.walk(pick))
    }

    /// What the node at `path` is.
    fn node(&mut self, path: &[u32]) -> Result<NodeKind, NoSuchNode> {
        self.descend(path)?;
        if self.complete() {
            return Ok(NodeKind::Solution(self.leaf_weight()));
        }
        if self.starved() {
            return Ok(NodeKind::DeadEnd);
        }
        let (_, l) = self.choose();
        Ok(if l == 0 {
            NodeKind::DeadEnd
        } else {
            NodeKind::Inner(l)
        })
    }

    /// What the node at `path` is, counting the options tried there.
    fn node_counted(
        &mut self,
        path: &[u32],
        stats: &mut NodeStats,
    ) -> Result<NodeKind, NoSuchNode> {
        let kind = self.node(path)?;
        if let NodeKind::Inner(l) = kind {
            stats.add_tried(path.len(), u64::from(l));
        }
        Ok(kind)
    }

    /// The item branched on: a cell, or a piece that must be used once.
    fn branch(&mut self, path: &[u32]) -> Result<Option<Branch>, NoSuchNode> {
        if !matches!(self.node(path)?, NodeKind::Inner(_)) {
            return Ok(None);
        }
        let (item, _) = self.choose();
        let cells = self.t.problem.cells() as u32;
        Ok(Some(if item <= cells {
            Branch::Cell(item - 1)
        } else {
            // Items past the cells are the types used exactly once, in order.
            let ty = self
                .t
                .problem
                .types
                .iter()
                .enumerate()
                .filter(|(_, ty)| ty.lo == 1 && ty.hi == 1)
                .nth((item - cells - 1) as usize)
                .map_or(0, |(t, _)| t);
            Branch::Piece(ty as u32)
        }))
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
        let base = path.len();
        if self.counts.len() < base + 2 {
            self.counts.resize(base + 2, 0);
            self.tried.resize(base + 2, 0);
        }
        self.counts[base] += 1;
        self.since_poll += 1;
        let flow = self.dfs(base, sink, ticker);
        let n = std::mem::take(&mut self.since_poll);
        let flow = if flow.is_continue() {
            ticker.poll(n, || 1.0)
        } else {
            flow
        };
        stats.add_profile(0, &self.counts);
        self.counts.iter_mut().for_each(|c| *c = 0);
        for (d, tried) in self.tried.iter_mut().enumerate() {
            stats.add_tried(d, std::mem::take(tried));
        }
        Ok(flow)
    }
}
