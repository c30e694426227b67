//! The depth-first descent below a node: the search loop
//! ([`Solver::run`]) and its inner loop ([`Solver::advance`]), an explicit
//! stack of the next entry to try at each depth, with no allocation per
//! node and the state of the current depth in registers. The inner loop
//! returns to the search loop at a leaf, when the placements between two
//! polls of the control are spent, or when the subtree is exhausted.

use super::solver::Frame;
use super::Solver;
use crate::model::{MarkId, Placement};
use jigsolve_search::{Sink, Ticker};
use std::ops::ControlFlow;

/// Placements between two polls of the control.
pub(super) const POLL_EVERY: u32 = 1 << 16;

/// What the inner loop walks: the subtree under the node at depth `base`,
/// down to depth `stop` (a "leaf" when its tile at depth `stop - 1` is
/// placed), with the steps of the main order or of the bottom half's.
#[derive(Clone, Copy)]
pub(super) struct Walk {
    pub(super) base: usize,
    pub(super) stop: usize,
    pub(super) bottom: bool,
}

/// Why the inner loop returned.
pub(super) enum Stop {
    /// The tile of depth `stop - 1` is placed: a complete assembly, or a
    /// partial one where the walk ends.
    Leaf,
    /// The placement budget between polls is spent.
    Budget,
    /// The subtree is exhausted.
    Exhausted,
}

impl Solver {
    /// The search loop below `base` (the tiles of depths < base are placed).
    ///
    /// When the sink only counts and the puzzle has
    /// [`Halves`](super::halves::Halves), the walk stops at each complete
    /// frame and counts its completions by halves
    /// ([`count_halves`](Solver::count_halves)); a subtree whose root is
    /// already inside the frame is walked to its leaves.
    pub(super) fn run(
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
    /// ([`Options::tried`](super::Options::tried)), so that a search that
    /// does not report it pays nothing for it.
    pub(super) fn advance(&mut self, walk: Walk, d: &mut usize, budget: u32) -> (Stop, u64) {
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
}
