//! The candidate tables and the steps that read them.
//!
//! Every position of the scan gets a [`Step`]: the neighbours placed before
//! it whose marks key its table, and those checked one by one in the loop.
//! A table maps a key to the pre-rotated entries (tile type, rotation, the
//! marks shown and the marks a neighbour must show) that show exactly those
//! marks and respect the frame; positions that constrain the same sides the
//! same way (and force the same entry, for a hint) share one table.

use super::SymmetryMode;
use crate::model::{MarkId, Puzzle, EAST, NORTH, SOUTH, WEST};
use crate::symmetry::TileTypes;
use jigsolve_search::estimate::SplitMix64;
use std::collections::HashMap;

#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Entry {
    pub(super) ty: u16,
    pub(super) rot: u8,
    /// Marks shown on each side.
    pub(super) shown: [MarkId; 4],
    /// For each side, the mark a neighbour on that side must show.
    pub(super) req: [MarkId; 4],
}

/// A neighbour placed earlier: at `depth`, its side `side` faces our side `own`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(super) struct Link {
    pub(super) depth: u16,
    pub(super) side: u8,
    pub(super) own: u8,
}

#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Step {
    /// Index of the table's first offset in `Prepared::offsets`.
    pub(super) table: u32,
    pub(super) keys: [Link; 4],
    pub(super) strides: [u32; 4],
    pub(super) n_keys: u8,
    pub(super) checks: [Link; 4],
    pub(super) n_checks: u8,
    /// A hint's position (or the pinned breaker's): one candidate only.
    pub(super) forced: bool,
}

/// Largest table of offsets per position kind (keys beyond it are checked in
/// the loop instead of indexed).
const MAX_TABLE: u64 = 1 << 20;

/// What makes two positions share a table: indexed sides, frame sides, and
/// the entry a hint forces.
type TableKey = (Vec<u8>, [bool; 4], Option<(usize, u8)>);

pub(super) struct TableBuilder<'a> {
    pub(super) puzzle: &'a Puzzle,
    pub(super) types: &'a TileTypes,
    pub(super) mode: SymmetryMode,
    pub(super) breaker_rots: &'a [u8],
    pub(super) seed: u64,
    pub(super) entries: Vec<Entry>,
    pub(super) offsets: Vec<u32>,
    pub(super) memo: HashMap<TableKey, u32>,
}

impl TableBuilder<'_> {
    /// The step of the position at `cell`, whose neighbours placed before
    /// it are those `placed_at` gives a depth for, forced to one entry or not.
    pub(super) fn step(
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
            rng.shuffle(&mut candidates);
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
pub(super) fn frame_sides(cell: usize, rows: usize, cols: usize) -> [bool; 4] {
    let (r, c) = (cell / cols, cell % cols);
    [r == 0, c + 1 == cols, r + 1 == rows, c == 0]
}

/// Whether marks `shown` respect the border rule at a cell whose `frame`
/// sides face the edge: the border mark out, and nowhere else.
pub(super) fn fits_frame(shown: &[MarkId; 4], frame: [bool; 4], border: Option<MarkId>) -> bool {
    (0..4).all(|s| match (border, frame[s]) {
        (Some(b), true) => shown[s] == b,
        (Some(b), false) => shown[s] != b,
        (None, _) => true,
    })
}
