//! The search itself: one solver per thread walks the tree depth first,
//! polls the control, and weighs each tiling against its symmetric images.

use super::preparation::Prepared;
use super::region::Poly;
use crate::geom::Pt;
use crate::model::Placement;
use crate::num::Scalar;
use crate::symmetry::{cmp_points, Iso};
use jigsolve_search::{
    fraction_of, Branch, NoSuchNode, NodeKind, NodeStats, Prune, Sink, Ticker, Tree, Weight,
};
use std::cell::Cell;
use std::cmp::Ordering;
use std::ops::ControlFlow;
use std::sync::atomic::Ordering as AtomicOrdering;
use std::sync::Arc;

/// A child of a node: a valid placing.
#[derive(Clone, Debug)]
pub(super) struct Child<S> {
    pub(super) ty: usize,
    pub(super) iso: Iso<S>,
    /// The polygon replaced and the polygons replacing it.
    pub(super) poly: usize,
    pub(super) polys: Vec<Arc<Poly<S>>>,
}

/// How a node stands before its children are generated.
pub(super) enum Status {
    Open,
    Dead,
    Leaf,
}

/// A search over one prepared puzzle; one per thread.
#[derive(Debug)]
pub struct Solver<S> {
    pub(super) prep: Arc<Prepared<S>>,
    pub(super) avail: Vec<u32>,
    pub(super) placed: Vec<(usize, Iso<S>)>,
    pub(super) counts: Vec<u64>,
    /// Per depth, the nodes cut short by a dead region, a memo hit and
    /// as a symmetric copy (for `--stats`).
    pub(super) cut: Vec<[u64; 3]>,
    /// Per depth: (child index, children) for the progress measure.
    pub(super) pos: Vec<(u32, u32)>,
    pub(super) since_poll: u64,
    pub(super) solution: Vec<Placement<S>>,
    /// Placings of the symmetry-breaking piece cut so far: a subtree with
    /// such a cut may hold tilings, so finding none there proves nothing.
    pub(super) sym_cuts: Cell<u64>,
}

/// Nodes between two polls of the control.
const POLL_EVERY: u64 = 1 << 12;

/// Why a search stopped early.
pub(super) struct Stop;

impl<S: Scalar> Solver<S> {
    /// A solver for a prepared puzzle.
    pub fn new(prep: Arc<Prepared<S>>) -> Solver<S> {
        let n = prep.n_pieces;
        Solver {
            avail: prep.counts.clone(),
            placed: Vec::with_capacity(n),
            counts: vec![0; n + 1],
            cut: vec![[0; 3]; n + 1],
            pos: vec![(0, 1); n + 1],
            since_poll: 0,
            solution: Vec::with_capacity(n),
            sym_cuts: Cell::new(0),
            prep,
        }
    }

    /// The prepared puzzle.
    pub fn prepared(&self) -> &Arc<Prepared<S>> {
        &self.prep
    }

    /// Entries in the memo of impossible regions (shared by every solver of
    /// this prepared puzzle).
    pub fn memo_len(&self) -> usize {
        self.prep.memo.len()
    }

    pub(super) fn remaining(&self) -> usize {
        self.avail.iter().map(|&c| c as usize).sum()
    }

    /// The child's region: the polygons the placement leaves alone are
    /// shared with the parent's region (a reference count each), not copied.
    pub(super) fn apply(&mut self, region: &[Arc<Poly<S>>], child: &Child<S>) -> Vec<Arc<Poly<S>>> {
        self.avail[child.ty] -= 1;
        self.placed.push((child.ty, child.iso.clone()));
        let mut next = Vec::with_capacity(region.len() + child.polys.len());
        for (i, p) in region.iter().enumerate() {
            if i != child.poly {
                next.push(p.clone());
            }
        }
        next.extend(child.polys.iter().cloned());
        next
    }

    pub(super) fn undo(&mut self) {
        if let Some((t, _)) = self.placed.pop() {
            self.avail[t] += 1;
        }
    }

    pub(super) fn reset(&mut self) {
        self.avail.copy_from_slice(&self.prep.counts);
        self.placed.clear();
    }

    /// Replays `path` from the root; returns the region there.
    pub(super) fn descend(&mut self, path: &[u32]) -> Result<Vec<Arc<Poly<S>>>, NoSuchNode> {
        self.reset();
        let mut region = self.prep.region.clone();
        for (d, &k) in path.iter().enumerate() {
            let missing = || NoSuchNode {
                path: path.to_vec(),
            };
            if !matches!(self.status(&region), Status::Open) {
                return Err(missing());
            }
            let kids = self.children(&region);
            let child = kids.get(k as usize).ok_or_else(missing)?;
            self.pos[d] = (k, kids.len() as u32);
            region = self.apply(&region, child);
        }
        Ok(region)
    }

