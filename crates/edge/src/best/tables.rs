//! The candidate lists: per class of cells (frame sides, key sides), the
//! orientations of the free tiles under the marks they show on the key
//! sides, and again under each key with a side left "any" for the breaks.

use super::NONE;
use crate::model::{MarkId, Puzzle};
use std::collections::HashMap;

/// Candidate lists of one (frame shape, key sides) class, indexed by the
/// marks shown on the two key sides (`wild` for "any"): `a * width + b`.
///
/// With few marks (Eternity II has 23) every key has its list, read
/// directly. With many, most of the `width * width` keys have no tile: a
/// list per key took 400 MB a table on a board of 4,096 marks (6.5 GB in
/// all), so only the keys that have tiles get a list, found through `at`.
#[derive(Clone, Debug)]
pub(super) struct Table {
    pub(super) lists: Vec<Vec<u32>>,
    at: Option<HashMap<usize, u32>>,
}

/// Most keys (`width * width`) for which a table keeps a list per key.
const DENSE_KEYS: usize = 1 << 16;

impl Table {
    /// The candidates of key `key`.
    #[inline]
    pub(super) fn list(&self, key: usize) -> &[u32] {
        match &self.at {
            None => &self.lists[key],
            Some(at) => at.get(&key).map_or(&[], |&i| &self.lists[i as usize]),
        }
    }
}

/// The candidate lists for cells with frame sides `frame` and key sides
/// `key`: every orientation of a free tile that shows the border mark on the
/// frame sides and nowhere else, under its exact key and under each key
/// with one side (or both) replaced by "any" (for breaks).
pub(super) fn build_table(
    puzzle: &Puzzle,
    looks: &[[MarkId; 4]],
    hinted_tile: &[bool],
    frame: u8,
    key: [u8; 2],
    width: usize,
    wild: usize,
) -> Table {
    let dense = width.saturating_mul(width) <= DENSE_KEYS;
    let mut lists: Vec<Vec<u32>> = if dense {
        vec![Vec::new(); width * width]
    } else {
        Vec::new()
    };
    let mut at: HashMap<usize, u32> = HashMap::new();
    for (o, look) in looks.iter().enumerate() {
        if hinted_tile[o / 4] {
            continue;
        }
        if let Some(b) = puzzle.border {
            if (0..4).any(|s| (look[s] == b) != (frame >> s & 1 == 1)) {
                continue;
            }
        }
        // A tile that looks the same turned is listed in one rotation only.
        let tile = &puzzle.tiles[o / 4];
        let r = (o % 4) as u8;
        if (0..r).any(|earlier| tile.rotated(earlier) == *look) {
            continue;
        }
        let mark = |s: u8| {
            if s == NONE {
                wild
            } else {
                look[s as usize] as usize
            }
        };
        let (a, b) = (mark(key[0]), mark(key[1]));
        let mut keys = vec![a * width + b, a * width + wild, wild * width + b];
        keys.push(wild * width + wild);
        keys.sort_unstable();
        keys.dedup();
        for k in keys {
            let i = if dense {
                k
            } else {
                *at.entry(k).or_insert_with(|| {
                    lists.push(Vec::new());
                    lists.len() as u32 - 1
                }) as usize
            };
            lists[i].push(o as u32);
        }
    }
    Table {
        lists,
        at: (!dense).then_some(at),
    }
}
