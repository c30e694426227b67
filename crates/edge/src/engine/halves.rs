//! Counting the completions of a complete frame by meeting in the middle.
//!
//! In the frame order the inside of the frame is filled last. It is cut
//! into a top and a bottom half that balance and share few sides
//! ([`Halves`]). For each complete frame the bottom halves are walked on
//! their own and filed by the top half that completes each (its tiles and
//! the marks it must show on the seam); then each top half walked adds the
//! bottoms filed under its own key ([`Solver::count_halves`]). Random
//! probes decide whether that walks fewer nodes than the plain walk
//! ([`keep_halves_if_they_pay`]).

use super::descent::{Stop, Walk, POLL_EVERY};
use super::tables::{Step, TableBuilder};
use super::{Prepared, Solver};
use crate::model::Placement;
use jigsolve_search::estimate::SplitMix64;
use jigsolve_search::{Sink, Ticker};
use std::hash::Hasher;
use std::ops::ControlFlow;
use std::sync::Arc;

/// The inside of a complete frame cut into a top and a bottom half, for
/// counting by meeting in the middle (see [`Solver`]).
#[derive(Debug)]
pub(super) struct Halves {
    /// The depth at which the frame is complete: every cell from here on is
    /// inside it (and none is a hint's).
    pub(super) at: usize,
    /// The first depth of the bottom half.
    pub(super) mid: usize,
    /// The steps of depths `mid..`: the bottom half filled from the far end
    /// back (the main order reversed), each cell checked against the frame
    /// and the bottom cells placed before it. Below `mid`, the main steps.
    pub(super) steps: Vec<Step>,
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
    pub(super) fn of(
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

/// `prep` without its halves unless random probes estimate that counting
/// by halves walks fewer nodes than the plain walk below the middle (each
/// bottom half filed and each top half looked up counted as a node more).
/// On few colours the halves are much smaller than the subtrees below the
/// middle (Eternity II clue 1); on many colours a bottom half that does not
/// see the top is larger (Owen's 6 x 6 in frame order).
pub(super) fn keep_halves_if_they_pay(prep: Prepared) -> Prepared {
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

impl Solver {
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
    pub(super) fn count_halves(
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
}

/// Hashes the keys of [`Solver::bottoms`]: tile masks and packed marks, whose
/// bits are far from random, mixed by multiplying.
#[derive(Default)]
pub(super) struct KeyHasher(u64);

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