    /// The weight of the tiling now placed (zero when it is not the least
    /// of its images and symmetry is on), and fills `self.solution`.
    pub(super) fn leaf(&mut self) -> Weight {
        let prep = &*self.prep;
        // Assign copies of a type in the order they were placed.
        let mut next_copy = vec![0usize; prep.types.len()];
        self.solution.clear();
        for (t, iso) in &self.placed {
            let ty = &prep.types[*t];
            let member = next_copy[*t];
            next_copy[*t] += 1;
            let g = iso.compose(&ty.to_rep[member]);
            self.solution.push(Placement {
                piece: ty.members[member],
                flipped: g.mirror,
                rot: g.w,
                shift: g.s,
            });
        }
        self.solution.sort_by_key(|p| p.piece);
        let g = prep.group.len() as u128;
        if g == 1 {
            return Weight {
                raw: prep.multiplier,
                distinct: 1,
                unique: 1,
            };
        }
        // Compare with the images under the group.
        let encode = |g: &Iso<S>| -> Vec<(usize, Vec<Pt<S>>)> {
            let mut pieces: Vec<(usize, Vec<Pt<S>>)> = self
                .placed
                .iter()
                .map(|(t, iso)| {
                    let ty = &prep.types[*t];
                    let form0 = &ty.forms[0];
                    let t2 = if g.mirror {
                        ty.mirror.unwrap_or(*t)
                    } else {
                        *t
                    };
                    // Corners of the placed piece, from the representative.
                    let mut pts: Vec<Pt<S>> =
                        form0.q.iter().map(|p| g.apply(&iso.apply(p))).collect();
                    pts.sort_by(|a, b| a.cmp_xy(b));
                    (prep.rank[t2], pts)
                })
                .collect();
            pieces.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| cmp_points(&a.1, &b.1)));
            pieces
        };
        let cmp_enc = |a: &[(usize, Vec<Pt<S>>)], b: &[(usize, Vec<Pt<S>>)]| -> Ordering {
            for (x, y) in a.iter().zip(b) {
                let o = x.0.cmp(&y.0).then_with(|| cmp_points(&x.1, &y.1));
                if o != Ordering::Equal {
                    return o;
                }
            }
            Ordering::Equal
        };
        let me = encode(&prep.group[0]);
        let mut fixed = 1u128;
        let mut canonical = true;
        for g in &prep.group[1..] {
            let img = encode(g);
            match cmp_enc(&img, &me) {
                Ordering::Less => {
                    canonical = false;
                    if prep.options.symmetry {
                        break;
                    }
                }
                Ordering::Equal => fixed += 1,
                Ordering::Greater => {}
            }
        }
        if !prep.options.symmetry {
            // Every distinct tiling is reported; the least member of each
            // orbit carries the orbit's one unique tiling.
            return Weight {
                raw: prep.multiplier,
                distinct: 1,
                unique: canonical as u128,
            };
        }
        if !canonical {
            return Weight::default();
        }
        let orbit = g / fixed;
        Weight {
            raw: prep.multiplier.saturating_mul(orbit),
            distinct: orbit,
            unique: 1,
        }
    }

    pub(super) fn poll(
        &mut self,
        ticker: &mut Ticker<'_>,
        depth: usize,
        base: usize,
    ) -> Result<(), Stop> {
        let nodes = std::mem::take(&mut self.since_poll);
        let pos = &self.pos;
        let flow = ticker.poll(nodes, || fraction_of(pos[base..depth].iter().copied()));
        if flow.is_break() {
            Err(Stop)
        } else {
            Ok(())
        }
    }

    /// Depth-first search below the node at `depth` with `region`; returns
    /// the number of tilings found (of any weight).
    pub(super) fn dfs(
        &mut self,
        region: &[Arc<Poly<S>>],
        depth: usize,
        base: usize,
        sink: &mut dyn Sink<[Placement<S>]>,
        ticker: &mut Ticker<'_>,
    ) -> Result<u64, Stop> {
        self.counts[depth] += 1;
        self.since_poll += 1;
        if self.since_poll >= POLL_EVERY {
            self.poll(ticker, depth, base)?;
        }
        match self.status(region) {
            Status::Dead => {
                self.cut[depth][0] += 1;
                return Ok(0);
            }
            Status::Leaf => {
                let w = self.leaf();
                if w.is_zero() {
                    self.cut[depth][2] += 1;
                } else if sink.solution(&self.solution, w).is_break() {
                    return Err(Stop);
                }
                return Ok(1);
            }
            Status::Open => {}
        }
        let use_memo = self.prep.options.memo && depth > base && self.remaining() > 1;
        let key = if use_memo {
            let key = self.memo_key(region);
            if self.prep.memo.contains(&key) {
                self.cut[depth][1] += 1;
                return Ok(0);
            }
            Some(key)
        } else {
            None
        };
        let breaker_left = self.prep.breaker.is_some_and(|b| self.avail[b] > 0);
        let placed_key = if use_memo && breaker_left {
            let key = self.placed_key(region);
            if self.prep.memo_placed.contains(&key) {
                // Not a proof of impossibility: the parent must not store one.
                self.sym_cuts.set(self.sym_cuts.get() + 1);
                self.cut[depth][1] += 1;
                return Ok(0);
            }
            Some(key)
        } else {
            None
        };
        let cuts_before = self.sym_cuts.get();
        let kids = self.children(region);
        if S::EXACT && S::lost() {
            self.prep.overflow.store(true, AtomicOrdering::Relaxed);
            crate::num::take_overflow();
            return Err(Stop);
        }
        let mut found = 0;
        let d = kids.len() as u32;
        for (k, child) in kids.iter().enumerate() {
            self.pos[depth] = (k as u32, d);
            let next = self.apply(region, child);
            let r = self.dfs(&next, depth + 1, base, sink, ticker);
            self.undo();
            found += r?;
        }
        // Regions are impossible whatever the search order, but a subtree
        // where the symmetry-breaking piece was cut was not searched whole.
        if found == 0 {
            if self.sym_cuts.get() == cuts_before {
                if let Some(key) = key {
                    self.prep.memo.insert(key);
                }
            } else if let Some(key) = placed_key {
                self.prep.memo_placed.insert(key);
            }
        }
        Ok(found)
    }
}

