//! The state of one search ([`Solver`], one per thread): the copies left
//! of each tile type, the entry chosen at each depth and a frame per depth
//! with its range of candidates. On it, the steps the shared drivers take
//! one node at a time (open a depth, find the next fitting entry, replay a
//! path, weigh and write out a complete assembly) and the [`Tree`]
//! contract built from them.

use super::halves::KeyHasher;
use super::{Prepared, SymmetryMode};
use crate::model::Placement;
use jigsolve_search::{
    fraction_of, NoSuchNode, NodeKind, NodeStats, Probe, Prune, Sink, Ticker, Tree, Weight,
};
use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::ops::ControlFlow;
use std::sync::Arc;

#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Frame {
    /// One past the entry last placed (or the next to look at, for
    /// `next_valid`).
    pub(super) cur: u32,
    pub(super) end: u32,
    pub(super) start: u32,
    /// For the inner loop: the first entry of the block of up to 64 that
    /// `fits` describes, the fitting entries of that block not yet tried (a
    /// bit each), and the first entry after the block.
    pub(super) block: u32,
    pub(super) fits: u64,
    pub(super) next: u32,
    /// Rotations of the tile types with a copy left at this node.
    pub(super) left: u32,
    /// The candidates tried at this node: `left`, or one at a forced position.
    pub(super) tried: u32,
    /// The children counted at the next depth when the node was opened.
    pub(super) kids_before: u64,
}

/// A search over one prepared puzzle; one per thread.
#[derive(Debug)]
pub struct Solver {
    pub(super) prep: Arc<Prepared>,
    pub(super) avail: Vec<u16>,
    pub(super) chosen: Vec<u32>,
    pub(super) frames: Vec<Frame>,
    pub(super) counts: Vec<u64>,
    /// Per depth: the candidates tried at its nodes (counted when a node
    /// opens) and of them those whose marks did not fit (counted when it
    /// closes).
    pub(super) tried: Vec<[u64; 2]>,
    /// Complete assemblies rejected as symmetric copies since the last
    /// flush (counted per leaf, outside the inner loop).
    duplicates: u64,
    placements: Vec<Placement>,
    scratch: Vec<(usize, u8)>,
    next_copy: Vec<usize>,
    /// Whether the inner loop may use the bit-manipulation instructions.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(super) bmi: bool,
    /// Per type, for the complete frame being counted by halves: the first
    /// and one past the last bit of its copies left in a tile mask.
    pub(super) copy_bits: Vec<(u8, u8)>,
    /// The bottom halves of the frame being counted, by the top half that
    /// completes each (its tile mask and the marks it must show the
    /// bottom half), with how many there are.
    pub(super) bottoms: HashMap<u128, u64, BuildHasherDefault<KeyHasher>>,
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

    pub(super) fn reset(&mut self) {
        self.avail.copy_from_slice(&self.prep.avail);
    }

    /// Sets up the candidate range of depth `d` from the neighbours placed.
    #[inline(always)]
    pub(super) fn open(&mut self, d: usize) {
        self.open_in(d, false);
    }

    /// [`open`](Solver::open) with the steps of the bottom half's order when
    /// `bottom` is set.
    #[inline(always)]
    pub(super) fn open_in(&mut self, d: usize, bottom: bool) {
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
    pub(super) fn next_valid(&mut self, d: usize) -> Option<u32> {
        self.next_valid_in(d, false)
    }

    /// [`next_valid`](Solver::next_valid) with the steps of the bottom
    /// half's order when `bottom` is set.
    #[inline(always)]
    pub(super) fn next_valid_in(&mut self, d: usize, bottom: bool) -> Option<u32> {
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
    pub(super) fn place(&mut self, d: usize, entry: u32) {
        self.chosen[d] = entry;
        let ty = self.prep.entries[entry as usize].ty as usize;
        self.avail[ty] -= 1;
    }

    #[inline(always)]
    pub(super) fn unplace(&mut self, d: usize) {
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
    pub(super) fn leaf_weight(&mut self) -> Weight {
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

    pub(super) fn report(&mut self, sink: &mut dyn Sink<[Placement]>) -> ControlFlow<()> {
        let w = self.leaf_weight();
        if w.is_zero() {
            self.duplicates += 1;
            return ControlFlow::Continue(());
        }
        self.fill_placements();
        sink.solution(&self.placements, w)
    }

    pub(super) fn position(&self, base: usize, depth: usize) -> f64 {
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