impl<S: Scalar> Tree for Solver<S> {
    type Solution = [Placement<S>];

    fn node(&mut self, path: &[u32]) -> Result<NodeKind, NoSuchNode> {
        self.node_counted(path, &mut NodeStats::new())
    }

    /// What the node at `path` is; a region found dead (a part no piece
    /// can fill) counts as cut short by the dead-region rule, as the
    /// search counts it. Memo hits are not seen here: the memo fills only
    /// during [`explore`](Tree::explore).
    fn node_counted(
        &mut self,
        path: &[u32],
        stats: &mut NodeStats,
    ) -> Result<NodeKind, NoSuchNode> {
        crate::num::take_overflow();
        let region = self.descend(path)?;
        Ok(match self.status(&region) {
            Status::Dead => {
                stats.add_pruned(Prune::DeadRegion, path.len(), 1);
                NodeKind::DeadEnd
            }
            Status::Leaf => NodeKind::Solution(self.leaf()),
            Status::Open => {
                let kids = self.children(&region);
                if kids.is_empty() {
                    NodeKind::DeadEnd
                } else {
                    NodeKind::Inner(kids.len() as u32)
                }
            }
        })
    }

    /// The corner of the region the children fill.
    fn branch(&mut self, path: &[u32]) -> Result<Option<Branch>, NoSuchNode> {
        if !matches!(self.node(path)?, NodeKind::Inner(_)) {
            return Ok(None);
        }
        let region = self.descend(path)?;
        Ok(self.corner(&region).map(|(pi, vi)| {
            let [x, y] = region[pi].v[vi].p.to_f64();
            Branch::Corner(x, y)
        }))
    }

    fn explore(
        &mut self,
        path: &[u32],
        sink: &mut dyn Sink<[Placement<S>]>,
        ticker: &mut Ticker<'_>,
        stats: &mut NodeStats,
    ) -> Result<ControlFlow<()>, NoSuchNode> {
        crate::num::take_overflow();
        let region = self.descend(path)?;
        if S::EXACT && S::lost() {
            self.prep.overflow.store(true, AtomicOrdering::Relaxed);
            crate::num::take_overflow();
            return Ok(ControlFlow::Break(()));
        }
        let base = path.len();
        let r = self.dfs(&region, base, base, sink, ticker);
        // Overflow in a dead-end test or a leaf's symmetry check shows only
        // here: the counts may be wrong, so the search counts as stopped.
        let r = if S::EXACT && crate::num::take_overflow() {
            self.prep.overflow.store(true, AtomicOrdering::Relaxed);
            Err(Stop)
        } else {
            r
        };
        let nodes = std::mem::take(&mut self.since_poll);
        let _ = ticker.poll(nodes, || 1.0);
        stats.add_profile(0, &self.counts);
        self.counts.iter_mut().for_each(|c| *c = 0);
        for (d, cut) in self.cut.iter_mut().enumerate() {
            for (rule, n) in [Prune::DeadRegion, Prune::Memo, Prune::Symmetry]
                .into_iter()
                .zip(*cut)
            {
                stats.add_pruned(rule, d, n);
            }
            *cut = [0; 3];
        }
        Ok(match r {
            Ok(_) => ControlFlow::Continue(()),
            Err(Stop) => ControlFlow::Break(()),
        })
    }
}
